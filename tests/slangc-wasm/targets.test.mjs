// Every target compiles the fixture module; SPIR-V validates; several entry
// points compose into one module in the order given.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { findNvcc } from '../../tools/slangc-wasm/lib/ptx.js';
import { slangc, spirvEntryPoints, spirvVal, tempDir } from './helpers.mjs';

function compile(target, extra = []) {
  const dir = tempDir();
  const out = path.join(dir, `basic.${target}`);
  const json = path.join(dir, `basic.${target}.json`);
  const r = slangc(['basic.slang', '-target', target, '-o', out, '-reflection-json', json, ...extra]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const result = { code: fs.readFileSync(out), reflection: JSON.parse(fs.readFileSync(json, 'utf8')) };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

function entryArgs(...names) {
  return names.flatMap((n) => ['-entry', n, '-stage', 'compute']);
}

test('spirv: one entry point validates for Vulkan 1.2', () => {
  const { code, reflection } = compile('spirv', entryArgs('scale'));
  assert.equal(code.readUInt32LE(0), 0x07230203);
  const v = spirvVal(code);
  assert.equal(v.status, 0, v.output);
  assert.deepEqual(spirvEntryPoints(code), ['main']); // Slang's default for one entry point
  assert.deepEqual(
    reflection.entryPoints.map((e) => e.name),
    ['scale'],
  );
  assert.deepEqual(reflection.entryPoints[0].threadGroupSize, [64, 1, 1]);
  assert.deepEqual(
    reflection.parameters.map((p) => p.name),
    ['data', 'factor', 'count'],
  );
});

test('spirv: several entry points compose into one module in the order given', () => {
  for (const order of [
    ['scale', 'fill'],
    ['fill', 'scale'],
  ]) {
    const { code, reflection } = compile('spirv', entryArgs(...order));
    const v = spirvVal(code);
    assert.equal(v.status, 0, v.output);
    assert.deepEqual(spirvEntryPoints(code), order);
    assert.deepEqual(
      reflection.entryPoints.map((e) => e.name),
      order,
    );
  }
});

test('spirv: vertex and fragment stages', () => {
  const dir = tempDir();
  const out = path.join(dir, 'g.spv');
  const r = slangc([
    'graphics.slang',
    '-target',
    'spirv',
    '-entry',
    'vmain',
    '-stage',
    'vertex',
    '-entry',
    'fmain',
    '-stage',
    'fragment',
    '-o',
    out,
    '-matrix-layout-row-major',
  ]);
  assert.equal(r.status, 0, r.stderr);
  const code = fs.readFileSync(out);
  assert.equal(spirvVal(code).status, 0);
  assert.deepEqual(spirvEntryPoints(code), ['vmain', 'fmain']);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('spirv: mesh, amplification, geometry, hull and domain stages (fixtures/stages)', () => {
  const cases = [
    ['mesh', 'cullMeshlets', 'amplification'],
    ['mesh', 'drawMeshlet', 'mesh'],
    ['geometry', 'particleQuad', 'geometry'],
    ['tessellation', 'terrainHull', 'hull'],
    ['tessellation', 'terrainDomain', 'domain'],
  ];
  const dir = tempDir();
  try {
    for (const [module, entry, stage] of cases) {
      const out = path.join(dir, `${entry}.spv`);
      const json = path.join(dir, `${entry}.json`);
      const r = slangc([`../stages/${module}.slang`, '-target', 'spirv', '-entry', entry, '-stage', stage,
        '-o', out, '-reflection-json', json, '-matrix-layout-row-major']);
      assert.equal(r.status, 0, r.stderr);
      const code = fs.readFileSync(out);
      const v = spirvVal(code);
      assert.equal(v.status, 0, `${entry}: ${v.output}`);
      assert.deepEqual(spirvEntryPoints(code), ['main'], entry);
      const reflection = JSON.parse(fs.readFileSync(json, 'utf8'));
      assert.deepEqual(reflection.entryPoints.map((e) => [e.name, e.stage]), [[entry, stage]]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('spirv: without -entry, the entry points the module declares', () => {
  const { code } = compile('spirv');
  assert.deepEqual(spirvEntryPoints(code), ['scale', 'fill']);
});

test('wgsl keeps the entry point names, composed in order', () => {
  const text = compile('wgsl', entryArgs('fill', 'scale')).code.toString('utf8');
  const fill = text.indexOf('fn fill(');
  const scale = text.indexOf('fn scale(');
  assert.ok(fill >= 0 && scale > fill, text);
  assert.match(text, /@compute\s*@workgroup_size\(32, 1, 1\)\s*fn fill\(/);
});

test('metal', () => {
  const text = compile('metal', entryArgs('scale')).code.toString('utf8');
  assert.match(text, /#include <metal_stdlib>/);
  assert.match(text, /\[\[kernel\]\] void scale\(/);
});

test('hlsl', () => {
  const text = compile('hlsl', entryArgs('scale', 'fill')).code.toString('utf8');
  assert.match(text, /\[numthreads\(64, 1, 1\)\]\s*void scale\(/);
  assert.match(text, /\[numthreads\(32, 1, 1\)\]\s*void fill\(/);
});

test('glsl', () => {
  const text = compile('glsl', entryArgs('scale')).code.toString('utf8');
  assert.match(text, /^#version 450/m);
  assert.match(text, /layout\(local_size_x = 64, local_size_y = 1, local_size_z = 1\) in;/);
});

test("cuda carries Slang's CUDA prelude inline", () => {
  const { code, reflection } = compile('cuda', entryArgs('scale', 'fill'));
  const text = code.toString('utf8');
  assert.match(text, /SLANG_CUDA_WARP_SIZE/);
  assert.doesNotMatch(text, /#include "slang-cuda-prelude.h"/);
  assert.match(text, /extern "C" __global__ void scale\(\)/);
  assert.match(text, /extern "C" __global__ void fill\(\)/);
  assert.deepEqual(
    reflection.parameters.map((p) => p.binding),
    [
      { kind: 'uniform', offset: 0, size: 16, elementStride: 0 },
      { kind: 'uniform', offset: 16, size: 4, elementStride: 0 },
      { kind: 'uniform', offset: 20, size: 4, elementStride: 0 },
    ],
  );
});

test('ptx through the CUDA toolkit', () => {
  assert.ok(
    findNvcc() !== null,
    "-target ptx needs the CUDA toolkit's nvcc ($CUDA_PATH/bin, /usr/local/cuda/bin or PATH)",
  );
  const text = compile('ptx', entryArgs('scale', 'fill')).code.toString('utf8');
  assert.match(text, /^\.version \d+\.\d+$/m);
  assert.match(text, /^\.const .*SLANG_globalParams\[24\];$/m);
  assert.match(text, /^\.visible \.entry scale\(\)$/m);
  assert.match(text, /^\.visible \.entry fill\(\)$/m);
});

test('-target is inferred from the -o extension', () => {
  const dir = tempDir();
  const out = path.join(dir, 'x.wgsl');
  const r = slangc(['basic.slang', '-entry', 'scale', '-stage', 'compute', '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(fs.readFileSync(out, 'utf8'), /fn scale\(/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the same inputs give the same bytes', () => {
  const a = compile('spirv', entryArgs('scale', 'fill')).code;
  const b = compile('spirv', entryArgs('scale', 'fill')).code;
  assert.ok(a.equals(b));
});
