/* test_cli_sweep.c — `batchlab sweep` (tools/cli_sweep*.c) and its entry
 * point bench/sweep: the grid file and its errors ("FILE:LINE: expected
 * ..."), the expansion (counts, names, seeds, variant order, option
 * products, run_args), shell words (split, quote, round trips),
 * resumption (a finished run is skipped, a half-written one is run again),
 * the merge (a CSV with known rows from hand-written summary.json files),
 * the Slurm job-array script (its array size and task lookup, run here with
 * a fake SLURM_ARRAY_TASK_ID). The runs under GNU parallel through
 * bench/sweep are in test_bench_sweep.c. Every expected value below was
 * worked out by hand from the grid. */
#include "bl_test.h"
#include "eng_sha256.h"

#include "cli_json.h"
#include "cli_policy_spec.h"
#include "cli_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A grid file in a fresh folder; returns its path (static, rotated). */
static const char *grid_file(const char *text)
{
    return bl_write_tmp("grid.txt", text);
}

static bool file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Parses and expands text; returns the parse/expand code, the message in d. */
static int parse_expand(const char *text, bl_grid *g, bl_task **t, size_t *n, eng_diag *d,
                        const char **path)
{
    *path = grid_file(text);
    eng_diag_clear(d);
    *t = NULL;
    *n = 0;
    int rc = bl_grid_parse(*path, g, d);
    if (rc == ENG_OK) {
        rc = bl_grid_expand(g, t, n, d);
        if (rc != ENG_OK)
            bl_grid_fini(g);
    }
    return rc;
}

/* ---- expansion --------------------------------------------------------- */

static void test_expand_counts_names_order(void)
{
    char text[2048];
    snprintf(text, sizeof text,
             "# a comment line, then a blank one\n"
             "\n"
             "platform = %s   # trailing comment\n"
             "workload.small = %s\n"
             "workload.si = standin forhlr2 jobs=50\n"
             "loads = 0.5, log\n"
             "policies = fcfs, easy, packet\n"
             "easy.backfill_order = queue, sjf\n"
             "packet.mode = easy, greedy\n"
             "packet.horizon = 600, 3600\n"
             "seeds = 1..2, 7\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    bl_grid g;
    bl_task *t;
    size_t n;
    eng_diag d;
    const char *path;
    int rc = parse_expand(text, &g, &t, &n, &d, &path);
    CU_ASSERT_EQUAL_FATAL(rc, ENG_OK);
    if (rc)
        printf("\n%s\n", d.msg);
    /* 2 workloads x 2 loads x (1 + 2 + 2x2 variants) x 3 seeds */
    CU_ASSERT_EQUAL(n, 2 * 2 * 7 * 3);
    CU_ASSERT_EQUAL(g.n_workloads, 2);
    CU_ASSERT_EQUAL(g.n_loads, 2);
    CU_ASSERT_EQUAL(g.n_seeds, 3);
    CU_ASSERT_EQUAL(g.seeds[0], 1);
    CU_ASSERT_EQUAL(g.seeds[1], 2);
    CU_ASSERT_EQUAL(g.seeds[2], 7);
    CU_ASSERT_DOUBLE_EQUAL(g.loads[0], 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(g.loads[1], 0.0, 0); /* "log" */
    CU_ASSERT_STRING_EQUAL(g.outputs, "summary");
    CU_ASSERT_STRING_EQUAL(g.workloads[1].standin, "forhlr2");
    CU_ASSERT_EQUAL(g.workloads[1].standin_jobs, 50);
    CU_ASSERT_PTR_NULL(g.workloads[1].path);
    /* Order: workload, load, variant, seed (fastest). */
    static const char *const first[] = {
        "small/load-0.5/fcfs/seed-1",
        "small/load-0.5/fcfs/seed-2",
        "small/load-0.5/fcfs/seed-7",
        "small/load-0.5/easy+backfill_order=queue/seed-1",
        "small/load-0.5/easy+backfill_order=queue/seed-2",
        "small/load-0.5/easy+backfill_order=queue/seed-7",
        "small/load-0.5/easy+backfill_order=sjf/seed-1",
        "small/load-0.5/easy+backfill_order=sjf/seed-2",
        "small/load-0.5/easy+backfill_order=sjf/seed-7",
        /* keys in file order, the last one fastest */
        "small/load-0.5/packet+mode=easy+horizon=600/seed-1",
        "small/load-0.5/packet+mode=easy+horizon=600/seed-2",
        "small/load-0.5/packet+mode=easy+horizon=600/seed-7",
        "small/load-0.5/packet+mode=easy+horizon=3600/seed-1",
        "small/load-0.5/packet+mode=easy+horizon=3600/seed-2",
        "small/load-0.5/packet+mode=easy+horizon=3600/seed-7",
        "small/load-0.5/packet+mode=greedy+horizon=600/seed-1",
        "small/load-0.5/packet+mode=greedy+horizon=600/seed-2",
        "small/load-0.5/packet+mode=greedy+horizon=600/seed-7",
        "small/load-0.5/packet+mode=greedy+horizon=3600/seed-1",
        "small/load-0.5/packet+mode=greedy+horizon=3600/seed-2",
        "small/load-0.5/packet+mode=greedy+horizon=3600/seed-7",
        "small/load-log/fcfs/seed-1",
    };
    for (size_t i = 0; i < sizeof first / sizeof first[0] && i < n; i++) {
        CU_ASSERT_STRING_EQUAL(t[i].name, first[i]);
        if (strcmp(t[i].name, first[i]) != 0)
            printf("\ntask %zu: '%s', expected '%s'\n", i, t[i].name, first[i]);
    }
    CU_ASSERT_STRING_EQUAL(t[3].variant, "easy:backfill_order=queue");
    CU_ASSERT_STRING_EQUAL(t[20].variant, "packet:mode=greedy:horizon=3600");
    CU_ASSERT_EQUAL(t[20].seed, 7);
    CU_ASSERT_EQUAL(t[20].workload, 0);
    CU_ASSERT_EQUAL(t[20].load, 0);
    CU_ASSERT_EQUAL(t[21].load, 1);
    /* The stand-in workload is the second half. */
    CU_ASSERT_STRING_EQUAL(t[42].name, "si/load-0.5/fcfs/seed-1");
    CU_ASSERT_EQUAL(t[42].workload, 1);
    CU_ASSERT_STRING_EQUAL(t[n - 1].name, "si/load-log/packet+mode=greedy+horizon=3600/seed-7");
    /* Every name is distinct. */
    size_t dup = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            dup += strcmp(t[i].name, t[k].name) == 0;
    CU_ASSERT_EQUAL(dup, 0);
    bl_tasks_free(t, n);
    bl_grid_fini(&g);

    char *v = bl_policy_folder("easy:backfill_order=sjf");
    CU_ASSERT_STRING_EQUAL(v, "easy+backfill_order=sjf");
    free(v);
    v = bl_policy_folder("slurm:shares=grids/my shares.txt");
    CU_ASSERT_STRING_EQUAL(v, "slurm+shares=grids_my_shares.txt");
    free(v);
}

static void test_expand_defaults(void)
{
    char text[1024];
    /* No loads, no seeds: one load "log" and seed 1; relative paths are
     * relative to the grid file's folder, which is not the source tree, so
     * the paths here are absolute. */
    snprintf(text, sizeof text,
             "platform=%s\nworkload.w=%s\npolicies=conservative\noutputs = summary,jobs\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    bl_grid g;
    bl_task *t;
    size_t n;
    eng_diag d;
    const char *path;
    CU_ASSERT_EQUAL_FATAL(parse_expand(text, &g, &t, &n, &d, &path), ENG_OK);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_STRING_EQUAL(t[0].name, "w/load-log/conservative/seed-1");
    CU_ASSERT_STRING_EQUAL(t[0].variant, "conservative");
    CU_ASSERT_EQUAL(t[0].seed, 1);
    CU_ASSERT_STRING_EQUAL(g.outputs, "summary,jobs");
    bl_tasks_free(t, n);
    bl_grid_fini(&g);

    /* A relative path, resolved against the grid's folder. */
    const char *dir = bl_tmpdir();
    char plat[700], grid[700];
    snprintf(plat, sizeof plat, "cp '%s' '%s/p.xml' && cp '%s' '%s/w.swf'",
             bl_src("platforms/test/tiny-4.xml"), dir, bl_src("traces/fixtures/small.swf"), dir);
    CU_ASSERT_EQUAL_FATAL(bl_system(plat, NULL), 0);
    snprintf(grid, sizeof grid, "%s/g.txt", dir);
    FILE *f = fopen(grid, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("platform = p.xml\nworkload.w = ./w.swf\npolicies = fcfs\nseeds = 5\n", f);
    fclose(f);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(bl_grid_parse(grid, &g, &d), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(g.platform, "/p.xml"));
    CU_ASSERT_EQUAL(g.platform[0], '/');
    CU_ASSERT_EQUAL(g.workloads[0].path[0], '/');
    CU_ASSERT_EQUAL(g.seeds[0], 5);
    bl_grid_fini(&g);
}

/* run_args the run configuration's table accepts: kept as words, values
 * given apart or after '='. */
static void test_run_args_accepted(void)
{
    char text[2048];
    snprintf(text, sizeof text,
             "platform = %s\nworkload.w = %s\npolicies = easy\n"
             "run_args = --walltime extend --check --init-share=0.2 --alloc core\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    bl_grid g;
    bl_task *t;
    size_t n;
    eng_diag d;
    const char *path;
    CU_ASSERT_EQUAL_FATAL(parse_expand(text, &g, &t, &n, &d, &path), ENG_OK);
    CU_ASSERT_EQUAL(g.n_run_args, 6);
    CU_ASSERT_STRING_EQUAL(g.run_args[3], "--init-share=0.2");
    bl_tasks_free(t, n);
    bl_grid_fini(&g);
}

/* Expects parse or expand of text to fail with "GRID:LINE: FRAGMENT". */
static void expect_grid_error(const char *text, int line, const char *fragment)
{
    bl_grid g;
    bl_task *t;
    size_t n;
    eng_diag d;
    const char *path;
    int rc = parse_expand(text, &g, &t, &n, &d, &path);
    CU_ASSERT_NOT_EQUAL(rc, ENG_OK);
    if (rc == ENG_OK) {
        printf("\nexpected an error for:\n%s", text);
        bl_tasks_free(t, n);
        bl_grid_fini(&g);
        return;
    }
    char want[1024];
    if (line > 0)
        snprintf(want, sizeof want, "%s:%d: ", path, line);
    else
        snprintf(want, sizeof want, "%s: ", path);
    bool prefix = strncmp(d.msg, want, strlen(want)) == 0;
    CU_ASSERT_TRUE(prefix);
    CU_ASSERT_TRUE(bl_contains(d.msg, fragment));
    if (!prefix)
        printf("\nexpected '%s' at the start of: %s\n", want, d.msg);
}

static void test_grid_errors(void)
{
    char head[1024], text[2048];
    snprintf(head, sizeof head, "platform = %s\nworkload.w = %s\n", bl_src("platforms/kth-sp2.xml"),
             bl_src("traces/fixtures/small.swf"));
#define CASE(body, line, frag)                                                                     \
    do {                                                                                           \
        snprintf(text, sizeof text, "%s%s", head, body);                                           \
        expect_grid_error(text, line, frag);                                                       \
    } while (0)
    CASE("policies = easy\nloads 0.5\n", 4, "expected 'key = value[, value...]', got 'loads 0.5'");
    CASE("policies = easy\n= 3\n", 4, "expected a key before '='");
    CASE("policies = easy\nseeds =\n", 4, "seeds: expected a value after '='");
    CASE("policies = easy\nloads = 0.5, abc\n", 4,
         "loads: expected a positive number or 'log', got 'abc'");
    CASE("policies = easy\nloads = 0.5, -1\n", 4, "expected a positive number or 'log', got '-1'");
    CASE("policies = easy\nloads = 0.5,, 0.7\n", 4, "loads: expected a value between commas");
    CASE("policies = easy\nloads = 0.5, 0.5\n", 4, "loads: '0.5' listed twice");
    CASE("policies = easy\nseeds = 3..1\n", 4,
         "seeds: expected a seed 0..4294967295 or a range A..B (A <= B), got '3..1'");
    CASE("policies = easy\nseeds = 1..3, 2\n", 4, "seeds: seed 2 listed twice");
    CASE("policies = easy\nseeds = x\n", 4, "got 'x'");
    CASE("policies = easy, sjf\n", 3, "policies: unknown policy 'sjf' (valid: alp, amp");
    CASE("policies = easy, easy\n", 3, "policies: 'easy' listed twice");
    CASE("policies = easy\nfrobs = 1\n", 4, "unknown key 'frobs': expected platform");
    CASE("policies = easy\npolicies = fcfs\n", 4, "'policies' given twice (first at line 3)");
    CASE("policies = easy\nsjf.depth = 1\n", 4, "unknown policy 'sjf' in 'sjf.depth'");
    CASE("policies = easy\nconservative.x = 1\n", 4,
         "conservative.x: expected a policy listed in 'policies' (line 3)");
    CASE("policies = easy\neasy.backfill_order = queue, a b\n", 4,
         "expected a value without ':', '=', quotes or blanks, got 'a b'");
    /* The registry's check of option keys, at expansion, names the option's
     * line; so does the policy's own check of each value. */
    CASE("policies = easy\n\neasy.depth = 1, 2\n", 5,
         "unknown option 'depth' for policy easy (accepted: backfill_order predictor)");
    CASE("policies = easy\n\neasy.backfill_order = queue, lifo\n", 5,
         "policy easy: option backfill_order: expected queue or sjf, got 'lifo'");
    CASE("policies = easy, sa\nsa.window = 8\nsa.chains = 4, 0\n", 5,
         "policy sa: option chains: expected an integer in 1..65536, got '0'");
    CASE("policies = packet\npacket.horizon = -5\n", 4,
         "policy packet: option horizon: expected a number >= 1, got '-5'");
    CASE("policies = easy\nmachine = 1152\n", 4,
         "machine: expected NODESxCORES (e.g. 1152x20), got '1152'");
    CASE("policies = easy\noutputs = jobs\n", 4, "outputs: expected a list of jobs, dropped");
    CASE("policies = easy\nkeep_inputs = maybe\n", 4, "keep_inputs: expected yes or no");
    CASE("policies = easy\nrun_args = --out /tmp/x\n", 4,
         "run_args: expected options other than --out");
    CASE("policies = easy\nrun_args = --walltime 'extend\n", 4, "unterminated quote");
    /* run_args come from the run configuration's table: names, values and
     * the options the grid sets itself */
    CASE("policies = easy\nrun_args = -q\n", 4,
         "run_args: expected options other than -q, which the grid sets itself");
    CASE("policies = easy\nrun_args = --policy-opt x=1\n", 4,
         "expected options other than --policy-opt");
    CASE("policies = easy\nrun_args = --check --walltime never\n", 4,
         "run_args: --walltime: expected kill or extend, got 'never'");
    CASE("policies = easy\nrun_args = --max-requeues=2000000\n", 4,
         "run_args: --max-requeues: expected at most 1000000, got '2000000'");
    CASE("policies = easy\nrun_args = --bogus\n", 4,
         "run_args: expected an option of batchlab run, got '--bogus'");
    CASE("policies = easy\nrun_args = --check=yes\n", 4, "run_args: --check takes no value");
    CASE("policies = easy\nrun_args = --failure-epoch\n", 4,
         "run_args: --failure-epoch expects a value");
    CASE("policies = easy\nworkload.b = /no/such.swf\n", 4,
         "workload.b: expected a readable SWF log or 'standin forhlr2 jobs=N', cannot open "
         "'/no/such.swf'");
    CASE("policies = easy\nworkload.c = standin forhlr2 jobs=0\n", 4,
         "expected 'standin forhlr2 jobs=N' (N >= 1)");
    CASE("policies = easy\nworkload.d = standin bluegene jobs=10\n", 4,
         "expected 'standin forhlr2 jobs=N'");
    CASE("policies = easy\nworkload.a/b = x.swf\n", 4,
         "workload name 'a/b': expected letters, digits");
    /* What the whole file lacks: no line number. */
    CASE("", 0, "expected a 'policies = NAME, ...' line");
#undef CASE
    snprintf(text, sizeof text, "workload.w = %s\npolicies = easy\n",
             bl_src("traces/fixtures/small.swf"));
    expect_grid_error(text, 0, "expected a 'platform = FILE' line");
    snprintf(text, sizeof text, "platform = %s\npolicies = easy\n",
             bl_src("platforms/kth-sp2.xml"));
    expect_grid_error(text, 0, "expected at least one 'workload.NAME = FILE' line");
    snprintf(text, sizeof text, "platform = /no/such.xml\n");
    expect_grid_error(text, 1, "platform: expected a readable platform file");

    eng_diag d;
    bl_grid g;
    /* Good values pass, and a backend this machine may lack is not an
     * error at expansion (the sweep may run elsewhere): 2 x 2 variants. */
    snprintf(text, sizeof text, "%spolicies = sa\nsa.backend = cpu, cuda\nsa.chains = 1, 256\n",
             head);
    bl_task *t;
    size_t n;
    const char *path;
    CU_ASSERT_EQUAL_FATAL(parse_expand(text, &g, &t, &n, &d, &path), ENG_OK);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_STRING_EQUAL(t[3].variant, "sa:backend=cuda:chains=256");
    bl_tasks_free(t, n);
    bl_grid_fini(&g);
    /* Two variants whose folders would share a name ('/' becomes '_'):
     * refused, as compare refuses them. */
    const char *dir = bl_tmpdir();
    char sub[800], a[900], b[900];
    snprintf(sub, sizeof sub, "%s/x", dir);
    CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0755), 0);
    snprintf(a, sizeof a, "%s/x/s.txt", dir);
    snprintf(b, sizeof b, "%s/x_s.txt", dir);
    FILE *f = fopen(a, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("1 10\n", f);
    fclose(f);
    f = fopen(b, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("1 10\n", f);
    fclose(f);
    char both[4096];
    snprintf(both, sizeof both, "%spolicies = slurm\nslurm.shares = %s, %s\n", head, a, b);
    expect_grid_error(both, 0, "would both write into the folder slurm+shares=");
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(bl_grid_parse("/no/such/grid.txt", &g, &d), ENG_IO);
    CU_ASSERT_TRUE(bl_contains(d.msg, "/no/such/grid.txt: cannot open the grid file"));
}

/* The command: errors exit 1 naming the grid line and leave nothing. */
static void test_expand_command(void)
{
    const char *dir = bl_tmpdir();
    char text[1024], args[2048], tasks[700];
    snprintf(text, sizeof text,
             "platform = %s\nworkload.w = %s\nloads = 0.8\npolicies = fcfs, easy\nseeds = 1..3\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    const char *grid = grid_file(text);
    snprintf(args, sizeof args, "sweep expand %s --out %s/sw", grid, dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "%s", args), 0);
    CU_ASSERT_TRUE(bl_contains(out, "6 runs = 1 workload x 1 load x 2 policy variants x 3 seeds"));
    free(out);
    snprintf(tasks, sizeof tasks, "%s/sw/tasks.txt", dir);
    char *t = bl_slurp(tasks, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t lines = 0;
    for (char *p = t; *p; p++)
        lines += *p == '\n';
    CU_ASSERT_EQUAL(lines, 6);
    /* Every parameter spelled out; kth-sp2.xml: 100 nodes of 1 processor. */
    CU_ASSERT_TRUE(bl_contains(t, "sweep task --out "));
    CU_ASSERT_TRUE(bl_contains(t, "/sw/runs/w/load-0.8/easy/seed-3 --platform "));
    CU_ASSERT_TRUE(bl_contains(t, "--load 0.8 --machine 100x1 --policy fcfs --seed 2 --outputs "
                                  "summary\n"));
    /* The same grid gives the same bytes. */
    snprintf(args, sizeof args, "sweep expand %s --out %s/sw -o %s/again.txt", grid, dir, dir);
    CU_ASSERT_EQUAL(bl_run(NULL, "%s", args), 0);
    char again[700];
    snprintf(again, sizeof again, "%s/again.txt", dir);
    char *t2 = bl_slurp(again, NULL);
    CU_ASSERT_PTR_NOT_NULL(t2);
    CU_ASSERT_TRUE(t2 && strcmp(t, t2) == 0);
    free(t);
    free(t2);

    /* A bad line: exit 1, FILE:LINE, no task list written. */
    snprintf(text, sizeof text,
             "platform = %s\nworkload.w = %s\nloads = 0.8, high\npolicies = easy\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    grid = grid_file(text);
    snprintf(args, sizeof args, "sweep expand %s --out %s/bad", grid, dir);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "%s", args), 1);
    char want[800];
    snprintf(want, sizeof want, "%s:3: loads: expected a positive number or 'log', got 'high'",
             grid);
    CU_ASSERT_TRUE(bl_contains(out, want));
    free(out);
    snprintf(want, sizeof want, "%s/bad/tasks.txt", dir);
    CU_ASSERT_FALSE(file_exists(want));
    /* Usage errors exit 2. */
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep expand %s", grid), 2);
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep frobnicate"), 2);
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep"), 2);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep --help"), 0);
    CU_ASSERT_TRUE(bl_contains(out, "batchlab sweep merge DIR -o CSV"));
    free(out);
}

/* ---- shell words --------------------------------------------------------- */

static void test_shell_split_known(void)
{
    char **w = NULL;
    long n = bl_shell_split("  a 'b c'  \"d \\\"e\\\" \\$x\" f\\ g 'it'\\''s' \"\" x''y\t\n", &w);
    CU_ASSERT_EQUAL_FATAL(n, 7);
    CU_ASSERT_STRING_EQUAL(w[0], "a");
    CU_ASSERT_STRING_EQUAL(w[1], "b c");
    CU_ASSERT_STRING_EQUAL(w[2], "d \"e\" $x");
    CU_ASSERT_STRING_EQUAL(w[3], "f g");
    CU_ASSERT_STRING_EQUAL(w[4], "it's");
    CU_ASSERT_STRING_EQUAL(w[5], "");
    CU_ASSERT_STRING_EQUAL(w[6], "xy");
    bl_words_free(w, n);
    /* Inside double quotes a backslash before other characters stays. */
    n = bl_shell_split("\"a\\nb\"", &w);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_STRING_EQUAL(w[0], "a\\nb");
    bl_words_free(w, n);
    CU_ASSERT_EQUAL(bl_shell_split("", &w), 0);
    bl_words_free(w, 0);
    CU_ASSERT_EQUAL(bl_shell_split("a 'b", &w), -1);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(bl_shell_split("a \"b\\\"", &w), -1);
    CU_ASSERT_PTR_NULL(w);
}

static void test_shell_quote_round_trip(void)
{
    static const char *const words[] = {
        "plain",
        "/abs/path-1.2_x",
        "easy:backfill_order=sjf",
        "with space",
        "it's",
        "",
        "$HOME",
        "a\"b",
        "back\\slash",
        "tab\there",
        "semi;colon",
        "*glob?",
        "'",
        "new\nline",
        "--run-arg=--walltime extend",
    };
    const size_t n = sizeof words / sizeof words[0];
    char line[2048] = "";
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(line, " ");
        CU_ASSERT_TRUE_FATAL(bl_shell_quote(line, sizeof line, words[i]));
    }
    /* Bare where the characters allow it, single quotes otherwise. */
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "plain /abs/path-1.2_x easy:backfill_order=sjf "
                                        "'with space' 'it'\\''s' '' '$HOME' "));
    char **w = NULL;
    long got = bl_shell_split(line, &w);
    CU_ASSERT_EQUAL_FATAL(got, (long)n);
    for (size_t i = 0; i < n; i++)
        CU_ASSERT_STRING_EQUAL(w[i], words[i]);
    bl_words_free(w, got);

    /* The shell itself reads the words back the same way. */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "printf '[%%s]' %s", line);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_system(cmd, &out), 0);
    char want[2048] = "";
    for (size_t i = 0; i < n; i++) {
        strcat(want, "[");
        strcat(want, words[i]);
        strcat(want, "]");
    }
    CU_ASSERT_TRUE(out && strcmp(out, want) == 0);
    if (out && strcmp(out, want) != 0)
        printf("\nshell: %s\nwant:  %s\n", out, want);
    free(out);

    /* Too small a buffer: false, the buffer keeps its text. */
    char small[8] = "ab";
    CU_ASSERT_FALSE(bl_shell_quote(small, sizeof small, "a long word"));
    CU_ASSERT_STRING_EQUAL(small, "ab");
    char exact[6] = ""; /* 'a b' and its NUL */
    CU_ASSERT_TRUE(bl_shell_quote(exact, sizeof exact, "a b"));
    CU_ASSERT_STRING_EQUAL(exact, "'a b'");
    CU_ASSERT_FALSE(bl_shell_quote(exact, sizeof exact, "y"));

    char *o = bl_task_out_dir("batchlab sweep task --out '/a b/runs/x' --seed 1");
    CU_ASSERT_STRING_EQUAL(o, "/a b/runs/x");
    free(o);
    o = bl_task_out_dir("batchlab sweep task --out=/c --seed 1");
    CU_ASSERT_STRING_EQUAL(o, "/c");
    free(o);
    CU_ASSERT_PTR_NULL(bl_task_out_dir("echo hello"));
}

/* ---- resumption ------------------------------------------------------------ */

static void test_resume(void)
{
    const char *dir = bl_tmpdir();
    char text[1024], args[4096], tasks[700], run[700], path[800];
    snprintf(text, sizeof text,
             "platform = %s\nworkload.w = %s\nloads = 0.6\npolicies = easy\nseeds = 1, 2\n",
             bl_src("platforms/kth-sp2.xml"), bl_src("traces/fixtures/small.swf"));
    const char *grid = grid_file(text);
    snprintf(args, sizeof args, "sweep expand %s --out %s/sw", grid, dir);
    CU_ASSERT_EQUAL_FATAL(bl_run(NULL, "%s", args), 0);
    snprintf(tasks, sizeof tasks, "%s/sw/tasks.txt", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep pending %s", tasks), 0);
    CU_ASSERT_TRUE(bl_contains(out, "/w/load-0.6/easy/seed-1 "));
    CU_ASSERT_TRUE(bl_contains(out, "/w/load-0.6/easy/seed-2 "));
    free(out);

    /* Run 1: a finished run. Its summary stands for any result, so the
     * task must not touch it: it is not even valid JSON. */
    snprintf(run, sizeof run, "%s/sw/runs/w/load-0.6/easy/seed-1", dir);
    snprintf(args, sizeof args, "mkdir -p '%s' && printf 'finished' > '%s/summary.json'", run, run);
    CU_ASSERT_EQUAL_FATAL(bl_system(args, NULL), 0);
    /* Run 2: half written, as a run killed midway leaves it (a task.json,
     * a truncated input, the engine's temporary files, no summary). */
    snprintf(run, sizeof run, "%s/sw/runs/w/load-0.6/easy/seed-2", dir);
    snprintf(args, sizeof args,
             "mkdir -p '%s' && printf '{\"run\": \"w' > '%s/task.json' && printf '1 0 -1' > "
             "'%s/input.swf' && printf '{\"jobs\"' > '%s/summary.json.tmp.123'",
             run, run, run, run);
    CU_ASSERT_EQUAL_FATAL(bl_system(args, NULL), 0);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep pending %s", tasks), 0);
    CU_ASSERT_PTR_NULL(strstr(out, "/seed-1 "));
    CU_ASSERT_TRUE(bl_contains(out, "/w/load-0.6/easy/seed-2 "));
    free(out);

    /* Every line through the shell, as a runner does. */
    snprintf(args, sizeof args, "sh '%s'", tasks);
    out = NULL;
    CU_ASSERT_EQUAL(bl_system(args, &out), 0);
    if (out && *out)
        printf("\n%s\n", out);
    free(out);
    snprintf(path, sizeof path, "%s/sw/runs/w/load-0.6/easy/seed-1/summary.json", dir);
    char *s1 = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(s1 && strcmp(s1, "finished") == 0); /* skipped */
    free(s1);
    snprintf(path, sizeof path, "%s/sw/runs/w/load-0.6/easy/seed-1/task.json", dir);
    CU_ASSERT_FALSE(file_exists(path));
    snprintf(path, sizeof path, "%s/summary.json", run);
    char *s2 = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(s2 && bl_contains(s2, "\"wait_mean_s\"")); /* run again */
    free(s2);
    snprintf(path, sizeof path, "%s/task.json", run);
    char *tj = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(tj && bl_contains(tj, "\"run\": \"w/load-0.6/easy/seed-2\""));
    CU_ASSERT_TRUE(tj && bl_contains(tj, "\"load\": \"0.6\""));
    CU_ASSERT_TRUE(tj && bl_contains(tj, "\"seed\": \"2\""));
    free(tj);
    snprintf(path, sizeof path, "%s/input.swf", run);
    CU_ASSERT_FALSE(file_exists(path)); /* rebuilt, used, removed */
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep pending %s", tasks), 0);
    CU_ASSERT_TRUE(out && *out == '\0');
    free(out);

    /* A task whose run fails: exit 1, a message, no summary. */
    snprintf(args, sizeof args,
             "sweep task --out %s/fail --platform %s --workload /no/such.swf --policy easy "
             "--seed 1",
             dir, bl_src("platforms/kth-sp2.xml"));
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "%s", args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "/no/such.swf: cannot open"));
    free(out);
    snprintf(path, sizeof path, "%s/fail/summary.json", dir);
    CU_ASSERT_FALSE(file_exists(path));
    /* Usage errors of a task line exit 2. */
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep task --out %s/x --policy easy --seed 1", dir), 2);
    CU_ASSERT_EQUAL(bl_run(NULL,
                           "sweep task --out %s/x --platform %s --standin forhlr2 --policy easy "
                           "--seed 1",
                           dir, bl_src("platforms/forhlr2.xml")),
                    2);
}

/* ---- merge ------------------------------------------------------------------ */

static void put(const char *dir, const char *rel, const char *name, const char *text)
{
    char cmd[1024], path[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s'", dir, rel);
    CU_ASSERT_EQUAL_FATAL(bl_system(cmd, NULL), 0);
    snprintf(path, sizeof path, "%s/%s/%s", dir, rel, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static const char merge_header[] =
    "run,workload,load,policy,variant,seed,jobs_input,jobs_simulated,jobs_dropped,completed,"
    "killed_at_walltime,failed,requeues,wait_mean_s,wait_median_s,wait_p95_s,wait_max_s,"
    "response_mean_s,slowdown_mean,bounded_slowdown_mean,utilization,makespan_s,"
    "queue_length_mean,queue_length_max,cost,failures_wasted_node_s,initialization_share,"
    "log_jobs,log_cancelled_excluded,log_wait_mean_log,log_wait_mean_sim,log_wait_mae_s,"
    "log_wait_spearman,hosts,workload_sha256,git_commit,policy_wall_time_s,wall_time_s\n";

static void test_merge(void)
{
    const char *dir = bl_tmpdir();
    char sw[700], csv[800], args[2048];
    snprintf(sw, sizeof sw, "%s/sw", dir);
    /* Two runs of a sweep (task.json gives the coordinates) and one folder
     * written by `batchlab run` (the manifest gives policy, options, seed). */
    put(sw, "runs/w/load-0.5/easy/seed-2", "task.json",
        "{\"run\": \"w/load-0.5/easy/seed-2\", \"workload\": \"w\", \"load\": \"0.5\",\n"
        " \"policy\": \"easy\", \"variant\": \"easy\", \"seed\": \"2\"}\n");
    put(sw, "runs/w/load-0.5/easy/seed-2", "summary.json",
        "{\"jobs\": {\"input\": 10, \"simulated\": 9, \"dropped\": 1,\n"
        "  \"by_final_state\": {\"COMPLETED_SUCCESSFULLY\": 8, \"COMPLETED_WALLTIME_REACHED\": 1}},\n"
        " \"metrics\": {\"wait_mean_s\": 12.5, \"wait_median_s\": null, \"utilization\": 0.75,\n"
        "  \"queue_length_mean\": 1.25},\n"
        " \"log_agreement\": {\"jobs\": 7, \"cancelled_excluded\": 2, \"wait_mean_log\": 30.5,\n"
        "  \"wait_mean_sim\": 12, \"wait_mae_s\": 20.25, \"wait_spearman\": null},\n"
        " \"platform\": {\"hosts\": 100},\n"
        " \"manifest\": {\"git_commit\": \"0123abcdef45\", \"policy\": \"easy\", \"seed\": 2,\n"
        "  \"wall_time_s\": 0.5}}\n");
    put(sw, "runs/w/load-0.5/easy+backfill_order=sjf/seed-1", "task.json",
        "{\"run\": \"r\", \"workload\": \"w\", \"load\": \"0.5\", \"policy\": \"easy\",\n"
        " \"variant\": \"easy:backfill_order=sjf\", \"seed\": \"1\"}\n");
    put(sw, "runs/w/load-0.5/easy+backfill_order=sjf/seed-1", "summary.json",
        "{\"metrics\": {\"wait_mean_s\": 3, \"bounded_slowdown_mean\": 1.5,\n"
        " \"makespan_s\": 1e6}, \"manifest\": {\"inputs\": {\"workload\": {\"sha256\": \"ab,c\"}}}}\n");
    put(sw, "other", "summary.json",
        "{\"metrics\": {\"wait_mean_s\": 7},\n"
        " \"manifest\": {\"git_commit\": \"fedcba987654-dirty\", \"policy\": \"packet\",\n"
        "  \"policy_options\": {\"mode\": \"greedy\",\n"
        "  \"horizon\": \"600\"}, \"seed\": 9, \"inputs\": {\"workload\": {\"path\": "
        "\"/x/y/log.swf\"}},\n"
        "  \"policy_wall_time_s\": 0.25}}\n");
    snprintf(csv, sizeof csv, "%s/results.csv", dir);
    snprintf(args, sizeof args, "sweep merge %s -o %s", sw, csv);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "%s", args), 0);
    CU_ASSERT_TRUE(bl_contains(out, "results.csv: 3 runs"));
    free(out);
    char *got = bl_slurp(csv, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    /* Rows in byte order of the folder: "other" < "runs/w/load-0.5/easy+..."
     * < "runs/w/load-0.5/easy/..." ('+' is 0x2B, '/' 0x2F). The 32 columns
     * after the coordinates, in the header's order, are empty where a
     * summary has no value (or null). */
    char want[4096];
    snprintf(want, sizeof want,
             "%s"
             /*    run  wl load pol variant seed | input sim drop compl killed failed requeues |
                   wait mean med p95 max | resp sd bsd util makespan | qmean qmax cost wasted
                   init | log: jobs cancelled mean_log mean_sim mae spearman | hosts sha commit |
                   pwall wall */
             "other,log.swf,,packet,packet:mode=greedy:horizon=600,9,"
             ",,,,,,,7,,,,,,,,,,,,,,,,,,,,,,fedcba987654-dirty,0.25,\n"
             "runs/w/load-0.5/easy+backfill_order=sjf/seed-1,w,0.5,easy,easy:backfill_order=sjf,1,"
             ",,,,,,,3,,,,,,1.5,,1000000,,,,,,,,,,,,,\"ab,c\",,,\n" /* 1e6 as batchlab writes it */
             "runs/w/load-0.5/easy/seed-2,w,0.5,easy,easy,2,"
             "10,9,1,8,1,,,12.5,,,,,,,0.75,,1.25,,,,,7,2,30.5,12,20.25,,100,,0123abcdef45,,0.5\n",
             merge_header);
    CU_ASSERT_STRING_EQUAL(got, want);
    if (strcmp(got, want) != 0)
        printf("\ngot:\n%s\nwant:\n%s\n", got, want);
    /* Same files, same bytes. */
    snprintf(args, sizeof args, "sweep merge %s -o %s.2", sw, csv);
    CU_ASSERT_EQUAL(bl_run(NULL, "%s", args), 0);
    char csv2[900];
    snprintf(csv2, sizeof csv2, "%s.2", csv);
    char *got2 = bl_slurp(csv2, NULL);
    CU_ASSERT_TRUE(got2 && strcmp(got, got2) == 0);
    free(got2);
    free(got);

    /* The same rows as JSON beside the CSV (results.json): the column
     * names as keys, numbers as numbers, strings as strings, null where the
     * CSV cell is empty; the coordinates are task.json's strings. */
    char json[900];
    snprintf(json, sizeof json, "%s/results.json", dir);
    bl_json_flat j;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(bl_json_flat_read(json, &j, &d), ENG_OK);
    static const struct {
        const char *key, *value;
        bool is_string;
    } want_json[] = {
        {"runs.0.run", "other", true},
        {"runs.0.policy", "packet", true},
        {"runs.0.variant", "packet:mode=greedy:horizon=600", true},
        {"runs.0.seed", "9", true},
        {"runs.0.jobs_input", "null", false},
        {"runs.0.wait_mean_s", "7", false},
        {"runs.0.git_commit", "fedcba987654-dirty", true},
        {"runs.0.policy_wall_time_s", "0.25", false},
        {"runs.1.workload_sha256", "ab,c", true},
        {"runs.1.makespan_s", "1000000", false},
        {"runs.2.run", "runs/w/load-0.5/easy/seed-2", true},
        {"runs.2.load", "0.5", true},
        {"runs.2.jobs_input", "10", false},
        {"runs.2.wait_mean_s", "12.5", false},
        {"runs.2.log_jobs", "7", false},
        {"runs.2.log_cancelled_excluded", "2", false},
        {"runs.2.log_wait_mean_log", "30.5", false},
        {"runs.2.log_wait_mae_s", "20.25", false},
        {"runs.2.log_wait_spearman", "null", false},
        {"runs.2.git_commit", "0123abcdef45", true},
        {"runs.2.wall_time_s", "0.5", false},
    };
    for (size_t i = 0; i < sizeof want_json / sizeof want_json[0]; i++) {
        const char *v = bl_json_flat_get(&j, want_json[i].key);
        bool is_string = false;
        for (size_t k = 0; k < j.n; k++)
            if (strcmp(j.keys[k], want_json[i].key) == 0)
                is_string = j.is_string[k];
        if (!v || strcmp(v, want_json[i].value) != 0 || is_string != want_json[i].is_string)
            printf("\n  %s: '%s', expected '%s'\n", want_json[i].key, v ? v : "(missing)",
                   want_json[i].value);
        CU_ASSERT_TRUE(v && strcmp(v, want_json[i].value) == 0);
        CU_ASSERT_EQUAL(is_string, want_json[i].is_string);
    }
    /* every row holds every column: 3 rows x 38 keys */
    CU_ASSERT_EQUAL(j.n, 3 * 38);
    CU_ASSERT_PTR_NULL(bl_json_flat_get(&j, "runs.3.run"));
    bl_json_flat_fini(&j);

    /* A broken summary: exit 1 with its file and line; the old CSV stays,
     * no temporary file is left. */
    put(sw, "runs/broken", "summary.json", "{\"metrics\": {\n\"wait_mean_s\": 1,,\n}}\n");
    snprintf(args, sizeof args, "sweep merge %s -o %s/new.csv", sw, dir);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "%s", args), 1);
    char msg[900];
    snprintf(msg, sizeof msg, "%s/runs/broken/summary.json:2:18: string or '}' expected", sw);
    CU_ASSERT_TRUE(bl_contains(out, msg));
    free(out);
    snprintf(args, sizeof args, "ls '%s' | grep -c csv", dir);
    out = NULL;
    bl_system(args, &out);
    /* results.csv and results.csv.2 only, and results.csv.2.json */
    CU_ASSERT_TRUE(out && strcmp(out, "3\n") == 0);
    free(out);
    snprintf(args, sizeof args, "ls '%s' | grep -c json", dir);
    out = NULL;
    bl_system(args, &out);
    CU_ASSERT_TRUE(out && strcmp(out, "2\n") == 0); /* results.json, results.csv.2.json */
    free(out);
    /* Nothing to merge. */
    const char *empty = bl_tmpdir();
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep merge %s -o %s/e.csv", empty, empty), 1);
    CU_ASSERT_TRUE(bl_contains(out, "expected at least one summary.json below it"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep merge %s", empty), 2);
}

/* ---- Slurm ------------------------------------------------------------------ */

static void test_slurm_script(void)
{
    const char *dir = bl_tmpdir();
    char tasks[700], script[700], args[2048], log[800];
    snprintf(tasks, sizeof tasks, "%s/tasks.txt", dir);
    snprintf(log, sizeof log, "%s/ran.txt", dir);
    /* Five task lines that say which line ran. */
    FILE *f = fopen(tasks, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (int i = 1; i <= 5; i++)
        fprintf(f, "echo 'line %d' >> '%s'\n", i, log);
    fclose(f);

    /* One element per line by default: --array=1-5. */
    snprintf(script, sizeof script, "%s/one.sbatch", dir);
    char *out = NULL;
    CU_ASSERT_EQUAL(
        bl_run(&out, "sweep slurm %s -o %s --time 00:10:00 --partition dev", tasks, script), 0);
    CU_ASSERT_TRUE(bl_contains(out, "5 tasks in an array of 5 elements (1 task each)"));
    free(out);
    char *s = bl_slurp(script, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE(strncmp(s, "#!/bin/bash\n", 12) == 0);
    CU_ASSERT_TRUE(bl_contains(s, "\n#SBATCH --array=1-5\n"));
    CU_ASSERT_TRUE(bl_contains(s, "\n#SBATCH --time=00:10:00\n"));
    CU_ASSERT_TRUE(bl_contains(s, "\n#SBATCH --partition=dev\n"));
    CU_ASSERT_TRUE(bl_contains(s, "\n#SBATCH --cpus-per-task=1\n"));
    CU_ASSERT_TRUE(bl_contains(s, "\nper=1\nn=5\n"));
    CU_ASSERT_TRUE(bl_contains(s, "first=$(( (SLURM_ARRAY_TASK_ID - 1) * per + 1 ))"));
    CU_ASSERT_TRUE(bl_contains(s, "line=$(sed -n \"${i}p\" \"$tasks\")"));
    free(s);
    struct stat st;
    CU_ASSERT_TRUE(stat(script, &st) == 0 && (st.st_mode & 0100));

    /* At most two elements: three lines each, the last one two. */
    snprintf(script, sizeof script, "%s/two.sbatch", dir);
    CU_ASSERT_EQUAL(
        bl_run(NULL, "sweep slurm %s -o %s --max-array 2 --max-running 1", tasks, script), 0);
    s = bl_slurp(script, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE(bl_contains(s, "\n#SBATCH --array=1-2%1\n"));
    CU_ASSERT_TRUE(bl_contains(s, "\nper=3\nn=5\n"));
    free(s);
    /* The lookup, run here as Slurm would run element 2: lines 4 and 5. */
    snprintf(args, sizeof args, "SLURM_ARRAY_TASK_ID=2 bash '%s'", script);
    CU_ASSERT_EQUAL(bl_system(args, NULL), 0);
    char *ran = bl_slurp(log, NULL);
    CU_ASSERT_TRUE(ran && strcmp(ran, "line 4\nline 5\n") == 0);
    free(ran);
    snprintf(args, sizeof args, "SLURM_ARRAY_TASK_ID=1 bash '%s'", script);
    CU_ASSERT_EQUAL(bl_system(args, NULL), 0);
    ran = bl_slurp(log, NULL);
    CU_ASSERT_TRUE(ran && strcmp(ran, "line 4\nline 5\nline 1\nline 2\nline 3\n") == 0);
    free(ran);
    /* The script carries the list's SHA-256. */
    char hex[65];
    CU_ASSERT_EQUAL(eng_sha256_file(tasks, hex, NULL), ENG_OK);
    char want[100];
    snprintf(want, sizeof want, "\nsha256=%s\n", hex);
    s = bl_slurp(script, NULL);
    CU_ASSERT_TRUE(s && bl_contains(s, want));
    free(s);
    /* A task list changed since, with as many lines (another seed): the
     * element refuses to run, and runs nothing. */
    char *text = bl_slurp(tasks, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *five = strstr(text, "line 5");
    CU_ASSERT_PTR_NOT_NULL_FATAL(five);
    five[5] = '7';
    f = fopen(tasks, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    snprintf(args, sizeof args, "SLURM_ARRAY_TASK_ID=2 bash '%s'", script);
    out = NULL;
    CU_ASSERT_EQUAL(bl_system(args, &out), 1);
    CU_ASSERT_TRUE(bl_contains(out, "has changed since this script was written"));
    free(out);
    ran = bl_slurp(log, NULL);
    CU_ASSERT_TRUE(ran && strcmp(ran, "line 4\nline 5\nline 1\nline 2\nline 3\n") == 0);
    free(ran);

    /* Errors. */
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep slurm %s -o %s/x.sbatch --time '1 h'", tasks, dir), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--time: expected letters, digits"));
    free(out);
    CU_ASSERT_EQUAL(bl_run(NULL, "sweep slurm %s -o %s/x.sbatch --max-array 0", tasks, dir), 2);
    const char *empty = bl_write_tmp("empty.txt", "");
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "sweep slurm %s -o %s/x.sbatch", empty, dir), 1);
    CU_ASSERT_TRUE(bl_contains(out, "expected at least one task line"));
    free(out);
    snprintf(args, sizeof args, "%s/x.sbatch", dir);
    CU_ASSERT_FALSE(file_exists(args));
}

/* The paired comparison of a merge, from hand-written jobs.csv: fcfs
 * first in tasks.txt (the baseline), easy against it.
 *   seed 1: waits fcfs 0, 100, 50; easy 0, 40, 50: d = 0, -60, 0, mean -20
 *           (-60 is not better by more than 60 s)
 *   seed 2: fcfs 10, 200, job 3 rejected; easy 10, 20, 30: d = 0, -180,
 *           mean -90, one job left out in each run; better 1 of 2
 * Across seeds: mean -55, s = 35 sqrt(2), t(0.975, 1) = 12.706204736174707,
 * half width 12.706204736174707 x 35. */
static void test_merge_paired(void)
{
    const char *dir = bl_tmpdir();
    char sw[700], args[2048], tasks[4096];
    snprintf(sw, sizeof sw, "%s/sw", dir);
    static const struct {
        const char *variant, *seed, *jobs;
    } runs[] = {
        {"easy", "1",
         "0,COMPLETED_SUCCESSFULLY\n2,40,COMPLETED_SUCCESSFULLY\n"
         "3,50,COMPLETED_WALLTIME_REACHED\n"},
        {"easy", "2",
         "10,COMPLETED_SUCCESSFULLY\n2,20,COMPLETED_SUCCESSFULLY\n"
         "3,30,COMPLETED_SUCCESSFULLY\n"},
        {"fcfs", "1",
         "0,COMPLETED_SUCCESSFULLY\n2,100,COMPLETED_SUCCESSFULLY\n"
         "3,50,COMPLETED_SUCCESSFULLY\n"},
        {"fcfs", "2",
         "10,COMPLETED_SUCCESSFULLY\n2,200,COMPLETED_SUCCESSFULLY\n"
         "3,0,REJECTED\n"},
    };
    tasks[0] = '\0';
    for (size_t i = 0; i < 4; i++) {
        size_t k = (i + 2) % 4; /* fcfs first */
        char rel[256], text[1024];
        snprintf(rel, sizeof rel, "runs/w/load-0.5/%s/seed-%s", runs[k].variant, runs[k].seed);
        snprintf(text, sizeof text,
                 "{\"run\": \"%s\", \"workload\": \"w\", \"load\": \"0.5\", \"policy\": "
                 "\"%s\", \"variant\": \"%s\", \"seed\": \"%s\"}\n",
                 rel, runs[k].variant, runs[k].variant, runs[k].seed);
        put(sw, rel, "task.json", text);
        put(sw, rel, "summary.json", "{\"metrics\": {}}\n");
        snprintf(text, sizeof text, "job_id,waiting_time,final_state\n1,%s", runs[k].jobs);
        put(sw, rel, "jobs.csv", text);
        size_t used = strlen(tasks);
        snprintf(tasks + used, sizeof tasks - used,
                 "batchlab sweep task --out %s/%s --policy %s --seed %s\n", sw, rel,
                 runs[k].variant, runs[k].seed);
    }
    put(sw, ".", "tasks.txt", tasks);
    snprintf(args, sizeof args, "sweep merge %s -o %s/r.csv", sw, dir);
    CU_ASSERT_EQUAL_FATAL(bl_run(NULL, "%s", args), 0);
    char path[900];
    snprintf(path, sizeof path, "%s/r.json", dir);
    json_t *root = json_load_file(path, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    json_t *paired = json_object_get(root, "paired");
    CU_ASSERT_EQUAL_FATAL(json_array_size(paired), 1);
    json_t *p = json_array_get(paired, 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "a")), "fcfs");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "b")), "easy");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "load")), "0.5");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(p, "seeds")), 2);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "wait_diff_mean_s")), -55, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "wait_diff_sd_s")), 35 * sqrt(2),
                           1e-9);
    double half = 12.706204736174707 * 35;
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "ci_lo_s")), -55 - half, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "ci_hi_s")), -55 + half, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "better_share_mean")), 0.25, 0);
    json_t *s2 = json_array_get(json_object_get(p, "per_seed"), 1);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(s2, "seed")), "2");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(s2, "jobs")), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(s2, "left_out")), 2);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(s2, "wait_diff_mean_s")), -90, 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(s2, "better_share")), 0.5, 0);
    json_decref(root);
    /* --baseline easy turns it round; --tolerance 30 makes -60 better */
    snprintf(args, sizeof args, "sweep merge %s -o %s/r2.csv --baseline easy --tolerance 30", sw,
             dir);
    CU_ASSERT_EQUAL_FATAL(bl_run(NULL, "%s", args), 0);
    snprintf(path, sizeof path, "%s/r2.json", dir);
    root = json_load_file(path, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(root);
    p = json_array_get(json_object_get(root, "paired"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(p, "a")), "easy");
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(p, "wait_diff_mean_s")), 55, 1e-12);
    json_t *s1 = json_array_get(json_object_get(p, "per_seed"), 0);
    CU_ASSERT_DOUBLE_EQUAL(json_number_value(json_object_get(s1, "worse_share")), 1.0 / 3, 1e-15);
    json_decref(root);
}

int bl_suite_cli_sweep(void)
{
    CU_pSuite s = CU_add_suite("cli_sweep", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "expansion: counts, names, seeds, variant order",
                test_expand_counts_names_order);
    CU_add_test(s, "expansion: defaults and relative paths", test_expand_defaults);
    CU_add_test(s, "bad grid lines name FILE:LINE", test_grid_errors);
    CU_add_test(s, "run_args from the run configuration's table", test_run_args_accepted);
    CU_add_test(s, "sweep expand: the task list, errors leave nothing", test_expand_command);
    CU_add_test(s, "shell split: known words", test_shell_split_known);
    CU_add_test(s, "shell quote: round trips", test_shell_quote_round_trip);
    CU_add_test(s, "resumption: finished skipped, half-written rerun", test_resume);
    CU_add_test(s, "merge: known CSV from hand-written summaries", test_merge);
    CU_add_test(s, "merge: paired comparison across seeds", test_merge_paired);
    CU_add_test(s, "Slurm script: array size and task lookup", test_slurm_script);
    return 0;
}
