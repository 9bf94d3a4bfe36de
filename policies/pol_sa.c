/* pol_sa.c — `sa`: the waiting queue planned by simulated annealing
 * (Skrinarova & Povinsky 2019's energies and annealing, gpu/gpu_sa.h) over
 * the placement of conservative backfilling (Mu'alem & Feitelson 2001).
 *
 * At each scheduling point where some job of the window could start now:
 *   1. the window — the oldest `window` waiting jobs, in queue order — and
 *      the running jobs (their units busy until their expected ends) form a
 *      queue problem (GPU_SA_QUEUE) in whole seconds from now: durations
 *      ceil(estimate), releases ceil(expected end - now) (never earlier
 *      than the truth), each job's time already waited added to F. The
 *      capacity is the units up now (free or held by running jobs): with
 *      host failures, units of hosts that are down are left out, and so
 *      are jobs wider than what is up (they are planned again once hosts
 *      come back);
 *   2. a candidate is an order of the window; it is decoded by placing the
 *      jobs in that order, each at the earliest time its units are free for
 *      its whole estimate, earlier placements kept (conservative
 *      backfilling's placement);
 *   3. annealing searches the orders to minimise E1 = n Cmax + F (or
 *      E2 = a1 n Cmax + a2 F; a queue has no transfer costs); chain 0
 *      starts from the queue order, so the plan is never worse than
 *      conservative placement in queue order by that energy;
 *   4. the jobs the best plan starts at time 0 start now, in queue order;
 *      the policy asks to be woken at the plan's next start.
 * The plan is recomputed from scratch at every such point: nothing is
 * promised (a new arrival may take a planned slot), so the checker holds
 * the policy to the engine's rules only. Progress: when nothing runs, the
 * first job of any order starts at once.
 *
 * Evaluations run on the kernel pool (gpu/gpu_pool.h): on the GPU when the
 * backend resolves to cuda (backend=auto: a device is present and chains
 * >= 128, since one GPU thread runs one chain more slowly than a CPU core),
 * else on the CPU reference; both give the same plan for the same seed,
 * so the decisions do not depend on the backend.
 * The seed of each call is a mix of setup->seed and the call's number.
 *
 * Hosts: the engine picks (lowest names), or with hosts=fastest the policy
 * names the fastest free hosts (ties by name order).
 *
 * Islands (eng_policy.h): the queue problem of gpu/gpu_sa.h has one
 * capacity, a count of units over time, and its decoders (the CPU
 * reference and the CUDA kernel, shared with the annealing study) place
 * every job into that count; the model of Skrinarova & Povinsky 2019 has
 * no per-island capacity. The annealing therefore plans on counts as
 * without islands, and only step 4 changes: the jobs the plan starts at
 * time 0 are taken in queue order, and each starts now only where
 * pol_island_pick() places it given the starts before it in this call
 * (followed with pol_island_take(); with hosts=fastest, the fastest free
 * hosts of the island it picks, any island for a job larger than every
 * island); one that no island can host now is left for a later call, and
 * the next plan, computed afresh, has it again. So under islands a job may
 * start later than the annealed plan says, and the plan's energy is that of
 * a schedule the islands may not allow; sa promises nothing, so no promise
 * becomes unhostable. A call starts the annealing only if some window job
 * could be placed now. Progress holds as before: when nothing runs every
 * island is free, and the first job of any order fits in one (or, larger
 * than every island, in all of them), unless hosts are down.
 *
 * Cost per call: chains x (iterations + 17) decodings of O(W x P) each, W
 * the window and P the profile's breakpoints (at most running + 2W + 1);
 * calls where no window job fits in the free units cost O(Q + running).
 */
#include "eng_policy.h"

#include "eng_error.h"
#include "eng_util.h"
#include "gpu_pool.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chains from which backend=auto uses a device when there is one. Measured
 * on an H200 against one core of its host (Xeon), 500 Lublin-Feitelson jobs
 * on sdsc-sp2.xml at load 0.9, default window and iterations: time in the
 * policy with 64 chains 1.26 s CPU, 2.47 s CUDA; 256 chains 4.32 s, 2.41 s;
 * 1024 chains 22.2 s, 2.82 s. The CPU grows with the chains, the device
 * stays near its launch cost: they cross near 128. */
#define SA_GPU_MIN_CHAINS 128

typedef struct sa_state {
    int32_t window;
    int64_t iterations;
    int32_t chains;
    bool stop_e1;
    gpu_sa_energy energy;
    gpu_sa_acceptance acceptance;
    int32_t a1, a2;
    bool fastest;
    pol_alloc alloc;
    uint64_t seed, calls;
    gpu_pool *pool;
    /* problem buffers (window and running sizes) */
    const pol_job **win;
    int32_t *units;
    int64_t *dur, *waited;
    size_t cap_win;
    int32_t *busy_u;
    int64_t *busy_e;
    size_t cap_busy;
    int32_t *by_speed; /* host positions, fastest first */
    int32_t *host_free, *picked;
    size_t n_hosts;
    const pol_job **starts;
    int64_t refinements; /* annealing runs (the engine times them) */
    int32_t *isl_free;   /* islands: free units per island as this call's starts leave them */
} sa_state;

static const pol_option sa_options[] = {
    {.key = "window",
     .type = POL_OPT_INT,
     .min = 1,
     .max = 1024,
     .def_int = 32,
     .help = "oldest waiting jobs planned at each point"},
    {.key = "iterations",
     .type = POL_OPT_INT,
     .min = 0,
     .max = 10000000,
     .def_int = 64,
     .help = "annealing iterations per chain"},
    {.key = "chains",
     .type = POL_OPT_INT,
     .min = 1,
     .max = 65536,
     .def_int = 1,
     .help = "independent chains, best of"},
    {.key = "energy",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("e1", "e2"),
     .help = "E1 = n Cmax + F, or E2 = a1 n Cmax + a2 F"},
    {.key = "a1",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = 1000,
     .def_real = 0.35,
     .help = "E2 weight of n Cmax"},
    {.key = "a2",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = 1000,
     .def_real = 0.35,
     .help = "E2 weight of the flowtime F"},
    {.key = "stop",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("iterations", "e1"),
     .help = "run all iterations, or stop a chain when E1 has not improved for 50 iterations"},
    {.key = "backend",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("auto", "cpu", "cuda"),
     .help =
         "where plans are evaluated (auto: the GPU when there is one and chains >= 128; BATCHLAB_SA_BACKEND overrides); the decisions are the same"},
    {.key = "hosts",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("engine", "fastest"),
     .help = "lowest-named free hosts, or the fastest"},
    {.key = "acceptance",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("metropolis", "paper"),
     .help = "keep the best plan apart, or make every accepted plan the best (the paper's step 6)"},
    {.key = "parallel",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("chains", "machines"),
     .help =
         "a device runs independent chains (the only choice that runs here: machines, the paper's machine-by-machine decoding, needs machines with their own job lists, and a queue on one pool has none)"},
    {0},
};

static void sa_fini(void *state);

static int sa_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    sa_state *s = state;
    int rc, idx;
    s->window = (int32_t)pol_opt_int(setup, "window");
    s->iterations = pol_opt_int(setup, "iterations");
    s->chains = (int32_t)pol_opt_int(setup, "chains");
    s->energy = pol_opt_choice(setup, "energy") ? GPU_SA_E2 : GPU_SA_E1;
    s->a1 = (int32_t)lround(pol_opt_real(setup, "a1") * 1000);
    s->a2 = (int32_t)lround(pol_opt_real(setup, "a2") * 1000);
    s->stop_e1 = pol_opt_choice(setup, "stop") == 1;
    s->fastest = pol_opt_choice(setup, "hosts") == 1;
    s->acceptance = pol_opt_choice(setup, "acceptance") ? GPU_SA_ACCEPT_PAPER
                                                        : GPU_SA_ACCEPT_METROPOLIS;
    if (pol_opt_choice(setup, "parallel") == 1) {
        snprintf(err, errlen,
                 "option parallel: machines decodes a grid problem machine by machine; this "
                 "policy plans a queue on one pool of units, which has no per-machine job "
                 "lists: use parallel=chains (or batchlab study sa --parallel machines)");
        return ENG_INVAL;
    }
    idx = pol_opt_choice(setup, "backend");
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.backend = idx == 0 ? "auto" : idx == 1 ? "cpu" : "cuda";
    /* A device pays off only with many chains: one GPU thread runs one
     * chain, slower than a CPU core, so auto keeps a few on the CPU (the
     * plan is the same). backend=cuda (which BATCHLAB_SA_BACKEND=cuda sets
     * through the command line) still forces it. */
    if (idx == 0 && s->chains < SA_GPU_MIN_CHAINS)
        cfg.backend = "cpu";
    cfg.slots = 1;
    if ((rc = gpu_pool_create(&cfg, &s->pool, err, errlen)))
        return rc;
    s->alloc = setup->alloc;
    s->seed = setup->seed;
    s->n_hosts = setup->n_hosts;
    if (setup->n_islands > 0 &&
        !(s->isl_free = malloc((size_t)setup->n_islands * sizeof *s->isl_free))) {
        sa_fini(s);
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    if (s->fastest) {
        size_t n = setup->n_hosts ? setup->n_hosts : 1;
        s->by_speed = malloc(n * sizeof *s->by_speed);
        s->host_free = malloc(n * sizeof *s->host_free);
        s->picked = malloc(n * sizeof *s->picked);
        if (!s->by_speed || !s->host_free || !s->picked) {
            sa_fini(s); /* the engine calls fini only after a successful init */
            snprintf(err, errlen, "out of memory");
            return ENG_NOMEM;
        }
        /* fastest first, ties in name order (insertion sort: stable) */
        for (size_t i = 0; i < setup->n_hosts; i++) {
            size_t k = i;
            while (k > 0 &&
                   setup->hosts[s->by_speed[k - 1]].speed_flops < setup->hosts[i].speed_flops) {
                s->by_speed[k] = s->by_speed[k - 1];
                k--;
            }
            s->by_speed[k] = (int32_t)i;
        }
    }
    return ENG_OK;
}

static void sa_fini(void *state)
{
    sa_state *s = state;
    gpu_pool_destroy(s->pool);
    free(s->win);
    free(s->units);
    free(s->dur);
    free(s->waited);
    free(s->busy_u);
    free(s->busy_e);
    free(s->by_speed);
    free(s->host_free);
    free(s->picked);
    free(s->starts);
    free(s->isl_free);
}

/* SplitMix64's finaliser (Steele, Lea & Flood 2014): one seed per call. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static int64_t ticks_up(double s)
{
    double c = ceil(s);
    return c < 1 ? 1 : (int64_t)c;
}

/* Grows the arrays of a window of n jobs and of r running ones. */
static int grow(sa_state *s, size_t n, size_t r)
{
    if (n > s->cap_win) {
        size_t cap = n > 2 * s->cap_win ? n : 2 * s->cap_win;
        const pol_job **win = realloc(s->win, cap * sizeof *win);
        if (win)
            s->win = win;
        int32_t *units = realloc(s->units, cap * sizeof *units);
        if (units)
            s->units = units;
        int64_t *dur = realloc(s->dur, cap * sizeof *dur);
        if (dur)
            s->dur = dur;
        int64_t *waited = realloc(s->waited, cap * sizeof *waited);
        if (waited)
            s->waited = waited;
        const pol_job **starts = realloc(s->starts, cap * sizeof *starts);
        if (starts)
            s->starts = starts;
        if (!win || !units || !dur || !waited || !starts)
            return ENG_NOMEM;
        s->cap_win = cap;
    }
    if (r > s->cap_busy) {
        size_t cap = r > 2 * s->cap_busy ? r : 2 * s->cap_busy;
        int32_t *bu = realloc(s->busy_u, cap * sizeof *bu);
        if (bu)
            s->busy_u = bu;
        int64_t *be = realloc(s->busy_e, cap * sizeof *be);
        if (be)
            s->busy_e = be;
        if (!bu || !be)
            return ENG_NOMEM;
        s->cap_busy = cap;
    }
    return ENG_OK;
}

static int by_idx(const void *a, const void *b)
{
    const pol_job *x = *(const pol_job *const *)a, *y = *(const pol_job *const *)b;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Starts job on the fastest hosts still free in this call (of island isl
 * only when isl >= 0; with islands, s->isl_free follows the take). */
static void start_fastest(sa_state *s, const pol_view *v, const pol_job *j, int32_t isl,
                          pol_out *out)
{
    size_t n = 0;
    int32_t need = j->units;
    for (size_t k = 0; k < v->n_hosts && need > 0; k++) {
        int32_t h = s->by_speed[k], take = 0;
        if (isl >= 0 && v->hosts[h].island != isl)
            continue;
        if (s->alloc == POL_ALLOC_NODE) {
            if (s->host_free[h] == v->hosts[h].cores) {
                s->host_free[h] = 0;
                s->picked[n++] = h;
                take = 1;
            }
        } else if (s->host_free[h] > 0) {
            take = s->host_free[h] < need ? s->host_free[h] : need;
            s->host_free[h] -= take;
            s->picked[n++] = h;
        }
        need -= take;
        if (v->n_islands > 0)
            s->isl_free[v->hosts[h].island] -= take;
    }
    if (need > 0) /* cannot happen: the plan fits in the free units */
        pol_out_start(out, j);
    else
        pol_out_start_on(out, j, s->picked, n);
}

static int sa_schedule(void *state, const pol_view *v, pol_out *out)
{
    sa_state *s = state;
    /* The units up now: free plus held by running jobs. Units on hosts that
     * are down (host failures) are neither, and are left out of the plan
     * until the engine reports them back. */
    int64_t held = 0;
    for (size_t r = 0; r < v->n_running; r++)
        held += v->running[r]->units;
    const int64_t up = v->free_units + held;
    if (v->free_units < 1 || up < 1)
        return ENG_OK;
    /* The window: the oldest waiting jobs that fit in the units up now. */
    if (grow(s, (size_t)s->window, v->n_running))
        return ENG_NOMEM;
    size_t n = 0;
    bool fits_now = false;
    for (size_t k = 0; k < v->n_queue && n < (size_t)s->window; k++) {
        const pol_job *j = v->queue[k];
        if (j->units > up)
            continue;
        fits_now = fits_now ||
                   (v->n_islands > 0 ? pol_island_pick(v->n_islands, v->island_units,
                                                       v->island_free, j->units) != POL_ISLAND_NONE
                                     : j->units <= v->free_units);
        s->win[n] = j;
        s->units[n] = j->units;
        s->dur[n] = ticks_up(j->estimate_s);
        double w = floor(v->now_s - j->submit_s);
        s->waited[n] = w > 0 ? (int64_t)w : 0;
        n++;
    }
    if (!fits_now)
        return ENG_OK; /* nothing can start now, whatever the plan */
    for (size_t r = 0; r < v->n_running; r++) {
        s->busy_u[r] = v->running[r]->units;
        s->busy_e[r] = ticks_up(v->running[r]->expected_end_s - v->now_s);
    }
    gpu_sa_queue q = {
        .n_jobs = (int32_t)n,
        .total_units = (int32_t)up,
        .units = s->units,
        .duration = s->dur,
        .waited = s->waited,
        .n_busy = (int32_t)v->n_running,
        .busy_units = s->busy_u,
        .busy_end = s->busy_e,
    };
    gpu_sa_problem prob = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par;
    gpu_sa_params_default(&par);
    par.seed = mix64(s->seed ^ mix64(++s->calls));
    par.chains = s->chains;
    par.iterations = n > 1 ? s->iterations : 0;
    par.stop_e1 = s->stop_e1;
    par.energy = s->energy;
    par.a1 = s->a1;
    par.a2 = s->a2;
    par.keep_given_first = true;
    par.acceptance = s->acceptance;
    char msg[512];
    int64_t ticket;
    gpu_sa_result res;
    int rc = gpu_pool_submit(s->pool, &prob, &par, &ticket, msg, sizeof msg);
    if (!rc)
        rc = gpu_pool_wait(s->pool, ticket, &res, msg, sizeof msg);
    if (rc && rc != ENG_INVAL && gpu_pool_failure(s->pool)[0]) {
        /* the device failed: the pool now runs on the CPU reference, which
         * gives the same plan */
        rc = gpu_pool_submit(s->pool, &prob, &par, &ticket, msg, sizeof msg);
        if (!rc)
            rc = gpu_pool_wait(s->pool, ticket, &res, msg, sizeof msg);
    }
    if (rc)
        return rc == ENG_NOMEM ? ENG_NOMEM : ENG_POLICY;
    s->refinements++;

    size_t n_start = 0;
    int64_t next = INT64_MAX;
    for (size_t k = 0; k < n; k++) {
        if (res.start[k] == 0)
            s->starts[n_start++] = s->win[k];
        else if (res.start[k] < next)
            next = res.start[k];
    }
    gpu_sa_result_fini(&res);
    qsort(s->starts, n_start, sizeof *s->starts, by_idx);
    if (s->fastest)
        for (size_t h = 0; h < v->n_hosts; h++)
            s->host_free[h] = v->hosts[h].free_cores;
    if (v->n_islands > 0)
        memcpy(s->isl_free, v->island_free, (size_t)v->n_islands * sizeof *s->isl_free);
    for (size_t k = 0; k < n_start; k++) {
        int32_t isl = -1;
        if (v->n_islands > 0) {
            /* only where an island can host it now; else a later call */
            isl = pol_island_pick(v->n_islands, v->island_units, s->isl_free, s->starts[k]->units);
            if (isl == POL_ISLAND_NONE)
                continue;
            if (!s->fastest)
                pol_island_take(v->n_islands, s->isl_free, isl, s->starts[k]->units);
        }
        if (s->fastest)
            start_fastest(s, v, s->starts[k], isl, out);
        else
            pol_out_start(out, s->starts[k]);
    }
    if (next != INT64_MAX)
        pol_out_wakeup(out, v->now_s + (double)next);
    return ENG_OK;
}

/* For the manifest: where plans were evaluated, how many refinements ran,
 * and a device failure, if one sent the pool to the CPU reference. */
static void sa_report(void *state, char *buf, size_t len)
{
    sa_state *s = state;
    const char *failure = s->pool ? gpu_pool_failure(s->pool) : "";
    int w = snprintf(buf, len, "backend=%s refinements=%lld",
                     s->pool ? gpu_pool_backend(s->pool) : "none", (long long)s->refinements);
    if (failure[0] && w >= 0 && (size_t)w < len)
        snprintf(buf + w, len - (size_t)w, " device_failure=\"%s\"", failure);
}

const pol_type pol_sa = {
    .name = "sa",
    .summary = "the queue window ordered by simulated annealing over conservative placement",
    .citation = "Skrinarova & Povinsky 2019; Mu'alem & Feitelson 2001",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
    .state_size = sizeof(sa_state),
    .options = sa_options,
    .init = sa_init,
    .fini = sa_fini,
    .on_submit = NULL,
    .on_finish = NULL,
    .schedule = sa_schedule,
    .report = sa_report,
};
