/*
 * sha256.c - SHA-256 through OpenSSL's EVP interface (dgpb/sha256.h).
 */
#include "dgpb/sha256.h"

#include <openssl/evp.h>

#include "dgpb/result.h"

int dgpb_sha256(const void *data, size_t size, uint8_t out[DGPB_SHA256_SIZE])
{
    unsigned int len = 0;
    if (EVP_Digest(data, size, out, &len, EVP_sha256(), NULL) != 1 || len != DGPB_SHA256_SIZE)
        return DGPB_ERR_NOMEM;
    return DGPB_OK;
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
