/* test_cli_args.c — the option parser behind every command. */
#include "bl_test.h"
#include "cli_args.h"

static const bl_opt opts[] = {
    {"platform", 'p', BL_VALUE, "FILE", "platform"},
    {"check", 0, BL_FLAG, NULL, "check"},
    {"policy-opt", 0, BL_MULTI, "K=V", "option"},
};

static void test_forms(void)
{
    char *argv[] = {"run",          "--platform", "a.xml", "--check", "--policy-opt=x=1",
                    "--policy-opt", "y=2",        "-p",    "b.xml"};
    bl_args a;
    CU_ASSERT_EQUAL_FATAL(bl_args_parse("run", opts, 3, 9, argv, 1, &a), 0);
    CU_ASSERT_STRING_EQUAL(bl_args_value(&a, "platform", NULL), "b.xml"); /* last wins */
    CU_ASSERT_TRUE(bl_args_flag(&a, "check"));
    const bl_arg *m = bl_args_get(&a, "policy-opt");
    CU_ASSERT_EQUAL_FATAL(m->n_values, 2);
    CU_ASSERT_STRING_EQUAL(m->values[0], "x=1");
    CU_ASSERT_STRING_EQUAL(m->values[1], "y=2");
    CU_ASSERT_FALSE(a.help);
    bl_args_fini(&a);
    char *help[] = {"run", "--help"};
    CU_ASSERT_EQUAL(bl_args_parse("run", opts, 3, 2, help, 1, &a), 0);
    CU_ASSERT_TRUE(a.help);
    CU_ASSERT_STRING_EQUAL(bl_args_value(&a, "platform", "default"), "default");
    bl_args_fini(&a);
}

static void test_errors(void)
{
    bl_args a;
    char *unknown[] = {"run", "--platfrom", "x"};
    CU_ASSERT_EQUAL(bl_args_parse("run", opts, 3, 3, unknown, 1, &a), 2);
    char *missing[] = {"run", "--platform"};
    CU_ASSERT_EQUAL(bl_args_parse("run", opts, 3, 2, missing, 1, &a), 2);
    char *flagval[] = {"run", "--check=yes"};
    CU_ASSERT_EQUAL(bl_args_parse("run", opts, 3, 2, flagval, 1, &a), 2);
    char *stray[] = {"run", "file.swf"};
    CU_ASSERT_EQUAL(bl_args_parse("run", opts, 3, 2, stray, 1, &a), 2);
    int k = -1;
    CU_ASSERT_EQUAL(bl_args_choice("run", "alloc", "core", "node|core", &k), 0);
    CU_ASSERT_EQUAL(k, 1);
    CU_ASSERT_EQUAL(bl_args_choice("run", "alloc", "socket", "node|core", &k), 2);
    unsigned long long u;
    CU_ASSERT_EQUAL(bl_args_u64("run", "seed", "42", &u), 0);
    CU_ASSERT_EQUAL(u, 42);
    CU_ASSERT_EQUAL(bl_args_u64("run", "seed", "-1", &u), 2);
    CU_ASSERT_EQUAL(bl_args_u64("run", "seed", "4x", &u), 2);
    double x;
    CU_ASSERT_EQUAL(bl_args_double("run", "load", "0.85", &x), 0);
    CU_ASSERT_DOUBLE_EQUAL(x, 0.85, 0);
    CU_ASSERT_EQUAL(bl_args_double("run", "load", "nan", &x), 2);
}

int bl_suite_cli_args(void)
{
    CU_pSuite s = CU_add_suite("cli_args", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "option forms", test_forms);
    CU_add_test(s, "usage errors", test_errors);
    return 0;
}
