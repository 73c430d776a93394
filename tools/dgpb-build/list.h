/*
 * list.h - `dgpb-build --list`: a module's entries, as Slang's discovery
 * finds them (dgpb_build_list(), dgpb/build.h), printed as text or JSON
 * (docs/build.md, "Listing the entries").
 */
#ifndef DGPB_BUILD_LIST_H
#define DGPB_BUILD_LIST_H

#include <stdio.h>

#include "dgpb/build.h"

/*
 * One line per entry, in declaration order, columns aligned:
 *
 *     k   compute  [64,1,1]  compute shader 'k'  ptx spirv wgsl
 *     vs  vertex   -         the render group    spirv wgsl
 *         not on ptx: ptx carries compute entries only
 *
 * name, stage, thread group size ('-' off compute), pipeline group, targets
 * ('-' for none); below it, one line per target of the build that does not
 * carry the entry, with the reason. A library module has no line.
 */
void list_print_text(FILE *out, const dgpb_entry_list *list);

/* The same as one JSON document; `module` is the module's path as given. */
void list_print_json(FILE *out, const dgpb_entry_list *list, const char *module);

#endif
