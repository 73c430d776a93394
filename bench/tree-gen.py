#!/usr/bin/env python3
"""bench/tree-gen.py - writes the tree benchmark's project (bench/tree-bench.sh).

    bench/tree-gen.py [--modules N] [--seed S] OUTDIR

OUTDIR receives, the same bytes for the same N and S:

  shaders/mNNN.slang       N modules of 1 to 3 entries each, as a studio's
                           shader tree has them: compute kernels (filters,
                           reductions in workgroup memory, histograms with
                           atomics, particle integration, image sampling,
                           matrix transforms) and a few render modules (a
                           vertex shader and one or two fragment shaders).
                           About half follow the generator's conventions
                           (each entry and its `<entry>_<param>` globals
                           inside `#if defined(DREAM_SHADER_<entry>)`, or
                           DREAM_SHADERS_RENDER), the others are plain Slang
                           (entry-point `uniform` parameters, a struct of
                           resources with a cbuffer, or a ConstantBuffer).
  shaders/include/*.slangh shared includes (functions and types only: noise,
                           colour, filter weights, the render modules' vertex
                           types); some modules include one or two of them.
  one/one.slang            every module in ONE module, each module's text
                           inside `#if` of its own group symbols, so that
                           each compile sees what it sees in the module's own
                           file: the same entries, one dgpb-build.
  CMakeLists.txt           the project: find_package(dgpb), one
                           dgpb_add_shader_bundle() per module (targets spirv
                           and wgsl) into bundles/; -DTREE_OPTIONS=... passes
                           more dgpb-build arguments to every bundle.
  entries.tsv              one line per entry: module, entry, stage, group
                           symbol (the seed's pipeline and the counts).
  includes.tsv             one line per shared include: its name and the
                           modules that include it.

Every entry holds one line `float tweak = 1.0; // tree-edit: <entry>` and
every include one `... = <value>; // tree-edit: <include>`: the benchmark
edits an entry or an include by rewriting that line.

Render modules are modules 1, 4, 21, 24, 41, ... (at most 10): a render
group's WebGPU limits (12 uniform buffers, 16 textures and 16 samplers for
the whole group, docs/build.md) hold for ONE module that carries every render
entry of the tree only while there are few of them.
"""
import argparse
import os
import random
import re
import sys

INCLUDES = {
    "noise.slangh": """// shared by several modules of the tree: integer hashing and value noise
#ifndef TREE_NOISE_SLANGH
#define TREE_NOISE_SLANGH

static const uint TREE_NOISE_SEED = 0x9E3779B9u; // tree-edit: noise.slangh

uint tree_hash(uint x)
{
    x ^= TREE_NOISE_SEED;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    return x;
}

float tree_random(uint x)
{
    return float(tree_hash(x) & 0x00FFFFFFu) / 16777216.0;
}

float tree_noise(float2 p)
{
    float2 i = floor(p);
    float2 f = frac(p);
    float2 u = f * f * (3.0 - 2.0 * f);
    uint ix = uint(int(i.x) & 0xFFFF), iy = uint(int(i.y) & 0xFFFF);
    float a = tree_random(ix + iy * 65536u);
    float b = tree_random(ix + 1u + iy * 65536u);
    float c = tree_random(ix + (iy + 1u) * 65536u);
    float d = tree_random(ix + 1u + (iy + 1u) * 65536u);
    return lerp(lerp(a, b, u.x), lerp(c, d, u.x), u.y);
}

#endif
""",
    "color.slangh": """// shared by several modules of the tree: colour helpers
#ifndef TREE_COLOR_SLANGH
#define TREE_COLOR_SLANGH

static const float TREE_WHITE_POINT = 4.0; // tree-edit: color.slangh

float tree_luminance(float3 c)
{
    return dot(c, float3(0.2126, 0.7152, 0.0722));
}

float3 tree_tonemap(float3 c)
{
    float l = tree_luminance(c);
    float mapped = l * (1.0 + l / (TREE_WHITE_POINT * TREE_WHITE_POINT)) / (1.0 + l);
    return c * (mapped / max(l, 1e-5));
}

float3 tree_to_srgb(float3 c)
{
    float3 lo = c * 12.92;
    float3 hi = 1.055 * pow(max(c, 0.0), 1.0 / 2.4) - 0.055;
    return select(c <= 0.0031308, lo, hi);
}

#endif
""",
    "filter.slangh": """// shared by several modules of the tree: filter weights
#ifndef TREE_FILTER_SLANGH
#define TREE_FILTER_SLANGH

static const float TREE_FILTER_SHARPNESS = 1.0; // tree-edit: filter.slangh

float tree_gauss(float x, float sigma)
{
    float s = max(sigma * TREE_FILTER_SHARPNESS, 1e-3);
    return exp(-(x * x) / (2.0 * s * s));
}

float tree_smootherstep(float e0, float e1, float x)
{
    float t = saturate((x - e0) / (e1 - e0));
    return t * t * t * (t * (t * 6.0 - 15.0) + 10.0);
}

#endif
""",
    "scene.slangh": """// shared by the render modules of the tree: vertex layout and shading
#ifndef TREE_SCENE_SLANGH
#define TREE_SCENE_SLANGH

static const float TREE_AMBIENT = 0.08; // tree-edit: scene.slangh

struct TreeVertexIn
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct TreeVertexOut
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
    float3 world : TEXCOORD1;
};

float3 tree_shade(float3 albedo, float3 n, float3 l)
{
    float diffuse = saturate(dot(normalize(n), normalize(l)));
    return albedo * (TREE_AMBIENT + diffuse);
}

#endif
""",
}

# Which modules include a shared include: the probability, and the module
# that always does (so that a small tree has every case).
INCLUDE_ODDS = [("noise.slangh", 0.3, 2), ("color.slangh", 0.2, 3), ("filter.slangh", 0.15, 5)]

FLAVOURS = ["filter", "reduce", "histogram", "particles", "image", "matrix"]
THREADS = {"filter": (64, 1, 1), "reduce": (64, 1, 1), "histogram": (128, 1, 1),
           "particles": (64, 1, 1), "image": (8, 8, 1), "matrix": (256, 1, 1)}


class Kernel:
    """One compute entry: its resources, values and body, independent of how
    a style declares them. res: (name, type, struct-friendly); vals: (name, type)."""

    def __init__(self, entry, flavour, incs, rng):
        self.entry = entry
        self.flavour = flavour
        self.incs = incs
        self.rng = rng
        self.types = ""  # struct types the kernel needs, named after the entry
        self.shared = ""  # workgroup memory
        getattr(self, "make_" + flavour)()

    def make_filter(self):
        self.res = [("src", "StructuredBuffer<float4>"), ("dst", "RWStructuredBuffer<float4>")]
        self.vals = [("count", "uint"), ("radius", "uint"), ("sigma", "float"), ("gain", "float")]
        weight = ("tree_gauss(float(k), {sigma})" if "filter.slangh" in self.incs
                  else "exp(-float(k * k) / (2.0 * {sigma} * {sigma} + 1e-3))")
        tone = ("tree_tonemap(v.rgb)" if "color.slangh" in self.incs
                else "v.rgb / (1.0 + v.rgb)")
        taps = self.rng.choice([4, 6, 8])
        self.body = f"""    uint i = id.x;
    if (i >= {{count}})
        return;
    float tweak = 1.0; // tree-edit: {self.entry}
    float4 sum = float4(0.0, 0.0, 0.0, 0.0);
    float wsum = 0.0;
    int r = int(min({{radius}}, {taps}u));
    for (int k = -r; k <= r; k++)
    {{
        int j = clamp(int(i) + k, 0, int({{count}}) - 1);
        float w = {weight};
        sum += {{src}}[j] * w;
        wsum += w;
    }}
    float4 v = sum / max(wsum, 1e-6);
    v.rgb = {tone};
    v.a = saturate(v.a * tweak);
    {{dst}}[i] = v * {{gain}};
"""

    def make_reduce(self):
        n = THREADS["reduce"][0]
        self.res = [("src", "StructuredBuffer<float>"), ("dst", "RWStructuredBuffer<float>")]
        self.vals = [("count", "uint"), ("scale", "float")]
        self.shared = f"groupshared float {self.entry}_partial[{n}];\n"
        p = f"{self.entry}_partial"
        load = ("{src}[i] * (1.0 + 0.01 * tree_random(i))" if "noise.slangh" in self.incs
                else "{src}[i]")
        self.body = f"""    uint i = id.x;
    float tweak = 1.0; // tree-edit: {self.entry}
    float v = i < {{count}} ? {load} : 0.0;
    {p}[lid.x] = v * v * tweak;
    GroupMemoryBarrierWithGroupSync();
    for (uint stride = {n // 2}u; stride > 0u; stride >>= 1u)
    {{
        if (lid.x < stride)
            {p}[lid.x] += {p}[lid.x + stride];
        GroupMemoryBarrierWithGroupSync();
    }}
    if (lid.x == 0u)
        {{dst}}[gid.x] = sqrt({p}[0]) * {{scale}};
"""

    def make_histogram(self):
        self.res = [("src", "StructuredBuffer<float4>"), ("bins", "RWStructuredBuffer<Atomic<uint>>")]
        self.vals = [("count", "uint"), ("bin_count", "uint"), ("exposure", "float"),
                     ("min_log", "float")]
        lum = ("tree_luminance(c.rgb)" if "color.slangh" in self.incs
               else "dot(c.rgb, float3(0.2126, 0.7152, 0.0722))")
        self.body = f"""    uint i = id.x;
    if (i >= {{count}})
        return;
    float tweak = 1.0; // tree-edit: {self.entry}
    float4 c = {{src}}[i] * {{exposure}} * tweak;
    float l = {lum};
    if (l < 1e-4)
    {{
        {{bins}}[0].add(1u);
        return;
    }}
    float t = saturate((log2(l) - {{min_log}}) / 16.0);
    uint bin = 1u + min(uint(t * float({{bin_count}} - 2u)), {{bin_count}} - 2u);
    {{bins}}[bin].add(1u);
"""

    def make_particles(self):
        ptype = f"{self.entry}_Particle"
        self.types = f"""struct {ptype}
{{
    float3 position;
    float life;
    float3 velocity;
    float mass;
}};
"""
        self.res = [("particles", f"RWStructuredBuffer<{ptype}>")]
        self.vals = [("count", "uint"), ("dt", "float"), ("drag", "float"), ("floor_y", "float"),
                     ("gravity", "float4")]
        jitter = ("float3(tree_random(i * 3u), tree_random(i * 3u + 1u), tree_random(i * 3u + 2u)) - 0.5"
                  if "noise.slangh" in self.incs
                  else "float3(frac(sin(float(i) * 12.9898) * 43758.5453) - 0.5, 0.0, 0.0)")
        self.body = f"""    uint i = id.x;
    if (i >= {{count}})
        return;
    float tweak = 1.0; // tree-edit: {self.entry}
    {ptype} p = {{particles}}[i];
    float3 force = {{gravity}}.xyz * p.mass - p.velocity * {{drag}};
    force += ({jitter}) * 0.1 * tweak;
    p.velocity += force / max(p.mass, 1e-3) * {{dt}};
    p.position += p.velocity * {{dt}};
    if (p.position.y < {{floor_y}})
    {{
        p.position.y = {{floor_y}} + ({{floor_y}} - p.position.y) * 0.5;
        p.velocity.y = -p.velocity.y * 0.6;
        p.velocity.xz *= 0.9;
    }}
    p.life -= {{dt}};
    if (p.life <= 0.0)
    {{
        p.position = float3(0.0, 1.0, 0.0);
        p.velocity = float3(0.0, 0.0, 0.0);
        p.life = 4.0;
    }}
    {{particles}}[i] = p;
"""

    def make_image(self):
        self.res = [("image", "Texture2D<float4>"), ("smp", "SamplerState"),
                    ("out", "RWStructuredBuffer<float4>")]
        self.vals = [("width", "uint"), ("height", "uint"), ("exposure", "float"),
                     ("gamma", "float")]
        tone = ("tree_to_srgb(tree_tonemap(c.rgb))" if "color.slangh" in self.incs
                else "pow(c.rgb / (1.0 + c.rgb), 1.0 / {gamma})")
        grain = ("(tree_noise(uv * 512.0) - 0.5) * 0.02" if "noise.slangh" in self.incs
                 else "0.0")
        self.body = f"""    if (id.x >= {{width}} || id.y >= {{height}})
        return;
    float tweak = 1.0; // tree-edit: {self.entry}
    float2 size = float2(float({{width}}), float({{height}}));
    float2 uv = (float2(id.xy) + 0.5) / size;
    float2 texel = 1.0 / size;
    float4 c = float4(0.0, 0.0, 0.0, 0.0);
    for (int y = -1; y <= 1; y++)
    {{
        for (int x = -1; x <= 1; x++)
        {{
            float w = (x == 0 && y == 0) ? 0.25 : ((x == 0 || y == 0) ? 0.125 : 0.0625);
            c += {{image}}.SampleLevel({{smp}}, uv + float2(float(x), float(y)) * texel, 0.0) * w;
        }}
    }}
    c.rgb *= {{exposure}} * tweak;
    c.rgb = {tone} + {grain};
    {{out}}[id.y * {{width}} + id.x] = c;
"""

    def make_matrix(self):
        self.res = [("src", "StructuredBuffer<float4>"), ("dst", "RWStructuredBuffer<float4>")]
        self.vals = [("transform", "float4x4"), ("count", "uint"), ("angle", "float")]
        self.body = f"""    uint i = id.x;
    if (i >= {{count}})
        return;
    float tweak = 1.0; // tree-edit: {self.entry}
    float4 p = {{src}}[i];
    float s = sin({{angle}} * tweak), c = cos({{angle}} * tweak);
    float3x3 rot = float3x3(c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c);
    float3 q = mul(rot, p.xyz);
    float4 w = mul({{transform}}, float4(q, 1.0));
    w.xyz /= max(abs(w.w), 1e-6);
    float len = length(w.xyz);
    {{dst}}[i] = float4(len > 0.0 ? w.xyz / len : w.xyz, len);
"""

    def signature(self, extra=""):
        tx, ty, tz = THREADS[self.flavour]
        args = "uint3 id : SV_DispatchThreadID"
        if self.flavour == "reduce":
            args += ", uint3 lid : SV_GroupThreadID, uint3 gid : SV_GroupID"
        return (f'[shader("compute")]\n[numthreads({tx}, {ty}, {tz})]\n'
                f"void {self.entry}({args}{extra})")


def fill(body, names):
    """body with each {name} of names replaced (code braces are left alone)."""
    return re.sub(r"\{(\w+)\}", lambda g: names.get(g.group(1), g.group(0)), body)


def dream_compute(k):
    """The generator's conventions: <entry>_<param> globals, the values in
    ConstantBuffer <entry>_params, all inside the entry's group symbol."""
    e = k.entry
    names = {r: f"{e}_{r}" for r, _ in k.res}
    names.update({v: f"{e}_params.{v}" for v, _ in k.vals})
    fields = "".join(f"    {t} {v};\n" for v, t in k.vals)
    decls = "".join(f"{t} {e}_{r};\n" for r, t in k.res)
    return (f"#if defined(DREAM_SHADER_{e})\n{k.types}struct {e}_Params\n{{\n{fields}}};\n"
            f"ConstantBuffer<{e}_Params> {e}_params;\n{decls}{k.shared}"
            f"{k.signature()}\n{{\n{fill(k.body, names)}}}\n#endif\n")


def plain_compute(k, shape):
    """Plain Slang in one of three shapes: entry-point uniform parameters, a
    struct of resources with a cbuffer, or a ConstantBuffer with globals."""
    e = k.entry
    if shape == "uniforms":
        names = {n: n for n, _ in k.res + k.vals}
        extra = "".join(f",\n    uniform {t} {n}" for n, t in k.res + k.vals)
        return f"{k.types}{k.shared}{k.signature(extra)}\n{{\n{fill(k.body, names)}}}\n"
    if shape == "struct":
        names = {r: f"{e}_res.{r}" for r, _ in k.res}
        names.update({v: f"{e}_{v}" for v, _ in k.vals})
        members = "".join(f"    {t} {r};\n" for r, t in k.res)
        fields = "".join(f"    {t} {e}_{v};\n" for v, t in k.vals)
        return (f"{k.types}struct {e}_Resources\n{{\n{members}}};\n{e}_Resources {e}_res;\n"
                f"cbuffer {e}_Settings\n{{\n{fields}}};\n{k.shared}"
                f"{k.signature()}\n{{\n{fill(k.body, names)}}}\n")
    names = {r: f"{e}_{r}" for r, _ in k.res}
    names.update({v: f"{e}_cfg.{v}" for v, _ in k.vals})
    fields = "".join(f"    {t} {v};\n" for v, t in k.vals)
    decls = "".join(f"{t} {e}_{r};\n" for r, t in k.res)
    return (f"{k.types}struct {e}_Config\n{{\n{fields}}};\nConstantBuffer<{e}_Config> {e}_cfg;\n"
            f"{decls}{k.shared}{k.signature()}\n{{\n{fill(k.body, names)}}}\n")


def render_bodies(m, vs, fs, incs):
    """The vertex and fragment bodies; P(name) is how a style spells a value or resource."""
    wave = ("tree_noise(world.xz * 0.5 + {time}) * {wave}" if "noise.slangh" in incs
            else "sin(world.x * 2.0 + {time}) * {wave}")
    vbody = f"""    float tweak = 1.0; // tree-edit: {vs}
    float4 world4 = mul({{model}}, float4(input.position, 1.0));
    float3 world = world4.xyz / world4.w;
    world.y += {wave} * tweak;
    TreeVertexOut o;
    o.position = mul({{view_proj}}, float4(world, 1.0));
    o.normal = normalize(mul((float3x3){{model}}, input.normal));
    o.uv = input.uv;
    o.world = world;
    return o;
"""
    tone = "tree_tonemap(lit)" if "color.slangh" in incs else "lit / (1.0 + lit)"
    fbody = f"""    float tweak = 1.0; // tree-edit: {fs}
    float4 albedo = {{albedo}}.Sample({{smp}}, input.uv) * {{tint}};
    float3 lit = tree_shade(albedo.rgb, input.normal, {{light_dir}}.xyz) * tweak;
    float rim = pow(1.0 - saturate(abs(input.normal.z)), 3.0) * 0.25;
    lit += rim * {{tint}}.rgb;
    return float4({tone}, albedo.a);
"""
    return vbody, fbody


def debug_fragment(m, name, incs):
    pattern = ("tree_noise(input.uv * 64.0)" if "noise.slangh" in incs
               else "frac(sin(dot(input.uv, float2(12.9898, 78.233))) * 43758.5453)")
    return f"""[shader("fragment")]
float4 {name}(TreeVertexOut input) : SV_Target
{{
    float tweak = 1.0; // tree-edit: {name}
    float3 n = normalize(input.normal) * 0.5 + 0.5;
    float checker = fmod(floor(input.uv.x * 16.0) + floor(input.uv.y * 16.0), 2.0);
    float grain = {pattern};
    float3 c = lerp(n, float3(checker, checker, checker), 0.25) + (grain - 0.5) * 0.05;
    return float4(c * tweak, 1.0);
}}
"""


def render_module(m, style, rng, incs):
    vs, fs = f"{m}_vs", f"{m}_fs"
    entries = [(vs, "vertex"), (fs, "fragment")]
    debug = rng.random() < 0.5
    if debug:
        entries.append((f"{m}_debug", "fragment"))
    vbody, fbody = render_bodies(m, vs, fs, incs)
    if style == "dream":
        names = {"model": f"{vs}_params.model", "view_proj": f"{vs}_params.view_proj",
                 "time": f"{vs}_params.time", "wave": f"{vs}_params.wave",
                 "albedo": f"{fs}_albedo", "smp": f"{fs}_smp",
                 "tint": "float4(1.0, 1.0, 1.0, 1.0)", "light_dir": "float4(0.3, 0.8, 0.5, 0.0)"}
        text = f"""#if defined(DREAM_SHADERS_RENDER)
struct {vs}_Params
{{
    float4x4 view_proj;
    float4x4 model;
    float time;
    float wave;
}};
ConstantBuffer<{vs}_Params> {vs}_params;
[shader("vertex")]
TreeVertexOut {vs}(TreeVertexIn input)
{{
{fill(vbody, names)}}}
Texture2D<float4> {fs}_albedo;
SamplerState {fs}_smp;
[shader("fragment")]
float4 {fs}(TreeVertexOut input) : SV_Target
{{
{fill(fbody, names)}}}
"""
        if debug:
            text += debug_fragment(m, f"{m}_debug", incs)
        return text + "#endif\n", entries
    names = {"model": f"{m}_model", "view_proj": f"{m}_view_proj", "time": f"{m}_time",
             "wave": f"{m}_wave", "albedo": f"{m}_albedo", "smp": f"{m}_sampler",
             "tint": f"{m}_tint", "light_dir": f"{m}_light_dir"}
    text = f"""cbuffer {m}_Frame
{{
    float4x4 {m}_view_proj;
    float4x4 {m}_model;
    float4 {m}_light_dir;
    float4 {m}_tint;
    float {m}_time;
    float {m}_wave;
}};
Texture2D<float4> {m}_albedo;
SamplerState {m}_sampler;

[shader("vertex")]
TreeVertexOut {vs}(TreeVertexIn input)
{{
{fill(vbody, names)}}}

[shader("fragment")]
float4 {fs}(TreeVertexOut input) : SV_Target
{{
{fill(fbody, names)}}}
"""
    if debug:
        text += "\n" + debug_fragment(m, f"{m}_debug", incs)
    return text, entries


def module(i, seed, render_slots):
    """Module i: (text, entries [(name, stage)], style, includes)."""
    rng = random.Random(f"dgpb-tree:{seed}:{i}")
    m = f"m{i:03d}"
    incs = [name for name, odds, always in INCLUDE_ODDS if i == always or rng.random() < odds]
    render = i in render_slots
    if render:
        style = "dream" if i % 20 == 1 else "plain"
        incs.append("scene.slangh")
    else:
        style = "dream" if i == 0 else "plain" if i == 2 else rng.choice(["dream", "plain"])
    head = f"// {m}: generated by bench/tree-gen.py ({'generator conventions' if style == 'dream' else 'plain Slang'})\n"
    head += "".join(f'#include "{inc}"\n' for inc in incs)
    if render:
        body, entries = render_module(m, style, rng, incs)
        return head + "\n" + body, entries, style, incs
    count = rng.choices([1, 2, 3], weights=[45, 35, 20])[0]
    shape = rng.choice(["uniforms", "struct", "cbuffer"])
    parts, entries = [], []
    for k in range(count):
        flavour = rng.choice(FLAVOURS)
        kern = Kernel(f"{m}_{flavour}{k}", flavour, incs, rng)
        parts.append(dream_compute(kern) if style == "dream" else plain_compute(kern, shape))
        entries.append((kern.entry, "compute"))
    return head + "\n" + "\n".join(parts), entries, style, incs


def group_of(entry, stage):
    return f"DREAM_SHADER_{entry}" if stage == "compute" else "DREAM_SHADERS_RENDER"


CMAKE = """# The tree benchmark's project (bench/tree-gen.py, bench/tree-bench.sh):
# one dgpb_add_shader_bundle() per module, as build systems use dgpb-build.
cmake_minimum_required(VERSION 3.20)
project(dgpb_tree LANGUAGES C)
find_package(dgpb 0.1 CONFIG REQUIRED)
set(TREE_OPTIONS "" CACHE STRING "more dgpb-build arguments for every bundle")
set(TREE_MODULES
{modules})
foreach(m IN LISTS TREE_MODULES)
  dgpb_add_shader_bundle(tree_shaders shaders/${{m}}.slang
    TARGETS spirv wgsl
    INCLUDE_DIRS shaders/include
    OUTPUT_DIR bundles
    OPTIONS ${{TREE_OPTIONS}})
endforeach()
"""


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modules", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("outdir")
    a = ap.parse_args()
    if a.modules < 1 or a.modules > 1000:
        sys.exit("tree-gen: --modules must be 1 to 1000")
    render_slots = [i for i in range(a.modules) if i % 20 in (1, 4)][:10]
    names, rows, one = [], [], []
    users = {name: [] for name in INCLUDES}
    for i in range(a.modules):
        text, entries, style, incs = module(i, a.seed, render_slots)
        m = f"m{i:03d}"
        names.append(m)
        write(os.path.join(a.outdir, "shaders", m + ".slang"), text)
        for inc in incs:
            users[inc].append(m)
        for name, stage in entries:
            rows.append(f"{m}\t{name}\t{stage}\t{group_of(name, stage)}\t{style}\n")
        guard = " || ".join(sorted({f"defined({group_of(n, s)})" for n, s in entries}))
        one.append(f"// ---- {m}.slang\n#if {guard}\n{text}#endif\n")
    for name, text in INCLUDES.items():
        write(os.path.join(a.outdir, "shaders", "include", name), text)
    write(os.path.join(a.outdir, "one", "one.slang"),
          f"// every module of the tree in one module (bench/tree-gen.py --modules {a.modules})\n"
          + "\n".join(one))
    write(os.path.join(a.outdir, "CMakeLists.txt"),
          CMAKE.format(modules="".join(f"  {m}\n" for m in names).rstrip("\n")))
    write(os.path.join(a.outdir, "entries.tsv"), "".join(rows))
    write(os.path.join(a.outdir, "includes.tsv"),
          "".join(f"{name}\t{' '.join(users[name])}\n" for name in INCLUDES))


if __name__ == "__main__":
    main()
