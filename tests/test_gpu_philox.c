/* test_gpu_philox.c — Philox4x32: the Random123 known-answer vectors
 * (Salmon et al. 2011; kat_vectors of the Random123 distribution), stream
 * layout, stream independence and the distribution of words, integers
 * below n and uniforms. */
#include "bl_test.h"
#include "gpu_philox.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct kat {
    int rounds;
    uint32_t ctr[4], key[2], out[4];
} kat;

/* Random123 tests/kat_vectors: "philox4x32 R ctr0 ctr1 ctr2 ctr3 key0 key1
 * out0 out1 out2 out3". */
static const kat kats[] = {
    {7, {0, 0, 0, 0}, {0, 0}, {0x5f6fb709, 0x0d893f64, 0x4f121f81, 0x4f730a48}},
    {7,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x5207ddc2, 0x45165e59, 0x4d8ee751, 0x8c52f662}},
    {7,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0x4dfccaba, 0x190a87f0, 0xc47362ba, 0xb6b5242a}},
    {10, {0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {10,
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {10,
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

static void test_known_answers(void)
{
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
        gpu_philox_block c;
        memcpy(c.v, kats[i].ctr, sizeof c.v);
        gpu_philox_block r = gpu_philox4x32_r(kats[i].rounds, c, kats[i].key[0], kats[i].key[1]);
        for (int k = 0; k < 4; k++)
            if (r.v[k] != kats[i].out[k]) {
                printf("\n  vector %zu word %d: %08x, expected %08x", i, k, r.v[k], kats[i].out[k]);
                CU_FAIL("known-answer vector");
            }
    }
    gpu_philox_block z = {{0, 0, 0, 0}};
    gpu_philox_block r = gpu_philox4x32_10(z, 0, 0);
    CU_ASSERT_EQUAL(r.v[0], 0x6627e8d5u);
}

/* Words come block by block: block b of stream (s0, s1) under seed k. */
static void test_stream_layout(void)
{
    uint64_t seed = 0x0123456789abcdefull;
    gpu_philox_stream s;
    gpu_philox_stream_init(&s, seed, 7, 9);
    for (uint64_t b = 0; b < 3; b++) {
        gpu_philox_block c = {{(uint32_t)b, (uint32_t)(b >> 32), 7, 9}};
        gpu_philox_block e = gpu_philox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32));
        for (int k = 0; k < 4; k++)
            CU_ASSERT_EQUAL(gpu_philox_next(&s), e.v[k]);
    }
    /* a copy continues identically (plain data) */
    gpu_philox_stream t = s;
    for (int i = 0; i < 10; i++)
        CU_ASSERT_EQUAL(gpu_philox_next(&s), gpu_philox_next(&t));
}

/* Streams with different names or seeds share no word at the same place,
 * and agree nowhere on a long stretch (a collision of 32-bit words at the
 * same place has probability 2^-32 each). */
static void test_streams_independent(void)
{
    gpu_philox_stream a, b, c;
    gpu_philox_stream_init(&a, 42, 0, 0);
    gpu_philox_stream_init(&b, 42, 1, 0);
    gpu_philox_stream_init(&c, 43, 0, 0);
    int same_ab = 0, same_ac = 0;
    for (int i = 0; i < 4096; i++) {
        uint32_t x = gpu_philox_next(&a), y = gpu_philox_next(&b), z = gpu_philox_next(&c);
        same_ab += x == y;
        same_ac += x == z;
    }
    CU_ASSERT(same_ab <= 1);
    CU_ASSERT(same_ac <= 1);
}

/* A million uniforms: mean, variance, 256-bin chi-square at five standard
 * deviations of the statistic (255 degrees of freedom: sd = sqrt(510)). */
static void test_uniform_statistics(void)
{
    enum { N = 1000000, BINS = 256 };
    static unsigned bins[BINS];
    memset(bins, 0, sizeof bins);
    gpu_philox_stream s;
    gpu_philox_stream_init(&s, 20261125, 3, 0);
    double sum = 0, sum2 = 0;
    for (int i = 0; i < N; i++) {
        double u = gpu_philox_uniform(&s);
        CU_ASSERT(u >= 0 && u < 1);
        sum += u;
        sum2 += u * u;
        bins[(int)(u * BINS)]++;
    }
    double mean = sum / N, var = sum2 / N - mean * mean;
    CU_ASSERT(fabs(mean - 0.5) < 5 * sqrt(1.0 / 12 / N));
    CU_ASSERT(fabs(var - 1.0 / 12) < 0.001);
    double chi = 0, e = (double)N / BINS;
    for (int b = 0; b < BINS; b++)
        chi += (bins[b] - e) * (bins[b] - e) / e;
    if (fabs(chi - (BINS - 1)) >= 5 * sqrt(2.0 * (BINS - 1)))
        printf("\n  chi-square %.1f with %d degrees of freedom", chi, BINS - 1);
    CU_ASSERT(fabs(chi - (BINS - 1)) < 5 * sqrt(2.0 * (BINS - 1)));
}

/* gpu_philox_below: in range, each value about equally often, 1 -> 0. */
static void test_below(void)
{
    enum { N = 70000, K = 7 };
    size_t count[K] = {0};
    gpu_philox_stream s;
    gpu_philox_stream_init(&s, 5, 0, 1);
    for (int i = 0; i < N; i++) {
        uint32_t x = gpu_philox_below(&s, K);
        CU_ASSERT_FATAL(x < K);
        count[x]++;
        CU_ASSERT_EQUAL(gpu_philox_below(&s, 1), 0u);
    }
    for (int k = 0; k < K; k++)
        CU_ASSERT(bl_binom_ok(count[k], N, 1.0 / K, 0, "philox below 7"));
    /* the largest n: still in range */
    for (int i = 0; i < 1000; i++)
        CU_ASSERT(gpu_philox_below(&s, 0xFFFFFFFFu) < 0xFFFFFFFFu);
}

int bl_suite_gpu_philox(void)
{
    CU_pSuite s = CU_add_suite("gpu_philox", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "Random123 known-answer vectors", test_known_answers);
    CU_add_test(s, "stream layout", test_stream_layout);
    CU_add_test(s, "streams independent", test_streams_independent);
    CU_add_test(s, "uniform statistics", test_uniform_statistics);
    CU_add_test(s, "integers below n", test_below);
    return 0;
}
