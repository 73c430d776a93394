// draw_idioms.mjs - the renderer idioms of fixtures/plain that build for wgsl,
// drawn on WebGPU through Dawn and compared with texels computed by hand
// (docs/testing.md, "WebGPU"), as tests/run's draws check theirs on Vulkan.
//
//   node draw_idioms.mjs [--tamper] BUNDLE_DIR
//
// BUNDLE_DIR holds frame_blocks.dgpb, shared_push_entry.dgpb and
// target_guards.dgpb (their wgsl target; target_guards is dispatched, its
// output buffer compared, and its row absent on wgsl must stay unbound). Per draw, with nothing but the bundle (js/dgpb-reader) and the
// draw's values below, given by row name:
//
//   - the vertex and fragment entries' code blobs are verified (SHA-256) and
//     compiled by Dawn without an error;
//   - the bind group layouts are bindGroupLayoutDescriptors() of both entries'
//     rows; each uniform block is one buffer per (group, binding), as large as
//     its uniform_buffer row's `size` (a block with no such row, an entry's
//     `uniform` parameters: its value rows' end rounded up to 16, WGSL's
//     uniform struct size), each value written at its row's `offset` with
//     exactly its row's `size` bytes; a texture row gets the draw's texels,
//     a sampler row a nearest, clamp-to-edge sampler. A row the draw gives
//     nothing for, a value the entries have no row for, a value of another
//     size than its row, or a row two entries place differently fails it;
//   - two triangles from vertex buffers are drawn into a 4x4 rgba32float
//     target cleared to -1, read back and compared texel by texel with the
//     expected values; any validation error fails the draw.
//
// --tamper checks the check: each value row in turn moved 4 bytes (later, or
// earlier where that would pass its block's end), and each uniform_buffer
// row whose size exceeds its fields' end cut to that end (frame_blocks'
// 1104-byte FrameBlock to 1092), in every entry that has it; every such
// draw must fail (exit 1 when one does not, or when the untampered draw
// does not pass first).
//
// Prints the adapter, one line per draw and "N passed, N failed"; exits 1 on
// any failure, and when Dawn or a WebGPU adapter is missing, naming what to
// install.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  readBundle, verifyBlob, findTarget, findEntry, bindGroupLayoutDescriptors, KIND, KIND_NAMES, FLAG,
} from '../../js/dgpb-reader/index.mjs';
import { openDevice } from './dawn_device.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const webgpuPath = path.join(here, 'node_modules', 'webgpu', 'index.js');
if (!fs.existsSync(webgpuPath)) {
  console.log(`FAIL: ${webgpuPath} is missing: install Dawn for Node with ` +
    '(cd tests/webgpu && npm ci), as tools/setup.sh does');
  process.exit(1);
}
const tamper = process.argv[2] === '--tamper';
const bundleDir = process.argv[tamper ? 3 : 2];
if (!bundleDir) {
  console.log('usage: node draw_idioms.mjs [--tamper] BUNDLE_DIR');
  process.exit(2);
}
const { adapter, device } = await openDevice(webgpuPath);
const info = adapter.info ?? {};
console.log(`adapter: ${info.vendor ?? ''} ${info.device ?? ''} ${info.description ?? ''}`);

// ---- values as bytes --------------------------------------------------------

const f32 = (...v) => new Uint8Array(new Float32Array(v).buffer);

/* A float4x4 as a std140 block holds it (the default row-major layout): row r at r * 16. */
const float4x4 = (rows) => f32(...rows.flat());

/* The IEEE half of a value that has one exactly (small integers and powers of two here). */
function half(x) {
  if (x === 0) return 0;
  const sign = x < 0 ? 0x8000 : 0;
  const a = Math.abs(x), e = Math.floor(Math.log2(a));
  const mantissa = (a / 2 ** e - 1) * 1024;
  if (e < -14 || e > 15 || !Number.isInteger(mantissa)) throw new Error(`${x} is no exact half`);
  return sign | ((e + 15) << 10) | mantissa;
}
const f16 = (...v) => new Uint8Array(new Uint16Array(v.map(half)).buffer);

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

// ---- the draws --------------------------------------------------------------

// Two triangles over x in [-1, 0], y in [-1, 1] (z 0.5); both modules' matrices move them
// to x in [0, 1] (+1 in x) and y in [-0.5, 0.5] (y halved), which covers the pixel centres
// of columns 2 and 3 and rows 1 and 2 of the 4x4 target (NDC +-0.25, +-0.75; row 0 at the
// top). The other texels keep the clear value -1. uv is (x + 1, (1 - y) / 2): pixel
// column 2 samples texel column 0 (u 0.25), column 3 texel column 1 (u 0.75), row 1 texel
// row 0 (v 0.25), row 2 texel row 1 (v 0.75).
const QUAD = [[-1, -1], [0, -1], [-1, 1], [-1, 1], [0, -1], [0, 1]];
const POSITIONS = QUAD.flatMap(([x, y]) => [x, y, 0.5]);
const UVS = QUAD.flatMap(([x, y]) => [x + 1, (1 - y) / 2]);
const NONE = [-1, -1, -1, -1];
/* The 4x4 target's texels, row by row, given the four covered ones: [a, b] in row 1, [c, d] in row 2. */
const covered = ([a, b], [c, d]) => [NONE, NONE, NONE, NONE, NONE, NONE, a, b, NONE, NONE, c, d,
  NONE, NONE, NONE, NONE];

// frame_blocks: lit = sum of the 32 lights' colours (1, i, i % 2, 0.25) * exposure 0.5
// = (32, 496, 16, 8) * 0.5 = (16, 248, 8, 4); each light's position (100, ...) sits where a
// colour read 16 bytes off would find it. baseColor (0.5, 0.25, 1, 2) * roughness 0.5 *
// tint (2, 1, 0.5, 0.25) = (0.5, 0.125, 0.25, 0.25), so a pixel is (8, 31, 2, 1) * its
// texel of the 2x2 rgba16float albedo, sampled nearest. Every product is exact.
const lights = [];
for (let i = 0; i < 32; i++) lights.push(f32(100, 100, 100, 100), f32(1, i, i % 2, 0.25));
const ALBEDO = [[1, 2, 0.5, 1], [2, 1, 1, 0.5], [0.5, 0.5, 2, 2], [4, 0.25, 1, 1]];
const FRAME_BLOCKS = {
  bundle: 'frame_blocks',
  vertex: 'vertexMain',
  fragment: 'fragmentMain',
  values: {
    viewProjection: float4x4([[1, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    lights: concat(...lights),
    exposure: f32(0.5),
    model: float4x4([[1, 0, 0, 1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    tint: f32(2, 1, 0.5, 0.25),
    'material.baseColor': f32(0.5, 0.25, 1, 2),
    'material.roughness': f32(0.5),
  },
  textures: { 'material.albedo': { format: 'rgba16float', width: 2, height: 2, texels: f16(...ALBEDO.flat()) } },
  samplers: ['material.albedoSampler'],
  vertices: [
    { location: 0, format: 'float32x3', data: POSITIONS },
    { location: 1, format: 'float32x2', data: UVS },
  ],
  // (8, 31, 2, 1) * (1, 2, 0.5, 1), * (2, 1, 1, 0.5), * (0.5, 0.5, 2, 2), * (4, 0.25, 1, 1)
  expected: covered([[8, 62, 1, 1], [16, 31, 2, 0.5]], [[4, 15.5, 4, 2], [32, 7.75, 2, 1]]),
  tolerance: 0,
};

// shared_push_entry: both stages read `pc` (model, tint: 80 bytes at 0), the fragment stage
// also `fog` at 80: one 96-byte block. model = +1 in x, y halved. Every normal is
// (0, 0.6, 0.8), so light = 0.8, and each covered pixel is
// lerp(tint * 0.8, fog, fog.a = 0.5) = (1, 0.5, 0.25, 2) * 0.4 + (0.25, 0.5, 0.75, 0.5) * 0.5
// = (0.525, 0.45, 0.475, 1.05); 0.6 and 0.8 are not exact in binary, hence a tolerance.
const LIT = [0.525, 0.45, 0.475, 1.05];
const SHARED_PUSH_ENTRY = {
  bundle: 'shared_push_entry',
  vertex: 'vertexMain',
  fragment: 'fragmentMain',
  values: {
    pc: concat(float4x4([[1, 0, 0, 1], [0, 0.5, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]), f32(1, 0.5, 0.25, 2)),
    fog: f32(0.25, 0.5, 0.75, 0.5),
  },
  textures: {},
  samplers: [],
  vertices: [
    { location: 0, format: 'float32x3', data: POSITIONS },
    { location: 1, format: 'float32x3', data: QUAD.flatMap(() => [0, 0.6, 0.8]) },
  ],
  expected: covered([LIT, LIT], [LIT, LIT]),
  tolerance: 1e-6,
};

const DRAWS = [FRAME_BLOCKS, SHARED_PUSH_ENTRY];

// ---- the dispatches ---------------------------------------------------------

// target_guards (built for spirv and wgsl): on wgsl the exposure comes from the 1x1
// exposureTexture (2), and exposureBuffer, the other targets' parameter, is absent. Thread i
// samples texel i of the 4x1 rgba16float hdrColor (nearest), scales it by the exposure and
// tone-maps it c / (c + 1): 0.5 -> 0.5, 1.5 -> 0.75, 3.5 -> 0.875, 0 -> 0.
const TARGET_GUARDS = {
  bundle: 'target_guards', entry: 'toneMap', groups: 1,
  absent: ['exposureBuffer'],
  values: {},
  textures: {
    hdrColor: { width: 4, height: 1, format: 'rgba16float', texels: f16(0.5, 0, 0, 0, 1.5, 0, 0, 0, 3.5, 0, 0, 0, 0, 0.5, 0, 0) },
    exposureTexture: { width: 1, height: 1, format: 'rgba16float', texels: f16(2, 0, 0, 0) },
  },
  samplers: ['linearClamp'],
  buffers: { toneMapped: new Uint8Array(64) },
  read: 'toneMapped',
  expected: [0.5, 0, 0, 0, 0.75, 0, 0, 0, 0.875, 0, 0, 0, 0, 0.5, 0, 0],
};
const DISPATCHES = [TARGET_GUARDS];

/* Dispatches a compute entry; resolves to null, or why it failed. */
async function dispatch(d, entry) {
  device.pushErrorScope('validation');
  let why = null;
  try {
    for (const name of d.absent) {
      const row = entry.params.find((r) => r.name === name);
      if (!row || !(row.flags & FLAG.absent)) throw new Error(`row '${name}' is not flagged absent on wgsl`);
    }
    const { bound, layouts, bindGroups } = bind(d, [entry]);
    const pipeline = await device.createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
      compute: { module: await shaderModule(entry), entryPoint: entry.name },
    });
    const out = entry.params.find((r) => r.name === d.read);
    const { buffer } = bound.get(key(out));
    const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(d.groups);
    pass.end();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const got = [...new Float32Array(staging.getMappedRange().slice(0))];
    staging.unmap();
    if (got.some((v, i) => v !== d.expected[i]))
      why = `${d.read}: got ${got.join(', ')}, expected ${d.expected.join(', ')}`;
  } catch (e) {
    why = e.message;
  }
  const invalid = await device.popErrorScope();
  if (invalid) why = `validation: ${invalid.message.split('\n')[0]}${why ? `; ${why}` : ''}`;
  return why;
}

// ---- binding by the table ---------------------------------------------------

const key = (row) => `${row.space}/${row.binding}`;

/*
 * The uniform blocks of the entries' rows: Map "space/binding" -> { size, values:
 * [row] }, each value row once (a row two entries list must be the same place).
 */
function uniformBlocks(entries) {
  const blocks = new Map(), seen = new Map();
  for (const entry of entries) {
    for (const row of entry.params) {
      if (row.kind !== KIND.value && row.kind !== KIND.uniform_buffer) continue;
      if (row.flags & FLAG.absent) continue; // not in this target's code
      const had = seen.get(`${row.kind}:${row.name}`);
      if (had) {
        if (had.space !== row.space || had.binding !== row.binding || had.offset !== row.offset ||
            had.size !== row.size)
          throw new Error(`row '${row.name}' is in group ${had.space}, binding ${had.binding} at ` +
            `${had.offset} (${had.size} bytes) in one entry, group ${row.space}, binding ` +
            `${row.binding} at ${row.offset} (${row.size} bytes) in '${entry.name}'`);
        continue;
      }
      seen.set(`${row.kind}:${row.name}`, row);
      const block = blocks.get(key(row)) ?? { size: null, values: [] };
      if (row.kind === KIND.uniform_buffer) block.size = row.size;
      else block.values.push(row);
      blocks.set(key(row), block);
    }
  }
  for (const block of blocks.values())
    block.size ??= (Math.max(...block.values.map((r) => r.offset + r.size)) + 15) & ~15;
  return blocks;
}

/* A resource for every (space, binding) the rows name: "space/binding" -> GPUBindingResource. */
function resources(draw, entries) {
  const out = new Map();
  const used = new Set();
  for (const [where, block] of uniformBlocks(entries)) {
    const bytes = new Uint8Array(block.size);
    for (const row of block.values) {
      const value = draw.values[row.name];
      if (!value) throw new Error(`value row '${row.name}' has no value in this draw`);
      if (value.length !== row.size)
        throw new Error(`value '${row.name}' is ${value.length} bytes, its row ${row.size}`);
      if (row.offset + row.size > block.size)
        throw new Error(`value row '${row.name}' (${row.offset}, ${row.size} bytes) passes its ` +
          `block's end (${block.size} bytes)`);
      bytes.set(value, row.offset);
      used.add(row.name);
    }
    const buffer = device.createBuffer({ size: block.size, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, bytes);
    out.set(where, { buffer });
  }
  for (const name of Object.keys(draw.values))
    if (!used.has(name)) throw new Error(`value '${name}' is no value row of the entries`);
  const owner = new Map(); // "space/binding" -> the resource row bound there
  for (const row of entries.flatMap((e) => e.params)) {
    if (row.flags & FLAG.absent) {
      // A row this target's code lacks (a target guard) binds nothing, and is given nothing.
      if (draw.values[row.name] || draw.textures[row.name] || draw.buffers?.[row.name])
        throw new Error(`row '${row.name}' is absent from the wgsl code, yet the run gives it`);
      continue;
    }
    if (row.kind === KIND.value || row.kind === KIND.uniform_buffer) continue;
    const had = owner.get(key(row)) ?? (out.has(key(row)) ? { name: 'a uniform block' } : null);
    if (had && had.name === row.name && had.kind === row.kind) continue; // both entries list it
    if (had) throw new Error(`row '${row.name}' is at group ${row.space}, binding ${row.binding}, as '${had.name}' is`);
    owner.set(key(row), row);
    if (row.kind === KIND.texture) {
      const t = draw.textures[row.name];
      if (!t) throw new Error(`texture row '${row.name}' has no texels in this draw`);
      const texture = device.createTexture({
        size: [t.width, t.height], format: t.format,
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      });
      device.queue.writeTexture({ texture }, t.texels, { bytesPerRow: t.texels.length / t.height },
        [t.width, t.height]);
      out.set(key(row), texture.createView());
    } else if (row.kind === KIND.buffer || row.kind === KIND.rw_buffer) {
      const bytes = draw.buffers?.[row.name];
      if (!bytes) throw new Error(`buffer row '${row.name}' has no contents in this run`);
      const buffer = device.createBuffer({
        size: bytes.length, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      });
      device.queue.writeBuffer(buffer, 0, bytes);
      out.set(key(row), { buffer });
    } else if (row.kind === KIND.sampler) {
      if (!draw.samplers.includes(row.name)) throw new Error(`sampler row '${row.name}' is not in this draw`);
      out.set(key(row), device.createSampler({
        magFilter: 'nearest', minFilter: 'nearest', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge',
      }));
    } else {
      throw new Error(`row '${row.name}' is a ${KIND_NAMES[row.kind]}, which this test does not bind`);
    }
  }
  return out;
}

/* The bind group layouts of the entries' rows alone, and their groups over the run's resources. */
function bind(run, entries) {
  const bound = resources(run, entries);
  const layouts = [], bindGroups = [];
  bindGroupLayoutDescriptors(entries).forEach((descriptor, space) => {
    const layout = device.createBindGroupLayout(descriptor);
    const members = descriptor.entries.map(({ binding }) => {
      const resource = bound.get(`${space}/${binding}`);
      if (!resource) throw new Error(`group ${space}, binding ${binding} has no resource`);
      return { binding, resource };
    });
    layouts.push(layout);
    bindGroups.push(device.createBindGroup({ layout, entries: members }));
  });
  return { bound, layouts, bindGroups };
}

async function shaderModule(entry) {
  const code = new TextDecoder().decode(await verifyBlob(entry.code));
  const module = device.createShaderModule({ code, label: entry.name });
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  if (errors.length)
    throw new Error(`entry '${entry.name}': the WGSL does not compile: ` +
      errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; '));
  return module;
}

const SIZE = 4;

/* Draws; resolves to the target's texels as floats (row by row, 4 channels each). */
async function render(draw, vs, fs_) {
  const { layouts, bindGroups } = bind(draw, [vs, fs_]);
  const count = draw.vertices[0].data.length / Number(draw.vertices[0].format.slice(-1));
  const vertexBuffers = draw.vertices.map((v) => {
    const buffer = device.createBuffer({
      size: v.data.length * 4, usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(buffer, 0, new Float32Array(v.data));
    return buffer;
  });
  const pipeline = await device.createRenderPipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    vertex: {
      module: await shaderModule(vs), entryPoint: vs.name,
      buffers: draw.vertices.map((v) => ({
        arrayStride: 4 * Number(v.format.slice(-1)),
        attributes: [{ shaderLocation: v.location, offset: 0, format: v.format }],
      })),
    },
    fragment: { module: await shaderModule(fs_), entryPoint: fs_.name, targets: [{ format: 'rgba32float' }] },
    primitive: { topology: 'triangle-list' },
  });
  const target = device.createTexture({
    size: [SIZE, SIZE], format: 'rgba32float', usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const rowBytes = 256; // bytesPerRow's alignment; a row is 4 * 16 bytes
  const staging = device.createBuffer({
    size: rowBytes * SIZE, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: NONE }],
  });
  pass.setPipeline(pipeline);
  bindGroups.forEach((g, i) => pass.setBindGroup(i, g));
  vertexBuffers.forEach((b, i) => pass.setVertexBuffer(i, b));
  pass.draw(count);
  pass.end();
  encoder.copyTextureToBuffer({ texture: target }, { buffer: staging, bytesPerRow: rowBytes }, [SIZE, SIZE]);
  device.queue.submit([encoder.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const mapped = new Float32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  const texels = [];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const at = y * rowBytes / 4 + x * 4;
      texels.push([...mapped.subarray(at, at + 4)]);
    }
  }
  return texels;
}

/* Null when the texels are the expected ones, else the differences. */
function compare(draw, texels) {
  const bad = [];
  texels.forEach((t, i) => {
    const want = draw.expected[i];
    if (t.some((v, c) => !(Math.abs(v - want[c]) <= draw.tolerance)))
      bad.push(`texel (${i % SIZE}, ${Math.floor(i / SIZE)}): got (${t.join(', ')}), expected (${want.join(', ')})`);
  });
  return bad.length ? `${bad.length} of ${texels.length} texels differ; ${bad.slice(0, 3).join('; ')}` : null;
}

/* Runs a draw inside a validation error scope: resolves to null, or why it failed. */
async function run(draw, vs, fs_) {
  device.pushErrorScope('validation');
  let why = null;
  try {
    why = compare(draw, await render(draw, vs, fs_));
  } catch (e) {
    why = e.message;
  }
  const invalid = await device.popErrorScope();
  if (invalid) why = `validation: ${invalid.message.split('\n')[0]}${why ? `; ${why}` : ''}`;
  return why;
}

// ---- tampered tables --------------------------------------------------------

const withRows = (entry, change) => ({ ...entry, params: entry.params.map(change) });

/* The draw's entries with one row changed in every entry that has it, and what changed. */
function tamperings(vs, fs_) {
  const out = [];
  const blocks = uniformBlocks([vs, fs_]);
  for (const [where, block] of blocks) {
    for (const row of block.values) {
      const offset = row.offset + row.size + 4 <= block.size ? row.offset + 4 : row.offset - 4;
      const change = (r) => (r.kind === KIND.value && r.name === row.name ? { ...r, offset } : r);
      out.push({
        what: `value '${row.name}' at ${offset}, not ${row.offset}`,
        entries: [vs, fs_].map((e) => withRows(e, change)),
      });
    }
    const end = Math.max(...block.values.map((r) => r.offset + r.size));
    const ub = [vs, fs_].flatMap((e) => e.params).find((r) => r.kind === KIND.uniform_buffer && key(r) === where);
    if (ub && ub.size > end) {
      const change = (r) => (r.kind === KIND.uniform_buffer && r.name === ub.name ? { ...r, size: end } : r);
      out.push({
        what: `uniform_buffer '${ub.name}' of ${end} bytes (its fields' end), not ${ub.size}`,
        entries: [vs, fs_].map((e) => withRows(e, change)),
      });
    }
  }
  return out;
}

// ---- main -------------------------------------------------------------------

let passed = 0, failed = 0, caught = 0, missed = 0;
for (const draw of DRAWS) {
  const label = `${draw.bundle} ${draw.vertex} + ${draw.fragment}`;
  let vs, fs_;
  try {
    const file = path.join(bundleDir, `${draw.bundle}.dgpb`);
    const target = findTarget(readBundle(new Uint8Array(fs.readFileSync(file))), 'wgsl');
    if (!target) throw new Error(`${file} has no wgsl target`);
    vs = findEntry(target, draw.vertex);
    fs_ = findEntry(target, draw.fragment);
    if (!vs || !fs_) throw new Error(`${file} lacks wgsl entry '${vs ? draw.fragment : draw.vertex}'`);
  } catch (e) {
    failed++;
    console.log(`${label}: FAILED ${e.message}`);
    continue;
  }
  if (tamper) {
    // The draw as the table has it must pass, or a failure proves nothing.
    const untouched = await run(draw, vs, fs_);
    if (untouched) {
      failed++;
      console.log(`${label}: FAILED untampered: ${untouched}`);
      continue;
    }
    for (const t of tamperings(vs, fs_)) {
      const why = await run(draw, ...t.entries);
      if (why) caught++;
      else missed++;
      console.log(`${label}, ${t.what}: ${why ? `caught: ${why}` : 'NOT CAUGHT: the draw matches'}`);
    }
    continue;
  }
  const why = await run(draw, vs, fs_);
  if (why) {
    failed++;
    console.log(`${label}: FAILED ${why}`);
  } else {
    passed++;
    const covered = draw.expected.filter((t) => t !== NONE).length;
    console.log(`${label}: ${SIZE * SIZE} texels as expected (${covered} drawn)` +
      `${draw.tolerance ? `, within ${draw.tolerance}` : ', exact'}`);
  }
}
for (const d of tamper ? [] : DISPATCHES) {
  const label = `${d.bundle} ${d.entry}`;
  let why;
  try {
    const file = path.join(bundleDir, `${d.bundle}.dgpb`);
    const target = findTarget(readBundle(new Uint8Array(fs.readFileSync(file))), 'wgsl');
    const entry = target && findEntry(target, d.entry);
    why = entry ? await dispatch(d, entry) : `${file} lacks wgsl entry '${d.entry}'`;
  } catch (e) {
    why = e.message;
  }
  if (why) failed++;
  else passed++;
  console.log(`${label}: ${why ? `FAILED ${why}` : `${d.read} as expected, exact`}`);
}
if (tamper) {
  console.log(`tampered tables: ${caught} caught, ${missed} not caught, ${failed} failed otherwise`);
  process.exit(missed || failed || !caught ? 1 : 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
