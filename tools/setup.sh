#!/usr/bin/env bash
# tools/setup.sh - installs everything dgpb needs on a fresh Debian 12 machine and builds it.
#
#   sudo tools/setup.sh          (or as root: tools/setup.sh)
#
# Installs Debian's packages (compiler, CMake, cJSON, OpenSSL, SPIRV-Tools,
# cmocka, the Vulkan loader), lavapipe from Debian's bookworm-backports suite
# (mesa 25: the lavapipe that Dawn, the WebGPU implementation the tests run
# WGSL on, accepts; Debian 12's own mesa 22 is refused), Node.js and npm only
# where they are missing, the npm packages (npm ci: the embedded Slang
# compiler, the cross-check tools, Dawn), then builds into build/. Safe to
# run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
    build-essential cmake pkg-config ninja-build
    libcjson-dev libssl-dev spirv-tools libcmocka-dev
    libcurl4-openssl-dev libhiredis-dev redis-server nginx
    libvulkan-dev chromium
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

# lavapipe from bookworm-backports: the suite is added next to Debian's own
# entry, on the same mirror, and only mesa's packages are taken from it.
need_root() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: $1" >&2
        echo "setup: run this script as root (sudo tools/setup.sh)" >&2
        exit 1
    fi
}
mesa_version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
if ! dpkg --compare-versions "${mesa_version:-0}" ge 25; then
    need_root "mesa-vulkan-drivers 25 (lavapipe) from bookworm-backports is missing (have: ${mesa_version:-none})"
    if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
        [ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\) bookworm main.*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)
        [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
        printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$mirror" >/etc/apt/sources.list.d/bookworm-backports.sources
    fi
    echo "setup: installing mesa-vulkan-drivers (lavapipe) from bookworm-backports"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers
fi

if [ -f tools/slangc-wasm/package-lock.json ]; then
    echo "setup: installing the embedded Slang compiler (npm ci)"
    (cd tools/slangc-wasm && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/crosscheck && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/webgpu && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: building into build/"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: done. Run the tests with: tools/test.sh"
