/* pol_slurm_prio.c — Slurm's multifactor priority, as Slurm 22.05 computes
 * it by default, for the slurm policy (pol_slurm.c, which orders its
 * queue by it and schedules): slurm.conf(5), the priority/multifactor,
 * classic fair-share and Fair Tree pages of the Slurm documentation
 * (SchedMD) and the priority plugin's source (priority_multifactor.c,
 * fair_tree.c), held to a real Slurm 22.05 by
 * tests/data/slurm-ground-truth through tests/test_pol_slurm.c (Slurm
 * itself: Yoo, Jette & Grondona 2003). The contract is pol_slurm_prio.h;
 * this file calls nothing of pol_slurm.c.
 *
 * Priority (higher first, ties by submit order):
 *
 *   max(1, floor(priority_weight_age       * age
 *              + priority_weight_fairshare * fair-share
 *              + priority_weight_jobsize   * job size
 *              + priority_weight_partition * partition))
 *
 * every factor in [0, 1]; weights are non-negative integers (default 0, as
 * in Slurm: with every weight 0 the order is the submit order).
 *   - age = min(waited, priority_max_age) / priority_max_age (default 7-0);
 *   - fair-share, per account: users (SWF field 12) or with
 *     fairshare_by=group groups (field 13), each an account under the root
 *     holding one user. Shares are equal unless `shares=FILE` gives lines
 *     `USER SHARES` (# comments); then an account without a line has none.
 *     Usage is unit-seconds, decayed with priority_decay_halflife (default
 *     7-0; 0 = none). Fair Tree (the default, as since Slurm 19.05;
 *     fair_tree.html): each account's level fair-share S / U (its share of
 *     the shares over its share of the usage; infinite without usage, 0
 *     without shares) ranks the accounts, and the factor is rank / accounts
 *     (the highest n / n = 1; equal levels share the rank of the first).
 *     priority_flags=no_fair_tree: the classic factor 2^(-U/S), 0 without
 *     shares;
 *   - job size = units / pool units, or (pool units - units) / pool units
 *     with priority_favor_small=yes;
 *   - partition = the job's SWF queue's factor over the largest one
 *     (partition_job_factor=Q:F,Q:F..., Slurm's per-partition
 *     PriorityJobFactor; a queue not listed has 1).
 *
 * When priorities change (rule (d)). Slurm's decay thread runs every
 * priority_calc_period (default 5 min, at priority_calc_phase + k periods:
 * Slurm's follow slurmctld's start, which a log does not record): the usage
 * decays by D^dt, D = 1 - 0.693 / half-life per second
 * (priority_multifactor.c), and each running job is charged its units
 * times its run seconds dt since the last calculation, times D^dt; then
 * every pending job's priority is calculated anew, at that time. A job's
 * priority is otherwise the one calculated at its submission. Classic
 * fair-share takes the accounts' usage as it stood before the calculation
 * charged it (Slurm sets the accounts' effective usage first), Fair Tree
 * after. The rest of a job's usage, since the last calculation, is charged
 * at its end only with accounting_storage_enforce=limits (or safe, all):
 * Slurm's job end reaches the priority plugin through its limit accounting
 * (acct_policy.c). priority_calc_period=0 is the earlier model, kept as an
 * option: usage charged continuously (2^(-dt/H) exactly) and every
 * priority calculated at every decision.
 *
 * Invariant: the accounts are sorted by id, and every running job's units
 * are counted once, in its account (runs / run_pos), from its start to
 * its stop.
 *
 * Cost per call: O(a + r) to bring usage up to date (a accounts, r running
 * jobs; per priority calculation passed, one step for a stretch with
 * nothing running), O(a log a) to rank Fair Tree's accounts, O(q log q) to
 * order the queue.
 */
#include "pol_slurm_prio.h"

#include "eng_error.h"
#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* partition_job_factor's pairs, and the largest factor (at least 1). */
static int read_parts(slurm_mf *s, const pol_setup *setup)
{
    s->part_max = 1;
    size_t n = pol_opt_pairs(setup, "partition_job_factor", NULL, 0);
    if (n == 0)
        return ENG_OK;
    pol_opt_pair *pairs = malloc(n * sizeof *pairs);
    s->parts = malloc(n * sizeof *s->parts);
    if (!pairs || !s->parts) {
        free(pairs);
        return ENG_NOMEM;
    }
    pol_opt_pairs(setup, "partition_job_factor", pairs, n);
    for (size_t k = 0; k < n; k++) {
        s->parts[k] = (slurm_part){.queue = pairs[k].a, .factor = (double)pairs[k].b};
        if (s->parts[k].factor > s->part_max)
            s->part_max = s->parts[k].factor;
    }
    s->n_parts = n;
    free(pairs);
    return ENG_OK;
}

/* ---- accounts ---------------------------------------------------------- */

static size_t acct_pos(const slurm_mf *s, int64_t id)
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
static slurm_acct *acct_get(slurm_mf *s, int64_t id, double shares, bool *created)
{
    size_t k = acct_pos(s, id);
    *created = false;
    if (k < s->n_acct && s->acct[k].id == id)
        return &s->acct[k];
    if (eng_grow(&s->acct, &s->cap_acct, s->n_acct + 1, sizeof *s->acct))
        return NULL;
    memmove(s->acct + k + 1, s->acct + k, (s->n_acct - k) * sizeof *s->acct);
    s->acct[k] = (slurm_acct){.id = id, .shares = shares, .level_fs = shares > 0 ? INFINITY : 0};
    s->n_acct++;
    *created = true;
    return &s->acct[k];
}

static slurm_acct *acct_find(const slurm_mf *s, int64_t id)
{
    size_t k = acct_pos(s, id);
    return k < s->n_acct && s->acct[k].id == id ? &s->acct[k] : NULL;
}

static int64_t acct_id(const slurm_mf *s, const pol_job *j)
{
    return s->by_group ? j->group : j->user;
}

/* Reads the shares file: one account per line, "USER SHARES". */
static int read_shares(slurm_mf *s, const char *path, char *err, size_t errlen)
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
        char name[256], number[256], extra[2];
        int n = sscanf(line, "%255s %255s %1s", name, number, extra);
        if (n <= 0)
            continue; /* blank or comment */
        int64_t id, shares;
        if (!pol_parse_int(name, &id) || id < 0) {
            snprintf(err, errlen,
                     "%s:%ld: unknown %s '%s': expected its number in the log "
                     "(SWF field %d)",
                     path, lineno, what, name, field);
            rc = ENG_INVAL;
        } else if (n != 2 || !pol_parse_int(number, &shares) || shares < 0) {
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
                snprintf(err, errlen, "%s:%ld: %s %lld listed twice", path, lineno, what,
                         (long long)id);
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

/* ---- usage ---------------------------------------------------------------
 *
 * Usage is charged to the accounts of the running jobs, whose start, units
 * and account are kept here (runs), so that usage can be brought forward
 * at any later call: between two calls no job starts or ends. */

/* priority_calc_period=0: brings every account's usage from usage_t to
 * now: usage decays by d = 2^(-dt/H) and a job of u units running all
 * along adds u * H / ln 2 * (1 - d), the integral of its decayed seconds. */
static void usage_update(slurm_mf *s, double now)
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

/* Slurm's decay over dt seconds: its factor per second, 1 - 0.693 / H
 * (priority_multifactor.c's rounding of ln 2), to the power dt. */
static double decay_over(const slurm_mf *s, double dt)
{
    return s->halflife_s > 0 ? pow(s->decay_per_s, dt) : 1;
}

/* Charges running job idx from the later of its start and the last
 * calculation to t, as Slurm's decay thread and job end do: its run
 * seconds dt times its units, decayed as a whole by D^dt. */
static void charge(slurm_mf *s, int32_t idx, double t)
{
    double from = s->run_start[idx] > s->last_calc_s ? s->run_start[idx] : s->last_calc_s;
    double dt = t - from;
    slurm_acct *a = acct_find(s, s->run_acct[idx]);
    if (a && dt > 0)
        a->usage += (double)s->counted[idx] * dt * decay_over(s, dt);
}

/* Fair Tree's level fair-share of every account from its usage now: its
 * shares over all shares (S) against its usage over all usage (U), S / U;
 * infinite without usage, 0 without shares. */
static void set_level_fs(slurm_mf *s)
{
    double total = 0;
    for (size_t k = 0; k < s->n_acct; k++)
        total += s->acct[k].usage;
    for (size_t k = 0; k < s->n_acct; k++) {
        slurm_acct *a = &s->acct[k];
        double S = s->shares_sum > 0 ? a->shares / s->shares_sum : 0;
        double U = total > 0 ? a->usage / total : 0;
        a->level_fs = S == 0 ? 0 : U == 0 ? INFINITY : S / U;
    }
}

static int by_level_fs(const void *a, const void *b)
{
    const slurm_rank *x = a, *y = b;
    if (x->level_fs != y->level_fs)
        return x->level_fs > y->level_fs ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Fair Tree's factors from the level fair-shares (fair_tree.html): the
 * accounts in descending order get ranks n, n-1, ... 1 (equal levels: the
 * same rank, that of the first of them), and a factor of rank / n. */
static int rank_accounts(slurm_mf *s)
{
    if (eng_grow(&s->ranks, &s->cap_ranks, s->n_acct ? s->n_acct : 1, sizeof *s->ranks))
        return ENG_NOMEM;
    for (size_t k = 0; k < s->n_acct; k++)
        s->ranks[k] = (slurm_rank){.level_fs = s->acct[k].level_fs, .pos = k};
    qsort(s->ranks, s->n_acct, sizeof *s->ranks, by_level_fs);
    size_t rank = s->n_acct, left = s->n_acct;
    for (size_t i = 0; i < s->n_acct; i++, left--) {
        if (i == 0 || s->ranks[i].level_fs != s->ranks[i - 1].level_fs)
            rank = left;
        s->acct[s->ranks[i].pos].fs_tree = (double)rank / (double)s->n_acct;
    }
    return ENG_OK;
}

/* One priority calculation at t (Slurm's decay thread, every
 * PriorityCalcPeriod): classic fair-share takes each account's share of
 * the usage as it stands before the calculation (priority_multifactor.c
 * sets the accounts' effective usage first), then the usage decays and the
 * running jobs are charged up to t; Fair Tree ranks the accounts after
 * the charge. The queue's priorities follow at the next call. */
static int calc_at(slurm_mf *s, double t)
{
    if (!s->fair_tree) {
        double total = 0;
        for (size_t k = 0; k < s->n_acct; k++)
            total += s->acct[k].usage;
        for (size_t k = 0; k < s->n_acct; k++) {
            double u = total > 0 ? s->acct[k].usage / total : 0;
            s->acct[k].u_snap = u < 1 ? u : 1;
        }
    }
    double d = decay_over(s, t - s->last_calc_s);
    for (size_t k = 0; k < s->n_acct; k++)
        s->acct[k].usage *= d;
    for (size_t r = 0; r < s->n_runs; r++)
        charge(s, s->runs[r], t);
    s->last_calc_s = t;
    s->recalc = true;
    if (!s->fair_tree)
        return ENG_OK;
    set_level_fs(s);
    return rank_accounts(s);
}

/* The time of calculation k. */
static double calc_time(const slurm_mf *s, int64_t k)
{
    return s->calc_phase_s + (double)k * s->calc_s;
}

/* Brings usage and the priority calculations up to now: with
 * priority_calc_period > 0, every calculation due at a multiple of the
 * period up to now (an idle stretch, with no job running, in one step: the
 * shares of the usage do not change there). */
static int usage_until(slurm_mf *s, double now)
{
    if (!(s->calc_s > 0)) {
        usage_update(s, now);
        return ENG_OK;
    }
    for (;;) {
        double t = calc_time(s, s->calc_k);
        if (t > now)
            return ENG_OK;
        if (s->n_runs == 0) {
            int64_t last = (int64_t)floor((now - s->calc_phase_s) / s->calc_s);
            if (calc_time(s, last) > now)
                last--;
            if (last > s->calc_k)
                s->calc_k = last; /* the calculations between change nothing but the decay */
            t = calc_time(s, s->calc_k);
        }
        int rc = calc_at(s, t);
        if (rc)
            return rc;
        s->calc_k++;
    }
}

/* Counts job j as running from now, in its account. */
static int run_begin(slurm_mf *s, const pol_job *j, double now)
{
    slurm_acct *a = acct_find(s, acct_id(s, j));
    if (!a || s->counted[j->idx])
        return ENG_INVARIANT;
    a->run_units += j->units;
    s->counted[j->idx] = j->units;
    s->run_start[j->idx] = now;
    s->run_acct[j->idx] = a->id;
    s->run_pos[j->idx] = (int32_t)s->n_runs;
    s->runs[s->n_runs++] = j->idx;
    return ENG_OK;
}

/* Job idx stops running at now (it ended, or was queued again). With
 * priority_calc_period > 0 the rest of its usage, since the last
 * calculation, is charged now only with accounting_storage_enforce=limits:
 * Slurm calls the priority plugin's job end from its limit accounting
 * (acct_policy.c), which runs only when limits are enforced. */
static void run_end(slurm_mf *s, int32_t idx, double now)
{
    if (!s->counted[idx])
        return;
    if (s->calc_s > 0 && s->charge_at_end)
        charge(s, idx, now);
    slurm_acct *a = acct_find(s, s->run_acct[idx]);
    if (a)
        a->run_units -= s->counted[idx];
    int32_t pos = s->run_pos[idx], last = s->runs[--s->n_runs];
    s->runs[pos] = last;
    s->run_pos[last] = pos;
    s->counted[idx] = 0;
}

/* ---- priority ----------------------------------------------------------- */

static double part_factor(const slurm_mf *s, const pol_job *j)
{
    for (size_t k = 0; k < s->n_parts; k++)
        if (s->parts[k].queue == j->queue)
            return s->parts[k].factor / s->part_max;
    return 1 / s->part_max;
}

/* The fair-share factor of j's account: Fair Tree's rank / accounts, or
 * the classic 2^(-U/S) (U its share of the usage, as of the last
 * calculation with priority_calc_period > 0, else now; S its share of the
 * shares; 0 without shares). */
static double fairshare_factor(const slurm_mf *s, const pol_job *j, double total_usage)
{
    const slurm_acct *a = acct_find(s, acct_id(s, j));
    if (!a)
        return 0;
    if (s->fair_tree)
        return a->fs_tree;
    if (!(a->shares > 0))
        return 0;
    double u = s->calc_s > 0 ? a->u_snap : total_usage > 0 ? a->usage / total_usage : 0;
    return exp2(-u / (a->shares / s->shares_sum));
}

/* j's priority at time t: the weighted factors' sum, rounded down; at
 * least 1, as Slurm keeps 0 for held jobs. */
static double priority_at(const slurm_mf *s, const pol_job *j, double t, double total_usage)
{
    double age = t - j->submit_s;
    if (age > s->max_age_s)
        age = s->max_age_s;
    if (age < 0)
        age = 0;
    double units = j->units, total = s->total_units;
    double size = s->favor_small ? (total - units) / total : units / total;
    double p = s->w_age * (age / s->max_age_s) + s->w_js * size + s->w_part * part_factor(s, j);
    if (s->w_fs > 0)
        p += s->w_fs * fairshare_factor(s, j, total_usage);
    p = floor(p);
    return p < 1 ? 1 : p;
}

static int by_priority(const void *a, const void *b)
{
    const slurm_order *x = a, *y = b;
    if (x->prio != y->prio)
        return x->prio > y->prio ? -1 : 1;
    return (x->job->idx > y->job->idx) - (x->job->idx < y->job->idx);
}

/* ---- the interface -------------------------------------------------- */

void slurm_mf_fini(slurm_mf *s)
{
    free(s->parts);
    free(s->acct);
    free(s->ranks);
    free(s->counted);
    free(s->run_start);
    free(s->run_acct);
    free(s->runs);
    free(s->run_pos);
    free(s->prio);
    memset(s, 0, sizeof *s);
}

/* The options, read typed (checked by the engine before init). */
static void read_options(slurm_mf *s, const pol_setup *setup)
{
    s->w_age = (double)pol_opt_int(setup, "priority_weight_age");
    s->w_fs = (double)pol_opt_int(setup, "priority_weight_fairshare");
    s->w_js = (double)pol_opt_int(setup, "priority_weight_jobsize");
    s->w_part = (double)pol_opt_int(setup, "priority_weight_partition");
    s->max_age_s = pol_opt_real(setup, "priority_max_age");
    s->halflife_s = pol_opt_real(setup, "priority_decay_halflife");
    s->calc_s = pol_opt_real(setup, "priority_calc_period");
    s->fair_tree = !(pol_opt_words(setup, "priority_flags") & 1); /* no_fair_tree */
    /* limits, or safe or all, which imply it (the words' bits 1, 3, 7) */
    s->charge_at_end = pol_opt_words(setup, "accounting_storage_enforce") &
                       (1u << 1 | 1u << 3 | 1u << 7);
    s->calc_phase_s = pol_opt_real(setup, "priority_calc_phase");
    if (s->calc_s > 0)
        s->calc_phase_s -= floor(s->calc_phase_s / s->calc_s) * s->calc_s;
    s->decay_per_s = s->halflife_s > 0 ? 1 - 0.693 / s->halflife_s : 1;
    if (s->decay_per_s < 0)
        s->decay_per_s = 0;
    s->favor_small = pol_opt_bool(setup, "priority_favor_small");
    s->by_group = pol_opt_choice(setup, "fairshare_by") == 1;
}

int slurm_mf_init(slurm_mf *s, const pol_setup *setup, char *err, size_t errlen)
{
    int rc;
    s->total_units = setup->total_units;
    read_options(s, setup);
    if ((rc = read_parts(s, setup))) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    const char *v = pol_opt_str(setup, "shares");
    if (v) {
        s->shares_file = true;
        if ((rc = read_shares(s, v, err, errlen)))
            goto fail;
    }
    /* The first calculation after time 0; the one before it found no usage. */
    s->calc_k = s->calc_phase_s > 0 ? 0 : 1;
    s->last_calc_s = s->calc_s > 0 ? s->calc_phase_s + (double)(s->calc_k - 1) * s->calc_s : 0;
    size_t n = setup->n_jobs ? setup->n_jobs : 1;
    s->counted = calloc(n, sizeof *s->counted);
    s->run_start = calloc(n, sizeof *s->run_start);
    s->run_acct = calloc(n, sizeof *s->run_acct);
    s->runs = calloc(n, sizeof *s->runs);
    s->run_pos = calloc(n, sizeof *s->run_pos);
    s->prio = calloc(n, sizeof *s->prio);
    if (!s->counted || !s->run_start || !s->run_acct || !s->runs || !s->run_pos || !s->prio ||
        rank_accounts(s)) {
        rc = ENG_NOMEM;
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    return ENG_OK;
fail:
    slurm_mf_fini(s);
    return rc;
}

int slurm_mf_until(slurm_mf *s, double now)
{
    return usage_until(s, now);
}

int slurm_mf_update(slurm_mf *s, double now)
{
    int rc = usage_until(s, now);
    if (rc == ENG_OK && s->fair_tree && !(s->calc_s > 0)) {
        set_level_fs(s);
        rc = rank_accounts(s);
    }
    return rc;
}

int slurm_mf_submit(slurm_mf *s, const pol_job *job, double now)
{
    run_end(s, job->idx, now); /* queued again while running */
    bool created;
    if (!acct_get(s, acct_id(s, job), s->shares_file ? 0 : 1, &created))
        return ENG_NOMEM;
    if (created && !s->shares_file)
        s->shares_sum += 1;
    int rc;
    if (created && (rc = rank_accounts(s)))
        return rc;
    if (s->calc_s > 0)
        s->prio[job->idx] = priority_at(s, job, now, 0);
    return ENG_OK;
}

int slurm_mf_start(slurm_mf *s, const pol_job *j, double now)
{
    return run_begin(s, j, now);
}

void slurm_mf_stop(slurm_mf *s, int32_t idx, double now)
{
    run_end(s, idx, now);
}

double slurm_mf_next_calc(const slurm_mf *s)
{
    return s->calc_s > 0 && (s->w_age > 0 || s->w_fs > 0) ? calc_time(s, s->calc_k) : INFINITY;
}

void slurm_mf_order(slurm_mf *s, const pol_view *v, slurm_order *order, bool *changed)
{
    double total_usage = 0;
    for (size_t k = 0; k < s->n_acct; k++)
        total_usage += s->acct[k].usage;
    *changed = false;
    for (size_t q = 0; q < v->n_queue; q++) {
        const pol_job *j = v->queue[q];
        if (!(s->calc_s > 0))
            s->prio[j->idx] = priority_at(s, j, v->now_s, total_usage);
        else if (s->recalc && j->submit_s <= s->last_calc_s) {
            double p = priority_at(s, j, s->last_calc_s, 0);
            *changed |= p != s->prio[j->idx];
            s->prio[j->idx] = p;
        }
        order[q] = (slurm_order){.prio = s->prio[j->idx], .job = j};
    }
    s->recalc = false;
    qsort(order, v->n_queue, sizeof *order, by_priority);
}
