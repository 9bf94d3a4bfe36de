/* eng_wstats.c — the statistics of a log before its replay (see
 * eng_wstats.h). One pass per quantity over the jobs; medians by sorting
 * a scratch array (GSL's sort and median).
 */
#include "eng_wstats.h"

#include "eng_error.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    gsl_sort(v, 1, n);
    return gsl_stats_median_from_sorted_data(v, 1, n);
}

static int64_t procs_of(const eng_job *j)
{
    return j->procs_alloc > 0 ? j->procs_alloc : j->procs_req;
}

/* Sizes: count, serial and power-of-two shares, median and max. */
static void procs_stats(const eng_workload *w, double *v, eng_wstats *s)
{
    size_t k = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        int64_t p = procs_of(&w->jobs[i]);
        if (p <= 0) {
            s->n_no_procs++;
            continue;
        }
        v[k++] = (double)p;
        s->n_serial += p == 1;
        s->n_pow2 += (p & (p - 1)) == 0;
        if ((double)p > s->procs_max)
            s->procs_max = (double)p;
        if (w->hdr.max_procs > 0 && p > w->hdr.max_procs)
            s->n_larger_than_header++;
    }
    s->n_with_procs = k;
    s->procs_median = median(v, k);
}

/* Run times: count, median and max; jobs without one. */
static void runtime_stats(const eng_workload *w, double *v, eng_wstats *s)
{
    size_t k = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->runtime_s < 0) {
            s->n_no_runtime++;
            continue;
        }
        v[k++] = j->runtime_s;
        if (j->runtime_s > s->runtime_max_s)
            s->runtime_max_s = j->runtime_s;
    }
    s->n_with_runtime = k;
    s->runtime_median_s = median(v, k);
}

/* Requested times: how many give one, how many ran past it, and the median
 * of run time / requested time. */
static void request_stats(const eng_workload *w, double *v, eng_wstats *s)
{
    size_t k = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        if (j->time_req_s <= 0)
            continue;
        s->n_with_request++;
        if (j->runtime_s > j->time_req_s)
            s->n_over_request++;
        if (j->runtime_s >= 0)
            v[k++] = j->runtime_s / j->time_req_s;
    }
    s->accuracy_median = median(v, k);
}

static void status_stats(const eng_workload *w, eng_wstats *s)
{
    for (size_t i = 0; i < w->n_jobs; i++)
        switch (w->jobs[i].status) {
        case -1:
            s->n_status_unknown++;
            break;
        case 0:
            s->n_failed++;
            break;
        case 1:
            s->n_completed++;
            break;
        case 5:
            s->n_cancelled++;
            break;
        default:
            s->n_status_other++;
            break;
        }
}

int eng_wstats_compute(const eng_workload *w, eng_wstats *out)
{
    memset(out, 0, sizeof *out);
    out->n_jobs = w->n_jobs;
    out->first_submit_s = out->last_submit_s = NAN;
    out->procs_median = out->runtime_median_s = out->accuracy_median = NAN;
    if (w->n_jobs == 0)
        return ENG_OK;
    double *v = malloc(w->n_jobs * sizeof *v);
    if (!v) {
        memset(out, 0, sizeof *out);
        return ENG_NOMEM;
    }
    /* The reader sorts jobs of unknown submit time (-1) last: the span is
     * that of the known ones, from the first job to the last known. */
    size_t known = w->n_jobs;
    while (known > 0 && w->jobs[known - 1].submit_s < 0)
        known--;
    if (known > 0) {
        out->first_submit_s = w->jobs[0].submit_s;
        out->last_submit_s = w->jobs[known - 1].submit_s;
    }
    procs_stats(w, v, out);
    runtime_stats(w, v, out);
    request_stats(w, v, out);
    status_stats(w, out);
    free(v);
    return ENG_OK;
}

double eng_wstats_prepared_load(const eng_prepared *prep, size_t n_hosts)
{
    long double work = 0;
    double first = INFINITY, last = -INFINITY;
    for (size_t i = 0; i < prep->n_jobs; i++) {
        work += (long double)prep->jobs[i].run_s * prep->jobs[i].units;
        first = fmin(first, prep->jobs[i].submit_s);
        last = fmax(last, prep->jobs[i].submit_s);
    }
    if (prep->n_jobs == 0 || !(last > first) || n_hosts == 0)
        return NAN;
    return (double)(work / ((long double)(last - first) * (double)n_hosts));
}
