#!/usr/bin/env bash
# native_build_compare.sh BUILD DUMP SLANGC DIR... - with a native Slang
# (label native-slang, docs/layout.md "Testing"): builds every fixture of
# each DIR (its *.slang but plain_lib_*; its include/ with -I; the targets
# of a "// dgpb-targets:" line) twice with SLANGC, once on the native worker
# pool (the default) and once with --compiler-processes, and checks that
#   - both runs succeed and report how they compiled (native workers for
#     the first, processes for the second: dgpb-build --version);
#   - the .dgpb and .bundle.json files are byte-identical;
#   - every native target carries layouts (wgsl as well: only wasm32 has
#     none) and every entry points at one of them;
#   - dgpb-dump --verify accepts the bundle.
# A fixture that native Slang refuses where the embedded compiler builds it (a
# newer Slang's rule) says so among its first five lines, `// dgpb-native-fails:
# REGEX`: then both runs must fail with exit status 1 and Slang's message
# matching REGEX, so the difference stays checked on both compilers.
# --shard K/N (after SLANGC) takes the K-th of every N fixtures only (K from 1),
# so that ctest runs N parts side by side.
set -u
build=$1 dump=$2 slangc=$3
shift 3
shard=1/1
if [ "${1:-}" = --shard ]; then shard=$2 && shift 2; fi
shard_k=${shard%/*} shard_n=${shard#*/}
index=0
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
fail=0 count=0

"$build" --slangc "$slangc" --version | grep -q '^compiles: persistent native workers' || {
    echo "FAIL: dgpb-build does not use native workers with $slangc:"
    "$build" --slangc "$slangc" --version
    exit 1
}
"$build" --slangc "$slangc" --compiler-processes --version | grep -q '^compiles: one slangc process each' || {
    echo "FAIL: --compiler-processes does not run one slangc per compile"; exit 1; }

for dir in "$@"; do
    for module in "$dir"/*.slang; do
        stem=$(basename "$module" .slang)
        case $stem in plain_lib_*) continue ;; esac
        index=$((index + 1))
        [ $(((index - 1) % shard_n + 1)) = "$shard_k" ] || continue
        targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$module" | head -n 1)
        refused=$(sed -n '1,5s|^// dgpb-native-fails: *||p' "$module" | head -n 1)
        includes=()
        [ -d "$dir/include" ] && includes=(-I "$dir/include")
        for mode in workers processes; do
            extra=()
            [ $mode = processes ] && extra=(--compiler-processes)
            mkdir -p "$out/$mode"
            status=0
            "$build" -q --slangc "$slangc" "${extra[@]}" ${targets:+--targets "$targets"} \
                "${includes[@]}" "$module" -o "$out/$mode" 2>"$out/$mode.err" || status=$?
            if [ -n "$refused" ]; then
                if [ $status != 1 ] || ! grep -Eq -- "$refused" "$out/$mode.err"; then
                    echo "FAIL: $stem ($mode): expected exit 1 and /$refused/ (dgpb-native-fails), got $status:"
                    cat "$out/$mode.err"; fail=1
                fi
                [ $mode = processes ] && echo "ok: $stem refused by native Slang on both paths: /$refused/"
                continue
            fi
            if [ $status != 0 ]; then
                echo "FAIL: $stem ($mode): dgpb-build failed:"; cat "$out/$mode.err"; fail=1
                continue 2
            fi
        done
        [ -z "$refused" ] || continue
        count=$((count + 1))
        for ext in dgpb bundle.json; do
            cmp -s "$out/workers/$stem.$ext" "$out/processes/$stem.$ext" ||
                { echo "FAIL: $stem.$ext differs between the worker pool and one slangc per compile"; fail=1; }
        done
        "$dump" --verify "$out/workers/$stem.dgpb" >/dev/null ||
            { echo "FAIL: $stem: dgpb-dump --verify rejected the bundle"; fail=1; }
        node -e '
            const v = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
            let bad = [];
            for (const t of v.targets) {
                if (!t.layouts.length) bad.push(`${t.name}: no layouts`);
                for (const e of t.entries)
                    if (!(e.layout < t.layouts.length)) bad.push(`${t.name}/${e.name}: layout ${e.layout}`);
            }
            if (bad.length) { console.log(bad.join("\n")); process.exit(1); }
            console.log(v.targets.map(t => `${t.name}:${t.layouts.length}`).join(" "));
        ' "$out/workers/$stem.bundle.json" >"$out/layouts.txt" ||
            { echo "FAIL: $stem: layouts missing:"; cat "$out/layouts.txt"; fail=1; }
        echo "ok: $stem identical on both paths; layouts $(cat "$out/layouts.txt")"
        rm -rf "$out/workers" "$out/processes"
    done
done
[ $count -gt 0 ] || { echo "FAIL: no fixture was built"; exit 1; }
[ $fail = 0 ] && echo "ok: $count fixtures byte-identical through the worker pool and per-process slangc"
exit $fail
