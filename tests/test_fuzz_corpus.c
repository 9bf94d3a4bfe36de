/* test_fuzz_corpus.c — replays the fuzz targets' seed corpus and every
 * input a fuzzing run found (tests/fuzz/regressions/TARGET/) through the
 * same entry points bench/fuzz runs (tests/fuzz/fuzz_*.c, compiled into
 * this runner under other names). A target aborts on a broken contract, so
 * a regression fails here loudly. */
#include "bl_test.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bl_fuzz_swf_one(const uint8_t *data, size_t size);
int bl_fuzz_platform_one(const uint8_t *data, size_t size);
int bl_fuzz_args_one(const uint8_t *data, size_t size);
int bl_fuzz_coreidx_one(const uint8_t *data, size_t size);
int bl_fuzz_resv_one(const uint8_t *data, size_t size);

/* Feeds every file of tests/fuzz/DIR to fn; returns how many. */
static int replay(const char *dir, int (*fn)(const uint8_t *, size_t))
{
    char path[1024];
    snprintf(path, sizeof path, "%s", bl_src(dir));
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char file[1400];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        size_t len;
        char *data = bl_slurp(file, &len);
        if (!data)
            continue;
        CU_ASSERT_EQUAL(fn((const uint8_t *)data, len), 0);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

static void test_swf(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/swf", bl_fuzz_swf_one) >= 5);
    replay("tests/fuzz/regressions/swf", bl_fuzz_swf_one);
    /* and a few classic hard cases, inline */
    static const char *const cases[] = {"",
                                        "\n\n",
                                        ";",
                                        "1",
                                        "\x1f\x8b\x08\x00garbage",
                                        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19\n"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CU_ASSERT_EQUAL(bl_fuzz_swf_one((const uint8_t *)cases[i], strlen(cases[i])), 0);
}

static void test_platform(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/platform", bl_fuzz_platform_one) >= 2);
    replay("tests/fuzz/regressions/platform", bl_fuzz_platform_one);
}

static void test_args(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/args", bl_fuzz_args_one) >= 2);
    replay("tests/fuzz/regressions/args", bl_fuzz_args_one);
}

static void test_coreidx(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/coreidx", bl_fuzz_coreidx_one) >= 3);
    replay("tests/fuzz/regressions/coreidx", bl_fuzz_coreidx_one);
}

static void test_resv(void)
{
    CU_ASSERT(replay("tests/fuzz/corpus/resv", bl_fuzz_resv_one) >= 3);
    replay("tests/fuzz/regressions/resv", bl_fuzz_resv_one);
}

int bl_suite_fuzz_corpus(void)
{
    CU_pSuite s = CU_add_suite("fuzz_corpus", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "SWF reader corpus and regressions", test_swf);
    CU_add_test(s, "platform properties corpus and regressions", test_platform);
    CU_add_test(s, "option parsing corpus and regressions", test_args);
    CU_add_test(s, "core indices corpus and regressions", test_coreidx);
    CU_add_test(s, "reservation files corpus and regressions", test_resv);
    return 0;
}
