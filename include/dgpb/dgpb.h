/*
 * dgpb/dgpb.h - the public API of the dgpb library in one include.
 *
 * These are the headers a host or a build-system integration uses; they are
 * the ones installed. Everything else the programs use stays inside src/
 * (CONTRIBUTING.md maps it).
 *
 * Reading bundles (what a host needs):
 *   dgpb/result.h          result codes and diagnostics
 *   dgpb/alloc.h           allocator hooks and dgpb_free()
 *   dgpb/format.h          the format's vocabulary (expanded from dgpb/vocabulary.def)
 *   dgpb/reader.h          bytes -> validated zero-copy views, blob SHA-256
 *   dgpb/json_view.h       the readable .bundle.json view
 *   dgpb/sha256.h          SHA-256
 *   dgpb/fileio.h          whole-file reads, atomic writes
 *   dgpb/layout.h          layout blobs: strict replay of recorded reflection
 * Running bundles (library dgpb_run, its own include: dgpb/run.h, dgpb/run_values.h).
 * Building bundles (what dgpb-build and a build system call):
 *   dgpb/compiler.h        finding Slang's compiler
 *   dgpb/cache.h           the compile cache
 *   dgpb/build.h           the whole pipeline: module -> bundle
 */
#ifndef DGPB_DGPB_H
#define DGPB_DGPB_H

#include "dgpb/alloc.h"
#include "dgpb/build.h"
#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/layout.h"
#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "dgpb/service.h"
#include "dgpb/sha256.h"

#endif
