/*
 * reflect_json.c - the small readers of Slang's reflection JSON that the row
 * walk (reflect.c) uses: keys, and types spelled as Slang spells them
 * (tables/reflect_json.h).
 */
#include "tables/reflect_json.h"

#include <stdio.h>
#include <string.h>

#include "dgpb/format.h"

const cJSON *reflect_get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

const char *reflect_get_str(const cJSON *o, const char *key)
{
    const cJSON *v = reflect_get(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool reflect_get_u32(const cJSON *o, const char *key, uint32_t *out)
{
    const cJSON *v = reflect_get(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

bool reflect_str_is(const char *s, const char *lit)
{
    return s && strcmp(s, lit) == 0;
}

/* A readable Slang spelling of a value type: float, uint2, float3x4, MyStruct. */
void reflect_value_type_text(const cJSON *t, char *buf, size_t n)
{
    static const struct {
        const char *json, *slang;
    } scalars[] = {{"float32", "float"}, {"float16", "half"},    {"float64", "double"},
                   {"uint32", "uint"},   {"int32", "int"},       {"uint64", "uint64_t"},
                   {"int64", "int64_t"}, {"uint16", "uint16_t"}, {"int16", "int16_t"},
                   {"uint8", "uint8_t"}, {"int8", "int8_t"},     {"bool", "bool"}};
    const char *kind = reflect_get_str(t, "kind");
    if (reflect_str_is(kind, "scalar")) {
        const char *s = reflect_get_str(t, "scalarType");
        for (size_t i = 0; s && i < sizeof scalars / sizeof scalars[0]; i++)
            if (!strcmp(s, scalars[i].json)) {
                snprintf(buf, n, "%s", scalars[i].slang);
                return;
            }
        snprintf(buf, n, "%s", s ? s : "scalar");
    } else if (reflect_str_is(kind, "vector") || reflect_str_is(kind, "matrix")) {
        char elem[64];
        reflect_value_type_text(reflect_get(t, "elementType"), elem, sizeof elem);
        uint32_t a = 0, b = 0;
        if (reflect_str_is(kind, "vector") && reflect_get_u32(t, "elementCount", &a))
            snprintf(buf, n, "%s%u", elem, a);
        else if (reflect_get_u32(t, "rowCount", &a) && reflect_get_u32(t, "columnCount", &b))
            snprintf(buf, n, "%s%ux%u", elem, a, b);
        else
            snprintf(buf, n, "%s", elem);
    } else if (reflect_get_str(t, "name")) {
        snprintf(buf, n, "%s", reflect_get_str(t, "name"));
    } else {
        snprintf(buf, n, "%s", kind ? kind : "?");
    }
}

/* Resource shape names as Slang spells the types. */
const char *reflect_shape_base(const char *base_shape)
{
    static const struct {
        const char *json, *slang;
    } shapes[] = {
        {"structuredBuffer", "StructuredBuffer"},
        {"byteAddressBuffer", "ByteAddressBuffer"},
        {"texture1D", "Texture1D"},
        {"texture2D", "Texture2D"},
        {"texture3D", "Texture3D"},
        {"textureCube", "TextureCube"},
        {"textureBuffer", "Buffer"},
        {"accelerationStructure", "RaytracingAccelerationStructure"},
    };
    for (size_t i = 0; base_shape && i < sizeof shapes / sizeof shapes[0]; i++)
        if (!strcmp(base_shape, shapes[i].json))
            return shapes[i].slang;
    return base_shape ? base_shape : "resource";
}

bool reflect_writable_access(const char *access)
{
    return access && strcmp(access, "read") != 0;
}

/* The readable shape of a parameter's type, for messages and the JSON problem text. */
void reflect_shape_text(const cJSON *t, char *buf, size_t n)
{
    const char *kind = reflect_get_str(t, "kind");
    if (reflect_str_is(kind, "resource")) {
        const char *base = reflect_get_str(t, "baseShape");
        const char *access = reflect_get_str(t, "access");
        bool array = cJSON_IsTrue(reflect_get(t, "array"));
        bool ms = cJSON_IsTrue(reflect_get(t, "multisample"));
        char result[64] = "";
        const cJSON *rt = reflect_get(t, "resultType");
        if (rt && !reflect_str_is(base, "byteAddressBuffer") &&
            !reflect_str_is(base, "accelerationStructure")) {
            char inner[60];
            reflect_value_type_text(rt, inner, sizeof inner);
            snprintf(result, sizeof result, "<%s>", inner);
        }
        const char *prefix = reflect_str_is(access, "append")    ? "Append"
                             : reflect_str_is(access, "consume") ? "Consume"
                             : reflect_writable_access(access)   ? "RW"
                                                                 : "";
        const char *name = reflect_shape_base(base);
        if (cJSON_IsTrue(reflect_get(t, "combined")) && !strncmp(name, "Texture", 7)) {
            /* A combined texture-sampler as Slang spells it: Sampler2D is Sampler2D<float4>. */
            snprintf(buf, n, "Sampler%s%s%s%s", name + 7, ms ? "MS" : "", array ? "Array" : "",
                     strcmp(result, "<float4>") ? result : "");
            return;
        }
        snprintf(buf, n, "%s%s%s%s%s", prefix, name, ms ? "MS" : "", array ? "Array" : "", result);
    } else if (reflect_str_is(kind, "constantBuffer")) {
        char inner[64];
        reflect_value_type_text(reflect_get(t, "elementType"), inner, sizeof inner);
        snprintf(buf, n, "ConstantBuffer<%s>", inner);
    } else if (reflect_str_is(kind, "parameterBlock")) {
        char inner[64];
        reflect_value_type_text(reflect_get(t, "elementType"), inner, sizeof inner);
        snprintf(buf, n, "ParameterBlock<%s>", inner);
    } else if (reflect_str_is(kind, "samplerState")) {
        snprintf(buf, n, "SamplerState");
    } else if (reflect_str_is(kind, "array")) {
        char inner[64];
        uint32_t count = 0;
        reflect_shape_text(reflect_get(t, "elementType"), inner, sizeof inner);
        if (reflect_get_u32(t, "elementCount", &count) && count)
            snprintf(buf, n, "%s[%u]", inner, count);
        else
            snprintf(buf, n, "%s[]", inner);
    } else {
        reflect_value_type_text(t, buf, n);
    }
}

uint32_t reflect_texture_shape(const cJSON *p, const cJSON *t)
{
    static const char *const slang_formats[DGPB_TEXEL_FORMAT_END] = {
#define DGPB_TEXEL_FORMAT(ID, value, name, slang_format, SAMPLE, storage, read_write)              \
    [value] = slang_format,
#include "dgpb/vocabulary.def"
    };
    const char *kind = reflect_get_str(t, "kind");
    if (reflect_str_is(kind, "samplerState"))
        return 0; /* a comparison sampler is told by the code (tables/params.c) */
    if (!reflect_str_is(kind, "resource"))
        return 0;
    static const struct {
        const char *base;
        uint32_t dim;
    } dims[] = {{"texture1D", DGPB_DIM_1D},
                {"texture2D", DGPB_DIM_2D},
                {"texture3D", DGPB_DIM_3D},
                {"textureCube", DGPB_DIM_CUBE},
                {"textureBuffer", DGPB_DIM_BUFFER}};
    const char *base = reflect_get_str(t, "baseShape");
    uint32_t shape = 0;
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++)
        if (reflect_str_is(base, dims[i].base))
            shape = dims[i].dim;
    if (!shape)
        return 0;
    if (cJSON_IsTrue(reflect_get(t, "array")))
        shape |= DGPB_SHAPE_ARRAYED;
    if (cJSON_IsTrue(reflect_get(t, "multisample")))
        shape |= DGPB_SHAPE_MULTISAMPLED;
    const cJSON *rt = reflect_get(t, "resultType");
    if (reflect_str_is(reflect_get_str(rt, "kind"), "vector"))
        rt = reflect_get(rt, "elementType");
    const char *scalar = reflect_get_str(rt, "scalarType");
    uint32_t sample = 0;
    if (!scalar && shape == DGPB_DIM_BUFFER)
        sample = 0; /* Slang 2025.15 writes no element type for Buffer<T>: the code tells it */
    else if (!scalar)
        sample = DGPB_SAMPLE_FLOAT; /* Texture2D without <T> is float4 */
    else if (!strncmp(scalar, "float", 5))
        sample = DGPB_SAMPLE_FLOAT;
    else if (!strncmp(scalar, "uint", 4))
        sample = DGPB_SAMPLE_UINT;
    else if (!strncmp(scalar, "int", 3))
        sample = DGPB_SAMPLE_SINT;
    shape |= sample << DGPB_SHAPE_SAMPLE_SHIFT;
    const char *access = reflect_get_str(t, "access");
    if (reflect_writable_access(access))
        shape |= (reflect_str_is(access, "write") ? DGPB_ACCESS_WRITE : DGPB_ACCESS_READ_WRITE)
                 << DGPB_SHAPE_ACCESS_SHIFT;
    if (reflect_writable_access(access) || DGPB_SHAPE_DIM_OF(shape) == DGPB_DIM_BUFFER) {
        /* A storage texture's or texel buffer's format, where Slang names one
           ([format("r32f")], or inferred from the element type). */
        const char *format = reflect_get_str(p, "format");
        for (uint32_t f = 1; format && f < DGPB_TEXEL_FORMAT_END; f++)
            if (slang_formats[f] && !strcmp(slang_formats[f], format))
                shape = (shape & ~(DGPB_SHAPE_FORMAT_MASK | DGPB_SHAPE_SAMPLE_MASK)) |
                        f << DGPB_SHAPE_FORMAT_SHIFT |
                        dgpb_texel_format_sample_type(f) << DGPB_SHAPE_SAMPLE_SHIFT;
    }
    return shape;
}

/* ---- element strides ---- */

static uint32_t round_up(uint32_t n, uint32_t align)
{
    return align > 1 ? (n + align - 1) / align * align : n;
}

uint32_t reflect_scalar_bytes(const char *scalar)
{
    if (!scalar)
        return 0;
    if (strstr(scalar, "64"))
        return 8;
    if (strstr(scalar, "16"))
        return 2;
    if (strstr(scalar, "8"))
        return 1;
    return 4; /* 32-bit scalars and bool */
}

/* How a structured buffer's elements are aligned on the target (elem_layout()). */
typedef struct elem_rules {
    bool ptx;    /* CUDA's vector types */
    bool scalar; /* every type aligned to its scalar (scalar block layouts) */
} elem_rules;

/*
 * A type's byte size and alignment as an element of a structured buffer on
 * the target: std430 on spirv and WGSL's storage rules on wgsl (a 3-vector
 * aligned as a 4-vector), CUDA's vector types on ptx (2- and 4-vectors
 * aligned to their size, 3-vectors to their scalar), and with scalar block
 * layouts every vector and matrix aligned to its scalar. A struct's members
 * keep the offsets the reflection gives. False when a size cannot be known.
 */
static bool elem_layout(elem_rules rules, const cJSON *t, uint32_t *size, uint32_t *align,
                        int depth)
{
    bool ptx = rules.ptx;
    const char *kind = reflect_get_str(t, "kind");
    uint32_t n = 0, s = 0;
    if (depth > 16 || !kind)
        return false;
    if (!strcmp(kind, "scalar")) {
        *size = *align = reflect_scalar_bytes(reflect_get_str(t, "scalarType"));
        return *size != 0;
    }
    if (!strcmp(kind, "vector") || !strcmp(kind, "matrix")) {
        const cJSON *e = reflect_get(t, "elementType");
        s = reflect_scalar_bytes(reflect_get_str(e, "scalarType"));
        bool vector = !strcmp(kind, "vector");
        uint32_t rows = 1;
        if (!(vector ? reflect_get_u32(t, "elementCount", &n)
                     : reflect_get_u32(t, "columnCount", &n) &&
                           reflect_get_u32(t, "rowCount", &rows)) ||
            !s || !n || n > 4 || !rows)
            return false;
        if (rules.scalar)
            *align = s;
        else if (ptx)
            *align = n == 3 ? s : n * s;
        else
            *align = (n == 3 ? 4 : n) * s;
        *size = vector ? n * s : rows * round_up(n * s, *align);
        return true;
    }
    if (!strcmp(kind, "pointer")) {
        /* A buffer device address (T*, the field of ConstBufferPointer<T>): 8 bytes, aligned to
           8, on every target that has one (SPIR-V's PhysicalStorageBuffer, CUDA's pointers). */
        *size = *align = 8;
        return true;
    }
    if (!strcmp(kind, "array")) {
        uint32_t es = 0, ea = 0;
        if (!reflect_get_u32(t, "elementCount", &n) || !n ||
            !elem_layout(rules, reflect_get(t, "elementType"), &es, &ea, depth + 1))
            return false;
        *align = ea;
        *size = n * round_up(es, ea);
        return true;
    }
    if (!strcmp(kind, "struct")) {
        uint32_t end = 0, max_align = 1;
        const cJSON *f;
        cJSON_ArrayForEach(f, reflect_get(t, "fields"))
        {
            uint32_t fs = 0, fa = 0, off = 0, bytes = 0;
            const cJSON *rec = reflect_get(f, "binding");
            if (!elem_layout(rules, reflect_get(f, "type"), &fs, &fa, depth + 1) ||
                !reflect_get_u32(rec, "offset", &off))
                return false;
            if (reflect_get_u32(rec, "size", &bytes) && bytes > fs)
                fs = bytes;
            if (off + fs > end)
                end = off + fs;
            if (fa > max_align)
                max_align = fa;
        }
        *align = max_align;
        *size = round_up(end, max_align);
        return end != 0;
    }
    return false;
}

uint32_t reflect_element_stride(const cJSON *t, bool ptx, bool scalar)
{
    uint32_t size = 0, align = 0;
    if (!elem_layout((elem_rules){ptx, scalar}, reflect_get(t, "resultType"), &size, &align, 0))
        return 0;
    return round_up(size, align);
}
