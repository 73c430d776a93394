// wgsl_values_test.mjs - the WebGPU runner's value types (wgsl_values.mjs)
// agree with code/wgsl/value_wgsl.c's on the same real Slang output
// (fixtures/values/values.wgsl and matrices.wgsl; tests/test_value_types.c
// checks the C side with these tables). Exit 0 when every row reads as expected.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { valueType, blockSize, valueFields } = await import(pathToFileURL(path.join(here, 'wgsl_values.mjs')).href);
const text = fs.readFileSync(path.join(here, '../../fixtures/values/values.wgsl'), 'utf8');
const matrices = fs.readFileSync(path.join(here, '../../fixtures/values/matrices.wgsl'), 'utf8');
const P = 0xfffffffe;
const rows = [
  [0, 0, 0, 4, 'f32'], [0, 1, 0, 4, 'u32'], [0, 1, 4, 4, 'f32'], [0, 1, 8, 4, 'i32'],
  [0, 1, 12, 4, 'u32'], [0, 2, 0, 16, 'f32x4'], [0, 2, 16, 48, 'f32 3x4'],
  [0, 2, 64, 48, 'i32x4[3]'], [0, 2, 112, 2, 'f16'], [0, 5, 0, 4, 'f32'], [0, 5, 8, 8, 'u32x2'],
  [0, 5, 16, 32, 'f32 2x3'], [P, 3, 0, 4, 'u32'], [P, 4, 0, 4, 'unknown'], [0, 3, 0, 4, 'unknown'],
  // fixtures/values/matrices.wgsl: Slang's storage wrappers of both layouts
  ['m', 0, 0, 0, 48, 'f32 3x4'], ['m', 0, 0, 48, 64, 'f32 3x4 column_major'],
  ['m', 0, 0, 112, 32, 'f32 2x2 column_major'], ['m', 0, 0, 144, 32, 'f32 2x2'],
  ['m', 0, 2, 0, 48, 'f32 2x3 column_major'],
];
let failed = 0;
for (const r of rows) {
  const source = r[0] === 'm' ? matrices : text;
  const [space, binding, offset, size, want] = r[0] === 'm' ? r.slice(1) : r;
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
// Struct values' fields (fixtures/values/structs.wgsl; tests/test_value_types.c reads the same
// rows in C): names without Slang's _0 and _std140, offsets by WGSL's rules, the array wrapper
// _Array_std140_Light2_0 read as its array.
const structs = fs.readFileSync(path.join(here, '../../fixtures/values/structs.wgsl'), 'utf8');
const describe = (t) => t.kind === 'struct' ? `${t.name}{${t.members.map((m) => `${m.name}@${m.offset}:${describe(m.type)}`).join(',')}}`
  : t.kind === 'array' ? `${describe(t.elem)}[${t.count}/${t.stride}]` : t.kind === 'leaf' ? t.v.scalar + t.v.bits + (t.v.rows > 1 ? `_${t.v.rows}x${t.v.columns}` : `x${t.v.columns}`) : '?';
for (const [row, want] of [
  [{ space: 0, binding: 3, offset: 0, size: 16 }, 'Rect{x@0:i32x1,y@4:i32x1,w@8:i32x1,h@12:i32x1}'],
  [{ space: 0, binding: 0, offset: 16, size: 32 }, 'Light{color@0:f32x3,intensity@12:f32x1}[2/16]'],
  [{ space: 0, binding: 1, offset: 0, size: 224 }, 'Outer{inner@0:Inner{uv@0:f32x2,id@8:i32x1},m@16:f32_3x4,list@64:Inner{uv@0:f32x2,id@8:i32x1}[2/16],one@96:One{only@0:f32x1},s@112:f32x1,arr@128:f32x4[3/16],cm@176:f32_2x3}'],
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
