/*
 * reflect_types.c - what a reflected type holds (tables/reflect_types.h):
 * resources, plain data, bools, or Slang's subpass input.
 */
#include "tables/reflect_types.h"

#include <string.h>

#include "tables/reflect_json.h"

/* Whether a type is Slang's SubpassInput (tables/reflect.c, add_subpass_input): its
   implementation struct (Slang 2025.15), or a resource of base shape subpassInput (2026.16). */
bool reflect_is_subpass_input(const cJSON *t)
{
    const char *name = reflect_get_str(t, "name");
    if (reflect_str_is(reflect_get_str(t, "kind"), "resource"))
        return reflect_str_is(reflect_get_str(t, "baseShape"), "subpassInput");
    return reflect_str_is(reflect_get_str(t, "kind"), "struct") && name &&
           !strncmp(name, "__SubpassImpl", 13);
}

/* Whether a type holds anything but plain data (a resource, a sampler, a block). */
bool reflect_holds_resources(const cJSON *t, int depth)
{
    const char *kind = reflect_get_str(t, "kind");
    if (!kind || depth > 64)
        return false;
    if (reflect_is_subpass_input(t))
        return true;
    if (!strcmp(kind, "struct")) {
        const cJSON *f;
        cJSON_ArrayForEach(f, reflect_get(t, "fields"))
        {
            if (reflect_holds_resources(reflect_get(f, "type"), depth + 1))
                return true;
        }
        return false;
    }
    if (!strcmp(kind, "array"))
        return reflect_holds_resources(reflect_get(t, "elementType"), depth + 1);
    return !strcmp(kind, "resource") || !strcmp(kind, "samplerState") ||
           !strcmp(kind, "constantBuffer") || !strcmp(kind, "parameterBlock") ||
           !strcmp(kind, "textureBuffer") || !strcmp(kind, "shaderStorageBuffer");
}

/* Whether a type holds plain data (anything but resources, samplers and blocks). */
bool reflect_holds_data(const cJSON *t, int depth)
{
    const char *kind = reflect_get_str(t, "kind");
    if (!kind || depth > 64)
        return false;
    if (!strcmp(kind, "struct")) {
        const cJSON *f;
        cJSON_ArrayForEach(f, reflect_get(t, "fields"))
        {
            if (reflect_holds_data(reflect_get(f, "type"), depth + 1))
                return true;
        }
        return false;
    }
    if (!strcmp(kind, "array"))
        return reflect_holds_data(reflect_get(t, "elementType"), depth + 1);
    return !reflect_holds_resources(t, depth);
}

bool reflect_holds_bool(const cJSON *t, int depth)
{
    const char *kind = reflect_get_str(t, "kind");
    if (!kind || depth > 64)
        return false;
    if (!strcmp(kind, "scalar"))
        return reflect_str_is(reflect_get_str(t, "scalarType"), "bool");
    if (!strcmp(kind, "vector") || !strcmp(kind, "matrix") || !strcmp(kind, "array"))
        return reflect_holds_bool(reflect_get(t, "elementType"), depth + 1);
    if (!strcmp(kind, "struct")) {
        const cJSON *f;
        cJSON_ArrayForEach(f, reflect_get(t, "fields"))
        {
            if (reflect_holds_bool(reflect_get(f, "type"), depth + 1))
                return true;
        }
    }
    return false;
}
