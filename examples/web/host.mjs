// host.mjs - a WebGPU host for a DGPB bundle, the steps a web app takes
// (docs/host.md, "A browser host"). Browser-safe: it uses fetch, WebCrypto and
// WebGPU only, so the page (index.html) and Dawn for Node
// (tests/compute/run_dawn.mjs) run the same code.
//
//   const bundle = await fetchBundle(url);               // 1. fetch and read
//   const target = findTarget(bundle, 'wgsl');           // 2. the WebGPU target
//   const entry = findEntry(target, 'computeMain');
//   const wgsl = await verifiedCode(entry);              // 3. SHA-256 check
//   const pass = createComputeEntry(device, entry, wgsl, // 4. layouts, pipeline,
//     { resourceOf, constants });                        //    bind groups by row
//   dispatch(device, pass, [groupsX, groupsY, groupsZ]); // 5. run
//
// The reader (js/dgpb-reader) is imported as a web app imports it: an ES
// module over HTTP; a bundler or an import map may name it 'dgpb-reader'.

import { readBundle, verifyBlob, bindGroupLayoutDescriptors } from '../../js/dgpb-reader/index.mjs';

/* Fetches a bundle and reads its tables (no blob is hashed yet). */
export async function fetchBundle(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return readBundle(new Uint8Array(await response.arrayBuffer()));
}

/*
 * The entry's WGSL, after its SHA-256 (crypto.subtle.digest) equals the one
 * in the table: verifyBlob rejects with a DgpbError (code 'hash') naming the
 * blob when a byte changed on the way.
 */
export async function verifiedCode(entry) {
  return new TextDecoder().decode(await verifyBlob(entry.code));
}

/*
 * A compute pipeline and its bind groups for one entry: bind group layouts
 * from the rows' webgpu_layout IDs (bindGroupLayoutDescriptors; index =
 * group = the rows' space), a pipeline from the WGSL with the pipeline
 * constants ({ [override @id = the row's binding]: value }), and for each layout entry the resource that
 * resourceOf(space, binding) returns (a GPUBindingResource: the one a host
 * made for the row at that space and binding).
 */
export function createComputeEntry(device, entry, wgsl, { resourceOf, constants = {} }) {
  const descriptors = bindGroupLayoutDescriptors(entry);
  const layouts = descriptors.map((d) => device.createBindGroupLayout(d));
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
    compute: { module: device.createShaderModule({ code: wgsl }), entryPoint: entry.name, constants },
  });
  const groups = descriptors.map((d, space) => device.createBindGroup({
    layout: layouts[space],
    entries: d.entries.map((e) => ({ binding: e.binding, resource: resourceOf(space, e.binding) })),
  }));
  return { pipeline, groups };
}

/* Records `repeat` dispatches of the pipeline with every bind group set, and submits them. */
export function dispatch(device, { pipeline, groups }, workgroups, repeat = 1) {
  const encoder = device.createCommandEncoder();
  for (let r = 0; r < repeat; r++) {
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    groups.forEach((g, i) => pass.setBindGroup(i, g));
    pass.dispatchWorkgroups(...workgroups);
    pass.end();
  }
  device.queue.submit([encoder.finish()]);
}

/* The workgroup counts that cover `threads` invocations with the entry's thread group size. */
export function workgroupsFor(entry, threads) {
  return threads.map((t, i) => Math.ceil(t / entry.threadGroupSize[i]));
}
