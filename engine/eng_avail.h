/* eng_avail.h — availability of non-dedicated resources under utilization
 * uncertainty: the probabilistic model of Toporkov, Yemelyanov & Grigorenko
 * 2021 (ICCS, "Optimization of resources allocation in HPC under
 * utilization uncertainty", §3.1 and §4.1) and Toporkov, Yemelyanov &
 * Tselishchev 2023 (ICCS, "Allocation of distributed resources with group
 * dependencies and availability uncertainties", §2.1–2.2). Pure C: shared
 * by the allocation policies (policies/alloc/) and, later, by the engine
 * when it draws real host failures (eng_avail_draw below).
 *
 * A resource carries
 *   - a global (static) occupation probability P_o, constant over the whole
 *     horizon: maintenance, network failures ("global load");
 *   - job chains: each single-node job of someone else is a chain of three
 *     dependent events (Fig. 1 of both papers):
 *       allocation  P_o(t) = Phi((t - alloc_mean) / alloc_sd)   for t < occ_start
 *                   (a normal law: the probability the job has taken the
 *                   resource by t; 0.5 at the expected allocation time),
 *       occupation  P_o(t) = 1                                  on [occ_start, occ_end],
 *       release     P_o(t) = P(R > t), R = occ_end + X,         for t > occ_end
 *                   X lognormal with median release_median - occ_end and
 *                   log-deviation release_sigma (heavy tail; 0.5 at the
 *                   expected release time).
 *     Each event's P_o applies only on its own span, so a chain's P_o(t) is
 *     the one active event's value: a unimodal function rising to 1 and
 *     falling back.
 *
 * Availability of a resource over [t0, t1] (Toporkov et al. 2023 §2.1):
 *   P_a = (1 - P_o^global) * prod over chains (1 - max_{t in [t0,t1]} P_o(chain, t))
 * — independent events multiply; the dependent events of one chain count
 * once, by the one with the largest occupation probability over the
 * interval. The paper's worked example (interval [545, 844], a release at
 * 545, an allocation at 844, global 0.06) gives 0.5 * 0.5 * 0.94 = 0.235.
 *
 * Group dependencies (2023 §2.2): resources whose availability is shared
 * (the hosts of one parallel job share its allocation and release) form a
 * group with one probability P_a^G; a window's availability is
 *   P_a^w = prod over distinct groups used P_a^G          (criterion (3))
 * which reduces to the product over resources (criterion (2)) when every
 * group is a single resource. eng_avail_group_window() evaluates (3).
 *
 * Randomness only from the caller's explicitly seeded gsl_rng.
 * Cost: eng_avail_prob is O(chains of the resource); the generators are
 * O(resources + chains); eng_avail_draw is O(chains log chains + epochs).
 */
#ifndef ENG_AVAIL_H
#define ENG_AVAIL_H

#include "eng_error.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One job chain (allocation -> occupation -> release), times in seconds.
 * Valid when alloc_sd_s >= 0, alloc_mean_s <= occ_start_s <= occ_end_s <=
 * release_median_s and release_sigma >= 0 (a zero deviation, or a median
 * equal to occ_end, makes that law a step). */
typedef struct eng_avail_job {
    double alloc_mean_s, alloc_sd_s;
    double occ_start_s, occ_end_s;
    double release_median_s, release_sigma;
} eng_avail_job;

/* The three events of a chain, for event-level queries. */
typedef enum eng_avail_event {
    ENG_AVAIL_ALLOCATION = 0,
    ENG_AVAIL_OCCUPATION = 1,
    ENG_AVAIL_RELEASE = 2,
} eng_avail_event;

/* A resource's model. Caller's storage: eng_avail_res_init / _fini. Jobs
 * are kept in the order added. */
typedef struct eng_avail_res {
    double global_po; /* in [0, 1] */
    eng_avail_job *jobs;
    size_t n_jobs, cap_jobs;
} eng_avail_res;

void eng_avail_res_init(eng_avail_res *r, double global_po);
void eng_avail_res_fini(eng_avail_res *r);
/* Forgets the jobs and sets the global probability (keeps the buffer). */
void eng_avail_res_reset(eng_avail_res *r, double global_po);

/* Adds a job chain. ENG_INVAL (message in d) when it breaks the order
 * above, ENG_NOMEM. */
int eng_avail_add_job(eng_avail_res *r, const eng_avail_job *job, eng_diag *d);

/* P_o of one event at t: 0 outside the event's span. */
double eng_avail_event_po(const eng_avail_job *job, eng_avail_event ev, double t);

/* max over t in [t0, t1] of one event's P_o (0 when its span misses the
 * interval). t0 <= t1. */
double eng_avail_event_po_max(const eng_avail_job *job, eng_avail_event ev, double t0, double t1);

/* The chain's P_o at t and its maximum over [t0, t1] (the largest of its
 * three events: the chain counts once). */
double eng_avail_job_po(const eng_avail_job *job, double t);
double eng_avail_job_po_max(const eng_avail_job *job, double t0, double t1);

/* Probability that the resource stays available over the whole [t0, t1]
 * (t0 <= t1), as above. */
double eng_avail_prob(const eng_avail_res *r, double t0, double t1);

/* Criterion (3): product of group_p[g] over the distinct groups g of the
 * selected resources sel[0..n) (group_of[sel[k]]), multiplied in
 * decreasing order of value so that equal group sets give bitwise equal
 * results whatever the order of sel. scratch holds n doubles. */
double eng_avail_group_window(const int32_t *group_of, const double *group_p, const int32_t *sel,
                              size_t n, double *scratch);

/* ---- generators of the papers' environments (seeded GSL) ------------- */

/* Global load (2021 §4.1): P_o = |N(0, global_load)| (a normal with the
 * given deviation, folded at 0, so that about 68 % of the resources have
 * P_o < global_load), capped at max_po. global_load 0 gives 0. */
double eng_avail_gen_global(gsl_rng *rng, double global_load, double max_po);

/* A group's availability over the considered interval (Toporkov,
 * Yemelyanov & Tselishchev 2023 §2.1-2.2 and §3.1; the group's members
 * share one job's chain of events):
 *     P_a^G = (1 - P_o^global) (1 - P_o^event),
 * P_o^global = eng_avail_gen_global(rng, global_load, 0.99) (the static
 * part, "P_o << 1"); with probability event_share the interval meets an
 * allocation or release event of the group's job, whose largest occupation
 * over it, P_o^event, is uniform on [0, 1); otherwise P_o^event = 0 (no
 * event of the group's job in the interval; groups whose job executes
 * throughout are not available resources and are not drawn). Two uniforms
 * are drawn after the static part whatever event_share, so that changing
 * the share moves no other draw. event_share in [0, 1]. */
double eng_avail_gen_group_p(gsl_rng *rng, double global_load, double event_share);

/* Job load (2021 §4.1): single-node jobs on one resource whose expected
 * spans (expected allocation to expected release) cover job_load of
 * [t0, t1]. Lengths are lognormal (median len_median_s, log-deviation
 * len_sigma, the shape fitted to ForHLR II job lengths in the paper),
 * drawn until they exceed the share and scaled to it exactly; the idle time
 * is split uniformly at random (sorted uniforms) into the gaps before,
 * between and after them; each job starts at its submit time or when the
 * previous one ends (the paper's advance schedule), which here is the
 * same. Within a job of expected span D starting at a:
 *   alloc_sd = U[alloc_sd_lo, alloc_sd_hi] * D, occ_start = a + 3 alloc_sd,
 *   release_median = a + D, occ_end = release_median - U[rel_lo, rel_hi] * D,
 *   release_sigma = U[rel_sigma_lo, rel_sigma_hi]
 * (3 * alloc_sd_hi + rel_hi must stay below 1). */
typedef struct eng_avail_job_params {
    double len_median_s, len_sigma;
    double alloc_sd_lo, alloc_sd_hi;
    double rel_lo, rel_hi;
    double rel_sigma_lo, rel_sigma_hi;
} eng_avail_job_params;

/* The defaults used by the studies (documented in eng_avail.c). */
eng_avail_job_params eng_avail_job_defaults(void);

/* Appends the jobs of one resource. ENG_INVAL for a load outside [0, 1]
 * or bad parameters, ENG_NOMEM. */
int eng_avail_gen_jobs(gsl_rng *rng, const eng_avail_job_params *p, double t0, double t1,
                       double job_load, eng_avail_res *r, eng_diag *d);

/* One resource's share of the job load (Toporkov et al. 2021 §4.1-4.2):
 * the job load is a system-wide mean, and resources carry it unevenly
 * ("many resources fall out of consideration due to a high probability of
 * being utilized by other jobs ... selecting a set of 6 concurrently
 * available resources from 6 resources in the system that remained
 * unloaded"). The share is Beta(k x, k (1 - x)) for job load x and
 * concentration k > 0: mean x, variance x (1 - x) / (k + 1); k = 0 means
 * every resource carries exactly x (no spread). x = 0 and x = 1 give 0 and
 * 1 whatever k (an idle system, a fully utilized one). x in [0, 1]. */
double eng_avail_gen_node_load(gsl_rng *rng, double job_load, double concentration);

/* The same with the busy time given in seconds (0 <= busy <= t1 - t0)
 * instead of a share of [t0, t1]: eng_avail_gen_jobs(..., load, ...) is
 * eng_avail_gen_busy(..., load * (t1 - t0), ...). */
int eng_avail_gen_busy(gsl_rng *rng, const eng_avail_job_params *p, double t0, double t1,
                       double busy, eng_avail_res *r, eng_diag *d);

/* Values uniform on [lo, hi]; with step > 0 uniform on the grid lo, lo +
 * step, ..., <= hi (heterogeneous prices and performances). */
void eng_avail_gen_uniform(gsl_rng *rng, double lo, double hi, double step, double *out, size_t n);

/* Random non-intersecting groups (2023 §3.1): every resource gets a group
 * uniform in 0..n_groups-1, redrawn until no group is empty (n_groups <=
 * n_res). ENG_INVAL otherwise. */
int eng_avail_gen_groups(gsl_rng *rng, size_t n_res, size_t n_groups, int32_t *group_of,
                         eng_diag *d);

/* Prices that grow with a score (the reliability a price reflects):
 * reorders val[0..n) so that the resource with the k-th smallest score gets
 * the k-th smallest value (ties of score by index), so the values' law is
 * kept and their rank correlation with the score is 1. ENG_NOMEM (message
 * in d). O(n log n). */
int eng_avail_couple_by_rank(const double *score, double *val, size_t n, eng_diag *d);

/* ---- drawing real unavailability (for the engine's host failures) ---- */

/* An interval [start_s, end_s) during which the resource is taken. */
typedef struct eng_avail_span {
    double start_s, end_s;
} eng_avail_span;

/* Draws one realisation of the resource's unavailability over [t0, t1) and
 * returns it as sorted, disjoint, merged spans clipped to [t0, t1).
 *
 * Contract (what the engine can rely on):
 *   - The realisation is consistent with eng_avail_prob: for any [a, b]
 *     inside [t0, t1) that does not straddle an epoch boundary, the
 *     probability that no span meets [a, b] equals eng_avail_prob(r, a, b)
 *     (tested by Monte Carlo).
 *   - The global event holds for a whole epoch: [t0, t1) is cut into epochs
 *     of epoch_s seconds (INFINITY: one epoch), and in each the resource is
 *     taken for the entire epoch with probability global_po, independently.
 *     (The model's global P_o does not depend on the interval's length, so
 *     only an all-epoch outage reproduces it; the epoch is the engine's
 *     choice of "scheduling interval".)
 *   - A job chain is taken from its allocation time A = min(N(alloc_mean,
 *     alloc_sd), occ_start) to its release time R = occ_end + X (X the
 *     lognormal above).
 *   - Draw order is fixed (epochs, then chains in order added), so the same
 *     seed gives the same spans.
 * *spans / *cap is the caller's growable buffer (eng_grow; free() it);
 * *n is set to the number of spans. Returns ENG_OK, ENG_INVAL (t1 < t0 or
 * epoch_s <= 0, message in d), ENG_NOMEM. Cost O(chains log chains + epochs). */
int eng_avail_draw(const eng_avail_res *r, double t0, double t1, double epoch_s, gsl_rng *rng,
                   eng_avail_span **spans, size_t *n, size_t *cap, eng_diag *d);

#endif
