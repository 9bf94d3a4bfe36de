/* eng_fmt.c — numbers as the outputs write them (eng_util.h:
 * eng_fmt_double, eng_fmt_int).
 *
 * The text of a double is defined by the C library: "%.15g" when that
 * reads back to exactly the same double, else "%.17g"; integral values
 * (below 2^53) as "%lld". Every output file and the golden tests rest on
 * those bytes, so this file produces them without the library's printf
 * where it can do so exactly, and calls the library everywhere else:
 *
 *   integral values         digits of the integer (no printf);
 *   1e-4 <= |v| < 1e15      the exact decimal rounding below (no printf);
 *   anything else (tiny, huge, subnormal, inf, nan)  snprintf as defined.
 *
 * The exact rounding. A finite double is v = m x 2^-s with m an integer
 * below 2^53. Its decimal rounding to P significant digits is
 * q = round(v x 10^p), p = P - 1 - X, X its decimal exponent, and
 * v x 10^p = m x 10^p / 2^s: m x 10^p is an integer below 2^123 (p <= 21
 * in the range above), so q and the remainder that decides its rounding
 * (to nearest, ties to even, as glibc rounds the exact binary value) come
 * from one 128-bit product and a shift. X is found from a table and
 * checked on the integer (10^(P-1) <= floor(v x 10^p) < 10^P); a rounding
 * up to 10^P moves it up by one, as %g does.
 *
 * Whether the 15-digit text reads back to v: that text's value is
 * q15 / 10^p15 with q15 < 10^15 < 2^53 and p15 <= 18 <= 22, so both are
 * exact doubles and IEEE division gives the correctly rounded quotient,
 * which is what a correct strtod returns for the text (Clinger 1990's
 * fast path). The layout is %g's fixed style for exponents -4 .. P-1:
 * p digits after the point, trailing zeros and a bare point removed.
 *
 * tests/test_eng_fmt.c compares every path with the library's on tens of
 * millions of random and constructed doubles, byte for byte.
 */
#include "eng_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes the decimal digits of q before end; returns their start. */
static char *digits_before(char *end, uint64_t q)
{
    do {
        *--end = (char)('0' + q % 10);
        q /= 10;
    } while (q);
    return end;
}

const char *eng_fmt_int(char *buf, size_t len, long long v)
{
    char tmp[24];
    char *end = tmp + sizeof tmp;
    *--end = '\0';
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    char *p = digits_before(end, mag);
    if (v < 0)
        *--p = '-';
    size_t n = (size_t)(end - p) + 1;
    if (n > len) {
        snprintf(buf, len, "%lld", v);
        return buf;
    }
    memcpy(buf, p, n);
    return buf;
}

/* The library's definition, for everything the exact path does not take. */
static const char *fmt_double_libc(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
    return buf;
}

#ifdef __SIZEOF_INT128__

__extension__ typedef unsigned __int128 u128; /* GCC and Clang */

static const uint64_t pow10_u64[20] = {1ULL,
                                       10ULL,
                                       100ULL,
                                       1000ULL,
                                       10000ULL,
                                       100000ULL,
                                       1000000ULL,
                                       10000000ULL,
                                       100000000ULL,
                                       1000000000ULL,
                                       10000000000ULL,
                                       100000000000ULL,
                                       1000000000000ULL,
                                       10000000000000ULL,
                                       100000000000000ULL,
                                       1000000000000000ULL,
                                       10000000000000000ULL,
                                       100000000000000000ULL,
                                       1000000000000000000ULL,
                                       10000000000000000000ULL};

/* 10^0 .. 10^22, each exact in a double. */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Smallest and largest decimal exponents the exact path writes. */
enum { X_MIN = -4, X_MAX = 14 };

/* m x 10^p, p <= 21. */
static u128 mul_pow10(uint64_t m, int p)
{
    if (p <= 19)
        return (u128)m * pow10_u64[p];
    return (u128)m * pow10_u64[19] * pow10_u64[p - 19];
}

/* q = round(m x 10^(P-1-X) / 2^s) to nearest, ties to even, with X the
 * decimal exponent of the result (X updated from its estimate). Returns
 * false when X leaves X_MIN .. P-1 (the exponent style of %g, or below
 * the exact range). */
static bool round_digits(uint64_t m, int s, int P, int *X, uint64_t *q)
{
    const uint64_t lo = pow10_u64[P - 1], hi = pow10_u64[P];
    int x = *X;
    for (int tries = 0;; tries++) {
        if (x < X_MIN || x > X_MAX || tries > 2)
            return false;
        u128 a = mul_pow10(m, P - 1 - x);
        u128 t = a >> s;
        if (t >= hi) {
            x++;
            continue;
        }
        if (t < lo) {
            x--;
            continue;
        }
        u128 rem = a - (t << s), half = (u128)1 << (s - 1);
        uint64_t r = (uint64_t)t;
        if (rem > half || (rem == half && (r & 1)))
            r++;
        if (r == hi) { /* 9.99..95 -> 10.0: the exponent of the rounded value */
            r = lo;
            x++;
            if (x > P - 1)
                return false;
        }
        *X = x;
        *q = r;
        return true;
    }
}

/* %g's fixed style: the P digits of q with p = P - 1 - X after the point,
 * trailing zeros and a bare point removed. */
static void put_fixed(char *buf, bool neg, uint64_t q, int P, int X)
{
    char dig[24];
    const char *d = digits_before(dig + sizeof dig, q); /* exactly P digits */
    char *o = buf;
    if (neg)
        *o++ = '-';
    int n_int = X >= 0 ? X + 1 : 0; /* q's digits before the point */
    int n_frac = P - n_int;         /* and after it, once -X-1 zeros are written */
    if (n_int > 0) {
        memcpy(o, d, (size_t)n_int);
        o += n_int;
        d += n_int;
    } else {
        *o++ = '0';
    }
    while (n_frac > 0 && d[n_frac - 1] == '0')
        n_frac--;
    if (n_frac > 0) { /* X < 0 always gets here: q's first digit is not 0 */
        *o++ = '.';
        for (int z = 0; z < -X - 1; z++)
            *o++ = '0';
        memcpy(o, d, (size_t)n_frac);
        o += n_frac;
    }
    *o = '\0';
}

/* The exact path; false where v is outside its range. */
static bool fmt_double_exact(char *buf, double v)
{
    double a = fabs(v);
    if (!(a >= 1e-4 && a < 1e15))
        return false;
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int e = (int)(bits >> 52); /* normal: a >= 1e-4 */
    uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
    int s = 1075 - e; /* a = m x 2^-s; s >= 3 below 2^50, <= 66 above 2^-14 */
    if (s < 1)
        return false;
    /* the decimal exponent, to within one (checked on the integer) */
    static const double dec[X_MAX - X_MIN + 1] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2,
                                                  1e3,  1e4,  1e5,  1e6,  1e7, 1e8, 1e9,
                                                  1e10, 1e11, 1e12, 1e13, 1e14};
    int X = X_MIN;
    while (X < X_MAX && a >= dec[X + 1 - X_MIN])
        X++;
    int X15 = X, X17 = X;
    uint64_t q;
    if (!round_digits(m, s, 15, &X15, &q))
        return false;
    int p15 = 14 - X15;
    if (p15 >= 0 && p15 <= 22 && (double)q / pow10_exact[p15] == a) {
        put_fixed(buf, v < 0, q, 15, X15);
        return true;
    }
    if (!round_digits(m, s, 17, &X17, &q))
        return false;
    put_fixed(buf, v < 0, q, 17, X17);
    return true;
}

#else

static bool fmt_double_exact(char *buf, double v)
{
    (void)buf;
    (void)v;
    return false;
}

#endif

const char *eng_fmt_double(char *buf, size_t len, double v)
{
    if (isfinite(v) && v == nearbyint(v) && fabs(v) < 9.007199254740992e15)
        return eng_fmt_int(buf, len, (long long)v);
    if (len >= 32 && fmt_double_exact(buf, v))
        return buf;
    return fmt_double_libc(buf, len, v);
}
