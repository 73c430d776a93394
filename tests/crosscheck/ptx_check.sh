#!/usr/bin/env bash
# ptx_check.sh --dump DGPB_DUMP [--module MODULE.slang] BUNDLE.dgpb [VIEW.json]
#
# Checks every entry of a bundle's ptx target with the CUDA toolkit's own
# assembler: the blob (taken out with dgpb-dump --extract, which checks its
# SHA-256) assembles with `ptxas -arch=sm_90`; it declares the kernel
# `.visible .entry <entry name>`, or else exactly one `.visible .entry`
# (docs/format.md: a CUDA host launches by that name, or takes the only
# kernel, as Slang's CUDA code names an entry `main` `main_0`); an entry
# with rows declares `.const ... SLANG_globalParams[SIZE]`, every row lies
# inside it, and no two resource rows overlap (each resource field is at
# least an 8-byte pointer or handle, docs/format.md: on ptx `binding` is the
# byte offset in that block). The table comes from VIEW.json (default: the
# bundle's own view, dgpb-dump --json). --module is accepted for a common
# command line with the other checkers and not needed here.
#
# ptxas: $DGPB_PTXAS, else $CUDA_PATH/bin/ptxas, /usr/local/cuda/bin/ptxas,
# ptxas on PATH. Missing ptxas is a failure naming the CUDA toolkit, never a
# skip. Prints one line per entry and "N passed, N failed"; exit 1 on any
# failure, 2 usage, 3 unreadable bundle or view.
set -u
dump='' bundle='' view=''
while [ $# -gt 0 ]; do
    case $1 in
        --dump) dump=$2; shift 2 ;;
        --module) shift 2 ;;
        -*) echo "usage: ptx_check.sh --dump DGPB_DUMP [--module M] BUNDLE [VIEW]" >&2; exit 2 ;;
        *) if [ -z "$bundle" ]; then bundle=$1; elif [ -z "$view" ]; then view=$1; else exit 2; fi
           shift ;;
    esac
done
[ -n "$dump" ] && [ -n "$bundle" ] || { echo "usage: ptx_check.sh --dump DGPB_DUMP [--module M] BUNDLE [VIEW]" >&2; exit 2; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ -z "$view" ]; then
    view=$tmp/view.json
    "$dump" --json "$bundle" >"$view" || { echo "FAIL: dgpb-dump --json $bundle"; exit 3; }
fi
[ -r "$view" ] || { echo "FAIL: cannot read $view"; exit 3; }

# The ptx target's entries and rows, one line each, read from the view by
# Node's JSON parser ($NODE, default node; Node is a dependency of dgpb):
#   E <name> <row count>
#   R <name> <kind> <binding> <offset> <size> <space>
table=$tmp/table
"${NODE:-node}" -e '
    const view = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const t of view.targets || []) {
        if (t.name !== "ptx") continue;
        for (const e of t.entries) {
            // A row absent from the code of this target (a target guard) binds nothing.
            const params = e.params.filter((p) => !(p.flags || []).includes("absent"));
            console.log(`E ${e.name} ${params.length}`);
            for (const p of params) console.log(`R ${p.name} ${p.kind} ${p.binding} ${p.offset ?? 0} ${p.size} ${p.space}`); // a shaped row: no offset
        }
    }' "$view" >"$table" || { echo "FAIL: $view is not a readable JSON view"; exit 3; }

ptxas=${DGPB_PTXAS:-}
if [ -z "$ptxas" ]; then
    for p in ${CUDA_PATH:+"$CUDA_PATH/bin/ptxas"} /usr/local/cuda/bin/ptxas "$(command -v ptxas 2>/dev/null)"; do
        [ -n "$p" ] && [ -x "$p" ] && { ptxas=$p; break; }
    done
fi
if ! grep -q '^E ' "$table"; then
    echo "info: $bundle has no ptx target"
    echo "0 passed, 0 failed"; exit 0
fi
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
    echo "FAIL: ptxas not found${DGPB_PTXAS:+ at '$DGPB_PTXAS'}: install the CUDA toolkit (looked in \$CUDA_PATH/bin, /usr/local/cuda/bin, PATH)"
    echo "0 passed, $(grep -c '^E ' "$table") failed"; exit 1
fi

passed=0 failed=0
check_entry() { # name rowcount; rows on stdin
    local name=$1 count=$2 ptx=$tmp/$1.ptx reasons=() size=-1 kparams=0 launch=0 kernel=$1
    local rows
    rows=$(cat)
    if ! "$dump" --extract "ptx/$name" -o "$ptx" "$bundle" >"$tmp/extract.log" 2>&1; then
        reasons+=("cannot extract ptx/$name: $(head -1 "$tmp/extract.log")")
    else
        local rc=0
        "$ptxas" -arch=sm_90 -o /dev/null "$ptx" >"$tmp/ptxas.log" 2>&1 || rc=$?
        if [ $rc -ne 0 ]; then
            reasons+=("ptxas -arch=sm_90 rejects it (exit status $rc): $(head -3 "$tmp/ptxas.log" | tr '\n' ' ')")
        fi
        if ! grep -Eq "^[[:space:]]*\.visible[[:space:]]+\.entry[[:space:]]+${name}[[:space:]]*\(" "$ptx"; then
            local kernels
            kernels=$(sed -En 's/^[[:space:]]*\.visible[[:space:]]+\.entry[[:space:]]+([A-Za-z_$%][A-Za-z0-9_$]*)[[:space:]]*\(.*/\1/p' "$ptx")
            if [ -n "$kernels" ] && [ "$(printf '%s\n' "$kernels" | wc -l)" -eq 1 ]; then
                kernel=$kernels
            else
                reasons+=("no '.visible .entry $name' in the PTX, and not one other kernel but ${kernels:-none}")
            fi
        fi
        local decl
        decl=$(grep -Eo '^[[:space:]]*\.const[^;]*[[:space:]]SLANG_globalParams\[[0-9]+\]' "$ptx" | head -1)
        [ -n "$decl" ] && size=$(sed -E 's/.*\[([0-9]+)\]/\1/' <<<"$decl")
        # The kernel's own parameter buffer: each .param aligned as declared
        # (cuLaunchKernel's layout), for the launch rows (space 0xFFFFFFFF).
        kparams=$(awk -v entry="$kernel" '
            $0 ~ "\\.entry[ \t]+" entry "[ \t]*\\(" { on = 1; next }
            on && /\)/ { print end + 0; exit }
            on && /\.param/ {
                a = 0; n = 0
                if (match($0, /\.align[ \t]+[0-9]+/)) { a = substr($0, RSTART, RLENGTH); sub(/.*[ \t]/, "", a) }
                if (match($0, /\[[0-9]+\]/)) n = substr($0, RSTART + 1, RLENGTH - 2)
                else if (match($0, /\.[usbf](8|16|32|64)/)) n = substr($0, RSTART + 2, RLENGTH - 2) / 8
                if (a == 0) a = n
                if (a > 0) end = int((end + a - 1) / a) * a
                end += n
            }' "$ptx")
        launch=$(grep -c " 4294967295\$" < <(printf '%s\n' "$rows") || true)
        if [ "$count" -gt "$launch" ] && [ "$size" -lt 0 ]; then
            reasons+=("the entry has $count rows but the PTX declares no .const SLANG_globalParams")
        fi
    fi
    # Rows inside SLANG_globalParams; a resource row is at least an 8-byte pointer
    # or handle, a value block (or the loose uniforms) at least its first byte,
    # and no two of them overlap.
    local spans=() rname rkind rbind roff rsize rspace seen=" " refs=" "
    [ -f "$ptx" ] && refs=" $(grep -Eo 'SLANG_globalParams(\+[0-9]+)?\]' "$ptx" |
        sed -E 's/SLANG_globalParams\+?([0-9]*)\]/\1/; s/^$/0/' | sort -un | tr '\n' ' ')"
    while read -r _ rname rkind rbind roff rsize rspace; do
        if [ "$rspace" = 4294967295 ]; then # a launch row: inside the kernel's parameters
            local start=$rbind width=8
            case $rkind in value) start=$roff width=$rsize ;; *buffer) width=16 ;; esac
            [ "$rkind" = uniform_buffer ] && width=8
            [ $((start + width)) -le "${kparams:-0}" ] ||
                reasons+=("launch row '$rname' (bytes $start..$((start + width - 1))) is outside the ${kparams:-0} bytes of .entry $kernel's parameters")
            continue
        fi
        [ "$size" -ge 0 ] || continue
        local width=8
        if [ "$rkind" = value ] && [ "$rbind" = 4294967295 ]; then # inline in SLANG_globalParams
            rbind=$roff width=$rsize roff=0
        elif [ "$rkind" = value ]; then
            width=1
            case $seen in *" $rbind "*) continue ;; esac
            seen="$seen$rbind "
        elif [ "$rkind" = uniform_buffer ]; then
            seen="$seen$rbind " # its field rows (value rows at its binding) share its pointer
        fi
        if [ $((rbind + width)) -gt "$size" ]; then
            reasons+=("row '$rname' (bytes $rbind..$((rbind + width - 1))) is outside SLANG_globalParams[$size]")
        fi
        spans+=("$rbind $((rbind + width)) $rname")
        case $refs in *" $rbind "* | *" $((rbind + roff)) "*) ;;
            *) echo "info: ptx/$name: the code never loads row '$rname' at SLANG_globalParams+$rbind" ;;
        esac
    done <<<"$rows"
    local prev_end=-1 prev_name='' b e n
    while read -r b e n; do
        [ -n "$b" ] || continue
        [ "$b" -ge "$prev_end" ] || reasons+=("rows '$prev_name' and '$n' overlap at byte $b of SLANG_globalParams")
        prev_end=$e prev_name=$n
    done < <(printf '%s\n' "${spans[@]}" | sort -n)
    if [ ${#reasons[@]} -eq 0 ]; then
        echo "ok   ptx/$name: assembles for sm_90, .entry $kernel, $count rows inside SLANG_globalParams[$size]"
        passed=$((passed + 1))
    else
        local IFS=';'
        echo "FAIL ptx/$name: ${reasons[*]}"
        failed=$((failed + 1))
    fi
}
while read -r tag name count; do
    [ "$tag" = E ] || continue
    check_entry "$name" "$count" < <(awk -v e="$name" '$1 == "E" { cur = $2 } $1 == "R" && cur == e' "$table")
done <"$table"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
