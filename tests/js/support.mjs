// support.mjs - what the reader's tests share: paths from the environment
// (set by tests/js/CMakeLists.txt), the JSON view of a model (docs/format.md,
// "The JSON view") to compare with dgpb-dump's, and dgpb-dump itself.

import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLAG } from '../../js/dgpb-reader/index.mjs';

export const sourceDir = process.env.DGPB_SOURCE_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/* A path from the environment; a test that needs it fails (never skips) without it. */
export function required(name, what) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: it names ${what} (tests/js/CMakeLists.txt sets it; run the tests with ctest)`);
  return v;
}

const blobView = (b) => ({ offset: b.offset, size: b.size, sha256: b.sha256 });

/* The model as `dgpb-dump --json` shows it, for a bundle whose stem is `stem`. */
export function jsonView(bundle, stem) {
  return {
    asset: `gpu_shaders.${stem}`,
    format: 'DGPB',
    version: bundle.version,
    size: bundle.size,
    header_size: bundle.headerSize,
    data_size: bundle.dataSize,
    ...(Object.keys(bundle.options).length ? { options: { ...bundle.options } } : {}),
    targets: bundle.targets.map((t) => ({
      name: t.name,
      code_format: t.codeFormat,
      layouts: t.layouts.map(blobView),
      entries: t.entries.map((e) => ({
        name: e.name,
        stage: e.stage,
        layout: e.layout,
        code: blobView(e.code),
        thread_group_size: e.threadGroupSize,
        params: e.params.map((p) => ({
          name: p.name,
          kind: p.kindName,
          flags: Object.keys(FLAG).filter((f) => p.flags & FLAG[f]),
          space: p.space,
          binding: p.binding,
          ...(p.shape ? { shape: p.shape.text } : { offset: p.offset }),
          size: p.size,
          webgpu_layout: p.webgpuLayout,
        })),
        capabilities: e.capabilities,
      })),
    })),
  };
}

/* `dgpb-dump --json FILE`, parsed. */
export function dumpJson(dump, file) {
  return JSON.parse(execFileSync(dump, ['--json', file], { encoding: 'utf8' }));
}

/*
 * `dgpb-dump --verify FILE`: { status, message, offset } with the C reader's
 * message and byte offset taken from "dgpb-dump: FILE: error: MESSAGE (at byte N)".
 * --verify then proves each table against its code (tables/bundle_proof.h), which the
 * JavaScript reader does not: a failure of that proof (a message without a byte offset,
 * after the reader and every SHA-256 passed) is the C reader's "valid".
 */
export function dumpVerify(dump, file) {
  const r = spawnSync(dump, ['--verify', file], { encoding: 'utf8' });
  /* The last message, whole: a value a changed byte reads may hold a line break. */
  const text = r.stderr.trim();
  const line = text.slice(Math.max(0, text.lastIndexOf('dgpb-dump: ')));
  const m = /^dgpb-dump: .*?: error: (.*) \(at byte (-?\d+)\)$/s.exec(line);
  if (r.status === 1 && !m && /^dgpb-dump: .*?: error: target '[^']*', entry /s.test(line))
    return { status: 0, message: '', offset: null };
  return { status: r.status, message: m ? m[1] : line, offset: m ? Number(m[2]) : null };
}
