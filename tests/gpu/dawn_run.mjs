// dawn_run.mjs - runs the exported conformance cases (docs/conformance.md)
// on WebGPU through Dawn, as a browser host would: it reads each bundle with
// the dgpb-reader package (js/dgpb-reader), takes the wgsl target, checks
// every code blob's SHA-256 before use, builds the bind group layouts from the
// parameter table alone (bindGroupLayoutDescriptors: webgpu_layout IDs, group
// = space), binds every parameter by its row, dispatches or draws and compares
// the outputs byte for byte.
//
//   node dawn_run.mjs WEBGPU_MODULE BUNDLE_DIR EXPORT_DIR [CASE...]
//
// WEBGPU_MODULE is the path of the npm package `webgpu` (its index.js).
// Prints one line per case and a closing `N passed, N failed`. A case is not
// applicable, with its reason on its line, when its entry is not in the wgsl
// target (byte-address buffers, 64-bit integers), or when it needs what WebGPU
// or this adapter does not offer (webgpuRequirements(): a capability or
// binding no WebGPU feature provides, or a feature the adapter lacks) AND
// Dawn indeed refuses its layouts or pipeline; if Dawn accepts them, the case
// runs. No adapter fails the run with the package to install.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  readBundle, verifyBlob, findTarget, findEntry, bindGroupLayoutDescriptors, webgpuRequirements, webgpuLayoutEntry,
  KIND,
} from '../../js/dgpb-reader/index.mjs';

const [webgpuPath, bundleDir, exportDir, ...only] = process.argv.slice(2);
if (!webgpuPath || !bundleDir || !exportDir) {
  console.log('usage: node dawn_run.mjs WEBGPU_MODULE BUNDLE_DIR EXPORT_DIR [CASE...]');
  process.exit(2);
}
if (!fs.existsSync(webgpuPath)) {
  console.log(`dawn_run: ${webgpuPath} is missing: install Dawn for Node with npm ci in tests/webgpu (tools/setup.sh)`);
  process.exit(1);
}
const { create, globals } = await import(pathToFileURL(path.resolve(webgpuPath)).href);
Object.assign(globalThis, globals);

const gpu = create([]);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  console.log('dawn_run: no WebGPU adapter: Dawn needs a Vulkan driver it accepts; install lavapipe, ' +
    'mesa-vulkan-drivers from bookworm-backports (tools/setup.sh)');
  process.exit(1);
}
const info = adapter.info ?? {};
// Storage texture 8 (rgba32float) is read-write in the ID table: core WebGPU
// allows that only for r32float, r32uint and r32sint; texture-formats-tier2
// adds rgba32float (never rg32float, ID 7).
const wanted = ['subgroups', 'shader-f16', 'texture-formats-tier1', 'texture-formats-tier2'].filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures: wanted });
device.addEventListener?.('uncapturederror', (e) => console.log(`dawn_run: uncaptured error: ${e.error.message}`));
console.log(`adapter: ${info.vendor ?? ''} ${info.architecture ?? ''} ${info.device ?? ''} ${info.description ?? ''}; features: ${wanted.join(', ') || 'none'}`);

const FORMATS = { r16float: 2, r32float: 4, rg32float: 8, rgba32float: 16, r32uint: 4 };

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

/*
 * Builds the bind groups of one entry or a vertex+fragment pair: the layouts
 * from the package's descriptors, a resource for every (space, binding).
 */
function bindAll(entries, params) {
  const rows = []; // a later entry's rows where an earlier entry has none
  for (const e of entries) {
    const earlier = rows.slice();
    rows.push(...e.params.filter((r) => !earlier.some((v) => v.space === r.space && v.binding === r.binding)));
  }
  const groups = new Map(); // space -> Map(binding -> { row, resource })
  const outputs = [];
  const valueBlocks = new Map(); // "space/binding" -> { bytes, buffer }
  for (const row of rows) {
    const key = `${row.space}/${row.binding}`;
    if (!groups.has(row.space)) groups.set(row.space, new Map());
    // A plain-data block's field row: the block's buffer carries it when the case gives the
    // block's bytes whole; otherwise the fields fill a buffer of the block's size (its row's
    // `size`, docs/format.md "A block's size").
    const holdsIt = (r) => r.kind === KIND.uniform_buffer && r.space === row.space && r.binding === row.binding &&
      params.has(r.name);
    if (row.kind === KIND.value && rows.some(holdsIt)) continue;
    const blockOfFields = row.kind === KIND.uniform_buffer && !params.has(row.name);
    if (row.kind === KIND.value || blockOfFields) {
      const block = valueBlocks.get(key) ?? { bytes: new Uint8Array(0), rows: [] };
      const end = blockOfFields ? (row.size + 15) & ~15 : (row.offset + row.size + 15) & ~15;
      if (block.bytes.length < end) {
        const grown = new Uint8Array(end);
        grown.set(block.bytes);
        block.bytes = grown;
      }
      const p = blockOfFields ? undefined : params.get(row.name);
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
      const format = p?.format ?? (row.kind === KIND.texture ? 'rgba8unorm' : webgpuLayoutEntry(row.webgpuLayout).storageTexture.format);
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
  const layouts = [], bindGroups = [];
  bindGroupLayoutDescriptors(entries).forEach((descriptor, space) => {
    const layout = device.createBindGroupLayout(descriptor);
    const resources = descriptor.entries.map(({ binding }) => {
      const b = groups.get(space).get(binding);
      return { binding, resource: b.block ? { buffer: b.block.buffer } : b.resource };
    });
    layouts.push(layout);
    bindGroups.push(device.createBindGroup({ layout, entries: resources }));
  });
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

/* A shader module whose compilation has no error (else throws with the messages). */
async function shaderModule(entry) {
  const code = new TextDecoder().decode(await verifyBlob(entry.code));
  const module = device.createShaderModule({ code, label: entry.name });
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  if (errors.length)
    throw new Error(`entry '${entry.name}': WGSL does not compile: ${errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; ')}`);
  return module;
}

async function runCompute(c, entry) {
  const params = new Map(c.params.map((p) => [p.name, p]));
  const module = await shaderModule(entry);
  const { layouts, bindGroups, outputs } = bindAll([entry], params);
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

async function runRender(c, vs, fs_) {
  const params = new Map(c.params.map((p) => [p.name, p]));
  const { layouts, bindGroups } = bindAll([vs, fs_], params);
  const attachment = c.params.find((p) => p.kind === 'color_attachment');
  const format = attachment?.format ?? 'rgba32float';
  const pipeline = await device.createRenderPipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    vertex: { module: await shaderModule(vs), entryPoint: vs.name },
    fragment: { module: await shaderModule(fs_), entryPoint: fs_.name, targets: [{ format }] },
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

/*
 * Why the entries cannot run here, or null. A reason counts only when Dawn
 * confirms it: the bind group layouts (and, for a compute entry, the pipeline)
 * are created in a validation error scope, and the case is not applicable only
 * if that fails; Dawn's message is part of the reason.
 */
async function notApplicable(entries) {
  const req = webgpuRequirements(entries);
  const reasons = [...req.unsupported,
    ...req.features.filter((f) => !device.features.has(f)).map((f) => `the adapter lacks feature '${f}' (${entries.map((e) => e.name).join(' + ')})`)];
  if (!reasons.length) return null;
  device.pushErrorScope('validation');
  let thrown = null;
  try {
    const layouts = bindGroupLayoutDescriptors(entries).map((d) => device.createBindGroupLayout(d));
    if (entries.length === 1 && entries[0].stage === 'compute') {
      await device.createComputePipelineAsync({
        layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
        compute: { module: await shaderModule(entries[0]), entryPoint: entries[0].name },
      });
    }
  } catch (e) {
    thrown = e;
  }
  const error = await device.popErrorScope();
  if (!error && !thrown) {
    console.log(`note: Dawn accepts ${entries.map((e) => e.name).join(' + ')} although ${reasons.join('; ')}: running it`);
    return null;
  }
  return `${reasons.join('; ')}; Dawn: ${String((error ?? thrown).message).split('\n')[0]}`;
}

const list = JSON.parse(fs.readFileSync(path.join(exportDir, 'cases.json'), 'utf8')).cases;
let passed = 0, failed = 0, skipped = 0;
for (const name of list) {
  if (only.length && !only.includes(name)) continue;
  const c = JSON.parse(fs.readFileSync(path.join(exportDir, `${name}.json`), 'utf8'));
  const target = findTarget(bundle(c.bundle), 'wgsl');
  const names = c.type === 'render' ? [c.vertex, c.fragment] : [c.entry];
  const entries = names.map((n) => target && findEntry(target, n));
  let why = entries.every(Boolean) ? null : `no wgsl entry ${names.filter((n, i) => !entries[i]).map((n) => `'${n}'`).join(', ')}`;
  let r = null, error = null;
  device.pushErrorScope('validation');
  try {
    why ??= await notApplicable(entries);
    if (!why) r = c.type === 'render' ? await runRender(c, ...entries) : await runCompute(c, entries[0]);
  } catch (e) {
    error = e;
  }
  const invalid = await device.popErrorScope();
  error ??= invalid && new Error(`validation: ${invalid.message}`);
  if (error) {
    failed++;
    console.log(`${name}: FAILED ${error.message}`);
  } else if (why) {
    skipped++;
    console.log(`${name}: not applicable: ${why}`);
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
}
console.log(`not applicable: ${skipped}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
