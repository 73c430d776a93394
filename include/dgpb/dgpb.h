/*
 * dgpb/dgpb.h - everything of the dgpb library in one include.
 *
 * The library reads, writes and inspects DGPB v0 shader bundles:
 *   dgpb/result.h     result codes and diagnostics
 *   dgpb/alloc.h      allocator hooks
 *   dgpb/format.h     the format's vocabulary and rules
 *   dgpb/model.h      the in-memory bundle a producer builds
 *   dgpb/writer.h     model -> bytes
 *   dgpb/reader.h     bytes -> validated zero-copy views (what a host uses)
 *   dgpb/json_view.h  the readable .bundle.json view
 *   dgpb/sha256.h     SHA-256
 *   dgpb/fileio.h     whole-file reads, atomic writes
 *   dgpb/spirv.h      SPIR-V helpers over SPIRV-Tools
 *   dgpb/spirv_analysis.h  entry point, capabilities, written variables of SPIR-V
 */
#ifndef DGPB_DGPB_H
#define DGPB_DGPB_H

#include "dgpb/alloc.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/model.h"
#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "dgpb/sha256.h"
#include "dgpb/spirv.h"
#include "dgpb/spirv_analysis.h"
#include "dgpb/writer.h"

#endif
