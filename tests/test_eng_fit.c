/* test_eng_fit.c — maximum-likelihood fits and the Kolmogorov–Smirnov
 * statistic (engine/eng_fit.c), on hand-made samples whose answers are
 * worked out in the comments; the archive's KTH-SP2 log when present. */
#include "bl_test.h"
#include "eng_fit.h"

#include <gsl/gsl_sf_psi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ln x = 0, 1, 2, 3: mu = 1.5, sigma^2 = (2.25 + 0.25 + 0.25 + 2.25) / 4 =
 * 1.25 (the MLE divides by n). */
static void test_lognormal(void)
{
    const double x[] = {1, exp(1.0), exp(2.0), exp(3.0)};
    eng_fit_lognormal f;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_fit_lognormal_mle(x, 4, &f, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(f.mu, 1.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.sigma, sqrt(1.25), 1e-12);
    const double bad[] = {1, 0, 2};
    CU_ASSERT_EQUAL(eng_fit_lognormal_mle(bad, 3, &f, &d), ENG_INVAL);
    const double flat[] = {5, 5, 5};
    CU_ASSERT_EQUAL(eng_fit_lognormal_mle(flat, 3, &f, &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_fit_lognormal_mle(x, 1, &f, &d), ENG_INVAL);
}

/* x = 1, 2, 3, 4: mean 2.5, mean ln x = ln(24) / 4, so the shape solves
 * ln k - psi(k) = ln 2.5 - ln(24) / 4 = 0.121777... and the scale is
 * 2.5 / k; the likelihood equations hold at the answer. */
static void test_gamma(void)
{
    const double x[] = {1, 2, 3, 4};
    eng_fit_gamma g;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_fit_gamma_mle(x, 4, &g, &d), ENG_OK);
    double s = log(2.5) - log(24.0) / 4;
    CU_ASSERT_DOUBLE_EQUAL(s, 0.121777, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(log(g.shape) - gsl_sf_psi(g.shape), s, 1e-10);
    CU_ASSERT_DOUBLE_EQUAL(g.shape * g.scale, 2.5, 1e-12);
    /* ln k - psi(k) ~ 1 / (2k) + 1 / (12 k^2): k near 4.3 */
    CU_ASSERT(g.shape > 4.0 && g.shape < 4.5);
}

/* Two well-separated clusters of 2000 values each, evenly spread over
 * 2 +- 25 % and 8 +- 25 %: EM puts weight 0.5 on each, with means 2 and
 * 8 (each component's weighted mean is its cluster's). */
static void test_hgamma(void)
{
    enum { N = 4000 };
    double *x = malloc(N * sizeof *x);
    for (int i = 0; i < N / 2; i++) {
        double u = (i + 0.5) / (N / 2);
        x[i] = 2 * (1 + (u - 0.5) * 0.5);
        x[N / 2 + i] = 8 * (1 + (u - 0.5) * 0.5);
    }
    eng_fit_hgamma h;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_fit_hgamma_em(x, N, &h, &d), ENG_OK);
    CU_ASSERT_DOUBLE_EQUAL(h.p, 0.5, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(h.g1.shape * h.g1.scale, 2, 0.02);
    CU_ASSERT_DOUBLE_EQUAL(h.g2.shape * h.g2.scale, 8, 0.08);
    /* the CDF halfway between the two: the first component's whole weight */
    CU_ASSERT_DOUBLE_EQUAL(eng_fit_hgamma_cdf(&h, 5), 0.5, 0.01);
    free(x);
}

static double cdf_uniform4(const void *ctx, double x)
{
    (void)ctx;
    return x <= 0 ? 0 : x >= 4 ? 1 : x / 4;
}

/* Against U[0, 4]: {1, 2, 3} has F = 0.25, 0.5, 0.75 and F_n steps of
 * 1/3: D = max(0.25 - 0, 1 - 0.75, ...) = 0.25. With a tie {1, 1, 3}:
 * F_n(1) = 2/3 against F(1) = 0.25, D = 0.41667. */
static void test_ks(void)
{
    double a[] = {3, 1, 2};
    CU_ASSERT_DOUBLE_EQUAL(eng_fit_ks(a, 3, cdf_uniform4, NULL), 0.25, 1e-12);
    double b[] = {1, 3, 1};
    CU_ASSERT_DOUBLE_EQUAL(eng_fit_ks(b, 3, cdf_uniform4, NULL), 2.0 / 3 - 0.25, 1e-12);
}

/* A four-job log: run times 1, 10, 100, 1000 s (ln: 0, 2.3026, 4.6052,
 * 6.9078): mu = ln(1000) / 2 = 3.45388, sigma^2 = (3.45388^2 + 1.15129^2)
 * / 2 = 6.62738, sigma = 2.574369; standardised values -1.34164, -0.44721,
 * 0.44721, 1.34164, so F = 0.08986, 0.32736, 0.67264, 0.91014 and D =
 * max(F_(i) - i/4, (i+1)/4 - F_(i)) = 0.5 - 0.32736 = 0.17264. Sizes 1, 2,
 * 4, 8 give mu = 1.5 ln 2, sigma = sqrt(1.25) ln 2. */
static const char small_log[] = "; a hand-made log\n"
                                "1 0 0 1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "2 5 0 10 2 -1 -1 2 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "3 9 0 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "4 12 0 1000 8 -1 -1 8 1000 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                "5 13 0 0 8 -1 -1 8 1000 -1 5 1 1 -1 -1 -1 -1 -1\n";

static void test_log(void)
{
    const char *path = bl_write_tmp("fit4.swf", small_log);
    eng_workload *w = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), ENG_OK);
    eng_fit_log f;
    CU_ASSERT_EQUAL_FATAL(eng_fit_workload(w, &f, &d), ENG_OK);
    CU_ASSERT_EQUAL(f.jobs, 5);
    CU_ASSERT_EQUAL(f.used, 4);
    CU_ASSERT_EQUAL(f.bad_runtime, 1);
    CU_ASSERT_DOUBLE_EQUAL(f.runtime.lognormal.mu, log(1000) / 2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.runtime.lognormal.sigma, 2.574369, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(f.runtime.ks_lognormal, 0.17264, 1e-5);
    CU_ASSERT_DOUBLE_EQUAL(f.size.lognormal.mu, 1.5 * log(2), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(f.size.lognormal.sigma, sqrt(1.25) * log(2), 1e-12);
    /* the same standardised values: the same D for the sizes */
    CU_ASSERT_DOUBLE_EQUAL(f.size.ks_lognormal, 0.17264, 1e-5);
    eng_workload_destroy(w);

    /* no usable job: every run time zero or unknown */
    path = bl_write_tmp("fit0.swf", "1 0 0 0 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                    "2 1 0 -1 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n");
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_fit_workload(w, &f, &d), ENG_INVAL);
    CU_ASSERT(bl_contains(d.msg, "fit0.swf"));
    CU_ASSERT(bl_contains(d.msg, "2 with no positive run time"));
    eng_workload_destroy(w);
}

static void test_read(void)
{
    eng_fit_lognormal f;
    eng_diag d;
    eng_diag_clear(&d);
    const char *ok = bl_write_tmp(
        "ok.json", "{\n  \"format\": \"batchlab-fit 1\",\n  \"run_time\": {\"n\": 4,\n"
                   "    \"lognormal\": {\"mu\": 3.5, \"sigma\": 2.25, \"ks\": 0.1}},\n"
                   "  \"size\": {\"lognormal\": {\"mu\": 1, \"sigma\": 9}}\n}\n");
    CU_ASSERT_EQUAL(eng_fit_read_runtime_lognormal(ok, &f, &d), ENG_OK);
    CU_ASSERT_EQUAL(f.mu, 3.5);
    CU_ASSERT_EQUAL(f.sigma, 2.25);
    const char *other = bl_write_tmp("other.json", "{\"study\": \"availability\", \"mu\": 1}\n");
    CU_ASSERT_EQUAL(eng_fit_read_runtime_lognormal(other, &f, &d), ENG_PARSE);
    CU_ASSERT(bl_contains(d.msg, "other.json"));
    const char *neg = bl_write_tmp("neg.json",
                                   "{\"format\": \"batchlab-fit 1\", \"run_time\": {\"lognormal\": "
                                   "{\"mu\": 1, \"sigma\": -2}}}\n");
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_fit_read_runtime_lognormal(neg, &f, &d), ENG_PARSE);
    CU_ASSERT(bl_contains(d.msg, "sigma > 0"));
    CU_ASSERT_EQUAL(eng_fit_read_runtime_lognormal("/nonexistent/fit.json", &f, &d), ENG_IO);
}

int bl_suite_eng_fit(void)
{
    CU_pSuite s = CU_add_suite("eng_fit", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "lognormal MLE on ln x = 0..3", test_lognormal);
    CU_add_test(s, "gamma MLE on 1..4", test_gamma);
    CU_add_test(s, "hyper-gamma EM on two separated gammas", test_hgamma);
    CU_add_test(s, "KS statistic, with ties", test_ks);
    CU_add_test(s, "fits of a four-job log; a log with no usable job", test_log);
    CU_add_test(s, "reading a fit file", test_read);
    return 0;
}
