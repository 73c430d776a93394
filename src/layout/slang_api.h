/*
 * slang_api.h - the part of Slang's C API that the layout recorder calls
 * (internal).
 *
 * dgpb never includes Slang's headers and never links libslang: the layout
 * recorder loads the library at run time (dlopen) and looks every function
 * below up by name. This header declares them in the project's own words,
 * with the types and enumeration values of Slang's C ABI (slang.h and
 * slang-deprecated.h, 64-bit hosts): Slang's enumerations are C++ enums with
 * a fixed underlying type, so each one is declared here as that integer type
 * plus the constants the project uses. Opaque Slang objects are incomplete
 * structs; they are only ever passed back to Slang.
 *
 * The prototypes exist so that a test build of the API (tests/layout_record/)
 * is checked against the same declarations; the recorder itself only calls
 * through a dgpb_slang_api table of function pointers, filled either by
 * slang_api_load() from a loaded library or by a test.
 *
 * The graph walk itself, layout_record_reflection(), reads Slang's
 * answers through such a table only (see src/recorder/layout_record.c and
 * docs/layout.md).
 */
#ifndef DGPB_SLANG_API_H
#define DGPB_SLANG_API_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define layout_record_reflection dgpb__layout_record_reflection
#define slang_api_load dgpb__slang_api_load

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dgpb/result.h"
#include "layout/layout_internal.h"

#if UINTPTR_MAX > 0xFFFFFFFFu
typedef int64_t SlangInt; /* SlangInt and SlangUInt follow the pointer size */
typedef uint64_t SlangUInt;
#else
typedef int32_t SlangInt;
typedef uint32_t SlangUInt;
#endif
typedef int32_t SlangResult;
typedef unsigned int SlangCompileFlags;
typedef unsigned int SlangTypeKind;
typedef unsigned int SlangScalarType;
typedef unsigned int SlangResourceShape;
typedef unsigned int SlangResourceAccess;
typedef unsigned int SlangParameterCategory;
typedef unsigned int SlangMatrixLayoutMode;
typedef uint32_t SlangStage;
typedef uint32_t SlangBindingType;
typedef uint32_t SlangImageFormat;

/* Opaque objects. SlangReflectionParameter is a variable layout in Slang's ABI. */
typedef struct SlangSession SlangSession;
typedef struct SlangCompileRequest SlangCompileRequest;
typedef struct SlangReflection SlangReflection;
typedef struct SlangReflectionEntryPoint SlangReflectionEntryPoint;
typedef struct SlangReflectionType SlangReflectionType;
typedef struct SlangReflectionTypeLayout SlangReflectionTypeLayout;
typedef struct SlangReflectionVariable SlangReflectionVariable;
typedef struct SlangReflectionVariableLayout SlangReflectionVariableLayout;
typedef struct SlangReflectionUserAttribute SlangReflectionUserAttribute;
typedef SlangReflectionVariableLayout SlangReflectionParameter;

#define DGPB_SLANG_FAILED(r) ((r) < 0)

/* SlangCompileFlags: skip code generation (reflection only). */
#define DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN (1u << 4)
/* SlangMatrixLayoutMode */
#define DGPB_SLANG_MATRIX_LAYOUT_COLUMN_MAJOR 2u
/* SlangTypeKind values the recorder and the reader look at. */
#define DGPB_SLANG_TYPE_KIND_POINTER DGPB_LAYOUT_KIND_POINTER
/* SlangParameterCategory: the number of categories Slang 2025 defines
 * (SLANG_PARAMETER_CATEGORY_COUNT). */
#define DGPB_SLANG_PARAMETER_CATEGORY_COUNT 25u
/* SlangImageFormat: SLANG_IMAGE_FORMAT_unknown, Slang's answer when a range has no format. */
#define DGPB_SLANG_IMAGE_FORMAT_UNKNOWN 0u
/* SlangStage: none, and each stage's number (dgpb/vocabulary.def's slang_stage column). */
#define DGPB_SLANG_STAGE_NONE 0u
enum {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    DGPB_SLANG_STAGE_##ID = slang_stage,
#include "dgpb/vocabulary.def"
};

/*
 * X-macro over every function the recorder calls: X(return type, name, parameter list).
 * The order is the order of the table below; names are Slang's exported symbols.
 *
 * Not every function is safe for every argument (source/slang/slang-reflection-api.cpp;
 * docs/layout.md, "Safe calls"). The callers here (the recorder and the tests' comparison)
 * keep to these preconditions, and the tests' fake libslang aborts when one is broken:
 *   - spReflection_GetTypeParameterCount: a non-NULL program (not checked);
 *   - spReflection_getEntryPointByIndex, spReflectionEntryPoint_getParameterByIndex,
 *     spReflectionTypeLayout_GetCategoryByIndex, _GetFieldByIndex,
 *     _getFieldBindingRangeOffset: an index below the matching count (not checked);
 *   - spReflectionVariableLayout_GetOffset, _GetSpace, spReflectionParameter_GetBindingIndex,
 *     _GetBindingSpace: a variable layout with a type layout (a category the variable layout
 *     lacks is remapped through its type layout, not checked for NULL);
 *   - spReflectionTypeLayout_isBindingRangeSpecializable: a binding range with a leaf type
 *     layout; _getBindingRangeImageFormat: a binding range with a leaf variable (both read
 *     through unchecked; out-of-range indices are checked and answer 0 / unknown).
 * Every other function checks for NULL and for its indices.
 */
#define DGPB_SLANG_FUNCTIONS(X)                                                                    \
    X(const char *, spGetBuildTagString, (void))                                                   \
    X(SlangSession *, spCreateSession, (const char *deprecated))                                   \
    X(void, spDestroySession, (SlangSession * session))                                            \
    X(SlangCompileRequest *, spCreateCompileRequest, (SlangSession * session))                     \
    X(void, spDestroyCompileRequest, (SlangCompileRequest * request))                              \
    X(void, spSetCompileFlags, (SlangCompileRequest * request, SlangCompileFlags flags))           \
    X(SlangCompileFlags, spGetCompileFlags, (SlangCompileRequest * request))                       \
    X(void, spSetMatrixLayoutMode, (SlangCompileRequest * request, SlangMatrixLayoutMode mode))    \
    X(SlangResult, spProcessCommandLineArguments,                                                  \
      (SlangCompileRequest * request, const char *const *args, int arg_count))                     \
    X(SlangResult, spCompile, (SlangCompileRequest * request))                                     \
    X(const char *, spGetDiagnosticOutput, (SlangCompileRequest * request))                        \
    X(SlangReflection *, spGetReflection, (SlangCompileRequest * request))                         \
    /* program */                                                                                  \
    X(unsigned int, spReflection_GetTypeParameterCount, (SlangReflection * reflection))            \
    X(SlangReflectionVariableLayout *, spReflection_getGlobalParamsVarLayout,                      \
      (SlangReflection * reflection))                                                              \
    X(SlangReflectionTypeLayout *, spReflection_getGlobalParamsTypeLayout,                         \
      (SlangReflection * reflection))                                                              \
    X(SlangUInt, spReflection_getEntryPointCount, (SlangReflection * reflection))                  \
    X(SlangReflectionEntryPoint *, spReflection_getEntryPointByIndex,                              \
      (SlangReflection * reflection, SlangUInt index))                                             \
    /* entry point */                                                                              \
    X(const char *, spReflectionEntryPoint_getName, (SlangReflectionEntryPoint * entry))           \
    X(const char *, spReflectionEntryPoint_getNameOverride, (SlangReflectionEntryPoint * entry))   \
    X(SlangStage, spReflectionEntryPoint_getStage, (SlangReflectionEntryPoint * entry))            \
    X(SlangReflectionVariableLayout *, spReflectionEntryPoint_getVarLayout,                        \
      (SlangReflectionEntryPoint * entry))                                                         \
    X(void, spReflectionEntryPoint_getComputeThreadGroupSize,                                      \
      (SlangReflectionEntryPoint * entry, SlangUInt axis_count, SlangUInt * out_size))             \
    X(unsigned, spReflectionEntryPoint_getParameterCount, (SlangReflectionEntryPoint * entry))     \
    X(SlangReflectionVariableLayout *, spReflectionEntryPoint_getParameterByIndex,                 \
      (SlangReflectionEntryPoint * entry, unsigned index))                                         \
    /* variable layout */                                                                          \
    X(SlangReflectionTypeLayout *, spReflectionVariableLayout_GetTypeLayout,                       \
      (SlangReflectionVariableLayout * var))                                                       \
    X(SlangReflectionVariable *, spReflectionVariableLayout_GetVariable,                           \
      (SlangReflectionVariableLayout * var))                                                       \
    X(size_t, spReflectionVariableLayout_GetOffset,                                                \
      (SlangReflectionVariableLayout * var, SlangParameterCategory category))                      \
    X(size_t, spReflectionVariableLayout_GetSpace,                                                 \
      (SlangReflectionVariableLayout * var, SlangParameterCategory category))                      \
    X(unsigned, spReflectionParameter_GetBindingIndex, (SlangReflectionParameter * parameter))     \
    X(unsigned, spReflectionParameter_GetBindingSpace, (SlangReflectionParameter * parameter))     \
    /* type layout */                                                                              \
    X(SlangReflectionType *, spReflectionTypeLayout_GetType, (SlangReflectionTypeLayout * tl))     \
    X(SlangTypeKind, spReflectionTypeLayout_getKind, (SlangReflectionTypeLayout * tl))             \
    X(size_t, spReflectionTypeLayout_GetSize,                                                      \
      (SlangReflectionTypeLayout * tl, SlangParameterCategory category))                           \
    X(size_t, spReflectionTypeLayout_GetStride,                                                    \
      (SlangReflectionTypeLayout * tl, SlangParameterCategory category))                           \
    X(size_t, spReflectionTypeLayout_GetElementStride,                                             \
      (SlangReflectionTypeLayout * tl, SlangParameterCategory category))                           \
    X(SlangParameterCategory, spReflectionTypeLayout_GetParameterCategory,                         \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(unsigned, spReflectionTypeLayout_GetCategoryCount, (SlangReflectionTypeLayout * tl))         \
    X(SlangParameterCategory, spReflectionTypeLayout_GetCategoryByIndex,                           \
      (SlangReflectionTypeLayout * tl, unsigned index))                                            \
    X(SlangReflectionTypeLayout *, spReflectionTypeLayout_GetElementTypeLayout,                    \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(SlangReflectionVariableLayout *, spReflectionTypeLayout_GetElementVarLayout,                 \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(SlangReflectionVariableLayout *, spReflectionTypeLayout_getContainerVarLayout,               \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(SlangReflectionVariableLayout *, spReflectionTypeLayout_GetExplicitCounter,                  \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(SlangInt, spReflectionTypeLayout_getExplicitCounterBindingRangeOffset,                       \
      (SlangReflectionTypeLayout * tl))                                                            \
    X(uint32_t, spReflectionTypeLayout_GetFieldCount, (SlangReflectionTypeLayout * tl))            \
    X(SlangReflectionVariableLayout *, spReflectionTypeLayout_GetFieldByIndex,                     \
      (SlangReflectionTypeLayout * tl, unsigned index))                                            \
    X(SlangInt, spReflectionTypeLayout_getFieldBindingRangeOffset,                                 \
      (SlangReflectionTypeLayout * tl, SlangInt field_index))                                      \
    X(SlangInt, spReflectionTypeLayout_getBindingRangeCount, (SlangReflectionTypeLayout * tl))     \
    X(SlangBindingType, spReflectionTypeLayout_getBindingRangeType,                                \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getBindingRangeBindingCount,                                \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangReflectionTypeLayout *, spReflectionTypeLayout_getBindingRangeLeafTypeLayout,           \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangReflectionVariable *, spReflectionTypeLayout_getBindingRangeLeafVariable,               \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_isBindingRangeSpecializable,                                \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangImageFormat, spReflectionTypeLayout_getBindingRangeImageFormat,                         \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getBindingRangeDescriptorSetIndex,                          \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getBindingRangeFirstDescriptorRangeIndex,                   \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getBindingRangeDescriptorRangeCount,                        \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getDescriptorSetCount, (SlangReflectionTypeLayout * tl))    \
    X(SlangInt, spReflectionTypeLayout_getDescriptorSetSpaceOffset,                                \
      (SlangReflectionTypeLayout * tl, SlangInt set))                                              \
    X(SlangInt, spReflectionTypeLayout_getDescriptorSetDescriptorRangeCount,                       \
      (SlangReflectionTypeLayout * tl, SlangInt set))                                              \
    X(SlangInt, spReflectionTypeLayout_getDescriptorSetDescriptorRangeIndexOffset,                 \
      (SlangReflectionTypeLayout * tl, SlangInt set, SlangInt range))                              \
    X(SlangInt, spReflectionTypeLayout_getDescriptorSetDescriptorRangeDescriptorCount,             \
      (SlangReflectionTypeLayout * tl, SlangInt set, SlangInt range))                              \
    X(SlangBindingType, spReflectionTypeLayout_getDescriptorSetDescriptorRangeType,                \
      (SlangReflectionTypeLayout * tl, SlangInt set, SlangInt range))                              \
    X(SlangParameterCategory, spReflectionTypeLayout_getDescriptorSetDescriptorRangeCategory,      \
      (SlangReflectionTypeLayout * tl, SlangInt set, SlangInt range))                              \
    X(SlangInt, spReflectionTypeLayout_getSubObjectRangeCount, (SlangReflectionTypeLayout * tl))   \
    X(SlangInt, spReflectionTypeLayout_getSubObjectRangeBindingRangeIndex,                         \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangInt, spReflectionTypeLayout_getSubObjectRangeSpaceOffset,                               \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    X(SlangReflectionVariableLayout *, spReflectionTypeLayout_getSubObjectRangeOffset,             \
      (SlangReflectionTypeLayout * tl, SlangInt index))                                            \
    /* type */                                                                                     \
    X(SlangTypeKind, spReflectionType_GetKind, (SlangReflectionType * type))                       \
    X(const char *, spReflectionType_GetName, (SlangReflectionType * type))                        \
    X(SlangReflectionType *, spReflectionType_GetElementType, (SlangReflectionType * type))        \
    X(size_t, spReflectionType_GetElementCount, (SlangReflectionType * type))                      \
    X(unsigned int, spReflectionType_GetRowCount, (SlangReflectionType * type))                    \
    X(unsigned int, spReflectionType_GetColumnCount, (SlangReflectionType * type))                 \
    X(SlangScalarType, spReflectionType_GetScalarType, (SlangReflectionType * type))               \
    X(SlangResourceShape, spReflectionType_GetResourceShape, (SlangReflectionType * type))         \
    X(SlangResourceAccess, spReflectionType_GetResourceAccess, (SlangReflectionType * type))       \
    X(SlangReflectionType *, spReflectionType_GetResourceResultType, (SlangReflectionType * type)) \
    /* variable */                                                                                 \
    X(const char *, spReflectionVariable_GetName, (SlangReflectionVariable * var))                 \
    X(SlangReflectionType *, spReflectionVariable_GetType, (SlangReflectionVariable * var))        \
    X(unsigned int, spReflectionVariable_GetUserAttributeCount, (SlangReflectionVariable * var))   \
    X(SlangReflectionUserAttribute *, spReflectionVariable_GetUserAttribute,                       \
      (SlangReflectionVariable * var, unsigned int index))                                         \
    X(const char *, spReflectionUserAttribute_GetName, (SlangReflectionUserAttribute * attribute))

/*
 * SlangGlobalSessionDesc (slang.h), as slang_createGlobalSession2() reads it.
 * slangc creates its session with enableGLSL set; so do the recorder and the
 * native worker, so that a compile in either answers as slangc's would.
 */
typedef struct dgpb_slang_global_session_desc {
    uint32_t structure_size;       /* sizeof this struct */
    uint32_t api_version;          /* SLANG_API_VERSION: 0 */
    uint32_t min_language_version; /* SLANG_LANGUAGE_VERSION_2025 */
    bool enable_glsl;
    uint32_t reserved[16];
} dgpb_slang_global_session_desc;

#define DGPB_SLANG_LANGUAGE_VERSION_2025 2025u
/* SlangSourceLanguage values whose preludes slangc sets. */
#define DGPB_SLANG_SOURCE_LANGUAGE_CPP 5
#define DGPB_SLANG_SOURCE_LANGUAGE_CUDA 6
/*
 * Slots of the IGlobalSession interface's function table (slang.h, in
 * declaration order after ISlangUnknown's three): getBuildTagString checks
 * that the table is laid out as expected before setLanguagePrelude is called
 * through it (slang_compile.c).
 */
#define DGPB_SLANG_GLOBAL_SESSION_SLOT_GET_BUILD_TAG 8
#define DGPB_SLANG_GLOBAL_SESSION_SLOT_SET_LANGUAGE_PRELUDE 11
#define DGPB_SLANG_GLOBAL_SESSION_SLOT_SET_DOWNSTREAM_COMPILER_PATH 5
#define DGPB_SLANG_PASS_THROUGH_NVRTC 9 /* SLANG_PASS_THROUGH_NVRTC */

/*
 * Functions looked up when present: older libraries lack the first, and the
 * native worker's compiles need the others (slangc's command-line mode and its
 * search folder; the files a compile read, for the depfile of one that skips
 * code generation; the reflection JSON of a compile, an ISlangBlob whose
 * getBufferPointer and getBufferSize are slots 3 and 4 of its table, release
 * slot 2; a request's module (an IModule) and session (an ISession), for the
 * compiles a worker answers from a module it keeps, recorder/worker_checked.h).
 * A NULL member means the library does not export it.
 */
#define DGPB_SLANG_OPTIONAL_FUNCTIONS(X)                                                           \
    X(SlangResult, slang_createGlobalSession2,                                                     \
      (const dgpb_slang_global_session_desc *desc, SlangSession **out_session))                    \
    X(void, spSetCommandLineCompilerMode, (SlangCompileRequest * request))                         \
    X(void, spAddSearchPath, (SlangCompileRequest * request, const char *path))                    \
    X(int, spGetDependencyFileCount, (SlangCompileRequest * request))                              \
    X(const char *, spGetDependencyFilePath, (SlangCompileRequest * request, int index))           \
    X(SlangResult, spReflection_ToJson,                                                            \
      (SlangReflection * reflection, SlangCompileRequest * request, void **out_blob))              \
    X(SlangResult, spCompileRequest_getModule,                                                     \
      (SlangCompileRequest * request, SlangInt unit, void **out_module))                           \
    X(SlangResult, spCompileRequest_getSession,                                                    \
      (SlangCompileRequest * request, void **out_session))

/*
 * slangc's own spSetCommandLineCompilerMode(slang::ICompileRequest *) is
 * declared in Slang's internal header slang-internal.h without C linkage, so
 * libslang exports it under its Itanium C++ name (Slang 2026.16 on Linux);
 * the plain name is looked up first.
 */
#define DGPB_SLANG_SET_COMMAND_LINE_MODE_CXX                                                       \
    "_Z28spSetCommandLineCompilerModePN5slang15ICompileRequestE"

/* The prototypes, as Slang exports them (C linkage). */
#define DGPB_SLANG_DECLARE(ret, name, params) ret name params;
DGPB_SLANG_FUNCTIONS(DGPB_SLANG_DECLARE)
DGPB_SLANG_OPTIONAL_FUNCTIONS(DGPB_SLANG_DECLARE)
#undef DGPB_SLANG_DECLARE

/* A table of pointers to those functions, one member per function, named as the function. */
typedef struct dgpb_slang_api {
#define DGPB_SLANG_MEMBER(ret, name, params) ret(*name) params;
    DGPB_SLANG_FUNCTIONS(DGPB_SLANG_MEMBER)
    DGPB_SLANG_OPTIONAL_FUNCTIONS(DGPB_SLANG_MEMBER)
#undef DGPB_SLANG_MEMBER
} dgpb_slang_api;

/*
 * Fills `api` with dlsym() lookups in a dlopen() handle. DGPB_ERR_UNSUPPORTED
 * naming the first missing symbol and the library path when one of
 * DGPB_SLANG_FUNCTIONS is absent; optional ones absent are left NULL.
 */
int slang_api_load(void *handle, const char *path, dgpb_slang_api *api, dgpb_diag *diag);

/*
 * The graph walk: asks Slang (through `api`) every question the blob answers
 * for `reflection` and fills `model` (see layout_internal.h), objects
 * numbered in the order the walk first meets them, pointers seen twice
 * recorded once. The header fields of the model (Slang's version, target,
 * options) are the caller's. DGPB_ERR_SHADER when the program has
 * specialization parameters; DGPB_ERR_LIMIT when a string or count is too
 * large for the format; DGPB_ERR_NOMEM.
 */
int layout_record_reflection(const dgpb_slang_api *api, SlangReflection *reflection,
                             dgpb_layout_model *model, dgpb_diag *diag);

#endif
