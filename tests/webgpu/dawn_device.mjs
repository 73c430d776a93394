// dawn_device.mjs - a WebGPU device through Dawn for Node, for the tests of
// this folder: the npm package `webgpu` at WEBGPU_PATH loaded, its globals
// installed, the adapter asked for. No adapter fails the test (exit 1) with
// what to install. The instance is kept for the process's life: Dawn stops
// processing once it is collected.

import { pathToFileURL } from 'node:url';

let instance = null;

/** Resolves to { adapter, device }: `wanted` features the adapter has are required. */
export async function openDevice(webgpuPath, wanted = []) {
  const { create, globals } = await import(pathToFileURL(webgpuPath).href);
  Object.assign(globalThis, globals);
  instance = create([]);
  const adapter = await instance.requestAdapter();
  if (!adapter) {
    console.log('FAIL: no WebGPU adapter: Dawn needs a Vulkan driver it accepts; install lavapipe, ' +
      'mesa-vulkan-drivers from bookworm-backports (tools/setup.sh)');
    process.exit(1);
  }
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredFeatures });
  return { adapter, device, features: requiredFeatures };
}
