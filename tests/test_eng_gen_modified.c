/* test_eng_gen_modified.c — the bundling study's modified generator
 * (engine/eng_gen_modified.c; Baranov & Lyakhovets 2022) and
 * `batchlab generate modified`.
 *
 * Known answers (computed from the gamma law): acceptance of the window [5, 8] under
 * Gamma(4.2, 0.94) is 0.2168 and the mean ln(run time) after truncation
 * 6.10. Statistical checks use fixed seeds and 5-sigma (normal) or 0.001
 * (chi-square) bounds derived from the sample size next to each one.
 */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_gen_modified.h"
#include "eng_swf.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static eng_workload *generate(const eng_gen_modified_opts *o)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    int rc = eng_gen_modified_generate(o, NULL, &w, &d);
    CU_ASSERT_EQUAL(rc, ENG_OK);
    if (rc != ENG_OK)
        fprintf(stderr, "\ngenerate failed: %s\n", d.msg);
    return w;
}

/* Mass, mean, sd and kurtosis of Gamma(a, b) restricted to [lo, hi], from
 * x·f(x; a, b) = a·b·f(x; a + 1, b): the raw moment k is
 * a(a + 1)...(a + k − 1)·b^k·F(a + k)/F(a), F the window's mass. */
static void window_gamma(double a, double b, double lo, double hi, double *mass, double *mean,
                         double *sd, double *kurt)
{
    double m[5], coef = 1.0;
    for (int k = 0; k <= 4; k++) {
        if (k > 0)
            coef *= (a + k - 1) * b;
        m[k] = coef * (gsl_cdf_gamma_P(hi, a + k, b) - gsl_cdf_gamma_P(lo, a + k, b));
    }
    for (int k = 1; k <= 4; k++)
        m[k] /= m[0];
    double mu = m[1], var = m[2] - mu * mu;
    double c4 = m[4] - 4 * mu * m[3] + 6 * mu * mu * m[2] - 3 * mu * mu * mu * mu;
    *mass = m[0];
    *mean = mu;
    *sd = sqrt(var);
    if (kurt)
        *kurt = c4 / (var * var);
}

static void test_defaults_and_known_answers(void)
{
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    CU_ASSERT_EQUAL(o.lambda_per_s, 0.0142);
    CU_ASSERT_EQUAL(o.shape, 4.2);
    CU_ASSERT_EQUAL(o.scale, 0.94);
    CU_ASSERT_EQUAL(o.log_lo, 5.0);
    CU_ASSERT_EQUAL(o.log_hi, 8.0);
    CU_ASSERT_EQUAL(o.types, 8);
    CU_ASSERT_EQUAL(o.est.model, ENG_EST_EXACT);
    CU_ASSERT_DOUBLE_EQUAL(o.size.u_hi, log2(500.0), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(o.size.u_med, log2(500.0) - 2.5, 1e-12);
    CU_ASSERT_EQUAL(o.size.serial_prob, 0.244);
    double mass, mean, sd;
    window_gamma(4.2, 0.94, 5.0, 8.0, &mass, &mean, &sd, NULL);
    /* 0.2168 and 6.10, rounded */
    CU_ASSERT_DOUBLE_EQUAL(mass, 0.2168, 5e-5);
    CU_ASSERT_DOUBLE_EQUAL(mean, 6.10, 5e-3);
    /* the run-time bounds: floor(e^5) = 148, floor(e^8) = 2980 */
    CU_ASSERT_EQUAL(eng_lublin_runtime_s(5.0), 148.0);
    CU_ASSERT_EQUAL(eng_lublin_runtime_s(8.0), 2980.0);
}

static void test_rejection_window(void)
{
    /* 200 000 draws of g: all inside [5, 8]; mean and sd against the
     * window's exact moments (mean 6.1032, sd 0.8008): 5 standard errors of
     * the mean, 5·sd/sqrt(n) = 0.009; the sample sd's standard error is
     * sd·sqrt((kurtosis − 1)/(4n)) with the window's exact kurtosis. */
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 201);
    size_t n = 200000, out = 0;
    double s = 0.0, s2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double g = eng_gen_modified_draw_log_runtime(&o, r);
        out += g < 5.0 || g > 8.0;
        s += g;
        s2 += g * g;
    }
    gsl_rng_free(r);
    CU_ASSERT_EQUAL(out, 0);
    double mass, mean, sd, kurt;
    window_gamma(4.2, 0.94, 5.0, 8.0, &mass, &mean, &sd, &kurt);
    double m = s / (double)n, v = sqrt(s2 / (double)n - m * m);
    CU_ASSERT_DOUBLE_EQUAL(m, mean, 5.0 * sd / sqrt((double)n));
    CU_ASSERT_DOUBLE_EQUAL(v, sd, 5.0 * sd * sqrt((kurt - 1.0) / (4.0 * (double)n)));
}

static void test_workload_statistics(void)
{
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    o.n_jobs = 100000;
    o.seed = 202;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_EQUAL(w->n_jobs, 100000);
    size_t n = w->n_jobs, bad = 0, le14 = 0, gt200 = 0, lt300 = 0, gt2200 = 0, serial = 0;
    size_t types[9] = {0};
    double sum_ln = 0.0;
    for (size_t i = 0; i < n; i++) {
        const eng_job *j = &w->jobs[i];
        bad += j->id != (int64_t)i + 1 || j->status != 1 || j->runtime_s < 148.0 ||
               j->runtime_s > 2980.0 || j->runtime_s != floor(j->runtime_s) || j->procs_alloc < 1 ||
               j->procs_alloc > 500 || j->procs_req != j->procs_alloc ||
               j->time_req_s != j->runtime_s || j->queue < 1 || j->queue > 8 ||
               j->submit_s != floor(j->submit_s) || j->wait_s != -1 || j->user != -1;
        if (i) {
            double gap = j->submit_s - w->jobs[i - 1].submit_s;
            bad += gap < 0.0;
            le14 += gap <= 14.0;
            gt200 += gap > 200.0;
        }
        lt300 += j->runtime_s < 300.0;
        gt2200 += j->runtime_s > 2200.0;
        serial += j->procs_alloc == 1;
        if (j->queue >= 1 && j->queue <= 8)
            types[j->queue]++;
        sum_ln += log(j->runtime_s);
    }
    CU_ASSERT_EQUAL(bad, 0);

    /* Poisson rate: the last arrival is the sum of n Exp(1/λ) gaps (rounded
     * once, ±0.5 s): mean gap 1/λ = 70.42 s, standard error 70.42/sqrt(n) =
     * 0.223 s, 5 of them 1.11 s */
    double mean_gap = w->jobs[n - 1].submit_s / (double)n;
    CU_ASSERT_DOUBLE_EQUAL(mean_gap, 1.0 / 0.0142, 5.0 * (1.0 / 0.0142) / sqrt((double)n) + 1.0);
    /* Gap shares of rounded times: a rounded gap is G + D, D the difference
     * of two independent rounding errors (triangular on (−1, 1)), so
     * P(gap <= 14) = 1 − e^(−14.5λ)·E[e^(λD)] and P(gap > 200) =
     * e^(−200.5λ)·E[e^(λD)], E[e^(λD)] = (sinh(λ/2)/(λ/2))^2; binomial 5 sigma
     * over the n − 1 independent gaps */
    double lam = 0.0142, md = pow(sinh(lam / 2.0) / (lam / 2.0), 2.0);
    CU_ASSERT(bl_binom_ok(le14, n - 1, 1.0 - exp(-14.5 * lam) * md, 0.0, "gaps <= 14 s"));
    CU_ASSERT(bl_binom_ok(gt200, n - 1, exp(-200.5 * lam) * md, 0.0, "gaps > 200 s"));

    /* run times: floor(e^g) < 300 iff g < ln 300; > 2200 iff g >= ln 2201 */
    double mass, mean, sd;
    window_gamma(4.2, 0.94, 5.0, 8.0, &mass, &mean, &sd, NULL);
    double f5 = gsl_cdf_gamma_P(5.0, 4.2, 0.94);
    double p300 = (gsl_cdf_gamma_P(log(300.0), 4.2, 0.94) - f5) / mass;
    double p2200 = (gsl_cdf_gamma_P(8.0, 4.2, 0.94) - gsl_cdf_gamma_P(log(2201.0), 4.2, 0.94)) /
                   mass;
    CU_ASSERT(bl_binom_ok(lt300, n, p300, 0.0, "run times < 300 s"));
    CU_ASSERT(bl_binom_ok(gt2200, n, p2200, 0.0, "run times > 2200 s"));
    /* mean ln(run time): the window's mean g, lowered by the floor by at
     * most ln(e^5/(e^5 − 1)) = 0.0068; 5 standard errors 5·0.80/sqrt(n) */
    CU_ASSERT_DOUBLE_EQUAL(sum_ln / (double)n, mean - 0.0034, 5.0 * sd / sqrt((double)n) + 0.0034);

    /* sizes: serial with probability SerialProb = 0.244 exactly */
    CU_ASSERT(bl_binom_ok(serial, n, 0.244, 0.0, "serial"));

    /* types: chi-square with 7 degrees of freedom below its 0.001 quantile
     * (24.32) */
    double chi = 0.0, e = (double)n / 8.0;
    for (int k = 1; k <= 8; k++)
        chi += ((double)types[k] - e) * ((double)types[k] - e) / e;
    CU_ASSERT(chi <= gsl_cdf_chisq_Qinv(1e-3, 7));

    /* header */
    CU_ASSERT_STRING_EQUAL(w->hdr.computer, "synthetic");
    CU_ASSERT_EQUAL(w->hdr.max_nodes, 500);
    CU_ASSERT_EQUAL(w->hdr.max_runtime, 2980);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "Baranov & Lyakhovets 2022"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "seed: 202 (gsl_rng_mt19937)"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "eng_gen_modified version 1"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "lambda=0.0142"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "Gamma(shape=4.2, scale=0.94) redrawn outside [5, 8]"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "uniform in 1..8"));
    eng_workload_destroy(w);
}

static void test_lambda_and_types(void)
{
    /* λ = 0.1: mean gap 10 s, 5 standard errors over 50 000 jobs 0.22 s */
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 64);
    o.n_jobs = 50000;
    o.seed = 203;
    o.lambda_per_s = 0.1;
    o.types = 3;
    eng_workload *w = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double n = (double)w->n_jobs;
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[w->n_jobs - 1].submit_s / n, 10.0, 5.0 * 10.0 / sqrt(n) + 1.0);
    size_t types[4] = {0}, bad = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        bad += w->jobs[i].queue < 1 || w->jobs[i].queue > 3 || w->jobs[i].procs_alloc > 64;
        if (w->jobs[i].queue >= 1 && w->jobs[i].queue <= 3)
            types[w->jobs[i].queue]++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    double chi = 0.0, e = n / 3.0;
    for (int k = 1; k <= 3; k++)
        chi += ((double)types[k] - e) * ((double)types[k] - e) / e;
    CU_ASSERT(chi <= gsl_cdf_chisq_Qinv(1e-3, 2)); /* 13.82 */
    eng_workload_destroy(w);

    /* small machines never get a larger job; one node means serial only */
    const int64_t sizes[] = {1, 7, 100};
    for (size_t s = 0; s < 3; s++) {
        eng_gen_modified_init(&o, sizes[s]);
        o.n_jobs = 20000;
        o.seed = 204 + s;
        w = generate(&o);
        CU_ASSERT_PTR_NOT_NULL_FATAL(w);
        int64_t max = 0;
        for (size_t i = 0; i < w->n_jobs; i++)
            max = w->jobs[i].procs_alloc > max ? w->jobs[i].procs_alloc : max;
        CU_ASSERT(max <= sizes[s] && max >= 1);
        eng_workload_destroy(w);
    }
}

static void test_determinism(void)
{
    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    o.n_jobs = 5000;
    o.seed = 9;
    eng_workload *a = generate(&o), *b = generate(&o);
    o.seed = 10;
    eng_workload *c = generate(&o);
    o.seed = 9;
    o.est.model = ENG_EST_FMODEL;
    o.est.f = 1.0;
    eng_workload *f = generate(&o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    const char *dir = bl_tmpdir();
    char pa[768], pb[768];
    snprintf(pa, sizeof pa, "%s/a.swf", dir);
    snprintf(pb, sizeof pb, "%s/b.swf", dir);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(pa, a, NULL, &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_swf_write(pb, b, NULL, &d), ENG_OK);
    size_t la = 0, lb = 0;
    char *ta = bl_slurp(pa, &la), *tb = bl_slurp(pb, &lb);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ta);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tb);
    CU_ASSERT(la == lb && memcmp(ta, tb, la) == 0);
    free(ta);
    free(tb);
    size_t same = 0, differ = 0, bad_f = 0;
    for (size_t i = 0; i < a->n_jobs; i++) {
        same += a->jobs[i].submit_s == c->jobs[i].submit_s &&
                a->jobs[i].runtime_s == c->jobs[i].runtime_s;
        /* the estimate stream is separate: only field 9 changes */
        differ += a->jobs[i].submit_s != f->jobs[i].submit_s ||
                  a->jobs[i].runtime_s != f->jobs[i].runtime_s ||
                  a->jobs[i].procs_alloc != f->jobs[i].procs_alloc ||
                  a->jobs[i].queue != f->jobs[i].queue;
        bad_f += f->jobs[i].time_req_s < f->jobs[i].runtime_s ||
                 f->jobs[i].time_req_s > 2.0 * f->jobs[i].runtime_s;
    }
    CU_ASSERT(same < a->n_jobs / 10);
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(bad_f, 0);
    eng_workload_destroy(a);
    eng_workload_destroy(b);
    eng_workload_destroy(c);
    eng_workload_destroy(f);
}

static void test_errors(void)
{
    eng_gen_modified_opts o;
    eng_diag d;
    eng_workload *w = (eng_workload *)0x1;
    eng_gen_modified_init(&o, 8);
    o.lambda_per_s = 0.0;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_generate(&o, NULL, &w, &d), ENG_RANGE);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "lambda"));
    eng_gen_modified_init(&o, 8);
    o.log_lo = 9.0;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_check(&o, &d), ENG_RANGE);
    eng_gen_modified_init(&o, 8);
    o.log_lo = 200.0; /* no mass: the rejection loop would never end */
    o.log_hi = 201.0;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_check(&o, &d), ENG_RANGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "would not end"));
    eng_gen_modified_init(&o, 8);
    o.types = 0;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_check(&o, &d), ENG_RANGE);
    eng_gen_modified_init(&o, 0);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_gen_modified_check(&o, &d), ENG_RANGE);
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */

static void test_cli(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "generate modified --help"), 0);
    CU_ASSERT(bl_contains(out, "usage: batchlab generate modified"));
    CU_ASSERT(bl_contains(out, "--lambda"));
    CU_ASSERT(bl_contains(out, "--types"));
    free(out);
    const char *dir = bl_tmpdir();
    for (int k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL(bl_run(&out,
                               "generate modified --nodes 500 --jobs 3000 --seed 5 --lambda 0.02 "
                               "--types 4 -o '%s/m%d.swf'",
                               dir, k),
                        0);
        CU_ASSERT(bl_contains(out, "3000 jobs"));
        free(out);
    }
    char p0[768], p1[768];
    snprintf(p0, sizeof p0, "%s/m0.swf", dir);
    snprintf(p1, sizeof p1, "%s/m1.swf", dir);
    size_t n0 = 0, n1 = 0;
    char *t0 = bl_slurp(p0, &n0), *t1 = bl_slurp(p1, &n1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT(n0 == n1 && memcmp(t0, t1, n0) == 0);
    free(t0);
    free(t1);

    eng_gen_modified_opts o;
    eng_gen_modified_init(&o, 500);
    o.n_jobs = 3000;
    o.seed = 5;
    o.lambda_per_s = 0.02;
    o.types = 4;
    eng_workload *lib = generate(&o), *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_read(p0, NULL, &w, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lib);
    CU_ASSERT_EQUAL(w->n_jobs, lib->n_jobs);
    size_t bad = 0;
    for (size_t i = 0; i < w->n_jobs && i < lib->n_jobs; i++)
        bad += w->jobs[i].submit_s != lib->jobs[i].submit_s ||
               w->jobs[i].runtime_s != lib->jobs[i].runtime_s ||
               w->jobs[i].procs_alloc != lib->jobs[i].procs_alloc ||
               w->jobs[i].queue != lib->jobs[i].queue ||
               w->jobs[i].time_req_s != lib->jobs[i].time_req_s;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "lambda=0.02"));
    CU_ASSERT_PTR_NOT_NULL(bl_find_note(w, "uniform in 1..4"));
    eng_workload_destroy(w);
    eng_workload_destroy(lib);

    const struct {
        const char *args;
        const char *msg;
    } usage[] = {
        {"generate modified --nodes 8 --jobs 5 --seed 1 --types 0 -o x.swf",
         "batchlab generate: --types"},
        {"generate modified --nodes 8 --jobs 5 --seed 1 --lambda -1 -o x.swf",
         "batchlab generate: --lambda"},
        {"generate modified --nodes 8 --jobs 5 --seed 1 --lambda fast -o x.swf",
         "batchlab generate: --lambda"},
        {"generate modified --nodes 8 --jobs 5 --seed 1 --typeless -o x.swf",
         "batchlab generate: unknown option '--typeless'"},
        {"generate modified --nodes 8 --seed 1 -o x.swf", "batchlab generate: --jobs is required"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        CU_ASSERT_EQUAL(bl_run(&out, "%s", usage[i].args), 2);
        CU_ASSERT(bl_contains(out, usage[i].msg));
        free(out);
    }
}

int bl_suite_eng_gen_modified(void)
{
    CU_pSuite s = CU_add_suite("eng_gen_modified", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "defaults and known answers", test_defaults_and_known_answers);
    CU_add_test(s, "rejection window", test_rejection_window);
    CU_add_test(s, "Poisson rate, run times, sizes, types", test_workload_statistics);
    CU_add_test(s, "lambda, types, small machines", test_lambda_and_types);
    CU_add_test(s, "same seed, same bytes", test_determinism);
    CU_add_test(s, "option errors", test_errors);
    CU_add_test(s, "cli: generate modified", test_cli);
    return 0;
}
