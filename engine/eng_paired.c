/* eng_paired.c — see eng_paired.h. Matching sorts b's job numbers once
 * and looks each of a's up: O(n log n). */
#include "eng_paired.h"
#include "eng_json.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct numbered {
    int64_t id;
    size_t i;
} numbered;

static int cmp_numbered(const void *x, const void *y)
{
    const numbered *a = x, *b = y;
    if (a->id != b->id)
        return (a->id > b->id) - (a->id < b->id);
    return (a->i > b->i) - (a->i < b->i);
}

int eng_paired_bootstrap(const double *d, size_t n, const eng_paired_opts *o, double *lo,
                         double *hi)
{
    size_t r = o->resamples;
    double *means = malloc((r ? r : 1) * sizeof *means);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!means || !rng) {
        free(means);
        if (rng)
            gsl_rng_free(rng);
        return ENG_NOMEM;
    }
    gsl_rng_set(rng, (unsigned long)o->seed);
    for (size_t k = 0; k < r; k++) {
        long double sum = 0;
        for (size_t j = 0; j < n; j++)
            sum += d[gsl_rng_uniform_int(rng, n)];
        means[k] = (double)(sum / n);
    }
    gsl_sort(means, 1, r);
    *lo = gsl_stats_quantile_from_sorted_data(means, 1, r, (1 - o->level) / 2);
    *hi = gsl_stats_quantile_from_sorted_data(means, 1, r, (1 + o->level) / 2);
    gsl_rng_free(rng);
    free(means);
    return ENG_OK;
}

int eng_paired_compare(const eng_paired_run *a, const eng_paired_run *b, const eng_paired_opts *o,
                       eng_paired *out)
{
    *out = (eng_paired){.diff_mean_s = NAN, .diff_median_s = NAN, .ci_lo_s = NAN, .ci_hi_s = NAN};
    size_t na = a->n, nb = b->n;
    numbered *byid = malloc((nb ? nb : 1) * sizeof *byid);
    double *d = malloc((na ? na : 1) * sizeof *d);
    if (!byid || !d) {
        free(byid);
        free(d);
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < nb; i++)
        byid[i] = (numbered){b->id[i], i};
    qsort(byid, nb, sizeof *byid, cmp_numbered);
    size_t m = 0;
    for (size_t i = 0; i < na; i++) {
        if (isnan(a->wait_s[i]))
            continue;
        /* the first of b's jobs with this number */
        size_t lo = 0, hi = nb;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (byid[mid].id < a->id[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < nb && byid[lo].id == a->id[i] && !isnan(b->wait_s[byid[lo].i]))
            d[m++] = b->wait_s[byid[lo].i] - a->wait_s[i];
    }
    out->jobs = m;
    out->left_out_a = na - m;
    out->left_out_b = nb - m;
    int rc = ENG_OK;
    if (m > 0) {
        size_t better = 0, worse = 0;
        for (size_t j = 0; j < m; j++) {
            better += d[j] < -o->tolerance_s;
            worse += d[j] > o->tolerance_s;
        }
        out->better_share = (double)better / (double)m;
        out->worse_share = (double)worse / (double)m;
        out->diff_mean_s = gsl_stats_mean(d, 1, m);
        if (o->resamples > 0)
            rc = eng_paired_bootstrap(d, m, o, &out->ci_lo_s, &out->ci_hi_s);
        gsl_sort(d, 1, m);
        out->diff_median_s = gsl_stats_median_from_sorted_data(d, 1, m);
    }
    free(byid);
    free(d);
    return rc;
}

/* A report's jobs as numbers and waits (NAN: not measured). */
static int report_run(const eng_run_report *r, double **wait, eng_paired_run *run)
{
    *wait = malloc((r->n_jobs ? r->n_jobs : 1) * sizeof **wait);
    if (!*wait)
        return ENG_NOMEM;
    for (size_t i = 0; i < r->n_jobs; i++) {
        int s = r->state[i];
        bool measured = s == ENG_JOB_DONE || s == ENG_JOB_KILLED || s == ENG_JOB_STOPPED;
        (*wait)[i] = measured ? r->start_s[i] - r->submit_s[i] : NAN;
    }
    *run = (eng_paired_run){r->job_id, *wait, r->n_jobs};
    return ENG_OK;
}

int eng_paired_reports(const eng_run_report *a, const eng_run_report *b, const eng_paired_opts *o,
                       eng_paired *out)
{
    double *wa = NULL, *wb = NULL;
    eng_paired_run ra, rb;
    int rc = report_run(a, &wa, &ra);
    if (rc == ENG_OK)
        rc = report_run(b, &wb, &rb);
    if (rc == ENG_OK)
        rc = eng_paired_compare(&ra, &rb, o, out);
    free(wa);
    free(wb);
    return rc;
}

void eng_paired_across(const double *x, size_t k, double level, eng_paired_seeds *out)
{
    *out = (eng_paired_seeds){
        .seeds = k, .mean_s = NAN, .sd_s = NAN, .ci_lo_s = NAN, .ci_hi_s = NAN};
    if (k == 0)
        return;
    out->mean_s = gsl_stats_mean(x, 1, k);
    if (k < 2)
        return;
    out->sd_s = gsl_stats_sd_m(x, 1, k, out->mean_s);
    double half = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)(k - 1)) * out->sd_s /
                  sqrt((double)k);
    out->ci_lo_s = out->mean_s - half;
    out->ci_hi_s = out->mean_s + half;
}

json_t *eng_paired_json(const char *baseline, const char *const *labels, const eng_paired *pairs,
                        size_t n, const eng_paired_opts *o, bool *ok)
{
    json_t *root = json_object(), *arr = json_array();
    eng_json_set(root, "baseline", eng_json_str(baseline), ok);
    eng_json_set(root, "tolerance_s", eng_json_num(o->tolerance_s), ok);
    eng_json_set(root, "level", eng_json_num(o->level), ok);
    eng_json_set(root, "resamples", json_integer((json_int_t)o->resamples), ok);
    eng_json_set(root, "seed", json_integer((json_int_t)o->seed), ok);
    for (size_t i = 0; i < n; i++) {
        const eng_paired *p = &pairs[i];
        json_t *po = json_object();
        eng_json_set(po, "a", eng_json_str(baseline), ok);
        eng_json_set(po, "b", eng_json_str(labels[i]), ok);
        eng_json_set(po, "jobs", json_integer((json_int_t)p->jobs), ok);
        eng_json_set(po, "wait_diff_mean_s", eng_json_num(p->diff_mean_s), ok);
        eng_json_set(po, "wait_diff_median_s", eng_json_num(p->diff_median_s), ok);
        eng_json_set(po, "better_share", eng_json_num(p->better_share), ok);
        eng_json_set(po, "worse_share", eng_json_num(p->worse_share), ok);
        eng_json_set(po, "ci_lo_s", eng_json_num(p->ci_lo_s), ok);
        eng_json_set(po, "ci_hi_s", eng_json_num(p->ci_hi_s), ok);
        eng_json_push(arr, po, ok);
    }
    eng_json_set(root, "pairs", arr, ok);
    return root;
}
