/* eng_coreidx.h — which cores a job held, for jobs.csv under core
 * allocation.
 *
 * The core counts cores per host and never names them: a job holds `cores`
 * cores on each of its hosts (eng_host_run). Batsim's allocated_resources
 * names resources, and under `--alloc core` a resource is a core, so that
 * the column agrees with requested_number_of_resources (the job's cores)
 * and evalys' utilization with ours. This module names them after the run,
 * deterministically:
 *
 *  - core c of host h has the index base(h) + c, base(h) the sum of the
 *    cores of the hosts before h in name order; with equal hosts, that is
 *    host index x cores per host + core;
 *  - the jobs are replayed in the order the core took and gave back their
 *    hosts: by the step of the start or end (eng_job_result.start_step,
 *    end_step), a step's ends before its starts (as the core frees the jobs
 *    ending at a step before it calls the policy), starts of one step by
 *    job index; a starting job takes, on each of its hosts, the
 *    lowest-numbered cores free at that moment.
 *
 * Steps, not times: one instant can take several steps. A job of zero
 * length started at t ends at t one step later, and the cores it gives
 * back go to the jobs started in that later step; replayed by time alone
 * (ends of t, then starts of t), those jobs would find the cores still
 * taken. Since every step's starts fit in what the core had free after
 * that step's ends, the replay in step order never finds a host full.
 *
 * Cost: O(J log J) for the order plus O(sum of the cores of the hosts each
 * job touches); memory one byte per platform core plus one interval per
 * (job, host) fragment.
 */
#ifndef ENG_COREIDX_H
#define ENG_COREIDX_H

#include "eng_core.h"
#include "eng_platform.h"

#include <stddef.h>
#include <stdint.h>

/* A run of consecutive core indices: first, first + 1, ..., first + n - 1. */
typedef struct eng_core_span {
    int64_t first;
    int32_t n;
} eng_core_span;

/* Every job's cores: job i's spans are spans[off[i] .. off[i] + count[i]),
 * ascending and not adjacent (merged). A job that never ran has none. */
typedef struct eng_coreidx {
    eng_core_span *spans;
    size_t n_spans;
    size_t *off;
    int32_t *count;
    size_t n_jobs;
} eng_coreidx;

/* Names the cores of the n_jobs results (indexed like eng_prepared.jobs)
 * whose hosts are in runs; a result with start_step -1 never ran, one
 * with end_step -1 still holds its cores at the end. 0, ENG_NOMEM, or
 * ENG_INVARIANT when a host would hold more cores than it has (a broken
 * engine invariant; message in d). On success free *out with
 * eng_coreidx_fini. */
int eng_coreidx_build(const eng_platform *p, const eng_job_result *res, size_t n_jobs,
                      const eng_host_run *runs, eng_coreidx *out, eng_diag *d);

/* NULL-safe on a zeroed struct. */
void eng_coreidx_fini(eng_coreidx *x);

#endif
