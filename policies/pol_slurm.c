/* pol_slurm.c — Slurm's multifactor priority with its main and backfill
 * schedulers, as slurm.conf(5), the priority/multifactor page and the
 * scheduling configuration guide of the Slurm documentation describe them
 * (SchedMD; Slurm itself: Yoo, Jette & Grondona 2003). Option names are
 * slurm.conf's, written in lower case, and so are the defaults.
 *
 * Priority (recomputed at every call; higher first, ties by submit order):
 *
 *   floor(priority_weight_age       * age
 *       + priority_weight_fairshare * fair-share
 *       + priority_weight_jobsize   * job size
 *       + priority_weight_partition * partition)
 *
 * every factor in [0, 1]; weights are non-negative integers (default 0, as
 * in Slurm: with every weight 0 the order is the submit order).
 *   - age = min(waited, priority_max_age) / priority_max_age (default 7-0);
 *   - fair-share, Slurm's classic factor 2^(-U/S) in a flat tree: U is the
 *     account's decayed usage (unit-seconds of its running jobs, each
 *     second's worth halved every priority_decay_halflife, default 7-0; 0
 *     = no decay) over all accounts' usage (U = 0 while nobody has used
 *     anything); S its shares over the sum of shares. Accounts are users
 *     (SWF field 12) or with fairshare_by=group groups (field 13). Shares are
 *     equal unless `shares=FILE` gives lines `USER SHARES` (# comments);
 *     then an account without a line has no shares and a factor of 0;
 *   - job size = units / pool units, or (pool units - units) / pool units
 *     with priority_favor_small=yes;
 *   - partition = the job's SWF queue's factor over the largest one
 *     (partition_job_factor=Q:F,Q:F..., Slurm's per-partition
 *     PriorityJobFactor; a queue not listed has 1, so by default every job
 *     has 1).
 *
 * Main scheduler (every call, i.e. on every submit, end or wake-up): jobs in
 * priority order start while they fit; the first that does not stops it
 * (Slurm leaves the rest of a partition pending behind a pending job; a
 * policy instance serves one pool, our partition).
 *
 * Backfill (a pass at most every bf_interval seconds, default 30): a plan
 * (an availability profile, pol_profile) of the running jobs with their
 * ends rounded up to bf_resolution seconds (default 60); the first
 * bf_max_job_test (default 500) pending jobs in priority order are each
 * either started now, when they fit now for their whole length without
 * taking what a higher-priority job was planned, or given a planned start,
 * the earliest that fits, provided it lies within bf_window minutes
 * (default 1440); a job that cannot start within the window is not planned,
 * so lower-priority jobs may delay it. Planned ends are rounded to
 * bf_resolution too.
 *
 * Simplifications, each a choice where this model departs from Slurm:
 *   - reservations held: Slurm rebuilds its plan at every pass and promises
 *     nothing. Here the first job a pass plans (the highest-priority job
 *     left waiting) keeps its planned start as a promise until it starts:
 *     later main and backfill decisions, including those for jobs of
 *     higher priority submitted later, start a job only where the profile
 *     with that reservation in it has room. This is what lets --check hold
 *     the policy to its reservations (pol_out_promise); other planned
 *     starts are redone by every pass, as in Slurm. keep_reservation=no
 *     drops it (Slurm's behaviour, nothing promised): the ablation of this
 *     choice. Nothing more is promised, on purpose: every start a pass
 *     plans within bf_window holds against the lower-priority jobs of that
 *     pass only. The next pass plans anew in priority order, where a job
 *     of higher priority (submitted since, or risen by age or fair-share)
 *     goes first, and where even in a fixed order a job ahead that moves
 *     earlier after an early end can take the slot of one behind it and
 *     push it later (the rebuild-from-scratch effect of
 *     ../shared/reference/backfill.md, pitfall 7; test_pol_slurm.c has a
 *     case). Promising those starts would mean keeping every reservation
 *     and compressing them in place: conservative backfilling, not Slurm;
 *   - a pass runs only when a job was submitted or ended (or hosts changed,
 *     or a prediction grew) since the previous one: the plan of a pass
 *     without such an event could differ only through the slow drift of
 *     the age and fair-share factors. Calls at one instant are one pass
 *     time (a pass at the instant of the previous one is done again);
 *   - an account missing from a shares file has no shares (fair-share
 *     factor 0) where Slurm would refuse its jobs; the job size factor
 *     counts units (nodes, or cores under --alloc core) where Slurm's
 *     counts nodes or CPUs by its PriorityFlags; the age counts from
 *     submission (Slurm: from eligibility, the same here);
 *   - no sched_interval full pass, default_queue_depth or
 *     partition_job_depth limits, no bf_continue, bf_max_job_user, QOS,
 *     association limits, nice values, TRES weights or hierarchical
 *     (multi-level) fair-share; usage accrues continuously (Slurm adds it
 *     every PriorityCalcPeriod, 5 min) and counts units (nodes, or cores
 *     under --alloc core) rather than billed TRES; accounts enter the tree
 *     at their first job (equal shares: 1 / the accounts seen so far);
 *     priorities are recomputed at each call (Slurm every
 *     PriorityCalcPeriod).
 *
 * Islands (eng_policy.h; POL_FLAG_ISLANDS). Slurm's topology-aware
 * selection (TopologyPlugin=topology/tree with select/cons_tres) places a
 * job under the lowest switch that can hold it, best fit among its leaf
 * switches, and a job asking --switches=1 waits for one switch; its
 * backfill scheduler tests a pending job against the nodes free at each
 * future time, so a planned start always has nodes that satisfy the
 * topology. Here an island is such a switch and every job that fits in one
 * island asks for one (batchlab's --islands strict); a larger job spans.
 * The plan keeps one profile per island instead of one count (the nodes
 * of an island are interchangeable, so counts per island are all Slurm's
 * node bitmaps would add): a job starts now only where an island's plan
 * has its units for its whole planned length (the island with room that
 * has the fewest units free now: best fit; ties: the lowest island), a
 * reservation is planned in the island where the job can start earliest,
 * and a job larger than every island takes from each island what stays
 * free there. Starts name their hosts (pol_out_start_on), so the plan and
 * the engine agree island by island: a backfilled job goes to the island
 * the reservations leave room in, not where best fit by free units alone
 * would put it. The kept reservation is planned again at every call, so
 * it may move to another island, never later. Simplification: Slurm makes
 * a job wait for its switch count at most max-time of --switches (bounded
 * by SchedulerParameters=max_switch_wait, 300 s by default) and then
 * places it across switches; a job that fits in one island here always
 * waits for one (--islands ignore drops the constraint altogether).
 *
 * predictor=user2 plans with predicted run times (pol_predict.h); the
 * reservation is then kept as planned but not promised, since a running
 * job may outlive its prediction.
 *
 * Cost per call: O(a) to bring the accounts' usage up to date, O(q log q)
 * to order the queue, O(r) to build the profile from the running jobs
 * (already in end order), and per planned job an O(P) search and an O(P)
 * insertion in a profile of P breakpoints (at most bf_max_job_test jobs
 * per pass). With islands: O(hosts) more per call to build the islands'
 * profiles and per start to name hosts, and each test or plan is done in
 * every island (a job larger than every island: O(B x islands x P), B the
 * islands' breakpoints).
 */
#include "eng_policy.h"
#include "pol_predict.h"
#include "pol_profile.h"

#include "eng_error.h"
#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct slurm_acct {
    int64_t id;
    double usage;      /* decayed unit-seconds, as of usage_t */
    int64_t run_units; /* units of its jobs running now */
    double shares;
} slurm_acct;

typedef struct slurm_part {
    int64_t queue;
    double factor;
} slurm_part;

typedef struct slurm_prio {
    double prio;
    const pol_job *job;
} slurm_prio;

typedef struct slurm_state {
    /* options */
    double w_age, w_fs, w_js, w_part;
    double max_age_s, halflife_s;
    bool favor_small, by_group, shares_file, keep;
    double bf_interval_s, bf_window_s, bf_res_s;
    int64_t bf_max_job_test;
    slurm_part *parts;
    size_t n_parts;
    double part_max;
    /* fair-share accounts, sorted by id */
    slurm_acct *acct;
    size_t n_acct, cap_acct;
    double shares_sum;
    double usage_t;
    int32_t *counted; /* per job: units counted in its account's run_units */
    int32_t total_units;
    /* scheduling */
    double next_bf_s, last_bf_s;
    bool dirty;
    int32_t pinned; /* job holding the kept reservation, -1 if none */
    double pinned_by;
    pol_profile prof;
    slurm_prio *order;
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
    double *cand;
    size_t cap_cand;
} slurm_state;

static const pol_option slurm_options[] = {
    {.key = "priority_weight_age",
     .values = "0..4294967295",
     .def = "0",
     .help = "weight of the age factor"},
    {.key = "priority_max_age",
     .values = "a Slurm time: MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC, not 0",
     .def = "7-0",
     .help = "age of a full age factor"},
    {.key = "priority_weight_fairshare",
     .values = "0..4294967295",
     .def = "0",
     .help = "weight of the fair-share factor"},
    {.key = "priority_decay_halflife",
     .values = "a Slurm time: MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC",
     .def = "7-0",
     .help = "half-life of past usage, 0 = none"},
    {.key = "fairshare_by",
     .values = "user|group",
     .def = "user",
     .help = "fair-share accounts, SWF field 12 (user) or 13 (group)"},
    {.key = "shares",
     .values = "a file of 'USER SHARES' lines",
     .def = "(equal shares)",
     .help = "shares of the fair-share accounts"},
    {.key = "priority_weight_jobsize",
     .values = "0..4294967295",
     .def = "0",
     .help = "weight of the job size factor"},
    {.key = "priority_favor_small",
     .values = "yes|no",
     .def = "no",
     .help = "small jobs get the larger size factor"},
    {.key = "priority_weight_partition",
     .values = "0..4294967295",
     .def = "0",
     .help = "weight of the partition factor"},
    {.key = "partition_job_factor",
     .values = "Q:F,... (SWF queue Q, factor F >= 0)",
     .def = "(1 for every queue)",
     .help = "PriorityJobFactor of SWF queues"},
    {.key = "bf_interval",
     .values = "seconds > 0",
     .def = "30",
     .help = "time between backfill passes"},
    {.key = "bf_window",
     .values = "minutes > 0",
     .def = "1440",
     .help = "how far a backfill plan looks ahead"},
    {.key = "bf_resolution",
     .values = "seconds > 0",
     .def = "60",
     .help = "time resolution of backfill plans"},
    {.key = "bf_max_job_test",
     .values = "an integer >= 1",
     .def = "500",
     .help = "jobs a backfill pass plans"},
    {.key = "keep_reservation",
     .values = "yes|no",
     .def = "yes",
     .help =
         "the top waiting job keeps its planned start, promised (no = every plan redone each pass as Slurm does, nothing promised)"},
    POL_PREDICT_OPTION,
    {0},
};

/* ---- option parsing --------------------------------------------------- */

static int parse_weight(const pol_setup *setup, const char *key, double *out, char *err,
                        size_t errlen)
{
    const char *v = pol_option_get(setup, key, "0");
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno || x < 0 || x > 4294967295LL) {
        snprintf(err, errlen,
                 "option %s: expected a non-negative integer (at most 4294967295), "
                 "got '%s'",
                 key, v);
        return ENG_INVAL;
    }
    *out = (double)x;
    return ENG_OK;
}

static int parse_positive(const pol_setup *setup, const char *key, const char *def, double *out,
                          char *err, size_t errlen)
{
    const char *v = pol_option_get(setup, key, def);
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (end == v || *end || errno || !(x > 0) || !isfinite(x)) {
        snprintf(err, errlen, "option %s: expected a positive number, got '%s'", key, v);
        return ENG_INVAL;
    }
    *out = x;
    return ENG_OK;
}

/* Reads up to max non-negative integers separated by ':' into f[]; returns
 * how many, or -1. */
static int read_fields(const char *s, long f[], int max)
{
    int n = 0;
    for (;;) {
        if (n == max || *s < '0' || *s > '9')
            return -1;
        char *end;
        errno = 0;
        f[n++] = strtol(s, &end, 10);
        if (errno)
            return -1;
        if (*end == '\0')
            return n;
        if (*end != ':')
            return -1;
        s = end + 1;
    }
}

/* Slurm's time formats: "MIN", "MIN:SEC", "H:MIN:SEC", "D-H", "D-H:MIN",
 * "D-H:MIN:SEC". Returns seconds, or -1. */
static double slurm_time_s(const char *s)
{
    long f[3];
    const char *dash = strchr(s, '-');
    if (dash) {
        char *end;
        errno = 0;
        if (*s < '0' || *s > '9')
            return -1;
        long days = strtol(s, &end, 10);
        if (errno || end != dash)
            return -1;
        int n = read_fields(dash + 1, f, 3);
        if (n < 0)
            return -1;
        double h = (double)f[0], m = n > 1 ? (double)f[1] : 0, sec = n > 2 ? (double)f[2] : 0;
        return (double)days * 86400 + h * 3600 + m * 60 + sec;
    }
    int n = read_fields(s, f, 3);
    if (n == 1)
        return (double)f[0] * 60;
    if (n == 2)
        return (double)f[0] * 60 + (double)f[1];
    if (n == 3)
        return (double)f[0] * 3600 + (double)f[1] * 60 + (double)f[2];
    return -1;
}

static int parse_time(const pol_setup *setup, const char *key, double *out, bool zero_ok, char *err,
                      size_t errlen)
{
    const char *v = pol_option_get(setup, key, "7-0");
    double x = slurm_time_s(v);
    if (x < 0 || (!zero_ok && x == 0)) {
        snprintf(err, errlen,
                 "option %s: expected a %sSlurm time (MIN, MIN:SEC, H:MIN:SEC, "
                 "D-H, D-H:MIN or D-H:MIN:SEC), got '%s'",
                 key, zero_ok ? "" : "non-zero ", v);
        return ENG_INVAL;
    }
    *out = x;
    return ENG_OK;
}

static int parse_parts(slurm_state *s, const pol_setup *setup, char *err, size_t errlen)
{
    const char *v = pol_option_get(setup, "partition_job_factor", NULL);
    s->part_max = 1;
    if (!v)
        return ENG_OK;
    const char *p = v;
    while (*p) {
        char *end;
        errno = 0;
        long long q = strtoll(p, &end, 10);
        if (end == p || *end != ':' || errno)
            goto bad;
        p = end + 1;
        long long f = strtoll(p, &end, 10);
        if (end == p || errno || f < 0 || (*end && *end != ','))
            goto bad;
        if (eng_grow(&s->parts, &(size_t){s->n_parts}, s->n_parts + 1, sizeof *s->parts))
            return ENG_NOMEM;
        s->parts[s->n_parts++] = (slurm_part){.queue = q, .factor = (double)f};
        if ((double)f > s->part_max)
            s->part_max = (double)f;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            goto bad;
    }
    return ENG_OK;
bad:
    snprintf(err, errlen,
             "option partition_job_factor: expected QUEUE:FACTOR[,QUEUE:FACTOR...] "
             "with integers, FACTOR >= 0, got '%s'",
             v);
    return ENG_INVAL;
}

/* ---- accounts ---------------------------------------------------------- */

static size_t acct_pos(const slurm_state *s, int64_t id)
{
    size_t lo = 0, hi = s->n_acct;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->acct[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The account id, created (usage 0) if new; NULL on OOM. */
static slurm_acct *acct_get(slurm_state *s, int64_t id, double shares, bool *created)
{
    size_t k = acct_pos(s, id);
    *created = false;
    if (k < s->n_acct && s->acct[k].id == id)
        return &s->acct[k];
    if (eng_grow(&s->acct, &s->cap_acct, s->n_acct + 1, sizeof *s->acct))
        return NULL;
    memmove(s->acct + k + 1, s->acct + k, (s->n_acct - k) * sizeof *s->acct);
    s->acct[k] = (slurm_acct){.id = id, .shares = shares};
    s->n_acct++;
    *created = true;
    return &s->acct[k];
}

static slurm_acct *acct_find(const slurm_state *s, int64_t id)
{
    size_t k = acct_pos(s, id);
    return k < s->n_acct && s->acct[k].id == id ? &s->acct[k] : NULL;
}

static int64_t acct_id(const slurm_state *s, const pol_job *j)
{
    return s->by_group ? j->group : j->user;
}

/* Reads the shares file: one account per line, "USER SHARES". */
static int read_shares(slurm_state *s, const char *path, char *err, size_t errlen)
{
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_check_not_dir(path, "a file of 'USER SHARES' lines", &d) != ENG_OK) {
        snprintf(err, errlen, "option shares: %s", d.msg);
        return ENG_INVAL;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "option shares: cannot open '%s': %s", path, strerror(errno));
        return ENG_INVAL;
    }
    const char *what = s->by_group ? "group" : "user";
    int field = s->by_group ? 13 : 12;
    char line[512];
    long lineno = 0;
    int rc = ENG_OK;
    while (rc == ENG_OK && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char name[256], extra[2];
        long long shares;
        int n = sscanf(line, "%255s %lld %1s", name, &shares, extra);
        if (n <= 0)
            continue; /* blank or comment */
        char *end;
        errno = 0;
        long long id = strtoll(name, &end, 10);
        if (*end || errno || id < 0) {
            snprintf(err, errlen,
                     "%s:%ld: unknown %s '%s': expected its number in the log "
                     "(SWF field %d)",
                     path, lineno, what, name, field);
            rc = ENG_INVAL;
        } else if (n != 2 || shares < 0) {
            snprintf(err, errlen,
                     "%s:%ld: expected 'USER SHARES' with SHARES a non-negative "
                     "integer",
                     path, lineno);
            rc = ENG_INVAL;
        } else {
            bool created;
            slurm_acct *a = acct_get(s, id, (double)shares, &created);
            if (!a)
                rc = ENG_NOMEM;
            else if (!created) {
                snprintf(err, errlen, "%s:%ld: %s %lld listed twice", path, lineno, what, id);
                rc = ENG_INVAL;
            } else
                s->shares_sum += (double)shares;
        }
    }
    if (rc == ENG_OK && ferror(f)) {
        snprintf(err, errlen, "option shares: cannot read '%s'", path);
        rc = ENG_INVAL;
    }
    fclose(f);
    if (rc == ENG_OK && !(s->shares_sum > 0)) {
        snprintf(err, errlen, "%s: expected at least one account with shares > 0", path);
        rc = ENG_INVAL;
    }
    return rc;
}

/* Brings every account's usage from usage_t to now: usage decays by
 * d = 2^(-dt/H) and a job of u units running all along adds
 * u * H / ln 2 * (1 - d), the integral of its decayed seconds. */
static void usage_update(slurm_state *s, double now)
{
    double dt = now - s->usage_t;
    if (!(dt > 0))
        return;
    s->usage_t = now;
    double d = 1, acc = dt;
    if (s->halflife_s > 0) {
        d = exp2(-dt / s->halflife_s);
        acc = s->halflife_s / log(2.0) * (1 - d);
    }
    for (size_t k = 0; k < s->n_acct; k++) {
        slurm_acct *a = &s->acct[k];
        a->usage = a->usage * d + (double)a->run_units * acc;
    }
}

static int count_running(slurm_state *s, const pol_job *j, int32_t units)
{
    slurm_acct *a = acct_find(s, acct_id(s, j));
    if (!a)
        return ENG_INVARIANT;
    a->run_units += units - s->counted[j->idx];
    s->counted[j->idx] = units;
    return ENG_OK;
}

/* ---- lifecycle ---------------------------------------------------------- */

static void slurm_fini(void *state)
{
    slurm_state *s = state;
    free(s->parts);
    free(s->acct);
    free(s->counted);
    free(s->order);
    pol_profile_fini(&s->prof);
    pol_predict_fini(&s->pred);
    for (int32_t k = 0; s->ip && k < s->n_isl; k++)
        pol_profile_fini(&s->ip[k]);
    free(s->ip);
    free(s->isl_units);
    free(s->room);
    free(s->take);
    free(s->held);
    free(s->hfree);
    free(s->named);
    free(s->named_units);
    free(s->cand);
}

/* The per-island state of a pool with islands (setup->n_islands > 0). */
static int isl_init(slurm_state *s, const pol_setup *setup)
{
    size_t n = (size_t)setup->n_islands;
    s->n_isl = setup->n_islands;
    s->n_hosts = setup->n_hosts;
    s->isl_units = malloc(n * sizeof *s->isl_units);
    s->ip = calloc(n, sizeof *s->ip);
    s->room = malloc(n * sizeof *s->room);
    s->take = malloc(n * sizeof *s->take);
    s->held = malloc(n * sizeof *s->held);
    s->hfree = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof *s->hfree);
    s->named = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof *s->named);
    s->named_units = malloc((s->n_hosts ? s->n_hosts : 1) * sizeof *s->named_units);
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
    return ENG_OK;
}

static int slurm_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    slurm_state *s = state;
    int rc;
    s->pinned = -1;
    s->next_bf_s = s->last_bf_s = -INFINITY;
    s->total_units = setup->total_units;
    if ((rc = parse_weight(setup, "priority_weight_age", &s->w_age, err, errlen)) ||
        (rc = parse_weight(setup, "priority_weight_fairshare", &s->w_fs, err, errlen)) ||
        (rc = parse_weight(setup, "priority_weight_jobsize", &s->w_js, err, errlen)) ||
        (rc = parse_weight(setup, "priority_weight_partition", &s->w_part, err, errlen)) ||
        (rc = parse_time(setup, "priority_max_age", &s->max_age_s, false, err, errlen)) ||
        (rc = parse_time(setup, "priority_decay_halflife", &s->halflife_s, true, err, errlen)) ||
        (rc = parse_positive(setup, "bf_interval", "30", &s->bf_interval_s, err, errlen)) ||
        (rc = parse_positive(setup, "bf_window", "1440", &s->bf_window_s, err, errlen)) ||
        (rc = parse_positive(setup, "bf_resolution", "60", &s->bf_res_s, err, errlen)))
        return rc;
    s->bf_window_s *= 60;
    const char *v = pol_option_get(setup, "bf_max_job_test", "500");
    char *end;
    errno = 0;
    s->bf_max_job_test = strtoll(v, &end, 10);
    if (end == v || *end || errno || s->bf_max_job_test < 1) {
        snprintf(err, errlen, "option bf_max_job_test: expected an integer >= 1, got '%s'", v);
        return ENG_INVAL;
    }
    v = pol_option_get(setup, "priority_favor_small", "no");
    if (strcmp(v, "yes") && strcmp(v, "no")) {
        snprintf(err, errlen, "option priority_favor_small: expected yes or no, got '%s'", v);
        return ENG_INVAL;
    }
    s->favor_small = strcmp(v, "yes") == 0;
    v = pol_option_get(setup, "fairshare_by", "user");
    if (strcmp(v, "user") && strcmp(v, "group")) {
        snprintf(err, errlen, "option fairshare_by: expected user or group, got '%s'", v);
        return ENG_INVAL;
    }
    s->by_group = strcmp(v, "group") == 0;
    v = pol_option_get(setup, "keep_reservation", "yes");
    if (strcmp(v, "yes") && strcmp(v, "no")) {
        snprintf(err, errlen, "option keep_reservation: expected yes or no, got '%s'", v);
        return ENG_INVAL;
    }
    s->keep = strcmp(v, "yes") == 0;
    if ((rc = pol_predict_init(&s->pred, setup, err, errlen)))
        goto fail;
    if ((rc = parse_parts(s, setup, err, errlen)))
        goto fail;
    v = pol_option_get(setup, "shares", NULL);
    if (v) {
        s->shares_file = true;
        if ((rc = read_shares(s, v, err, errlen)))
            goto fail;
    }
    s->counted = calloc(setup->n_jobs ? setup->n_jobs : 1, sizeof *s->counted);
    if (!s->counted || pol_profile_init(&s->prof, setup->total_units, 0) ||
        (setup->n_islands > 0 && isl_init(s, setup))) {
        rc = ENG_NOMEM;
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    return ENG_OK;
fail:
    slurm_fini(s); /* the engine calls fini only after a successful init */
    return rc;
}

static int slurm_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    slurm_state *s = state;
    usage_update(s, v->now_s);
    s->dirty = true;
    if (s->counted[job->idx] && count_running(s, job, 0)) /* requeued while counted */
        return ENG_INVARIANT;
    bool created;
    if (!acct_get(s, acct_id(s, job), s->shares_file ? 0 : 1, &created))
        return ENG_NOMEM;
    if (created && !s->shares_file)
        s->shares_sum += 1;
    return pol_predict_submit(&s->pred, job);
}

static int slurm_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    slurm_state *s = state;
    usage_update(s, v->now_s);
    s->dirty = true;
    if (s->counted[job->idx] && count_running(s, job, 0))
        return ENG_INVARIANT;
    if (job->idx == s->pinned)
        s->pinned = -1;
    return pol_predict_finish(&s->pred, job, v->now_s);
}

static int slurm_on_capacity(void *state, const pol_view *v)
{
    slurm_state *s = state;
    usage_update(s, v->now_s);
    s->dirty = true;
    return ENG_OK;
}

/* ---- priority ----------------------------------------------------------- */

static double part_factor(const slurm_state *s, const pol_job *j)
{
    for (size_t k = 0; k < s->n_parts; k++)
        if (s->parts[k].queue == j->queue)
            return s->parts[k].factor / s->part_max;
    return 1 / s->part_max;
}

static double fairshare_factor(const slurm_state *s, const pol_job *j, double total_usage)
{
    const slurm_acct *a = acct_find(s, acct_id(s, j));
    if (!a || !(a->shares > 0))
        return 0;
    double u = total_usage > 0 ? a->usage / total_usage : 0;
    return exp2(-u / (a->shares / s->shares_sum));
}

static double priority(const slurm_state *s, const pol_job *j, double now, double total_usage)
{
    double age = now - j->submit_s;
    if (age > s->max_age_s)
        age = s->max_age_s;
    if (age < 0)
        age = 0;
    double units = j->units, total = s->total_units;
    double size = s->favor_small ? (total - units) / total : units / total;
    double p = s->w_age * (age / s->max_age_s) + s->w_js * size + s->w_part * part_factor(s, j);
    if (s->w_fs > 0)
        p += s->w_fs * fairshare_factor(s, j, total_usage);
    return floor(p);
}

static int by_priority(const void *a, const void *b)
{
    const slurm_prio *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio > y->prio ? -1 : 1;
    return (x->job->idx > y->job->idx) - (x->job->idx < y->job->idx);
}

/* ---- the plan ----------------------------------------------------------- */

static double round_up(const slurm_state *s, double t)
{
    return ceil(t / s->bf_res_s) * s->bf_res_s;
}

/* The planned end of something of length dur starting at t. */
static double planned_end(const slurm_state *s, double t, double dur, double now)
{
    double e = round_up(s, t + dur);
    if (e > now && e > t)
        return e;
    e = round_up(s, t > now ? t : now); /* nothing ends at or before where it is */
    return e > t && e > now ? e : e + s->bf_res_s;
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

/* The profile of the running jobs (units free now, each job's units back
 * at its planned end; hosts that are down stay taken). O(r): the running
 * jobs come in expected-end order and rounding keeps it. */
static int build_profile(slurm_state *s, const pol_view *v)
{
    pol_profile *p = &s->prof;
    p->total = v->total_units;
    p->n = 0;
    if (push_point(p, v->now_s, v->free_units))
        return ENG_NOMEM;
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        double e = planned_end(s, j->start_s, j->expected_end_s - j->start_s, v->now_s);
        if (e == p->t[p->n - 1])
            p->free[p->n - 1] += j->units;
        else if (push_point(p, e, p->free[p->n - 1] + j->units))
            return ENG_NOMEM;
    }
    return ENG_OK;
}

/* ---- the plan with islands ------------------------------------------------
 *
 * One profile per island, built as the count profile is: the island's free
 * units now, each running job's units in it back at its planned end. A
 * placement is a set of hosts named to the engine; hfree follows this
 * call's starts host by host. */

static int isl_build(slurm_state *s, const pol_view *v)
{
    for (int32_t k = 0; k < s->n_isl; k++) {
        pol_profile *p = &s->ip[k];
        p->total = s->isl_units[k];
        p->n = 0;
        if (push_point(p, v->now_s, v->island_free[k]))
            return ENG_NOMEM;
    }
    for (size_t h = 0; h < v->n_hosts; h++) {
        const pol_host *ph = &v->hosts[h];
        s->hfree[h] = !ph->up                      ? 0
                      : v->alloc == POL_ALLOC_CORE ? ph->free_cores
                                                   : ph->free_cores == ph->cores;
    }
    for (size_t r = 0; r < v->n_running; r++) {
        const pol_job *j = v->running[r];
        double e = planned_end(s, j->start_s, j->expected_end_s - j->start_s, v->now_s);
        memset(s->held, 0, (size_t)s->n_isl * sizeof *s->held);
        pol_island_held(v, j, s->held);
        for (int32_t k = 0; k < s->n_isl; k++) {
            pol_profile *p = &s->ip[k];
            size_t last = p->n - 1;
            int rc = ENG_OK;
            if (!s->held[k])
                continue;
            if (e == p->t[last])
                p->free[last] += s->held[k];
            else if (e > p->t[last])
                rc = push_point(p, e, p->free[last] + s->held[k]);
            else
                rc = pol_profile_add(p, e, INFINITY, s->held[k]);
            if (rc)
                return rc;
        }
    }
    return ENG_OK;
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

/* Can j start now, for its whole planned length, where the islands' plans
 * have room? A job no larger than the largest island goes to the island
 * with room that has the fewest units free now (best fit, as Slurm's
 * topology-aware selection; ties: the lowest island), a larger one takes
 * from every island what stays free there over its length. On true, the
 * rooms are in room[] for isl_start(). O(islands x (log P + segments)). */
static bool isl_fits_now(slurm_state *s, const pol_view *v, const pol_job *j)
{
    double e = planned_end(s, v->now_s, j->estimate_s, v->now_s);
    int32_t best = -1, best_free = 0;
    int64_t sum = 0;
    for (int32_t k = 0; k < s->n_isl; k++) {
        int32_t least, most;
        pol_profile_minmax_over(&s->ip[k], v->now_s, e, &least, &most);
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
    double e = planned_end(s, v->now_s, j->estimate_s, v->now_s);
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

static int start(slurm_state *s, const pol_view *v, pol_out *out, const pol_job *j,
                 int32_t *free_units)
{
    int rc = s->n_isl
                 ? isl_start(s, v, out, j)
                 : pol_profile_add(&s->prof, v->now_s,
                                   planned_end(s, v->now_s, j->estimate_s, v->now_s), -j->units);
    if (rc)
        return rc;
    if (!s->n_isl)
        pol_out_start(out, j);
    *free_units -= j->units;
    if (j->idx == s->pinned)
        s->pinned = -1;
    return count_running(s, j, j->units);
}

/* Can j start now for its whole planned length? With islands, where an
 * island's plan has room (isl_fits_now; start() then follows it). */
static bool fits_now(slurm_state *s, const pol_view *v, const pol_job *j, int32_t free_units)
{
    if (j->units > free_units)
        return false;
    if (s->n_isl)
        return isl_fits_now(s, v, j);
    double dur = planned_end(s, v->now_s, j->estimate_s, v->now_s) - v->now_s;
    return pol_profile_earliest(&s->prof, v->now_s, dur, j->units) == v->now_s;
}

/* The earliest start of j in profile p before `until`, INFINITY if none.
 * The job holds its units up to its planned end (rounded up to
 * bf_resolution), which depends on the start: search again from each
 * candidate with the length rounded there until it holds (candidates only
 * grow, over breakpoints). */
static double earliest_in(const slurm_state *s, const pol_profile *p, const pol_view *v,
                          const pol_job *j, double until)
{
    pol_profile_cursor c = pol_profile_cursor_start(p);
    double d0 = j->estimate_s > 0 ? j->estimate_s : s->bf_res_s;
    double t = pol_profile_earliest_resume(p, &c, d0, j->units, until);
    while (isfinite(t) && t < until) {
        double e = planned_end(s, t, j->estimate_s, v->now_s);
        double t2 = pol_profile_earliest(p, t, e - t, j->units);
        if (t2 == t)
            return t;
        t = t2;
    }
    return INFINITY;
}

/* Plans j, larger than every island, at the earliest time before `until`
 * at which the islands together keep its units free over its planned
 * length, taking from the islands in turn what stays free there: now or a
 * breakpoint of some island's plan (a window that fits can slide back to
 * one). O(B x islands x P), B the islands' breakpoints. */
static int isl_plan_span(slurm_state *s, const pol_view *v, const pol_job *j, double until,
                         double *at)
{
    size_t n;
    if (pol_profile_breaks(s->ip, s->n_isl, v->now_s, until, &s->cand, &s->cap_cand, &n))
        return ENG_NOMEM;
    for (size_t c = 0; c < n; c++) {
        double t = s->cand[c];
        if ((c > 0 && t == s->cand[c - 1]) || !(t < until))
            continue;
        double e = planned_end(s, t, j->estimate_s, v->now_s);
        int64_t sum = 0;
        for (int32_t k = 0; k < s->n_isl; k++) {
            int32_t most;
            pol_profile_minmax_over(&s->ip[k], t, e, &s->room[k], &most);
            sum += s->room[k];
        }
        if (sum < j->units)
            continue;
        int32_t left = j->units;
        for (int32_t k = 0; k < s->n_isl && left > 0; k++) {
            int32_t u = s->room[k] < left ? s->room[k] : left;
            left -= u;
            int rc = u ? pol_profile_add(&s->ip[k], t, e, -u) : ENG_OK;
            if (rc)
                return rc;
        }
        *at = t;
        return ENG_OK;
    }
    return ENG_OK;
}

/* Plans j at its earliest start before `until` and holds its units there
 * in the plan; *at = INFINITY if none. With islands: in the island where
 * it can start earliest (ties: the lowest), or spanning them when it is
 * larger than every island (isl_plan_span), so that nothing is planned
 * where no island can host it. */
static int plan(slurm_state *s, const pol_view *v, const pol_job *j, double until, double *at)
{
    *at = INFINITY;
    if (!s->n_isl) {
        *at = earliest_in(s, &s->prof, v, j, until);
        return isfinite(*at)
                   ? pol_profile_add(&s->prof, *at, planned_end(s, *at, j->estimate_s, v->now_s),
                                     -j->units)
                   : ENG_OK;
    }
    if (j->units > s->largest)
        return isl_plan_span(s, v, j, until, at);
    int32_t best = -1;
    for (int32_t k = 0; k < s->n_isl; k++) {
        if (s->isl_units[k] < j->units)
            continue;
        double t = earliest_in(s, &s->ip[k], v, j, until);
        if (t < *at) {
            *at = t;
            best = k;
        }
    }
    if (best < 0)
        return ENG_OK;
    return pol_profile_add(&s->ip[best], *at, planned_end(s, *at, j->estimate_s, v->now_s),
                           -j->units);
}

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
        if (started[k] || j->idx == s->pinned)
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
        double at;
        int rc = plan(s, v, j, until, &at);
        if (rc)
            return rc;
        if (isfinite(at) && s->pinned < 0 && s->keep) {
            s->pinned = j->idx;
            s->pinned_by = at;
            if (!pol_predict_active(&s->pred))
                pol_out_promise(out, j, at);
        }
    }
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
    usage_update(s, v->now_s);
    if (pol_predict_active(&s->pred))
        pol_out_wakeup(out, pol_predict_next_expiry(&s->pred));
    if (v->n_queue == 0)
        return ENG_OK;

    /* 1. Priority order. */
    if (eng_grow(&s->order, &s->cap_order, v->n_queue, sizeof *s->order))
        return ENG_NOMEM;
    double total_usage = 0;
    for (size_t k = 0; k < s->n_acct; k++)
        total_usage += s->acct[k].usage;
    for (size_t q = 0; q < v->n_queue; q++)
        s->order[q] = (slurm_prio){.prio = priority(s, v->queue[q], v->now_s, total_usage),
                                   .job = v->queue[q]};
    qsort(s->order, v->n_queue, sizeof *s->order, by_priority);

    /* 2. The plan of the running jobs, and the kept reservation in it. */
    int rc = s->n_isl ? isl_build(s, v) : build_profile(s, v);
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
    else if (s->n_isl ? fits_now(s, v, pin, free_units) : pin->units <= free_units) {
        for (size_t k = 0; k < v->n_queue; k++)
            if (s->order[k].job == pin)
                started[k] = true;
        rc = start(s, v, out, pin, &free_units);
    } else {
        double at;
        rc = plan(s, v, pin, INFINITY, &at);
        if (rc == ENG_OK && !isfinite(at))
            s->pinned = -1; /* hosts went down: no room until they return */
        pin_placed = s->pinned >= 0;
    }

    /* 3. Main scheduler: priority order until a job does not fit. */
    size_t k = 0;
    for (; rc == ENG_OK && k < v->n_queue; k++) {
        const pol_job *j = s->order[k].job;
        if (started[k])
            continue;
        if (j->idx == s->pinned || !fits_now(s, v, j, free_units))
            break; /* the rest of the partition stays pending behind it */
        rc = start(s, v, out, j, &free_units);
        started[k] = true;
    }

    /* 4. Backfill, when a pass is due and something happened since the
     * last one. Calls at one instant are one pass time: a pass at the
     * instant of the last one is done again (the engine may apply the
     * events of an instant over several calls). */
    if (rc == ENG_OK && s->dirty) {
        if (v->now_s >= s->next_bf_s || v->now_s == s->last_bf_s)
            rc = backfill(s, v, out, k, started, &free_units, pin_placed);
        else
            pol_out_wakeup(out, s->next_bf_s);
    }
    free(started);
    return rc;
}

static void slurm_report(void *state, char *buf, size_t len)
{
    slurm_state *s = state;
    snprintf(buf, len, "bf_passes=%llu bf_starts=%llu accounts=%zu",
             (unsigned long long)s->n_passes, (unsigned long long)s->n_bf_starts, s->n_acct);
    pol_predict_report(&s->pred, buf, len);
}

const pol_type pol_slurm = {
    .name = "slurm",
    .summary = "Slurm's multifactor priority (age, fair-share, size, partition) with its main and "
               "backfill schedulers",
    .citation = "Yoo, Jette & Grondona 2003; SchedMD, slurm.conf(5) and the multifactor "
                "priority plugin documentation",
    .flags = POL_FLAG_ISLANDS,
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
