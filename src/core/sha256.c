/*
 * sha256.c - SHA-256 through OpenSSL's EVP interface (dgpb/sha256.h).
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC */
#include "dgpb/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/io_fault.h"
#include "dgpb/result.h"

int dgpb_sha256(const void *data, size_t size, uint8_t out[DGPB_SHA256_SIZE])
{
    unsigned int len = 0;
    if (EVP_Digest(data, size, out, &len, EVP_sha256(), NULL) != 1 || len != DGPB_SHA256_SIZE)
        return DGPB_ERR_NOMEM;
    return DGPB_OK;
}

int dgpb_sha256_file(const char *path, uint8_t out[DGPB_SHA256_SIZE])
{
    /* O_NONBLOCK: a FIFO in the file's place opens at once, and is then refused. Each
       step asks the fault hook first, as dgpb/fileio.h's do (core/io_fault.h). */
    int fd = io_fault("open", path) ? -1 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return DGPB_ERR_IO;
    struct stat st;
    EVP_MD_CTX *ctx = NULL;
    int rc = fstat(fd, &st) || !S_ISREG(st.st_mode) ? DGPB_ERR_IO : DGPB_OK;
    if (!rc && (!(ctx = EVP_MD_CTX_new()) || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1))
        rc = DGPB_ERR_NOMEM;
    unsigned char buf[1 << 16];
    while (!rc) {
        ssize_t n = io_fault("read", path) ? -1 : read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            rc = DGPB_ERR_IO;
        else if (n == 0)
            break;
        else if (EVP_DigestUpdate(ctx, buf, (size_t)n) != 1)
            rc = DGPB_ERR_NOMEM;
    }
    unsigned int len = 0;
    if (!rc && (EVP_DigestFinal_ex(ctx, out, &len) != 1 || len != DGPB_SHA256_SIZE))
        rc = DGPB_ERR_NOMEM;
    EVP_MD_CTX_free(ctx);
    close(fd);
    return rc;
}

void dgpb_sha256_hex(const uint8_t sha[DGPB_SHA256_SIZE], char hex[2 * DGPB_SHA256_SIZE + 1])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < DGPB_SHA256_SIZE; i++) {
        hex[2 * i] = digits[sha[i] >> 4];
        hex[2 * i + 1] = digits[sha[i] & 15];
    }
    hex[2 * DGPB_SHA256_SIZE] = 0;
}
