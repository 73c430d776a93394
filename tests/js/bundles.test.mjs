// bundles.test.mjs - the JavaScript reader (js/dgpb-reader) on every bundle
// the build makes from fixtures/build, fixtures/plain, fixtures/stages and fixtures/conformance
// (the crosscheck_bundles fixture builds them, and lists them in
// bundles.list): each model equals `dgpb-dump --json` of the same file and,
// where the repository has one, the golden `.bundle.json` view; every blob
// verifies; every wgsl entry gets its layouts, exactly as listed for a few.
//
//   DGPB_SOURCE_DIR=. DGPB_DUMP=build/dgpb-dump \
//   DGPB_FIXTURE_BUNDLES=build/tests/crosscheck/bundles node --test tests/js/bundles.test.mjs

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import {
  readBundle, verifyBundle, findTarget, findEntry, bindGroupLayoutDescriptors, SHADER_STAGE, PIPELINE_CONSTANT_SPACE,
} from '../../js/dgpb-reader/index.mjs';
import { dumpJson, jsonView, required, sourceDir } from './support.mjs';

const dir = required('DGPB_FIXTURE_BUNDLES', 'the folder the crosscheck_bundles fixture builds into');
const dump = required('DGPB_DUMP', 'the dgpb-dump program');
const listed = fs.readFileSync(path.join(dir, 'bundles.list'), 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
const read = (rel) => readBundle(new Uint8Array(fs.readFileSync(path.join(dir, rel))));

test('the build made bundles of every fixture folder', () => {
  for (const folder of ['build', 'plain', 'stages', 'conformance'])
    assert.ok(listed.some((f) => f.includes(`/${folder}/`)), `no bundle from fixtures/${folder}`);
  assert.ok(listed.length >= 30, `only ${listed.length} bundles`);
});

test('every fixture bundle reads as dgpb-dump --json shows it, and verifies', async () => {
  let golden = 0;
  for (const file of listed) {
    const stem = path.basename(file, '.dgpb');
    const b = readBundle(new Uint8Array(fs.readFileSync(file)));
    const view = jsonView(b, stem);
    assert.deepEqual(view, dumpJson(dump, file), file);
    const repo = path.join(sourceDir, 'fixtures', path.basename(path.dirname(file)), `${stem}.bundle.json`);
    if (fs.existsSync(repo)) {
      assert.deepEqual(view, JSON.parse(fs.readFileSync(repo, 'utf8')), repo);
      golden++;
    }
    await verifyBundle(b);
  }
  assert.ok(golden >= 30, `only ${golden} golden views compared`);
});

test('every wgsl entry of every fixture bundle gets its bind group layouts', () => {
  let entries = 0;
  for (const file of listed) {
    const wgsl = findTarget(readBundle(new Uint8Array(fs.readFileSync(file))), 'wgsl');
    for (const e of wgsl?.entries ?? []) {
      const groups = bindGroupLayoutDescriptors(e);
      const bound = e.params.filter((p) => p.space !== PIPELINE_CONSTANT_SPACE); // no bind-group entries
      // A combined texture-sampler is two entries: its texture and its sampler at binding + 1.
      const places = new Set(bound.flatMap((p) => p.kindName === 'texture_sampler'
        ? [`${p.space}/${p.binding}`, `${p.space}/${p.binding + 1}`] : [`${p.space}/${p.binding}`]));
      assert.equal(groups.reduce((n, g) => n + g.entries.length, 0), places.size, `${file} ${e.name}`);
      entries++;
    }
  }
  assert.ok(entries >= 40, `only ${entries} wgsl entries`);
});

test('the stages of tessellation, geometry and mesh pipelines read with their thread group sizes and capabilities (fixtures/stages)', () => {
  const entries = (rel) => findTarget(read(rel), 'spirv').entries.map((e) =>
    [e.name, e.stage, e.threadGroupSize.join(','), e.capabilities.join(' ')]);
  assert.deepEqual(entries('stages/tessellation.dgpb'), [
    ['terrainVertex', 'vertex', '0,0,0', ''],
    ['terrainHull', 'hull', '0,0,0', 'tessellation'],
    ['terrainDomain', 'domain', '0,0,0', 'tessellation'],
    ['terrainFragment', 'fragment', '0,0,0', ''],
  ]);
  assert.deepEqual(entries('stages/geometry.dgpb'), [
    ['particleVertex', 'vertex', '0,0,0', 'draw_parameters'],
    ['particleQuad', 'geometry', '0,0,0', 'geometry'],
    ['particleFragment', 'fragment', '0,0,0', ''],
  ]);
  assert.deepEqual(entries('stages/mesh.dgpb'), [
    ['cullMeshlets', 'amplification', '32,1,1', 'mesh_shader subgroup_basic'],
    ['drawMeshlet', 'mesh', '64,1,1', 'mesh_shader'],
    ['shadeMeshlet', 'fragment', '0,0,0', ''],
  ]);
  for (const rel of ['stages/tessellation.dgpb', 'stages/geometry.dgpb', 'stages/mesh.dgpb'])
    assert.equal(findTarget(read(rel), 'wgsl'), null, `${rel}: WebGPU has none of these stages`);
});

const C = SHADER_STAGE.COMPUTE, V = SHADER_STAGE.VERTEX, F = SHADER_STAGE.FRAGMENT;
const uniform = { buffer: { type: 'uniform' } };
const readOnly = { buffer: { type: 'read-only-storage' } };
const storage = { buffer: { type: 'storage' } };
const texture = { texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } };
const sampler = { sampler: { type: 'filtering' } };
const image = (format) => ({ storageTexture: { access: 'read-write', format, viewDimension: '2d' } });

function descriptors(rel, ...names) {
  const t = findTarget(read(rel), 'wgsl');
  return bindGroupLayoutDescriptors(names.map((n) => findEntry(t, n)));
}

test('a render pair merges its rows, each visible to its own stage (fixtures/build/render.slang)', () => {
  assert.deepEqual(descriptors('build/render.dgpb', 'quad', 'textured'), [{ entries: [
    { binding: 0, visibility: V, ...uniform },
    { binding: 1, visibility: V, ...readOnly },
    { binding: 3, visibility: F, ...texture },
    { binding: 4, visibility: F, ...sampler },
  ] }]);
  assert.deepEqual(descriptors('build/render.dgpb', 'fullscreen', 'tinted'), [{ entries: [
    { binding: 2, visibility: V, ...uniform },
    { binding: 5, visibility: F, ...uniform },
  ] }]);
  assert.deepEqual(descriptors('plain/render_textured.dgpb', 'vertexMain', 'fragmentMain'), [{ entries: [
    { binding: 0, visibility: V, ...uniform },
    { binding: 1, visibility: F, ...texture },
    { binding: 2, visibility: F, ...sampler },
  ] }]);
});

test('a ParameterBlock is a group of its own, its values one uniform block (fixtures/plain/param_block.slang)', () => {
  assert.deepEqual(descriptors('plain/param_block.dgpb', 'apply'), [
    { entries: [{ binding: 0, visibility: C, ...storage }] },
    { entries: [
      { binding: 0, visibility: C, ...uniform },
      { binding: 1, visibility: C, ...readOnly },
      { binding: 2, visibility: C, ...storage },
    ] },
  ]);
});

test('storage textures by format, textures and samplers of a struct (fixtures/plain)', () => {
  assert.deepEqual(descriptors('plain/storage_textures.dgpb', 'store_images'), [{ entries: [
    { binding: 0, visibility: C, ...uniform },
    { binding: 1, visibility: C, ...readOnly },
    { binding: 2, visibility: C, ...image('r32float') },
    { binding: 3, visibility: C, ...image('r32uint') },
  ] }]);
  assert.deepEqual(descriptors('plain/material_param.dgpb', 'shade'), [{ entries: [
    { binding: 0, visibility: C, ...storage },
    { binding: 1, visibility: C, ...uniform },
    { binding: 2, visibility: C, ...texture },
    { binding: 3, visibility: C, ...sampler },
  ] }]);
  const images = descriptors('conformance/textures.dgpb', 'images')[0].entries.filter((e) => e.storageTexture);
  assert.deepEqual(images.map((e) => e.storageTexture.format), ['r32float', 'rg32float', 'rgba32float', 'r32uint']);
});
