/*
 * tools/common/tool_common.h - what the command-line tools (tools/<program>/)
 * share: their name in messages, usage errors, and diagnostics printed to
 * standard error. Linked into each program (the top CMakeLists.txt).
 */
#ifndef DGPB_TOOL_COMMON_H
#define DGPB_TOOL_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dgpb/result.h"

/*
 * Names the program for the messages below, first thing in main: `name`
 * ("dgpb-run") starts each message, `tag` follows it on a usage error
 * ("error: ", or ""), and `usage_status` is what tool_usage_error() returns
 * (the program's exit status for a usage error).
 */
void tool_init(const char *name, const char *tag, int usage_status);

/*
 * Prints "<name>: <tag><message>" and "(see '<name> --help')" on standard
 * error; returns the usage status given to tool_init().
 */
int tool_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/*
 * Prints a diagnostic on standard error as "<name>: <file:line:col: error:
 * message>" (dgpb_diag_format()), naming `file` when the diagnostic names no
 * file (`file` may be NULL); in JSON mode as tool_print_diag_json() does.
 */
void tool_print_diag(const dgpb_diag *d, const char *file);

/*
 * JSON mode (dgpb-build --diagnostics json): tool_usage_error() and
 * tool_print_diag() print each diagnostic as one JSON object on one line of
 * standard error, as tool_print_diag_json() does, instead of text.
 */
void tool_set_json(bool on);
bool tool_json(void);

/*
 * Prints a diagnostic as one JSON object on one line of standard error:
 *   {"severity":"warning","file":"m.slang","line":7,"column":13,
 *    "code":"E30081","message":"implicit conversion ..."}
 * every key always there, null where unknown (no file, line or column 0, a
 * note or warning of dgpb's own without a code). "code" is Slang's code of
 * a diagnostic passed through (tool_code) or the name of dgpb's result code
 * ("DGPB_ERR_SHADER", dgpb_result_name()); the excerpt (Slang's source line
 * and caret) is left out. Text that is not UTF-8 is written with U+FFFD in
 * place of each bad byte, so that every line is valid JSON.
 */
void tool_print_diag_json(const dgpb_diag *d);

/*
 * The `n` bytes at `s` as text safe for a terminal: TAB, LF and CR as `\t`,
 * `\n`, `\r`; other C0 controls, DEL, the C1 controls and each byte that is
 * not part of well-formed UTF-8 as `\xNN`; the rest as it is (the library's
 * core/text_escape.h does the same). The string lives until the eighth call
 * after this one, so one printf may take up to eight of them.
 */
const char *tool_text(const char *s, size_t n);

/*
 * Writes `s` to `f` as a JSON string: quoted, with '"', '\\' and control
 * characters escaped, and each byte that is not part of well-formed UTF-8
 * written as U+FFFD, so that the document is valid JSON whatever `s` holds.
 */
void tool_json_string(FILE *f, const char *s);

/*
 * A row's `space` and `binding` as every listing spells them (dgpb-dump's
 * listing, --report and --diff lines, dgpb-run --list): the vocabulary's
 * name of a reserved number (dgpb_space_name(), dgpb_binding_name():
 * `launch`, `pipeline_constant`, `inline`), else the number, written into
 * `buf`. The JSON views keep the number.
 */
const char *tool_space_text(uint32_t space, char buf[16]);
const char *tool_binding_text(uint32_t binding, char buf[16]);

#endif
