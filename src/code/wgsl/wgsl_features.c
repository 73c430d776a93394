/*
 * wgsl_features.c - the `enable` and `requires` directives of a WGSL module
 * (code/wgsl/wgsl_ops.h), read before its first declaration.
 */
#include <stdbool.h>
#include <string.h>

#include "code/code_features.h"
#include "code/wgsl/wgsl_ops.h"

/* `enable a, b;` and `requires a;` before the first declaration; `diagnostic(...)` skipped. */
int wgsl_features_read(const uint8_t *code, size_t n, dgpb_code_features *f, dgpb_diag *d)
{
    const char *t = (const char *)code;
    size_t i = 0, cap = 0;
    for (;;) {
        if (!features_skip_space(t, n, &i, true))
            return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                 "WGSL: line %u: a comment is not closed", features_line(t, i));
        size_t at = i, len = features_ident(t, n, &i);
        bool enable = len == 6 && !memcmp(t + at, "enable", 6);
        bool requires = len == 8 && !memcmp(t + at, "requires", 8);
        if (len == 10 && !memcmp(t + at, "diagnostic", 10)) {
            while (i < n && t[i] != ';')
                i++;
            i++;
            continue;
        }
        if (!enable && !requires)
            return DGPB_OK; /* the first declaration: no directive follows */
        for (;;) {
            if (!features_skip_space(t, n, &i, true))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: a comment is not closed", features_line(t, i));
            size_t name_at = i, name_len = features_ident(t, n, &i);
            if (!name_len || name_len >= DGPB_CODE_FEATURE_NAME_MAX)
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)name_at,
                                     "WGSL: line %u: `%s` is not followed by an extension name",
                                     features_line(t, name_at), enable ? "enable" : "requires");
            if (!features_add(f, &cap, enable ? 0 : 1, t + name_at, name_len))
                return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
            if (!features_skip_space(t, n, &i, true) || i >= n || (t[i] != ',' && t[i] != ';'))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: `%s` list does not end in ';'",
                                     features_line(t, i), enable ? "enable" : "requires");
            if (t[i++] == ';')
                break;
            if (!features_skip_space(t, n, &i, true))
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                     "WGSL: line %u: a comment is not closed", features_line(t, i));
            if (i < n && t[i] == ';') { /* a trailing comma */
                i++;
                break;
            }
        }
    }
}
