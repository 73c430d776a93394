#!/bin/sh
# rhi_suite.sh [--api cuda] [--bundles DIR] DGPB_BUILD DGPB_RUN RHI_RUN SLANGC WORK ASKED MODULE... - runs
# the Slang-style compute suite (fixtures/compute/*.slang) on unmodified slang-rhi through
# the replay shim (examples/slang-rhi, dgpb-rhi-run) and compares every output with
# dgpb-run's on the same bundle (docs/host.md, "A native host with slang-rhi").
#
# For each module: dgpb-build with the native SLANGC (layouts need a native libslang)
# builds WORK/<stem>.dgpb for the API's target (spirv on Vulkan, ptx on CUDA); dgpb-run runs
# the module's //DGPB_RUN: line (its expectations checked) and writes every buffer it was
# given (--in, --size) with --out; dgpb-rhi-run runs the same line without the
# expectations and writes the same buffers; each pair must be byte-identical. dgpb-rhi-run
# also checks that no Slang library is mapped in its process (/proc/self/maps; exit 8).
# With DGPB_SHIM_LOG the shim writes what slang-rhi asked; the union over every module is
# written to ASKED, one name a line, sorted.
#
# --bundles DIR takes each module's bundle from DIR/<stem>.dgpb, built beforehand (for a
# machine without Slang: the GPU run); DGPB_BUILD and SLANGC are then not used ("-"), and
# a module without a bundle there is not applicable (DIR/<stem>.why says why, if present).
#
# A module that dgpb-rhi-run cannot run (a pipeline constant set) is reported as not
# applicable with the host's reason. Prints one line per module and `N passed, N failed`; exits 1 when any
# module failed.
set -u

api=vulkan
prebuilt=
while :; do
    case ${1:-} in
    --api) api=${2:-} ;;
    --bundles) prebuilt=${2:-} ;;
    *) break ;;
    esac
    shift 2
done
if [ $# -lt 7 ]; then
    echo "usage: rhi_suite.sh [--api cuda] DGPB_BUILD DGPB_RUN RHI_RUN SLANGC WORK ASKED MODULE..." >&2
    exit 2
fi
build=$1 run=$2 rhi=$3 slangc=$4 work=$5 asked=$6
shift 6
target=spirv
[ "$api" = cuda ] && target=ptx
tools="$run $rhi"
[ -n "$prebuilt" ] || tools="$tools $build $slangc"
for tool in $tools; do
    if [ ! -x "$tool" ]; then
        echo "rhi_suite.sh: $tool is not an executable (configure with -DDGPB_SLANG_ROOT and -DDGPB_SLANG_RHI_DIR)" >&2
        exit 2
    fi
done

rm -rf "$work"
mkdir -p "$work"
: >"$work/asked.log"
passed=0 failed=0 skipped=0

module_targets() {
    t=$(sed -n 's#^//DGPB_TARGETS:[[:space:]]*\([a-z0-9,]*\).*#\1#p' "$1" | head -n 1)
    echo "${t:-spirv,wgsl}"
}

for module in "$@"; do
    stem=$(basename "$module" .slang)
    # Built here, a module is run where it names spirv; prebuilt, where its bundle is.
    if [ -z "$prebuilt" ]; then
        case ",$(module_targets "$module")," in
        *,spirv,*) ;;
        *)
            echo "$stem: not applicable (//DGPB_TARGETS: $(module_targets "$module"))"
            skipped=$((skipped + 1))
            continue
            ;;
        esac
    fi
    dir=$work/$stem
    mkdir -p "$dir/ref" "$dir/rhi"
    if [ -n "$prebuilt" ]; then
        if [ ! -e "$prebuilt/$stem.dgpb" ]; then
            echo "$stem: not applicable on $target: $(head -n 1 "$prebuilt/$stem.why" 2>/dev/null)"
            skipped=$((skipped + 1))
            continue
        fi
        cp "$prebuilt/$stem.dgpb" "$dir/"
    elif ! "$build" -q --slangc "$slangc" --targets "$target" -I "$(dirname "$module")/lib" \
        -o "$dir" "$module" >"$dir/build.log" 2>&1; then
        echo "$stem: FAILED to build for $target"
        sed 's/^/    /' "$dir/build.log"
        failed=$((failed + 1))
        continue
    fi
    words=$(sed -n 's#^//DGPB_RUN:##p' "$module" | tr '\n' ' ')
    # shellcheck disable=SC2086 # the run line is split into words on purpose
    set -- $words
    entry=$1
    shift
    # The host's options: the line without --expect and --tolerance; the buffers given.
    host_options= outs= names=
    while [ $# -gt 0 ]; do
        case $1 in
        --expect | --tolerance) shift ;;
        --in | --size | --texture)
            name=${2%%=*}
            case " $names " in
            *" $name "*) ;;
            *)
                names="$names $name"
                outs="$outs --out $name=$dir/ref/$name.bin"
                ;;
            esac
            host_options="$host_options $1 $2"
            shift
            ;;
        *) host_options="$host_options $1" ;;
        esac
        shift
    done
    # shellcheck disable=SC2086
    set -- $words
    shift
    # shellcheck disable=SC2086
    "$run" --api "$api" -q "$@" $outs "$dir/$stem.dgpb" "$entry" >"$dir/run.log" 2>&1
    status=$?
    if [ $status -ne 0 ]; then
        echo "$stem: FAILED (dgpb-run exit status $status)"
        sed 's/^/    /' "$dir/run.log"
        failed=$((failed + 1))
        continue
    fi
    # shellcheck disable=SC2086
    DGPB_SHIM_LOG=$dir/asked.log "$rhi" --api "$api" $host_options --out-dir "$dir/rhi" \
        "$dir/$stem.dgpb" "$entry" >"$dir/rhi.log" 2>&1
    status=$?
    cat "$dir/asked.log" >>"$work/asked.log" 2>/dev/null
    if [ $status -eq 2 ] && grep -q "not supported by this example" "$dir/rhi.log"; then
        echo "$stem: not applicable: $(sed -n 's/^dgpb-rhi-run: \(.*not supported by this example.*\)/\1/p' "$dir/rhi.log" | head -n 1)"
        skipped=$((skipped + 1))
        continue
    fi
    if [ $status -ne 0 ]; then
        echo "$stem: FAILED (dgpb-rhi-run exit status $status)"
        sed 's/^/    /' "$dir/rhi.log"
        failed=$((failed + 1))
        continue
    fi
    # Every buffer and texture given is compared; a uniform block given whole (--in) is an
    # input only.
    "$run" --api "$api" --list "$dir/$stem.dgpb" >"$dir/list.log" 2>&1
    differ= compared=0
    for name in $names; do
        if awk -v n="$name" '$1 == n && $2 == "uniform_buffer" { found = 1 } END { exit !found }' \
            "$dir/list.log"; then
            continue
        fi
        compared=$((compared + 1))
        cmp -s "$dir/ref/$name.bin" "$dir/rhi/$name.bin" || differ="$differ $name"
    done
    if [ -n "$differ" ]; then
        echo "$stem: FAILED outputs differ from dgpb-run's:$differ"
        failed=$((failed + 1))
    else
        echo "$stem: ok ($compared outputs equal)"
        passed=$((passed + 1))
    fi
done

sort -u "$work/asked.log" >"$asked"
echo "not applicable: $skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
