/*
 * test_spirv_analysis.c - entry point, capabilities and written variables
 * read from SPIR-V (code/spirv/spirv_analysis.h).
 *
 * The fixtures in fixtures/spirv/ are real Slang output, committed next to
 * their sources and reflection JSON. They were made with the embedded
 * compiler (Slang 2025.15), one entry point per module, from the top of the
 * repository:
 *
 *   tools/slangc-wasm/slangc-wasm fixtures/spirv/writes.slang -target spirv \
 *       -entry E -stage compute -o fixtures/spirv/E.spv -reflection-json fixtures/spirv/E.json
 *
 * for E = store_and_read, byte_store, atomics, image_write (writes.slang);
 * helpers (helpers.slang); wave_sum, halves, atomic64, bindless, ray_query
 * with -stage compute and raygen with -stage raygeneration
 * (capabilities.slang); coop_vec (coop_vec.slang); geometry_point,
 * hull_patch, domain_point, task_payload, mesh_tris and fragment_primitive
 * with -stage geometry, hull, domain, amplification, mesh and fragment
 * (stages.slang, for test_capabilities.c); derivatives_quad and
 * derivatives_linear, and position_fetch with -stage closesthit (newer.slang,
 * read by tests/test_spirv.c); layer_viewport and multiview (-stage vertex),
 * barycentric, per_sample, covered, shading_rate and stencil (-stage
 * fragment) and ms_image (renderer.slang, read by tests/test_capabilities.c);
 * nonuniform_arrays, uniform_arrays and constant_arrays (indexing.slang, read
 * by tests/test_capabilities.c).
 * calls.spv is assembled by
 * hand from calls.spvasm (its first lines give the command), because Slang
 * never passes a resource pointer to a function: it specialises the callee
 * to the global instead.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "dgpb/dgpb.h"
#include "code/spirv/spirv.h"
#include "code/spirv/spirv_analysis.h"
#include "support.h"

#define STORAGE_UNIFORM_CONSTANT 0u
#define STORAGE_PRIVATE 6u
#define STORAGE_STORAGE_BUFFER 12u
#define STORAGE_RAY_PAYLOAD 5338u
#define MODEL_GLCOMPUTE 5u
#define MODEL_RAYGEN 5313u

/* The bytes of fixtures/spirv/NAME.spv; free with dgpb_free(). */
static uint8_t *fixture(const char *name, size_t *size)
{
    char path[256];
    snprintf(path, sizeof path, "fixtures/spirv/%s.spv", name);
    uint8_t *bytes = support_read_source_file(path, size);
    if (!bytes)
        fail_msg("cannot read %s", path);
    return bytes;
}

/* Analyses a fixture that must parse. */
static dgpb_spirv_info *analyze_fixture(const char *name)
{
    size_t size;
    uint8_t *bytes = fixture(name, &size);
    dgpb_spirv_info *info = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = spirv_analyze(bytes, size, &info, &d);
    dgpb_free(bytes);
    if (rc != DGPB_OK)
        fail_msg("%s: %d %s", name, rc, d.message);
    assert_non_null(info);
    assert_true(info->parsed);
    return info;
}

/* The variable called `name`, which must exist. */
static const dgpb_spirv_var *var(const dgpb_spirv_info *info, const char *name)
{
    const dgpb_spirv_var *v = spirv_find_var(info, name);
    if (!v)
        fail_msg("no variable '%s'", name);
    return v;
}

/* The word index of the first instruction with `opcode` in a module, or 0. */
static size_t find_op(const uint32_t *w, size_t n, uint32_t opcode)
{
    for (size_t i = 5; i < n && (w[i] >> 16) != 0; i += w[i] >> 16)
        if ((w[i] & 0xffffu) == opcode)
            return i;
    return 0;
}

static void a_stored_buffer_is_written_and_a_read_one_is_not(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("store_and_read");
    assert_int_equal(info->execution_model, MODEL_GLCOMPUTE);
    assert_string_equal(info->entry_name, "main"); /* Slang names a lone entry point "main" */
    assert_int_equal(info->local_size[0], 64);
    assert_int_equal(info->local_size[1], 1);
    assert_int_equal(info->local_size[2], 1);
    assert_true(var(info, "written_buf")->written);
    assert_false(var(info, "read_only_rw")->written); /* an RW type, only read */
    assert_false(var(info, "plain_input")->written);
    assert_int_equal(var(info, "written_buf")->storage_class, STORAGE_STORAGE_BUFFER);
    /* gl_GlobalInvocationID: an Input variable Slang leaves without OpName. */
    assert_int_equal(info->var_count, 4);
    assert_string_equal(info->vars[0].name, "");
    assert_int_equal(info->vars[0].storage_class, 1);
    assert_int_equal(info->vars[0].set, -1);
    assert_int_equal(info->vars[0].binding, -1);
    assert_false(info->vars[0].written);
    spirv_info_free(info);
}

static void a_byte_address_store_writes_the_buffer(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("byte_store");
    assert_true(var(info, "raw_bytes")->written);
    assert_int_equal(info->local_size[0], 8);
    assert_int_equal(info->local_size[1], 4);
    assert_int_equal(info->local_size[2], 2);
    spirv_info_free(info);
}

static void atomics_write_a_buffer_and_a_texture_through_a_texel_pointer(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("atomics");
    assert_true(var(info, "counter")->written);
    assert_true(var(info, "histogram")->written); /* OpImageTexelPointer + OpAtomicIAdd */
    assert_int_equal(var(info, "histogram")->storage_class, STORAGE_UNIFORM_CONSTANT);
    spirv_info_free(info);
}

static void an_image_write_marks_only_the_written_image(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("image_write");
    assert_true(var(info, "out_image")->written);   /* OpLoad of the image, then OpImageWrite */
    assert_false(var(info, "read_image")->written); /* a RWTexture2D only read */
    assert_false(var(info, "in_texture")->written); /* through OpSampledImage */
    assert_false(var(info, "linear_sampler")->written);
    spirv_info_free(info);
}

static void writes_inside_called_functions_reach_the_variables(void **state)
{
    (void)state;
    /* Slang keeps [noinline] functions as real OpFunctions; the one taking a
       RWStructuredBuffer parameter is specialised to the global it is given. */
    dgpb_spirv_info *info = analyze_fixture("helpers");
    assert_true(var(info, "param_target")->written);
    assert_true(var(info, "global_target")->written);
    assert_false(var(info, "only_read")->written);
    spirv_info_free(info);
}

static void pointers_through_parameters_returns_selects_and_phis_are_followed(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("calls");
    assert_true(var(info, "by_param")->written);    /* callee defined before the caller */
    assert_false(var(info, "read_param")->written); /* callee defined after, only loads */
    assert_true(var(info, "returned")->written);    /* OpReturnValue of a pointer */
    assert_true(var(info, "sel_a")->written);       /* an atomic through OpSelect: both sides */
    assert_true(var(info, "sel_b")->written);
    assert_true(var(info, "phi_a")->written); /* OpPhi, then OpCopyObject */
    assert_true(var(info, "phi_b")->written);
    assert_false(var(info, "untouched")->written);
    assert_true(var(info, "private_counter")->written);
    assert_int_equal(var(info, "private_counter")->storage_class, STORAGE_PRIVATE);
    assert_true(var(info, "private_counter")->in_interface);
    assert_false(var(info, "unlisted")->in_interface);
    assert_false(var(info, "unlisted")->written);
    assert_int_equal(var(info, "returned")->set, 1);
    assert_int_equal(var(info, "returned")->binding, 0);
    /* OpExecutionModeId LocalSizeId of three constants. */
    assert_int_equal(info->local_size[0], 4);
    assert_int_equal(info->local_size[1], 2);
    assert_int_equal(info->local_size[2], 1);
    spirv_info_free(info);
}

/* Every named variable with a binding is the reflection parameter of that name, same set and
 * binding; every variable is on the interface (SPIR-V 1.4+ lists all of them). */
static void check_against_reflection(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "fixtures/spirv/%s.json", name);
    size_t size;
    uint8_t *text = support_read_source_file(path, &size);
    assert_non_null(text);
    cJSON *json = cJSON_ParseWithLength((const char *)text, size);
    dgpb_free(text);
    assert_non_null(json);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(json, "parameters");
    assert_true(cJSON_IsArray(params));

    dgpb_spirv_info *info = analyze_fixture(name);
    size_t checked = 0;
    for (size_t i = 0; i < info->var_count; i++) {
        const dgpb_spirv_var *v = &info->vars[i];
        assert_true(v->in_interface);
        if (v->binding < 0 || strncmp(v->name, "__slang", 7) == 0)
            continue;
        const cJSON *p = NULL, *found = NULL;
        cJSON_ArrayForEach(p, params)
        {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "name");
            if (cJSON_IsString(n) && strcmp(n->valuestring, v->name) == 0)
                found = p;
        }
        if (!found)
            fail_msg("%s: variable '%s' is not a reflection parameter", name, v->name);
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(found, "binding");
        const cJSON *index = cJSON_GetObjectItemCaseSensitive(b, "index");
        const cJSON *space = cJSON_GetObjectItemCaseSensitive(b, "space");
        assert_true(cJSON_IsNumber(index));
        assert_int_equal(v->binding, index->valueint);
        assert_int_equal(v->set, cJSON_IsNumber(space) ? space->valueint : 0);
        checked++;
    }
    assert_true(checked > 0);
    spirv_info_free(info);
    cJSON_Delete(json);
}

static void names_sets_and_bindings_match_slang_reflection(void **state)
{
    (void)state;
    static const char *const names[] = {
        "store_and_read", "byte_store", "atomics",  "image_write", "helpers",   "wave_sum",
        "halves",         "atomic64",   "bindless", "raygen",      "ray_query",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        check_against_reflection(names[i]);
}

static void capabilities_are_read_sorted_and_unique(void **state)
{
    (void)state;
    static const char *const fixtures[] = {"wave_sum", "halves", "atomic64", "bindless",
                                           "ray_query"};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        dgpb_spirv_info *info = analyze_fixture(fixtures[i]);
        assert_true(info->capability_count > 1);
        for (size_t k = 1; k < info->capability_count; k++)
            assert_true(info->capabilities[k - 1] < info->capabilities[k]);
        spirv_info_free(info);
    }
}

static void other_resources_of_capability_shaders_are_classified(void **state)
{
    (void)state;
    dgpb_spirv_info *info = analyze_fixture("raygen");
    assert_int_equal(info->execution_model, MODEL_RAYGEN);
    assert_int_equal(info->local_size[0], 0);
    assert_true(var(info, "ray_image")->written);
    assert_false(var(info, "scene")->written);
    /* The payload: a RayPayloadKHR variable written by OpTraceRayKHR. */
    assert_int_equal(var(info, "p")->storage_class, STORAGE_RAY_PAYLOAD);
    assert_true(var(info, "p")->written);
    spirv_info_free(info);

    /* DescriptorHandle: Slang adds a runtime array of descriptors of its own. */
    info = analyze_fixture("bindless");
    assert_true(var(info, "handle_out")->written);
    assert_false(var(info, "handles")->written);
    assert_false(var(info, "__slang_resource_heap")->written);
    assert_true(var(info, "__slang_resource_heap")->in_interface);
    spirv_info_free(info);

    info = analyze_fixture("atomic64");
    assert_true(var(info, "wide_counter")->written);
    spirv_info_free(info);
}

/*
 * A module newer than SPIRV-Tools (capabilities 5394 CooperativeVectorNV and 6024
 * ReplicatedCompositesEXT, and their instructions): what it cannot read is left out, and the
 * variables, their places and the entry point's interface are read as for any module, so a
 * table keeps exactly the rows the code's interface lists.
 */
static void a_module_too_new_for_spirv_tools_keeps_its_interface(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = fixture("coop_vec", &size);
    dgpb_spirv_info *info = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_analyze(bytes, size, &info, &d), DGPB_OK);
    dgpb_free(bytes);
    assert_non_null(info);
    assert_true(info->parsed);
    assert_true(info->unread > 0);
    assert_int_equal(info->execution_model, MODEL_GLCOMPUTE);
    static const uint32_t caps[] = {1, 5345, 5394, 6024}; /* read word by word */
    assert_int_equal(info->capability_count, 4);
    assert_memory_equal(info->capabilities, caps, sizeof caps);
    assert_string_equal(info->entry_name, "main");
    const dgpb_spirv_var *out = var(info, "cv_out"), *weights = var(info, "cv_weights");
    assert_true(out->in_interface && weights->in_interface);
    assert_int_equal(out->set, 0);
    assert_int_equal(out->binding, 0);
    assert_int_equal(weights->binding, 1);
    assert_true(out->written);
    assert_false(weights->written);
    spirv_info_free(info);
}

/* An opcode SPIRV-Tools does not know is left out; the rest of the module is read. */
static void an_unknown_opcode_is_left_out_and_the_rest_read(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = fixture("atomic64", &size);
    uint32_t *w = (uint32_t *)bytes;
    size_t at = find_op(w, size / 4, 253); /* OpReturn */
    assert_true(at > 0);
    w[at] = (w[at] & 0xffff0000u) | 0xffffu;
    dgpb_spirv_info *info = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_analyze(bytes, size, &info, &d), DGPB_OK);
    dgpb_free(bytes);
    assert_non_null(info);
    assert_true(info->parsed);
    assert_int_equal(info->unread, 1);
    static const uint32_t caps[] = {1, 11, 12}; /* Shader, Int64, Int64Atomics */
    assert_int_equal(info->capability_count, 3);
    assert_memory_equal(info->capabilities, caps, sizeof caps);
    assert_true(var(info, "wide_counter")->written);
    assert_true(var(info, "wide_counter")->in_interface);
    spirv_info_free(info);
}

/*
 * A number SPIRV-Tools does not know in an instruction the interface stands on (an
 * OpEntryPoint's execution model) is never left out: the analysis gives capabilities only.
 */
static void an_unknown_number_in_the_entry_point_gives_unsupported_with_capabilities(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = fixture("atomic64", &size);
    uint32_t *w = (uint32_t *)bytes;
    size_t at = find_op(w, size / 4, 15); /* OpEntryPoint */
    assert_true(at > 0);
    w[at + 1] = 9999; /* its execution model */
    dgpb_spirv_info *info = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_analyze(bytes, size, &info, &d), DGPB_ERR_UNSUPPORTED);
    dgpb_free(bytes);
    assert_non_null(strstr(d.message, "9999"));
    assert_int_equal(d.severity, DGPB_SEV_WARNING);
    assert_non_null(info);
    assert_false(info->parsed);
    static const uint32_t caps[] = {1, 11, 12}; /* Shader, Int64, Int64Atomics */
    assert_int_equal(info->capability_count, 3);
    assert_memory_equal(info->capabilities, caps, sizeof caps);
    assert_int_equal(info->var_count, 0);
    spirv_info_free(info);
}

/* Analyses a patched copy of a fixture; returns the result, *out must stay NULL. */
static int analyze_patched(const uint8_t *bytes, size_t size, size_t word, uint32_t value,
                           dgpb_diag *d)
{
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    memcpy(copy, bytes, size);
    if (word != SIZE_MAX)
        memcpy(copy + word * 4, &value, 4);
    dgpb_spirv_info *info = (dgpb_spirv_info *)1;
    dgpb_diag_clear(d);
    int rc = spirv_analyze(copy, size, &info, d);
    free(copy);
    assert_null(info);
    return rc;
}

static void malformed_modules_are_refused_cleanly(void **state)
{
    (void)state;
    size_t size;
    uint8_t *bytes = fixture("store_and_read", &size);
    const uint32_t *w = (const uint32_t *)bytes;
    dgpb_diag d;
    dgpb_spirv_info *info = NULL;

    dgpb_diag_clear(&d);
    assert_int_equal(spirv_analyze(NULL, size, &info, &d), DGPB_ERR_INVALID);
    assert_null(info);
    assert_int_equal(spirv_analyze(bytes, size, NULL, &d), DGPB_ERR_INVALID);
    assert_int_equal(spirv_analyze(bytes, 6, &info, NULL), DGPB_ERR_CORRUPT);
    assert_int_equal(spirv_analyze(bytes, size - 1, &info, NULL), DGPB_ERR_CORRUPT);
    assert_null(info);

    assert_int_equal(analyze_patched(bytes, size, 0, 0x03022307u, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "bad magic"));
    /* The last instruction claims more words than are left. */
    size_t last = 5;
    for (size_t i = 5; i < size / 4; i += w[i] >> 16)
        last = i;
    assert_int_equal(analyze_patched(bytes, size, last, w[last] + (4u << 16), &d),
                     DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "runs past the end"));
    /* OpEntryPoint turned into OpNop: nothing to analyse. */
    size_t entry = find_op(w, size / 4, 15);
    assert_true(entry > 0);
    assert_int_equal(analyze_patched(bytes, size, entry, w[entry] & 0xffff0000u, &d),
                     DGPB_ERR_SHADER);
    assert_non_null(strstr(d.message, "no OpEntryPoint"));
    /* An id bound beyond SPIR-V's limit, then one below the ids the module uses. */
    assert_int_equal(analyze_patched(bytes, size, 3, DGPB_SPIRV_MAX_ID_BOUND + 1, &d),
                     DGPB_ERR_LIMIT);
    assert_non_null(strstr(d.message, "id bound 4194305 exceeds"));
    assert_int_equal(analyze_patched(bytes, size, 3, 8, &d), DGPB_ERR_CORRUPT);
    assert_non_null(strstr(d.message, "is not below the id bound 8"));
    assert_int_equal(analyze_patched(bytes, size, 3, 0, &d), DGPB_ERR_CORRUPT);
    dgpb_free(bytes);
}

/*
 * spirv_entry_points(): each OpEntryPoint's execution model, which names its
 * stage, and its LocalSize (the thread group size of a compute, mesh or task
 * entry point, which Slang 2025.15's reflection leaves out for mesh and task
 * ones): real Slang SPIR-V of every stage with one, and a crafted module
 * whose LocalSizeId names OpConstants.
 */
static void entry_points_give_stages_and_local_sizes(void **state)
{
    (void)state;
    static const struct {
        const char *fixture;
        int stage;
        uint32_t size[3];
    } cases[] = {
        {"wave_sum", DGPB_STAGE_COMPUTE, {32, 1, 1}},
        {"raygen", DGPB_STAGE_RAYGENERATION, {0, 0, 0}},
        {"task_payload", DGPB_STAGE_AMPLIFICATION, {32, 1, 1}},
        {"mesh_tris", DGPB_STAGE_MESH, {3, 1, 1}},
        {"geometry_point", DGPB_STAGE_GEOMETRY, {0, 0, 0}},
        {"hull_patch", DGPB_STAGE_HULL, {0, 0, 0}},
        {"domain_point", DGPB_STAGE_DOMAIN, {0, 0, 0}},
        {"fragment_primitive", DGPB_STAGE_FRAGMENT, {0, 0, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t size;
        uint8_t *bytes = fixture(cases[i].fixture, &size);
        dgpb_spirv_entry_point *eps = NULL;
        size_t count = 0;
        dgpb_diag d;
        dgpb_diag_clear(&d);
        assert_int_equal(spirv_entry_points(bytes, size, &eps, &count, &d), DGPB_OK);
        assert_int_equal(count, 1);
        assert_string_equal(eps[0].name, "main");
        if (spirv_stage_of_model(eps[0].execution_model) != cases[i].stage)
            fail_msg("%s: execution model %u", cases[i].fixture, eps[0].execution_model);
        for (int k = 0; k < 3; k++)
            if (eps[0].local_size[k] != cases[i].size[k])
                fail_msg("%s: local size %u,%u,%u", cases[i].fixture, eps[0].local_size[0],
                         eps[0].local_size[1], eps[0].local_size[2]);
        dgpb_free(eps);
        dgpb_free(bytes);
    }
    /* OpEntryPoint GLCompute %1 "k"; OpExecutionModeId %1 LocalSizeId %2 %3 %4; three
       OpConstants 8, 4, 2. */
    static const uint32_t words[] = {
        0x07230203u,
        0x00010600u,
        0,
        10,
        0, /* header */
        4u << 16 | 15u,
        5,
        1,
        'k', /* OpEntryPoint */
        6u << 16 | 331u,
        1,
        38,
        2,
        3,
        4, /* OpExecutionModeId */
        4u << 16 | 43u,
        9,
        2,
        8,
        4u << 16 | 43u,
        9,
        3,
        4, /* OpConstant */
        4u << 16 | 43u,
        9,
        4,
        2,
    };
    dgpb_spirv_entry_point *eps = NULL;
    size_t count = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    assert_int_equal(spirv_entry_points(words, sizeof words, &eps, &count, &d), DGPB_OK);
    assert_int_equal(count, 1);
    assert_string_equal(eps[0].name, "k");
    assert_int_equal(eps[0].local_size[0], 8);
    assert_int_equal(eps[0].local_size[1], 4);
    assert_int_equal(eps[0].local_size[2], 2);
    dgpb_free(eps);
    /* Every SPIR-V execution model of the vocabulary names its stage; others none. */
    assert_int_equal(spirv_stage_of_model(5365), DGPB_STAGE_MESH);
    assert_int_equal(spirv_stage_of_model(5364), DGPB_STAGE_AMPLIFICATION);
    assert_int_equal(spirv_stage_of_model(3), DGPB_STAGE_GEOMETRY);
    assert_int_equal(spirv_stage_of_model(1), DGPB_STAGE_HULL);
    assert_int_equal(spirv_stage_of_model(2), DGPB_STAGE_DOMAIN);
    assert_int_equal(spirv_stage_of_model(5267), -1); /* MeshNV: not Slang's */
}

static void lookups_and_release_accept_null(void **state)
{
    (void)state;
    spirv_info_free(NULL);
    assert_null(spirv_find_var(NULL, "x"));
    dgpb_spirv_info *info = analyze_fixture("store_and_read");
    assert_null(spirv_find_var(info, NULL));
    assert_null(spirv_find_var(info, "no_such_variable"));
    spirv_info_free(info);
}

static int op_analyze(void *arg)
{
    const support_bytes *sb = arg;
    dgpb_spirv_info *info = NULL;
    int rc = spirv_analyze(sb->bytes, sb->size, &info, NULL);
    if (rc == DGPB_ERR_NOMEM)
        assert_null(info);
    spirv_info_free(info);
    return rc;
}

static void every_failed_allocation_is_reported_as_out_of_memory(void **state)
{
    (void)state;
    static const char *const names[] = {"calls", "helpers", "coop_vec"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        support_bytes sb;
        sb.bytes = fixture(names[i], &sb.size);
        long n = support_run_with_faults(op_analyze, &sb, DGPB_OK, names[i]);
        dgpb_free(sb.bytes);
        assert_true(n > 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_stored_buffer_is_written_and_a_read_one_is_not),
        cmocka_unit_test(a_byte_address_store_writes_the_buffer),
        cmocka_unit_test(atomics_write_a_buffer_and_a_texture_through_a_texel_pointer),
        cmocka_unit_test(an_image_write_marks_only_the_written_image),
        cmocka_unit_test(writes_inside_called_functions_reach_the_variables),
        cmocka_unit_test(pointers_through_parameters_returns_selects_and_phis_are_followed),
        cmocka_unit_test(names_sets_and_bindings_match_slang_reflection),
        cmocka_unit_test(capabilities_are_read_sorted_and_unique),
        cmocka_unit_test(other_resources_of_capability_shaders_are_classified),
        cmocka_unit_test(a_module_too_new_for_spirv_tools_keeps_its_interface),
        cmocka_unit_test(an_unknown_opcode_is_left_out_and_the_rest_read),
        cmocka_unit_test(an_unknown_number_in_the_entry_point_gives_unsupported_with_capabilities),
        cmocka_unit_test(malformed_modules_are_refused_cleanly),
        cmocka_unit_test(entry_points_give_stages_and_local_sizes),
        cmocka_unit_test(lookups_and_release_accept_null),
        cmocka_unit_test(every_failed_allocation_is_reported_as_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
