// PTX for `-target ptx`.  slangc compiles its CUDA output to PTX with NVRTC;
// Slang's WebAssembly build cannot load NVRTC, so Slang's CUDA output (which
// carries Slang's CUDA prelude inline) is compiled with the CUDA toolkit's
// nvcc instead.  nvcc is found through $CUDA_PATH/bin, /usr/local/cuda/bin,
// then PATH.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

function isExecutable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/* The nvcc to use, or null when there is none. */
export function findNvcc(env = process.env) {
  const candidates = [];
  if (env.CUDA_PATH) candidates.push(path.join(env.CUDA_PATH, 'bin', 'nvcc'));
  candidates.push('/usr/local/cuda/bin/nvcc');
  for (const dir of (env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(path.join(dir, 'nvcc'));
  return candidates.find(isExecutable) ?? null;
}

/*
 * Compiles CUDA source text to PTX.  Returns { ok: true, ptx } or
 * { ok: false, diagnostics }.  The source is written to a private temporary
 * folder, removed afterwards.
 */
export function cudaToPtx(cudaSource, inputName) {
  const nvcc = findNvcc();
  if (nvcc === null)
    return {
      ok: false,
      diagnostics:
        "slangc-wasm: error: target 'ptx' needs the CUDA toolkit's nvcc " +
        '(not found in $CUDA_PATH/bin, /usr/local/cuda/bin or PATH)\n',
    };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'slangc-wasm-'));
  try {
    const base = path.basename(inputName).replace(/\.[^.]*$/, '') || 'module';
    const cu = path.join(dir, `${base}.cu`);
    const out = path.join(dir, `${base}.ptx`);
    fs.writeFileSync(cu, cudaSource);
    // SLANG_CUDA_ENABLE_HALF: the prelude's half support (cuda_fp16.h), as slangc enables
    // it for NVRTC; -w: the prelude's deprecation warnings would bury a real error.
    const r = spawnSync(nvcc, ['-ptx', '-std=c++17', '-w', '-DSLANG_CUDA_ENABLE_HALF', '-o', out, cu], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.error)
      return { ok: false, diagnostics: `slangc-wasm: error: cannot run '${nvcc}': ${r.error.message}\n` };
    if (r.status !== 0) {
      const log = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/\n*$/, '\n');
      return {
        ok: false,
        diagnostics: `${log}slangc-wasm: error: nvcc failed to compile the CUDA code of '${inputName}' to PTX\n`,
      };
    }
    return { ok: true, ptx: fs.readFileSync(out, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
