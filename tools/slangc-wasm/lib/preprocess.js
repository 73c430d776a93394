// Source preparation for the Slang WebAssembly API, which takes one source
// string per module and has no macro or search-path settings and no file
// system we can fill.  So, before a module is handed to Slang:
//
//  - -D macros become #define lines, followed by `#line 1 "FILE"` so that
//    Slang's diagnostics keep the user's file and line;
//  - `#include "x"` / `#include <x>` files are looked for in the including
//    file's folder, then in the -I folders, and inlined between #line
//    directives.  An include that is not found is left as it is: Slang's own
//    preprocessor then reports it (error 15300, with file and line) if, and
//    only if, it sits in an active #if branch.  `#pragma once` in an included
//    file becomes an include guard, so Slang's preprocessor still decides,
//    branch by branch, whether the file was seen;
//  - `import X;` statements are collected so that the caller can load those
//    modules into the session first (lib/compile.js).
//
// Nothing here interprets the language: Slang preprocesses and parses the
// result.  See docs/slangc-wasm.md, "Defines, includes and imports".

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

function quote(p) {
  return '"' + p.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
}

function readSource(p) {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch (e) {
    throw new SourceError(`cannot open file '${p}': ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
  }
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
const IMPORT_RE =
  /^\s*(?:__exported\s+)?import\s+(?:"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*))\s*;/;

/*
 * Prepares one module's source.  `file` is the path as given (used in #line
 * directives and diagnostics), `ctx` = { includeDirs, defines }.  Returns
 * { source, deps, imports } where deps are the files read (the module first,
 * then its includes in the order they were found) and imports are
 * { key, spec, isString, fromDir } records in source order: key is the name
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
    stack: [],
  };
  const text = readSource(file);
  const body = expand(file, text, state, false).lines.join('\n') + '\n';
  let prefix = '';
  if (ctx.defines.length > 0) {
    for (const [name, val] of ctx.defines)
      prefix += val === '' ? `#define ${name}\n` : `#define ${name} ${val}\n`;
    prefix += `#line 1 ${quote(file)}\n`;
  }
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

// Returns the lines that replace an #include directive found at `lineNo` of
// `parent`.
function includeFile(found, state, lineNo, parent) {
  const key = realKey(found);
  const resume = `#line ${lineNo + 1} ${quote(parent)}`;
  if (state.stack.includes(key)) {
    // A file including itself, directly or not: its guard (#pragma once or
    // #ifndef) is already defined at this point, so the inclusion is empty.
    return ['', resume];
  }
  if (state.stack.length >= MAX_INCLUDE_DEPTH)
    throw new SourceError(`${parent}(${lineNo}): includes nested more than ${MAX_INCLUDE_DEPTH} deep`);
  if (!state.deps.includes(found)) state.deps.push(found);
  const text = readSource(found);
  const body = expand(found, text, state, true);
  const out = [];
  if (body.once) {
    if (!state.onceIds.has(key)) state.onceIds.set(key, state.onceIds.size + 1);
    const guard = `SLANGC_WASM_ONCE_${state.onceIds.get(key)}`;
    out.push(`#ifndef ${guard}`, `#define ${guard}`);
  }
  out.push(`#line 1 ${quote(found)}`, ...body.lines);
  if (body.once) out.push('#endif');
  out.push(resume);
  return out;
}

function expand(file, text, state, isInclude) {
  const key = realKey(file);
  state.stack.push(key);
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const out = [];
  let inBlock = false;
  let once = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const scan = scanLine(line, inBlock);
    inBlock = scan.inBlock;
    if (!scan.startsInCode) {
      out.push(line);
      continue;
    }
    const inc = INCLUDE_RE.exec(line);
    if (inc) {
      const name = inc[1] ?? inc[2];
      const found = findInclude(name, file, state.ctx);
      if (found === null) {
        out.push(line);
        continue;
      }
      out.push(...includeFile(found, state, i + 1, file));
      continue;
    }
    if (isInclude && PRAGMA_ONCE_RE.test(line)) {
      once = true;
      out.push('');
      continue;
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
  return { lines: out, once };
}
