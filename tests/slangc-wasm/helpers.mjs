// Shared helpers for the slangc-wasm tests: running the tool, temporary
// folders, and checking SPIR-V with SPIRV-Tools.

import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TOOL = path.join(ROOT, 'tools/slangc-wasm/slangc-wasm');
export const FIXTURES = path.join(ROOT, 'fixtures/slangc-wasm');

/* Runs slangc-wasm once in the fixtures folder; returns status, stdout (Buffer), stderr. */
export function slangc(args, { cwd = FIXTURES } = {}) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { cwd, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

/* Runs `slangc-wasm --serve` with the given input text; resolves to its output lines. */
export function serve(input, { cwd = FIXTURES } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TOOL, '--serve'], { cwd });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, lines: out.split('\n').filter((l) => l !== ''), stderr: err }),
    );
    child.stdin.end(input);
  });
}

export function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'slangc-wasm-test-'));
}

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // keep looking
    }
  }
  return null;
}

/* The SPIR-V words without OpSource instructions (opcode 3). */
export function stripOpSource(buf) {
  const words = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const out = Array.from(words.subarray(0, 5));
  for (let i = 5; i < words.length;) {
    const n = words[i] >>> 16;
    if (n === 0) throw new Error(`bad SPIR-V instruction at word ${i}`);
    if ((words[i] & 0xffff) !== 3) out.push(...words.subarray(i, i + n));
    i += n;
  }
  return Buffer.from(new Uint32Array(out).buffer);
}

/*
 * Validates SPIR-V for Vulkan 1.2 with spirv-val (Debian package
 * spirv-tools).  OpSource is removed first: Debian's SPIRV-Tools 2023.1
 * rejects Slang's source-language id.  Returns spirv-val's result.
 */
export function spirvVal(buf) {
  const val = findOnPath('spirv-val');
  if (val === null) throw new Error("spirv-val not found: install the Debian package 'spirv-tools'");
  const dir = tempDir();
  try {
    const f = path.join(dir, 'm.spv');
    fs.writeFileSync(f, stripOpSource(buf));
    const r = spawnSync(val, ['--target-env', 'vulkan1.2', f], { encoding: 'utf8' });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/* The names of a SPIR-V module's OpEntryPoint instructions, in order. */
export function spirvEntryPoints(buf) {
  const words = new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const names = [];
  for (let i = 5; i < words.length;) {
    const n = words[i] >>> 16;
    if ((words[i] & 0xffff) === 15) {
      const bytes = Buffer.from(words.slice(i + 3, i + n).buffer);
      names.push(bytes.toString('utf8', 0, bytes.indexOf(0)));
    }
    i += n;
  }
  return names;
}
