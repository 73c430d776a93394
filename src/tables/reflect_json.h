/*
 * tables/reflect_json.h - the small readers of Slang's reflection JSON that
 * tables/reflect.c uses: typed keys, and a type spelled as Slang spells it
 * for messages (internal).
 */
#ifndef DGPB_REFLECT_JSON_H
#define DGPB_REFLECT_JSON_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define reflect_get dgpb__reflect_get
#define reflect_get_str dgpb__reflect_get_str
#define reflect_get_u32 dgpb__reflect_get_u32
#define reflect_str_is dgpb__reflect_str_is
#define reflect_value_type_text dgpb__reflect_value_type_text
#define reflect_shape_base dgpb__reflect_shape_base
#define reflect_writable_access dgpb__reflect_writable_access
#define reflect_shape_text dgpb__reflect_shape_text
#define reflect_texture_shape dgpb__reflect_texture_shape
#define reflect_scalar_bytes dgpb__reflect_scalar_bytes
#define reflect_element_stride dgpb__reflect_element_stride

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The member `key` of an object, or NULL. */
const cJSON *reflect_get(const cJSON *o, const char *key);
/* The string member `key`, or NULL. */
const char *reflect_get_str(const cJSON *o, const char *key);
/* The number member `key` when it fits 32 bits unsigned. */
bool reflect_get_u32(const cJSON *o, const char *key, uint32_t *out);
bool reflect_str_is(const char *s, const char *lit);
/* A value type as Slang spells it: float, uint2, float3x4, MyStruct. */
void reflect_value_type_text(const cJSON *t, char *buf, size_t n);
/* A resource's base shape ("structuredBuffer") as Slang spells the type ("StructuredBuffer"). */
const char *reflect_shape_base(const char *base_shape);
/* Whether a resource access ("read", "readWrite", ...) writes. */
bool reflect_writable_access(const char *access);
/* The readable shape of a parameter's type: RWTexture2D<uint>, ConstantBuffer<S>, T[3]. */
void reflect_shape_text(const cJSON *t, char *buf, size_t n);

/*
 * A texture's shape word as the reflection tells it (dgpb/format.h): its
 * dimension, arrayed, multisampled, sample type (from its element type) and,
 * for a storage texture, its access and the format Slang names (`p`'s
 * "format"); a texel buffer (Buffer<T>, RWBuffer<T>) likewise, of dimension
 * buffer (Slang 2025.15 writes no element type for it: its sample type is
 * then the code's). The code states the rest, depth and comparison, and its
 * texel format wins (tables/params.c). 0 for anything but a texture.
 */
uint32_t reflect_texture_shape(const cJSON *p, const cJSON *t);
/* A scalar type's bytes ("float16": 2, "uint64": 8, bool: 4); 0 for none. */
uint32_t reflect_scalar_bytes(const char *scalar);
/* The element stride of a structured buffer type `t` on the target: std430 on spirv, WGSL's
   storage rules on wgsl, CUDA's layout on ptx (`ptx`), every type aligned to its scalar
   with `scalar` (spirv's scalar block layouts, dgpb_block_layout_scalar()); 0 when not
   known. */
uint32_t reflect_element_stride(const cJSON *t, bool ptx, bool scalar);

#endif
