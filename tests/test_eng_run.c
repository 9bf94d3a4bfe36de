/* test_eng_run.c — runs in a child process: the report, errors coming back
 * from the child, and SimGrid's own failures turned into messages. */
#include "bl_scenarios.h"
#include "bl_test.h"
#include "eng_run.h"

#include <string.h>

static void test_report(void)
{
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(
        bl_sim_run("easy", S2, N_OF(S2), bl_src("platforms/test/tiny-4.xml"), NULL, &rep, &d), 0);
    CU_ASSERT_EQUAL(rep.n_jobs, 4);
    CU_ASSERT_EQUAL(rep.n_platform_hosts, 4);
    CU_ASSERT_EQUAL(rep.summary.n_simulated, 4);
    CU_ASSERT_EQUAL(rep.summary.total_units, 4);
    long i = eng_run_report_find(&rep, 2);
    CU_ASSERT_EQUAL_FATAL(i, 1);
    CU_ASSERT_DOUBLE_EQUAL(rep.submit_s[i], 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(rep.start_s[i], 100, 0);
    CU_ASSERT_EQUAL(rep.n_hosts[i], 3);
    /* J1 (2 hosts) ended at 100: J2 takes hosts 0, 1 and the one J3 did
     * not, i.e. the runs 0-1 and 3 */
    CU_ASSERT_EQUAL_FATAL(rep.n_runs[i], 2);
    const eng_host_run *run = rep.runs + rep.runs_off[i];
    CU_ASSERT_EQUAL(run[0].host, 0);
    CU_ASSERT_EQUAL(run[0].n, 2);
    CU_ASSERT_EQUAL(run[1].host, 3);
    CU_ASSERT_EQUAL(run[1].n, 1);
    CU_ASSERT_EQUAL(run[1].cores, 1);
    CU_ASSERT_EQUAL(eng_run_report_find(&rep, 99), -1);
    CU_ASSERT(rep.wall_s >= 0);
    eng_run_report_fini(&rep);
}

static void test_child_errors(void)
{
    eng_run_report rep;
    eng_diag d;
    eng_diag_clear(&d);
    static const pol_kv bad[] = {{"backfill_order", "random"}};
    bl_opts o = {.options = bad, .n_options = 1};
    int rc = bl_sim_run("easy", S1, N_OF(S1), bl_src("platforms/test/tiny-4.xml"), &o, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "policy easy: option backfill_order: expected queue or "
                                         "sjf, got 'random'"));
    eng_diag_clear(&d);
    rc = bl_sim_run("easy", S1, N_OF(S1), "/no/such/platform.xml", NULL, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "/no/such/platform.xml: cannot open platform file"));
    /* SimGrid itself stops on a route to an unknown link */
    const char *broken = bl_write_tmp(
        "broken.xml", "<?xml version='1.0'?>\n"
                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
                      "<host id=\"a\" speed=\"1Gf\"/>\n<host id=\"b\" speed=\"1Gf\"/>\n"
                      "<route src=\"a\" dst=\"b\"><link_ctn id=\"nowhere\"/></route>\n"
                      "</zone>\n</platform>\n");
    eng_diag_clear(&d);
    rc = bl_sim_run("easy", S1, N_OF(S1), broken, NULL, &rep, &d);
    CU_ASSERT_EQUAL(rc, ENG_CHILD);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "SimGrid stopped: "));
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "nowhere"));
}

int bl_suite_eng_run(void)
{
    CU_pSuite s = CU_add_suite("eng_run", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "report of a child run", test_report);
    CU_add_test(s, "errors from the child", test_child_errors);
    return 0;
}
