/* eng_feedback.h — user feedback in a replay: which simulated job waits for
 * which, and for how long after its end. With feedback on, a job is not
 * submitted at its logged time but its think time after its predecessor's
 * simulated end, so that a slower schedule slows its users down as it did
 * on the machine the log came from (Zakay & Feitelson, "Preserving user
 * behavior characteristics in trace-based simulation of parallel job
 * scheduling", MASCOTS 2014). The workload becomes an event source the core
 * feeds (eng_core.c: a heap of submissions); policies still see only
 * submitted jobs.
 *
 * Rules (also in README "Replay semantics"):
 * - swf: SWF field 17 (preceding job number) and field 18 (think time,
 *   seconds; -1 or unknown: 0). The job is submitted at its predecessor's
 *   simulated end + think time, never floored at its logged submit: in
 *   Zakay & Feitelson's replay the dependency alone fixes the submit, so a
 *   faster schedule brings a session's jobs forward as a slower one
 *   delays them.
 * - sessions: the dependencies inferred as Zakay & Feitelson do. A job's
 *   predecessor is the job of the same user (field 12, known: >= 0) that
 *   ended last in the log (logged end = submit + max(wait, 0) + run time)
 *   at or before the job's logged submit, among the jobs before it in the
 *   log's order (so no cycle can form; ties of end: the later one in that
 *   order); the job depends on it when its think time, logged submit -
 *   that end, is at most ENG_FEEDBACK_SESSION_BREAK_S (20 minutes: Zakay &
 *   Feitelson, "On identifying user session boundaries in parallel workload
 *   logs", JSSPP 2012, LNCS 7698, 2013); a longer gap starts a new session,
 *   whose first job keeps its logged submit.
 * - Missing predecessor: a number no job of the log carries (swf), or a job
 *   that is not simulated (dropped, eng_prep.h): the job keeps its logged
 *   submit, and is counted (n_missing).
 * - A cycle of preceding jobs (swf; a job naming itself included) is
 *   ENG_INVAL, "PATH: jobs 3 -> 4 -> 3 form a cycle of preceding jobs (SWF
 *   field 17)".
 * - A job ends for its dependants whatever its end: done, killed at its
 *   requested time, failed (not requeued), stopped or rejected by its
 *   policy.
 */
#ifndef ENG_FEEDBACK_H
#define ENG_FEEDBACK_H

#include "eng_error.h"
#include "eng_prep.h"
#include "eng_swf.h"

/* Zakay & Feitelson's session break: a think time above it starts a new
 * session. */
#define ENG_FEEDBACK_SESSION_BREAK_S 1200.0

/* Fills prep->pred and prep->think_s (eng_prep.h) for prep->feedback's
 * mode from the workload w that prep was made from, and counts
 * prep->n_fb_deps and prep->n_fb_missing; mode none leaves them NULL and 0.
 * Errors: ENG_INVAL for a cycle, naming w->path and the job numbers;
 * ENG_NOMEM. O(n log n). eng_prep calls it; eng_prepared_fini frees. */
int eng_feedback_build(const eng_workload *w, eng_prepared *prep, eng_diag *d);

#endif
