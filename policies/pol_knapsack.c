/* pol_knapsack.c — EASY backfilling whose started jobs get the hosts that
 * maximize the window's availability within a budget: the probabilistic
 * window allocation of Toporkov, Yemelyanov & Grigorenko 2021 (Knapsack,
 * GreedyJnt and the other greedy rules) and Toporkov, Yemelyanov &
 * Tselishchev 2023 (KnapsackGroup), inside the queue discipline of EASY
 * (Lifka 1995; Mu'alem & Feitelson 2001).
 *
 * Which jobs start, and when, is exactly EASY's (pol_easy.c, with the
 * queue backfill order): the FCFS head part, a reservation at the shadow
 * time for the first job that does not fit (pol_shadow), later jobs
 * backfilled when they end by it or use only the extra units. EASY plans on
 * unit counts, and any free units can host any job, so choosing which
 * hosts a job gets cannot break the reservation. This policy only chooses
 * those hosts (pol_out_start_on):
 *
 *   node allocation  the candidates are the wholly free hosts; host i is
 *     worth p_i = eng_avail_prob(model_i, now, now + estimate) and costs
 *     c_i = price_per_s_i x estimate; n = job->units of them are chosen by
 *     the algorithm (option algorithm):
 *       knapsack   KnapsackP, max prod p_i within the budget (default)
 *       greedyjnt  GreedyJnt (MaxP, else MaxP/C, else MinC within budget)
 *       maxp, minc, maxpc  the single greedy rules
 *       group      KnapsackGroup over the hosts' availability groups
 *     The budget (option budget=B, default none) is B per host-second on
 *     average: C = B x units x estimate. The dynamic program needs integer
 *     costs: when the prices are multiples of a common quantum (to 0.001)
 *     and the table stays under 2^24 cells, costs are counted in that
 *     quantum x estimate, which is exact; otherwise in units of
 *     C / cost_steps (option, default 256; costs rounded up, so the budget
 *     is never exceeded and at most units x C / cost_steps of it is lost;
 *     fewer steps when m x n x steps would pass 2^24 cells, to bound the
 *     time of one decision). When no selection fits the budget the job still
 *     starts — EASY decided it must — on the cheapest hosts (MinC without a
 *     budget); without a budget every rule but minc and maxpc takes MaxP,
 *     which is then optimal.
 *   core allocation  the engine takes cores from the named hosts in the
 *     order given, so the policy names an ordered cover: hosts with free
 *     cores ranked by the rule (knapsack, group, greedyjnt, maxp: by p
 *     descending, then more free cores, then cheaper per core; maxpc: by p /
 *     price per core; minc: cheapest per core), taken until their free cores
 *     cover the job. With a budget, knapsack, group and greedyjnt fall back
 *     as GreedyJnt does (the MaxP/C ranking, then the MinC ranking) when the
 *     cover's cost — price x estimate x cores taken / cores of the host —
 *     exceeds it. A job may share hosts here, so the window's availability
 *     is the product over the distinct hosts used; the exact cover problem
 *     is not solved.
 *
 * What the policy assumes about availability: each host's model is built
 * once from the platform's occupation_probability (a global, static event:
 * p_i = 1 - P_o for any interval); running jobs on other hosts do not make a
 * free host less available (the engine, not an availability event, keeps
 * them apart); estimates bound the window. When the engine gives hosts
 * richer models (job chains, groups), the same calls use them. Hosts
 * without occupation_probability have p = 1: every rule then ties on
 * availability and the cheapest / lowest-named hosts win.
 *
 * Islands (eng_policy.h; POL_FLAG_ISLANDS): the queue discipline is
 * EASY's with islands (pol_start_head_isl's rules: a job starts when
 * pol_island_pick() places it; the head's shadow time and extra units from
 * pol_shadow_isl). The window allocation then chooses among the hosts of
 * the island pol_island_pick() gives the job, the one the engine would
 * have placed it in, so EASY's plan per island holds whatever hosts are
 * chosen. A job larger than every island gets the engine's hosts, the
 * lowest-named free ones island by island as pol_island_take() counts them:
 * the papers' window model (Toporkov et al. 2021, 2023) selects n hosts from
 * one pool and has no rule for splitting a window between islands, so
 * availability and cost do not choose there.
 *
 * Groups: the view has no group attribute yet, so each host is its own
 * group and `group` chooses as `knapsack` does (criterion (3) reduces to
 * (2)); tested as such.
 *
 * Cost per call: EASY's O(started + running + scanned queue) plus, per
 * started job, O(hosts) to rank candidates and the chosen algorithm
 * (KnapsackP O(m n C) with C <= cost_steps, greedy O(m n)).
 */
#include "eng_policy.h"
#include "pol_shadow.h"

#include "alloc/pol_win_greedy.h"
#include "alloc/pol_win_group.h"
#include "alloc/pol_win_knapsack.h"
#include "eng_avail.h"
#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* In the order of option algorithm's words. */
typedef enum knap_algo {
    ALGO_KNAPSACK,
    ALGO_GREEDYJNT,
    ALGO_MAXP,
    ALGO_MINC,
    ALGO_MAXPC,
    ALGO_GROUP,
} knap_algo;

/* Largest decision table one choice may build (cells). */
#define TABLE_CELLS ((double)(1 << 24))

typedef struct knap_state {
    knap_algo algo;
    double budget_rate; /* per host-second; INFINITY: none */
    int64_t steps;
    size_t n_hosts;
    eng_avail_res *model; /* per pool position */
    int32_t *group;       /* per pool position */
    /* scratch, sized by the pool */
    int32_t *fc;   /* free cores as this call's starts take them */
    int32_t *cand; /* candidate positions */
    double *p, *rcost, *gp;
    int64_t *icost;
    int32_t *sel, *gsel, *hosts;
    pol_win_ws ws;
    const pol_job **started;
    size_t cap_started;
    pol_isl_plan isl; /* with islands: EASY's plan per island */
} knap_state;

static const pol_option knap_options[] = {
    {.key = "algorithm",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("knapsack", "greedyjnt", "maxp", "minc", "maxpc", "group"),
     .help = "how the hosts of a started job are chosen"},
    {.key = "budget",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = INFINITY,
     .absent = "none: no budget",
     .help =
         "B: a job's hosts may cost B per host-second on average, i.e. B x units x estimate in all"},
    {.key = "cost_steps",
     .type = POL_OPT_INT,
     .min = 1,
     .max = 1000000,
     .def_int = 256,
     .help = "S: units of budget / S in the knapsack's cost discretization"},
    {0},
};

static void knap_fini(void *state);

static int knap_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    knap_state *s = state;
    s->algo = (knap_algo)pol_opt_choice(setup, "algorithm");
    s->budget_rate = pol_opt_given(setup, "budget") ? pol_opt_real(setup, "budget") : INFINITY;
    s->steps = pol_opt_int(setup, "cost_steps");
    size_t n = setup->n_hosts ? setup->n_hosts : 1;
    s->n_hosts = setup->n_hosts;
    s->model = calloc(n, sizeof *s->model);
    s->group = calloc(n, sizeof *s->group);
    s->fc = calloc(n, sizeof *s->fc);
    s->cand = calloc(n, sizeof *s->cand);
    s->p = calloc(n, sizeof *s->p);
    s->rcost = calloc(n, sizeof *s->rcost);
    s->gp = calloc(n, sizeof *s->gp);
    s->icost = calloc(n, sizeof *s->icost);
    s->sel = calloc(n, sizeof *s->sel);
    s->gsel = calloc(n, sizeof *s->gsel);
    s->hosts = calloc(n, sizeof *s->hosts);
    pol_win_ws_init(&s->ws);
    if (!s->model || !s->group || !s->fc || !s->cand || !s->p || !s->rcost || !s->gp || !s->icost ||
        !s->sel || !s->gsel || !s->hosts) {
        knap_fini(s); /* the engine calls fini only after a successful init */
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t i = 0; i < setup->n_hosts; i++) {
        eng_avail_res_init(&s->model[i], setup->hosts[i].occupation_prob);
        s->group[i] = (int32_t)i; /* no group attribute in the view yet */
    }
    return ENG_OK;
}

static void knap_fini(void *state)
{
    knap_state *s = state;
    if (s->model)
        for (size_t i = 0; i < s->n_hosts; i++)
            eng_avail_res_fini(&s->model[i]);
    free(s->model);
    free(s->group);
    free(s->fc);
    free(s->cand);
    free(s->p);
    free(s->rcost);
    free(s->gp);
    free(s->icost);
    free(s->sel);
    free(s->gsel);
    free(s->hosts);
    free(s->started);
    pol_win_ws_fini(&s->ws);
    pol_isl_plan_fini(&s->isl);
}

/* ---- node allocation ------------------------------------------------------ */

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The largest quantum that divides every candidate's cost, when prices are
 * multiples of 0.001 (cost = price x estimate): est x gcd(prices) / 1000;
 * 0 when there is none or every price is 0. */
static double price_quantum(const knap_state *s, size_t m, double est)
{
    int64_t g = 0;
    for (size_t k = 0; k < m; k++) {
        double milli = s->rcost[k] / (est > 0 ? est : 1) * 1000;
        double r = nearbyint(milli);
        if (fabs(milli - r) > 1e-6 * (r > 1 ? r : 1) || r > 1e12)
            return 0;
        g = gcd64(g, (int64_t)r);
    }
    return g > 0 && est > 0 ? est * (double)g / 1000 : 0;
}

/* Chooses job->units of the m candidates (positions in s->cand, worth s->p,
 * costing s->rcost) into s->hosts. */
static int choose_nodes(knap_state *s, const pol_job *j, size_t m)
{
    int32_t n = j->units;
    double est = j->estimate_s;
    double C = isinf(s->budget_rate) ? INFINITY : s->budget_rate * (double)n * est;
    double maxc = 0;
    for (size_t k = 0; k < m; k++)
        if (s->rcost[k] > maxc)
            maxc = s->rcost[k];
    /* the cost unit: the prices' common quantum when there is one and the
     * table stays small (then the budget is applied exactly), else a share
     * of the budget, or a fine grid without a budget */
    double unit;
    double cap = TABLE_CELLS / ((double)m * (double)n);
    double q = price_quantum(s, m, est);
    if (isinf(C))
        unit = maxc > 0 ? maxc / 1e6 : 1.0;
    else if (q > 0 && C / q <= cap)
        unit = q;
    else {
        double steps = (double)s->steps;
        if (steps > cap)
            steps = cap > 8 ? cap : 8;
        unit = C > 0 ? C / steps : (maxc > 0 ? maxc / 1e6 : 1.0);
    }
    int64_t ib;
    pol_win_discretize(s->rcost, m, C, unit, s->icost, &ib);
    pol_win_problem pr = {.m = m, .p = s->p, .cost = s->icost, .n = n, .budget = ib};
    pol_win_result r = {.sel = s->sel};
    int rc = ENG_OK;
    switch (s->algo) {
    case ALGO_KNAPSACK:
        rc = pol_win_knapsack(&pr, POL_WIN_KS_ALL, &s->ws, &r, NULL);
        break;
    case ALGO_GREEDYJNT:
        rc = pol_win_greedy(&pr, POL_WIN_GREEDYJNT, &s->ws, &r);
        break;
    case ALGO_MAXP:
        rc = pol_win_greedy(&pr, POL_WIN_MAXP, &s->ws, &r);
        break;
    case ALGO_MINC:
    case ALGO_MAXPC: {
        pol_win_problem nb = pr;
        nb.budget = POL_WIN_NO_BUDGET; /* the rule's choice, affordable or not */
        rc = pol_win_greedy(&nb, s->algo == ALGO_MINC ? POL_WIN_MINC : POL_WIN_MAXPC, &s->ws, &r);
        break;
    }
    case ALGO_GROUP: {
        /* groups of the candidates, renumbered densely */
        for (size_t k = 0; k < m; k++) {
            s->gsel[k] = (int32_t)k;
            s->gp[k] = s->p[k];
        }
        pol_wg_problem gpr = {.m = m,
                              .cost = s->icost,
                              .group = s->gsel,
                              .n_groups = m,
                              .group_p = s->gp,
                              .n = n,
                              .budget = ib};
        rc = pol_win_group(&gpr, POL_WG_KNAPSACK, 0, &s->ws, &r, NULL);
        break;
    }
    }
    if (rc == ENG_RANGE) {
        /* cannot happen with the coarsened grid; answer greedily if it does */
        rc = pol_win_greedy(&pr, POL_WIN_GREEDYJNT, &s->ws, &r);
    }
    if (rc)
        return rc;
    if (r.n_sel == 0) {
        /* nothing fits the budget: the cheapest hosts */
        pol_win_problem nb = pr;
        nb.budget = POL_WIN_NO_BUDGET;
        if ((rc = pol_win_greedy(&nb, POL_WIN_MINC, &s->ws, &r)))
            return rc;
    }
    for (int32_t k = 0; k < n; k++)
        s->hosts[k] = s->cand[s->sel[k]];
    return ENG_OK;
}

/* ---- core allocation ------------------------------------------------------ */

typedef struct cover_key {
    double k1, k2, k3;
    int32_t pos;
} cover_key;

static int cmp_cover(const void *a, const void *b)
{
    const cover_key *x = a, *y = b;
    if (x->k1 != y->k1)
        return x->k1 > y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 > y->k2 ? -1 : 1;
    if (x->k3 != y->k3)
        return x->k3 > y->k3 ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Ranks the candidates by rule (0: availability, 1: availability per price,
 * 2: price) and takes them until job->units cores are covered; returns the
 * number of hosts named and the cover's cost. */
static size_t cover(knap_state *s, const pol_view *v, const pol_job *j, size_t m, int rule,
                    cover_key *keys, double *cost)
{
    for (size_t k = 0; k < m; k++) {
        int32_t pos = s->cand[k];
        double ppc = v->hosts[pos].price_per_s / (double)v->hosts[pos].cores;
        double p = s->p[k], fc = (double)s->fc[pos];
        switch (rule) {
        case 0:
            keys[k] = (cover_key){p, fc, -ppc, pos};
            break;
        case 1:
            keys[k] = (cover_key){ppc > 0 ? p / ppc : INFINITY, p, fc, pos};
            break;
        default:
            keys[k] = (cover_key){-ppc, p, fc, pos};
        }
    }
    qsort(keys, m, sizeof *keys, cmp_cover);
    int32_t need = j->units;
    size_t n = 0;
    *cost = 0;
    for (size_t k = 0; k < m && need > 0; k++) {
        int32_t pos = keys[k].pos, take = s->fc[pos] < need ? s->fc[pos] : need;
        *cost += v->hosts[pos].price_per_s * j->estimate_s * take / (double)v->hosts[pos].cores;
        s->hosts[n++] = pos;
        need -= take;
    }
    return n;
}

static int choose_cores(knap_state *s, const pol_view *v, const pol_job *j, size_t m,
                        size_t *n_named)
{
    cover_key *keys = pol_win_ws_get(&s->ws, 0, m * sizeof *keys);
    if (!keys)
        return ENG_NOMEM;
    double C = isinf(s->budget_rate) ? INFINITY : s->budget_rate * (double)j->units * j->estimate_s,
           cost;
    int rule = s->algo == ALGO_MINC ? 2 : s->algo == ALGO_MAXPC ? 1 : 0;
    size_t n = cover(s, v, j, m, rule, keys, &cost);
    bool fallback = s->algo == ALGO_KNAPSACK || s->algo == ALGO_GROUP || s->algo == ALGO_GREEDYJNT;
    if (fallback && cost > C * (1 + 1e-12)) {
        n = cover(s, v, j, m, 1, keys, &cost);
        if (cost > C * (1 + 1e-12))
            n = cover(s, v, j, m, 2, keys, &cost);
    }
    *n_named = n;
    return ENG_OK;
}

/* A job larger than every island (pick POL_ISLAND_SPAN): the hosts the
 * engine would give it, island by island as pol_island_take() counts them,
 * the lowest-named free ones in each; under core allocation every island
 * but the last gives all its free cores, so the engine, which takes from
 * named hosts in order, takes exactly these. Returns how many named. */
static size_t span_hosts(knap_state *s, const pol_view *v)
{
    size_t n = 0, ni = (size_t)v->n_islands;
    bool node = v->alloc == POL_ALLOC_NODE;
    const int32_t *row = s->isl.taken + (s->isl.n_started - 1) * ni; /* this job's */
    for (int32_t k = 0; k < v->n_islands; k++) {
        int32_t want = row[k];
        for (size_t i = 0; i < v->n_hosts && want > 0; i++) {
            if (v->hosts[i].island != k || s->fc[i] == 0 || (node && s->fc[i] != v->hosts[i].cores))
                continue;
            int32_t take = node ? 1 : s->fc[i] < want ? s->fc[i] : want;
            s->fc[i] = node ? 0 : s->fc[i] - take;
            s->hosts[n++] = (int32_t)i;
            want -= take;
        }
    }
    return n;
}

/* Chooses and starts job j on hosts, and takes them out of s->fc. With
 * islands: among the hosts of the island pol_island_pick() gives it (the
 * engine's choice, followed in s->isl), or, larger than every island, on
 * the engine's hosts (span_hosts). */
static int start_job(knap_state *s, const pol_view *v, pol_out *out, const pol_job *j)
{
    size_t m = 0;
    bool node = v->alloc == POL_ALLOC_NODE;
    double t0 = v->now_s, t1 = v->now_s + j->estimate_s;
    int32_t isl = -1;
    if (v->n_islands > 0) {
        isl = pol_island_pick(v->n_islands, v->island_units, s->isl.free, j->units);
        if (isl == POL_ISLAND_NONE)
            return ENG_INVARIANT; /* the caller checked: cannot happen */
        if (pol_isl_plan_start(v, &s->isl, j))
            return ENG_NOMEM;
        if (isl == POL_ISLAND_SPAN) {
            size_t n = span_hosts(s, v);
            pol_out_start_on(out, j, s->hosts, n);
            return ENG_OK;
        }
    }
    for (size_t i = 0; i < v->n_hosts; i++) {
        bool ok = node ? s->fc[i] == v->hosts[i].cores : s->fc[i] > 0;
        if (!ok || (isl >= 0 && v->hosts[i].island != isl))
            continue;
        s->cand[m] = (int32_t)i;
        s->p[m] = eng_avail_prob(&s->model[i], t0, t1);
        s->rcost[m] = v->hosts[i].price_per_s * j->estimate_s;
        m++;
    }
    int rc;
    size_t n;
    if (node) {
        if ((size_t)j->units > m)
            return ENG_INVARIANT; /* EASY counted free units: cannot happen */
        if ((rc = choose_nodes(s, j, m)))
            return rc;
        n = (size_t)j->units;
        for (size_t k = 0; k < n; k++)
            s->fc[s->hosts[k]] = 0;
    } else {
        if ((rc = choose_cores(s, v, j, m, &n)))
            return rc;
        int32_t need = j->units;
        for (size_t k = 0; k < n; k++) {
            int32_t take = s->fc[s->hosts[k]] < need ? s->fc[s->hosts[k]] : need;
            s->fc[s->hosts[k]] -= take;
            need -= take;
        }
        if (need > 0)
            return ENG_INVARIANT;
    }
    pol_out_start_on(out, j, s->hosts, n);
    return ENG_OK;
}

/* ---- EASY ----------------------------------------------------------------- */

/* With islands, can pol_island_pick() place j after this call's starts? */
static bool fits_islands(const knap_state *s, const pol_view *v, const pol_job *j)
{
    return v->n_islands == 0 ||
           pol_island_pick(v->n_islands, v->island_units, s->isl.free, j->units) != POL_ISLAND_NONE;
}

static int knap_schedule(void *state, const pol_view *v, pol_out *out)
{
    knap_state *s = state;
    if (v->n_hosts > s->n_hosts)
        return ENG_INVARIANT;
    for (size_t i = 0; i < v->n_hosts; i++)
        s->fc[i] = v->hosts[i].free_cores;
    int rc;
    int32_t free_units = v->free_units;
    bool isl = v->n_islands > 0;
    if (isl) {
        size_t ni = (size_t)v->n_islands;
        if (eng_grow(&s->isl.free, &s->isl.cap_free, ni, sizeof *s->isl.free))
            return ENG_NOMEM;
        memcpy(s->isl.free, v->island_free, ni * sizeof *s->isl.free);
        s->isl.n_started = 0;
    }
    size_t i = 0;
    for (; i < v->n_queue && v->queue[i]->units <= free_units && fits_islands(s, v, v->queue[i]);
         i++) {
        if ((rc = start_job(s, v, out, v->queue[i])))
            return rc;
        free_units -= v->queue[i]->units;
    }
    if (i == v->n_queue)
        return ENG_OK;
    double shadow;
    int32_t extra;
    if (isl) {
        rc = pol_shadow_isl(v, &s->isl, v->queue[i]->units, &shadow, &extra);
        if (rc == ENG_NOMEM)
            return rc;
        if (rc == 0)
            pol_out_promise(out, v->queue[i], shadow);
    } else {
        if (eng_grow(&s->started, &s->cap_started, i ? i : 1, sizeof *s->started))
            return ENG_NOMEM;
        for (size_t k = 0; k < i; k++)
            s->started[k] = v->queue[k];
        if (pol_shadow(v, s->started, i, free_units, v->queue[i]->units, &shadow, &extra) == 0)
            pol_out_promise(out, v->queue[i], shadow);
    }
    for (size_t k = i + 1; k < v->n_queue && free_units > 0; k++) {
        const pol_job *j = v->queue[k];
        if (j->units > free_units || !fits_islands(s, v, j))
            continue;
        bool ends_by_shadow = v->now_s + j->estimate_s <= shadow;
        if (!ends_by_shadow && j->units > extra)
            continue;
        if ((rc = start_job(s, v, out, j)))
            return rc;
        free_units -= j->units;
        if (!ends_by_shadow)
            extra -= j->units;
    }
    return ENG_OK;
}

const pol_type pol_knapsack = {
    .name = "knapsack",
    .summary = "EASY backfilling; each started job gets the hosts of highest availability "
               "within a budget",
    .citation = "Toporkov, Yemelyanov & Grigorenko 2021; Toporkov, Yemelyanov & Tselishchev "
                "2023; Lifka 1995",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_HEAD_GREEDY | POL_FLAG_ISLANDS | POL_FLAG_REPLANS |
             POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
    .state_size = sizeof(knap_state),
    .options = knap_options,
    .init = knap_init,
    .fini = knap_fini,
    .schedule = knap_schedule,
};
