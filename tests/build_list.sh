#!/usr/bin/env bash
# build_list.sh BUILD SOURCE_DIR - `dgpb-build --list [--json]` (docs/build.md,
# "Listing the entries"): for modules in the generator's conventions and
# plain ones, the listed entries, stages, thread group sizes, pipeline groups
# and targets are what a build of the module puts in its bundle (its golden
# view); the text lists the same as the JSON; nothing is written (no output
# folder, depfile, cache or intermediate folder), no entry is compiled (the
# discovery only: one compile per target without code generation, -v, and one
# with SPIR-V where the reflection names no stage: Slang 2025.15's
# ray-tracing entries, or no thread group size: its mesh and amplification
# entries); each entry names the targets of the build it is not on, and why
# (a stage WebGPU lacks, ptx's compute entries only, the module's DREAM_TARGET_
# guards), in the text as in the JSON; --check also builds each entry for each
# of its targets on its own and lists where that fails, with its first error;
# a module that does not compile fails with exit status 1 and Slang's message;
# --json and --check alone are usage errors.
set -u
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

for module in build/features build/raytracing plain/render_textured plain/main_entry \
    plain/struct_buffers stages/mesh stages/tessellation; do
    file=$src/fixtures/$module.slang golden=$src/fixtures/$module.bundle.json
    targets=$(sed -n '1,5s|^// dgpb-targets: *||p' "$file" | head -n 1)
    mkdir -p "$work/tmp"
    json=$(TMPDIR="$work/tmp" "$build" --list --json ${targets:+--targets "$targets"} -MD \
        --cache-dir "$work/cache" -o "$work/out" "$file" 2>"$work/err") ||
        fail "$module: --list --json failed: $(cat "$work/err")"
    text=$("$build" --list ${targets:+--targets "$targets"} --no-cache "$file" 2>/dev/null) ||
        fail "$module: --list failed"
    python3 - "$golden" "$json" "$text" "$module" <<'PY' || fail "$module: the list is not what the build makes"
import json, sys
golden, listed, text, module = json.load(open(sys.argv[1])), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
built = {}
for t in golden["targets"]:
    for e in t["entries"]:
        b = built.setdefault(e["name"], {"stage": e["stage"], "size": e["thread_group_size"], "targets": []})
        b["targets"].append(t["name"])
names = [e["name"] for e in listed["entries"]]
# Declaration order: each target's entries appear in the listed order.
for t in golden["targets"]:
    order = [e["name"] for e in t["entries"]]
    assert order == [n for n in names if n in order], (t["name"], order, names)
assert sorted(names) == sorted(built), (names, sorted(built))
assert listed["targets"] == sorted(listed["targets"]), listed["targets"]
for e in listed["entries"]:
    b = built[e["name"]]
    assert e["stage"] == b["stage"], e
    assert e["targets"] == b["targets"], (e, b)
    assert (e["thread_group_size"] or [0, 0, 0]) == b["size"], (e, b)
    g = listed["groups"][e["group"]]
    assert e["name"] in g["entries"], (e, g)
    if e["stage"] == "compute":
        assert g["symbol"] == "DREAM_SHADER_" + e["name"] and g["label"] == "compute shader '%s'" % e["name"], g
    else:
        assert g["symbol"] in ("DREAM_SHADERS_RENDER", "DREAM_SHADERS_RAY_TRACING"), g
# The text: one line per entry, the same facts, then one line per target it is not on.
lines = text.splitlines()
entry_lines = [l for l in lines if not l.startswith("    ")]
assert len(entry_lines) == len(listed["entries"]), lines
at = 0
for e in listed["entries"]:
    line = lines[at]
    size = "[%d,%d,%d]" % tuple(e["thread_group_size"]) if e["thread_group_size"] else "-"
    words = line.split()
    assert words[:3] == [e["name"], e["stage"], size], (line, e)
    assert words[-len(e["targets"]):] == e["targets"], (line, e)
    assert listed["groups"][e["group"]]["label"] in line, (line, e)
    at += 1
    said = {}
    while at < len(lines) and lines[at].startswith("    not on "):
        target, why = lines[at][len("    not on "):].split(": ", 1)
        said[target] = why
        at += 1
    assert said == e["not_built"], (said, e)
    assert list(said) == sorted(said), said
    # every target the build compiles for carries the entry or says why not
    assert not set(said) & set(e["targets"]), e
PY
    [ ! -e "$work/out" ] || fail "$module: --list made the output folder"
    [ ! -e "$work/cache" ] || fail "$module: --list made the cache folder"
    [ -z "$(ls -A "$work/tmp")" ] || fail "$module: --list left $(ls -A "$work/tmp")"
    rm -rf "$work/tmp"
done

# Entries that cannot all go on every default target (no --targets): a mesh renderer's
# amplification and mesh entries are listed on spirv alone, with why not wgsl (WebGPU has no
# such stage) and not ptx (compute entries only), the same in the text and the JSON; an
# entry the module leaves out for a target (features.slang's bindless, spirv only) says so.
json=$("$build" --list --json --no-cache "$src/fixtures/stages/mesh.slang" 2>"$work/err") ||
    fail "mesh.slang, every target: --list --json failed: $(cat "$work/err")"
text=$("$build" --list --no-cache "$src/fixtures/stages/mesh.slang" 2>"$work/err") ||
    fail "mesh.slang, every target: --list failed: $(cat "$work/err")"
features=$("$build" --list --json --no-cache "$src/fixtures/build/features.slang" 2>"$work/err") ||
    fail "features.slang: --list --json failed: $(cat "$work/err")"
python3 - "$json" "$text" "$features" <<'PY' || fail "mesh.slang, every target: $json $text"
import json, sys
mesh, text, features = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
e = {x["name"]: x for x in mesh["entries"]}
assert mesh["targets"] == ["spirv", "wgsl"], mesh["targets"]
for name, stage in (("cullMeshlets", "an amplification"), ("drawMeshlet", "a mesh")):
    assert e[name]["targets"] == ["spirv"], e[name]
    assert e[name]["not_built"] == {
        "ptx": "ptx carries compute entries only",
        "wgsl": stage + " shader cannot go on wgsl: WebGPU has compute, vertex and fragment shaders only"}, e[name]
    assert "    not on wgsl: " + e[name]["not_built"]["wgsl"] in text.splitlines(), text
assert e["shadeMeshlet"]["targets"] == ["spirv", "wgsl"], e["shadeMeshlet"]
assert e["shadeMeshlet"]["not_built"] == {"ptx": "ptx carries compute entries only"}, e["shadeMeshlet"]
b = {x["name"]: x for x in features["entries"]}["bindless"]
assert b["targets"] == ["spirv"] and b["not_built"] == {
    "ptx": "the module leaves it out when DREAM_TARGET_PTX is defined",
    "wgsl": "the module leaves it out when DREAM_TARGET_WGSL is defined"}, b
PY
echo "ok: --list says which targets each entry goes on, and why not the others"

# --check: each entry built for each of its targets on its own. A comparison sampler on a
# texture WGSL does not declare as a depth texture: the discovery lists the entry on wgsl,
# its wgsl build refuses it; --check lists it on spirv alone, with that refusal; it writes
# nothing either.
module=$src/fixtures/plain/fail/comparison_sampler.slang
json=$("$build" --list --json --no-cache --targets spirv,wgsl "$module" 2>"$work/err") ||
    fail "comparison_sampler.slang: --list --json failed: $(cat "$work/err")"
mkdir -p "$work/tmp"
checked=$(TMPDIR="$work/tmp" "$build" --list --check --json --targets spirv,wgsl -MD \
    --cache-dir "$work/cache" -o "$work/out" "$module" 2>"$work/err") ||
    fail "comparison_sampler.slang: --list --check --json failed: $(cat "$work/err")"
text=$("$build" --list --check --no-cache --targets spirv,wgsl "$module" 2>"$work/err") ||
    fail "comparison_sampler.slang: --list --check failed: $(cat "$work/err")"
python3 - "$json" "$checked" "$text" <<'PY' || fail "comparison_sampler.slang: $json $checked $text"
import json, sys
listed, checked, text = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
assert listed["entries"][0]["targets"] == ["spirv", "wgsl"], listed
e = checked["entries"][0]
assert e["name"] == "occlusion" and e["targets"] == ["spirv"], e
why = e["not_built"]["wgsl"]
assert why.startswith("the code samples 'shadow_0' (@group(0) @binding(") and \
    "with a depth comparison, which WGSL allows on depth textures only" in why, why
assert list(e["not_built"]) == ["wgsl"], e
assert text.splitlines()[1] == "    not on wgsl: " + why, text
PY
[ ! -e "$work/out" ] && [ ! -e "$work/cache" ] && [ -z "$(ls -A "$work/tmp")" ] ||
    fail "--list --check wrote something"
log=$("$build" --check "$module" 2>&1); status=$?
[ "$status" = 2 ] && printf '%s\n' "$log" | grep -q -- "--check goes with --list" ||
    fail "--check without --list: status $status: $log"
echo "ok: --list --check builds each entry for each target and says where it fails"

# The discovery only: no entry is compiled (-v prints every compile that runs), and the
# discovery generates no code: -skip-codegen, no -o.
log=$("$build" --list -v --no-cache "$src/fixtures/build/features.slang" 2>&1 >/dev/null) || fail "--list -v"
[ "$(printf '%s\n' "$log" | grep -c -- ' -target ')" = 3 ] || fail "not one discovery compile per target: $log"
printf '%s\n' "$log" | grep -q -- ' -entry ' && fail "--list compiled an entry: $log"
[ "$(printf '%s\n' "$log" | grep -- ' -target ' | grep -c -- ' -skip-codegen ')" = 3 ] ||
    fail "a discovery compile generated code: $log"
printf '%s\n' "$log" | grep -- ' -target ' | grep -q -- ' -o ' && fail "a discovery compile wrote code: $log"
# Slang 2025.15's reflection names no stage for ray-tracing entries: the targets whose
# discovery lists one (spirv alone here) are compiled once more, to SPIR-V, whose
# execution models name the stages; the entries and stages are those of the golden view
# (checked above).
log=$("$build" --list -v --no-cache "$src/fixtures/build/raytracing.slang" 2>&1 >/dev/null) ||
    fail "--list -v raytracing"
coded=$(printf '%s\n' "$log" | grep -- ' -target ' | grep -v -- ' -skip-codegen ')
[ "$(printf '%s\n' "$log" | grep -- ' -target ' | grep -c -- ' -skip-codegen ')" = 3 ] ||
    fail "raytracing: not one discovery compile per target without code: $log"
if "$build" --version | grep -q '^slang 2025\.15'; then
    [ "$(printf '%s\n' "$coded" | grep -c .)" = 1 ] &&
        printf '%s\n' "$coded" | grep -q -- '-DDREAM_TARGET_SPIRV .* -target spirv -o ' ||
        fail "raytracing: not one SPIR-V discovery for the stages, for spirv only: $log"
else
    [ -z "$coded" ] || fail "raytracing: a discovery generated code, with stages in the reflection: $log"
fi

# Slang 2025.15's reflection gives no thread group size for mesh and amplification
# entries: spirv's discovery is compiled once more, to SPIR-V, whose LocalSize modes give
# them (the sizes are those of the golden view, checked above); a tessellation module,
# whose stages have none, needs no such compile.
log=$("$build" --list -v --no-cache --targets spirv "$src/fixtures/stages/mesh.slang" 2>&1 >/dev/null) ||
    fail "--list -v mesh"
coded=$(printf '%s\n' "$log" | grep -- ' -target ' | grep -v -- ' -skip-codegen ')
if "$build" --version | grep -q '^slang 2025\.15'; then
    [ "$(printf '%s\n' "$coded" | grep -c .)" = 1 ] &&
        printf '%s\n' "$coded" | grep -q -- '-DDREAM_TARGET_SPIRV .* -target spirv -o ' ||
        fail "mesh: not one SPIR-V discovery for the thread group sizes: $log"
fi
log=$("$build" --list -v --no-cache --targets spirv "$src/fixtures/stages/tessellation.slang" 2>&1 >/dev/null) ||
    fail "--list -v tessellation"
printf '%s\n' "$log" | grep -- ' -target ' | grep -v -q -- ' -skip-codegen ' &&
    fail "tessellation: a discovery generated code: $log"

# A module that does not compile: exit status 1, Slang's message, nothing listed.
out=$("$build" --list --no-cache "$src/fixtures/build/fail/syntax_error.slang" 2>"$work/err"); status=$?
[ "$status" = 1 ] || fail "a module with a syntax error: exit status $status, not 1"
[ -z "$out" ] || fail "a module with a syntax error listed: $out"
grep -q "syntax_error.slang: error: targets 'ptx', 'spirv', 'wgsl': the module does not compile:" "$work/err" &&
    grep -q "error 20002: syntax error" "$work/err" || fail "a module with a syntax error: $(cat "$work/err")"

log=$("$build" --json "$src/fixtures/build/features.slang" 2>&1); status=$?
[ "$status" = 2 ] && printf '%s\n' "$log" | grep -q -- "--json goes with --list" ||
    fail "--json without --list: status $status: $log"
echo "ok: --list and --list --json say what the build makes, write nothing, compile no entry"
