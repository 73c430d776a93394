/*
 * tables/reflect_types.h - what a type of Slang's reflection JSON holds, for
 * tables/reflect.c's walk (internal).
 */
#ifndef DGPB_REFLECT_TYPES_H
#define DGPB_REFLECT_TYPES_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define reflect_is_subpass_input dgpb__reflect_is_subpass_input
#define reflect_holds_resources dgpb__reflect_holds_resources
#define reflect_holds_data dgpb__reflect_holds_data
#define reflect_holds_bool dgpb__reflect_holds_bool

#include <cjson/cJSON.h>
#include <stdbool.h>

/* Whether a type is Slang's SubpassInput: its implementation struct (Slang 2025.15), or a
   resource of base shape subpassInput (2026.16). */
bool reflect_is_subpass_input(const cJSON *t);
/* Whether a type holds anything but plain data (a resource, a sampler, a block). */
bool reflect_holds_resources(const cJSON *t, int depth);
/* Whether a type holds plain data (anything but resources, samplers and blocks). */
bool reflect_holds_data(const cJSON *t, int depth);
/* Whether a plain-data type holds a bool (WGSL allows none in a uniform block). */
bool reflect_holds_bool(const cJSON *t, int depth);

#endif
