/*
 * replay_main.c - runs fuzz inputs (files or folders of files) through
 * LLVMFuzzerTestOneInput without libFuzzer: the fuzz corpus as a test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dgpb/dgpb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    uint8_t *data = NULL;
    size_t size = 0;
    dgpb_diag d;
    dgpb_diag_clear(&d);
    if (dgpb_file_read(path, 1u << 28, &data, &size, &d)) {
        fprintf(stderr, "replay: %s\n", d.message);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    dgpb_free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *dir = opendir(argv[i]);
            struct dirent *e;
            while (dir && (e = readdir(dir))) {
                if (e->d_name[0] == '.')
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                failed += run_file(path);
                files++;
            }
            if (dir)
                closedir(dir);
        } else {
            failed += run_file(argv[i]);
            files++;
        }
    }
    printf("replayed %d inputs, %d unreadable\n", files, failed);
    return failed || files == 0 ? 1 : 0;
}
