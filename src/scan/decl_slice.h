/*
 * scan/decl_slice.h - the part of a Slang module's text that one entry's
 * code can depend on, as the compile cache's key text (internal;
 * docs/cache.md, "What an entry depends on").
 *
 * The text (a module's, after the #if branches a compile provably leaves
 * out are removed: scan/slang_text.h) is read as tokens, comments and white
 * space between them counting as one space, and split into its top-level
 * declarations. A declaration is kept when it may change the entry's code:
 *
 *   - every declaration that is not a function or a struct, class or
 *     interface definition: shader parameters (their places depend on every
 *     one declared before them), constants, globals, cbuffers, enums,
 *     namespaces, extensions, typedefs, imports, operators, prototypes, and
 *     anything the reading does not recognise;
 *   - the functions named as the entry, and every function and type whose
 *     name a kept declaration or directive (or a -D value) mentions, until
 *     nothing more is named;
 *   - a type whose conformance list, and a function whose attributes'
 *     arguments, mention a kept name (an implementation of a kept interface;
 *     [ForwardDerivativeOf(f)] of a kept f), since Slang may use them
 *     without the kept code naming them.
 *
 * Names are compared as bare identifiers, so overloads, members and
 * namespaces only ever keep more. Every directive line is kept. The result
 * is the kept declarations in text order plus the directives, so that an
 * edit to a comment, to white space or to a declaration the entry cannot
 * reach leaves it unchanged, and any other edit changes it.
 *
 * It declines (false), and the caller keys the whole text, where this
 * reading cannot be sure: __LINE__, __FILE__, __COUNTER__ or a #line
 * directive (an edit elsewhere would change what they say), token pasting
 * (##) in a directive (it names what no token names), brackets that do not
 * balance, a declaration that starts with punctuation other than an
 * attribute's '[', a variable declaration of a single word, or no function
 * named as the entry.
 */
#ifndef DGPB_DECL_SLICE_H
#define DGPB_DECL_SLICE_H

/*
 * The library's internal functions are linked as dgpb__<name>, so that they
 * never collide with a program's own symbols; the code calls them by their
 * short names (CONTRIBUTING.md, "Code conventions").
 */
#define decl_slice dgpb__decl_slice

#include <stdbool.h>
#include <stddef.h>

#include "core/bytebuf.h"

/*
 * Appends to `out` the key text of `entry`'s code in `text` (len bytes):
 * the declarations it may depend on, as above. `entry` NULL keeps every
 * declaration: the whole text, comments and white space normalised; with
 * `outline` each function definition's body is left out, its head kept (the
 * key of a discovery, which reads declarations: entries, their stages,
 * attributes and parameters, the module's parameters). `seeds` (seed_len bytes, may be NULL) is more text
 * whose identifiers count as named by a kept declaration (the compile's -D
 * values). Returns false when it declines or runs out of memory; what it
 * appended is then of no use.
 */
bool decl_slice(const char *text, size_t len, const char *entry, bool outline, const char *seeds,
                size_t seed_len, dgpb_bytebuf *out);

#endif
