// Defines, includes and imports, which slangc-wasm prepares before Slang
// sees the source; and the -depfile that lists what was read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { slangc, spirvVal, tempDir } from './helpers.mjs';

test('-D NAME=VALUE and -DNAME reach the preprocessor', () => {
  for (const defs of [
    ['-DWIDTH=16', '-DUSE_TINT'],
    ['-D', 'WIDTH=16', '-D', 'USE_TINT'],
  ]) {
    const r = slangc(['defines.slang', '-target', 'wgsl', ...defs]);
    assert.equal(r.status, 0, r.stderr);
    const text = r.stdout.toString('utf8');
    assert.match(text, /@workgroup_size\(16, 1, 1\)/);
    assert.match(text, /u32\(16\)/);
  }
});

test('a missing -D keeps the user file and line in the diagnostic', () => {
  const r = slangc(['defines.slang', '-target', 'wgsl', '-DWIDTH=8']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^defines\.slang\(7\): error 15900: #error: USE_TINT is not defined$/m);
});

test('includes: next to the file, nested, -I folders, #pragma once, inactive branches', () => {
  const dir = tempDir();
  const out = path.join(dir, 'inc.wgsl');
  for (const inc of [['-I', 'incdir'], ['-Iincdir']]) {
    const r = slangc(['includes.slang', '-target', 'wgsl', ...inc, '-o', out]);
    assert.equal(r.status, 0, r.stderr);
    const text = fs.readFileSync(out, 'utf8');
    assert.match(text, /fn main\(/);
  }
  // Without the -I folder, Slang reports the include it cannot find.
  const r = slangc(['includes.slang', '-target', 'wgsl', '-o', out + '2']);
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /^includes\.slang\(4\): error 15300: failed to find include file 'from_search_path\.h'$/m,
  );
  assert.ok(!fs.existsSync(out + '2'));
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a missing include is an error naming the file and line, in Slang's words", () => {
  const r = slangc(['missing_include.slang', '-target', 'spirv', '-o', 'never-written.spv']);
  assert.notEqual(r.status, 0);
  assert.equal(
    r.stderr,
    "missing_include.slang(3): error 15300: failed to find include file 'no_such_header.h'\n" +
      '#include "no_such_header.h"\n' +
      '         ^~~~~~~~~~~~~~~~~~\n',
  );
});

test('an error inside an included file names that file and line', () => {
  const r = slangc(['error_in_include.slang', '-target', 'spirv']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^sub\/bad\.h\(2\): error 20002: syntax error\.$/m);
});

test('imports: dotted names, underscore-to-hyphen files, string imports, -I, nested', () => {
  const r = slangc(['imports.slang', '-target', 'wgsl', '-I', 'incdir', '-DCUBE_SCALE=1.0']);
  assert.equal(r.status, 0, r.stderr);
  const text = r.stdout.toString('utf8');
  assert.match(text, /fn main\(/);
  assert.match(text, /square/);
});

test('an imported module that is not found is reported by Slang', () => {
  const r = slangc(['imports.slang', '-target', 'wgsl', '-DCUBE_SCALE=1.0']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^imports\.slang\(5\): error 1: cannot open file 'shared_math\.slang'\.$/m);
});

test("an error in an imported module names that module's file and line", () => {
  const r = slangc(['bad_import.slang', '-target', 'wgsl']);
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /^sub\/broken_module\.slang\(2\): error 30015: undefined identifier 'undefined_thing'\.$/m,
  );
});

test('-depfile lists the output, the module and every file included or imported', () => {
  const dir = tempDir();
  const out = path.join(dir, 'out file.wgsl');
  const dep = path.join(dir, 'out.d');
  let r = slangc(['includes.slang', '-target', 'wgsl', '-Iincdir', '-o', out, '-depfile', dep]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(
    fs.readFileSync(dep, 'utf8'),
    `${out.replace(/ /g, '\\ ')}: includes.slang common.h sub/nested.h incdir/from_search_path.h\n`,
  );
  r = slangc([
    'imports.slang',
    '-target',
    'wgsl',
    '-I',
    'incdir',
    '-DCUBE_SCALE=1.0',
    '-o',
    out,
    '-depfile',
    dep,
  ]);
  assert.equal(r.status, 0, r.stderr);
  const deps = fs.readFileSync(dep, 'utf8').trim().split(': ')[1].split(' ');
  assert.deepEqual(deps, [
    'imports.slang',
    'sub/base_ops.slang',
    'sub/vector-ops.slang',
    'string_module.slang',
    'incdir/shared_math.slang',
    'incdir/from_search_path.h',
  ]);
  fs.rmSync(dir, { recursive: true, force: true });
});

// Files as editors write them, in a temporary folder: `files` maps names to text.
function writeFiles(files) {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const BOM = '\ufeff';
const crlf = (text) => text.replace(/\n/g, '\r\n');
const KERNEL =
  'RWStructuredBuffer<uint> dst;\n[shader("compute")]\n[numthreads(1, 1, 1)]\n' +
  'void k() { dst[0] = twice(3); }\n';

test('a byte-order mark and CRLF line endings in the module, includes and imports change nothing', () => {
  const plain = {
    'm.slang': '#include "twice.h"\nimport lib;\n#if defined(ALT)\n#error ALT\n#endif\n' + KERNEL,
    'twice.h': '#pragma once\nuint twice(uint x) { return x * 2; }\n',
    'lib.slang': '// a module\npublic uint three() { return 3; }\n',
  };
  const edited = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, BOM + crlf(v)]));
  const texts = [plain, edited].map((files) => {
    const dir = writeFiles(files);
    const r = slangc(['m.slang', '-target', 'wgsl', '-DUNUSED=1'], { cwd: dir });
    fs.rmSync(dir, { recursive: true, force: true });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.toString('utf8');
  });
  assert.match(texts[0], /fn twice/);
  assert.equal(texts[1], texts[0]);
});

test('#include NAME includes the file the macro stands for where the include is', () => {
  const dir = writeFiles({
    'm.slang':
      '#define HEADER "one.h"\n#if defined(USE_TWO)\n#undef HEADER\n#define HEADER <sub/two.h>\n#endif\n' +
      '#include HEADER\n' +
      KERNEL,
    'one.h': 'uint twice(uint x) { return x * 2; }\n',
    'sub/two.h': 'uint twice(uint x) { return x * 5; }\n',
    'd.slang': '#include FROM_D // a -D\n' + KERNEL,
    'bad.slang': '#define HEADER "none.h"\n#include HEADER\n' + KERNEL,
  });
  let r = slangc(['m.slang', '-target', 'wgsl'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.toString('utf8'), /x_0 \* u32\(2\)/);
  r = slangc(['m.slang', '-target', 'wgsl', '-DUSE_TWO', '-I', dir], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.toString('utf8'), /x_0 \* u32\(5\)/);
  r = slangc(['d.slang', '-target', 'wgsl', '-DFROM_D="one.h"'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  // A name that is no file is reported by Slang, at the #define as Slang alone does.
  r = slangc(['bad.slang', '-target', 'wgsl'], { cwd: dir });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^bad\.slang\(1\): error 15300: failed to find include file 'none\.h'$/m);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('#pragma once and #ifndef guards make a second inclusion, or a guarded cycle, empty', () => {
  const dir = writeFiles({
    'm.slang': '#include "once.h"\n#include "once.h"\n#include "a.h"\n' + KERNEL,
    'once.h': crlf('// once\n#pragma once\nuint twice(uint x) { return x * 2; }\n'),
    'a.h': '#ifndef A_H\n#define A_H\n#include "b.h"\nuint fa() { return 1; }\n#endif // A_H\n',
    'b.h': '/* b */\n#if !defined(B_H)\n#define B_H\n#include "a.h"\nuint fb() { return 2; }\n#endif\n',
  });
  const r = slangc(['m.slang', '-target', 'wgsl'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an include cycle is an error naming each file and line of the cycle', () => {
  const dir = writeFiles({
    'm.slang': '#include "a.h"\n' + KERNEL,
    'a.h': '// a\n#include "b.h"\nuint twice(uint x) { return x * 2; }\n',
    'b.h': '#include "a.h"\n',
    'self.slang': '#if !defined(NEVER)\n#include "self.slang"\n#endif\n' + KERNEL,
  });
  let r = slangc(['m.slang', '-target', 'wgsl'], { cwd: dir });
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /^b\.h\(1\): error 15900: #error: include cycle: a\.h\(2\) includes b\.h, b\.h\(1\) includes a\.h$/m,
  );
  r = slangc(['self.slang', '-target', 'wgsl'], { cwd: dir });
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /^self\.slang\(2\): error 15900: #error: include cycle: self\.slang\(2\) includes self\.slang$/m,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an included file's unterminated #if is reported at the #if, a stray #endif at the #endif", () => {
  const dir = writeFiles({
    'm.slang': '#include "open.h"\n' + KERNEL,
    'open.h': crlf('uint twice(uint x) { return x * 2; }\n/* #endif */\n#if defined(X)\nuint other();\n'),
    'n.slang': '#if 1\n#include "stray.h"\n#endif\n' + KERNEL,
    'stray.h': 'uint twice(uint x) { return x * 2; }\n#endif\n',
    'inactive.slang': '#if 0\n#include "open.h"\n#endif\n#include "once.h"\n' + KERNEL,
    'once.h': 'uint twice(uint x) { return x * 2; }\n',
  });
  let r = slangc(['m.slang', '-target', 'wgsl'], { cwd: dir });
  assert.notEqual(r.status, 0);
  assert.match(
    r.stderr,
    /^open\.h\(3\): error 15900: #error: unterminated #if: no #endif before the end of this file$/m,
  );
  r = slangc(['n.slang', '-target', 'wgsl'], { cwd: dir });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^stray\.h\(2\): error 15900: #error: #endif without #if in this file$/m);
  // An include in an inactive branch is not followed, by Slang itself either.
  r = slangc(['inactive.slang', '-target', 'wgsl'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a module of 25 MB and 190,000 lines builds, on its own and #included', () => {
  // Comment lines of 131 bytes: the file is large for the preparation, cheap for Slang.
  const pad = [];
  for (let i = 0; pad.length * 131 < 25e6; i++)
    pad.push(`// line ${String(i).padStart(6, '0')} `.padEnd(130, '.'));
  const big = pad.join('\n') + '\nuint twice(uint x) { return x * 2; }\n' + KERNEL;
  assert.ok(big.length >= 25e6 && pad.length > 190000);
  const dir = writeFiles({
    'big.slang': big,
    'inc.slang': '#include "big.slang"\n',
    'after.slang': '#include "big.slang"\nuint bad() { return nothing; }\n',
  });
  for (const m of ['big.slang', 'inc.slang']) {
    const r = slangc([m, '-target', 'wgsl'], { cwd: dir });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout.toString('utf8'), /fn k\(/);
  }
  // Lines after the included file keep their numbers.
  const r = slangc(['after.slang', '-target', 'wgsl'], { cwd: dir });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /^after\.slang\(2\): error 30015: undefined identifier 'nothing'\.$/m);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("__include: Slang's module files, found beside the includer, by extension, in a subfolder, through -I", () => {
  const dir = tempDir();
  const out = path.join(dir, 'parts.wgsl');
  const dep = path.join(dir, 'parts.d');
  let r = slangc(['module_parts.slang', '-target', 'wgsl', '-I', 'incdir', '-o', out, '-depfile', dep]);
  assert.equal(r.status, 0, r.stderr);
  const text = fs.readFileSync(out, 'utf8');
  for (const f of ['scale_it', 'tone', 'hash_bits', 'noise', 'extra'])
    assert.equal(text.match(new RegExp(`^fn ${f}_0\\(`, 'gm'))?.length, 1, `fn ${f} once`);
  // Every file read, once, in the order found; the hyphen-spelled one too.
  assert.equal(
    fs.readFileSync(dep, 'utf8'),
    `${out}: module_parts.slang module_parts_util.slang module_parts_tone.slang parts/noise.slang ` +
      'parts/../sub/nested.h parts/hash-bits.slang incdir/parts_extra.slang\n',
  );
  // Without the -I folder, Slang reports the file it cannot open, where it is named.
  r = slangc(['module_parts.slang', '-target', 'wgsl']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^module_parts\.slang\(9\): error 1: cannot open file 'parts_extra'\.$/m);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an imported module that __includes its other files', () => {
  const dir = tempDir();
  const out = path.join(dir, 'import.spv');
  const dep = path.join(dir, 'import.d');
  const r = slangc(['import_parts.slang', '-target', 'spirv', '-o', out, '-depfile', dep]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(spirvVal(fs.readFileSync(out)).status, 0);
  assert.equal(
    fs.readFileSync(dep, 'utf8'),
    `${out}: import_parts.slang parts/lib.slang parts/lib_impl.slang\n`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
});

test("__include: what Slang refuses is refused in Slang's words, at the file and line", () => {
  const dir = writeFiles({
    // The shape of the issue: a module and the file beside it, named as a string.
    'shading.slang': 'module shading;\n__include "shading_util";\n' + KERNEL,
    'shading_util.slang': '// helpers\nimplementing shading;\nuint twice(uint x) { return x * 2; }\n',
    'none.slang': 'module m;\n__include no_implementing;\n' + KERNEL,
    'no_implementing.slang': 'uint twice(uint x) { return x * 2; }\n',
    'other.slang': 'module m;\n\n__include other_module;\n' + KERNEL,
    'other_module.slang': 'implementing elsewhere;\nuint twice(uint x) { return x * 2; }\n',
    'own.slang': 'module m;\n__include own_module;\n' + KERNEL,
    'own_module.slang': 'module lib;\nuint twice(uint x) { return x * 2; }\n',
    'broken.slang': 'module m;\n__include broken_part;\n' + KERNEL,
    'broken_part.slang': 'implementing m;\n\nuint twice(uint x) { return nothing; }\n',
  });
  let r = slangc(['shading.slang', '-target', 'wgsl'], { cwd: dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout.toString('utf8'), /fn twice_0\(/);
  const missing = "missing 'implementing' declaration in the included source file";
  const refused = [
    ['none.slang', `none.slang(2): error 15900: #error: ${missing} 'no_implementing'.`],
    [
      'other.slang',
      "other.slang(3): error 15900: #error: the included source file is expected to implement " +
        "module 'm', but it is implementing 'elsewhere' instead.",
    ],
    [
      'own.slang',
      `own.slang(2): error 15900: #error: ${missing} 'own_module'. The file declares that it ` +
        "defines module 'lib', do you mean 'import' instead?",
    ],
    ['broken.slang', "broken_part.slang(3): error 30015: undefined identifier 'nothing'."],
  ];
  for (const [m, message] of refused) {
    r = slangc([m, '-target', 'wgsl'], { cwd: dir });
    assert.equal(r.status, 1, `${m}: ${r.stderr}`);
    assert.ok(r.stderr.split('\n').includes(message), `${m}: ${r.stderr}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
