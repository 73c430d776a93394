/*
 * dgpb/dgpb.h - the public API of the producer library (dgpb) in one include.
 *
 * These are the headers a build-system integration uses; they are the ones
 * installed. Everything else the programs use stays inside src/
 * (CONTRIBUTING.md maps it). A host that only reads bundles includes the
 * reader's headers alone (dgpb/reader.h and the others of the first list)
 * and links the reader library, dgpb_reader: none of them declares or
 * includes anything of the producer's.
 *
 * Reading bundles (library dgpb_reader, what a host needs):
 *   dgpb/result.h          result codes and diagnostics
 *   dgpb/alloc.h           allocator hooks and dgpb_free()
 *   dgpb/format.h          the format's vocabulary (expanded from dgpb/vocabulary.def)
 *   dgpb/reader.h          bytes -> validated zero-copy views, blob SHA-256
 *   dgpb/json_view.h       the readable .bundle.json view
 *   dgpb/sha256.h          SHA-256
 *   dgpb/fileio.h          whole-file reads, atomic writes
 *   dgpb/layout.h          layout blobs: strict replay of recorded reflection
 * Running bundles (library dgpb_run, its own include: dgpb/run.h, dgpb/run_values.h).
 * Building bundles (library dgpb, what dgpb-build and a build system call):
 *   dgpb/layout_record.h   recording layout blobs through a native libslang
 *   dgpb/file_unit.h       output units: several files replaced as one
 *   dgpb/compiler.h        finding Slang's compiler
 *   dgpb/cache.h           the compile cache
 *   dgpb/build.h           the whole pipeline: module -> bundle
 *   dgpb/service.h         the compile service
 */
#ifndef DGPB_DGPB_H
#define DGPB_DGPB_H

#include "dgpb/alloc.h"
#include "dgpb/build.h"
#include "dgpb/cache.h"
#include "dgpb/compiler.h"
#include "dgpb/file_unit.h"
#include "dgpb/fileio.h"
#include "dgpb/format.h"
#include "dgpb/json_view.h"
#include "dgpb/layout.h"
#include "dgpb/layout_record.h"
#include "dgpb/reader.h"
#include "dgpb/result.h"
#include "dgpb/service.h"
#include "dgpb/sha256.h"

#endif
