// Defines, includes and imports, which slangc-wasm prepares before Slang
// sees the source; and the -depfile that lists what was read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { slangc, tempDir } from './helpers.mjs';

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
