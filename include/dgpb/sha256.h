/*
 * dgpb/sha256.h - SHA-256 of a byte range or a file, through OpenSSL's EVP
 * interface.
 */
#ifndef DGPB_SHA256_H
#define DGPB_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DGPB_SHA256_SIZE 32

/* Hashes `size` bytes into out[32]. Returns DGPB_OK, or DGPB_ERR_NOMEM if OpenSSL fails. */
int dgpb_sha256(const void *data, size_t size, uint8_t out[DGPB_SHA256_SIZE]);

/*
 * Hashes a regular file's bytes into out[32], read 64 KiB at a time (a file of
 * any size costs no more memory). Returns DGPB_OK, DGPB_ERR_IO when it cannot
 * be opened or read or is not a regular file, or DGPB_ERR_NOMEM if OpenSSL fails.
 */
int dgpb_sha256_file(const char *path, uint8_t out[DGPB_SHA256_SIZE]);

/* Writes the 64 lowercase hex digits of a hash and a NUL into hex[65]. */
void dgpb_sha256_hex(const uint8_t sha[DGPB_SHA256_SIZE], char hex[2 * DGPB_SHA256_SIZE + 1]);

#ifdef __cplusplus
}
#endif

#endif
