/* study_availability.c — `batchlab-study availability`: the simulation
 * study of Toporkov, Yemelyanov & Grigorenko 2021 (ICCS, "Optimization of
 * resources allocation in HPC under utilization uncertainty", §4): 64
 * heterogeneous nodes, a job of 6 nodes held for 200 time units, starting
 * anywhere in [0, 800], global load 0.05, job load 0..1.
 *
 *   Fig. 5   P_a^w = max_t P*(t) of Knapsack and GreedyJnt against job load
 *            (P*(t): the best window's availability over [t, t + 200]);
 *   Table 1  at job load 0.5: the starting-points time scan with 1..100
 *            points against the full Knapsack scan (accuracy = ours / full,
 *            averaged over scenarios; speed-up = full time / ours), and the
 *            GreedyJnt full scan.
 * Every time includes computing the nodes' availability at each t visited
 * (engine/eng_avail.c), as a scheduler would; the allocation-only ratio of
 * the two full scans is printed too. Scenario k has the same prices,
 * performances and static load at every job load (its generator is seeded
 * from --seed, the series and k).
 *
 * The environment model: one set of choices for Fig. 5 and Table 1 (also
 * in --help and bench/README.md), each with the sentence it rests on:
 *   - static load: P_o = |N(0, G)| per node ("Static utilization is
 *     generated for each resource based on a random variable P_o of
 *     occupancy probability with a normal. System-wide global-load
 *     parameter defines a standard deviation for P_o");
 *   - job load: a system-wide mean that nodes carry unevenly: node j's
 *     share of the horizon [0, L + T] is Beta(K x, K (1 - x)) for job load
 *     x (eng_avail_gen_node_load, K = --load-concentration, default 0.5; 0 =
 *     every node exactly x, the ablation) ("many resources fall out of
 *     consideration due to a high probability of being utilized by other
 *     jobs ... the static algorithms often solved the degenerated problem
 *     of selecting a set of 6 concurrently available resources from 6
 *     resources in the system that remained unloaded"; "job-load = 1 (full
 *     initial utilization of the system)": x = 1 fills every node);
 *   - job chains of that share (eng_avail_gen_busy with the defaults of
 *     eng_avail_job_defaults(): lognormal lengths of median 450, the jobs
 *     of Fig. 1, "expected times of allocation at 445 and 1230 ... release
 *     times are 986 and 1676"); --job-model FILE takes the lengths'
 *     log-deviation from a `batchlab fit` of a real log instead ("the
 *     normal distribution on a logarithmic scale (lognormal) was chosen as
 *     the most suitable for modeling the jobs' length"), the median staying
 *     450 units (the paper's parameters "were selected experimentally");
 *   - prices per time unit are integers uniform in 1..--price-max (cost of
 *     a node = price x 200, so costs are exact integers in units of 200);
 *     performances uniform in [1, 3], all above the job's minimum of 1, so
 *     the window lasts 200 on every node;
 *   - the budget is --budget-factor (default 3) times the cost of the
 *     cheapest window (MinC): the paper gives no budget; 3 leaves MaxP out
 *     of reach in most scenarios at job load 0, where the paper's Knapsack
 *     gains 9 %.
 * The paper's scenario counts (10 000 and 1000) are options; the defaults
 * are smaller.
 */
#include "study.h"

#include "cli_args.h"

#include "alloc/pol_win_greedy.h"
#include "alloc/pol_win_knapsack.h"
#include "alloc/pol_win_scan.h"
#include "eng_avail.h"
#include "eng_fit.h"
#include "eng_json.h"
#include "eng_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char study_availability_summary[] =
    "Knapsack vs GreedyJnt window availability and the time scan (Toporkov et al. 2021)";

#define CMD "availability"

static const bl_opt opts[] = {
    {"seed", 0, BL_VALUE, "S", "seed of the environments, 0..4294967295 (default 1)"},
    {"scenarios", 0, BL_VALUE, "N",
     "scenarios per job load for Fig. 5 (default 100; paper "
     "10000)"},
    {"timescan-scenarios", 0, BL_VALUE, "N", "scenarios for Table 1 (default 100; paper 1000)"},
    {"job-loads", 0, BL_VALUE, "LIST", "job loads for Fig. 5 (default 0,0.1,...,1)"},
    {"timescan-load", 0, BL_VALUE, "X", "job load of Table 1 (default 0.5)"},
    {"nodes", 0, BL_VALUE, "M", "nodes (default 64)"},
    {"window", 0, BL_VALUE, "N", "nodes the job needs (default 6)"},
    {"volume", 0, BL_VALUE, "T", "time the job holds its nodes (default 200)"},
    {"interval", 0, BL_VALUE, "L", "start times 0..L (default 800)"},
    {"global-load", 0, BL_VALUE, "G", "deviation of the nodes' static P_o (default 0.05)"},
    {"price-max", 0, BL_VALUE, "P", "prices per time unit uniform in 1..P (default 6)"},
    {"budget-factor", 0, BL_VALUE, "F", "budget = F x the cheapest window's cost (default 3)"},
    {"load-concentration", 0, BL_VALUE, "K",
     "nodes' job-load shares Beta(K x, K (1 - x)) around the job load x (default 0.5; "
     "0: every node exactly x)"},
    {"job-model", 0, BL_VALUE, "FILE",
     "job lengths' log-deviation from a `batchlab fit --json` file (default 0.7)"},
    {"minc", 0, BL_VALUE, "RULE",
     "GreedyJnt's MinC stage: paper (ties of cost by index) or tiebreak (by higher p) "
     "(default paper)"},
    {"delta", 0, BL_VALUE, "D", "step of the starting-points search (default 5)"},
    {"starts", 0, BL_VALUE, "LIST", "starting points for Table 1 (default 1,5,10,20,50,100)"},
    {"json", 0, BL_VALUE, "FILE", "write the results as JSON"},
};

static const char synopsis[] =
    "[--seed S] [--scenarios N] [--timescan-scenarios N] [--job-loads LIST]\n"
    "        [--timescan-load X] [--nodes M] [--window N] [--volume T] [--interval L]\n"
    "        [--global-load G] [--price-max P] [--budget-factor F] [--load-concentration K]\n"
    "        [--job-model FILE] [--minc RULE] [--delta D] [--starts LIST] [--json FILE]";

static const char description[] =
    "Reproduces the study of Toporkov, Yemelyanov & Grigorenko 2021: per scenario, M nodes\n"
    "with a static occupation probability and single-node job chains (allocation normal,\n"
    "occupation certain, release lognormal); a window of N nodes for T time units may start\n"
    "at any t in [0, L]; its availability is the product of the nodes' availability over\n"
    "[t, t + T], maximised within a budget by Knapsack (exact dynamic program) or GreedyJnt,\n"
    "and over t by a full time scan or the starting-points search. Prints Fig. 5 (P_a^w\n"
    "against job load) and Table 1 (accuracy and measured speed-up of the time scans) next\n"
    "to the paper's numbers.\n"
    "\n"
    "One environment model for Fig. 5 and Table 1 (the paper's sentence in quotes):\n"
    "  static load   P_o = |N(0, G)| per node (\"System-wide global-load parameter defines a\n"
    "                standard deviation for P_o\").\n"
    "  job load      a system-wide mean x that nodes carry unevenly: a node's busy share of\n"
    "                [0, L + T] is Beta(K x, K (1 - x)), mean x; x = 1 fills every node\n"
    "                (\"many resources fall out of consideration due to a high probability\n"
    "                of being utilized by other jobs ... selecting a set of 6 concurrently\n"
    "                available resources from 6 resources in the system that remained\n"
    "                unloaded\"; \"job-load = 1 (full initial utilization of the system)\").\n"
    "                --load-concentration 0 gives every node exactly x (the ablation).\n"
    "  job chains    lognormal lengths, median 450 and log-deviation 0.7, the jobs of\n"
    "                Fig. 1 (\"expected times of allocation at 445 and 1230 ... release\n"
    "                times are 986 and 1676\"); allocation deviation 1-4 % of the length,\n"
    "                release 5-15 % after the occupation, lognormal log-deviation 0.3-0.8.\n"
    "                --job-model FILE takes the log-deviation from `batchlab fit` of a\n"
    "                real log (\"lognormal was chosen as the most suitable for modeling the\n"
    "                jobs' length\"; its parameters \"were selected experimentally\", so\n"
    "                the median stays 450 units).\n"
    "  prices        integers uniform in 1..P per time unit; performances uniform in\n"
    "                [1, 3] (\"nodes have different usage costs and performance levels\").\n"
    "  budget        F x the cheapest window's cost (the paper gives none; F = 3 keeps\n"
    "                the best-availability choice out of budget in most scenarios).\n"
    "  MinC          GreedyJnt's last stage takes the n cheapest nodes, ties of cost by\n"
    "                index (\"MinC does not perform any availability optimization\");\n"
    "                --minc tiebreak prefers the higher availability among equal costs.";

/* ---- the paper's numbers -------------------------------------------------- */

static const int paper_starts[] = {1, 5, 10, 20, 50, 100};
static const double paper_accuracy[] = {0.8, 0.93, 0.96, 0.97, 0.99, 0.99};
static const double paper_speedup[] = {65, 17, 10.5, 8.3, 6.8, 3.7};
#define PAPER_GREEDY_ACCURACY 0.953
#define PAPER_GREEDY_SPEEDUP 143.0

/* ---- parameters ------------------------------------------------------------ */

enum { MAX_LIST = 64 };

typedef struct params {
    uint64_t seed;
    int scenarios, ts_scenarios;
    double loads[MAX_LIST];
    int n_loads;
    double ts_load;
    int32_t nodes, window;
    int64_t volume, interval;
    double global_load, price_max, budget_factor, concentration;
    eng_avail_job_params jobs; /* the job chains' laws */
    const char *job_model;     /* the fit they come from, or NULL */
    unsigned greedy_flags;     /* GreedyJnt's: POL_WIN_MINC_PLAIN unless --minc tiebreak */
    int64_t delta;
    int starts[MAX_LIST];
    int n_starts;
} params;

/* One scenario's environment. */
typedef struct env {
    eng_avail_res *res;
    int64_t *cost; /* units of `volume` price units: the price per time unit */
    double *perf;
    int64_t budget;
} env;

/* The objective of a time scan at t, with its scratch. */
typedef struct scan_ctx {
    const params *pp;
    const env *e;
    double *pv;    /* availability of each node over [t, t + T] */
    double *cache; /* bounded scan: p vectors per t (or NULL) */
    unsigned char *have;
    pol_win_ws ws;
    int32_t *sel;
    /* reuse between neighbouring time points: when the availability
     * vector at t equals the last one evaluated, bit for bit, the last
     * answer is the answer (exact) */
    bool reuse;
    double *last_pv, last_v;
    bool have_last;
    uint64_t reused;
} scan_ctx;

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static const double *node_avail(scan_ctx *c, int64_t t)
{
    size_t m = (size_t)c->pp->nodes;
    double *pv = c->pv;
    if (c->cache) {
        pv = c->cache + (size_t)t * m;
        if (c->have[t])
            return pv;
        c->have[t] = 1;
    }
    double t0 = (double)t, t1 = t0 + (double)c->pp->volume;
    for (size_t j = 0; j < m; j++)
        pv[j] = eng_avail_prob(&c->e->res[j], t0, t1);
    return pv;
}

static pol_win_problem problem(scan_ctx *c, const double *pv)
{
    return (pol_win_problem){.m = (size_t)c->pp->nodes,
                             .p = pv,
                             .cost = c->e->cost,
                             .n = c->pp->window,
                             .budget = c->e->budget};
}

static int f_knapsack(void *vc, int64_t t, double *v)
{
    scan_ctx *c = vc;
    const double *pv = node_avail(c, t);
    size_t bytes = (size_t)c->pp->nodes * sizeof *pv;
    if (c->reuse && c->have_last && memcmp(pv, c->last_pv, bytes) == 0) {
        c->reused++;
        *v = c->last_v;
        return ENG_OK;
    }
    pol_win_problem pr = problem(c, pv);
    pol_win_result r = {.sel = c->sel};
    int rc = pol_win_knapsack(&pr, POL_WIN_KS_ALL, &c->ws, &r, NULL);
    *v = r.n_sel ? r.p : 0.0;
    if (c->reuse) {
        memcpy(c->last_pv, pv, bytes);
        c->last_v = *v;
        c->have_last = true;
    }
    return rc;
}

static int f_greedy(void *vc, int64_t t, double *v)
{
    scan_ctx *c = vc;
    pol_win_problem pr = problem(c, node_avail(c, t));
    pol_win_result r = {.sel = c->sel};
    int rc = pol_win_greedy_flags(&pr, POL_WIN_GREEDYJNT, c->pp->greedy_flags, &c->ws, &r);
    *v = r.n_sel ? r.p : 0.0;
    return rc;
}

/* The bound of the bounded scan: MaxP's availability (any budget). */
static int f_maxp(void *vc, int64_t t, double *v)
{
    scan_ctx *c = vc;
    pol_win_problem pr = problem(c, node_avail(c, t));
    pol_win_result r = {.sel = c->sel};
    int rc = pol_win_greedy(&pr, POL_WIN_MAXP, &c->ws, &r);
    *v = r.n_sel ? r.p : 0.0;
    return rc;
}

/* The generator of scenario sc of a series (1: Fig. 5, 2: Table 1):
 * scenario sc has the same prices, performances and static load at every
 * job load of Fig. 5. */
static void scenario_seed(gsl_rng *rng, uint64_t seed, int series_id, int sc)
{
    gsl_rng_set(rng,
                (unsigned long)((seed * 7919u + (uint64_t)series_id * 1000003u + (uint64_t)sc) &
                                0xffffffffu));
}

static int env_init(env *e, const params *pp)
{
    size_t m = (size_t)pp->nodes;
    e->res = calloc(m, sizeof *e->res);
    e->cost = calloc(m, sizeof *e->cost);
    e->perf = calloc(m, sizeof *e->perf);
    return e->res && e->cost && e->perf ? 0 : -1;
}

static void env_fini(env *e, const params *pp)
{
    if (e->res)
        for (int32_t j = 0; j < pp->nodes; j++)
            eng_avail_res_fini(&e->res[j]);
    free(e->res);
    free(e->cost);
    free(e->perf);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Draws a scenario: static load, job chains, prices, performances, budget. */
static int env_generate(env *e, const params *pp, double job_load, gsl_rng *rng, eng_diag *d)
{
    size_t m = (size_t)pp->nodes;
    double horizon = (double)(pp->interval + pp->volume);
    double *price = malloc(m * sizeof *price);
    int64_t *sorted = malloc(m * sizeof *sorted);
    if (!price || !sorted) {
        free(price);
        free(sorted);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    /* the static part first, so that a scenario keeps it at every job load */
    eng_avail_gen_uniform(rng, 1, pp->price_max, 1, price, m);
    eng_avail_gen_uniform(rng, 1, 3, 0, e->perf, m);
    for (size_t j = 0; j < m; j++)
        eng_avail_res_reset(&e->res[j], eng_avail_gen_global(rng, pp->global_load, 0.99));
    for (size_t j = 0; j < m; j++) {
        double share = eng_avail_gen_node_load(rng, job_load, pp->concentration);
        int rc = eng_avail_gen_busy(rng, &pp->jobs, 0, horizon, share * horizon, &e->res[j], d);
        if (rc) {
            free(price);
            free(sorted);
            return rc;
        }
    }
    for (size_t j = 0; j < m; j++)
        e->cost[j] = sorted[j] = (int64_t)price[j];
    qsort(sorted, m, sizeof *sorted, cmp_i64);
    int64_t cheapest = 0;
    for (int32_t k = 0; k < pp->window; k++)
        cheapest += sorted[k];
    e->budget = (int64_t)floor(pp->budget_factor * (double)cheapest + 1e-9);
    free(price);
    free(sorted);
    return 0;
}

static int ctx_init(scan_ctx *c, const params *pp, const env *e, bool cache)
{
    memset(c, 0, sizeof *c);
    c->pp = pp;
    c->e = e;
    pol_win_ws_init(&c->ws);
    size_t m = (size_t)pp->nodes, N = (size_t)pp->interval + 1;
    c->pv = malloc(m * sizeof *c->pv);
    c->last_pv = malloc(m * sizeof *c->last_pv);
    c->sel = malloc((size_t)pp->window * sizeof *c->sel);
    if (cache) {
        c->cache = malloc(N * m * sizeof *c->cache);
        c->have = calloc(N, 1);
    }
    return c->pv && c->last_pv && c->sel && (!cache || (c->cache && c->have)) ? 0 : -1;
}

static void ctx_fini(scan_ctx *c)
{
    pol_win_ws_fini(&c->ws);
    free(c->pv);
    free(c->last_pv);
    free(c->sel);
    free(c->cache);
    free(c->have);
}

/* ---- Fig. 5 ------------------------------------------------------------- */

typedef struct fig5_row {
    double load;
    double knapsack, greedy;             /* means over all scenarios */
    double knapsack_found, greedy_found; /* means over scenarios with a window found */
    int found;                           /* Knapsack's P_a^w >= FOUND */
    int knapsack_better;                 /* scenarios where Knapsack > GreedyJnt */
} fig5_row;

#define FOUND 1e-3

static int run_fig5(const params *pp, gsl_rng *rng, fig5_row *rows, eng_diag *d)
{
    env e = {0};
    if (env_init(&e, pp))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    scan_ctx c;
    int rc = ENG_NOMEM;
    if (ctx_init(&c, pp, &e, true))
        goto out;
    rc = ENG_OK;
    size_t N = (size_t)pp->interval + 1;
    for (int l = 0; l < pp->n_loads && rc == ENG_OK; l++) {
        fig5_row *r = &rows[l];
        memset(r, 0, sizeof *r);
        r->load = pp->loads[l];
        double sk = 0, sg = 0, skf = 0, sgf = 0;
        for (int s = 0; s < pp->scenarios; s++) {
            scenario_seed(rng, pp->seed, 1, s);
            if ((rc = env_generate(&e, pp, r->load, rng, d)))
                break;
            memset(c.have, 0, N);
            c.reuse = true;
            c.have_last = false;
            pol_win_scan_result ks, gr;
            if ((rc = pol_win_scan_bounded(f_knapsack, f_maxp, &c, 0, pp->interval, &ks)) ||
                (rc = pol_win_scan_full(f_greedy, &c, 0, pp->interval, NULL, &gr)))
                break;
            double k = ks.best > 0 ? ks.best : 0, g = gr.best > 0 ? gr.best : 0;
            sk += k;
            sg += g;
            r->knapsack_better += k > g;
            if (k >= FOUND) {
                r->found++;
                skf += k;
                sgf += g;
            }
        }
        r->knapsack = sk / pp->scenarios;
        r->greedy = sg / pp->scenarios;
        r->knapsack_found = r->found ? skf / r->found : NAN;
        r->greedy_found = r->found ? sgf / r->found : NAN;
    }
    ctx_fini(&c);
out:
    env_fini(&e, pp);
    if (rc == ENG_NOMEM)
        eng_diag_set(d, rc, "out of memory");
    return rc;
}

/* ---- Table 1 ------------------------------------------------------------ */

enum { MODES = 3 };

typedef struct ts_stats {
    double full_s, bounded_s, greedy_s; /* summed times */
    double alloc_knapsack_s, alloc_greedy_s, avail_s;
    double alloc_plain_s, alloc_ref_s; /* log DP without reductions; the recurrence as written */
    double greedy_acc;
    double start_s[MODES][MAX_LIST];
    double start_acc[MODES][MAX_LIST];
    double start_evals[MODES][MAX_LIST];
    double bounded_evals;
    double reuse_s, reused; /* full Knapsack scan with reuse of equal neighbours */
    int used;               /* scenarios with a positive full-scan optimum */
    int bounded_exact;
} ts_stats;

static int run_table1(const params *pp, gsl_rng *rng, ts_stats *ts, eng_diag *d)
{
    memset(ts, 0, sizeof *ts);
    env e = {0};
    if (env_init(&e, pp))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    scan_ctx c, cb;
    int rc = ENG_NOMEM;
    bool have_c = false, have_cb = false;
    size_t m = (size_t)pp->nodes, N = (size_t)pp->interval + 1;
    double *pmat = malloc(N * m * sizeof *pmat);
    if (!pmat || ctx_init(&c, pp, &e, false))
        goto out;
    have_c = true;
    if (ctx_init(&cb, pp, &e, true))
        goto out;
    have_cb = true;
    gsl_rng *srng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!srng)
        goto out;
    gsl_rng_set(srng, (unsigned long)(pp->seed ^ 0x5eedU));
    rc = ENG_OK;
    for (int s = 0; s < pp->ts_scenarios && rc == ENG_OK; s++) {
        scenario_seed(rng, pp->seed, 2, s);
        if ((rc = env_generate(&e, pp, pp->ts_load, rng, d)))
            break;
        pol_win_scan_result full, r;
        double t0 = seconds();
        if ((rc = pol_win_scan_full(f_knapsack, &c, 0, pp->interval, NULL, &full)))
            break;
        double t_full = seconds() - t0;
        if (!(full.best > 0))
            continue; /* no window anywhere: accuracy undefined */
        ts->used++;
        ts->full_s += t_full;
        /* bounded (exact) scan, reusing equal neighbours too */
        memset(cb.have, 0, N);
        cb.reuse = true;
        cb.have_last = false;
        t0 = seconds();
        if ((rc = pol_win_scan_bounded(f_knapsack, f_maxp, &cb, 0, pp->interval, &r)))
            break;
        ts->bounded_s += seconds() - t0;
        ts->bounded_evals += (double)r.evals;
        ts->bounded_exact += r.best == full.best;
        /* full Knapsack scan reusing equal neighbours */
        c.reuse = true;
        c.have_last = false;
        c.reused = 0;
        t0 = seconds();
        rc = pol_win_scan_full(f_knapsack, &c, 0, pp->interval, NULL, &r);
        ts->reuse_s += seconds() - t0;
        ts->reused += (double)c.reused;
        c.reuse = false;
        if (rc)
            break;
        /* GreedyJnt full scan */
        t0 = seconds();
        if ((rc = pol_win_scan_full(f_greedy, &c, 0, pp->interval, NULL, &r)))
            break;
        ts->greedy_s += seconds() - t0;
        ts->greedy_acc += r.best / full.best;
        /* starting points, each placement */
        for (int mode = 0; mode < MODES && rc == ENG_OK; mode++)
            for (int k = 0; k < pp->n_starts; k++) {
                t0 = seconds();
                rc = pol_win_scan_starts(f_knapsack, &c, 0, pp->interval, pp->starts[k],
                                         (pol_win_starts)mode, pp->delta, srng, &r);
                if (rc)
                    break;
                ts->start_s[mode][k] += seconds() - t0;
                ts->start_acc[mode][k] += r.best / full.best;
                ts->start_evals[mode][k] += (double)r.evals;
            }
        if (rc)
            break;
        /* allocation alone: the availability matrix first, then each
         * algorithm on every t */
        t0 = seconds();
        for (size_t t = 0; t < N; t++)
            for (size_t j = 0; j < m; j++)
                pmat[t * m + j] = eng_avail_prob(&e.res[j], (double)t,
                                                 (double)t + (double)pp->volume);
        ts->avail_s += seconds() - t0;
        double *slot[4] = {&ts->alloc_knapsack_s, &ts->alloc_greedy_s, &ts->alloc_plain_s,
                           &ts->alloc_ref_s};
        for (int a = 0; a < 4 && rc == ENG_OK; a++) {
            t0 = seconds();
            for (size_t t = 0; t < N && rc == ENG_OK; t++) {
                pol_win_problem pr = problem(&c, pmat + t * m);
                pol_win_result res = {.sel = c.sel};
                switch (a) {
                case 0:
                    rc = pol_win_knapsack(&pr, POL_WIN_KS_ALL, &c.ws, &res, NULL);
                    break;
                case 1:
                    rc = pol_win_greedy_flags(&pr, POL_WIN_GREEDYJNT, pp->greedy_flags, &c.ws,
                                              &res);
                    break;
                case 2:
                    rc = pol_win_knapsack(&pr, 0, &c.ws, &res, NULL);
                    break;
                default:
                    rc = pol_win_knapsack_ref(&pr, &c.ws, &res);
                }
            }
            *slot[a] += seconds() - t0;
        }
    }
    gsl_rng_free(srng);
out:
    free(pmat);
    if (have_c)
        ctx_fini(&c);
    if (have_cb)
        ctx_fini(&cb);
    env_fini(&e, pp);
    if (rc == ENG_NOMEM)
        eng_diag_set(d, rc, "out of memory");
    return rc;
}

/* ---- output ------------------------------------------------------------- */

static const char *mode_name[MODES] = {"uniform", "random", "mixed"};

static double paper_acc_for(int k, const double *tab)
{
    for (size_t i = 0; i < sizeof paper_starts / sizeof *paper_starts; i++)
        if (paper_starts[i] == k)
            return tab[i];
    return NAN;
}

static void print_report(const params *pp, const fig5_row *rows, const ts_stats *ts)
{
    printf(
        "Availability study (Toporkov, Yemelyanov & Grigorenko 2021, seed 000): %d node%s, "
        "window of %d for %lld time unit%s, start in [0, %lld],\nglobal load %g, prices "
        "1..%g per time unit, budget %g x the cheapest window, seed %llu,\nGreedyJnt's MinC %s\n\n",
        pp->nodes, bl_s((unsigned long long)pp->nodes), pp->window, (long long)pp->volume,
        bl_s((unsigned long long)pp->volume), (long long)pp->interval, pp->global_load,
        pp->price_max, pp->budget_factor, (unsigned long long)pp->seed,
        (pp->greedy_flags & POL_WIN_MINC_PLAIN) ? "ties of cost by index (the paper's)"
                                                : "ties of cost by higher p (--minc tiebreak)");
    printf("Nodes' job-load shares Beta(%g x, %g (1 - x)); job lengths lognormal, median %g, "
           "log-deviation %.4g%s%s\n\n",
           pp->concentration, pp->concentration, pp->jobs.len_median_s, pp->jobs.len_sigma,
           pp->job_model ? " from " : "", pp->job_model ? pp->job_model : "");
    printf("Fig. 5: P_a^w = max over t of the best window, %d scenario%s per job load\n",
           pp->scenarios, bl_s((unsigned long long)pp->scenarios));
    printf("%-9s %9s %9s %8s %6s  %9s %9s  %s\n", "job load", "Knapsack", "GreedyJnt", "gain",
           "found", "Kn|found", "Gr|found", "paper");
    for (int l = 0; l < pp->n_loads; l++) {
        const fig5_row *r = &rows[l];
        char gain[16] = "-";
        if (r->knapsack >= FOUND && r->greedy > 0)
            snprintf(gain, sizeof gain, "%.1f%%", 100 * (r->knapsack / r->greedy - 1));
        printf("%-9.2f %9.4f %9.4f %8s %6d  %9.4f %9.4f  %s\n", r->load, r->knapsack, r->greedy,
               gain, r->found, r->knapsack_found, r->greedy_found,
               r->load == 0   ? "0.96 vs 0.87 (+9 %)"
               : r->load >= 1 ? "no window in any scenario"
                              : "gain shrinking to ~0 with the load");
    }
    int U = ts->used ? ts->used : 1;
    printf("\nTable 1: time scan at job load %g, %d scenario%s (%d with a window), step delta = "
           "%lld\n",
           pp->ts_load, pp->ts_scenarios, bl_s((unsigned long long)pp->ts_scenarios), ts->used,
           (long long)pp->delta);
    printf("%-30s %9s %9s %9s   %s\n", "algorithm", "accuracy", "speed-up", "evals",
           "paper accuracy, speed-up");
    printf("%-30s %9.3f %9.1f %9.0f   1, 1\n", "Full scan (Knapsack)", 1.0, 1.0,
           (double)(pp->interval + 1));
    for (int k = 0; k < pp->n_starts; k++) {
        char name[64];
        snprintf(name, sizeof name, "%d starting point%s (Knapsack)", pp->starts[k],
                 bl_s((unsigned long long)pp->starts[k]));
        double pa = paper_acc_for(pp->starts[k], paper_accuracy),
               ps = paper_acc_for(pp->starts[k], paper_speedup);
        printf("%-30s %9.3f %9.1f %9.0f   ", name, ts->start_acc[0][k] / U,
               ts->start_s[0][k] > 0 ? ts->full_s / ts->start_s[0][k] : NAN,
               ts->start_evals[0][k] / U);
        if (isnan(pa))
            printf("-\n");
        else
            printf("%g, %g\n", pa, ps);
    }
    printf("%-30s %9.3f %9.1f %9.0f   %g, %g\n", "Full scan (GreedyJnt)", ts->greedy_acc / U,
           ts->greedy_s > 0 ? ts->full_s / ts->greedy_s : NAN, (double)(pp->interval + 1),
           PAPER_GREEDY_ACCURACY, PAPER_GREEDY_SPEEDUP);
    printf("%-30s %9.3f %9.1f %9.0f   (ours: exact; MaxP bounds, reuse)\n",
           "Bounded scan (Knapsack)", ts->used ? (double)ts->bounded_exact / U : NAN,
           ts->bounded_s > 0 ? ts->full_s / ts->bounded_s : NAN, ts->bounded_evals / U);
    printf("%-30s %9.3f %9.1f %9.0f   (ours: exact, equal neighbours reused)\n",
           "Full scan, reuse (Knapsack)", 1.0, ts->reuse_s > 0 ? ts->full_s / ts->reuse_s : NAN,
           (double)(pp->interval + 1) - ts->reused / U);
    printf("Starting points placed at random / mixed (accuracy, speed-up):\n");
    for (int mode = 1; mode < MODES; mode++) {
        printf("  %-8s", mode_name[mode]);
        for (int k = 0; k < pp->n_starts; k++)
            printf("  %d: %.3f, %.1f", pp->starts[k], ts->start_acc[mode][k] / U,
                   ts->start_s[mode][k] > 0 ? ts->full_s / ts->start_s[mode][k] : NAN);
        printf("\n");
    }
    printf("Mean time per scenario: full Knapsack scan %.2f ms, GreedyJnt full scan %.2f ms "
           "(ratio %.2f), bounded Knapsack scan %.2f ms;\nallocation alone over %lld point%s: "
           "Knapsack %.2f ms, GreedyJnt %.2f ms (ratio %.1f); availability of the nodes "
           "%.2f ms\n",
           1e3 * ts->full_s / U, 1e3 * ts->greedy_s / U,
           ts->greedy_s > 0 ? ts->full_s / ts->greedy_s : NAN, 1e3 * ts->bounded_s / U,
           (long long)(pp->interval + 1), bl_s((unsigned long long)pp->interval + 1),
           1e3 * ts->alloc_knapsack_s / U, 1e3 * ts->alloc_greedy_s / U,
           ts->alloc_greedy_s > 0 ? ts->alloc_knapsack_s / ts->alloc_greedy_s : NAN,
           1e3 * ts->avail_s / U);
    printf("Knapsack allocation alone: the recurrence as written (products, whole table) "
           "%.2f ms, log-probabilities without reductions %.2f ms, with them %.2f ms\n",
           1e3 * ts->alloc_ref_s / U, 1e3 * ts->alloc_plain_s / U, 1e3 * ts->alloc_knapsack_s / U);
}

/* ---- options ------------------------------------------------------------- */

static int parse_list(const char *name, const char *text, double *out, int *n, double lo, double hi)
{
    *n = 0;
    const char *s = text;
    while (*s) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || !(v >= lo && v <= hi) || *n == MAX_LIST || (*end && *end != ',')) {
            fprintf(stderr,
                    "batchlab-study " CMD ": --%s: expected a comma-separated list of "
                    "numbers in [%g, %g], got '%s'\n",
                    name, lo, hi, text);
            return 2;
        }
        out[(*n)++] = v;
        s = *end ? end + 1 : end;
    }
    if (*n == 0) {
        fprintf(stderr, "batchlab-study " CMD ": --%s: empty list\n", name);
        return 2;
    }
    return 0;
}

static int num_opt(const bl_args *a, const char *name, double lo, double hi, double def,
                   double *out)
{
    const char *v = bl_args_value(a, name, NULL);
    *out = def;
    if (!v)
        return 0;
    if (bl_args_double("availability", name, v, out))
        return 2;
    if (!(*out >= lo && *out <= hi)) {
        fprintf(stderr, "batchlab-study " CMD ": --%s: expected a number in [%g, %g], got '%s'\n",
                name, lo, hi, v);
        return 2;
    }
    return 0;
}

static int parse(const bl_args *a, params *pp)
{
    /* the defaults, then the options given */
    unsigned long long seed = 1, scenarios = 100, ts_scenarios = 100, nodes = 64, window = 6,
                       volume = 200, interval = 800, delta = 5;
    if (bl_args_int(CMD, a, "seed", 0, 4294967295ULL, &seed) ||
        bl_args_int(CMD, a, "scenarios", 1, 10000000, &scenarios) ||
        bl_args_int(CMD, a, "timescan-scenarios", 0, 10000000, &ts_scenarios) ||
        bl_args_int(CMD, a, "nodes", 1, 100000, &nodes) ||
        bl_args_int(CMD, a, "window", 1, nodes, &window) ||
        bl_args_int(CMD, a, "volume", 1, 10000000, &volume) ||
        bl_args_int(CMD, a, "interval", 0, 1000000, &interval) ||
        bl_args_int(CMD, a, "delta", 1, 1000000, &delta))
        return 2;
    pp->seed = seed;
    pp->scenarios = (int)scenarios;
    pp->ts_scenarios = (int)ts_scenarios;
    pp->nodes = (int32_t)nodes;
    pp->window = (int32_t)window;
    pp->volume = (int64_t)volume;
    pp->interval = (int64_t)interval;
    pp->delta = (int64_t)delta;
    if (num_opt(a, "global-load", 0, 10, 0.05, &pp->global_load) ||
        num_opt(a, "price-max", 1, 1e6, 6, &pp->price_max) ||
        num_opt(a, "budget-factor", 0, 1e6, 3, &pp->budget_factor) ||
        num_opt(a, "load-concentration", 0, 1e6, 0.5, &pp->concentration) ||
        num_opt(a, "timescan-load", 0, 1, 0.5, &pp->ts_load))
        return 2;
    pp->greedy_flags = POL_WIN_MINC_PLAIN;
    const char *mc = bl_args_value(a, "minc", NULL);
    if (mc && strcmp(mc, "paper") != 0) {
        if (strcmp(mc, "tiebreak") != 0) {
            fprintf(stderr,
                    "batchlab-study " CMD ": --minc: expected paper or tiebreak, got '%s'\n", mc);
            return 2;
        }
        pp->greedy_flags = 0;
    }
    pp->jobs = eng_avail_job_defaults();
    pp->job_model = bl_args_value(a, "job-model", NULL);
    if (pp->job_model) {
        eng_fit_lognormal fit;
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_fit_read_runtime_lognormal(pp->job_model, &fit, &d) != ENG_OK) {
            fprintf(stderr, "batchlab-study " CMD ": --job-model: %s\n", d.msg);
            return 1;
        }
        pp->jobs.len_sigma = fit.sigma;
    }
    if (parse_list("job-loads",
                   bl_args_value(a, "job-loads", "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1"),
                   pp->loads, &pp->n_loads, 0, 1))
        return 2;
    double st[MAX_LIST];
    if (parse_list("starts", bl_args_value(a, "starts", "1,5,10,20,50,100"), st, &pp->n_starts, 1,
                   1e6))
        return 2;
    for (int k = 0; k < pp->n_starts; k++)
        pp->starts[k] = (int)st[k];
    return 0;
}

/* One column of Fig. 5 (the field at offset off of each row). */
static json_t *json_column(const fig5_row *rows, int n, size_t off, bool *ok)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        eng_json_push(a, eng_json_num(*(const double *)((const char *)&rows[i] + off)), ok);
    return a;
}

static json_t *json_params(const params *pp, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "seed", json_integer((json_int_t)pp->seed), ok);
    eng_json_set(o, "nodes", json_integer(pp->nodes), ok);
    eng_json_set(o, "window", json_integer(pp->window), ok);
    eng_json_set(o, "volume", json_integer((json_int_t)pp->volume), ok);
    eng_json_set(o, "interval", json_integer((json_int_t)pp->interval), ok);
    eng_json_set(o, "global_load", eng_json_num(pp->global_load), ok);
    eng_json_set(o, "price_max", eng_json_num(pp->price_max), ok);
    eng_json_set(o, "budget_factor", eng_json_num(pp->budget_factor), ok);
    eng_json_set(o, "load_concentration", eng_json_num(pp->concentration), ok);
    eng_json_set(o, "minc",
                 eng_json_str((pp->greedy_flags & POL_WIN_MINC_PLAIN) ? "paper" : "tiebreak"), ok);
    eng_json_set(o, "job_length_median", eng_json_num(pp->jobs.len_median_s), ok);
    eng_json_set(o, "job_length_sigma", eng_json_num(pp->jobs.len_sigma), ok);
    eng_json_set(o, "scenarios", json_integer(pp->scenarios), ok);
    eng_json_set(o, "timescan_scenarios", json_integer(pp->ts_scenarios), ok);
    eng_json_set(o, "timescan_load", eng_json_num(pp->ts_load), ok);
    eng_json_set(o, "delta", json_integer((json_int_t)pp->delta), ok);
    return o;
}

/* Fig. 5: each algorithm's mean over the job loads and how often it found
 * a window. */
static void json_fig5(json_t *root, const params *pp, const fig5_row *rows, bool *ok)
{
    int n = pp->n_loads;
    eng_json_set(root, "job_load", json_column(rows, n, offsetof(fig5_row, load), ok), ok);
    eng_json_set(root, "knapsack", json_column(rows, n, offsetof(fig5_row, knapsack), ok), ok);
    eng_json_set(root, "greedyjnt", json_column(rows, n, offsetof(fig5_row, greedy), ok), ok);
    eng_json_set(root, "knapsack_found",
                 json_column(rows, n, offsetof(fig5_row, knapsack_found), ok), ok);
    eng_json_set(root, "greedyjnt_found",
                 json_column(rows, n, offsetof(fig5_row, greedy_found), ok), ok);
    json_t *found = json_array();
    for (int l = 0; l < n; l++)
        eng_json_push(found, json_integer(rows[l].found), ok);
    eng_json_set(root, "found", found, ok);
}

/* Table 1: each number of starting points in each mode, the paper's
 * numbers beside the uniform mode's. */
static json_t *json_timescan(const params *pp, const ts_stats *ts, bool *ok)
{
    int U = ts->used ? ts->used : 1;
    json_t *a = json_array();
    for (int mode = 0; mode < MODES; mode++)
        for (int k = 0; k < pp->n_starts; k++) {
            json_t *o = json_object();
            eng_json_set(o, "starting_points", json_integer(pp->starts[k]), ok);
            eng_json_set(o, "mode", eng_json_str(mode_name[mode]), ok);
            eng_json_set(o, "accuracy", eng_json_num(ts->start_acc[mode][k] / U), ok);
            eng_json_set(
                o, "speedup",
                eng_json_num(ts->start_s[mode][k] > 0 ? ts->full_s / ts->start_s[mode][k] : NAN),
                ok);
            eng_json_set(o, "evaluations", eng_json_num(ts->start_evals[mode][k] / U), ok);
            eng_json_set(
                o, "paper_accuracy",
                eng_json_num(mode == 0 ? paper_acc_for(pp->starts[k], paper_accuracy) : NAN), ok);
            eng_json_set(
                o, "paper_speedup",
                eng_json_num(mode == 0 ? paper_acc_for(pp->starts[k], paper_speedup) : NAN), ok);
            eng_json_push(a, o, ok);
        }
    return a;
}

/* The full scans, the bounded and reusing scans, and the seconds each
 * step takes per scenario. */
static void json_scans(json_t *root, const ts_stats *ts, bool *ok)
{
    int U = ts->used ? ts->used : 1;
    json_t *g = json_object(), *b = json_object(), *r = json_object(), *s = json_object();
    eng_json_set(g, "accuracy", eng_json_num(ts->greedy_acc / U), ok);
    eng_json_set(g, "speedup", eng_json_num(ts->greedy_s > 0 ? ts->full_s / ts->greedy_s : NAN),
                 ok);
    eng_json_set(g, "paper_accuracy", eng_json_num(PAPER_GREEDY_ACCURACY), ok);
    eng_json_set(g, "paper_speedup", eng_json_num(PAPER_GREEDY_SPEEDUP), ok);
    eng_json_set(root, "greedyjnt_full_scan", g, ok);
    eng_json_set(b, "exact_share",
                 eng_json_num(ts->used ? (double)ts->bounded_exact / ts->used : NAN), ok);
    eng_json_set(b, "speedup", eng_json_num(ts->bounded_s > 0 ? ts->full_s / ts->bounded_s : NAN),
                 ok);
    eng_json_set(b, "evaluations", eng_json_num(ts->bounded_evals / U), ok);
    eng_json_set(root, "bounded_scan", b, ok);
    eng_json_set(r, "speedup", eng_json_num(ts->reuse_s > 0 ? ts->full_s / ts->reuse_s : NAN), ok);
    eng_json_set(r, "reused_points", eng_json_num(ts->reused / U), ok);
    eng_json_set(root, "reuse_scan", r, ok);
    eng_json_set(s, "knapsack_full_scan", eng_json_num(ts->full_s / U), ok);
    eng_json_set(s, "greedyjnt_full_scan", eng_json_num(ts->greedy_s / U), ok);
    eng_json_set(s, "knapsack_bounded_scan", eng_json_num(ts->bounded_s / U), ok);
    eng_json_set(s, "knapsack_alloc_only", eng_json_num(ts->alloc_knapsack_s / U), ok);
    eng_json_set(s, "greedyjnt_alloc_only", eng_json_num(ts->alloc_greedy_s / U), ok);
    eng_json_set(s, "knapsack_alloc_no_reductions", eng_json_num(ts->alloc_plain_s / U), ok);
    eng_json_set(s, "knapsack_alloc_reference", eng_json_num(ts->alloc_ref_s / U), ok);
    eng_json_set(s, "availability_matrix", eng_json_num(ts->avail_s / U), ok);
    eng_json_set(root, "seconds_per_scenario", s, ok);
}

static int write_file(const char *path, const params *pp, const fig5_row *rows, const ts_stats *ts)
{
    eng_diag d;
    eng_diag_clear(&d);
    bool ok = true;
    json_t *root = json_object();
    eng_json_set(root, "study", eng_json_str("availability"), &ok);
    eng_json_set(root, "paper", eng_json_str("Toporkov, Yemelyanov & Grigorenko 2021"), &ok);
    eng_json_set(root, "params", json_params(pp, &ok), &ok);
    json_fig5(root, pp, rows, &ok);
    eng_json_set(root, "timescan", json_timescan(pp, ts, &ok), &ok);
    json_scans(root, ts, &ok);
    eng_json_set(root, "timescan_used_scenarios", json_integer(ts->used), &ok);
    int rc = ok ? eng_json_write(path, root, &d) : eng_diag_set(&d, ENG_NOMEM, "out of memory");
    json_decref(root);
    if (rc != ENG_OK) {
        fprintf(stderr, "batchlab-study " CMD ": %s\n", d.msg);
        return 1;
    }
    return 0;
}

int study_availability(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse(CMD, opts, BL_N_OPTS(opts), argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage(CMD, synopsis, description, opts, BL_N_OPTS(opts));
        bl_args_fini(&a);
        return 0;
    }
    static params pp;
    memset(&pp, 0, sizeof pp);
    if ((rc = parse(&a, &pp))) {
        bl_args_fini(&a);
        return rc;
    }
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    static fig5_row rows[MAX_LIST];
    static ts_stats ts;
    eng_diag d;
    eng_diag_clear(&d);
    if (!rng) {
        bl_args_fini(&a);
        return 1;
    }
    gsl_rng_set(rng, (unsigned long)pp.seed);
    rc = run_fig5(&pp, rng, rows, &d);
    if (rc == 0)
        rc = run_table1(&pp, rng, &ts, &d);
    gsl_rng_free(rng);
    if (rc) {
        fprintf(stderr, "batchlab-study " CMD ": %s\n", d.msg[0] ? d.msg : eng_strerror(rc));
        bl_args_fini(&a);
        return 1;
    }
    print_report(&pp, rows, &ts);
    const char *json = bl_args_value(&a, "json", NULL);
    if (json)
        rc = write_file(json, &pp, rows, &ts);
    bl_args_fini(&a);
    return rc;
}
