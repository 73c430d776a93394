// page.mjs - the example page's script (index.html): for each module named in
// the query, fetches its run line (fixtures/compute/<name>.slang) and its
// bundle, runs the wgsl entry on WebGPU and shows the result. The host steps
// are host.mjs's; the run line's meaning is tests/compute/webgpu_run.mjs's,
// the same code the Dawn for Node run uses.
//
// Query: modules=a,b,... (required); bundles=URL of the bundle folder
// (default the build tree's); fixtures=URL of the modules' folder;
// negative=1 to require that each expectation changed by one fails;
// allowUnsupported=1 to report a module whose entry needs a feature the
// adapter lacks (SwiftShader has no shader-f16) as skipped, not failed.
//
// window.dgpbRun resolves to { adapter, features, results: [{ module, status,
// message }] } when every module has run (status 'passed', 'failed' or
// 'skipped'); a driver (tests/web/check_web.py) awaits it.

import { fetchBundle } from './host.mjs';
import { OPTIONAL_FEATURES, RunError, parseHeader, runModule } from '../../tests/compute/webgpu_run.mjs';

const query = new URLSearchParams(location.search);
const bundles = new URL(query.get('bundles') ?? '../../build/tests/compute/bundles/', location.href);
const fixtures = new URL(query.get('fixtures') ?? '../../fixtures/compute/', location.href);
const modules = (query.get('modules') ?? '').split(',').filter(Boolean);
const negative = query.get('negative') === '1';
const allowUnsupported = query.get('allowUnsupported') === '1';

function show(module, status, message) {
  const row = document.getElementById('results').insertRow();
  row.className = status;
  row.dataset.module = module;
  row.dataset.status = status;
  row.insertCell().textContent = module;
  row.insertCell().textContent = status;
  row.insertCell().textContent = message;
  console.log(`${module}: ${status === 'failed' ? 'FAILED ' : ''}${message}`);
  return { module, status, message };
}

async function main() {
  if (modules.length === 0) throw new Error('name the modules to run: ?modules=int_arith,matrix_mul');
  if (!navigator.gpu) throw new Error('this browser offers no WebGPU (navigator.gpu)');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const features = OPTIONAL_FEATURES.filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredFeatures: features });
  device.addEventListener('uncapturederror', (e) => console.error(`WebGPU: ${e.error.message}`));
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') || 'unnamed';
  document.getElementById('adapter').textContent = `Adapter: ${name}; features: ${features.join(', ') || 'none'}`;

  const results = [];
  for (const module of modules) {
    try {
      const response = await fetch(new URL(`${module}.slang`, fixtures));
      if (!response.ok) throw new Error(`${module}.slang: HTTP ${response.status}`);
      const header = parseHeader(await response.text());
      const loadBundle = () => fetchBundle(new URL(`${module}.dgpb`, bundles));
      const readInput = (file) => { throw new Error(`--in/--expect ${file}: the page reads no files; give the values as TYPE:V1,...`); };
      const r = await runModule(header, loadBundle, { device, features, negative, allowUnsupported, readInput });
      results.push(show(module, r.skipped ? 'skipped' : r.failed ? 'failed' : 'passed', r.skipped ?? r.failed ?? r.passed));
    } catch (e) {
      results.push(show(module, 'failed', e instanceof RunError ? e.message : `${e.name}: ${e.message}`));
    }
  }
  const count = (s) => results.filter((r) => r.status === s).length;
  document.getElementById('summary').textContent =
    `${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} not applicable`;
  return { adapter: name, features, results };
}

window.dgpbRun = main();
window.dgpbRun.catch((e) => {
  document.getElementById('summary').textContent = `Stopped: ${e.message}`;
  console.error(e.message);
});
