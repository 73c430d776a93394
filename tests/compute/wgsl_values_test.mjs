// wgsl_values_test.mjs - the WebGPU runner's value types (wgsl_values.mjs)
// agree with code/wgsl/value_wgsl.c's on the same real Slang output
// (fixtures/values/values.wgsl, matrices.wgsl and arrays.wgsl;
// tests/test_value_types.c checks the C side with these tables). Exit 0 when every row reads as expected.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { valueType, blockSize, elementType, arrayStorageName, valueFields } = await import(pathToFileURL(path.join(here, 'wgsl_values.mjs')).href);
const text = fs.readFileSync(path.join(here, '../../fixtures/values/values.wgsl'), 'utf8');
const matrices = fs.readFileSync(path.join(here, '../../fixtures/values/matrices.wgsl'), 'utf8');
const arrays = fs.readFileSync(path.join(here, '../../fixtures/values/arrays.wgsl'), 'utf8');
const bools = '@id(0) override flag : bool;\n@compute @workgroup_size(1) fn main() { }\n';
// Structs named like arrays' wrappers but not of the shape their names say (value_types.c's test).
const misnamed = `struct _Array_std140_float2_0 { @align(16) data_0 : array<vec4<f32>, i32(3)>, }
struct _Array_std140_float3_0 { @align(16) data_1 : array<vec4<i32>, i32(3)>, }
struct _Array_std140_vectorx3Cfloatx2C3x3E2_0 { data_2 : array<vec2<f32>, i32(2)>, }
struct U { a : _Array_std140_float2_0, b : _Array_std140_float3_0, c : _Array_std140_vectorx3Cfloatx2C3x3E2_0, }
@group(0) @binding(0) var<uniform> u : U;
`;
const P = 0xfffffffe;
const rows = [
  [0, 0, 0, 4, 'f32'], [0, 1, 0, 4, 'u32'], [0, 1, 4, 4, 'f32'], [0, 1, 8, 4, 'i32'],
  [0, 1, 12, 4, 'u32'], [0, 2, 0, 16, 'f32x4'], [0, 2, 16, 48, 'f32 3x4'],
  [0, 2, 64, 48, 'i32x2[3]'], [0, 2, 112, 2, 'f16'], [0, 5, 0, 4, 'f32'], [0, 5, 8, 8, 'u32x2'],
  [0, 5, 16, 32, 'f32 2x3'], [P, 3, 0, 4, 'u32'], [P, 4, 0, 4, 'unknown'], [0, 3, 0, 4, 'unknown'],
  // fixtures/values/matrices.wgsl: Slang's storage wrappers of both layouts
  ['m', 0, 0, 0, 48, 'f32 3x4'], ['m', 0, 0, 48, 64, 'f32 3x4 column_major'],
  ['m', 0, 0, 112, 32, 'f32 2x2 column_major'], ['m', 0, 0, 144, 32, 'f32 2x2'],
  ['m', 0, 2, 0, 48, 'f32 2x3 column_major'],
  // fixtures/values/arrays.wgsl: Slang's _Array_std140_* wrappers read as their logical elements
  ['a', 0, 0, 0, 32, 'f32[2]'], ['a', 0, 0, 16, 4, 'f32'], ['a', 0, 0, 32, 32, 'f32x2[2]'],
  ['a', 0, 0, 64, 48, 'u32[3]'], ['a', 0, 0, 112, 32, 'i32x3[2]'], ['a', 0, 0, 144, 32, 'f32x4[2]'],
  ['a', 0, 0, 176, 48, 'f32 3x3'], ['a', 0, 0, 224, 96, 'f32 3x3[2]'], ['a', 0, 3, 0, 32, 'f32[2]'],
  ['b', P, 0, 0, 4, 'bool'],
  ['x', 0, 0, 0, 48, 'f32x4[3]'], ['x', 0, 0, 48, 48, 'i32x4[3]'], ['x', 0, 0, 96, 16, 'f32x2[2]'],
];
let failed = 0;
for (const r of rows) {
  const source = { m: matrices, a: arrays, b: bools, x: misnamed }[r[0]] ?? text;
  const [space, binding, offset, size, want] = typeof r[0] === 'string' ? r.slice(1) : r;
  const t = valueType(source, { name: 'x', space, binding, offset, size });
  const got = t ? t.text : 'unknown';
  if (got !== want) {
    console.log(`FAIL: space ${space} binding ${binding} offset ${offset}: got ${got}, want ${want}`);
    failed++;
  }
}
// A column-major matrix keeps a column per stored vector: number k (row by row) of a float3x4
// goes to vector k % 4, component k / 4.
const c = valueType(matrices, { name: 'c', space: 0, binding: 0, offset: 48, size: 64 });
if (!c || !c.columnMajor || c.vectors !== 4 || c.components !== 3 || c.vectorStride !== 16) {
  console.log(`FAIL: the column-major float3x4: ${JSON.stringify(c)}`);
  failed++;
}
for (const [binding, want] of [[1, 16], [2, 128], [3, 0]]) {
  const got = blockSize(text, { space: 0, binding });
  if (got !== want) {
    console.log(`FAIL: block at binding ${binding}: ${got} bytes, want ${want}`);
    failed++;
  }
}
// A float array's elements 16 bytes apart, as std140 keeps them.
const w = valueType(arrays, { name: 'weights', space: 0, binding: 0, offset: 0, size: 32 });
if (!w || w.arrayStride !== 16 || w.components !== 1) {
  console.log(`FAIL: weights: ${JSON.stringify(w)}`);
  failed++;
}
// A structured buffer's element type (--in TYPE: is checked against it).
for (const [binding, want] of [[1, 'f32'], [2, 'i32x2'], [0, null]]) {
  const e = elementType(arrays, { space: 0, binding });
  if ((e ? e.text : null) !== want) {
    console.log(`FAIL: element type at binding ${binding}: ${e ? e.text : null}, want ${want}`);
    failed++;
  }
}
// The wrappers' names, as code_array_storage_name reads them (tests/test_value_types.c).
for (const [name, want] of [
  ['_Array_std140_float2', 'f32:1:2'], ['_Array_std140_float2_0', 'f32:1:2'], ['_Array_std430_int16_t3', 'i16:1:3'],
  ['_Array_std140_uint64_t12_3', 'u64:1:12'], ['_Array_std140_vector<float,2>3', 'f32:2:3'],
  ['_Array_std140_vectorx3Cintx2C3x3E2_0', 'i32:3:2'], ['_Array_std140_bool4', 'b32:1:4'],
  ['_Array_std140_float', null], ['_Array_std140_float0', null], ['_Array_std140_float2_', null],
  ['_Array_std140_vectorx3Cfloatx2C5x3E2_0', null], ['_Array_std140_matrixx3Cfloatx2C3x2C3x3E2_0', null],
  ['_Array_scalar_float2', null], ['_MatrixStorage_float2x2std140', null],
]) {
  const n = arrayStorageName(name);
  const got = n ? `${n.scalar}${n.bits}:${n.columns}:${n.count}` : null;
  if (got !== want) {
    console.log(`FAIL: '${name}': ${got}, want ${want}`);
    failed++;
  }
}
// Struct values' fields (fixtures/values/structs.wgsl; tests/test_value_types.c reads the same
// rows in C): names without Slang's _0 and _std140, offsets by WGSL's rules, the array wrapper
// _Array_std140_Light2_0 read as its array, _Array_std140_float3_0 as its logical floats.
const structs = fs.readFileSync(path.join(here, '../../fixtures/values/structs.wgsl'), 'utf8');
const describe = (t) => t.kind === 'struct' ? `${t.name}{${t.members.map((m) => `${m.name}@${m.offset}:${describe(m.type)}`).join(',')}}`
  : t.kind === 'array' ? `${describe(t.elem)}[${t.count}/${t.stride}]` : t.kind === 'leaf' ? t.v.scalar + t.v.bits + (t.v.rows > 1 ? `_${t.v.rows}x${t.v.columns}` : `x${t.v.columns}`) : '?';
for (const [row, want] of [
  [{ space: 0, binding: 3, offset: 0, size: 16 }, 'Rect{x@0:i32x1,y@4:i32x1,w@8:i32x1,h@12:i32x1}'],
  [{ space: 0, binding: 0, offset: 16, size: 32 }, 'Light{color@0:f32x3,intensity@12:f32x1}[2/16]'],
  [{ space: 0, binding: 1, offset: 0, size: 224 }, 'Outer{inner@0:Inner{uv@0:f32x2,id@8:i32x1},m@16:f32_3x4,list@64:Inner{uv@0:f32x2,id@8:i32x1}[2/16],one@96:One{only@0:f32x1},s@112:f32x1,arr@128:f32x1[3/16],cm@176:f32_2x3}'],
]) {
  const t = valueFields(structs, row);
  const got = t ? describe(t) : 'none';
  if (got !== want) {
    console.log(`FAIL: struct at binding ${row.binding} offset ${row.offset}: got ${got}, want ${want}`);
    failed++;
  }
}
if (valueFields(structs, { space: 0, binding: 1, offset: 224, size: 8 }) !== null) {
  console.log('FAIL: tail (a float2) read as a struct');
  failed++;
}
console.log(failed ? `${failed} of ${rows.length} rows wrong` : `${rows.length} rows as expected`);
process.exit(failed ? 1 : 0);
