#!/usr/bin/env bash
# run_case.sh [OPTIONS] -- COMMAND... - runs one dgpb-run test and checks it.
#
#   --status N         the exit status (default 0)
#   --stdout TEXT      standard output, exactly (a trailing newline added)
#   --empty-stdout     nothing on standard output
#   --stdout-re REGEX  a line of standard output matches (grep -E)
#   --stderr-re REGEX  a line of standard error matches (grep -E)
#   --no-stderr        standard error stays empty
#   --file PATH=HEX    after the run, PATH holds exactly these bytes (hex)
#   --env VAR=VALUE    set for the command only
#
# $DGPB_TEST_PRELOAD (sanitizer builds) is preloaded into the command only.
set -u
status=0 stdout= stdout_set=0 files=() envs=() stdout_res=() stderr_res=() no_stderr=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    --status) status=$2; shift 2 ;;
    --stdout) stdout=$2; stdout_set=1; shift 2 ;;
    --empty-stdout) stdout=; stdout_set=1; shift ;;
    --stdout-re) stdout_res+=("$2"); shift 2 ;;
    --stderr-re) stderr_res+=("$2"); shift 2 ;;
    --no-stderr) no_stderr=1; shift ;;
    --file) files+=("$2"); shift 2 ;;
    --env) envs+=("$2"); shift 2 ;;
    *) echo "run_case.sh: unknown option $1"; exit 2 ;;
    esac
done
shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -n "${DGPB_TEST_PRELOAD:-}" ]; then envs+=("LD_PRELOAD=$DGPB_TEST_PRELOAD"); fi
env ${envs[@]+"${envs[@]}"} "$@" >"$tmp/out" 2>"$tmp/err"; got=$?
echo "== stdout"; cat "$tmp/out"; echo "== stderr"; cat "$tmp/err"
fail=0
if [ "$got" -ne "$status" ]; then echo "FAIL: exit status $got, expected $status"; fail=1; fi
if [ $stdout_set = 1 ] && [ "$(cat "$tmp/out")" != "$stdout" ]; then
    echo "FAIL: standard output differs; expected:"; printf '%s\n' "$stdout"; fail=1
fi
for re in ${stdout_res[@]+"${stdout_res[@]}"}; do
    grep -Eq -- "$re" "$tmp/out" || { echo "FAIL: standard output lacks /$re/"; fail=1; }
done
for re in ${stderr_res[@]+"${stderr_res[@]}"}; do
    grep -Eq -- "$re" "$tmp/err" || { echo "FAIL: standard error lacks /$re/"; fail=1; }
done
if [ $no_stderr = 1 ] && [ -s "$tmp/err" ]; then echo "FAIL: standard error is not empty"; fail=1; fi
for f in ${files[@]+"${files[@]}"}; do
    path=${f%%=*} want=${f#*=}
    have=$(od -An -v -tx1 "$path" 2>/dev/null | tr -d ' \n')
    [ "$have" = "$want" ] || { echo "FAIL: $path holds '$have', expected '$want'"; fail=1; }
done
exit $fail
