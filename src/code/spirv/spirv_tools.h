/*
 * spirv_tools.h - includes SPIRV-Tools' C header (internal).
 *
 * libspirv.h defines a non-static constant, kDefaultMaxIdBound, at file
 * scope: two C files of one program that include it clash at link time. Every
 * file of the library includes it through this header, after defining
 * DGPB_SPIRV_TU to a name of its own, which renames the constant per file.
 */
#ifndef DGPB_SPIRV_TOOLS_H
#define DGPB_SPIRV_TOOLS_H

#ifndef DGPB_SPIRV_TU
#error "define DGPB_SPIRV_TU to a unique identifier before including spirv_tools.h"
#endif

#define kDefaultMaxIdBound DGPB_SPIRV_TU
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#endif
