/* eng_sha256.h — SHA-256 (FIPS 180-4, NIST 2015), for the input-file hashes
 * recorded in every run's manifest and the sweep's task-list checks.
 *
 * A thin layer over Nettle's sha256 (Debian nettle-dev): the project keeps
 * its own names so that callers need not know the library.
 *
 * Streaming use: eng_sha256_init(), any number of eng_sha256_update() calls
 * with pieces of any size, then eng_sha256_final(). The state lives in the
 * caller's storage and owns nothing, so there is no _fini.
 */
#ifndef ENG_SHA256_H
#define ENG_SHA256_H

#include "eng_error.h"

#include <nettle/sha2.h>

#include <stddef.h>
#include <stdint.h>

typedef struct eng_sha256 {
    struct sha256_ctx ctx;
} eng_sha256;

void eng_sha256_init(eng_sha256 *s);

/* Adds len bytes of data (data may be NULL when len is 0). */
void eng_sha256_update(eng_sha256 *s, const void *data, size_t len);

/* Writes the 32-byte digest to out and leaves s spent (init it again
 * before reuse). */
void eng_sha256_final(eng_sha256 *s, uint8_t out[32]);

/* The digest of a file's raw bytes as 64 lowercase hex digits and a NUL.
 * ENG_OK, or ENG_IO with "PATH: cannot open: <reason>" or
 * "PATH: read error: <reason>" in d. */
int eng_sha256_file(const char *path, char hex[65], eng_diag *d);

#endif
