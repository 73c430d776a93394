/*
 * render_ref BUNDLE VERTEX FRAGMENT VERTICES NAME=FORMAT:WxH OUT [ROW=TYPE:V,...]... - the
 * reference side of the slang-rhi render comparison (rhi_render.sh): draws VERTICES with
 * the bundle's VERTEX and FRAGMENT entries through dgpb-run's runner library (the Vulkan
 * host dgpb-run and conformance-vulkan use, docs/run.md) into a colour attachment NAME of
 * FORMAT and W x H, with each value ROW set to the values given, and writes the attachment's
 * texels (rows tightly packed) to OUT. dgpb-run's command line runs compute entries only;
 * its runner draws render pairs. Exit statuses: 0 drawn, 1 the run failed, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgpb/alloc.h"
#include "dgpb/format.h"
#include "dgpb/run.h"
#include "dgpb/run_values.h"

static int usage(const char *why)
{
    fprintf(stderr,
            "render_ref: %s\nusage: render_ref BUNDLE VERTEX FRAGMENT VERTICES NAME=FORMAT:WxH "
            "OUT [ROW=TYPE:V,...]...\n",
            why);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 7 || argc - 7 >= DGPB_RUN_MAX_PARAMS)
        return usage("wrong number of arguments");
    dgpb_run_param params[DGPB_RUN_MAX_PARAMS];
    uint8_t *values[DGPB_RUN_MAX_PARAMS] = {0};
    memset(params, 0, sizeof params);
    dgpb_diag diag;
    int status = 2;

    /* The attachment. */
    char att_name[256], format[32];
    unsigned w, h;
    if (sscanf(argv[5], "%255[^=]=%31[^:]:%ux%u", att_name, format, &w, &h) != 4 || !w || !h)
        return usage("the attachment is NAME=FORMAT:WxH");
    int f = dgpb_run_format_from_name(format);
    if (f <= 0)
        return usage("unknown attachment format");
    params[0] = (dgpb_run_param){.name = att_name,
                                 .kind = DGPB_RUN_KIND_COLOR_ATTACHMENT,
                                 .format = (uint32_t)f,
                                 .width = w,
                                 .height = h,
                                 .size = (size_t)w * h * dgpb_run_format_texel_size((uint32_t)f)};
    uint32_t n = 1;

    /* The values: ROW=TYPE:V,... */
    for (int i = 7; i < argc; i++, n++) {
        char *eq = strchr(argv[i], '='), *colon = eq ? strchr(eq, ':') : NULL;
        int type = colon ? dgpb_value_type_from_name(eq + 1, (size_t)(colon - eq - 1)) : -1;
        if (type < 0) {
            usage("a value is ROW=TYPE:V,...");
            goto done;
        }
        *eq = 0;
        size_t size;
        if (dgpb_value_parse((uint32_t)type, colon + 1, &values[n], &size, &diag)) {
            fprintf(stderr, "render_ref: %s: %s\n", argv[i], diag.message);
            goto done;
        }
        params[n] = (dgpb_run_param){
            .name = argv[i], .kind = DGPB_KIND_VALUE, .size = size, .input = values[n]};
    }

    char *end;
    unsigned long vertices = strtoul(argv[4], &end, 10);
    if (*end || vertices == 0 || vertices > 1000000) {
        usage("VERTICES is 1 to 1000000");
        goto done;
    }
    dgpb_run_request req = {.entry = argv[2],
                            .fragment = argv[3],
                            .vertices = (uint32_t)vertices,
                            .param_count = n,
                            .params = params};
    dgpb_runner_desc desc = {.backend = DGPB_BACKEND_VULKAN};
    dgpb_runner *runner = NULL;
    dgpb_run_result res;
    memset(&res, 0, sizeof res);
    status = 1;
    if (dgpb_runner_create(&desc, &runner, &diag) ||
        dgpb_runner_run(runner, argv[1], &req, &res, &diag)) {
        fprintf(stderr, "render_ref: %s\n", diag.message);
    } else {
        FILE *out = fopen(argv[6], "wb");
        if (out &&
            fwrite(res.outputs[0].data, 1, res.outputs[0].size, out) == res.outputs[0].size &&
            fclose(out) == 0) {
            fprintf(stderr, "render_ref: drew %lu vertices on %s\n", vertices,
                    dgpb_runner_device_name(runner));
            status = 0;
        } else {
            if (out)
                fclose(out);
            fprintf(stderr, "render_ref: cannot write '%s'\n", argv[6]);
        }
    }
    dgpb_run_result_free(&res);
    dgpb_runner_destroy(runner);
done:
    for (uint32_t i = 0; i < DGPB_RUN_MAX_PARAMS; i++)
        dgpb_free(values[i]);
    return status;
}
