/*
 * gen_format_fixtures - writes fixtures/format/: the golden bundle, its JSON
 * view, a bundle with an options record (options.dgpb) and its view, and one
 * malformed bundle per reader rule with its expected message.
 *
 * Run through tools/regen-format-fixtures.sh when the format or the golden
 * model changes on purpose, then review the diff: the tests compare the
 * writer's output with these files byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corruptions.h"
#include "support.h"

static void write_file(const char *dir, const char *name, const void *data, size_t size)
{
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (support_write_output(dir, name, data, size, &d)) {
        fprintf(stderr, "gen_format_fixtures: %s\n", d.message);
        exit(1);
    }
}

/* Writes <name>.dgpb and its view <name>.bundle.json. */
static void write_bundle(const char *dir, const char *name, uint8_t *bytes, size_t size)
{
    char file[256];
    snprintf(file, sizeof file, "%s.dgpb", name);
    write_file(dir, file, bytes, size);
    dgpb_bundle *b = NULL;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    char *json = NULL;
    if (dgpb_bundle_open(bytes, size, DGPB_OPEN_VERIFY_SHA256, &b, &d) ||
        dgpb_json_view(b, name, &json, &d)) {
        fprintf(stderr, "gen_format_fixtures: %s\n", d.message);
        exit(1);
    }
    snprintf(file, sizeof file, "%s.bundle.json", name);
    write_file(dir, file, json, strlen(json));
    dgpb_free(json);
    dgpb_bundle_close(b);
    dgpb_free(bytes);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_format_fixtures DIR\n");
        return 2;
    }
    const char *dir = argv[1];
    size_t size = 0;
    uint8_t *bytes = support_golden_bytes(&size);
    write_bundle(dir, "golden", bytes, size);
    bytes = support_options_bytes(&size);
    write_bundle(dir, "options", bytes, size);

    char sub[4096];
    snprintf(sub, sizeof sub, "%s/corrupt", dir);
    mkdir(sub, 0755);
    for (size_t i = 0; i < corruption_count; i++) {
        const corruption *c = &corruptions[i];
        uint8_t *bad = NULL;
        size_t n = 0;
        corruption_apply(c, &bad, &n);
        char name[256];
        snprintf(name, sizeof name, "%s.dgpb", c->name);
        write_file(sub, name, bad, n);
        snprintf(name, sizeof name, "%s.expect", c->name);
        char line[1024];
        int len = snprintf(line, sizeof line, "%s\n", c->expect);
        write_file(sub, name, line, (size_t)len);
        free(bad);
    }
    printf("wrote %s: golden and options (.dgpb, .bundle.json), %zu malformed bundles\n", dir,
           corruption_count);
    return 0;
}
