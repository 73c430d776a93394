#!/usr/bin/env bash
# build_wgsl_shapes.sh BUILD SOURCE_DIR - docs/build.md's lists of what wgsl
# binds and what it refuses ("Parameter tables", "What wgsl binds") follow
# the code: with the embedded compiler,
#  * one compute module declaring every declaration of the "wgsl-binds"
#    table (each read or written by the entry) builds for wgsl, and each
#    one's row has the table's shape and WebGPU binding-layout ID;
#  * each declaration of the "wgsl-refuses" table, in a module of its own,
#    fails for wgsl with exit status 1 and a message holding the table's
#    words.
# A row the test has no use for is a failure too: a new row needs its use
# here, so that the table cannot claim what no build shows (a declaration of
# the binds table listed as refused is built alone, and must fail).
set -u
build=$1 src=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python3 - "$build" "$src/docs/build.md" "$work" <<'PY'
import json, os, re, subprocess, sys

build, doc, work = sys.argv[1:4]
text = open(doc, encoding="utf-8").read()


def table(marker):
    m = re.search(r"<!-- %s:[^>]*-->\n(.*?)<!-- /%s -->" % (marker, marker), text, re.S)
    if not m:
        sys.exit("FAIL: docs/build.md has no <!-- %s --> table" % marker)
    rows = []
    for line in m.group(1).splitlines()[2:]:  # the header and its rule
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    if not rows:
        sys.exit("FAIL: the %s table is empty" % marker)
    return rows


def code(cell):
    """The first `...` of a cell."""
    m = re.search(r"`([^`]*)`", cell)
    return m.group(1) if m else cell


# How the test declares and uses each declaration of the binds table (NAME: the parameter).
USES = {
    "Texture1D<float4>": "acc += NAME.SampleLevel(smp, 0.5, 0);",
    "Texture2D<float4>": "acc += NAME.SampleLevel(smp, float2(0.5, 0.5), 0);",
    "Texture2D<int4>": "acc += float4(NAME.Load(int3(0, 0, 0)));",
    "Texture2D<uint4>": "acc += float4(NAME.Load(int3(0, 0, 0)));",
    "Texture2DArray<float4>": "acc += NAME.SampleLevel(smp, float3(0.5, 0.5, 1.0), 0);",
    "TextureCube<float4>": "acc += NAME.SampleLevel(smp, float3(1.0, 0.0, 0.0), 0);",
    "TextureCubeArray<float4>": "acc += NAME.SampleLevel(smp, float4(1.0, 0.0, 0.0, 1.0), 0);",
    "Texture3D<float4>": "acc += NAME.SampleLevel(smp, float3(0.5, 0.5, 0.5), 0);",
    "Texture2DMS<float4>": "acc += NAME.Load(int2(0, 0), 0);",
    "Sampler2D": "acc += NAME.SampleLevel(float2(0.5, 0.5), 0);",
    "SamplerCube": "acc += NAME.SampleLevel(float3(1.0, 0.0, 0.0), 0);",
    "Sampler2DShadow": "acc += NAME.SampleCmpLevelZero(float2(0.5, 0.5), 0.5).xxxx;",
    "SamplerState": "",  # `smp`, which the textures above sample through
    "RWTexture2D<float4>": "NAME[int2(0, 0)] = acc;",
    "RWTexture2D<uint>": "NAME[int2(0, 0)] = uint(acc.x);",
    "RWTexture3D<float>": "NAME[int3(0, 0, 0)] = acc.y;",
}
# How each refused declaration is declared and used, by the table's first `...`.
REFUSED = {
    "[[vk::push_constant]] cbuffer": ("[[vk::push_constant]] cbuffer Push { float scale; };",
                                      "outv[0] = float4(scale);"),
    "Texture2D<float>": ("Texture2D<float> shadow; SamplerComparisonState cmp;",
                         "outv[0] = shadow.SampleCmpLevelZero(cmp, float2(0.5, 0.5), 0.5).xxxx;"),
    "Texture1DArray<float4>": ("Texture1DArray<float4> strip; SamplerState smp;",
                               "outv[0] = strip.SampleLevel(smp, float2(0.5, 1.0), 0);"),
    "RWTexture2DMS<float4>": ("RWTexture2DMS<float4> msimg;", "outv[0] = msimg.Load(int2(0, 0), 0);"),
    "Sampler2DMS<float4>": ("Sampler2DMS<float4> mscomb;", "outv[0] = mscomb.Load(int2(0, 0), 0);"),
    "Texture2D<float4> maps[4]": ("Texture2D<float4> maps[4]; SamplerState smp;",
                                  "outv[0] = maps[1].SampleLevel(smp, float2(0.5, 0.5), 0);"),
    "Buffer<float4>": ("Buffer<float4> texels;", "outv[0] = texels[0];"),
    "bool": ("struct Flags { bool on; float value; }; ConstantBuffer<Flags> flags;",
             "outv[0] = float4(flags.on ? flags.value : 0.0);"),
}
ENTRY = ("RWStructuredBuffer<float4> outv;\n[shader(\"compute\")]\n[numthreads(1, 1, 1)]\n"
         "void k(uint3 id : SV_DispatchThreadID)\n{\n%s\n}\n")


def run(name, source):
    path = os.path.join(work, name + ".slang")
    open(path, "w").write(source)
    out = os.path.join(work, "out-" + name)
    p = subprocess.run([build, "--compiler", "embedded", "--no-cache", "--no-layouts",
                        "--targets", "wgsl", "-o", out, path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout, os.path.join(out, name + ".bundle.json")


failures = []
binds = table("wgsl-binds")
decls, body, want = [], ["    float4 acc = float4(0.0);"], {}
for i, (decl, shape, ident) in enumerate(binds):
    decl, shape = code(decl), code(shape)
    if decl not in USES:
        failures.append("the wgsl-binds table's '%s': the test has no use for it" % decl)
        continue
    name = "smp" if decl == "SamplerState" else "p%d" % i
    decls.append("%s %s;" % (decl, name))
    if USES[decl]:
        body.append("    " + USES[decl].replace("NAME", name))
    want[name] = (decl, shape, int(ident))
body.append("    outv[id.x] = acc;")
status, said, view = run("binds", "\n".join(decls) + "\n" + ENTRY % "\n".join(body))
if status != 0:
    failures.append("the wgsl-binds declarations do not build for wgsl (exit %d):\n%s" % (status, said))
else:
    rows = {r["name"]: r for r in json.load(open(view))["targets"][0]["entries"][0]["params"]}
    for name, (decl, shape, ident) in want.items():
        r = rows.get(name)
        if not r:
            failures.append("'%s': no row" % decl)
        elif (r["shape"], r["webgpu_layout"]) != (shape, ident):
            failures.append("'%s': the row is shape '%s', ID %d; the table says '%s', %d"
                            % (decl, r["shape"], r["webgpu_layout"], shape, ident))
for i, (decl, says) in enumerate(table("wgsl-refuses")):
    key, words = code(decl), code(says)
    if key in REFUSED:
        declared, used = REFUSED[key]
    elif key in USES:  # a declaration the binds table uses: the claim of a refusal is tested
        declared = "SamplerState smp;\n" * (key != "SamplerState") + "%s it;" % key.replace(
            "SamplerState", "SamplerState smp; //")
        used = "float4 acc = float4(0.0); %s outv[0] = acc;" % USES[key].replace("NAME", "it")
    else:
        failures.append("the wgsl-refuses table's '%s': the test has no use for it" % key)
        continue
    status, said, _ = run("refused%d" % i, declared + "\n" + ENTRY % ("    " + used))
    if status != 1 or words not in said or "target 'wgsl'" not in said:
        failures.append("'%s': exit %d, not 1 with '%s':\n%s" % (key, status, words, said))
if failures:
    print("FAIL: docs/build.md's wgsl tables and the code disagree:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("ok: %d declarations bind on wgsl as docs/build.md says, %d are refused as it says"
      % (len(binds), len(REFUSED)))
PY
