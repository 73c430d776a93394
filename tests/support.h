/*
 * support.h - shared pieces of the tests: the hand-built golden model,
 * helpers to find fields inside written bytes, allocation fault injection,
 * temporary folders, files written for a test or by a test program, and an
 * assertion on text. support.c holds what needs no cmocka (so programs that
 * are no cmocka test link it too); support_asserts.c what fails a test.
 */
#ifndef DGPB_TEST_SUPPORT_H
#define DGPB_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dgpb/dgpb.h"
#include "bundle/model.h"

/* A small valid compute SPIR-V module whose OpSource names Slang (language 11). */
extern const uint32_t support_spirv_words[];
extern const size_t support_spirv_word_count;

/* Builds the golden model: targets wgsl and spirv (added in that order), dedup, layouts. */
dgpb_model *support_golden_model(void);

/* Writes the golden model; aborts the test program on failure. Free with dgpb_free(). */
uint8_t *support_golden_bytes(size_t *size);

/* A model with targets "dxil" and "wgsl" (one entry each), written; for order tests. */
uint8_t *support_two_target_bytes(size_t *size);

/*
 * The two-target model with every project option recorded (block_layout
 * "scalar", debug_info "2", matrix_layout "column", optimization "0",
 * slang_capabilities SUPPORT_OPTION_CAPABILITIES, spirv_version "1.6"),
 * written: its data section starts with the options record.
 */
#define SUPPORT_OPTION_CAPABILITIES "spvImageGatherExtended,spvImageQuery"
uint8_t *support_options_bytes(size_t *size);

/* Byte offsets of fields inside a written bundle, found through a reader view. */
size_t support_offset_of(const uint8_t *bytes, const void *p);
/* The blob reference (offset u32) of an entry's code: just after its layout index. */
size_t support_code_ref_offset(const uint8_t *bytes, const dgpb_entry_view *e);
/* The u32 `kind` of a parameter: just after its name. */
size_t support_param_field_offset(const uint8_t *bytes, const dgpb_param_view *p, int field);

void support_put_u32(uint8_t *bytes, size_t at, uint32_t v);
uint32_t support_get_u32(const uint8_t *bytes, size_t at);

/* Reads a file of the source tree (path relative to the repository root). */
uint8_t *support_read_source_file(const char *relpath, size_t *size);

/*
 * Allocation fault injection through dgpb_set_allocator(). Armed with n >= 0,
 * the library's allocations succeed n times, then one (allocation n + 1)
 * fails and the rest succeed again; n < 0 fails none. Arming installs the
 * failing hooks, disarming restores malloc/realloc/free.
 */
void support_faults_arm(long n);
/* Armed so that every allocation fails, until disarmed. */
void support_faults_arm_all(void);
/* How many allocations failed since the last arming. */
long support_faults_fired(void);
/* How many allocations the library asked for since the last arming (failed ones included). */
long support_faults_seen(void);
void support_faults_disarm(void);

/* Bytes and their size: the argument of an operation that reads a buffer. */
typedef struct support_bytes {
    uint8_t *bytes;
    size_t size;
} support_bytes;

/*
 * Runs op(arg) with allocation 1, 2, 3, ... failing in turn until a run meets
 * no failure (SQLite's fault loop). Every run in which an allocation failed
 * must return DGPB_ERR_NOMEM and the run without one `expected`. Returns the
 * number of failing runs (the operation's allocations), or -1 after printing
 * what went wrong, naming `what`, to stderr. Disarms before returning.
 */
long support_run_with_faults(int (*op)(void *), void *arg, int expected, const char *what);

/*
 * Creates a fresh folder /tmp/dgpb-<name>-XXXXXX and writes its path to buf
 * (n bytes). Returns 0, or -1 when it cannot (buf then holds no path).
 */
int support_make_temp_dir(const char *name, char *buf, size_t n);
/* Removes path and everything below it; 0 when it is gone. */
int support_remove_tree(const char *path);

/*
 * The temporary folder of a test program whose tests share one. As cmocka
 * group fixtures, support_dir_setup() makes it (/tmp/dgpb-<program>-XXXXXX,
 * <program> the test program's name without "test_") and returns 0, or -1
 * when it cannot; support_dir_teardown() removes it and everything below.
 */
extern char support_dir[256];
int support_dir_setup(void **state);
int support_dir_teardown(void **state);

/*
 * Writes a test program's output DIR/NAME atomically (dgpb_file_write_atomic()).
 * DGPB_ERR_LIMIT "the path 'DIR/NAME' is too long", or the write's failure,
 * in `d`.
 */
int support_write_output(const char *dir, const char *name, const void *data, size_t size,
                         dgpb_diag *d);

/* ---- support_asserts.c: these fail the running cmocka test ---------------- */

/* Fails the test unless `haystack` (NULL fails) contains `needle`; named like cmocka's asserts. */
void assert_contains(const char *haystack, const char *needle);

/*
 * Writes `text` to `path` (created or truncated), then gives it `mode`; fails
 * the test when it cannot. Only libc: safe while allocation faults are armed.
 */
void support_write_file(const char *path, const char *text, mode_t mode);

#endif
