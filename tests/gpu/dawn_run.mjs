// dawn_run.mjs - runs the exported conformance cases (docs/conformance.md)
// on WebGPU through Dawn, as the browser host would: it reads each bundle's
// wgsl target, checks every blob's SHA-256, creates bind group layouts from
// the parameter table alone (webgpu_layout IDs, space = group), binds every
// parameter by its row, dispatches and compares the outputs byte for byte.
//
//   node dawn_run.mjs WEBGPU_MODULE BUNDLE_DIR EXPORT_DIR [CASE...]
//
// WEBGPU_MODULE is the path of the npm package `webgpu` (its index.js).
// Prints one line per case and a closing `N passed, N failed`; a case whose
// entry is not in the wgsl target (byte-address buffers, 64-bit integers) is
// reported as not applicable.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readBundle, verifyBlob, KIND } from './dgpb.mjs';

const [webgpuPath, bundleDir, exportDir, ...only] = process.argv.slice(2);
const { create, globals } = await import(pathToFileURL(webgpuPath).href);
Object.assign(globalThis, globals);

const gpu = create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  console.log('dawn_run: no WebGPU adapter');
  process.exit(1);
}
const info = adapter.info ?? {};
// Storage textures 7 and 8 (rg32float, rgba32float) are read-write in the ID table: core
// WebGPU allows that only for r32float and r32uint, the tier-2 texture formats add the rest.
const wanted = ['subgroups', 'shader-f16', 'texture-formats-tier1', 'texture-formats-tier2'].filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures: wanted });
device.addEventListener?.('uncapturederror', (e) => console.log(`dawn_run: uncaptured error: ${e.error.message}`));
console.log(`adapter: ${info.vendor ?? ''} ${info.architecture ?? ''} ${info.device ?? ''} ${info.description ?? ''}; features: ${wanted.join(', ') || 'none'}`);

const STAGE = GPUShaderStage;
const FORMATS = { r16float: 2, r32float: 4, rg32float: 8, rgba32float: 16, r32uint: 4 };
const STORAGE_FORMAT = { 6: 'r32float', 7: 'rg32float', 8: 'rgba32float', 9: 'r32uint' };

function layoutEntry(row, visibility) {
  switch (row.webgpuLayout) {
    case 1: return { buffer: { type: 'uniform' } };
    case 2: return { buffer: { type: 'read-only-storage' } };
    case 3: return { buffer: { type: 'storage' } };
    case 4: return { sampler: { type: 'filtering' } };
    case 5: return { texture: { sampleType: 'float', viewDimension: '2d', multisampled: false } };
    case 6: case 7: case 8: case 9:
      return { storageTexture: { access: 'read-write', format: STORAGE_FORMAT[row.webgpuLayout], viewDimension: '2d' } };
    default: throw new Error(`row '${row.name}' has webgpu_layout ${row.webgpuLayout}: no WebGPU descriptor`);
  }
}

const bundles = new Map();
function bundle(stem) {
  if (!bundles.has(stem)) bundles.set(stem, readBundle(fs.readFileSync(path.join(bundleDir, `${stem}.dgpb`))));
  return bundles.get(stem);
}

function readFile(name) {
  return new Uint8Array(fs.readFileSync(path.join(exportDir, name)));
}

const pad4 = (n) => (n + 3) & ~3;

/*
 * A value's bytes as its row lays them out: a matrix (`matrix_rows` R) has its
 * rows at r * (row size / R), since a row's stride differs by block layout (a
 * float2x2 is 32 bytes in a uniform block, 16 tightly packed); anything else
 * as given.
 */
function placeValue(p, rowSize) {
  const bytes = Buffer.from(p.hex, 'hex');
  if (!p.matrix_rows) return bytes;
  const rows = p.matrix_rows, tight = bytes.length / rows, stride = rowSize / rows;
  const out = new Uint8Array(rowSize);
  for (let r = 0; r < rows; r++) out.set(bytes.subarray(r * tight, (r + 1) * tight), r * stride);
  return out;
}

/* Builds the bind groups of a set of rows (one entry, or a vertex+fragment pair). */
function bindAll(rows, params, visibility) {
  const groups = new Map(); // space -> Map(binding -> { row, resource })
  const outputs = [];
  const valueBlocks = new Map(); // "space/binding" -> { bytes, buffer }
  for (const row of rows) {
    const key = `${row.space}/${row.binding}`;
    if (!groups.has(row.space)) groups.set(row.space, new Map());
    if (row.kind === KIND.value) {
      const block = valueBlocks.get(key) ?? { bytes: new Uint8Array(0), rows: [] };
      const end = (row.offset + row.size + 15) & ~15;
      if (block.bytes.length < end) {
        const grown = new Uint8Array(end);
        grown.set(block.bytes);
        block.bytes = grown;
      }
      const p = params.get(row.name);
      if (p) block.bytes.set(placeValue(p, row.size), row.offset);
      valueBlocks.set(key, block);
      groups.get(row.space).set(row.binding, { row, block });
      continue;
    }
    const p = params.get(row.name);
    let resource;
    if (row.kind === KIND.sampler) {
      resource = device.createSampler({ magFilter: 'nearest', minFilter: 'nearest', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge' });
    } else if (row.kind === KIND.texture || row.kind === KIND.rw_texture) {
      const format = p?.format ?? (row.kind === KIND.texture ? 'rgba8unorm' : STORAGE_FORMAT[row.webgpuLayout]);
      const width = p?.width ?? 1, height = p?.height ?? 1;
      const usage = GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC |
        (row.kind === KIND.texture ? GPUTextureUsage.TEXTURE_BINDING : GPUTextureUsage.STORAGE_BINDING);
      const texture = device.createTexture({ size: [width, height], format, usage });
      if (p?.input) device.queue.writeTexture({ texture }, readFile(p.input), { bytesPerRow: width * FORMATS[format] }, [width, height]);
      resource = texture.createView();
      if (p?.expected) outputs.push({ p, texture, width, height, format });
    } else {
      const size = Math.max(pad4(p?.size ?? 16), 16);
      const uniform = row.kind === KIND.uniform_buffer;
      const buffer = device.createBuffer({
        size,
        usage: (uniform ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE) | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      });
      if (p?.input) {
        const data = readFile(p.input);
        const padded = new Uint8Array(pad4(data.length));
        padded.set(data);
        device.queue.writeBuffer(buffer, 0, padded);
      }
      resource = { buffer };
      if (p?.expected) outputs.push({ p, buffer });
    }
    groups.get(row.space).set(row.binding, { row, resource });
  }
  for (const block of valueBlocks.values()) {
    block.buffer = device.createBuffer({ size: Math.max(block.bytes.length, 16), usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(block.buffer, 0, block.bytes);
  }
  const maxSpace = Math.max(-1, ...groups.keys());
  const layouts = [], bindGroups = [];
  for (let space = 0; space <= maxSpace; space++) {
    const bindings = groups.get(space) ?? new Map();
    const entries = [], resources = [];
    for (const [binding, b] of [...bindings].sort((x, y) => x[0] - y[0])) {
      entries.push({ binding, visibility, ...layoutEntry(b.row) });
      resources.push({ binding, resource: b.block ? { buffer: b.block.buffer } : b.resource });
    }
    const layout = device.createBindGroupLayout({ entries });
    layouts.push(layout);
    bindGroups.push(device.createBindGroup({ layout, entries: resources }));
  }
  return { layouts, bindGroups, outputs };
}

async function readBack(outputs, encoder) {
  const reads = [];
  for (const o of outputs) {
    if (o.buffer) {
      const size = pad4(o.p.size);
      const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyBufferToBuffer(o.buffer, 0, staging, 0, size);
      reads.push({ o, staging, rowBytes: 0 });
    } else {
      const texel = FORMATS[o.format];
      const rowBytes = (o.width * texel + 255) & ~255;
      const staging = device.createBuffer({ size: rowBytes * o.height, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      encoder.copyTextureToBuffer({ texture: o.texture }, { buffer: staging, bytesPerRow: rowBytes }, [o.width, o.height]);
      reads.push({ o, staging, rowBytes, texel });
    }
  }
  device.queue.submit([encoder.finish()]);
  let words = 0, bad = 0, firstBad = null;
  for (const r of reads) {
    await r.staging.mapAsync(GPUMapMode.READ);
    let got = new Uint8Array(r.staging.getMappedRange()).slice();
    r.staging.unmap();
    if (r.rowBytes) {
      const tight = new Uint8Array(r.o.width * r.texel * r.o.height);
      for (let y = 0; y < r.o.height; y++)
        tight.set(got.subarray(y * r.rowBytes, y * r.rowBytes + r.o.width * r.texel), y * r.o.width * r.texel);
      got = tight;
    }
    const want = readFile(r.o.p.expected);
    for (let i = 0; i < want.length; i += 4) {
      words++;
      let same = true;
      for (let k = i; k < Math.min(i + 4, want.length); k++) same &&= got[k] === want[k];
      if (!same) {
        bad++;
        firstBad ??= `${r.o.p.name} word ${i / 4}`;
      }
    }
  }
  return { words, bad, firstBad };
}

async function runCompute(c, entry) {
  const params = new Map(c.params.map((p) => [p.name, p]));
  verifyBlob(entry.code);
  const module = device.createShaderModule({ code: new TextDecoder().decode(entry.code.data) });
  const { layouts, bindGroups, outputs } = bindAll(entry.params, params, STAGE.COMPUTE);
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    compute: { module, entryPoint: entry.name },
  });
  const groups = c.threads.map((t, i) => Math.ceil(t / entry.threadGroupSize[i]));
  const encoder = device.createCommandEncoder();
  for (let r = 0; r < (c.repeat || 1); r++) {
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(...groups);
    pass.end();
  }
  return readBack(outputs, encoder);
}

async function runRender(c, target) {
  const vs = target.entries.find((e) => e.name === c.vertex);
  const fs_ = target.entries.find((e) => e.name === c.fragment);
  if (!vs || !fs_) return null;
  const params = new Map(c.params.map((p) => [p.name, p]));
  const rows = [...vs.params, ...fs_.params.filter((r) => !vs.params.some((v) => v.space === r.space && v.binding === r.binding))];
  const { layouts, bindGroups } = bindAll(rows, params, STAGE.VERTEX | STAGE.FRAGMENT);
  verifyBlob(vs.code);
  verifyBlob(fs_.code);
  const attachment = c.params.find((p) => p.kind === 'color_attachment');
  const format = attachment?.format ?? 'rgba32float';
  const pipeline = await device.createRenderPipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    vertex: { module: device.createShaderModule({ code: new TextDecoder().decode(vs.code.data) }), entryPoint: vs.name },
    fragment: { module: device.createShaderModule({ code: new TextDecoder().decode(fs_.code.data) }), entryPoint: fs_.name, targets: [{ format }] },
    primitive: { topology: 'triangle-list' },
  });
  if (!c.vertices || !attachment) return { words: 0, bad: 0, created: true };
  const texture = device.createTexture({ size: [attachment.width, attachment.height], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({ colorAttachments: [{ view: texture.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
  pass.setPipeline(pipeline);
  bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
  pass.draw(c.vertices);
  pass.end();
  return readBack([{ p: attachment, texture, width: attachment.width, height: attachment.height, format }], encoder);
}

const list = JSON.parse(fs.readFileSync(path.join(exportDir, 'cases.json'), 'utf8')).cases;
let passed = 0, failed = 0, skipped = 0;
for (const name of list) {
  if (only.length && !only.includes(name)) continue;
  const c = JSON.parse(fs.readFileSync(path.join(exportDir, `${name}.json`), 'utf8'));
  const target = bundle(c.bundle).targets.find((t) => t.name === 'wgsl');
  try {
    let r;
    if (c.type === 'render') {
      r = target ? await runRender(c, target) : null;
    } else {
      const entry = target?.entries.find((e) => e.name === c.entry);
      r = entry ? await runCompute(c, entry) : null;
    }
    if (!r) {
      skipped++;
      console.log(`${name}: not applicable (no wgsl entry)`);
    } else if (r.created && !r.words) {
      passed++;
      console.log(`${name}: pipeline created`);
    } else if (r.bad === 0) {
      passed++;
      console.log(`${name}: ${c.elements} elements, ${r.words}/${r.words} words exact`);
    } else {
      failed++;
      console.log(`${name}: FAILED ${r.words - r.bad}/${r.words} words exact; first difference: ${r.firstBad}`);
    }
  } catch (e) {
    failed++;
    console.log(`${name}: FAILED ${e.message}`);
  }
}
console.log(`not applicable: ${skipped}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
