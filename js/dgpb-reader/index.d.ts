// Types of dgpb-reader (index.mjs): a strict reader of DGPB v0 shader bundles
// (docs/format.md) and WebGPU bind group layouts from their parameter tables.
// The WebGPU descriptor types are written out here, so that the package needs
// no @webgpu/types; they are structurally compatible with those.

/** The format version this reader knows (0). */
export declare const FORMAT_VERSION: 0;
/** The longest string a bundle may hold, in bytes (4096). */
export declare const MAX_STRING: 4096;
/** The largest bundle, in bytes (0xFFFFFFFF): offsets are u32. */
export declare const MAX_BUNDLE_SIZE: 4294967295;
/** The most bind groups bindGroupLayoutDescriptors() builds (32). */
export declare const MAX_BIND_GROUPS: 32;
/** The space of a pipeline constant row (a WGSL override; binding = its @id). */
export declare const PIPELINE_CONSTANT_SPACE: 0xfffffffe;
export declare const SHADER_RECORD_SPACE: 0xfffffffd;

/** Parameter kind names, by number (docs/format.md "Parameter kinds"). */
export type KindName =
  | 'value'
  | 'uniform_buffer'
  | 'buffer'
  | 'rw_buffer'
  | 'byte_buffer'
  | 'rw_byte_buffer'
  | 'texture'
  | 'rw_texture'
  | 'sampler'
  | 'acceleration_structure'
  | 'mlp_weights'
  | 'handle'
  | 'texture_sampler'
  | 'input_attachment'
  | 'texel_buffer'
  | 'rw_texel_buffer';

/** Parameter kinds by name (GpuArgKind numbering). */
export declare const KIND: Readonly<{
  value: 0;
  uniform_buffer: 1;
  buffer: 2;
  rw_buffer: 3;
  byte_buffer: 4;
  rw_byte_buffer: 5;
  texture: 6;
  rw_texture: 7;
  sampler: 8;
  acceleration_structure: 9;
  mlp_weights: 10;
  handle: 11;
  texture_sampler: 12;
  input_attachment: 13;
  texel_buffer: 14;
  rw_texel_buffer: 15;
}>;
/** Parameter kind names by number: KIND_NAMES[KIND.sampler] === 'sampler'. */
export declare const KIND_NAMES: readonly KindName[];

/** Parameter flag bits (docs/format.md "Flags"). */
export declare const FLAG: Readonly<{ read_only: 1; written: 2; shared_binding: 4; unbounded: 8; absent: 16; }>;

export type StageName =
  | 'compute'
  | 'vertex'
  | 'fragment'
  | 'raygeneration'
  | 'closesthit'
  | 'anyhit'
  | 'miss'
  | 'intersection'
  | 'callable'
  | 'mesh'
  | 'amplification'
  | 'geometry'
  | 'hull'
  | 'domain';
/** Stage names (docs/format.md "Stages"). */
export declare const STAGES: readonly StageName[];
/** The stages whose entries have a thread group size (each at least 1); the others' is [0, 0, 0]. */
export declare const THREAD_GROUP_STAGES: readonly ('compute' | 'mesh' | 'amplification')[];

export type CapabilityName =
  | 'atomic64'
  | 'atomic_float'
  | 'buffer_address'
  | 'clip_distance'
  | 'compute_derivatives'
  | 'cooperative_matrix'
  | 'cooperative_vector'
  | 'cull_distance'
  | 'demote_to_helper'
  | 'descriptor_handle'
  | 'draw_parameters'
  | 'dynamic_index_input_attachment'
  | 'dynamic_index_sampled_image'
  | 'dynamic_index_storage_buffer'
  | 'dynamic_index_storage_image'
  | 'dynamic_index_storage_texel_buffer'
  | 'dynamic_index_uniform_buffer'
  | 'dynamic_index_uniform_texel_buffer'
  | 'float64'
  | 'fragment_barycentric'
  | 'fragment_fully_covered'
  | 'fragment_shading_rate'
  | 'geometry'
  | 'half'
  | 'image_cube_array'
  | 'image_formats'
  | 'image_gather_extended'
  | 'image_without_format'
  | 'int16'
  | 'int64'
  | 'int8'
  | 'integer_dot_product'
  | 'memory_model'
  | 'mesh_shader'
  | 'min_lod'
  | 'multiview'
  | 'nonuniform_index_input_attachment'
  | 'nonuniform_index_sampled_image'
  | 'nonuniform_index_storage_buffer'
  | 'nonuniform_index_storage_image'
  | 'nonuniform_index_storage_texel_buffer'
  | 'nonuniform_index_uniform_buffer'
  | 'nonuniform_index_uniform_texel_buffer'
  | 'point_size'
  | 'ray_position_fetch'
  | 'rayquery'
  | 'raytracing'
  | 'replicated_composites'
  | 'sample_rate_shading'
  | 'shader_clock'
  | 'sparse_residency'
  | 'stencil_export'
  | 'storage_16bit'
  | 'storage_8bit'
  | 'storage_image_multisample'
  | 'subgroup_basic'
  | 'tessellation'
  | 'viewport_index_layer';
/** Capability names, sorted (the order an entry lists them in). */
export declare const CAPABILITIES: readonly CapabilityName[];

export type TargetName = 'dxbc' | 'dxil' | 'metal' | 'ptx' | 'spirv' | 'wgsl';
/** Target names, sorted. */
export declare const TARGETS: readonly TargetName[];

/** The code formats a target's code may have (metal: metallib or msl; the others their own name). */
export declare const CODE_FORMATS: Readonly<Record<TargetName, readonly string[]>>;

export type BackendName = 'Dx12' | 'Dx11' | 'Vulkan' | 'Metal' | 'Cuda' | 'WebGpu';
/** The target each backend consumes. */
export declare const BACKEND_TARGET: Readonly<Record<BackendName, TargetName>>;

/** WebGPU binding-layout IDs by name (docs/format.md "WebGPU binding-layout IDs"). */
export declare const WEBGPU_LAYOUT: Readonly<{
  none: 0;
  uniform_buffer: 1;
  read_only_storage_buffer: 2;
  storage_buffer: 3;
  filtering_sampler: 4;
  texture_2d_float: 5;
  storage_texture_2d_r32float: 6;
  storage_texture_2d_rg32float: 7;
  storage_texture_2d_rgba32float: 8;
  storage_texture_2d_r32uint: 9;
  texture_2d_float_filtering_sampler: 10;
  non_filtering_sampler: 11;
  comparison_sampler: 12;
}>;
/** The IDs' descriptions by number ('storage buffer', ...), as error messages name them. */
export declare const WEBGPU_LAYOUT_NAMES: readonly string[];

/** The project options a bundle may record, sorted. */
export declare const OPTIONS: readonly ['block_layout', 'debug_info', 'matrix_layout', 'optimization',
  'slang_capabilities', 'spirv_version'];
/** The block layouts of --block-layout, the default first. */
export declare const BLOCK_LAYOUTS: readonly ['default', 'scalar', 'gl', 'c'];
/** The levels of --optimization, Slang's default (1) first. */
export declare const OPTIMIZATION_LEVELS: readonly ['1', '0', '2', '3'];
/** The levels of --debug-info, the default (0) first. */
export declare const DEBUG_INFO_LEVELS: readonly ['0', '1', '2', '3'];
/** The magic of the options record at the start of the data section. */
export declare const OPTIONS_MAGIC: 'DGPO';
/** The longest Slang capability name an options record holds. */
export declare const SLANG_CAPABILITY_MAX: 128;
/** The SPIR-V versions a record's spirv_version may be. */
export declare const SPIRV_VERSIONS: readonly ['1.3', '1.4', '1.5', '1.6'];

/** GPUShaderStage's bits. */
export declare const SHADER_STAGE: Readonly<{ VERTEX: 0x1; FRAGMENT: 0x2; COMPUTE: 0x4 }>;

/** The kind of a DgpbError: the C reader's result detail (DGPB_ERR_CORRUPT_*, DGPB_ERR_LIMIT). */
export type DgpbErrorCode =
  | 'truncated'
  | 'magic'
  | 'version'
  | 'range'
  | 'string'
  | 'order'
  | 'value'
  | 'hash'
  | 'limit';

/** Thrown by readBundle(), and the rejection of verifyBlob() and verifyBundle(). */
export declare class DgpbError extends Error {
  constructor(code: DgpbErrorCode, offset: number, message: string);
  readonly name: 'DgpbError';
  /** What kind of rule the bundle breaks. */
  code: DgpbErrorCode;
  /** The byte offset in the bundle where the problem was found; -1 when none applies. */
  offset: number;
}

/** A blob reference: `size` bytes at `offset` in the data section, and their SHA-256. */
export interface Blob {
  /** Offset in the data section. */
  offset: number;
  size: number;
  /** The stored SHA-256, 64 lowercase hex digits. */
  sha256: string;
  /** The blob's bytes: a view into the bytes given to readBundle(), not a copy. */
  data: Uint8Array;
  /** Offset of the blob's bytes in the whole bundle (header_size + offset). */
  fileOffset: number;
  /** What the blob is, for messages: "target 'wgsl', entry 'k', code blob", "target 'spirv', layout 0". */
  label: string;
}

/** One parameter row (docs/format.md "Parameter kinds", "Where a row lives"). */
export interface Param {
  /** The row's name: a dotted path for flattened aggregates ('res.src'). */
  name: string;
  /** KIND value. */
  kind: number;
  kindName: KindName;
  /** FLAG bits. */
  flags: number;
  /** Descriptor set / group / register space; 0xFFFFFFFF: launch parameters. */
  space: number;
  binding: number;
  /** Value rows: byte offset in the uniform block; shaped rows (SHAPED_KINDS): their shape word; else 0. */
  offset: number;
  /** Value rows: byte size (non-zero); structured buffers: their element stride; else 0. */
  size: number;
  /** WEBGPU_LAYOUT value; 0 off wgsl. */
  webgpuLayout: number;
  /** Textures, storage textures, samplers, texture_samplers, input attachments and texel buffers:
      their shape word, decoded. */
  shape?: Shape;
}

/** A shape word decoded (docs/format.md "Shapes"). */
export interface Shape {
  dimension: 'none' | '1d' | '2d' | '3d' | 'cube' | 'buffer' | 'subpass' | null;
  arrayed: boolean;
  multisampled: boolean;
  /** The sampler (of a sampler or texture_sampler row) compares with a depth reference. */
  comparison: boolean;
  sampleType: 'none' | 'float' | 'sint' | 'uint' | 'depth' | null;
  /** Storage textures and texel buffers: the texel format the code declares (WebGPU's name);
      null unstated. */
  format: string | null;
  access: 'read' | 'write' | 'read_write' | null;
  /** Input attachments (dimension 'subpass'): the attachment index (InputAttachmentIndex); else null. */
  attachment: number | null;
  /** As the JSON view and the listings spell it: "cube float", "2d_array uint",
      "subpass float attachment 1", "none". */
  text: string;
}

/** The kinds whose rows carry a shape word in `offset`. */
export declare const SHAPED_KINDS: readonly number[];
/** The resource kinds whose rows carry a byte count in `size`: kind -> what it counts. */
export declare const SIZED_KINDS: Readonly<Record<number, string>>;
/** A shape word's bit fields. */
export declare const SHAPE: Readonly<{
  DIM_MASK: number; ARRAYED: number; MULTISAMPLED: number; COMPARISON: number;
  SAMPLE_SHIFT: number; SAMPLE_MASK: number; FORMAT_SHIFT: number; FORMAT_MASK: number;
  ACCESS_SHIFT: number; ACCESS_MASK: number; ATTACHMENT_SHIFT: number; ATTACHMENT_MASK: number;
}>;
export declare const SHAPE_DIMENSIONS: readonly string[];
export declare const SAMPLE_TYPES: readonly string[];
export declare const SHAPE_ACCESS: readonly (string | null)[];
/** Texel formats by SPIR-V ImageFormat number (index 0: null, unstated). */
export declare const TEXEL_FORMATS: readonly (string | null)[];
/** What a WebGPU device needs for a storage texture of each texel format: [read-only or write-only,
 *  read-write], '' for every device, a GPUFeatureName, or null for none. */
export declare const TEXEL_FORMAT_STORAGE: readonly (readonly [string | null, string | null] | null)[];
/** The feature a storage texture of `format` accessed `access` (1 read, 2 write, 3 read_write) needs:
 *  '' for none, a GPUFeatureName, or null when no WebGPU device offers it. */
export declare function webgpuStorageFeature(format: number, access: number): string | null;
export declare function decodeShape(shape: number): Shape;
export declare function shapeText(shape: number): string;
/** The sampler half of a combined texture-sampler ID (10), at binding + 1; null for other IDs. */
export declare function webgpuPairedSamplerEntry(id: number): BindingLayoutMember | null;
/** The first IDs made from shapes (docs/format.md "WebGPU binding-layout IDs"). */
export declare const WEBGPU_RANGES: Readonly<{ sampled_texture: 32; texture_sampler: 96; storage_texture: 256 }>;
/** GPUTextureViewDimension by number. */
export declare const WEBGPU_VIEWS: readonly string[];
/** GPUTextureSampleType by number. */
export declare const WEBGPU_SAMPLES: readonly string[];
/** The binding-layout ID of a row of `kind` and shape word `shape`; 0 when WebGPU has none. */
export declare function webgpuLayoutFor(kind: number, shape: number): number;
/** What an ID describes, or null when it is unknown. */
export declare function decodeWebgpuLayout(id: number): { kind: number; shape: number } | null;
/** An ID spelled for messages ("cube float sampled texture"). */
export declare function webgpuLayoutText(id: number): string;

export interface Entry {
  /** The entry point's function name (WGSL: the name to select). */
  name: string;
  stage: StageName;
  /** Index into the target's layouts (0 when it has none). */
  layout: number;
  code: Blob;
  /** Compute, mesh and amplification: each at least 1; other stages: [0, 0, 0]. */
  threadGroupSize: [number, number, number];
  /** Bindable parameters in parameter order; a row's index is what a bind command carries. */
  params: Param[];
  /** Sorted, unique. */
  capabilities: CapabilityName[];
}

export interface Target {
  name: TargetName;
  /** The target's name; metal: 'metallib' or 'msl'. */
  codeFormat: string;
  /** Recorded pipeline layouts, one per pipeline group. */
  layouts: Blob[];
  /** At least one, in declaration order. */
  entries: Entry[];
}

export interface Bundle {
  version: 0;
  /** The byte at which the data section starts. */
  headerSize: number;
  /** Bytes in the data section. */
  dataSize: number;
  /** Bytes in the whole bundle. */
  size: number;
  /**
   * The project options the bundle records (docs/format.md "The options
   * record"): only those that differ from their defaults (row-major matrices,
   * Slang's default SPIR-V version, no extra Slang capabilities, Slang's block
   * layouts, -O1, no debug information); {} when none.
   */
  options: BundleOptions;
  /** Sorted by name. */
  targets: Target[];
}

/** The options a bundle records; an absent key is the option's default. */
export interface BundleOptions {
  /** The block layout of the spirv target's code (dgpb-build --block-layout). */
  block_layout?: 'scalar' | 'gl' | 'c';
  /** The debug information every compile wrote (--debug-info, -g1 to -g3). */
  debug_info?: '1' | '2' | '3';
  /** 'column': the build compiled matrices column-major (dgpb-build --matrix-layout column). */
  matrix_layout?: 'column';
  /** The optimization level of every compile (--optimization, -O0, -O2, -O3). */
  optimization?: '0' | '2' | '3';
  /** Slang capabilities every compile was given (--capability), sorted. */
  slang_capabilities?: readonly string[];
  /** The SPIR-V version the spirv target was compiled for (--spirv-version). */
  spirv_version?: '1.3' | '1.4' | '1.5' | '1.6';
}

/**
 * Validates a whole bundle (every rule of docs/format.md except the blobs'
 * SHA-256) and returns its model. Throws DgpbError on the first rule broken,
 * with the C reader's message, code and offset. Blobs view `bytes`: keep them
 * unchanged while the model is in use.
 */
export declare function readBundle(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Bundle;

/**
 * Hashes the blob with WebCrypto (crypto.subtle) and resolves to its bytes;
 * rejects with DgpbError code 'hash' when they do not match the stored SHA-256.
 */
export declare function verifyBlob(blob: Blob): Promise<Uint8Array>;

/** Verifies every blob, in the C reader's order; rejects with the first mismatch. */
export declare function verifyBundle(bundle: Bundle): Promise<Bundle>;

/** The target of that name, or null. */
export declare function findTarget(bundle: Bundle, name: string): Target | null;
/** The target a backend consumes (WebGpu: wgsl), or null; RangeError for an unknown backend. */
export declare function findBackend(bundle: Bundle, backend: BackendName): Target | null;
/** The entry of that name, or null. */
export declare function findEntry(target: Target, name: string): Entry | null;

/** GPUShaderStage bits of a compute, vertex or fragment stage; RangeError for the others. */
export declare function stageVisibility(stage: string): number;

export type BufferBindingLayout = { type: 'uniform' | 'storage' | 'read-only-storage' };
export type SamplerBindingLayout = { type: 'filtering' };
export type TextureBindingLayout = { sampleType: 'float'; viewDimension: '2d'; multisampled: false };
export type StorageTextureBindingLayout = {
  access: 'read-write';
  format: 'r32float' | 'rg32float' | 'rgba32float' | 'r32uint';
  viewDimension: '2d';
};

/** The member of a GPUBindGroupLayoutEntry that a webgpu_layout ID describes (exactly one is set). */
export interface BindingLayoutMember {
  buffer?: BufferBindingLayout;
  sampler?: SamplerBindingLayout;
  texture?: TextureBindingLayout;
  storageTexture?: StorageTextureBindingLayout;
}

/** A GPUBindGroupLayoutEntry. */
export interface BindGroupLayoutEntry extends BindingLayoutMember {
  binding: number;
  /** GPUShaderStage bits. */
  visibility: number;
}

/** A GPUBindGroupLayoutDescriptor. */
export interface BindGroupLayoutDescriptor {
  entries: BindGroupLayoutEntry[];
}

/** The descriptor member for an ID (a fresh object), or null for 0 and unknown IDs. */
export declare function webgpuLayoutEntry(id: number): BindingLayoutMember | null;

/**
 * One GPUBindGroupLayoutDescriptor per group 0..max (empty ones for groups no
 * row uses), from the rows' webgpu_layout IDs; one layout entry per (space,
 * binding), visible to the stages of the entries that list it (or
 * `visibilityFor(entry)`), sorted by binding. Pass a vertex and a fragment
 * entry together for a render pipeline. RangeError for a row without a WebGPU
 * descriptor (ID 0), a group of MAX_BIND_GROUPS or more, or two different
 * descriptors on one binding.
 */
export declare function bindGroupLayoutDescriptors(
  entries: Entry | Entry[],
  visibilityFor?: (entry: Entry) => number,
): BindGroupLayoutDescriptor[];

/** What a device must offer to run entries on WebGPU. */
export interface WebgpuRequirements {
  /** GPUFeatureName values to request: 'shader-f16', 'subgroups', 'texture-formats-tier1', 'texture-formats-tier2'. */
  features: string[];
  /** Why they cannot run on any WebGPU device (a capability or binding no feature provides); empty when they can. */
  unsupported: string[];
}

/** The features entries need, and what WebGPU cannot offer them. */
export declare function webgpuRequirements(entries: Entry | Entry[]): WebgpuRequirements;
