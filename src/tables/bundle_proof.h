/*
 * tables/bundle_proof.h - every parameter table of a written bundle proved
 * against the code it ships, with the proof a fresh build runs
 * (tables/binding_proof.h).
 *
 * A build proves each (target, entry) before it writes the bundle; a bundle
 * that comes from elsewhere (a cache entry replayed, a file handed to
 * `dgpb-dump --verify`) carries no such promise. bundle_proof_check() reads
 * each entry's code back with its code format's reader (SPIR-V through its
 * analysis, WGSL and PTX by their scanners; code/code_format.h) and runs
 * binding_proof_check() on the entry's rows as the bundle records them.
 *
 * What a bundle cannot say: which rows the entry's code leaves unused (a
 * generator-convention global declared for the entry, `in_code` false in
 * tables/params.h). A row whose place holds no binding of the code is
 * therefore taken as such a row, on descriptor targets; on ptx a row of
 * space 0 when the PTX declares no SLANG_globalParams. Everything else is
 * proved as the build proves it: every binding the code declares has rows of
 * a compatible kind (and on wgsl the WebGPU IDs that describe it), value rows
 * lie inside their block, push constants and kernel parameters are covered.
 * Targets whose code format has no reader (metal, dxil, dxbc) are skipped; a
 * SPIR-V module SPIRV-Tools cannot parse is skipped as the build skips it.
 *
 * The bundle must already be open (dgpb_bundle_open, with
 * DGPB_OPEN_VERIFY_SHA256 where its blobs are not trusted).
 */
#ifndef DGPB_BUNDLE_PROOF_H
#define DGPB_BUNDLE_PROOF_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define bundle_proof_check dgpb__bundle_proof_check

#include "dgpb/reader.h"
#include "dgpb/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Proves every entry of every target whose code dgpb reads. Returns DGPB_OK,
 * DGPB_ERR_SHADER with a message naming the target, the entry and the row
 * (or the code's binding) that disagree, DGPB_ERR_CORRUPT* for code its
 * reader cannot read, or DGPB_ERR_NOMEM.
 */
int bundle_proof_check(const dgpb_bundle *b, dgpb_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
