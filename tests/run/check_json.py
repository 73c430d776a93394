#!/usr/bin/env python3
"""check_json.py DGPB_RUN FIXTURES - dgpb-run --json parsed back: the schema
of docs/run.md, exact values, expectations, times and an error object.
$DGPB_TEST_PRELOAD (sanitizer builds) is preloaded into dgpb-run only."""
import json
import os
import subprocess
import sys

run, fixtures = sys.argv[1], sys.argv[2]
env = dict(os.environ)
if env.get("DGPB_TEST_PRELOAD"):
    env["LD_PRELOAD"] = env["DGPB_TEST_PRELOAD"]


def dgpb_run(*args, status=0):
    p = subprocess.run([run, "--json", *args], capture_output=True, text=True, env=env)
    print(" ".join(args), "->", p.returncode, p.stderr.strip())
    assert p.returncode == status, f"exit status {p.returncode}, expected {status}"
    doc = json.loads(p.stdout)
    assert doc["exit"] == status, doc
    return doc


double = os.path.join(fixtures, "double.dgpb")
kernels = os.path.join(fixtures, "kernels.dgpb")

# Outputs: by default every writable parameter as hex; --print picks and types them.
doc = dgpb_run(double, "computeMain", "--threads", "4", "--in", "input=i32:1,2,3,4",
               "--size", "output=16")
assert (doc["bundle"], doc["api"], doc["target"], doc["entry"]) == \
    (double, "vulkan", "spirv", "computeMain"), doc
assert doc["device"] and doc["driver"], doc
assert doc["thread_group_size"] == [4, 1, 1] and doc["groups"] == [1, 1, 1], doc
assert doc["dispatches"] == 1 and "time_ms" not in doc, doc
assert doc["outputs"] == [
    {"name": "input", "kind": "rw_buffer", "size": 16, "type": "hex",
     "values": ["0x00000001", "0x00000002", "0x00000003", "0x00000004"]},
    {"name": "output", "kind": "rw_buffer", "size": 16, "type": "hex",
     "values": ["0x00000002", "0x00000004", "0x00000006", "0x00000008"]}], doc["outputs"]
assert doc["expect"] == [], doc

# Floats as numbers, an expectation within the tolerance, one outside it.
doc = dgpb_run(kernels, "scale", "--threads", "3", "--in", "src=f32:1,2,-3", "--size", "dst=12",
               "--set", "k=0.5", "--set", "count=3", "--print", "dst:f32",
               "--expect", "dst=f32:0.5,1.001,-1.5", "--tolerance", "0.01")
assert doc["outputs"] == [{"name": "dst", "kind": "rw_buffer", "size": 12, "type": "f32",
                           "values": [0.5, 1, -1.5]}], doc["outputs"]
assert doc["expect"] == [{"name": "dst", "type": "f32", "match": True, "compared": 3,
                          "mismatches": 0}], doc["expect"]
doc = dgpb_run(kernels, "scale", "--threads", "3", "--in", "src=f32:1,2,-3", "--size", "dst=12",
               "--set", "k=0.5", "--set", "count=3", "--print", "dst:f32",
               "--expect", "dst=f32:0.5,1.001,-1.5", "--tolerance", "0.0001", status=1)
assert doc["expect"] == [{"name": "dst", "type": "f32", "match": False, "compared": 3,
                          "mismatches": 1, "first": 1, "got": 1, "expected": 1.001}], doc["expect"]

# --repeat and --time: one GPU time per dispatch (never a limit on its value).
doc = dgpb_run(kernels, "accumulate", "--groups", "2", "--size", "counter=8", "--repeat", "3",
               "--time", "--print", "counter:u32")
assert doc["dispatches"] == 3 and doc["groups"] == [2, 1, 1], doc
t = doc["time_ms"]
assert len(t["dispatches"]) == 3 and all(x >= 0 for x in t["dispatches"]), t
assert t["min"] <= t["median"] <= max(t["dispatches"]) and t["min"] <= t["mean"], t
assert doc["outputs"][0]["values"] == [3, 3], doc["outputs"]

# A draw: every entry named, the vertices drawn, the colour attachment among the outputs;
# a mesh pipeline's groups.
draw_mesh = os.path.join(fixtures, "draw_mesh.dgpb")
doc = dgpb_run(draw_mesh, "columnMesh", "--fragment", "columnColor", "--groups", "2",
               "--set", "shade=0.5", "--attachment", "target=r32float:4x1", "--print", "target:f32")
assert doc["entry"] == "columnMesh" and doc["entries"] == ["columnMesh", "columnColor"], doc
assert doc["thread_group_size"] == [1, 1, 1] and doc["groups"] == [2, 1, 1], doc
assert doc["dispatches"] == 1 and "vertices" not in doc, doc
assert doc["outputs"] == [{"name": "target", "kind": "color_attachment", "size": 16,
                           "type": "f32", "values": [0.5, 1, 0, 0]}], doc["outputs"]
draw_geometry = os.path.join(fixtures, "draw_geometry.dgpb")
doc = dgpb_run(draw_geometry, "readPoint", "--geometry", "expandPoint", "--fragment", "pointColor",
               "--vertices", "1", "--in", "points=f32:0,0,0,0,1,2,3,4", "--set", "halfSize=2",
               "--attachment", "target=rgba32float:1x1", "--print", "target:f32")
assert doc["entries"] == ["readPoint", "expandPoint", "pointColor"] and doc["vertices"] == 1, doc
assert doc["groups"] == [0, 0, 0] and doc["outputs"][0]["values"] == [1, 2, 3, 4], doc

# A draw from vertex buffers into two colour attachments and a depth attachment: the vertices
# its buffers hold, each attachment among the outputs of its kind.
deferred = os.path.join(fixtures, "draw_deferred.dgpb")
doc = dgpb_run(deferred, "geometryVertex", "--fragment", "geometryFragment",
               "--vertices", "position=float3:-1,-1,0.5,3,-1,0.5,-1,3,0.5",
               "--vertices", "normal=float3:0,0,1,0,0,1,0,0,1",
               "--vertices", "albedo=float3:1,0,0,1,0,0,1,0,0",
               "--vertices", "material=uint:5,5,5", "--set", "viewProj=1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1",
               "--attachment", "albedo=rgba8unorm:1x1", "--attachment", "normal=rgba16float:1x1",
               "--attachment", "material=r32uint:1x1", "--depth", "depth=depth32float:1x1",
               "--print", "material:u32", "--print", "depth:f32")
assert doc["vertices"] == 3 and doc["entries"] == ["geometryVertex", "geometryFragment"], doc
assert doc["outputs"] == [
    {"name": "material", "kind": "color_attachment", "size": 4, "type": "u32", "values": [5]},
    {"name": "depth", "kind": "depth_attachment", "size": 4, "type": "f32", "values": [0.5]}], \
    doc["outputs"]

# --list --json: the listing as one object (no device): every entry with its rows, a value's
# type and a struct's fields, a vertex entry's attributes at their locations.
def dgpb_list(*args):
    p = subprocess.run([run, "--list", "--json", *args], capture_output=True, text=True, env=env)
    print("--list --json", " ".join(args), "->", p.returncode, p.stderr.strip())
    assert p.returncode == 0, f"exit status {p.returncode}"
    return json.loads(p.stdout)


doc = dgpb_list(deferred)
assert (doc["bundle"], doc["target"], doc["code_format"]) == (deferred, "spirv", "spirv"), doc
entries = {e["name"]: e for e in doc["entries"]}
vertex = entries["geometryVertex"]
assert vertex["stage"] == "vertex" and vertex["thread_group_size"] == [0, 0, 0], vertex
assert vertex["vertex_attributes"] == [
    {"name": "input.position", "location": 0, "type": "float3"},
    {"name": "input.normal", "location": 1, "type": "float3"},
    {"name": "input.albedo", "location": 2, "type": "float3"},
    {"name": "input.material", "location": 4, "type": "uint"}], vertex["vertex_attributes"]
assert {"name": "viewProj", "kind": "value", "space": 0, "binding": 0, "offset": 0, "size": 64,
        "flags": ["read_only"], "type": "f32 4x4"} in vertex["params"], vertex["params"]
assert "vertex_attributes" not in entries["lightingFragment"], entries["lightingFragment"]
texture = [p for p in entries["lightingFragment"]["params"] if p["name"] == "gDepth"]
assert texture and texture[0]["kind"] == "texture" and texture[0]["shape"] == "2d float", texture
doc = dgpb_list("--api", "cuda", os.path.join(fixtures, "structs.dgpb"))
values = [p for e in doc["entries"] for p in e["params"] if "fields" in p]
assert values and all(p.get("type_from") == "spirv" for p in values), values
assert all(f["name"].startswith(p["name"]) and f["size"] > 0 for p in values for f in p["fields"]), \
    values

# An error is a JSON object too, with the message and the exit status.
doc = dgpb_run(double, "computeMain", "--size", "output=16", "--size", "nope=4", status=2)
assert "has no parameter 'nope'" in doc["error"] and "outputs" not in doc, doc
print("ok")
