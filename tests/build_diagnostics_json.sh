#!/usr/bin/env bash
# build_diagnostics_json.sh BUILD FIXTURES - dgpb-build --diagnostics json
# (docs/build.md, "Diagnostics"): every line on standard error is one JSON
# object with severity, file, line, column, code and message (null where
# unknown), for Slang's warnings on success, Slang's errors of a module that
# does not compile (each with the column of its caret: a tab before it is one
# byte, where Slang's caret line widens it to 4 columns), dgpb-build's own
# errors (a refused shape) and its usage errors; the text form stays as it
# was.
set -u
build=$1 fixtures=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work" || exit 1

# check LOG STATUS WANT STATUS_SEEN - every line JSON, with exactly the keys; then each
# record of WANT ("severity file line column code message-regex" per line, _ for null)
# is among them.
check() {
    python3 - "$@" <<'PY'
import json, re, sys
log, want, status, seen = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if status != seen:
    sys.exit(f"exit status {seen}, not {status}")
records = []
for line in log.split("\n"):
    if not line:
        continue
    try:
        r = json.loads(line)
    except ValueError as e:
        sys.exit(f"not JSON: {line!r} ({e})")
    if list(r) != ["severity", "file", "line", "column", "code", "message"]:
        sys.exit(f"not the keys: {line}")
    records.append(r)
for w in want.strip().split("\n"):
    sev, file, ln, col, code, msg = w.split(" ", 5)
    def same(v, s):
        return v is None if s == "_" else str(v) == s
    if not any(r["severity"] == sev and same(r["file"], file) and same(r["line"], ln)
               and same(r["column"], col) and same(r["code"], code)
               and re.search(msg, r["message"]) for r in records):
        sys.exit(f"no record {w!r} in:\n{log}")
PY
}

cp "$fixtures/slangc-wasm/warnings.slang" w.slang
log=$("$build" --no-cache --no-layouts --targets spirv,wgsl --diagnostics json w.slang -o w 2>&1); status=$?
printf '%s\n' "$log"
check "$log" "warning w.slang 21 13 E30081 ^implicit conversion from 'float' to 'int' is not recommended$
warning w.slang 10 5 E41016 ^use of uninitialized variable 'x'$
note _ _ _ _ ^wrote w/w.dgpb" 0 $status || fail "the warnings"
[ "$(grep -c E30081 <<<"$log")" -eq 1 ] || fail "the warning is not once"

cat > e.slang <<'SLANG'
RWStructuredBuffer<int> output;

[shader("compute")]
[numthreads(1, 1, 1)]
void k(uint3 id : SV_DispatchThreadID)
{
    int i = 1.5;
	output[id.x] = undefinedThing + i;
}
SLANG
log=$("$build" --no-cache --no-layouts --targets spirv,wgsl --diagnostics json e.slang -o e 2>&1); status=$?
printf '%s\n' "$log"
check "$log" "error e.slang _ _ DGPB_ERR_SHADER ^targets 'spirv', 'wgsl': the module does not compile$
warning e.slang 7 13 E30081 ^implicit conversion
error e.slang 8 17 E30015 ^undefined identifier 'undefinedThing'\\.$" 1 $status || fail "the errors"
# The text form is as it was: Slang's own lines, quoted under dgpb-build's.
log=$("$build" --no-cache --no-layouts --targets spirv,wgsl e.slang -o e 2>&1)
grep -qx "e.slang: error: targets 'spirv', 'wgsl': the module does not compile:" <<<"$log" || fail "text: the error"
grep -q "e.slang(8): error 30015: undefined identifier 'undefinedThing'.$" <<<"$log" || fail "text: Slang's line"

log=$("$build" --no-cache --no-layouts --targets ptx --diagnostics json "$fixtures/plain/fail/append_buffer.slang" -o a 2>&1); status=$?
printf '%s\n' "$log"
check "$log" "error $fixtures/plain/fail/append_buffer.slang _ _ DGPB_ERR_SHADER ^target 'ptx', entry 'filter', parameter 'kept': AppendStructuredBuffer" 1 $status ||
    fail "a refused shape"

log=$("$build" --diagnostics json --frobnicate w.slang 2>&1); status=$?
check "$log" "error _ _ _ DGPB_ERR_INVALID ^unknown option '--frobnicate' \\(see 'dgpb-build --help'\\)$" 2 $status ||
    fail "a usage error"
log=$("$build" --diagnostics yaml w.slang 2>&1); status=$?
[ "$status" -eq 2 ] && grep -q "error: --diagnostics is 'text' or 'json', not 'yaml'" <<<"$log" ||
    fail "--diagnostics yaml"
echo "ok"
