/* test_eng_fmt.c — eng_fmt_double and eng_fmt_int against the C library's
 * printf, byte for byte: known answers, then every kind of double the
 * exact path can meet (random bits, random values of each decade, values
 * of few decimals, exact ties at 15 and 17 digits, the neighbours of
 * powers of ten) and those it leaves to the library. BATCHLAB_FMT_N sets
 * the number of random values per kind (default 200 000; the change that
 * brought the exact path was checked with 10 000 000,
 * some 100 million doubles in all). */
#include "bl_test.h"
#include "eng_util.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The definition eng_fmt_double keeps: its text before eng_fmt.c. */
static const char *reference(char *buf, size_t len, double v)
{
    if (isfinite(v) && v == nearbyint(v) && fabs(v) < 9.007199254740992e15) {
        snprintf(buf, len, "%lld", (long long)v);
        return buf;
    }
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
    return buf;
}

/* splitmix64: a fixed sequence, so a failure repeats. */
static uint64_t next_u64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t n_random(void)
{
    const char *env = getenv("BATCHLAB_FMT_N");
    long n = env ? strtol(env, NULL, 10) : 0;
    return n > 0 ? (size_t)n : 200000;
}

static size_t mismatches;

static void same(double v)
{
    char a[32], b[32];
    eng_fmt_double(a, sizeof a, v);
    reference(b, sizeof b, v);
    if (strcmp(a, b) != 0) {
        if (mismatches++ < 5)
            fprintf(stderr, "eng_fmt_double(%a): \"%s\", the library \"%s\"\n", v, a, b);
    }
}

static void test_known(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0.5), "0.5");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, -0.0), "0");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0.0001), "0.0001");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0.00001), "1e-05");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 1.0 / 3), "0.33333333333333331");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 2.0 / 3), "0.66666666666666663");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 1234.5678), "1234.5678");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, -16055.125), "-16055.125");
    /* 3 + 2^-51 = 3.00000000000000044..: 15 digits give "3", which reads
     * back as 3, so 17 digits */
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 3.0000000000000004),
                           "3.0000000000000004");
    /* 12345678901234.25 at 15 digits is a tie: 123456789012342|.5 rounds
     * to even (…42), which does not read back (the step there is 2^-9),
     * so 17 digits: 12345678901234.250 without its zero */
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 12345678901234.25), "12345678901234.25");
    /* just below 1e15, 1e15 - 0.125: 17 digits, fixed */
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 999999999999999.875),
                           "999999999999999.88");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 1e15 + 0.5), "1000000000000000.5");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, INFINITY), "inf");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, -INFINITY), "-inf");
    CU_ASSERT_STRING_EQUAL(eng_fmt_int(buf, sizeof buf, 0), "0");
    CU_ASSERT_STRING_EQUAL(eng_fmt_int(buf, sizeof buf, -7), "-7");
    CU_ASSERT_STRING_EQUAL(eng_fmt_int(buf, sizeof buf, INT64_MIN), "-9223372036854775808");
    CU_ASSERT_STRING_EQUAL(eng_fmt_int(buf, sizeof buf, INT64_MAX), "9223372036854775807");
    char small[4];
    CU_ASSERT_STRING_EQUAL(eng_fmt_int(small, sizeof small, 12345), "123"); /* as snprintf cuts */
}

static void test_random_bits(void)
{
    uint64_t st = 1;
    mismatches = 0;
    size_t n = n_random();
    for (size_t i = 0; i < n; i++) {
        uint64_t b = next_u64(&st);
        double v;
        memcpy(&v, &b, sizeof v);
        same(v);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* Uniform mantissas in every binary exponent from 2^-20 to 2^55: the
 * exact path's range and both its edges. */
static void test_random_decades(void)
{
    uint64_t st = 2;
    mismatches = 0;
    size_t n = n_random();
    for (size_t i = 0; i < n; i++) {
        uint64_t r = next_u64(&st);
        int e = (int)(r % 76) - 20;
        double mant = 1.0 + (double)(next_u64(&st) >> 11) / 9007199254740992.0;
        double v = ldexp(mant, e);
        same(r & (1ULL << 63) ? -v : v);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* Values of 1 to 17 significant digits and 0 to 8 decimals, as logs and
 * platforms write them (0.1, 1234.5678, 95.25), and their neighbours. */
static void test_few_decimals(void)
{
    uint64_t st = 3;
    mismatches = 0;
    size_t n = n_random();
    for (size_t i = 0; i < n; i++) {
        int digits = 1 + (int)(next_u64(&st) % 17);
        uint64_t lim = 1;
        for (int k = 0; k < digits; k++)
            lim *= 10;
        uint64_t q = next_u64(&st) % lim;
        int dec = (int)(next_u64(&st) % 9);
        double v = (double)q / pow(10, dec);
        same(v);
        same(nextafter(v, INFINITY));
        same(nextafter(v, -INFINITY));
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* Ties: doubles whose exact decimal expansion ends in 5 one place past
 * the 15th or the 17th digit (small dyadic fractions above large
 * integers), and the doubles around every power of ten in range. */
static void test_ties_and_powers(void)
{
    uint64_t st = 4;
    mismatches = 0;
    size_t n = n_random();
    for (size_t i = 0; i < n; i++) {
        int frac_bits = 1 + (int)(next_u64(&st) % 8);
        int int_digits = 8 + (int)(next_u64(&st) % 8);
        uint64_t lim = 1;
        for (int k = 0; k < int_digits; k++)
            lim *= 10;
        double ip = (double)(next_u64(&st) % lim);
        double v = ip + ldexp((double)(2 * (next_u64(&st) % 64) + 1), -frac_bits);
        same(v);
        same(-v);
    }
    for (int k = -6; k <= 16; k++) {
        double p = pow(10, k);
        double v = p;
        for (int j = 0; j < 2000; j++) {
            same(v);
            v = nextafter(v, 0);
        }
        v = p;
        for (int j = 0; j < 2000; j++) {
            same(v);
            v = nextafter(v, INFINITY);
        }
        /* 9.99..9x at 15 and 17 digits: rounding up to the next decade */
        same(p * (1 - 5e-16));
        same(p * (1 - 5e-18));
        same(p * 0.99999999999999994);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

/* What the outputs print: ratios of run times, joules over hours. */
static void test_computed(void)
{
    uint64_t st = 5;
    mismatches = 0;
    size_t n = n_random();
    for (size_t i = 0; i < n; i++) {
        double a = (double)(next_u64(&st) % 300000 + 1);
        double b = (double)(next_u64(&st) % 90000 + 1);
        same(a / b);
        same(a * 190.738 / 3600);
        same(b * 95.0 + a * 0.125 / 3);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
}

int bl_suite_eng_fmt(void)
{
    CU_pSuite s = CU_add_suite("eng_fmt", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "known answers", test_known);
    CU_add_test(s, "random bit patterns = the library", test_random_bits);
    CU_add_test(s, "random values 2^-20 .. 2^55 = the library", test_random_decades);
    CU_add_test(s, "few decimals and neighbours = the library", test_few_decimals);
    CU_add_test(s, "ties and powers of ten = the library", test_ties_and_powers);
    CU_add_test(s, "computed ratios and energies = the library", test_computed);
    return 0;
}
