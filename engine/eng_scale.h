/* eng_scale.h — load and time-axis transformations of a workload: the
 * computed load of the job-bundling study (Baranov & Lyakhovets 2022),
 * rescaling submit times to a target load or a target span, and random job
 * types. Used on generated workloads (eng_lublin, eng_gen_modified) and on
 * real logs alike.
 *
 * Computed load (Baranov & Lyakhovets 2022):
 *     U = sum_i e_i * P_i / (D * P)
 * - e_i, the job's processing time, is its run time (SWF field 4);
 * - P_i, its nodes, is ceil(procs / cores_per_node) with procs the allocated
 *   processors (field 5), or the requested ones (field 8) when field 5 is
 *   unknown; cores_per_node is 1 for a machine of single-processor nodes (as
 *   in the study);
 * - jobs with an unknown run time or size add nothing to the sum and are
 *   counted in n_skipped (a run time of 0, e.g. a cancelled job, adds 0);
 * - D is the time from the first to the last arrival (submit times >= 0;
 *   jobs with an unknown submit time, -1, are ignored for D and never moved).
 *   The study measured D from time 0; for a generated workload the first
 *   arrival is one gap after 0, so the two differ by that gap only; measuring
 *   from the first arrival makes U independent of where a log's clock starts;
 * - P is the machine's node count.
 * U is the offered load if the whole log ran inside [first, last arrival];
 * it ignores the drain after the last arrival.
 *
 * Rescaling multiplies every inter-arrival time by one factor c > 0 and
 * writes whole seconds, SWF's unit (a reader that compares times, as
 * evalys does, sees 1e-10 s disagreements between decimal times as separate
 * instants). The span goes first: the exact new span D* (the target load
 * met with D* = sum / (U_target · P); a span S met with D* = S) is rounded
 * to the nearest whole second, D' = round(D*) (it must be >= 1 s), and
 * c = D'/D. Then every submit time is rounded from its own exact scaled
 * time, t' = round(t0) + round(c·(t − t0)), never from the rounded time
 * before it, so each time lies within half a second of its exact value and
 * the errors do not add up along the log; the first arrival goes to
 * round(t0) and the last to exactly round(t0) + D'. The order of jobs is
 * kept (ties stay ties; arrivals less than a second apart may become
 * ties). The study's "last job after 100 hours" is --span 360000 (it
 * divided every submit time by last/S, i.e. the same with t0 = 0).
 *
 * How rounding keeps the load: U depends only on the work and on D, and D
 * after rounding is D' exactly, so U' = sum / (D' · P) = U_target · D* / D'
 * and |U' − U_target| <= U_target / (2·D') (|D* − D'| <= 1/2). For a new
 * span over 10^4 · U_target seconds (about three hours at U = 1; logs span
 * weeks) the bound is below 5e-5, so `batchlab info --nodes P` on the
 * scaled log prints a target of up to four decimals (0.9, 0.85) as given.
 * Wait times (field 3) and think times (field 18) are left as they were.
 *
 * These functions do no I/O and keep no state: each changes only the
 * workload it is given. Cost O(N).
 */
#ifndef ENG_SCALE_H
#define ENG_SCALE_H

#include "eng_error.h"
#include "eng_swf.h"

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

/* Nodes a job occupies: ceil(procs / cores_per_node) with procs field 5, or
 * field 8 when field 5 is unknown; -1 when neither is >= 1. cores_per_node
 * must be >= 1. */
int64_t eng_scale_job_nodes(const eng_job *j, int64_t cores_per_node);

typedef struct eng_load {
    double work_node_s;    /* sum of e_i * P_i, node-seconds */
    double first_submit_s; /* first arrival (-1 when there is none) */
    double last_submit_s;  /* last arrival (-1 when there is none) */
    double span_s;         /* D = last - first */
    double load;           /* U; NAN when D = 0 or there are no arrivals */
    size_t n_counted;      /* jobs in the sum */
    size_t n_skipped;      /* jobs with an unknown run time or size */
} eng_load;

/* Computes the load of w on `nodes` nodes of `cores_per_node` cores.
 * ENG_RANGE when nodes or cores_per_node is < 1; otherwise ENG_OK, with
 * load NAN when D is 0. */
int eng_scale_load(const eng_workload *w, int64_t nodes, int64_t cores_per_node, eng_load *out,
                   eng_diag *d);

/* Rescales submit times, to whole seconds, so that the computed load is
 * `target` (> 0) within target / (2·D'), D' the new span in seconds.
 * *factor (may be NULL) receives c = D'/D. ENG_RANGE with a message, and
 * nothing moved, when the target is not positive, D is 0, the workload has
 * no work, or the target needs a span under half a second. */
int eng_scale_to_load(eng_workload *w, int64_t nodes, int64_t cores_per_node, double target,
                      double *factor, eng_diag *d);

/* Rescales submit times, to whole seconds, so that the last arrival is
 * round(span_s) seconds after the first. *factor (may be NULL) receives c.
 * ENG_RANGE, nothing moved, when round(span_s) < 1 or D is 0. */
int eng_scale_to_span(eng_workload *w, double span_s, double *factor, eng_diag *d);

/* Writes a job type uniform in 1..k into field 15 (queue) of every job, in
 * array order, one gsl_rng_uniform_int draw each; rng is borrowed.
 * ENG_RANGE when k < 1. */
int eng_scale_assign_types(eng_workload *w, unsigned long k, gsl_rng *rng, eng_diag *d);

#endif
