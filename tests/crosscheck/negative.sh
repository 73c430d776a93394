#!/usr/bin/env bash
# negative.sh spirv|wgsl|ptx NODE OUT CHECKER [ARGS...] - proves that a
# cross-checker can fail: it feeds the checker the real bundles of
# fixtures/build (built into OUT by build_bundles.sh) with a tampered JSON
# view, one change at a time, and requires a failure naming the change. Two
# cases must pass instead: an unused row in a generator-convention module is
# only info, and the untampered view passes.
set -u
kind=$1 node=$2 out=$3; shift 3
checker=("$@")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
status=0 cases=0

bundle_of() { grep -E "/build/$1\.dgpb " "$out/bundles.list" | head -1; }

# tamper STEM TARGET ENTRY JS: writes $tmp/view.json, the view of STEM with JS
# applied to the entry `e` (of target TARGET) and its rows `p` (by name).
tamper() {
    local line; line=$(bundle_of "$1")
    [ -n "$line" ] || { echo "FAIL: no bundle for fixtures/build/$1.slang in $out"; exit 1; }
    read -r bundle module view <<<"$line"
    "$node" -e '
        const fs = require("fs");
        const [src, dst, target, entry, js] = process.argv.slice(1);
        const v = JSON.parse(fs.readFileSync(src, "utf8"));
        const e = v.targets.find((t) => t.name === target).entries.find((x) => x.name === entry);
        const p = Object.fromEntries(e.params.map((r) => [r.name, r]));
        new Function("e", "p", js)(e, p);
        fs.writeFileSync(dst, JSON.stringify(v, null, "\t") + "\n");' \
        "$view" "$tmp/view.json" "$2" "$3" "$4" || { echo "FAIL: cannot tamper with $view"; exit 1; }
    inputs=("$bundle" "$tmp/view.json")
}

# rename STEM TARGET OLD NEW: writes $tmp/renamed.dgpb, the bundle of STEM with
# entry OLD of TARGET renamed to NEW (same length) in its table, so that the
# table's name and the name inside the code disagree. Names live in the
# tables, outside every hashed blob, so the bundle stays valid; the checker
# then reads the bundle's own view.
rename() {
    local line; line=$(bundle_of "$1")
    read -r bundle module view <<<"$line"
    "$node" -e '
        const fs = require("fs");
        const [src, dst, target, from, to] = process.argv.slice(1);
        const b = fs.readFileSync(src);
        const headerSize = b.readUInt32LE(8);
        const str = (s) => { const x = Buffer.alloc(4 + s.length); x.writeUInt32LE(s.length); x.write(s, 4); return x; };
        // Targets are sorted by name and their tables come before header_size:
        // find the target name, then the entry name after it.
        const t = b.indexOf(str(target));
        const at = b.indexOf(str(from), t);
        if (t < 0 || at < 0 || at >= headerSize || from.length !== to.length) process.exit(1);
        b.write(to, at + 4);
        fs.writeFileSync(dst, b);'         "$bundle" "$tmp/renamed.dgpb" "$2" "$3" "$4" || { echo "FAIL: cannot rename $3 in $bundle"; exit 1; }
    bundle=$tmp/renamed.dgpb
    inputs=("$bundle")
}

# expect CASE fail|pass REGEX ENV... : runs the checker on the tampered view.
expect() {
    local name=$1 want=$2 regex=$3; shift 3
    cases=$((cases + 1))
    local log rc
    log=$(env "$@" "${checker[@]}" --module "$module" "${inputs[@]}" 2>&1); rc=$?
    if [ "$want" = fail ] && [ $rc -eq 0 ]; then
        echo "FAIL: $name: the checker accepted the tampered table"; printf '%s\n' "$log" | sed 's/^/    /'; status=1
    elif [ "$want" = pass ] && [ $rc -ne 0 ]; then
        echo "FAIL: $name: the checker rejected it (status $rc)"; printf '%s\n' "$log" | sed 's/^/    /'; status=1
    elif ! grep -Eq -- "$regex" <<<"$log"; then
        echo "FAIL: $name: no line matches /$regex/"; printf '%s\n' "$log" | sed 's/^/    /'; status=1
    else
        echo "ok   $name: $(grep -E -m1 -- "$regex" <<<"$log")"
    fi
}

case $kind in
spirv)
    tamper resources spirv kinds ''
    expect "untampered view" pass '^ok   spirv/kinds: 10 descriptor bindings'
    tamper resources spirv kinds 'p.dst.binding = 12'
    expect "binding moved" fail "SPIR-V variable 'kinds_dst' \(set 0 binding 2\) has no row"
    tamper resources spirv kinds 'p.dst.space = 1'
    expect "set moved" fail "SPIR-V variable 'kinds_dst' \(set 0 binding 2\) has no row"
    tamper resources spirv kinds 'e.params = e.params.filter((r) => r.name !== "count")'
    expect "row dropped" fail "SPIR-V variable 'kinds_count' \(set 0 binding 9\) has no row"
    tamper resources spirv kinds 'p.dst.flags = []'
    expect "written flag dropped" fail "the code writes 'kinds_dst' but row 'dst' is not flagged written"
    tamper resources spirv kinds 'p.lookup.flags = ["written"]'
    expect "written flag added" fail "row 'lookup' is flagged written but the code never writes 'kinds_lookup'"
    tamper resources spirv kinds 'p.tex.kind = "buffer"'
    expect "kind changed" fail "row 'tex' is buffer but 'kinds_tex' has storage class UniformConstant"
    tamper resources spirv kinds 'p.src.binding = 3'
    expect "two resources on one binding" fail "rows 'src' and 'lookup' share set 0 binding 3"
    rename resources spirv kinds kindz
    expect "entry name in the table only" fail "the SPIR-V's entry point is the function 'kinds'"
    tamper resources spirv kinds 'e.thread_group_size = [8, 4, 1]'
    expect "thread group size" fail "thread_group_size differs from the SPIR-V's LocalSize 8,8,1"
    tamper resources spirv kinds 'e.stage = "fragment"'
    expect "stage" fail "stage 'fragment' but the SPIR-V's execution model is 5"
    tamper plain spirv amplify 'e.params.push({...e.params[3], name: "extra", binding: 7})'
    expect "extra row, plain module" fail "row 'extra' \(set 0 binding 7\) has no variable in the SPIR-V"
    tamper resources spirv kinds 'e.params.push({...p.lookup, name: "extra", binding: 17})'
    expect "extra row, generator module (info only)" pass "info: spirv/kinds: row 'extra' \(set 0 binding 17\) is not used"
    tamper resources spirv kinds 'e.params.push({...p.dst, name: "extra", binding: 17})'
    expect "unused row flagged written" fail "row 'extra' is flagged written but the code has no such variable"
    ;;
wgsl)
    tamper resources wgsl kinds ''
    expect "untampered view" pass '^ok   wgsl/kinds: compute entry point, workgroup size 8,8,1'
    tamper resources wgsl kinds 'p.dst.binding = 12'
    expect "binding moved" fail "@group\(0\) @binding\(2\) var<storage, read_write> kinds_dst_0 : array<f32> has no row"
    tamper resources wgsl kinds 'p.dst.webgpu_layout = 2'
    expect "storage access" fail "row 'dst' has webgpu_layout 2, .* needs 3"
    tamper resources wgsl kinds 'p.rg.webgpu_layout = 8'
    expect "storage texture format" fail "row 'rg' has webgpu_layout 8, .*texture_storage_2d<rg32float, read_write> needs 7"
    tamper resources wgsl kinds 'p.smp.binding = 4'
    expect "sampler onto the texture" fail "row 'smp' has webgpu_layout 4, .*texture_2d<f32> needs 5"
    tamper resources wgsl kinds 'e.thread_group_size = [8, 4, 1]'
    expect "workgroup size" fail "@workgroup_size is 8,8,1, thread_group_size is 8,4,1"
    tamper resources wgsl kinds 'e.name = "main"'
    expect "entry name" fail "cannot extract wgsl/main"
    rename resources wgsl kinds kindz
    expect "entry name in the table only" fail "the WGSL has no entry point named 'kindz' \\(it has: kinds \\(@compute\\)\\)"
    tamper resources wgsl kinds 'e.stage = "vertex"'
    expect "stage" fail "the WGSL entry point 'kinds' is @compute, the table says vertex"
    tamper resources wgsl kinds 'p.bias.offset = 8'
    expect "value offset" fail "value row 'bias' \(offset 8, size 4\) is no member"
    tamper resources wgsl kinds 'p.src.flags = ["written"]'
    expect "written read-only buffer" fail "row 'src' is flagged written but .*var<storage, read> kinds_src_0"
    tamper plain wgsl amplify 'e.params.push({...e.params[3], name: "extra", binding: 7})'
    expect "extra row, plain module" fail "row 'extra' \(@group\(0\) @binding\(7\)\) is not in the WGSL"
    tamper resources wgsl kinds 'e.params.push({...p.lookup, name: "extra", binding: 17})'
    expect "extra row, generator module (info only)" pass "info: wgsl/kinds: row 'extra' .* is not in the WGSL"
    ;;
ptx)
    tamper resources ptx kinds ''
    expect "untampered view" pass '^ok   ptx/kinds: assembles for sm_90'
    tamper resources ptx kinds 'p.count.binding = 104'
    expect "row outside the parameter block" fail "row 'count' \(bytes 104\.\.111\) is outside SLANG_globalParams\[104\]"
    tamper resources ptx kinds 'p.rg.binding = 76'
    expect "overlapping rows" fail "rows 'r' and 'rg' overlap at byte 76"
    tamper resources ptx kinds 'e.name = "main"'
    expect "entry name" fail "cannot extract ptx/main"
    # The PTX's only kernel is the entry's whatever its name (Slang's `main_0` for `main`).
    rename resources ptx kinds kindz
    expect "entry name in the table only, one kernel" pass "^ok   ptx/kindz: assembles for sm_90, \.entry kinds,"
    tamper resources ptx kinds ''
    expect "ptxas missing" fail "ptxas not found at '/nonexistent/ptxas': install the CUDA toolkit" DGPB_PTXAS=/nonexistent/ptxas
    expect "ptxas rejects" fail "ptxas -arch=sm_90 rejects it" DGPB_PTXAS=/bin/false
    ;;
*) echo "usage: negative.sh spirv|wgsl|ptx NODE OUT CHECKER [ARGS...]"; exit 2 ;;
esac
echo "$cases cases, $([ $status -eq 0 ] && echo "all as expected" || echo "some NOT as expected")"
exit $status
