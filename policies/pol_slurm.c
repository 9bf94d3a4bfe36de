/* pol_slurm.c — the slurm policy: Slurm's main and backfill schedulers
 * over its multifactor priority, as Slurm 22.05 runs them by default:
 * slurm.conf(5) and the backfill plugin's source (backfill.c) with the
 * documentation of SchedMD, held to a real Slurm 22.05 by
 * tests/data/slurm-ground-truth (Slurm itself: Yoo, Jette & Grondona
 * 2003). Option names are slurm.conf's, written in lower case, and so are
 * the defaults; every option is declared here. The multifactor priority
 * itself — its factors, fair-share classic and Fair Tree, the decay and the
 * calculation timer (rule (d)) — is pol_slurm_prio.c (pol_slurm_prio.h),
 * which calls nothing of this file; this file orders the queue by it and
 * schedules.
 *
 * Main scheduler (at every call, i.e. every submit, end or wake-up): jobs
 * in priority order start while they fit; the first that does not stops
 * it (Slurm leaves the rest of a partition pending behind a pending job;
 * a policy instance serves one pool, our partition).
 *
 * Backfill (rule (c)): a pass at each multiple of bf_interval (default 30
 * s) after something changed (a job submitted, ended or re-prioritised,
 * hosts down or up), as Slurm's backfill thread sleeps bf_interval between
 * passes: a start it makes comes at the next multiple, not at the event
 * that freed the units (bf_timer=event: at that event, at most every
 * bf_interval, the earlier model). A pass plans the first bf_max_job_test
 * (500) pending jobs in priority order afresh (rule (e)): each either
 * starts now, when it fits now for its whole window without touching what
 * a job of higher priority was planned, or is planned at its earliest
 * start within bf_window minutes (1440) and books its window there; one
 * that cannot start within the window books nothing. Nothing is promised
 * (keep_reservation=yes, the earlier model: the first job a pass plans
 * keeps its start until it starts, promised to --check).
 *   - rule (a): a planned window books whole hosts, even under core
 *     allocation, as Slurm's plan (backfill.c's node_space) holds node
 *     bitmaps under CR_Core: no job of lower priority may use any core of
 *     those hosts during the window (bf_reserve=units: only the planned
 *     job's units, the earlier model). Running jobs, and the jobs this call
 *     starts, hold their cores only (Slurm's select plugin tests cores);
 *   - rule (b): a job's window is closed, [start, start + estimate]: a job
 *     that would end exactly when a planned window begins overlaps it
 *     (backfill.c tests begin_time <= end_time);
 *   - running jobs end at their expected ends exactly; a planned window is
 *     booked from its start rounded down to bf_resolution (default 60 s),
 *     from now at the earliest, for its length rounded up to
 *     bf_resolution, taking what is free there.
 *
 * Remaining differences from Slurm, each a choice:
 *   - fair-share usage is per pool: a policy instance serves one pool and
 *     sees its jobs only, where Slurm charges an association's usage in
 *     every partition (cluster-wide); on a platform of one pool the two are
 *     the same;
 *   - the fair-share tree is flat, one account per user or group holding
 *     that user or group alone; accounts enter the tree at their first job
 *     (equal shares: 1 / the accounts seen so far), and one without a line
 *     in a shares file has no shares (Slurm would refuse its jobs);
 *   - usage counts units (nodes, or cores under --alloc core) rather than
 *     billed TRES; the job size factor counts units where Slurm's counts
 *     nodes and CPUs by its PriorityFlags; the age counts from submission
 *     (Slurm: from eligibility, the same here);
 *   - the main scheduler runs at every call, also at the backfill and
 *     calculation timers' calls, where Slurm's runs at events and every
 *     sched_interval: at a backfill pass it starts what the pass would; it
 *     starts a job that a calculation raises to the top and that fits at
 *     that calculation, where Slurm's backfill would at its next pass;
 *   - planning uses the log's requested seconds, where Slurm rounds limits
 *     up to whole minutes; starts come at the event or timer itself, where
 *     Slurm's main scheduler starts about 0.3 s after the event and its
 *     backfill thread's passes drift by the time each pass takes;
 *   - no sched_interval full pass, default_queue_depth or
 *     partition_job_depth limits, no bf_continue, bf_max_job_user, QOS
 *     or association limits other than the per-user ones below, nice values, TRES weights, FairShareDampeningFactor,
 *     PriorityUsageResetPeriod or multi-level account trees; a host failure
 *     is handled as an end (no reboot or node states).
 *
 * Per-user limits (off unless given; SWF field 12 is the user), the QOS
 * limits of Slurm's resource limits documentation, named as sacctmgr names
 * them and written in lower case as every option here:
 *   - max_jobs_per_user (MaxJobsPerUser): jobs of one user running at
 *     once. A job whose user is at the limit is skipped by both
 *     schedulers (Slurm's reason QOSMaxJobsPerUserLimit): it neither
 *     starts nor stops the main scheduler, and backfill plans nothing for
 *     it, so a job of lower priority may start before it;
 *   - max_submit_jobs_per_user (MaxSubmitJobsPerUser): jobs of one user
 *     queued and running. Slurm rejects a submission beyond it (sbatch
 *     fails). A replay holds it instead: of a user's queued jobs, only the
 *     first (limit - running) in submit order are visible to the
 *     schedulers, the rest wait as if not yet submitted and come in as the
 *     user's jobs end. Why not reject: the log's job did run, so its user
 *     submitted it again once below the limit; dropping it would remove
 *     work the machine did. Its wait and its age still count from the
 *     logged submit (the log records no resubmission);
 *   - max_tres_per_user (MaxTRESPerUser=node=N,cpu=N): nodes (units under
 *     --alloc node) and cpus (a unit's cores under node allocation, the
 *     units under core allocation) the running jobs of one user hold
 *     together; a job that would pass a cap is skipped as above. A job
 *     larger than a cap by itself starts when its user runs nothing, where
 *     Slurm would leave it pending forever (or reject it with
 *     DenyOnLimit): the log says it ran;
 *   - with any of them keep_reservation=yes is refused: a promised start
 *     could be broken by the limit when it comes.
 * The counts are rebuilt at each call from the running jobs (O(r log u)
 * for u users) and followed through the call's starts; the hold walks the
 * queue once (O(q log u)).
 *
 * Islands (eng_policy.h; POL_FLAG_ISLANDS). Slurm's topology-aware
 * selection (TopologyPlugin=topology/tree with select/cons_tres) places a
 * job under the lowest switch that can hold it, best fit among its leaf
 * switches, and a job asking --switches=1 waits for one switch; its
 * backfill scheduler tests a pending job against the nodes free at each
 * future time, so a planned start always has nodes that satisfy the
 * topology. Here an island is such a switch and every job that fits in one
 * island asks for one (batchlab's --islands strict); a larger job spans.
 * The plan keeps one profile per island (the nodes of an island are
 * interchangeable, so counts per island are all Slurm's node bitmaps would
 * add), or under core allocation one per host (rule (a)): a job starts now
 * only where an island has its units for its whole window (the island with
 * room that has the fewest units free now: best fit; ties: the lowest
 * island), a reservation is planned in the island where the job can start
 * earliest, and a job larger than every island takes from each island what
 * stays free there. Starts name their hosts (pol_out_start_on), so the plan
 * and the engine agree island by island. Simplification: Slurm makes a job
 * wait for its switch count at most max-time of --switches (bounded by
 * SchedulerParameters=max_switch_wait, 300 s by default) and then places
 * it across switches; a job that fits in one island here always waits for
 * one (--islands ignore drops the constraint altogether).
 *
 * The plan (rebuilt at every call): one profile of the pool's units
 * (PLAN_COUNT); with islands one per island (PLAN_ISLANDS); under core
 * allocation with whole-host windows one per host (PLAN_HOSTS), hosts in
 * name order, within one island where the job fits in one.
 *
 * predictor=user2 plans with predicted run times (pol_predict.h); the kept
 * reservation is then kept as planned but not promised, since a running
 * job may outlive its prediction.
 *
 * Cost per call: O(a + r) to bring usage up to date (a accounts, r running
 * jobs; per priority calculation passed, one step for a stretch with
 * nothing running), O(q log q) to order the queue, O(r) to build the plan
 * (O(hosts + allocations) per host), and per planned job an O(P) search
 * and booking in a profile of P breakpoints, at most bf_max_job_test jobs
 * per pass. Per host (PLAN_HOSTS): O(B log B) for the candidate times and
 * O(hosts x (log P + segments)) per candidate tried; with islands, each
 * test or plan is done in every island (a job larger than every island:
 * O(B x islands x P), B the islands' breakpoints).
 */
#include "eng_policy.h"
#include "pol_predict.h"
#include "pol_profile.h"
#include "pol_slurm_prio.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A user as the per-user limits count it. */
typedef struct slurm_user {
    int64_t id;
    int64_t run_jobs, run_nodes, run_cpus; /* its running jobs, this call's starts included */
    int64_t seen;                          /* its queued jobs met in submit order */
} slurm_user;

/* What the backfill plan counts (see "The plan" above). */
typedef enum slurm_plan {
    PLAN_COUNT,   /* one profile of the pool's units */
    PLAN_ISLANDS, /* one profile per island */
    PLAN_HOSTS,   /* one profile per host: windows book whole hosts under core allocation */
} slurm_plan;

typedef struct slurm_state {
    slurm_mf mf; /* the multifactor priority: accounts, usage, priorities */
    /* options */
    bool keep, book_nodes, bf_grid;
    double bf_interval_s, bf_window_s, bf_res_s;
    int64_t bf_max_job_test;
    /* scheduling */
    double next_bf_s, last_bf_s;
    bool dirty;
    int32_t pinned; /* job holding the kept reservation, -1 if none */
    slurm_plan plan_kind;
    pol_profile prof;
    slurm_order *order;
    size_t cap_order;
    pol_predictor pred;
    uint64_t n_passes, n_bf_starts;
    /* Islands (n_isl > 0): the plan per island, rebuilt at every call, and
     * the hosts a start is given (see "Islands" above). */
    int32_t n_isl, largest;
    int32_t *isl_units;
    pol_profile *ip;
    int32_t *room;  /* n_isl: units a placement may take in each island */
    int32_t *take;  /* n_isl: units the placement found takes in each island */
    int32_t *held;  /* n_isl: a running job's units per island */
    int32_t *hfree; /* per host: units free after this call's starts */
    size_t n_hosts;
    int32_t *named; /* n_hosts: the hosts of the placement found, and their units */
    int32_t *named_units;
    size_t n_named;
    /* PLAN_HOSTS: each host's cores over time, rebuilt at every call */
    pol_profile *hp;
    int32_t *hroom; /* n_hosts: cores a host can give over the window tried */
    double *cand;
    size_t cap_cand;
    /* Per-user limits (see "Per-user limits"; 0: no limit) */
    bool limits;
    int64_t lim_jobs, lim_submit, lim_nodes, lim_cpus;
    int64_t cpus_per_unit;
    slurm_user *users; /* every user seen, sorted by id */
    size_t n_users, cap_users;
    uint8_t *sub_held; /* per job: 1 while max_submit_jobs_per_user holds it */
    uint8_t *limited;  /* per job: 1 once a limit made it wait */
    uint64_t n_limited;
} slurm_state;

#define SLURM_WEIGHT(k, what)                                                                      \
    {                                                                                              \
        .key = k, .type = POL_OPT_INT, .min = 0, .max = 4294967295, .help = "weight of the " what  \
    }

static const pol_option slurm_options[] = {
    SLURM_WEIGHT("priority_weight_age", "age factor"),
    {.key = "priority_max_age",
     .type = POL_OPT_DURATION,
     .lo = 0,
     .open_lo = true,
     .hi = INFINITY,
     .def_real = 7 * 86400,
     .help = "age of a full age factor"},
    SLURM_WEIGHT("priority_weight_fairshare", "fair-share factor"),
    {.key = "priority_flags",
     .type = POL_OPT_WORDS,
     .choices = POL_CHOICES("no_fair_tree"),
     .absent = "none: Fair Tree",
     .help = "no_fair_tree = the classic fair-share factor 2^(-U/S) instead of Fair Tree's ranks"},
    {.key = "priority_decay_halflife",
     .type = POL_OPT_DURATION,
     .lo = 0,
     .hi = INFINITY,
     .def_real = 7 * 86400,
     .help = "half-life of past usage, 0 = none"},
    {.key = "priority_calc_period",
     .type = POL_OPT_DURATION,
     .lo = 0,
     .hi = INFINITY,
     .def_real = 5 * 60,
     .help = "how often usage is charged and priorities are calculated (0 = at every decision, "
             "usage charged continuously)"},
    {.key = "priority_calc_phase",
     .type = POL_OPT_REAL,
     .lo = -INFINITY,
     .hi = INFINITY,
     .unit = "seconds",
     .help = "the calculations fall at this time plus multiples of priority_calc_period (Slurm's "
             "follow slurmctld's start, which a log does not record)"},
    {.key = "accounting_storage_enforce",
     .type = POL_OPT_WORDS,
     .choices = POL_CHOICES("associations", "limits", "qos", "safe", "wckeys", "nojobs", "nosteps",
                            "all"),
     .absent = "none",
     .help = "with limits (or safe, all) a job's end charges its usage since the last "
             "calculation; without, that part is never charged, as in Slurm"},
    {.key = "fairshare_by",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("user", "group"),
     .help = "fair-share accounts, SWF field 12 (user) or 13 (group)"},
    {.key = "shares",
     .type = POL_OPT_STRING,
     .metavar = "a file of 'USER SHARES' lines",
     .absent = "equal shares",
     .help = "shares of the fair-share accounts"},
    SLURM_WEIGHT("priority_weight_jobsize", "job size factor"),
    {.key = "priority_favor_small",
     .type = POL_OPT_BOOL,
     .help = "small jobs get the larger size factor"},
    SLURM_WEIGHT("priority_weight_partition", "partition factor"),
    {.key = "partition_job_factor",
     .type = POL_OPT_PAIRS,
     .metavar = "QUEUE:FACTOR",
     .min = 0,
     .max = INT64_MAX,
     .absent = "1 for every queue",
     .help = "PriorityJobFactor of SWF queues"},
    {.key = "bf_interval",
     .type = POL_OPT_REAL,
     .lo = 0,
     .open_lo = true,
     .hi = INFINITY,
     .def_real = 30,
     .unit = "seconds",
     .help = "time between backfill passes"},
    {.key = "bf_timer",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("interval", "event"),
     .help = "passes at multiples of bf_interval, as Slurm's backfill thread (event = at the "
             "event that calls for one, at most every bf_interval)"},
    {.key = "bf_window",
     .type = POL_OPT_REAL,
     .lo = 0,
     .open_lo = true,
     .hi = INFINITY,
     .def_real = 1440,
     .unit = "minutes",
     .help = "how far a backfill plan looks ahead"},
    {.key = "bf_resolution",
     .type = POL_OPT_REAL,
     .lo = 0,
     .open_lo = true,
     .hi = INFINITY,
     .def_real = 60,
     .unit = "seconds",
     .help = "time resolution of the windows a backfill plan books"},
    {.key = "bf_max_job_test",
     .type = POL_OPT_INT,
     .min = 1,
     .max = INT64_MAX,
     .def_int = 500,
     .help = "jobs a backfill pass plans"},
    {.key = "bf_reserve",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("nodes", "units"),
     .help = "a planned job's window books whole hosts, as Slurm's plan does under CR_Core "
             "(units = only its cores)"},
    {.key = "keep_reservation",
     .type = POL_OPT_BOOL,
     .help = "every plan is redone at each pass, as Slurm does (yes = the top waiting job keeps "
             "its planned start, promised)"},
    {.key = "max_jobs_per_user",
     .type = POL_OPT_INT,
     .min = 1,
     .max = INT32_MAX,
     .absent = "no limit",
     .help = "MaxJobsPerUser: jobs of one user (SWF field 12) running at once; the others are "
             "skipped by both schedulers"},
    {.key = "max_submit_jobs_per_user",
     .type = POL_OPT_INT,
     .min = 1,
     .max = INT32_MAX,
     .absent = "no limit",
     .help = "MaxSubmitJobsPerUser: jobs of one user queued and running; a submission beyond it is "
             "held until the user is below it (Slurm rejects it; the log says it ran)"},
    {.key = "max_tres_per_user",
     .type = POL_OPT_STRING,
     .metavar = "node=N,cpu=N (either or both)",
     .absent = "no limit",
     .help = "MaxTRESPerUser: nodes and cpus the running jobs of one user hold together"},
    POL_PREDICT_OPTION,
    {0},
};

/* ---- lifecycle ---------------------------------------------------------- */

static void slurm_fini(void *state)
{
    slurm_state *s = state;
    slurm_mf_fini(&s->mf);
    free(s->order);
    pol_profile_fini(&s->prof);
    pol_predict_fini(&s->pred);
    for (int32_t k = 0; s->ip && k < s->n_isl; k++)
        pol_profile_fini(&s->ip[k]);
    free(s->ip);
    for (size_t h = 0; s->hp && h < s->n_hosts; h++)
        pol_profile_fini(&s->hp[h]);
    free(s->hp);
    free(s->hroom);
    free(s->isl_units);
    free(s->room);
    free(s->take);
    free(s->held);
    free(s->hfree);
    free(s->named);
    free(s->named_units);
    free(s->cand);
    free(s->users);
    free(s->sub_held);
    free(s->limited);
}

/* The per-island and per-host state: islands (setup->n_islands > 0) need
 * island arrays and hosts to name; PLAN_HOSTS a profile per host. */
static int hosts_init(slurm_state *s, const pol_setup *setup)
{
    size_t n = (size_t)(setup->n_islands > 0 ? setup->n_islands : 1);
    s->n_isl = setup->n_islands;
    s->n_hosts = setup->n_hosts;
    size_t nh = s->n_hosts ? s->n_hosts : 1;
    s->isl_units = malloc(n * sizeof *s->isl_units);
    s->ip = calloc(n, sizeof *s->ip);
    s->room = malloc(n * sizeof *s->room);
    s->take = malloc(n * sizeof *s->take);
    s->held = malloc(n * sizeof *s->held);
    s->hfree = malloc(nh * sizeof *s->hfree);
    s->named = malloc(nh * sizeof *s->named);
    s->named_units = malloc(nh * sizeof *s->named_units);
    if (!s->isl_units || !s->ip || !s->room || !s->take || !s->held || !s->hfree || !s->named ||
        !s->named_units)
        return ENG_NOMEM;
    for (int32_t k = 0; k < s->n_isl; k++) {
        s->isl_units[k] = setup->island_units[k];
        if (s->isl_units[k] > s->largest)
            s->largest = s->isl_units[k];
        if (pol_profile_init(&s->ip[k], s->isl_units[k], 0))
            return ENG_NOMEM;
    }
    if (s->plan_kind != PLAN_HOSTS)
        return ENG_OK;
    s->hp = calloc(nh, sizeof *s->hp);
    s->hroom = malloc(nh * sizeof *s->hroom);
    if (!s->hp || !s->hroom)
        return ENG_NOMEM;
    for (size_t h = 0; h < s->n_hosts; h++)
        if (pol_profile_init(&s->hp[h], setup->hosts[h].cores, 0))
            return ENG_NOMEM;
    return ENG_OK;
}

/* The scheduler's options, read typed (checked by the engine before
 * init); slurm_mf_init reads the priority's. */
static void read_options(slurm_state *s, const pol_setup *setup)
{
    s->bf_interval_s = pol_opt_real(setup, "bf_interval");
    s->bf_window_s = pol_opt_real(setup, "bf_window") * 60;
    s->bf_res_s = pol_opt_real(setup, "bf_resolution");
    s->bf_max_job_test = pol_opt_int(setup, "bf_max_job_test");
    s->keep = pol_opt_bool(setup, "keep_reservation");
    s->bf_grid = pol_opt_choice(setup, "bf_timer") == 0;
    s->book_nodes = pol_opt_choice(setup, "bf_reserve") == 0;
}

/* ---- per-user limits ---------------------------------------------------- */

/* Reads "node=N,cpu=N" (either or both, each at most once) into the caps. */
static int parse_tres(slurm_state *s, const char *text, char *err, size_t errlen)
{
    const char *p = text;
    while (*p) {
        const char *eq = strchr(p, '=');
        size_t klen = eq ? (size_t)(eq - p) : 0;
        int64_t *cap = klen == 4 && strncmp(p, "node", 4) == 0  ? &s->lim_nodes
                       : klen == 3 && strncmp(p, "cpu", 3) == 0 ? &s->lim_cpus
                                                                : NULL;
        char *end;
        long long n = cap ? strtoll(eq + 1, &end, 10) : 0;
        if (!cap || *cap || end == eq + 1 || n < 1 || n > INT32_MAX ||
            (*end != ',' && *end != '\0')) {
            snprintf(err, errlen,
                     "max_tres_per_user: expected node=N and/or cpu=N (N a positive integer, "
                     "each once, comma-separated), got '%s'",
                     text);
            return ENG_INVAL;
        }
        *cap = n;
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && !*p) {
            snprintf(err, errlen, "max_tres_per_user: a trailing comma in '%s'", text);
            return ENG_INVAL;
        }
    }
    return ENG_OK;
}

static int limits_init(slurm_state *s, const pol_setup *setup, char *err, size_t errlen)
{
    if (pol_opt_given(setup, "max_jobs_per_user"))
        s->lim_jobs = pol_opt_int(setup, "max_jobs_per_user");
    if (pol_opt_given(setup, "max_submit_jobs_per_user"))
        s->lim_submit = pol_opt_int(setup, "max_submit_jobs_per_user");
    const char *tres = pol_opt_given(setup, "max_tres_per_user")
                           ? pol_opt_str(setup, "max_tres_per_user")
                           : NULL;
    int rc = tres ? parse_tres(s, tres, err, errlen) : ENG_OK;
    if (rc)
        return rc;
    if (s->lim_nodes && setup->alloc == POL_ALLOC_CORE) {
        snprintf(err, errlen,
                 "max_tres_per_user=node=... counts whole nodes: use cpu=... under --alloc core");
        return ENG_INVAL;
    }
    s->limits = s->lim_jobs || s->lim_submit || s->lim_nodes || s->lim_cpus;
    if (!s->limits)
        return ENG_OK;
    if (s->keep) {
        snprintf(err, errlen,
                 "keep_reservation=yes with per-user limits: a promised start could be broken "
                 "by a limit when it comes");
        return ENG_INVAL;
    }
    /* A unit's cpus: one under core allocation, else the pool's smallest host. */
    s->cpus_per_unit = 1;
    for (size_t h = 0; setup->alloc == POL_ALLOC_NODE && h < setup->n_hosts; h++)
        if (h == 0 || setup->hosts[h].cores < s->cpus_per_unit)
            s->cpus_per_unit = setup->hosts[h].cores;
    size_t n = setup->n_jobs ? setup->n_jobs : 1;
    s->sub_held = calloc(n, 1);
    s->limited = calloc(n, 1);
    if (!s->sub_held || !s->limited) {
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    return ENG_OK;
}

/* The place of user id in the sorted users, or where it would go. */
static size_t user_pos(const slurm_state *s, int64_t id)
{
    size_t lo = 0, hi = s->n_users;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->users[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static slurm_user *user_of(slurm_state *s, int64_t id)
{
    size_t k = user_pos(s, id);
    return k < s->n_users && s->users[k].id == id ? &s->users[k] : NULL;
}

static int user_add(slurm_state *s, int64_t id)
{
    size_t k = user_pos(s, id);
    if (k < s->n_users && s->users[k].id == id)
        return ENG_OK;
    if (eng_grow(&s->users, &s->cap_users, s->n_users + 1, sizeof *s->users))
        return ENG_NOMEM;
    memmove(&s->users[k + 1], &s->users[k], (s->n_users - k) * sizeof *s->users);
    s->users[k] = (slurm_user){.id = id};
    s->n_users++;
    return ENG_OK;
}

static int64_t job_cpus(const slurm_state *s, const pol_job *j)
{
    return (int64_t)j->units * s->cpus_per_unit;
}

/* A start counted against its user's limits. */
static void limits_start(slurm_state *s, const pol_job *j)
{
    slurm_user *u = s->limits ? user_of(s, j->user) : NULL;
    if (!u)
        return;
    u->run_jobs++;
    u->run_nodes += j->units;
    u->run_cpus += job_cpus(s, j);
}

/* The users' counts from the running jobs, and the holds of
 * max_submit_jobs_per_user from the queue in submit order. */
static void limits_tally(slurm_state *s, const pol_view *v)
{
    for (size_t k = 0; k < s->n_users; k++)
        s->users[k] = (slurm_user){.id = s->users[k].id};
    for (size_t r = 0; r < v->n_running; r++)
        limits_start(s, v->running[r]);
    for (size_t q = 0; s->lim_submit && q < v->n_queue; q++) {
        const pol_job *j = v->queue[q];
        slurm_user *u = user_of(s, j->user);
        s->sub_held[j->idx] = u && u->run_jobs + u->seen >= s->lim_submit;
        if (u)
            u->seen++;
    }
}

/* May j start now as far as its user's limits go? */
static bool limits_allow(slurm_state *s, const pol_job *j)
{
    if (!s->limits)
        return true;
    slurm_user *u = user_of(s, j->user);
    bool ok = u && !s->sub_held[j->idx] && !(s->lim_jobs && u->run_jobs >= s->lim_jobs);
    if (ok && u->run_jobs > 0) /* a job over a cap by itself runs alone */
        ok = !(s->lim_nodes && u->run_nodes + j->units > s->lim_nodes) &&
             !(s->lim_cpus && u->run_cpus + job_cpus(s, j) > s->lim_cpus);
    if (!ok && !s->limited[j->idx]) {
        s->limited[j->idx] = 1;
        s->n_limited++;
    }
    return ok;
}

static int slurm_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    slurm_state *s = state;
    int rc;
    s->pinned = -1;
    s->next_bf_s = s->last_bf_s = -INFINITY;
    read_options(s, setup);
    if ((rc = limits_init(s, setup, err, errlen)) ||
        (rc = pol_predict_init(&s->pred, setup, err, errlen)) ||
        (rc = slurm_mf_init(&s->mf, setup, err, errlen)))
        goto fail;
    /* Whole hosts are units where every host has one core. */
    bool multicore = false;
    for (size_t h = 0; h < setup->n_hosts; h++)
        multicore |= setup->hosts[h].cores > 1;
    s->plan_kind = setup->alloc == POL_ALLOC_CORE && s->book_nodes && multicore ? PLAN_HOSTS
                   : setup->n_islands > 0                                       ? PLAN_ISLANDS
                                                                                : PLAN_COUNT;
    if (pol_profile_init(&s->prof, setup->total_units, 0) || hosts_init(s, setup)) {
        rc = ENG_NOMEM;
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    return ENG_OK;
fail:
    slurm_fini(s); /* the engine calls fini only after a successful init */
    return rc;
}

/* ---- hooks ------------------------------------------------------------- */

static int slurm_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    slurm_state *s = state;
    int rc = slurm_mf_until(&s->mf, v->now_s);
    if (rc)
        return rc;
    s->dirty = true;
    if ((rc = slurm_mf_submit(&s->mf, job, v->now_s)))
        return rc;
    if (s->limits && (rc = user_add(s, job->user)))
        return rc;
    return pol_predict_submit(&s->pred, job);
}

static int slurm_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    slurm_state *s = state;
    int rc = slurm_mf_until(&s->mf, v->now_s);
    if (rc)
        return rc;
    s->dirty = true;
    slurm_mf_stop(&s->mf, job->idx, v->now_s);
    if (job->idx == s->pinned)
        s->pinned = -1;
    return pol_predict_finish(&s->pred, job, v->now_s);
}

static int slurm_on_capacity(void *state, const pol_view *v)
{
    slurm_state *s = state;
    s->dirty = true;
    return slurm_mf_until(&s->mf, v->now_s);
}

/* ---- the plan -------------------------------------------------------------
 *
 * Running jobs hold their units up to their expected ends, exactly (Slurm's
 * select plugin tests a pending job against the running jobs' ends). A
 * job's own window is closed, [t, t + estimate]: it fits only where its
 * units are free all along it and at its end too, so that it cannot end
 * exactly when a planned window begins (rule (b)). A job planned for later
 * books a window on the bf_resolution grid (window()), taking what is
 * free there up to its units (book()): a booking may start before the
 * units are free, as Slurm's node_space records do. */

/* The segment of p holding x (0 for x before t[0]). O(log n). */
static size_t seg_at(const pol_profile *p, double x)
{
    size_t lo = 0, hi = p->n;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (p->t[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The least units free over the closed [a, b]. */
static int32_t least_closed(const pol_profile *p, double a, double b)
{
    int32_t least, most;
    pol_profile_minmax_over(p, a, nextafter(b, INFINITY), &least, &most);
    return least;
}

/* The earliest t >= from with `units` free all along the closed [t, t +
 * len], INFINITY if none. O(segments), as pol_profile_earliest. */
static double earliest_closed(const pol_profile *p, double from, double len, int32_t units)
{
    if (units > p->total)
        return INFINITY;
    if (from < p->t[0])
        from = p->t[0];
    size_t i = seg_at(p, from);
    double start = from;
    for (;;) {
        size_t k = i;
        while (k < p->n && p->t[k] <= start + len && p->free[k] >= units)
            k++;
        if (k == p->n || p->t[k] > start + len)
            return start;
        if (k + 1 >= p->n)
            return INFINITY; /* the last segment is short forever */
        i = k + 1;
        start = p->t[i];
    }
}

/* Books up to `units` on [b, e): each segment gives what it has free, at
 * most units. What p gives is taken from `sum` too (NULL: none), the
 * profile that adds p up with others. */
static int book(pol_profile *p, double b, double e, int32_t units, pol_profile *sum)
{
    double x = b < p->t[0] ? p->t[0] : b;
    while (x < e) {
        size_t k = seg_at(p, x);
        double y = k + 1 < p->n && p->t[k + 1] < e ? p->t[k + 1] : e;
        int32_t d = p->free[k] < units ? p->free[k] : units;
        int rc = d > 0 ? pol_profile_add(p, x, y, -d) : ENG_OK;
        if (rc == ENG_OK && d > 0 && sum)
            rc = pol_profile_add(sum, x, y, -d);
        if (rc)
            return rc;
        x = y;
    }
    return ENG_OK;
}

/* The window a plan books for j planned at t: from its start rounded
 * down to bf_resolution (not before now), for its length rounded up to
 * bf_resolution. Slurm rounds both ends down (backfill.c), which is the
 * same for its limits, whole minutes, at a resolution that divides a
 * minute; a length of the log's seconds is rounded up as Slurm rounds a
 * limit up to minutes, so a window always holds its start. The kept
 * reservation (whole) ends no earlier than the job, so that nothing started
 * meanwhile can delay the start it was promised. */
static void window(const slurm_state *s, const pol_view *v, const pol_job *j, double t, bool whole,
                   double *b, double *e)
{
    double r = floor(t / s->bf_res_s) * s->bf_res_s;
    *e = r + ceil(j->estimate_s / s->bf_res_s) * s->bf_res_s;
    if (whole && *e < t + j->estimate_s)
        *e = t + j->estimate_s;
    *b = r < v->now_s ? v->now_s : r;
}

static int push_point(pol_profile *p, double t, int32_t free_units)
{
    if (p->n == p->cap) {
        size_t cap_t = p->cap, cap_f = p->cap;
        if (eng_grow(&p->t, &cap_t, p->n + 1, sizeof *p->t) ||
            eng_grow(&p->free, &cap_f, p->n + 1, sizeof *p->free))
            return ENG_NOMEM;
        p->cap = cap_t < cap_f ? cap_t : cap_f;
    }
    p->t[p->n] = t;
    p->free[p->n] = free_units;
    p->n++;
    return ENG_OK;
}

/* Gives units back at time e in a profile built in time order. */
static int release_at(pol_profile *p, double e, int32_t units)
{
    size_t last = p->n - 1;
    if (e == p->t[last]) {
        p->free[last] += units;
        return ENG_OK;
    }
    if (e > p->t[last])
        return push_point(p, e, p->free[last] + units);
    return pol_profile_add(p, e, INFINITY, units);
}

static int start_profile(pol_profile *p, int32_t total, double now, int32_t free_units)
{
    p->total = total;
    p->n = 0;
    return push_point(p, now, free_units);
}

/* The profile of the running jobs (units free now, each job's units back
 * at its expected end; hosts that are down stay taken). O(r): the running
 * jobs come in expected-end order. */
static int build_profile(slurm_state *s, const pol_view *v)
{
    pol_profile *p = &s->prof;
    int rc = start_profile(p, v->total_units, v->now_s, v->free_units);
    for (size_t r = 0; rc == ENG_OK && r < v->n_running; r++)
        rc = release_at(p, v->running[r]->expected_end_s, v->running[r]->units);
    return rc;
}

/* PLAN_HOSTS: one profile of cores per host, each running job's cores
 * back on its hosts at its expected end (a host that is down: none), and
 * their sum in prof (what a job needs there is needed, not enough, for
 * hosts to be found). O(hosts + allocations). */
static int hosts_build(slurm_state *s, const pol_view *v)
{
    int rc = build_profile(s, v);
    for (size_t h = 0; rc == ENG_OK && h < v->n_hosts; h++)
        rc = start_profile(&s->hp[h], v->hosts[h].cores, v->now_s,
                           v->hosts[h].up ? v->hosts[h].free_cores : 0);
    for (size_t r = 0; rc == ENG_OK && r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        for (int32_t a = 0; rc == ENG_OK && a < j->n_alloc; a++) {
            int32_t h = v->alloc_pos[j->alloc_off + (size_t)a];
            if (v->hosts[h].up)
                rc = release_at(&s->hp[h], j->expected_end_s,
                                v->alloc_cores[j->alloc_off + (size_t)a]);
        }
    }
    return rc;
}

/* PLAN_HOSTS: hosts for j over the closed window [t, t + estimate]. A host
 * gives the cores it has free all along (none where a planned window
 * books it: its profile is 0 there). A job that fits in one island takes
 * the hosts of one: at now the island with the fewest units free now
 * among those with room (best fit, as Slurm's topology-aware selection),
 * later the lowest with room. Hosts in name order. Fills named and
 * named_units; true when j's units are found. O(hosts x (log P +
 * segments)). */
static bool hosts_place(slurm_state *s, const pol_view *v, const pol_job *j, double t)
{
    double e = t + j->estimate_s;
    int32_t isl = -1, left = j->units;
    if (least_closed(&s->prof, t, e) < j->units)
        return false;
    for (size_t h = 0; h < v->n_hosts; h++)
        s->hroom[h] = least_closed(&s->hp[h], t, e);
    if (s->n_isl && j->units <= s->largest) {
        int32_t best_free = 0;
        for (int32_t k = 0; k < s->n_isl; k++) {
            int32_t room = 0, free_now = 0;
            for (size_t h = 0; h < v->n_hosts; h++)
                if (v->hosts[h].island == k) {
                    room += s->hroom[h];
                    free_now += pol_profile_free_at(&s->hp[h], v->now_s);
                }
            if (room < j->units || (isl >= 0 && (t > v->now_s || free_now >= best_free)))
                continue;
            isl = k;
            best_free = free_now;
        }
        if (isl < 0)
            return false;
    }
    s->n_named = 0;
    for (size_t h = 0; h < v->n_hosts && left > 0; h++) {
        int32_t c = s->hroom[h] < left ? s->hroom[h] : left;
        if (c <= 0 || (isl >= 0 && v->hosts[h].island != isl))
            continue;
        s->named[s->n_named] = (int32_t)h;
        s->named_units[s->n_named++] = c;
        left -= c;
    }
    return left == 0;
}

/* PLAN_HOSTS: plans j at the earliest time up to `until` where
 * hosts_place finds it hosts (now, or when some host's cores change), and
 * books those hosts whole over its window; *at = INFINITY if none.
 * O(B log B + B' x hosts x (log P + segments)), B the hosts' breakpoints,
 * B' those tried. */
static int hosts_plan(slurm_state *s, const pol_view *v, const pol_job *j, double until, bool whole,
                      double *at)
{
    size_t n;
    if (pol_profile_breaks(s->hp, (int32_t)v->n_hosts, v->now_s, until, &s->cand, &s->cap_cand, &n))
        return ENG_NOMEM;
    double next = v->now_s; /* no start before this: the sum lacks the units */
    for (size_t c = 0; c < n; c++) {
        double t = s->cand[c];
        if (t < next || (c > 0 && t == s->cand[c - 1]))
            continue;
        next = earliest_closed(&s->prof, t, j->estimate_s, j->units);
        if (!(next <= until))
            return ENG_OK;
        if (t < next || !hosts_place(s, v, j, t))
            continue;
        double b, e;
        window(s, v, j, t, whole, &b, &e);
        for (size_t i = 0; i < s->n_named; i++) {
            pol_profile *p = &s->hp[s->named[i]];
            int rc = book(p, b, e, p->total, &s->prof);
            if (rc)
                return rc;
        }
        *at = t;
        return ENG_OK;
    }
    return ENG_OK;
}

/* ---- the plan with islands ------------------------------------------------
 *
 * One profile per island, built as the count profile is: the island's free
 * units now, each running job's units in it back at its expected end. A
 * placement is a set of hosts named to the engine; hfree follows this
 * call's starts host by host. */

static int isl_build(slurm_state *s, const pol_view *v)
{
    int rc = ENG_OK;
    for (int32_t k = 0; rc == ENG_OK && k < s->n_isl; k++)
        rc = start_profile(&s->ip[k], s->isl_units[k], v->now_s, v->island_free[k]);
    for (size_t h = 0; h < v->n_hosts; h++) {
        const pol_host *ph = &v->hosts[h];
        s->hfree[h] = !ph->up                      ? 0
                      : v->alloc == POL_ALLOC_CORE ? ph->free_cores
                                                   : ph->free_cores == ph->cores;
    }
    for (size_t r = 0; rc == ENG_OK && r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        memset(s->held, 0, (size_t)s->n_isl * sizeof *s->held);
        pol_island_held(v, j, s->held);
        for (int32_t k = 0; rc == ENG_OK && k < s->n_isl; k++)
            if (s->held[k])
                rc = release_at(&s->ip[k], j->expected_end_s, s->held[k]);
    }
    return rc;
}

/* Names hosts for j, in name order, each giving what the engine takes
 * from a named host (its free units, up to what is still needed), at most
 * room[k] units in island k. Fills named, named_units and take; true when
 * j's units are all named. */
static bool isl_name_hosts(slurm_state *s, const pol_view *v, const pol_job *j)
{
    int32_t left = j->units;
    s->n_named = 0;
    memset(s->take, 0, (size_t)s->n_isl * sizeof *s->take);
    for (size_t h = 0; h < v->n_hosts && left > 0; h++) {
        int32_t k = v->hosts[h].island, c = s->hfree[h] < left ? s->hfree[h] : left;
        if (k < 0 || c == 0 || s->take[k] + c > s->room[k])
            continue;
        s->named[s->n_named] = (int32_t)h;
        s->named_units[s->n_named++] = c;
        s->take[k] += c;
        left -= c;
    }
    return left == 0;
}

/* Can j start now, for its whole window, where the islands' plans have
 * room? A job no larger than the largest island goes to the island with
 * room that has the fewest units free now (best fit, as Slurm's
 * topology-aware selection; ties: the lowest island), a larger one takes
 * from every island what stays free there over its window. On true, the
 * rooms are in room[] for isl_start(). O(islands x (log P + segments)). */
static bool isl_fits_now(slurm_state *s, const pol_view *v, const pol_job *j)
{
    double e = v->now_s + j->estimate_s;
    int32_t best = -1, best_free = 0;
    int64_t sum = 0;
    for (int32_t k = 0; k < s->n_isl; k++) {
        int32_t least = least_closed(&s->ip[k], v->now_s, e);
        s->room[k] = j->units > s->largest ? least : 0;
        sum += least;
        if (j->units > s->largest || s->isl_units[k] < j->units || least < j->units)
            continue;
        int32_t f = pol_profile_free_at(&s->ip[k], v->now_s);
        if (best < 0 || f < best_free) {
            best = k;
            best_free = f;
        }
    }
    if (j->units <= s->largest) {
        if (best < 0)
            return false;
        s->room[best] = j->units;
    } else if (sum < j->units)
        return false;
    /* Hosts are named at the start (O(hosts)), except where naming may
     * fail: a job spanning islands under core allocation, whose hosts
     * may give more than an island's room. */
    s->n_named = 0;
    return j->units <= s->largest || v->alloc == POL_ALLOC_NODE || isl_name_hosts(s, v, j);
}

/* Starts j where isl_fits_now() placed it. */
static int isl_start(slurm_state *s, const pol_view *v, pol_out *out, const pol_job *j)
{
    if (s->n_named == 0 && !isl_name_hosts(s, v, j))
        return ENG_INVARIANT; /* the islands' free units were miscounted */
    double e = v->now_s + j->estimate_s;
    for (int32_t k = 0; k < s->n_isl; k++)
        if (s->take[k]) {
            int rc = pol_profile_add(&s->ip[k], v->now_s, e, -s->take[k]);
            if (rc)
                return rc;
        }
    for (size_t i = 0; i < s->n_named; i++)
        s->hfree[s->named[i]] -= s->named_units[i];
    pol_out_start_on(out, j, s->named, s->n_named);
    return ENG_OK;
}

/* Plans j, larger than every island, at the earliest time up to `until`
 * at which the islands together keep its units free over its window,
 * taking from the islands in turn what stays free there: now or a
 * breakpoint of some island's plan (a window that fits can slide back to
 * one). O(B x islands x P), B the islands' breakpoints. */
static int isl_plan_span(slurm_state *s, const pol_view *v, const pol_job *j, double until,
                         bool whole, double *at)
{
    size_t n;
    if (pol_profile_breaks(s->ip, s->n_isl, v->now_s, until, &s->cand, &s->cap_cand, &n))
        return ENG_NOMEM;
    for (size_t c = 0; c < n; c++) {
        double t = s->cand[c];
        if (c > 0 && t == s->cand[c - 1])
            continue;
        int64_t sum = 0;
        for (int32_t k = 0; k < s->n_isl; k++) {
            s->room[k] = least_closed(&s->ip[k], t, t + j->estimate_s);
            sum += s->room[k];
        }
        if (sum < j->units)
            continue;
        double b, e;
        window(s, v, j, t, whole, &b, &e);
        int32_t left = j->units;
        for (int32_t k = 0; k < s->n_isl && left > 0; k++) {
            int32_t u = s->room[k] < left ? s->room[k] : left;
            left -= u;
            int rc = u ? book(&s->ip[k], b, e, u, NULL) : ENG_OK;
            if (rc)
                return rc;
        }
        *at = t;
        return ENG_OK;
    }
    return ENG_OK;
}

/* ---- decisions on the plan ---------------------------------------------- */

static int start(slurm_state *s, const pol_view *v, pol_out *out, const pol_job *j,
                 int32_t *free_units)
{
    int rc = ENG_OK;
    double e = v->now_s + j->estimate_s;
    if (s->plan_kind == PLAN_HOSTS) {
        rc = pol_profile_add(&s->prof, v->now_s, e, -j->units);
        for (size_t i = 0; rc == ENG_OK && i < s->n_named; i++)
            rc = pol_profile_add(&s->hp[s->named[i]], v->now_s, e, -s->named_units[i]);
        if (rc == ENG_OK)
            pol_out_start_on(out, j, s->named, s->n_named);
    } else if (s->plan_kind == PLAN_ISLANDS)
        rc = isl_start(s, v, out, j);
    else {
        rc = pol_profile_add(&s->prof, v->now_s, e, -j->units);
        if (rc == ENG_OK)
            pol_out_start(out, j);
    }
    if (rc)
        return rc;
    *free_units -= j->units;
    if (j->idx == s->pinned)
        s->pinned = -1;
    limits_start(s, j);
    return slurm_mf_start(&s->mf, j, v->now_s);
}

/* Can j start now, its whole window clear? (With islands or hosts, where:
 * start() then follows the placement found.) */
static bool fits_now(slurm_state *s, const pol_view *v, const pol_job *j, int32_t free_units)
{
    if (j->units > free_units)
        return false;
    if (s->plan_kind == PLAN_HOSTS)
        return hosts_place(s, v, j, v->now_s);
    if (s->plan_kind == PLAN_ISLANDS)
        return isl_fits_now(s, v, j);
    return earliest_closed(&s->prof, v->now_s, j->estimate_s, j->units) == v->now_s;
}

/* Plans j at its earliest start up to `until` and books its window; *at
 * = INFINITY if none. With islands: in the island where it can start
 * earliest (ties: the lowest), or spanning them when it is larger than
 * every island (isl_plan_span), so that nothing is planned where no
 * island can host it. */
static int plan(slurm_state *s, const pol_view *v, const pol_job *j, double until, bool whole,
                double *at)
{
    double b, e;
    *at = INFINITY;
    if (s->plan_kind == PLAN_HOSTS)
        return hosts_plan(s, v, j, until, whole, at);
    if (s->plan_kind == PLAN_COUNT) {
        double t = earliest_closed(&s->prof, v->now_s, j->estimate_s, j->units);
        if (!(t <= until))
            return ENG_OK;
        *at = t;
        window(s, v, j, t, whole, &b, &e);
        return book(&s->prof, b, e, j->units, NULL);
    }
    if (j->units > s->largest)
        return isl_plan_span(s, v, j, until, whole, at);
    int32_t best = -1;
    for (int32_t k = 0; k < s->n_isl; k++) {
        if (s->isl_units[k] < j->units)
            continue;
        double t = earliest_closed(&s->ip[k], v->now_s, j->estimate_s, j->units);
        if (t <= until && t < *at) {
            *at = t;
            best = k;
        }
    }
    if (best < 0)
        return ENG_OK;
    window(s, v, j, *at, whole, &b, &e);
    return book(&s->ip[best], b, e, j->units, NULL);
}

/* Reservations (pol_view.resv): each window books its hosts in the plan,
 * so that no job is started or planned over it (Slurm's backfill treats a
 * reservation's nodes as taken by it for its time). Per host (PLAN_HOSTS)
 * any window; counting units (PLAN_COUNT) only windows that hold the whole
 * pool, since a count cannot tell which hosts a job crossing a window may
 * take (ENG_USAGE otherwise). */
static int book_resv(slurm_state *s, const pol_view *v, pol_out *out)
{
    for (size_t r = 0; r < v->n_resv; r++) {
        const pol_resv *w = &v->resv[r];
        double b = fmax(w->start_s, v->now_s);
        if (s->plan_kind != PLAN_HOSTS && (size_t)w->n_pos != v->n_hosts)
            return pol_out_error(out, ENG_USAGE,
                                 "slurm plans reservations on some hosts only with one plan per "
                                 "host (--alloc core); one over [%g, %g) holds %d of its %zu "
                                 "hosts: use easy or fcfs",
                                 w->start_s, w->end_s, w->n_pos, v->n_hosts);
        int rc = pol_profile_add(&s->prof, b, w->end_s, -w->units);
        for (int32_t k = 0; rc == ENG_OK && s->plan_kind == PLAN_HOSTS && k < w->n_pos; k++)
            rc = pol_profile_add(&s->hp[w->pos[k]], b, w->end_s, -v->hosts[w->pos[k]].cores);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

/* ---- the schedulers ------------------------------------------------------ */

static int backfill(slurm_state *s, const pol_view *v, pol_out *out, size_t from, bool *started,
                    int32_t *free_units, bool pin_placed)
{
    s->n_passes++;
    s->dirty = false;
    s->next_bf_s = v->now_s + s->bf_interval_s;
    s->last_bf_s = v->now_s;
    int64_t tested = pin_placed ? 1 : 0;
    double until = v->now_s + s->bf_window_s;
    for (size_t k = from; k < v->n_queue && tested < s->bf_max_job_test; k++) {
        const pol_job *j = s->order[k].job;
        if (started[k] || j->idx == s->pinned || !limits_allow(s, j))
            continue;
        tested++;
        if (fits_now(s, v, j, *free_units)) {
            int rc = start(s, v, out, j, free_units);
            if (rc)
                return rc;
            started[k] = true;
            s->n_bf_starts++;
            continue;
        }
        bool pin = s->pinned < 0 && s->keep;
        double at;
        int rc = plan(s, v, j, until, pin, &at);
        if (rc)
            return rc;
        if (isfinite(at) && pin) {
            s->pinned = j->idx;
            if (!pol_predict_active(&s->pred))
                pol_out_promise(out, j, at);
        }
    }
    return ENG_OK;
}

/* The first multiple of step at or after now. */
static double grid_from(double now, double step)
{
    double k = ceil(now / step), t = k * step;
    if ((k - 1) * step >= now)
        return (k - 1) * step;
    return t < now ? (k + 1) * step : t;
}

/* 1. The queue in priority order (pol_slurm_prio.h); a calculation that
 * changes a priority calls for a pass. */
static int order_queue(slurm_state *s, const pol_view *v)
{
    if (eng_grow(&s->order, &s->cap_order, v->n_queue, sizeof *s->order))
        return ENG_NOMEM;
    bool changed;
    slurm_mf_order(&s->mf, v, s->order, &changed);
    s->dirty |= changed;
    return ENG_OK;
}

static int slurm_schedule(void *state, const pol_view *engine_view, pol_out *out)
{
    slurm_state *s = state;
    pol_view pv;
    const pol_view *v = &pv;
    bool corrected;
    if (pol_predict_view(&s->pred, engine_view, &pv, &corrected))
        return ENG_NOMEM;
    if (corrected)
        s->dirty = true; /* a job outlived its prediction: the plan changed */
    int rc = slurm_mf_update(&s->mf, v->now_s);
    if (rc)
        return rc;
    if (pol_predict_active(&s->pred))
        pol_out_wakeup(out, pol_predict_next_expiry(&s->pred));
    if (v->n_queue == 0)
        return ENG_OK;
    double calc = slurm_mf_next_calc(&s->mf);
    if (isfinite(calc))
        pol_out_wakeup(out, calc);
    if ((rc = order_queue(s, v)))
        return rc;
    if (s->limits)
        limits_tally(s, v);

    /* 2. The plan of the running jobs, and the kept reservation in it. */
    rc = s->plan_kind == PLAN_HOSTS     ? hosts_build(s, v)
         : s->plan_kind == PLAN_ISLANDS ? isl_build(s, v)
                                        : build_profile(s, v);
    if (rc == ENG_OK && v->n_resv) {
        if (pol_predict_active(&s->pred))
            return pol_out_error(out, ENG_USAGE,
                                 "a predictor does not plan around reservations yet");
        rc = book_resv(s, v, out);
    }
    if (rc)
        return rc;
    int32_t free_units = v->free_units;
    bool *started = calloc(v->n_queue, sizeof *started);
    if (!started)
        return ENG_NOMEM;
    bool pin_placed = false;
    const pol_job *pin = s->pinned >= 0 ? pol_queue_find(v, s->pinned) : NULL;
    if (!pin)
        s->pinned = -1;
    else if (fits_now(s, v, pin, free_units)) {
        for (size_t k = 0; k < v->n_queue; k++)
            if (s->order[k].job == pin)
                started[k] = true;
        rc = start(s, v, out, pin, &free_units);
    } else {
        double at;
        rc = plan(s, v, pin, INFINITY, true, &at);
        if (rc == ENG_OK && !isfinite(at))
            s->pinned = -1; /* hosts went down: no room until they return */
        pin_placed = s->pinned >= 0;
    }

    /* 3. Main scheduler: priority order until a job does not fit. */
    size_t k = 0;
    for (; rc == ENG_OK && k < v->n_queue; k++) {
        const pol_job *j = s->order[k].job;
        if (started[k] || (j->idx != s->pinned && !limits_allow(s, j)))
            continue; /* held by its user's limits: skipped, not waited for */
        if (j->idx == s->pinned || !fits_now(s, v, j, free_units))
            break; /* the rest of the partition stays pending behind it */
        rc = start(s, v, out, j, &free_units);
        started[k] = true;
    }

    /* 4. Backfill, when a pass is due and something happened since the
     * last one: at the next multiple of bf_interval (bf_timer=interval),
     * or now if bf_interval has passed since the last pass (event). Calls
     * at one instant are one pass time: a pass at the instant of the last
     * one is done again (the engine may apply the events of an instant
     * over several calls). */
    if (rc == ENG_OK && s->dirty) {
        double due = s->bf_grid ? grid_from(v->now_s, s->bf_interval_s) : s->next_bf_s;
        if (v->now_s >= due || v->now_s == s->last_bf_s)
            rc = backfill(s, v, out, k, started, &free_units, pin_placed);
        else
            pol_out_wakeup(out, due);
    }
    free(started);
    return rc;
}

static void slurm_report(void *state, char *buf, size_t len)
{
    slurm_state *s = state;
    snprintf(buf, len, "bf_passes=%llu bf_starts=%llu accounts=%zu",
             (unsigned long long)s->n_passes, (unsigned long long)s->n_bf_starts, s->mf.n_acct);
    size_t used = strlen(buf);
    if (s->limits && used < len)
        snprintf(buf + used, len - used, " limited=%llu", (unsigned long long)s->n_limited);
    pol_predict_report(&s->pred, buf, len);
}

const pol_type pol_slurm = {
    .name = "slurm",
    .summary = "Slurm's multifactor priority (age, fair-share, size, partition) with its main and "
               "backfill schedulers",
    .citation = "Yoo, Jette & Grondona 2003; SchedMD, slurm.conf(5), the multifactor priority "
                "plugin and Fair Tree documentation, Slurm 22.05",
    .flags = POL_FLAG_POWER_CAP | POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES |
             POL_FLAG_RESERVATIONS | POL_FLAG_TIME_LIMITS,
    .state_size = sizeof(slurm_state),
    .options = slurm_options,
    .init = slurm_init,
    .fini = slurm_fini,
    .on_submit = slurm_on_submit,
    .on_finish = slurm_on_finish,
    .on_capacity = slurm_on_capacity,
    .schedule = slurm_schedule,
    .report = slurm_report,
};
