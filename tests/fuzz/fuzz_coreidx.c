/* fuzz_coreidx.c — libFuzzer target: the path that names the cores of
 * jobs.csv under core allocation. Bytes are decoded into a small platform
 * (1-5 hosts of 1-8 cores, speeds 1-3 Gf), a workload of up to 24 jobs
 * made to collide (bursts, zero run times, requests below and above the run
 * time, jobs wider than a host, three types) and a configuration (policy
 * and variant, failures killing or requeuing, walltime kill or extend,
 * islands, initialization times); the scheduling core runs it with the
 * checker on, then eng_coreidx names the cores, and tests/bl_cores.h
 * checks them against time and against the core's own allocation.
 *
 * A finding is: a core given to two jobs at once, a job naming other than
 * its units, a host's count differing from the allocation, a run that
 * fails (other than a policy refusing the configuration, ENG_USAGE), or a
 * simulation still going past 10^7 s (a job that never starts).
 *
 * Input: byte 0 the policy, 1 flags (1 failures, 2 requeue, 4 extend,
 * 8 islands, 16 initialization times), 2 the failure seed, 3 the hosts,
 * then two bytes per host (cores, speed) and four per job (gap, run,
 * request, size). */
#include "bl_cores.h"
#include "eng_core.h"
#include "eng_coreidx.h"
#include "eng_prep.h"
#include "eng_swf.h"
#include "pol_registry.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct {
    const char *policy;
    pol_kv options[2];
    size_t n_options;
} variants[] = {
    {"easy", {{"backfill_order", "sjf"}}, 1},
    {"slurm", {{"priority_weight_fairshare", "1000"}, {"keep_reservation", "no"}}, 2},
    {"packet", {{"mode", "greedy"}, {"horizon", "60"}}, 2},
    {"packet", {{"variant", "paper"}}, 1},
};

static void finding(const char *what, const char *why)
{
    fprintf(stderr, "fuzz_coreidx: %s: %s\n", what, why);
    abort();
}

static eng_platform *platform(const uint8_t *b, size_t n, bool islands)
{
    eng_host_desc d[5];
    char names[5][24], occ[5][16];
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "n%zu", i + 1);
        snprintf(occ[i], sizeof occ[i], "%.3f", 0.05 + 0.3 * (double)(b[2 * i + 1] / 3) / 85.0);
        d[i] = (eng_host_desc){.name = names[i],
                               .speed_flops = 1e9 * (double)(1 + b[2 * i + 1] % 3),
                               .sg_cores = 1 + b[2 * i] % 8,
                               .occupation = occ[i],
                               .island = islands ? (i % 2 ? "x" : "y") : NULL};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    if (eng_platform_build("fuzz", d, n, "1Gf", &p, &diag))
        finding("platform", diag.msg);
    return p;
}

static eng_workload *workload(const uint8_t *b, size_t n, int64_t total_cores)
{
    eng_workload *w = eng_workload_create("fuzz");
    double t = 0;
    for (size_t i = 0; w && i < n; i++) {
        const uint8_t *j = b + 4 * i;
        t += j[0] & 0x80 ? 0 : (double)(j[0] % 21);
        double run = j[1] % 4 == 0 ? 0 : (double)(j[1] % 41);
        int mode = j[2] % 10;
        double req = mode < 2   ? (double)(int)(run / 2)
                     : mode < 5 ? run
                     : mode < 9 ? run + 1 + j[2] % 30
                                : -1;
        eng_job job = eng_job_unknown();
        job.id = (int64_t)i + 1;
        job.submit_s = t;
        job.runtime_s = run;
        job.time_req_s = req;
        job.procs_alloc = job.procs_req = 1 + (int32_t)(j[3] % total_cores);
        job.status = 1;
        job.queue = j[1] / 64 % 3;
        job.line = (int64_t)i + 1;
        if (eng_workload_push(w, &job))
            finding("workload", "out of memory");
    }
    return w;
}

/* Runs the core to its end, or reports a stall. */
static int run_core(eng_core *c, eng_diag *d)
{
    double t;
    const int32_t *ending;
    size_t n;
    while (eng_core_begin(c, &t, &ending, &n)) {
        if (t > 1e7)
            finding("stall", "the simulation goes past 10^7 s: a job never starts");
        int rc = eng_core_step(c, d);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

static void check(const eng_platform *p, const eng_prepared *prep, const eng_core *c)
{
    const eng_job_result *res = eng_core_results(c);
    const eng_host_run *runs = eng_core_alloc_runs(c);
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_coreidx_build(p, res, prep->n_jobs, runs, &x, &d))
        finding("core indices", d.msg);
    bl_core_use *use = calloc(prep->n_jobs + 1, sizeof *use);
    for (size_t i = 0; i < prep->n_jobs; i++)
        use[i] = (bl_core_use){.id = prep->jobs[i].id,
                               .start_s = res[i].start_s,
                               .end_s = res[i].end_s,
                               .want = res[i].units,
                               .spans = x.spans + x.off[i],
                               .n_spans = x.count[i]};
    char why[256];
    if (bl_cores_check(use, prep->n_jobs, p, res, runs, why, sizeof why))
        finding("core indices", why);
    free(use);
    eng_coreidx_fini(&x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    size_t n_registered;
    const pol_type *const *list = pol_list(&n_registered);
    size_t pick = data[0] % (n_registered + sizeof variants / sizeof variants[0]);
    if (pick < n_registered && (list[pick]->flags & POL_FLAG_EXTERNAL))
        return 0; /* runs only with its peer */
    uint8_t flags = data[1];
    size_t n_hosts = 1 + data[3] % 5;
    if (size < 4 + 2 * n_hosts)
        return 0;
    size_t n_jobs = (size - 4 - 2 * n_hosts) / 4;
    if (n_jobs == 0)
        return 0;
    if (n_jobs > 24)
        n_jobs = 24;
    eng_platform *p = platform(data + 4, n_hosts, flags & 8);
    eng_workload *w = workload(data + 4 + 2 * n_hosts, n_jobs, p->total_cores);
    const eng_init_time init[] = {{.type = 1, .seconds = 5}, {.any = true, .seconds = 0}};
    eng_prep_opts po = {.procs_field = ENG_PROCS_ALLOC,
                        .walltime = flags & 4 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL,
                        .alloc = POL_ALLOC_CORE,
                        .init_times = flags & 16 ? init : NULL,
                        .n_init_times = flags & 16 ? 2 : 0};
    eng_prepared prep;
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_prep(w, p, &po, &prep, &d))
        finding("prep", d.msg);
    bool variant = pick >= n_registered;
    eng_core_opts co = {.policy = variant ? pol_find(variants[pick - n_registered].policy)
                                          : list[pick],
                        .options = variant ? variants[pick - n_registered].options : NULL,
                        .n_options = variant ? variants[pick - n_registered].n_options : 0,
                        .seed = 1,
                        .check = true,
                        .failures = {.enabled = flags & 1,
                                     .epoch_s = 15,
                                     .seed = data[2],
                                     .requeue = flags & 2,
                                     .max_requeues = 3}};
    eng_core *c = NULL;
    int rc = eng_core_create(p, &prep, &co, &c, &d);
    if (rc == ENG_OK)
        rc = run_core(c, &d);
    if (rc == ENG_OK)
        check(p, &prep, c);
    else if (rc != ENG_USAGE) /* a policy may refuse the configuration */
        finding(co.policy->name, d.msg);
    eng_core_destroy(c);
    eng_prepared_fini(&prep);
    eng_workload_destroy(w);
    eng_platform_destroy(p);
    return 0;
}
