/* test_pol_solib.c — policies loaded from shared libraries
 * (policies/pol_solib.c) and the command line's use of them.
 *
 * The libraries are compiled here, with the compiler that built the tree,
 * against the source tree's interface headers (engine/): the example
 * examples/sjf-backfill, the same built for interface version 999, and
 * small ones that lack a symbol or a hook. (tests/solib_example.sh builds
 * the example against the installed headers instead.) Checked: what the
 * loader returns and refuses, with which code and words; the known answer
 * by which SJF order differs from EASY's; and, through the built batchlab,
 * the exit status 2 and the message of each refusal, `policies PATH.so`,
 * the manifest's policy_library, compare's folder, a sweep grid naming a
 * library.
 */
#include "bl_sched.h"
#include "bl_test.h"

#include "cli_policy_spec.h"
#include "cli_sweep.h"
#include "eng_sha256.h"
#include "pol_registry.h"
#include "pol_solib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef BL_C_COMPILER
#define BL_C_COMPILER "cc"
#endif

static char dir[4096]; /* the libraries' folder */

/* dir/name built from source (a path) with extra flags. */
static bool build_lib(const char *name, const char *source, const char *flags)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c11 -shared -fPIC -Wall -Wextra -Werror %s -I'%s/engine' '%s' -o '%s/%s'",
             BL_C_COMPILER, flags, BL_SOURCE_DIR, source, dir, name);
    char *out = NULL;
    int rc = bl_system(cmd, &out);
    if (rc != 0)
        printf("\n  %s: %s", cmd, out ? out : "");
    free(out);
    return rc == 0;
}

static const char *lib(const char *name)
{
    static char path[4][4200];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(path[slot], sizeof path[slot], "%s/%s", dir, name);
    return path[slot];
}

static int setup(void)
{
    snprintf(dir, sizeof dir, "%s", bl_tmpdir());
    const char *example = bl_src("examples/sjf-backfill/sjf_backfill.c");
    const char *nosym = bl_write_tmp("nosym.c", "int batchlab_something_else = 1;\n");
    const char *notype = bl_write_tmp("notype.c", "#include <eng_policy.h>\n"
                                                  "const unsigned batchlab_policy_interface = "
                                                  "POL_INTERFACE_VERSION;\n");
    const char *nohook = bl_write_tmp(
        "nohook.c", "#include <eng_policy.h>\n"
                    "static const pol_type t = {.name = \"nohook\", .summary = \"s\", "
                    ".citation = \"c\"};\n"
                    "POL_EXPORT(t);\n");
    const char *undef = bl_write_tmp(
        "undef.c", "#include <eng_policy.h>\n"
                   "void batchlab_not_defined_anywhere(void);\n"
                   "static int sched(void *s, const pol_view *v, pol_out *o)\n"
                   "{ (void)s; (void)v; (void)o; batchlab_not_defined_anywhere(); return 0; }\n"
                   "static const pol_type t = {.name = \"undef\", .summary = \"s\", "
                   ".citation = \"c\", .schedule = sched};\n"
                   "POL_EXPORT(t);\n");
    bool ok = build_lib("sjf.so", example, "-O2") &&
              build_lib("v999.so", example, "-DPOL_INTERFACE_VERSION=999") &&
              build_lib("nosym.so", nosym, "") && build_lib("notype.so", notype, "") &&
              build_lib("nohook.so", nohook, "") && build_lib("undef.so", undef, "");
    FILE *f = fopen(lib("text.so"), "w");
    ok = ok && f && fputs("not a library\n", f) >= 0;
    if (f)
        fclose(f);
    return ok ? 0 : 1;
}

static void test_is_path(void)
{
    CU_ASSERT_TRUE(pol_solib_is_path("./x.so"));
    CU_ASSERT_TRUE(pol_solib_is_path("x.so"));
    CU_ASSERT_TRUE(pol_solib_is_path("lib/policy"));
    CU_ASSERT_FALSE(pol_solib_is_path("easy"));
    CU_ASSERT_FALSE(pol_solib_is_path(".so"));
    CU_ASSERT_FALSE(pol_solib_is_path("sonar"));
}

/* The example loads: its type as declared, the file's hash, and the same
 * entry when loaded again. */
static void test_load(void)
{
    const pol_solib *l = NULL, *again = NULL;
    char err[1024];
    CU_ASSERT_EQUAL_FATAL(pol_solib_load(lib("sjf.so"), &l, err, sizeof err), ENG_OK);
    CU_ASSERT_STRING_EQUAL(l->path, lib("sjf.so"));
    CU_ASSERT_STRING_EQUAL(l->type->name, "sjf-backfill");
    CU_ASSERT_PTR_NOT_NULL(strstr(l->type->citation, "Lifka 1995"));
    CU_ASSERT_EQUAL(l->type->flags, POL_FLAG_HEAD_GREEDY | POL_FLAG_REPLANS | POL_FLAG_CORES);
    CU_ASSERT_STRING_EQUAL(l->type->options[0].key, "max_scan");
    char sha[65];
    CU_ASSERT_EQUAL(eng_sha256_file(lib("sjf.so"), sha, NULL), ENG_OK);
    CU_ASSERT_STRING_EQUAL(l->sha256, sha);
    CU_ASSERT_EQUAL(pol_solib_load(lib("sjf.so"), &again, err, sizeof err), ENG_OK);
    CU_ASSERT_PTR_EQUAL(again, l);
    /* its options are checked as a built-in policy's */
    const pol_kv bad[] = {{"max_scan", "-1"}};
    CU_ASSERT_EQUAL(pol_try_options(l->type, bad, 1, err, sizeof err), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(
        strstr(err, "max_scan: expected a non-negative integer (at most 1000000), got '-1'"));
}

static void expect_refused(const char *name, int code, const char *words)
{
    static const pol_solib untouched;
    const pol_solib *l = &untouched;
    char err[1024];
    int rc = pol_solib_load(lib(name), &l, err, sizeof err);
    CU_ASSERT_EQUAL(rc, code);
    CU_ASSERT_PTR_NULL(l);
    CU_ASSERT_TRUE(bl_contains(err, lib(name)));
    CU_ASSERT_TRUE(bl_contains(err, words));
}

static void test_refused(void)
{
    char want[200];
    snprintf(want, sizeof want,
             "built for policy interface version 999; this batchlab has version %u",
             (unsigned)POL_INTERFACE_VERSION);
    expect_refused("v999.so", ENG_UNSUPPORTED, want);
    expect_refused("nosym.so", ENG_POLICY,
                   "not a batchlab policy library (no symbol batchlab_policy_interface");
    expect_refused("notype.so", ENG_POLICY, "(no symbol batchlab_policy;");
    expect_refused("nohook.so", ENG_POLICY, "its batchlab_policy has no schedule hook");
    expect_refused("undef.so", ENG_INVAL, "batchlab_not_defined_anywhere");
    expect_refused("text.so", ENG_INVAL, "not a loadable policy library");
    expect_refused("missing.so", ENG_IO, "cannot open");
}

/* 4 single-core hosts. Job 1 (3 hosts, 100 s) starts at 0; job 2 (4
 * hosts) arrives at 1 and is promised the shadow time 100, with no extra
 * unit; jobs 3 (1 host, 80 s) and 4 (1 host, 10 s) arrive together at 2
 * with one host free, and both end before 100. EASY tries them in queue
 * order: 3 starts at 2 (ends 82), 4 at 82. SJF tries the shorter first:
 * 4 starts at 2 (ends 12), 3 at 12 (ends 92). Job 2 starts at 100 under
 * both. */
static void test_known_answer(void)
{
    const pol_solib *l;
    char err[1024];
    CU_ASSERT_EQUAL_FATAL(pol_solib_load(lib("sjf.so"), &l, err, sizeof err), ENG_OK);
    static const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 3, 0},
        {2, 1, 100, 100, 4, 0},
        {3, 2, 80, 80, 1, 0},
        {4, 2, 10, 10, 1, 0},
    };
    static const double easy_start[] = {0, 100, 2, 82}, sjf_start[] = {0, 100, 12, 2};
    for (int sjf = 0; sjf < 2; sjf++) {
        bl_opts o = {.alloc = POL_ALLOC_NODE,
                     .walltime = ENG_WALLTIME_KILL,
                     .policy_type = sjf ? l->type : pol_find("easy")};
        bl_sched s;
        CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 4, bl_uniform_platform(4, 1), &o, &s), 0);
        for (int i = 0; i < 4; i++) {
            double want = sjf ? sjf_start[i] : easy_start[i];
            CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, jobs[i].id), want, 1e-9);
        }
        bl_sched_fini(&s);
    }
    /* max_scan=1 tries only the shortest, which changes nothing here */
    const pol_kv one[] = {{"max_scan", "1"}};
    bl_opts o = {.policy_type = l->type, .options = one, .n_options = 1};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 4, bl_uniform_platform(4, 1), &o, &s), 0);
    CU_ASSERT_DOUBLE_EQUAL(bl_start(&s, 3), 12, 1e-9);
    bl_sched_fini(&s);
}

static const char kat_swf[] = "1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "2 1 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "3 2 -1 80 1 -1 -1 1 80 -1 1 1 1 -1 -1 -1 -1 -1\n"
                              "4 2 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n";

/* Each refusal through the command line: exit 2, the message, and no
 * output folder. */
static void test_cli_refusals(void)
{
    const char *swf = bl_write_tmp("kat.swf", kat_swf);
    const char *names[] = {"v999.so", "nosym.so", "text.so", "missing.so", "nohook.so"};
    const char *words[] = {"built for policy interface version 999", "no symbol",
                           "not a loadable policy library", "cannot open", "no schedule hook"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *out = NULL;
        char outdir[4300];
        snprintf(outdir, sizeof outdir, "%s/out-%zu", dir, i);
        int rc = bl_run(&out, "run --platform '%s' --workload '%s' --policy '%s' --out '%s'",
                        bl_src("platforms/test/tiny-4.xml"), swf, lib(names[i]), outdir);
        CU_ASSERT_EQUAL(rc, 2);
        CU_ASSERT_TRUE(bl_contains(out, "batchlab run: "));
        CU_ASSERT_TRUE(bl_contains(out, lib(names[i])));
        CU_ASSERT_TRUE(bl_contains(out, words[i]));
        FILE *f = fopen(outdir, "r");
        CU_ASSERT_PTR_NULL(f);
        if (f)
            fclose(f);
        free(out);
    }
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "policies '%s'", lib("v999.so")), 2);
    CU_ASSERT_TRUE(bl_contains(out, "batchlab policies: "));
    CU_ASSERT_TRUE(bl_contains(out, "version 999"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out,
                           "compare --platform '%s' --workload '%s' "
                           "--policies 'easy,%s'",
                           bl_src("platforms/test/tiny-4.xml"), swf, lib("nosym.so")),
                    2);
    CU_ASSERT_TRUE(bl_contains(out, "batchlab compare: "));
    CU_ASSERT_TRUE(bl_contains(out, "no symbol"));
    free(out);
}

/* A library runs like a built-in policy: `policies PATH.so` describes it,
 * run --check replays under it, the manifest records its path and hash,
 * and compare names its folder by its base name. */
static void test_cli_runs(void)
{
    const char *swf = bl_write_tmp("kat2.swf", kat_swf);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "policies '%s'", lib("sjf.so")), 0);
    CU_ASSERT_TRUE(bl_contains(out, "sjf-backfill   EASY backfilling, later jobs tried shortest"));
    CU_ASSERT_TRUE(bl_contains(out, "(Lifka 1995; Mu'alem & Feitelson 2001;"));
    CU_ASSERT_TRUE(bl_contains(out, "re-plans at every call"));
    CU_ASSERT_TRUE(bl_contains(out, "library "));
    CU_ASSERT_TRUE(
        bl_contains(out, "max_scan         a non-negative integer (at most 1000000); default 0"));
    free(out);
    out = NULL;
    char run_dir[4300];
    snprintf(run_dir, sizeof run_dir, "%s/run", dir);
    CU_ASSERT_EQUAL(bl_run(&out,
                           "run --platform '%s' --workload '%s' "
                           "--policy '%s:max_scan=3' --check --out '%s'",
                           bl_src("platforms/test/tiny-4.xml"), swf, lib("sjf.so"), run_dir),
                    0);
    free(out);
    char path[4400];
    snprintf(path, sizeof path, "%s/summary.json", run_dir);
    char *summary = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(summary);
    char sha[65], want[8400];
    CU_ASSERT_EQUAL(eng_sha256_file(lib("sjf.so"), sha, NULL), ENG_OK);
    snprintf(want, sizeof want, "\"policy_library\":{\"path\":\"%s\",\"sha256\":\"%s\"}",
             lib("sjf.so"), sha);
    size_t k = 0; /* the JSON without its blanks */
    for (const char *c = summary; *c; c++)
        if (*c != ' ' && *c != '\n')
            summary[k++] = *c;
    summary[k] = '\0';
    CU_ASSERT_TRUE(bl_contains(summary, want));
    CU_ASSERT_TRUE(bl_contains(summary, "\"max_scan\":\"3\""));
    free(summary);

    out = NULL;
    char cmp_dir[4300];
    snprintf(cmp_dir, sizeof cmp_dir, "%s/cmp", dir);
    CU_ASSERT_EQUAL(bl_run(&out,
                           "compare --platform '%s' --workload '%s' "
                           "--policies 'easy,%s:max_scan=2' --out '%s'",
                           bl_src("platforms/test/tiny-4.xml"), swf, lib("sjf.so"), cmp_dir),
                    0);
    free(out);
    snprintf(path, sizeof path, "%s/sjf.so+max_scan=2/summary.json", cmp_dir);
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL(f);
    if (f)
        fclose(f);
    char *folder = bl_policy_folder("lib/x/sjf.so:max_scan=2");
    CU_ASSERT_STRING_EQUAL(folder, "sjf.so+max_scan=2");
    free(folder);
    folder = bl_policy_folder("easy:shares=a/b");
    CU_ASSERT_STRING_EQUAL(folder, "easy+shares=a_b");
    free(folder);
}

/* A grid names a library relative to its folder, and varies its option
 * after the path's last dot; a library that cannot be used is refused
 * with the grid's line. */
static void test_grid(void)
{
    char text[8192];
    snprintf(
        text, sizeof text,
        "platform = %s\nworkload.w = %s\npolicies = easy, ./sjf.so\n./sjf.so.max_scan = 1, 2\n",
        bl_src("platforms/test/tiny-4.xml"), bl_write_tmp("kat3.swf", kat_swf));
    char grid_path[4300];
    snprintf(grid_path, sizeof grid_path, "%s/grid.txt", dir);
    FILE *f = fopen(grid_path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    bl_grid g;
    eng_diag d;
    eng_diag_clear(&d);
    int rc = bl_grid_parse(grid_path, &g, &d);
    if (rc)
        printf("\n  %s", d.msg);
    CU_ASSERT_EQUAL_FATAL(rc, ENG_OK);
    CU_ASSERT_EQUAL(g.n_policies, 2);
    CU_ASSERT_STRING_EQUAL(g.policies[0], "easy");
    CU_ASSERT_PTR_NOT_NULL(strstr(g.policies[1], "/sjf.so"));
    CU_ASSERT_EQUAL(g.policies[1][0], '/');
    bl_task *t = NULL;
    size_t n = 0;
    rc = bl_grid_expand(&g, &t, &n, &d);
    if (rc)
        printf("\n  %s", d.msg);
    CU_ASSERT_EQUAL_FATAL(rc, ENG_OK);
    CU_ASSERT_EQUAL(n, 3);
    if (n == 3) {
        CU_ASSERT_TRUE(bl_contains(t[2].variant, "/sjf.so:max_scan=2"));
        CU_ASSERT_TRUE(bl_contains(t[2].name, "sjf.so+max_scan=2"));
    }
    bl_tasks_free(t, n);
    bl_grid_fini(&g);

    snprintf(text, sizeof text, "platform = %s\nworkload.w = %s\npolicies = easy, ./v999.so\n",
             bl_src("platforms/test/tiny-4.xml"), bl_src("tests/data/easy-core-index-40.swf"));
    f = fopen(grid_path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(bl_grid_parse(grid_path, &g, &d), ENG_PARSE);
    CU_ASSERT_TRUE(bl_contains(d.msg, ":3: policies: "));
    CU_ASSERT_TRUE(bl_contains(d.msg, "built for policy interface version 999"));
}

int bl_suite_pol_solib(void)
{
    CU_pSuite s = CU_add_suite("pol_solib", setup, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a policy name that is a path", test_is_path);
    CU_add_test(s, "the example loads, hashed, once", test_load);
    CU_add_test(s, "libraries refused, with the file and the reason", test_refused);
    CU_add_test(s, "known answer: SJF order against EASY's", test_known_answer);
    CU_add_test(s, "the command line refuses them: exit 2", test_cli_refusals);
    CU_add_test(s, "the command line runs one as a built-in policy", test_cli_runs);
    CU_add_test(s, "a sweep grid naming a library", test_grid);
    return 0;
}
