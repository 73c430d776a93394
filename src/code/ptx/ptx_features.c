/*
 * ptx_features.c - the first `.target` directive of a PTX module
 * (code/ptx/ptx_ops.h): its `sm_NN` and its options.
 */
#include <stdbool.h>
#include <string.h>

#include "code/code_features.h"
#include "code/ptx/ptx_ops.h"

/* The words of the first `.target` directive: `sm_NN` and options, separated by commas. */
int ptx_features_read(const uint8_t *code, size_t n, dgpb_code_features *f, dgpb_diag *d)
{
    const char *t = (const char *)code;
    size_t i = 0, cap = 0;
    while (i < n) {
        if (!features_skip_space(t, n, &i, false))
            return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)i,
                                 "PTX: line %u: a comment is not closed", features_line(t, i));
        if (i >= n)
            break;
        if (t[i] == '"') { /* a string: skipped whole */
            for (i++; i < n && t[i] != '"' && t[i] != '\n'; i++)
                if (t[i] == '\\')
                    i++;
            i++;
            continue;
        }
        if (t[i] != '.' || n - i < 8 || memcmp(t + i, ".target", 7) ||
            features_ident_char(t[i + 7], false)) {
            i++;
            while (i < n && features_ident_char(t[i], false))
                i++;
            continue;
        }
        size_t directive = i;
        i += 7;
        for (;;) {
            while (i < n && (t[i] == ' ' || t[i] == '\t'))
                i++;
            size_t at = i, len = features_ident(t, n, &i);
            if (!len || len >= DGPB_CODE_FEATURE_NAME_MAX)
                return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)at,
                                     "PTX: line %u: `.target` is not followed by a target name",
                                     features_line(t, directive));
            uint32_t number = 0;
            if (len > 3 && !memcmp(t + at, "sm_", 3))
                for (size_t k = at + 3;
                     k < at + len && t[k] >= '0' && t[k] <= '9' && number < 10000; k++)
                    number = number * 10 + (uint32_t)(t[k] - '0');
            if (!features_add(f, &cap, number, t + at, len))
                return dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
            while (i < n && (t[i] == ' ' || t[i] == '\t'))
                i++;
            if (i >= n || t[i] != ',')
                return DGPB_OK;
            i++;
        }
    }
    return dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1, "PTX: no `.target` directive");
}
