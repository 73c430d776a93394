#!/bin/sh
# run_suite.sh [--negative] [--allow-unsupported] [--api cuda] DGPB_RUN BUNDLE_DIR MODULE... - runs the
# Slang-style compute suite (fixtures/compute/*.slang) with dgpb-run on a
# Vulkan device (the spirv target): for each module, the words of its
# `//DGPB_RUN:` lines (concatenated; the first word is the entry, the rest
# are dgpb-run's options) become
#
#     dgpb-run OPTIONS... BUNDLE_DIR/<stem>.dgpb ENTRY
#
# and the module passes when dgpb-run exits 0 (every --expect matched). A
# module whose `//DGPB_TARGETS:` line leaves out spirv is not applicable.
# Prints one line per module and a closing `N passed, N failed`; exits 1 when
# any module failed.
#
# --negative proves that every expectation can fail: each `--expect
# NAME=TYPE:V1,...` of a module in turn gets its last value changed by one
# (floats by 1.0, beyond any tolerance the suite uses), and dgpb-run must then
# exit 1 (an output differs). A module passes when every changed expectation
# is caught.
#
# --allow-unsupported reports a module whose entry needs a capability the
# device lacks (dgpb-run's exit status 6) as not applicable, with dgpb-run's
# message, instead of failed: for runs on real devices. CI leaves it out
# (lavapipe has every capability the suite uses), so there nothing is missed.
#
# --api cuda runs the ptx target through CUDA instead (`dgpb-run --api cuda`):
# a module is applicable when BUNDLE_DIR holds its bundle (the GPU run builds
# every module for ptx and keeps the ones ptx can express; for each one it
# cannot, BUNDLE_DIR/<stem>.why holds dgpb-build's message, printed here).
#
# The run lines are split at white space; values never hold spaces.
set -u

negative=0
allow_unsupported=0
api=vulkan
while :; do
    case ${1:-} in
    --negative) negative=1 ;;
    --allow-unsupported) allow_unsupported=1 ;;
    --api)
        api=${2:-}
        shift
        ;;
    *) break ;;
    esac
    shift
done
if [ $# -lt 3 ] || [ ! -x "$1" ] || { [ "$api" != vulkan ] && [ "$api" != cuda ]; }; then
    echo "usage: run_suite.sh [--negative] [--allow-unsupported] [--api cuda] DGPB_RUN BUNDLE_DIR MODULE..." >&2
    exit 2
fi
run=$1
bundles=$2
shift 2

# The words of a module's //DGPB_RUN: lines, on one line.
run_words() {
    sed -n 's#^//DGPB_RUN:##p' "$1" | tr '\n' ' '
}

# The targets of a module's //DGPB_TARGETS: line (default spirv,wgsl).
module_targets() {
    t=$(sed -n 's#^//DGPB_TARGETS:[[:space:]]*\([a-z0-9,]*\).*#\1#p' "$1" | head -n 1)
    echo "${t:-spirv,wgsl}"
}

# mutate TYPE:V1,...,VN -> the same list with VN changed by one. 64-bit values
# change their last decimal digit (no carry, never out of range); the others
# go through awk, exact for every 32-bit integer and float the suite writes.
mutate() {
    type=${1%%:*}
    list=${1#*:}
    case $list in
    *,*) head=${list%,*}, last=${list##*,} ;;
    *) head='' last=$list ;;
    esac
    case $type in
    u64 | i64)
        digit=${last#"${last%?}"}
        if [ "$digit" -gt 0 ]; then digit=$((digit - 1)); else digit=1; fi
        last=${last%?}$digit
        ;;
    u32) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 4294967295 ? v - 1 : v + 1) }') ;;
    u8) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 255 ? v - 1 : v + 1) }') ;;
    u16) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 65535 ? v - 1 : v + 1) }') ;;
    i16) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 32767 ? v - 1 : v + 1) }') ;;
    i8) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 127 ? v - 1 : v + 1) }') ;;
    i32) last=$(awk -v v="$last" 'BEGIN { printf "%.0f", (v >= 2147483647 ? v - 1 : v + 1) }') ;;
    *) last=$(awk -v v="$last" 'BEGIN { printf "%.9g", v + 1 }') ;;
    esac
    echo "$type:$head$last"
}

passed=0
failed=0
skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for module in "$@"; do
    stem=$(basename "$module" .slang)
    bundle=$bundles/$stem.dgpb
    if [ "$api" = cuda ]; then
        if [ ! -e "$bundle" ]; then
            echo "$stem: not applicable on ptx: $(head -n 1 "$bundles/$stem.why" 2>/dev/null)"
            skipped=$((skipped + 1))
            continue
        fi
    else
        case ",$(module_targets "$module")," in
        *,spirv,*) ;;
        *)
            echo "$stem: not applicable (//DGPB_TARGETS: $(module_targets "$module"))"
            skipped=$((skipped + 1))
            continue
            ;;
        esac
    fi
    words=$(run_words "$module")
    if [ -z "$words" ]; then
        echo "$stem: FAILED no //DGPB_RUN: line"
        failed=$((failed + 1))
        continue
    fi
    # shellcheck disable=SC2086 # the run line is split into words on purpose
    set -- $words
    entry=$1
    shift
    options="--api $api $*"

    # shellcheck disable=SC2086
    "$run" $options "$bundle" "$entry" >"$log" 2>&1
    status=$?
    if [ $status -eq 6 ] && [ $allow_unsupported -eq 1 ]; then
        echo "$stem: not applicable: $(sed -n 's/^dgpb-run: .*error: //p' "$log" | head -n 1)"
        skipped=$((skipped + 1))
        continue
    fi
    if [ $status -ne 0 ]; then
        echo "$stem: FAILED (dgpb-run exit status $status)"
        sed 's/^/    /' "$log"
        failed=$((failed + 1))
        continue
    fi
    if [ $negative -eq 0 ]; then
        echo "$stem: ok"
        passed=$((passed + 1))
        continue
    fi

    # Each --expect in turn with its last value changed: dgpb-run must exit 1.
    count=0
    bad=
    index=0
    for word in $options; do
        index=$((index + 1))
        [ "$word" = "--expect" ] || continue
        count=$((count + 1))
        changed=
        i=0
        previous=
        for w in $options; do
            i=$((i + 1))
            if [ "$previous" = "--expect" ] && [ $i -eq $((index + 1)) ]; then
                name=${w%%=*}
                value=${w#*=}
                case $value in
                [a-z]*[0-9]:*) w=$name=$(mutate "$value") ;;
                *) bad="$bad $name(not inline values)" ;;
                esac
            fi
            changed="$changed $w"
            previous=$w
        done
        # shellcheck disable=SC2086
        "$run" $changed "$bundle" "$entry" >"$log" 2>&1
        status=$?
        if [ $status -ne 1 ]; then
            bad="$bad expectation $count (exit status $status)"
        fi
    done
    if [ $count -eq 0 ]; then
        bad=" no --expect"
    fi
    if [ -n "$bad" ]; then
        echo "$stem: FAILED a changed expectation was not caught:$bad"
        failed=$((failed + 1))
    else
        echo "$stem: ok, $count changed expectations each caught"
        passed=$((passed + 1))
    fi
done

echo "not applicable: $skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
