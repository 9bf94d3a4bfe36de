/* test_cli_platform.c — `batchlab platform --from-log` (tools/cli_platform.c):
 * a header's MaxNodes, MaxProcs and Queue lines become hosts, cores and
 * queue_limits, with comments saying what was guessed; the file loads
 * unchanged in `batchlab run`, which drops the jobs over their queue's
 * limits; node types from per-partition counts; the same log gives the
 * same bytes; KTH-SP2's header gives platforms/kth-sp2.xml's schedule;
 * usage errors exit 2, a bad log exits 1 and leaves no file. */
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 4 nodes of 2 cores; queue 1 at most 100 s and 2 nodes. Jobs:
 *  1: queue 1, 4 procs = 2 nodes, request 100: within the limits;
 *  2: queue 1, 6 procs = 3 nodes: over max_nodes, dropped;
 *  3: queue 1, request 200 > 100: dropped;
 *  4: queue 2, 8 procs, request 1000: no limits, kept;
 *  5: queue 1, 2 procs, no request: given queue 1's 100 s, kept. */
static const char log_text[] = "; Version: 2.2\n"
                               "; Computer: test -- machine\n"
                               "; MaxNodes: 4\n"
                               "; MaxProcs: 8\n"
                               "; Queue: 1 short MaxRuntime=100 MaxNodes=2\n"
                               "; Queue: 2 long\n"
                               "1 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                               "2 0 0 50 6 -1 -1 6 100 -1 1 1 1 -1 1 -1 -1 -1\n"
                               "3 10 0 50 2 -1 -1 2 200 -1 1 2 1 -1 1 -1 -1 -1\n"
                               "4 10 0 50 8 -1 -1 8 1000 -1 1 2 1 -1 2 -1 -1 -1\n"
                               "5 20 0 50 2 -1 -1 2 -1 -1 1 2 1 -1 1 -1 -1 -1\n";

static void test_from_log_runs(void)
{
    const char *log = bl_write_tmp("plat.swf", log_text);
    char xml[600], xml2[600], out[600];
    snprintf(xml, sizeof xml, "%s/plat.xml", bl_tmpdir());
    snprintf(xml2, sizeof xml2, "%s/plat2.xml", bl_tmpdir());
    snprintf(out, sizeof out, "%s/plat-run", bl_tmpdir());
    char *o = NULL;
    CU_ASSERT_EQUAL(bl_run(&o, "platform --from-log %s -o %s", log, xml), 0);
    free(o);
    char *x = bl_slurp(xml, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_TRUE(bl_contains(x, "radical=\"1-4\" speed=\"1Gf\" core=\"2\""));
    CU_ASSERT_TRUE(bl_contains(x, "<prop id=\"queue_limits\" value=\"1:max_runtime_s=100,"
                                  "max_nodes=2\"/>"));
    CU_ASSERT_TRUE(
        bl_contains(x, "- 4 hosts of 2 cores (cluster t1), from MaxNodes 4, MaxProcs 8"));
    CU_ASSERT_TRUE(bl_contains(x, "Guessed (the header does not say; edit):"));
    CU_ASSERT_TRUE(bl_contains(x, "- queue 1 (short): 4 jobs, 6 processors, requests 200 s"));
    CU_ASSERT_TRUE(bl_contains(x, "Computer: test - machine")); /* no "--" in a comment */
    /* the same log, the same bytes */
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log %s -o %s", log, xml2), 0);
    char *y = bl_slurp(xml2, NULL);
    CU_ASSERT_TRUE(y && strcmp(x, y) == 0);
    free(y);
    free(x);
    /* loadable unchanged: jobs 2 and 3 are over their queue's limits */
    CU_ASSERT_EQUAL(
        bl_run(&o, "run --platform %s --workload %s --policy easy --out %s", xml, log, out), 0);
    CU_ASSERT_TRUE(bl_contains(o, "dropped            2 (2 over-queue-limit)"));
    CU_ASSERT_TRUE(bl_contains(o, "1 job had no requested time: given its queue's max_runtime_s"));
    free(o);
    char sum[700];
    snprintf(sum, sizeof sum, "%s/summary.json", out);
    char *s = bl_slurp(sum, NULL);
    CU_ASSERT_TRUE(s && bl_contains(s, "\"over-queue-limit\": 2"));
    CU_ASSERT_TRUE(s && bl_contains(s, "\"request_from_queue_limit\": 1"));
    free(s);
}

/* Per-partition counts in parentheses give one cluster per node type:
 * 16 nodes of 32 / 16 = 2 cores and 8 of 32 / 8 = 4. Without MaxProcs a
 * node has one core, said to be guessed. */
static void test_node_types_and_guesses(void)
{
    const char *log = bl_write_tmp("types.swf", "; MaxNodes: 24 (16 + 8)\n"
                                                "; MaxProcs: 64 (32 + 32)\n"
                                                "1 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n");
    char xml[600];
    snprintf(xml, sizeof xml, "%s/types.xml", bl_tmpdir());
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log %s -o %s", log, xml), 0);
    char *x = bl_slurp(xml, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT_TRUE(bl_contains(x, "<cluster id=\"t1\" prefix=\"t1-\" suffix=\"\" radical=\"1-16\" "
                                  "speed=\"1Gf\" core=\"2\""));
    CU_ASSERT_TRUE(bl_contains(x, "<cluster id=\"t2\" prefix=\"t2-\" suffix=\"\" radical=\"1-8\" "
                                  "speed=\"1Gf\" core=\"4\""));
    CU_ASSERT_FALSE(strstr(x, "queue_limits\" value") != NULL);
    free(x);
    const char *bare = bl_write_tmp("bare.swf", "; MaxNodes: 6\n"
                                                "1 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 -1 -1 -1\n");
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log %s -o %s", bare, xml), 0);
    x = bl_slurp(xml, NULL);
    CU_ASSERT_TRUE(x && bl_contains(x, "the header gives no MaxProcs: one core a node (guessed)"));
    CU_ASSERT_TRUE(x && bl_contains(x, "radical=\"1-6\" speed=\"1Gf\" core=\"1\""));
    free(x);
}


/* KTH-SP2's header (MaxNodes 100, MaxProcs 100, no queue lines) gives the
 * machine of platforms/kth-sp2.xml: EASY's schedule on the written
 * platform is the same, job by job (jobs.csv's first 14 columns: the
 * hosts' names differ). Skipped without the log. */
static void test_kth_same_schedule(void)
{
    const char *log = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    if (!log) {
        bl_skip_case("KTH-SP2-1996-2.1-cln.swf absent from %s", bl_traces_dir());
        return;
    }
    const char *dir = bl_tmpdir();
    char cmd[4096], *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log %s -o %s/kth.xml", log, dir), 0);
    CU_ASSERT_EQUAL(bl_run(NULL,
                           "run --platform %s/kth.xml --workload %s --policy easy --out %s/kth-a",
                           dir, log, dir),
                    0);
    CU_ASSERT_EQUAL(bl_run(NULL, "run --platform %s --workload %s --policy easy --out %s/kth-b",
                           bl_src("platforms/kth-sp2.xml"), log, dir),
                    0);
    snprintf(cmd, sizeof cmd, "cut -d, -f1-14 %s/kth-a/jobs.csv", dir);
    CU_ASSERT_EQUAL(bl_system(cmd, &a), 0);
    snprintf(cmd, sizeof cmd, "cut -d, -f1-14 %s/kth-b/jobs.csv", dir);
    CU_ASSERT_EQUAL(bl_system(cmd, &b), 0);
    CU_ASSERT_TRUE(a && b && strlen(a) > 1000 && strcmp(a, b) == 0);
    free(a);
    free(b);
}


/* Partition lines with sizes: one cluster per partition, serving it (SWF
 * field 16). Partition 1: 2 nodes of 1 core; partition 2: 1 node of 4.
 * J1 (partition 1, 2 procs) and J2 (partition 2, 4 procs) run; J3
 * (partition 1, 4 procs) is larger than its partition: too-large, though
 * partition 2's node could hold it. */
static void test_partition_lines(void)
{
    const char *log = bl_write_tmp("parts.swf", "; MaxNodes: 3\n"
                                                "; MaxProcs: 6\n"
                                                "; Partition: 1 thin MaxNodes=2 MaxProcs=2\n"
                                                "; Partition: 2 fat MaxNodes=1 MaxProcs=4\n"
                                                "1 0 0 50 2 -1 -1 2 100 -1 1 1 1 -1 1 1 -1 -1\n"
                                                "2 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 2 -1 -1\n"
                                                "3 0 0 50 4 -1 -1 4 100 -1 1 1 1 -1 1 1 -1 -1\n");
    char xml[600], out[600];
    snprintf(xml, sizeof xml, "%s/parts.xml", bl_tmpdir());
    snprintf(out, sizeof out, "%s/parts-run", bl_tmpdir());
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log %s -o %s", log, xml), 0);
    char *x = bl_slurp(xml, NULL);
    CU_ASSERT_TRUE(x && bl_contains(x, "radical=\"1-2\" speed=\"1Gf\" core=\"1\"\n"
                                       "             bw=\"10Gbps\" lat=\"10us\">\n"
                                       "      <prop id=\"partitions\" value=\"1\"/>"));
    CU_ASSERT_TRUE(x && bl_contains(x, "<prop id=\"partitions\" value=\"2\"/>"));
    free(x);
    char *o = NULL;
    CU_ASSERT_EQUAL(
        bl_run(&o, "run --platform %s --workload %s --policy easy --out %s", xml, log, out), 0);
    CU_ASSERT_TRUE(bl_contains(o, "3 read, 2 simulated"));
    CU_ASSERT_TRUE(bl_contains(o, "dropped            1 (1 too-large)"));
    free(o);
}

static void test_errors(void)
{
    char xml[600];
    snprintf(xml, sizeof xml, "%s/none.xml", bl_tmpdir());
    char *o = NULL;
    CU_ASSERT_EQUAL(bl_run(&o, "platform -o %s", xml), 2);
    CU_ASSERT_TRUE(bl_contains(o, "--from-log and -o are required"));
    free(o);
    CU_ASSERT_EQUAL(bl_run(NULL, "platform --from-log x.swf --bogus"), 2);
    const char *bad = bl_write_tmp("bad-plat.swf", "; MaxNodes: 4\n1 0 0 x\n");
    CU_ASSERT_EQUAL(bl_run(&o, "platform --from-log %s -o %s", bad, xml), 1);
    CU_ASSERT_TRUE(bl_contains(o, "bad-plat.swf:2:"));
    free(o);
    CU_ASSERT_NOT_EQUAL(access(xml, F_OK), 0); /* nothing half-written */
    CU_ASSERT_EQUAL(bl_run(&o, "platform --help"), 0);
    CU_ASSERT_TRUE(bl_contains(o, "--from-log LOG"));
    free(o);
}

int bl_suite_cli_platform(void)
{
    CU_pSuite s = CU_add_suite("cli_platform", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "from a log's header to a platform that run loads", test_from_log_runs);
    CU_add_test(s, "node types from per-partition counts; guesses said",
                test_node_types_and_guesses);
    CU_add_test(s, "Partition lines: a cluster per partition, jobs by field 16",
                test_partition_lines);
    CU_add_test(s, "usage errors exit 2, a bad log 1 and no file", test_errors);
    CU_add_test(s, "KTH-SP2: the header's machine schedules as platforms/kth-sp2.xml",
                test_kth_same_schedule);
    return 0;
}
