// dgpb.mjs - a DGPB v0 reader in JavaScript, as a browser host would read a
// bundle: the header tables, every blob's SHA-256 checked before use. It
// reads what docs/format.md specifies and throws on anything out of bounds.

import { createHash } from 'node:crypto';

export function readBundle(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  const u32 = () => {
    if (pos + 4 > headerEnd) throw new Error(`dgpb: truncated at byte ${pos}`);
    const v = view.getUint32(pos, true);
    pos += 4;
    return v;
  };
  const str = () => {
    const n = u32();
    if (pos + n > headerEnd) throw new Error(`dgpb: string runs past the header at byte ${pos}`);
    const s = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(pos, pos + n));
    pos += n;
    return s;
  };
  let headerEnd = Math.min(16, bytes.length);
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== 'DGPB') throw new Error('dgpb: bad magic');
  pos = 4;
  const version = u32();
  if (version !== 0) throw new Error(`dgpb: unsupported version ${version}`);
  const headerSize = u32();
  if (headerSize > bytes.length) throw new Error('dgpb: header_size past the end');
  headerEnd = headerSize;
  const blob = () => {
    const offset = u32();
    const size = u32();
    if (pos + 32 > headerEnd) throw new Error('dgpb: truncated blob reference');
    const sha256 = Buffer.from(bytes.subarray(pos, pos + 32)).toString('hex');
    pos += 32;
    if (headerSize + offset + size > bytes.length) throw new Error('dgpb: blob out of range');
    const data = bytes.subarray(headerSize + offset, headerSize + offset + size);
    return { offset, size, sha256, data };
  };
  const targets = [];
  const targetCount = u32();
  for (let t = 0; t < targetCount; t++) {
    const target = { name: str(), codeFormat: str(), layouts: [], entries: [] };
    const layoutCount = u32();
    for (let i = 0; i < layoutCount; i++) target.layouts.push(blob());
    const entryCount = u32();
    for (let e = 0; e < entryCount; e++) {
      const entry = { name: str(), stage: str(), layout: u32(), code: blob() };
      entry.threadGroupSize = [u32(), u32(), u32()];
      entry.params = [];
      const paramCount = u32();
      for (let p = 0; p < paramCount; p++) {
        entry.params.push({
          name: str(), kind: u32(), flags: u32(), space: u32(), binding: u32(),
          offset: u32(), size: u32(), webgpuLayout: u32(),
        });
      }
      entry.capabilities = [];
      const capCount = u32();
      for (let c = 0; c < capCount; c++) entry.capabilities.push(str());
      target.entries.push(entry);
    }
    targets.push(target);
  }
  if (pos !== headerSize) throw new Error(`dgpb: header_size ${headerSize} but the tables end at ${pos}`);
  return { version, headerSize, targets };
}

/* Throws unless the blob's bytes hash to its stored SHA-256. */
export function verifyBlob(blob) {
  const got = createHash('sha256').update(blob.data).digest('hex');
  if (got !== blob.sha256) throw new Error(`dgpb: sha-256 mismatch (stored ${blob.sha256}, got ${got})`);
  return blob.data;
}

export const KIND = {
  value: 0, uniform_buffer: 1, buffer: 2, rw_buffer: 3, byte_buffer: 4, rw_byte_buffer: 5,
  texture: 6, rw_texture: 7, sampler: 8, acceleration_structure: 9, mlp_weights: 10, handle: 11,
};
