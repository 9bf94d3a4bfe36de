/* test_traces.c — replays of the real Parallel Workloads Archive logs in
 * the logs' folder (BATCHLAB_TRACES, else the build's BATCHLAB_TRACES_DIR)
 * under every registered policy with
 * the invariant checker on. Skipped, not failed, when the logs are absent.
 *
 * Facts checked: job and drop counts from the logs themselves (KTH: one job
 * has no processor count; SDSC: 5 671 jobs have run time -1), the kills
 * under the default walltime policy (the archive's notes: 475 KTH jobs and
 * 4 134 SDSC jobs ran past their request), utilization in (0, 1], and
 * Little's law: the time-weighted queue length equals the arrival rate
 * times the mean wait within 2 %. Under core allocation on hosts of 32
 * cores, the replays under easy and conservative write their outputs, and
 * jobs.csv's core indices are checked (tests/bl_cores.h: no core held by
 * two jobs at once, each job its count). */
#include "bl_cores.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_run.h"
#include "pol_registry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct trace_case {
    const char *file, *platform;
    size_t input, simulated, dropped_no_runtime, dropped_no_procs, killed;
} trace_case;

static const trace_case cases[] = {
    {"KTH-SP2-1996-2.1-cln.swf", "platforms/kth-sp2.xml", 28476, 28475, 0, 1, 475},
    {"SDSC-SP2-1998-4.2-cln.swf.gz", "platforms/sdsc-sp2.xml", 59715, 54044, 5671, 0, 4134},
};

static void replay(const trace_case *c)
{
    const char *path = bl_trace(c->file);
    if (!path) {
        bl_skip_case("%s absent from %s: not replayed", c->file, bl_traces_dir());
        return;
    }
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_swf_read(path, NULL, &w, &d), 0);
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t k = 0; k < n; k++) {
        if (list[k]->flags & POL_FLAG_EXTERNAL)
            continue; /* runs only with its peer (test_pol_batsim.c) */
        eng_run_spec spec = {
            .platform_path = bl_src(c->platform),
            .workload = w,
            .sim = {.core = {.policy = list[k], .check = true}},
            .manifest = {.command = "test", .policy = list[k]->name},
        };
        eng_run_report rep;
        eng_diag_clear(&d);
        int rc = eng_run_isolated(&spec, &rep, &d);
        if (rc)
            printf("\n  %s under %s: %s", c->file, list[k]->name, d.msg);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            continue;
        const eng_summary *s = &rep.summary;
        printf("\n  %s %-13s mean wait %9.1f s, bsld %8.2f, util %.4f, %.2f s wall", c->file,
               list[k]->name, s->wait_mean_s, s->bsld_mean, s->utilization, rep.wall_s);
        CU_ASSERT_EQUAL(s->n_input, c->input);
        CU_ASSERT_EQUAL(s->n_simulated, c->simulated);
        CU_ASSERT_EQUAL(s->n_dropped[ENG_DROP_NO_RUNTIME], c->dropped_no_runtime);
        CU_ASSERT_EQUAL(s->n_dropped[ENG_DROP_NO_PROCS], c->dropped_no_procs);
        CU_ASSERT_EQUAL(s->n_killed, c->killed);
        CU_ASSERT(s->utilization > 0 && s->utilization <= 1);
        double little = (double)s->n_simulated / s->makespan_s * s->wait_mean_s;
        CU_ASSERT(fabs(s->queue_mean - little) <= 0.02 * s->queue_mean);
        eng_run_report_fini(&rep);
    }
    eng_workload_destroy(w);
}

/* A uniform cluster of 32-core hosts holding the log's processors. */
static const char *cluster_32(int64_t procs, int *hosts)
{
    *hosts = (int)((procs + 31) / 32);
    char xml[512];
    snprintf(xml, sizeof xml,
             "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\"><zone id=\"world\" routing=\"Full\">\n"
             "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" "
             "core=\"32\" bw=\"10Gbps\" lat=\"1us\"/>\n</zone></platform>\n",
             *hosts - 1);
    return bl_write_tmp("cluster-32.xml", xml);
}

/* The log under easy and conservative with core allocation and outputs;
 * jobs.csv's core indices checked. */
static void replay_cores(const trace_case *c, int64_t max_procs)
{
    const char *path = bl_trace(c->file);
    if (!path) {
        bl_skip_case("%s absent from %s: not replayed", c->file, bl_traces_dir());
        return;
    }
    int hosts;
    char platform[1024];
    snprintf(platform, sizeof platform, "%s", cluster_32(max_procs, &hosts));
    eng_platform *p = bl_uniform_platform(hosts, 32);
    static const char *const policies[] = {"easy", "conservative"};
    for (size_t k = 0; k < 2; k++) {
        char out[1024], jobs[1100];
        snprintf(out, sizeof out, "%s/out", bl_tmpdir());
        char *o = NULL;
        int rc = bl_run(&o,
                        "run -q --platform %s --workload %s --policy %s --alloc core --check "
                        "--lenient --out %s",
                        platform, path, policies[k], out);
        if (rc)
            printf("\n  %s under %s with core allocation: exit %d: %s", c->file, policies[k], rc,
                   o);
        CU_ASSERT_EQUAL(rc, 0);
        free(o);
        snprintf(jobs, sizeof jobs, "%s/jobs.csv", out);
        char *text = rc ? NULL : bl_slurp(jobs, NULL);
        bl_cores_csv csv;
        char why[256] = "";
        int bad = text ? bl_cores_csv_parse(text, &csv, why, sizeof why) : -1;
        if (!bad) {
            bad = bl_cores_check(csv.jobs, csv.n_jobs, p, NULL, NULL, why, sizeof why);
            printf("\n  %s %-13s core allocation on %d x 32 cores: %zu jobs' core indices "
                   "checked",
                   c->file, policies[k], hosts, csv.n_jobs);
            bl_cores_csv_fini(&csv);
        }
        if (bad && text)
            printf("\n  %s under %s: %s", c->file, policies[k], why);
        CU_ASSERT_EQUAL(bad, 0);
        free(text);
    }
    eng_platform_destroy(p);
}

static void test_kth(void)
{
    replay(&cases[0]);
}

/* KTH SP2: MaxProcs 100; SDSC SP2: 128. */
static void test_kth_cores(void)
{
    replay_cores(&cases[0], 100);
}

static void test_sdsc_cores(void)
{
    replay_cores(&cases[1], 128);
}

static void test_sdsc(void)
{
    replay(&cases[1]);
}

int bl_suite_traces(void)
{
    if (!bl_trace(cases[0].file) && !bl_trace(cases[1].file))
        return bl_skip("no Parallel Workloads Archive logs in %s", bl_traces_dir());
    CU_pSuite s = CU_add_suite("traces", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "KTH SP2 under every policy, checker on", test_kth);
    CU_add_test(s, "SDSC SP2 under every policy, checker on", test_sdsc);
    CU_add_test(s, "KTH SP2 with core allocation, core indices checked", test_kth_cores);
    CU_add_test(s, "SDSC SP2 with core allocation, core indices checked", test_sdsc_cores);
    return 0;
}
