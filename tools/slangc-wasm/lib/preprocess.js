// Source preparation for the Slang WebAssembly API, which takes one source
// string per module and has no macro or search-path settings and no file
// system we can fill.  So, before a module is handed to Slang:
//
//  - -D macros become #define lines, followed by `#line 1 "FILE"` so that
//    Slang's diagnostics keep the user's file and line;
//  - a file that is not UTF-8 text (a NUL byte, a byte sequence UTF-8 does
//    not allow: a binary file, UTF-16) is refused, naming the first such
//    byte, before Slang reads it;
//  - a UTF-8 byte-order mark at the start of a file is dropped (Slang skips
//    it at the start of a file, but not in the middle of the inlined text);
//    CRLF line endings stay as they are (Slang reads them);
//  - `#include "x"` / `#include <x>` files are looked for in the including
//    file's folder, then in the -I folders, and inlined between #line
//    directives.  An include that is not found is left as it is: Slang's own
//    preprocessor then reports it (error 15300, with file and line) if, and
//    only if, it sits in an active #if branch.  `#pragma once` in an included
//    file becomes an include guard, so Slang's preprocessor still decides,
//    branch by branch, whether the file was seen;
//  - `#include NAME`, where NAME is a macro (a -D or a `#define NAME "x"` /
//    `#define NAME <x>` seen so far): each such #define gets a companion
//    macro that numbers its value, and the include becomes an #if chain over
//    those numbers, one inlined file per value, so Slang's preprocessor picks
//    the file of the definition in force;
//  - problems Slang could only see after the text is flattened are reported
//    where they are, through an `#error` at the right file and line, so that
//    Slang reports them only in an active branch as it would itself: an
//    include cycle (a file included again while it is being included, unless
//    its #pragma once or #ifndef guard makes that inclusion empty) and an
//    included file whose #if has no #endif (or whose #endif has no #if);
//  - `__include NAME;` (Slang's module system: one more file of the same
//    module, whose first declaration is `implementing MODULE;`) is looked for
//    as Slang looks for it (NAME.slang, or NAME with `_` spelled `-`, in the
//    including file's folder, then in the -I folders) and inlined once, inside
//    an #ifndef guard of its own, with its `implementing` line blanked; a
//    file Slang would refuse there (no `implementing`, a `module`, another
//    module's name) becomes an #error in Slang's words;
//  - `import X;` statements are collected so that the caller can load those
//    modules into the session first (lib/compile.js).
//
// Nothing here interprets the language: Slang preprocesses and parses the
// result.  See docs/slangc-wasm.md, "Defines, includes and imports".

import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

export class SourceError extends Error {}

const MAX_INCLUDE_DEPTH = 64;

// Joins a folder and a relative name the way Slang's Path::combine does:
// no normalisation, an empty folder leaves the name alone.
export function combinePath(dir, name) {
  if (path.isAbsolute(name) || dir === '' || dir === '.') return name;
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

// The folder part of a path as Slang's Path::getParentDirectory gives it.
export function parentDir(p) {
  const i = p.lastIndexOf('/');
  return i < 0 ? '' : p.slice(0, i);
}

function isFile(p) {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

// Appends the items of `items` to `out` one by one: a spread (`out.push(...items)`)
// passes each item as an argument on the stack, which overflows it for a file of
// some 120,000 lines.
function append(out, items) {
  for (const item of items) out.push(item);
  return out;
}

function quote(p) {
  return '"' + p.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
}

/*
 * Why `bytes` is not text, or null: the first NUL byte or the first byte
 * that is not well-formed UTF-8 (with its offset), whichever comes first.
 */
export function notText(bytes) {
  const nul = bytes.indexOf(0);
  if (nul < 0 && isUtf8(bytes)) return null;
  const end = nul < 0 ? bytes.length : nul;
  for (let i = 0; i < end; ) {
    const c = bytes[i];
    let n = 0;
    let min = 0;
    if (c < 0x80) n = 1;
    else if ((c & 0xe0) === 0xc0) (n = 2), (min = 0x80);
    else if ((c & 0xf0) === 0xe0) (n = 3), (min = 0x800);
    else if ((c & 0xf8) === 0xf0) (n = 4), (min = 0x10000);
    else return `invalid UTF-8 at offset ${i}`;
    let cp = n === 1 ? c : c & (0x7f >> n);
    for (let k = 1; k < n; k++) {
      if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) return `invalid UTF-8 at offset ${i}`;
      cp = (cp << 6) | (bytes[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return `invalid UTF-8 at offset ${i}`;
    i += n;
  }
  return `a NUL byte at offset ${nul}`;
}

function readSource(p) {
  let bytes;
  try {
    bytes = fs.readFileSync(p);
  } catch (e) {
    throw new SourceError(`cannot open file '${p}': ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
  // Slang would read a binary file as text and report its bytes, error after error.
  const why = notText(bytes);
  if (why !== null) throw new SourceError(`${p}: not a text file (${why})`);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/*
 * Scans a line for comment state.  `inBlock` says whether the line starts
 * inside a block comment; returns whether the next line does, and whether
 * the line starts (after white space) outside any comment.
 */
function scanLine(line, inBlock) {
  let i = 0;
  const n = line.length;
  let startsInCode = !inBlock;
  let inString = null;
  while (i < n) {
    const c = line[i];
    if (inBlock) {
      if (c === '*' && line[i + 1] === '/') {
        inBlock = false;
        i += 2;
        continue;
      }
      i++;
      continue;
    }
    if (inString) {
      if (c === '\\') i += 2;
      else {
        if (c === inString) inString = null;
        i++;
      }
      continue;
    }
    if (c === '/' && line[i + 1] === '/') break;
    if (c === '/' && line[i + 1] === '*') {
      inBlock = true;
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") inString = c;
    i++;
  }
  return { inBlock, startsInCode };
}

const INCLUDE_RE = /^\s*#\s*include\s*(?:"([^"]*)"|<([^>]*)>)/;
const PRAGMA_ONCE_RE = /^\s*#\s*pragma\s+once\b/;
const INCLUDE_MACRO_RE = /^\s*#\s*include\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\/\/.*)?$/;
// An object-like #define: its name and value (a function-like macro does not match).
const DEFINE_ANY_RE = /^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s+(.*))?$/;
const UNDEF_RE = /^\s*#\s*undef\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\/\/.*)?$/;
const IF_RE = /^\s*#\s*if(?:n?def)?\b/;
const ENDIF_RE = /^\s*#\s*endif\b/;
// An include guard's opening: `#ifndef G`, `#if !defined(G)` or `#if !defined G`.
const GUARD_IF_RE = new RegExp(
  String.raw`^\s*#\s*(?:ifndef\s+(\w+)|if\s*!\s*defined\s*(?:\(\s*(\w+)\s*\)|(\w+)))\s*(?:\/\/.*)?$`,
);
const GUARD_DEFINE_RE = /^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\b/;
// Slang's module system: `__include NAME;` on a line of its own (a comment may
// follow), `module NAME;` and `implementing NAME;`; NAME is a string or an
// identifier, dotted as a path (`a.b` names a/b).
const DOTTED_NAME = String.raw`[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*`;
const MODULE_NAME = String.raw`(?:\s*"([^"]*)"|\s+(${DOTTED_NAME}))`;
const PART_RE = new RegExp(String.raw`^\s*__include${MODULE_NAME}\s*;\s*(?:\/\/.*)?$`);
const MODULE_DECL_RE = new RegExp(String.raw`^\s*module${MODULE_NAME}\s*;`);
const IMPLEMENTING_RE = new RegExp(String.raw`^\s*implementing${MODULE_NAME}\s*;`);
const IMPORT_RE =
  /^\s*(?:__exported\s+)?import\s+(?:"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*))\s*;/;

/*
 * Prepares one module's source.  `file` is the path as given (used in #line
 * directives and diagnostics), `ctx` = { includeDirs, defines }.  Returns
 * { source, deps, imports } where deps are the files read (the module first,
 * then its includes and `__include`d files in the order they were found) and
 * imports are { key, spec, isString, fromDir } records in source order: key is the name
 * under which Slang looks the module up (`a.b_c` -> `a/b_c`, a string import
 * stays as written), spec what the import names, fromDir the folder of the
 * file the import is in.
 */
export function prepareModule(file, ctx) {
  const state = {
    ctx,
    deps: [file],
    imports: [],
    onceIds: new Map(),
    parts: new Map(), // an `__include`d file's key -> its guarded lines, once expanded
    moduleName: null, // the name a `module NAME;` of the module itself gives
    stack: [], // { key, file, line }: the files being expanded, the line of their current include
    includeMacros: new Map(), // macro name -> the file names ('"x"' or '<x>') it was defined to
  };
  let prefix = '';
  if (ctx.defines.length > 0) {
    for (const [name, val] of ctx.defines) {
      prefix += val === '' ? `#define ${name}\n` : `#define ${name} ${val}\n`;
      const tracked = trackDefine(state, name, val.trim());
      if (tracked !== null) prefix += tracked + '\n';
    }
    prefix += `#line 1 ${quote(file)}\n`;
  }
  const text = readSource(file);
  const body = expand(file, text, state, 'module').lines.join('\n') + '\n';
  return { source: prefix + body, deps: state.deps, imports: state.imports };
}

function realKey(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function findInclude(name, fromFile, ctx) {
  if (path.isAbsolute(name)) return isFile(name) ? name : null;
  const candidates = [combinePath(parentDir(fromFile), name)];
  for (const d of ctx.includeDirs) candidates.push(combinePath(d, name));
  return candidates.find(isFile) ?? null;
}

// The companion macro that numbers the file name a macro stands for.
function trackerOf(name) {
  return `SLANGC_WASM_INCLUDE_${name}`;
}

/*
 * Records `#define name value`: a quoted or <> file name gets its number in
 * the companion macro; any other value of a macro that had one ends it.
 * Returns the directive to add after the #define, or null.
 */
function trackDefine(state, name, value) {
  const isFileName = /^("[^"]*"|<[^>]*>)$/.test(value);
  if (!isFileName) return state.includeMacros.has(name) ? `#undef ${trackerOf(name)}` : null;
  if (!state.includeMacros.has(name)) state.includeMacros.set(name, []);
  const values = state.includeMacros.get(name);
  if (!values.includes(value)) values.push(value);
  return `#define ${trackerOf(name)} ${values.indexOf(value) + 1}`;
}

/*
 * How a file guards itself against a second inclusion: { once } for a
 * `#pragma once`, { guard: NAME } for a file wrapped whole in
 * `#ifndef NAME` / `#define NAME` ... `#endif`, else {}.
 */
function guardOf(lines) {
  let inBlock = false;
  const significant = []; // the lines outside comments that hold something
  for (const line of lines) {
    const scan = scanLine(line, inBlock);
    inBlock = scan.inBlock;
    if (!scan.startsInCode) continue;
    const t = line.trim();
    if (t === '' || t.startsWith('//') || t.startsWith('/*')) continue;
    if (PRAGMA_ONCE_RE.test(line)) return { once: true };
    significant.push(line.replace(/\r$/, ''));
  }
  const m = significant.length >= 3 ? GUARD_IF_RE.exec(significant[0]) : null;
  const name = m ? (m[1] ?? m[2] ?? m[3]) : null;
  const def = name ? GUARD_DEFINE_RE.exec(significant[1]) : null;
  if (!def || def[1] !== name) return {};
  let depth = 0;
  for (let i = 0; i < significant.length; i++) {
    if (IF_RE.test(significant[i])) depth++;
    else if (ENDIF_RE.test(significant[i]) && --depth === 0)
      return i === significant.length - 1 ? { guard: name } : {};
  }
  return {};
}

// The lines that report an include cycle closed by including `found` at `lineNo` of `parent`.
function cycleError(found, at, state, lineNo, parent, shape) {
  const frames = state.stack.slice(at);
  const steps = frames.map(
    (f, j) => `${f.file}(${f.line}) includes ${j + 1 < frames.length ? frames[j + 1].file : found}`,
  );
  const out = [];
  if (shape.guard) out.push(`#ifndef ${shape.guard}`);
  out.push(`#line ${lineNo} ${quote(parent)}`, `#error include cycle: ${steps.join(', ')}`);
  if (shape.guard) out.push('#endif');
  return out;
}

// Returns the lines that replace an #include directive found at `lineNo` of
// `parent` (the caller adds the #line that resumes `parent`).
function includeFile(found, state, lineNo, parent) {
  const key = realKey(found);
  const at = state.stack.findIndex((f) => f.key === key);
  if (at >= 0) {
    // A file including itself, directly or not: empty when its #pragma once
    // or #ifndef guard is defined at this point, else a cycle.
    const shape = state.stack[at].shape;
    return shape.once ? [''] : cycleError(found, at, state, lineNo, parent, shape);
  }
  if (state.stack.length >= MAX_INCLUDE_DEPTH)
    throw new SourceError(`${parent}(${lineNo}): includes nested more than ${MAX_INCLUDE_DEPTH} deep`);
  if (!state.deps.includes(found)) state.deps.push(found);
  const text = readSource(found);
  const body = expand(found, text, state, 'include');
  if (body.unbalanced)
    return [`#line ${body.unbalanced.line} ${quote(found)}`, `#error ${body.unbalanced.message}`];
  const out = [];
  if (body.once) {
    if (!state.onceIds.has(key)) state.onceIds.set(key, state.onceIds.size + 1);
    const guard = `SLANGC_WASM_ONCE_${state.onceIds.get(key)}`;
    out.push(`#ifndef ${guard}`, `#define ${guard}`);
  }
  out.push(`#line 1 ${quote(found)}`);
  append(out, body.lines);
  if (body.once) out.push('#endif');
  return out;
}

// The name a PART_RE, MODULE_DECL_RE or IMPLEMENTING_RE match gives, as
// Slang's parser reads it: a string as written, a dotted name with '/' for
// its dots.
function declaredName(m) {
  return m[1] ?? m[2].replace(/\s*\.\s*/g, '/');
}

/*
 * The file `__include NAME;` names, looked for as Slang's Linkage::findFile
 * does: NAME with `.slang` added (unless it ends so), in the including file's
 * folder, then in the -I folders; failing that, the same with each `_`
 * spelled `-`.
 */
function findPart(name, fromFile, ctx) {
  if (name.toLowerCase().endsWith('.slang')) return findInclude(name, fromFile, ctx);
  return (
    findInclude(`${name}.slang`, fromFile, ctx) ??
    findInclude(`${name.replace(/_/g, '-')}.slang`, fromFile, ctx)
  );
}

// The module an `implementing` name stands for, as Slang's getSimpleModuleName gives it.
function simpleModuleName(name) {
  const dir = Math.max(name.indexOf('/'), name.indexOf('\\'));
  if (dir < 0) return name;
  const tail = name.slice(dir + 1);
  const dot = tail.indexOf('.');
  return dot < 0 ? tail : tail.slice(0, dot);
}

/*
 * What Slang says of an included file whose first declaration is `first`
 * ({ kind: 'implementing' | 'module' | 'other', name }, or null for a file
 * without declarations) in a module named `moduleName` (null when the module
 * declares no name): null when the file may be included.
 */
function partProblem(name, first, moduleName) {
  if (first === null) return null;
  if (first.kind === 'module')
    return (
      `missing 'implementing' declaration in the included source file '${name}'. ` +
      `The file declares that it defines module '${first.name}', do you mean 'import' instead?`
    );
  if (first.kind !== 'implementing')
    return `missing 'implementing' declaration in the included source file '${name}'.`;
  if (moduleName === null) return null;
  const implemented = simpleModuleName(first.name).toLowerCase();
  const expected = moduleName.toLowerCase();
  if (implemented === expected || implemented === `${expected}.slang`) return null;
  return (
    `the included source file is expected to implement module '${moduleName}', ` +
    `but it is implementing '${simpleModuleName(first.name)}' instead.`
  );
}

/*
 * Returns the lines that replace `__include NAME;` at `lineNo` of `parent`,
 * `found` being NAME's file (the caller adds the #line that resumes
 * `parent`).  Slang reads such a file as one more file of the module, once,
 * whichever file includes it, and only where the `__include` is in an active
 * #if branch: so its text is inlined inside an #ifndef guard of its own,
 * with its `implementing` declaration blanked (Slang allows one only at the
 * start of a file).  A file Slang would refuse becomes an #error in Slang's
 * words at the `__include`.
 */
function includePart(name, found, state, lineNo, parent) {
  const key = realKey(found);
  // Being expanded already (a file of the module including another that
  // includes it back, or the module itself): Slang includes a file once.
  if (state.stack.some((f) => f.key === key)) return [''];
  if (state.parts.has(key)) return state.parts.get(key);
  if (state.stack.length >= MAX_INCLUDE_DEPTH)
    throw new SourceError(`${parent}(${lineNo}): includes nested more than ${MAX_INCLUDE_DEPTH} deep`);
  if (!state.deps.includes(found)) state.deps.push(found);
  const body = expand(found, readSource(found), state, 'part');
  const problem = partProblem(name, body.first, state.moduleName);
  let out;
  if (problem !== null) out = [`#line ${lineNo} ${quote(parent)}`, `#error ${problem}`];
  else if (body.unbalanced)
    out = [`#line ${body.unbalanced.line} ${quote(found)}`, `#error ${body.unbalanced.message}`];
  else {
    const guard = `SLANGC_WASM_PART_${state.parts.size + 1}`;
    out = [`#ifndef ${guard}`, `#define ${guard}`, `#line 1 ${quote(found)}`];
    append(out, body.lines).push('#endif');
  }
  state.parts.set(key, out);
  return out;
}

/*
 * `#include NAME` for a macro NAME that stood for file names: an #if chain
 * over its companion macro, one inlined file per name; where the macro is
 * not one of those (or its file is not found) the line stays for Slang.
 */
function includeByMacro(name, line, state, lineNo, file) {
  const tracker = trackerOf(name);
  const asIs = [`#line ${lineNo} ${quote(file)}`, line];
  const out = [`#if !defined(${tracker})`, ...asIs];
  state.includeMacros.get(name).forEach((value, k) => {
    const found = findInclude(value.slice(1, -1), file, state.ctx);
    const lines = found === null ? asIs : includeFile(found, state, lineNo, file);
    out.push(`#elif ${tracker} == ${k + 1}`);
    append(out, lines);
  });
  out.push('#endif');
  return out;
}

/*
 * Follows a file's #if/#endif nesting: `conds` holds the lines of the open
 * #ifs. Returns { line, message } for an #endif without #if, else null.
 */
function followConditionals(line, lineNo, conds) {
  if (IF_RE.test(line)) conds.push(lineNo);
  else if (ENDIF_RE.test(line) && conds.pop() === undefined)
    return { line: lineNo, message: '#endif without #if in this file' };
  return null;
}

/*
 * Expands one file: `kind` is 'module' (the module itself), 'include' (a file
 * #included into it) or 'part' (a file it `__include`s).  Returns { lines,
 * once, unbalanced, first }: `first` is the first declaration of a part (see
 * partProblem()), whose `implementing` is blanked in `lines`.
 */
function expand(file, text, state, kind) {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const frame = { key: realKey(file), file, line: 0, shape: guardOf(lines) };
  state.stack.push(frame);
  const out = [];
  const conds = [];
  let unbalanced = null;
  let inBlock = false;
  let once = false;
  let first = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    const resume = `#line ${i + 2} ${quote(file)}`;
    const scan = scanLine(line, inBlock);
    inBlock = scan.inBlock;
    if (!scan.startsInCode) {
      out.push(line);
      continue;
    }
    unbalanced ??= followConditionals(bare, i + 1, conds);
    frame.line = i + 1;
    const inc = INCLUDE_RE.exec(line);
    if (inc) {
      const name = inc[1] ?? inc[2];
      const found = findInclude(name, file, state.ctx);
      if (found === null) {
        out.push(line);
        continue;
      }
      append(out, includeFile(found, state, i + 1, file)).push(resume);
      continue;
    }
    const incMacro = INCLUDE_MACRO_RE.exec(bare);
    if (incMacro && state.includeMacros.has(incMacro[1])) {
      append(out, includeByMacro(incMacro[1], line, state, i + 1, file)).push(resume);
      continue;
    }
    const part = PART_RE.exec(bare);
    if (part) {
      if (kind === 'part') first ??= { kind: 'other', name: null }; // not `implementing`
      const name = declaredName(part);
      const found = findPart(name, file, state.ctx);
      if (found === null) {
        out.push(line); // Slang reports it: error 1, cannot open file
        continue;
      }
      append(out, includePart(name, found, state, i + 1, file)).push(resume);
      continue;
    }
    if (kind === 'include' && PRAGMA_ONCE_RE.test(line)) {
      once = true;
      out.push('');
      continue;
    }
    const def = DEFINE_ANY_RE.exec(bare);
    const undef = def ? null : UNDEF_RE.exec(bare);
    const tracked = def
      ? trackDefine(state, def[1], (def[2] ?? '').replace(/\/\/.*$/, '').trim())
      : undef && state.includeMacros.has(undef[1])
        ? `#undef ${trackerOf(undef[1])}`
        : null;
    if (tracked !== null) {
      out.push(line, tracked, resume);
      continue;
    }
    if (kind === 'part' && first === null && !/^\s*(#|\/\/|\/\*|$)/.test(bare)) {
      const impl = IMPLEMENTING_RE.exec(bare);
      const mod = impl ? null : MODULE_DECL_RE.exec(bare);
      first = impl
        ? { kind: 'implementing', name: declaredName(impl) }
        : { kind: mod ? 'module' : 'other', name: mod ? declaredName(mod) : null };
      if (impl) {
        // Blanked, so that columns stay where they were.
        out.push(' '.repeat(impl[0].length) + line.slice(impl[0].length));
        continue;
      }
    }
    if (kind !== 'part' && state.moduleName === null) {
      const mod = MODULE_DECL_RE.exec(bare);
      if (mod) state.moduleName = declaredName(mod);
    }
    const imp = IMPORT_RE.exec(line);
    if (imp) {
      const isString = imp[1] !== undefined;
      const spec = isString ? imp[1] : imp[2].replace(/\s+/g, '');
      state.imports.push({
        key: isString ? spec : spec.replace(/\./g, '/'),
        spec,
        isString,
        fromDir: parentDir(file),
      });
    }
    out.push(line);
  }
  state.stack.pop();
  if (!unbalanced && conds.length > 0)
    unbalanced = {
      line: conds[conds.length - 1],
      message: 'unterminated #if: no #endif before the end of this file',
    };
  return { lines: out, once, unbalanced, first };
}
