/*
 * layout_compare.h - compares every answer of a replayed layout with the
 * live Slang API it was recorded from (the fake, or a native libslang).
 */
#ifndef DGPB_LAYOUT_COMPARE_H
#define DGPB_LAYOUT_COMPARE_H

#include <stddef.h>

#include "dgpb/layout_record.h"
#include "layout/slang_api.h"

/*
 * Walks the live graph from `reflection` and the replayed one from `l` side
 * by side: every object, every per-category answer (categories 0..70, 1000
 * and 0xFFFFFFFF), every index in range and, where Slang checks its
 * bounds, out of range; and that the same live object is always the same
 * ref and different objects different refs. Returns the number of
 * mismatches (0: identical) and writes the first into `first` (size bytes);
 * *answers (if given) receives the number of answers compared.
 */
size_t layout_compare(const dgpb_slang_api *api, SlangReflection *reflection, const dgpb_layout *l,
                      char *first, size_t size, size_t *answers);

/*
 * Compiles with `args` through `api` the way dgpb_layout_record() does
 * (slangc's column-major default, no code generation). Returns the request
 * (destroy with api->spDestroyCompileRequest) or NULL with Slang's
 * diagnostics copied to `err`.
 */
SlangCompileRequest *layout_compare_compile(const dgpb_slang_api *api, SlangSession *session,
                                            const char *const *args, int count, char *err,
                                            size_t size);

#endif
