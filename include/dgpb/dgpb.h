/*
 * dgpb/dgpb.h - everything of the dgpb library in one include.
 *
 * Reading and writing bundles (what a host needs):
 *   dgpb/result.h          result codes and diagnostics
 *   dgpb/alloc.h           allocator hooks
 *   dgpb/format.h          the format's vocabulary and rules
 *   dgpb/model.h           the in-memory bundle a producer builds
 *   dgpb/writer.h          model -> bytes
 *   dgpb/reader.h          bytes -> validated zero-copy views
 *   dgpb/json_view.h       the readable .bundle.json view
 *   dgpb/sha256.h          SHA-256
 *   dgpb/fileio.h          whole-file reads, atomic writes
 *   dgpb/diff.h            a semantic comparison of two bundles, for review
 * Building bundles (what dgpb-build runs):
 *   dgpb/process.h         child processes, captured and in parallel
 *   dgpb/compiler.h        finding Slang's compiler and running compile jobs
 *   dgpb/targets.h         build triples, target selection, group symbols
 *   dgpb/reflect.h         Slang's reflection JSON -> classified parameters
 *   dgpb/spirv.h           SPIR-V validation, disassembly, entry points
 *   dgpb/spirv_analysis.h  capabilities and written variables of SPIR-V
 *   dgpb/params.h          one entry's parameter table
 *   dgpb/webgpu_limits.h   WebGPU's per-stage limits per pipeline group
 *   dgpb/wgsl_names.h      the names WGSL reserves (keywords, predeclared names)
 *   dgpb/layout.h          layout blobs: recording through libslang, replaying
 *   dgpb/layout_run.h      running the layout recorder for one pipeline group
 *   dgpb/build.h           the whole pipeline: module -> bundle
 */
#ifndef DGPB_DGPB_H
#define DGPB_DGPB_H

#include "dgpb/alloc.h"
#include "dgpb/build.h"
#include "dgpb/compiler.h"
#include "dgpb/diff.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/layout.h"
#include "dgpb/layout_run.h"
#include "dgpb/model.h"
#include "dgpb/params.h"
#include "dgpb/process.h"
#include "dgpb/reader.h"
#include "dgpb/reflect.h"
#include "dgpb/result.h"
#include "dgpb/sha256.h"
#include "dgpb/spirv.h"
#include "dgpb/spirv_analysis.h"
#include "dgpb/targets.h"
#include "dgpb/webgpu_limits.h"
#include "dgpb/wgsl_names.h"
#include "dgpb/writer.h"

#endif
