/*
 * header/c_text.h - C text the header writes (header/c_header.h): the
 * header's bytes with formatted appends, identifiers C and C++ can spell
 * (never a keyword, never "__"), made unique in a set by "_2", "_3", ...,
 * and names safe inside comments (docs/build.md, "The C header": names).
 */
#ifndef DGPB_C_TEXT_H
#define DGPB_C_TEXT_H

/* Linked as dgpb__<name> (CONTRIBUTING.md, "Code conventions"). */
#define c_put dgpb__c_put
#define c_ident_append dgpb__c_ident_append
#define c_member_ident dgpb__c_member_ident
#define c_names_add dgpb__c_names_add
#define c_names_free dgpb__c_names_free
#define c_file_ident dgpb__c_file_ident
#define c_cstr dgpb__c_cstr
#define c_comment_text dgpb__c_comment_text

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bytebuf.h"
#include "dgpb/reader.h"

#define C_ID_MAX 512 /* bytes of an identifier the header makes; longer names are cut */

/* A set of identifiers: each name added is made unique in it. */
typedef struct c_names {
    char **items;
    size_t count, cap;
} c_names;

/* The header being written: its bytes, its file-scope identifiers and the stem's. */
typedef struct c_text {
    dgpb_bytebuf out;
    c_names ids;          /* every file-scope identifier and macro of the header */
    char stem[C_ID_MAX];  /* the stem as an identifier */
    char guard[C_ID_MAX]; /* the include guard */
    char sa[C_ID_MAX];    /* the static-assertion macro */
    bool nomem;           /* an allocation failed: the header is not made */
} c_text;

/* Appends printf-formatted text to h->out (a failure sets h->out.failed). */
void c_put(c_text *h, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Appends `s` (len bytes) to the identifier in out (size bytes) as C can
 * spell it: every character but a letter or digit becomes '_', runs of '_'
 * one, and no '_' leads or trails.
 */
void c_ident_append(char *out, size_t size, const char *s, size_t len);

/* An identifier for a name that stands alone (a member): never empty, never a digit first,
   never a name a standard header or the header itself (its stem) may take (c_text.c). */
void c_member_ident(const char *stem, char *out, size_t size, const char *s, size_t len);

/* Makes `id` (of at most C_ID_MAX bytes) unique in `n` and adds it; false: no memory. */
bool c_names_add(c_names *n, char *id);
void c_names_free(c_names *n);

/* A file-scope identifier from parts (const dgpb_str *, NULL-terminated) after the stem, made
   unique among h->ids, into out (C_ID_MAX bytes); false (h->nomem set) without memory. */
bool c_file_ident(c_text *h, char *out, ...);

dgpb_str c_cstr(const char *s);

/* A name as comment text: printable ASCII, and never the end of a comment. */
const char *c_comment_text(dgpb_str s, char *buf, size_t size);

#endif
