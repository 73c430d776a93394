// reader.test.mjs - the JavaScript reader (js/dgpb-reader) against the C
// reader on the format fixtures: the golden bundle read field for field, every
// malformed bundle of fixtures/format/corrupt/ rejected with the C reader's
// code, message and offset, truncations and byte changes rejected cleanly,
// SHA-256 through WebCrypto, and bind group layout descriptors.
//
// How a corrupt fixture is judged (docs/reader-js.md, "Errors"): the error is
// a DgpbError whose code is the C result detail that tests/corruptions.c
// lists for the case (DGPB_ERR_CORRUPT_RANGE -> 'range'); its message holds
// the case's .expect text, as the C test requires of the C message; and
// message and offset are exactly what `dgpb-dump --verify` prints for the
// same file.
//
//   DGPB_SOURCE_DIR=. DGPB_DUMP=build/dgpb-dump node --test tests/js/reader.test.mjs

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import * as dgpb from '../../js/dgpb-reader/index.mjs';
import { DgpbError, readBundle, verifyBlob, verifyBundle, bindGroupLayoutDescriptors } from '../../js/dgpb-reader/index.mjs';
import { dumpJson, dumpVerify, jsonView, required, sourceDir } from './support.mjs';

const FMT = path.join(sourceDir, 'fixtures', 'format');
const golden = () => new Uint8Array(fs.readFileSync(path.join(FMT, 'golden.dgpb')));

const CODES = { TRUNCATED: 'truncated', MAGIC: 'magic', VERSION: 'version', RANGE: 'range', STRING: 'string',
  ORDER: 'order', VALUE: 'value', HASH: 'hash' };

/* The C test's table (tests/corruptions.c): name -> { verify, code }. */
function corruptionTable() {
  const text = fs.readFileSync(path.join(sourceDir, 'tests', 'corruptions.c'), 'utf8');
  const table = new Map();
  for (const m of text.matchAll(/\{"(\w+)",\s*(\d),\s*(\d),\s*DGPB_ERR_CORRUPT_(\w+),/g))
    table.set(m[1], { verify: m[3] === '1', code: CODES[m[4]] });
  return table;
}

/* Reads and verifies; resolves to the DgpbError, or fails. */
async function rejection(bytes) {
  try {
    await verifyBundle(readBundle(bytes));
  } catch (e) {
    if (!(e instanceof DgpbError)) throw e;
    return e;
  }
  assert.fail('the bundle was accepted');
}

test('the golden bundle reads field for field as its JSON view', async () => {
  const b = readBundle(golden());
  const want = JSON.parse(fs.readFileSync(path.join(FMT, 'golden.bundle.json'), 'utf8'));
  assert.deepEqual(jsonView(b, 'golden'), want);
  await verifyBundle(b);
  assert.equal(b.targets[0].entries[0].code.data.length, 512);
  assert.deepEqual(Object.keys(b), ['version', 'headerSize', 'dataSize', 'size', 'options', 'targets']);
  assert.deepEqual(b.options, {}, 'the golden bundle records no option');
  assert.deepEqual(Object.keys(b.targets[0].entries[0].params[0]),
    ['name', 'kind', 'kindName', 'flags', 'space', 'binding', 'offset', 'size', 'webgpuLayout']);
});

test('a bundle with an options record reads as its JSON view, the record before the first blob', async () => {
  const file = path.join(FMT, 'options.dgpb');
  const b = readBundle(new Uint8Array(fs.readFileSync(file)));
  const want = JSON.parse(fs.readFileSync(path.join(FMT, 'options.bundle.json'), 'utf8'));
  assert.deepEqual(jsonView(b, 'options'), want);
  assert.deepEqual(b.options, { block_layout: 'scalar', debug_info: '2', matrix_layout: 'column', optimization: '0',
    slang_capabilities: ['spvImageGatherExtended', 'spvImageQuery'], spirv_version: '1.6' });
  assert.ok(b.targets.every((t) => t.entries.every((e) => e.code.offset > 0)), 'the blobs follow the record');
  await verifyBundle(b);
  assert.deepEqual(jsonView(b, 'options'), dumpJson(required('DGPB_DUMP', 'the dgpb-dump program'), file));
});

test('readBundle takes an ArrayBuffer, a Uint8Array at an offset and a DataView', () => {
  const bytes = golden();
  const shifted = new Uint8Array(bytes.length + 3);
  shifted.set(bytes, 3);
  const want = jsonView(readBundle(bytes), 'golden');
  assert.deepEqual(jsonView(readBundle(bytes.slice().buffer), 'golden'), want);
  assert.deepEqual(jsonView(readBundle(shifted.subarray(3)), 'golden'), want);
  assert.deepEqual(jsonView(readBundle(new DataView(shifted.buffer, 3)), 'golden'), want);
  assert.throws(() => readBundle('DGPB'), TypeError);
});

test('every corrupt fixture is rejected with the C reader\'s code, message and offset', async () => {
  const dump = required('DGPB_DUMP', 'the dgpb-dump program');
  const table = corruptionTable();
  const dir = path.join(FMT, 'corrupt');
  const cases = fs.readdirSync(dir).filter((f) => f.endsWith('.dgpb')).map((f) => f.slice(0, -5)).sort();
  assert.ok(cases.length >= 50, `only ${cases.length} corrupt fixtures`);
  assert.deepEqual(cases, [...table.keys()].sort(), 'the fixtures are the cases of tests/corruptions.c');
  for (const name of cases) {
    const file = path.join(dir, `${name}.dgpb`);
    const bytes = new Uint8Array(fs.readFileSync(file));
    const expect = fs.readFileSync(path.join(dir, `${name}.expect`), 'utf8').split('\n')[0];
    const { verify, code } = table.get(name);
    if (verify) readBundle(bytes); // structure intact: only the SHA-256 check finds it
    const e = await rejection(bytes);
    const c = dumpVerify(dump, file);
    assert.equal(e.code, code, `${name}: code`);
    assert.ok(e.message.includes(expect), `${name}: '${e.message}' lacks '${expect}'`);
    assert.equal(c.status, 1, `${name}: dgpb-dump --verify exit status`);
    assert.equal(e.message, c.message, `${name}: message`);
    assert.equal(e.offset, c.offset, `${name}: offset`);
  }
});

test('truncation at every byte is rejected with a DgpbError', () => {
  const bytes = golden();
  for (let n = 0; n < bytes.length; n++) {
    assert.throws(() => readBundle(bytes.slice(0, n)), (e) => e instanceof DgpbError &&
      ['truncated', 'range', 'string', 'value'].includes(e.code) && e.offset >= 0 && e.offset <= n, `cut to ${n}`);
  }
});

test('every single-byte change reads and verifies cleanly or fails with a DgpbError', async () => {
  const bytes = golden();
  let opened = 0, rejected = 0;
  for (let at = 0; at < bytes.length; at++) {
    for (const v of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      if (bytes[at] === v) continue;
      const copy = bytes.slice();
      copy[at] = v;
      try {
        await verifyBundle(readBundle(copy));
        opened++; // e.g. a space or binding number: still a valid bundle
      } catch (e) {
        assert.ok(e instanceof DgpbError, `byte ${at} = ${v}: ${e}`);
        assert.ok(e.offset >= 0 && e.offset <= copy.length);
        rejected++;
      }
    }
  }
  assert.ok(rejected > opened);
});

test('byte changes in the header give the C reader\'s verdict, message and offset', () => {
  const dump = required('DGPB_DUMP', 'the dgpb-dump program');
  const bytes = golden();
  const headerSize = readBundle(bytes).headerSize;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dgpb-js-'));
  const file = path.join(tmp, 'changed.dgpb');
  let compared = 0;
  try {
    for (let at = 0; at < headerSize; at += 3) {
      const copy = bytes.slice();
      copy[at] ^= at % 2 ? 0xff : 0x80;
      fs.writeFileSync(file, copy);
      const c = dumpVerify(dump, file);
      let js = { status: 0, message: '', offset: null };
      try {
        readBundle(copy);
      } catch (e) {
        assert.ok(e instanceof DgpbError, String(e));
        js = { status: 1, message: e.message, offset: e.offset };
      }
      if (js.status === 0 && c.status === 1 && /sha-256 mismatch/.test(c.message)) continue; // a changed hash
      if (c.status === 0) c.message = '';
      assert.deepEqual(js, c, `byte ${at}`);
      compared++;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  assert.ok(compared > headerSize / 4);
});

test('byte changes in the options record give the C reader\'s verdict, message and offset', () => {
  const dump = required('DGPB_DUMP', 'the dgpb-dump program');
  const bytes = new Uint8Array(fs.readFileSync(path.join(FMT, 'options.dgpb')));
  const b = readBundle(bytes);
  const start = b.headerSize;
  const end = start + Math.min(...b.targets.flatMap((t) => t.entries.map((e) => e.code.offset)));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dgpb-js-'));
  const file = path.join(tmp, 'changed.dgpb');
  let rejected = 0;
  try {
    for (let at = start; at < end; at++) {
      for (const flip of [0x01, 0x80]) {
        const copy = bytes.slice();
        copy[at] ^= flip;
        fs.writeFileSync(file, copy);
        const c = dumpVerify(dump, file);
        let js = { status: 0, message: '', offset: null };
        try {
          readBundle(copy);
        } catch (e) {
          assert.ok(e instanceof DgpbError, String(e));
          js = { status: 1, message: e.message, offset: e.offset };
          rejected++;
        }
        if (c.status === 0) c.message = '';
        assert.deepEqual(js, c, `byte ${at} ^ ${flip}`);
      }
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  assert.ok(rejected > end - start, `${rejected} of ${2 * (end - start)} changes rejected`);
});

test('verifyBlob checks SHA-256 with WebCrypto: a flipped byte in any blob fails', async () => {
  assert.ok(globalThis.crypto?.subtle, 'WebCrypto is available');
  const bytes = golden();
  const b = readBundle(bytes);
  const blobs = b.targets.flatMap((t) => [...t.layouts, ...t.entries.map((e) => e.code)]);
  for (const blob of blobs) assert.equal(await verifyBlob(blob), blob.data);
  for (const blob of blobs) {
    const copy = bytes.slice();
    copy[blob.fileOffset + blob.size - 1] ^= 0x01;
    const changed = readBundle(copy);
    const all = changed.targets.flatMap((t) => [...t.layouts, ...t.entries.map((e) => e.code)]);
    const mine = all.filter((o) => o.offset === blob.offset);
    for (const other of all.filter((o) => o.offset !== blob.offset)) await verifyBlob(other);
    for (const m of mine) {
      await assert.rejects(verifyBlob(m), (e) => e instanceof DgpbError && e.code === 'hash' &&
        e.offset === blob.fileOffset && e.message.startsWith(`${m.label}: sha-256 mismatch: stored ${blob.sha256}`));
    }
    await assert.rejects(verifyBundle(changed), (e) => e.code === 'hash');
  }
});

test('lookups find targets, backends and entries by name', () => {
  const b = readBundle(golden());
  assert.equal(dgpb.findTarget(b, 'wgsl').name, 'wgsl');
  assert.equal(dgpb.findTarget(b, 'ptx'), null);
  assert.equal(dgpb.findBackend(b, 'Vulkan').name, 'spirv');
  assert.equal(dgpb.findBackend(b, 'WebGpu').name, 'wgsl');
  assert.equal(dgpb.findBackend(b, 'Cuda'), null);
  assert.throws(() => dgpb.findBackend(b, 'OpenGL'), RangeError);
  const wgsl = dgpb.findTarget(b, 'wgsl');
  assert.equal(dgpb.findEntry(wgsl, 'k2').name, 'k2');
  assert.equal(dgpb.findEntry(wgsl, 'rg'), null);
});

test('the constant tables are the format\'s', () => {
  assert.equal(dgpb.KIND.handle, 11);
  assert.equal(dgpb.KIND.texture_sampler, 12);
  assert.equal(dgpb.KIND_NAMES[dgpb.KIND.rw_texture], 'rw_texture');
  assert.equal(dgpb.WEBGPU_LAYOUT.storage_texture_2d_r32uint, 9);
  assert.equal(dgpb.WEBGPU_LAYOUT_NAMES.length, 13);
  assert.deepEqual([...dgpb.CAPABILITIES], [...dgpb.CAPABILITIES].sort());
  assert.deepEqual([...dgpb.TARGETS], [...dgpb.TARGETS].sort());
  assert.deepEqual(dgpb.SHADER_STAGE, { VERTEX: 1, FRAGMENT: 2, COMPUTE: 4 });
});

const C = dgpb.SHADER_STAGE.COMPUTE, V = dgpb.SHADER_STAGE.VERTEX, F = dgpb.SHADER_STAGE.FRAGMENT;

test('the golden wgsl entries give exact bind group layout descriptors', () => {
  const wgsl = dgpb.findTarget(readBundle(golden()), 'wgsl');
  assert.deepEqual(bindGroupLayoutDescriptors(dgpb.findEntry(wgsl, 'k')), [
    { entries: [
      { binding: 0, visibility: C, buffer: { type: 'uniform' } },
      { binding: 1, visibility: C, buffer: { type: 'read-only-storage' } },
      { binding: 2, visibility: C, buffer: { type: 'storage' } },
      { binding: 3, visibility: C, buffer: { type: 'storage' } },
      { binding: 4, visibility: C, texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } },
      { binding: 5, visibility: C, sampler: { type: 'filtering' } },
      { binding: 6, visibility: C, storageTexture: { access: 'read-write', format: 'rgba32float', viewDimension: '2d' } },
    ] },
    { entries: [
      { binding: 0, visibility: C, storageTexture: { access: 'read-write', format: 'r32uint', viewDimension: '2d' } },
    ] },
  ]);
  assert.deepEqual(bindGroupLayoutDescriptors([dgpb.findEntry(wgsl, 'k2')]), [{ entries: [
    { binding: 0, visibility: C, buffer: { type: 'uniform' } },
    { binding: 1, visibility: C, buffer: { type: 'read-only-storage' } },
    { binding: 2, visibility: C, buffer: { type: 'storage' } },
  ] }]);
  const spirv = dgpb.findTarget(readBundle(golden()), 'spirv');
  assert.throws(() => bindGroupLayoutDescriptors(spirv.entries[0]), /has no WebGPU binding \(webgpu_layout 0\)/);
});

/*
 * A bundle of one spirv entry `e` of `stage` with thread group size `size`,
 * no parameters and no capabilities (docs/format.md, "Layout"), its code the
 * four bytes "code".
 */
function oneEntryBundle(stage, size) {
  const head = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); head.push(b); };
  const str = (s) => { u32(Buffer.byteLength(s)); head.push(Buffer.from(s)); };
  const code = Buffer.from('code');
  u32(1); // target_count
  str('spirv'); str('spirv'); u32(0); u32(1); // name, code_format, layout_count, entry_count
  str('e'); str(stage); u32(0); // name, stage, layout
  u32(0); u32(code.length); head.push(crypto.createHash('sha256').update(code).digest());
  size.forEach(u32);
  u32(0); u32(0); // param_count, capability_count
  const tables = Buffer.concat(head);
  const start = Buffer.alloc(12);
  start.write('DGPB', 0);
  start.writeUInt32LE(0, 4);
  start.writeUInt32LE(12 + tables.length, 8);
  return new Uint8Array(Buffer.concat([start, tables, code]));
}

test('every stage has its thread group rule, with the C reader\'s message and offset', async () => {
  const dump = required('DGPB_DUMP', 'the dgpb-dump program');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dgpb-stages-'));
  try {
    assert.deepEqual([...dgpb.THREAD_GROUP_STAGES], ['compute', 'mesh', 'amplification']);
    for (const stage of dgpb.STAGES) {
      const threads = dgpb.THREAD_GROUP_STAGES.includes(stage);
      const good = threads ? [4, 2, 1] : [0, 0, 0];
      const b = readBundle(oneEntryBundle(stage, good));
      assert.equal(b.targets[0].entries[0].stage, stage);
      assert.deepEqual(b.targets[0].entries[0].threadGroupSize, good);
      for (let axis = 0; axis < 3; axis++) {
        const size = [...good];
        size[axis] = threads ? 0 : 1;
        const bytes = oneEntryBundle(stage, size);
        const e = await rejection(bytes);
        assert.equal(e.code, 'value', `${stage}, axis ${axis}`);
        assert.ok(e.message.includes(threads
          ? `entry 'e': stage '${stage}' needs a thread group size of at least 1 in each dimension`
          : `entry 'e': stage '${stage}' has no thread group size: it must be 0,0,0`), e.message);
        const file = path.join(dir, `${stage}-${axis}.dgpb`);
        fs.writeFileSync(file, bytes);
        const c = dumpVerify(dump, file);
        assert.equal(c.status, 1, `${stage}, axis ${axis}: dgpb-dump --verify exit status`);
        assert.equal(e.message, c.message, `${stage}, axis ${axis}: message`);
        assert.equal(e.offset, c.offset, `${stage}, axis ${axis}: offset`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/* A row as the reader gives it. */
const row = (name, kind, space, binding, webgpuLayout, extra = {}) => ({
  name, kind: dgpb.KIND[kind], kindName: kind, flags: 0, space, binding, offset: 0, size: 0, webgpuLayout, ...extra,
});
const entry = (name, stage, params) => ({ name, stage, params, capabilities: [], threadGroupSize: [0, 0, 0] });

test('every webgpu_layout ID has its descriptor', () => {
  const rows = [
    row('u', 'uniform_buffer', 0, 0, 1), row('ro', 'buffer', 0, 1, 2), row('rw', 'rw_buffer', 0, 2, 3),
    row('s', 'sampler', 0, 3, 4), row('t', 'texture', 0, 4, 5), row('i6', 'rw_texture', 0, 5, 6),
    row('i7', 'rw_texture', 0, 6, 7), row('i8', 'rw_texture', 0, 7, 8), row('i9', 'rw_texture', 0, 8, 9),
    row('ts', 'texture_sampler', 0, 9, 10),
  ];
  const [g] = bindGroupLayoutDescriptors(entry('all', 'compute', rows));
  assert.deepEqual(g.entries.map(({ binding, visibility, ...m }) => m), [
    { buffer: { type: 'uniform' } },
    { buffer: { type: 'read-only-storage' } },
    { buffer: { type: 'storage' } },
    { sampler: { type: 'filtering' } },
    { texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } },
    { storageTexture: { access: 'read-write', format: 'r32float', viewDimension: '2d' } },
    { storageTexture: { access: 'read-write', format: 'rg32float', viewDimension: '2d' } },
    { storageTexture: { access: 'read-write', format: 'rgba32float', viewDimension: '2d' } },
    { storageTexture: { access: 'read-write', format: 'r32uint', viewDimension: '2d' } },
    // A combined texture-sampler: its texture at its binding, its sampler at the next.
    { texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } },
    { sampler: { type: 'filtering' } },
  ]);
  assert.deepEqual(g.entries.slice(-2).map((e) => e.binding), [9, 10]);
  for (let id = 1; id < dgpb.WEBGPU_LAYOUT_NAMES.length; id++) assert.ok(dgpb.webgpuLayoutEntry(id));
  assert.equal(dgpb.webgpuLayoutEntry(0), null);
  assert.equal(dgpb.webgpuLayoutEntry(13), null);
  assert.equal(dgpb.webgpuLayoutEntry(40), null, 'a 2d float texture is ID 5, never 40');
  assert.deepEqual(dgpb.webgpuLayoutEntry(56), { texture: { sampleType: 'float', viewDimension: 'cube', multisampled: false } });
  assert.deepEqual(dgpb.webgpuPairedSamplerEntry(96 + 8 + 2 + 1), { sampler: { type: 'comparison' } });
  assert.notEqual(dgpb.webgpuLayoutEntry(1), dgpb.webgpuLayoutEntry(1), 'a fresh object each time');
});

test('value rows of one block share a binding; vertex and fragment rows merge their visibility', () => {
  const vs = entry('vs', 'vertex', [
    row('scale', 'value', 0, 0, 1, { size: 4 }), row('bias', 'value', 0, 0, 1, { offset: 4, size: 4 }),
    row('shared', 'buffer', 1, 0, 2),
  ]);
  const fs_ = entry('fs', 'fragment', [
    row('color', 'value', 0, 1, 1, { size: 16 }), row('shared', 'buffer', 1, 0, 2), row('tex', 'texture', 2, 3, 5),
  ]);
  assert.deepEqual(bindGroupLayoutDescriptors([vs, fs_]), [
    { entries: [
      { binding: 0, visibility: V, buffer: { type: 'uniform' } },
      { binding: 1, visibility: F, buffer: { type: 'uniform' } },
    ] },
    { entries: [{ binding: 0, visibility: V | F, buffer: { type: 'read-only-storage' } }] },
    { entries: [{ binding: 3, visibility: F, texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } }] },
  ]);
  assert.deepEqual(bindGroupLayoutDescriptors([vs, fs_], () => C)[1].entries[0].visibility, C);
});

test('groups no row uses are empty layouts, and wrong tables are refused', () => {
  assert.deepEqual(bindGroupLayoutDescriptors(entry('k', 'compute', [row('b', 'rw_buffer', 2, 0, 3)])),
    [{ entries: [] }, { entries: [] }, { entries: [{ binding: 0, visibility: C, buffer: { type: 'storage' } }] }]);
  assert.deepEqual(bindGroupLayoutDescriptors(entry('k', 'compute', [])), []);
  assert.throws(() => bindGroupLayoutDescriptors(entry('k', 'compute', [row('as', 'acceleration_structure', 0, 0, 0)])),
    /entry 'k', parameter 'as' \(acceleration_structure\) has no WebGPU binding/);
  assert.throws(() => bindGroupLayoutDescriptors(entry('k', 'compute', [row('b', 'buffer', 32, 0, 2)])), RangeError);
  assert.throws(() => bindGroupLayoutDescriptors([
    entry('a', 'compute', [row('x', 'buffer', 0, 0, 2)]), entry('b', 'compute', [row('y', 'rw_buffer', 0, 0, 3)]),
  ]), /entry 'b', parameter 'y' puts webgpu_layout 3 \(storage buffer\) on group 0, binding 0, where entry 'a', parameter 'x' has 2/);
  assert.throws(() => bindGroupLayoutDescriptors(entry('rg', 'raygeneration', [])), /stage 'raygeneration' has no WebGPU shader stage/);
  for (const stage of ['mesh', 'amplification', 'geometry', 'hull', 'domain'])
    assert.throws(() => bindGroupLayoutDescriptors(entry('e', stage, [])), new RegExp(`stage '${stage}' has no WebGPU shader stage`));
});

test('the capabilities of docs/format.md section "Capabilities" are known, sorted, and WebGPU offers two', () => {
  for (const name of ['float64', 'int64', 'int16', 'int8', 'storage_16bit', 'storage_8bit', 'atomic_float',
    'image_formats', 'shader_clock', 'half', 'subgroup_basic', 'multiview', 'fragment_barycentric',
    'compute_derivatives', 'ray_position_fetch', 'viewport_index_layer', 'sample_rate_shading',
    'storage_image_multisample', 'fragment_shading_rate', 'fragment_fully_covered', 'stencil_export',
    'clip_distance', 'cull_distance', 'dynamic_index_sampled_image', 'nonuniform_index_sampled_image',
    'nonuniform_index_storage_buffer', 'nonuniform_index_uniform_texel_buffer'])
    assert.ok(dgpb.CAPABILITIES.includes(name), name);
  assert.deepEqual([...dgpb.CAPABILITIES], [...dgpb.CAPABILITIES].sort());
  assert.ok(dgpb.CAPABILITIES.length <= 64, 'a capability mask has 64 bits');
  const e = { ...entry('k', 'compute', []), capabilities: ['float64', 'half', 'int64', 'storage_16bit', 'subgroup_basic'] };
  const r = dgpb.webgpuRequirements(e);
  assert.deepEqual(r.features, ['shader-f16', 'subgroups']);
  assert.deepEqual(r.unsupported, [
    "entry 'k' needs capability 'float64', which WebGPU does not offer",
    "entry 'k' needs capability 'int64', which WebGPU does not offer",
    "entry 'k' needs capability 'storage_16bit', which WebGPU does not offer",
  ]);
});

test('webgpuRequirements names the features to request and what WebGPU cannot do', () => {
  const e = { ...entry('k', 'compute', [row('a', 'rw_texture', 0, 0, 8), row('b', 'rw_texture', 0, 1, 7)]),
    capabilities: ['atomic64', 'half', 'subgroup_basic'] };
  const r = dgpb.webgpuRequirements(e);
  assert.deepEqual(r.features, ['shader-f16', 'subgroups', 'texture-formats-tier2']);
  assert.deepEqual(r.unsupported, [
    "entry 'k' needs capability 'atomic64', which WebGPU does not offer",
    "entry 'k', parameter 'b': WebGPU has no read-write rg32float storage texture (no feature provides one)",
  ]);
  assert.deepEqual(dgpb.webgpuRequirements([entry('k', 'compute', [row('u', 'uniform_buffer', 0, 0, 1)])]),
    { features: [], unsupported: [] });
});

test('the package is browser-safe: no imports and no Node globals', () => {
  const text = fs.readFileSync(path.join(sourceDir, 'js', 'dgpb-reader', 'index.mjs'), 'utf8');
  assert.doesNotMatch(text, /^\s*import\b|\bimport\(|\brequire\(/m);
  assert.doesNotMatch(text, /\b(Buffer|process|__dirname)\b/);
  const pkg = JSON.parse(fs.readFileSync(path.join(sourceDir, 'js', 'dgpb-reader', 'package.json'), 'utf8'));
  assert.equal(pkg.name, 'dgpb-reader');
  assert.equal(pkg.version, '0.1.0');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.dependencies, undefined);
  for (const f of pkg.files) assert.ok(fs.existsSync(path.join(sourceDir, 'js', 'dgpb-reader', f)), f);
  const types = fs.readFileSync(path.join(sourceDir, 'js', 'dgpb-reader', 'index.d.ts'), 'utf8');
  for (const name of Object.keys(dgpb)) assert.match(types, new RegExp(`export declare (const|function|class) ${name}\\b`), `index.d.ts declares ${name}`);
});
