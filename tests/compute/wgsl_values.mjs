// wgsl_values.mjs - the type of a value row in WGSL, for the WebGPU runner
// (run_dawn.mjs): the same rules as code/wgsl/value_wgsl.c (docs/run.md,
// "Values"), so that `--set` means on Dawn what it means to dgpb-run.
//
//   valueType(text, row) -> { scalar, bits, vectors, components, vectorStride,
//                             columnMajor, arrayCount, arrayStride, aggregate, text } | null
//   elementType(text, row) -> { scalar, bits, columns, text } | null   (a storage buffer's)
//
// scalar is 'f', 'i', 'u' or 'b'; null when the code does not state the
// type. The row's space/binding name the var<uniform> (@group/@binding), or,
// in space 0xFFFFFFFE, the `override` whose @id is the binding. The struct
// is laid out by WGSL's rules (a vec3 aligns like a vec4, an array's stride
// is its element's size rounded up to its alignment, @align/@size) and
// walked to the row's offset: a struct Slang names as a matrix's storage
// wrapper (_MatrixStorage_float3x4_ColMajorstd140_0) whose one member is an
// array of the stored vectors its name says is that matrix, row- or
// column-major; a struct Slang names as an array's storage wrapper
// (_Array_std140_float2_0) whose one member is an array of vectors holding the
// elements its name says is that array of its logical elements (a float each
// 16 bytes apart); any other struct of one member is that member; a struct of
// several that the row covers whole is an aggregate; an array the row covers
// whole is an array value of its element. WGSL's matCxR is Slang's CxR matrix,
// stored row by row. A matrix's numbers come row by row, as Slang declares it.

const PIPELINE_CONSTANT = 0xfffffffe;

const roundUp = (v, a) => (a ? Math.ceil(v / a) * a : v);

/* Top-level template arguments of "a, b<c, d>, e" -> ['a', 'b<c, d>', 'e']. */
function splitArgs(s) {
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '<' || c === '(') depth++;
    else if (c === '>' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (s.slice(start).trim()) out.push(s.slice(start).trim());
  return out;
}

/* "array<vec4<f32>, i32(3)>" -> { name: 'array', args: ['vec4<f32>', 'i32(3)'] }. */
function parseType(t) {
  t = t.trim();
  const lt = t.indexOf('<');
  if (lt < 0) return { name: t, args: [] };
  return { name: t.slice(0, lt).trim(), args: splitArgs(t.slice(lt + 1, t.lastIndexOf('>'))) };
}

const SCALARS = { f32: ['f', 32], f16: ['f', 16], i32: ['i', 32], u32: ['u', 32], bool: ['b', 32] };
const SUFFIX = { f: ['f', 32], h: ['f', 16], i: ['i', 32], u: ['u', 32] };

function literal(s) {
  const m = s.trim().match(/^(?:[iu]32\()?\s*(0x[0-9a-fA-F]+|[0-9]+)[iu]?\s*\)?$/);
  return m ? Number(m[1]) : 0;
}

function makeReader(text) {
  const src = text.replace(/\/\/[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
  const structs = new Map();
  for (const m of src.matchAll(/struct\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{([^}]*)\}/g)) {
    const members = [];
    for (const part of splitArgs(m[2].replace(/\n/g, ' '))) {
      const mm = part.match(/^((?:@[a-z_]+(?:\([^)]*\))?\s*)*)([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+)$/);
      if (!mm) continue;
      const attr = (n) => {
        const a = mm[1].match(new RegExp(`@${n}\\(\\s*([0-9]+)\\s*\\)`));
        return a ? Number(a[1]) : null;
      };
      members.push({ name: mm[2], type: mm[3].trim(), align: attr('align'), size: attr('size') });
    }
    structs.set(m[1], members);
  }

  /* { align, size, num?: {...}, array?: {elem, count}, struct?: members } */
  function layout(t, depth = 0) {
    if (depth > 64) throw new Error('WGSL types nested too deep');
    const { name, args } = parseType(t);
    if (SCALARS[name]) {
      const [scalar, bits] = SCALARS[name];
      return { align: bits / 8, size: bits / 8, num: { scalar, bits, columns: 1, rows: 1 } };
    }
    if (name === 'atomic') return layout(args[0], depth + 1);
    let m = name.match(/^vec([234])([fhiu])?$/);
    let cols = 0, rows = 0, sc = null;
    if (m) {
      cols = +m[1];
      sc = m[2] ? SUFFIX[m[2]] : SCALARS[args[0]];
    } else if ((m = name.match(/^mat([234])x([234])([fh])?$/))) {
      cols = +m[1];
      rows = +m[2];
      sc = m[3] ? SUFFIX[m[3]] : SCALARS[args[0]];
    } else if (name === 'array') {
      const el = layout(args[0], depth + 1);
      const count = args.length > 1 ? literal(args[1]) : 0;
      return { align: el.align, size: count * roundUp(el.size, el.align), array: { elem: args[0], count, stride: roundUp(el.size, el.align) } };
    } else if (structs.has(name)) {
      let end = 0, align = 1;
      const placed = [];
      for (const mem of structs.get(name)) {
        const l = layout(mem.type, depth + 1);
        const a = mem.align ?? l.align, s = mem.size ?? l.size;
        const offset = roundUp(end, a);
        placed.push({ ...mem, offset, size: s });
        end = offset + s;
        align = Math.max(align, a);
      }
      return { align, size: roundUp(end, align), struct: placed };
    } else {
      return { align: 0, size: 0 };
    }
    if (!sc) return { align: 0, size: 0 };
    const [scalar, bits] = sc;
    const bytes = bits / 8, vec = rows || cols;
    const valign = (vec === 2 ? 2 : 4) * bytes, vsize = vec * bytes;
    if (!rows) return { align: valign, size: vsize, num: { scalar, bits, columns: cols, rows: 1 } };
    const stride = roundUp(vsize, valign); // matCxR: C stored vectors of R, Slang's CxR row by row
    return { align: valign, size: cols * stride, num: { scalar, bits, columns: rows, rows: cols, matrixStride: stride } };
  }

  /* Slang's storage wrapper of a matrix (code_matrix_storage_name, value_wgsl.c's matrix_storage). */
  function matrixStorage(name, depth) {
    const m = name.match(/^_MatrixStorage_[A-Za-z0-9_]*?[^0-9]([1-4])x([1-4])(?![0-9])(_ColMajor)?/);
    if (!m || +m[1] < 2) return null;
    const rows = +m[1], columns = +m[2], columnMajor = !!m[3];
    const members = structs.get(name);
    if (!members || members.length !== 1) return null;
    const array = layout(members[0].type, depth + 1).array;
    if (!array || array.count !== (columnMajor ? columns : rows)) return null;
    const el = layout(array.elem, depth + 1);
    if (!el.num || el.num.rows !== 1 || el.num.columns < (columnMajor ? rows : columns)) return null;
    return { scalar: el.num.scalar, bits: el.num.bits, rows, columns, columnMajor, matrixStride: array.stride };
  }

  /*
   * Slang's storage wrapper of an array (code_array_storage_name, value_wgsl.c's array_storage):
   * _Array_std140_float2_0 { data: array<vec4<f32>, 2> } is two floats, 16 bytes apart.
   */
  function arrayStorage(name, depth) {
    const named = arrayStorageName(name);
    const members = structs.get(name);
    if (!named || !members || members.length !== 1) return null;
    const array = layout(members[0].type, depth + 1).array;
    if (!array || array.count !== named.count) return null;
    const el = layout(array.elem, depth + 1);
    if (!el.num || el.num.rows !== 1 || el.num.scalar !== named.scalar || el.num.bits !== named.bits ||
        el.num.columns < named.columns) return null;
    return { ...named, stride: roundUp(el.size, el.align) };
  }

  function find(t, off, size, top, depth = 0) {
    const l = layout(t, depth);
    if (l.num) return off === 0 ? { ...l.num } : null;
    if (l.array) {
      const { elem, count, stride } = l.array;
      if (!stride) return null;
      if (off === 0 && size > stride && count) {
        const v = find(elem, 0, stride, false, depth + 1);
        if (!v || v.arrayCount) return null;
        return { ...v, arrayCount: count, arrayStride: stride };
      }
      return !count || Math.floor(off / stride) < count ? find(elem, off % stride, size, false, depth + 1) : null;
    }
    if (!l.struct) return null;
    if (!top && off === 0) {
      const matrix = matrixStorage(parseType(t).name, depth);
      if (matrix) return matrix;
    }
    const padded = top ? null : arrayStorage(parseType(t).name, depth);
    if (padded) {
      const { scalar, bits, columns, count, stride } = padded;
      if (!stride) return null;
      const elem = { scalar, bits, columns, rows: 1 };
      if (off === 0 && size > stride) return { ...elem, arrayCount: count, arrayStride: stride };
      return off % stride === 0 && Math.floor(off / stride) < count ? elem : null;
    }
    if (!top && l.struct.length > 1 && off === 0 && size >= l.size) return { aggregate: true };
    const hit = l.struct.find((m) => m.offset <= off && off < m.offset + m.size);
    return hit ? find(hit.type, off - hit.offset, size, false, depth + 1) : null;
  }

  /*
   * A field's type (value_fields.h's rules): Slang's _Array_std140_* wrapper is its array, a
   * matrix's storage wrapper its matrix; { kind: 'struct', name, size, members: [{ name, offset,
   * type }] } | { kind: 'array', count, stride, elem } | { kind: 'leaf', v } | { kind: 'unknown' }.
   */
  function unwrap(t, depth) {
    const l = layout(t, depth);
    const name = parseType(t).name;
    if (l.struct && /^_Array_std140_/.test(name) && l.struct.length === 1 && l.struct[0].offset === 0 &&
        layout(l.struct[0].type, depth + 1).array)
      return unwrap(l.struct[0].type, depth + 1);
    return { t, l, name };
  }
  const userStruct = (u, depth) => u.l.struct && !matrixStorage(u.name, depth) && !arrayStorage(u.name, depth);
  function fieldType(t, depth = 0) {
    if (depth > 16) return { kind: 'unknown' };
    const u = unwrap(t, depth);
    if (u.l.array) {
      const { elem, count, stride } = u.l.array;
      const e = unwrap(elem, depth + 1);
      if (count && stride && userStruct(e, depth + 1)) return { kind: 'array', count, stride, elem: fieldType(e.t, depth + 1) };
    } else if (userStruct(u, depth)) {
      return {
        kind: 'struct', name: u.name.replace(/_[0-9]+$/, '').replace(/_(std140|std430|scalar|natural)$/, ''),
        size: u.l.size,
        members: u.l.struct.map((m) => ({ name: m.name.replace(/_[0-9]+$/, ''), offset: m.offset, size: m.size, type: fieldType(m.type, depth + 1) })),
      };
    }
    // A scalar, vector or matrix, or an array of them, as a row of it reads (find(): Slang's
    // array wrappers as their logical elements).
    const v = find(t, 0, layout(t, depth).size, false, depth + 1);
    if (!v || !v.scalar) return { kind: 'unknown' };
    if (!v.arrayCount) return { kind: 'leaf', v };
    const { arrayCount, arrayStride, ...one } = v;
    return { kind: 'array', count: arrayCount, stride: arrayStride, elem: { kind: 'leaf', v: one } };
  }

  /* The struct (or array of structs) at byte `off` of `type` that a row of `size` bytes covers. */
  function locate(type, off, size, top) {
    if (type.kind === 'array') {
      if (off === 0 && size > type.stride) return type.elem.kind === 'struct' ? type : null;
      return Math.floor(off / type.stride) < type.count ? locate(type.elem, off % type.stride, size, false) : null;
    }
    if (type.kind !== 'struct') return null;
    if (!top && off === 0 && size >= type.size) return type;
    const hit = type.members.find((m) => m.offset <= off && off < m.offset + m.size);
    return hit ? locate(hit.type, off - hit.offset, size, false) : null;
  }

  return { src, find, layout, fieldType, locate };
}

/*
 * The struct a value row holds (docs/run.md, "Values"; code/value_fields.h): the type
 * fieldType() describes, a struct or an array of structs, or null when the row holds none.
 */
export function valueFields(text, row) {
  const { src, fieldType, locate } = makeReader(text);
  if (row.space === PIPELINE_CONSTANT) return null;
  for (const m of src.matchAll(/((?:@[a-z_]+\([^)]*\)\s*)+)var\s*<\s*uniform\s*>\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*([^;]+);/g)) {
    const g = m[1].match(/@group\(\s*([0-9]+)/), b = m[1].match(/@binding\(\s*([0-9]+)/);
    if (g && b && Number(g[1]) === row.space && Number(b[1]) === row.binding) return locate(fieldType(m[2].trim()), row.offset, row.size, true);
  }
  return null;
}

/* How a leaf's numbers go into bytes: valueType()'s placement of a scalar, vector or matrix. */
export function leafPlace(v, arrayCount = 0, arrayStride = 0) {
  const major = !!v.columnMajor;
  return {
    scalar: v.scalar, bits: v.bits,
    vectors: v.rows > 1 ? (major ? v.columns : v.rows) : 1,
    components: v.rows > 1 ? (major ? v.rows : v.columns) : v.columns,
    vectorStride: v.matrixStride ?? 0,
    columnMajor: v.rows > 1 && major,
    arrayCount, arrayStride,
    text: typeText({ ...v, arrayCount }),
  };
}

/* Slang's names of the scalar types, as its wrappers' names spell them (value_types.c). */
const SLANG_SCALARS = [
  ['float', 'f', 32], ['half', 'f', 16], ['double', 'f', 64], ['int', 'i', 32], ['uint', 'u', 32],
  ['bool', 'b', 32], ['int8_t', 'i', 8], ['uint8_t', 'u', 8], ['int16_t', 'i', 16], ['uint16_t', 'u', 16],
  ['int64_t', 'i', 64], ['uint64_t', 'u', 64], ['float16_t', 'f', 16], ['float64_t', 'f', 64],
];

/*
 * The element and count a name of Slang's array wrapper says (code_array_storage_name):
 * "_Array_std140_float2_0" -> { scalar: 'f', bits: 32, columns: 1, count: 2 };
 * "_Array_std140_vectorx3Cfloatx2C2x3E3_0" -> a float2, three of them; null for another name.
 */
export function arrayStorageName(name) {
  const m = name.match(/^_Array_std(?:140|430)_(.*)$/);
  if (!m) return null;
  const COUNT = '([1-9][0-9]*)(?:_(?:0|[1-9][0-9]*))?$';
  let rest = m[1], columns = 1;
  const v = rest.match(/^vector(?:<|x3C)(.*)$/);
  if (v) rest = v[1];
  for (const [slang, scalar, bits] of SLANG_SCALARS) {
    if (!rest.startsWith(slang)) continue;
    const tail = rest.slice(slang.length);
    const c = v ? tail.match(new RegExp(`^(?:,|x2C)([1-9][0-9]*)(?:>|x3E)${COUNT}`)) : tail.match(new RegExp(`^${COUNT}`));
    if (!c) continue;
    if (v) columns = Number(c[1]);
    if (columns < 1 || columns > 4 || (v && columns < 2)) return null;
    const count = Number(v ? c[2] : c[1]);
    if (count >= 2 ** 31) return null;
    return { scalar, bits, columns, count };
  }
  return null;
}

/* The text of a type, as dgpb-run's messages spell it ("f32", "u32x2", "f32 3x4 column_major", "bool"). */
function typeText(v) {
  if (v.aggregate) return 'struct';
  if (v.scalar === 'b') return (v.columns > 1 ? `boolx${v.columns}` : 'bool') + (v.arrayCount ? `[${v.arrayCount}]` : '');
  let s = `${v.scalar}${v.bits}`;
  if (v.rows > 1) s += ` ${v.rows}x${v.columns}${v.columnMajor ? ' column_major' : ''}`;
  else if (v.columns > 1) s += `x${v.columns}`;
  return v.arrayCount ? `${s}[${v.arrayCount}]` : s;
}

/* SizeOf the var<uniform> at the row's @group/@binding; 0 when there is none. */
export function blockSize(text, row) {
  const { src, layout } = makeReader(text);
  for (const m of src.matchAll(/((?:@[a-z_]+\([^)]*\)\s*)+)var\s*<\s*uniform\s*>\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*([^;]+);/g)) {
    const g = m[1].match(/@group\(\s*([0-9]+)/), b = m[1].match(/@binding\(\s*([0-9]+)/);
    if (g && b && Number(g[1]) === row.space && Number(b[1]) === row.binding) return layout(m[2].trim()).size;
  }
  return 0;
}

/*
 * The element type of the structured buffer at the row's @group/@binding (the
 * var<storage>'s array<E>, E a scalar or vector): { scalar, bits, columns, text },
 * or null when the code states none.
 */
export function elementType(text, row) {
  const { src, layout } = makeReader(text);
  for (const m of src.matchAll(/((?:@[a-z_]+\([^)]*\)\s*)+)var\s*<\s*storage\b[^>]*>\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*([^;]+);/g)) {
    const g = m[1].match(/@group\(\s*([0-9]+)/), b = m[1].match(/@binding\(\s*([0-9]+)/);
    if (!g || !b || Number(g[1]) !== row.space || Number(b[1]) !== row.binding) continue;
    const array = layout(m[2].trim()).array;
    const el = array ? layout(array.elem).num : null;
    if (!el || el.rows !== 1) return null;
    return { scalar: el.scalar, bits: el.bits, columns: el.columns, text: typeText(el) };
  }
  return null;
}

export function valueType(text, row) {
  const { src, find } = makeReader(text);
  let v = null;
  if (row.space === PIPELINE_CONSTANT) {
    for (const m of src.matchAll(/@id\(\s*([0-9]+)[iu]?\s*\)\s*override\s+[A-Za-z_][A-Za-z0-9_]*\s*:\s*([^=;]+)/g))
      if (Number(m[1]) === row.binding) v = find(m[2].trim(), 0, 0, false);
  } else {
    for (const m of src.matchAll(/((?:@[a-z_]+\([^)]*\)\s*)+)var\s*<\s*uniform\s*>\s*[A-Za-z_][A-Za-z0-9_]*\s*:\s*([^;]+);/g)) {
      const g = m[1].match(/@group\(\s*([0-9]+)/), b = m[1].match(/@binding\(\s*([0-9]+)/);
      if (g && b && Number(g[1]) === row.space && Number(b[1]) === row.binding) v = find(m[2].trim(), row.offset, row.size, true);
    }
  }
  if (!v || (!v.scalar && !v.aggregate)) return null;
  const major = !!v.columnMajor; // stored column by column
  const out = {
    scalar: v.scalar, bits: v.bits, aggregate: !!v.aggregate,
    vectors: v.rows > 1 ? (major ? v.columns : v.rows) : 1,
    components: v.rows > 1 ? (major ? v.rows : v.columns) : v.columns,
    vectorStride: v.matrixStride ?? 0,
    columnMajor: v.rows > 1 && major,
    arrayCount: v.arrayCount ?? 0, arrayStride: v.arrayStride ?? 0,
  };
  out.text = typeText(v);
  return out;
}
