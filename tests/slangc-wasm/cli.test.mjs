// The command line: diagnostics, exit status, refused options, no output
// left behind on failure, -v and -h.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { FIXTURES, serve, slangc, tempDir } from './helpers.mjs';

test("the issue's example command line works", () => {
  const dir = tempDir();
  const spv = path.join(dir, 'k.spv');
  const json = path.join(dir, 'k.json');
  const r = slangc([
    'basic.slang',
    '-target',
    'spirv',
    '-entry',
    'scale',
    '-stage',
    'compute',
    '-o',
    spv,
    '-reflection-json',
    json,
    '-matrix-layout-row-major',
    '-DFOO=1',
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.length, 0);
  assert.ok(fs.statSync(spv).size > 0);
  const text = fs.readFileSync(json, 'utf8');
  assert.ok(text.startsWith('{\n    "parameters": ['), 'reflection JSON indented by 4 spaces');
  assert.ok(text.endsWith('}\n'));
  assert.deepEqual(fs.readdirSync(dir).sort(), ['k.json', 'k.spv']); // no temporaries left
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a syntax error: Slang's diagnostic, non-zero exit, no output file", () => {
  const dir = tempDir();
  const out = path.join(dir, 'bad.spv');
  const json = path.join(dir, 'bad.json');
  const dep = path.join(dir, 'bad.d');
  const r = slangc([
    'syntax_error.slang',
    '-target',
    'spirv',
    '-o',
    out,
    '-reflection-json',
    json,
    '-depfile',
    dep,
  ]);
  assert.notEqual(r.status, 0);
  assert.equal(
    r.stderr,
    'syntax_error.slang(4): error 20002: syntax error.\n' +
      'void main(uint3 tid : SV_DispatchThreadID) { data[tid.x] = ; }\n' +
      '                                                           ^\n',
  );
  assert.equal(r.stdout.length, 0);
  assert.deepEqual(fs.readdirSync(dir), []);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a file that is not text is refused before Slang reads it, naming the first bad byte', () => {
  const dir = tempDir();
  const nul = path.join(dir, 'nul.slang');
  const utf16 = path.join(dir, 'utf16.slang');
  const includer = path.join(dir, 'includer.slang');
  fs.writeFileSync(nul, 'int x;\n\0');
  fs.writeFileSync(utf16, Buffer.from('\ufeffint x;\n', 'utf16le'));
  fs.writeFileSync(includer, '#include "utf16.slang"\n');
  for (const [file, want] of [
    [nul, `slangc-wasm: error: ${nul}: not a text file (a NUL byte at offset 7)\n`],
    [utf16, `slangc-wasm: error: ${utf16}: not a text file (invalid UTF-8 at offset 0)\n`],
    [includer, `slangc-wasm: error: ${utf16}: not a text file (invalid UTF-8 at offset 0)\n`],
  ]) {
    const r = slangc([file, '-target', 'spirv', '-o', path.join(dir, 'x.spv')]);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, want);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const WARNINGS =
  "warnings.slang(21): warning 30081: implicit conversion from 'float' to 'int' is not recommended\n" +
  '    int i = 1.5;\n' +
  '            ^~~\n' +
  "warnings.slang(15): warning 41018: returning without initializing out parameter 'r'\n" +
  '}\n' +
  '^\n' +
  "warnings.slang(10): warning 41016: use of uninitialized variable 'x'\n" +
  '    return x;\n' +
  '    ^~~~~~\n';

test("a module that compiles prints Slang's warnings, those of the checks and of the IR passes", () => {
  const dir = tempDir();
  for (const target of ['spirv', 'wgsl', 'metal', 'hlsl', 'glsl']) {
    const r = slangc(['warnings.slang', '-target', target, '-o', path.join(dir, `w.${target}`)]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, WARNINGS, target);
  }
  // With -D the module's text starts with the macros; the warnings keep its lines.
  const r = slangc(['warnings.slang', '-target', 'spirv', '-DFOO=1', '-o', path.join(dir, 'd.spv')]);
  assert.equal(r.stderr, WARNINGS);
  // A module without warnings prints nothing.
  const clean = slangc(['basic.slang', '-target', 'spirv', '-o', path.join(dir, 'b.spv')]);
  assert.equal(clean.status, 0);
  assert.equal(clean.stderr, '');
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an imported module's warnings are printed too, before the importer's", () => {
  const dir = tempDir();
  fs.copyFileSync(path.join(FIXTURES, 'warnings.slang'), path.join(dir, 'warnings.slang'));
  fs.writeFileSync(
    path.join(dir, 'importer.slang'),
    'import warnings;\n[shader("compute")]\n[numthreads(1, 1, 1)]\nvoid m() { float f = 2; uint u = f; output[0] = u; }\n',
  );
  const r = slangc(['importer.slang', '-target', 'spirv', '-entry', 'm', '-o', path.join(dir, 'm.spv')], {
    cwd: dir,
  });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stderr.startsWith(WARNINGS), r.stderr);
  assert.match(r.stderr.slice(WARNINGS.length), /^importer\.slang\(4\): warning 30081: /);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("with -D the diagnostic keeps the user's file and line", () => {
  const r = slangc(['syntax_error.slang', '-target', 'wgsl', '-DA=1', '-D', 'B']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /^syntax_error\.slang\(4\): error 20002: syntax error\.$/m);
});

test("an unknown entry point is Slang's error 38000", () => {
  const r = slangc(['basic.slang', '-target', 'spirv', '-entry', 'nosuch', '-stage', 'compute']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /error 38000: no function found matching entry point name 'nosuch'/);
});

test('unknown options are refused by name', () => {
  for (const opt of ['-Ofast', '--frobnicate', '-g4', '-lang']) {
    const r = slangc(['basic.slang', '-target', 'spirv', opt]);
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr, `slangc-wasm: error: unknown option '${opt}'\n`);
  }
});

test('options slangc has but this build cannot honour are refused with a reason', () => {
  for (const opt of ['-matrix-layout-column-major', '-fvk-use-entrypoint-name', '-capability']) {
    const r = slangc(['basic.slang', '-target', 'spirv', opt, 'spvImageQuery']);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, new RegExp(`^slangc-wasm: error: option '${opt}' is not supported: .+\\n$`));
  }
  const r = slangc(['basic.slang', '-target', 'spirv', '-capability', 'spvImageQuery']);
  assert.match(r.stderr, /no capability setting/);
  for (const [opt, why] of [['-fvk-use-scalar-layout', /no block-layout setting/],
    ['-force-glsl-scalar-layout', /no block-layout setting/], ['-fvk-use-c-layout', /no block-layout setting/],
    ['-O0', /no optimization setting; its sessions have Slang's default, -O1/], ['-O3', /no optimization setting/],
    ['-g', /no debug-information setting/], ['-g2', /no debug-information setting/]]) {
    const refused = slangc(['basic.slang', '-target', 'spirv', opt]);
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, new RegExp(`^slangc-wasm: error: option '${opt}' is not supported: .+\\n$`));
    assert.match(refused.stderr, why);
  }
});

test('-profile spirv_1_5, the SPIR-V version its sessions write, is taken for spirv alone', () => {
  const dir = tempDir();
  const spv = path.join(dir, 'k.spv');
  let r = slangc(['basic.slang', '-target', 'spirv', '-entry', 'scale', '-stage', 'compute',
    '-profile', 'spirv_1_5', '-o', spv]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(spv).readUInt32LE(4), 0x00010500, 'SPIR-V 1.5');
  for (const profile of ['spirv_1_6', 'spirv_1_3', 'sm_6_0', 'glsl_450']) {
    r = slangc(['basic.slang', '-target', 'spirv', '-profile', profile, '-o', spv]);
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `slangc-wasm: error: option '-profile ${profile}' is not supported: ` +
      'the Slang WebAssembly API has no target-profile setting; its sessions write SPIR-V 1.5 ' +
      '(-profile spirv_1_5 is accepted, for the spirv target)\n');
  }
  r = slangc(['basic.slang', '-target', 'wgsl', '-profile', 'spirv_1_5', '-o', path.join(dir, 'k.wgsl')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /'-profile spirv_1_5' is not supported for target 'wgsl': it names a SPIR-V version/);
  r = slangc(['basic.slang', '-target', 'spirv', '-profile']);
  assert.equal(r.stderr, "slangc-wasm: error: option '-profile' needs a value\n");
  fs.rmSync(dir, { recursive: true, force: true });
});

test('targets needing a downstream compiler name it', () => {
  for (const [target, compiler] of [
    ['dxil', 'dxc'],
    ['dxbc', 'fxc'],
    ['metallib', 'metal'],
  ]) {
    const r = slangc(['basic.slang', '-target', target, '-o', `x.${target}`]);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, new RegExp(`downstream compiler '${compiler}'`));
    assert.ok(!fs.existsSync(`x.${target}`));
  }
  const r = slangc(['basic.slang', '-target', 'cpp']);
  assert.notEqual(r.status, 0);
  assert.equal(r.stderr, "slangc-wasm: error: unknown or unsupported target 'cpp'\n");
});

test('usage errors', () => {
  assert.match(slangc(['-target', 'spirv']).stderr, /^slangc-wasm: error: no input file$/m);
  assert.match(slangc(['basic.slang']).stderr, /no target/);
  assert.match(slangc(['basic.slang', '-target']).stderr, /option '-target' needs a value/);
  assert.match(slangc(['basic.slang', '-target', 'spirv', '-stage', 'warp']).stderr, /unknown stage 'warp'/);
  assert.match(slangc(['nope.slang', '-target', 'spirv']).stderr, /cannot open file 'nope\.slang'/);
  assert.notEqual(slangc(['nope.slang', '-target', 'spirv']).status, 0);
});

test('-v and -h', () => {
  for (const v of ['-v', '-version']) {
    const r = slangc([v]);
    assert.equal(r.status, 0);
    assert.equal(r.stdout.toString(), '2025.15\n');
  }
  for (const h of ['-h', '--help']) {
    const r = slangc([h]);
    assert.equal(r.status, 0);
    assert.match(r.stdout.toString(), /^usage: slangc-wasm /);
  }
});

test('a C++ exception inside the wasm: its type, the stage, exit status 3, and the next job works', async () => {
  const dir = tempDir();
  const out = path.join(dir, 'g.spv');
  const r = slangc(['generic_entry.slang', '-target', 'spirv', '-o', out]);
  assert.equal(r.status, 3, r.stderr.toString());
  assert.equal(
    r.stderr.toString(),
    "slangc-wasm: error: Slang's WebAssembly module failed while generating spirv code: " +
      'a C++ exception (Slang::InternalError)\n',
  );
  assert.ok(!fs.existsSync(out));
  // In one --serve process: the failed job is answered, the instance replaced, the next job compiles.
  const s = await serve(
    [
      JSON.stringify(['generic_entry.slang', '-target', 'wgsl']),
      JSON.stringify(['basic.slang', '-target', 'wgsl', '-entry', 'scale', '-stage', 'compute']),
    ].join('\n') + '\n',
  );
  const [a, b] = s.lines.map((l) => JSON.parse(l));
  assert.equal(a.status, 3);
  assert.match(a.diagnostics, /failed while generating wgsl code: a C\+\+ exception \(Slang::InternalError\)\n$/);
  assert.doesNotMatch(a.diagnostics, /\[object/);
  assert.equal(b.status, 0, b.diagnostics);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('-skip-codegen: the reflection JSON and the depfile of a compile, no code, no warnings', async () => {
  const dir = tempDir();
  const at = (name) => path.join(dir, name);
  const args = ['includes.slang', '-target', 'spirv', '-Iincdir', '-reflection-json'];
  let r = slangc([...args, at('full.json'), '-o', at('full.spv'), '-depfile', at('full.d')]);
  assert.equal(r.status, 0, r.stderr);
  r = slangc([...args, at('skip.json'), '-o', at('skip.spv'), '-depfile', at('skip.d'), '-skip-codegen']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.length, 0);
  assert.equal(fs.readFileSync(at('skip.json'), 'utf8'), fs.readFileSync(at('full.json'), 'utf8'));
  assert.equal(
    fs.readFileSync(at('skip.d'), 'utf8'),
    fs.readFileSync(at('full.d'), 'utf8').replace('full.spv', 'skip.spv'),
  );
  assert.ok(!fs.existsSync(at('skip.spv')), '-o is not written');
  // A text target prints no code either, and a binary one needs no -o in --serve.
  r = slangc(['basic.slang', '-target', 'wgsl', '-skip-codegen', '-reflection-json', at('w.json')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.length, 0);
  const served = await serve(
    JSON.stringify(['basic.slang', '-target', 'spirv', '-skip-codegen', '-reflection-json', at('s.json')]) + '\n',
  );
  assert.deepEqual(JSON.parse(served.lines[0]), { status: 0, diagnostics: '', outputs: [at('s.json')] });
  // The module's warnings are left to the compiles that generate code (no second load).
  r = slangc(['warnings.slang', '-target', 'spirv', '-skip-codegen', '-reflection-json', at('x.json')]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  // Errors are reported as without it, and nothing is written.
  r = slangc(['syntax_error.slang', '-target', 'spirv', '-skip-codegen', '-reflection-json', at('e.json')]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^syntax_error\.slang\(4\): error 20002: syntax error\.$/m);
  assert.ok(!fs.existsSync(at('e.json')));
  fs.rmSync(dir, { recursive: true, force: true });
});
