/* test_eng_coreidx.c — core indices under core allocation (eng_coreidx.h):
 * on hand-made results without SimGrid (the index of a core, the lowest
 * free cores first, a step's ends before its starts, starts of one step
 * by job index, a job of zero length, several steps at one instant, spans
 * merged across hosts, a job that never ran, a host asked for more cores
 * than it has); a 40-job cut of an archive log that once stopped with
 * "holds more cores than its 32"; and a randomized differential test:
 * thousands of small workloads under every policy that allocates by
 * cores, each run's jobs.csv checked by tests/bl_cores.h against time and
 * against the engine's own allocation. */
#include "bl_cores.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_coreidx.h"
#include "eng_output.h"
#include "pol_registry.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>

/* Hosts a (4 cores: indices 0-3), b (2: 4-5), c (4: 6-9). */
static eng_host HOSTS[] = {
    {.name = "a", .cores = 4},
    {.name = "b", .cores = 2},
    {.name = "c", .cores = 4},
};

static const eng_platform PLATFORM = {.hosts = HOSTS, .n_hosts = 3, .total_cores = 10};

/* The spans of job j as Batsim writes them ("0-1 3"). */
static void spans_text(const eng_coreidx *x, size_t j, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t s = 0; s < x->count[j]; s++) {
        const eng_core_span *sp = &x->spans[x->off[j] + (size_t)s];
        if (sp->n > 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%lld-%lld", s ? " " : "",
                                     (long long)sp->first, (long long)(sp->first + sp->n - 1));
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", s ? " " : "",
                                     (long long)sp->first);
    }
}

/* Derivation, events in (step, ends first, job) order:
 *  step 1 (t=0)  J0 starts: a takes 2 -> 0-1.
 *                J1 starts: a 2 more -> 2-3; b 2 -> 4-5; merged "2-5".
 *  step 2 (t=5)  J1 ends (frees 2-3, 4-5). J2 starts: a 1 -> 2; c 3 -> 6-8:
 *                "2 6-8".
 *  step 3 (t=8)  J2 ends (frees 2, 6-8). J3 (zero length) starts: b 2 -> 4-5.
 *  step 4 (t=8)  J3 ends (frees 4-5). J4 starts: b 2 -> 4-5 again; a 1 -> 2;
 *                its runs list b before a: "2 4-5".
 *  step 5 (t=10) J0 ends (frees 0-1). J6 starts: a 3 -> 0, 1, 3 (2 is J4's):
 *                "0-1 3".
 *  J5 never ran: nothing. */
static void test_known_answer(void)
{
    const eng_host_run runs[] = {
        {.host = 0, .n = 1, .cores = 2},                                  /* J0: 0 */
        {.host = 0, .n = 2, .cores = 2},                                  /* J1: 1 */
        {.host = 0, .n = 1, .cores = 1}, {.host = 2, .n = 1, .cores = 3}, /* J2: 2, 3 */
        {.host = 1, .n = 1, .cores = 2},                                  /* J3: 4 */
        {.host = 1, .n = 1, .cores = 2}, {.host = 0, .n = 1, .cores = 1}, /* J4: 5, 6 */
        {.host = 0, .n = 1, .cores = 3},                                  /* J6: 7 */
    };
    const eng_job_result res[] = {
        {.start_s = 0,
         .end_s = 10,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 0,
         .start_step = 1,
         .end_step = 5},
        {.start_s = 0,
         .end_s = 5,
         .n_hosts = 2,
         .n_runs = 1,
         .runs_off = 1,
         .start_step = 1,
         .end_step = 2},
        {.start_s = 5,
         .end_s = 8,
         .n_hosts = 2,
         .n_runs = 2,
         .runs_off = 2,
         .start_step = 2,
         .end_step = 3},
        {.start_s = 8,
         .end_s = 8,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 4,
         .start_step = 3,
         .end_step = 4},
        {.start_s = 8,
         .end_s = 12,
         .n_hosts = 2,
         .n_runs = 2,
         .runs_off = 5,
         .start_step = 4,
         .end_step = 6},
        {.start_s = -1, .end_s = -1, .start_step = -1, .end_step = -1},
        {.start_s = 10,
         .end_s = 20,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 7,
         .start_step = 5,
         .end_step = 7},
    };
    static const char *const want[] = {"0-1", "2-5", "2 6-8", "4-5", "2 4-5", "", "0-1 3"};
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_coreidx_build(&PLATFORM, res, 7, runs, &x, &d), 0);
    CU_ASSERT_EQUAL(x.n_jobs, 7);
    char buf[128];
    for (size_t j = 0; j < 7; j++) {
        spans_text(&x, j, buf, sizeof buf);
        if (strcmp(buf, want[j]) != 0)
            printf("\n  job %zu: '%s', expected '%s'\n", j, buf, want[j]);
        CU_ASSERT_STRING_EQUAL(buf, want[j]);
    }
    /* the cores named add up to the cores the runs hold */
    int64_t named = 0;
    for (size_t s = 0; s < x.n_spans; s++)
        named += x.spans[s].n;
    CU_ASSERT_EQUAL(named, 2 + 4 + 4 + 2 + 3 + 3);
    eng_coreidx_fini(&x);
    eng_coreidx_fini(&x); /* a finished struct is zeroed: fini again is safe */
}

/* Two jobs at once on b (2 cores) asking for 3 between them: a broken
 * engine invariant, reported with the host, never wrapped around. */
static void test_overfull_host(void)
{
    const eng_host_run runs[] = {
        {.host = 1, .n = 1, .cores = 2},
        {.host = 1, .n = 1, .cores = 1},
    };
    const eng_job_result res[] = {
        {.start_s = 0,
         .end_s = 4,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 0,
         .start_step = 1,
         .end_step = 3},
        {.start_s = 3,
         .end_s = 6,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 1,
         .start_step = 2,
         .end_step = 4},
    };
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_coreidx_build(&PLATFORM, res, 2, runs, &x, &d), ENG_INVARIANT);
    CU_ASSERT(bl_contains(d.msg, "host b holds more cores than its 2"));
    CU_ASSERT_PTR_NULL(x.spans);
    /* the second job starting when the first ends fits */
    const eng_job_result later[] = {
        {.start_s = 0,
         .end_s = 4,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 0,
         .start_step = 1,
         .end_step = 2},
        {.start_s = 4,
         .end_s = 6,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 1,
         .start_step = 2,
         .end_step = 3},
    };
    CU_ASSERT_EQUAL_FATAL(eng_coreidx_build(&PLATFORM, later, 2, runs, &x, &d), 0);
    CU_ASSERT_EQUAL(x.count[1], 1);
    CU_ASSERT_EQUAL(x.spans[x.off[1]].first, 4);
    eng_coreidx_fini(&x);
}

/* Several steps at one instant, as a job of zero length makes them: J0
 * holds a's cores 0-1 from t=0. At t=5 the core starts J2 (zero length)
 * on a's two free cores in one step and, one step later, when J2 has
 * ended, J1 on the same two cores. Derivation, in step order:
 *  step 1 (t=0) J0 starts: a 2 -> 0-1.
 *  step 2 (t=5) J2 starts: a 2 -> 2-3.
 *  step 3 (t=5) J2 ends (frees 2-3). J1 starts: a 2 -> 2-3.
 * By time alone (the ends of t=5, then its starts by job index) J1 would
 * take 2-3 first and J2 find a full: the failure this order fixes. */
static void test_steps_of_one_instant(void)
{
    const eng_host_run runs[] = {
        {.host = 0, .n = 1, .cores = 2}, /* J0 */
        {.host = 0, .n = 1, .cores = 2}, /* J1 */
        {.host = 0, .n = 1, .cores = 2}, /* J2 */
    };
    const eng_job_result res[] = {
        {.start_s = 0,
         .end_s = 10,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 0,
         .start_step = 1,
         .end_step = 4},
        {.start_s = 5,
         .end_s = 9,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 1,
         .start_step = 3,
         .end_step = 4},
        {.start_s = 5,
         .end_s = 5,
         .n_hosts = 1,
         .n_runs = 1,
         .runs_off = 2,
         .start_step = 2,
         .end_step = 3},
    };
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_coreidx_build(&PLATFORM, res, 3, runs, &x, &d), 0);
    static const char *const want[] = {"0-1", "2-3", "2-3"};
    char buf[64];
    for (size_t j = 0; j < 3; j++) {
        spans_text(&x, j, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, want[j]);
    }
    eng_coreidx_fini(&x);
}

/* Checks a run's jobs.csv with bl_cores; prints the first violation. */
static void check_jobs_csv(const char *path, const eng_platform *p, const eng_job_result *res,
                           const eng_host_run *runs, const char *label)
{
    char *text = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    bl_cores_csv c;
    char why[256] = "";
    int rc = bl_cores_csv_parse(text, &c, why, sizeof why);
    if (rc == 0) {
        /* a packet's member holds its packet's cores (eng_job_result.units) */
        for (size_t i = 0; res && i < c.n_jobs; i++)
            if (res[i].packet >= 0)
                c.jobs[i].want = res[i].units;
        rc = bl_cores_check(c.jobs, c.n_jobs, p, res, runs, why, sizeof why);
    }
    if (rc)
        printf("\n  %s: %s\n", label, why);
    CU_ASSERT_EQUAL(rc, 0);
    bl_cores_csv_fini(&c);
    free(text);
}

/* 40 jobs cut from an archive log, replayed under EASY with core
 * allocation on 47 hosts of 32 cores: two jobs of run time 0 start and end
 * at the instant when 21 others start, some on the cores they free. The
 * run once stopped with exit 3, "core indices: host n34 holds more cores
 * than its 32", and wrote nothing. */
static void test_archive_cut(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/out", bl_tmpdir());
    char *o = NULL;
    int rc = bl_run(&o,
                    "run -q --platform %s --workload %s --policy easy --alloc core --check "
                    "--out %s",
                    bl_src("tests/data/cluster-47x32.xml"),
                    bl_src("tests/data/easy-core-index-40.swf"), dir);
    if (rc)
        printf("\n  exit %d: %s\n", rc, o);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    free(o);
    eng_platform *p = bl_uniform_platform(47, 32);
    char path[1100];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    check_jobs_csv(path, p, NULL, NULL, "easy-core-index-40");
    eng_platform_destroy(p);
}
/* A small platform: 1-5 hosts of 1-8 cores each (not all equal), speeds
 * 1-3 Gf (fractional ends), occupation probabilities for the failure
 * model; islands in some rounds. */
static eng_platform *random_platform(gsl_rng *r, bool islands)
{
    enum { MAX_HOSTS = 5 };
    eng_host_desc d[MAX_HOSTS];
    char names[MAX_HOSTS][24], occ[MAX_HOSTS][16];
    size_t n = 1 + gsl_rng_uniform_int(r, MAX_HOSTS);
    int same = 1 + (int)gsl_rng_uniform_int(r, 8);
    bool uniform = gsl_rng_uniform(r) < 0.5;
    for (size_t i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], "n%zu", i + 1);
        snprintf(occ[i], sizeof occ[i], "%.3f", 0.05 + 0.3 * gsl_rng_uniform(r));
        d[i] = (eng_host_desc){
            .name = names[i],
            .speed_flops = 1e9 * (double)(1 + (uniform ? 0 : gsl_rng_uniform_int(r, 3))),
            .sg_cores = uniform ? same : 1 + (int)gsl_rng_uniform_int(r, 8),
            .occupation = occ[i],
            .island = islands ? (i % 2 ? "x" : "y") : NULL,
        };
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("random", d, n, "1Gf", &p, &diag);
    return p;
}

/* 1-24 jobs made to collide: submits in bursts (gaps 0 or 1-20 s), whole
 * run times 0-40 s with a quarter of them 0, requests below (killed),
 * equal to, above the run time or missing, sizes from one core to the
 * whole platform (often wider than a host), three job types. */
static bl_jobspec *random_jobs(gsl_rng *r, size_t n, int64_t total_cores)
{
    bl_jobspec *jobs = calloc(n, sizeof *jobs);
    double t = 0;
    for (size_t i = 0; i < n; i++) {
        t += gsl_rng_uniform(r) < 0.4 ? 0 : (double)(1 + gsl_rng_uniform_int(r, 20));
        double run = gsl_rng_uniform(r) < 0.25 ? 0 : (double)(1 + gsl_rng_uniform_int(r, 40));
        double u = gsl_rng_uniform(r), req;
        if (u < 0.2)
            req = floor(run / 2);
        else if (u < 0.5)
            req = run;
        else if (u < 0.9)
            req = run + (double)(1 + gsl_rng_uniform_int(r, 30));
        else
            req = -1;
        int procs = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)total_cores);
        if (gsl_rng_uniform(r) < 0.5)
            procs = 1 + procs / 4;
        jobs[i] = (bl_jobspec){.id = (int64_t)i + 1,
                               .submit = t,
                               .run = run,
                               .req = req,
                               .procs = procs,
                               .queue = (int64_t)gsl_rng_uniform_int(r, 3)};
    }
    return jobs;
}

/* Options run besides every policy's defaults: the ones that change how
 * a policy packs or orders jobs. */
static const struct cores_variant {
    const char *policy;
    pol_kv options[3];
    size_t n_options;
} cores_variants[] = {
    {"easy", {{"backfill_order", "sjf"}}, 1},
    {"slurm", {{"priority_weight_fairshare", "1000"}, {"keep_reservation", "no"}}, 2},
    {"packet", {{"mode", "greedy"}, {"horizon", "60"}}, 2},
    {"packet", {{"variant", "paper"}}, 1},
};

/* The rounds of the randomized test (one workload each, run under every
 * policy and variant): BL_COREIDX_ROUNDS, default 1000 (about 11 000
 * runs); bench/coreidx-random runs it longer, with other seeds
 * (BL_COREIDX_SEED). */
static int random_rounds(void)
{
    const char *e = getenv("BL_COREIDX_ROUNDS");
    long n = e ? strtol(e, NULL, 10) : 0;
    return n > 0 ? (int)n : 1000;
}

static void test_random_differential(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    const char *seed_env = getenv("BL_COREIDX_SEED");
    gsl_rng_set(r, seed_env ? strtoul(seed_env, NULL, 10) : 20261128);
    size_t n_registered;
    const pol_type *const *list = pol_list(&n_registered);
    size_t n_cases = n_registered + sizeof cores_variants / sizeof cores_variants[0];
    const eng_init_time init[] = {{.type = 1, .seconds = 5}, {.any = true, .seconds = 0}};
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/out", bl_tmpdir());
    char path[1100];
    snprintf(path, sizeof path, "%s/jobs.csv", dir);
    int rounds = random_rounds(), runs = 0, refused = 0;
    for (int round = 0; round < rounds; round++) {
        bool islands = round % 5 == 4;
        unsigned long pseed = gsl_rng_get(r);
        gsl_rng *pr = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(pr, pseed);
        eng_platform *proto = random_platform(pr, islands);
        int64_t total = proto->total_cores;
        eng_platform_destroy(proto);
        size_t n = 1 + gsl_rng_uniform_int(r, 24);
        bl_jobspec *jobs = random_jobs(r, n, total);
        /* failures in half the rounds, killing or requeuing */
        bool failing = gsl_rng_uniform(r) < 0.5, requeue = gsl_rng_uniform(r) < 0.5;
        bool extend = gsl_rng_uniform(r) < 0.3, with_init = gsl_rng_uniform(r) < 0.3;
        unsigned long fseed = gsl_rng_get(r);
        for (size_t k = 0; k < n_cases; k++) {
            const struct cores_variant *var = k < n_registered ? NULL
                                                               : &cores_variants[k - n_registered];
            const char *name = var ? var->policy : list[k]->name;
            if (!var && (list[k]->flags & POL_FLAG_EXTERNAL))
                continue; /* runs only with its peer (test_pol_batsim.c) */
            gsl_rng_set(pr, pseed);
            eng_platform *p = random_platform(pr, islands);
            bl_opts o = {.alloc = POL_ALLOC_CORE,
                         .walltime = extend ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL,
                         .failures = {.enabled = failing,
                                      .epoch_s = 15,
                                      .seed = fseed,
                                      .requeue = requeue,
                                      .max_requeues = 3},
                         .init_times = with_init ? init : NULL,
                         .n_init_times = with_init ? 2 : 0,
                         .options = var ? var->options : NULL,
                         .n_options = var ? var->n_options : 0};
            bl_sched s;
            int rc = bl_core_run(name, jobs, n, p, &o, &s);
            if (rc == ENG_USAGE) { /* the policy does not allocate cores here */
                refused++;
                bl_sched_fini(&s);
                continue;
            }
            CU_ASSERT_EQUAL(rc, 0);
            runs++;
            if (rc == 0) {
                eng_sim_result res = {.platform = s.p, .prep = s.prep, .core = s.core};
                eng_summary sum;
                memset(&sum, 0, sizeof sum);
                eng_manifest m = {.outputs = ENG_OUT_JOBS};
                eng_diag d;
                eng_diag_clear(&d);
                rc = eng_output_write(dir, s.w, &res, &sum, NULL, &m, &d);
                if (rc)
                    printf("\n  round %d %s%s: %s\n", round, name, var ? " (variant)" : "", d.msg);
                CU_ASSERT_EQUAL(rc, 0);
                char label[128];
                snprintf(label, sizeof label, "round %d %s%s", round, name,
                         var ? " (variant)" : "");
                if (rc == 0)
                    check_jobs_csv(path, s.p, eng_core_results(s.core), eng_core_alloc_runs(s.core),
                                   label);
            }
            bl_sched_fini(&s);
        }
        gsl_rng_free(pr);
        free(jobs);
    }
    printf("\n  %d rounds, %d runs checked, %d refused core allocation ", rounds, runs, refused);
    CU_ASSERT(runs > rounds * (int)n_registered / 2);
    gsl_rng_free(r);
}

int bl_suite_eng_coreidx(void)
{
    CU_pSuite s = CU_add_suite("eng_coreidx", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "known answer", test_known_answer);
    CU_add_test(s, "a host holding more cores than it has", test_overfull_host);
    CU_add_test(s, "several steps at one instant", test_steps_of_one_instant);
    CU_add_test(s, "a 40-job archive cut under EASY (regression)", test_archive_cut);
    CU_add_test(s, "random workloads, every policy allocating cores", test_random_differential);
    return 0;
}
