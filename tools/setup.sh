#!/usr/bin/env bash
# tools/setup.sh - installs everything dgpb needs on a fresh Debian 12 machine and builds it.
#
#   sudo tools/setup.sh          (or as root: tools/setup.sh)
#
# Installs Debian's packages (compiler, CMake, cJSON, OpenSSL, SPIRV-Tools,
# cmocka, the Vulkan loader and lavapipe), Node.js and npm only where they are
# missing, the embedded Slang compiler's npm packages (npm ci), then builds
# into build/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    build-essential cmake pkg-config
    libcjson-dev libssl-dev spirv-tools libcmocka-dev
    libvulkan-dev mesa-vulkan-drivers
)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: these packages are missing: ${missing[*]}" >&2
        echo "setup: run this script as root (sudo tools/setup.sh) to install them" >&2
        exit 1
    fi
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ -f tools/slangc-wasm/package-lock.json ]; then
    echo "setup: installing the embedded Slang compiler (npm ci)"
    (cd tools/slangc-wasm && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/crosscheck && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: building into build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: done. Run the tests with: tools/test.sh"
