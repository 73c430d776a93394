/*
 * fake_slang.c - a test build of the part of Slang's C API the layout
 * recorder calls (src/layout/slang_api.h), over a hand-made reflection graph.
 *
 * Built as libfake_slang.so; dgpb-slang-layout loads it with --slang-lib
 * exactly as it loads a native libslang, and the tests load it too, to
 * compare every replayed answer with the fake's own. Its answers follow
 * Slang's rules where the recorder depends on them: 0/NULL for a NULL
 * object or an index out of range, the offset and space of a variable
 * layout remapped from a resource category to the descriptor-table slot
 * (Slang's "do what I mean"), a space answer for categories the layout does
 * not use (the register-space offset), objects that are the same pointer
 * wherever they are reached, a pointer type whose target contains it.
 *
 * Where real Slang reads out of bounds or through a NULL pointer
 * (source/slang/slang-reflection-api.cpp; src/layout/slang_api.h lists the
 * preconditions), the fake prints the function and the broken precondition
 * to stderr and calls abort(), so a test that runs through proves its
 * caller never made such a call. The graph has a case for each: binding
 * ranges without a leaf variable (every resource type layout's own range)
 * and one without a leaf type layout, a variable layout without a type
 * layout (an entry parameter), and the lists indexed unchecked.
 *
 * The "module" decides what compiles: a module path containing "broken"
 * fails with a diagnostic, "abspath" fails with one that names the module by
 * its absolute path (as Slang may: the build must name it as the user did),
 * "generic" gives one specialization parameter.
 * The program's entry points are the -entry/-stage pairs given, in order.
 * $FAKE_SLANG_VERSION replaces the build tag.
 *
 * It also compiles as slangc does, for the native worker's tests
 * (tests/layout_record/slang_worker_test.c): in slangc's command-line mode
 * (spSetCommandLineCompilerMode) spCompile() writes "fake code for ENTRY
 * (TARGET)\n" to the -o file, {"fake":"ENTRY"} to the -reflection-json file
 * (the last -entry and -target given) and "OUTPUT: MODULE" to the -depfile
 * (with -skip-codegen the reflection JSON alone, as Slang 2026.16), and says
 * "fake slang: compiled ENTRY" on standard output as Slang may; a module
 * containing "crash" makes it say "fake worker dying" on standard error and
 * abort(). Outside that mode -o is refused, as the recorder never passes it.
 * The global session (slang_createGlobalSession2 or spCreateSession) starts
 * with a pointer to a function table laid out as IGlobalSession's: slot 8
 * answers the build tag ($FAKE_SLANG_SESSION_TAG replaces it there only),
 * slot 11 records setLanguagePrelude, slot 5 records setDownstreamCompilerPath
 * (the NVRTC of $CUDA_PATH); every other slot aborts. The
 * fake_slang_* functions at the end let a test read what was recorded.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "layout/slang_api.h"

#define NCAT 25
#define MAX_ENTRIES 4

enum {
    CAT_NONE = 0,
    CAT_CONSTANT_BUFFER = 2,
    CAT_SHADER_RESOURCE = 3,
    CAT_UNORDERED_ACCESS = 4,
    CAT_SAMPLER_STATE = 7,
    CAT_UNIFORM = 8,
    CAT_DESCRIPTOR_TABLE_SLOT = 9,
    CAT_REGISTER_SPACE = 12,
};

struct SlangReflectionType {
    SlangTypeKind kind;
    const char *name;
    SlangReflectionType *element;
    size_t element_count;
    unsigned rows, columns;
    SlangScalarType scalar;
    SlangResourceShape shape;
    SlangResourceAccess access;
    SlangReflectionType *result;
};

struct SlangReflectionUserAttribute {
    const char *name;
};

struct SlangReflectionVariable {
    const char *name;
    SlangReflectionType *type;
    unsigned attribute_count;
    SlangReflectionUserAttribute *attributes[2];
};

typedef struct fake_range {
    SlangBindingType type;
    SlangInt count;
    SlangReflectionTypeLayout *leaf;
    SlangReflectionVariable *leaf_var;
    SlangInt specializable;
    SlangImageFormat format;
    SlangInt set, first, n;
} fake_range;

typedef struct fake_drange {
    SlangInt index_offset, count;
    SlangBindingType type;
    SlangParameterCategory category;
} fake_drange;

struct SlangReflectionTypeLayout {
    SlangReflectionType *type;
    SlangTypeKind kind;
    SlangParameterCategory category;
    size_t size[NCAT];
    size_t element_stride_uniform;
    unsigned uniform_alignment;
    SlangReflectionTypeLayout *element;
    SlangReflectionVariableLayout *element_var, *container_var, *counter;
    SlangInt counter_offset;
    unsigned field_count;
    SlangReflectionVariableLayout *fields[4];
    SlangInt field_offsets[4];
    unsigned range_count;
    fake_range ranges[4];
    unsigned set_count;
    SlangInt set_space[2];
    unsigned drange_count[2];
    fake_drange dranges[2][3];
    unsigned sub_count;
    SlangInt sub_range[1], sub_space[1];
    SlangReflectionVariableLayout *sub_offset[1];
};

struct SlangReflectionVariableLayout {
    SlangReflectionTypeLayout *type_layout;
    SlangReflectionVariable *var;
    size_t offset[NCAT];
    size_t space[NCAT];
    size_t register_space;
};

struct SlangReflectionEntryPoint {
    const char *name;
    SlangStage stage;
    SlangReflectionVariableLayout *var_layout;
    unsigned param_count;
    SlangReflectionVariableLayout *params[2];
};

struct SlangReflection {
    unsigned specialization_params;
    unsigned entry_count;
    SlangReflectionEntryPoint entries[MAX_ENTRIES];
};

/* IGlobalSession: its first member points to the interface's function table. */
typedef void (*fake_slot)(void);
#define FAKE_SESSION_SLOTS 16
struct SlangSession {
    const fake_slot *vtable;
};

struct SlangCompileRequest {
    SlangCompileFlags flags;
    SlangMatrixLayoutMode matrix;
    char *module;
    const char *diagnostics;
    char diagnostics_buf[4200]; /* a diagnostic made for the module ("abspath") */
    struct SlangReflection reflection;
    char names[MAX_ENTRIES][64];
    /* slangc's command-line mode (the native worker's compiles) */
    int command_line;
    char *search_path; /* the last spAddSearchPath() */
    char *output;      /* -o */
    char *reflection_json;
    char *depfile;
    char target[64]; /* the last -target */
};

/* A call real Slang would not survive. */
static _Noreturn void violated(const char *function, const char *precondition)
{
    fprintf(stderr, "fake libslang: %s called unsafely: %s\n", function, precondition);
    fflush(stderr);
    abort();
}

/* ---- the graph ---- */

static SlangReflectionType t_float = {5, "float", NULL, 0, 1, 1, 8, 0, 0, NULL};
static SlangReflectionType t_float4 = {4, "vector", &t_float, 4, 1, 4, 8, 0, 0, NULL};
static SlangReflectionType t_uint = {5, "uint", NULL, 0, 1, 1, 4, 0, 0, NULL};
static SlangReflectionType t_texture = {7, "Texture2D", NULL, 0, 0, 0, 0, 2, 1, &t_float4};
static SlangReflectionType t_buffer = {7, "RWStructuredBuffer", NULL, 0, 0, 0, 0, 6, 2, &t_float};
static SlangReflectionType t_sampler = {8, "SamplerState", NULL, 0, 0, 0, 0, 0, 0, NULL};
static SlangReflectionType t_samplers = {2, NULL, &t_sampler, 4, 0, 0, 0, 0, 0, NULL};
static SlangReflectionType t_node = {1, "Node", NULL, 0, 0, 0, 0, 0, 0, NULL};
static SlangReflectionType t_ptr = {18, "Ptr", &t_node, 0, 0, 0, 0, 0, 0, NULL};
static SlangReflectionType t_params = {1, "Params", NULL, 0, 0, 0, 0, 0, 0, NULL};
static SlangReflectionType t_cb = {6, "ConstantBuffer", &t_params, 0, 0, 0, 0, 0, 0, NULL};

static SlangReflectionUserAttribute a_format = {"format"};
static SlangReflectionUserAttribute a_noname = {NULL};

static SlangReflectionVariable v_tex = {"k_tex", &t_texture, 0, {NULL, NULL}};
static SlangReflectionVariable v_buf = {"k_out", &t_buffer, 2, {&a_format, &a_noname}};
static SlangReflectionVariable v_cb = {"k_params", &t_cb, 0, {NULL, NULL}};
static SlangReflectionVariable v_samplers = {"k_samplers", &t_samplers, 0, {NULL, NULL}};
static SlangReflectionVariable v_color = {"color", &t_float4, 0, {NULL, NULL}};
static SlangReflectionVariable v_next = {"next", &t_ptr, 0, {NULL, NULL}};
static SlangReflectionVariable v_x = {"x", &t_uint, 0, {NULL, NULL}};

extern SlangReflectionTypeLayout tl_global, tl_tex, tl_buf, tl_float, tl_float4, tl_uint, tl_cb,
    tl_cb_container, tl_params, tl_samplers, tl_sampler, tl_node, tl_ptr, tl_entry;
extern SlangReflectionVariableLayout vl_global, vl_tex, vl_buf, vl_counter, vl_cb, vl_cb_element,
    vl_cb_container, vl_samplers, vl_color, vl_next, vl_node_next, vl_x, vl_untyped, vl_entry;

#define SIZE1(cat)                                                                                 \
    {                                                                                              \
        [cat] = 1                                                                                  \
    }

#define TL(t, k, cat) .type = (t), .kind = (k), .category = (cat)
SlangReflectionTypeLayout tl_float = {TL(&t_float, 5, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 4},
                                      .uniform_alignment = 4};
SlangReflectionTypeLayout tl_float4 = {TL(&t_float4, 4, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 16},
                                       .element_stride_uniform = 4, .uniform_alignment = 16,
                                       .element = &tl_float};
SlangReflectionTypeLayout tl_uint = {TL(&t_uint, 5, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 4},
                                     .uniform_alignment = 4};
SlangReflectionTypeLayout tl_tex = {TL(&t_texture, 7, CAT_DESCRIPTOR_TABLE_SLOT),
                                    .size = SIZE1(CAT_DESCRIPTOR_TABLE_SLOT), .range_count = 1,
                                    .ranges = {{2, 1, &tl_tex, NULL, 0, 0, 0, 0, 1}}};
SlangReflectionTypeLayout tl_buf = {TL(&t_buffer, 7, CAT_DESCRIPTOR_TABLE_SLOT),
                                    .size = {[CAT_DESCRIPTOR_TABLE_SLOT] = 2},
                                    .element = &tl_float,
                                    .counter = &vl_counter,
                                    .counter_offset = 1,
                                    .range_count = 2,
                                    .ranges = {{0x106, 1, &tl_buf, NULL, 0, 0, 0, 0, 1},
                                               {0x106, 1, &tl_uint, NULL, 0, 0, 0, 1, 1}}};
SlangReflectionTypeLayout tl_sampler = {TL(&t_sampler, 8, CAT_DESCRIPTOR_TABLE_SLOT),
                                        .size = SIZE1(CAT_DESCRIPTOR_TABLE_SLOT), .range_count = 1,
                                        .ranges = {{1, 1, &tl_sampler, NULL, 0, 0, 0, 0, 1}}};
SlangReflectionTypeLayout tl_samplers = {
    TL(&t_samplers, 2, CAT_DESCRIPTOR_TABLE_SLOT), .size = SIZE1(CAT_DESCRIPTOR_TABLE_SLOT),
    .element = &tl_sampler, .range_count = 1, .ranges = {{1, 4, &tl_sampler, NULL, 0, 0, 0, 0, 1}}};
/* A pointer whose target contains the pointer. */
SlangReflectionTypeLayout tl_node = {TL(&t_node, 1, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 8},
                                     .uniform_alignment = 8, .field_count = 1,
                                     .fields = {&vl_node_next}};
SlangReflectionTypeLayout tl_ptr = {TL(&t_ptr, 18, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 8},
                                    .uniform_alignment = 8, .element = &tl_node};
SlangReflectionTypeLayout tl_params = {TL(&t_params, 1, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 24},
                                       .uniform_alignment = 16, .field_count = 2,
                                       .fields = {&vl_color, &vl_next}};
SlangReflectionTypeLayout tl_cb = {TL(&t_cb, 6, CAT_DESCRIPTOR_TABLE_SLOT),
                                   .size = SIZE1(CAT_DESCRIPTOR_TABLE_SLOT),
                                   .element = &tl_params,
                                   .element_var = &vl_cb_element,
                                   .container_var = &vl_cb_container,
                                   .range_count = 1,
                                   .ranges = {{3, 1, &tl_cb, NULL, 0, 0, 0, 0, 1}},
                                   .sub_count = 1,
                                   .sub_offset = {&vl_cb_container}};
/* Slang gives a parameter group's container its own type layout (no type). */
SlangReflectionTypeLayout tl_cb_container = {TL(NULL, 0, CAT_DESCRIPTOR_TABLE_SLOT),
                                             .size = SIZE1(CAT_DESCRIPTOR_TABLE_SLOT)};
SlangReflectionTypeLayout tl_global = {TL(NULL, 1, CAT_DESCRIPTOR_TABLE_SLOT),
                                       .size = {[CAT_DESCRIPTOR_TABLE_SLOT] = 5},
                                       .field_count = 4,
                                       .fields = {&vl_tex, &vl_buf, &vl_cb, &vl_samplers},
                                       .field_offsets = {0, 1, 3, 4},
                                       .range_count = 4,
                                       .ranges = {{2, 1, &tl_tex, &v_tex, 0, 0, 0, 0, 1},
                                                  {0x106, 1, &tl_buf, &v_buf, 0, 41, 0, 1, 1},
                                                  {3, 1, &tl_cb, &v_cb, 0, 0, 0, 2, 1},
                                                  {1, 4, &tl_sampler, &v_samplers, 0, 0, 1, 0, 1}},
                                       .set_count = 2,
                                       .set_space = {0, 1},
                                       .drange_count = {3, 1},
                                       .dranges = {{{0, 1, 2, CAT_DESCRIPTOR_TABLE_SLOT},
                                                    {1, 1, 0x106, CAT_DESCRIPTOR_TABLE_SLOT},
                                                    {3, 1, 3, CAT_DESCRIPTOR_TABLE_SLOT}},
                                                   {{0, 4, 1, CAT_DESCRIPTOR_TABLE_SLOT}}},
                                       .sub_count = 1,
                                       .sub_range = {2},
                                       .sub_offset = {&vl_cb}};
/* Its binding range has neither a leaf type layout nor a leaf variable (Slang always gives a
 * leaf type layout; the fake checks that the recorder does not count on it). */
SlangReflectionTypeLayout tl_entry = {
    TL(NULL, 1, CAT_UNIFORM), .size = {[CAT_UNIFORM] = 4},
    .field_count = 1,         .fields = {&vl_x},
    .range_count = 1,         .ranges = {{9, 1, NULL, NULL, 0, 0, 0, 0, 0}}};

#define AT(cat, v)                                                                                 \
    {                                                                                              \
        [cat] = (v)                                                                                \
    }
SlangReflectionVariableLayout vl_global = {&tl_global, NULL, {0}, {0}, 0};
SlangReflectionVariableLayout vl_tex = {&tl_tex, &v_tex, {0}, {0}, 0};
SlangReflectionVariableLayout vl_buf = {&tl_buf, &v_buf, AT(CAT_DESCRIPTOR_TABLE_SLOT, 1), {0}, 0};
SlangReflectionVariableLayout vl_counter = {
    &tl_uint, NULL, AT(CAT_DESCRIPTOR_TABLE_SLOT, 2), {0}, 0};
SlangReflectionVariableLayout vl_cb = {&tl_cb, &v_cb, AT(CAT_DESCRIPTOR_TABLE_SLOT, 3), {0}, 0};
SlangReflectionVariableLayout vl_cb_element = {&tl_params, NULL, {0}, {0}, 0};
SlangReflectionVariableLayout vl_cb_container = {&tl_cb_container, NULL, {0}, {0}, 0};
SlangReflectionVariableLayout vl_samplers = {&tl_samplers, &v_samplers,
                                             AT(CAT_DESCRIPTOR_TABLE_SLOT, 0),
                                             AT(CAT_DESCRIPTOR_TABLE_SLOT, 1), 1};
SlangReflectionVariableLayout vl_color = {&tl_float4, &v_color, {0}, {0}, 0};
SlangReflectionVariableLayout vl_next = {&tl_ptr, &v_next, AT(CAT_UNIFORM, 16), {0}, 0};
SlangReflectionVariableLayout vl_node_next = {&tl_ptr, &v_next, {0}, {0}, 0};
SlangReflectionVariableLayout vl_x = {&tl_uint, &v_x, {0}, {0}, 0};
/* A variable layout without a type layout: Slang cannot be asked its offsets. */
SlangReflectionVariableLayout vl_untyped = {NULL, NULL, AT(CAT_UNIFORM, 4), {0}, 0};
SlangReflectionVariableLayout vl_entry = {&tl_entry, NULL, AT(CAT_CONSTANT_BUFFER, 0),
                                          AT(CAT_REGISTER_SPACE, 0), 2};

/* ---- session and compile request ---- */

const char *spGetBuildTagString(void)
{
    const char *v = getenv("FAKE_SLANG_VERSION");
    return v ? v : "v2025.15-fake";
}

/* What the tests read back (fake_slang_* below). */
#define FAKE_LANGUAGES 16
static char *preludes[FAKE_LANGUAGES];
static int prelude_calls;
static int glsl_enabled = -1; /* -1: slang_createGlobalSession2() not called */
static char *last_search_path;

static void session_slot_unknown(void)
{
    violated("IGlobalSession", "a function-table slot the fake does not implement");
}

/* Slot 8: getBuildTagString(self). */
static const char *session_get_build_tag(SlangSession *self)
{
    if (!self || !self->vtable)
        violated("IGlobalSession::getBuildTagString", "not called on the session");
    const char *v = getenv("FAKE_SLANG_SESSION_TAG");
    return v ? v : spGetBuildTagString();
}

/* Slot 11: setLanguagePrelude(self, language, text). */
static void session_set_language_prelude(SlangSession *self, int language, const char *text)
{
    if (!self || !self->vtable)
        violated("IGlobalSession::setLanguagePrelude", "not called on the session");
    if (language < 0 || language >= FAKE_LANGUAGES || !text)
        violated("IGlobalSession::setLanguagePrelude", "a language out of range or no text");
    free(preludes[language]);
    preludes[language] = strdup(text);
    prelude_calls++;
}

/* Slot 5: setDownstreamCompilerPath(self, passThrough, path): checked, nothing kept (the
 * library is unloaded before a test could ask, and a copy would outlive it as a leak). */
static int32_t session_set_downstream_path(SlangSession *self, int pass_through, const char *path)
{
    if (!self || !self->vtable)
        violated("IGlobalSession::setDownstreamCompilerPath", "not called on the session");
    if (pass_through < 0 || pass_through > 64 || !path || !*path)
        violated("IGlobalSession::setDownstreamCompilerPath", "a pass-through out of range or no path");
    return 0;
}

#define UNKNOWN_SLOT session_slot_unknown
/* clang-format off */
static const fake_slot session_vtable[FAKE_SESSION_SLOTS] = {
    UNKNOWN_SLOT, UNKNOWN_SLOT, UNKNOWN_SLOT,         /* 0-2: ISlangUnknown */
    UNKNOWN_SLOT, UNKNOWN_SLOT,                       /* 3-4 */
    (fake_slot)session_set_downstream_path,           /* 5: setDownstreamCompilerPath */
    UNKNOWN_SLOT, UNKNOWN_SLOT,                       /* 6-7 */
    (fake_slot)session_get_build_tag,                 /* 8: getBuildTagString */
    UNKNOWN_SLOT, UNKNOWN_SLOT,                       /* 9-10 */
    (fake_slot)session_set_language_prelude,          /* 11: setLanguagePrelude */
    UNKNOWN_SLOT, UNKNOWN_SLOT, UNKNOWN_SLOT,         /* 12-14 */
    UNKNOWN_SLOT,                                     /* 15 */
};
/* clang-format on */

static struct SlangSession the_session = {session_vtable};

SlangSession *spCreateSession(const char *deprecated)
{
    (void)deprecated;
    return &the_session;
}

SlangResult slang_createGlobalSession2(const dgpb_slang_global_session_desc *desc,
                                       SlangSession **out_session)
{
    if (!desc || !out_session)
        violated(__func__, "NULL description or result");
    if (desc->structure_size != sizeof *desc)
        violated(__func__, "a description of another size");
    glsl_enabled = desc->enable_glsl ? 1 : 0;
    *out_session = &the_session;
    return 0;
}

void spDestroySession(SlangSession *session)
{
    (void)session;
}

SlangCompileRequest *spCreateCompileRequest(SlangSession *session)
{
    if (session != &the_session)
        violated(__func__, "not the fake's session");
    return calloc(1, sizeof(SlangCompileRequest));
}

void spDestroyCompileRequest(SlangCompileRequest *request)
{
    if (request) {
        free(request->module);
        free(request->search_path);
        free(request->output);
        free(request->reflection_json);
        free(request->depfile);
    }
    free(request);
}

void spSetCommandLineCompilerMode(SlangCompileRequest *request)
{
    request->command_line = 1;
}

void spAddSearchPath(SlangCompileRequest *request, const char *path)
{
    if (!path)
        violated(__func__, "NULL path");
    free(request->search_path);
    request->search_path = strdup(path);
    free(last_search_path);
    last_search_path = strdup(path);
}

void spSetCompileFlags(SlangCompileRequest *request, SlangCompileFlags flags)
{
    request->flags = flags;
}

SlangCompileFlags spGetCompileFlags(SlangCompileRequest *request)
{
    return request->flags;
}

void spSetMatrixLayoutMode(SlangCompileRequest *request, SlangMatrixLayoutMode mode)
{
    request->matrix = mode;
}

/* Slang's SlangStage of a -stage name, as the vocabulary pairs them; 0 (none) for others. */
static SlangStage stage_of(const char *s)
{
    static const struct {
        const char *name;
        SlangStage stage;
    } stages[] = {
#define DGPB_STAGE(ID, value, name, spirv_model, SpirvModel, CAP, PIPELINE, threads, slang_stage)  \
    {name, slang_stage},
#include "dgpb/vocabulary.def"
    };
    for (unsigned i = 0; i < sizeof stages / sizeof stages[0]; i++)
        if (!strcmp(s, stages[i].name))
            return stages[i].stage;
    return 0;
}

SlangResult spProcessCommandLineArguments(SlangCompileRequest *request, const char *const *args,
                                          int arg_count)
{
    SlangReflection *r = &request->reflection;
    for (int i = 0; i < arg_count; i++) {
        const char *a = args[i];
        if (request->command_line &&
            (!strcmp(a, "-o") || !strcmp(a, "-reflection-json") || !strcmp(a, "-depfile"))) {
            if (i + 1 >= arg_count) {
                request->diagnostics = "fake: an output option without its file";
                return -1;
            }
            char **slot = !strcmp(a, "-o")                 ? &request->output
                          : !strcmp(a, "-reflection-json") ? &request->reflection_json
                                                           : &request->depfile;
            free(*slot);
            *slot = strdup(args[++i]);
            continue;
        }
        if (request->command_line && !strcmp(a, "-skip-codegen")) {
            request->flags |= DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN;
            continue;
        }
        if (!strcmp(a, "-o") || !strcmp(a, "-depfile")) {
            request->diagnostics = "fake: unexpected output option";
            return -1;
        }
        if (!strcmp(a, "-target") && i + 1 < arg_count)
            snprintf(request->target, sizeof request->target, "%s", args[i + 1]);
        if (!strcmp(a, "-entry") && i + 1 < arg_count) {
            if (r->entry_count == MAX_ENTRIES)
                return -1;
            SlangReflectionEntryPoint *e = &r->entries[r->entry_count];
            snprintf(request->names[r->entry_count], sizeof request->names[0], "%s", args[++i]);
            e->name = request->names[r->entry_count++];
            e->stage = 0;
            e->var_layout = &vl_entry;
            e->param_count = 2;
            e->params[0] = &vl_x;
            e->params[1] = &vl_untyped;
        } else if (!strcmp(a, "-stage") && i + 1 < arg_count && r->entry_count) {
            r->entries[r->entry_count - 1].stage = stage_of(args[++i]);
        } else if (a[0] != '-' && strstr(a, ".slang") && !request->module) {
            request->module = strdup(a);
        }
    }
    return 0;
}

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

/* The module's own diagnostic, naming it by its absolute path; -1 (a failed compile). */
static SlangResult absolute_diagnostic(SlangCompileRequest *request)
{
    char *absolute = realpath(request->module, NULL);
    snprintf(request->diagnostics_buf, sizeof request->diagnostics_buf,
             "%s(3): error 30015: undefined identifier 'nope'\n",
             absolute ? absolute : request->module);
    free(absolute);
    request->diagnostics = request->diagnostics_buf;
    return -1;
}

/* spCompile() in slangc's command-line mode: the outputs -o, -reflection-json and -depfile
 * name; with -skip-codegen the reflection JSON only, as Slang 2026.16 writes its -o and
 * its depfile in the code-generation step it skips. */
static SlangResult compile_as_slangc(SlangCompileRequest *request)
{
    const int codegen = !(request->flags & DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN);
    if (!request->module) {
        request->diagnostics = "fake: no module";
        return -1;
    }
    if (strstr(request->module, "crash")) {
        static const char words[] = "fake worker dying\n";
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        ssize_t w = write(STDERR_FILENO, words, sizeof words - 1);
        (void)w;
        abort();
    }
    if (strstr(request->module, "broken")) {
        request->diagnostics = "broken.slang(3): error 30015: undefined identifier 'nope'\n";
        return -1;
    }
    if (strstr(request->module, "abspath"))
        return absolute_diagnostic(request);
    const SlangReflection *r = &request->reflection;
    const char *entry = r->entry_count ? request->names[r->entry_count - 1] : "";
    char text[256];
    if (codegen && request->output) {
        snprintf(text, sizeof text, "fake code for %s (%s)\n", entry, request->target);
        if (write_text(request->output, text)) {
            request->diagnostics = "fake: cannot write the -o file";
            return -1;
        }
    }
    if (request->reflection_json) {
        snprintf(text, sizeof text, "{\"fake\":\"%s\"}\n", entry);
        if (write_text(request->reflection_json, text)) {
            request->diagnostics = "fake: cannot write the -reflection-json file";
            return -1;
        }
    }
    if (codegen && request->depfile) {
        snprintf(text, sizeof text, "%s: %.200s\n", request->output ? request->output : "-",
                 request->module);
        if (write_text(request->depfile, text)) {
            request->diagnostics = "fake: cannot write the -depfile file";
            return -1;
        }
    }
    /* Slang may print on standard output; the worker must keep that off its answers. */
    printf("fake slang: compiled %s\n", entry);
    fflush(stdout);
    request->diagnostics = "";
    return 0;
}

SlangResult spCompile(SlangCompileRequest *request)
{
    if (request->command_line)
        return compile_as_slangc(request);
    if (!(request->flags & DGPB_SLANG_COMPILE_FLAG_NO_CODEGEN)) {
        request->diagnostics = "fake: code generation was not skipped";
        return -1;
    }
    if (!request->module) {
        request->diagnostics = "fake: no module";
        return -1;
    }
    if (strstr(request->module, "broken")) {
        request->diagnostics = "broken.slang(3): error 30015: undefined identifier 'nope'\n";
        return -1;
    }
    if (strstr(request->module, "abspath"))
        return absolute_diagnostic(request);
    request->reflection.specialization_params = strstr(request->module, "generic") ? 1 : 0;
    return 0;
}

/* The files a compile read: its module. */
int spGetDependencyFileCount(SlangCompileRequest *request)
{
    return request->module ? 1 : 0;
}

const char *spGetDependencyFilePath(SlangCompileRequest *request, int index)
{
    if (index < 0 || index >= spGetDependencyFileCount(request))
        violated(__func__, "index out of range");
    return request->module;
}

const char *spGetDiagnosticOutput(SlangCompileRequest *request)
{
    return request->diagnostics ? request->diagnostics : "";
}

SlangReflection *spGetReflection(SlangCompileRequest *request)
{
    return &request->reflection;
}

/* ---- program ---- */

unsigned int spReflection_GetTypeParameterCount(SlangReflection *reflection)
{
    if (!reflection)
        violated(__func__, "NULL program (Slang dereferences it unchecked)");
    return reflection->specialization_params;
}

SlangReflectionVariableLayout *spReflection_getGlobalParamsVarLayout(SlangReflection *reflection)
{
    return reflection ? &vl_global : NULL;
}

SlangReflectionTypeLayout *spReflection_getGlobalParamsTypeLayout(SlangReflection *reflection)
{
    return reflection ? &tl_global : NULL;
}

SlangUInt spReflection_getEntryPointCount(SlangReflection *reflection)
{
    return reflection ? reflection->entry_count : 0;
}

SlangReflectionEntryPoint *spReflection_getEntryPointByIndex(SlangReflection *reflection,
                                                             SlangUInt index)
{
    if (!reflection)
        return NULL;
    if (index >= reflection->entry_count)
        violated(__func__, "index not below spReflection_getEntryPointCount (Slang indexes "
                           "entryPoints[] unchecked)");
    return &reflection->entries[index];
}

/* ---- entry points ---- */

const char *spReflectionEntryPoint_getName(SlangReflectionEntryPoint *entry)
{
    return entry ? entry->name : NULL;
}

const char *spReflectionEntryPoint_getNameOverride(SlangReflectionEntryPoint *entry)
{
    return entry ? (entry->stage == DGPB_SLANG_STAGE_COMPUTE ? "main" : entry->name) : NULL;
}

SlangStage spReflectionEntryPoint_getStage(SlangReflectionEntryPoint *entry)
{
    return entry ? entry->stage : 0;
}

SlangReflectionVariableLayout *spReflectionEntryPoint_getVarLayout(SlangReflectionEntryPoint *entry)
{
    return entry ? entry->var_layout : NULL;
}

void spReflectionEntryPoint_getComputeThreadGroupSize(SlangReflectionEntryPoint *entry,
                                                      SlangUInt axis_count, SlangUInt *out_size)
{
    if (!entry || !out_size)
        return;
    SlangUInt size[3] = {1, 1, 1};
    if (entry->stage == DGPB_SLANG_STAGE_COMPUTE) {
        size[0] = 8;
        size[1] = 4;
    }
    for (SlangUInt i = 0; i < axis_count; i++)
        out_size[i] = i < 3 ? size[i] : 1;
}

unsigned spReflectionEntryPoint_getParameterCount(SlangReflectionEntryPoint *entry)
{
    return entry ? entry->param_count : 0;
}

SlangReflectionVariableLayout *
spReflectionEntryPoint_getParameterByIndex(SlangReflectionEntryPoint *entry, unsigned index)
{
    if (!entry)
        return NULL;
    if (index >= entry->param_count)
        violated(__func__, "index not below spReflectionEntryPoint_getParameterCount (Slang "
                           "indexes the parameters' fields[] unchecked)");
    return entry->params[index];
}

/* ---- variable layouts ---- */

SlangReflectionTypeLayout *
spReflectionVariableLayout_GetTypeLayout(SlangReflectionVariableLayout *var)
{
    return var ? var->type_layout : NULL;
}

SlangReflectionVariable *spReflectionVariableLayout_GetVariable(SlangReflectionVariableLayout *var)
{
    return var ? var->var : NULL;
}

/* Slang's remapping: a resource category the variable does not use is read as its descriptor
 * table slot. */
static SlangParameterCategory remap(SlangReflectionVariableLayout *var, SlangParameterCategory c)
{
    if (c < NCAT && var->type_layout && var->type_layout->size[c])
        return c;
    if (var->type_layout && var->type_layout->size[CAT_DESCRIPTOR_TABLE_SLOT] &&
        (c == CAT_SHADER_RESOURCE || c == CAT_UNORDERED_ACCESS || c == CAT_SAMPLER_STATE ||
         c == CAT_CONSTANT_BUFFER))
        return CAT_DESCRIPTOR_TABLE_SLOT;
    return c;
}

/* Slang remaps a category the variable layout lacks through its type layout, unchecked. */
static void need_type_layout(SlangReflectionVariableLayout *var, const char *function)
{
    if (var && !var->type_layout)
        violated(function, "variable layout without a type layout (Slang remaps the category "
                           "through it without a NULL check)");
}

size_t spReflectionVariableLayout_GetOffset(SlangReflectionVariableLayout *var,
                                            SlangParameterCategory category)
{
    need_type_layout(var, __func__);
    if (!var)
        return 0;
    category = remap(var, category);
    return category < NCAT ? var->offset[category] : 0;
}

size_t spReflectionVariableLayout_GetSpace(SlangReflectionVariableLayout *var,
                                           SlangParameterCategory category)
{
    need_type_layout(var, __func__);
    if (!var)
        return 0;
    category = remap(var, category);
    return (category < NCAT ? var->space[category] : 0) + var->register_space;
}

unsigned spReflectionParameter_GetBindingIndex(SlangReflectionParameter *parameter)
{
    need_type_layout(parameter, __func__);
    if (!parameter)
        return 0;
    return (unsigned)spReflectionVariableLayout_GetOffset(
        parameter, parameter->type_layout ? parameter->type_layout->category : 0);
}

unsigned spReflectionParameter_GetBindingSpace(SlangReflectionParameter *parameter)
{
    need_type_layout(parameter, __func__);
    if (!parameter)
        return 0;
    return (unsigned)spReflectionVariableLayout_GetSpace(
        parameter, parameter->type_layout ? parameter->type_layout->category : 0);
}

/* ---- type layouts ---- */

SlangReflectionType *spReflectionTypeLayout_GetType(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->type : NULL;
}

SlangTypeKind spReflectionTypeLayout_getKind(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->kind : 0;
}

size_t spReflectionTypeLayout_GetSize(SlangReflectionTypeLayout *tl, SlangParameterCategory c)
{
    return tl && c < NCAT ? tl->size[c] : 0;
}

size_t spReflectionTypeLayout_GetStride(SlangReflectionTypeLayout *tl, SlangParameterCategory c)
{
    if (!tl || c >= NCAT || !tl->size[c])
        return 0;
    size_t a = c == CAT_UNIFORM && tl->uniform_alignment ? tl->uniform_alignment : 1;
    return (tl->size[c] + a - 1) / a * a;
}

size_t spReflectionTypeLayout_GetElementStride(SlangReflectionTypeLayout *tl,
                                               SlangParameterCategory c)
{
    if (!tl || !tl->element)
        return 0;
    if (tl->kind == 2) { /* arrays: uniform stride, else the element's size; table slots 0 */
        if (c == CAT_UNIFORM)
            return tl->element_stride_uniform;
        if (c == CAT_DESCRIPTOR_TABLE_SLOT)
            return 0;
        return c < NCAT ? tl->element->size[c] : 0;
    }
    if (tl->kind == 4) /* vectors */
        return tl->element->size[CAT_UNIFORM];
    return 0;
}

SlangParameterCategory spReflectionTypeLayout_GetParameterCategory(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->category : 0;
}

unsigned spReflectionTypeLayout_GetCategoryCount(SlangReflectionTypeLayout *tl)
{
    unsigned n = 0;
    for (unsigned c = 0; tl && c < NCAT; c++)
        n += tl->size[c] != 0;
    return n;
}

SlangParameterCategory spReflectionTypeLayout_GetCategoryByIndex(SlangReflectionTypeLayout *tl,
                                                                 unsigned index)
{
    if (tl && index >= spReflectionTypeLayout_GetCategoryCount(tl))
        violated(__func__, "index not below spReflectionTypeLayout_GetCategoryCount (Slang "
                           "indexes resourceInfos[] unchecked)");
    for (unsigned c = 0; tl && c < NCAT; c++)
        if (tl->size[c] && index-- == 0)
            return c;
    return 0;
}

SlangReflectionTypeLayout *
spReflectionTypeLayout_GetElementTypeLayout(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->element : NULL;
}

SlangReflectionVariableLayout *
spReflectionTypeLayout_GetElementVarLayout(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->element_var : NULL;
}

SlangReflectionVariableLayout *
spReflectionTypeLayout_getContainerVarLayout(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->container_var : NULL;
}

SlangReflectionVariableLayout *
spReflectionTypeLayout_GetExplicitCounter(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->counter : NULL;
}

SlangInt spReflectionTypeLayout_getExplicitCounterBindingRangeOffset(SlangReflectionTypeLayout *tl)
{
    return tl && tl->counter ? tl->counter_offset : 0;
}

uint32_t spReflectionTypeLayout_GetFieldCount(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->field_count : 0;
}

SlangReflectionVariableLayout *spReflectionTypeLayout_GetFieldByIndex(SlangReflectionTypeLayout *tl,
                                                                      unsigned index)
{
    if (!tl)
        return NULL;
    if (index >= tl->field_count)
        violated(__func__, "index not below spReflectionTypeLayout_GetFieldCount (Slang indexes "
                           "fields[] unchecked)");
    return tl->fields[index];
}

SlangInt spReflectionTypeLayout_getFieldBindingRangeOffset(SlangReflectionTypeLayout *tl,
                                                           SlangInt field_index)
{
    if (!tl)
        return 0;
    if (field_index < 0 || (SlangUInt)field_index >= tl->field_count)
        violated(__func__, "field index not below spReflectionTypeLayout_GetFieldCount (Slang "
                           "indexes fields[] unchecked)");
    return tl->field_offsets[field_index];
}

SlangInt spReflectionTypeLayout_getBindingRangeCount(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->range_count : 0;
}

static const fake_range *range(SlangReflectionTypeLayout *tl, SlangInt i)
{
    return tl && i >= 0 && (SlangUInt)i < tl->range_count ? &tl->ranges[i] : NULL;
}

SlangBindingType spReflectionTypeLayout_getBindingRangeType(SlangReflectionTypeLayout *tl,
                                                            SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->type : 0;
}

SlangInt spReflectionTypeLayout_getBindingRangeBindingCount(SlangReflectionTypeLayout *tl,
                                                            SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->count : 0;
}

SlangReflectionTypeLayout *
spReflectionTypeLayout_getBindingRangeLeafTypeLayout(SlangReflectionTypeLayout *tl, SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->leaf : NULL;
}

SlangReflectionVariable *
spReflectionTypeLayout_getBindingRangeLeafVariable(SlangReflectionTypeLayout *tl, SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->leaf_var : NULL;
}

SlangInt spReflectionTypeLayout_isBindingRangeSpecializable(SlangReflectionTypeLayout *tl,
                                                            SlangInt index)
{
    const fake_range *r = range(tl, index);
    if (r && !r->leaf)
        violated(__func__, "binding range without a leaf type layout (Slang reads "
                           "leafTypeLayout->getType() unchecked)");
    return r ? r->specializable : 0;
}

SlangImageFormat spReflectionTypeLayout_getBindingRangeImageFormat(SlangReflectionTypeLayout *tl,
                                                                   SlangInt index)
{
    const fake_range *r = range(tl, index);
    if (r && !r->leaf_var)
        violated(__func__, "binding range without a leaf variable (Slang reads "
                           "leafVariable->findModifier() unchecked)");
    return r ? r->format : DGPB_SLANG_IMAGE_FORMAT_UNKNOWN;
}

SlangInt spReflectionTypeLayout_getBindingRangeDescriptorSetIndex(SlangReflectionTypeLayout *tl,
                                                                  SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->set : 0;
}

SlangInt
spReflectionTypeLayout_getBindingRangeFirstDescriptorRangeIndex(SlangReflectionTypeLayout *tl,
                                                                SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->first : 0;
}

SlangInt spReflectionTypeLayout_getBindingRangeDescriptorRangeCount(SlangReflectionTypeLayout *tl,
                                                                    SlangInt index)
{
    const fake_range *r = range(tl, index);
    return r ? r->n : 0;
}

SlangInt spReflectionTypeLayout_getDescriptorSetCount(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->set_count : 0;
}

static bool set_ok(SlangReflectionTypeLayout *tl, SlangInt set)
{
    return tl && set >= 0 && (SlangUInt)set < tl->set_count;
}

SlangInt spReflectionTypeLayout_getDescriptorSetSpaceOffset(SlangReflectionTypeLayout *tl,
                                                            SlangInt set)
{
    return set_ok(tl, set) ? tl->set_space[set] : 0;
}

SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeCount(SlangReflectionTypeLayout *tl,
                                                                     SlangInt set)
{
    return set_ok(tl, set) ? tl->drange_count[set] : 0;
}

static const fake_drange *drange(SlangReflectionTypeLayout *tl, SlangInt set, SlangInt r)
{
    if (!set_ok(tl, set) || r < 0 || (SlangUInt)r >= tl->drange_count[set])
        return NULL;
    return &tl->dranges[set][r];
}

SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeIndexOffset(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range_index)
{
    const fake_drange *d = drange(tl, set, range_index);
    return d ? d->index_offset : 0;
}

SlangInt spReflectionTypeLayout_getDescriptorSetDescriptorRangeDescriptorCount(
    SlangReflectionTypeLayout *tl, SlangInt set, SlangInt range_index)
{
    const fake_drange *d = drange(tl, set, range_index);
    return d ? d->count : 0;
}

SlangBindingType
spReflectionTypeLayout_getDescriptorSetDescriptorRangeType(SlangReflectionTypeLayout *tl,
                                                           SlangInt set, SlangInt range_index)
{
    const fake_drange *d = drange(tl, set, range_index);
    return d ? d->type : 0;
}

SlangParameterCategory
spReflectionTypeLayout_getDescriptorSetDescriptorRangeCategory(SlangReflectionTypeLayout *tl,
                                                               SlangInt set, SlangInt range_index)
{
    const fake_drange *d = drange(tl, set, range_index);
    return d ? d->category : 0;
}

SlangInt spReflectionTypeLayout_getSubObjectRangeCount(SlangReflectionTypeLayout *tl)
{
    return tl ? tl->sub_count : 0;
}

static bool sub_ok(SlangReflectionTypeLayout *tl, SlangInt i)
{
    return tl && i >= 0 && (SlangUInt)i < tl->sub_count;
}

SlangInt spReflectionTypeLayout_getSubObjectRangeBindingRangeIndex(SlangReflectionTypeLayout *tl,
                                                                   SlangInt index)
{
    return sub_ok(tl, index) ? tl->sub_range[index] : 0;
}

SlangInt spReflectionTypeLayout_getSubObjectRangeSpaceOffset(SlangReflectionTypeLayout *tl,
                                                             SlangInt index)
{
    return sub_ok(tl, index) ? tl->sub_space[index] : 0;
}

SlangReflectionVariableLayout *
spReflectionTypeLayout_getSubObjectRangeOffset(SlangReflectionTypeLayout *tl, SlangInt index)
{
    return sub_ok(tl, index) ? tl->sub_offset[index] : NULL;
}

/* ---- types and variables ---- */

SlangTypeKind spReflectionType_GetKind(SlangReflectionType *type)
{
    return type ? type->kind : 0;
}

const char *spReflectionType_GetName(SlangReflectionType *type)
{
    return type ? type->name : NULL;
}

SlangReflectionType *spReflectionType_GetElementType(SlangReflectionType *type)
{
    return type ? type->element : NULL;
}

size_t spReflectionType_GetElementCount(SlangReflectionType *type)
{
    return type ? type->element_count : 0;
}

unsigned int spReflectionType_GetRowCount(SlangReflectionType *type)
{
    return type ? type->rows : 0;
}

unsigned int spReflectionType_GetColumnCount(SlangReflectionType *type)
{
    return type ? type->columns : 0;
}

SlangScalarType spReflectionType_GetScalarType(SlangReflectionType *type)
{
    return type ? type->scalar : 0;
}

SlangResourceShape spReflectionType_GetResourceShape(SlangReflectionType *type)
{
    return type ? type->shape : 0;
}

SlangResourceAccess spReflectionType_GetResourceAccess(SlangReflectionType *type)
{
    return type ? type->access : 0;
}

SlangReflectionType *spReflectionType_GetResourceResultType(SlangReflectionType *type)
{
    return type ? type->result : NULL;
}

const char *spReflectionVariable_GetName(SlangReflectionVariable *var)
{
    return var ? var->name : NULL;
}

SlangReflectionType *spReflectionVariable_GetType(SlangReflectionVariable *var)
{
    return var ? var->type : NULL;
}

unsigned int spReflectionVariable_GetUserAttributeCount(SlangReflectionVariable *var)
{
    return var ? var->attribute_count : 0;
}

SlangReflectionUserAttribute *spReflectionVariable_GetUserAttribute(SlangReflectionVariable *var,
                                                                    unsigned int index)
{
    return var && index < var->attribute_count ? var->attributes[index] : NULL;
}

const char *spReflectionUserAttribute_GetName(SlangReflectionUserAttribute *attribute)
{
    return attribute ? attribute->name : NULL;
}

/* ---- for the tests (dlsym) ---- */

const char *fake_slang_prelude(int language);
int fake_slang_prelude_calls(void);
int fake_slang_glsl_enabled(void);
const char *fake_slang_last_search_path(void);
void fake_slang_reset(void);

/* The text of the last setLanguagePrelude(language, text), or NULL when none was set. */
const char *fake_slang_prelude(int language)
{
    return language >= 0 && language < FAKE_LANGUAGES ? preludes[language] : NULL;
}

/* How many times setLanguagePrelude was called since the last reset. */
int fake_slang_prelude_calls(void)
{
    return prelude_calls;
}

/* desc->enable_glsl of the last slang_createGlobalSession2() (0 or 1); -1 when not called. */
int fake_slang_glsl_enabled(void)
{
    return glsl_enabled;
}

/* The last spAddSearchPath() folder, or NULL when none was added. */
const char *fake_slang_last_search_path(void)
{
    return last_search_path;
}

/* Forgets everything the functions above report. */
void fake_slang_reset(void)
{
    for (int i = 0; i < FAKE_LANGUAGES; i++) {
        free(preludes[i]);
        preludes[i] = NULL;
    }
    prelude_calls = 0;
    glsl_enabled = -1;
    free(last_search_path);
    last_search_path = NULL;
}

/* The library's own memory goes when it is unloaded (dlclose), so that leak checkers see none. */
__attribute__((destructor)) static void fake_slang_unload(void)
{
    fake_slang_reset();
}
