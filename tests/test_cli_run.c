/* test_cli_run.c — what a replay from the command line takes (tools/cli_run.c)
 * beside the end-to-end runs of test_cli_main.c: the manifest's command
 * line quoted for a shell (a word of quotes takes four bytes each), the
 * grouped numbers of the printouts, and the labels and settings the
 * configuration's inputs give the manifest. */
#include "bl_test.h"
#include "cli_args.h"
#include "cli_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_command_line(void)
{
    const char *words[] = {"run", "--out", "a b", "''''", "", "x'y"};
    char *s = bl_command_line(6, words);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "batchlab run --out 'a b' ''\\'''\\'''\\'''\\''' '' 'x'\\''y'");
    free(s);
    s = bl_command_line(0, NULL);
    CU_ASSERT_STRING_EQUAL(s, "batchlab");
    free(s);
}

static void test_grouped(void)
{
    char b[64];
    CU_ASSERT_STRING_EQUAL(bl_fmt_grouped(b, sizeof b, 1234567, 0), "1,234,567");
    CU_ASSERT_STRING_EQUAL(bl_fmt_grouped(b, sizeof b, -1234.5, 1), "-1,234.5");
    CU_ASSERT_STRING_EQUAL(bl_fmt_grouped(b, sizeof b, 999, 2), "999.00");
}

/* The configuration of a command line (after "run"), its inputs read. */
static int inputs(const char *const *args, int n, bl_run_config *cfg, bl_run_inputs *in)
{
    char *argv[16] = {"run"};
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    bl_args a;
    int rc = bl_args_parse("run", bl_run_opts, bl_run_n_opts, n + 1, argv, 1, &a);
    if (rc == 0)
        rc = bl_run_parse("run", &a, cfg, in);
    bl_args_fini(&a);
    return rc;
}

static const char *setting(const bl_run_inputs *in, const char *key)
{
    for (size_t i = 0; i < in->n_settings; i++)
        if (strcmp(in->settings[i].key, key) == 0)
            return in->settings[i].kind == ENG_SETTING_STRING ? in->settings[i].string : "";
    return NULL;
}

static void test_labels(void)
{
    bl_run_config cfg;
    bl_run_inputs in;
    const char *plain[] = {"--platform", "p.xml", "--workload", "w.swf"};
    CU_ASSERT_EQUAL_FATAL(inputs(plain, 4, &cfg, &in), 0);
    CU_ASSERT_STRING_EQUAL(setting(&in, "initialization"), "none");
    CU_ASSERT_STRING_EQUAL(setting(&in, "failures"), "none");
    CU_ASSERT_STRING_EQUAL(setting(&in, "walltime"), "kill");
    bl_run_inputs_fini(&in);
    /* the share as typed, and the failure model's label */
    const char *some[] = {"--platform",   "p.xml", "--workload",     "w.swf",
                          "--init-share", "0.050", "--init-planned", "no",
                          "--failures",   "model", "--on-failure",   "requeue"};
    CU_ASSERT_EQUAL_FATAL(inputs(some, 12, &cfg, &in), 0);
    CU_ASSERT_STRING_EQUAL(setting(&in, "initialization"), "share 0.050, not planned");
    CU_ASSERT_STRING_EQUAL(setting(&in, "failures"), "model, epoch 3600 s, requeue up to 5 times");
    bl_run_inputs_fini(&in);
    /* the rules between options: usage errors (their messages on stderr) */
    const char *both[] = {"--platform",   "p.xml", "--workload",   "w.swf",
                          "--init-share", "0.1",   "--init-times", "t.txt"};
    CU_ASSERT_EQUAL(inputs(both, 8, &cfg, &in), 2);
    bl_run_inputs_fini(&in);
    const char *none[] = {"--workload", "w.swf"};
    CU_ASSERT_EQUAL(inputs(none, 2, &cfg, &in), 2);
    bl_run_inputs_fini(&in);
}

int bl_suite_cli_run(void)
{
    CU_pSuite s = CU_add_suite("cli_run", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "the manifest's command line, quoted", test_command_line);
    CU_add_test(s, "grouped numbers", test_grouped);
    CU_add_test(s, "the labels and settings of the inputs", test_labels);
    return 0;
}
