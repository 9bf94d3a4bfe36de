/* pol_slurm_prio.h — Slurm's multifactor priority, for the slurm policy
 * (pol_slurm.c), which orders its queue by it: the accounts and their
 * usage, the decay and the calculation timer, each pending job's priority.
 * Internal to policies/: pol_slurm_prio.c implements it and calls nothing
 * of pol_slurm.c. Sources as in pol_slurm_prio.c.
 *
 * The options it reads are declared in pol_slurm.c's table (priority_*,
 * accounting_storage_enforce, fairshare_by, shares, partition_job_factor);
 * the engine has checked them before slurm_mf_init reads them. Times are
 * the view's seconds; between two calls no job starts or ends, so usage
 * can be brought forward at any later call.
 */
#ifndef POL_SLURM_PRIO_H
#define POL_SLURM_PRIO_H

#include "eng_policy.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct slurm_acct {
    int64_t id;
    double usage;      /* decayed unit-seconds */
    int64_t run_units; /* units of its jobs running now */
    double shares;
    double u_snap;   /* classic: its share of all usage when priorities were last calculated */
    double level_fs; /* Fair Tree: S / U when priorities were last calculated */
    double fs_tree;  /* Fair Tree: its rank over the number of accounts */
} slurm_acct;

typedef struct slurm_part {
    int64_t queue;
    double factor;
} slurm_part;

typedef struct slurm_rank {
    double level_fs;
    size_t pos;
} slurm_rank;

/* A queued job and its priority, as the queue is ordered. */
typedef struct slurm_order {
    double prio;
    const pol_job *job;
} slurm_order;

typedef struct slurm_mf {
    /* options */
    double w_age, w_fs, w_js, w_part;
    double max_age_s, halflife_s, calc_s, calc_phase_s;
    double decay_per_s; /* Slurm's decay factor per second, 1 - 0.693 / half-life */
    bool favor_small, by_group, shares_file, fair_tree;
    bool charge_at_end; /* AccountingStorageEnforce has limits: a job's end charges its usage */
    slurm_part *parts;
    size_t n_parts;
    double part_max;
    /* fair-share accounts, sorted by id */
    slurm_acct *acct;
    size_t n_acct, cap_acct;
    double shares_sum;
    double usage_t; /* priority_calc_period=0: usage is as of usage_t */
    slurm_rank *ranks;
    size_t cap_ranks;
    /* running jobs as usage counts them */
    int32_t *counted;  /* per job: units counted, 0 when not running */
    double *run_start; /* per job: when it started */
    int64_t *run_acct; /* per job: its account */
    int32_t *runs;     /* the running jobs, n_runs of them */
    int32_t *run_pos;  /* per job: its place in runs */
    size_t n_runs;
    int32_t total_units;
    /* priorities (priority_calc_period > 0): per job, as last calculated */
    double *prio;
    int64_t calc_k;     /* the next calculation is at calc_phase_s + calc_k * calc_s */
    double last_calc_s; /* the last calculation */
    bool recalc;        /* the queue's priorities are due from the last calculation */
} slurm_mf;

/* Reads the priority options and the shares file, and sizes the per-job
 * arrays (setup->n_jobs). 0, ENG_INVAL with a message in err (the shares
 * file), or ENG_NOMEM; on failure m is freed. */
int slurm_mf_init(slurm_mf *m, const pol_setup *setup, char *err, size_t errlen);
void slurm_mf_fini(slurm_mf *m);

/* Brings usage and the calculations due up to now (every hook). */
int slurm_mf_until(slurm_mf *m, double now);

/* As slurm_mf_until, and with priority_calc_period=0 Fair Tree's ranks
 * from the usage now (at each schedule call). */
int slurm_mf_update(slurm_mf *m, double now);

/* job was queued at now (again, if it was running): its account, created
 * with its shares if new, and its priority at submission. */
int slurm_mf_submit(slurm_mf *m, const pol_job *job, double now);

/* Job j starts running at now: its units are charged to its account from
 * now on. */
int slurm_mf_start(slurm_mf *m, const pol_job *j, double now);

/* Job idx stops running at now (it ended, or was queued again). */
void slurm_mf_stop(slurm_mf *m, int32_t idx, double now);

/* The time of the next calculation that may change the queue's order, or
 * INFINITY when none can (no calculation timer, or no age or fair-share
 * weight). */
double slurm_mf_next_calc(const slurm_mf *m);

/* The queue of v in priority order (higher first, ties by submit order)
 * into order (v->n_queue entries): with priority_calc_period > 0, each
 * job at the priority of the last calculation after its submission, or
 * of its submission; with 0, every priority now. *changed tells whether a
 * calculation changed a job's priority (which calls for a backfill pass,
 * as Slurm's does). O(q log q). */
void slurm_mf_order(slurm_mf *m, const pol_view *v, slurm_order *order, bool *changed);

#endif
