/* eng_avail.c — see eng_avail.h. The availability model of Toporkov,
 * Yemelyanov & Grigorenko 2021 and Toporkov, Yemelyanov & Tselishchev
 * 2023; laws from the GSL (gsl_cdf_ugaussian_P, gsl_cdf_lognormal_Q and
 * their samplers). */
#include "eng_avail.h"

#include "eng_util.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void eng_avail_res_init(eng_avail_res *r, double global_po)
{
    memset(r, 0, sizeof *r);
    r->global_po = global_po;
}

void eng_avail_res_fini(eng_avail_res *r)
{
    if (!r)
        return;
    free(r->jobs);
    memset(r, 0, sizeof *r);
}

void eng_avail_res_reset(eng_avail_res *r, double global_po)
{
    r->n_jobs = 0;
    r->global_po = global_po;
}

int eng_avail_add_job(eng_avail_res *r, const eng_avail_job *j, eng_diag *d)
{
    bool ok = j->alloc_sd_s >= 0 && j->release_sigma >= 0 && j->alloc_mean_s <= j->occ_start_s &&
              j->occ_start_s <= j->occ_end_s && j->occ_end_s <= j->release_median_s &&
              isfinite(j->alloc_mean_s) && isfinite(j->release_median_s) &&
              isfinite(j->alloc_sd_s) && isfinite(j->release_sigma);
    if (!ok)
        return eng_diag_set(d, ENG_INVAL,
                            "availability job: expected alloc_mean <= occ_start <= occ_end <= "
                            "release_median and deviations >= 0, got %g (sd %g), %g, %g, %g "
                            "(sigma %g)",
                            j->alloc_mean_s, j->alloc_sd_s, j->occ_start_s, j->occ_end_s,
                            j->release_median_s, j->release_sigma);
    if (eng_grow(&r->jobs, &r->cap_jobs, r->n_jobs + 1, sizeof *r->jobs))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    r->jobs[r->n_jobs++] = *j;
    return ENG_OK;
}

/* P(allocation has happened by t): the normal law, a step when sd = 0. */
static double alloc_cdf(const eng_avail_job *j, double t)
{
    if (j->alloc_sd_s <= 0)
        return t >= j->alloc_mean_s ? 1.0 : 0.0;
    double z = (t - j->alloc_mean_s) / j->alloc_sd_s;
    if (z < -40)
        return 0.0; /* what the GSL returns there too (Phi underflows), without the call */
    return gsl_cdf_ugaussian_P(z);
}

/* P(release is later than t), t > occ_end: the lognormal tail. */
static double release_tail(const eng_avail_job *j, double t)
{
    double x = t - j->occ_end_s, med = j->release_median_s - j->occ_end_s;
    if (med <= 0 || j->release_sigma <= 0)
        return x < med ? 1.0 : (x == med ? 0.5 : 0.0);
    return gsl_cdf_lognormal_Q(x, log(med), j->release_sigma);
}

double eng_avail_event_po(const eng_avail_job *j, eng_avail_event ev, double t)
{
    switch (ev) {
    case ENG_AVAIL_ALLOCATION:
        return t < j->occ_start_s ? alloc_cdf(j, t) : 0.0;
    case ENG_AVAIL_OCCUPATION:
        return t >= j->occ_start_s && t <= j->occ_end_s ? 1.0 : 0.0;
    case ENG_AVAIL_RELEASE:
        return t > j->occ_end_s ? release_tail(j, t) : 0.0;
    }
    return 0.0;
}

double eng_avail_event_po_max(const eng_avail_job *j, eng_avail_event ev, double t0, double t1)
{
    switch (ev) {
    case ENG_AVAIL_ALLOCATION:
        /* rising: the maximum is at the right end of the part before occ_start */
        if (t0 >= j->occ_start_s)
            return 0.0;
        if (t1 < j->occ_start_s)
            return alloc_cdf(j, t1);
        /* sup over [t0, occ_start): the limit, at most Phi at occ_start */
        return alloc_cdf(j, j->occ_start_s);
    case ENG_AVAIL_OCCUPATION:
        return t1 >= j->occ_start_s && t0 <= j->occ_end_s ? 1.0 : 0.0;
    case ENG_AVAIL_RELEASE:
        /* falling: the maximum is at the left end of the part after occ_end */
        if (t1 <= j->occ_end_s)
            return 0.0;
        if (t0 > j->occ_end_s)
            return release_tail(j, t0);
        return 1.0; /* the limit at occ_end from the right */
    }
    return 0.0;
}

double eng_avail_job_po(const eng_avail_job *j, double t)
{
    if (t < j->occ_start_s)
        return alloc_cdf(j, t);
    if (t <= j->occ_end_s)
        return 1.0;
    return release_tail(j, t);
}

double eng_avail_job_po_max(const eng_avail_job *j, double t0, double t1)
{
    /* The chain is unimodal: rising, a plateau at 1, falling. */
    if (t1 >= j->occ_start_s && t0 <= j->occ_end_s)
        return 1.0;
    if (t1 < j->occ_start_s)
        return alloc_cdf(j, t1);
    return release_tail(j, t0);
}

double eng_avail_prob(const eng_avail_res *r, double t0, double t1)
{
    double p = 1.0 - r->global_po;
    for (size_t k = 0; k < r->n_jobs && p > 0; k++)
        p *= 1.0 - eng_avail_job_po_max(&r->jobs[k], t0, t1);
    return p;
}

static int cmp_double_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

double eng_avail_group_window(const int32_t *group_of, const double *group_p, const int32_t *sel,
                              size_t n, double *scratch)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int32_t g = group_of[sel[i]];
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = group_of[sel[j]] == g;
        if (!seen)
            scratch[k++] = group_p[g];
    }
    qsort(scratch, k, sizeof *scratch, cmp_double_desc);
    double p = 1.0;
    for (size_t i = 0; i < k; i++)
        p *= scratch[i];
    return p;
}

/* ---- generators ------------------------------------------------------ */

double eng_avail_gen_global(gsl_rng *rng, double global_load, double max_po)
{
    if (global_load <= 0)
        return 0.0;
    double po = fabs(gsl_ran_gaussian(rng, global_load));
    return po < max_po ? po : max_po;
}

double eng_avail_gen_group_p(gsl_rng *rng, double global_load, double event_share)
{
    double po_global = eng_avail_gen_global(rng, global_load, 0.99);
    double u = gsl_rng_uniform(rng), po_event = gsl_rng_uniform(rng);
    return (1 - po_global) * (u < event_share ? 1 - po_event : 1.0);
}

/* Study defaults. Job lengths: the paper fits ForHLR II lengths with a
 * lognormal but gives no parameters in the interval's time units; a median
 * of 450 and log-deviation 0.7 match the jobs of Fig. 1 in both papers
 * (400-550 units from expected allocation to expected release), and leave
 * stretches free for a 200-unit window up to a job load of about 0.7 of
 * [0, 1000] (with a median of 100 no such stretch survives a load of 0.4,
 * which contradicts the paper's Table 1 at 0.5). Allocation deviation
 * 1-4 % of the span (Fig. 1: occupation starts ~50-70 units after the
 * expected allocation of a ~500-unit job, i.e. 3 sd), release median 5-15 %
 * of the span after the occupation ends with a log-deviation 0.3-0.8 (the
 * heavy tail). */
eng_avail_job_params eng_avail_job_defaults(void)
{
    return (eng_avail_job_params){
        .len_median_s = 450,
        .len_sigma = 0.7,
        .alloc_sd_lo = 0.01,
        .alloc_sd_hi = 0.04,
        .rel_lo = 0.05,
        .rel_hi = 0.15,
        .rel_sigma_lo = 0.3,
        .rel_sigma_hi = 0.8,
    };
}

double eng_avail_gen_node_load(gsl_rng *rng, double job_load, double concentration)
{
    if (job_load <= 0)
        return 0.0;
    if (job_load >= 1)
        return 1.0;
    if (!(concentration > 0))
        return job_load;
    return gsl_ran_beta(rng, concentration * job_load, concentration * (1 - job_load));
}

static double uniform_in(gsl_rng *rng, double lo, double hi)
{
    return hi > lo ? lo + (hi - lo) * gsl_rng_uniform(rng) : lo;
}

static int cmp_double_asc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int eng_avail_gen_jobs(gsl_rng *rng, const eng_avail_job_params *p, double t0, double t1,
                       double job_load, eng_avail_res *r, eng_diag *d)
{
    if (!(job_load >= 0 && job_load <= 1) || !(t1 >= t0))
        return eng_diag_set(d, ENG_INVAL,
                            "job load: expected a share in [0, 1] of [t0, t1], "
                            "got %g of [%g, %g]",
                            job_load, t0, t1);
    return eng_avail_gen_busy(rng, p, t0, t1, job_load * (t1 - t0), r, d);
}

int eng_avail_gen_busy(gsl_rng *rng, const eng_avail_job_params *p, double t0, double t1,
                       double busy, eng_avail_res *r, eng_diag *d)
{
    if (!(t1 >= t0) || !(busy >= 0 && busy <= t1 - t0))
        return eng_diag_set(d, ENG_INVAL,
                            "job load: expected a busy time in [0, %g] on [%g, %g], got %g",
                            t1 - t0, t0, t1, busy);
    if (!(p->len_median_s > 0) || p->len_sigma < 0 || p->alloc_sd_lo < 0 ||
        p->alloc_sd_hi < p->alloc_sd_lo || p->rel_lo < 0 || p->rel_hi < p->rel_lo ||
        p->rel_sigma_lo < 0 || p->rel_sigma_hi < p->rel_sigma_lo ||
        3 * p->alloc_sd_hi + p->rel_hi >= 1)
        return eng_diag_set(d, ENG_INVAL,
                            "job load: inconsistent job parameters "
                            "(3 alloc_sd_hi + rel_hi must be below 1)");
    double span = t1 - t0;
    if (busy <= 0)
        return ENG_OK;
    double *len = NULL, *cut = NULL;
    size_t n = 0, cap = 0;
    double sum = 0;
    int rc = ENG_OK;
    while (sum < busy) {
        if (eng_grow(&len, &cap, n + 1, sizeof *len)) {
            rc = ENG_NOMEM;
            goto out;
        }
        len[n] = gsl_ran_lognormal(rng, log(p->len_median_s), p->len_sigma);
        sum += len[n++];
    }
    for (size_t k = 0; k < n; k++)
        len[k] *= busy / sum;
    /* idle time split into n + 1 gaps by n sorted uniform cut points */
    double idle = span - busy;
    cut = malloc((n + 1) * sizeof *cut);
    if (!cut) {
        rc = ENG_NOMEM;
        goto out;
    }
    for (size_t k = 0; k < n; k++)
        cut[k] = idle * gsl_rng_uniform(rng);
    if (n > 1)
        qsort(cut, n, sizeof *cut, cmp_double_asc);
    double t = t0, prev_cut = 0;
    for (size_t k = 0; k < n; k++) {
        t += cut[k] - prev_cut;
        prev_cut = cut[k];
        double a = t, D = len[k];
        double sd = uniform_in(rng, p->alloc_sd_lo, p->alloc_sd_hi) * D;
        double rel = uniform_in(rng, p->rel_lo, p->rel_hi) * D;
        eng_avail_job j = {
            .alloc_mean_s = a,
            .alloc_sd_s = sd,
            .occ_start_s = a + 3 * sd,
            .occ_end_s = a + D - rel,
            .release_median_s = a + D,
            .release_sigma = uniform_in(rng, p->rel_sigma_lo, p->rel_sigma_hi),
        };
        if ((rc = eng_avail_add_job(r, &j, d)) != ENG_OK)
            goto out;
        t += D;
    }
out:
    free(len);
    free(cut);
    if (rc == ENG_NOMEM)
        eng_diag_set(d, rc, "out of memory");
    return rc;
}

void eng_avail_gen_uniform(gsl_rng *rng, double lo, double hi, double step, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (step > 0) {
            unsigned long k = (unsigned long)floor((hi - lo) / step + 1e-9) + 1;
            out[i] = lo + step * (double)gsl_rng_uniform_int(rng, k);
        } else {
            out[i] = uniform_in(rng, lo, hi);
        }
    }
}

int eng_avail_gen_groups(gsl_rng *rng, size_t n_res, size_t n_groups, int32_t *group_of,
                         eng_diag *d)
{
    if (n_groups == 0 || n_groups > n_res)
        return eng_diag_set(d, ENG_INVAL, "groups: expected 1..%zu groups, got %zu", n_res,
                            n_groups);
    size_t *count = calloc(n_groups, sizeof *count);
    if (!count)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (;;) {
        memset(count, 0, n_groups * sizeof *count);
        for (size_t i = 0; i < n_res; i++) {
            group_of[i] = (int32_t)gsl_rng_uniform_int(rng, n_groups);
            count[group_of[i]]++;
        }
        size_t g = 0;
        while (g < n_groups && count[g])
            g++;
        if (g == n_groups)
            break;
    }
    free(count);
    return ENG_OK;
}

typedef struct ranked {
    double score;
    size_t idx;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->score != y->score)
        return (x->score > y->score) - (x->score < y->score);
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_val(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int eng_avail_couple_by_rank(const double *score, double *val, size_t n, eng_diag *d)
{
    if (n == 0)
        return ENG_OK;
    ranked *r = malloc(n * sizeof *r);
    double *v = malloc(n * sizeof *v);
    if (!r || !v) {
        free(r);
        free(v);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        r[i] = (ranked){score[i], i};
        v[i] = val[i];
    }
    qsort(r, n, sizeof *r, cmp_ranked);
    qsort(v, n, sizeof *v, cmp_val);
    for (size_t k = 0; k < n; k++)
        val[r[k].idx] = v[k];
    free(r);
    free(v);
    return ENG_OK;
}

/* ---- drawing --------------------------------------------------------- */

static int cmp_span(const void *a, const void *b)
{
    const eng_avail_span *x = a, *y = b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    return (x->end_s > y->end_s) - (x->end_s < y->end_s);
}

int eng_avail_draw(const eng_avail_res *r, double t0, double t1, double epoch_s, gsl_rng *rng,
                   eng_avail_span **spans, size_t *n, size_t *cap, eng_diag *d)
{
    *n = 0;
    if (!(t1 >= t0) || !(epoch_s > 0))
        return eng_diag_set(d, ENG_INVAL,
                            "availability draw: expected t0 <= t1 and a positive "
                            "epoch, got [%g, %g) and %g",
                            t0, t1, epoch_s);
    size_t k = 0;
#define PUSH(a, b)                                                                                 \
    do {                                                                                           \
        if (eng_grow(spans, cap, k + 1, sizeof **spans))                                           \
            return eng_diag_set(d, ENG_NOMEM, "out of memory");                                    \
        (*spans)[k++] = (eng_avail_span){(a), (b)};                                                \
    } while (0)
    /* the global event: one Bernoulli draw per epoch */
    for (double e0 = t0; e0 < t1;) {
        double e1 = isinf(epoch_s) ? t1 : e0 + epoch_s;
        if (e1 > t1)
            e1 = t1;
        if (gsl_rng_uniform(rng) < r->global_po)
            PUSH(e0, e1);
        if (isinf(epoch_s))
            break;
        e0 = e1;
    }
    /* job chains: taken from the drawn allocation to the drawn release */
    for (size_t i = 0; i < r->n_jobs; i++) {
        const eng_avail_job *j = &r->jobs[i];
        double a = j->alloc_mean_s;
        if (j->alloc_sd_s > 0)
            a += gsl_ran_gaussian(rng, j->alloc_sd_s);
        if (a > j->occ_start_s)
            a = j->occ_start_s;
        double med = j->release_median_s - j->occ_end_s;
        double rel = j->occ_end_s + med;
        if (med > 0 && j->release_sigma > 0)
            rel = j->occ_end_s + gsl_ran_lognormal(rng, log(med), j->release_sigma);
        if (a < t1 && rel > t0)
            PUSH(a > t0 ? a : t0, rel < t1 ? rel : t1);
    }
#undef PUSH
    if (k > 1)
        qsort(*spans, k, sizeof **spans, cmp_span);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && (*spans)[i].start_s <= (*spans)[m - 1].end_s) {
            if ((*spans)[i].end_s > (*spans)[m - 1].end_s)
                (*spans)[m - 1].end_s = (*spans)[i].end_s;
        } else {
            (*spans)[m++] = (*spans)[i];
        }
    }
    *n = m;
    return ENG_OK;
}
