/* test_cli_runopts.c — the run configuration's one table (cli_runopts.h):
 * defaults and values through the generic parser, the checks and their
 * messages, the choice names, --help from the rows, and every manifest key
 * a row names present in summary.json with the row's JSON type (the seed
 * an exact integer). */
#include "bl_test.h"
#include "cli_args.h"
#include "cli_runopts.h"

#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bl_opt opts[] = {BL_RUN_OPTS};

/* Parses argv (after "run") into cfg; the messages into *msg (heap). */
static int parse(const char *const *args, int n, bl_run_config *cfg, char **msg)
{
    char *argv[16] = {"run"};
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    size_t len = 0;
    *msg = NULL;
    FILE *mem = open_memstream(msg, &len);
    FILE *saved = bl_args_set_errors(mem);
    bl_args a;
    int rc = bl_args_parse("run", opts, sizeof opts / sizeof opts[0], n + 1, argv, 1, &a);
    if (rc == 0) {
        rc = bl_run_config_parse("run", &a, cfg);
        bl_args_fini(&a);
    }
    bl_args_set_errors(saved);
    fclose(mem);
    return rc;
}

static void test_defaults_and_values(void)
{
    bl_run_config c;
    char *msg;
    const char *none[] = {"--platform", "p.xml"};
    CU_ASSERT_EQUAL_FATAL(parse(none, 2, &c, &msg), 0);
    free(msg);
    CU_ASSERT_STRING_EQUAL(c.platform, "p.xml");
    CU_ASSERT_TRUE(c.platform_set);
    CU_ASSERT_PTR_NULL(c.workload);
    CU_ASSERT_EQUAL(c.walltime, 0);
    CU_ASSERT_FALSE(c.walltime_set);
    CU_ASSERT_EQUAL(c.seed, 1);
    CU_ASSERT_EQUAL(c.max_requeues, 5);
    CU_ASSERT_DOUBLE_EQUAL(c.failure_epoch, 3600, 0);
    CU_ASSERT(isnan(c.init_share));
    CU_ASSERT_EQUAL(c.outputs, 0);
    CU_ASSERT_FALSE(c.check);
    const char *some[] = {"--walltime",   "extend", "--type-field=app", "--seed", "42",
                          "--init-share", "0.25",   "--check",          "-q",     "--outputs",
                          "summary"};
    CU_ASSERT_EQUAL_FATAL(parse(some, 11, &c, &msg), 0);
    free(msg);
    CU_ASSERT_EQUAL(c.walltime, 1);
    CU_ASSERT_TRUE(c.walltime_set);
    CU_ASSERT_EQUAL(c.type_field, 2);
    CU_ASSERT_EQUAL(c.seed, 42);
    CU_ASSERT_DOUBLE_EQUAL(c.init_share, 0.25, 0);
    CU_ASSERT_TRUE(c.init_share_set);
    CU_ASSERT_TRUE(c.check && c.quiet);
    CU_ASSERT_NOT_EQUAL(c.outputs, 0);
    /* the value as typed, for the labels that quote it */
    CU_ASSERT_STRING_EQUAL(c.init_share_arg, "0.25");
    CU_ASSERT_PTR_NULL(c.check_arg);
    CU_ASSERT_PTR_NULL(c.workload_arg);
}

/* One option set by its row from its text, as on the command line (what a
 * sweep's task does for the options its grid sets). */
static void test_set(void)
{
    bl_run_config c;
    char *msg;
    const char *none[] = {"--check"};
    CU_ASSERT_EQUAL_FATAL(parse(none, 1, &c, &msg), 0);
    free(msg);
    CU_ASSERT_EQUAL(bl_run_config_set("run", &c, BL_RUN_ID_seed, "7"), 0);
    CU_ASSERT_EQUAL(c.seed, 7);
    CU_ASSERT_TRUE(c.seed_set);
    CU_ASSERT_STRING_EQUAL(c.seed_arg, "7");
    CU_ASSERT_EQUAL(bl_run_config_set("run", &c, BL_RUN_ID_walltime, "extend"), 0);
    CU_ASSERT_EQUAL(c.walltime, 1);
    CU_ASSERT_EQUAL(bl_run_config_set("run", &c, BL_RUN_ID_quiet, ""), 0);
    CU_ASSERT_TRUE(c.quiet && c.check);
    CU_ASSERT_EQUAL(bl_run_config_set("run", &c, BL_RUN_ID_out, "o"), 0);
    CU_ASSERT_STRING_EQUAL(c.out, "o");
    /* a bad value: the row's message, exit status 2 */
    size_t len = 0;
    msg = NULL;
    FILE *mem = open_memstream(&msg, &len);
    FILE *saved = bl_args_set_errors(mem);
    CU_ASSERT_EQUAL(bl_run_config_set("run", &c, BL_RUN_ID_seed, "9223372036854775808"), 2);
    bl_args_set_errors(saved);
    fclose(mem);
    CU_ASSERT(bl_contains(msg, "batchlab run: --seed: expected at most 9223372036854775807"));
    free(msg);
}

/* Each check of the table, at its edge. */
static void test_checks(void)
{
    static const struct {
        const char *name, *value, *message;
    } bad[] = {
        {"--init-share", "1", "--init-share: expected a value in [0, 1), got '1'"},
        {"--init-share", "-0.5", "--init-share: expected a value in [0, 1), got '-0.5'"},
        {"--failure-epoch", "0", "--failure-epoch: expected a positive duration, got '0'"},
        {"--max-requeues", "1000001", "--max-requeues: expected at most 1000000"},
        {"--seed", "9223372036854775808", "--seed: expected at most 9223372036854775807"},
        {"--procs", "both", "--procs: expected alloc or req, got 'both'"},
        {"--outputs", "everything", "--outputs: expected names among jobs"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bl_run_config c;
        char *msg;
        const char *args[] = {bad[i].name, bad[i].value};
        CU_ASSERT_EQUAL(parse(args, 2, &c, &msg), 2);
        CU_ASSERT(bl_contains(msg, bad[i].message));
        free(msg);
    }
    /* the edges that pass */
    bl_run_config c;
    char *msg;
    const char *ok[] = {"--init-share", "0",      "--max-requeues",
                        "1000000",      "--seed", "9223372036854775807"};
    CU_ASSERT_EQUAL(parse(ok, 6, &c, &msg), 0);
    free(msg);
    CU_ASSERT_EQUAL(c.seed, 9223372036854775807ULL);
}

/* The manifest's settings from the table: one per key, strings, then
 * booleans, then integers, each in table order (the order summary.json
 * has always had); a shared key takes its label's text. */
static void test_manifest_settings(void)
{
    bl_run_config c;
    char *msg;
    const char *args[] = {"--walltime", "extend", "--check", "--seed", "42"};
    CU_ASSERT_EQUAL_FATAL(parse(args, 5, &c, &msg), 0);
    free(msg);
    /* a key of one row takes its label when one is given (reservations:
     * the file's hash, composed where it is read) */
    const bl_run_label labels[] = {{"failures", "none (label)"},
                                   {"initialization", "share 0.1"},
                                   {"reservations", "r.txt (sha256 x, 1 reservation)"}};
    eng_setting st[BL_RUN_N];
    size_t n = bl_run_manifest(&c, labels, 3, st);
    static const char *const keys[] = {"walltime",     "alloc",          "islands",  "procs_field",
                                       "type_field",   "initialization", "failures", "feedback",
                                       "reservations", "lenient",        "check",    "seed"};
    CU_ASSERT_EQUAL_FATAL(n, sizeof keys / sizeof keys[0]);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_STRING_EQUAL(st[i].key, keys[i]);
    CU_ASSERT_STRING_EQUAL(st[0].string, "extend");
    CU_ASSERT_STRING_EQUAL(st[1].string, "node");
    CU_ASSERT_STRING_EQUAL(st[5].string, "share 0.1");
    CU_ASSERT_STRING_EQUAL(st[6].string, "none (label)");
    CU_ASSERT_STRING_EQUAL(st[7].string, "none");
    CU_ASSERT_STRING_EQUAL(st[8].string, "r.txt (sha256 x, 1 reservation)");
    CU_ASSERT_EQUAL(st[9].kind, ENG_SETTING_BOOL);
    CU_ASSERT_FALSE(st[9].boolean);
    CU_ASSERT_TRUE(st[10].boolean);
    CU_ASSERT_EQUAL(st[11].kind, ENG_SETTING_INT);
    CU_ASSERT_EQUAL(st[11].integer, 42);
    /* a label not given reads "" */
    n = bl_run_manifest(&c, NULL, 0, st);
    CU_ASSERT_STRING_EQUAL(st[5].string, "");
}

static void test_choice_names(void)
{
    CU_ASSERT_STRING_EQUAL(bl_run_choice_name("walltime", 0), "kill");
    CU_ASSERT_STRING_EQUAL(bl_run_choice_name("walltime", 1), "extend");
    CU_ASSERT_STRING_EQUAL(bl_run_choice_name("type-field", 2), "app");
    CU_ASSERT_STRING_EQUAL(bl_run_choice_name("on-failure", 1), "requeue");
    CU_ASSERT_PTR_NULL(bl_run_choice_name("walltime", 2));
    CU_ASSERT_PTR_NULL(bl_run_choice_name("seed", 0));
    CU_ASSERT_PTR_NULL(bl_run_choice_name("nope", 0));
}

/* --help of run and compare lists every row; summary.json's manifest holds
 * every key a row names, with the row's JSON type; the seed is exact above
 * 2^53 (a double would print 9007199254740992). */
static void test_help_and_manifest(void)
{
    size_t n;
    const bl_run_option_info *rows = bl_run_option_list(&n);
    CU_ASSERT_EQUAL(n, sizeof opts / sizeof opts[0]);
    char *out = NULL;
    for (const char *const *cmd = (const char *const[]){"run", "compare", NULL}; *cmd; cmd++) {
        CU_ASSERT_EQUAL(bl_run(&out, "%s --help", *cmd), 0);
        for (size_t i = 0; i < n; i++) {
            char want[64];
            snprintf(want, sizeof want, "--%s", rows[i].name);
            CU_ASSERT(bl_contains(out, want));
        }
        free(out);
    }
    const char *dir = bl_tmpdir();
    int st = bl_run(&out,
                    "run --platform '%s' --workload '%s' --policy fcfs --seed 9007199254740993 "
                    "--outputs summary -q --out '%s/manifest'",
                    bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"), dir);
    if (st != 0)
        printf("\n%s", out ? out : "");
    CU_ASSERT_EQUAL_FATAL(st, 0);
    free(out);
    char path[1024];
    snprintf(path, sizeof path, "%s/manifest/summary.json", dir);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *man = json_object_get(root, "manifest");
    CU_ASSERT_PTR_NOT_NULL_FATAL(man);
    size_t keyed = 0;
    for (size_t i = 0; i < n; i++) {
        if (!rows[i].manifest)
            continue;
        keyed++;
        json_t *v = json_object_get(man, rows[i].manifest);
        bool ok = v && ((strcmp(rows[i].json_type, "string") == 0 && json_is_string(v)) ||
                        (strcmp(rows[i].json_type, "boolean") == 0 && json_is_boolean(v)) ||
                        (strcmp(rows[i].json_type, "integer") == 0 && json_is_integer(v)));
        if (!ok)
            printf("\n  --%s: manifest.%s is not a %s\n", rows[i].name, rows[i].manifest,
                   rows[i].json_type);
        CU_ASSERT_TRUE(ok);
    }
    CU_ASSERT(keyed >= 9);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(man, "seed")), 9007199254740993LL);
    json_decref(root);
}

/* The words sweep task hands run: the grid's options by their table
 * names, in table order, a flag without a value; an option the grid does
 * not set (--walltime) and options without a value are left out. */
static void test_grid_words(void)
{
    const char *vals[BL_RUN_N] = {0};
    vals[BL_RUN_ID_platform] = "p.xml";
    vals[BL_RUN_ID_workload] = "w.swf";
    vals[BL_RUN_ID_out] = "runs/a";
    vals[BL_RUN_ID_seed] = "7";
    vals[BL_RUN_ID_outputs] = "summary";
    vals[BL_RUN_ID_quiet] = "";
    vals[BL_RUN_ID_walltime] = "extend"; /* not the grid's */
    const char *words[2 * BL_RUN_N];
    size_t n = bl_run_grid_words(vals, words);
    static const char *const want[] = {"--platform", "p.xml",   "--workload", "w.swf",
                                       "--out",      "runs/a",  "--seed",     "7",
                                       "--outputs",  "summary", "--quiet"};
    CU_ASSERT_EQUAL_FATAL(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_STRING_EQUAL(words[i], want[i]);
    /* the words parse back into the values (run's own parser) */
    bl_run_config cfg;
    char *msg = NULL;
    CU_ASSERT_EQUAL(parse(words, (int)n, &cfg, &msg), 0);
    free(msg);
    CU_ASSERT_STRING_EQUAL(cfg.platform, "p.xml");
    CU_ASSERT_EQUAL(cfg.seed, 7);
    CU_ASSERT_TRUE(cfg.quiet);
    CU_ASSERT_FALSE(cfg.walltime_set);
    vals[BL_RUN_ID_platform] = NULL;
    vals[BL_RUN_ID_quiet] = NULL;
    CU_ASSERT_EQUAL(bl_run_grid_words(vals, words), n - 3);
}

int bl_suite_cli_runopts(void)
{
    CU_pSuite s = CU_add_suite("cli_runopts", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "defaults and values from the table", test_defaults_and_values);
    CU_add_test(s, "the checks of the rows", test_checks);
    CU_add_test(s, "one option set from its text", test_set);
    CU_add_test(s, "choice names", test_choice_names);
    CU_add_test(s, "the manifest's settings from the rows", test_manifest_settings);
    CU_add_test(s, "--help and the manifest from the rows", test_help_and_manifest);
    CU_add_test(s, "a sweep's words for run from the rows", test_grid_words);
    return 0;
}
