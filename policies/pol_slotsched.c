/* pol_slotsched.c — the batch slot-scheduling policies `alp` and `amp`:
 * cyclic batch scheduling with multi-variant window search and a
 * backward-run dynamic program (Toporkov, Yemelyanov, Toporkova &
 * Bobchenkov 2011), in the simulator.
 *
 * A scheduling cycle (with period=0, the default, at every call that
 * brings something the plan did not foresee: see "Calls" below; else every
 * `period` seconds, or at once when `batch` jobs wait outside the plan):
 *   1. The batch: the first `batch` (default 32) waiting jobs in queue
 *      order (their priority order).
 *   2. The slot list from the current plan: one resource line per host
 *      (node allocation) or per core (core allocation), busy until the
 *      expected end of the running jobs on it (view->running, hosts from
 *      view->alloc_pos), then free up to the horizon
 *          max over lines of that time + horizon * the batch's longest estimate
 *      (horizon >= 1, default 2), so that every batch job fits once all
 *      running jobs are over.
 *   3. Alternatives of every batch job by ALP or AMP, multi-variant (at
 *      most `alternatives` per job, default 2), on lines of the host's speed and
 *      price (price_per_s; a core costs its share). A request asks for
 *      job->units lines for the job's estimate t; every line is held for t
 *      (the engine guarantees only that a job ends by start + estimate and
 *      holds all its hosts until then: the window is rectangular in the
 *      plan), and a line of speed s runs the job min(t, t * ref / s) (the
 *      rough right edge, used by the criteria).
 *   4. One alternative per job by the dynamic program (1): criterion=time
 *      (default): min sum of expected completion times (window start - now
 *      + the slowest line's run time) under the budget B* (3); criterion=
 *      cost: min sum of expected costs (the window's price per second x the
 *      slowest run, as the engine charges) under T* (2). T* floors each
 *      job's mean (POL_DP_TLIMIT_MEANS), so that a cycle always has a
 *      solution; should the grid still refuse every choice, each job takes
 *      its first (earliest) alternative. Times in cells of 1 s, raised so
 *      that a limit has at most dp_cells (default 500) cells. Jobs without
 *      an alternative wait for a later cycle.
 *   5. Windows that begin now start, on the hosts the window names; the
 *      others are reservations until the next cycle (started when due if
 *      no cycle intervenes), with a wake-up at the earliest.
 *
 * Price limits: ALP's per-line price limit C and AMP's budget S = C t N
 * come from price_limit (per line-second: per host-second under node
 * allocation, per core-second under core allocation; default: the mean
 * over the pool's lines; 0 when the platform has no prices). A job that
 * could never run under C (fewer than its units lines priced <= C for
 * ALP, its cheapest lines above the budget for AMP) is searched with the
 * least C that admits it.
 *
 * Guarantee (checked by the engine): the queue head is promised, when it
 * first heads the queue, the start of its first alternative — its
 * earliest window, found first on the fresh list; in later cycles only its
 * alternatives starting by that promise are offered to the program. The
 * promised window stays free (all alternatives are disjoint, running jobs
 * end by their expected end, only chosen windows start), so the head's
 * earliest window never moves later, and every job, once it heads the
 * queue, starts by its promise. Other jobs get no promise.
 *
 * Host failures: a host that is neither free nor held by a running job is
 * down; its lines stay out of the slot list until it is back. A failure
 * can then leave the head without a window (no promise yet) or move its
 * earliest window later (the engine does not hold promises while failures
 * are on); the head's alternatives are then limited to those starting by
 * its earliest.
 *
 * Core allocation: lines are cores; the engine takes a named host's free
 * cores greedily in the order given, which can express a window only when
 * at most one of its hosts keeps free cores after it. Such windows start
 * on their hosts (ordered so that the greedy take is the window's); others
 * start on hosts the engine picks. The plan stays valid in counts (any
 * free cores serve any job under core allocation), which is all the
 * guarantee needs; only the speeds and prices of such a job's cores may
 * differ from its window's.
 *
 * Calls (period 0). A call at which every batch job needs more units than
 * are free runs no cycle: nothing could start, and a job end will call
 * again. A call that brings neither an arrival nor an early end (a job
 * ending before its expected end) since the last cycle, while every
 * waiting job holds a reservation, starts the reservations due instead:
 * the plan is still valid and foresaw everything. Otherwise a cycle runs.
 * With period > 0, calls between cycles start the reservations due.
 *
 * Islands (eng_policy.h; whole-node allocation): each island's lines form
 * a slot list of their own. A job that fits in one island (units <= the
 * largest island's hosts) searches its window with ALP or AMP in every
 * island that has enough lines and keeps the earliest — both algorithms
 * answer the earliest window their rule admits, so this is that rule's
 * answer among the windows one island can host; ties go to the cheaper
 * window (the cost c_i the criteria use), then to the island with the
 * fewest lines free at the window's start (the engine's best fit), then to
 * the lower island. A job larger than every island searches the islands'
 * slots merged into one list in (start, line) order, and may span them as
 * the engine does. Either window is cut out of the islands' lists, so
 * alternatives stay disjoint and the multi-variant passes run as without
 * islands. Every window of a job that fits in one island lies in one, the
 * head's promised window included, so the guarantee above holds as it is
 * (the promised window stays free in its island) and every start names
 * hosts of one island. Under --alloc core the engine takes every free core
 * of each named host but the last (see "Core allocation"), so for a job
 * that spans islands no naming need give each island the window's number
 * of cores, and the plan would no longer hold per island: alp and amp then
 * refuse islands (run them with --islands ignore). Without islands nothing
 * changes (one list, pol_slot_batch_search). Extra cost with islands: one
 * search per island and job, O(m) per tie to count free lines, and
 * O(m log m) to merge the lists for a job larger than every island.
 *
 * Cost per cycle: O(L log L) to build the list (L lines), O(passes * batch
 * * m * W) for the search (pol_alp_amp.h), O(dp_cells * alternatives) for
 * the program; between cycles O(plan).
 */
#include "eng_policy.h"
#include "slots/pol_alp_amp.h"
#include "slots/pol_batch_dp.h"

#include "eng_error.h"
#include "eng_util.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    int32_t pos;  /* host position in the pool */
    double speed; /* flop/s */
    double price; /* per second (a core's share under core allocation) */
} line;

/* A line's free time, for building the list in start order. */
typedef struct line_avail {
    double at;
    int32_t line;
} line_avail;

static int cmp_avail(const void *a, const void *b)
{
    const line_avail *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Sorts a[0..n) by (at, line), a total order (lines differ, no time is
 * NaN), so any sort gives the same array. The array comes in the order of
 * the last cycle with the times of this one: between two cycles few
 * lines change their time, so insertion sort takes O(n + moves); past 8n
 * moves (a shuffled order) it leaves the rest to qsort. */
static void sort_avail(line_avail *a, size_t n)
{
    size_t moves = 0;
    for (size_t i = 1; i < n; i++) {
        line_avail x = a[i];
        size_t j = i;
        while (j > 0 && cmp_avail(&a[j - 1], &x) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
        moves += i - j;
        if (moves > 8 * n) {
            qsort(a, n, sizeof *a, cmp_avail);
            return;
        }
    }
}

/* A reservation: job starts at start_s on lines[off .. off + n). */
typedef struct plan_entry {
    int32_t job;
    double start_s;
    size_t off, n;
} plan_entry;

typedef struct ss_state {
    pol_slot_algo algo;
    /* options */
    double period_s;
    size_t batch_max;
    double horizon;
    double price_limit;
    size_t max_alt;
    bool cost_criterion;
    int64_t dp_cells;
    /* the pool */
    pol_alloc alloc;
    line *lines;
    size_t n_lines;
    int32_t *first_line; /* per host: its first line (core allocation) */
    size_t n_hosts;
    double ref_speed;
    double *cheap_prefix; /* sums of the k cheapest line prices, k = 0..n_lines */
    double *sorted_price;
    /* per job */
    double *promise_s; /* NAN: none */
    size_t n_jobs;
    /* the plan between cycles */
    plan_entry *plan;
    size_t n_plan, cap_plan;
    int32_t *plan_lines;
    size_t n_plan_lines, cap_plan_lines;
    double next_cycle_s;
    bool dirty; /* an arrival or an early end since the last cycle */
    /* scratch */
    pol_slot_list list;
    pol_slot_search search;
    pol_alt_set alts;
    pol_dp dp;
    double *avail;        /* per line */
    line_avail *by_avail; /* lines sorted by (avail, line) */
    int32_t *next_line;   /* per host */
    int32_t *free_cores;  /* per host, as starts in this call leave them */
    int32_t *take;        /* per host: cores a window takes */
    int32_t *order;       /* hosts named for a start */
    int32_t *lnbuf;       /* a window's lines */
    int32_t *jobs;        /* program job -> batch job */
    pol_slot_req *reqs;
    const pol_job **batch;
    size_t cap_batch;
    size_t *off;
    double *crit_time, *crit_cost;
    int32_t *alt_of; /* CSR position -> alternative index */
    int32_t *choice;
    size_t cap_alt;
    /* islands (n_isl > 0; see "Islands" in the header) */
    int32_t n_isl;
    int32_t largest_isl;     /* lines of the largest island */
    int32_t *isl_lines;      /* per island: its lines */
    int32_t *line_isl;       /* per line: its island */
    pol_slot_list *isl_list; /* per island: the free slots of its lines */
    pol_slot_list span_list; /* every island's slots, for a job larger than every island */
    pol_slot *all;           /* scratch: those slots in (start, line) order */
    size_t cap_all;
    pol_piece *best; /* the earliest window over the islands so far */
    size_t cap_best;
    int32_t *mark; /* per line: 1 + its piece in a spanning window, or 0 */
} ss_state;

static const pol_option ss_options[] = {
    {.key = "period",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = 1e9,
     .unit = "seconds",
     .help =
         "seconds between scheduling cycles; 0 = a cycle at every call that brings an arrival or an early end"},
    {.key = "batch",
     .type = POL_OPT_INT,
     .min = 1,
     .max = 100000,
     .def_int = 32,
     .help =
         "most waiting jobs per cycle, in queue order; with period > 0 a cycle also starts when this many wait outside the plan"},
    {.key = "horizon",
     .type = POL_OPT_REAL,
     .lo = 1,
     .hi = 1000,
     .def_real = 2,
     .help =
         "slot list horizon: this many times the batch's longest estimate after the last running job's expected end"},
    {.key = "price_limit",
     .type = POL_OPT_REAL,
     .lo = 0,
     .hi = 1e300,
     .absent = "the pool's mean price",
     .help =
         "ALP's price limit C per host-second (core-second under core allocation), AMP's budget C x estimate x units"},
    {.key = "alternatives",
     .type = POL_OPT_INT,
     .min = 0,
     .max = 1000000,
     .def_int = 2,
     .help = "most alternatives searched per job and cycle, 0 = no limit"},
    {.key = "criterion",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("time", "cost"),
     .help = "min total completion time under B* (time), or min total cost under T* (cost)"},
    {.key = "dp_cells",
     .type = POL_OPT_INT,
     .min = 16,
     .max = 10000000,
     .def_int = 500,
     .help = "largest grid of the dynamic program's limit"},
    {0},
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void ss_fini(void *state);
static int isl_init(ss_state *s, const pol_setup *setup, char *err, size_t errlen);

static int ss_init_common(ss_state *s, const pol_setup *setup, pol_slot_algo algo, char *err,
                          size_t errlen)
{
    s->algo = algo;
    s->period_s = pol_opt_real(setup, "period");
    s->batch_max = (size_t)pol_opt_int(setup, "batch");
    s->horizon = pol_opt_real(setup, "horizon");
    double price = pol_opt_given(setup, "price_limit") ? pol_opt_real(setup, "price_limit") : NAN;
    s->max_alt = (size_t)pol_opt_int(setup, "alternatives");
    s->dp_cells = pol_opt_int(setup, "dp_cells");
    s->cost_criterion = pol_opt_choice(setup, "criterion") == 1;

    s->alloc = setup->alloc;
    s->n_hosts = setup->n_hosts;
    s->ref_speed = setup->ref_speed_flops > 0 ? setup->ref_speed_flops : 1;
    size_t n_lines = 0;
    for (size_t h = 0; h < setup->n_hosts; h++)
        n_lines += setup->alloc == POL_ALLOC_CORE ? (size_t)setup->hosts[h].cores : 1;
    s->n_lines = n_lines;
    size_t nl = n_lines ? n_lines : 1, nh = s->n_hosts ? s->n_hosts : 1;
    s->lines = malloc(nl * sizeof *s->lines);
    s->first_line = malloc(nh * sizeof *s->first_line);
    s->cheap_prefix = malloc((nl + 1) * sizeof *s->cheap_prefix);
    s->sorted_price = malloc(nl * sizeof *s->sorted_price);
    s->avail = malloc(nl * sizeof *s->avail);
    s->by_avail = malloc(nl * sizeof *s->by_avail);
    s->next_line = malloc(nh * sizeof *s->next_line);
    s->free_cores = malloc(nh * sizeof *s->free_cores);
    s->take = calloc(nh, sizeof *s->take);
    s->order = malloc(nh * sizeof *s->order);
    s->lnbuf = malloc(nl * sizeof *s->lnbuf);
    s->n_jobs = setup->n_jobs;
    s->promise_s = malloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->promise_s);
    if (!s->lines || !s->first_line || !s->cheap_prefix || !s->sorted_price || !s->avail ||
        !s->by_avail || !s->next_line || !s->free_cores || !s->take || !s->order || !s->lnbuf ||
        !s->promise_s)
        goto oom;
    for (size_t j = 0; j < s->n_jobs; j++)
        s->promise_s[j] = NAN;
    for (size_t l = 0; l < n_lines; l++) /* any order: run_cycle sorts it */
        s->by_avail[l] = (line_avail){.at = 0, .line = (int32_t)l};
    size_t k = 0;
    double mean = 0;
    for (size_t h = 0; h < setup->n_hosts; h++) {
        const pol_host *ho = &setup->hosts[h];
        size_t c = setup->alloc == POL_ALLOC_CORE ? (size_t)ho->cores : 1;
        s->first_line[h] = (int32_t)k;
        for (size_t i = 0; i < c; i++, k++) {
            s->lines[k] = (line){
                .pos = (int32_t)h, .speed = ho->speed_flops, .price = ho->price_per_s / (double)c};
            s->sorted_price[k] = s->lines[k].price;
        }
        mean += ho->price_per_s;
    }
    /* price_limit is per line-second: a host under node allocation, a core
     * under core allocation; the default is the mean over the lines */
    s->price_limit = isnan(price) ? (n_lines ? mean / (double)n_lines : 0) : price;
    qsort(s->sorted_price, n_lines, sizeof *s->sorted_price, cmp_double);
    s->cheap_prefix[0] = 0;
    for (size_t i = 0; i < n_lines; i++)
        s->cheap_prefix[i + 1] = s->cheap_prefix[i] + s->sorted_price[i];
    if (pol_slots_init(&s->list, setup->seed ? setup->seed : 1))
        goto oom;
    pol_slot_search_init(&s->search);
    pol_alt_set_init(&s->alts);
    pol_dp_init(&s->dp);
    s->next_cycle_s = -INFINITY;
    s->dirty = true;
    return isl_init(s, setup, err, errlen);
oom:
    ss_fini(s);
    snprintf(err, errlen, "out of memory");
    return ENG_NOMEM;
}

static int alp_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    return ss_init_common(state, setup, POL_SLOT_ALP, err, errlen);
}

static int amp_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    return ss_init_common(state, setup, POL_SLOT_AMP, err, errlen);
}

static void ss_fini(void *state)
{
    ss_state *s = state;
    free(s->lines);
    free(s->first_line);
    free(s->cheap_prefix);
    free(s->sorted_price);
    free(s->avail);
    free(s->by_avail);
    free(s->next_line);
    free(s->free_cores);
    free(s->take);
    free(s->order);
    free(s->lnbuf);
    free(s->jobs);
    free(s->promise_s);
    free(s->plan);
    free(s->plan_lines);
    pol_slots_fini(&s->list);
    pol_slot_search_fini(&s->search);
    pol_alt_set_fini(&s->alts);
    pol_dp_fini(&s->dp);
    free(s->reqs);
    free(s->batch);
    free(s->off);
    free(s->crit_time);
    free(s->crit_cost);
    free(s->alt_of);
    free(s->choice);
    for (int32_t k = 0; s->isl_list && k < s->n_isl; k++)
        pol_slots_fini(&s->isl_list[k]);
    free(s->isl_list);
    pol_slots_fini(&s->span_list);
    free(s->isl_lines);
    free(s->line_isl);
    free(s->all);
    free(s->best);
    free(s->mark);
}

/* The price limit C the job is searched with: the option's, raised to the
 * least that lets it run at all. */
static double job_limit(const ss_state *s, int32_t units)
{
    size_t n = (size_t)units <= s->n_lines ? (size_t)units : s->n_lines;
    double need = 0;
    if (n > 0)
        need = s->algo == POL_SLOT_ALP ? s->sorted_price[n - 1] : s->cheap_prefix[n] / (double)n;
    return fmax(s->price_limit, need);
}

/* ---- starting windows ------------------------------------------------- */

/* Starts job on the given lines now. Node allocation: the lines are its
 * hosts. Core allocation: named hosts when the engine's greedy take
 * reproduces the window, else hosts the engine picks (see the header);
 * s->free_cores follows what the engine will do. */
static void start_on_lines(ss_state *s, const pol_view *v, pol_out *out, const pol_job *j,
                           const int32_t *ln, size_t n)
{
    if (s->alloc == POL_ALLOC_NODE) {
        for (size_t k = 0; k < n; k++)
            s->order[k] = s->lines[ln[k]].pos;
        pol_out_start_on(out, j, s->order, n);
        for (size_t k = 0; k < n; k++)
            s->free_cores[s->order[k]] = 0;
        return;
    }
    size_t nh = 0;
    for (size_t k = 0; k < n; k++) {
        int32_t pos = s->lines[ln[k]].pos;
        if (s->take[pos]++ == 0)
            s->order[nh++] = pos;
    }
    /* hosts the window empties first, then at most one it leaves cores on */
    size_t partial = 0, at = 0;
    int32_t last = -1;
    bool ok = true;
    for (size_t k = 0; k < nh; k++) {
        int32_t pos = s->order[k];
        if (s->take[pos] > s->free_cores[pos])
            ok = false;
        else if (s->take[pos] < s->free_cores[pos]) {
            partial++;
            last = pos;
        } else
            s->order[at++] = pos;
    }
    if (partial > 1)
        ok = false;
    if (ok && last >= 0)
        s->order[at++] = last;
    if (ok) {
        pol_out_start_on(out, j, s->order, nh);
        for (size_t k = 0; k < nh; k++)
            s->free_cores[s->order[k]] -= s->take[s->order[k]];
    } else {
        pol_out_start(out, j);
        int32_t need = j->units;
        for (size_t pos = 0; pos < v->n_hosts && need > 0; pos++) {
            int32_t t = s->free_cores[pos] < need ? s->free_cores[pos] : need;
            s->free_cores[pos] -= t;
            need -= t;
        }
    }
    for (size_t k = 0; k < n; k++)
        s->take[s->lines[ln[k]].pos] = 0;
}

/* Could the lines start now (hosts free; core allocation: enough cores)? */
static bool can_start(const ss_state *s, const pol_view *v, const pol_job *j, const int32_t *ln,
                      size_t n)
{
    if (s->alloc == POL_ALLOC_NODE) {
        for (size_t k = 0; k < n; k++) {
            int32_t pos = s->lines[ln[k]].pos;
            if (s->free_cores[pos] != v->hosts[pos].cores)
                return false;
        }
        return true;
    }
    int64_t free = 0;
    for (size_t pos = 0; pos < v->n_hosts; pos++)
        free += s->free_cores[pos];
    return free >= j->units;
}

/* ---- the cycle -------------------------------------------------------- */

/* Line availability from the running jobs' expected ends. */
static void build_avail(ss_state *s, const pol_view *v)
{
    /* a line is free now, held by a running job until its expected end,
     * or else down (a failed host: neither free nor held) until further
     * notice */
    for (size_t k = 0; k < s->n_lines; k++)
        s->avail[k] = INFINITY;
    for (size_t h = 0; h < v->n_hosts; h++) {
        const pol_host *ho = &v->hosts[h];
        if (s->alloc == POL_ALLOC_NODE) {
            if (ho->free_cores == ho->cores)
                s->avail[h] = v->now_s;
            continue;
        }
        for (int32_t c = 0; c < ho->free_cores && c < ho->cores; c++)
            s->avail[s->first_line[h] + c] = v->now_s;
        s->next_line[h] = ho->free_cores;
    }
    /* running jobs come by expected end: a host's lines get them in order */
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        for (int32_t a = 0; a < j->n_alloc; a++) {
            int32_t pos = v->alloc_pos[j->alloc_off + (size_t)a];
            if (s->alloc == POL_ALLOC_NODE) {
                s->avail[pos] = j->expected_end_s;
                continue;
            }
            int32_t cores = v->alloc_cores[j->alloc_off + (size_t)a];
            for (int32_t c = 0; c < cores; c++) {
                int32_t k = s->first_line[pos] + s->next_line[pos]++;
                if (k < s->first_line[pos] + v->hosts[pos].cores)
                    s->avail[k] = j->expected_end_s;
            }
        }
    }
}

static int grow_batch(ss_state *s, size_t n)
{
    if (n <= s->cap_batch)
        return ENG_OK;
    pol_slot_req *r = realloc(s->reqs, n * sizeof *r);
    if (!r)
        return ENG_NOMEM;
    s->reqs = r;
    const pol_job **b = realloc(s->batch, n * sizeof *b);
    if (!b)
        return ENG_NOMEM;
    s->batch = b;
    size_t *o = realloc(s->off, (n + 1) * sizeof *o);
    if (!o)
        return ENG_NOMEM;
    s->off = o;
    int32_t *c = realloc(s->choice, n * sizeof *c);
    if (!c)
        return ENG_NOMEM;
    s->choice = c;
    int32_t *jb = realloc(s->jobs, n * sizeof *jb);
    if (!jb)
        return ENG_NOMEM;
    s->jobs = jb;
    s->cap_batch = n;
    return ENG_OK;
}

static int grow_alts(ss_state *s, size_t n)
{
    if (n <= s->cap_alt)
        return ENG_OK;
    size_t cap = s->cap_alt ? s->cap_alt : 64;
    while (cap < n)
        cap *= 2;
    double *t = realloc(s->crit_time, cap * sizeof *t);
    if (!t)
        return ENG_NOMEM;
    s->crit_time = t;
    double *c = realloc(s->crit_cost, cap * sizeof *c);
    if (!c)
        return ENG_NOMEM;
    s->crit_cost = c;
    int32_t *a = realloc(s->alt_of, cap * sizeof *a);
    if (!a)
        return ENG_NOMEM;
    s->alt_of = a;
    s->cap_alt = cap;
    return ENG_OK;
}

static int add_plan(ss_state *s, int32_t job, double start, const int32_t *ln, size_t n)
{
    if (eng_grow(&s->plan, &s->cap_plan, s->n_plan + 1, sizeof *s->plan) ||
        eng_grow(&s->plan_lines, &s->cap_plan_lines, s->n_plan_lines + n, sizeof *s->plan_lines))
        return ENG_NOMEM;
    s->plan[s->n_plan++] = (plan_entry){
        .job = job, .start_s = start, .off = s->n_plan_lines, .n = n};
    memcpy(s->plan_lines + s->n_plan_lines, ln, n * sizeof *ln);
    s->n_plan_lines += n;
    return ENG_OK;
}

static int isl_batch_search(ss_state *s, size_t nb);

static int run_cycle(ss_state *s, const pol_view *v, pol_out *out)
{
    s->n_plan = s->n_plan_lines = 0;
    size_t nb = v->n_queue < s->batch_max ? v->n_queue : s->batch_max;
    if (nb == 0)
        return ENG_OK;
    int rc = grow_batch(s, nb);
    if (rc)
        return rc;
    build_avail(s, v);
    double max_avail = v->now_s, max_t = 0;
    for (size_t k = 0; k < s->n_lines; k++)
        if (isfinite(s->avail[k]) && s->avail[k] > max_avail)
            max_avail = s->avail[k];
    for (size_t i = 0; i < nb; i++) {
        const pol_job *j = v->queue[i];
        double t = j->estimate_s > 0 ? j->estimate_s : 1;
        max_t = fmax(max_t, t);
        s->batch[i] = j;
        s->reqs[i] = (pol_slot_req){.n = j->units,
                                    .t = t,
                                    .perf_ref = s->ref_speed,
                                    .perf_min = 0,
                                    .price_max = job_limit(s, j->units),
                                    .rigid = true};
    }
    double horizon_end = max_avail + s->horizon * max_t;
    /* in start order, ties by line: every insertion is an O(1) append;
     * by_avail holds the lines in the last cycle's order */
    for (size_t i = 0; i < s->n_lines; i++)
        s->by_avail[i].at = s->avail[s->by_avail[i].line];
    sort_avail(s->by_avail, s->n_lines);
    pol_slots_clear(&s->list);
    for (int32_t k = 0; k < s->n_isl; k++)
        pol_slots_clear(&s->isl_list[k]);
    for (size_t i = 0; i < s->n_lines && isfinite(s->by_avail[i].at); i++) {
        size_t k = (size_t)s->by_avail[i].line;
        pol_slot sl = {.start_s = s->avail[k],
                       .end_s = horizon_end,
                       .perf = s->lines[k].speed,
                       .price = s->lines[k].price,
                       .line = (int32_t)k};
        pol_slot_list *into = s->n_isl ? &s->isl_list[s->line_isl[k]] : &s->list;
        if ((rc = pol_slots_insert(into, &sl, NULL)) != 0)
            return rc;
    }
    rc = s->n_isl ? isl_batch_search(s, nb)
                  : pol_slot_batch_search(&s->search, &s->list, s->algo, s->reqs, nb, s->max_alt,
                                          &s->alts);
    if (rc)
        return rc;
    const pol_alt_set *as = &s->alts;
    /* The head's promise: its earliest window, kept for good. Without
     * failures the head always has a window (the horizon lets it fit once
     * every running job is over) and its earliest never moves later (see
     * the header); with failures a down host may leave it none, or a later
     * one (the engine does not hold promises then). */
    const pol_job *head = s->batch[0];
    double head_limit = INFINITY;
    if (as->per_job[0] > 0) {
        double head_first = as->alt[0].start_s; /* found first, on the fresh list */
        if (isnan(s->promise_s[head->idx])) {
            s->promise_s[head->idx] = head_first;
            pol_out_promise(out, head, head_first);
        }
        head_limit = fmax(s->promise_s[head->idx], head_first);
    }

    /* Criteria per alternative, grouped by job (jobs without one are left
     * out of the program and wait for a later cycle). */
    if ((rc = grow_alts(s, as->n_alt + 1)) != 0)
        return rc;
    size_t nj = 0, n = 0;
    int32_t *jobs = s->jobs;
    s->off[0] = 0;
    for (size_t i = 0; i < nb; i++) {
        if (as->per_job[i] == 0)
            continue;
        for (size_t a = 0; a < as->n_alt; a++) {
            const pol_alt *al = &as->alt[a];
            if ((size_t)al->job != i || (i == 0 && al->start_s > head_limit))
                continue;
            double run = 0, price = 0;
            for (size_t k = 0; k < al->n; k++) {
                const pol_piece *p = &as->piece[al->off + k];
                run = fmax(run, p->run);
                price += p->price;
            }
            s->crit_time[n] = al->start_s - v->now_s + run;
            s->crit_cost[n] = price * run;
            s->alt_of[n] = (int32_t)a;
            n++;
        }
        jobs[nj++] = (int32_t)i;
        s->off[nj] = n;
    }
    pol_dp_batch b = {.n_jobs = nj, .off = s->off, .time = s->crit_time, .cost = s->crit_cost};
    pol_dp_grid grid = {.time_quantum = 1, .max_cells = s->dp_cells, .rule = POL_DP_TLIMIT_MEANS};
    pol_dp_result res;
    rc = s->cost_criterion ? pol_dp_min_cost(&s->dp, &b, &grid, s->choice, &res)
                           : pol_dp_min_time(&s->dp, &b, &grid, s->choice, &res);
    if (rc)
        return rc;
    if (!res.feasible)
        for (size_t q = 0; q < nj; q++)
            s->choice[q] = 0; /* each job's first (earliest) alternative */

    /* Start what begins now, keep the rest as reservations. */
    for (size_t pos = 0; pos < v->n_hosts; pos++)
        s->free_cores[pos] = v->hosts[pos].free_cores;
    for (size_t q = 0; q < nj && rc == ENG_OK; q++) {
        const pol_alt *al = &as->alt[s->alt_of[s->off[q] + (size_t)s->choice[q]]];
        int32_t *ln = s->lnbuf;
        for (size_t k = 0; k < al->n; k++)
            ln[k] = as->piece[al->off + k].line;
        const pol_job *j = s->batch[jobs[q]];
        if (al->start_s <= v->now_s) {
            if (!can_start(s, v, j, ln, al->n)) {
                rc = ENG_INVARIANT;
                break;
            }
            start_on_lines(s, v, out, j, ln, al->n);
        } else {
            rc = add_plan(s, j->idx, al->start_s, ln, al->n);
        }
    }
    return rc;
}

/* Starts the reservations that are due; false if one cannot start. */
static bool start_due(ss_state *s, const pol_view *v, pol_out *out)
{
    for (size_t pos = 0; pos < v->n_hosts; pos++)
        s->free_cores[pos] = v->hosts[pos].free_cores;
    size_t keep = 0;
    for (size_t e = 0; e < s->n_plan; e++) {
        plan_entry *p = &s->plan[e];
        const pol_job *j = pol_queue_find(v, p->job);
        if (!j)
            continue; /* cannot happen: only this policy starts its jobs */
        if (p->start_s <= v->now_s) {
            if (!can_start(s, v, j, s->plan_lines + p->off, p->n))
                return false;
            start_on_lines(s, v, out, j, s->plan_lines + p->off, p->n);
            continue;
        }
        s->plan[keep++] = *p;
    }
    s->n_plan = keep;
    return true;
}

static int ss_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    (void)v;
    (void)job;
    ((ss_state *)state)->dirty = true;
    return ENG_OK;
}

static int ss_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    if (v->now_s < job->expected_end_s)
        ((ss_state *)state)->dirty = true;
    return ENG_OK;
}

static int ss_schedule(void *state, const pol_view *v, pol_out *out)
{
    ss_state *s = state;
    if (v->n_queue == 0) {
        s->n_plan = s->n_plan_lines = 0;
        return ENG_OK;
    }
    /* Nothing can start while every batch job needs more units than are
     * free: a cycle would only plan, and the next event (an end) calls
     * again. Skipping it changes no start. */
    size_t nb = v->n_queue < s->batch_max ? v->n_queue : s->batch_max;
    int32_t least = INT32_MAX;
    for (size_t i = 0; i < nb; i++)
        if (v->queue[i]->units < least)
            least = v->queue[i]->units;
    if (v->free_units < least)
        return ENG_OK;
    /* With period 0, a call that brings only a reservation's time or an
     * end at its expected end (no arrival, no early end since the last
     * cycle) while every waiting job holds a reservation would plan the
     * same again: its due reservations start instead. */
    bool cycle = (s->period_s <= 0 && (s->dirty || v->n_queue > s->n_plan)) ||
                 (s->period_s > 0 &&
                  (v->now_s >= s->next_cycle_s || v->n_queue - s->n_plan >= s->batch_max));
    if (!cycle && !start_due(s, v, out)) {
        /* a reservation's hosts are busy: cannot happen (running jobs end
         * by their expected end); re-plan rather than fail */
        pol_out_reset(out);
        cycle = true;
    }
    if (cycle) {
        int rc = run_cycle(s, v, out);
        if (rc)
            return rc;
        s->dirty = false;
        if (s->period_s > 0)
            s->next_cycle_s = v->now_s + s->period_s;
    }
    for (size_t e = 0; e < s->n_plan; e++)
        pol_out_wakeup(out, s->plan[e].start_s);
    if (s->period_s > 0 && v->n_queue > out->n_starts)
        pol_out_wakeup(out, s->next_cycle_s);
    return ENG_OK;
}

/* ---- islands ---------------------------------------------------------- */

static int isl_init(ss_state *s, const pol_setup *setup, char *err, size_t errlen)
{
    if (setup->n_islands <= 0)
        return ENG_OK;
    /* no POL_FLAG_ISLANDS_CORES: the engine runs it with islands under
     * node allocation only */
    assert(setup->alloc == POL_ALLOC_NODE);
    s->n_isl = setup->n_islands;
    size_t nl = s->n_lines ? s->n_lines : 1;
    s->isl_lines = calloc((size_t)s->n_isl, sizeof *s->isl_lines);
    s->isl_list = calloc((size_t)s->n_isl, sizeof *s->isl_list);
    s->line_isl = malloc(nl * sizeof *s->line_isl);
    s->mark = calloc(nl, sizeof *s->mark);
    bool ok = s->isl_lines && s->isl_list && s->line_isl && s->mark;
    unsigned long seed = setup->seed ? setup->seed : 1;
    for (int32_t k = 0; ok && k < s->n_isl; k++)
        ok = pol_slots_init(&s->isl_list[k], seed) == ENG_OK;
    ok = ok && pol_slots_init(&s->span_list, seed) == ENG_OK;
    if (!ok) {
        ss_fini(s);
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    for (size_t k = 0; k < s->n_lines; k++) {
        int32_t isl = setup->hosts[s->lines[k].pos].island;
        s->line_isl[k] = isl;
        if (++s->isl_lines[isl] > s->largest_isl)
            s->largest_isl = s->isl_lines[isl];
    }
    return ENG_OK;
}

/* Records window w as an alternative of batch job `job`. */
static int isl_record(pol_alt_set *as, size_t job, const pol_window *w)
{
    if (eng_grow(&as->alt, &as->cap_alt, as->n_alt + 1, sizeof *as->alt) ||
        eng_grow(&as->piece, &as->cap_piece, as->n_piece + w->n, sizeof *as->piece))
        return ENG_NOMEM;
    as->alt[as->n_alt++] = (pol_alt){.job = (int32_t)job,
                                     .start_s = w->start_s,
                                     .time = w->time,
                                     .cost = w->cost,
                                     .off = as->n_piece,
                                     .n = w->n};
    memcpy(as->piece + as->n_piece, w->piece, w->n * sizeof *w->piece);
    as->n_piece += w->n;
    as->per_job[job]++;
    return ENG_OK;
}

/* Lines of list l free at t (slots holding t). O(slots starting by t). */
static int32_t free_at(const pol_slot_list *l, double t)
{
    int32_t n = 0;
    for (int32_t h = pol_slots_first(l); h && pol_slots_get(l, h)->start_s <= t;
         h = pol_slots_next(l, h))
        n += pol_slots_get(l, h)->end_s > t;
    return n;
}

/* A job that fits in one island: the algorithm's window in each island
 * that has enough lines, the earliest of them kept (ties: the cheaper
 * window, then the island with the fewest lines free at its start, the
 * engine's best fit, then the lower island), and cut out of its island's
 * list. w->piece points into s->best. */
static int isl_find(ss_state *s, const pol_slot_req *r, pol_window *w, bool *found)
{
    int32_t at = -1, at_free = -1; /* -1: not counted yet */
    for (int32_t k = 0; k < s->n_isl; k++) {
        if (s->isl_lines[k] < r->n)
            continue;
        pol_window x;
        bool ok;
        int rc = pol_slot_find(&s->search, &s->isl_list[k], s->algo, r, &x, &ok);
        if (rc)
            return rc;
        if (!ok)
            continue;
        bool better = at < 0 || x.start_s < w->start_s ||
                      (x.start_s == w->start_s && x.cost < w->cost);
        int32_t x_free = -1; /* counted only for a tie */
        if (!better) {
            if (x.start_s != w->start_s || x.cost != w->cost)
                continue;
            if (at_free < 0)
                at_free = free_at(&s->isl_list[at], w->start_s);
            if ((x_free = free_at(&s->isl_list[k], x.start_s)) >= at_free)
                continue;
        }
        if (eng_grow(&s->best, &s->cap_best, x.n, sizeof *s->best))
            return ENG_NOMEM;
        memcpy(s->best, x.piece, x.n * sizeof *x.piece);
        *w = x;
        w->piece = s->best;
        at = k;
        at_free = x_free;
    }
    *found = at >= 0;
    return at >= 0 ? pol_slot_take(&s->isl_list[at], w) : ENG_OK;
}

static int cmp_slot(const void *a, const void *b)
{
    const pol_slot *x = a, *y = b;
    if (x->start_s != y->start_s)
        return x->start_s < y->start_s ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* A job larger than every island: the algorithm's window on all the
 * islands' slots together (in (start, line) order), cut out of each
 * island's list. O(m log m) for the merged list. */
static int span_find(ss_state *s, const pol_slot_req *r, pol_window *w, bool *found)
{
    size_t m = 0;
    for (int32_t k = 0; k < s->n_isl; k++)
        m += pol_slots_count(&s->isl_list[k]);
    if (eng_grow(&s->all, &s->cap_all, m ? m : 1, sizeof *s->all))
        return ENG_NOMEM;
    m = 0;
    for (int32_t k = 0; k < s->n_isl; k++)
        for (int32_t h = pol_slots_first(&s->isl_list[k]); h;
             h = pol_slots_next(&s->isl_list[k], h))
            s->all[m++] = *pol_slots_get(&s->isl_list[k], h);
    qsort(s->all, m, sizeof *s->all, cmp_slot);
    pol_slots_clear(&s->span_list);
    int rc = ENG_OK;
    for (size_t i = 0; i < m && rc == ENG_OK; i++)
        rc = pol_slots_insert(&s->span_list, &s->all[i], NULL);
    if (rc == ENG_OK)
        rc = pol_slot_find(&s->search, &s->span_list, s->algo, r, w, found);
    if (rc || !*found)
        return rc;
    /* each piece lies in the one slot of its line that holds it */
    for (size_t p = 0; p < w->n; p++)
        s->mark[w->piece[p].line] = (int32_t)p + 1;
    size_t cut = 0;
    for (int32_t k = 0; k < s->n_isl && rc == ENG_OK; k++) {
        pol_slot_list *l = &s->isl_list[k];
        for (int32_t h = pol_slots_first(l), next; h && rc == ENG_OK; h = next) {
            next = pol_slots_next(l, h);
            const pol_slot *sl = pol_slots_get(l, h);
            int32_t q = s->mark[sl->line];
            if (!q)
                continue;
            double to = w->start_s + w->piece[q - 1].hold;
            if (sl->start_s <= w->start_s && to <= sl->end_s) {
                s->mark[sl->line] = 0;
                cut++;
                rc = pol_slots_cut(l, h, w->start_s, to, NULL);
            }
        }
    }
    for (size_t p = 0; p < w->n; p++)
        s->mark[w->piece[p].line] = 0;
    return rc ? rc : cut == w->n ? ENG_OK : ENG_INVARIANT;
}

/* The multi-variant search of pol_slot_batch_search with islands: passes
 * over the batch in priority order, each job searching one more
 * alternative (isl_find, or span_find for a job larger than every
 * island) on the lists left by all earlier ones, until a pass finds none. */
static int isl_batch_search(ss_state *s, size_t nb)
{
    pol_alt_set *as = &s->alts;
    as->n_alt = as->n_piece = 0;
    if (eng_grow(&as->per_job, &as->cap_jobs, nb, sizeof *as->per_job))
        return ENG_NOMEM;
    as->n_jobs = nb;
    memset(as->per_job, 0, nb * sizeof *as->per_job);
    bool *active = malloc(nb * sizeof *active);
    if (!active)
        return ENG_NOMEM;
    for (size_t i = 0; i < nb; i++)
        active[i] = true;
    int rc = ENG_OK;
    for (bool any = true; any && rc == ENG_OK;) {
        any = false;
        for (size_t i = 0; i < nb && rc == ENG_OK; i++) {
            if (!active[i])
                continue;
            pol_window w;
            bool found = false;
            rc = s->reqs[i].n <= s->largest_isl ? isl_find(s, &s->reqs[i], &w, &found)
                                                : span_find(s, &s->reqs[i], &w, &found);
            if (rc == ENG_OK && found)
                rc = isl_record(as, i, &w);
            any = any || found;
            if (!found || (s->max_alt && as->per_job[i] >= s->max_alt))
                active[i] = false;
        }
    }
    free(active);
    return rc;
}

const pol_type pol_alp = {
    .name = "alp",
    .summary = "batch cycles: ALP window search (per-host price limit), DP choice per job",
    .citation = "Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011",
    .flags = POL_FLAG_ISLANDS | POL_FLAG_CORES,
    .state_size = sizeof(ss_state),
    .options = ss_options,
    .init = alp_init,
    .fini = ss_fini,
    .on_submit = ss_on_submit,
    .on_finish = ss_on_finish,
    .schedule = ss_schedule,
};

const pol_type pol_amp = {
    .name = "amp",
    .summary = "batch cycles: AMP window search (per-job budget), DP choice per job",
    .citation = "Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011",
    .flags = POL_FLAG_ISLANDS | POL_FLAG_CORES,
    .state_size = sizeof(ss_state),
    .options = ss_options,
    .init = amp_init,
    .fini = ss_fini,
    .on_submit = ss_on_submit,
    .on_finish = ss_on_finish,
    .schedule = ss_schedule,
};
