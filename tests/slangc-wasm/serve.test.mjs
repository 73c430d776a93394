// --serve: one JSON answer per job line, the same bytes as one-shot runs.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { FIXTURES, serve, slangc, tempDir } from './helpers.mjs';

const JOBS = [
  [
    'basic.slang',
    '-target',
    'spirv',
    '-entry',
    'scale',
    '-stage',
    'compute',
    '-entry',
    'fill',
    '-stage',
    'compute',
  ],
  ['basic.slang', '-target', 'wgsl', '-entry', 'fill', '-stage', 'compute'],
  ['includes.slang', '-target', 'metal', '-Iincdir'],
  ['imports.slang', '-target', 'hlsl', '-I', 'incdir', '-DCUBE_SCALE=2.0'],
  ['defines.slang', '-target', 'glsl', '-DWIDTH=4', '-DUSE_TINT'],
];

test('--serve gives the same bytes as one-shot runs', async () => {
  const dir = tempDir();
  const lines = [];
  JOBS.forEach((job, i) => {
    lines.push(
      JSON.stringify([
        ...job,
        '-o',
        path.join(dir, `s${i}.out`),
        '-reflection-json',
        path.join(dir, `s${i}.json`),
        '-depfile',
        path.join(dir, `s${i}.d`),
      ]),
    );
  });
  const r = await serve(lines.join('\n') + '\n');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.lines.length, JOBS.length);
  JOBS.forEach((job, i) => {
    const a = JSON.parse(r.lines[i]);
    assert.equal(a.status, 0, a.diagnostics);
    assert.equal(a.diagnostics, '');
    assert.deepEqual(
      a.outputs,
      [`s${i}.out`, `s${i}.json`, `s${i}.d`].map((f) => path.join(dir, f)),
    );
    const one = slangc([
      ...job,
      '-o',
      path.join(dir, `o${i}.out`),
      '-reflection-json',
      path.join(dir, `o${i}.json`),
    ]);
    assert.equal(one.status, 0, one.stderr);
    assert.ok(
      fs.readFileSync(path.join(dir, `s${i}.out`)).equals(fs.readFileSync(path.join(dir, `o${i}.out`))),
      `job ${i} code`,
    );
    assert.equal(
      fs.readFileSync(path.join(dir, `s${i}.json`), 'utf8'),
      fs.readFileSync(path.join(dir, `o${i}.json`), 'utf8'),
    );
  });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('--serve: bad lines get error answers, failures report, EOF ends with 0', async () => {
  const dir = tempDir();
  const out = path.join(dir, 'ok.wgsl');
  const input = [
    'this is not json',
    '{"argv": []}',
    '[1, 2, 3]',
    '',
    JSON.stringify(['syntax_error.slang', '-target', 'spirv', '-o', path.join(dir, 'bad.spv')]),
    JSON.stringify(['basic.slang', '-target', 'spirv', '-bogus']),
    JSON.stringify(['-v']),
    JSON.stringify(['basic.slang', '-target', 'wgsl', '-entry', 'scale', '-stage', 'compute']),
    JSON.stringify(['basic.slang', '-target', 'wgsl', '-entry', 'scale', '-stage', 'compute', '-o', out]),
  ].join('\n');
  const r = await serve(input); // no final newline: the last line still counts
  assert.equal(r.status, 0, r.stderr);
  const answers = r.lines.map((l) => JSON.parse(l));
  assert.equal(answers.length, 9);
  for (const a of answers.slice(0, 4)) {
    assert.equal(a.status, 1);
    assert.match(a.diagnostics, /^slangc-wasm: error: bad job line/);
    assert.deepEqual(a.outputs, []);
  }
  assert.equal(answers[4].status, 1);
  assert.match(answers[4].diagnostics, /^syntax_error\.slang\(4\): error 20002: syntax error\./);
  assert.ok(!fs.existsSync(path.join(dir, 'bad.spv')));
  assert.equal(answers[5].diagnostics, "slangc-wasm: error: unknown option '-bogus'\n");
  assert.deepEqual(answers[6], { status: 0, diagnostics: '', outputs: [], stdout: '2025.15\n' });
  assert.equal(answers[7].status, 0);
  assert.match(answers[7].stdout, /fn scale\(/);
  assert.deepEqual(answers[8], { status: 0, diagnostics: '', outputs: [out] });
  assert.equal(fs.readFileSync(out, 'utf8'), answers[7].stdout);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("--serve: jobs do not see each other's modules", async () => {
  // imports.slang without -I fails even after a job that loaded shared_math.
  const input =
    [
      JSON.stringify(['imports.slang', '-target', 'wgsl', '-I', 'incdir', '-DCUBE_SCALE=1.0']),
      JSON.stringify(['imports.slang', '-target', 'wgsl', '-DCUBE_SCALE=1.0']),
    ].join('\n') + '\n';
  const r = await serve(input);
  const [a, b] = r.lines.map((l) => JSON.parse(l));
  assert.equal(a.status, 0, a.diagnostics);
  assert.equal(b.status, 1);
  assert.match(b.diagnostics, /cannot open file 'shared_math\.slang'/);
});

test("--serve: a job that compiles answers with Slang's warnings, probed once per module", async () => {
  const dir = tempDir();
  const job = (i) => JSON.stringify(['warnings.slang', '-target', 'spirv', '-o', path.join(dir, `w${i}.spv`)]);
  const r = await serve(`${job(0)}\n${job(1)}\n`);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.lines.length, 2);
  for (const line of r.lines) {
    const a = JSON.parse(line);
    assert.equal(a.status, 0);
    assert.match(a.diagnostics, /^warnings\.slang\(21\): warning 30081: /);
    assert.match(a.diagnostics, /warnings\.slang\(10\): warning 41016: /);
  }
  assert.equal(JSON.parse(r.lines[0]).diagnostics, JSON.parse(r.lines[1]).diagnostics);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('--serve with other arguments is refused', () => {
  const r = slangc(['--serve', 'basic.slang']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /'--serve' takes no other arguments/);
});

test('--serve: many jobs in one process stay clean', async () => {
  // Each job creates and releases Slang objects; none may damage the next.
  const dir = tempDir();
  const lines = [];
  for (let i = 0; i < 40; i++)
    lines.push(
      JSON.stringify([
        'basic.slang',
        '-target',
        i % 2 ? 'spirv' : 'wgsl',
        '-o',
        path.join(dir, `m${i}`),
        '-reflection-json',
        path.join(dir, `m${i}.json`),
      ]),
    );
  const r = await serve(lines.join('\n') + '\n');
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  const answers = r.lines.map((l) => JSON.parse(l));
  assert.equal(answers.length, 40);
  for (const a of answers) assert.deepEqual([a.status, a.diagnostics], [0, '']);
  for (let i = 2; i < 40; i++)
    assert.ok(fs.readFileSync(path.join(dir, `m${i}`)).equals(fs.readFileSync(path.join(dir, `m${i % 2}`))));
  fs.rmSync(dir, { recursive: true, force: true });
});

test('--serve: a job with "cwd" runs in that folder, and the next one where the server is', async () => {
  // The server runs in an empty folder; the job's module, include folder and output are
  // relative to the job's folder (the fixtures'), as they are for dgpb-build's compile service.
  const home = tempDir();
  const out = tempDir();
  const rel = path.relative(FIXTURES, path.join(out, 'cwd.spv'));
  const input =
    [
      JSON.stringify({ cwd: FIXTURES, args: ['includes.slang', '-target', 'spirv', '-Iincdir', '-o', rel] }),
      JSON.stringify(['includes.slang', '-target', 'spirv', '-Iincdir', '-o', 'here.spv']),
      JSON.stringify({ cwd: 'incdir', args: ['-v'] }),
      JSON.stringify({ cwd: path.join(out, 'missing'), args: ['-v'] }),
      JSON.stringify({ cwd: FIXTURES, layout: ['includes.slang'] }),
      JSON.stringify({ cwd: FIXTURES, args: ['-v'] }),
    ].join('\n') + '\n';
  const r = await serve(input, { cwd: home });
  assert.equal(r.status, 0, r.stderr);
  const answers = r.lines.map((l) => JSON.parse(l));
  assert.equal(answers.length, 6);
  assert.equal(answers[0].status, 0, answers[0].diagnostics);
  const one = slangc(['includes.slang', '-target', 'spirv', '-Iincdir', '-o', path.join(out, 'one.spv')]);
  assert.equal(one.status, 0, one.stderr);
  assert.ok(fs.readFileSync(path.join(out, 'cwd.spv')).equals(fs.readFileSync(path.join(out, 'one.spv'))));
  // Back in the server's folder: the module is not there.
  assert.equal(answers[1].status, 1);
  assert.match(answers[1].diagnostics, /includes\.slang/);
  assert.ok(!fs.existsSync(path.join(home, 'here.spv')));
  assert.equal(answers[2].status, 1);
  assert.match(answers[2].diagnostics, /^slangc-wasm: error: bad job line: "cwd" must be an absolute folder/);
  assert.equal(answers[3].status, 1);
  assert.match(answers[3].diagnostics, /^slangc-wasm: error: cannot enter '.*missing': ENOENT/);
  assert.equal(answers[4].status, 1);
  assert.match(answers[4].diagnostics, /^slangc-wasm: error: bad job line: expected a JSON array/);
  assert.deepEqual(answers[5], { status: 0, diagnostics: '', outputs: [], stdout: '2025.15\n' });
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(out, { recursive: true, force: true });
});
