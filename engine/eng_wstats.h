/* eng_wstats.h — what an SWF log holds before it is simulated: the
 * statistics `batchlab info` prints (sizes, run times, estimate accuracy,
 * status mix, what any replay drops), and the computed load of a prepared
 * workload on a platform's hosts.
 *
 * Processors are field 5, else field 8 (the replay's default); a job
 * without either is counted as without a processor count. Medians are
 * GSL's (gsl_stats_median_from_sorted_data: the mean of the two middle
 * values for an even count); NAN where there is nothing to take one of.
 */
#ifndef ENG_WSTATS_H
#define ENG_WSTATS_H

#include "eng_prep.h"
#include "eng_swf.h"

#include <stddef.h>

typedef struct eng_wstats {
    size_t n_jobs;
    double first_submit_s, last_submit_s; /* known submits only; NAN without one */
    /* processors (field 5, else 8) */
    size_t n_with_procs, n_no_procs, n_serial, n_pow2;
    double procs_median, procs_max;
    size_t n_larger_than_header; /* more than the header's MaxProcs (0 without one) */
    /* run time (field 4) */
    size_t n_with_runtime, n_no_runtime;
    double runtime_median_s, runtime_max_s;
    /* requested time (field 9 > 0) */
    size_t n_with_request;  /* jobs giving one */
    size_t n_over_request;  /* of them, jobs whose run time exceeds it */
    double accuracy_median; /* run time / requested time, jobs with both */
    /* status (field 11) */
    size_t n_completed, n_failed, n_cancelled, n_status_unknown, n_status_other;
} eng_wstats;

/* Fills out from w. 0, or ENG_NOMEM (out is then zeroed). O(n log n). */
int eng_wstats_compute(const eng_workload *w, eng_wstats *out);

/* The computed load U = sum(run time x units) / ((last - first submit) x
 * n_hosts) of the prepared jobs (units are nodes under node allocation, as
 * the job-bundling study's load of Baranov & Lyakhovets 2022); NAN when
 * there are no jobs, their submits span no time or n_hosts is 0. */
double eng_wstats_prepared_load(const eng_prepared *prep, size_t n_hosts);

#endif
