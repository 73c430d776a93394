/*
 * code_bindings.c - the bindings a unit's code declares (code/code_bindings.h):
 * their classes' names, clearing a list, finding a row's binding. Each code
 * format reads its own (code/spirv/spirv_bindings.c, code/wgsl/wgsl_bindings.c).
 */
#include "code/code_bindings.h"

#include <ctype.h>
#include <string.h>

#include "core/alloc.h"
#include "dgpb/format.h"

static const char *const class_names[DGPB_CODE_CLASS_COUNT] = {
    "uniform buffer",         "push-constant block",
    "storage buffer",         "sampled texture",
    "depth texture",          "multisampled texture",
    "storage texture",        "sampler",
    "comparison sampler",     "combined texture-sampler",
    "uniform texel buffer",   "storage texel buffer",
    "acceleration structure", "input attachment",
    "pipeline constant",      "shader record", "resource",
};

const char *code_class_name(uint32_t cls)
{
    return cls < DGPB_CODE_CLASS_COUNT ? class_names[cls] : "resource";
}

void code_bindings_clear(dgpb_code_bindings *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->owned_count; i++)
        dgpb_free(b->owned[i]);
    dgpb_free(b->owned);
    dgpb_free(b->items);
    memset(b, 0, sizeof *b);
}

/*
 * Whether the WGSL name `name` spells the path `path`: the path with '_' for
 * '.', then '_' and one or more digits, and nothing else.
 */
static bool wgsl_spells(const char *name, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < n; i++) {
        char want = path[i] == '.' ? '_' : path[i];
        if (name[i] != want)
            return false;
    }
    if (name[n] != '_' || !isdigit((unsigned char)name[n + 1]))
        return false;
    for (const char *p = name + n + 1; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

const dgpb_code_binding *code_bindings_find(const dgpb_code_bindings *b, const char *path,
                                            bool *ambiguous)
{
    *ambiguous = false;
    for (size_t i = 0; i < b->count; i++)
        if (!strcmp(b->items[i].name, path))
            return &b->items[i];
    const dgpb_code_binding *found = NULL;
    for (size_t i = 0; i < b->count; i++) {
        if (!b->items[i].detail || !wgsl_spells(b->items[i].name, path))
            continue;
        if (found) {
            *ambiguous = true;
            return NULL;
        }
        found = &b->items[i];
    }
    return found;
}

const dgpb_code_binding *code_bindings_find_at(const dgpb_code_bindings *b, const char *path,
                                               int64_t space, int64_t binding)
{
    for (size_t i = 0; i < b->count; i++) {
        const dgpb_code_binding *c = &b->items[i];
        if (c->space == space && c->binding == binding &&
            (!strcmp(c->name, path) || (c->detail && wgsl_spells(c->name, path))))
            return c;
    }
    return NULL;
}

const dgpb_code_binding *code_bindings_pair_sampler(const dgpb_code_bindings *b,
                                                    const dgpb_code_binding *texture)
{
    for (size_t i = 0; i < b->count; i++) {
        const dgpb_code_binding *c = &b->items[i];
        if (c->space == texture->space && c->binding == texture->binding + 1 &&
            (c->cls == DGPB_CODE_SAMPLER || c->cls == DGPB_CODE_COMPARISON_SAMPLER))
            return c;
    }
    return NULL;
}
