/*
 * build_deps.c - the files Slang read (build_internal.h): each compile's
 * -depfile read back, and the files of every compile gathered into the
 * build's list, each once, in the order first read. The list is the
 * depfile's (-MD/-MF, build_emit.c) and the cache's input sets (the layouts'
 * and the whole build's); the intermediate folder and the module itself are
 * left out of it.
 */
#include <string.h>
#include <sys/stat.h>

#include "driver/build_internal.h"
#include "core/alloc.h"
#include "dgpb/fileio.h"
#include "io/depfile.h"

bool build_is_temp_path(const build *b, const char *path)
{
    size_t n = strlen(b->tmp);
    return n && !strncmp(path, b->tmp, n) && (path[n] == '/' || !path[n]);
}

bool build_is_module(const build *b, const char *path)
{
    struct stat a, m;
    return !stat(path, &a) && !stat(b->desc->module_file, &m) && a.st_dev == m.st_dev &&
           a.st_ino == m.st_ino;
}

int build_job_deps(build *b, job_info *info)
{
    uint8_t *text = NULL;
    size_t size = 0;
    info->deps_known = false;
    int read = dgpb_file_read(info->dep, BUILD_MAX_OUTPUT, &text, &size, NULL);
    if (read == DGPB_ERR_NOMEM) {
        build_report(b, DGPB_SEV_ERROR, read, "out of memory");
        return read;
    }
    if (read)
        return DGPB_OK; /* this compiler wrote none: nothing cached, nothing listed */
    int rc = depfile_parse((const char *)text, size, &info->deps, &info->dep_count);
    dgpb_free(text);
    /* The discovery module lives in the intermediate folder, another one each build. */
    size_t kept = 0;
    for (size_t i = 0; i < info->dep_count; i++) {
        if (build_is_temp_path(b, info->deps[i]))
            dgpb_free(info->deps[i]);
        else
            info->deps[kept++] = info->deps[i];
    }
    info->dep_count = kept;
    if (rc == DGPB_ERR_NOMEM) {
        build_report(b, DGPB_SEV_ERROR, rc, "out of memory");
        return rc;
    }
    info->deps_known = rc == DGPB_OK;
    return DGPB_OK;
}

int build_collect_deps(build *b, const job_list *list, const dgpb_compile_job *jobs)
{
    for (size_t i = 0; i < list->count; i++) {
        const job_info *info = &list->info[i];
        if (jobs[i].status != 0)
            continue;
        if (!info->deps_known)
            b->deps_incomplete = true;
        for (size_t d = 0; d < info->dep_count; d++) {
            const char *path = info->deps[d];
            if (build_is_temp_path(b, path) || build_is_module(b, path))
                continue;
            struct stat st, other;
            bool seen = false;
            bool exists = stat(path, &st) == 0;
            size_t k = 0;
            for (; k < b->dep_count && !seen; k++)
                seen = !strcmp(b->deps[k], path) ||
                       (exists && !stat(b->deps[k], &other) && other.st_dev == st.st_dev &&
                        other.st_ino == st.st_ino);
            if (seen) {
                /* The discovery module includes the module by its absolute path, so its
                   compiles name the module's includes that way: the spelling of an entry's
                   compile, as the module's own #include and -I make it, is preferred. */
                if (b->dep_from_discovery[k - 1] && info->role != ROLE_DISCOVER) {
                    char *copy = mem_strdup(path);
                    if (copy) {
                        dgpb_free(b->deps[k - 1]);
                        b->deps[k - 1] = copy;
                        b->dep_from_discovery[k - 1] = false;
                    }
                }
                continue;
            }
            bool *flags = mem_realloc(b->dep_from_discovery, (b->dep_count + 1) * sizeof *flags);
            if (!flags) {
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            b->dep_from_discovery = flags;
            flags[b->dep_count] = info->role == ROLE_DISCOVER;
            char **grown = mem_realloc(b->deps, (b->dep_count + 1) * sizeof *grown);
            if (!grown || !(grown[b->dep_count] = mem_strdup(path))) {
                if (grown)
                    b->deps = grown;
                build_report(b, DGPB_SEV_ERROR, DGPB_ERR_NOMEM, "out of memory");
                return DGPB_ERR_NOMEM;
            }
            b->deps = grown;
            b->dep_count++;
        }
    }
    return DGPB_OK;
}

void build_deps_free(build *b)
{
    depfile_free(b->deps, b->dep_count);
    dgpb_free(b->dep_from_discovery);
    b->deps = NULL;
    b->dep_from_discovery = NULL;
    b->dep_count = 0;
}
