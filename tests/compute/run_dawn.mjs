// run_dawn.mjs - runs the Slang-style compute suite (fixtures/compute/*.slang)
// on WebGPU through Dawn: each module's wgsl target, bound by name through the
// entry's parameter table with the dgpb-reader package, dispatched and
// compared with the `--expect` values of the module's `//DGPB_RUN:` lines,
// which mean here exactly what they mean to dgpb-run (docs/run.md).
//
//   node run_dawn.mjs [--negative] [--allow-unsupported] WEBGPU_MODULE BUNDLE_DIR MODULE.slang...
//
// WEBGPU_MODULE is the path of the npm package `webgpu` (its index.js);
// BUNDLE_DIR holds <stem>.dgpb for every module (tests/compute/build_bundles.sh).
// Prints one line per module and a closing `N passed, N failed`; a module
// whose `//DGPB_TARGETS:` line leaves out wgsl is reported as not applicable.
//
// --negative proves that every expectation can fail: after each module's run,
// each `--expect` in turn is compared again with one value changed (the last),
// and must then differ. A module passes when every changed expectation fails.
//
// --allow-unsupported reports a module whose entry needs a feature the adapter
// lacks (shader-f16, subgroups) as not applicable instead of failed: for runs
// on real devices. CI leaves it out (Dawn on lavapipe has every feature the
// suite uses), so there nothing is missed.
//
// Exit status: 0 every module passed, 1 a module failed, 2 usage.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const reader = await import(pathToFileURL(path.join(here, '../../js/dgpb-reader/index.mjs')).href);
const { readBundle, verifyBlob, findTarget, findEntry, bindGroupLayoutDescriptors, webgpuRequirements } = reader;

let argv = process.argv.slice(2);
let negative = false, allowUnsupported = false;
for (;;) {
  if (argv[0] === '--negative') negative = true;
  else if (argv[0] === '--allow-unsupported') allowUnsupported = true;
  else break;
  argv = argv.slice(1);
}
const [webgpuPath, bundleDir, ...modules] = argv;
if (!webgpuPath || !bundleDir || modules.length === 0) {
  console.error('usage: node run_dawn.mjs [--negative] [--allow-unsupported] WEBGPU_MODULE BUNDLE_DIR MODULE.slang...');
  process.exit(2);
}

/* An error in a module's run line or in binding it: the module fails with this message. */
class RunError extends Error {}

// ---------------------------------------------------------------------------
// The module's header: `//DGPB_RUN:` lines (concatenated) and `//DGPB_TARGETS:`.

function readHeader(file) {
  const text = fs.readFileSync(file, 'utf8');
  const run = [];
  let targets = ['spirv', 'wgsl'];
  for (const line of text.split('\n')) {
    const r = line.match(/^\/\/DGPB_RUN:(.*)$/);
    if (r) run.push(r[1]);
    const t = line.match(/^\/\/DGPB_TARGETS:\s*([a-z0-9,]+)/);
    if (t) targets = t[1].split(',');
  }
  if (run.length === 0) throw new RunError('no //DGPB_RUN: line');
  return { words: run.join(' ').split(/\s+/).filter(Boolean), targets };
}

// ---------------------------------------------------------------------------
// Typed values, encoded as dgpb-run encodes them: little-endian, tightly packed.

const TYPE_SIZE = { f16: 2, f32: 4, f64: 8, u8: 1, u32: 4, i32: 4, u64: 8, i64: 8 };

/* The binary16 bits of x, rounded to nearest even (as a float32 to half conversion does). */
function halfBits(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = (u >>> 23) & 0xff;
  let mant = u & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1), halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (h & 1))) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h++;
  return sign | h;
}

function halfValue(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f, mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function parseNumber(type, text) {
  if (type === 'u64' || type === 'i64') {
    if (!/^-?[0-9]+$/.test(text)) throw new RunError(`bad ${type} value '${text}'`);
    return BigInt(text);
  }
  if (type[0] === 'f') {
    const v = /^-?inf$/i.test(text) ? (text[0] === '-' ? -Infinity : Infinity) : Number(text);
    if (text.trim() === '' || (Number.isNaN(v) && !/^nan$/i.test(text))) throw new RunError(`bad ${type} value '${text}'`);
    return v;
  }
  if (!/^-?(0x[0-9a-fA-F]+|[0-9]+)$/.test(text)) throw new RunError(`bad ${type} value '${text}'`);
  return Number(text);
}

function encode(type, values) {
  const size = TYPE_SIZE[type];
  if (!size) throw new RunError(`unknown type '${type}'`);
  const bytes = new Uint8Array(size * values.length);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => {
    const o = i * size;
    switch (type) {
      case 'f16': view.setUint16(o, halfBits(v), true); break;
      case 'f32': view.setFloat32(o, v, true); break;
      case 'f64': view.setFloat64(o, v, true); break;
      case 'u8': view.setUint8(o, v & 0xff); break;
      case 'u32': case 'i32': view.setUint32(o, v >>> 0, true); break;
      case 'u64': case 'i64': view.setBigUint64(o, BigInt.asUintN(64, v), true); break;
    }
  });
  return bytes;
}

function decode(type, bytes, i) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const o = i * TYPE_SIZE[type];
  switch (type) {
    case 'f16': return halfValue(view.getUint16(o, true));
    case 'f32': return view.getFloat32(o, true);
    case 'f64': return view.getFloat64(o, true);
    case 'u8': return view.getUint8(o);
    case 'u32': return view.getUint32(o, true);
    case 'i32': return view.getInt32(o, true);
    case 'u64': return view.getBigUint64(o, true);
    case 'i64': return view.getBigInt64(o, true);
  }
  return undefined;
}

/* TYPE:V1,V2,... -> { type, values, bytes }, or null when the text has no known TYPE: prefix. */
function typedList(text) {
  const m = text.match(/^([a-z0-9]+):(.*)$/);
  if (!m || !TYPE_SIZE[m[1]]) return null;
  const values = m[2].split(',').map((v) => parseNumber(m[1], v.trim()));
  return { type: m[1], values, bytes: encode(m[1], values) };
}

/* dgpb-run's --set without TYPE: f32 if any number has '.', 'e', inf or nan; else i32 if any is negative; else u32. */
function setValue(text) {
  const typed = typedList(text);
  if (typed) return typed;
  const parts = text.split(',');
  const type = parts.some((p) => /[.eE]|inf|nan/i.test(p)) ? 'f32' : parts.some((p) => p.trim().startsWith('-')) ? 'i32' : 'u32';
  return typedList(`${type}:${text}`);
}

function splitName(arg, option) {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new RunError(`${option} wants NAME=..., got '${arg}'`);
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

function readInput(file) {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    throw new RunError(`cannot read '${file}': ${e.code ?? e.message}`);
  }
}

function axes(text, option) {
  const v = text.split(',').map(Number);
  if (v.length > 3 || v.some((x) => !Number.isInteger(x) || x < 1)) throw new RunError(`${option} wants X[,Y[,Z]], got '${text}'`);
  while (v.length < 3) v.push(1);
  return v;
}

const TEXEL_BYTES = { r16float: 2, r32float: 4, rg32float: 8, rgba32float: 16, r32uint: 4, rgba8unorm: 4, r32sint: 4, rgba32uint: 16 };

/* The run line's words (entry first) -> the run's description. */
function parseRun(words) {
  const run = { entry: words[0], inputs: new Map(), sizes: new Map(), sets: new Map(), textures: new Map(), expects: [], tolerance: null, repeat: 1 };
  if (!run.entry || run.entry.startsWith('-')) throw new RunError('the run line must start with the entry name');
  for (let i = 1; i < words.length; i++) {
    const option = words[i];
    const flag = ['-v', '-q', '--time', '--json', '--verbose', '--quiet'].includes(option);
    if (flag) continue;
    const arg = words[++i];
    if (arg === undefined) throw new RunError(`${option} wants a value`);
    switch (option) {
      case '--threads': run.threads = axes(arg, option); break;
      case '--groups': run.groups = axes(arg, option); break;
      case '--repeat': run.repeat = Number(arg); break;
      case '--tolerance': run.tolerance = Number(arg); break;
      case '--api': if (arg !== 'vulkan' && arg !== 'webgpu') throw new RunError(`--api ${arg}: not for WebGPU`); break;
      case '--device': case '--print': case '--out': break;
      case '--in': {
        const [name, value] = splitName(arg, option);
        const typed = typedList(value);
        run.inputs.set(name, typed ? typed.bytes : readInput(value));
        break;
      }
      case '--size': {
        const [name, value] = splitName(arg, option);
        run.sizes.set(name, Number(value));
        break;
      }
      case '--set': {
        const [name, value] = splitName(arg, option);
        run.sets.set(name, setValue(value).bytes);
        break;
      }
      case '--texture': {
        const [name, value] = splitName(arg, option);
        const m = value.match(/^([a-z0-9]+):([0-9]+)(?:x([0-9]+))?(?:x([0-9]+))?(?::([a-z0-9_]+))?$/);
        if (!m || !TEXEL_BYTES[m[1]]) throw new RunError(`--texture ${arg}: want FORMAT:WxH[xD][:DIM] with a known format`);
        run.textures.set(name, { format: m[1], width: +m[2], height: +(m[3] ?? 1), depth: +(m[4] ?? 1), dim: m[5] ?? '2d' });
        break;
      }
      case '--expect': {
        // NAME=TYPE:V1,...  |  NAME=FILE  |  NAME:TYPE=FILE
        const [lhs, value] = splitName(arg, option);
        const colon = lhs.indexOf(':');
        if (colon > 0) {
          const type = lhs.slice(colon + 1);
          if (!TYPE_SIZE[type]) throw new RunError(`--expect ${arg}: unknown type '${type}'`);
          run.expects.push({ name: lhs.slice(0, colon), type, bytes: readInput(value) });
        } else {
          const typed = typedList(value);
          if (typed) run.expects.push({ name: lhs, type: typed.type, values: typed.values, bytes: typed.bytes });
          else run.expects.push({ name: lhs, type: null, bytes: readInput(value) });
        }
        break;
      }
      default: throw new RunError(`unknown option '${option}'`);
    }
  }
  if (run.threads && run.groups) throw new RunError('--threads and --groups together');
  return run;
}

/* The expectation with its last value changed by one (for --negative). */
function mutated(expect) {
  if (!expect.values) {
    const bytes = expect.bytes.slice();
    bytes[bytes.length - 1] ^= 0x01;
    return { ...expect, bytes };
  }
  const values = expect.values.slice();
  const last = values.length - 1, v = values[last];
  if (typeof v === 'bigint') values[last] = expect.type === 'u64' && v === 0xffffffffffffffffn ? v - 1n : v + 1n;
  else if (expect.type === 'u32' && v >= 0xffffffff) values[last] = v - 1;
  else if (expect.type === 'u8' && v >= 0xff) values[last] = v - 1;
  else values[last] = v + 1;
  return { ...expect, values, bytes: encode(expect.type, values) };
}

// ---------------------------------------------------------------------------
// WebGPU.

if (!fs.existsSync(webgpuPath)) {
  console.log(`run_dawn: no Dawn for Node at '${webgpuPath}': run npm ci in tests/webgpu (tools/setup.sh does)`);
  process.exit(1);
}
const { create, globals } = await import(pathToFileURL(webgpuPath).href);
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) {
  console.log('run_dawn: no WebGPU adapter: install mesa-vulkan-drivers from bookworm-backports (tools/setup.sh)');
  process.exit(1);
}
// r32float textures bind as 'float' (webgpu_layout 5), which needs float32-filterable.
const optional = ['shader-f16', 'subgroups', 'float32-filterable', 'texture-formats-tier1', 'texture-formats-tier2'];
const features = optional.filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures: features });
const info = adapter.info ?? {};
console.log(`adapter: ${[info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') || 'unnamed'}; features: ${features.join(', ') || 'none'}`);

const pad4 = (n) => (n + 3) & ~3;

/* Binds every row of the entry by name from the run; returns the bind groups and the resources to read back. */
function bindAll(entry, run) {
  const used = new Set();
  const take = (map, name) => {
    used.add(`${map === run.inputs ? 'in' : map === run.sizes ? 'size' : map === run.sets ? 'set' : 'texture'}:${name}`);
    return map.get(name);
  };
  const resources = new Map(); // row name -> { buffer | texture, size, tex }
  const blocks = new Map(); // "space/binding" -> bytes of a value block
  const bindings = new Map(); // "space/binding" -> GPUBindingResource
  for (const row of entry.params) {
    const key = `${row.space}/${row.binding}`;
    const kind = row.kindName;
    // A plain-data block's field row: the block's buffer carries it (docs/format.md).
    const holdsIt = (r) => r.kindName === 'uniform_buffer' && r.space === row.space && r.binding === row.binding;
    if (kind === 'value' && entry.params.some(holdsIt)) continue;
    if (kind === 'value') {
      const bytes = take(run.sets, row.name);
      if (!bytes) throw new RunError(`value '${row.name}' has no --set`);
      if (bytes.length !== row.size) throw new RunError(`--set ${row.name}: ${bytes.length} bytes, the row has ${row.size}`);
      let block = blocks.get(key) ?? new Uint8Array(0);
      const end = (row.offset + row.size + 15) & ~15;
      if (block.length < end) {
        const grown = new Uint8Array(end);
        grown.set(block);
        block = grown;
      }
      block.set(bytes, row.offset);
      blocks.set(key, block);
      continue;
    }
    if (kind === 'sampler') {
      bindings.set(key, device.createSampler({ magFilter: 'nearest', minFilter: 'nearest', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge', addressModeW: 'clamp-to-edge' }));
      continue;
    }
    if (kind === 'texture' || kind === 'rw_texture') {
      const tex = take(run.textures, row.name);
      if (!tex) throw new RunError(`texture '${row.name}' has no --texture`);
      if (tex.dim !== '2d') throw new RunError(`texture '${row.name}': WebGPU's layouts here are 2d only, not ${tex.dim}`);
      const bytes = take(run.inputs, row.name);
      const texel = TEXEL_BYTES[tex.format];
      const size = tex.width * tex.height * texel;
      if (bytes && bytes.length !== size) throw new RunError(`--in ${row.name}: ${bytes.length} bytes, the texture has ${size}`);
      const usage = GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC |
        (kind === 'texture' ? GPUTextureUsage.TEXTURE_BINDING : GPUTextureUsage.STORAGE_BINDING);
      const texture = device.createTexture({ size: [tex.width, tex.height], format: tex.format, usage });
      device.queue.writeTexture({ texture }, bytes ?? new Uint8Array(size), { bytesPerRow: tex.width * texel }, [tex.width, tex.height]);
      resources.set(row.name, { texture, tex, size });
      bindings.set(key, texture.createView());
      continue;
    }
    if (['uniform_buffer', 'buffer', 'rw_buffer', 'byte_buffer', 'rw_byte_buffer'].includes(kind)) {
      const bytes = take(run.inputs, row.name);
      const sized = take(run.sizes, row.name);
      if (!bytes && sized === undefined) throw new RunError(`buffer '${row.name}' has no --in or --size`);
      // dgpb-run: --size sets the size; an --in with it fills the first bytes.
      const size = sized ?? bytes.length;
      if (bytes && bytes.length > size) throw new RunError(`--in ${row.name}: ${bytes.length} bytes, more than --size ${size}`);
      const uniform = kind === 'uniform_buffer';
      const buffer = device.createBuffer({
        size: Math.max(uniform ? (size + 15) & ~15 : pad4(size), 16),
        usage: (uniform ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      });
      if (bytes) {
        const padded = new Uint8Array(pad4(bytes.length));
        padded.set(bytes);
        device.queue.writeBuffer(buffer, 0, padded);
      }
      resources.set(row.name, { buffer, size });
      bindings.set(key, { buffer });
      continue;
    }
    throw new RunError(`parameter '${row.name}' of kind ${kind}: no WebGPU binding`);
  }
  for (const [key, bytes] of blocks) {
    const buffer = device.createBuffer({ size: Math.max(bytes.length, 16), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, bytes);
    bindings.set(key, { buffer });
  }
  // Every name the run gives must be a row of the entry (dgpb-run: a usage error).
  const named = [['in', run.inputs], ['size', run.sizes], ['set', run.sets], ['texture', run.textures]];
  for (const [what, map] of named)
    for (const name of map.keys())
      if (!used.has(`${what}:${name}`)) throw new RunError(`--${what} ${name}: entry '${entry.name}' has no such parameter`);
  for (const e of run.expects)
    if (!resources.has(e.name)) throw new RunError(`--expect ${e.name}: entry '${entry.name}' has no such buffer or texture`);

  const layouts = [], groups = [];
  bindGroupLayoutDescriptors(entry).forEach((descriptor, space) => {
    const layout = device.createBindGroupLayout(descriptor);
    layouts.push(layout);
    groups.push(device.createBindGroup({
      layout,
      entries: descriptor.entries.map((e) => ({ binding: e.binding, resource: bindings.get(`${space}/${e.binding}`) })),
    }));
  });
  return { layouts, groups, resources };
}

/* Copies each resource back: tightly packed bytes. */
async function readBack(resources, names) {
  const encoder = device.createCommandEncoder();
  const reads = [];
  for (const name of names) {
    const r = resources.get(name);
    if (r.buffer) {
      const staging = device.createBuffer({ size: pad4(r.size), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(r.buffer, 0, staging, 0, pad4(r.size));
      reads.push({ name, staging, r });
    } else {
      const texel = TEXEL_BYTES[r.tex.format];
      const rowBytes = (r.tex.width * texel + 255) & ~255;
      const staging = device.createBuffer({ size: rowBytes * r.tex.height, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyTextureToBuffer({ texture: r.texture }, { buffer: staging, bytesPerRow: rowBytes }, [r.tex.width, r.tex.height]);
      reads.push({ name, staging, r, rowBytes, texel });
    }
  }
  device.queue.submit([encoder.finish()]);
  const out = new Map();
  for (const x of reads) {
    await x.staging.mapAsync(GPUMapMode.READ);
    const got = new Uint8Array(x.staging.getMappedRange()).slice();
    x.staging.unmap();
    if (x.rowBytes) {
      const w = x.r.tex.width * x.texel;
      const tight = new Uint8Array(w * x.r.tex.height);
      for (let y = 0; y < x.r.tex.height; y++) tight.set(got.subarray(y * x.rowBytes, y * x.rowBytes + w), y * w);
      out.set(x.name, tight);
    } else {
      out.set(x.name, got.subarray(0, x.r.size));
    }
  }
  return out;
}

/* null when `got` matches the expectation, else a description of the first difference. */
function compare(expect, got, tolerance) {
  if (expect.bytes.length > got.length) return `${expect.name}: expected ${expect.bytes.length} bytes, the resource has ${got.length}`;
  const type = expect.type;
  if (type && type[0] === 'f' && tolerance !== null) {
    const n = expect.bytes.length / TYPE_SIZE[type];
    for (let i = 0; i < n; i++) {
      const want = decode(type, expect.bytes, i), have = decode(type, got, i);
      if (!(Math.abs(want - have) <= tolerance) && !(Number.isNaN(want) && Number.isNaN(have)) && want !== have)
        return `${expect.name}[${i}]: got ${have}, expected ${want} (tolerance ${tolerance})`;
    }
    return null;
  }
  for (let b = 0; b < expect.bytes.length; b++) {
    if (got[b] !== expect.bytes[b]) {
      if (type) {
        const i = Math.floor(b / TYPE_SIZE[type]);
        return `${expect.name}[${i}]: got ${decode(type, got, i)}, expected ${decode(type, expect.bytes, i)}`;
      }
      return `${expect.name}: byte ${b} is ${got[b]}, expected ${expect.bytes[b]}`;
    }
  }
  return null;
}

async function runModule(file) {
  const stem = path.basename(file, '.slang');
  const header = readHeader(file);
  if (!header.targets.includes('wgsl')) return { skipped: `not applicable (//DGPB_TARGETS: ${header.targets.join(',')})` };
  const run = parseRun(header.words);
  const bundle = readBundle(new Uint8Array(fs.readFileSync(path.join(bundleDir, `${stem}.dgpb`))));
  const target = findTarget(bundle, 'wgsl');
  if (!target) throw new RunError('the bundle has no wgsl target');
  const entry = findEntry(target, run.entry);
  if (!entry) throw new RunError(`the wgsl target has no entry '${run.entry}'`);
  if (entry.stage !== 'compute') throw new RunError(`entry '${entry.name}' is not a compute entry`);
  const needs = webgpuRequirements(entry);
  if (needs.unsupported.length) throw new RunError(`cannot run on WebGPU: ${needs.unsupported.join('; ')}`);
  const missing = needs.features.filter((f) => !features.includes(f));
  if (missing.length && allowUnsupported) return { skipped: `not applicable: the adapter lacks ${missing.join(', ')}` };
  if (missing.length) throw new RunError(`the device lacks ${missing.join(', ')}`);
  const code = await verifyBlob(entry.code);

  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code: new TextDecoder().decode(code) });
  const { layouts, groups, resources } = bindAll(entry, run);
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    compute: { module, entryPoint: entry.name },
  });
  const dispatch = run.groups ?? (run.threads ?? [1, 1, 1]).map((t, i) => Math.ceil(t / entry.threadGroupSize[i]));
  const encoder = device.createCommandEncoder();
  for (let r = 0; r < run.repeat; r++) {
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(...dispatch);
    pass.end();
  }
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new RunError(`WebGPU: ${error.message.split('\n')[0]}`);

  const got = await readBack(resources, [...new Set(run.expects.map((e) => e.name))]);
  const differences = run.expects.map((e) => compare(e, got.get(e.name), run.tolerance)).filter(Boolean);
  if (differences.length) return { failed: differences.join('; ') };
  const words = run.expects.reduce((n, e) => n + Math.ceil(e.bytes.length / 4), 0);
  const result = { passed: `${run.expects.length} outputs, ${words} words as expected` };
  if (negative) {
    const undetected = run.expects.filter((e) => compare(mutated(e), got.get(e.name), run.tolerance) === null);
    if (undetected.length) return { failed: `a changed expectation still matched: ${undetected.map((e) => e.name).join(', ')}` };
    result.passed = `${run.expects.length} changed expectations each detected`;
  }
  return result;
}

let passed = 0, failed = 0, skipped = 0;
for (const file of modules) {
  const stem = path.basename(file, '.slang');
  try {
    const r = await runModule(file);
    if (r.skipped) {
      skipped++;
      console.log(`${stem}: ${r.skipped}`);
    } else if (r.failed) {
      failed++;
      console.log(`${stem}: FAILED ${r.failed}`);
    } else {
      passed++;
      console.log(`${stem}: ${r.passed}`);
    }
  } catch (e) {
    failed++;
    console.log(`${stem}: FAILED ${e instanceof RunError ? '' : `${e.name}: `}${e.message}`);
  }
}
console.log(`not applicable: ${skipped}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
