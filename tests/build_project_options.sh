#!/usr/bin/env bash
# build_project_options.sh BUILD DUMP SLANGC FIXTURES - dgpb-build's project options
# (docs/build.md, "Project options"): --matrix-layout, --spirv-version, --capability,
# --block-layout, --optimization (-O) and --debug-info (-g).
#
#  1. Bad values are usage errors (exit 2) naming the option, on the command line
#     and in an @FILE; so is a capability that names a SPIR-V version.
#  2. The embedded compiler refuses what its API cannot honour (exit 2, before any
#     compile, nothing written), naming itself; --spirv-version 1.5, the version it
#     writes, builds, and the bundle's view records it ("options"), as dgpb-dump --json
#     regenerates it; at the default options there is no "options" object.
#  3. A stand-in native slangc (a script that logs its arguments and hands the compile
#     to SLANGC without the options SLANGC cannot take) shows what every compile gets:
#     -matrix-layout-column-major, -capability NAME sorted and once each, -profile
#     spirv_1_N and the block layout's -fvk-use-*-layout on the compiles to SPIR-V only,
#     -O<level> and -g<level> on every compile. Its code stays SLANGC's (row-major,
#     SPIR-V 1.5), so --spirv-version 1.6 fails the build's proof of the version (exit 1).
#  4. The compile cache: a build with another option never replays one without it (nor
#     the other way round), and the same options again are answered from it whole.
set -u
build=$1 dump=$2 slangc=$3 fixtures=$4
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
module=$fixtures/build/plain.slang
export DGPB_SERVICE=off
unset DGPB_SLANGC SLANG_ROOT

# expect STATUS REGEX ARGS...: dgpb-build ARGS exits STATUS and prints REGEX.
expect() {
    local want=$1 regex=$2 status=0
    shift 2
    "$build" "$@" >"$work/out" 2>&1 || status=$?
    [ "$status" = "$want" ] || { cat "$work/out"; fail "dgpb-build $*: exit $status, not $want"; }
    grep -Eq -- "$regex" "$work/out" || { cat "$work/out"; fail "dgpb-build $*: no /$regex/"; }
}

# 1. Usage errors.
expect 2 "--matrix-layout is 'row' or 'column', not 'diagonal'" --matrix-layout diagonal "$module"
expect 2 "--spirv-version is 1.3, 1.4, 1.5 or 1.6, not '1.2' \(Vulkan 1.1 takes SPIR-V 1.3" \
    --spirv-version 1.2 "$module"
expect 2 "--spirv-version is 1.3, 1.4, 1.5 or 1.6, not '1.10'" --spirv-version=1.10 "$module"
expect 2 "'--spirv-version' needs a value" --spirv-version
expect 2 "--capability 'spvA,,spvB': an empty item is no Slang capability name" \
    --capability spvA,,spvB "$module"
expect 2 "--capability 'spv-A': 'spv-A' is no Slang capability name" --capability spv-A "$module"
expect 2 "--capability spirv_1_6 names a SPIR-V version: give it as --spirv-version 1.6" \
    --no-cache --capability spirv_1_6 "$module"
printf '%s\n' --matrix-layout sideways >"$work/args"
expect 2 "--matrix-layout is 'row' or 'column', not 'sideways'" "@$work/args" "$module"
expect 2 "--block-layout is one of default, scalar, gl, c, not 'std140'" --block-layout std140 "$module"
expect 2 "--block-layout is one of default, scalar, gl, c, not 'dx'" --block-layout=dx "$module"
expect 2 "'--block-layout' needs a value" --block-layout
expect 2 "-O is 0, 1, 2 or 3, not '4'" -O4 "$module"
expect 2 "--optimization is 0, 1, 2 or 3, not 'fast'" --optimization fast "$module"
expect 2 "unknown option '-Ofast'" -Ofast "$module"
expect 2 "-g is 0, 1, 2 or 3, not '5'" -g5 "$module"
expect 2 "--debug-info is 0, 1, 2 or 3, not 'full'" --debug-info=full "$module"
expect 2 "--spirv-validation is 'warn' or 'error', not 'off'" --spirv-validation off "$module"
printf '%s\n' -O9 >"$work/args"
expect 2 "-O is 0, 1, 2 or 3, not '9'" "@$work/args" "$module"

# 2. The embedded compiler.
refusal="the embedded compiler \(Slang [0-9.]+ WebAssembly\) cannot compile with"
expect 2 "plain.slang: error: $refusal --matrix-layout column: its API has no matrix-layout setting" \
    --no-cache -v --matrix-layout column "$module" -o "$work/refused"
grep -q -- "-target" "$work/out" && fail "a compile ran before the refusal"
[ -e "$work/refused" ] && fail "the refused build wrote '$work/refused'"
expect 2 "$refusal --spirv-version 1.6: its API has no target-profile setting, so it writes SPIR-V 1.5 only" \
    --no-cache --spirv-version 1.6 "$module" -o "$work/refused"
expect 2 "$refusal --capability spvImageQuery: its API has no capability setting" \
    --no-cache --capability spvImageQuery "$module" -o "$work/refused"
printf '%s\n' --capability SPV_KHR_x "$module" -o "$work/refused" >"$work/args"
expect 2 "$refusal --capability SPV_KHR_x" --no-cache "@$work/args"
expect 2 "$refusal --block-layout scalar: its API has no block-layout setting \(its sessions have Slang's own rules: std140 uniform blocks, std430 storage buffers and push constants\)" \
    --no-cache --block-layout scalar "$module" -o "$work/refused"
expect 2 "$refusal --optimization 0: its API has no optimization setting \(its sessions have Slang's default, -O1\)" \
    --no-cache -O0 "$module" -o "$work/refused"
expect 2 "$refusal --debug-info 2: its API has no debug-information setting \(its sessions have none\)" \
    --no-cache -g "$module" -o "$work/refused"
expect 2 "$refusal --debug-info 3: its API has no debug-information setting" \
    --no-cache --debug-info 3 "$module" -o "$work/refused"
[ -e "$work/refused" ] && fail "a refused build wrote '$work/refused'"
# --matrix-layout row is the default: the same bytes, and no "options" object.
"$build" -q --no-cache --no-layouts --targets spirv,wgsl "$module" -o "$work/default" ||
    fail "default build"
"$build" -q --no-cache --no-layouts --targets spirv,wgsl --matrix-layout row "$module" -o "$work/row" ||
    fail "--matrix-layout row build"
cmp -s "$work/default/plain.dgpb" "$work/row/plain.dgpb" || fail "--matrix-layout row changed the bundle"
# So are --block-layout default, -O1 and -g0.
"$build" -q --no-cache --no-layouts --targets spirv,wgsl --block-layout default -O1 -g0 "$module" \
    -o "$work/defaults" || fail "--block-layout default -O1 -g0 build"
cmp -s "$work/default/plain.dgpb" "$work/defaults/plain.dgpb" ||
    fail "--block-layout default -O1 -g0 changed the bundle"
grep -q '"options"' "$work/default/plain.bundle.json" && fail "a default build's view has options"
printf '%s\n' --spirv-version 1.5 >"$work/args"
"$build" -q --no-cache --no-layouts --targets spirv,wgsl "@$work/args" "$module" -o "$work/v15" ||
    fail "--spirv-version 1.5 with the embedded compiler"
grep -A2 '"options":' "$work/v15/plain.bundle.json" | grep -q '"spirv_version":	"1.5"' ||
    fail "the view does not record spirv_version 1.5: $(head -12 "$work/v15/plain.bundle.json")"
"$dump" --json "$work/v15/plain.dgpb" | cmp -s - "$work/v15/plain.bundle.json" ||
    fail "dgpb-dump --json does not regenerate the view with options"
"$dump" --extract spirv/amplify -o "$work/amplify.spv" "$work/v15/plain.dgpb" || fail "extract"
[ "$(od -An -tx4 -j4 -N4 "$work/amplify.spv" | tr -d ' ')" = 00010500 ] || fail "the SPIR-V is not 1.5"

# 3. The stand-in native compiler: logs each compile's arguments, one a line, then hands it
# to the embedded compiler without the options that compiler cannot take.
cat >"$work/slangc" <<SH
#!/usr/bin/env bash
# One record at a time: compiles run at once, and their lines must not interleave.
{ flock 9; printf '%s\n' "\$@" '--' >>"$work/slangc.log"; } 9>>"$work/slangc.lock"
args=()
while [ \$# -gt 0 ]; do
    case "\$1" in
    -matrix-layout-column-major) args+=(-matrix-layout-row-major) ;;
    -capability) shift ;;
    -profile) shift ;;
    -fvk-use-*-layout | -O[0-3] | -g[0-3]) ;;
    *) args+=("\$1") ;;
    esac
    shift
done
exec "$slangc" "\${args[@]}"
SH
chmod +x "$work/slangc"
native() { "$build" -q --no-layouts --slangc "$work/slangc" --targets spirv,wgsl "$@"; }
: >"$work/slangc.log"
native --no-cache --matrix-layout column --capability spvImageQuery,SPV_KHR_x \
    --capability spvImageQuery --spirv-version 1.5 "$module" -o "$work/n" ||
    fail "the stand-in native compiler's build"
# Every compile (one job per -- line): the layout, the capabilities sorted by byte order,
# once each; -profile with -target spirv (code and discovery) and never with -target wgsl.
jobs=$(grep -c -- '^--$' "$work/slangc.log")
[ "$jobs" -ge 4 ] || fail "only $jobs compiles logged"
awk -v RS='--\n' 'NF && $0 ~ /-target\n/ {
        caps = ""; n = split($0, a, "\n")
        for (i = 1; i < n; i++) if (a[i] == "-capability") caps = caps a[i + 1] " "
        if (caps != "SPV_KHR_x spvImageQuery ") { print "capabilities: " caps; bad = 1 }
        if ($0 !~ /-matrix-layout-column-major\n/) { print "no column-major"; bad = 1 }
        spirv = $0 ~ /-target\nspirv\n/; profile = $0 ~ /-profile\nspirv_1_5\n/
        if (spirv != profile) { print "profile " profile " on a compile to spirv " spirv; bad = 1 }
    } END { exit bad }' "$work/slangc.log" || fail "a compile's options (slangc.log above)"
grep -qx -- wgsl "$work/slangc.log" || fail "no wgsl compile logged"
sed -n '/"options":/,/}/p' "$work/n/plain.bundle.json" >"$work/options"
printf '%s\n' '	"options":	{' '		"matrix_layout":	"column",' \
    '		"slang_capabilities":	["SPV_KHR_x", "spvImageQuery"],' '		"spirv_version":	"1.5"' \
    '	},' | diff -u - "$work/options" || fail "the view's options"
# The block layout on the compiles to SPIR-V only (code, discovery), -O and -g on every one.
: >"$work/slangc.log"
native --no-cache --block-layout scalar -O0 -g "$module" -o "$work/n2" ||
    fail "the stand-in native compiler's build with --block-layout scalar -O0 -g"
grep -qx -- wgsl "$work/slangc.log" || fail "no wgsl compile logged"
awk -v RS='--\n' 'NF && $0 ~ /-target\n/ {
        spirv = $0 ~ /-target\nspirv\n/; layout = $0 ~ /\n-fvk-use-scalar-layout\n/
        if (spirv != layout) { print "scalar layout " layout " on a compile to spirv " spirv; bad = 1 }
        if ($0 !~ /\n-O0\n/ || $0 !~ /\n-g2\n/) { print "no -O0 -g2"; bad = 1 }
    } END { exit bad }' "$work/slangc.log" || fail "a compile's options (slangc.log above)"
sed -n '/"options":/,/}/p' "$work/n2/plain.bundle.json" >"$work/options"
printf '%s\n' '	"options":	{' '		"block_layout":	"scalar",' '		"debug_info":	"2",' \
    '		"optimization":	"0"' '	},' | diff -u - "$work/options" || fail "the view's options"
"$dump" "$work/n2/plain.dgpb" | grep -qx 'options: block_layout scalar, debug_info 2, optimization 0' ||
    fail "dgpb-dump's listing does not show the options"
"$dump" --json "$work/n2/plain.dgpb" | cmp -s - "$work/n2/plain.bundle.json" ||
    fail "dgpb-dump --json does not regenerate the view with the new options"
# --spirv-version 1.6 with a compiler that writes 1.5: the proof fails.
expect 1 "target 'spirv', entry 'amplify': Slang wrote SPIR-V 1.5, not the 1.6 that --spirv-version asks for \(-profile spirv_1_6\)" \
    --no-cache --no-layouts --slangc "$work/slangc" --targets spirv --spirv-version 1.6 "$module" -o "$work/v16"
[ -e "$work/v16" ] && fail "the build that failed the proof wrote '$work/v16'"

# 4. The cache (ctest turns it off for every other test).
unset DGPB_NO_CACHE
cache=$work/cache
summary() { "$build" --cache-dir "$cache" --no-layouts --targets spirv,wgsl "$@" "$module" 2>&1 >/dev/null |
    sed -n 's/.*; \([0-9]*\) compiles.*/\1/p'; }
[ "$(summary -o "$work/c1")" -gt 0 ] || fail "a cold build ran no compile"
[ "$(summary -o "$work/c1")" = 0 ] || fail "a warm build compiled"
n=$(summary --spirv-version 1.5 -o "$work/c1")
[ "$n" -gt 0 ] || fail "--spirv-version 1.5 replayed the build without it"
grep -q '"spirv_version"' "$work/c1/plain.bundle.json" || fail "the cache wrote the bundle without the option"
[ "$(summary --spirv-version 1.5 -o "$work/c1")" = 0 ] || fail "the same options again compiled"
[ "$(summary -o "$work/c1")" = 0 ] || fail "the default options again compiled"
grep -q '"options"' "$work/c1/plain.bundle.json" && fail "the cache replayed a bundle with options"
cmp -s "$work/c1/plain.dgpb" "$work/default/plain.dgpb" || fail "the cached default bundle differs"
nat() { "$build" --cache-dir "$cache" --no-layouts --slangc "$work/slangc" --targets spirv,wgsl "$@" \
    "$module" -o "$work/c2" 2>&1 >/dev/null | sed -n 's/.*; \([0-9]*\) compiles.*/\1/p'; }
[ "$(nat)" -gt 0 ] || fail "a cold native build ran no compile"
[ "$(nat --matrix-layout column)" -gt 0 ] || fail "--matrix-layout column replayed a row-major build"
[ "$(nat --matrix-layout column --capability spvImageQuery)" -gt 0 ] ||
    fail "--capability replayed a build without it"
[ "$(nat --capability spvImageQuery --matrix-layout column)" = 0 ] ||
    fail "the same options in another order compiled"
[ "$(nat --matrix-layout column)" = 0 ] || fail "column-major again compiled"
[ "$(nat --block-layout scalar)" -gt 0 ] || fail "--block-layout scalar replayed a build without it"
[ "$(nat -O0)" -gt 0 ] || fail "-O0 replayed a build without it"
[ "$(nat -g)" -gt 0 ] || fail "-g replayed a build without it"
[ "$(nat --debug-info 2)" = 0 ] || fail "--debug-info 2 after -g compiled"
[ "$(nat --block-layout scalar)" = 0 ] || fail "--block-layout scalar again compiled"
# --spirv-validation changes no compile (tests/native_validation.sh: nor does it replay a
# whole build made without it).
[ "$(nat --spirv-validation error)" = 0 ] || fail "--spirv-validation error compiled"
echo "ok: project options"
