// vocabulary.test.mjs - the JavaScript reader's constants and rules against
// include/dgpb/vocabulary.def, the rows the C library expands: kinds (numbers,
// names, which must be read-only, which WebGPU ID each carries on wgsl),
// flags, stages, capabilities and the WebGPU features that offer them, targets with
// their code formats and backends, WebGPU binding-layout IDs and their
// descriptions, storage formats, what WebGPU asks for a storage texture of
// each texel format and access; index.d.ts's
// unions and literal types too. The rules the reader keeps to itself are
// checked through readBundle() on the golden bundle with one parameter row
// rewritten.
//
//   DGPB_SOURCE_DIR=. node --test tests/js/vocabulary.test.mjs

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import * as dgpb from '../../js/dgpb-reader/index.mjs';
import { sourceDir } from './support.mjs';

const def = fs.readFileSync(path.join(sourceDir, 'include', 'dgpb', 'vocabulary.def'), 'utf8')
  .replace(/\/\*[\s\S]*?\*\//g, '');
const types = fs.readFileSync(path.join(sourceDir, 'js', 'dgpb-reader', 'index.d.ts'), 'utf8');

/* One argument of a row: a string (adjacent literals joined), NULL, a number or a token. */
function argument(text) {
  const t = text.trim();
  if (t.startsWith('"')) return [...t.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`)).join('');
  if (t === 'NULL') return null;
  if (/^\d+$/.test(t)) return Number(t);
  return t;
}

/* The rows of one table: `MACRO(...)` at the start of a line, as arrays of arguments. */
function rows(macro) {
  const out = [];
  for (const m of def.matchAll(new RegExp(`^${macro}\\(`, 'gm'))) {
    const args = [];
    let depth = 1, start = m.index + m[0].length, i = start;
    for (; depth > 0; i++) {
      const ch = def[i];
      if (ch === '"') {
        for (i++; def[i] !== '"'; i++) if (def[i] === '\\') i++;
      } else if (ch === '(') depth++;
      else if (ch === ')') depth--;
      if ((ch === ',' && depth === 1) || depth === 0) {
        args.push(argument(def.slice(start, i)));
        start = i + 1;
      }
    }
    out.push(args);
  }
  assert.ok(out.length > 0, `vocabulary.def has rows of ${macro}`);
  return out;
}

const kinds = rows('DGPB_KIND').map(([id, value, name, access, webgpu]) => ({ id, value, name, access, webgpu }));
const stages = rows('DGPB_STAGE').map(([id, value, name, , , cap, pipeline, threads]) =>
  ({ id, value, name, cap, pipeline, threads }));
const capabilities = rows('DGPB_CAPABILITY').map(([id, value, name, feature]) => ({ id, value, name, feature }));
const targets = rows('DGPB_TARGET').map(([id, value, name, backend, backendValue, backendName]) =>
  ({ id, value, name, backend, backendValue, backendName }));
const codeFormats = rows('DGPB_CODE_FORMAT').map(([id, value, name, target, inBundle]) => ({ id, value, name, target, inBundle }));
const layouts = rows('DGPB_WEBGPU_LAYOUT').map(([id, value, name]) => ({ id, value, name }));
const options = rows('DGPB_OPTION').map(([id, value, name, flag]) => ({ id, value, name, flag }));
const formats = rows('DGPB_STORAGE_FORMAT').map(([id, name, webgpu]) => ({ id, name, webgpu }));
const texels = rows('DGPB_TEXEL_FORMAT').map(([id, value, name, slang, sample, storage, readWrite]) =>
  ({ id, value, name, sample, storage, readWrite }));

const byValue = (list) => [...list].sort((a, b) => a.value - b.value);
const layoutId = (token) => layouts.find((l) => l.id === token).value;

/* The members of a union type of index.d.ts: export type NAME = 'a' | 'b' ... ; */
function union(name) {
  const m = new RegExp(`export type ${name} =([^;]*);`).exec(types);
  assert.ok(m, `index.d.ts declares ${name}`);
  return [...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]);
}

/* The members of a literal object type of index.d.ts: export declare const NAME: Readonly<{ a: 0; ... }>; */
function literal(name) {
  const m = new RegExp(`export declare const ${name}: Readonly<\\{([^}]*)\\}>`).exec(types);
  assert.ok(m, `index.d.ts declares ${name} as a literal type`);
  return Object.fromEntries([...m[1].matchAll(/(\w+): (\d+);/g)].map((x) => [x[1], Number(x[2])]));
}

test('kinds: numbers and names are the rows of DGPB_KIND', () => {
  const want = Object.fromEntries(byValue(kinds).map((k) => [k.name, k.value]));
  assert.deepEqual({ ...dgpb.KIND }, want);
  assert.deepEqual(Object.keys(dgpb.KIND), Object.keys(want), 'KIND lists the kinds in number order');
  assert.deepEqual([...dgpb.KIND_NAMES], byValue(kinds).map((k) => k.name));
  assert.deepEqual(union('KindName'), byValue(kinds).map((k) => k.name));
  assert.deepEqual(literal('KIND'), want);
});

test('flags: bits and names are the rows of DGPB_FLAG', () => {
  const flags = rows('DGPB_FLAG').map(([id, bit, name]) => ({ bit, name })).sort((a, b) => a.bit - b.bit);
  const want = Object.fromEntries(flags.map((f) => [f.name, 2 ** f.bit]));
  assert.deepEqual({ ...dgpb.FLAG }, want);
  assert.deepEqual(Object.keys(dgpb.FLAG), Object.keys(want), 'FLAG lists the flags in bit order');
  assert.deepEqual(literal('FLAG'), want);
});

test('shapes: dimensions, sample types, access modes and texel formats are the rows', () => {
  const dims = rows('DGPB_SHAPE_DIM').map(([id, value, name]) => ({ value, name }));
  assert.deepEqual([...dgpb.SHAPE_DIMENSIONS], byValue(dims).map((d) => d.name));
  const samples = rows('DGPB_SAMPLE_TYPE').map(([id, value, name]) => ({ value, name }));
  assert.deepEqual([...dgpb.SAMPLE_TYPES], byValue(samples).map((d) => d.name));
  const access = rows('DGPB_SHAPE_ACCESS').map(([id, value, name]) => ({ value, name }));
  assert.deepEqual([...dgpb.SHAPE_ACCESS].slice(1), byValue(access).map((d) => d.name));
  const texels = rows('DGPB_TEXEL_FORMAT').map(([id, value, name, slang, sample]) => ({ value, name, sample }));
  const want = [null];
  for (const t of byValue(texels)) want[t.value] = t.name;
  assert.deepEqual([...dgpb.TEXEL_FORMATS], want);
  // Each format's sample type, through the reader's rule: a uint format with a float sample
  // type is refused, with its own type accepted.
  for (const t of texels) {
    const sample = samples.find((x) => x.name === t.sample.toLowerCase()).value;
    const shape = 2 | (sample << 8) | (t.value << 16) | (3 << 24);
    assert.equal(dgpb.shapeText(shape), `2d ${t.sample.toLowerCase()} ${t.name} read_write`);
  }
  const shaped = rows('DGPB_SHAPED_KIND').map(([id]) => kinds.find((k) => k.id === id).value);
  assert.deepEqual([...dgpb.SHAPED_KINDS], shaped);
  const sized = rows('DGPB_SIZED_KIND').map(([id, what]) => [String(kinds.find((k) => k.id === id).value), what]);
  assert.deepEqual({ ...dgpb.SIZED_KINDS }, Object.fromEntries(sized));
});

test('WebGPU IDs made from shapes: the ranges, views and sample types are the rows, and every ID agrees with the C reader', () => {
  const ranges = rows('DGPB_WEBGPU_RANGE').map(([id, first]) => [id.toLowerCase(), first]);
  assert.deepEqual({ ...dgpb.WEBGPU_RANGES }, Object.fromEntries(ranges));
  const views = rows('DGPB_WEBGPU_VIEW').map(([id, value, name]) => ({ value, name }));
  assert.deepEqual([...dgpb.WEBGPU_VIEWS], byValue(views).map((v) => v.name));
  const samples = rows('DGPB_WEBGPU_SAMPLE').map(([id, value, name]) => ({ value, name }));
  assert.deepEqual([...dgpb.WEBGPU_SAMPLES], byValue(samples).map((v) => v.name));
  // Every ID decodes to the descriptor it is made from (the C reader's unit test counts them).
  let known = 0;
  for (let id = 0; id < 4096; id++) {
    const d = dgpb.decodeWebgpuLayout(id);
    if (!d) continue;
    known++;
    if (id > 3 && id !== 11) assert.equal(dgpb.webgpuLayoutFor(d.kind, d.shape), id, `ID ${id}`);
    assert.ok(dgpb.webgpuLayoutEntry(id), `ID ${id} has its entry`);
  }
  assert.equal(known, 12 + (24 + 4 - 1) + (48 - 1) + (41 * 3 * 4 - 4));
});

test('stages, capabilities and targets are the rows, in order', () => {
  assert.deepEqual([...dgpb.STAGES], byValue(stages).map((s) => s.name));
  assert.deepEqual(union('StageName'), byValue(stages).map((s) => s.name));
  assert.deepEqual([...dgpb.THREAD_GROUP_STAGES], byValue(stages).filter((s) => s.threads === 1).map((s) => s.name));
  assert.deepEqual([...dgpb.CAPABILITIES], byValue(capabilities).map((c) => c.name));
  assert.deepEqual(union('CapabilityName'), byValue(capabilities).map((c) => c.name));
  assert.deepEqual([...dgpb.TARGETS], byValue(targets).map((t) => t.name));
  assert.deepEqual(union('TargetName'), byValue(targets).map((t) => t.name));
});

test('project options: the names of an options record are the rows of DGPB_OPTION, in order', () => {
  assert.deepEqual([...dgpb.OPTIONS], byValue(options).map((o) => o.name));
  assert.deepEqual([...dgpb.OPTIONS], [...dgpb.OPTIONS].sort(), 'sorted by name');
  const m = /export declare const OPTIONS: readonly \[([^\]]*)\]/.exec(types);
  assert.ok(m, 'index.d.ts declares OPTIONS');
  assert.deepEqual([...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]), byValue(options).map((o) => o.name));
});

test('project options: block layouts and levels are the rows of DGPB_BLOCK_LAYOUT, DGPB_OPTIMIZATION and DGPB_DEBUG_INFO', () => {
  const values = (macro, at) => [...rows(macro)].sort((a, b) => a[1] - b[1]).map((r) => r[at]);
  assert.deepEqual([...dgpb.BLOCK_LAYOUTS], values('DGPB_BLOCK_LAYOUT', 2));
  assert.deepEqual([...dgpb.OPTIMIZATION_LEVELS], values('DGPB_OPTIMIZATION', 2));
  assert.deepEqual([...dgpb.DEBUG_INFO_LEVELS], values('DGPB_DEBUG_INFO', 2));
  for (const [name, list] of [['BLOCK_LAYOUTS', dgpb.BLOCK_LAYOUTS], ['OPTIMIZATION_LEVELS', dgpb.OPTIMIZATION_LEVELS],
    ['DEBUG_INFO_LEVELS', dgpb.DEBUG_INFO_LEVELS]]) {
    const m = new RegExp(`export declare const ${name}: readonly \\[([^\\]]*)\\]`).exec(types);
    assert.ok(m, `index.d.ts declares ${name}`);
    assert.deepEqual([...m[1].matchAll(/'([^']*)'/g)].map((x) => x[1]), [...list]);
  }
});

test('the CMake function and the Bazel rule take the block layouts and levels of the vocabulary', () => {
  const values = (macro, at) => [...rows(macro)].sort((a, b) => a[1] - b[1]).map((r) => r[at]);
  const layouts = values('DGPB_BLOCK_LAYOUT', 2);
  const levels = [...values('DGPB_OPTIMIZATION', 2), ...values('DGPB_DEBUG_INFO', 2)]
    .filter((v, i, all) => all.indexOf(v) === i).sort();
  const cmake = fs.readFileSync(path.join(sourceDir, 'cmake', 'dgpbShaderBundle.cmake'), 'utf8');
  const list = (re, text, what) => {
    const m = re.exec(text);
    assert.ok(m, what);
    return m[1].trim().split(/\s+/);
  };
  assert.deepEqual(list(/set\(block_layouts ([^)]*)\)/, cmake, 'the CMake function lists block layouts'), layouts);
  assert.deepEqual(list(/set\(levels ([^)]*)\)/, cmake, 'the CMake function lists levels'), levels);
  const bazel = fs.readFileSync(path.join(sourceDir, 'bazel', 'defs.bzl'), 'utf8');
  const strings = (re, what) => {
    const m = re.exec(bazel);
    assert.ok(m, what);
    return [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
  };
  assert.deepEqual(strings(/_BLOCK_LAYOUTS = \[([^\]]*)\]/, 'defs.bzl lists block layouts'), layouts);
  assert.deepEqual(strings(/_LEVELS = \[([^\]]*)\]/, 'defs.bzl lists levels'), ['', ...levels]);
});

test('each backend consumes its target, and each target allows its code formats', () => {
  const backends = [...targets].sort((a, b) => a.backendValue - b.backendValue);
  assert.deepEqual({ ...dgpb.BACKEND_TARGET }, Object.fromEntries(backends.map((t) => [t.backendName, t.name])));
  assert.deepEqual(Object.keys(dgpb.BACKEND_TARGET), backends.map((t) => t.backendName),
    'BACKEND_TARGET lists the backends in number order');
  assert.deepEqual(union('BackendName'), backends.map((t) => t.backendName));
  const allowed = Object.fromEntries(byValue(targets).map((t) => [t.name,
    byValue(codeFormats).filter((f) => f.target === t.id && f.inBundle === 1).map((f) => f.name).sort()]));
  assert.deepEqual(Object.fromEntries(Object.entries(dgpb.CODE_FORMATS).map(([t, f]) => [t, [...f].sort()])), allowed);
});

test('WebGPU binding-layout IDs: numbers, names and descriptions are the rows of DGPB_WEBGPU_LAYOUT', () => {
  const want = Object.fromEntries(byValue(layouts).map((l) => [l.id.toLowerCase(), l.value]));
  assert.deepEqual({ ...dgpb.WEBGPU_LAYOUT }, want);
  assert.deepEqual(literal('WEBGPU_LAYOUT'), want);
  assert.deepEqual([...dgpb.WEBGPU_LAYOUT_NAMES], byValue(layouts).map((l) => l.name));
});

test('storage textures: the table IDs describe their formats, and every storage ID asks for what its format row says', () => {
  for (const l of layouts) {
    const format = formats.find((f) => f.webgpu === l.id);
    const entry = dgpb.webgpuLayoutEntry(l.value);
    assert.equal(entry?.storageTexture?.format, format?.name, `ID ${l.value}`);
  }
  const want = [null];
  for (const t of byValue(texels)) want[t.value] = [t.storage, t.readWrite];
  assert.deepEqual(dgpb.TEXEL_FORMAT_STORAGE.map((x) => x && [...x]), want);
  const samples = rows('DGPB_SAMPLE_TYPE').map(([id, value]) => ({ id, value }));
  let ids = 0;
  for (const t of texels) {
    for (const access of [1, 2, 3]) {
      const sample = samples.find((x) => x.id === t.sample).value;
      for (const dim of [1, 2, 3]) {
        const id = dgpb.webgpuLayoutFor(dgpb.KIND.rw_texture, dim | (sample << 8) | (t.value << 16) | (access << 24));
        assert.ok(id, `${t.name} access ${access} dim ${dim}`);
        ids++;
        const feature = access === 3 ? t.readWrite : t.storage;
        assert.equal(dgpb.webgpuStorageFeature(t.value, access), feature, `${t.name} access ${access}`);
        const r = dgpb.webgpuRequirements({ name: 'e', capabilities: [], params: [{ name: 'img', webgpuLayout: id }] });
        const what = `${t.name} access ${access}, ID ${id}`;
        assert.deepEqual(r.features, feature ? [feature] : [], what);
        assert.equal(r.unsupported.length, feature === null ? 1 : 0, what);
      }
    }
  }
  assert.equal(ids, texels.length * 3 * 3);
  assert.equal(dgpb.webgpuStorageFeature(0, 3), null);
  assert.equal(dgpb.webgpuStorageFeature(3, 0), null);
});

test('capabilities: each asks for its WebGPU feature, or is unsupported without one', () => {
  for (const c of capabilities) {
    const r = dgpb.webgpuRequirements({ name: 'e', capabilities: [c.name], params: [] });
    assert.deepEqual(r.features, c.feature ? [c.feature] : [], c.name);
    assert.equal(r.unsupported.length, c.feature ? 0 : 1, c.name);
  }
});

/*
 * The golden bundle with parameter 'scale' of entry k rewritten on `target`
 * (spirv: its first row named 'scale' with webgpu_layout 0; wgsl: with 1):
 * the row's kind, flags, offset, size and webgpu_layout.
 */
const golden = fs.readFileSync(path.join(sourceDir, 'fixtures', 'format', 'golden.dgpb'));
function withRow(target, { kind, flags, offset, size, webgpu }) {
  const bytes = new Uint8Array(golden);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const name = Buffer.from('\x05\x00\x00\x00scale');
  for (let at = golden.indexOf(name); at >= 0; at = golden.indexOf(name, at + 1)) {
    const fields = at + name.length;
    if (view.getUint32(fields + 24, true) !== (target === 'wgsl' ? 1 : 0)) continue;
    for (const [i, v] of [[0, kind], [1, flags], [4, offset], [5, size], [6, webgpu]]) view.setUint32(fields + 4 * i, v, true);
    return bytes;
  }
  throw new Error(`the golden bundle has no row 'scale' on ${target}`);
}

/* readBundle()'s verdict on a row: null when it reads, else the error message. */
function verdict(target, row) {
  try {
    dgpb.readBundle(withRow(target, row));
    return null;
  } catch (e) {
    if (!(e instanceof dgpb.DgpbError)) throw e;
    return e.message;
  }
}

test('each kind must be read-only or may be written as its ACCESS column says', () => {
  for (const k of kinds) {
    const shape = { kind: k.value, offset: 0, size: k.name === 'value' ? 4 : 0, webgpu: 0 };
    const readOnly = k.access === 'READ_ONLY';
    assert.equal(verdict('spirv', { ...shape, flags: dgpb.FLAG.read_only }), null, `${k.name}, read_only`);
    const unflagged = verdict('spirv', { ...shape, flags: 0 });
    if (readOnly) assert.match(unflagged ?? '', /must be flagged read-only/, k.name);
    else assert.equal(unflagged, null, `${k.name}, no flags`);
    assert.equal(verdict('spirv', { ...shape, flags: dgpb.FLAG.written }) === null, !readOnly, `${k.name}, written`);
  }
});

test('each kind carries on wgsl the WebGPU ID of its WEBGPU column, and 0 elsewhere', () => {
  for (const k of kinds) {
    const shape = { kind: k.value, flags: dgpb.FLAG.read_only, offset: 0, size: k.name === 'value' ? 4 : 0 };
    for (const l of layouts) {
      // A row whose shape is not stated (0) may carry any table ID of its kind's descriptors.
      const samplers = ['FILTERING_SAMPLER', 'NON_FILTERING_SAMPLER', 'COMPARISON_SAMPLER'];
      const allowed = k.webgpu === 'ANY_STORAGE_TEXTURE' ? formats.some((f) => f.webgpu === l.id)
        : k.name === 'sampler' ? samplers.includes(l.id) : k.webgpu === l.id;
      assert.equal(verdict('wgsl', { ...shape, webgpu: l.value }) === null, allowed, `${k.name} with ID ${l.value} on wgsl`);
      assert.equal(verdict('spirv', { ...shape, webgpu: l.value }) === null, l.value === 0, `${k.name} with ID ${l.value} on spirv`);
    }
    // A kind WebGPU cannot bind has no row on wgsl, as the C reader says.
    if (k.webgpu === 'NO_BINDING')
      assert.match(verdict('wgsl', { ...shape, webgpu: 0 }) ?? '',
        new RegExp(`${k.name} parameters have no place on wgsl: WebGPU cannot bind them`), k.name);
  }
});

test('input attachments and texel buffers: their dimension, attachment index and format as the C reader spells and checks them', () => {
  const subpass = 6 | (1 << 8) | (3 << 26);
  assert.equal(dgpb.shapeText(subpass), 'subpass float attachment 3');
  assert.equal(dgpb.decodeShape(subpass).attachment, 3);
  assert.equal(dgpb.shapeText(6 | 0x20 | (3 << 8)), 'subpass ms uint attachment 0');
  assert.equal(dgpb.decodeShape(2 | (1 << 8)).attachment, null);
  assert.equal(dgpb.shapeText(5 | (3 << 8) | (33 << 16) | (3 << 24)), 'buffer uint r32uint read_write');
  const row = (kind, offset) => verdict('spirv', { kind: dgpb.KIND[kind], flags: dgpb.FLAG.read_only, offset, size: 0, webgpu: 0 });
  assert.equal(row('input_attachment', subpass), null);
  assert.equal(row('texel_buffer', 5 | (1 << 8) | (4 << 16)), null);
  assert.match(row('input_attachment', 2 | (1 << 8)) ?? '', /has a dimension other than subpass/);
  assert.match(row('texture', 6 | (1 << 8)) ?? '', /has the dimension of an input attachment/);
  assert.match(row('texel_buffer', 2 | (1 << 8)) ?? '', /has a dimension other than buffer/);
  assert.match(row('texture', 2 | (1 << 8) | (2 << 26)) ?? '', /an attachment index on a parameter that is not an input attachment/);
  assert.match(row('texel_buffer', 5 | (1 << 8) | (1 << 24)) ?? '', /an access mode/);
  assert.match(row('input_attachment', 6 | 0x10 | (1 << 8)) ?? '', /has layers \(arrayed\)/);
});
