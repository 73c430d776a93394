// wgsl_values_test.mjs - the WebGPU runner's value types (wgsl_values.mjs)
// agree with code/wgsl/value_wgsl.c's on the same real Slang output
// (fixtures/values/values.wgsl; tests/test_value_types.c checks the C side
// with this table). Exit 0 when every row reads as expected.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { valueType, blockSize } = await import(pathToFileURL(path.join(here, 'wgsl_values.mjs')).href);
const text = fs.readFileSync(path.join(here, '../../fixtures/values/values.wgsl'), 'utf8');
const P = 0xfffffffe;
const rows = [
  [0, 0, 0, 4, 'f32'], [0, 1, 0, 4, 'u32'], [0, 1, 4, 4, 'f32'], [0, 1, 8, 4, 'i32'],
  [0, 1, 12, 4, 'u32'], [0, 2, 0, 16, 'f32x4'], [0, 2, 16, 48, 'f32x4[3]'],
  [0, 2, 64, 48, 'i32x4[3]'], [0, 2, 112, 2, 'f16'], [0, 5, 0, 4, 'f32'], [0, 5, 8, 8, 'u32x2'],
  [0, 5, 16, 32, 'f32x4[2]'], [P, 3, 0, 4, 'u32'], [P, 4, 0, 4, 'unknown'], [0, 3, 0, 4, 'unknown'],
];
let failed = 0;
for (const [space, binding, offset, size, want] of rows) {
  const t = valueType(text, { name: 'x', space, binding, offset, size });
  const got = t ? t.text : 'unknown';
  if (got !== want) {
    console.log(`FAIL: space ${space} binding ${binding} offset ${offset}: got ${got}, want ${want}`);
    failed++;
  }
}
for (const [binding, want] of [[1, 16], [2, 128], [3, 0]]) {
  const got = blockSize(text, { space: 0, binding });
  if (got !== want) {
    console.log(`FAIL: block at binding ${binding}: ${got} bytes, want ${want}`);
    failed++;
  }
}
console.log(failed ? `${failed} of ${rows.length} rows wrong` : `${rows.length} rows as expected`);
process.exit(failed ? 1 : 0);
