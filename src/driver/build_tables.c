/*
 * build_tables.c - the build's table stage (build_internal.h).
 *
 * build_make_tables turns each unit (one entry on one target) into what the
 * bundle carries for it: the SPIR-V validated, the bindings its code really
 * has (SPIR-V from its analysis, WGSL and PTX scanned), its parameter table
 * from Slang's reflection, the binding proof of that table against the code,
 * WebGPU's per-entry checks, and its capabilities (from its own code where
 * dgpb reads it, code/capabilities.h). Then the checks across
 * units: the places the entries of a render or ray-tracing group share mean
 * one thing, and every target of an entry has the same rows (a row its code
 * lacks there flagged `absent`).
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "code/code_format.h"
#include "core/alloc.h"
#include "driver/build_internal.h"
#include "scan/param_scopes.h"
#include "tables/binding_proof.h"
#include "code/capabilities.h"
#include "tables/webgpu_limits.h"

bool build_refuse_missing_types(build *b, int t, size_t e, const dgpb_spirv_info *spirv)
{
    const code_ops *ops = code_ops_of_target((dgpb_target_id)t);
    const char *what = spirv && ops->missing_type
                           ? ops->missing_type(spirv->capabilities, spirv->capability_count)
                           : NULL;
    const char *target = dgpb_target_name((uint32_t)t);
    if (what)
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target '%s', entry '%s': uses %s, which %s; limit the entry to other "
                     "targets with a DREAM_TARGET_* guard, or leave %s out of --targets",
                     target, b->entries[e].name, what, ops->missing_type_note, target);
    char binding[600];
    if (!what && spirv && ops->missing_binding &&
        ops->missing_binding(spirv, binding, sizeof binding)) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target '%s', entry '%s': %s; limit the entry to other targets with a "
                     "DREAM_TARGET_* guard, or leave %s out of --targets",
                     target, b->entries[e].name, binding, target);
        return true;
    }
    return what != NULL;
}

/*
 * Reads back the bindings of a unit's code through its code format's table
 * (code/code_format.h): SPIR-V from its analysis, WGSL and PTX by scanning
 * the text; formats without a reader read nothing. Code that does not parse,
 * from an entry whose SPIR-V uses a type the format does not have (Slang
 * writes `array<>` in WGSL for a buffer of int16_t), is refused naming the
 * type (build_refuse_missing_types). Only a failure is explained so: SPIR-V
 * also uses 16-bit integers where the WGSL does not (f32tof16).
 */
static int read_code_bindings(build *b, int t, size_t e, unit *u, code_read *out)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = code_ops_of_target((dgpb_target_id)t)
                 ->read_bindings(u->code, u->code_size, u->spirv, out, &d);
    if (out->wgsl) {
        u->wgsl = out->wgsl; /* kept for WebGPU's entry checks */
        out->wgsl = NULL;
    }
    if (rc && dgpb_result_class(rc) == DGPB_ERR_CORRUPT &&
        build_refuse_missing_types(b, t, e, u->spirv))
        return DGPB_ERR_SHADER;
    if (rc) {
        char context[600];
        snprintf(context, sizeof context,
                 "target '%s', entry '%s': reading the bindings of its code",
                 dgpb_target_name((uint32_t)t), b->entries[e].name);
        return build_forward(b, &d, context);
    }
    return DGPB_OK;
}

/*
 * A unit's capabilities (code/capabilities.h): from the features its own
 * code declares on spirv, wgsl and ptx; from its SPIR-V analysis probe on the
 * targets whose code dgpb does not read (docs/design.md, section 5).
 */
static int unit_capabilities(build *b, int t, size_t entry_index, unit *u)
{
    const entry *e = &b->entries[entry_index];
    dgpb_code_format format = target_code_format((uint32_t)t);
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc;
    if (code_ops_of(format)->reads_features) {
        rc = code_capabilities((dgpb_target_id)t, e->name, e->stage, format, u->code, u->code_size,
                               &u->caps, &d);
    } else {
        dgpb_code_features f = {0};
        dgpb_code_feature *items = NULL;
        if (u->spirv && u->spirv->capability_count &&
            !(items = mem_calloc(u->spirv->capability_count, sizeof *items))) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
            return DGPB_ERR_NOMEM;
        }
        for (size_t i = 0; items && i < u->spirv->capability_count; i++)
            items[f.count++].number = u->spirv->capabilities[i];
        f.items = items;
        dgpb_capability_input in = {.target = (dgpb_target_id)t,
                                    .entry = e->name,
                                    .stage = e->stage,
                                    .format = target_code_format((uint32_t)code_analysis_target()),
                                    .features = &f,
                                    .probe = true};
        rc = entry_capabilities(&in, &u->caps, &d);
        dgpb_free(items);
    }
    return rc ? build_forward(b, &d, NULL) : DGPB_OK;
}

/* One unit's table, proof, WebGPU entry checks and capabilities. */
static int make_unit_table(build *b, int t, size_t entry_index, const dgpb_param_scopes *scopes)
{
    unit *u = build_unit_at(b, t, entry_index);
    const entry *e = &b->entries[entry_index];
    dgpb_diag d;
    dgpb_diag_clear(&d);
    const code_ops *ops = code_ops_of_target((dgpb_target_id)t);
    uint32_t want = b->desc->spirv_version;
    uint32_t version = want && ops->spirv_version ? ops->spirv_version(u->code, u->code_size) : 0;
    if (version != want && ops->spirv_version) {
        /* --spirv-version proved: the code is of the version every SPIR-V compile asked for. */
        char have[16], asked[16];
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target '%s', entry '%s': Slang wrote SPIR-V %s, not the %s that "
                     "--spirv-version asks for (-profile %s)",
                     dgpb_target_name((uint32_t)t), e->name,
                     dgpb_spirv_version_text(version, have, sizeof have),
                     dgpb_spirv_version_text(want, asked, sizeof asked), b->options.spirv_profile);
        return DGPB_ERR_SHADER;
    }
    bool scalar = dgpb_block_layout_scalar(b->desc->block_layout);
    double since = build_now();
    int valid = ops->validate ? ops->validate(u->code, u->code_size, scalar, &d) : DGPB_OK;
    build_time_add(b, DGPB_PHASE_VALIDATE, since);
    if (valid == DGPB_ERR_UNSUPPORTED && d.severity == DGPB_SEV_WARNING &&
        b->desc->spirv_validation == DGPB_SPIRV_VALIDATION_ERROR) {
        /* --spirv-validation error: what the validator did not hold against the code fails. */
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                     "target '%s', entry '%s': %s (an error with --spirv-validation error)",
                     dgpb_target_name((uint32_t)t), e->name, d.message);
        return DGPB_ERR_SHADER;
    } else if (valid == DGPB_ERR_UNSUPPORTED && d.severity == DGPB_SEV_WARNING) {
        /* A validator older than the code, or code drivers take (docs/build.md, "Validation"). */
        build_report(b, DGPB_SEV_WARNING, valid, "target '%s', entry '%s': %s",
                     dgpb_target_name((uint32_t)t), e->name, d.message);
        dgpb_diag_clear(&d);
    } else if (valid) {
        char context[600];
        snprintf(context, sizeof context, "target '%s', entry '%s'", dgpb_target_name((uint32_t)t),
                 e->name);
        return build_forward(b, &d, context);
    }
    const char **members = mem_calloc(b->entry_count, sizeof *members);
    if (!members) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    size_t member_count = 0;
    for (size_t i = 0; i < b->entry_count; i++)
        if (b->entries[i].group == e->group)
            members[member_count++] = b->entries[i].name;
    code_read code = {0};
    int rc = read_code_bindings(b, t, entry_index, u, &code);
    dgpb_param_select select = {
        .target = (dgpb_target_id)t,
        .entry = e->name,
        .reflection = u->reflection,
        .spirv = u->spirv,
        .dream = b->generator_conventions,
        .group_entries = members,
        .group_entry_count = member_count,
        .code = code.have_bindings ? &code.bindings : NULL,
        .scopes = scopes,
        .spirv_reflection = u->probe_reflection ? u->probe_reflection
                            : u->spirv_shared
                                ? build_unit_at(b, code_analysis_target(), entry_index)->reflection
                                : NULL,
    };
    if (!rc && (rc = param_table_build(&select, &u->params, &d)))
        build_forward(b, &d, NULL);
    /* The proof: the table against the code it ships. */
    dgpb_proof_input proof = {.target = (dgpb_target_id)t,
                              .entry = e->name,
                              .table = &u->params,
                              .code = &code.bindings,
                              .ptx = code.ptx,
                              .scalar_blocks = dgpb_block_layout_scalar(b->desc->block_layout)};
    since = build_now();
    if (!rc && (code.have_bindings || code.ptx) && (rc = binding_proof_check(&proof, &d)))
        build_forward(b, &d, NULL);
    build_time_add(b, DGPB_PHASE_PROOF, since);
    if (!rc && ops->webgpu &&
        (rc = webgpu_check_entry(e->name, e->stage, e->thread_group_size, u->wgsl, &u->params,
                                 &d))) {
        char context[64];
        snprintf(context, sizeof context, "target '%s'", dgpb_target_name((uint32_t)t));
        build_forward(b, &d, context);
    }
    code_read_clear(&code);
    dgpb_free(members);
    if (rc)
        return rc;
    return unit_capabilities(b, t, entry_index, u);
}

/*
 * One pipeline holds every entry of a render or ray-tracing group, and a place
 * (a descriptor binding, the push-constant range, a pipeline constant's id)
 * means one thing to all of its stages. Slang places each entry's `uniform`
 * parameters in a range of its own that starts where the globals end, one
 * compile per entry, so two entries' parameters can land on one place: a
 * renderer's vertex and fragment stages that both take `uniform PushConsts pc`
 * share one push-constant range. Where their rows agree on what they share
 * (the same bytes of the same type, the same kind and shape of descriptor),
 * the place is one range or binding visible to both stages; where they
 * contradict, the group is refused naming both rows and the bytes or binding.
 */

/* The reflected parameter a row stands for: the same name, or an entry's parameter whose row
   is qualified by its entry ("<entry>.<name>", docs/format.md "Names"); NULL when none. */
static const dgpb_reflected_param *reflected_of(const unit *u, const char *entry_name,
                                                const dgpb_param_desc *row)
{
    size_t n = strlen(entry_name);
    for (size_t i = 0; i < u->reflection->param_count; i++) {
        const dgpb_reflected_param *p = &u->reflection->params[i];
        bool qualified = p->entry_param && !strncmp(row->name, entry_name, n) &&
                         row->name[n] == '.' && !strcmp(row->name + n + 1, p->name);
        if (qualified || !strcmp(p->name, row->name))
            return p;
    }
    return NULL;
}

/* A place's words for messages: "the push-constant bytes 0..16", "set 0, binding 2". */
static void place_text(const dgpb_param_desc *a, const dgpb_param_desc *c, char *buf, size_t n)
{
    if (a->kind == DGPB_KIND_VALUE && c->kind == DGPB_KIND_VALUE) {
        uint32_t lo = a->offset > c->offset ? a->offset : c->offset;
        uint32_t hi = a->offset + a->size < c->offset + c->size ? a->offset + a->size
                                                                : c->offset + c->size;
        if (a->space == DGPB_SPACE_LAUNCH)
            snprintf(buf, n, "the push-constant bytes %u..%u", lo, hi);
        else
            snprintf(buf, n, "the bytes %u..%u of the uniform block at set %u, binding %u", lo, hi,
                     a->space, a->binding);
    } else if (a->space == DGPB_SPACE_PIPELINE_CONSTANT) {
        snprintf(buf, n, "the pipeline constant %u", a->binding);
    } else {
        snprintf(buf, n, "set %u, binding %u", a->space, a->binding);
    }
}

/* A row as a message names it: "'tint' (float4, bytes 0..16)", "'palette' (buffer)". */
static void row_text(const unit *u, const char *entry_name, const dgpb_param_desc *row,
                     char *buf, size_t n)
{
    const dgpb_reflected_param *p = reflected_of(u, entry_name, row);
    if (row->kind == DGPB_KIND_VALUE)
        snprintf(buf, n, "'%s' (%s, bytes %u..%u)", row->name, p ? p->shape : "value",
                 row->offset, row->offset + row->size);
    else
        snprintf(buf, n, "'%s' (%s)", row->name, p ? p->shape : dgpb_kind_name(row->kind));
}

/* Whether two rows of one group's entries contradict each other at a place they share. */
static bool rows_contradict(const unit *ua, const char *ea, const dgpb_param_desc *a,
                            const unit *uc, const char *ec, const dgpb_param_desc *c)
{
    if (a->space != c->space || a->binding != c->binding || a->space == DGPB_SPACE_SHADER_RECORD)
        return false; /* (each shader of a group has a record of its own) */
    bool va = a->kind == DGPB_KIND_VALUE, vc = c->kind == DGPB_KIND_VALUE;
    if (va != vc) /* a block's values against a descriptor: a block's own buffer row is fine */
        return !(va ? c->kind == DGPB_KIND_UNIFORM_BUFFER : a->kind == DGPB_KIND_UNIFORM_BUFFER);
    if (!va) {
        if ((a->flags | c->flags) & DGPB_FLAG_SHARED_BINDING)
            return false; /* a texture and a sampler declared on one binding */
        return a->kind != c->kind || a->offset != c->offset ||
               (a->kind == DGPB_KIND_UNIFORM_BUFFER && a->size != c->size);
    }
    if (a->space == DGPB_SPACE_PIPELINE_CONSTANT)
        return a->size != c->size;
    if (!(a->offset < c->offset + c->size && c->offset < a->offset + a->size))
        return false; /* bytes of their own */
    if (a->offset != c->offset || a->size != c->size)
        return true;
    const dgpb_reflected_param *pa = reflected_of(ua, ea, a), *pc = reflected_of(uc, ec, c);
    return pa && pc && strcmp(pa->shape, pc->shape) != 0;
}

static void check_group_places(build *b)
{
    for (size_t g = 0; g < b->group_count; g++) {
        if (b->groups[g].kind == GROUP_COMPUTE)
            continue;
        for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
            bool refused = false;
            for (size_t e1 = 0; e1 < b->entry_count && !refused; e1++) {
                const unit *u1 = build_unit_at(b, t, e1);
                if (b->entries[e1].group != g || !u1->present || !u1->reflection)
                    continue;
                for (size_t e2 = e1 + 1; e2 < b->entry_count && !refused; e2++) {
                    const unit *u2 = build_unit_at(b, t, e2);
                    if (b->entries[e2].group != g || !u2->present || !u2->reflection)
                        continue;
                    const char *n1 = b->entries[e1].name, *n2 = b->entries[e2].name;
                    for (uint32_t i = 0; i < u1->params.count && !refused; i++)
                        for (uint32_t k = 0; k < u2->params.count && !refused; k++) {
                            const dgpb_param_desc *a = &u1->params.rows[i],
                                                  *c = &u2->params.rows[k];
                            if (!rows_contradict(u1, n1, a, u2, n2, c))
                                continue;
                            char place[128], ta[300], tc[300];
                            place_text(a, c, place, sizeof place);
                            row_text(u1, n1, a, ta, sizeof ta);
                            row_text(u2, n2, c, tc, sizeof tc);
                            build_report(
                                b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                                "target '%s', %s: entries '%s' and '%s' give %s two meanings, "
                                "%s against %s, in the one pipeline the group is; lay the "
                                "stages' parameters out alike (the same leading `uniform` "
                                "parameters, in the same order and of the same types), or "
                                "declare what they share as globals",
                                dgpb_target_name((uint32_t)t), b->groups[g].label, n1, n2, place,
                                ta, tc);
                            refused = true;
                        }
                }
            }
        }
    }
}

/*
 * A host's bind command carries a row index, the same for every target of an
 * entry (the generator makes one argument list per entry), so every target's
 * table lists the same rows, by name and kind, in the same order. Where a
 * DREAM_TARGET_* guard gives one target's code a parameter another's lacks,
 * the lacking target's table gets that row flagged `absent` (docs/format.md,
 * "Rows a target lacks"): the rows of the first target (in target order),
 * then each later target's own rows after the row that comes before them
 * there. Rows that two targets order differently, or give different kinds,
 * are refused: no one index could mean both.
 */

/* One row of the entry's rows on every target; name and kind borrowed from a table. */
typedef struct aligned_row {
    const char *name;
    uint32_t kind;
    int target; /* the first target that has it */
} aligned_row;

static long find_row(const aligned_row *rows, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return (long)i;
    return -1;
}

/* Merges target t's rows into `all` (room for every target's rows); false: refused. */
static bool merge_rows(build *b, size_t e, int t, aligned_row *all, size_t *n)
{
    const dgpb_param_table *p = &build_unit_at(b, t, e)->params;
    long last = -1;
    for (uint32_t r = 0; r < p->count; r++) {
        const dgpb_param_desc *row = &p->rows[r];
        long at = find_row(all, *n, row->name);
        const char *who = b->entries[e].name;
        if (at >= 0 && all[at].kind != row->kind) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': parameter '%s' is a %s on target '%s' and a %s on "
                         "target '%s', so a host's row %ld would mean two things; give it one "
                         "kind on every target, or another name where it differs",
                         who, row->name, dgpb_kind_name(all[at].kind),
                         dgpb_target_name((uint32_t)all[at].target), dgpb_kind_name(row->kind),
                         dgpb_target_name((uint32_t)t), at);
            return false;
        }
        if (at >= 0 && at <= last) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_SHADER,
                         "entry '%s': its rows come in another order on target '%s' ('%s' "
                         "after '%s') than on target '%s', so a host's row indices would "
                         "differ; declare the parameters in one order on every target",
                         who, dgpb_target_name((uint32_t)t), row->name, all[last].name,
                         dgpb_target_name((uint32_t)all[at].target));
            return false;
        }
        if (at < 0) {
            at = last + 1;
            memmove(&all[at + 1], &all[at], (*n - (size_t)at) * sizeof *all);
            all[at] = (aligned_row){row->name, row->kind, t};
            ++*n;
        }
        last = at;
    }
    return true;
}

/* Gives unit u the rows `all` in their order, absent where u lacks them. */
static int realign_table(dgpb_param_table *p, const aligned_row *all, size_t n)
{
    dgpb_param_desc *rows = mem_calloc(n, sizeof *rows);
    bool *in_code = mem_calloc(n, sizeof *in_code);
    bool *moved = mem_calloc(p->count ? p->count : 1, sizeof *moved);
    bool ok = rows && in_code && moved;
    for (size_t i = 0; ok && i < n; i++) {
        uint32_t r = 0;
        while (r < p->count && strcmp(p->rows[r].name, all[i].name))
            r++;
        if (r < p->count) {
            rows[i] = p->rows[r];
            in_code[i] = p->in_code[r];
            moved[r] = true;
        } else {
            char *name = mem_strdup(all[i].name);
            rows[i] = (dgpb_param_desc){.name = name, .kind = all[i].kind,
                                        .flags = DGPB_FLAG_ABSENT};
            ok = name != NULL;
        }
    }
    if (!ok) {
        for (size_t i = 0; rows && i < n; i++)
            if (rows[i].flags & DGPB_FLAG_ABSENT)
                dgpb_free((char *)rows[i].name);
        dgpb_free(rows);
        dgpb_free(in_code);
        dgpb_free(moved);
        return DGPB_ERR_NOMEM;
    }
    dgpb_free(p->rows); /* every name moved into `rows` */
    dgpb_free(p->in_code);
    dgpb_free(moved);
    p->rows = rows;
    p->in_code = in_code;
    p->count = (uint32_t)n;
    return DGPB_OK;
}

static int align_rows(build *b)
{
    for (size_t e = 0; e < b->entry_count; e++) {
        size_t room = 0, n = 0;
        int first = -1;
        bool alike = true;
        for (int t = 0; t < DGPB_TARGET_COUNT; t++) {
            const unit *u = build_unit_at(b, t, e);
            if (!u->present)
                continue;
            room += u->params.count;
            if (first < 0) {
                first = t;
                continue;
            }
            const dgpb_param_table *a = &build_unit_at(b, first, e)->params, *c = &u->params;
            alike = alike && a->count == c->count;
            for (uint32_t r = 0; alike && r < a->count; r++)
                alike = a->rows[r].kind == c->rows[r].kind &&
                        !strcmp(a->rows[r].name, c->rows[r].name);
        }
        if (alike)
            continue;
        aligned_row *all = mem_calloc(room, sizeof *all);
        if (!all) {
            build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
            return DGPB_ERR_NOMEM;
        }
        bool merged = true;
        for (int t = 0; t < DGPB_TARGET_COUNT && merged; t++)
            if (build_unit_at(b, t, e)->present)
                merged = merge_rows(b, e, t, all, &n);
        int rc = DGPB_OK;
        for (int t = 0; t < DGPB_TARGET_COUNT && merged && !rc; t++) {
            unit *u = build_unit_at(b, t, e);
            if (u->present && u->params.count != n)
                rc = realign_table(&u->params, all, n);
        }
        dgpb_free(all);
        if (rc) {
            build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
            return rc;
        }
    }
    return DGPB_OK;
}

/* Makes every unit's table, reporting every module error; running out of memory stops it. */
int build_make_tables(build *b)
{
    assert(b && b->units && !b->errors);
    /* The namespaces of the module's parameters, for rows that would share a name. */
    dgpb_param_scopes scopes = {0};
    if (b->source && param_scopes_scan(b->source, b->source_len, &scopes)) {
        build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
        return DGPB_ERR_NOMEM;
    }
    int rc = DGPB_OK;
    for (int t = 0; t < DGPB_TARGET_COUNT && !rc; t++)
        for (size_t e = 0; e < b->entry_count && !rc; e++)
            if (build_unit_at(b, t, e)->present &&
                make_unit_table(b, t, e, b->source ? &scopes : NULL) == DGPB_ERR_NOMEM)
                rc = DGPB_ERR_NOMEM;
    param_scopes_free(&scopes);
    if (rc)
        return rc;
    check_group_places(b);
    if (!b->errors && (rc = align_rows(b)))
        return rc;
    return b->errors ? DGPB_ERR_SHADER : DGPB_OK;
}
