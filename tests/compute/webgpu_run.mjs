// webgpu_run.mjs - the Slang-style compute suite's `//DGPB_RUN:` lines run on
// WebGPU: the run line read with the meaning dgpb-run gives it (docs/run.md),
// a resource made for every parameter row and bound by the row's space and
// binding, values typed from the entry's WGSL (wgsl_values.mjs), pipeline
// constants, the dispatch through the example host (examples/web/host.mjs),
// the outputs read back and compared with the `--expect` values.
//
// Browser-safe (no node: imports): run_dawn.mjs runs it on Dawn for Node and
// the example page (examples/web/index.html) in a browser, on the same
// bundles and with the same expectations.
//
//   const header = parseHeader(text);         // the module's //DGPB_RUN: and //DGPB_TARGETS:
//   const result = await runModule(header, loadBundle, { device, features, negative,
//                                  allowUnsupported, readInput });
//   // -> { passed } | { failed } | { skipped }; throws RunError for a bad run line
//
// loadBundle() resolves to the bundle's model (readBundle); readInput(file)
// returns the bytes of a file an `--in`/`--expect` names (the page has none:
// it throws).

import { findTarget, findEntry, webgpuRequirements } from '../../js/dgpb-reader/index.mjs';
import { verifiedCode, createComputeEntry, dispatch, workgroupsFor } from '../../examples/web/host.mjs';
import { valueType, blockSize, elementType, valueFields, leafPlace } from './wgsl_values.mjs';

/*
 * The optional features a runner requests where the adapter has them: those
 * webgpuRequirements() can ask for, and float32-filterable, which an r32float
 * texture bound as 'float' (webgpu_layout 5) needs.
 */
/* What each --texture dimension makes: GPUTextureDimension and GPUTextureViewDimension. */
const VIEW_OF_DIM = {
  '1d': { dimension: '1d', view: '1d' },
  '2d': { dimension: '2d', view: '2d' },
  '2d_array': { dimension: '2d', view: '2d-array' },
  cube: { dimension: '2d', view: 'cube' },
  '3d': { dimension: '3d', view: '3d' },
  cube_array: { dimension: '2d', view: 'cube-array' },
};

/* Point sampling, clamped (as dgpb-run's); a comparison sampler compares with less-equal. */
function samplerDescriptor(row) {
  const d = { magFilter: 'nearest', minFilter: 'nearest', addressModeU: 'clamp-to-edge', addressModeV: 'clamp-to-edge', addressModeW: 'clamp-to-edge' };
  if (row.shape && row.shape.comparison) d.compare = 'less-equal';
  return d;
}

export const OPTIONAL_FEATURES = Object.freeze(['shader-f16', 'subgroups', 'float32-filterable', 'texture-formats-tier1', 'texture-formats-tier2']);

/* An error in a module's run line or in binding it: the module fails with this message. */
export class RunError extends Error {}

// ---------------------------------------------------------------------------
// The module's header: `//DGPB_RUN:` lines (concatenated) and `//DGPB_TARGETS:`.

export function parseHeader(text) {
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

const TYPE_SIZE = { f16: 2, f32: 4, f64: 8, u8: 1, i8: 1, u16: 2, i16: 2, u32: 4, i32: 4, u64: 8, i64: 8 };

/* Each type's range as dgpb-run's messages give it (run_number_range); 'bool' for a bool's values. */
const RANGE = {
  f16: '-65504 to 65504 (or inf, -inf, nan)',
  f32: '-3.4028235e+38 to 3.4028235e+38 (or inf, -inf, nan)',
  f64: '-1.7976931348623157e+308 to 1.7976931348623157e+308 (or inf, -inf, nan)',
  u8: '0 to 255', i8: '-128 to 127', u16: '0 to 65535', i16: '-32768 to 32767',
  u32: '0 to 4294967295', i32: '-2147483648 to 2147483647',
  u64: '0 to 18446744073709551615', i64: '-9223372036854775808 to 9223372036854775807',
  bool: '0, 1, true or false',
};

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

/*
 * One number of `type` (or of a bool: 0, 1, true, false), as dgpb-run reads it
 * (run_parse_number): integers in decimal or 0x hex that fit the type; floats
 * as strtod reads them, inf, -inf and nan by name, a finite number beyond the
 * type's range refused rather than made an infinity. undefined when `text` is
 * not one.
 */
function parseNumber(type, text) {
  const t = text.trim();
  if (type === 'bool') return t === 'true' || t === '1' ? 1 : t === 'false' || t === '0' ? 0 : undefined;
  if (type[0] === 'f') {
    if (/^[+-]?inf(inity)?$/i.test(t)) return t[0] === '-' ? -Infinity : Infinity;
    if (/^[+-]?nan$/i.test(t)) return NaN;
    if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(t) && !/^[+-]?0x[0-9a-f]+$/i.test(t)) return undefined;
    const v = /0x/i.test(t) ? (t[0] === '-' ? -1 : 1) * parseInt(t.replace(/^[+-]/, ''), 16) : Number(t);
    const stored = type === 'f64' ? v : type === 'f32' ? Math.fround(v) : halfValue(halfBits(v));
    return Number.isFinite(stored) ? v : undefined; /* beyond the type's range */
  }
  const m = t.match(/^(-?)(0x[0-9a-fA-F]+|[0-9]+)$/);
  if (!m || (m[1] && type[0] === 'u')) return undefined;
  const v = m[1] ? -BigInt(m[2]) : BigInt(m[2]);
  const bits = BigInt(TYPE_SIZE[type] * 8);
  const [lo, hi] = type[0] === 'u' ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
  if (v < lo || v > hi) return undefined;
  return bits === 64n ? v : Number(v);
}

/* `text`'s numbers as `type`; a number that is not one throws, in dgpb-run's words. */
function parseList(type, text, what) {
  return text.split(',').map((v, i) => {
    const n = parseNumber(type, v);
    if (n === undefined) throw new RunError(`${what}: '${v}' (element ${i + 1}) is not a ${type} value (${RANGE[type]})`);
    return n;
  });
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
      case 'u8': case 'i8': view.setUint8(o, v & 0xff); break;
      case 'u16': case 'i16': view.setUint16(o, v & 0xffff, true); break;
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
    case 'i8': return view.getInt8(o);
    case 'u16': return view.getUint16(o, true);
    case 'i16': return view.getInt16(o, true);
    case 'u32': return view.getUint32(o, true);
    case 'i32': return view.getInt32(o, true);
    case 'u64': return view.getBigUint64(o, true);
    case 'i64': return view.getBigInt64(o, true);
  }
  return undefined;
}

/* TYPE:V1,V2,... -> { type, values, bytes }, or null when the text has no known TYPE: prefix. */
function typedList(text, what) {
  const m = text.match(/^([a-z0-9]+):(.*)$/);
  if (!m || !TYPE_SIZE[m[1]]) return null;
  const values = parseList(m[1], m[2], what);
  return { type: m[1], values, bytes: encode(m[1], values) };
}

/*
 * dgpb-run's --set (docs/run.md, "Values"): typed by the entry's WGSL, never
 * by how a number is spelled; a TYPE: must agree with it and is needed where
 * the code does not state the type. With the code's type the numbers go where
 * the code keeps them (array strides, a matrix's rows or columns); with TYPE: alone
 * they are packed and fill the row. A bool (a pipeline constant: WGSL keeps no
 * bool in a block) takes true, false, 1 or 0, also as u32: or i32:.
 */
function setValue(text, row, wgsl) {
  const code = valueType(wgsl, row);
  const bool = code && code.scalar === 'b';
  const codeType = code && !code.aggregate ? (bool ? 'bool' : `${code.scalar}${code.bits}`) : null;
  const m = text.match(/^([a-z0-9]+):(.*)$/);
  let type = codeType, body = text;
  if (m && TYPE_SIZE[m[1]]) {
    const agree = !code || m[1] === codeType || (bool && (m[1] === 'u32' || m[1] === 'i32'));
    if (!agree) throw new RunError(`value '${row.name}': ${m[1]} given, but the code on target wgsl declares ${code.text}`);
    if (!codeType) type = m[1];
    body = m[2];
  } else if (!codeType) {
    throw new RunError(`value '${row.name}': the code on target wgsl does not state its type (${code ? 'a struct' : 'bytes'}): give it as TYPE:V1,...`);
  }
  const words = body.split(',');
  const placed = type === codeType;
  const size = bool ? 4 : TYPE_SIZE[type];
  const per = placed ? code.vectors * code.components : 1;
  const want = placed ? (code.arrayCount || 1) * per : row.size / size;
  if (words.length !== want || (!placed && want * size !== row.size))
    throw new RunError(`value '${row.name}' is ${placed ? code.text : 'bytes'} (${row.size} bytes) on target wgsl: it takes ${want} number${want === 1 ? '' : 's'}, got ${words.length}`);
  const out = new Uint8Array(row.size);
  words.forEach((word, i) => {
    const v = parseNumber(type, word);
    if (v === undefined)
      throw new RunError(`value '${row.name}': '${word}' (number ${i + 1}) is not a ${type} value: ${type} takes ${RANGE[type]} (the code's type is ${placed ? code.text : type})`);
    let at = i * size;
    if (placed) {
      // A matrix's numbers come row by row; a column-major one keeps a column per vector.
      const k = i % per;
      const [vec, comp] = code.columnMajor ? [k % code.vectors, Math.floor(k / code.vectors)]
        : [Math.floor(k / code.components), k % code.components];
      at = Math.floor(i / per) * code.arrayStride + vec * code.vectorStride + comp * size;
    }
    out.set(encode(bool ? 'u32' : type, [v]), at);
  });
  return out;
}

/* Where number i of a leaf placed as `place` goes, from the leaf's offset `off` (setValue's rule). */
function placeAt(place, off, i, size) {
  const per = place.vectors * place.components, k = i % per;
  const [vec, comp] = place.columnMajor ? [k % place.vectors, Math.floor(k / place.vectors)]
    : [Math.floor(k / place.components), k % place.components];
  return off + Math.floor(i / per) * place.arrayStride + vec * place.vectorStride + comp * size;
}

/*
 * The value rows the run's --set options give (docs/run.md, "Values"): each --set names the
 * value row whose name is the longest it starts with, followed by '.', '[' or nothing, and a
 * path into the struct that row holds. row -> [{ name, text, path }].
 */
function setsByRow(entry, run) {
  const out = new Map();
  for (const [name, text] of run.sets) {
    let best = null;
    for (const r of entry.params) {
      const next = name[r.name.length];
      if (r.kindName !== 'value' || !name.startsWith(r.name) || (next !== undefined && next !== '.' && next !== '['))
        continue;
      if (!best || r.name.length > best.name.length) best = r;
    }
    if (!best) continue; // no such parameter: reported with the names no row took
    if (!out.has(best)) out.set(best, []);
    out.get(best).push({ name, text, path: name.slice(best.name.length) });
  }
  return out;
}

/*
 * Writes --set `s` of value row `row` into the row's bytes `out`: a value of no struct as
 * setValue() types it; a struct, one of its fields or elements, its fields' numbers in the
 * order the code declares them, each typed by its field (a TYPE: must agree with every one).
 */
function writeSet(out, s, row, wgsl) {
  const rowType = valueFields(wgsl, row);
  const code = valueType(wgsl, row);
  if (!s.path && (!rowType || (code && !code.aggregate))) {
    out.set(setValue(s.text, row, wgsl));
    return;
  }
  if (!rowType)
    throw new RunError(`value '${s.name}': '${row.name}' holds no struct whose fields the code on target wgsl states, so it has no field '${s.path}'`);
  let type = rowType, offset = 0, path = s.path;
  while (path) {
    let m;
    if ((m = path.match(/^\[([0-9]+)\]/))) {
      if (type.kind !== 'array') throw new RunError(`value '${s.name}': no array before ${m[0]} (on target wgsl)`);
      if (+m[1] >= type.count) throw new RunError(`value '${s.name}': index ${m[1]} is past the ${type.count} elements (on target wgsl)`);
      offset += +m[1] * type.stride;
      type = type.elem;
    } else if ((m = path.match(/^\.([^.[]+)/))) {
      const field = type.kind === 'struct' ? type.members.find((f) => f.name === m[1]) : null;
      if (!field) throw new RunError(`value '${s.name}': ${type.kind === 'struct' ? `struct ${type.name}` : 'it'} has no field '${m[1]}' (on target wgsl)`);
      offset += field.offset;
      type = field.type;
    } else {
      throw new RunError(`value '${s.name}': '${path}' is neither .FIELD nor [INDEX]`);
    }
    path = path.slice(m[0].length);
  }
  const leaves = [];
  (function collect(t, off, at) {
    if (t.kind === 'struct') for (const f of t.members) collect(f.type, off + f.offset, `${at}.${f.name}`);
    else if (t.kind === 'array' && t.elem.kind === 'struct') for (let i = 0; i < t.count; i++) collect(t.elem, off + i * t.stride, `${at}[${i}]`);
    else if (t.kind === 'array') leaves.push({ place: leafPlace(t.elem.v, t.count, t.stride), off, at });
    else if (t.kind === 'leaf') leaves.push({ place: leafPlace(t.v), off, at });
    else throw new RunError(`value '${s.name}': the code on target wgsl does not state the type of its field '${s.name}${at}'`);
  })(type, offset, '');
  const m = s.text.match(/^([a-z0-9]+):(.*)$/);
  const given = m && TYPE_SIZE[m[1]] ? m[1] : null;
  const values = (given ? m[2] : s.text).split(',');
  let want = 0;
  for (const l of leaves) {
    l.type = l.place.scalar === 'b' ? 'bool' : `${l.place.scalar}${l.place.bits}`;
    if (given && given !== l.type && !(l.place.scalar === 'b' && (given === 'u32' || given === 'i32')))
      throw new RunError(`value '${s.name}': ${given} given, but the code on target wgsl declares its field '${s.name}${l.at}' ${l.place.text}`);
    l.count = (l.place.arrayCount || 1) * l.place.vectors * l.place.components;
    want += l.count;
  }
  if (values.length !== want) throw new RunError(`value '${s.name}' on target wgsl takes ${want} numbers, got ${values.length}`);
  let k = 0;
  for (const l of leaves)
    for (let i = 0; i < l.count; i++, k++) {
      const v = parseNumber(l.type, values[k]);
      if (v === undefined)
        throw new RunError(`value '${s.name}': '${values[k]}' (number ${k + 1}, field '${s.name}${l.at}') is not a ${l.type} value: ${l.type} takes ${RANGE[l.type]} (the code's type is ${l.place.text})`);
      const bool = l.type === 'bool'; /* a bool of a block: a 32-bit 0 or 1 */
      out.set(encode(bool ? 'u32' : l.type, [v]), placeAt(l.place, l.off, i, bool ? 4 : TYPE_SIZE[l.type]));
    }
}

/*
 * An inline --in of a structured buffer: its TYPE must agree with the element
 * type the WGSL states (dgpb_run_check_element_type): a vector's elements take
 * its scalar's.
 */
function checkElementType(row, given, wgsl) {
  const el = elementType(wgsl, row);
  if (!el || given === `${el.scalar}${el.bits}`) return;
  throw new RunError(`buffer '${row.name}': ${given} given, but the code on target wgsl declares its elements ${el.text}`);
}

function splitName(arg, option) {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new RunError(`${option} wants NAME=..., got '${arg}'`);
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

function axes(text, option) {
  const v = text.split(',').map(Number);
  if (v.length > 3 || v.some((x) => !Number.isInteger(x) || x < 1)) throw new RunError(`${option} wants X[,Y[,Z]], got '${text}'`);
  while (v.length < 3) v.push(1);
  return v;
}

const TEXEL_BYTES = { r16float: 2, r32float: 4, rg32float: 8, rgba32float: 16, r32uint: 4, rgba8unorm: 4, r32sint: 4, rgba32uint: 16, rgba32sint: 16 };

/* The run line's words (entry first) -> the run's description; readInput(file) reads a file an option names. */
export function parseRun(words, readInput) {
  const run = { entry: words[0], inputs: new Map(), inputTypes: new Map(), sizes: new Map(), sets: new Map(), textures: new Map(), expects: [], tolerance: null, repeat: 1 };
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
        const typed = typedList(value, `'${name}'`);
        run.inputs.set(name, typed ? typed.bytes : readInput(value));
        if (typed) run.inputTypes.set(name, typed.type); /* checked against the code's when bound */
        break;
      }
      case '--size': {
        const [name, value] = splitName(arg, option);
        run.sizes.set(name, Number(value));
        break;
      }
      case '--set': {
        const [name, value] = splitName(arg, option);
        run.sets.set(name, value); /* typed by the code when bound */
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
          const typed = typedList(value, `'${lhs}'`);
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

const pad4 = (n) => (n + 3) & ~3;

/*
 * A resource for every row of the entry, found by the row's name in the run:
 * returns resourceOf(space, binding) for the bind groups, the pipeline
 * constants and the resources to read back (row name -> { buffer | texture }).
 */
function bindByRow(device, entry, run, wgsl) {
  const used = new Set();
  const take = (map, name) => {
    used.add(`${map === run.inputs ? 'in' : map === run.sizes ? 'size' : map === run.sets ? 'set' : 'texture'}:${name}`);
    return map.get(name);
  };
  const resources = new Map(); // row name -> { buffer | texture, size, tex }
  const blocks = new Map(); // "space/binding" -> bytes of a value block
  const bindings = new Map(); // "space/binding" -> GPUBindingResource
  const constants = {}; // override id -> value (pipeline constants: the code's default when unset)
  // A cbuffer: its uniform_buffer row, and value rows (its fields) at the same place. Given no
  // bytes, it is built from its fields, as a block of values is: a value not given is zero.
  const fieldRows = new Set(entry.params.filter((r) => r.kindName === 'value').map((r) => `${r.space}/${r.binding}`));
  const givenAsBytes = new Map(entry.params.filter((r) => r.kindName === 'uniform_buffer' && (run.inputs.has(r.name) || run.sizes.has(r.name)))
    .map((r) => [`${r.space}/${r.binding}`, r.name]));
  const given = setsByRow(entry, run); // value row -> the --set options that give it or its fields
  for (const row of entry.params) {
    const key = `${row.space}/${row.binding}`;
    const kind = row.kindName;
    if (kind === 'value' && row.space === 0xfffffffe) {
      const text = take(run.sets, row.name);
      if (text === undefined) continue;
      const bytes = setValue(text, row, wgsl), code = valueType(wgsl, row);
      const view = new DataView(bytes.buffer);
      constants[row.binding] = code && code.scalar === 'f' ? (code.bits === 16 ? halfValue(view.getUint16(0, true)) : view.getFloat32(0, true))
        : code && code.scalar === 'i' ? view.getInt32(0, true) : view.getUint32(0, true);
      continue;
    }
    if (kind === 'value') {
      const sets = given.get(row) ?? [];
      for (const set of sets) used.add(`set:${set.name}`);
      if (givenAsBytes.has(key)) {
        if (!sets.length) continue; // a field of a block given as bytes
        throw new RunError(`block '${givenAsBytes.get(key)}' is given as bytes and its field '${sets[0].name}' too: give one or the other`);
      }
      let bytes = null; // not given: zero
      if (sets.length) {
        bytes = new Uint8Array(row.size); // the fields no --set gives stay zero
        for (const set of sets) writeSet(bytes, set, row, wgsl);
      }
      let block = blocks.get(key) ?? new Uint8Array(0);
      const end = Math.max((row.offset + row.size + 15) & ~15, blockSize(wgsl, row));
      if (block.length < end) {
        const grown = new Uint8Array(end);
        grown.set(block);
        block = grown;
      }
      if (bytes) block.set(bytes, row.offset);
      blocks.set(key, block);
      continue;
    }
    if (kind === 'sampler') {
      bindings.set(key, device.createSampler(samplerDescriptor(row)));
      continue;
    }
    if (kind === 'texture' || kind === 'rw_texture' || kind === 'texture_sampler') {
      const tex = take(run.textures, row.name);
      if (!tex) throw new RunError(`texture '${row.name}' has no --texture`);
      // The row's shape says which texture the code reads (docs/format.md "Shapes"): another
      // dimension is refused, as dgpb-run refuses it.
      const view = VIEW_OF_DIM[tex.dim];
      if (!view) throw new RunError(`texture '${row.name}': unknown dimension ${tex.dim}`);
      if (row.shape && row.shape.dimension !== 'none') {
        const want = `${row.shape.dimension}${row.shape.arrayed ? '_array' : ''}`;
        if (want !== tex.dim)
          throw new RunError(`texture '${row.name}' is a ${want} texture in the bundle (${row.shape.text}), the request gives a ${tex.dim} one`);
      }
      const bytes = take(run.inputs, row.name);
      const texel = TEXEL_BYTES[tex.format];
      const layers = tex.dim === 'cube' ? 6 : tex.depth;
      const size = tex.width * tex.height * layers * texel;
      if (bytes && bytes.length !== size) throw new RunError(`--in ${row.name}: ${bytes.length} bytes, the texture has ${size}`);
      const usage = GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC |
        (kind === 'rw_texture' ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.TEXTURE_BINDING);
      const extent = [tex.width, tex.dim === '1d' ? 1 : tex.height, layers];
      const texture = device.createTexture({ size: extent, dimension: view.dimension, format: tex.format, usage });
      device.queue.writeTexture({ texture }, bytes ?? new Uint8Array(size),
        { bytesPerRow: tex.width * texel, rowsPerImage: extent[1] }, extent);
      resources.set(row.name, { texture, tex, size });
      bindings.set(key, texture.createView({ dimension: view.view }));
      // A combined texture-sampler: its sampler at the next binding.
      if (kind === 'texture_sampler') bindings.set(`${row.space}/${row.binding + 1}`, device.createSampler(samplerDescriptor(row)));
      continue;
    }
    if (kind === 'uniform_buffer' && fieldRows.has(key) && !givenAsBytes.has(key))
      continue; // built from its fields below, as the values' block
    if (['uniform_buffer', 'buffer', 'rw_buffer', 'byte_buffer', 'rw_byte_buffer'].includes(kind)) {
      const bytes = take(run.inputs, row.name);
      const sized = take(run.sizes, row.name);
      if (!bytes && sized === undefined) throw new RunError(`buffer '${row.name}' has no --in or --size`);
      if ((kind === 'buffer' || kind === 'rw_buffer') && run.inputTypes.has(row.name))
        checkElementType(row, run.inputTypes.get(row.name), wgsl);
      // dgpb-run: --size sets the size; an --in with it fills the first bytes.
      const size = sized ?? bytes.length;
      if (bytes && bytes.length > size) throw new RunError(`--in ${row.name}: ${bytes.length} bytes, more than --size ${size}`);
      const uniform = kind === 'uniform_buffer';
      const need = uniform ? blockSize(wgsl, row) : 0;
      if (size < need) throw new RunError(`block '${row.name}' is ${need} bytes in the code on target wgsl, the request gives ${size}`);
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
  return { resourceOf: (space, binding) => bindings.get(`${space}/${binding}`), constants, resources };
}

/* Copies each resource back: tightly packed bytes. */
async function readBack(device, resources, names) {
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

/*
 * Runs a module's run line on the device: the wgsl target's entry, its code
 * verified, every row bound, dispatched, the outputs compared. With
 * `negative`, each expectation changed by one must then fail.
 */
export async function runModule(header, loadBundle, { device, features, negative = false, allowUnsupported = false, readInput }) {
  if (!header.targets.includes('wgsl')) return { skipped: `not applicable (//DGPB_TARGETS: ${header.targets.join(',')})` };
  const run = parseRun(header.words, readInput);
  const bundle = await loadBundle();
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
  const wgsl = await verifiedCode(entry);

  device.pushErrorScope('validation');
  const { resourceOf, constants, resources } = bindByRow(device, entry, run, wgsl);
  const pass = createComputeEntry(device, entry, wgsl, { resourceOf, constants });
  dispatch(device, pass, run.groups ?? workgroupsFor(entry, run.threads ?? [1, 1, 1]), run.repeat);
  const error = await device.popErrorScope();
  if (error) throw new RunError(`WebGPU: ${error.message.split('\n')[0]}`);

  const got = await readBack(device, resources, [...new Set(run.expects.map((e) => e.name))]);
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

