// run_dawn.mjs - runs the Slang-style compute suite (fixtures/compute/*.slang)
// on WebGPU through Dawn: each module's wgsl target, bound by name through the
// entry's parameter table with the dgpb-reader package, dispatched and
// compared with the `--expect` values of the module's `//DGPB_RUN:` lines,
// which mean here exactly what they mean to dgpb-run (docs/run.md). The run
// itself is webgpu_run.mjs's, which the example page (examples/web/) runs in
// a browser; this file is its Node side: files, Dawn, the report.
//
//   node run_dawn.mjs [--negative] [--allow-unsupported] [--run 'ENTRY OPTIONS...']
//                     WEBGPU_MODULE BUNDLE_DIR MODULE.slang...
//
// WEBGPU_MODULE is the path of the npm package `webgpu` (its index.js);
// BUNDLE_DIR holds <stem>.dgpb for every module (tests/compute/build_bundles.sh).
// Prints one line per module and a closing `N passed, N failed`; a module
// whose `//DGPB_TARGETS:` line leaves out wgsl is reported as not applicable.
//
// --negative proves that every expectation can fail: after each module's run,
// each `--expect` in turn is compared again with one value changed (the last),
// and must then differ. A module passes when every changed expectation fails.
//
// --allow-unsupported reports a module whose entry needs a feature the adapter
// lacks (shader-f16, subgroups) as not applicable instead of failed: for runs
// on real devices. CI leaves it out (Dawn on lavapipe has every feature the
// suite uses), so there nothing is missed.
//
// --run gives the modules this run line instead of their own (the words of a
// `dgpb-run` command after BUNDLE: the entry, then the options): for tests that
// run one line on every target, as dgpb-run is given it.
//
// Exit status: 0 every module passed, 1 a module failed, 2 usage.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { readBundle } = await import(pathToFileURL(path.join(here, '../../js/dgpb-reader/index.mjs')).href);
const { RunError, OPTIONAL_FEATURES, parseHeader, runModule } = await import(pathToFileURL(path.join(here, 'webgpu_run.mjs')).href);

let argv = process.argv.slice(2);
let negative = false, allowUnsupported = false, runLine = null;
for (;;) {
  if (argv[0] === '--negative') negative = true;
  else if (argv[0] === '--allow-unsupported') allowUnsupported = true;
  else if (argv[0] === '--run' && argv.length > 1) runLine = (argv = argv.slice(1))[0];
  else break;
  argv = argv.slice(1);
}
const [webgpuPath, bundleDir, ...modules] = argv;
if (!webgpuPath || !bundleDir || modules.length === 0) {
  console.error("usage: node run_dawn.mjs [--negative] [--allow-unsupported] [--run 'ENTRY OPTIONS...'] WEBGPU_MODULE BUNDLE_DIR MODULE.slang...");
  process.exit(2);
}

function readInput(file) {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    throw new RunError(`cannot read '${file}': ${e.code ?? e.message}`);
  }
}

// ---------------------------------------------------------------------------
// WebGPU.

if (!fs.existsSync(webgpuPath)) {
  console.log(`run_dawn: no Dawn for Node at '${webgpuPath}': run npm ci in tests/webgpu (tools/setup.sh does)`);
  process.exit(1);
}
const { create, globals } = await import(pathToFileURL(webgpuPath).href);
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) {
  console.log('run_dawn: no WebGPU adapter: install mesa-vulkan-drivers from bookworm-backports (tools/setup.sh)');
  process.exit(1);
}
const features = OPTIONAL_FEATURES.filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures: features });
const info = adapter.info ?? {};
console.log(`adapter: ${[info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') || 'unnamed'}; features: ${features.join(', ') || 'none'}`);

let passed = 0, failed = 0, skipped = 0;
for (const file of modules) {
  const stem = path.basename(file, '.slang');
  try {
    const header = parseHeader(fs.readFileSync(file, 'utf8'));
    if (runLine !== null) header.words = runLine.split(/\s+/).filter(Boolean);
    const loadBundle = async () => readBundle(new Uint8Array(fs.readFileSync(path.join(bundleDir, `${stem}.dgpb`))));
    const r = await runModule(header, loadBundle, { device, features, negative, allowUnsupported, readInput });
    if (r.skipped) {
      skipped++;
      console.log(`${stem}: ${r.skipped}`);
    } else if (r.failed) {
      failed++;
      console.log(`${stem}: FAILED ${r.failed}`);
    } else {
      passed++;
      console.log(`${stem}: ${r.passed}`);
    }
  } catch (e) {
    failed++;
    console.log(`${stem}: FAILED ${e instanceof RunError ? '' : `${e.name}: `}${e.message}`);
  }
}
console.log(`not applicable: ${skipped}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
