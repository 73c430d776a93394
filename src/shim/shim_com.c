/*
 * shim_com.c - the replay shim's COM objects (shim_com.h): a global session
 * and a session for an RHI's device set-up, an IComponentType per program
 * and ISlangBlobs for its code and hashes.
 *
 * What each answered slot does:
 *   IGlobalSession  createSession: the shim's session (the description is not
 *                   read: the shim compiles nothing); findProfile,
 *                   findCapability: unknown (0); getBuildTagString:
 *                   "dgpb-slang-shim"; getCompilerElapsedTime: 0 s.
 *   ISession        getGlobalSession: the shim's global session.
 *   IComponentType  getSession: the shim's session; getLayout(0): the
 *                   program's layout (another target index: NULL, as Slang
 *                   answers for a target it does not have);
 *                   getSpecializationParamCount: 0 (the recorder refuses
 *                   programs with specialization parameters);
 *                   getEntryPointCode(i, 0): a blob of entry i's verified
 *                   code; getEntryPointHash(i, 0): a blob of its SHA-256;
 *                   link: the program itself (it is linked).
 *   ISlangBlob      getBufferPointer, getBufferSize.
 * Every other slot stops the process naming the interface and the method.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim/shim_com.h"

typedef int32_t shim_result;
#define SHIM_OK 0
#define SHIM_E_NO_INTERFACE ((shim_result)0x80004002u)
#define SHIM_E_INVALID_ARG ((shim_result)0x80070057u)
#define SHIM_E_OUT_OF_MEMORY ((shim_result)0x8007000Eu)

typedef struct shim_uuid {
    uint32_t data1;
    uint16_t data2, data3;
    uint8_t data4[8];
} shim_uuid;

/* Slang's interface IDs (slang.h, SLANG_COM_INTERFACE). */
static const shim_uuid UUID_UNKNOWN = {
    0x00000000, 0x0000, 0x0000, {0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46}};
static const shim_uuid UUID_BLOB = {
    0x8BA5FB08, 0x5195, 0x40e2, {0xAC, 0x58, 0x0D, 0x98, 0x9C, 0x3A, 0x01, 0x02}};
static const shim_uuid UUID_GLOBAL_SESSION = {
    0xc140b5fd, 0x0c78, 0x452e, {0xba, 0x7c, 0x1a, 0x1e, 0x70, 0xc7, 0xf7, 0x1c}};
static const shim_uuid UUID_SESSION = {
    0x67618701, 0xd116, 0x468f, {0xab, 0x3b, 0x47, 0x4b, 0xed, 0xce, 0x0e, 0x3d}};
static const shim_uuid UUID_COMPONENT = {
    0x5bc42be8, 0x5c50, 0x4929, {0x9e, 0x5e, 0xd1, 0x5e, 0x7c, 0x24, 0x01, 0x5f}};

typedef void (*shim_fn)(void);

/* Every COM object starts with its function table. */
typedef struct shim_com {
    const shim_fn *vtbl;
} shim_com;

/* ---- slots nobody answers ---- */

/* The methods of each interface in slot order, for the message of an unanswered slot. */
static const char *const GLOBAL_NAMES[SHIM_GLOBAL_SLOTS] = {"queryInterface",
                                                            "addRef",
                                                            "release",
                                                            "createSession",
                                                            "findProfile",
                                                            "setDownstreamCompilerPath",
                                                            "setDownstreamCompilerPrelude",
                                                            "getDownstreamCompilerPrelude",
                                                            "getBuildTagString",
                                                            "setDefaultDownstreamCompiler",
                                                            "getDefaultDownstreamCompiler",
                                                            "setLanguagePrelude",
                                                            "getLanguagePrelude",
                                                            "createCompileRequest",
                                                            "addBuiltins",
                                                            "setSharedLibraryLoader",
                                                            "getSharedLibraryLoader",
                                                            "checkCompileTargetSupport",
                                                            "checkPassThroughSupport",
                                                            "compileCoreModule",
                                                            "loadCoreModule",
                                                            "saveCoreModule",
                                                            "findCapability",
                                                            "setDownstreamCompilerForTransition",
                                                            "getDownstreamCompilerForTransition",
                                                            "getCompilerElapsedTime",
                                                            "setSPIRVCoreGrammar",
                                                            "parseCommandLineArguments",
                                                            "getSessionDescDigest",
                                                            "compileBuiltinModule",
                                                            "loadBuiltinModule",
                                                            "saveBuiltinModule",
                                                            "getDownstreamCompilerVersion"};
static const char *const SESSION_NAMES[SHIM_SESSION_SLOTS] = {
    "queryInterface",
    "addRef",
    "release",
    "getGlobalSession",
    "loadModule",
    "loadModuleFromSource",
    "createCompositeComponentType",
    "specializeType",
    "getTypeLayout",
    "getContainerType",
    "getDynamicType",
    "getTypeRTTIMangledName",
    "getTypeConformanceWitnessMangledName",
    "getTypeConformanceWitnessSequentialID",
    "createCompileRequest",
    "createTypeConformanceComponentType",
    "loadModuleFromIRBlob",
    "getLoadedModuleCount",
    "getLoadedModule",
    "isBinaryModuleUpToDate",
    "loadModuleFromSourceString",
    "getDynamicObjectRTTIBytes",
    "loadModuleInfoFromIRBlob",
    "getDeclSourceLocation"};
static const char *const COMPONENT_NAMES[SHIM_COMPONENT_SLOTS] = {"queryInterface",
                                                                  "addRef",
                                                                  "release",
                                                                  "getSession",
                                                                  "getLayout",
                                                                  "getSpecializationParamCount",
                                                                  "getEntryPointCode",
                                                                  "getResultAsFileSystem",
                                                                  "getEntryPointHash",
                                                                  "specialize",
                                                                  "link",
                                                                  "getEntryPointHostCallable",
                                                                  "renameEntryPoint",
                                                                  "linkWithOptions",
                                                                  "getTargetCode",
                                                                  "getTargetMetadata",
                                                                  "getEntryPointMetadata"};

static _Noreturn void unanswered_slot(const char *iface, const char *const *names, unsigned slot)
{
    static char what[128];
    size_t n = strlen(iface);
    memcpy(what, iface, n);
    what[n++] = ':';
    what[n++] = ':';
    strncpy(what + n, names[slot], sizeof what - n - 1);
    shim_unanswered(what);
}

#define SHIM_STUB(iface, names, n)                                                                 \
    static void iface##_stub_##n(void)                                                             \
    {                                                                                              \
        unanswered_slot(#iface, names, n);                                                         \
    }
#define SHIM_STUBS_0_4(iface, names)                                                               \
    SHIM_STUB(iface, names, 0)                                                                     \
    SHIM_STUB(iface, names, 1)                                                                     \
    SHIM_STUB(iface, names, 2) SHIM_STUB(iface, names, 3) SHIM_STUB(iface, names, 4)
#define SHIM_STUBS_5_16(iface, names)                                                              \
    SHIM_STUB(iface, names, 5)                                                                     \
    SHIM_STUB(iface, names, 6)                                                                     \
    SHIM_STUB(iface, names, 7)                                                                     \
    SHIM_STUB(iface, names, 8)                                                                     \
    SHIM_STUB(iface, names, 9)                                                                     \
    SHIM_STUB(iface, names, 10)                                                                    \
    SHIM_STUB(iface, names, 11)                                                                    \
    SHIM_STUB(iface, names, 12)                                                                    \
    SHIM_STUB(iface, names, 13)                                                                    \
    SHIM_STUB(iface, names, 14) SHIM_STUB(iface, names, 15) SHIM_STUB(iface, names, 16)
#define SHIM_STUBS_17_23(iface, names)                                                             \
    SHIM_STUB(iface, names, 17)                                                                    \
    SHIM_STUB(iface, names, 18)                                                                    \
    SHIM_STUB(iface, names, 19)                                                                    \
    SHIM_STUB(iface, names, 20)                                                                    \
    SHIM_STUB(iface, names, 21) SHIM_STUB(iface, names, 22) SHIM_STUB(iface, names, 23)
#define SHIM_STUBS_24_32(iface, names)                                                             \
    SHIM_STUB(iface, names, 24)                                                                    \
    SHIM_STUB(iface, names, 25)                                                                    \
    SHIM_STUB(iface, names, 26)                                                                    \
    SHIM_STUB(iface, names, 27)                                                                    \
    SHIM_STUB(iface, names, 28)                                                                    \
    SHIM_STUB(iface, names, 29)                                                                    \
    SHIM_STUB(iface, names, 30) SHIM_STUB(iface, names, 31) SHIM_STUB(iface, names, 32)

SHIM_STUBS_0_4(IGlobalSession, GLOBAL_NAMES)
SHIM_STUBS_5_16(IGlobalSession, GLOBAL_NAMES)
SHIM_STUBS_17_23(IGlobalSession, GLOBAL_NAMES)
SHIM_STUBS_24_32(IGlobalSession, GLOBAL_NAMES)
SHIM_STUBS_0_4(ISession, SESSION_NAMES)
SHIM_STUBS_5_16(ISession, SESSION_NAMES)
SHIM_STUBS_17_23(ISession, SESSION_NAMES)
SHIM_STUBS_0_4(IComponentType, COMPONENT_NAMES)
SHIM_STUBS_5_16(IComponentType, COMPONENT_NAMES)

#define S(iface, n) iface##_stub_##n
#define SLOTS_0_4(i) S(i, 0), S(i, 1), S(i, 2), S(i, 3), S(i, 4)
#define SLOTS_5_16(i)                                                                              \
    S(i, 5), S(i, 6), S(i, 7), S(i, 8), S(i, 9), S(i, 10), S(i, 11), S(i, 12), S(i, 13), S(i, 14), \
        S(i, 15), S(i, 16)
#define SLOTS_17_23(i) S(i, 17), S(i, 18), S(i, 19), S(i, 20), S(i, 21), S(i, 22), S(i, 23)
#define SLOTS_24_32(i)                                                                             \
    S(i, 24), S(i, 25), S(i, 26), S(i, 27), S(i, 28), S(i, 29), S(i, 30), S(i, 31), S(i, 32)

/* The tables: every slot a stub until set below (set_slots). */
static shim_fn global_vtbl[SHIM_GLOBAL_SLOTS] = {
    SLOTS_0_4(IGlobalSession), SLOTS_5_16(IGlobalSession), SLOTS_17_23(IGlobalSession),
    SLOTS_24_32(IGlobalSession)};
static shim_fn session_vtbl[SHIM_SESSION_SLOTS] = {SLOTS_0_4(ISession), SLOTS_5_16(ISession),
                                                   SLOTS_17_23(ISession)};
static shim_fn component_vtbl[SHIM_COMPONENT_SLOTS] = {SLOTS_0_4(IComponentType),
                                                       SLOTS_5_16(IComponentType)};
static shim_fn blob_vtbl[SHIM_BLOB_SLOTS];

static bool uuid_is(const shim_uuid *a, const shim_uuid *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* ---- the global session and the session: one each, static ---- */

static shim_com global_session = {global_vtbl};
static shim_com session = {session_vtbl};

static shim_result static_query(shim_com *self, const shim_uuid *uuid, void **out,
                                const shim_uuid *own)
{
    if (uuid_is(uuid, &UUID_UNKNOWN) || uuid_is(uuid, own)) {
        *out = self;
        return SHIM_OK;
    }
    *out = NULL;
    return SHIM_E_NO_INTERFACE;
}

static uint32_t static_ref(shim_com *self)
{
    (void)self;
    return 1;
}

static shim_result global_query(shim_com *self, const shim_uuid *uuid, void **out)
{
    shim_asked("IGlobalSession::queryInterface");
    return static_query(self, uuid, out, &UUID_GLOBAL_SESSION);
}

static shim_result global_create_session(shim_com *self, const void *desc, void **out)
{
    (void)self;
    (void)desc;
    shim_asked("IGlobalSession::createSession");
    *out = &session;
    return SHIM_OK;
}

static int32_t global_find_profile(shim_com *self, const char *name)
{
    (void)self;
    (void)name;
    shim_asked("IGlobalSession::findProfile");
    return 0; /* SLANG_PROFILE_UNKNOWN */
}

static const char *global_build_tag(shim_com *self)
{
    (void)self;
    shim_asked("IGlobalSession::getBuildTagString");
    return "dgpb-slang-shim";
}

static int32_t global_find_capability(shim_com *self, const char *name)
{
    (void)self;
    (void)name;
    shim_asked("IGlobalSession::findCapability");
    return 0; /* SLANG_CAPABILITY_UNKNOWN */
}

static void global_elapsed(shim_com *self, double *total, double *downstream)
{
    (void)self;
    shim_asked("IGlobalSession::getCompilerElapsedTime");
    if (total)
        *total = 0.0;
    if (downstream)
        *downstream = 0.0;
}

static shim_result session_query(shim_com *self, const shim_uuid *uuid, void **out)
{
    shim_asked("ISession::queryInterface");
    return static_query(self, uuid, out, &UUID_SESSION);
}

static void *session_global(shim_com *self)
{
    (void)self;
    shim_asked("ISession::getGlobalSession");
    return &global_session;
}

/* ---- blobs ---- */

typedef struct shim_component shim_component;

typedef struct shim_blob {
    const shim_fn *vtbl;
    uint32_t refs;
    shim_component *owner; /* holds a reference while the blob points into its code */
    const uint8_t *data;
    size_t size;
    uint8_t own[32];
} shim_blob;

struct shim_component {
    const shim_fn *vtbl;
    uint32_t refs;
    shim_program *program;
};

static uint32_t component_add_ref(shim_component *self);
static uint32_t component_release(shim_component *self);
static uint32_t blob_add_ref(shim_blob *self);

static shim_result blob_query(shim_blob *self, const shim_uuid *uuid, void **out)
{
    shim_asked("ISlangBlob::queryInterface");
    if (uuid_is(uuid, &UUID_UNKNOWN) || uuid_is(uuid, &UUID_BLOB)) {
        blob_add_ref(self);
        *out = self;
        return SHIM_OK;
    }
    *out = NULL;
    return SHIM_E_NO_INTERFACE;
}

/* Reference counts are atomic: an RHI may hold and drop its references on several threads. */
static uint32_t blob_add_ref(shim_blob *self)
{
    return __atomic_add_fetch(&self->refs, 1, __ATOMIC_RELAXED);
}

static uint32_t blob_release(shim_blob *self)
{
    uint32_t n = __atomic_sub_fetch(&self->refs, 1, __ATOMIC_ACQ_REL);
    if (n == 0) {
        if (self->owner)
            component_release(self->owner);
        free(self);
    }
    return n;
}

static const void *blob_pointer(shim_blob *self)
{
    return self->data;
}

static size_t blob_size(shim_blob *self)
{
    return self->size;
}

/* A blob over `size` bytes of the owner's code (owner set) or over a copy in `own`. */
static shim_blob *blob_new(shim_component *owner, const uint8_t *data, size_t size)
{
    shim_blob *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->vtbl = blob_vtbl;
    b->refs = 1;
    if (owner) {
        b->owner = owner;
        component_add_ref(owner);
        b->data = data;
    } else {
        memcpy(b->own, data, size < sizeof b->own ? size : sizeof b->own);
        b->data = b->own;
    }
    b->size = size;
    return b;
}

/* ---- the component type ---- */

static shim_result component_query(shim_component *self, const shim_uuid *uuid, void **out)
{
    shim_asked("IComponentType::queryInterface");
    if (uuid_is(uuid, &UUID_UNKNOWN) || uuid_is(uuid, &UUID_COMPONENT)) {
        component_add_ref(self);
        *out = self;
        return SHIM_OK;
    }
    *out = NULL;
    return SHIM_E_NO_INTERFACE;
}

static uint32_t component_add_ref(shim_component *self)
{
    return __atomic_add_fetch(&self->refs, 1, __ATOMIC_RELAXED);
}

static uint32_t component_release(shim_component *self)
{
    uint32_t n = __atomic_sub_fetch(&self->refs, 1, __ATOMIC_ACQ_REL);
    if (n == 0) {
        shim_program_free(self->program);
        free(self);
    }
    return n;
}

static void *component_session(shim_component *self)
{
    (void)self;
    shim_asked("IComponentType::getSession");
    return &session;
}

static void *component_layout(shim_component *self, int64_t target, void **diagnostics)
{
    shim_asked("IComponentType::getLayout");
    if (diagnostics)
        *diagnostics = NULL;
    return target == 0 ? (void *)self->program : NULL;
}

static int64_t component_specialization_params(shim_component *self)
{
    (void)self;
    shim_asked("IComponentType::getSpecializationParamCount");
    return 0;
}

static shim_result component_code(shim_component *self, int64_t entry, int64_t target,
                                  void **out_code, void **diagnostics)
{
    shim_asked("IComponentType::getEntryPointCode");
    if (diagnostics)
        *diagnostics = NULL;
    *out_code = NULL;
    if (target != 0 || entry < 0 || (uint64_t)entry >= self->program->code_count)
        return SHIM_E_INVALID_ARG;
    const shim_code *c = &self->program->code[entry];
    shim_blob *b = blob_new(self, c->data, c->size);
    if (!b)
        return SHIM_E_OUT_OF_MEMORY;
    *out_code = b;
    return SHIM_OK;
}

static void component_hash(shim_component *self, int64_t entry, int64_t target, void **out_hash)
{
    shim_asked("IComponentType::getEntryPointHash");
    *out_hash = NULL;
    if (target != 0 || entry < 0 || (uint64_t)entry >= self->program->code_count)
        return;
    *out_hash = blob_new(NULL, self->program->code[entry].sha256, 32);
}

static shim_result component_link(shim_component *self, void **out, void **diagnostics)
{
    shim_asked("IComponentType::link");
    if (diagnostics)
        *diagnostics = NULL;
    component_add_ref(self);
    *out = self;
    return SHIM_OK;
}

static void set_slots(void)
{
    global_vtbl[0] = (shim_fn)global_query;
    global_vtbl[1] = (shim_fn)static_ref;
    global_vtbl[2] = (shim_fn)static_ref;
    global_vtbl[SHIM_GLOBAL_SLOT_CREATE_SESSION] = (shim_fn)global_create_session;
    global_vtbl[SHIM_GLOBAL_SLOT_FIND_PROFILE] = (shim_fn)global_find_profile;
    global_vtbl[SHIM_GLOBAL_SLOT_GET_BUILD_TAG] = (shim_fn)global_build_tag;
    global_vtbl[SHIM_GLOBAL_SLOT_FIND_CAPABILITY] = (shim_fn)global_find_capability;
    global_vtbl[SHIM_GLOBAL_SLOT_GET_COMPILER_ELAPSED_TIME] = (shim_fn)global_elapsed;
    session_vtbl[0] = (shim_fn)session_query;
    session_vtbl[1] = (shim_fn)static_ref;
    session_vtbl[2] = (shim_fn)static_ref;
    session_vtbl[SHIM_SESSION_SLOT_GET_GLOBAL_SESSION] = (shim_fn)session_global;
    component_vtbl[0] = (shim_fn)component_query;
    component_vtbl[1] = (shim_fn)component_add_ref;
    component_vtbl[2] = (shim_fn)component_release;
    component_vtbl[SHIM_COMPONENT_SLOT_GET_SESSION] = (shim_fn)component_session;
    component_vtbl[SHIM_COMPONENT_SLOT_GET_LAYOUT] = (shim_fn)component_layout;
    component_vtbl[SHIM_COMPONENT_SLOT_GET_SPECIALIZATION_PARAM_COUNT] =
        (shim_fn)component_specialization_params;
    component_vtbl[SHIM_COMPONENT_SLOT_GET_ENTRY_POINT_CODE] = (shim_fn)component_code;
    component_vtbl[SHIM_COMPONENT_SLOT_GET_ENTRY_POINT_HASH] = (shim_fn)component_hash;
    component_vtbl[SHIM_COMPONENT_SLOT_LINK] = (shim_fn)component_link;
    blob_vtbl[0] = (shim_fn)blob_query;
    blob_vtbl[1] = (shim_fn)blob_add_ref;
    blob_vtbl[2] = (shim_fn)blob_release;
    blob_vtbl[SHIM_BLOB_SLOT_GET_BUFFER_POINTER] = (shim_fn)blob_pointer;
    blob_vtbl[SHIM_BLOB_SLOT_GET_BUFFER_SIZE] = (shim_fn)blob_size;
}

/* The tables are filled before main() runs (the library's constructor): no race on first use. */
__attribute__((constructor)) static void shim_com_init(void)
{
    set_slots();
}

void *shim_component_create(shim_program *program)
{
    shim_component *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->vtbl = component_vtbl;
    c->refs = 1;
    c->program = program;
    return c;
}

void *shim_global_session(void)
{
    return &global_session;
}

void *shim_session(void)
{
    return &session;
}

/* Slang's entry points for a global session: the shim's, whatever the description. */
SHIM_EXPORT int32_t slang_createGlobalSession(int64_t api_version, void **out)
{
    (void)api_version;
    shim_asked(__func__);
    *out = &global_session;
    return SHIM_OK;
}

SHIM_EXPORT int32_t slang_createGlobalSession2(const void *desc, void **out)
{
    (void)desc;
    shim_asked(__func__);
    *out = &global_session;
    return SHIM_OK;
}
