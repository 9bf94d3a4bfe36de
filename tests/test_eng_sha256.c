/* test_eng_sha256.c — SHA-256 against the known answers published with
 * FIPS 180-4 (NIST 2015; the "abc", two-block and one-million-'a' examples),
 * the empty message, and a file's digest. */
#include "bl_test.h"
#include "eng_sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_of(const uint8_t d[32], char hex[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void expect_digest(const char *msg, const char *want)
{
    eng_sha256 s;
    uint8_t d[32];
    char hex[65];
    eng_sha256_init(&s);
    eng_sha256_update(&s, msg, strlen(msg));
    eng_sha256_final(&s, d);
    hex_of(d, hex);
    CU_ASSERT_STRING_EQUAL(hex, want);

    /* the same bytes one at a time */
    eng_sha256_init(&s);
    for (size_t i = 0; msg[i]; i++)
        eng_sha256_update(&s, msg + i, 1);
    eng_sha256_final(&s, d);
    hex_of(d, hex);
    CU_ASSERT_STRING_EQUAL(hex, want);
}

static void test_known_answers(void)
{
    expect_digest("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_digest("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* 896 bits (the message of the SHA-512 two-block example): 112 bytes,
     * so the length goes into the second block's tail. */
    expect_digest("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                  "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
    /* messages of 55, 56 and 64 bytes: the padding boundaries */
    expect_digest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                  "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    expect_digest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                  "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    expect_digest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                  "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

static void test_million_a(void)
{
    char *buf = malloc(1000000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    memset(buf, 'a', 1000000);
    eng_sha256 s;
    eng_sha256_init(&s);
    /* uneven chunks: 1, 2, 3, ... 63, 64, 65, ... bytes, crossing block
     * boundaries at every possible offset */
    size_t done = 0, chunk = 1;
    while (done < 1000000) {
        size_t n = chunk < 1000000 - done ? chunk : 1000000 - done;
        eng_sha256_update(&s, buf + done, n);
        done += n;
        chunk = chunk % 200 + 1;
    }
    eng_sha256_update(&s, NULL, 0);
    uint8_t d[32];
    char hex[65];
    eng_sha256_final(&s, d);
    hex_of(d, hex);
    CU_ASSERT_STRING_EQUAL(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    /* in one call */
    eng_sha256_init(&s);
    eng_sha256_update(&s, buf, 1000000);
    eng_sha256_final(&s, d);
    hex_of(d, hex);
    CU_ASSERT_STRING_EQUAL(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(buf);
}

static void test_file(void)
{
    eng_diag d;
    eng_diag_clear(&d);
    char hex[65];
    const char *path = bl_write_tmp("abc.txt", "abc");
    CU_ASSERT_EQUAL(eng_sha256_file(path, hex, &d), ENG_OK);
    CU_ASSERT_STRING_EQUAL(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    /* bigger than the read buffer, with bytes of every value */
    size_t n = 200000;
    unsigned char *bytes = malloc(n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bytes);
    for (size_t i = 0; i < n; i++)
        bytes[i] = (unsigned char)(i * 7 + i / 256);
    path = bl_write_tmp("bin.dat", "");
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(bytes, 1, n, f), n);
    fclose(f);
    eng_sha256 s;
    uint8_t dig[32];
    char want[65];
    eng_sha256_init(&s);
    eng_sha256_update(&s, bytes, n);
    eng_sha256_final(&s, dig);
    hex_of(dig, want);
    CU_ASSERT_EQUAL(eng_sha256_file(path, hex, &d), ENG_OK);
    CU_ASSERT_STRING_EQUAL(hex, want);
    free(bytes);

    char missing[800];
    snprintf(missing, sizeof missing, "%s/missing.swf", bl_tmpdir());
    CU_ASSERT_EQUAL(eng_sha256_file(missing, hex, &d), ENG_IO);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s: cannot open: No such file or directory", missing);
    CU_ASSERT_STRING_EQUAL(d.msg, msg);
    CU_ASSERT_STRING_EQUAL(hex, "");
}

int bl_suite_eng_sha256(void)
{
    CU_pSuite s = CU_add_suite("eng_sha256", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "FIPS 180-4 known answers", test_known_answers);
    CU_add_test(s, "one million 'a' in uneven chunks", test_million_a);
    CU_add_test(s, "file digest, missing file", test_file);
    return 0;
}
