// One slangc-wasm job: parse the command line, prepare the sources, compile
// them with Slang's WebAssembly API and write the outputs.  Used by the
// one-shot command line and by --serve alike, so both give the same bytes.
//
// runJob() never throws: every failure becomes a non-zero status and a
// diagnostics text (Slang's own diagnostics, or `slangc-wasm: error: ...`).

import fs from 'node:fs';
import path from 'node:path';

import { HELP, MISSING_DOWNSTREAM, SESSION_SPIRV_VERSION, TARGETS, UsageError, parseArgs } from './options.js';
import { SourceError, combinePath, prepareModule } from './preprocess.js';
import { SLANG_VERSION, discard, exceptionMessage, getSlang, lastError, setPrintSink } from './slang.js';
import { cudaToPtx } from './ptx.js';
import { depfileText, writeOutputs } from './output.js';

class JobError extends Error {}

/* A trap, abort or C++ exception inside the wasm, with what the job was doing. */
class WasmFailure extends Error {
  constructor(stage, what, slangSaid) {
    super(what);
    this.stage = stage;
    this.slangSaid = slangSaid;
  }
}

function ours(e) {
  return (
    e instanceof JobError ||
    e instanceof UsageError ||
    e instanceof SourceError ||
    e instanceof WasmFailure ||
    (e && e.code && typeof e.syscall === 'string')
  );
}

// ProgramLayout handles, kept alive for the life of the process (see compile()).
const retainedLayouts = [];

const ERR = 'slangc-wasm: error: ';

// Lines that Slang's loadModuleFromSource adds to every failed load; native
// slangc, which compiles the module as its translation unit, prints none.
const LOAD_NOISE = [
  /^\(0\): error 39999: import of module '.*' failed because of a compilation error$/,
  /^\(0\): fatal error 39999: compilation ceased$/,
  /^abort compilation: .*$/,
];

/* Slang's diagnostics text without the module-loading noise. */
export function cleanDiagnostics(text) {
  const lines = text.split('\n').filter((l) => !LOAD_NOISE.some((re) => re.test(l)));
  const out = lines.join('\n').replace(/\n+$/, '');
  return out === '' ? '' : out + '\n';
}

/*
 * Slang's warnings on success.  The WebAssembly API hands back diagnostics
 * only for a call that fails, so a module that loads drops its warnings.
 * To get them, the module's prepared text is loaded a second time, into
 * the same session, with a sentinel after it that fails the load only once
 * every check of the module ran: a [Differentiable] function calling one
 * that is not, an error of the differentiability check, the pass Slang runs
 * after the checks that warn (uninitialised values, missing returns).  What
 * Slang said then, less the sentinel's error, the loading noise and the
 * source lines of both, is the module's warnings.  When the probe says
 * anything else (another error: a sentinel the module's macros broke) it is
 * not trusted and no warning is shown.  Warnings of code generation
 * (getTargetCode) still cannot be had.  Each probe's answer is kept per
 * target and text (less the macros the text never names), so a --serve
 * worker probes a module once per target and set of macros it tests.
 */
const PROBE_FILE = 'slangc-wasm-warnings-probe';
const PROBE_TEXT =
  `\n#line 1 "${PROBE_FILE}"\n` +
  'float slangc_wasm_probe_plain_(float x) { return x; }\n' +
  '[Differentiable] float slangc_wasm_probe_(float x) { return slangc_wasm_probe_plain_(x); }\n';
const DIAGNOSTIC_RE = /^(.*)\((\d+)(?:, ?\d+)?\): (?:fatal error|internal error|error|warning|note)\b/;
const probeCache = new Map();
const PROBE_CACHE_MAX = 256;

/* The diagnostics of `text` without those located in `file`, each with its source lines. */
function dropDiagnosticsOf(text, file) {
  const out = [];
  let keep = true;
  for (const line of text.split('\n')) {
    const m = DIAGNOSTIC_RE.exec(line);
    if (m) keep = m[1] !== file;
    if (keep) out.push(line);
  }
  return out.join('\n');
}

/*
 * The text a probe's answer is kept under: the prepared source without the
 * -D lines of macros its body never names, which cannot change what Slang
 * says (a build defines target and group macros that many modules ignore).
 */
function probeKey(source) {
  if (!source.startsWith('#define ')) return source;
  const end = source.indexOf('\n#line 1 ');
  if (end < 0) return source;
  const body = source.slice(end);
  const used = source
    .slice(0, end)
    .split('\n')
    .filter((l) => {
      const m = /^#define ([A-Za-z_][A-Za-z0-9_]*)/.exec(l);
      return !m || body.includes(m[1]);
    });
  return `${used.join('\n')}${body}`;
}

function probeWarnings(slang, session, source, name, path_, target, job) {
  const key = `${target}\0${name}\0${path_}\0${probeKey(source)}`;
  if (probeCache.has(key)) return probeCache.get(key);
  let warnings = '';
  // Another path than the module's (a session holds one source per path), the module's
  // named by a #line so that the warnings name it.
  const text = `#line 1 ${quote(path_)}\n${source}${PROBE_TEXT}`;
  const mod = session.loadModuleFromSource(text, `${name}-${PROBE_FILE}`, `${path_}-${PROBE_FILE}`);
  if (mod) job.handles.push(mod); // the sentinel did not fail: nothing to read
  else {
    const said = cleanDiagnostics(dropDiagnosticsOf(lastError(slang.module), PROBE_FILE));
    const errors = said.split('\n').some((l) => /^.*\(\d+(?:, ?\d+)?\): (?:fatal error|internal error|error)\b/.test(l));
    if (!errors) warnings = said;
  }
  if (probeCache.size >= PROBE_CACHE_MAX) probeCache.delete(probeCache.keys().next().value);
  probeCache.set(key, warnings);
  return warnings;
}

function quote(p) {
  return '"' + p.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
}

function slangFailure(module, what) {
  const diag = cleanDiagnostics(lastError(module));
  return new JobError(diag !== '' ? diag : `${ERR}${what}\n`);
}

function moduleName(file) {
  const base = path.basename(file);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// The file an import names: `import a.b_c;` is a/b_c.slang, or a/b-c.slang
// (Slang's underscore-to-hyphen rule); `import "x.slang";` is that path.
// Looked for in the importing file's folder, then in the -I folders.
function resolveImport(imp, includeDirs) {
  let names;
  if (imp.isString) names = [imp.spec];
  else {
    const base = imp.spec.replace(/\./g, '/');
    names = [`${base}.slang`];
    if (base.includes('_')) names.push(`${base.replace(/_/g, '-')}.slang`);
  }
  for (const dir of [imp.fromDir, ...includeDirs])
    for (const n of names) {
      const p = combinePath(dir, n);
      if (isFile(p)) return p;
    }
  return null;
}

/*
 * Loads, depth first, the modules `prep` imports, so that Slang finds them
 * by name when it checks the importer.  An import that cannot be found, or
 * that closes a cycle, is left to Slang to report.
 */
function loadImports(slang, session, prep, ctx, job) {
  for (const imp of prep.imports) {
    if (job.loaded.has(imp.key)) continue;
    const file = resolveImport(imp, ctx.includeDirs);
    if (file === null) continue;
    const real = fs.realpathSync(file);
    if (job.visiting.has(real)) continue;
    job.visiting.add(real);
    const sub = prepareModule(file, ctx);
    loadImports(slang, session, sub, ctx, job);
    const mod = session.loadModuleFromSource(sub.source, imp.key, file);
    if (!mod) throw slangFailure(slang.module, `cannot load module '${file}'`);
    job.handles.push(mod);
    job.imported.push({ source: sub.source, name: imp.key, file });
    job.loaded.add(imp.key);
    job.visiting.delete(real);
    for (const d of sub.deps) job.deps.push(d);
  }
}

/*
 * Checked modules kept for the next job (a --serve worker compiles many
 * entries of one module): the session, the module and the modules it
 * imports, loaded and checked once per target and text, so that each job of
 * the same module links and generates its entries' code without parsing and
 * checking the module again. Keyed by the target, the module's path and the
 * prepared texts of the module and of everything it imports (less the -D
 * lines of macros a text never names: a discovery and the entries' compiles
 * of a plain module share one), so an edit anywhere is another key. A kept
 * session belongs to the instance that made it; a new instance drops them.
 */
const checkedModules = new Map();
const CHECKED_MAX = 4;

/* The prepared texts of the modules `prep` imports, depth first, as loadImports loads them. */
function importTexts(prep, ctx, seen = new Set()) {
  const out = [];
  for (const imp of prep.imports) {
    const file = resolveImport(imp, ctx.includeDirs);
    if (file === null) continue;
    const real = fs.realpathSync(file);
    if (seen.has(real)) continue;
    seen.add(real);
    const sub = prepareModule(file, ctx);
    out.push(...importTexts(sub, ctx, seen), `${imp.key}\0${file}\0${probeKey(sub.source)}`);
  }
  return out;
}

function dropChecked(entry) {
  for (const h of [...entry.handles].reverse()) {
    try {
      h.delete();
    } catch {
      // the instance is being dropped: its heap goes with it
    }
  }
}

function findEntries(slang, mod, opts, job) {
  const eps = [];
  if (opts.entries.length === 0) {
    const n = mod.getDefinedEntryPointCount();
    for (let i = 0; i < n; i++) {
      const ep = mod.getDefinedEntryPoint(i);
      if (!ep) throw slangFailure(slang.module, `cannot get entry point ${i}`);
      job.handles.push(ep);
      eps.push(ep);
    }
    if (eps.length === 0)
      throw new JobError(
        `${ERR}no entry points: give '-entry NAME -stage STAGE' or mark them [shader("STAGE")]\n`,
      );
    return eps;
  }
  for (const e of opts.entries) {
    const ep =
      e.stage === null ? mod.findEntryPointByName(e.name) : mod.findAndCheckEntryPoint(e.name, e.stage);
    if (!ep) {
      const diag = cleanDiagnostics(lastError(slang.module));
      if (diag !== '') throw new JobError(diag);
      throw new JobError(
        e.stage === null
          ? `${ERR}entry point '${e.name}' has no [shader("...")] attribute: give '-stage'\n`
          : `${ERR}entry point '${e.name}' not found\n`,
      );
    }
    job.handles.push(ep);
    eps.push(ep);
  }
  return eps;
}

/* The version word of a SPIR-V module's header (0 when it has none). */
function spirvVersion(code) {
  return code.length >= 8 ? code.readUInt32LE(4) : 0;
}

function versionText(v) {
  return `${(v >> 16) & 0xff}.${(v >> 8) & 0xff}`;
}

async function compile(opts, serve) {
  const target = TARGETS[opts.target];
  if (!target) {
    throw new JobError(
      `${ERR}target '${opts.target}' needs the downstream compiler '${MISSING_DOWNSTREAM[opts.target]}', ` +
        "which Slang's WebAssembly build cannot load\n",
    );
  }
  const ctx = { includeDirs: opts.includeDirs, defines: opts.defines };
  if (!isFile(opts.input)) throw new JobError(`${ERR}cannot open file '${opts.input}'\n`);

  const slang = await getSlang();
  const job = {
    handles: [],
    loaded: new Set(),
    visiting: new Set(),
    deps: [],
    imported: [],
    stage: 'creating a session',
  };
  job.stage = 'reading the module';
  const prep = prepareModule(opts.input, ctx);
  const key = [opts.target, opts.input, probeKey(prep.source), ...importTexts(prep, ctx)].join('\0\0');
  let kept = checkedModules.get(key);
  if (kept && kept.instance !== slang) {
    checkedModules.delete(key);
    kept = undefined;
  }
  const session = kept ? kept.session : slang.globalSession.createSession(slang.targets[target.slang]);
  if (!session) throw slangFailure(slang.module, `cannot create a session for '${opts.target}'`);
  let keep = null; // what this job loaded and checked, kept for the next one
  try {
    let mod;
    if (kept) {
      checkedModules.delete(key); // most recently used last
      checkedModules.set(key, kept);
      mod = kept.mod;
      job.imported = kept.imported;
      job.deps.push(...kept.deps);
    } else {
      job.visiting.add(fs.realpathSync(opts.input));
      job.stage = 'loading the imported modules';
      loadImports(slang, session, prep, ctx, job);
      job.stage = 'checking the module';
      mod = session.loadModuleFromSource(prep.source, moduleName(opts.input), opts.input);
      if (!mod) throw slangFailure(slang.module, `cannot load module '${opts.input}'`);
      job.handles.push(mod);
      keep = { instance: slang, session, mod, imported: job.imported, deps: [...job.deps] };
    }

    job.stage = 'finding the entry points';
    const eps = findEntries(slang, mod, opts, job);
    job.stage = 'composing the program';
    const composite = session.createCompositeComponentType([mod, ...eps]);
    if (!composite) throw slangFailure(slang.module, 'cannot compose the entry points');
    job.handles.push(composite);
    job.stage = 'linking the program';
    const linked = composite.link();
    if (!linked) throw slangFailure(slang.module, 'cannot link the program');
    job.handles.push(linked);

    // The whole program's target code: with several entry points one module
    // holding all of them, in the order given (what slangc writes for one -o).
    // None with -skip-codegen: the program is checked and linked, its layout
    // reflected, and no code is generated (nor handed to nvcc).
    let code = null;
    if (!opts.skipCodegen) {
      job.stage = `generating ${opts.target} code`;
      if (target.binary) {
        const blob = linked.getTargetCodeBlob(0);
        code = blob ? Buffer.from(blob) : Buffer.alloc(0);
      } else {
        code = linked.getTargetCode(0) ?? '';
      }
      if (code.length === 0) throw slangFailure(slang.module, `no code generated for '${opts.target}'`);
      if (opts.profile !== null && spirvVersion(code) !== SESSION_SPIRV_VERSION)
        throw new JobError(
          `${ERR}Slang wrote SPIR-V ${versionText(spirvVersion(code))} for this program, not the 1.5 ` +
            `that '-profile ${opts.profile}' asks for\n`,
        );
      if (target.viaNvcc) {
        const r = cudaToPtx(code, opts.input);
        if (!r.ok) throw new JobError(r.diagnostics);
        code = r.ptx;
      }
    }

    let reflection = null;
    job.stage = 'writing the reflection JSON';
    if (opts.reflection !== null) {
      const layout = linked.getLayout(0);
      if (!layout) throw slangFailure(slang.module, 'no reflection for the program');
      // The layout belongs to the linked program: deleting its handle (or
      // letting embind's finalizer do so when the handle is collected)
      // would free memory Slang owns.  So the handle is kept, never deleted.
      retainedLayouts.push(layout);
      reflection = JSON.stringify(layout.toJsonObject(), null, 4) + '\n';
    }

    const deps = [];
    for (const d of [...prep.deps, ...job.deps]) if (!deps.includes(d)) deps.push(d);

    const files = [];
    let stdout = null;
    // With -skip-codegen there is no code, whether or not -o names a file.
    if (code !== null && opts.output !== null) files.push({ path: opts.output, data: code });
    else if (code !== null && target.binary && serve)
      throw new JobError(`${ERR}binary output needs '-o' in serve mode\n`);
    else if (code !== null) stdout = code;
    if (reflection !== null) files.push({ path: opts.reflection, data: reflection });
    if (opts.depfile !== null) files.push({ path: opts.depfile, data: depfileText(opts.output, deps) });
    job.stage = 'writing the outputs';
    writeOutputs(files);

    // The imported modules' warnings first, as Slang reports them loading each.
    // A probe that fails inside the wasm costs the warnings, never the job (whose outputs
    // are written); the next job loads a fresh instance. A -skip-codegen job is not
    // probed: the probe is a second load of the module, as costly as the job itself, and
    // the job that asks for reflection alone (dgpb-build's discovery) shows no warnings;
    // the compiles that generate the code show them (docs/slangc-wasm.md, "Warnings").
    let warnings = '';
    if (!opts.skipCodegen) {
      try {
        const importedText = job.imported.map((m) => m.source).join('\0');
        for (const m of job.imported)
          warnings += probeWarnings(slang, session, m.source, m.name, m.file, opts.target, job);
        warnings += probeWarnings(
          slang,
          session,
          prep.source,
          moduleName(opts.input),
          opts.input,
          `${opts.target}\0${importedText}`,
          job,
        );
      } catch {
        warnings = '';
        job.broken = true;
      }
    }
    return { stdout, outputs: files.map((f) => f.path), warnings };
  } catch (e) {
    job.failed = true; // nothing of a failed job is kept
    // The exception's text is read while the instance that threw it is loaded.
    if (ours(e)) throw e;
    throw new WasmFailure(job.stage, exceptionMessage(e), cleanDiagnostics(lastError(slang.module)));
  } finally {
    // Every handle the job created is deleted; a failure here means the
    // wasm's heap is damaged, so the next job starts from a fresh instance.
    let broken = false;
    if (keep && !job.broken && !job.failed) {
      // The session, the module and its imports stay for the next job of this text: only
      // what was made after them (entry points, the program, probes) goes.
      const loaded = job.handles.indexOf(keep.mod) + 1;
      keep.handles = [session, ...job.handles.slice(0, loaded)];
      job.handles = job.handles.slice(loaded);
      checkedModules.set(key, keep);
      if (checkedModules.size > CHECKED_MAX) {
        const [oldest, entry] = checkedModules.entries().next().value;
        checkedModules.delete(oldest);
        dropChecked(entry);
      }
    }
    const owned = kept || checkedModules.get(key) === keep ? [] : [session];
    for (const h of [...job.handles.reverse(), ...owned]) {
      try {
        h.delete();
      } catch {
        broken = true;
      }
    }
    if (broken || job.broken) {
      for (const entry of checkedModules.values()) dropChecked(entry);
      checkedModules.clear();
      discard();
    }
  }
}

/*
 * Runs one job given its argv (program name excluded).  Returns
 * { status, diagnostics, stdout, outputs }: status 0 on success, 1 on any
 * error; diagnostics is the text for standard error; stdout is what goes to
 * standard output (a string, a Buffer or null); outputs the files written.
 */
export async function runJob(argv, { serve = false } = {}) {
  const printed = [];
  const prevSink = setPrintSink((text) => printed.push(text + '\n'));
  const result = { status: 0, diagnostics: '', stdout: null, outputs: [] };
  try {
    const opts = parseArgs(argv);
    if (opts.help) result.stdout = HELP;
    else if (opts.version) result.stdout = SLANG_VERSION + '\n';
    else {
      const r = await compile(opts, serve);
      result.stdout = r.stdout;
      result.outputs = r.outputs;
      result.diagnostics = r.warnings;
    }
  } catch (e) {
    result.status = 1;
    result.outputs = [];
    result.stdout = null;
    if (e instanceof JobError) result.diagnostics = e.message;
    else if (e instanceof UsageError || e instanceof SourceError) result.diagnostics = `${ERR}${e.message}\n`;
    else if (e && e.code && typeof e.syscall === 'string') result.diagnostics = `${ERR}${e.message}\n`;
    else {
      // A trap, abort or exception inside the wasm: its state cannot be
      // trusted, so the next job loads a fresh instance.
      const failure = e instanceof WasmFailure ? e : new WasmFailure(null, exceptionMessage(e), '');
      discard();
      const during = failure.stage ? ` while ${failure.stage}` : '';
      const said = failure.slangSaid ? `${failure.slangSaid.replace(/\n*$/, '')}\n` : '';
      result.status = 3;
      result.diagnostics = `${said}${ERR}Slang's WebAssembly module failed${during}: ${failure.message}\n`;
    }
  } finally {
    setPrintSink(prevSink);
  }
  result.diagnostics = printed.join('') + result.diagnostics;
  return result;
}
