/*
 * spirv_interface.c - an entry point's user-defined inputs or outputs, their
 * names, Locations and types (code/spirv/spirv_interface.h).
 */
#include <stdbool.h>
#include <string.h>

#include "core/alloc.h"
#include "code/spirv/spirv_interface.h"
#include "code/spirv/spirv_numbers.h"
#include "code/spirv/spirv_words.h"

/* A module's words, and the instruction that defines, names and decorates each id. */
typedef struct module {
    const uint8_t *code;
    size_t words;
    bool swap;
    uint32_t bound;
    uint32_t *def;      /* the word index of the instruction that defines the id; 0 none */
    uint32_t *name;     /* the word index of its OpName; 0 none */
    uint32_t *location; /* its Location + 1; 0 none */
    uint8_t *builtin;   /* BuiltIn on the id, or on a member of the struct type it is */
} module;

/* Word `k` of the instruction at word `at`; 0 when the instruction is shorter. */
static uint32_t word(const module *m, size_t at, uint32_t k)
{
    uint32_t count = spirv_word(m->code + 4 * at, m->swap) >> 16;
    return k < count ? spirv_word(m->code + 4 * (at + k), m->swap) : 0;
}

static uint32_t opcode(const module *m, size_t at)
{
    return spirv_word(m->code + 4 * at, m->swap) & 0xffffu;
}

/* The instruction that defines `id` (0 for none). */
static size_t def_of(const module *m, uint32_t id)
{
    return id < m->bound ? m->def[id] : 0;
}

/* Copies the literal string that starts at word `k` of the instruction at `at`. */
static void copy_string(const module *m, size_t at, uint32_t k, char *out, size_t n)
{
    uint32_t count = spirv_word(m->code + 4 * at, m->swap) >> 16;
    size_t len = 0;
    for (uint32_t w = k; w < count; w++) {
        uint32_t v = spirv_word(m->code + 4 * (at + w), m->swap);
        for (int b = 0; b < 4; b++) {
            char c = (char)((v >> (8 * b)) & 0xffu);
            if (!c || len + 1 >= n) {
                out[len] = 0;
                return;
            }
            out[len++] = c;
        }
    }
    out[len] = 0;
}

/* Whether `type` is (an array of) a struct that holds built-ins (gl_PerVertex). */
static bool builtin_block(const module *m, uint32_t type)
{
    for (int depth = 0; depth < 8; depth++) {
        size_t t = def_of(m, type);
        if (!t)
            return false;
        if (opcode(m, t) == OP_TYPE_STRUCT)
            return m->builtin[type] != 0;
        if (opcode(m, t) != OP_TYPE_ARRAY && opcode(m, t) != OP_TYPE_RUNTIME_ARRAY)
            return false;
        type = word(m, t, 2);
    }
    return false;
}

/* Fills the type fields of `v` from `type`: arrays, a matrix, a vector, a scalar. */
static void read_type(const module *m, uint32_t type, code_interface_var *v)
{
    v->components = v->columns = 1;
    size_t t = def_of(m, type);
    if (t && opcode(m, t) == OP_TYPE_ARRAY) {
        size_t c = def_of(m, word(m, t, 3));
        v->array = c && opcode(m, c) == OP_CONSTANT ? word(m, c, 3) : 1;
        t = def_of(m, word(m, t, 2));
    }
    if (t && opcode(m, t) == OP_TYPE_MATRIX) {
        v->columns = word(m, t, 3);
        t = def_of(m, word(m, t, 2));
    }
    if (t && opcode(m, t) == OP_TYPE_VECTOR) {
        v->components = word(m, t, 3);
        t = def_of(m, word(m, t, 2));
    }
    if (t && opcode(m, t) == OP_TYPE_FLOAT) {
        v->scalar = 'f';
        v->bits = word(m, t, 2);
    } else if (t && opcode(m, t) == OP_TYPE_INT) {
        v->scalar = word(m, t, 3) ? 'i' : 'u';
        v->bits = word(m, t, 2);
    }
}

/* Records what each id is (first pass); the first OpEntryPoint's word index in *entry. */
static int index_module(module *m, size_t *entry, dgpb_diag *d)
{
    *entry = 0;
    for (size_t i = SPV_HEADER_WORDS; i < m->words;) {
        uint32_t w = spirv_word(m->code + 4 * i, m->swap), count = w >> 16, op = w & 0xffffu;
        if (count == 0 || count > m->words - i)
            return dgpb_diag_set(d, DGPB_ERR_CORRUPT, (int64_t)(4 * i),
                                 "SPIR-V: the instruction at word %zu has a word count of %u, "
                                 "past the module's end",
                                 i, count);
        /* Types define their id in word 1; constants and variables in word 2. */
        uint32_t at = (op >= OP_TYPE_BOOL && op <= OP_TYPE_POINTER) ? 1
                      : (op == OP_CONSTANT || op == OP_VARIABLE)    ? 2
                                                                    : 0;
        uint32_t id = at ? word(m, i, at) : 0;
        if (at && id && id < m->bound)
            m->def[id] = (uint32_t)i;
        uint32_t target = word(m, i, 1);
        if (op == OP_NAME && count >= 3 && target < m->bound)
            m->name[target] = (uint32_t)i;
        if (op == OP_DECORATE && target < m->bound) {
            if (word(m, i, 2) == DECORATION_BUILT_IN)
                m->builtin[target] = 1;
            if (word(m, i, 2) == DECORATION_LOCATION && count >= 4)
                m->location[target] = word(m, i, 3) + 1;
        }
        if (op == OP_MEMBER_DECORATE && word(m, i, 3) == DECORATION_BUILT_IN &&
            target < m->bound)
            m->builtin[target] = 1;
        if (op == OP_ENTRY_POINT && count >= 4 && !*entry)
            *entry = i;
        i += count;
    }
    if (!*entry)
        return dgpb_diag_set(d, DGPB_ERR_CORRUPT, -1, "SPIR-V: the module has no entry point");
    return DGPB_OK;
}

int spirv_interface_read(const uint8_t *code, size_t size, bool outputs, code_interface_var **vars,
                         uint32_t *count, dgpb_diag *d)
{
    uint32_t storage = outputs ? STORAGE_OUTPUT : STORAGE_INPUT;
    *vars = NULL;
    *count = 0;
    module m = {.code = code, .words = size / 4};
    int rc = spirv_words_check(code, size, &m.swap, d);
    if (rc)
        return rc;
    m.bound = spirv_word(code + 12, m.swap);
    if (m.bound > m.words) /* ids are defined by instructions, so never more than the words */
        m.bound = (uint32_t)m.words;
    size_t n = m.bound ? m.bound : 1;
    m.def = mem_calloc(n, sizeof *m.def);
    m.name = mem_calloc(n, sizeof *m.name);
    m.location = mem_calloc(n, sizeof *m.location);
    m.builtin = mem_calloc(n, 1);
    size_t entry = 0;
    code_interface_var *out = NULL;
    uint32_t found = 0;
    if (!m.def || !m.name || !m.location || !m.builtin) {
        rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    if ((rc = index_module(&m, &entry, d)))
        goto done;
    /* The interface ids follow the entry point's name (a literal string from word 3). */
    uint32_t entry_words = spirv_word(code + 4 * entry, m.swap) >> 16, first = 3;
    while (first < entry_words) {
        uint32_t v = word(&m, entry, first++);
        if (!(v & 0xff000000u) || !(v & 0xff0000u) || !(v & 0xff00u) || !(v & 0xffu))
            break;
    }
    if (first < entry_words &&
        !(out = mem_calloc(entry_words - first, sizeof *out))) {
        rc = dgpb_diag_set(d, DGPB_ERR_NOMEM, -1, "out of memory");
        goto done;
    }
    for (uint32_t k = first; k < entry_words; k++) {
        uint32_t id = word(&m, entry, k);
        size_t v = def_of(&m, id);
        if (!v || opcode(&m, v) != OP_VARIABLE || word(&m, v, 3) != storage || m.builtin[id])
            continue;
        size_t ptr = def_of(&m, word(&m, v, 1));
        uint32_t type = ptr && opcode(&m, ptr) == OP_TYPE_POINTER ? word(&m, ptr, 3) : 0;
        if (builtin_block(&m, type))
            continue;
        code_interface_var *var = &out[found];
        memset(var, 0, sizeof *var);
        if (m.name[id])
            copy_string(&m, m.name[id], 2, var->name, sizeof var->name);
        var->location = m.location[id] ? m.location[id] - 1 : CODE_NO_LOCATION;
        read_type(&m, type, var);
        /* In order of Location (insertion: a handful of variables). */
        uint32_t at = found++, location = var->location;
        while (at && out[at - 1].location > location) {
            code_interface_var t = out[at - 1];
            out[at - 1] = out[at];
            out[at] = t;
            at--;
        }
    }
    if (found) {
        *vars = out;
        *count = found;
        out = NULL;
    }
done:
    dgpb_free(out);
    dgpb_free(m.def);
    dgpb_free(m.name);
    dgpb_free(m.location);
    dgpb_free(m.builtin);
    return rc;
}
