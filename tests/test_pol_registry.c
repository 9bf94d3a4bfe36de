/* test_pol_registry.c — the registry, option validation, and the
 * conformance suite: every registered policy on random workloads, under the
 * invariant checker, in every engine configuration (node and core
 * allocation, kill and extend, uniform and heterogeneous speeds, one and
 * two pools). A new policy is covered as soon as it is registered.
 *
 * Policies in shared libraries go through the same loops: with
 * BL_POLICY_LIBS=PATH.so[:PATH.so...] in the environment, the generic
 * loops (declared defaults, conformance, initialization not planned,
 * islands) run those libraries' policies, loaded as the command line loads
 * them (pol_solib_load), in place of the registry's, which the plain run
 * covers; the registry's own cases run as always. The solib_example test
 * runs it on examples/sjf-backfill built against the installed headers. */
#include "bl_sched.h"
#include "bl_test.h"
#include "pol_registry.h"
#include "pol_solib.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_lookup(void)
{
    size_t n;
    const pol_type *const *list = pol_list(&n);
    CU_ASSERT(n >= 3);
    for (size_t i = 0; i < n; i++) {
        CU_ASSERT_PTR_EQUAL(pol_find(list[i]->name), list[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(pol_names(), list[i]->name));
        CU_ASSERT_PTR_NOT_NULL(list[i]->schedule);
        CU_ASSERT_PTR_NOT_NULL(list[i]->summary);
        CU_ASSERT_PTR_NOT_NULL(list[i]->citation);
    }
    CU_ASSERT_PTR_NULL(pol_find("sjf-magic"));
    /* the generated table holds every policy source's type, by symbol name */
    CU_ASSERT_STRING_EQUAL(
        pol_names(), "alp, amp, batsim, conservative, easy, fcfs, knapsack, packet, sa, slurm");
    for (size_t i = 1; i < n; i++)
        CU_ASSERT(strcmp(list[i - 1]->name, list[i]->name) < 0);
}

static void test_option_validation(void)
{
    char err[256];
    const pol_kv ok[] = {{"backfill_order", "sjf"}};
    CU_ASSERT_EQUAL(pol_check_options(pol_find("easy"), ok, 1, err, sizeof err), 0);
    const pol_kv bad[] = {{"reservations", "2"}};
    CU_ASSERT_EQUAL(pol_check_options(pol_find("easy"), bad, 1, err, sizeof err), -4);
    CU_ASSERT_STRING_EQUAL(err, "unknown option 'reservations' for policy easy (accepted: "
                                "backfill_order predictor)");
    CU_ASSERT_EQUAL(pol_check_options(pol_find("fcfs"), bad, 1, err, sizeof err), -4);
    CU_ASSERT_STRING_EQUAL(err, "unknown option 'reservations' for policy fcfs (it accepts none)");
    const pol_kv twice[] = {{"backfill_order", "sjf"}, {"backfill_order", "queue"}};
    CU_ASSERT_EQUAL(pol_check_options(pol_find("easy"), twice, 2, err, sizeof err), -4);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "given twice"));

    /* Values, by the policy's own init on a one-host stand-in pool. */
    CU_ASSERT_EQUAL(pol_try_options(pol_find("easy"), ok, 1, err, sizeof err), ENG_OK);
    CU_ASSERT_EQUAL(pol_try_options(pol_find("easy"), NULL, 0, err, sizeof err), ENG_OK);
    const pol_kv lifo[] = {{"backfill_order", "lifo"}};
    CU_ASSERT_EQUAL(pol_try_options(pol_find("easy"), lifo, 1, err, sizeof err), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "expected queue or sjf, got 'lifo'"));
    const pol_kv huge[] = {{"max_members", "1e30"}};
    CU_ASSERT_EQUAL(pol_try_options(pol_find("packet"), huge, 1, err, sizeof err), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "max_members"));
}

/* init is optional (the engine runs fcfs, which has none, without it):
 * trying values on a policy without init accepts what its keys accept,
 * and calls fini all the same. */
static int fini_calls;
static void count_fini(void *state)
{
    (void)state;
    fini_calls++;
}

static void test_try_options_without_init(void)
{
    char err[256] = "untouched";
    const pol_type *fcfs = pol_find("fcfs");
    CU_ASSERT_PTR_NULL(fcfs->init);
    CU_ASSERT_EQUAL(pol_try_options(fcfs, NULL, 0, err, sizeof err), ENG_OK);
    CU_ASSERT_STRING_EQUAL(err, "");
    static const pol_option keys[] = {{.key = "depth",
                                       .type = POL_OPT_INT,
                                       .min = INT64_MIN,
                                       .max = INT64_MAX,
                                       .def_int = 1,
                                       .help = "any integer"},
                                      {0}};
    const pol_type bare = {.name = "bare", .options = keys, .fini = count_fini};
    const pol_kv depth[] = {{"depth", "2"}};
    fini_calls = 0;
    CU_ASSERT_EQUAL(pol_try_options(&bare, depth, 1, err, sizeof err), ENG_OK);
    CU_ASSERT_EQUAL(fini_calls, 1);
}

/* The names for messages come whole however long they are: the join
 * reports the length it needs (as snprintf) and never writes past len. */
static void test_names_join(void)
{
    enum { N = 40 };
    static char names[N][24];
    static pol_type types[N];
    const pol_type *list[N];
    size_t want = 0;
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "policy-with-a-long-%02zu", i); /* 21 characters */
        types[i] = (pol_type){.name = names[i]};
        list[i] = &types[i];
        want += strlen(names[i]) + (i ? 2 : 0);
    }
    CU_ASSERT_EQUAL(want, 40 * 21 + 39 * 2); /* 918: more than the 512 bytes it once had */
    CU_ASSERT_EQUAL(pol_names_join(list, N, NULL, 0), want);
    char small[32];
    memset(small, 'x', sizeof small);
    CU_ASSERT_EQUAL(pol_names_join(list, N, small, 16), want);
    CU_ASSERT_STRING_EQUAL(small, "policy-with-a-l"); /* cut, terminated */
    CU_ASSERT_EQUAL(small[16], 'x');                  /* nothing written past len */
    char *whole = malloc(want + 1);
    CU_ASSERT_FATAL(whole != NULL);
    CU_ASSERT_EQUAL(pol_names_join(list, N, whole, want + 1), want);
    CU_ASSERT_EQUAL(strlen(whole), want);
    CU_ASSERT_NSTRING_EQUAL(whole, "policy-with-a-long-00, policy-with-a-long-01, ", 46);
    CU_ASSERT_STRING_EQUAL(whole + want - 21, "policy-with-a-long-39");
    free(whole);
    /* pol_names() is that join over the registry */
    size_t n;
    const pol_type *const *reg = pol_list(&n);
    char buf[1024];
    CU_ASSERT(pol_names_join(reg, n, buf, sizeof buf) < sizeof buf);
    CU_ASSERT_STRING_EQUAL(pol_names(), buf);
}

/* The policies of the generic loops: the registry's, or those of the
 * libraries BL_POLICY_LIBS names (*libs then true), loaded once. NULL
 * with *n 0 after the message when a library cannot be loaded. */
static const pol_type *const *suite_types(size_t *n, bool *libs)
{
    static const pol_type *loaded[16];
    static size_t n_loaded;
    static bool done, failed;
    const char *env = getenv("BL_POLICY_LIBS");
    *libs = env && *env;
    if (!*libs)
        return pol_list(n);
    for (const char *p = env; !done && *p;) {
        size_t len = strcspn(p, ":");
        char path[4096], err[1024];
        snprintf(path, sizeof path, "%.*s", (int)len, p);
        const pol_solib *lib;
        if (n_loaded == sizeof loaded / sizeof loaded[0] ||
            pol_solib_load(path, &lib, err, sizeof err) != ENG_OK) {
            printf("\n  BL_POLICY_LIBS: %s", n_loaded == 16 ? "more than 16 libraries" : err);
            failed = true;
            break;
        }
        printf("\n  library %s: policy %s", path, lib->type->name);
        loaded[n_loaded++] = lib->type;
        p += len + (p[len] == ':');
    }
    done = true;
    CU_ASSERT_FALSE(failed);
    *n = failed ? 0 : n_loaded;
    return failed ? NULL : loaded;
}

/* A random workload: bursty arrivals, sizes 1..max_procs (a third of them
 * powers of two), run times log-uniform 0..5000 s with some zeros,
 * estimates from exact to 10x over, a few overruns and missing requests. */
static bl_jobspec *random_jobs(gsl_rng *r, size_t n, int max_procs, int n_queues)
{
    bl_jobspec *jobs = calloc(n, sizeof *jobs);
    double t = 0;
    for (size_t i = 0; i < n; i++) {
        t += gsl_rng_uniform(r) < 0.3 ? 0 : floor(gsl_ran_exponential(r, 60));
        int procs = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)max_procs);
        if (gsl_rng_uniform(r) < 0.33) {
            int p2 = 1;
            while (p2 * 2 <= procs)
                p2 *= 2;
            procs = p2;
        }
        double run = gsl_rng_uniform(r) < 0.05 ? 0 : floor(exp(gsl_rng_uniform(r) * log(5000)));
        double req = ceil(run * (1 + 9 * gsl_rng_uniform(r)));
        double u = gsl_rng_uniform(r);
        if (u < 0.05)
            req = floor(run * 0.7); /* overrun: killed, or extended */
        else if (u < 0.08)
            req = -1; /* no request */
        jobs[i] = (bl_jobspec){(int64_t)i + 1,
                               t,
                               run,
                               req,
                               procs,
                               n_queues > 1 ? 1 + (int64_t)gsl_rng_uniform_int(r, 2) : 0};
    }
    return jobs;
}

static eng_platform *random_platform(gsl_rng *r, bool hetero, bool two_pools, int *cores,
                                     bool failing)
{
    enum { N = 12 };
    eng_host_desc d[N];
    char names[N][8], occ[N][16];
    *cores = 1 + (int)gsl_rng_uniform_int(r, 4);
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i + 1);
        snprintf(occ[i], sizeof occ[i], "%.3f", 0.02 + 0.2 * gsl_rng_uniform(r));
        d[i] = (eng_host_desc){
            .name = names[i],
            .speed_flops = hetero ? 1e9 * (1 + (i % 3)) : 1e9,
            .sg_cores = *cores,
            .queues = two_pools ? (i < 8 ? "1" : "2") : NULL,
            .occupation = failing ? occ[i] : NULL,
        };
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("random", d, N, "1Gf", &p, &diag);
    return p;
}

/* Every declared option says what it accepts, its default and what it
 * does; a default written as a value (not in parentheses) is one init
 * accepts, alone and with the others; and giving every such default
 * explicitly schedules random workloads exactly as giving none, which
 * holds the declaration to the default init takes. */
static void test_declared_defaults(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20260301);
    size_t n_registered;
    bool libs;
    const pol_type *const *list = suite_types(&n_registered, &libs);
    for (size_t k = 0; k < n_registered; k++) {
        const pol_type *t = list[k];
        pol_kv defs[32];
        size_t n_defs = 0;
        char err[512];
        static char def_text[32][256];
        /* a well-formed declaration: a type, words where it takes words, a range */
        CU_ASSERT_EQUAL(pol_check_declarations(t, err, sizeof err), ENG_OK);
        for (const pol_option *o = t->options; o && o->key; o++) {
            char values[512];
            CU_ASSERT_FATAL(n_defs < sizeof defs / sizeof defs[0]);
            char *def = def_text[n_defs];
            pol_option_describe(o, values, sizeof values, def, sizeof def_text[0]);
            CU_ASSERT(values[0] && def[0] && o->help && o->help[0]);
            if (def[0] == '(')
                continue;
            defs[n_defs] = (pol_kv){.key = o->key, .value = def};
            int rc = pol_try_options(t, &defs[n_defs], 1, err, sizeof err);
            if (rc != ENG_OK)
                printf("\n  %s: option %s=%s refused: %s", t->name, o->key, def, err);
            CU_ASSERT_EQUAL(rc, ENG_OK);
            n_defs++;
        }
        CU_ASSERT_EQUAL(pol_try_options(t, defs, n_defs, err, sizeof err), ENG_OK);
        if (t->flags & POL_FLAG_EXTERNAL)
            continue; /* runs only with its peer (test_pol_batsim.c) */
        for (int round = 0; round < 4; round++) {
            bool hetero = round % 2;
            pol_alloc alloc = round / 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE;
            unsigned long seed = gsl_rng_get(r);
            if (alloc == POL_ALLOC_CORE && !(t->flags & POL_FLAG_CORES))
                continue; /* refused: test_conformance checks that */
            int cores;
            gsl_rng *pr = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(pr, seed);
            eng_platform *proto = random_platform(pr, hetero, false, &cores, false);
            eng_platform_destroy(proto);
            size_t n = 150;
            bl_jobspec *jobs = random_jobs(r, n, 12 * cores, 1);
            bl_sched s[2];
            for (int with = 0; with < 2; with++) {
                gsl_rng_set(pr, seed);
                eng_platform *p = random_platform(pr, hetero, false, &cores, false);
                bl_opts o = {.alloc = alloc,
                             .walltime = ENG_WALLTIME_KILL,
                             .options = with ? defs : NULL,
                             .n_options = with ? n_defs : 0,
                             .policy_type = t};
                CU_ASSERT_EQUAL(bl_core_run(t->name, jobs, n, p, &o, &s[with]), 0);
            }
            size_t differ = 0;
            for (size_t i = 0; i < n; i++)
                differ += bl_start(&s[0], jobs[i].id) != bl_start(&s[1], jobs[i].id) ||
                          bl_end(&s[0], jobs[i].id) != bl_end(&s[1], jobs[i].id);
            if (differ)
                printf("\n  %s round %d: %zu jobs differ with the declared defaults given", t->name,
                       round, differ);
            CU_ASSERT_EQUAL(differ, 0);
            bl_sched_fini(&s[0]);
            bl_sched_fini(&s[1]);
            gsl_rng_free(pr);
            free(jobs);
        }
    }
    gsl_rng_free(r);
}

/* Configurations run besides every policy's defaults: the options that
 * change how a policy plans (priorities, predictions). */
static const struct variant {
    const char *policy;
    pol_kv options[6];
    size_t n_options;
} variants[] = {
    {"slurm",
     {{"priority_weight_age", "1000"},
      {"priority_max_age", "30"},
      {"priority_weight_fairshare", "5000"},
      {"priority_decay_halflife", "0:30:0"},
      {"priority_weight_jobsize", "300"},
      {"bf_resolution", "7"}},
     6},
    {"slurm",
     {{"priority_weight_fairshare", "1"},
      {"fairshare_by", "group"},
      {"bf_max_job_test", "3"},
      {"bf_window", "30"}},
     4},
    {"slurm", {{"predictor", "user2"}, {"priority_weight_age", "10"}}, 2},
    {"slurm",
     {{"keep_reservation", "yes"},
      {"priority_weight_fairshare", "100"},
      {"priority_flags", "no_fair_tree"},
      {"priority_calc_period", "0"},
      {"bf_reserve", "units"},
      {"bf_timer", "event"}},
     6},
    {"slurm",
     {{"keep_reservation", "yes"},
      {"priority_weight_fairshare", "1000"},
      {"priority_calc_period", "0:45"},
      {"accounting_storage_enforce", "limits"},
      {"bf_interval", "7"},
      {"bf_resolution", "5"}},
     6},
    {"easy", {{"predictor", "user2"}, {"backfill_order", "sjf"}}, 2},
    {"conservative", {{"predictor", "user2"}}, 1},
};

/* One conformance run's outcome: a failure is counted and printed (label
 * before the round number). True when the run ended cleanly with every
 * job ended, its per-job results then to be checked by the caller. */
static bool run_clean(int rc, const bl_sched *s, const char *label, int round, const char *name,
                      bool variant, int *failures)
{
    if (rc) {
        (*failures)++;
        printf("\n  %sround %d %s%s: %s", label, round, name, variant ? " (variant)" : "",
               s->diag.msg);
    }
    CU_ASSERT_EQUAL(rc, 0);
    if (rc)
        return false;
    CU_ASSERT_EQUAL(eng_core_jobs_left(s->core), 0);
    return true;
}

static void test_conformance(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20261125);
    size_t n_registered;
    bool libs;
    const pol_type *const *list = suite_types(&n_registered, &libs);
    size_t n_policies = n_registered + (libs ? 0 : sizeof variants / sizeof variants[0]);
    int runs = 0, failures = 0;
    for (int round = 0; round < 128; round++) {
        bool hetero = round % 2, two_pools = (round / 2) % 2;
        /* rounds 112..127: user feedback, sessions (even) or SWF fields 17
         * and 18 (odd, chains drawn below), host failures in half of them */
        bool feedback = round >= 112;
        /* rounds 96..111: idle shutdown under node allocation, hosts off
         * after 0 or 600 s idle, boots of 30 or 120 s, with rates in half */
        bool idle = round >= 96 && !feedback;
        pol_alloc alloc = !idle && (round / 4) % 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE;
        eng_walltime wt = (round / 8) % 2 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL;
        /* rounds 64..95: host failures, killing (even) or requeuing (odd) */
        bool failing = (round >= 64 && !idle && !feedback) || (feedback && (round / 2) % 2),
             requeue = failing && (round / 4) % 2;
        int cores;
        eng_platform *proto = random_platform(r, hetero, two_pools, &cores, failing);
        int max_procs = (two_pools ? 4 : 12) * cores;
        eng_platform_destroy(proto);
        size_t n = 200 + gsl_rng_uniform_int(r, 400);
        bl_jobspec *jobs = random_jobs(r, n, max_procs, two_pools ? 2 : 1);
        int64_t *users = calloc(n, sizeof *users), *groups = calloc(n, sizeof *groups);
        int64_t *prev = calloc(n, sizeof *prev);
        double *think = calloc(n, sizeof *think);
        for (size_t i = 0; i < n; i++) { /* a few heavy and light users, two groups */
            users[i] = 1 + (int64_t)((i * 7 + i / 13) % 5);
            groups[i] = 1 + users[i] % 2;
            prev[i] = -1;
        }
        /* SWF chains: job i names i - 3 or, one in five, the later i + 1
         * unless i - 1 named i (no two forward links in a row: a path
         * then never climbs back, so no cycle forms). */
        for (size_t i = 3; feedback && round % 2 && i < n; i++) {
            if (gsl_rng_uniform_int(r, 5) == 0 && i + 1 < n && prev[i - 1] != jobs[i].id)
                prev[i] = jobs[i + 1].id;
            else
                prev[i] = jobs[i - 3].id;
            think[i] = (double)gsl_rng_uniform_int(r, 600);
        }
        unsigned long seed = gsl_rng_get(r);
        for (size_t k = 0; k < n_policies; k++) {
            if (k < n_registered && (list[k]->flags & POL_FLAG_EXTERNAL))
                continue; /* runs only with its peer (test_pol_batsim.c) */
            /* same platform for every policy of the round */
            gsl_rng *pr = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(pr, seed);
            eng_platform *p = random_platform(pr, hetero, two_pools, &cores, failing);
            gsl_rng_free(pr);
            const struct variant *var = k < n_registered ? NULL : &variants[k - n_registered];
            const pol_type *type = var ? pol_find(var->policy) : list[k];
            const char *name = type->name;
            bl_opts o = {.policy_type = type,
                         .alloc = alloc,
                         .walltime = wt,
                         .failures = {.enabled = failing,
                                      .epoch_s = 900,
                                      .seed = seed,
                                      .requeue = requeue,
                                      .max_requeues = 20},
                         .options = var ? var->options : NULL,
                         .n_options = var ? var->n_options : 0,
                         .users = users,
                         .groups = groups,
                         .feedback = !feedback   ? ENG_FEEDBACK_NONE
                                     : round % 2 ? ENG_FEEDBACK_SWF
                                                 : ENG_FEEDBACK_SESSIONS,
                         .prev_jobs = prev,
                         .think_s = think,
                         .power_save = {.enabled = idle,
                                        .suspend_time_s = (round / 4) % 2 ? 600 : 0,
                                        .suspend_timeout_s = 20,
                                        .resume_timeout_s = (round / 2) % 2 ? 120 : 30,
                                        .suspend_rate = (round / 8) % 2 ? 3 : 0,
                                        .resume_rate = (round / 8) % 2 ? 2 : 0}};
            bl_sched s;
            int rc = bl_core_run(name, jobs, n, p, &o, &s);
            runs++;
            if (alloc == POL_ALLOC_CORE && !(type->flags & POL_FLAG_CORES)) {
                CU_ASSERT_EQUAL(rc, ENG_USAGE); /* it does not declare core allocation */
                bl_sched_fini(&s);
                continue;
            }
            if (idle && var && strcmp(name, "conservative") == 0) {
                CU_ASSERT_EQUAL(rc, ENG_USAGE); /* its predictor does not plan with boots */
                bl_sched_fini(&s);
                continue;
            }
            if (run_clean(rc, &s, "", round, name, var, &failures)) {
                const eng_job_result *res = eng_core_results(s.core);
                if (feedback)
                    CU_ASSERT(s.prep.n_fb_deps > s.prep.n_jobs / 4);
                for (size_t i = 0; i < s.prep.n_jobs; i++) {
                    const eng_sim_job *j = &s.prep.jobs[i];
                    /* failed: killed at a failure, or requeued up to the limit */
                    CU_ASSERT(res[i].state == ENG_JOB_DONE || res[i].state == ENG_JOB_KILLED ||
                              (failing && res[i].state == ENG_JOB_FAILED &&
                               res[i].requeues == (requeue ? 20 : 0)));
                    CU_ASSERT(res[i].start_s >= res[i].submit_s);
                    if (!feedback)
                        CU_ASSERT_EQUAL(res[i].submit_s, j->submit_s);
                    /* with feedback: submitted its think time after its
                     * predecessor's end, or at its logged submit */
                    int32_t pr = s.prep.pred ? s.prep.pred[i] : -1;
                    if (feedback && pr >= 0)
                        CU_ASSERT_EQUAL(res[i].submit_s, res[pr].end_s + s.prep.think_s[i]);
                    if (feedback && pr < 0)
                        CU_ASSERT_EQUAL(res[i].submit_s, j->submit_s);
                    /* no job outlives its estimate (compared as the core
                     * computes both ends: start + duration, start + estimate) */
                    CU_ASSERT(res[i].end_s <= res[i].start_s + j->estimate_s);
                    if (wt == ENG_WALLTIME_EXTEND && !failing)
                        CU_ASSERT_EQUAL(res[i].state, ENG_JOB_DONE);
                }
            }
            bl_sched_fini(&s);
        }
        free(jobs);
        free(users);
        free(groups);
        free(prev);
        free(think);
    }
    printf("\n  %d runs, %d failures ", runs, failures);
    gsl_rng_free(r);
}

/* --init-planned no (eng_policy.h): every policy that carries
 * POL_FLAG_REPLANS, and the Packet paper reading and EASY on predictions,
 * on random workloads whose types take 120 s or 300 s of initialization,
 * planned without it; checker on (a promise broken only because a job
 * overran its plan is excused, every other is caught). No job outlives
 * its estimate by more than its initialization; every other policy is
 * refused with a usage error. */
static void test_conformance_init_unplanned(void)
{
    static const eng_init_time init[] = {{.type = 1, .seconds = 300},
                                         {.any = true, .seconds = 120}};
    static const struct variant extra[] = {
        {"packet", {{"variant", "paper"}}, 1},
        {"easy", {{"predictor", "user2"}, {"backfill_order", "sjf"}}, 2},
    };
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20261126);
    size_t n_registered;
    bool libs;
    const pol_type *const *list = suite_types(&n_registered, &libs);
    size_t n_extra = libs ? 0 : sizeof extra / sizeof extra[0];
    int runs = 0, failures = 0;
    for (int round = 0; round < 24; round++) {
        bool hetero = round % 2, two_pools = (round / 2) % 2;
        pol_alloc alloc = (round / 4) % 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE;
        eng_walltime wt = (round / 8) % 2 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL;
        int cores;
        eng_platform *proto = random_platform(r, hetero, two_pools, &cores, false);
        int max_procs = (two_pools ? 4 : 12) * cores;
        eng_platform_destroy(proto);
        size_t n = 200 + gsl_rng_uniform_int(r, 300);
        bl_jobspec *jobs = random_jobs(r, n, max_procs, 2);
        unsigned long seed = gsl_rng_get(r);
        for (size_t k = 0; k < n_registered + n_extra; k++) {
            if (k < n_registered && (list[k]->flags & POL_FLAG_EXTERNAL))
                continue; /* runs only with its peer (test_pol_batsim.c) */
            gsl_rng *pr = gsl_rng_alloc(gsl_rng_mt19937);
            gsl_rng_set(pr, seed);
            eng_platform *p = random_platform(pr, hetero, two_pools, &cores, false);
            gsl_rng_free(pr);
            const struct variant *var = k < n_registered ? NULL : &extra[k - n_registered];
            const pol_type *type = var ? pol_find(var->policy) : list[k];
            const char *name = type->name;
            bool replans = (type->flags & POL_FLAG_REPLANS) &&
                           (alloc == POL_ALLOC_NODE || (type->flags & POL_FLAG_CORES));
            bl_opts o = {.policy_type = type,
                         .alloc = alloc,
                         .walltime = wt,
                         .init_times = init,
                         .n_init_times = 2,
                         .init_unplanned = true,
                         .options = var ? var->options : NULL,
                         .n_options = var ? var->n_options : 0};
            bl_sched s;
            int rc = bl_core_run(name, jobs, n, p, &o, &s);
            runs++;
            if (!replans) {
                CU_ASSERT_EQUAL(rc, ENG_USAGE);
                bl_sched_fini(&s);
                continue;
            }
            if (run_clean(rc, &s, "", round, name, var, &failures)) {
                const eng_job_result *res = eng_core_results(s.core);
                for (size_t i = 0; i < s.prep.n_jobs; i++) {
                    const eng_sim_job *j = &s.prep.jobs[i];
                    CU_ASSERT(res[i].start_s >= j->submit_s);
                    CU_ASSERT(res[i].end_s <= res[i].start_s + j->estimate_s + j->init_s);
                }
            }
            bl_sched_fini(&s);
        }
        free(jobs);
    }
    printf("\n  %d runs, %d failures ", runs, failures);
    gsl_rng_free(r);
}

/* 12 hosts in islands of 5, 4 and 3 (or 7 and 5) hosts, named so that
 * the islands interleave in name order. */
static eng_platform *island_platform(gsl_rng *r, bool three, int *cores, bool failing)
{
    enum { N = 12 };
    eng_host_desc d[N];
    char names[N][8], occ[N][16];
    *cores = 1 + (int)gsl_rng_uniform_int(r, 4);
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i + 1);
        snprintf(occ[i], sizeof occ[i], "%.3f", 0.02 + 0.2 * gsl_rng_uniform(r));
        const char *isl = three ? (i % 4 == 3 ? "z" : i < 7 ? "x" : "y") : (i % 2 ? "x" : "y");
        d[i] = (eng_host_desc){.name = names[i],
                               .speed_flops = 1e9,
                               .sg_cores = *cores,
                               .island = isl,
                               .occupation = failing ? occ[i] : NULL};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("islands", d, N, "1Gf", &p, &diag);
    return p;
}

/* Configurations run besides every policy's defaults in the island
 * rounds: Packet's other readings, each of which places packets itself,
 * and sa naming the fastest hosts of the island it picks. */
static const struct variant island_variants[] = {
    {"sa", {{"hosts", "fastest"}}, 1},
    {"packet", {{"variant", "paper"}}, 1},
    {"packet", {{"variant", "paper"}, {"select", "block"}}, 2},
    {"packet", {{"mode", "greedy"}, {"horizon", "600"}}, 2},
    {"packet", {{"scaling", "none"}}, 1},
};

/* Every policy that plans with islands, on random workloads over islands,
 * checker on (its promises included): no start is refused, and every job
 * whose units (a packet member: its packet's) fit in one island ran
 * within one. The others are refused. */
static void test_conformance_islands(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 20261126);
    size_t n_registered;
    bool libs;
    const pol_type *const *list = suite_types(&n_registered, &libs);
    size_t n_policies = n_registered +
                        (libs ? 0 : sizeof island_variants / sizeof island_variants[0]);
    int runs = 0, failures = 0;
    for (int round = 0; round < 24; round++) {
        bool three = round % 2;
        pol_alloc alloc = (round / 2) % 3 == 2 ? POL_ALLOC_CORE : POL_ALLOC_NODE;
        eng_walltime wt = (round / 6) % 2 ? ENG_WALLTIME_EXTEND : ENG_WALLTIME_KILL;
        bool failing = round >= 16, requeue = failing && (round / 2) % 2;
        int cores;
        unsigned long seed = gsl_rng_get(r);
        gsl_rng *pr = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(pr, seed);
        eng_platform *proto = island_platform(pr, three, &cores, failing);
        eng_platform_destroy(proto);
        size_t n = 200 + gsl_rng_uniform_int(r, 300);
        bl_jobspec *jobs = random_jobs(r, n, 12 * cores, 1);
        for (size_t k = 0; k < n_policies; k++) {
            if (k < n_registered && (list[k]->flags & POL_FLAG_EXTERNAL))
                continue; /* runs only with its peer (test_pol_batsim.c) */
            gsl_rng_set(pr, seed);
            eng_platform *p = island_platform(pr, three, &cores, failing);
            const eng_pool *pool = &p->pools[0];
            int64_t largest = 0;
            for (int32_t i = 0; i < pool->n_islands; i++) {
                int64_t u = alloc == POL_ALLOC_NODE ? pool->island_hosts[i] : pool->island_cores[i];
                largest = u > largest ? u : largest;
            }
            bl_opts o = {.alloc = alloc,
                         .walltime = wt,
                         .failures = {.enabled = failing,
                                      .epoch_s = 900,
                                      .seed = seed,
                                      .requeue = requeue,
                                      .max_requeues = 20}};
            const struct variant *var = k < n_registered ? NULL
                                                         : &island_variants[k - n_registered];
            const pol_type *type = var ? pol_find(var->policy) : list[k];
            const char *name = type->name;
            o.policy_type = type;
            if (var) {
                o.options = var->options;
                o.n_options = var->n_options;
            }
            bl_sched s;
            int rc = bl_core_run(name, jobs, n, p, &o, &s);
            bool plans = type->flags & POL_FLAG_ISLANDS;
            bool node_only = !(type->flags & POL_FLAG_CORES) ||
                             !(type->flags & POL_FLAG_ISLANDS_CORES);
            bool refused = !plans || (alloc == POL_ALLOC_CORE && node_only);
            runs++;
            if (refused) {
                CU_ASSERT_EQUAL(rc, ENG_USAGE);
                bl_sched_fini(&s);
                continue;
            }
            if (run_clean(rc, &s, "islands ", round, name, var, &failures)) {
                const eng_job_result *res = eng_core_results(s.core);
                const int32_t *hosts = eng_core_alloc_hosts(s.core);
                for (size_t i = 0; i < s.prep.n_jobs; i++) {
                    if (res[i].units > largest || res[i].n_hosts == 0)
                        continue;
                    int32_t isl = s.p->hosts[hosts[res[i].hosts_off]].island;
                    for (int32_t h = 1; h < res[i].n_hosts; h++)
                        CU_ASSERT_EQUAL(s.p->hosts[hosts[res[i].hosts_off + (size_t)h]].island,
                                        isl);
                }
            }
            bl_sched_fini(&s);
        }
        gsl_rng_free(pr);
        free(jobs);
    }
    printf("\n  %d runs, %d failures ", runs, failures);
    gsl_rng_free(r);
}

int bl_suite_pol_registry(void)
{
    CU_pSuite s = CU_add_suite("pol_registry", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "lookup and names", test_lookup);
    CU_add_test(s, "option validation", test_option_validation);
    CU_add_test(s, "trying options of a policy without init", test_try_options_without_init);
    CU_add_test(s, "policy names joined without a fixed buffer", test_names_join);
    CU_add_test(s, "declared option defaults are the ones init takes", test_declared_defaults);
    CU_add_test(s, "conformance: every policy, random workloads, checker on", test_conformance);
    CU_add_test(s, "conformance with initialization not planned, checker on",
                test_conformance_init_unplanned);
    CU_add_test(s, "conformance with islands: placement and promises, checker on",
                test_conformance_islands);
    return 0;
}
