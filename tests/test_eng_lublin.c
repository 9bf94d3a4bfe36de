/* test_eng_lublin.c — the Lublin–Feitelson generator (engine/eng_lublin.c;
 * Lublin & Feitelson 2003, reference generator lublin99.c) and `batchlab
 * generate lublin` (tools/cli_generate.c).
 *
 * Known answers computed from lublin99.c's constants (independently of our
 * generator): the 48 daily-cycle weights (4 decimals), the acceptance
 * probabilities P(g <= 12) (5 decimals), the mixing probabilities p(n) (4
 * decimals), the parameters fitted to 128 nodes (the generator's own) and
 * the statistics of 10^6 generated jobs.
 *
 * Statistical tests use fixed seeds, so each is deterministic; the
 * tolerances are what the sample size allows, derived next to each one.
 * "5 sigma" bounds a single normal-approximation check at a false-alarm
 * probability below 6e-7; chi-square and t tests use the 0.001 quantile
 * (Bonferroni-corrected where a test makes many comparisons).
 */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_lublin.h"
#include "eng_swf.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static eng_workload *generate(const eng_lublin_opts *o)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    int rc = eng_lublin_generate(o, NULL, &w, &d);
    CU_ASSERT_EQUAL(rc, ENG_OK);
    if (rc != ENG_OK)
        fprintf(stderr, "\ngenerate failed: %s\n", d.msg);
    return w;
}

static gsl_rng *rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, seed);
    return r;
}

static bool job_eq(const eng_job *a, const eng_job *b)
{
    return a->id == b->id && a->submit_s == b->submit_s && a->wait_s == b->wait_s &&
           a->runtime_s == b->runtime_s && a->procs_alloc == b->procs_alloc &&
           a->cpu_avg_s == b->cpu_avg_s && a->mem_used_kb == b->mem_used_kb &&
           a->procs_req == b->procs_req && a->time_req_s == b->time_req_s &&
           a->mem_req_kb == b->mem_req_kb && a->status == b->status && a->user == b->user &&
           a->group == b->group && a->app == b->app && a->queue == b->queue &&
           a->partition == b->partition && a->prev_job == b->prev_job && a->think_s == b->think_s;
}

/* The header value of the first "Note" containing `needle`, or NULL. */
/* Binomial check: |count/n − p| <= 5·sqrt(p(1 − p)/n) (+ slack). */
/* Uniform measure of [a, b) ∩ [lo, hi) relative to [lo, hi); a point mass
 * when lo == hi. */
static double stage_mass(double a, double b, double lo, double hi)
{
    if (hi <= lo)
        return lo >= a && lo < b ? 1.0 : 0.0;
    double x = a > lo ? a : lo, y = b < hi ? b : hi;
    return y > x ? (y - x) / (hi - lo) : 0.0;
}

/* The exact distribution of eng_lublin_draw_nodes() on P nodes:
 * prob[n] for n = 1..P, from the uniform measures of the x intervals that
 * round to each size, clamped to P. */
static void size_dist(const eng_lublin_class *c, int64_t P, double *prob)
{
    for (int64_t n = 0; n <= P; n++)
        prob[n] = 0.0;
    prob[1] += c->serial_prob;
    double other = 1.0 - c->serial_prob - c->pow2_prob;
    const double st[2][3] = {{c->u_low, c->u_med, c->u_prob}, {c->u_med, c->u_hi, 1.0 - c->u_prob}};
    for (int s = 0; s < 2; s++) {
        double lo = st[s][0], hi = st[s][1], ps = st[s][2];
        /* power-of-two path: k = floor(x + 0.5), nodes = round(2^k) */
        for (int k = (int)floor(lo) - 1; k <= (int)ceil(hi) + 1; k++) {
            double m = stage_mass(k - 0.5, k + 0.5, lo, hi);
            if (m <= 0.0)
                continue;
            double n = floor(exp2(k) + 0.5);
            int64_t idx = n > (double)P ? P : n < 1.0 ? 1 : (int64_t)n;
            prob[idx] += c->pow2_prob * ps * m;
        }
        /* other path: nodes = floor(2^x + 0.5) = m for x in
         * [log2(m − 0.5), log2(m + 0.5)) */
        for (int64_t m = 1; m <= 2 * P + 2; m++) {
            double a = m == 1 ? -INFINITY : log2((double)m - 0.5);
            double mass = stage_mass(a, log2((double)m + 0.5), lo, hi);
            if (mass <= 0.0)
                continue;
            int64_t idx = m > P ? P : m;
            prob[idx] += other * ps * mass;
        }
    }
}

/* Mean and sd of the node count from size_dist(). */
static void size_moments(const eng_lublin_class *c, int64_t P, double *mean, double *sd)
{
    double *prob = calloc((size_t)P + 1, sizeof *prob);
    size_dist(c, P, prob);
    double m1 = 0.0, m2 = 0.0;
    for (int64_t k = 1; k <= P; k++) {
        m1 += prob[k] * (double)k;
        m2 += prob[k] * (double)k * (double)k;
    }
    free(prob);
    *mean = m1;
    *sd = sqrt(m2 - m1 * m1);
}

/* Chi-square goodness of fit of counts[1..P] (n draws) to prob[1..P];
 * bins with an expected count below 5 are pooled. True when the statistic
 * is below the 0.001 quantile for its degrees of freedom. */
static bool chisq_ok(const size_t *counts, const double *prob, int64_t P, size_t n,
                     const char *what)
{
    double stat = 0.0, pool_e = 0.0, pool_o = 0.0;
    int bins = 0;
    for (int64_t k = 1; k <= P; k++) {
        double e = prob[k] * (double)n;
        if (e < 5.0) {
            pool_e += e;
            pool_o += (double)counts[k];
            continue;
        }
        stat += ((double)counts[k] - e) * ((double)counts[k] - e) / e;
        bins++;
    }
    if (pool_e >= 5.0) {
        stat += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
        bins++;
    } else if (pool_o > pool_e + 10.0 * sqrt(pool_e + 1.0)) {
        fprintf(stderr, "\n%s: %g draws in bins expecting %g\n", what, pool_o, pool_e);
        return false;
    }
    double crit = gsl_cdf_chisq_Qinv(1e-3, bins - 1);
    if (stat > crit)
        fprintf(stderr, "\n%s: chi-square %.2f > %.2f (%d bins)\n", what, stat, crit, bins);
    return stat <= crit;
}

/* Mean and standard deviation of Gamma(a, b) (shape, scale) conditioned on
 * g <= c, from x·f(x; a, b) = a·b·f(x; a + 1, b):
 * E[g | g <= c] = a·b·F(c; a + 1)/F(c; a), E[g²| g <= c] = a(a + 1)b²·F(c; a + 2)/F(c; a). */
static void trunc_gamma(double a, double b, double c, double *mean, double *sd)
{
    double p0 = gsl_cdf_gamma_P(c, a, b);
    double m1 = a * b * gsl_cdf_gamma_P(c, a + 1.0, b) / p0;
    double m2 = a * (a + 1.0) * b * b * gsl_cdf_gamma_P(c, a + 2.0, b) / p0;
    *mean = m1;
    *sd = sqrt(m2 - m1 * m1);
}

/* ------------------------------------------------------------------ */
/* Known answers                                                       */

/* The daily-cycle weights by bucket: batch, interactive, typeless. */
static const double weight_table[48][3] = {
    {0.5462, 0.5135, 0.5078}, {0.5011, 0.4588, 0.4561}, {0.4589, 0.4087, 0.4085},
    {0.4194, 0.3629, 0.3649}, {0.3826, 0.3213, 0.3250}, {0.3483, 0.2836, 0.2888},
    {0.3166, 0.2497, 0.2560}, {0.2873, 0.2193, 0.2263}, {0.2602, 0.1921, 0.1997},
    {0.2354, 0.1679, 0.1758}, {0.3472, 0.1187, 0.1649}, {0.4484, 0.1797, 0.2389},
    {0.5590, 0.2576, 0.3293}, {0.6760, 0.3524, 0.4351}, {0.7964, 0.4630, 0.5543},
    {0.9172, 0.5874, 0.6840}, {1.0353, 0.7225, 0.8208}, {1.1480, 0.8647, 0.9609},
    {1.2531, 1.0100, 1.1002}, {1.3484, 1.1542, 1.2349}, {1.4326, 1.2931, 1.3615},
    {1.5044, 1.4229, 1.4769}, {1.5631, 1.5403, 1.5785}, {1.6085, 1.6427, 1.6644},
    {1.6405, 1.7280, 1.7332}, {1.6594, 1.7949, 1.7843}, {1.6659, 1.8426, 1.8174},
    {1.6607, 1.8711, 1.8331}, {1.6448, 1.8810, 1.8321}, {1.6190, 1.8732, 1.8155},
    {1.5846, 1.8491, 1.7848}, {1.5427, 1.8103, 1.7415}, {1.4944, 1.7587, 1.6874},
    {1.4408, 1.6962, 1.6243}, {1.3830, 1.6248, 1.5538}, {1.3219, 1.5463, 1.4777},
    {1.2586, 1.4626, 1.3976}, {1.1938, 1.3755, 1.3149}, {1.1283, 1.2865, 1.2310},
    {1.0628, 1.1970, 1.1470}, {0.9980, 1.1082, 1.0640}, {0.9342, 1.0212, 0.9828},
    {0.8720, 0.9368, 0.9040}, {0.8116, 0.8557, 0.8284}, {0.7534, 0.7784, 0.7563},
    {0.6977, 0.7054, 0.6880}, {0.6445, 0.6368, 0.6238}, {0.5939, 0.5728, 0.5637},
};

static void test_weights(void)
{
    const int cls[3] = {ENG_LUBLIN_BATCH, ENG_LUBLIN_INTERACTIVE, ENG_LUBLIN_WHOLE};
    for (int c = 0; c < 3; c++) {
        eng_lublin_class p;
        eng_lublin_class_reference(cls[c], &p);
        double w[ENG_LUBLIN_BUCKETS], sum = 0.0;
        eng_lublin_weights(&p, w);
        for (int k = 0; k < ENG_LUBLIN_BUCKETS; k++) {
            /* the table is rounded to 4 decimals: |error| <= 5e-5 */
            CU_ASSERT_DOUBLE_EQUAL(w[k], weight_table[k][c], 5e-5 + 1e-9);
            sum += w[k];
        }
        CU_ASSERT_DOUBLE_EQUAL(sum / ENG_LUBLIN_BUCKETS, 1.0, 1e-12);
    }
}

static void test_reference_constants(void)
{
    eng_lublin_class c;
    eng_lublin_class_reference(ENG_LUBLIN_BATCH, &c);
    CU_ASSERT_EQUAL(c.serial_prob, 0.2927);
    CU_ASSERT_EQUAL(c.a2, 639.1);
    CU_ASSERT_EQUAL(c.arar, 1.0519);
    eng_lublin_class_reference(ENG_LUBLIN_INTERACTIVE, &c);
    CU_ASSERT_EQUAL(c.serial_prob, 0.1541);
    CU_ASSERT_EQUAL(c.u_hi, 5.5);
    eng_lublin_class_reference(ENG_LUBLIN_WHOLE, &c);
    CU_ASSERT_EQUAL(c.serial_prob, 0.244);
    CU_ASSERT_EQUAL(c.bnum, 3.9631);

    /* Acceptance probabilities P(g <= 12) per component, 5 decimals;
     * they pin the shape/scale reading of Gamma(a, b). */
    const struct {
        int cls;
        double acc1, acc2;
    } acc[] = {{ENG_LUBLIN_BATCH, 0.99335, 1.00000},
               {ENG_LUBLIN_INTERACTIVE, 0.99999, 0.99841},
               {ENG_LUBLIN_WHOLE, 0.99835, 1.00000}};
    for (size_t i = 0; i < 3; i++) {
        eng_lublin_class_reference(acc[i].cls, &c);
        CU_ASSERT_DOUBLE_EQUAL(gsl_cdf_gamma_P(12.0, c.a1, c.b1), acc[i].acc1, 5e-6);
        CU_ASSERT_DOUBLE_EQUAL(gsl_cdf_gamma_P(12.0, c.a2, c.b2), acc[i].acc2, 5e-6);
    }
}

static void test_mix_prob(void)
{
    /* p(n) = pa n + pb from the constants, rounded to 4 decimals */
    const struct {
        int cls;
        int64_t n;
        double p;
    } kat[] = {{ENG_LUBLIN_BATCH, 1, 0.6956},       {ENG_LUBLIN_BATCH, 128, 0.3146},
               {ENG_LUBLIN_INTERACTIVE, 2, 0.8920}, {ENG_LUBLIN_INTERACTIVE, 32, 0.5380},
               {ENG_LUBLIN_INTERACTIVE, 128, 0.0},  {ENG_LUBLIN_WHOLE, 8, 0.7368},
               {ENG_LUBLIN_WHOLE, 128, 0.0888}};
    for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
        eng_lublin_class c;
        eng_lublin_class_reference(kat[i].cls, &c);
        CU_ASSERT_DOUBLE_EQUAL(eng_lublin_mix_prob(&c, kat[i].n), kat[i].p, 5e-5 + 1e-12);
    }
    /* monotone non-increasing in n (pa < 0), clamped to [0, 1] */
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++) {
        eng_lublin_class c;
        eng_lublin_class_reference(k, &c);
        double prev = 2.0;
        for (int64_t n = 1; n <= 4096; n *= 2) {
            double p = eng_lublin_mix_prob(&c, n);
            CU_ASSERT(p <= prev && p >= 0.0 && p <= 1.0);
            prev = p;
        }
    }
    eng_lublin_class c;
    eng_lublin_class_reference(ENG_LUBLIN_WHOLE, &c);
    c.pa = 0.5;
    CU_ASSERT_EQUAL(eng_lublin_mix_prob(&c, 10), 1.0);
}

static void test_fit_machine(void)
{
    /* 128 nodes reproduces the reference constants exactly */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++) {
        eng_lublin_class ref;
        eng_lublin_class_reference(k, &ref);
        CU_ASSERT_EQUAL(o.cls[k].u_low, ref.u_low);
        CU_ASSERT_EQUAL(o.cls[k].u_med, ref.u_med);
        CU_ASSERT_EQUAL(o.cls[k].u_hi, ref.u_hi);
    }
    /* 500 nodes: UHi = log2 P, offsets kept */
    eng_lublin_opts_init(&o, 500);
    double l = log2(500.0);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_WHOLE].u_hi, l, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_WHOLE].u_med, l - 2.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_BATCH].u_med, l - 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_INTERACTIVE].u_hi, l - 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_INTERACTIVE].u_med, l - 4.0, 1e-12);
    CU_ASSERT_EQUAL(o.cls[ENG_LUBLIN_BATCH].u_low, 1.2);
    /* 8 nodes: the reference's advice UMed = 1.5 for the typeless class */
    eng_lublin_opts_init(&o, 8);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_WHOLE].u_med, 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.cls[ENG_LUBLIN_WHOLE].u_low, 0.8, 1e-12);
    /* every machine size gives valid options */
    for (int64_t p = 1; p <= 4096; p = p * 3 / 2 + 1) {
        eng_lublin_opts_init(&o, p);
        eng_diag d;
        eng_diag_clear(&d);
        CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_OK);
        o.typeless = true;
        CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_OK);
    }
}

/* ------------------------------------------------------------------ */
/* Sizes                                                               */

static void check_sizes(int cls, int64_t P, size_t n, unsigned long seed)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, P);
    const eng_lublin_class *c = &o.cls[cls];
    double *prob = calloc((size_t)P + 1, sizeof *prob);
    size_t *counts = calloc((size_t)P + 1, sizeof *counts);
    size_dist(c, P, prob);
    double total = 0.0, p_pow2 = 0.0;
    for (int64_t k = 1; k <= P; k++) {
        total += prob[k];
        if (k >= 2 && (k & (k - 1)) == 0)
            p_pow2 += prob[k];
    }
    CU_ASSERT_DOUBLE_EQUAL(total, 1.0, 1e-12);
    gsl_rng *r = rng_new(seed);
    size_t serial = 0, pow2 = 0, too_big = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t k = eng_lublin_draw_nodes(c, P, r);
        if (k < 1 || k > P) {
            too_big++;
            continue;
        }
        counts[k]++;
        serial += k == 1;
        pow2 += k >= 2 && (k & (k - 1)) == 0;
    }
    CU_ASSERT_EQUAL(too_big, 0);
    char what[96];
    snprintf(what, sizeof what, "class %d on %lld nodes: serial", cls, (long long)P);
    /* serial jobs: exactly SerialProb, unless a tiny machine rounds parallel
     * draws to 1 as well (prob[1] holds both) */
    CU_ASSERT(bl_binom_ok(serial, n, prob[1], 0.0, what));
    if (P >= 8)
        CU_ASSERT_DOUBLE_EQUAL(prob[1], c->serial_prob, 1e-12);
    snprintf(what, sizeof what, "class %d on %lld nodes: power of two", cls, (long long)P);
    CU_ASSERT(bl_binom_ok(pow2, n, p_pow2, 0.0, what));
    snprintf(what, sizeof what, "class %d on %lld nodes: size distribution", cls, (long long)P);
    CU_ASSERT(chisq_ok(counts, prob, P, n, what));
    gsl_rng_free(r);
    free(prob);
    free(counts);
}

static void test_sizes(void)
{
    /* 200 000 draws: the binomial 5-sigma bound on a fraction near 0.25 is
     * 5·sqrt(0.25·0.75/2e5) = 0.0048 */
    check_sizes(ENG_LUBLIN_BATCH, 128, 200000, 11);
    check_sizes(ENG_LUBLIN_INTERACTIVE, 128, 200000, 12);
    check_sizes(ENG_LUBLIN_WHOLE, 128, 200000, 13);
    check_sizes(ENG_LUBLIN_WHOLE, 500, 200000, 14);
    check_sizes(ENG_LUBLIN_BATCH, 100, 200000, 15);
    check_sizes(ENG_LUBLIN_INTERACTIVE, 8, 50000, 16);
}

static void test_size_clamp(void)
{
    /* On 100 nodes a power-of-two draw can round to 128; it becomes 100 */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 100);
    gsl_rng *r = rng_new(21);
    size_t at_p = 0;
    int64_t max = 0;
    for (int i = 0; i < 100000; i++) {
        int64_t k = eng_lublin_draw_nodes(&o.cls[ENG_LUBLIN_WHOLE], 100, r);
        max = k > max ? k : max;
        at_p += k == 100;
    }
    CU_ASSERT_EQUAL(max, 100);
    /* P(clamped) = Pow2Prob·(1 − UProb)·P(x >= 6.5 | x in [UMed, UHi)) ≈ 0.0046,
     * about 460 of 1e5: far above 0 */
    CU_ASSERT(at_p > 200);
    /* one node: every job is serial */
    eng_lublin_opts_init(&o, 1);
    for (int k = 0; k < ENG_LUBLIN_N_CLASSES; k++)
        for (int i = 0; i < 2000; i++)
            CU_ASSERT_EQUAL_FATAL(eng_lublin_draw_nodes(&o.cls[k], 1, r), 1);
    gsl_rng_free(r);
    /* whole generator, both modes, machine sizes that are not powers of two */
    const int64_t sizes[] = {1, 3, 100, 500, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int typeless = 0; typeless < 2; typeless++) {
            eng_lublin_opts_init(&o, sizes[s]);
            o.n_jobs = 20000;
            o.seed = 100 + s;
            o.typeless = typeless;
            eng_workload *w = generate(&o);
            if (!w)
                continue;
            size_t bad = 0;
            for (size_t i = 0; i < w->n_jobs; i++)
                bad += w->jobs[i].procs_alloc < 1 || w->jobs[i].procs_alloc > sizes[s] ||
                       w->jobs[i].procs_req != w->jobs[i].procs_alloc;
            CU_ASSERT_EQUAL(bad, 0);
            eng_workload_destroy(w);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Run times                                                           */

static void check_components(int cls, int64_t n_nodes, double cap, size_t n, unsigned long seed)
{
    eng_lublin_class c;
    eng_lublin_class_reference(cls, &c);
    gsl_rng *r = rng_new(seed);
    double sum[3] = {0}, sq[3] = {0};
    size_t cnt[3] = {0}, over = 0;
    for (size_t i = 0; i < n; i++) {
        int comp = 0;
        double g = eng_lublin_draw_log_runtime(&c, n_nodes, cap, r, &comp);
        over += g > cap || g < 0.0;
        if (comp != 1 && comp != 2)
            continue;
        cnt[comp]++;
        sum[comp] += g;
        sq[comp] += g * g;
    }
    gsl_rng_free(r);
    CU_ASSERT_EQUAL(over, 0);
    CU_ASSERT_EQUAL(cnt[1] + cnt[2], n);
    /* the component is re-chosen on every retry, so the accepted share of
     * component 1 is p·A1 / (p·A1 + (1 − p)·A2), A_k = P(g_k <= cap) */
    double p = eng_lublin_mix_prob(&c, n_nodes);
    double a1 = gsl_cdf_gamma_P(cap, c.a1, c.b1), a2 = gsl_cdf_gamma_P(cap, c.a2, c.b2);
    double q = p * a1 / (p * a1 + (1.0 - p) * a2);
    char what[128];
    snprintf(what, sizeof what, "class %d, %lld nodes: share of component 1", cls,
             (long long)n_nodes);
    CU_ASSERT(bl_binom_ok(cnt[1], n, q, 0.0, what));
    const double shape[3] = {0, c.a1, c.a2}, scale[3] = {0, c.b1, c.b2};
    for (int k = 1; k <= 2; k++) {
        if (cnt[k] < 1000)
            continue; /* too few to say anything (e.g. p = 0) */
        double m, s;
        trunc_gamma(shape[k], scale[k], cap, &m, &s);
        double nk = (double)cnt[k];
        double mean = sum[k] / nk;
        double sd = sqrt(sq[k] / nk - mean * mean);
        /* sample mean: 5 standard errors, 5·s/sqrt(n_k) */
        double tol_m = 5.0 * s / sqrt(nk);
        /* sample sd: its standard error is s·sqrt((kurtosis − 1)/(4 n_k));
         * the gamma's kurtosis is 3 + 6/shape (truncating the right tail only
         * lowers it), 5 standard errors */
        double tol_s = 5.0 * s * sqrt((2.0 + 6.0 / shape[k]) / (4.0 * nk));
        if (fabs(mean - m) > tol_m || fabs(sd - s) > tol_s)
            fprintf(stderr,
                    "\n%s, component %d: mean %.4f (%.4f +- %.4f), sd %.4f (%.4f +- "
                    "%.4f)\n",
                    what, k, mean, m, tol_m, sd, s, tol_s);
        CU_ASSERT(fabs(mean - m) <= tol_m);
        CU_ASSERT(fabs(sd - s) <= tol_s);
    }
}

static void test_runtime_components(void)
{
    /* 100 000 draws per case; component 1 of the batch class is truncated
     * by 0.665 % (P(g > 12)), which the conditional moments account for */
    check_components(ENG_LUBLIN_BATCH, 1, 12.0, 100000, 31);
    check_components(ENG_LUBLIN_BATCH, 128, 12.0, 100000, 32);
    check_components(ENG_LUBLIN_INTERACTIVE, 2, 12.0, 100000, 33);
    check_components(ENG_LUBLIN_INTERACTIVE, 32, 12.0, 100000, 34);
    check_components(ENG_LUBLIN_INTERACTIVE, 128, 12.0, 100000, 35); /* p = 0 */
    check_components(ENG_LUBLIN_WHOLE, 1, 12.0, 100000, 36);
    check_components(ENG_LUBLIN_WHOLE, 64, 12.0, 100000, 37);
    /* a cap at the mean of the typeless component 2 (312·0.03 = 9.36) rejects
     * half of its draws: the share of component 1 rises from p = 0.43 to
     * p / (p + (1 − p)·A2) = 0.60, far outside 5 sigma (0.008) if the
     * component were kept across retries */
    check_components(ENG_LUBLIN_WHOLE, 64, 9.36, 100000, 38);
}

static void test_runtime_bounds(void)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 50000;
    o.seed = 41;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        double rt = w->jobs[i].runtime_s;
        /* floor(e^12) = 162754 (TOO_MUCH_TIME, the header's MaxRuntime) */
        bad += rt < 1.0 || rt > 162754.0 || rt != floor(rt);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(w->hdr.max_runtime, 162754);
    CU_ASSERT_EQUAL(eng_lublin_runtime_s(12.0), 162754.0);
    CU_ASSERT_EQUAL(eng_lublin_runtime_s(0.0), 1.0);
    eng_workload_destroy(w);
}

/* ------------------------------------------------------------------ */
/* Arrivals                                                            */

/* Batch means (Law & Kelton 2000): the run's arrivals of one class are cut into
 * B consecutive blocks; a block spans months of simulated time, longer than
 * any dependence in the gap process (one raw gap is at most e^13 s, 5 days),
 * so block statistics are nearly independent and their spread estimates the
 * standard error of the whole-run statistic, however dispersed the
 * heavy-tailed arrivals are. */
#define BLOCKS 20

/* |mean − expected| <= t·sd/sqrt(B) with t the two-sided t quantile at
 * alpha (B − 1 degrees of freedom). */
static bool batch_means_ok(const double *v, double expected, double alpha, const char *what)
{
    double m = 0.0, s = 0.0;
    for (int b = 0; b < BLOCKS; b++)
        m += v[b];
    m /= BLOCKS;
    for (int b = 0; b < BLOCKS; b++)
        s += (v[b] - m) * (v[b] - m);
    double se = sqrt(s / (BLOCKS - 1) / BLOCKS);
    double t = gsl_cdf_tdist_Qinv(alpha / 2.0, BLOCKS - 1);
    bool ok = fabs(m - expected) <= t * se;
    if (!ok)
        fprintf(stderr, "\n%s: %.5f, expected %.5f +- %.5f\n", what, m, expected, t * se);
    return ok;
}

typedef struct hour_shares {
    double share[2][24]; /* whole-run share of each class's arrivals per hour */
    double block[2][24][BLOCKS];
    double batch_share[BLOCKS]; /* share of batch jobs per block of the merged stream */
    size_t n[2];
} hour_shares;

static void hourly(const eng_workload *w, int start_hour, hour_shares *h)
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0; i < w->n_jobs; i++)
        h->n[w->jobs[i].queue]++;
    size_t seen[2] = {0, 0}, blk_n[2][BLOCKS] = {{0}}, merged_batch[BLOCKS] = {0};
    for (size_t i = 0; i < w->n_jobs; i++) {
        int c = (int)w->jobs[i].queue;
        double t = fmod(w->jobs[i].submit_s + start_hour * 3600.0, 86400.0);
        int hour = (int)(t / 3600.0);
        int b = (int)(seen[c]++ * BLOCKS / h->n[c]);
        h->share[c][hour] += 1.0;
        h->block[c][hour][b] += 1.0;
        blk_n[c][b]++;
        merged_batch[i * BLOCKS / w->n_jobs] += c == ENG_LUBLIN_BATCH;
    }
    for (int c = 0; c < 2; c++)
        for (int hr = 0; hr < 24; hr++) {
            h->share[c][hr] /= (double)h->n[c];
            for (int b = 0; b < BLOCKS; b++)
                h->block[c][hr][b] /= (double)blk_n[c][b];
        }
    for (int b = 0; b < BLOCKS; b++)
        h->batch_share[b] = (double)merged_batch[b] / ((double)w->n_jobs / BLOCKS);
}

static void test_daily_cycle(void)
{
    /* 400 000 typed jobs (about 340 000 interactive and 60 000 batch, 6.7
     * years), double clock, time 0 at 08:00 */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 400000;
    o.seed = 51;
    o.start_hour = 8;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    hour_shares *h = malloc(sizeof *h);
    hourly(w, o.start_hour, h);

    /* Long-run rates (mean gaps of the truncated gap laws over the daily
     * cycle) 1/3516.9 (batch) and 1/619.3 s (interactive):
     * batch share 619.3 / (619.3 + 3516.9) = 0.14973; one t test at 0.001 */
    CU_ASSERT(batch_means_ok(h->batch_share, 619.3 / (619.3 + 3516.9), 1e-3, "batch share"));

    /* expected share of hour k: (w[2k] + w[2k + 1]) / 48; 48 t tests,
     * Bonferroni: 0.001 / 48 each */
    for (int c = 0; c < 2; c++) {
        double wt[ENG_LUBLIN_BUCKETS];
        eng_lublin_weights(&o.cls[c], wt);
        for (int hr = 0; hr < 24; hr++) {
            char what[64];
            snprintf(what, sizeof what, "class %d, hour %d share", c, hr);
            double expect = (wt[2 * hr] + wt[2 * hr + 1]) / 48.0;
            CU_ASSERT(batch_means_ok(h->block[c][hr], expect, 1e-3 / 48.0, what));
        }
    }
    /* the cycle itself: interactive 14:00-15:00 holds 0.0782 of the day's
     * arrivals, 04:00-05:00 0.0075 (ratio 10.4); batch 13:00-14:00 0.0694
     * against 04:00-05:00 0.0103 (6.7) */
    CU_ASSERT(h->share[0][14] > 5.0 * h->share[0][4]);
    CU_ASSERT(h->share[1][13] > 3.0 * h->share[1][4]);

    /* Sizes in the merged output: P(serial) is SerialProb exactly
     * (binomial, 5 sigma); the mean node count is that of the exact size
     * distribution, within 5 standard errors sd/sqrt(n_c). */
    size_t serial[2] = {0, 0};
    double nodes[2] = {0, 0};
    for (size_t i = 0; i < w->n_jobs; i++) {
        int c = (int)w->jobs[i].queue;
        serial[c] += w->jobs[i].procs_alloc == 1;
        nodes[c] += (double)w->jobs[i].procs_alloc;
    }
    CU_ASSERT(bl_binom_ok(serial[0], h->n[0], 0.1541, 0.0, "interactive serial"));
    CU_ASSERT(bl_binom_ok(serial[1], h->n[1], 0.2927, 0.0, "batch serial"));
    for (int c = 0; c < 2; c++) {
        double m, sd;
        size_moments(&o.cls[c], 128, &m, &sd);
        CU_ASSERT_DOUBLE_EQUAL(nodes[c] / (double)h->n[c], m, 5.0 * sd / sqrt((double)h->n[c]));
    }
    free(h);
    eng_workload_destroy(w);
}

static void test_whole_seconds(void)
{
    /* Typeless (one stream): the draws do not depend on the clock, so both
     * clocks give the same sizes and run times; the truncated clock loses
     * frac(clock + gap) per arrival, a uniform fraction of a second, so
     * after N arrivals it lags by N/2 with sd sqrt(N/12); 5 sd plus
     * the 0.5 s rounding of the double clock. */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 20000;
    o.seed = 61;
    o.typeless = true;
    eng_workload *wd = generate(&o);
    o.whole_seconds = true;
    eng_workload *wt = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wd);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wt);
    size_t differ = 0, order = 0;
    for (size_t i = 0; i < o.n_jobs; i++) {
        differ += wd->jobs[i].runtime_s != wt->jobs[i].runtime_s ||
                  wd->jobs[i].procs_alloc != wt->jobs[i].procs_alloc;
        order += wt->jobs[i].submit_s > wd->jobs[i].submit_s ||
                 wt->jobs[i].submit_s != floor(wt->jobs[i].submit_s) ||
                 (i && wt->jobs[i].submit_s < wt->jobs[i - 1].submit_s);
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(order, 0);
    double n = (double)o.n_jobs;
    double lag = wd->jobs[o.n_jobs - 1].submit_s - wt->jobs[o.n_jobs - 1].submit_s;
    CU_ASSERT_DOUBLE_EQUAL(lag, n / 2.0, 5.0 * sqrt(n / 12.0) + 0.5);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(wt, "truncated to whole seconds"));
    eng_workload_destroy(wd);
    eng_workload_destroy(wt);

    /* Typed, 400 000 jobs: the lag grows to about 2 days, so the phase of the
     * written clock rotates through the day and the cycle washes out
     * (lublin99.c's own output has hourly shares 0.036-0.047 with 200 000
     * arrivals per class); the double clock keeps a ratio of about 10 (test above). */
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 400000;
    o.seed = 51;
    o.whole_seconds = true;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    hour_shares *h = malloc(sizeof *h);
    hourly(w, 0, h);
    double lo = 1.0, hi = 0.0;
    for (int hr = 0; hr < 24; hr++) {
        lo = h->share[0][hr] < lo ? h->share[0][hr] : lo;
        hi = h->share[0][hr] > hi ? h->share[0][hr] : hi;
    }
    CU_ASSERT(hi < 2.0 * lo);
    free(h);
    eng_workload_destroy(w);
}

static void test_typeless(void)
{
    /* Typeless: mean nodes 12.1, P(serial) 0.244, median run time ~108 s;
     * mean gap 911.3 s. 200 000 jobs: the gap's sd is 6343 s (CV^2 48,
     * from the truncated Gamma(10.46, 0.4871) of ln(gap)), so 5 standard
     * errors of the mean gap are 71 s; the clock follows the sum of raw gaps
     * within one day's worth of weight (86 400 s / N = 0.4 s). */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 200000;
    o.seed = 71;
    o.typeless = true;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    size_t serial = 0, bad_queue = 0, below_median = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        serial += w->jobs[i].procs_alloc == 1;
        bad_queue += w->jobs[i].queue != -1;
        below_median += w->jobs[i].runtime_s <= 108.0;
    }
    CU_ASSERT_EQUAL(bad_queue, 0);
    CU_ASSERT(bl_binom_ok(serial, w->n_jobs, 0.244, 0.0, "typeless serial"));
    /* the median is quoted as "~108 s": allow 1 % of probability for the
     * quote's rounding on top of 5 binomial sigma */
    CU_ASSERT(bl_binom_ok(below_median, w->n_jobs, 0.5, 0.01, "typeless median run time"));
    double mean_gap = w->jobs[w->n_jobs - 1].submit_s / (double)w->n_jobs;
    CU_ASSERT_DOUBLE_EQUAL(mean_gap, 911.3, 5.0 * 6343.0 / sqrt(200000.0) + 0.5);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "typeless mode"));
    eng_workload_destroy(w);
}

/* ------------------------------------------------------------------ */
/* Determinism, estimates, header, errors                              */

static void test_same_seed(void)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 256);
    o.n_jobs = 5000;
    o.seed = 42;
    o.est.model = ENG_EST_FMODEL;
    o.est.f = 2.0;
    eng_workload *a = generate(&o);
    eng_workload *b = generate(&o);
    o.seed = 43;
    eng_workload *c = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const char *dir = bl_tmpdir();
    char pa[768], pb[768], pc[768];
    snprintf(pa, sizeof pa, "%s/a.swf", dir);
    snprintf(pb, sizeof pb, "%s/b.swf", dir);
    snprintf(pc, sizeof pc, "%s/c.swf", dir);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(pa, a, NULL, &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_swf_write(pb, b, NULL, &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_swf_write(pc, c, NULL, &d), ENG_OK);
    size_t la = 0, lb = 0, lc = 0;
    char *ta = bl_slurp(pa, &la), *tb = bl_slurp(pb, &lb), *tc = bl_slurp(pc, &lc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ta);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tc);
    CU_ASSERT(la == lb && memcmp(ta, tb, la) == 0);
    CU_ASSERT(la != lc || memcmp(ta, tc, la) != 0);
    size_t same = 0;
    for (size_t i = 0; i < a->n_jobs; i++)
        same += a->jobs[i].runtime_s == c->jobs[i].runtime_s &&
                a->jobs[i].submit_s == c->jobs[i].submit_s;
    CU_ASSERT(same < a->n_jobs / 10);

    /* read back: the same jobs, bit for bit */
    eng_workload *r = NULL;
    CU_ASSERT_EQUAL(eng_swf_read(pa, NULL, &r, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    CU_ASSERT_EQUAL(r->n_jobs, a->n_jobs);
    size_t diff = 0;
    for (size_t i = 0; i < r->n_jobs && i < a->n_jobs; i++) {
        eng_job x = r->jobs[i];
        x.line = a->jobs[i].line;
        diff += !job_eq(&x, &a->jobs[i]);
    }
    CU_ASSERT_EQUAL(diff, 0);

    /* a caller's generator in the same state gives the same jobs */
    gsl_rng *g = rng_new(42);
    eng_workload *e = NULL;
    o.seed = 42;
    CU_ASSERT_EQUAL(eng_lublin_generate(&o, g, &e, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    diff = 0;
    for (size_t i = 0; i < e->n_jobs; i++)
        diff += !job_eq(&e->jobs[i], &a->jobs[i]);
    CU_ASSERT_EQUAL(diff, 0);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(e, "caller's mt19937"));
    gsl_rng_free(g);
    free(ta);
    free(tb);
    free(tc);
    eng_workload_destroy(a);
    eng_workload_destroy(b);
    eng_workload_destroy(c);
    eng_workload_destroy(r);
    eng_workload_destroy(e);
}

/* The value of header key in w, or NULL. */
static const char *header_value(const eng_workload *w, const char *key)
{
    for (size_t i = 0; i < w->hdr.n_kv; i++)
        if (strcmp(w->hdr.kv[i].key, key) == 0)
            return w->hdr.kv[i].value;
    return NULL;
}

/* The Generator line: the options that make the same jobs; a caller's
 * generator is named instead of a seed that would not reproduce them. */
static void test_generator_line(void)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 10;
    o.seed = 1;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    const char *line = header_value(w, ENG_GENERATOR_KEY);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_STRING_EQUAL(line, "lublin (Lublin & Feitelson 2003) --nodes 128 --jobs 10 --seed 1 "
                                 "--estimates exact");
    eng_workload_destroy(w);
    gsl_rng *g = rng_new(5);
    eng_diag d;
    eng_diag_clear(&d);
    o.cls[ENG_LUBLIN_INTERACTIVE].pb = 0.5;
    CU_ASSERT_EQUAL_FATAL(eng_lublin_generate(&o, g, &w, &d), ENG_OK);
    CU_ASSERT_STRING_EQUAL(header_value(w, ENG_GENERATOR_KEY),
                           "lublin (Lublin & Feitelson 2003) --nodes 128 --jobs 10 --estimates "
                           "exact --param interactive.pb=0.5; random numbers from the caller's "
                           "mt19937 generator");
    eng_workload_destroy(w);
    gsl_rng_free(g);
}

static void test_output_fields(void)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 3000;
    o.seed = 81;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_jobs, 3000);
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        bad += j->id != (int64_t)i + 1;
        bad += j->submit_s < 0.0 || j->submit_s != floor(j->submit_s) ||
               (i && j->submit_s < w->jobs[i - 1].submit_s);
        bad += j->wait_s != -1 || j->cpu_avg_s != -1 || j->mem_used_kb != -1 ||
               j->mem_req_kb != -1 || j->user != -1 || j->group != -1 || j->app != -1 ||
               j->partition != -1 || j->prev_job != -1 || j->think_s != -1;
        bad += j->status != 1 || (j->queue != 0 && j->queue != 1);
        bad += j->time_req_s != j->runtime_s; /* default: exact */
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(w->jobs[0].submit_s > 0.0); /* one gap after time 0 */
    /* header (the SWF header comments) */
    CU_ASSERT_STRING_EQUAL(w->hdr.computer, "synthetic");
    CU_ASSERT_STRING_EQUAL(w->hdr.installation, "synthetic");
    CU_ASSERT_EQUAL(w->hdr.max_nodes, 128);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 128);
    CU_ASSERT_STRING_EQUAL(w->hdr.preemption, "No");
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "Lublin & Feitelson 2003"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "seed: 81 (gsl_rng_mt19937)"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "eng_lublin version 1"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "batch parameters: SerialProb=0.2927 Pow2Prob=0.6686 "
                                           "ULow=1.2 UMed=5 UHi=7 UProb=0.875 a1=6.57 b1=0.823 "
                                           "a2=639.1 b2=0.0156 pa=-0.003 pb=0.6986 AARR=6.0415 "
                                           "BARR=0.8531 ARAR=1.0519 ANUM=6.1271 BNUM=5.274"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "interactive parameters:"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "TOO_MUCH_TIME=12 TOO_MUCH_ARRIVE_TIME=13"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "estimates: exact"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "double precision"));
    eng_workload_destroy(w);
}

static void test_estimates(void)
{
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 128);
    o.n_jobs = 20000;
    o.seed = 91;
    eng_workload *exact = generate(&o);
    o.est.model = ENG_EST_FMODEL;
    o.est.f = 3.0;
    eng_workload *fm = generate(&o);
    o.est.model = ENG_EST_WALLTIMES;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&o.est, ENG_WALLTIMES_DEFAULT, &d), ENG_OK);
    CU_ASSERT_EQUAL(o.est.n_walltimes, 9);
    eng_workload *wt = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(exact);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fm);
    CU_ASSERT_PTR_NOT_NULL_FATAL(wt);
    size_t differ = 0, bad_f = 0, bad_w = 0;
    double ratio = 0.0, inv_rt = 0.0;
    for (size_t i = 0; i < o.n_jobs; i++) {
        const eng_job *e = &exact->jobs[i], *f = &fm->jobs[i], *x = &wt->jobs[i];
        /* the estimate stream is separate: the jobs are the same */
        differ += e->submit_s != f->submit_s || e->runtime_s != f->runtime_s ||
                  e->procs_alloc != f->procs_alloc || e->submit_s != x->submit_s ||
                  e->runtime_s != x->runtime_s || e->time_req_s != e->runtime_s;
        double rt = e->runtime_s;
        bad_f += f->time_req_s < rt || f->time_req_s > ceil(4.0 * rt) ||
                 f->time_req_s != floor(f->time_req_s);
        ratio += f->time_req_s / rt;
        inv_rt += 1.0 / rt;
        size_t k = 0;
        while (k < o.est.n_walltimes && o.est.walltimes_s[k] < rt)
            k++;
        double want = k < o.est.n_walltimes ? o.est.walltimes_s[k] : rt;
        bad_w += x->time_req_s != want;
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(bad_f, 0);
    CU_ASSERT_EQUAL(bad_w, 0);
    /* f-model: E[1 + f·U] = 1 + f/2 = 2.5, sd f/sqrt(12) = 0.866; 5 standard
     * errors over 20 000 jobs = 0.031, plus the ceiling's mean 1/rt bias */
    double n = (double)o.n_jobs;
    CU_ASSERT_DOUBLE_EQUAL(ratio / n, 2.5, 5.0 * 0.866 / sqrt(n) + inv_rt / n);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(fm, "f-model, f=3"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(wt, "walltimes (run time rounded up to 300,900,"));

    /* a run time above the list keeps itself */
    eng_estimates e = {.model = ENG_EST_WALLTIMES};
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&e, "60,120", &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_estimate_s(&e, 61.0, NULL), 120.0);
    CU_ASSERT_EQUAL(eng_estimate_s(&e, 60.0, NULL), 60.0);
    CU_ASSERT_EQUAL(eng_estimate_s(&e, 500.0, NULL), 500.0);
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&e, "60,60", &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&e, "60,x", &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&e, "-5", &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_estimates_parse_walltimes(&e, "", &d), ENG_INVAL);
    eng_workload_destroy(exact);
    eng_workload_destroy(fm);
    eng_workload_destroy(wt);
}

static void test_errors(void)
{
    eng_lublin_opts o;
    eng_diag d;
    eng_workload *w = (eng_workload *)0x1;
    eng_lublin_opts_init(&o, 0);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_generate(&o, NULL, &w, &d), ENG_RANGE);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "at least 1 node"));

    eng_lublin_opts_init(&o, 64);
    o.start_hour = 24;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_RANGE);

    eng_lublin_opts_init(&o, 64);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "batch.SerialProb", 0.5, &d), ENG_OK);
    CU_ASSERT_EQUAL(o.cls[ENG_LUBLIN_BATCH].serial_prob, 0.5);
    CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_RANGE); /* 0.5 + 0.6686 > 1 */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "batch"));

    eng_lublin_opts_init(&o, 64);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "whole.UMed", 9.0, &d), ENG_OK);
    o.typeless = true;
    CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_RANGE); /* UMed > UHi = 6 */
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "batch.nope", 1.0, &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "a1", 1.0, &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "gpu.a1", 1.0, &d), ENG_INVAL);

    eng_lublin_opts_init(&o, 64);
    CU_ASSERT_EQUAL(eng_lublin_set_param(&o, "interactive.a2", -1.0, &d), ENG_OK);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "interactive.a2"));

    eng_lublin_opts_init(&o, 64);
    o.est.model = ENG_EST_WALLTIMES; /* empty list */
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lublin_check(&o, &d), ENG_INVAL);

    /* zero jobs is an empty workload, not an error */
    eng_lublin_opts_init(&o, 64);
    w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_jobs, 0);
    eng_workload_destroy(w);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */

static void test_cli_generate_lublin(void)
{
    const char *dir = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "generate lublin --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab generate lublin"));
    CU_ASSERT(bl_contains(out, "--whole-seconds"));
    CU_ASSERT(bl_contains(out, "--estimates"));
    free(out);

    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(bl_run(&out,
                               "generate lublin --nodes 500 --jobs 2000 --seed 7 --start-hour 8 "
                               "--estimates walltimes -o '%s/l%d.swf'",
                               dir, k),
                        0);
        free(out);
    }
    char p0[768], p1[768];
    snprintf(p0, sizeof p0, "%s/l0.swf", dir);
    snprintf(p1, sizeof p1, "%s/l1.swf", dir);
    size_t n0 = 0, n1 = 0;
    char *t0 = bl_slurp(p0, &n0), *t1 = bl_slurp(p1, &n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT(n0 == n1 && memcmp(t0, t1, n0) == 0); /* same command, same bytes */
    free(t0);
    free(t1);
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_read(p0, NULL, &w, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_jobs, 2000);
    CU_ASSERT_EQUAL(w->hdr.max_nodes, 500);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "seed: 7 (gsl_rng_mt19937)"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "start hour 8"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "estimates: walltimes"));
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++)
        bad += w->jobs[i].procs_alloc > 500 || w->jobs[i].time_req_s < w->jobs[i].runtime_s;
    CU_ASSERT_EQUAL(bad, 0);
    eng_workload_destroy(w);

    /* the library with the same options gives the same jobs */
    eng_lublin_opts o;
    eng_lublin_opts_init(&o, 500);
    o.n_jobs = 2000;
    o.seed = 7;
    o.start_hour = 8;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "generate lublin --nodes 500 --jobs 2000 --seed 7 --start-hour 8 "
                           "--typeless --whole-seconds --param whole.UProb=0.8 "
                           "--estimates f-model --f 1.5 -o '%s/t.swf'",
                           dir),
                    0);
    free(out);
    char pt[768];
    snprintf(pt, sizeof pt, "%s/t.swf", dir);
    o.typeless = true;
    o.whole_seconds = true;
    o.cls[ENG_LUBLIN_WHOLE].u_prob = 0.8;
    o.est.model = ENG_EST_FMODEL;
    o.est.f = 1.5;
    eng_workload *lib = generate(&o);
    CU_ASSERT_EQUAL(eng_swf_read(pt, NULL, &w, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lib);
    CU_ASSERT_EQUAL(w->n_jobs, lib->n_jobs);
    bad = 0;
    for (size_t i = 0; i < w->n_jobs && i < lib->n_jobs; i++) {
        eng_job x = w->jobs[i];
        x.line = 0;
        bad += !job_eq(&x, &lib->jobs[i]);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "UProb=0.8"));
    eng_workload_destroy(w);
    eng_workload_destroy(lib);
}

static void test_cli_generate_errors(void)
{
    const char *dir = bl_tmpdir();
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "generate --help"), 0);
    CU_ASSERT(bl_contains(out, "lublin"));
    CU_ASSERT(bl_contains(out, "modified"));
    free(out);
    const struct {
        const char *args;
        const char *msg;
    } usage[] = {
        {"generate", "batchlab generate: expected a model"},
        {"generate nope --nodes 4", "batchlab generate: unknown model 'nope'"},
        {"generate lublin --jobs 5 --seed 1 -o x.swf", "batchlab generate: --nodes is required"},
        {"generate lublin --nodes 4 --jobs 5 -o x.swf", "batchlab generate: --seed is required"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1", "batchlab generate: --output is required"},
        {"generate lublin --nodes 0 --jobs 5 --seed 1 -o x.swf", "batchlab generate: --nodes"},
        {"generate lublin --nodes 4 --jobs 5 --seed 4294967296 -o x.swf",
         "batchlab generate: --seed"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --start-hour 24 -o x.swf",
         "batchlab generate: --start-hour"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --estimates guess -o x.swf",
         "batchlab generate: --estimates: expected exact, f-model or walltimes"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --estimates f-model -o x.swf",
         "batchlab generate: --estimates f-model needs --f"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --f 2 -o x.swf",
         "batchlab generate: --f applies"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --estimates walltimes --walltimes 9,3 "
         "-o x.swf",
         "batchlab generate: --walltimes"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --param batch.x=1 -o x.swf",
         "batchlab generate: --param: unknown"},
        {"generate lublin --nodes 4 --jobs 5 --seed 1 --bogus -o x.swf",
         "batchlab generate: unknown option '--bogus'"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        int rc = bl_run(&out, "%s", usage[i].args);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT(bl_contains(out, usage[i].msg));
        free(out);
    }
    /* a failed write: exit 1 with the engine's message, nothing left behind */
    int rc = bl_run(&out, "generate lublin --nodes 4 --jobs 5 --seed 1 -o '%s/missing/x.swf'", dir);
    CU_ASSERT_EQUAL(rc, 1);
    CU_ASSERT(bl_contains(out, "batchlab generate: "));
    CU_ASSERT(bl_contains(out, "missing/x.swf"));
    free(out);
}

int bl_suite_eng_lublin(void)
{
    CU_pSuite s = CU_add_suite("eng_lublin", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "daily-cycle weights (known answers)", test_weights);
    CU_add_test(s, "reference constants and acceptance", test_reference_constants);
    CU_add_test(s, "mixing probability p(n)", test_mix_prob);
    CU_add_test(s, "machine-size fitting", test_fit_machine);
    CU_add_test(s, "size distribution, serial, power of two", test_sizes);
    CU_add_test(s, "no job larger than the machine", test_size_clamp);
    CU_add_test(s, "log run time per component", test_runtime_components);
    CU_add_test(s, "run-time bounds", test_runtime_bounds);
    CU_add_test(s, "typed mode: shares and daily cycle", test_daily_cycle);
    CU_add_test(s, "whole-second clock", test_whole_seconds);
    CU_add_test(s, "typeless mode", test_typeless);
    CU_add_test(s, "same seed, same bytes", test_same_seed);
    CU_add_test(s, "output fields and header", test_output_fields);
    CU_add_test(s, "the Generator line", test_generator_line);
    CU_add_test(s, "requested times", test_estimates);
    CU_add_test(s, "option errors", test_errors);
    CU_add_test(s, "cli: generate lublin", test_cli_generate_lublin);
    CU_add_test(s, "cli: usage and write errors", test_cli_generate_errors);
    return 0;
}
