/*
 * spirv_bindings.c - checks a bundle's spirv parameter tables against the
 * descriptor bindings that the SPIR-V code itself declares.
 *
 *   spirv_bindings [--module MODULE.slang] BUNDLE.dgpb [VIEW.json]
 *
 * The tables come from VIEW.json when it is given (so that a test can feed a
 * tampered view), otherwise from the bundle's own JSON view. The code always
 * comes from the bundle. Per entry of the spirv target, the SPIR-V is read
 * with spirv_analyze() (SPIRV-Tools underneath), and:
 *
 *   - the entry point's function carries the entry's name (OpName: Slang
 *     calls the single entry point "main" but keeps the function's name);
 *   - the execution model matches the entry's stage, and a compute, mesh or
 *     task (amplification) entry's LocalSize equals its thread_group_size;
 *   - every interface variable with DescriptorSet/Binding decorations (except
 *     Slang's bindless heap, below) has a row at that (space, binding);
 *   - every distinct (space, binding) of the rows is such a variable; in a
 *     module that follows the generator's conventions (--module names a
 *     module mentioning a group symbol, docs/build.md "Scan") every
 *     `<entry>_` global is a row even when the code never uses it, so there
 *     an unused row is reported as info, never as a failure;
 *   - only value rows (the fields of one block) share a (space, binding), or
 *     the rows of a fixed array of resources, one per element of the
 *     variable's OpTypeArray;
 *   - the variable's storage class fits the row's kind (Uniform for value and
 *     uniform_buffer rows; StorageBuffer for buffers; UniformConstant for
 *     textures, samplers and acceleration structures);
 *   - a row flagged `written` has a variable the code writes, and a row
 *     without the flag has one the code never writes.
 *
 * `__slang_resource_heap` is skipped: it is the descriptor array Slang adds
 * for DescriptorHandle<T> (bindless resources), which reaches its resources
 * through handles stored in other parameters; it is not a parameter of the
 * entry and has no row (docs/build.md, "Known limits").
 *
 * Prints one line per entry ("ok" or "FAIL" with the reasons), "info" lines
 * for what is allowed but worth knowing, and a closing "N passed, N failed".
 * Exit status: 0 all passed; 1 a check failed; 2 usage; 3 a file could not be
 * read, or the bundle or view is unusable.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "dgpb/dgpb.h"
#include "code/spirv/spirv_analysis.h"

/* SPIR-V storage classes and execution models used below. */
enum {
    SC_UNIFORM_CONSTANT = 0,
    SC_UNIFORM = 2,
    SC_PUSH_CONSTANT = 9,
    SC_SHADER_RECORD = 5343, /* ShaderRecordBufferKHR */
    SC_STORAGE_BUFFER = 12,
};

#define MAX_FILE (256u * 1024u * 1024u)
#define HEAP_NAME "__slang_resource_heap"

/* One row of an entry's table, as the view says. */
typedef struct row {
    const char *name;
    int kind; /* dgpb_kind, -1 when the view names an unknown kind */
    bool written;
    bool read_only;
    bool shared; /* flagged shared_binding: a texture and a sampler on one binding */
    int64_t space, binding;
    int64_t offset, size; /* value rows: bytes in their block */
} row;

/* The running tally and the failure messages of the entry being checked. */
typedef struct checker {
    bool dream;
    int passed, failed;
    char reasons[8192];
    size_t used;
    bool entry_failed;
    int bindings; /* descriptor bindings of the current entry's interface, all with rows */
} checker;

static void fail(checker *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records one reason the current entry fails (appended, "; "-separated). */
static void fail(checker *c, const char *fmt, ...)
{
    c->entry_failed = true;
    if (c->used + 3 >= sizeof c->reasons)
        return;
    if (c->used > 0) {
        memcpy(c->reasons + c->used, "; ", 2);
        c->used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->reasons + c->used, sizeof c->reasons - c->used, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->used +=
            (size_t)n < sizeof c->reasons - c->used ? (size_t)n : sizeof c->reasons - c->used - 1;
}

/*
 * The SPIR-V execution model of a stage name, or -1: this checker's own table,
 * from the SPIR-V specification, never the vocabulary's (a second opinion of
 * what dgpb writes).
 */
static int64_t execution_model(const char *stage)
{
    static const struct {
        const char *stage;
        int64_t model;
    } table[] = {
        {"vertex", 0},           {"hull", 1},
        {"domain", 2},           {"geometry", 3},
        {"fragment", 4},         {"compute", 5},
        {"raygeneration", 5313}, {"intersection", 5314},
        {"anyhit", 5315},        {"closesthit", 5316},
        {"miss", 5317},          {"callable", 5318},
        {"amplification", 5364}, {"mesh", 5365},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(stage, table[i].stage) == 0)
            return table[i].model;
    return -1;
}

/* The spaces whose values live in a block outside the descriptor sets: the push-constant
   range, and a ray-tracing shader's record. */
static const struct range {
    uint32_t space, storage_class;
    const char *what;
} ranges[] = {
    {DGPB_SPACE_LAUNCH, SC_PUSH_CONSTANT, "push-constant block"},
    {DGPB_SPACE_SHADER_RECORD, SC_SHADER_RECORD, "shader record block"},
};

static const struct range *range_of_space(int64_t space)
{
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (space == (int64_t)ranges[i].space)
            return &ranges[i];
    return NULL;
}

static const struct range *range_of_storage(uint32_t storage_class)
{
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (storage_class == ranges[i].storage_class)
            return &ranges[i];
    return NULL;
}

static const char *storage_class_name(uint32_t sc)
{
    switch (sc) {
    case SC_UNIFORM_CONSTANT:
        return "UniformConstant";
    case SC_UNIFORM:
        return "Uniform";
    case SC_STORAGE_BUFFER:
        return "StorageBuffer";
    default:
        return "another storage class";
    }
}

/*
 * The storage class a row of `kind` must have, or -1 when the kind does not
 * fix one (mlp_weights and handle rows: the table has no such rows today).
 */
static int64_t expected_storage_class(int kind)
{
    switch (kind) {
    case DGPB_KIND_VALUE:
    case DGPB_KIND_UNIFORM_BUFFER:
        return SC_UNIFORM;
    case DGPB_KIND_BUFFER:
    case DGPB_KIND_RW_BUFFER:
    case DGPB_KIND_BYTE_BUFFER:
    case DGPB_KIND_RW_BYTE_BUFFER:
        return SC_STORAGE_BUFFER;
    case DGPB_KIND_TEXTURE:
    case DGPB_KIND_RW_TEXTURE:
    case DGPB_KIND_SAMPLER:
    case DGPB_KIND_TEXTURE_SAMPLER:
    case DGPB_KIND_ACCELERATION_STRUCTURE:
        return SC_UNIFORM_CONSTANT;
    default:
        return -1;
    }
}

/* The word at `index` of a module that may sit at any byte offset in the bundle. */
static uint32_t word_at(const uint8_t *bytes, size_t index)
{
    uint32_t w;
    memcpy(&w, bytes + index * 4, sizeof w);
    return w;
}

/*
 * The OpName of the first OpEntryPoint's function (Slang names its single
 * entry point "main" but keeps the function's own name as debug
 * information), copied into `out`; false when the module has none. Reads the
 * instruction stream of `count` words itself, every access bounds-checked
 * (blobs have no alignment in a bundle, so words are copied out).
 */
static bool entry_function_name(const uint8_t *bytes, size_t count, char *out, size_t size)
{
    uint32_t function = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 5; i < count;) {
            uint32_t op = word_at(bytes, i) & 0xFFFFu, n = word_at(bytes, i) >> 16;
            if (n == 0 || i + n > count)
                return false;
            if (pass == 0 && op == 15 && n >= 3 && function == 0) /* OpEntryPoint */
                function = word_at(bytes, i + 2);
            if (pass == 1 && op == 5 && n >= 3 && word_at(bytes, i + 1) == function) { /* OpName */
                const char *text = (const char *)bytes + (i + 2) * 4;
                const char *nul = memchr(text, '\0', (size_t)(n - 2) * 4);
                size_t len = nul ? (size_t)(nul - text) : (size_t)(n - 2) * 4;
                if (len >= size)
                    return false;
                memcpy(out, text, len);
                out[len] = '\0';
                return true;
            }
            i += n;
        }
        if (function == 0)
            return false;
    }
    return false;
}

/* True for the variables whose bindings the table must describe. */
static bool is_descriptor(const dgpb_spirv_var *v)
{
    return v->set >= 0 && v->binding >= 0 && strcmp(v->name, HEAP_NAME) != 0;
}

/* True when the module's text mentions one of the generator's group symbols. */
static bool module_is_dream(const char *text)
{
    if (strstr(text, "DREAM_SHADERS_RENDER") || strstr(text, "DREAM_SHADERS_RAY_TRACING"))
        return true;
    for (const char *p = text; (p = strstr(p, "DREAM_SHADER_")) != NULL; p++) {
        char next = p[13];
        if ((next >= 'A' && next <= 'Z') || (next >= 'a' && next <= 'z') ||
            (next >= '0' && next <= '9') || next == '_')
            return true;
    }
    return false;
}

static const char *json_string(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

static int64_t json_int(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(item) ? (int64_t)item->valuedouble : -1;
}

static bool json_has_flag(const cJSON *param, const char *flag)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(param, "flags"))
    {
        if (cJSON_IsString(f) && strcmp(f->valuestring, flag) == 0)
            return true;
    }
    return false;
}

/* Reads the rows of one view entry into `rows` (at most `max`); returns the count or -1. */
static int read_rows(const cJSON *entry, row *rows, int max)
{
    int n = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(entry, "params"))
    {
        if (n == max)
            return -1;
        const char *name = json_string(p, "name");
        const char *kind = json_string(p, "kind");
        if (!name || !kind)
            return -1;
        if (json_has_flag(p, "absent"))
            continue; /* not in this target's code (a target guard): nothing to match */
        rows[n] = (row){
            .name = name,
            .kind = dgpb_kind_from_name(kind, strlen(kind)),
            .written = json_has_flag(p, "written"),
            .read_only = json_has_flag(p, "read_only"),
            .shared = json_has_flag(p, "shared_binding"),
            .space = json_int(p, "space"),
            .binding = json_int(p, "binding"),
            .offset = json_int(p, "offset"),
            .size = json_int(p, "size"),
        };
        n++;
    }
    return n;
}

/* Compares one entry's rows with its SPIR-V. */
static void check_entry(checker *c, const char *entry_name, const cJSON *ventry,
                        const dgpb_spirv_info *info, const dgpb_blob_ref *code)
{
    char function[256];
    if (code->size % 4 == 0 &&
        entry_function_name(code->data, code->size / 4, function, sizeof function)) {
        if (strcmp(function, entry_name) != 0)
            fail(c, "the SPIR-V's entry point is the function '%s'", function);
    } else {
        printf("info: spirv/%s: the entry point's function has no OpName\n", entry_name);
    }

    enum { MAX_ROWS = 256 };
    row rows[MAX_ROWS];
    int nrows = read_rows(ventry, rows, MAX_ROWS);
    if (nrows < 0) {
        fail(c, "the view's params of '%s' are malformed or too many", entry_name);
        return;
    }

    const char *stage = json_string(ventry, "stage");
    int64_t model = stage ? execution_model(stage) : -1;
    if (model < 0)
        fail(c, "unknown stage '%s'", stage ? stage : "(none)");
    else if ((int64_t)info->execution_model != model)
        fail(c, "stage '%s' but the SPIR-V's execution model is %u", stage, info->execution_model);
    const cJSON *tgs = cJSON_GetObjectItemCaseSensitive(ventry, "thread_group_size");
    if (model == 5 || model == 5364 || model == 5365) { /* GLCompute, TaskEXT, MeshEXT */
        for (int i = 0; i < 3; i++) {
            const cJSON *d = cJSON_GetArrayItem(tgs, i);
            if (!cJSON_IsNumber(d) || (uint32_t)d->valuedouble != info->local_size[i]) {
                fail(c, "thread_group_size differs from the SPIR-V's LocalSize %u,%u,%u",
                     info->local_size[0], info->local_size[1], info->local_size[2]);
                break;
            }
        }
    }
    if (!info->parsed) {
        fail(c, "SPIRV-Tools cannot parse the code: its bindings cannot be checked");
        return;
    }

    /* Only one block's rows share a (space, binding): value rows (its fields), after its
       uniform_buffer row if it has one; or the element rows of a fixed array of resources,
       of one kind, as many as the OpTypeArray's length of the variable there. */
    for (int i = 0; i < nrows; i++) {
        if (rows[i].kind < 0)
            fail(c, "row '%s' has an unknown kind", rows[i].name);
        int sharing = 0;
        for (int j = 0; j < nrows; j++)
            sharing += rows[j].space == rows[i].space && rows[j].binding == rows[i].binding;
        const dgpb_spirv_var *array = NULL;
        for (size_t v = 0; v < info->var_count && !array; v++)
            if (info->vars[v].set == rows[i].space && info->vars[v].binding == rows[i].binding &&
                info->vars[v].is_array && info->vars[v].array_length)
                array = &info->vars[v];
        if (array && rows[i].kind != DGPB_KIND_VALUE && (uint32_t)sharing != array->array_length)
            fail(c, "the array '%s' (set %lld binding %lld) has %u elements but %d rows",
                 array->name, (long long)array->set, (long long)array->binding, array->array_length,
                 sharing);
        for (int j = 0; j < i; j++)
            if (rows[j].space == rows[i].space && rows[j].binding == rows[i].binding &&
                !(array && rows[j].kind == rows[i].kind) &&
                /* a texture and a sampler on one binding, both flagged so (one combined
                   image-sampler descriptor) */
                !(rows[i].shared && rows[j].shared &&
                  rows[i].kind + rows[j].kind == DGPB_KIND_TEXTURE + DGPB_KIND_SAMPLER &&
                  rows[i].kind != rows[j].kind) &&
                (rows[i].kind != DGPB_KIND_VALUE ||
                 (rows[j].kind != DGPB_KIND_VALUE && rows[j].kind != DGPB_KIND_UNIFORM_BUFFER)))
                fail(c, "rows '%s' and '%s' share set %lld binding %lld", rows[j].name,
                     rows[i].name, (long long)rows[i].space, (long long)rows[i].binding);
    }

    /* Every descriptor of the entry's interface has a row. */
    for (size_t v = 0; v < info->var_count; v++) {
        const dgpb_spirv_var *var = &info->vars[v];
        if (var->set >= 0 && var->binding >= 0 && !is_descriptor(var)) {
            printf("info: spirv/%s: skipped Slang's bindless heap '%s' (set %lld binding %lld): "
                   "not a parameter\n",
                   entry_name, var->name, (long long)var->set, (long long)var->binding);
            continue;
        }
        if (!is_descriptor(var))
            continue;
        if (!var->in_interface) {
            printf("info: spirv/%s: '%s' (set %lld binding %lld) is declared but not on the "
                   "entry point's interface\n",
                   entry_name, var->name, (long long)var->set, (long long)var->binding);
            continue;
        }
        bool found = false;
        for (int i = 0; i < nrows && !found; i++)
            found = rows[i].space == var->set && rows[i].binding == var->binding;
        c->bindings += found;
        if (!found)
            fail(c, "SPIR-V variable '%s' (set %lld binding %lld) has no row", var->name,
                 (long long)var->set, (long long)var->binding);
    }

    /* Every push-constant block on the interface has launch rows (space 0xFFFFFFFF), and a
       shader record's block rows of the shader-record space (0xFFFFFFFD). */
    for (size_t v = 0; v < info->var_count; v++) {
        const dgpb_spirv_var *var = &info->vars[v];
        const struct range *range = range_of_storage(var->storage_class);
        if (!range || !var->in_interface)
            continue;
        bool found = false;
        for (int i = 0; i < nrows && !found; i++)
            found = rows[i].space == (int64_t)range->space;
        c->bindings += found;
        if (!found)
            fail(c, "the %s '%s' has no row of space 0x%X", range->what, var->name, range->space);
    }

    /* Every row's binding is an interface descriptor of the right storage class and writes. */
    for (int i = 0; i < nrows; i++) {
        const row *r = &rows[i];
        const struct range *range = range_of_space(r->space);
        if (range) { /* a push constant or a shader record's value: a value in the block */
            const dgpb_spirv_var *block = NULL;
            for (size_t v = 0; v < info->var_count && !block; v++)
                if (info->vars[v].storage_class == range->storage_class &&
                    info->vars[v].in_interface)
                    block = &info->vars[v];
            if (r->kind != DGPB_KIND_VALUE)
                fail(c, "row '%s' is a row of space 0x%X but not a value", r->name, range->space);
            else if (!block)
                fail(c, "row '%s' is in space 0x%X but the SPIR-V has no %s", r->name,
                     range->space, range->what);
            else if (block->block_size && r->offset + r->size > (int64_t)block->block_size)
                fail(c, "row '%s' (bytes %lld..%lld) lies outside the %s '%s' (%u bytes)",
                     r->name, (long long)r->offset, (long long)(r->offset + r->size), range->what,
                     block->name, block->block_size);
            continue;
        }
        if (r->space == (int64_t)DGPB_SPACE_PIPELINE_CONSTANT) { /* a SpecId constant */
            const dgpb_spirv_spec_constant *k = NULL;
            for (size_t j = 0; j < info->spec_constant_count && !k; j++)
                if (info->spec_constants[j].spec_id == r->binding)
                    k = &info->spec_constants[j];
            if (r->kind != DGPB_KIND_VALUE || r->offset != 0)
                fail(c, "row '%s' is a pipeline constant but not a value at offset 0", r->name);
            else if (!k)
                fail(c, "row '%s' is pipeline constant %lld, which the SPIR-V has no SpecId of",
                     r->name, (long long)r->binding);
            else if (k->size && (int64_t)k->size != r->size)
                fail(c, "row '%s' is %lld bytes but SpecId %lld is %u", r->name, (long long)r->size,
                     (long long)r->binding, k->size);
            continue;
        }
        if (r->kind == DGPB_KIND_HANDLE) { /* Slang's bindless heap, where a host binds its own */
            bool heap = false;
            for (size_t v = 0; v < info->var_count && !heap; v++)
                heap = info->vars[v].set == r->space && info->vars[v].binding == r->binding &&
                       !strncmp(info->vars[v].name, HEAP_NAME, strlen(HEAP_NAME));
            if (!heap)
                fail(c, "handle row '%s' (set %lld binding %lld) is no bindless heap in the SPIR-V",
                     r->name, (long long)r->space, (long long)r->binding);
            continue;
        }
        bool first = true; /* report each block's binding once */
        for (int j = 0; j < i && first; j++)
            first = !(rows[j].space == r->space && rows[j].binding == r->binding);
        const dgpb_spirv_var *match = NULL;
        int matches = 0;
        bool any_written = false;
        for (size_t v = 0; v < info->var_count; v++) {
            const dgpb_spirv_var *var = &info->vars[v];
            if (is_descriptor(var) && var->in_interface && var->set == r->space &&
                var->binding == r->binding) {
                match = match ? match : var;
                matches++;
                any_written = any_written || var->written;
            }
        }
        if (!match) {
            if (!c->dream)
                fail(c, "row '%s' (set %lld binding %lld) has no variable in the SPIR-V", r->name,
                     (long long)r->space, (long long)r->binding);
            else if (first)
                printf("info: spirv/%s: row '%s' (set %lld binding %lld) is not used by the code "
                       "(allowed: every <entry>_ global is a row in this module)\n",
                       entry_name, r->name, (long long)r->space, (long long)r->binding);
            if (r->written)
                fail(c, "row '%s' is flagged written but the code has no such variable", r->name);
            continue;
        }
        if (matches > 1 && first)
            printf("info: spirv/%s: %d variables share set %lld binding %lld\n", entry_name,
                   matches, (long long)r->space, (long long)r->binding);
        int64_t sc = expected_storage_class(r->kind);
        if (sc >= 0 && (int64_t)match->storage_class != sc)
            fail(c, "row '%s' is %s but '%s' has storage class %s (%u), not %s", r->name,
                 dgpb_kind_name((uint32_t)r->kind), match->name,
                 storage_class_name(match->storage_class), match->storage_class,
                 storage_class_name((uint32_t)sc));
        if (r->written && !any_written)
            fail(c, "row '%s' is flagged written but the code never writes '%s'", r->name,
                 match->name);
        if (!r->written && any_written)
            fail(c, "the code writes '%s' but row '%s' is not flagged written%s", match->name,
                 r->name, r->read_only ? " (it is read_only)" : "");
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: spirv_bindings [--module MODULE.slang] BUNDLE.dgpb [VIEW.json]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *module = NULL, *bundle_path = NULL, *view_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--module") == 0 && i + 1 < argc)
            module = argv[++i];
        else if (argv[i][0] == '-')
            return usage();
        else if (!bundle_path)
            bundle_path = argv[i];
        else if (!view_path)
            view_path = argv[i];
        else
            return usage();
    }
    if (!bundle_path)
        return usage();

    int status = 3;
    checker c = {0};
    dgpb_diag diag;
    uint8_t *module_text = NULL, *bytes = NULL, *view_bytes = NULL;
    char *view_text = NULL;
    size_t size = 0, view_size = 0;
    dgpb_bundle *b = NULL;
    cJSON *view = NULL;

    if (module) {
        if (dgpb_file_read(module, MAX_FILE, &module_text, &size, &diag)) {
            fprintf(stderr, "spirv_bindings: %s\n", diag.message);
            goto done;
        }
        c.dream = module_is_dream((const char *)module_text);
    }
    if (dgpb_file_read(bundle_path, MAX_FILE, &bytes, &size, &diag) ||
        dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, &diag)) {
        fprintf(stderr, "spirv_bindings: %s: %s\n", bundle_path, diag.message);
        goto done;
    }
    if (view_path) {
        if (dgpb_file_read(view_path, MAX_FILE, &view_bytes, &view_size, &diag)) {
            fprintf(stderr, "spirv_bindings: %s\n", diag.message);
            goto done;
        }
        view = cJSON_Parse((const char *)view_bytes);
    } else {
        if (dgpb_json_view(b, "bundle", &view_text, &diag)) {
            fprintf(stderr, "spirv_bindings: %s: %s\n", bundle_path, diag.message);
            goto done;
        }
        view = cJSON_Parse(view_text);
    }
    if (!view) {
        fprintf(stderr, "spirv_bindings: the JSON view is not valid JSON\n");
        goto done;
    }

    const dgpb_target_view *target = NULL;
    if (dgpb_bundle_find_target(b, "spirv", &target, &diag))
        target = NULL;
    const cJSON *vtarget = NULL, *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(view, "targets"))
    {
        const char *name = json_string(t, "name");
        if (name && strcmp(name, "spirv") == 0)
            vtarget = t;
    }
    if (!vtarget || !target) {
        if (vtarget || target) {
            printf("FAIL %s: the view and the bundle disagree on having a spirv target\n",
                   bundle_path);
            c.failed++;
        } else {
            printf("info: %s has no spirv target\n", bundle_path);
        }
    } else {
        if ((uint32_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(vtarget, "entries")) !=
            target->entry_count) {
            printf("FAIL %s: the view lists %d spirv entries, the bundle %u\n", bundle_path,
                   cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(vtarget, "entries")),
                   target->entry_count);
            c.failed++;
        }
        const cJSON *ventry;
        cJSON_ArrayForEach(ventry, cJSON_GetObjectItemCaseSensitive(vtarget, "entries"))
        {
            const char *name = json_string(ventry, "name");
            c.entry_failed = false;
            c.used = 0;
            c.reasons[0] = '\0';
            c.bindings = 0;
            const dgpb_entry_view *e = NULL;
            if (!name) {
                fail(&c, "an entry of the view has no name");
                name = "?";
            } else if (dgpb_target_find_entry(target, name, &e, &diag)) {
                fail(&c, "the bundle has no spirv entry '%s'", name);
            } else {
                dgpb_spirv_info *info = NULL;
                int rc = spirv_analyze(e->code.data, e->code.size, &info, &diag);
                if (!info)
                    fail(&c, "the SPIR-V cannot be analysed: %s", diag.message);
                else
                    check_entry(&c, name, ventry, info, &e->code);
                (void)rc;
                spirv_info_free(info);
            }
            if (c.entry_failed) {
                printf("FAIL spirv/%s: %s\n", name, c.reasons);
                c.failed++;
            } else {
                printf("ok   spirv/%s: %d descriptor bindings, their storage classes and writes "
                       "match the table\n",
                       name, c.bindings);
                c.passed++;
            }
        }
    }
    printf("%d passed, %d failed\n", c.passed, c.failed);
    status = c.failed ? 1 : 0;

done:
    cJSON_Delete(view);
    dgpb_bundle_close(b);
    dgpb_free(view_text);
    dgpb_free(view_bytes);
    dgpb_free(bytes);
    dgpb_free(module_text);
    return status;
}
