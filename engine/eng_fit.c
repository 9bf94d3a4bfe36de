/* eng_fit.c — see eng_fit.h. Maximum-likelihood lognormal and gamma fits,
 * the hyper-gamma of Lublin & Feitelson 2003 by EM, and the
 * Kolmogorov–Smirnov statistic; arithmetic and laws from the GSL. */
#include "eng_fit.h"

#include "eng_util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_psi.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HG_MAX_ITER = 500, NEWTON_MAX = 100 };

static int check_sample(const double *x, size_t n, eng_diag *d)
{
    if (n < 2)
        return eng_diag_set(d, ENG_INVAL, "fit: expected at least 2 values, got %zu", n);
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i]))
            return eng_diag_set(d, ENG_INVAL, "fit: expected positive values, got %g at %zu", x[i],
                                i);
    return ENG_OK;
}

int eng_fit_lognormal_mle(const double *x, size_t n, eng_fit_lognormal *out, eng_diag *d)
{
    int rc = check_sample(x, n, d);
    if (rc)
        return rc;
    double *lx = malloc(n * sizeof *lx);
    if (!lx)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        lx[i] = log(x[i]);
    out->mu = gsl_stats_mean(lx, 1, n);
    /* the MLE divides by n: the variance about the known mean */
    out->sigma = sqrt(gsl_stats_variance_with_fixed_mean(lx, 1, n, out->mu));
    free(lx);
    if (!(out->sigma > 0))
        return eng_diag_set(d, ENG_INVAL, "fit: all %zu values are equal (no spread)", n);
    return ENG_OK;
}

/* Weighted gamma MLE: shape from s = ln(m) - l, m the weighted mean and l
 * the weighted mean of ln x; Newton on ln k - psi(k) = s. */
static int gamma_from_moments(double m, double l, eng_fit_gamma *out)
{
    double s = log(m) - l;
    if (!(s > 0) || !isfinite(s))
        return ENG_INVAL;
    double k = (3 - s + sqrt((s - 3) * (s - 3) + 24 * s)) / (12 * s);
    for (int it = 0; it < NEWTON_MAX; it++) {
        double f = log(k) - gsl_sf_psi(k) - s, fp = 1 / k - gsl_sf_psi_1(k);
        double next = k - f / fp;
        if (!(next > 0))
            next = k / 2;
        if (fabs(next - k) <= 1e-12 * k) {
            k = next;
            break;
        }
        k = next;
    }
    out->shape = k;
    out->scale = m / k;
    return ENG_OK;
}

int eng_fit_gamma_mle(const double *x, size_t n, eng_fit_gamma *out, eng_diag *d)
{
    int rc = check_sample(x, n, d);
    if (rc)
        return rc;
    double m = gsl_stats_mean(x, 1, n), l = 0;
    for (size_t i = 0; i < n; i++)
        l += log(x[i]);
    l /= (double)n;
    if (gamma_from_moments(m, l, out))
        return eng_diag_set(d, ENG_INVAL, "fit: all %zu values are equal (no spread)", n);
    return ENG_OK;
}

static double gamma_pdf(const eng_fit_gamma *g, double x)
{
    return gsl_ran_gamma_pdf(x, g->shape, g->scale);
}

int eng_fit_hgamma_em(const double *x, size_t n, eng_fit_hgamma *out, eng_diag *d)
{
    int rc = check_sample(x, n, d);
    if (rc)
        return rc;
    if (n < 4)
        return eng_diag_set(d, ENG_INVAL, "hyper-gamma fit: expected at least 4 values");
    double *s = malloc(n * sizeof *s), *w = malloc(n * sizeof *w);
    if (!s || !w) {
        free(s);
        free(w);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    memcpy(s, x, n * sizeof *s);
    gsl_sort(s, 1, n);
    /* start: each half of the sorted sample its own gamma */
    size_t h = n / 2;
    eng_fit_hgamma f = {.p = 0.5};
    for (int c = 0; c < 2; c++) {
        const double *part = c ? s + h : s;
        size_t np = c ? n - h : h;
        double m = gsl_stats_mean(part, 1, np), l = 0;
        for (size_t i = 0; i < np; i++)
            l += log(part[i]);
        l /= (double)np;
        eng_fit_gamma *g = c ? &f.g2 : &f.g1;
        if (gamma_from_moments(m, l, g)) /* a half with no spread: a narrow gamma there */
            *g = (eng_fit_gamma){.shape = 1e4, .scale = m / 1e4};
    }
    double ll_prev = -INFINITY;
    int it;
    for (it = 0; it < HG_MAX_ITER; it++) {
        /* E-step: responsibility of the first component */
        double ll = 0, sw = 0, sx1 = 0, sl1 = 0, sx2 = 0, sl2 = 0;
        for (size_t i = 0; i < n; i++) {
            double a = f.p * gamma_pdf(&f.g1, s[i]), b = (1 - f.p) * gamma_pdf(&f.g2, s[i]);
            double t = a + b;
            w[i] = t > 0 ? a / t : 0.5;
            ll += log(t > 0 ? t : GSL_DBL_MIN);
        }
        /* M-step: weight, then a weighted gamma MLE per component */
        for (size_t i = 0; i < n; i++) {
            double lx = log(s[i]);
            sw += w[i];
            sx1 += w[i] * s[i];
            sl1 += w[i] * lx;
            sx2 += (1 - w[i]) * s[i];
            sl2 += (1 - w[i]) * lx;
        }
        double w2 = (double)n - sw;
        if (!(sw > 1e-9 && w2 > 1e-9))
            break; /* one component took everything */
        eng_fit_hgamma next = f;
        next.p = sw / (double)n;
        if (gamma_from_moments(sx1 / sw, sl1 / sw, &next.g1) ||
            gamma_from_moments(sx2 / w2, sl2 / w2, &next.g2))
            break;
        f = next;
        f.loglik = ll;
        if (fabs(ll - ll_prev) <= 1e-10 * fabs(ll))
            break;
        ll_prev = ll;
    }
    f.iterations = it;
    /* the component with the smaller mean first */
    if (f.g1.shape * f.g1.scale > f.g2.shape * f.g2.scale) {
        eng_fit_gamma t = f.g1;
        f.g1 = f.g2;
        f.g2 = t;
        f.p = 1 - f.p;
    }
    free(s);
    free(w);
    *out = f;
    return ENG_OK;
}

double eng_fit_lognormal_cdf(const eng_fit_lognormal *f, double x)
{
    return x > 0 ? gsl_cdf_lognormal_P(x, f->mu, f->sigma) : 0.0;
}

double eng_fit_gamma_cdf(const eng_fit_gamma *f, double x)
{
    return x > 0 ? gsl_cdf_gamma_P(x, f->shape, f->scale) : 0.0;
}

double eng_fit_hgamma_cdf(const eng_fit_hgamma *f, double x)
{
    return f->p * eng_fit_gamma_cdf(&f->g1, x) + (1 - f->p) * eng_fit_gamma_cdf(&f->g2, x);
}

double eng_fit_ks(double *x, size_t n, double (*cdf)(const void *ctx, double x), const void *ctx)
{
    gsl_sort(x, 1, n);
    double D = 0;
    for (size_t i = 0; i < n; i++) {
        double F = cdf(ctx, x[i]);
        /* F_n just below x_(i) is at most i/n and at x_(i) at least (i+1)/n
         * (ties: the extremes of a run are its first and last index) */
        double lo = F - (double)i / (double)n, hi = (double)(i + 1) / (double)n - F;
        if (lo > D)
            D = lo;
        if (hi > D)
            D = hi;
    }
    return D;
}

static double cdf_lognormal(const void *c, double x)
{
    return eng_fit_lognormal_cdf(c, x);
}

static double cdf_gamma(const void *c, double x)
{
    return eng_fit_gamma_cdf(c, x);
}

static double cdf_hgamma(const void *c, double x)
{
    return eng_fit_hgamma_cdf(c, x);
}

static int fit_quantity(double *x, size_t n, bool hgamma_of_log, eng_fit_quantity *q,
                        const char *what, eng_diag *d)
{
    memset(q, 0, sizeof *q);
    q->n = n;
    int rc;
    if ((rc = eng_fit_lognormal_mle(x, n, &q->lognormal, d)) ||
        (rc = eng_fit_gamma_mle(x, n, &q->gamma, d))) {
        eng_diag_prefix(d, "%s", what);
        return rc;
    }
    q->ks_lognormal = eng_fit_ks(x, n, cdf_lognormal, &q->lognormal);
    q->ks_gamma = eng_fit_ks(x, n, cdf_gamma, &q->gamma);
    if (!hgamma_of_log)
        return ENG_OK;
    /* ln x over x > 1 (x sorted by the KS above) */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 1)
            x[k++] = log(x[i]);
    if (k < 4)
        return ENG_OK;
    eng_diag dd;
    eng_diag_clear(&dd);
    if (eng_fit_hgamma_em(x, k, &q->hgamma, &dd) != ENG_OK)
        return ENG_OK; /* not applicable */
    q->has_hgamma = true;
    q->n_hgamma = k;
    q->ks_hgamma = eng_fit_ks(x, k, cdf_hgamma, &q->hgamma);
    return ENG_OK;
}

int eng_fit_workload(const eng_workload *w, eng_fit_log *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    out->jobs = w->n_jobs;
    double *rt = malloc((w->n_jobs + 1) * sizeof *rt), *sz = malloc((w->n_jobs + 1) * sizeof *sz);
    if (!rt || !sz) {
        free(rt);
        free(sz);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        int64_t procs = j->procs_alloc > 0 ? j->procs_alloc : j->procs_req;
        if (!(j->runtime_s > 0)) {
            out->bad_runtime++;
            continue;
        }
        if (procs <= 0) {
            out->bad_size++;
            continue;
        }
        rt[n] = j->runtime_s;
        sz[n] = (double)procs;
        n++;
    }
    out->used = n;
    int rc = ENG_OK;
    if (n < 2)
        rc = eng_diag_set(d, ENG_INVAL,
                          "%s: expected at least 2 jobs with a positive run time (field 4) and "
                          "size (field 5 or 8), got %zu of %zu (%zu with no positive run time, "
                          "%zu with no positive size)",
                          w->path ? w->path : "workload", n, w->n_jobs, out->bad_runtime,
                          out->bad_size);
    if (!rc)
        rc = fit_quantity(rt, n, true, &out->runtime, "run time: ", d);
    if (!rc)
        rc = fit_quantity(sz, n, false, &out->size, "size: ", d);
    if (rc && rc != ENG_NOMEM && n >= 2)
        eng_diag_prefix(d, "%s: ", w->path ? w->path : "workload");
    free(rt);
    free(sz);
    return rc;
}

/* ---- the fit file ------------------------------------------------------- */

int eng_fit_read_runtime_lognormal(const char *path, eng_fit_lognormal *out, eng_diag *d)
{
    if (eng_check_not_dir(path, "a JSON file of batchlab fit --json", d) != ENG_OK)
        return ENG_IO;
    json_error_t err;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (err.line < 0)
            return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path, err.text);
        return eng_diag_set(d, ENG_PARSE, "%s:%d:%d: %s", path, err.line, err.column, err.text);
    }
    const char *format = NULL;
    int rc = ENG_OK;
    if (json_unpack(root, "{s:s, s:{s:{s:F, s:F}}}", "format", &format, "run_time", "lognormal",
                    "mu", &out->mu, "sigma", &out->sigma) != 0 ||
        strcmp(format, "batchlab-fit 1") != 0)
        rc = eng_diag_set(d, ENG_PARSE,
                          "%s: expected a fit written by `batchlab fit --json` (\"format\": "
                          "\"batchlab-fit 1\" with run_time.lognormal.mu and .sigma)",
                          path);
    else if (!(out->sigma > 0) || !isfinite(out->sigma) || !isfinite(out->mu))
        rc = eng_diag_set(d, ENG_PARSE,
                          "%s: run_time.lognormal: expected a finite mu and sigma > 0, got %g "
                          "and %g",
                          path, out->mu, out->sigma);
    json_decref(root);
    return rc;
}
