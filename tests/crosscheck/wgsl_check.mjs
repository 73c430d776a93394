// wgsl_check.mjs - checks a bundle's wgsl parameter tables against the WGSL
// code, as read by an independent WGSL reflector (npm wgsl_reflect, pinned in
// this folder's package.json).
//
//   node wgsl_check.mjs --dump DGPB_DUMP [--module MODULE.slang] BUNDLE.dgpb [VIEW.json]
//
// The tables come from VIEW.json when it is given (so that a test can feed a
// tampered view), otherwise from `dgpb-dump --json BUNDLE`. Each entry's WGSL
// comes out of the bundle with `dgpb-dump --extract wgsl/ENTRY` (which checks
// its SHA-256). Per entry of the wgsl target:
//
//   - the WGSL has an entry point of exactly the entry's name (a browser host
//     selects it by name) and of the entry's stage;
//   - a compute entry's @workgroup_size equals its thread_group_size (others:
//     no workgroup size, thread_group_size 0,0,0);
//   - every resource the entry point uses (directly or through the functions
//     it calls) has a row at (space = @group, binding = @binding), and every
//     row there carries the WebGPU binding-layout ID of the declaration:
//     var<uniform> 1; var<storage, read> 2; var<storage, read_write> 3;
//     sampler 4; texture_2d<f32> 5; texture_storage_2d<r32float | rg32float |
//     rgba32float | r32uint, read_write | write> 6 | 7 | 8 | 9. Any other
//     declaration has no ID, so a row there is wrong;
//   - a value row lies on a member of its uniform struct: a member with the
//     row's byte offset and size;
//   - a row flagged written is bound to a writable declaration (storage
//     read_write, storage texture);
//   - every row with a non-zero webgpu_layout is a binding the entry point
//     uses. In a module that follows the generator's conventions (--module
//     names a module whose text mentions a group symbol, docs/build.md
//     "Scan"), every `<entry>_` global is a row even when the code does not
//     use it and Slang leaves it out of the WGSL: such a row is reported as
//     info, not as a failure.
//
// Prints one line per entry, info lines, and "N passed, N failed"; exit 1 on
// any failure, 2 usage, 3 when the bundle or view cannot be read.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node 20 gets no exports from the package's entry: import the module file itself.
const here = path.dirname(fileURLToPath(import.meta.url));
const reflectorPath = path.join(here, 'node_modules', 'wgsl_reflect', 'wgsl_reflect.module.js');
if (!fs.existsSync(reflectorPath)) {
    console.log(`FAIL: ${reflectorPath} is missing: run (cd tests/crosscheck && npm ci), as tools/setup.sh does`);
    process.exit(3);
}
const { WgslReflect, ResourceType } = await import(pathToFileURL(reflectorPath).href);

function usage() {
    console.error('usage: node wgsl_check.mjs --dump DGPB_DUMP [--module MODULE.slang] BUNDLE.dgpb [VIEW.json]');
    process.exit(2);
}

let dump = null;
let modulePath = null;
const positional = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
    if (args[i] === '--dump' && i + 1 < args.length) dump = args[++i];
    else if (args[i] === '--module' && i + 1 < args.length) modulePath = args[++i];
    else if (args[i].startsWith('-')) usage();
    else positional.push(args[i]);
}
if (!dump || positional.length < 1 || positional.length > 2) usage();
const [bundlePath, viewPath] = positional;

// Dream mode: the module mentions a pipeline-group symbol (the builder's textual scan).
const dream = modulePath !== null &&
    /DREAM_SHADER_[A-Za-z0-9_]|DREAM_SHADERS_RENDER|DREAM_SHADERS_RAY_TRACING/.test(fs.readFileSync(modulePath, 'utf8'));

let view;
try {
    const text = viewPath ? fs.readFileSync(viewPath, 'utf8')
        : execFileSync(dump, ['--json', bundlePath], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    view = JSON.parse(text);
} catch (e) {
    console.log(`FAIL: cannot read the JSON view of ${bundlePath}: ${String(e.message).split('\n')[0]}`);
    process.exit(3);
}

// The binding-layout ID a WGSL declaration needs (docs/format.md, "WebGPU
// binding-layout IDs"), or null when no ID describes it. `pairedWith`: the
// sampler declared at the next binding when the row is a combined
// texture_sampler (its texture here).
const STORAGE_TEXTURE_IDS = { r32float: 6, rg32float: 7, rgba32float: 8, r32uint: 9 };
const VIEWS = ['1d', '2d', '2d_array', 'cube', 'cube_array', '3d'];
const SAMPLES = { f32: 0, depth: 1, i32: 2, u32: 3 };
// SPIR-V's ImageFormat order, by WebGPU's names (docs/format.md, "Shapes").
const FORMATS = [null, 'rgba32float', 'rgba16float', 'r32float', 'rgba8unorm', 'rgba8snorm', 'rg32float',
    'rg16float', 'rg11b10ufloat', 'r16float', 'rgba16unorm', 'rgb10a2unorm', 'rg16unorm', 'rg8unorm', 'r16unorm',
    'r8unorm', 'rgba16snorm', 'rg16snorm', 'rg8snorm', 'r16snorm', 'r8snorm', 'rgba32sint', 'rgba16sint', 'rgba8sint',
    'r32sint', 'rg32sint', 'rg16sint', 'rg8sint', 'r16sint', 'r8sint', 'rgba32uint', 'rgba16uint', 'rgba8uint', 'r32uint',
    'rgb10a2uint', 'rg32uint', 'rg16uint', 'rg8uint', 'r16uint', 'r8uint', 'r64uint', 'r64sint'];
const ACCESS = { read: 1, write: 2, read_write: 3 };
function layoutId(v, pairedWith) {
    switch (v.resourceType) {
    case ResourceType.Uniform:
        return 1;
    case ResourceType.Storage:
        return v.access === 'read' ? 2 : v.access === 'read_write' ? 3 : null;
    case ResourceType.Sampler:
        return v.type.name === 'sampler' ? 4 : v.type.name === 'sampler_comparison' ? 12 : null;
    case ResourceType.Texture: {
        const m = /^texture_(depth_)?(multisampled_)?(.*)$/.exec(v.type.name);
        const view = m ? VIEWS.indexOf(m[3]) : -1;
        const sample = m && m[1] ? 1 : SAMPLES[v.type.format?.name];
        const ms = m && m[2] ? 1 : 0;
        if (view < 0 || sample === undefined || (ms && view !== 1)) return null;
        if (pairedWith) {
            if (ms) return null;
            const cmp = pairedWith.type.name === 'sampler_comparison' ? 1 : 0;
            const id = 96 + view * 8 + sample * 2 + cmp;
            return id === 104 ? 10 : id;
        }
        const id = 32 + view * 8 + sample * 2 + ms;
        return id === 40 ? 5 : id;
    }
    case ResourceType.StorageTexture: {
        const access = ACCESS[v.type.access || v.access];
        const view = ['1d', '2d', '2d_array', '3d'].indexOf(v.type.name.replace('texture_storage_', ''));
        const format = FORMATS.indexOf(v.type.format?.name);
        if (!access || view < 0 || format <= 0) return null;
        if (view === 1 && access === 3 && STORAGE_TEXTURE_IDS[v.type.format.name]) return STORAGE_TEXTURE_IDS[v.type.format.name];
        return 256 + format * 32 + access * 8 + [0, 1, 2, 5][view];
    }
    default:
        return null;
    }
}

function declaration(v) {
    const t = v.type;
    let type = t.name;
    if (t.format) type += `<${t.format.name}${t.access ? `, ${t.access}` : ''}>`;
    const space = v.resourceType === ResourceType.Uniform ? '<uniform>'
        : v.resourceType === ResourceType.Storage ? `<storage, ${v.access}>` : '';
    return `@group(${v.group}) @binding(${v.binding}) var${space} ${v.name} : ${type}`;
}

// WGSL's predeclared enumerants (access modes, address spaces, texel formats):
// valid, shadowable identifiers that wgsl_reflect 1.6.0 takes for keywords.
const PREDECLARED_ENUMERANTS = new Set([
    'read', 'write', 'read_write', 'function', 'private', 'workgroup', 'uniform', 'storage',
    'rgba8unorm', 'rgba8snorm', 'rgba8uint', 'rgba8sint', 'rgba16uint', 'rgba16sint', 'rgba16float',
    'r32uint', 'r32sint', 'r32float', 'rg32uint', 'rg32sint', 'rg32float', 'rgba32uint', 'rgba32sint',
    'rgba32float', 'bgra8unorm',
]);

const writable = (v) => (v.resourceType === ResourceType.Storage && v.access === 'read_write') ||
    (v.resourceType === ResourceType.StorageTexture && ['read_write', 'write'].includes(v.type.access || v.access));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dgpb-wgsl-check-'));
let passed = 0;
let failed = 0;
try {
    const target = (view.targets || []).find((t) => t.name === 'wgsl');
    if (!target) {
        console.log(`info: ${bundlePath} has no wgsl target`);
    } else {
        for (const entry of target.entries) {
            // A row absent from this target's code (a target guard) binds nothing.
            entry.params = entry.params.filter((p) => !(p.flags || []).includes('absent'));
            const reasons = checkEntry(entry);
            if (reasons.length === 0) {
                console.log(`ok   wgsl/${entry.name}: ${entry.stage} entry point, ${describe(entry)}`);
                passed++;
            } else {
                console.log(`FAIL wgsl/${entry.name}: ${reasons.join('; ')}`);
                failed++;
            }
        }
    }
} finally {
    fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

function describe(entry) {
    const bindings = new Set(entry.params.map((p) => `${p.space}/${p.binding}`)).size;
    const size = entry.stage === 'compute' ? `workgroup size ${entry.thread_group_size.join(',')}, ` : '';
    return `${size}${entry.params.length} rows on ${bindings} bindings match the WGSL`;
}

function checkEntry(entry) {
    const reasons = [];
    const file = path.join(tmp, `${entry.name}.wgsl`);
    try {
        execFileSync(dump, ['--extract', `wgsl/${entry.name}`, '-o', file, bundlePath],
            { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
        return [`cannot extract wgsl/${entry.name}: ${String(e.stderr || e.message).trim().split('\n')[0]}`];
    }
    const text = fs.readFileSync(file, 'utf8');
    let reflect;
    let fnName = entry.name;
    try {
        reflect = new WgslReflect(text);
    } catch (e) {
        // wgsl_reflect 1.6.0 parses WGSL's predeclared enumerants as keywords,
        // so it rejects an entry point named, e.g., `storage`. The WGSL spec lets
        // a declaration shadow them, so the WGSL is valid: check it with the
        // entry point's own declaration renamed (entry points are never called,
        // so that is the only place the name appears as a function name).
        const decl = new RegExp(`\\bfn\\s+${entry.name}\\s*\\(`, 'g');
        const count = (text.match(decl) || []).length;
        if (!PREDECLARED_ENUMERANTS.has(entry.name) || count !== 1)
            return [`wgsl_reflect cannot parse the WGSL: ${e.message}`];
        fnName = `${entry.name}__crosscheck`;
        try {
            reflect = new WgslReflect(text.replace(decl, `fn ${fnName}(`));
        } catch (e2) {
            return [`wgsl_reflect cannot parse the WGSL: ${e.message}`];
        }
        console.log(`note: wgsl/${entry.name}: wgsl_reflect rejects the entry point's name '${entry.name}' ` +
            `(a WGSL predeclared enumerant, which a declaration may shadow: "${e.message}"); ` +
            `checked with 'fn ${entry.name}(' read as 'fn ${fnName}('`);
    }

    // The entry point, by exact name and stage.
    const stages = ['compute', 'vertex', 'fragment'];
    let fn = null;
    for (const stage of stages) {
        const found = reflect.entry[stage].find((f) => f.name === fnName);
        if (!found) continue;
        if (stage !== entry.stage) reasons.push(`the WGSL entry point '${entry.name}' is @${stage}, the table says ${entry.stage}`);
        fn = found;
    }
    if (!fn) {
        const names = stages.flatMap((s) => reflect.entry[s].map((f) => `${f.name} (@${s})`));
        return [`the WGSL has no entry point named '${entry.name}' (it has: ${names.join(', ') || 'none'})`];
    }

    // Workgroup size.
    const tgs = entry.thread_group_size;
    if (entry.stage === 'compute') {
        const wg = fn.workgroupSize || [];
        if (wg.length !== 3 || wg.some((d, i) => d !== tgs[i]))
            reasons.push(`@workgroup_size is ${wg.join(',') || 'missing'}, thread_group_size is ${tgs.join(',')}`);
    } else if (tgs.some((d) => d !== 0)) {
        reasons.push(`a ${entry.stage} entry with thread_group_size ${tgs.join(',')}`);
    }

    // Every binding the entry point uses has rows, with the declaration's ID.
    const used = new Map();
    for (const v of fn.resources) used.set(`${v.group}/${v.binding}`, v);
    for (const v of used.values()) {
        const rows = entry.params.filter((p) => p.space === v.group && p.binding === v.binding);
        // The sampler of a combined texture_sampler row is declared at the row's binding + 1.
        const pairRow = entry.params.find((p) => p.kind === 'texture_sampler' && p.space === v.group &&
            p.binding + 1 === v.binding);
        if (rows.length === 0 && pairRow && v.resourceType === ResourceType.Sampler) continue;
        if (rows.length === 0) {
            reasons.push(`${declaration(v)} has no row`);
            continue;
        }
        const paired = rows.some((p) => p.kind === 'texture_sampler')
            ? used.get(`${v.group}/${v.binding + 1}`) : null;
        if (rows.some((p) => p.kind === 'texture_sampler') && (!paired || paired.resourceType !== ResourceType.Sampler))
            reasons.push(`texture_sampler row at ${declaration(v)} has no sampler at @binding(${v.binding + 1})`);
        const id = layoutId(v, paired);
        for (const p of rows) {
            if (id === null)
                reasons.push(`row '${p.name}' is bound to ${declaration(v)}, which no WebGPU binding-layout ID describes`);
            else if (p.webgpu_layout !== id)
                reasons.push(`row '${p.name}' has webgpu_layout ${p.webgpu_layout}, ${declaration(v)} needs ${id}`);
            // A block's rows: its uniform_buffer row first, then value rows (its fields).
            if (rows.length > 1 && p.kind !== 'value' && !(p === rows[0] && p.kind === 'uniform_buffer'))
                reasons.push(`row '${p.name}' (${p.kind}) shares @group(${v.group}) @binding(${v.binding}) with other rows`);
            if ((p.flags || []).includes('written') && !writable(v))
                reasons.push(`row '${p.name}' is flagged written but ${declaration(v)} is not writable`);
            if (p.kind === 'value') {
                // Members of nested structs count at their offsets in the block: a
                // flattened aggregate's values are the leaves (job.count at job + 0).
                const leaves = (list, base, depth) => list.flatMap((m) => {
                    const inner = m.type && m.type.members;
                    const here = { name: m.name, offset: base + m.offset, size: m.size };
                    return inner && depth < 16 ? [here, ...leaves(inner, base + m.offset, depth + 1)] : [here];
                });
                const members = v.resourceType === ResourceType.Uniform ? leaves(v.members || [], 0, 0) : [];
                if (!members.some((m) => m.offset === p.offset && m.size === p.size))
                    reasons.push(`value row '${p.name}' (offset ${p.offset}, size ${p.size}) is no member of ${v.name}'s ` +
                        `struct (members: ${members.map((m) => `${m.name}@${m.offset}+${m.size}`).join(', ') || 'none'})`);
            }
        }
    }

    // Every row with an ID is a binding the entry point uses.
    const reported = new Set();
    for (const p of entry.params) {
        const key = `${p.space}/${p.binding}`;
        if (used.has(key) || p.webgpu_layout === 0 || reported.has(key)) continue;
        reported.add(key);
        const declared = [...reflect.uniforms, ...reflect.storage, ...reflect.textures, ...reflect.samplers]
            .find((v) => v.group === p.space && v.binding === p.binding);
        const where = declared ? `declared as ${declaration(declared)} but not used by the entry point` : 'not in the WGSL';
        if (dream)
            console.log(`info: wgsl/${entry.name}: row '${p.name}' (@group(${p.space}) @binding(${p.binding})) is ${where} ` +
                '(allowed: every <entry>_ global is a row in this module)');
        else
            reasons.push(`row '${p.name}' (@group(${p.space}) @binding(${p.binding})) is ${where}`);
        if ((p.flags || []).includes('written'))
            reasons.push(`row '${p.name}' is flagged written but the entry point does not use its binding`);
    }
    return reasons;
}
