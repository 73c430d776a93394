/*
 * build_emit.c - the build's last stage (build_internal.h).
 *
 * build_emit puts the units and layouts into a bundle model (a target left
 * with no entries is left out), has the writer turn it into DGPB v0 bytes,
 * reads the bytes back (every SHA-256 verified) for the JSON view, then
 * writes <stem>.dgpb and <stem>.bundle.json (and the depfile, with -MD/-MF,
 * and the C header <stem>.h, with --emit-header) as one output unit, all new or all as they were (dgpb_file_unit_write),
 * files the build in the compile cache, and fills in the result's summary from what the writer reports it stored.
 * dgpb_build_output_names() (dgpb/build.h) names the folder and stem it writes.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/text_escape.h"
#include "driver/build_internal.h"
#include "io/depfile.h"
#include "dgpb/file_unit.h"
#include "dgpb/fileio.h"
#include "dgpb/json_view.h"
#include "bundle/model.h"
#include "dgpb/reader.h"
#include "header/c_header.h"
#include "bundle/writer.h"
#include "code/capabilities.h"

/* Adds the present units of target `t` to the model's target `target_index`. */
static int add_units(build *b, dgpb_model *m, int t, uint32_t target_index, dgpb_diag *diag)
{
    int rc = DGPB_OK;
    for (size_t e = 0; e < b->entry_count && !rc; e++) {
        const unit *u = build_unit_at(b, t, e);
        if (!u->present)
            continue;
        const char *caps[DGPB_CAP_COUNT];
        uint32_t cap_count = 0;
        for (uint32_t c = 0; c < DGPB_CAP_COUNT; c++)
            if (u->caps & (UINT64_C(1) << c))
                caps[cap_count++] = dgpb_capability_name(c);
        dgpb_entry_desc desc = {
            .name = b->entries[e].name,
            .stage = dgpb_stage_name(b->entries[e].stage),
            .layout = u->layout,
            .code = u->code,
            .code_size = u->code_size,
            .params = u->params.rows,
            .param_count = u->params.count,
            .capabilities = caps,
            .capability_count = cap_count,
        };
        if (dgpb_stage_has_thread_group(b->entries[e].stage))
            memcpy(desc.thread_group_size, b->entries[e].thread_group_size,
                   sizeof desc.thread_group_size);
        rc = model_add_entry(m, target_index, &desc, diag);
    }
    return rc;
}

static const char *code_format(const build *b, int t)
{
    if (target_has_final((uint32_t)t) && b->metallib)
        return dgpb_code_format_name(target_final_format((uint32_t)t));
    return dgpb_code_format_name(target_code_format((uint32_t)t));
}

/*
 * The model of the bundle: the project options that differ from their defaults
 * (its options record), then every target with entries, its layouts, then its
 * entries.
 */
static int make_model(build *b, dgpb_model *m, dgpb_diag *diag)
{
    const build_options *o = &b->options;
    int rc = DGPB_OK;
    if (b->desc->matrix_layout == DGPB_MATRIX_LAYOUT_COLUMN)
        rc = model_set_option(m, DGPB_OPTION_MATRIX_LAYOUT, "column", diag);
    if (!rc && o->spirv_text[0])
        rc = model_set_option(m, DGPB_OPTION_SPIRV_VERSION, o->spirv_text, diag);
    if (!rc && o->cap_count)
        rc = model_set_option(m, DGPB_OPTION_SLANG_CAPABILITIES, o->caps_text, diag);
    if (!rc && b->desc->block_layout != DGPB_BLOCK_LAYOUT_DEFAULT)
        rc = model_set_option(m, DGPB_OPTION_BLOCK_LAYOUT,
                              dgpb_block_layout_name(b->desc->block_layout), diag);
    if (!rc && b->desc->optimization != DGPB_OPTIMIZATION_DEFAULT)
        rc = model_set_option(m, DGPB_OPTION_OPTIMIZATION,
                              dgpb_optimization_level(b->desc->optimization), diag);
    if (!rc && b->desc->debug_info != DGPB_DEBUG_INFO_NONE)
        rc = model_set_option(m, DGPB_OPTION_DEBUG_INFO,
                              dgpb_debug_info_level(b->desc->debug_info), diag);
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++) {
        bool any = false;
        for (size_t e = 0; e < b->entry_count; e++)
            any |= build_unit_at(b, t, e)->present;
        if (!any)
            continue; /* a target left with no entries is left out */
        uint32_t target_index;
        rc = model_add_target(m, dgpb_target_name((uint32_t)t), code_format(b, t), &target_index,
                              diag);
        for (uint32_t i = 0; !rc && i < b->layouts[t].count; i++)
            rc = model_add_layout(m, target_index, b->layouts[t].blobs[i], b->layouts[t].sizes[i],
                                  NULL, diag);
        if (!rc)
            rc = add_units(b, m, t, target_index, diag);
    }
    return rc;
}

/* The bundle's name in desc->bundle_file: after its last '/', *len bytes before ".dgpb". */
static const char *bundle_file_name(const dgpb_build_desc *desc, size_t *len)
{
    const char *slash = strrchr(desc->bundle_file, '/');
    const char *name = slash ? slash + 1 : desc->bundle_file;
    size_t n = strlen(name);
    *len = n >= 5 && !strcmp(name + n - 5, ".dgpb") ? n - 5 : n;
    return name;
}

int build_check_output_names(build *b)
{
    const dgpb_build_desc *desc = b->desc;
    if (!desc->bundle_file)
        return DGPB_OK;
    size_t len;
    const char *name = bundle_file_name(desc, &len);
    const char *why = NULL;
    if (len == strlen(name) || len == 0)
        why = "it names no bundle: a bundle's file is NAME.dgpb";
    else if (desc->out_dir && *desc->out_dir)
        why = "an output folder is given too";
    else if (desc->module_path)
        why = "a module path, which names the stem too, is given too";
    if (!why)
        return DGPB_OK;
    build_report(b, DGPB_SEV_ERROR, DGPB_ERR_INVALID,
                 "the bundle's file '%s' cannot be written: %s", desc->bundle_file, why);
    return DGPB_ERR_INVALID;
}

/* The stem of desc's outputs (build_output_stem(), dgpb_build_output_names()). */
static void desc_output_stem(const dgpb_build_desc *desc, char *stem, size_t size)
{
    if (desc->bundle_file) { /* -o NAME.dgpb: NAME */
        size_t len;
        const char *name = bundle_file_name(desc, &len);
        snprintf(stem, size, "%.*s", (int)len, name);
        return;
    }
    const char *slash = strrchr(desc->module_file, '/');
    const char *base = slash ? slash + 1 : desc->module_file;
    char module_path[1024];
    snprintf(module_path, sizeof module_path, "%s", base);
    size_t len = strlen(module_path);
    if (len > 6 && !strcmp(module_path + len - 6, ".slang"))
        module_path[len - 6] = 0;
    dgpb_stem_from_module_path(desc->module_path ? desc->module_path : module_path, stem, size);
}

void build_output_stem(const build *b, char *stem, size_t size)
{
    desc_output_stem(b->desc, stem, size);
}

/*
 * The output folder: the folder of -o NAME.dgpb, -o DIR (its trailing slashes
 * dropped), the module's folder, or "."; *dir_len bytes of *dir (0 for a
 * module or bundle in '/').
 */
static void desc_output_folder(const dgpb_build_desc *desc, const char **dir, size_t *dir_len)
{
    const char *slash = strrchr(desc->module_file, '/');
    if (desc->bundle_file) {
        const char *last = strrchr(desc->bundle_file, '/');
        *dir = last ? desc->bundle_file : ".";
        *dir_len = last ? (size_t)(last - desc->bundle_file) : 1;
    } else if (desc->out_dir && *desc->out_dir) {
        *dir = desc->out_dir;
        *dir_len = strlen(*dir);
        while (*dir_len > 1 && (*dir)[*dir_len - 1] == '/')
            (*dir_len)--;
    } else if (slash) {
        *dir = desc->module_file;
        *dir_len = (size_t)(slash - *dir);
    } else {
        *dir = ".";
        *dir_len = 1;
    }
}

void dgpb_build_output_names(const dgpb_build_desc *desc, char *folder, size_t folder_size,
                             char *stem, size_t stem_size)
{
    assert(desc && desc->module_file && folder && folder_size && stem && stem_size);
    const char *dir;
    size_t dir_len;
    desc_output_folder(desc, &dir, &dir_len);
    snprintf(folder, folder_size, "%.*s", (int)dir_len, dir_len ? dir : "/");
    desc_output_stem(desc, stem, stem_size);
}

/* The output unit of <stem>: its journal, "<folder>/.<stem>.dgpb-journal" (docs/build.md). */
static int output_unit(const build *b, const char *stem, char *journal, size_t size,
                       dgpb_file_unit *files, dgpb_diag *diag)
{
    const char *dir;
    size_t dir_len;
    desc_output_folder(b->desc, &dir, &dir_len);
    const char *sep = dir_len && dir[dir_len - 1] == '/' ? "" : "/";
    int n = snprintf(journal, size, "%.*s%s.%s.dgpb-journal", (int)dir_len, dir, sep, stem);
    if (n < 0 || (size_t)n >= size)
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "the output path '%s' is longer than %zu bytes", journal, size - 1);
    *files = (dgpb_file_unit){.journal = journal, .cancel = b->desc->cancel};
    return DGPB_OK;
}

int build_recover_outputs(build *b)
{
    char stem[1024], journal[4200];
    build_output_stem(b, stem, sizeof stem);
    dgpb_file_unit files;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = output_unit(b, stem, journal, sizeof journal, &files, &d);
    if (!rc)
        rc = dgpb_file_unit_recover(&files, &d);
    return rc ? build_forward(b, &d, NULL) : DGPB_OK;
}

/* "<dir><sep><stem><ext>" into buf; false when it does not fit. */
static bool output_path(char *buf, size_t size, const char *dir, size_t dir_len, const char *sep,
                        const char *stem, const char *ext)
{
    int n = snprintf(buf, size, "%.*s%s%s%s", (int)dir_len, dir, sep, stem, ext);
    return n >= 0 && (size_t)n < size;
}

/* The C header of the bundle `bytes` (desc->emit_header): made from the bundle alone. */
static int make_header(const uint8_t *bytes, size_t size, const char *stem, char **header,
                       dgpb_diag *diag)
{
    dgpb_bundle *bundle = NULL;
    int rc = dgpb_bundle_open(bytes, size, 0, &bundle, diag);
    if (!rc)
        rc = c_header_make(bundle, stem, header, diag);
    dgpb_bundle_close(bundle);
    return rc;
}

/*
 * The message for a path the depfile cannot hold so that both Make and Ninja
 * read it back (depfile_unwritable): the path and the byte, escaped.
 */
static int refuse_depfile_path(const char *path, dgpb_diag *diag)
{
    long at = depfile_unwritable(path);
    unsigned char c = at >= 0 ? (unsigned char)path[at] : 0;
    char what[64];
    if (c == ':')
        snprintf(what, sizeof what, "a ':' at its end");
    else if (c == '\\' && !path[at + 1])
        snprintf(what, sizeof what, "a backslash at its end");
    else if (c == '\\')
        snprintf(what, sizeof what, "a backslash before 0x%02x", (unsigned char)path[at + 1]);
    else if (c == '~')
        snprintf(what, sizeof what, "a '~' first");
    else if (c == ')')
        snprintf(what, sizeof what, "a ')' last after a '(' (an archive member to Make)");
    else if (c > 0x20 && c < 0x7F)
        snprintf(what, sizeof what, "'%c'", c);
    else
        snprintf(what, sizeof what, "the byte 0x%02x", c);
    char *shown = text_escaped(path);
    int rc = dgpb_diag_set(diag, DGPB_ERR_INVALID, -1,
                           "the depfile cannot name '%s' so that Make and Ninja both read it: "
                           "it holds %s (docs/build.md, \"Depfile\"); write no depfile or "
                           "rename it",
                           shown ? shown : path, what);
    dgpb_free(shown);
    return rc;
}

/*
 * Writes the bundle, its view, (desc->depfile) the depfile and
 * (desc->emit_header) the C header into the output folder (-o DIR, created
 * if missing, or the module's folder; the depfile where desc->depfile_path
 * says) as one unit: all new or all as they were, under the folder's lock
 * (dgpb_file_unit_write); their paths go to the result.
 */
int build_write_outputs(build *b, const char *stem, const uint8_t *bytes, size_t size,
                        const char *json, dgpb_diag *diag)
{
    const dgpb_build_desc *desc = b->desc;
    const char *dir;
    size_t dir_len;
    desc_output_folder(b->desc, &dir, &dir_len);
    if (desc->out_dir && *desc->out_dir && !desc->bundle_file) {
        int rc = dgpb_mkdirs(desc->out_dir, diag);
        if (rc)
            return rc;
    } else if (desc->bundle_file && dir_len) { /* -o NAME.dgpb: its folder */
        char *folder = mem_printf("%.*s", (int)dir_len, dir);
        int rc = folder ? dgpb_mkdirs(folder, diag)
                        : dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        dgpb_free(folder);
        if (rc)
            return rc;
    }
    const char *sep = dir_len && dir[dir_len - 1] == '/' ? "" : "/";
    if (desc->bundle_file && !strchr(desc->bundle_file, '/'))
        dir_len = 0, sep = ""; /* -o NAME.dgpb: the outputs named as given, not ./NAME.dgpb */
    dgpb_build_result *r = b->result;
    r->depfile_path[0] = r->header_path[0] = 0;
    if (!output_path(r->bundle_path, sizeof r->bundle_path, dir, dir_len, sep, stem, ".dgpb") ||
        !output_path(r->json_path, sizeof r->json_path, dir, dir_len, sep, stem, ".bundle.json") ||
        (desc->emit_header &&
         !output_path(r->header_path, sizeof r->header_path, dir, dir_len, sep, stem, ".h")))
        return dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                             "the output path '%.*s%s%s.bundle.json' is "
                             "longer than %zu bytes",
                             (int)dir_len, dir, sep, stem, sizeof r->json_path - 1);
    const char *paths[4] = {r->bundle_path, r->json_path};
    const void *data[4] = {bytes, json};
    size_t sizes[4] = {size, strlen(json)};
    size_t count = 2;
    char *depfile = NULL, *header = NULL;
    if (desc->emit_header) {
        int rc = make_header(bytes, size, stem, &header, diag);
        if (rc) {
            r->header_path[0] = 0;
            return rc;
        }
        paths[count] = r->header_path;
        data[count] = header;
        sizes[count++] = strlen(header);
    }
    if (desc->depfile) {
        int n = desc->depfile_path
                    ? snprintf(r->depfile_path, sizeof r->depfile_path, "%s", desc->depfile_path)
                    : snprintf(r->depfile_path, sizeof r->depfile_path, "%.*s%s%s.d", (int)dir_len,
                               dir, sep, stem);
        const char **deps = n < 0 || (size_t)n >= sizeof r->depfile_path
                                ? NULL
                                : mem_calloc(b->dep_count + 1, sizeof *deps);
        int rc = DGPB_OK;
        if (n < 0 || (size_t)n >= sizeof r->depfile_path)
            rc = dgpb_diag_set(diag, DGPB_ERR_LIMIT, -1,
                               "the depfile's path is longer than %zu bytes",
                               sizeof r->depfile_path - 1);
        else if (!deps)
            rc = dgpb_diag_set(diag, DGPB_ERR_NOMEM, -1, "out of memory");
        if (!rc) {
            deps[0] = desc->module_file;
            for (size_t i = 0; i < b->dep_count; i++)
                deps[i + 1] = b->deps[i];
            /* every output a build system waits for: the bundle, its view, the header */
            const char *targets[3] = {r->bundle_path, r->json_path, r->header_path};
            const char *refused = NULL;
            rc = depfile_make(targets, desc->emit_header ? 3 : 2, deps, b->dep_count + 1, 1,
                              &refused, &depfile);
            if (rc == DGPB_ERR_INVALID)
                refuse_depfile_path(refused, diag);
            else if (rc)
                dgpb_diag_set(diag, rc, -1, "out of memory");
            dgpb_free(deps);
        }
        if (rc) {
            dgpb_free(header);
            r->depfile_path[0] = r->header_path[0] = 0;
            return rc;
        }
        paths[count] = r->depfile_path;
        data[count] = depfile;
        sizes[count++] = strlen(depfile);
    }
    char journal[4200];
    dgpb_file_unit files;
    int rc = output_unit(b, stem, journal, sizeof journal, &files, diag);
    if (!rc)
        rc = dgpb_file_unit_write(&files, count, paths, data, sizes, diag);
    dgpb_free(depfile);
    dgpb_free(header);
    if (rc)
        r->depfile_path[0] = r->header_path[0] = 0;
    return rc;
}

int build_emit(build *b)
{
    assert(b && b->units && b->entry_count > 0 && !b->errors);
    if (b->desc->depfile && b->deps_incomplete)
        build_report(b, DGPB_SEV_WARNING, DGPB_OK,
                     "the compiler wrote no depfile for some compiles: the depfile lists "
                     "only the files of those that did");
    if (b->errors) /* --warnings-as-errors */
        return DGPB_ERR_SHADER;
    dgpb_diag diag;
    dgpb_diag_clear(&diag);
    dgpb_model *m = NULL;
    uint8_t *bytes = NULL;
    size_t size = 0;
    dgpb_write_stats stats;
    char *json = NULL;
    dgpb_bundle *bundle = NULL;
    int rc = model_create(&m);
    if (rc)
        dgpb_diag_set(&diag, rc, -1, "out of memory");
    if (!rc)
        rc = make_model(b, m, &diag);
    if (!rc)
        rc = bundle_write_ex(m, &bytes, &size, &stats, &diag);
    /* Read back what was written: the JSON view comes from the bytes, and a bundle the
       reader rejects is never written. */
    if (!rc)
        rc = dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &bundle, &diag);
    /* The proof of its capabilities: each entry's, against the code it ships. */
    if (!rc)
        rc = capability_proof(bundle, &diag);
    char stem[1024];
    build_output_stem(b, stem, sizeof stem);
    if (!rc)
        rc = dgpb_json_view(bundle, stem, &json, &diag);
    if (!rc)
        rc = build_write_outputs(b, stem, bytes, size, json, &diag);
    if (rc) {
        build_forward(b, &diag, NULL);
        b->result->bundle_path[0] = b->result->json_path[0] = 0;
    } else {
        b->result->bundle_size = size;
        b->result->target_count = dgpb_bundle_target_count(bundle);
        b->result->entry_count = (uint32_t)b->entry_count;
        b->result->blob_count = stats.code_blob_count;
        build_cache_keep(b, bytes, size, json);
    }
    dgpb_bundle_close(bundle);
    dgpb_free(json);
    dgpb_free(bytes);
    model_destroy(m);
    return rc;
}
