/*
 * corruptions.c - one malformed bundle per rule of the reader (see corruptions.h).
 *
 * Golden bundle, sorted: target 0 is spirv (1 layout; entries k, k2, rg),
 * target 1 is wgsl (entries k, k2). spirv/k has capabilities half and
 * subgroup_basic; its parameters are scale, transform, src, dst, bytes, tex,
 * smp, img, counts.
 */
#include "corruptions.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

#define T(i) dgpb_bundle_target(c->b, (i))
#define E(t, i) (&T(t)->entries[(i)])
#define P(t, e, i) (&E(t, e)->params[(i)])
#define AT(p) support_offset_of(c->orig, (p))

enum { F_KIND, F_FLAGS, F_SPACE, F_BINDING, F_OFFSET, F_SIZE, F_WGPU };

static void put(mut_ctx *c, size_t at, uint32_t v)
{
    support_put_u32(c->bytes, at, v);
}

static uint32_t data_size(mut_ctx *c)
{
    return dgpb_bundle_data_size(c->b);
}

static void bad_magic(mut_ctx *c)
{
    c->bytes[0] = 'X';
}
static void bad_version(mut_ctx *c)
{
    put(c, 4, 1);
}
static void truncated_header(mut_ctx *c)
{
    c->size = 10;
}
static void truncated_data(mut_ctx *c)
{
    c->size -= 1;
}
static void header_size_past_end(mut_ctx *c)
{
    put(c, 8, (uint32_t)c->size + 1);
}
static void header_size_short(mut_ctx *c)
{
    put(c, 8, dgpb_bundle_header_size(c->b) - 3);
}
static void header_size_too_small(mut_ctx *c)
{
    put(c, 8, 12);
}

static void header_size_long(mut_ctx *c)
{
    uint32_t hs = dgpb_bundle_header_size(c->b);
    memmove(c->bytes + hs + 4, c->bytes + hs, c->size - hs);
    memset(c->bytes + hs, 0, 4);
    c->size += 4;
    put(c, 8, hs + 4);
}

static void trailing_bytes(mut_ctx *c)
{
    c->bytes[c->size++] = 0;
}
static void code_offset_out_of_range(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 0)), data_size(c));
}
static void code_size_out_of_range(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 0)) + 4, data_size(c) + 1);
}
static void code_offset_overflow(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 0)), 0xFFFFFFF0u);
}
static void code_empty(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 0)) + 4, 0);
}
static void layout_out_of_range(mut_ctx *c)
{
    put(c, AT(T(0)->layouts[0].sha256) - 8, data_size(c));
}
static void string_too_long(mut_ctx *c)
{
    put(c, AT(E(1, 0)->name.ptr) - 4, 0xFFFFFFFFu);
}
static void string_past_end(mut_ctx *c)
{
    put(c, AT(E(1, 0)->name.ptr) - 4, 4000);
}
static void string_empty(mut_ctx *c)
{
    put(c, AT(E(1, 0)->name.ptr) - 4, 0);
}
static void string_bad_utf8(mut_ctx *c)
{
    c->bytes[AT(E(1, 1)->name.ptr) + 1] = 0xFF;
}
static void string_nul(mut_ctx *c)
{
    c->bytes[AT(E(1, 1)->name.ptr) + 1] = 0;
}
static void target_count_huge(mut_ctx *c)
{
    put(c, 12, 0x7FFFFFFFu);
}
static void layout_count_huge(mut_ctx *c)
{
    put(c, AT(T(0)->code_format.ptr) + T(0)->code_format.len, 0x10000000u);
}
static void entry_count_huge(mut_ctx *c)
{
    put(c, AT(T(1)->code_format.ptr) + T(1)->code_format.len + 4, 0x10000000u);
}
static void entry_count_zero(mut_ctx *c)
{
    put(c, AT(T(1)->code_format.ptr) + T(1)->code_format.len + 4, 0);
}
static void param_count_huge(mut_ctx *c)
{
    put(c, AT(E(1, 0)->params[0].name.ptr) - 8, 0x10000000u);
}

static size_t cap_count_at(mut_ctx *c, int t, int e)
{
    const dgpb_entry_view *ev = E(t, e);
    const dgpb_param_view *last = &ev->params[ev->param_count - 1];
    return support_param_field_offset(c->orig, last, F_WGPU) + 4;
}

static void capability_count_huge(mut_ctx *c)
{
    put(c, cap_count_at(c, 1, 0), 200); /* more than DGPB_CAP_COUNT */
}
static void unknown_capability(mut_ctx *c)
{
    c->bytes[AT(E(0, 0)->capabilities[0].ptr) + 3] = 'x';
}

static void unsorted_capabilities(mut_ctx *c)
{
    /* [4]"half" [14]"subgroup_basic" -> [14]"subgroup_basic" [4]"half": same bytes in all. */
    size_t at = AT(E(0, 0)->capabilities[0].ptr) - 4;
    put(c, at, 14);
    memcpy(c->bytes + at + 4, "subgroup_basic", 14);
    put(c, at + 18, 4);
    memcpy(c->bytes + at + 22, "half", 4);
}

static void unsorted_targets(mut_ctx *c)
{
    memcpy(c->bytes + AT(T(1)->name.ptr), "dxbc", 4);
}
static void duplicate_targets(mut_ctx *c)
{
    memcpy(c->bytes + AT(T(1)->name.ptr), "dxil", 4);
}
static void unknown_target(mut_ctx *c)
{
    c->bytes[AT(T(0)->name.ptr) + 4] = 'x';
}
static void wrong_code_format(mut_ctx *c)
{
    c->bytes[AT(T(0)->code_format.ptr) + 4] = 'x';
}
static void unknown_stage(mut_ctx *c)
{
    c->bytes[AT(E(0, 0)->stage.ptr) + 5] = 'x';
}
static void duplicate_entry(mut_ctx *c)
{
    memcpy(c->bytes + AT(E(0, 2)->name.ptr), "k2", 2);
}
static void duplicate_param(mut_ctx *c)
{
    memcpy(c->bytes + AT(P(1, 0, 3)->name.ptr), "src", 3);
}
static void unknown_kind(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 2), F_KIND), DGPB_KIND_COUNT);
}
static void shape_unknown_bits(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 5), F_OFFSET), 0x00008102u);
}
/* spirv/k's texture 'tex' given an attachment index, which only an input attachment has. */
static void shape_attachment_on_texture(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 5), F_OFFSET),
        DGPB_DIM_2D | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT |
            2u << DGPB_SHAPE_ATTACHMENT_SHIFT);
}
/* spirv/k's 'tex' made a texel buffer that keeps the texture's 2d shape. */
static void shape_texel_buffer_2d(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 5), F_KIND), DGPB_KIND_TEXEL_BUFFER);
}
/* wgsl/k's 'tex' made an input attachment (subpass float attachment 0, no WebGPU ID): WebGPU
   cannot bind one. */
static void input_attachment_on_wgsl(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 5), F_KIND), DGPB_KIND_INPUT_ATTACHMENT);
    put(c, support_param_field_offset(c->orig, P(1, 0, 5), F_OFFSET),
        DGPB_DIM_SUBPASS | DGPB_SAMPLE_FLOAT << DGPB_SHAPE_SAMPLE_SHIFT);
    put(c, support_param_field_offset(c->orig, P(1, 0, 5), F_WGPU), 0);
}
static void shape_on_sampler(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 6), F_OFFSET), DGPB_DIM_2D);
}
static void shape_multisampled_3d(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 5), F_OFFSET),
        DGPB_DIM_3D | DGPB_SHAPE_MULTISAMPLED);
}
static void shape_format_sample_disagree(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 7), F_OFFSET),
        DGPB_DIM_2D | DGPB_SAMPLE_UINT << DGPB_SHAPE_SAMPLE_SHIFT |
            DGPB_TEXEL_R32FLOAT << DGPB_SHAPE_FORMAT_SHIFT);
}
static void unknown_flags(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 3), F_FLAGS), 32);
}
/* A row flagged absent that keeps its place (and read_only). */
static void absent_with_place(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 6), F_FLAGS),
        DGPB_FLAG_ABSENT | DGPB_FLAG_READ_ONLY);
}
static void shared_binding_on_buffer(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 3), F_FLAGS), DGPB_FLAG_SHARED_BINDING);
}
static void flags_contradict(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 3), F_FLAGS), 3);
}
static void readonly_kind_unflagged(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 6), F_FLAGS), 0);
}
static void wrong_webgpu_id(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 2), F_WGPU), 3);
}
static void unknown_webgpu_id(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 7), F_WGPU), 20);
}
static void webgpu_id_off_wgsl(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(0, 0, 2), F_WGPU), 2);
}
static void value_without_size(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 0), F_SIZE), 0);
}
static void resource_with_offset(mut_ctx *c)
{
    put(c, support_param_field_offset(c->orig, P(1, 0, 2), F_OFFSET), 16);
}
static void layout_index_out_of_range(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 1)) - 4, 1);
}
static void layout_index_without_layouts(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(1, 0)) - 4, 1);
}
static void thread_group_zero(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(1, 0)) + 40, 0);
}
static void thread_group_on_raygen(mut_ctx *c)
{
    put(c, support_code_ref_offset(c->orig, E(0, 2)) + 40, 8);
}
/* rg's stage "raygeneration" made "amplification" (as long): a stage with a thread group size. */
static void thread_group_zero_on_amplification(mut_ctx *c)
{
    memcpy(c->bytes + AT(E(0, 2)->stage.ptr), "amplification", 13);
}
static void flipped_bit_in_code(mut_ctx *c)
{
    c->bytes[dgpb_bundle_header_size(c->b) + E(1, 0)->code.offset + 7] ^= 0x10;
}
static void flipped_bit_in_layout(mut_ctx *c)
{
    c->bytes[dgpb_bundle_header_size(c->b) + T(0)->layouts[0].offset] ^= 0x01;
}
static void flipped_bit_in_hash(mut_ctx *c)
{
    c->bytes[AT(E(0, 2)->code.sha256) + 31] ^= 0x80;
}

/*
 * The options record of support_options_bytes(), at the start of the data
 * section: "DGPO", the count 6, then block_layout "scalar", debug_info "2",
 * matrix_layout "column", optimization "0", slang_capabilities
 * SUPPORT_OPTION_CAPABILITIES, spirv_version "1.6". The byte offset of its
 * string number `k` (0: the first name, 1: its value, ...).
 */
static size_t record_string(mut_ctx *c, int k)
{
    size_t at = dgpb_bundle_header_size(c->b) + 8;
    for (int i = 0; i < k; i++)
        at += 4 + (size_t)support_get_u32(c->bytes, at);
    return at;
}

static void options_no_magic(mut_ctx *c)
{
    c->bytes[dgpb_bundle_header_size(c->b) + 3] = 'X';
}

static void options_count_zero(mut_ctx *c)
{
    put(c, dgpb_bundle_header_size(c->b) + 4, 0);
}

static void options_count_short(mut_ctx *c)
{
    put(c, dgpb_bundle_header_size(c->b) + 4, 2);
}

static void options_unknown_name(mut_ctx *c)
{
    c->bytes[record_string(c, 4) + 4 + 12] = 'z'; /* matrix_layouz */
}

static void options_unsorted(mut_ctx *c)
{
    memcpy(c->bytes + record_string(c, 10) + 4, "matrix_layout", 13); /* in spirv_version's place */
}

static void options_bad_layout(mut_ctx *c)
{
    c->bytes[record_string(c, 5) + 4 + 4] = 'n'; /* colunn */
}

static void options_bad_version(mut_ctx *c)
{
    c->bytes[record_string(c, 11) + 4 + 2] = '7'; /* 1.7 */
}

static void options_bad_capability(mut_ctx *c)
{
    c->bytes[record_string(c, 9) + 4 + 3] = '-'; /* spv-mageGatherExtended */
}

static void options_unsorted_capabilities(mut_ctx *c)
{
    size_t second = record_string(c, 9) + 4 + strlen("spvImageGatherExtended,");
    c->bytes[second + 8] = 'A'; /* spvImageAuery */
}

static void options_bad_block_layout(mut_ctx *c)
{
    memcpy(c->bytes + record_string(c, 1) + 4, "std140", 6); /* in scalar's place */
}

static void options_default_optimization(mut_ctx *c)
{
    c->bytes[record_string(c, 7) + 4] = '1'; /* the default: never recorded */
}

static void options_bad_debug_info(mut_ctx *c)
{
    c->bytes[record_string(c, 3) + 4] = '4'; /* -g4 */
}

static void options_value_past_end(mut_ctx *c)
{
    put(c, record_string(c, 11), 400);
}

const corruption corruptions[] = {
    {"bad_magic", 0, 0, DGPB_ERR_CORRUPT_MAGIC, "bad magic", bad_magic},
    {"bad_version", 0, 0, DGPB_ERR_CORRUPT_VERSION, "unsupported version 1", bad_version},
    {"truncated_header", 0, 0, DGPB_ERR_CORRUPT_TRUNCATED, "header_size needs 4 bytes",
     truncated_header},
    {"truncated_data", 0, 0, DGPB_ERR_CORRUPT_RANGE, "ends past the data section", truncated_data},
    {"header_size_past_end", 0, 0, DGPB_ERR_CORRUPT_TRUNCATED, "header_size is",
     header_size_past_end},
    {"header_size_too_small", 0, 0, DGPB_ERR_CORRUPT_RANGE, "header_size is 12",
     header_size_too_small},
    {"header_size_short", 0, 0, DGPB_ERR_CORRUPT_TRUNCATED, "the header", header_size_short},
    {"header_size_long", 0, 0, DGPB_ERR_CORRUPT_RANGE, "but the tables end at byte",
     header_size_long},
    {"trailing_bytes", 0, 0, DGPB_ERR_CORRUPT_RANGE, "1 bytes after the last blob", trailing_bytes},
    {"code_offset_out_of_range", 0, 0, DGPB_ERR_CORRUPT_RANGE, "entry 'k': code blob (offset",
     code_offset_out_of_range},
    {"code_size_out_of_range", 0, 0, DGPB_ERR_CORRUPT_RANGE, "ends past the data section",
     code_size_out_of_range},
    {"code_offset_overflow", 0, 0, DGPB_ERR_CORRUPT_RANGE, "offset 4294967280",
     code_offset_overflow},
    {"code_empty", 0, 0, DGPB_ERR_CORRUPT_RANGE, "code blob is empty", code_empty},
    {"layout_out_of_range", 0, 0, DGPB_ERR_CORRUPT_RANGE, "layout 0: layout blob (offset",
     layout_out_of_range},
    {"string_too_long", 0, 0, DGPB_ERR_CORRUPT_STRING, "entry name is 4294967295 bytes long",
     string_too_long},
    {"string_past_end", 0, 0, DGPB_ERR_CORRUPT_TRUNCATED, "entry name of 4000 bytes runs past",
     string_past_end},
    {"string_empty", 0, 0, DGPB_ERR_CORRUPT_STRING, "entry name is an empty string", string_empty},
    {"string_bad_utf8", 0, 0, DGPB_ERR_CORRUPT_STRING, "not valid UTF-8", string_bad_utf8},
    {"string_nul", 0, 0, DGPB_ERR_CORRUPT_STRING, "contains NUL", string_nul},
    {"target_count_huge", 0, 0, DGPB_ERR_CORRUPT_RANGE, "target_count is 2147483647",
     target_count_huge},
    {"layout_count_huge", 0, 0, DGPB_ERR_CORRUPT_RANGE, "layout_count is 268435456",
     layout_count_huge},
    {"entry_count_huge", 0, 0, DGPB_ERR_CORRUPT_RANGE, "entry_count is 268435456",
     entry_count_huge},
    {"entry_count_zero", 0, 0, DGPB_ERR_CORRUPT_VALUE, "target 'wgsl': the target has no entries",
     entry_count_zero},
    {"param_count_huge", 0, 0, DGPB_ERR_CORRUPT_RANGE, "param_count is 268435456",
     param_count_huge},
    {"capability_count_huge", 0, 0, DGPB_ERR_CORRUPT_RANGE, "capability_count is 200",
     capability_count_huge},
    {"unknown_capability", 0, 0, DGPB_ERR_CORRUPT_VALUE, "unknown capability 'halx'",
     unknown_capability},
    {"unsorted_capabilities", 0, 0, DGPB_ERR_CORRUPT_ORDER, "capability 'half' is out of order",
     unsorted_capabilities},
    {"unsorted_targets", 1, 0, DGPB_ERR_CORRUPT_ORDER, "target 'dxbc' follows 'dxil'",
     unsorted_targets},
    {"duplicate_targets", 1, 0, DGPB_ERR_CORRUPT_ORDER, "target 'dxil' follows 'dxil'",
     duplicate_targets},
    {"unknown_target", 0, 0, DGPB_ERR_CORRUPT_VALUE, "unknown target 'spirx'", unknown_target},
    {"wrong_code_format", 0, 0, DGPB_ERR_CORRUPT_VALUE, "code format 'spirx' is not allowed",
     wrong_code_format},
    {"unknown_stage", 0, 0, DGPB_ERR_CORRUPT_VALUE, "unknown stage 'compuxe'", unknown_stage},
    {"duplicate_entry", 0, 0, DGPB_ERR_CORRUPT_VALUE, "entry 'k2' listed twice", duplicate_entry},
    {"duplicate_param", 0, 0, DGPB_ERR_CORRUPT_VALUE, "parameter 'src' listed twice",
     duplicate_param},
    {"unknown_kind", 0, 0, DGPB_ERR_CORRUPT_VALUE, "parameter 2 'src': unknown parameter kind 16",
     unknown_kind},
    {"shape_unknown_bits", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "parameter 5 'tex': shape 0x8102 (2d float 0x8000) of a texture parameter has unknown bits",
     shape_unknown_bits},
    {"shape_attachment_on_texture", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "parameter 5 'tex': shape 0x8000102 (2d float attachment 2) of a texture parameter has an "
     "attachment index on a parameter that is not an input attachment",
     shape_attachment_on_texture},
    {"shape_texel_buffer_2d", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "parameter 5 'tex': shape 0x102 (2d float) of a texel_buffer parameter has a dimension "
     "other than buffer",
     shape_texel_buffer_2d},
    {"input_attachment_on_wgsl", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "target 'wgsl', entry 'k', parameter 5 'tex': input_attachment parameters have no place on "
     "wgsl: WebGPU cannot bind them (spirv only)",
     input_attachment_on_wgsl},
    {"shape_on_sampler", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "parameter 6 'smp': shape 0x2 (2d) of a sampler parameter has texture fields on a sampler",
     shape_on_sampler},
    {"shape_multisampled_3d", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "shape 0x23 (3d ms) of a texture parameter has multisampling of a texture that is not 2d",
     shape_multisampled_3d},
    {"shape_format_sample_disagree", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "shape 0x30302 (2d uint r32float) of a rw_texture parameter has a sample type its texel "
     "format does not return",
     shape_format_sample_disagree},
    {"unknown_flags", 0, 0, DGPB_ERR_CORRUPT_VALUE, "unknown flag bits 0x20", unknown_flags},
    {"absent_with_place", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "a row absent from the target's code has no other flag", absent_with_place},
    {"shared_binding_on_buffer", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "parameter 3 'dst': a rw_buffer parameter cannot share its binding (only a texture and a "
     "sampler can)",
     shared_binding_on_buffer},
    {"flags_contradict", 0, 0, DGPB_ERR_CORRUPT_VALUE, "both read-only and written",
     flags_contradict},
    {"readonly_kind_unflagged", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "a sampler parameter must be flagged read-only", readonly_kind_unflagged},
    {"wrong_webgpu_id_for_kind", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "webgpu_layout 3 (storage buffer) does not describe a buffer", wrong_webgpu_id},
    {"unknown_webgpu_id", 0, 0, DGPB_ERR_CORRUPT_VALUE, "unknown webgpu_layout id 20",
     unknown_webgpu_id},
    {"webgpu_id_off_wgsl", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "target 'spirv', entry 'k', parameter 2 'src': webgpu_layout 2 on a target other than wgsl",
     webgpu_id_off_wgsl},
    {"value_without_size", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "value parameter must have a non-zero size", value_without_size},
    {"resource_with_offset", 0, 0, DGPB_ERR_CORRUPT_VALUE, "must have offset 0 and size 0",
     resource_with_offset},
    {"layout_index_out_of_range", 0, 0, DGPB_ERR_CORRUPT_RANGE,
     "entry 'k2': layout index 1 but the target has 1 layouts", layout_index_out_of_range},
    {"layout_index_without_layouts", 0, 0, DGPB_ERR_CORRUPT_RANGE,
     "layout index 1 but the target has 0 layouts", layout_index_without_layouts},
    {"thread_group_zero", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "stage 'compute' needs a thread group size of at least 1", thread_group_zero},
    {"thread_group_on_raygen", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "entry 'rg': stage 'raygeneration' has no thread group size: it must be 0,0,0",
     thread_group_on_raygen},
    {"thread_group_zero_on_amplification", 0, 0, DGPB_ERR_CORRUPT_VALUE,
     "entry 'rg': stage 'amplification' needs a thread group size of at least 1 in each "
     "dimension",
     thread_group_zero_on_amplification},
    {"options_no_magic", 2, 0, DGPB_ERR_CORRUPT_RANGE,
     "options record: 187 bytes before the first blob are no options record (no \"DGPO\")",
     options_no_magic},
    {"options_count_zero", 2, 0, DGPB_ERR_CORRUPT_RANGE,
     "options record: option_count is 0, not from 1 to the 6 options there are",
     options_count_zero},
    {"options_count_short", 2, 0, DGPB_ERR_CORRUPT_RANGE,
     "options record: 134 bytes between the options record and the first blob",
     options_count_short},
    {"options_unknown_name", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: unknown option 'matrix_layouz'", options_unknown_name},
    {"options_unsorted", 2, 0, DGPB_ERR_CORRUPT_ORDER,
     "options record: option 'matrix_layout' is out of order or repeated (they must be sorted)",
     options_unsorted},
    {"options_bad_layout", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: matrix_layout is 'colunn', not 'column' (row, the default, is never "
     "recorded)",
     options_bad_layout},
    {"options_bad_version", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: spirv_version is '1.7', not one of 1.3, 1.4, 1.5, 1.6", options_bad_version},
    {"options_bad_capability", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: slang_capabilities: 'spv-mageGatherExtended' is no Slang capability name",
     options_bad_capability},
    {"options_unsorted_capabilities", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: slang_capabilities: 'spvImageAuery' follows 'spvImageGatherExtended': the "
     "names must be sorted and unique",
     options_unsorted_capabilities},
    {"options_bad_block_layout", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: block_layout is 'std140', not one of scalar, gl, c (default, the default, "
     "is never recorded)",
     options_bad_block_layout},
    {"options_default_optimization", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: optimization is '1', not one of 0, 2, 3 (1, the default, is never "
     "recorded)",
     options_default_optimization},
    {"options_bad_debug_info", 2, 0, DGPB_ERR_CORRUPT_VALUE,
     "options record: debug_info is '4', not one of 1, 2, 3 (0, the default, is never recorded)",
     options_bad_debug_info},
    {"options_value_past_end", 2, 0, DGPB_ERR_CORRUPT_TRUNCATED,
     "options record: truncated: option value of 400 bytes runs past the options record's end",
     options_value_past_end},
    {"flipped_bit_in_code", 0, 1, DGPB_ERR_CORRUPT_HASH,
     "target 'wgsl', entry 'k', code blob: sha-256 mismatch", flipped_bit_in_code},
    {"flipped_bit_in_layout", 0, 1, DGPB_ERR_CORRUPT_HASH,
     "target 'spirv', layout 0: sha-256 mismatch", flipped_bit_in_layout},
    {"flipped_bit_in_hash", 0, 1, DGPB_ERR_CORRUPT_HASH, "entry 'rg', code blob: sha-256 mismatch",
     flipped_bit_in_hash},
};
const size_t corruption_count = sizeof corruptions / sizeof corruptions[0];

void corruption_apply(const corruption *cs, uint8_t **out, size_t *size)
{
    size_t n = 0;
    uint8_t *orig = cs->base == 2   ? support_options_bytes(&n)
                    : cs->base == 1 ? support_two_target_bytes(&n)
                                    : support_golden_bytes(&n);
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_bundle_open(orig, n, 0, &b, &d))
        abort();
    uint8_t *copy = calloc(1, n + 64);
    if (!copy)
        abort();
    memcpy(copy, orig, n);
    mut_ctx c = {copy, n, orig, b};
    cs->mutate(&c);
    dgpb_bundle_close(b);
    dgpb_free(orig);
    *out = copy;
    *size = c.size;
}
