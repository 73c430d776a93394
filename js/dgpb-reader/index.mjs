// dgpb-reader - reads DGPB v0 shader bundles (docs/format.md) in a browser or
// in Node, and turns an entry's parameter table into WebGPU bind group layouts.
//
// readBundle() validates the whole bundle before it returns anything, with the
// same checks in the same order as the C reader (src/reader.c): the first rule
// a bundle breaks throws a DgpbError whose code is the C reader's result detail
// and whose message and byte offset are the C reader's (`dgpb-dump --verify`
// prints the same text). Blobs are views into the caller's bytes, never
// copies; their SHA-256 is checked by verifyBlob() (WebCrypto) before a host
// hands code to a driver. README.md is the manual.
//
// The module uses nothing but the language and globalThis.crypto.subtle, so it
// runs unchanged in browsers and in Node 20 or later.

/** The format version this reader knows. */
export const FORMAT_VERSION = 0;
/** The longest string a bundle may hold, in bytes. */
export const MAX_STRING = 4096;
/** The largest bundle: offsets are u32. */
export const MAX_BUNDLE_SIZE = 0xffffffff;
/** The most bind groups bindGroupLayoutDescriptors() builds (a space beyond is refused). */
export const MAX_BIND_GROUPS = 32;
/** The space of a pipeline constant row (a WGSL override; binding = its @id). */
export const PIPELINE_CONSTANT_SPACE = 0xfffffffe;
/** The space of a shader record's value row (ray tracing: data in the shader binding table). */
export const SHADER_RECORD_SPACE = 0xfffffffd;

/** Parameter kinds by name (GpuArgKind numbering, docs/format.md "Parameter kinds"). */
export const KIND = Object.freeze({
  value: 0,
  uniform_buffer: 1,
  buffer: 2,
  rw_buffer: 3,
  byte_buffer: 4,
  rw_byte_buffer: 5,
  texture: 6,
  rw_texture: 7,
  sampler: 8,
  acceleration_structure: 9,
  mlp_weights: 10,
  handle: 11,
  texture_sampler: 12,
  input_attachment: 13,
  texel_buffer: 14,
  rw_texel_buffer: 15,
});
/** Parameter kind names by number. */
export const KIND_NAMES = Object.freeze(Object.keys(KIND));

/** Parameter flag bits (docs/format.md "Flags"). */
export const FLAG = Object.freeze({
  read_only: 0x1, written: 0x2, shared_binding: 0x4, unbounded: 0x8, absent: 0x10,
});
// Every flag bit (dgpb/format.h's DGPB_FLAG_ALL).
const FLAG_ALL = Object.values(FLAG).reduce((all, bit) => all | bit, 0);

/** Stage names (docs/format.md "Stages"). */
export const STAGES = Object.freeze([
  'compute', 'vertex', 'fragment', 'raygeneration', 'closesthit', 'anyhit', 'miss',
  'intersection', 'callable', 'mesh', 'amplification', 'geometry', 'hull', 'domain',
]);

/** The stages whose entries have a thread group size, each of the three at least 1; the others' is 0,0,0. */
export const THREAD_GROUP_STAGES = Object.freeze(['compute', 'mesh', 'amplification']);

/** Capability names, sorted: the order a bundle lists them in. */
export const CAPABILITIES = Object.freeze([
  'atomic64', 'atomic_float', 'buffer_address', 'clip_distance', 'compute_derivatives',
  'cooperative_matrix', 'cooperative_vector', 'cull_distance', 'demote_to_helper',
  'descriptor_handle', 'draw_parameters', 'dynamic_index_input_attachment',
  'dynamic_index_sampled_image', 'dynamic_index_storage_buffer', 'dynamic_index_storage_image',
  'dynamic_index_storage_texel_buffer', 'dynamic_index_uniform_buffer',
  'dynamic_index_uniform_texel_buffer', 'float64', 'fragment_barycentric',
  'fragment_fully_covered', 'fragment_shading_rate', 'geometry', 'half', 'image_cube_array',
  'image_formats', 'image_gather_extended', 'image_without_format', 'int16', 'int64', 'int8',
  'integer_dot_product', 'memory_model', 'mesh_shader', 'min_lod', 'multiview',
  'nonuniform_index_input_attachment', 'nonuniform_index_sampled_image',
  'nonuniform_index_storage_buffer', 'nonuniform_index_storage_image',
  'nonuniform_index_storage_texel_buffer', 'nonuniform_index_uniform_buffer',
  'nonuniform_index_uniform_texel_buffer', 'point_size', 'ray_position_fetch', 'rayquery',
  'raytracing', 'replicated_composites', 'sample_rate_shading', 'shader_clock', 'sparse_residency',
  'stencil_export', 'storage_16bit', 'storage_8bit', 'storage_image_multisample', 'subgroup_basic',
  'tessellation', 'viewport_index_layer',
]);

/**
 * The project options a bundle may record (docs/format.md "The options
 * record"), sorted: the order a record lists them in.
 */
export const OPTIONS = Object.freeze(['block_layout', 'debug_info', 'matrix_layout', 'optimization',
  'slang_capabilities', 'spirv_version']);
/**
 * The block layouts of --block-layout, the default first: a record's
 * block_layout is one of the others.
 */
export const BLOCK_LAYOUTS = Object.freeze(['default', 'scalar', 'gl', 'c']);
/** The levels of --optimization (-O0 to -O3), Slang's default first: never recorded. */
export const OPTIMIZATION_LEVELS = Object.freeze(['1', '0', '2', '3']);
/** The levels of --debug-info (-g0 to -g3), the default first: never recorded. */
export const DEBUG_INFO_LEVELS = Object.freeze(['0', '1', '2', '3']);
/** The magic of the options record at the start of the data section. */
export const OPTIONS_MAGIC = 'DGPO';
/** The longest Slang capability name an options record holds. */
export const SLANG_CAPABILITY_MAX = 128;
/** The SPIR-V versions a record's spirv_version may be. */
export const SPIRV_VERSIONS = Object.freeze(['1.3', '1.4', '1.5', '1.6']);

/** Target names, sorted. */
export const TARGETS = Object.freeze(['dxbc', 'dxil', 'metal', 'ptx', 'spirv', 'wgsl']);

/** The code formats a target's code may have (docs/format.md "Targets and backends"). */
export const CODE_FORMATS = Object.freeze({
  dxbc: Object.freeze(['dxbc']),
  dxil: Object.freeze(['dxil']),
  metal: Object.freeze(['metallib', 'msl']),
  ptx: Object.freeze(['ptx']),
  spirv: Object.freeze(['spirv']),
  wgsl: Object.freeze(['wgsl']),
});

/** The target each backend consumes (dgpb_bundle_find_backend()). */
export const BACKEND_TARGET = Object.freeze({
  Dx12: 'dxil', Dx11: 'dxbc', Vulkan: 'spirv', Metal: 'metal', Cuda: 'ptx', WebGpu: 'wgsl',
});

/** WebGPU binding-layout IDs by name (docs/format.md "WebGPU binding-layout IDs"). */
export const WEBGPU_LAYOUT = Object.freeze({
  none: 0,
  uniform_buffer: 1,
  read_only_storage_buffer: 2,
  storage_buffer: 3,
  filtering_sampler: 4,
  texture_2d_float: 5,
  storage_texture_2d_r32float: 6,
  storage_texture_2d_rg32float: 7,
  storage_texture_2d_rgba32float: 8,
  storage_texture_2d_r32uint: 9,
  texture_2d_float_filtering_sampler: 10,
  non_filtering_sampler: 11,
  comparison_sampler: 12,
});
/** The IDs' descriptions by number, as the C reader's messages name them. */
export const WEBGPU_LAYOUT_NAMES = Object.freeze([
  'none',
  'uniform buffer',
  'read-only storage buffer',
  'storage buffer',
  'filtering sampler',
  '2d float sampled texture',
  '2d read-write r32float storage texture',
  '2d read-write rg32float storage texture',
  '2d read-write rgba32float storage texture',
  '2d read-write r32uint storage texture',
  '2d float sampled texture at binding, filtering sampler at binding + 1',
  'non-filtering sampler',
  'comparison sampler',
]);

/**
 * The first IDs made from a row's shape (docs/format.md "WebGPU binding-layout
 * IDs"): sampled textures first + view * 8 + sample * 2 + multisampled;
 * texture_samplers first + view * 8 + sample * 2 + comparison; storage
 * textures first + format * 32 + access * 8 + view.
 */
export const WEBGPU_RANGES = Object.freeze({ sampled_texture: 32, texture_sampler: 96, storage_texture: 256 });
/** WebGPU's view dimensions by number, each [dimension, arrayed]. */
export const WEBGPU_VIEWS = Object.freeze(['1d', '2d', '2d-array', 'cube', 'cube-array', '3d']);
const VIEW_SHAPE = [[1, 0], [2, 0], [2, 1], [4, 0], [4, 1], [3, 0]];
/** WebGPU's texture sample types by number, each a SAMPLE_TYPES value. */
export const WEBGPU_SAMPLES = Object.freeze(['float', 'depth', 'sint', 'uint']);
const SAMPLE_OF = [1, 4, 2, 3];
const TABLE_STORAGE = { r32float: 6, rg32float: 7, rgba32float: 8, r32uint: 9 };

function viewOf(shape) {
  const dim = shape & 0xf, arrayed = shape & 0x10 ? 1 : 0;
  return VIEW_SHAPE.findIndex(([d, a]) => d === dim && a === arrayed);
}

/** The WebGPU binding-layout ID of a row of `kind` and `shape` (dgpb_webgpu_layout_for()); 0: none. */
export function webgpuLayoutFor(kind, shape) {
  const view = viewOf(shape);
  const sample = SAMPLE_OF.indexOf(((shape & 0xf00) >>> 8) || 1);
  const ms = shape & 0x20 ? 1 : 0, cmp = shape & 0x40 ? 1 : 0;
  switch (kind) {
    case KIND.sampler: return cmp ? 12 : 4;
    case KIND.texture: {
      if (view < 0 || sample < 0 || (ms && view !== 1)) return 0;
      const id = 32 + view * 8 + sample * 2 + ms;
      return id === 40 ? 5 : id;
    }
    case KIND.texture_sampler: {
      if (view < 0 || sample < 0 || ms) return 0;
      const id = 96 + view * 8 + sample * 2 + cmp;
      return id === 104 ? 10 : id;
    }
    case KIND.rw_texture: {
      const format = (shape & 0xff0000) >>> 16, access = (shape & 0x3000000) >>> 24;
      if (view < 0 || ms || !format || !access || (shape & 0xf) === 4 || !TEXEL_FORMATS[format]) return 0;
      if (view === 1 && access === 3 && TABLE_STORAGE[TEXEL_FORMATS[format]]) return TABLE_STORAGE[TEXEL_FORMATS[format]];
      return 256 + format * 32 + access * 8 + view;
    }
    case KIND.value: case KIND.uniform_buffer: return 1;
    case KIND.buffer: case KIND.byte_buffer: return 2;
    case KIND.rw_buffer: case KIND.rw_byte_buffer: return 3;
    default: return 0;
  }
}

/** What an ID describes: { kind, shape } (dgpb_webgpu_layout_decode()), or null when unknown. */
export function decodeWebgpuLayout(id) {
  const F = 1 << 8;
  const fixed = {
    1: [KIND.uniform_buffer, 0], 2: [KIND.buffer, 0], 3: [KIND.rw_buffer, 0], 4: [KIND.sampler, 0],
    5: [KIND.texture, 2 | F], 10: [KIND.texture_sampler, 2 | F], 11: [KIND.sampler, 0], 12: [KIND.sampler, 0x40],
  };
  if (fixed[id]) return { kind: fixed[id][0], shape: fixed[id][1] };
  for (const [format, n] of Object.entries(TABLE_STORAGE))
    if (n === id) {
      const f = TEXEL_FORMATS.indexOf(format);
      return { kind: KIND.rw_texture, shape: 2 | (texelSampleType(f) << 8) | (f << 16) | (3 << 24) };
    }
  let kind, shape;
  if (id >= 32 && id < 32 + 48) {
    const n = id - 32, [d, a] = VIEW_SHAPE[n >> 3];
    kind = KIND.texture;
    shape = d | (a << 4) | (SAMPLE_OF[(n & 7) >> 1] << 8) | (n & 1 ? 0x20 : 0);
  } else if (id >= 96 && id < 96 + 48) {
    const n = id - 96, [d, a] = VIEW_SHAPE[n >> 3];
    kind = KIND.texture_sampler;
    shape = d | (a << 4) | (SAMPLE_OF[(n & 7) >> 1] << 8) | (n & 1 ? 0x40 : 0);
  } else if (id >= 256 + 32) {
    const n = id - 256, format = n >> 5, access = (n & 31) >> 3, view = n & 7;
    if (!TEXEL_FORMATS[format] || !access || view >= VIEW_SHAPE.length) return null;
    const [d, a] = VIEW_SHAPE[view];
    kind = KIND.rw_texture;
    shape = d | (a << 4) | (texelSampleType(format) << 8) | (format << 16) | (access << 24);
  } else {
    return null;
  }
  return webgpuLayoutFor(kind, shape) === id ? { kind, shape } : null;
}

/** An ID spelled as dgpb_webgpu_layout_text() spells it ("cube float sampled texture"). */
export function webgpuLayoutText(id) {
  if (id < WEBGPU_LAYOUT_NAMES.length) return WEBGPU_LAYOUT_NAMES[id];
  const d = decodeWebgpuLayout(id);
  if (!d) return 'unknown';
  const view = WEBGPU_VIEWS[viewOf(d.shape)];
  const sample = WEBGPU_SAMPLES[SAMPLE_OF.indexOf(((d.shape & 0xf00) >>> 8) || 1)];
  if (d.kind === KIND.texture) return `${view} ${sample} sampled texture${d.shape & 0x20 ? ', multisampled' : ''}`;
  if (d.kind === KIND.texture_sampler)
    return `${view} ${sample} sampled texture at binding, ${d.shape & 0x40 ? 'comparison' : 'filtering'} sampler at binding + 1`;
  return `${view} ${SHAPE_ACCESS[(d.shape & 0x3000000) >>> 24]} ${TEXEL_FORMATS[(d.shape & 0xff0000) >>> 16]} storage texture`;
}

/** The kinds whose rows carry a shape word in `offset` (docs/format.md "Shapes"). */
export const SHAPED_KINDS = Object.freeze([KIND.texture, KIND.rw_texture, KIND.sampler, KIND.texture_sampler,
  KIND.input_attachment, KIND.texel_buffer, KIND.rw_texel_buffer]);
/** The resource kinds whose rows carry a byte count in `size`, and which (docs/format.md). */
export const SIZED_KINDS = Object.freeze({
  [KIND.uniform_buffer]: "its block's byte size",
  [KIND.buffer]: 'its element stride',
  [KIND.rw_buffer]: 'its element stride',
});
/* The kinds WebGPU cannot bind: no row of them on wgsl (spirv only). */
const NO_WEBGPU_KINDS = [KIND.input_attachment, KIND.texel_buffer, KIND.rw_texel_buffer];
/** A shape word's fields (docs/format.md "Shapes"). */
export const SHAPE = Object.freeze({
  DIM_MASK: 0xf, ARRAYED: 0x10, MULTISAMPLED: 0x20, COMPARISON: 0x40,
  SAMPLE_SHIFT: 8, SAMPLE_MASK: 0xf00, FORMAT_SHIFT: 16, FORMAT_MASK: 0xff0000,
  ACCESS_SHIFT: 24, ACCESS_MASK: 0x3000000, ATTACHMENT_SHIFT: 26, ATTACHMENT_MASK: 0xfc000000,
});
const SHAPE_ALL = 0xffff0f7f; // every field above
/** Dimensions by number: a shape word's bits 0..3 (`buffer` a texel buffer's, `subpass` an input attachment's). */
export const SHAPE_DIMENSIONS = Object.freeze(['none', '1d', '2d', '3d', 'cube', 'buffer', 'subpass']);
const DIM_BUFFER = 5, DIM_SUBPASS = 6;
/** Sample types by number: bits 8..11. */
export const SAMPLE_TYPES = Object.freeze(['none', 'float', 'sint', 'uint', 'depth']);
/** Storage access modes by number: bits 24..25 (0: neither a storage texture nor a storage texel buffer). */
export const SHAPE_ACCESS = Object.freeze([null, 'read', 'write', 'read_write']);
/** Texel formats by number (SPIR-V's ImageFormat enumerants; WebGPU's names): bits 16..23. */
export const TEXEL_FORMATS = Object.freeze([null,
  'rgba32float', 'rgba16float', 'r32float', 'rgba8unorm', 'rgba8snorm', 'rg32float', 'rg16float',
  'rg11b10ufloat', 'r16float', 'rgba16unorm', 'rgb10a2unorm', 'rg16unorm', 'rg8unorm', 'r16unorm',
  'r8unorm', 'rgba16snorm', 'rg16snorm', 'rg8snorm', 'r16snorm', 'r8snorm', 'rgba32sint',
  'rgba16sint', 'rgba8sint', 'r32sint', 'rg32sint', 'rg16sint', 'rg8sint', 'r16sint', 'r8sint',
  'rgba32uint', 'rgba16uint', 'rgba8uint', 'r32uint', 'rgb10a2uint', 'rg32uint', 'rg16uint',
  'rg8uint', 'r16uint', 'r8uint', 'r64uint', 'r64sint']);
const TIER1 = 'texture-formats-tier1', TIER2 = 'texture-formats-tier2';
/**
 * What a WebGPU device must offer for a storage texture of each texel format
 * (by number, as TEXEL_FORMATS): [read-only or write-only, read-write], each
 * '' when every device offers it, the GPUFeatureName that offers it, or null
 * when no device does (vocabulary.def's DGPB_TEXEL_FORMAT storage and
 * read_write).
 */
export const TEXEL_FORMAT_STORAGE = Object.freeze([null,
  ['', TIER2], ['', TIER2], ['', ''], ['', TIER2], ['', null], ['', null], [TIER1, null],
  [TIER1, null], [TIER1, TIER2], [TIER1, null], [TIER1, null], [TIER1, null], [TIER1, null], [TIER1, null],
  [TIER1, TIER2], [TIER1, null], [TIER1, null], [TIER1, null], [TIER1, null], [TIER1, null], ['', TIER2],
  ['', TIER2], ['', TIER2], ['', ''], ['', null], [TIER1, null], [TIER1, null], [TIER1, TIER2], [TIER1, TIER2],
  ['', TIER2], ['', TIER2], ['', TIER2], ['', ''], [TIER1, null], ['', null], [TIER1, null],
  [TIER1, null], [TIER1, TIER2], [TIER1, TIER2], [null, null], [null, null]].map((x) => x && Object.freeze(x)));

/**
 * What a WebGPU device must offer for a storage texture of texel format
 * `format` accessed `access` (1 read, 2 write, 3 read_write;
 * dgpb_webgpu_storage_feature()): '' when every device offers it, the
 * GPUFeatureName, or null when no device does or the format is unknown.
 */
export function webgpuStorageFeature(format, access) {
  const f = TEXEL_FORMAT_STORAGE[format];
  if (!f || access < 1 || access > 3) return null;
  return f[access === 3 ? 1 : 0];
}

/* The sample type each texel format returns (1 float, 2 sint, 3 uint). */
function texelSampleType(format) {
  if (format >= 21 && format <= 29) return 2;
  if (format === 41) return 2;
  if (format >= 30 && format <= 40) return 3;
  return format ? 1 : 0;
}

/**
 * A shape word decoded: { dimension, arrayed, multisampled, comparison,
 * sampleType, format, access, attachment, text } (docs/format.md "Shapes");
 * `attachment` is an input attachment's index (null for other dimensions),
 * `text` the spelling of the JSON view and the listings.
 */
export function decodeShape(shape) {
  const dim = shape & SHAPE.DIM_MASK;
  const sample = (shape & SHAPE.SAMPLE_MASK) >>> SHAPE.SAMPLE_SHIFT;
  const format = (shape & SHAPE.FORMAT_MASK) >>> SHAPE.FORMAT_SHIFT;
  const access = (shape & SHAPE.ACCESS_MASK) >>> SHAPE.ACCESS_SHIFT;
  return {
    dimension: SHAPE_DIMENSIONS[dim] ?? null,
    arrayed: (shape & SHAPE.ARRAYED) !== 0,
    multisampled: (shape & SHAPE.MULTISAMPLED) !== 0,
    comparison: (shape & SHAPE.COMPARISON) !== 0,
    sampleType: SAMPLE_TYPES[sample] ?? null,
    format: TEXEL_FORMATS[format] ?? null,
    access: SHAPE_ACCESS[access] ?? null,
    attachment: dim === DIM_SUBPASS ? (shape & SHAPE.ATTACHMENT_MASK) >>> SHAPE.ATTACHMENT_SHIFT : null,
    text: shapeText(shape),
  };
}

/** A shape word spelled as dgpb_shape_text() spells it ("cube float", "2d_array uint", "none"). */
export function shapeText(shape) {
  const parts = [];
  const dim = shape & SHAPE.DIM_MASK;
  const sample = (shape & SHAPE.SAMPLE_MASK) >>> SHAPE.SAMPLE_SHIFT;
  const format = (shape & SHAPE.FORMAT_MASK) >>> SHAPE.FORMAT_SHIFT;
  const access = (shape & SHAPE.ACCESS_MASK) >>> SHAPE.ACCESS_SHIFT;
  if (dim)
    parts.push(`${SHAPE_DIMENSIONS[dim] ?? '?'}${shape & SHAPE.ARRAYED ? '_array' : ''}${shape & SHAPE.MULTISAMPLED ? ' ms' : ''}`);
  if (sample) parts.push(SAMPLE_TYPES[sample] ?? '?');
  if (format) parts.push(TEXEL_FORMATS[format] ?? '?');
  if (access) parts.push(SHAPE_ACCESS[access]);
  if (shape & SHAPE.COMPARISON) parts.push('comparison');
  const attachment = (shape & SHAPE.ATTACHMENT_MASK) >>> SHAPE.ATTACHMENT_SHIFT;
  if (dim === DIM_SUBPASS || attachment) parts.push(`attachment ${attachment}`);
  const extra = (shape & ~SHAPE_ALL) >>> 0;
  if (extra) parts.push(`0x${extra.toString(16)}`);
  return parts.length ? parts.join(' ') : 'none';
}

/* Why a shape word does not fit a row of `kind` (the C reader's shape_rule()), or null. */
function shapeRule(kind, shape) {
  const dim = shape & SHAPE.DIM_MASK;
  const sample = (shape & SHAPE.SAMPLE_MASK) >>> SHAPE.SAMPLE_SHIFT;
  const format = (shape & SHAPE.FORMAT_MASK) >>> SHAPE.FORMAT_SHIFT;
  const access = (shape & SHAPE.ACCESS_MASK) >>> SHAPE.ACCESS_SHIFT;
  const texelBuffer = kind === KIND.texel_buffer || kind === KIND.rw_texel_buffer;
  let why = null;
  if ((shape & ~SHAPE_ALL) >>> 0) why = 'unknown bits';
  else if (dim >= SHAPE_DIMENSIONS.length) why = 'an unknown dimension';
  else if (sample >= SAMPLE_TYPES.length) why = 'an unknown sample type';
  else if (format && !TEXEL_FORMATS[format]) why = 'an unknown texel format';
  else if (kind === KIND.sampler && (shape & ~SHAPE.COMPARISON)) why = 'texture fields on a sampler';
  else if (kind !== KIND.sampler && shape && !dim) why = 'no dimension';
  else if (shape && (dim === DIM_SUBPASS) !== (kind === KIND.input_attachment))
    why = kind === KIND.input_attachment ? 'a dimension other than subpass' : 'the dimension of an input attachment';
  else if (shape && (dim === DIM_BUFFER) !== texelBuffer)
    why = texelBuffer ? 'a dimension other than buffer' : 'the dimension of a texel buffer';
  else if ((shape & SHAPE.ATTACHMENT_MASK) && kind !== KIND.input_attachment)
    why = 'an attachment index on a parameter that is not an input attachment';
  else if ((shape & SHAPE.MULTISAMPLED) && dim !== 2 && dim !== DIM_SUBPASS) why = 'multisampling of a texture that is not 2d';
  else if ((shape & SHAPE.ARRAYED) && (dim === 3 || dim === DIM_BUFFER || dim === DIM_SUBPASS))
    why = dim === 3 ? 'an array of 3d textures' : 'layers (arrayed)';
  else if (![KIND.sampler, KIND.texture, KIND.texture_sampler].includes(kind) && (shape & SHAPE.COMPARISON))
    why = kind === KIND.rw_texture ? 'comparison on a storage texture' : 'comparison on a parameter no sampler reads';
  else if (sample === 4 && (texelBuffer || kind === KIND.input_attachment))
    why = 'the depth sample type on a parameter no sampler reads';
  else if (kind !== KIND.rw_texture && kind !== KIND.rw_texel_buffer && access)
    why = 'an access mode on a texture that is not a storage texture';
  else if (kind !== KIND.rw_texture && !texelBuffer && format) why = 'a texel format on a texture that is not a storage texture';
  else if (format && sample && texelSampleType(format) !== sample) why = 'a sample type its texel format does not return';
  if (!why) return null;
  return `shape 0x${(shape >>> 0).toString(16)} (${shapeText(shape)}) of a ${KIND_NAMES[kind]} parameter has ${why}`;
}

/** GPUShaderStage's bits (the WebGPU constants, usable where GPUShaderStage is not defined). */
export const SHADER_STAGE = Object.freeze({ VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 });


/*
 * The GPUBindGroupLayoutEntry member (without binding and visibility) that an
 * ID describes, as a fresh object; null for ID 0 and for IDs outside the table.
 */
export function webgpuPairedSamplerEntry(id) {
  const d = decodeWebgpuLayout(id);
  if (!d || d.kind !== KIND.texture_sampler) return null;
  return { sampler: { type: d.shape & 0x40 ? 'comparison' : 'filtering' } };
}

/*
 * The GPUBindGroupLayoutEntry member (without binding and visibility) that an
 * ID describes, as a fresh object; null for ID 0 and for IDs outside the table.
 * For ID 10 (a combined texture-sampler) it is the texture's; the sampler at
 * the next binding is webgpuPairedSamplerEntry(10).
 */
export function webgpuLayoutEntry(id) {
  switch (id) {
    case 1: return { buffer: { type: 'uniform' } };
    case 2: return { buffer: { type: 'read-only-storage' } };
    case 3: return { buffer: { type: 'storage' } };
    case 4: return { sampler: { type: 'filtering' } };
    case 11: return { sampler: { type: 'non-filtering' } };
    case 12: return { sampler: { type: 'comparison' } };
    default: break;
  }
  const d = decodeWebgpuLayout(id);
  if (!d) return null;
  const viewDimension = WEBGPU_VIEWS[viewOf(d.shape)];
  if (d.kind === KIND.rw_texture) {
    const access = { 1: 'read-only', 2: 'write-only', 3: 'read-write' }[(d.shape & 0x3000000) >>> 24];
    return { storageTexture: { access, format: TEXEL_FORMATS[(d.shape & 0xff0000) >>> 16], viewDimension } };
  }
  // A texture, or the texture of a combined texture-sampler (its sampler, at binding + 1, is
  // webgpuPairedSamplerEntry()).
  const sampleType = WEBGPU_SAMPLES[SAMPLE_OF.indexOf(((d.shape & 0xf00) >>> 8) || 1)];
  return { texture: { sampleType, viewDimension, multisampled: (d.shape & 0x20) !== 0 } };
}

/** The error readBundle(), verifyBlob() and verifyBundle() throw for a bad bundle. */
export class DgpbError extends Error {
  /**
   * @param {string} code truncated | magic | version | range | string | order | value | hash | limit
   * @param {number} offset the byte offset in the bundle where the problem was found, or -1
   * @param {string} message what is wrong, naming target, entry and parameter
   */
  constructor(code, offset, message) {
    super(message);
    this.name = 'DgpbError';
    this.code = code;
    this.offset = offset;
  }
}

// Smallest encodings, to bound counts before allocating (as the C reader does).
const MIN_STRING = 5;
const BLOB_REF_SIZE = 40;
const MIN_TARGET = 2 * MIN_STRING + 8;
const MIN_ENTRY = 2 * MIN_STRING + 4 + BLOB_REF_SIZE + 12 + 8;
const MIN_PARAM = MIN_STRING + 28;
// The C reader keeps its context ("target 'wgsl', entry 'k'") in 512 bytes and a
// blob's name for hash messages in 600: longer ones are cut to 511 and 599 bytes.
const CTX_MAX = 511;
const BLOB_WHAT_MAX = 599;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/* Cuts a string to at most `max` bytes of UTF-8, as a C buffer of max + 1 bytes would. */
function clip(s, max) {
  if (s.length <= max / 3) return s;
  const b = utf8Encoder.encode(s);
  return b.length <= max ? s : utf8Decoder.decode(b.subarray(0, max));
}

/*
 * Strict UTF-8 as the format defines it: no NUL, no overlong forms, no
 * surrogates, nothing above U+10FFFF. Returns -1 when valid, else the index of
 * the sequence that is not.
 */
function utf8Invalid(s, from, len) {
  let i = 0;
  while (i < len) {
    const c = s[from + i];
    let n, cp, min;
    if (c === 0) return i;
    if (c < 0x80) {
      i++;
      continue;
    } else if ((c & 0xe0) === 0xc0) {
      n = 2; cp = c & 0x1f; min = 0x80;
    } else if ((c & 0xf0) === 0xe0) {
      n = 3; cp = c & 0x0f; min = 0x800;
    } else if ((c & 0xf8) === 0xf0) {
      n = 4; cp = c & 0x07; min = 0x10000;
    } else {
      return i;
    }
    if (len - i < n) return i;
    for (let k = 1; k < n; k++) {
      const d = s[from + i + k];
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n;
  }
  return -1;
}

function hex(bytes) {
  let s = '';
  for (const b of bytes) s += (b < 16 ? '0' : '') + b.toString(16);
  return s;
}

/* Byte-order comparison of two byte ranges (memcmp, then length). */
function compareBytes(bytes, a, b) {
  const n = Math.min(a.len, b.len);
  for (let i = 0; i < n; i++) {
    const d = bytes[a.at + i] - bytes[b.at + i];
    if (d) return d;
  }
  return a.len - b.len;
}

/*
 * The first duplicate of a list of names as the C reader finds it: the
 * smallest name (byte order) that occurs twice, at its second occurrence.
 */
function findDuplicate(bytes, names) {
  const order = names.map((_, i) => i);
  order.sort((x, y) => compareBytes(bytes, names[x], names[y]) || x - y);
  for (let i = 1; i < order.length; i++)
    if (compareBytes(bytes, names[order[i - 1]], names[order[i]]) === 0) return names[order[i]];
  return null;
}

// The kinds that always carry read_only (dgpb_kind_required_flags()).
const READ_ONLY_KINDS = new Set([KIND.value, KIND.uniform_buffer, KIND.buffer, KIND.byte_buffer,
  KIND.texture, KIND.sampler, KIND.acceleration_structure, KIND.texture_sampler, KIND.input_attachment,
  KIND.texel_buffer]);

/* The rules for one parameter row (dgpb_param_rule()): null, or why it is wrong. */
function paramRule(kind, flags, space, binding, offset, size, id, wgsl) {
  if (kind >= KIND_NAMES.length) return `unknown parameter kind ${kind}`;
  if (flags & ~FLAG_ALL) return `unknown flag bits 0x${((flags & ~FLAG_ALL) >>> 0).toString(16)}`;
  if (flags & FLAG.absent) {
    return flags === FLAG.absent && !space && !binding && !offset && !size && !id ? null
      : 'a row absent from the target\'s code has no other flag, and its space, binding, offset, '
        + 'size and webgpu_layout are 0';
  }
  if ((flags & FLAG.read_only) && (flags & FLAG.written)) return 'flags say both read-only and written';
  if ((flags & FLAG.unbounded) && [KIND.value, KIND.handle, KIND.mlp_weights].includes(kind))
    return `a ${KIND_NAMES[kind]} parameter cannot be an unbounded array`;
  if ((flags & FLAG.shared_binding) && kind !== KIND.texture && kind !== KIND.sampler)
    return `a ${KIND_NAMES[kind]} parameter cannot share its binding (only a texture and a sampler can)`;
  if (READ_ONLY_KINDS.has(kind) && !(flags & FLAG.read_only))
    return `a ${KIND_NAMES[kind]} parameter must be flagged read-only`;
  // A structured buffer's size is its element stride, a uniform buffer's its block's size.
  const sized = SIZED_KINDS[kind];
  const shaped = SHAPED_KINDS.includes(kind);
  if (kind !== KIND.value && ((offset !== 0 && !shaped) || (size !== 0 && !sized)))
    return `a ${KIND_NAMES[kind]} parameter must have ${shaped ? 'its shape in offset' : 'offset 0'} and size 0${sized ? ` or ${sized}` : ''}`;
  if (shaped) {
    const why = shapeRule(kind, offset);
    if (why) return why;
  }
  if (kind === KIND.value && size === 0) return 'a value parameter must have a non-zero size';
  if (kind === KIND.value && offset + size > 0xffffffff) return "a value parameter's offset + size overflows";
  const shape = shaped ? offset : 0;
  if (!webgpuLayoutAllowed(kind, shape, id, wgsl)) {
    if (wgsl && NO_WEBGPU_KINDS.includes(kind))
      return `${KIND_NAMES[kind]} parameters have no place on wgsl: WebGPU cannot bind them (spirv only)`;
    if (id && !decodeWebgpuLayout(id)) return `unknown webgpu_layout id ${id}`;
    if (!wgsl) return `webgpu_layout ${id} on a target other than wgsl (must be 0)`;
    if (shape) return `webgpu_layout ${id} (${webgpuLayoutText(id)}) does not describe a ${KIND_NAMES[kind]} parameter of shape ${shapeText(shape)}`;
    return `webgpu_layout ${id} (${webgpuLayoutText(id)}) does not describe a ${KIND_NAMES[kind]} parameter`;
  }
  return null;
}

function webgpuLayoutAllowed(kind, shape, id, wgsl) {
  if (!wgsl) return id === 0;
  if (NO_WEBGPU_KINDS.includes(kind)) return false; // no row of the kind on wgsl, whatever its ID
  if (!SHAPED_KINDS.includes(kind)) return id === webgpuLayoutFor(kind, 0);
  const d = decodeWebgpuLayout(id);
  if (!d || d.kind !== kind) return false;
  if (!shape) return true; // not stated: any descriptor of the kind
  return id === webgpuLayoutFor(kind, shape) || (kind === KIND.sampler && id === 11 && !(shape & 0x40));
}

/* The bounds-checked cursor over the header tables; `end` is header_size. */
class Cursor {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = 0;
    this.end = bytes.length;
    this.dataLen = 0;
    this.dataEndMax = 0;
    this.dataStartMin = 0;
    this.region = 'the header'; // what `end` ends, for messages
    this.ctx = '';
  }

  /* Every failure goes through here: one place to break on a bad bundle. */
  corrupt(code, at, msg) {
    const ctx = clip(this.ctx, CTX_MAX);
    return new DgpbError(code, at, ctx ? `${ctx}: ${msg}` : msg);
  }

  u32(what) {
    if (this.end - this.pos < 4)
      throw this.corrupt('truncated', this.pos,
        `truncated: ${what} needs 4 bytes but ${this.region} ends at byte ${this.end}`);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  /* A string as { text, at, len }: `at` is where its bytes start. */
  str(what) {
    const at = this.pos;
    const len = this.u32(what);
    if (len === 0) throw this.corrupt('string', at, `${what} is an empty string`);
    if (len > MAX_STRING)
      throw this.corrupt('string', at, `${what} is ${len} bytes long (limit ${MAX_STRING})`);
    if (this.end - this.pos < len)
      throw this.corrupt('truncated', at,
        `truncated: ${what} of ${len} bytes runs past ${this.region}'s end at byte ${this.end}`);
    const bad = utf8Invalid(this.bytes, this.pos, len);
    if (bad >= 0)
      throw this.corrupt('string', this.pos + bad, `${what} is not valid UTF-8 (or contains NUL)`);
    const s = { text: utf8Decoder.decode(this.bytes.subarray(this.pos, this.pos + len)), at: this.pos, len };
    this.pos += len;
    return s;
  }

  blob(what, label) {
    const at = this.pos;
    const offset = this.u32(what);
    const size = this.u32(what);
    if (this.end - this.pos < 32)
      throw this.corrupt('truncated', this.pos,
        `truncated: sha256 of ${what} runs past the header's end at byte ${this.end}`);
    const sha256 = hex(this.bytes.subarray(this.pos, this.pos + 32));
    this.pos += 32;
    if (size === 0) throw this.corrupt('range', at, `${what} is empty`);
    const blobEnd = offset + size; // exact: both are below 2^32
    if (blobEnd > this.dataLen)
      throw this.corrupt('range', at,
        `${what} (offset ${offset}, size ${size}) ends past the data section (${this.dataLen} bytes)`);
    if (blobEnd > this.dataEndMax) this.dataEndMax = blobEnd;
    if (offset < this.dataStartMin) this.dataStartMin = offset;
    const start = this.end + offset;
    return {
      offset, size, sha256,
      data: this.bytes.subarray(start, start + size),
      fileOffset: start,
      label: clip(label, BLOB_WHAT_MAX),
    };
  }

  checkCount(count, min, at, what) {
    if (count * min > this.end - this.pos)
      throw this.corrupt('range', at,
        `${what} is ${count}, more than the ${this.end - this.pos} bytes left in the header can hold`);
  }
}

function readParam(c, wgsl) {
  const at = c.pos;
  const name = c.str('parameter name');
  c.ctx += ` '${name.text}'`;
  const kind = c.u32('kind');
  const flags = c.u32('flags');
  const space = c.u32('space');
  const binding = c.u32('binding');
  const offset = c.u32('offset');
  const size = c.u32('size');
  const webgpuLayout = c.u32('webgpu_layout');
  // A pipeline constant is no bind-group entry: webgpu_layout 0 on wgsl too.
  const why = paramRule(kind, flags, space, binding, offset, size, webgpuLayout,
    wgsl && space !== PIPELINE_CONSTANT_SPACE);
  if (why) throw c.corrupt('value', at, why);
  return {
    param: {
      name: name.text, kind, kindName: KIND_NAMES[kind], flags, space, binding, offset, size, webgpuLayout,
      ...(SHAPED_KINDS.includes(kind) ? { shape: decodeShape(offset) } : {}),
    },
    name,
  };
}

function readEntry(c, t, layoutCount) {
  const keep = c.ctx;
  const name = c.str('entry name');
  c.ctx = `${keep}, entry '${name.text}'`;
  let at = c.pos;
  const stage = c.str('stage').text;
  if (!STAGES.includes(stage)) throw c.corrupt('value', at, `unknown stage '${stage}'`);
  at = c.pos;
  const layout = c.u32('layout');
  if (layoutCount === 0 ? layout !== 0 : layout >= layoutCount)
    throw c.corrupt('range', at, `layout index ${layout} but the target has ${layoutCount} layouts`);
  const code = c.blob('code blob', `target '${t.name}', entry '${name.text}', code blob`);
  at = c.pos;
  const threadGroupSize = [c.u32('thread_group_size'), c.u32('thread_group_size'), c.u32('thread_group_size')];
  if (THREAD_GROUP_STAGES.includes(stage)) {
    if (threadGroupSize.includes(0))
      throw c.corrupt('value', at, `stage '${stage}' needs a thread group size of at least 1 in each dimension`);
  } else if (threadGroupSize.some((n) => n !== 0)) {
    throw c.corrupt('value', at, `stage '${stage}' has no thread group size: it must be 0,0,0`);
  }

  at = c.pos;
  const paramCount = c.u32('param_count');
  c.checkCount(paramCount, MIN_PARAM, at, 'param_count');
  const wgsl = t.name === 'wgsl';
  const keepEntry = c.ctx;
  const params = [], names = [];
  for (let i = 0; i < paramCount; i++) {
    c.ctx = `${keepEntry}, parameter ${i}`;
    const r = readParam(c, wgsl);
    params.push(r.param);
    names.push(r.name);
  }
  c.ctx = keepEntry;
  const dup = findDuplicate(c.bytes, names);
  if (dup) throw c.corrupt('value', dup.at, `parameter '${dup.text}' listed twice`);

  at = c.pos;
  const capabilityCount = c.u32('capability_count');
  if (capabilityCount > CAPABILITIES.length)
    throw c.corrupt('range', at,
      `capability_count is ${capabilityCount} but only ${CAPABILITIES.length} capabilities exist`);
  const capabilities = [];
  let prev = -1;
  for (let i = 0; i < capabilityCount; i++) {
    at = c.pos;
    const cap = c.str('capability').text;
    const id = CAPABILITIES.indexOf(cap);
    if (id < 0) throw c.corrupt('value', at, `unknown capability '${cap}'`);
    if (id <= prev)
      throw c.corrupt('order', at, `capability '${cap}' is out of order or repeated (they must be sorted)`);
    prev = id;
    capabilities.push(cap);
  }
  c.ctx = keep;
  return { entry: { name: name.text, stage, layout, code, threadGroupSize, params, capabilities }, name };
}

function readTarget(c, prev) {
  let at = c.pos;
  const name = c.str('target name').text;
  if (!TARGETS.includes(name)) throw c.corrupt('value', at, `unknown target '${name}'`);
  if (prev && prev.name >= name) // known names are ASCII: string order is byte order
    throw c.corrupt('order', at,
      `target '${name}' follows '${prev.name}': targets must be sorted by name and unique`);
  const ctx = `target '${name}'`;
  c.ctx = ctx;
  at = c.pos;
  const codeFormat = c.str('code_format').text;
  if (!CODE_FORMATS[name].includes(codeFormat)) throw c.corrupt('value', at, `code format '${codeFormat}' is not allowed`);
  at = c.pos;
  const layoutCount = c.u32('layout_count');
  c.checkCount(layoutCount, BLOB_REF_SIZE, at, 'layout_count');
  const target = { name, codeFormat, layouts: [], entries: [] };
  for (let i = 0; i < layoutCount; i++) {
    c.ctx = `${ctx}, layout ${i}`;
    target.layouts.push(c.blob('layout blob', `${ctx}, layout ${i}`));
  }
  c.ctx = ctx;
  at = c.pos;
  const entryCount = c.u32('entry_count');
  c.checkCount(entryCount, MIN_ENTRY, at, 'entry_count');
  if (entryCount === 0) throw c.corrupt('value', at, 'the target has no entries');
  const names = [];
  for (let i = 0; i < entryCount; i++) {
    c.ctx = ctx;
    const r = readEntry(c, target, layoutCount);
    target.entries.push(r.entry);
    names.push(r.name);
  }
  c.ctx = ctx;
  const dup = findDuplicate(c.bytes, names);
  if (dup) throw c.corrupt('value', dup.at, `entry '${dup.text}' listed twice`);
  return target;
}

/* dgpb_slang_capability_valid(): a letter or '_', then letters, digits and '_'. */
function slangCapabilityValid(name) {
  return name.length > 0 && name.length <= SLANG_CAPABILITY_MAX && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/* format.c's not_one_of(): the values but the first, which is the default. */
function notOneOf(option, value, values) {
  return `${option} is '${clip(value, 40)}', not one of ${values.slice(1).join(', ')} ` +
    `(${values[0]}, the default, is never recorded)`;
}

/* dgpb_option_rule(): null when a record may hold `value` for `option`, else the C reader's reason. */
function optionRule(option, value) {
  switch (option) {
    case 'block_layout':
      return BLOCK_LAYOUTS.indexOf(value) > 0 ? null : notOneOf(option, value, BLOCK_LAYOUTS);
    case 'debug_info':
      return DEBUG_INFO_LEVELS.indexOf(value) > 0 ? null : notOneOf(option, value, DEBUG_INFO_LEVELS);
    case 'optimization':
      return OPTIMIZATION_LEVELS.indexOf(value) > 0 ? null : notOneOf(option, value, OPTIMIZATION_LEVELS);
    case 'matrix_layout':
      return value === 'column' ? null
        : `matrix_layout is '${clip(value, 40)}', not 'column' (row, the default, is never recorded)`;
    case 'spirv_version':
      return SPIRV_VERSIONS.includes(value) ? null
        : `spirv_version is '${clip(value, 40)}', not one of 1.3, 1.4, 1.5, 1.6`;
    case 'slang_capabilities': {
      let prev = null;
      for (const name of value.split(',')) {
        if (!slangCapabilityValid(name))
          return `slang_capabilities: '${clip(name, 60)}' is no Slang capability name`;
        if (prev !== null && prev >= name) // ASCII names: string order is byte order
          return `slang_capabilities: '${clip(name, 60)}' follows '${clip(prev, 60)}': the names must be sorted and unique`;
        prev = name;
      }
      return null;
    }
    default:
      return `unknown option ${option}`;
  }
}

/*
 * The options record: the bytes before the first byte a blob references,
 * "DGPO", a count, then each option's name and value (the C reader's rd_options).
 */
function readOptions(c, headerSize) {
  const options = {};
  const start = headerSize, recordEnd = headerSize + c.dataStartMin;
  if (recordEnd === start) return options;
  c.ctx = 'options record';
  c.end = recordEnd;
  c.region = 'the options record';
  c.pos = start;
  const b = c.bytes;
  if (recordEnd - start < 4 || b[start] !== 0x44 || b[start + 1] !== 0x47 || b[start + 2] !== 0x50 ||
      b[start + 3] !== 0x4f)
    throw c.corrupt('range', start,
      `${recordEnd - start} bytes before the first blob are no options record (no "${OPTIONS_MAGIC}")`);
  c.pos += 4;
  let at = c.pos;
  const count = c.u32('option_count');
  if (count === 0 || count > OPTIONS.length)
    throw c.corrupt('range', at, `option_count is ${count}, not from 1 to the ${OPTIONS.length} options there are`);
  let prev = -1;
  for (let i = 0; i < count; i++) {
    at = c.pos;
    const name = c.str('option name').text;
    const id = OPTIONS.indexOf(name);
    if (id < 0) throw c.corrupt('value', at, `unknown option '${name}'`);
    if (id <= prev) throw c.corrupt('order', at, `option '${name}' is out of order or repeated (they must be sorted)`);
    prev = id;
    at = c.pos;
    const value = c.str('option value').text;
    const why = optionRule(name, value);
    if (why) throw c.corrupt('value', at, why);
    options[name] = name === 'slang_capabilities' ? Object.freeze(value.split(',')) : value;
  }
  if (c.pos !== recordEnd)
    throw c.corrupt('range', c.pos, `${recordEnd - c.pos} bytes between the options record and the first blob`);
  return options;
}

function toBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('readBundle: expected a Uint8Array, an ArrayBuffer or an ArrayBuffer view');
}

/**
 * Validates a bundle and returns its model. Throws a DgpbError on the first
 * rule the bytes break (the C reader's message, code and offset). Blob `data`
 * are views into `bytes`: keep them unchanged while the model is in use.
 * SHA-256 is not checked here: call verifyBlob() (or verifyBundle()).
 */
export function readBundle(input) {
  const bytes = toBytes(input);
  const size = bytes.length;
  const c = new Cursor(bytes);
  if (size > MAX_BUNDLE_SIZE) throw new DgpbError('limit', -1, `bundle of ${size} bytes exceeds 4 GiB`);
  if (size < 4) throw c.corrupt('truncated', 0, `truncated: ${size} bytes, too short for the magic`);
  if (bytes[0] !== 0x44 || bytes[1] !== 0x47 || bytes[2] !== 0x50 || bytes[3] !== 0x42)
    throw c.corrupt('magic', 0, 'not a DGPB bundle: bad magic');
  c.pos = 4;
  const version = c.u32('version');
  if (version !== FORMAT_VERSION)
    throw c.corrupt('version', 4, `unsupported version ${version} (this reader knows version ${FORMAT_VERSION})`);
  const headerSize = c.u32('header_size');
  if (headerSize < 16 || headerSize > size)
    throw c.corrupt(headerSize > size ? 'truncated' : 'range', 8,
      `header_size is ${headerSize} but the bundle has ${size} bytes`);
  c.end = headerSize;
  c.dataLen = size - headerSize;
  c.dataStartMin = c.dataLen;
  const at = c.pos;
  const targetCount = c.u32('target_count');
  c.checkCount(targetCount, MIN_TARGET, at, 'target_count');
  const targets = [];
  for (let i = 0; i < targetCount; i++) {
    c.ctx = '';
    targets.push(readTarget(c, i ? targets[i - 1] : null));
  }
  c.ctx = '';
  if (c.pos !== headerSize)
    throw c.corrupt('range', c.pos, `header_size is ${headerSize} but the tables end at byte ${c.pos}`);
  if (c.dataEndMax !== c.dataLen)
    throw c.corrupt('range', headerSize + c.dataEndMax,
      `${c.dataLen - c.dataEndMax} bytes after the last blob (the data section must end with it)`);
  const options = readOptions(c, headerSize);
  return { version, headerSize, dataSize: c.dataLen, size, options, targets };
}

function subtle() {
  const s = globalThis.crypto && globalThis.crypto.subtle;
  if (!s)
    throw new Error('dgpb-reader: WebCrypto (crypto.subtle) is not available: browsers offer it in secure contexts (https, localhost) only; Node needs version 20 or later');
  return s;
}

/**
 * Hashes a blob with WebCrypto and compares it with its stored SHA-256.
 * Resolves to the blob's bytes; rejects with a DgpbError (code 'hash') naming
 * the blob on a mismatch.
 */
export async function verifyBlob(blob) {
  const digest = new Uint8Array(await subtle().digest('SHA-256', blob.data));
  const got = hex(digest);
  if (got !== blob.sha256) {
    const msg = `sha-256 mismatch: stored ${blob.sha256}, content hashes to ${got}`;
    throw new DgpbError('hash', blob.fileOffset ?? -1, blob.label ? `${blob.label}: ${msg}` : msg);
  }
  return blob.data;
}

/**
 * Verifies every blob of a bundle in the C reader's order (per target: its
 * layouts, then each entry's code) and rejects with the first mismatch, as
 * `dgpb-dump --verify` reports it. Resolves to the bundle.
 */
export async function verifyBundle(bundle) {
  const blobs = [];
  for (const t of bundle.targets) blobs.push(...t.layouts, ...t.entries.map((e) => e.code));
  const results = await Promise.allSettled(blobs.map((b) => verifyBlob(b)));
  for (const r of results) if (r.status === 'rejected') throw r.reason;
  return bundle;
}

/** The target of that name, or null. */
export function findTarget(bundle, name) {
  return bundle.targets.find((t) => t.name === name) ?? null;
}

/** The target a backend consumes (WebGpu: wgsl; see BACKEND_TARGET), or null. */
export function findBackend(bundle, backend) {
  const name = BACKEND_TARGET[backend];
  if (!name) throw new RangeError(`unknown backend '${backend}' (known: ${Object.keys(BACKEND_TARGET).join(', ')})`);
  return findTarget(bundle, name);
}

/** The entry of that name in a target, or null. */
export function findEntry(target, name) {
  return target.entries.find((e) => e.name === name) ?? null;
}

/**
 * The GPUShaderStage bits of a stage name; throws RangeError for the stages
 * WebGPU lacks (ray tracing, mesh, amplification, geometry, hull, domain).
 */
export function stageVisibility(stage) {
  switch (stage) {
    case 'compute': return SHADER_STAGE.COMPUTE;
    case 'vertex': return SHADER_STAGE.VERTEX;
    case 'fragment': return SHADER_STAGE.FRAGMENT;
    default: throw new RangeError(`stage '${stage}' has no WebGPU shader stage`);
  }
}

/**
 * The GPUBindGroupLayoutDescriptor of every bind group (space) 0..max that the
 * entries' rows use, from their webgpu_layout IDs: one layout entry per
 * (space, binding) - the value rows of a uniform block share one - whose
 * visibility is the union of the stages of the entries that list it
 * (`visibilityFor(entry)` overrides an entry's bits). Pipeline constants
 * (space PIPELINE_CONSTANT_SPACE) are no bind-group entries and are left out:
 * a host sets them in GPUProgrammableStage.constants, keyed by their binding
 * (the override's @id). So are `absent` rows (FLAG.absent: the target's code
 * lacks the parameter). A group no row uses gets
 * an empty layout, so indices are group numbers. Entries are sorted by binding.
 * Throws RangeError for a row without a WebGPU descriptor (ID 0: acceleration
 * structures, MLP weights, bindless handles, and every row off the wgsl
 * target), a space of MAX_BIND_GROUPS or more, or two rows that put different
 * descriptors on one binding.
 */
export function bindGroupLayoutDescriptors(entries, visibilityFor) {
  const list = Array.isArray(entries) ? entries : [entries];
  const groups = [];
  for (const entry of list) {
    const visibility = visibilityFor ? visibilityFor(entry) : stageVisibility(entry.stage);
    for (const row of entry.params) {
      if (row.space === PIPELINE_CONSTANT_SPACE) continue; // set in the pipeline's `constants`
      if (row.flags & FLAG.absent) continue; // not in this target's code: nothing to bind
      const where = `entry '${entry.name}', parameter '${row.name}'`;
      const member = webgpuLayoutEntry(row.webgpuLayout);
      if (!member)
        throw new RangeError(`${where} (${row.kindName ?? KIND_NAMES[row.kind]}) has no WebGPU binding (webgpu_layout ${row.webgpuLayout})`);
      if (row.space >= MAX_BIND_GROUPS)
        throw new RangeError(`${where} is in group ${row.space}; at most ${MAX_BIND_GROUPS} groups are built`);
      while (groups.length <= row.space) groups.push(new Map());
      const group = groups[row.space];
      // A combined texture-sampler is two entries: its texture, then its sampler at binding + 1.
      const paired = webgpuPairedSamplerEntry(row.webgpuLayout);
      const parts = [[row.binding, member, row.webgpuLayout]];
      if (paired) parts.push([row.binding + 1, paired, -row.webgpuLayout]);
      for (const [binding, part, id] of parts) {
        const had = group.get(binding);
        if (!had) {
          group.set(binding, { id, where, layout: { binding, visibility, ...part } });
        } else if (had.id !== id) {
          const name = (n) => (n < 0 ? `the sampler of ${-n} (${WEBGPU_LAYOUT_NAMES[-n]})` : `${n} (${WEBGPU_LAYOUT_NAMES[n]})`);
          throw new RangeError(`${where} puts webgpu_layout ${name(id)} on group ${row.space}, binding ${binding}, where ${had.where} has ${name(had.id)}`);
        } else {
          had.layout.visibility |= visibility;
        }
      }
    }
  }
  return groups.map((g) => ({
    entries: [...g.values()].map((b) => b.layout).sort((a, b) => a.binding - b.binding),
  }));
}

const CAPABILITY_FEATURE = { half: 'shader-f16', subgroup_basic: 'subgroups' };
const ACCESS_TEXT = [null, 'read-only', 'write-only', 'read-write'];

/**
 * What a device must offer for the entries to run on WebGPU: `features`, the
 * GPUFeatureName values to request (shader-f16 for `half`, subgroups for
 * `subgroup_basic`, and for every storage texture the feature its format and
 * access need: texture-formats-tier2 for a read-write rgba32float or
 * rgba16float, texture-formats-tier1 for an r8unorm one; TEXEL_FORMAT_STORAGE),
 * and `unsupported`, a reason for each capability or binding that no WebGPU
 * feature provides (every capability but `half` and `subgroup_basic`:
 * float64, int64, atomic64, cooperative matrices and vectors, bindless handles,
 * ray tracing and ray queries, ...; a read-write rg32float or rgba8snorm
 * storage texture). A wgsl entry's capabilities come from its `enable` directives, so they
 * are only ever those two. A host reports an entry with an unsupported reason, or whose features
 * the adapter lacks, as not runnable, naming the reason.
 */
export function webgpuRequirements(entries) {
  const list = Array.isArray(entries) ? entries : [entries];
  const features = new Set(), unsupported = [];
  for (const entry of list) {
    for (const cap of entry.capabilities) {
      if (CAPABILITY_FEATURE[cap]) features.add(CAPABILITY_FEATURE[cap]);
      else unsupported.push(`entry '${entry.name}' needs capability '${cap}', which WebGPU does not offer`);
    }
    for (const row of entry.params) {
      const d = decodeWebgpuLayout(row.webgpuLayout);
      if (!d || d.kind !== KIND.rw_texture) continue;
      const format = (d.shape & SHAPE.FORMAT_MASK) >>> SHAPE.FORMAT_SHIFT;
      const access = (d.shape & SHAPE.ACCESS_MASK) >>> SHAPE.ACCESS_SHIFT;
      const feature = webgpuStorageFeature(format, access);
      if (feature) features.add(feature);
      else if (feature === null)
        unsupported.push(`entry '${entry.name}', parameter '${row.name}': WebGPU has no ${ACCESS_TEXT[access]} ${TEXEL_FORMATS[format]} storage texture (no feature provides one)`);
    }
  }
  return { features: [...features].sort(), unsupported };
}
