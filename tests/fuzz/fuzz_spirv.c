/*
 * fuzz_spirv.c - fuzz target for the SPIR-V analysis (code/spirv/spirv_analysis.h)
 * and what dgpb-build reads from it: the capabilities (code/capabilities.h,
 * from the raw words), variables looked
 * up by name, the code bindings (code/code_bindings.h) and their lookup by
 * parameter path; plus the OpSource stripper and the entry-point list
 * (code/spirv/spirv.h) and the render-pipeline modes dgpb-run reads
 * (code/spirv/spirv_stage.h) that read the same words.
 *
 * The input is the module itself (the fuzzer's buffers are word-aligned, as
 * dgpb-build's file reads are).
 *
 * Built as a libFuzzer target with clang and -DDGPB_FUZZ=ON; in every build
 * it is also linked with replay_main.c, which runs the corpus
 * (fixtures/fuzz/spirv) as an ordinary test. docs/testing.md, "Fuzzing".
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code/code_bindings.h"
#include "dgpb/dgpb.h"
#include "code/spirv/spirv.h"
#include "code/spirv/spirv_analysis.h"
#include "code/spirv/spirv_bindings.h"
#include "code/spirv/spirv_interface.h"
#include "code/spirv/spirv_stage.h"
#include "code/capabilities.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void bindings(const dgpb_spirv_info *info)
{
    dgpb_code_bindings code = {0};
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (code_bindings_from_spirv(info, &code, &d) == DGPB_OK) {
        for (size_t i = 0; i < code.count; i++) {
            bool ambiguous = false;
            (void)code_bindings_find(&code, code.items[i].name, &ambiguous);
            (void)code_class_name(code.items[i].cls);
        }
        bool ambiguous = false;
        (void)code_bindings_find(&code, "entryPointParams.x", &ambiguous);
    }
    code_bindings_clear(&code);
}

static void other_readers(const uint8_t *data, size_t size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    uint32_t *stripped = NULL;
    size_t words = 0;
    if (spirv_strip_source(data, size, &stripped, &words, &d) == DGPB_OK)
        dgpb_free(stripped);
    dgpb_spirv_entry_point *eps = NULL;
    size_t count = 0;
    if (spirv_entry_points(data, size, &eps, &count, &d) == DGPB_OK)
        dgpb_free(eps);
    spirv_stage_modes modes;
    (void)spirv_stage_read(data, size, &modes, &d);
    code_interface_var *vars = NULL;
    uint32_t var_count = 0;
    if (spirv_interface_read(data, size, false, &vars, &var_count, &d) == DGPB_OK)
        dgpb_free(vars);
    uint64_t mask;
    (void)code_capabilities(DGPB_TARGET_SPIRV, "k", DGPB_STAGE_COMPUTE, DGPB_CODE_FORMAT_SPIRV,
                            data, size, &mask, &d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dgpb_spirv_info *info = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    int rc = spirv_analyze(data, size, &info, &d);
    if (info) {
        for (size_t i = 0; i < info->var_count; i++)
            (void)spirv_find_var(info, info->vars[i].name);
        if (rc == DGPB_OK && info->parsed)
            bindings(info);
        spirv_info_free(info);
    }
    other_readers(data, size);
    return 0;
}
