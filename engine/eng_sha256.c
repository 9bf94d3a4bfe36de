/* eng_sha256.c — SHA-256 through Nettle (nettle_sha256_*), and the hex
 * digest of a file read in 64 KB pieces. Cost: one pass over the bytes.
 */
#include "eng_sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void eng_sha256_init(eng_sha256 *s)
{
    sha256_init(&s->ctx);
}

void eng_sha256_update(eng_sha256 *s, const void *data, size_t len)
{
    if (len)
        sha256_update(&s->ctx, len, data);
}

void eng_sha256_final(eng_sha256 *s, uint8_t out[32])
{
    sha256_digest(&s->ctx, SHA256_DIGEST_SIZE, out);
}

int eng_sha256_file(const char *path, char hex[65], eng_diag *d)
{
    hex[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path, strerror(errno));
    eng_sha256 s;
    eng_sha256_init(&s);
    uint8_t buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        eng_sha256_update(&s, buf, got);
    if (ferror(f)) {
        int e = errno;
        fclose(f);
        return eng_diag_set(d, ENG_IO, "%s: read error: %s", path, strerror(e));
    }
    fclose(f);
    uint8_t digest[32];
    eng_sha256_final(&s, digest);
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[64] = '\0';
    return ENG_OK;
}
