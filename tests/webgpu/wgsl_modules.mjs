// wgsl_modules.mjs - every wgsl entry of every bundle under the given folders
// through Dawn's shader compiler, and into a pipeline whose layout is the one
// the bundle's parameter table describes (docs/testing.md, "WebGPU").
//
//   node wgsl_modules.mjs [--tamper] FOLDER...
//
// Per entry of each bundle's wgsl target (bundles read with js/dgpb-reader):
//
//   - the code blob's SHA-256 is verified, device.createShaderModule() makes
//     a module and getCompilationInfo() must list no error (each is printed);
//   - a pipeline is created with the bind group layouts that
//     bindGroupLayoutDescriptors() builds from the rows: a compute pipeline for
//     a compute entry; for a vertex entry a render pipeline with no fragment
//     stage (a depth attachment only); for a fragment entry a render pipeline
//     with a vertex entry of the bundle whose outputs feed its inputs (both
//     entries' rows in the layout), or else a generated vertex shader that
//     writes them. Vertex attributes
//     and colour targets come from the entry point's interface, read with
//     wgsl_reflect. Dawn refuses a pipeline whose layout does not match the
//     code, so this proves the webgpu_layout IDs, groups and bindings against
//     the WGSL.
//
// An entry that needs what WebGPU or this adapter does not offer
// (webgpuRequirements(): a capability or binding no WebGPU feature provides,
// or a feature the adapter lacks) is reported as not applicable with the
// reason, but only when Dawn does refuse its pipeline; its module must still
// compile. Prints one line per entry and "N modules compiled, N pipelines
// created, N not applicable, N failed"; exits 1 on any failure, on no module
// found, or with no WebGPU adapter.
//
// --tamper checks the check: it moves the binding of each entry's first
// bind-group row (not a pipeline constant)
// (with the other value rows of its block) 100 places on before building the
// layouts, and then every entry with a row must fail its pipeline (exit 1
// when one does not; entries not applicable anyway are left out).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  readBundle, verifyBlob, findTarget, bindGroupLayoutDescriptors, webgpuRequirements,
  PIPELINE_CONSTANT_SPACE,
} from '../../js/dgpb-reader/index.mjs';
import { openDevice } from './dawn_device.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const webgpuPath = path.join(here, 'node_modules', 'webgpu', 'index.js');
const reflectPath = path.join(here, 'node_modules', 'wgsl_reflect', 'wgsl_reflect.module.js');
for (const p of [webgpuPath, reflectPath]) {
  if (!fs.existsSync(p)) {
    console.log(`FAIL: ${p} is missing: run (cd tests/webgpu && npm ci), as tools/setup.sh does`);
    process.exit(1);
  }
}
const tamper = process.argv[2] === '--tamper';
const folders = process.argv.slice(tamper ? 3 : 2);
if (!folders.length) {
  console.log('usage: node wgsl_modules.mjs [--tamper] FOLDER...');
  process.exit(2);
}
const { WgslReflect } = await import(pathToFileURL(reflectPath).href);
const { adapter, device, features: wanted } = await openDevice(webgpuPath,
  ['subgroups', 'shader-f16', 'texture-formats-tier1', 'texture-formats-tier2']);
const info = adapter.info ?? {};
console.log(`adapter: ${info.vendor ?? ''} ${info.device ?? ''} ${info.description ?? ''}; features: ${wanted.join(', ') || 'none'}`);

function bundlesUnder(dir) {
  const out = [];
  for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) out.push(...bundlesUnder(p));
    else if (d.name.endsWith('.dgpb')) out.push(p);
  }
  return out;
}

// WGSL scalar -> [vertex format prefix, colour format suffix]
const SCALAR = { f32: ['float32', 'float'], f16: ['float16', 'float'], i32: ['sint32', 'sint'], u32: ['uint32', 'uint'] };

function typeShape(type) {
  const name = type.name;
  const scalar = type.format?.name ?? name;
  const n = name.startsWith('vec') ? Number(name[3]) : 1;
  return { scalar, n };
}

function vertexFormat(type) {
  const { scalar, n } = typeShape(type);
  const base = SCALAR[scalar]?.[0];
  if (!base) throw new Error(`vertex input of type ${type.name}<${scalar}> has no vertex format`);
  if (scalar === 'f16') return n === 1 ? 'float16' : `float16x${n === 3 ? 4 : n}`;
  return n === 1 ? base : `${base}x${n}`;
}

function colorFormat(type) {
  const { scalar, n } = typeShape(type);
  const kind = SCALAR[scalar]?.[1];
  if (!kind) throw new Error(`fragment output of type ${type.name} has no colour format`);
  const channels = n === 1 ? 'r' : n < 4 ? 'rg' : 'rgba';
  return `${channels}32${kind}`;
}

const locations = (list) => list.filter((v) => v.locationType === 'location');

/* The entry point's interface as wgsl_reflect reads it from the entry's own code. */
function reflectEntry(entry, code) {
  const stage = entry.stage === 'compute' ? 'compute' : entry.stage;
  const found = new WgslReflect(code).entry[stage]?.find((e) => e.name === entry.name);
  if (!found) throw new Error(`the WGSL has no @${stage} function '${entry.name}'`);
  return found;
}

function vertexBuffers(reflected) {
  return locations(reflected.inputs).map((v) => {
    const format = vertexFormat(v.type);
    const size = { float32: 4, sint32: 4, uint32: 4, float16: 2 }[format.replace(/x\d$/, '')] * Number(format.match(/x(\d)$/)?.[1] ?? 1);
    return { arrayStride: Math.max(size, 4), attributes: [{ shaderLocation: v.location, offset: 0, format }] };
  });
}

function colorTargets(reflected) {
  const targets = [];
  for (const v of locations(reflected.outputs)) targets[v.location] = { format: colorFormat(v.type) };
  for (let i = 0; i < targets.length; i++) targets[i] ??= null;
  return targets;
}

/* A vertex shader that writes exactly the fragment's inputs. */
function feedingVertex(fragment) {
  const members = locations(fragment.inputs).map((v) => {
    const { scalar, n } = typeShape(v.type);
    const t = n === 1 ? scalar : `vec${n}<${scalar}>`;
    const flat = scalar === 'i32' || scalar === 'u32' ? ' @interpolate(flat)' : '';
    return `  @location(${v.location})${flat} v${v.location} : ${t},`;
  });
  const f16 = locations(fragment.inputs).some((v) => typeShape(v.type).scalar === 'f16') ? 'enable f16;\n' : '';
  const code = `${f16}struct Out {\n  @builtin(position) position : vec4<f32>,\n${members.join('\n')}\n};\n` +
    '@vertex fn main() -> Out {\n  var o : Out;\n  return o;\n}\n';
  return { module: device.createShaderModule({ code, label: 'generated vertex' }), entryPoint: 'main' };
}

/* Does the vertex entry's output feed every input of the fragment entry? */
function feeds(vertex, fragment) {
  const outs = new Map(locations(vertex.outputs).map((v) => [v.location, v.type]));
  return locations(fragment.inputs).every((v) => {
    const t = outs.get(v.location);
    return t && t.name === v.type.name && t.format?.name === v.type.format?.name;
  });
}

async function compile(entry) {
  const code = new TextDecoder().decode(await verifyBlob(entry.code));
  const module = device.createShaderModule({ code, label: entry.name });
  const messages = (await module.getCompilationInfo()).messages;
  const errors = messages.filter((m) => m.type === 'error');
  return { code, module, errors: errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`) };
}

function layoutFor(entries) {
  return device.createPipelineLayout({
    bindGroupLayouts: bindGroupLayoutDescriptors(entries).map((d) => device.createBindGroupLayout(d)),
  });
}

/* Creates the entry's pipeline in a validation error scope; resolves to null or the error text. */
async function pipeline(entry, compiled, all) {
  device.pushErrorScope('validation');
  let thrown = null, what = '';
  try {
    if (entry.stage === 'compute') {
      what = 'compute pipeline';
      await device.createComputePipelineAsync({ layout: layoutFor([entry]), compute: { module: compiled.module, entryPoint: entry.name } });
    } else if (entry.stage === 'vertex') {
      what = 'render pipeline (vertex stage only)';
      const reflected = reflectEntry(entry, compiled.code);
      await device.createRenderPipelineAsync({
        layout: layoutFor([entry]),
        vertex: { module: compiled.module, entryPoint: entry.name, buffers: vertexBuffers(reflected) },
        depthStencil: { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' },
      });
    } else if (entry.stage === 'fragment') {
      const reflected = reflectEntry(entry, compiled.code);
      const partner = all.find((o) => o.entry.stage === 'vertex' && !o.compiled.errors.length &&
        feeds(reflectEntry(o.entry, o.compiled.code), reflected));
      what = partner ? `render pipeline with vertex '${partner.entry.name}'` : 'render pipeline with a generated vertex shader';
      const vertex = partner
        ? { module: partner.compiled.module, entryPoint: partner.entry.name, buffers: vertexBuffers(reflectEntry(partner.entry, partner.compiled.code)) }
        : feedingVertex(reflected);
      await device.createRenderPipelineAsync({
        layout: layoutFor(partner ? [partner.entry, entry] : [entry]),
        vertex,
        fragment: { module: compiled.module, entryPoint: entry.name, targets: colorTargets(reflected) },
      });
    } else {
      throw new Error(`stage '${entry.stage}' has no WebGPU pipeline`);
    }
  } catch (e) {
    thrown = e;
  }
  const error = await device.popErrorScope();
  return { what, error: error || thrown ? String((error ?? thrown).message) : null };
}

let compiled = 0, pipelines = 0, notApplicable = 0, failed = 0, found = 0, caught = 0, missed = 0;
for (const folder of folders) {
  if (!fs.existsSync(folder)) {
    console.log(`FAIL: ${folder} does not exist`);
    failed++;
    continue;
  }
  for (const file of bundlesUnder(folder)) {
    const name = path.relative(folder, file);
    let target;
    try {
      target = findTarget(readBundle(new Uint8Array(fs.readFileSync(file))), 'wgsl');
    } catch (e) {
      console.log(`${name}: FAILED ${e.message}`);
      failed++;
      continue;
    }
    if (!target) {
      console.log(`${name}: no wgsl target`);
      continue;
    }
    if (tamper) {
      for (const entry of target.entries) {
        // The first bind-group row (a pipeline constant has no binding to move).
        const first = entry.params.find((p) => p.space !== PIPELINE_CONSTANT_SPACE);
        if (first)
          entry.params = entry.params.map((p) => p.space === first.space && p.binding === first.binding ? { ...p, binding: p.binding + 100 } : p);
      }
    }
    const all = [];
    for (const entry of target.entries) all.push({ entry, compiled: await compile(entry) });
    for (const { entry, compiled: c } of all) {
      found++;
      const label = `${name} ${entry.stage} '${entry.name}'`;
      if (c.errors.length) {
        failed++;
        console.log(`${label}: FAILED the WGSL does not compile:\n    ${c.errors.join('\n    ')}`);
        continue;
      }
      compiled++;
      const req = webgpuRequirements(entry);
      const reasons = [...req.unsupported, ...req.features.filter((f) => !device.features.has(f)).map((f) => `the adapter lacks feature '${f}'`)];
      const r = await pipeline(entry, c, all);
      if (tamper) {
        if (!entry.params.some((p) => p.space !== PIPELINE_CONSTANT_SPACE) || reasons.length)
          continue; // nothing to move, or refused anyway
        if (r.error) caught++;
        else missed++;
        console.log(`${label}: ${r.error ? `caught: ${r.error.split('\n')[0]}` : 'NOT CAUGHT: the pipeline accepts a moved binding'}`);
        continue;
      }
      if (!r.error) {
        pipelines++;
        console.log(`${label}: compiles; ${r.what} created${reasons.length ? ` (although ${reasons.join('; ')})` : ''}`);
      } else if (reasons.length) {
        notApplicable++;
        console.log(`${label}: compiles; ${r.what} not applicable: ${reasons.join('; ')}; Dawn: ${r.error.split('\n')[0]}`);
      } else {
        failed++;
        console.log(`${label}: FAILED ${r.what}: ${r.error}`);
      }
    }
  }
}
if (!found) {
  console.log('FAIL: no wgsl entry found');
  failed++;
}
if (tamper) {
  console.log(`tampered tables: ${caught} caught, ${missed} not caught, ${failed} failed otherwise`);
  process.exit(missed || failed || !caught ? 1 : 0);
}
console.log(`${compiled} modules compiled, ${pipelines} pipelines created, ${notApplicable} not applicable, ${failed} failed`);
process.exit(failed ? 1 : 0);
