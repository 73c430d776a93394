#!/usr/bin/env bash
# build_diagnostic_paths.sh BUILD SLANGC RECORDER FAKE_SLANG - every diagnostic names the
# module as the user gave it (docs/build.md, "Diagnostics"), never by an absolute path nor
# by the discovery's wrapper in the intermediate folder, in text and in --diagnostics json:
#  * the discovery's compile (which includes the module by its absolute path), and a
#    module that leaves a brace open, which Slang reports at the end of the wrapper: at
#    the module's end instead, as slangc run on the module alone says, with nothing about
#    the anchor entry; --list the same;
#  * the same through the compile service (DGPB_SERVICE=auto, a service folder of its own);
#  * Slang's warnings of the entries' compiles, and their replay from the compile cache,
#    also for the same module spelled another way;
#  * a compiler that crashes after naming the module by its absolute path (its last words);
#  * a layout recorder whose Slang names the module by its absolute path (the fake
#    libslang's "abspath" modules).
set -u
build=$1 slangc=$2 recorder=$3 fake=$4
work=$(mktemp -d); work=$(cd "$work" && pwd -P)
export DGPB_SERVICE_DIR="$work/service" DGPB_CACHE_DIR="$work/cache" DGPB_SERVICE=off
unset DGPB_NO_CACHE # ctest sets it; the warnings are replayed from a cache of the test's own
cleanup() {
    DGPB_SERVICE_DIR="$work/service" timeout 20 "$build" --service-stop >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1
mkdir -p broken
cat > broken/syntax_error.slang <<'EOF'
// a module with a syntax error

[shader("compute")]
[numthreads(64, 1, 1)]
void k(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> data)
{
    float x = 1.0
    data[id.x] = x;
}
EOF
printf '%s\n' '[shader("compute")]' '[numthreads(64, 1, 1)]' \
    'void k(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> data)' '{' \
    '    data[id.x] = 1.0;' > broken/unclosed.slang
cat > broken/warn.slang <<'EOF'
RWStructuredBuffer<int> data;
[shader("compute")]
[numthreads(64, 1, 1)]
void k(uint3 id : SV_DispatchThreadID)
{
    int i = 1.5;
    data[id.x] = i;
}
EOF
mkdir -p shaders # not "broken", which the fake libslang fails on its own way
sed 's/data\[id.x\] = i;/data[id.x] = i + 1;/' broken/warn.slang > shaders/abspath_k.slang

# check NAME STATUS REGEX ARGS...: dgpb-build ARGS exits STATUS, prints a line matching
# REGEX, and names no file by an absolute path or in the intermediate folder.
check() {
    local name=$1 want=$2 regex=$3
    shift 3
    "$build" "$@" > "$work/$name.out" 2>&1; local s=$?
    [ "$s" -eq "$want" ] || fail "$name: exit $s, not $want: $(cat "$work/$name.out")"
    grep -Eq -- "$regex" "$work/$name.out" || fail "$name: no /$regex/: $(cat "$work/$name.out")"
    ! grep -Eq -- "$work|/dgpb-build-|discover\.slang|dgpb_discovery_anchor" "$work/$name.out" ||
        fail "$name: a path the user did not give: $(cat "$work/$name.out")"
}
syntax='^broken/syntax_error\.slang\(8\): error 20001: unexpected identifier'
syntax_json='"file":"broken/syntax_error\.slang","line":8,"column":5,"code":"E20001"'
unclosed='^broken/unclosed\.slang\(6\): error 20001: unexpected end of file'
unclosed_json='"file":"broken/unclosed\.slang","line":6,"column":null,"code":"E20001"'
for service in off auto; do
    export DGPB_SERVICE=$service
    check "syntax-$service" 1 "$syntax" --no-cache --targets spirv broken/syntax_error.slang
    check "syntax-json-$service" 1 "$syntax_json" --no-cache --diagnostics json \
        --targets spirv broken/syntax_error.slang
    check "unclosed-$service" 1 "$unclosed" --no-cache --targets spirv,wgsl broken/unclosed.slang
    [ "$(grep -c 'error 20001' "$work/unclosed-$service.out")" = 1 ] ||
        fail "unclosed-$service: not one error: $(cat "$work/unclosed-$service.out")"
    check "unclosed-json-$service" 1 "$unclosed_json" --no-cache --diagnostics json \
        --targets spirv broken/unclosed.slang
    [ "$(grep -c '"severity"' "$work/unclosed-json-$service.out")" = 2 ] ||
        fail "unclosed-json-$service: not the failure and one error: $(cat "$work/unclosed-json-$service.out")"
    check "unclosed-list-$service" 1 "$unclosed" --list --targets spirv broken/unclosed.slang
    echo "ok: the discovery's diagnostics name the module as given (DGPB_SERVICE=$service)"
done
grep -q "compile service" <(DGPB_SERVICE=auto "$build" -v --no-cache --targets spirv \
    broken/syntax_error.slang 2>&1) || fail "the service did not compile"
export DGPB_SERVICE=off

# Slang's warnings: from the entries' compiles, then replayed from the cache (a whole build
# filed), then for the module spelled another way.
warn='^broken/warn\.slang:6:13: warning\[E30081\]'
check warn 0 "$warn" --no-layouts --targets spirv -o out broken/warn.slang
check warn-json 0 '"file":"broken/warn\.slang","line":6,"column":13,"code":"E30081"' \
    --no-cache --no-layouts --diagnostics json --targets spirv -o out broken/warn.slang
check warn-cached 0 "$warn" --no-layouts --targets spirv -o out broken/warn.slang
grep -q '(from the cache)' "$work/warn-cached.out" || fail "not replayed: $(cat "$work/warn-cached.out")"
check warn-spelled 0 '^\./broken/\.\./broken/warn\.slang:6:13: warning\[E30081\]' \
    --no-layouts --targets spirv -o out ./broken/../broken/warn.slang
(cd broken && "$build" --no-layouts --targets spirv -o ../out warn.slang > "$work/warn-inside.out" 2>&1) ||
    fail "warn.slang from its folder: $(cat "$work/warn-inside.out")"
grep -Eq '^warn\.slang:6:13: warning\[E30081\]' "$work/warn-inside.out" &&
    ! grep -q "$work" "$work/warn-inside.out" || fail "from its folder: $(cat "$work/warn-inside.out")"
echo "ok: Slang's warnings name the module as given, compiled and replayed from the cache"

# A compiler that names the module by its absolute path, then dies: its last words.
cat > "$work/slangc" <<SH
#!/usr/bin/env bash
# Names the module (the discovery's: the one its wrapper includes) by its absolute path and
# dies, on the compiles whose arguments hold \$CRASH_ON; else runs slangc.
module=
for a in "\$@"; do
    case "\$a" in
    */discover.slang) module=\$(sed -n '1s/^#include "\\(.*\\)"\$/\\1/p' "\$a") ;;
    *.slang) [ -n "\$module" ] || module=\$(realpath "\$a") ;;
    esac
done
for a in "\$@"; do
    if [ "\$a" = "\$CRASH_ON" ]; then
        echo "\$module(2): internal error 99999: about to fail" >&2
        kill -SEGV \$\$
    fi
done
exec "$slangc" "\$@"
SH
chmod +x "$work/slangc"
export CRASH_ON=-target # every compile: the discovery, the first
check crash-discovery 3 '^broken/warn\.slang\(2\): internal error 99999' --no-cache --no-layouts \
    --targets spirv --slangc "$work/slangc" -o out broken/warn.slang
export CRASH_ON=-entry
check crash-entry 3 '^broken/warn\.slang\(2\): internal error 99999' --no-cache --no-layouts \
    --targets spirv --slangc "$work/slangc" -o out broken/warn.slang
unset CRASH_ON
echo "ok: a crashed compiler's last words name the module as given"

# A layout recorder whose Slang names the module by its absolute path.
check layout 1 "the layout recorder failed: .*: shaders/abspath_k\.slang\(3\): error 30015" \
    --no-cache --targets spirv --compiler embedded --layout-recorder "$recorder" --slang-lib "$fake" -o out \
    shaders/abspath_k.slang
echo "ok: the layout recorder's diagnostics name the module as given"
