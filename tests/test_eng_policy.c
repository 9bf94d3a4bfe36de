/* test_eng_policy.c — the engine's side of the policy boundary
 * (engine/eng_policy.c): the options, known answers for each type — the
 * values read, the ends of the ranges, what is refused and the message
 * that says so, the defaults applied when absent, unknown and repeated
 * keys — and their description for `batchlab policies`. The decision
 * buffer and the island rule are exercised by every policy's suite and
 * test_eng_island.c. */
#include "bl_test.h"

#include "eng_error.h"
#include "eng_policy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One option of each type, as a policy would declare them. */
static const pol_option probe_options[] = {
    {.key = "n", .type = POL_OPT_INT, .min = 1, .max = 10, .def_int = 3, .help = "a count"},
    {.key = "w", .type = POL_OPT_INT, .min = 0, .max = INT64_MAX, .help = "a weight, 0 by default"},
    {.key = "x",
     .type = POL_OPT_REAL,
     .lo = 0,
     .open_lo = true,
     .hi = 1,
     .def_real = 0.5,
     .help = "a share"},
    {.key = "y",
     .type = POL_OPT_REAL,
     .lo = -INFINITY,
     .hi = INFINITY,
     .def_real = -2,
     .unit = "seconds",
     .help = "an offset"},
    {.key = "c",
     .type = POL_OPT_CHOICE,
     .choices = POL_CHOICES("a", "b", "c"),
     .def_int = 1,
     .help = "a choice, b by default"},
    {.key = "f", .type = POL_OPT_BOOL, .help = "a switch, off by default"},
    {.key = "s",
     .type = POL_OPT_STRING,
     .metavar = "a file",
     .absent = "no file",
     .help = "a path"},
    {.key = "t",
     .type = POL_OPT_DURATION,
     .lo = 0,
     .open_lo = true,
     .hi = INFINITY,
     .def_real = 7 * 86400,
     .help = "a time"},
    {.key = "t0",
     .type = POL_OPT_DURATION,
     .lo = 0,
     .hi = INFINITY,
     .def_real = 90,
     .help = "a time that may be 0"},
    {.key = "l", .type = POL_OPT_WORDS, .choices = POL_CHOICES("p", "q", "r"), .help = "flags"},
    {.key = "pr",
     .type = POL_OPT_PAIRS,
     .metavar = "Q:F",
     .min = 0,
     .max = 100,
     .absent = "1 for each",
     .help = "factors"},
    {0},
};

static const pol_type probe = {.name = "probe", .options = probe_options};

/* A setup holding the one pair key=value (none when key is NULL), checked
 * first as the engine does before init. */
static pol_kv one_kv;
static pol_setup with(const char *key, const char *value)
{
    one_kv = (pol_kv){.key = key, .value = value};
    pol_setup s = {
        .options = key ? &one_kv : NULL, .n_options = key ? 1 : 0, .declared = probe_options};
    return s;
}

/* The check's verdict on key=value, with its message in err. */
static char err[512];
static int check(const char *key, const char *value)
{
    err[0] = '\0';
    const pol_kv kv = {.key = key, .value = value};
    return pol_check_options(&probe, &kv, 1, err, sizeof err);
}

/* Refused with exactly this message. */
static void refused(const char *key, const char *value, const char *msg)
{
    int rc = check(key, value);
    CU_ASSERT_EQUAL(rc, ENG_INVAL);
    if (strcmp(err, msg) != 0)
        printf("\n  %s=%s: got '%s'\n  expected '%s'", key, value, err, msg);
    CU_ASSERT_STRING_EQUAL(err, msg);
}

static void accepted(const char *key, const char *value)
{
    int rc = check(key, value);
    if (rc)
        printf("\n  %s=%s refused: %s", key, value, err);
    CU_ASSERT_EQUAL(rc, ENG_OK);
}

/* Absent options read as their declared defaults. */
static void test_defaults(void)
{
    pol_setup s = with(NULL, NULL);
    CU_ASSERT_EQUAL(pol_check_options(&probe, NULL, 0, err, sizeof err), ENG_OK);
    CU_ASSERT_EQUAL(pol_opt_int(&s, "n"), 3);
    CU_ASSERT_EQUAL(pol_opt_int(&s, "w"), 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "x"), 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "y"), -2, 0);
    CU_ASSERT_EQUAL(pol_opt_choice(&s, "c"), 1);
    CU_ASSERT_FALSE(pol_opt_bool(&s, "f"));
    CU_ASSERT_PTR_NULL(pol_opt_str(&s, "s"));
    CU_ASSERT_FALSE(pol_opt_given(&s, "s"));
    CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "t"), 604800, 0);
    CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "t0"), 90, 0);
    CU_ASSERT_EQUAL(pol_opt_words(&s, "l"), 0);
    CU_ASSERT_EQUAL(pol_opt_pairs(&s, "pr", NULL, 0), 0);
    CU_ASSERT_FALSE(pol_opt_given(&s, "n"));
}

static void test_int(void)
{
    accepted("n", "1"); /* both ends are in */
    accepted("n", "10");
    pol_setup s = with("n", "10");
    CU_ASSERT_EQUAL(pol_opt_int(&s, "n"), 10);
    CU_ASSERT_TRUE(pol_opt_given(&s, "n"));
    s = with("n", "+7");
    CU_ASSERT_EQUAL(pol_opt_int(&s, "n"), 7);
    refused("n", "0", "policy probe: option n: expected an integer in 1..10, got '0'");
    refused("n", "11", "policy probe: option n: expected an integer in 1..10, got '11'");
    refused("n", "2.5", "policy probe: option n: expected an integer in 1..10, got '2.5'");
    refused("n", "", "policy probe: option n: expected an integer in 1..10, got ''");
    refused("n", "3x", "policy probe: option n: expected an integer in 1..10, got '3x'");
    accepted("w", "9223372036854775807");
    refused("w", "9223372036854775808",
            "policy probe: option w: expected a non-negative integer, got '9223372036854775808'");
    refused("w", "-1", "policy probe: option w: expected a non-negative integer, got '-1'");
    int64_t v;
    CU_ASSERT_TRUE(pol_parse_int("-42", &v));
    CU_ASSERT_EQUAL(v, -42);
    CU_ASSERT_FALSE(pol_parse_int("4 2", &v));
    CU_ASSERT_FALSE(pol_parse_int("", &v));
}

static void test_real(void)
{
    refused("x", "0", "policy probe: option x: expected a number in (0, 1], got '0'");
    accepted("x", "1e-300");
    accepted("x", "1");
    refused("x", "1.0000001",
            "policy probe: option x: expected a number in (0, 1], got '1.0000001'");
    refused("x", "nan", "policy probe: option x: expected a number in (0, 1], got 'nan'");
    pol_setup s = with("x", "0.25");
    CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "x"), 0.25, 0);
    accepted("y", "-1e300");
    refused("y", "inf", "policy probe: option y: expected a number, got 'inf'");
    refused("y", "-", "policy probe: option y: expected a number, got '-'");
    refused("y", "1e999", "policy probe: option y: expected a number, got '1e999'");
}

static void test_choice_and_bool(void)
{
    pol_setup s = with("c", "c");
    accepted("c", "c");
    CU_ASSERT_EQUAL(pol_opt_choice(&s, "c"), 2);
    s = with("c", "a");
    CU_ASSERT_EQUAL(pol_opt_choice(&s, "c"), 0);
    refused("c", "d", "policy probe: option c: expected a, b or c, got 'd'");
    refused("c", "A", "policy probe: option c: expected a, b or c, got 'A'");
    s = with("f", "yes");
    accepted("f", "yes");
    CU_ASSERT_TRUE(pol_opt_bool(&s, "f"));
    s = with("f", "no");
    CU_ASSERT_FALSE(pol_opt_bool(&s, "f"));
    refused("f", "true", "policy probe: option f: expected yes or no, got 'true'");
    s = with("s", "/some/file");
    accepted("s", "");
    CU_ASSERT_STRING_EQUAL(pol_opt_str(&s, "s"), "/some/file");
    CU_ASSERT_TRUE(pol_opt_given(&s, "s"));
}

/* Slurm's formats: MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC. */
static void test_duration(void)
{
    static const struct {
        const char *text;
        double s;
    } known[] = {
        {"5", 300},         {"1:30", 90},          {"1:02:03", 3723}, {"2-3", 183600},
        {"2-3:04", 183840}, {"2-3:04:05", 183845}, {"0:30:0", 1800},  {"7-0", 604800},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        accepted("t", known[i].text);
        pol_setup s = with("t", known[i].text);
        CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "t"), known[i].s, 0);
    }
    const char *formats = "(MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC)";
    char want[256];
    static const char *const bad[] = {"0", "7days", "1:2:3:4", "-1", "1-", "1-2:3:4:5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(want, sizeof want,
                 "policy probe: option t: expected a non-zero Slurm time %s, "
                 "got '%s'",
                 formats, bad[i]);
        refused("t", bad[i], want);
    }
    accepted("t0", "0"); /* a closed end */
    snprintf(want, sizeof want, "policy probe: option t0: expected a Slurm time %s, got 'x'",
             formats);
    refused("t0", "x", want);
}

static void test_words(void)
{
    pol_setup s = with("l", "p,r,p");
    accepted("l", "p,r,p"); /* repeats allowed */
    CU_ASSERT_EQUAL(pol_opt_words(&s, "l"), 5);
    s = with("l", "");
    accepted("l", "");
    CU_ASSERT_EQUAL(pol_opt_words(&s, "l"), 0);
    refused("l", "P",
            "policy probe: option l: expected a comma-separated list of p, q, r; got 'P'");
    refused("l", "p,,q",
            "policy probe: option l: expected a comma-separated list of p, q, r; got 'p,,q'");
    refused("l", "p,",
            "policy probe: option l: expected a comma-separated list of p, q, r; got "
            "'p,' (a word is missing after ',')");
}

static void test_pairs(void)
{
    pol_setup s = with("pr", "1:2,-3:100");
    accepted("pr", "1:2,-3:100");
    pol_opt_pair p[4];
    CU_ASSERT_EQUAL(pol_opt_pairs(&s, "pr", NULL, 0), 2);
    CU_ASSERT_EQUAL(pol_opt_pairs(&s, "pr", p, 1), 2); /* writes one, says two */
    CU_ASSERT_EQUAL(p[0].a, 1);
    CU_ASSERT_EQUAL(p[0].b, 2);
    CU_ASSERT_EQUAL(pol_opt_pairs(&s, "pr", p, 4), 2);
    CU_ASSERT_EQUAL(p[1].a, -3);
    CU_ASSERT_EQUAL(p[1].b, 100);
    accepted("pr", "");
    static const char *const bad[] = {"1:101", "1:-1", "x", "1", "1:2,", "1:2,x", "1:2;3:4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[256];
        snprintf(want, sizeof want,
                 "policy probe: option pr: expected Q:F[,Q:F...] with integers, F in 0..100; "
                 "got '%s'",
                 bad[i]);
        refused("pr", bad[i], want);
    }
}

/* Keys: every one declared, each once; the first problem is reported. */
static void test_keys(void)
{
    refused("z", "1", "unknown option 'z' for policy probe (accepted: n w x y c f s t t0 l pr)");
    const pol_kv twice[] = {{"n", "2"}, {"x", "1"}, {"n", "3"}};
    CU_ASSERT_EQUAL(pol_check_options(&probe, twice, 3, err, sizeof err), ENG_INVAL);
    CU_ASSERT_STRING_EQUAL(err, "option 'n' given twice for policy probe");
    const pol_type none = {.name = "none"};
    const pol_kv any[] = {{"n", "2"}};
    CU_ASSERT_EQUAL(pol_check_options(&none, any, 1, err, sizeof err), ENG_INVAL);
    CU_ASSERT_STRING_EQUAL(err, "unknown option 'n' for policy none (it accepts none)");
    CU_ASSERT_EQUAL(pol_check_options(&none, NULL, 0, err, sizeof err), ENG_OK);
    const pol_kv many[] = {{"n", "2"}, {"c", "a"}, {"pr", "1:1"}, {"l", "q"}};
    CU_ASSERT_EQUAL(pol_check_options(&probe, many, 4, err, sizeof err), ENG_OK);
    CU_ASSERT_PTR_EQUAL(pol_option_find(probe_options, "pr"), &probe_options[10]);
    CU_ASSERT_PTR_NULL(pol_option_find(probe_options, "p"));
    CU_ASSERT_PTR_NULL(pol_option_find(NULL, "n"));
}

/* What `batchlab policies` prints; and a default printed as a value reads
 * back as the default itself. */
static void test_describe(void)
{
    static const struct {
        const char *key, *values, *def;
    } want[] = {
        {"n", "an integer in 1..10", "3"},
        {"w", "a non-negative integer", "0"},
        {"x", "a number in (0, 1]", "0.5"},
        {"y", "a number (seconds)", "-2"},
        {"c", "a|b|c", "b"},
        {"f", "yes|no", "no"},
        {"s", "a file", "(no file)"},
        {"t", "a non-zero Slurm time (MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC)",
         "7-0"},
        {"t0", "a Slurm time (MIN, MIN:SEC, H:MIN:SEC, D-H, D-H:MIN or D-H:MIN:SEC)", "1:30"},
        {"l", "a comma-separated list of p, q, r", "(none)"},
        {"pr", "Q:F[,Q:F...] with integers, F in 0..100", "(1 for each)"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const pol_option *o = pol_option_find(probe_options, want[i].key);
        CU_ASSERT_PTR_NOT_NULL_FATAL(o);
        char values[256], def[64];
        pol_option_describe(o, values, sizeof values, def, sizeof def);
        CU_ASSERT_STRING_EQUAL(values, want[i].values);
        CU_ASSERT_STRING_EQUAL(def, want[i].def);
        if (def[0] == '(')
            continue;
        accepted(o->key, def);
        pol_setup absent = with(NULL, NULL), given = with(o->key, def); /* one pair at a time */
        switch (o->type) {
        case POL_OPT_INT:
            CU_ASSERT_EQUAL(pol_opt_int(&given, o->key), pol_opt_int(&absent, o->key));
            break;
        case POL_OPT_REAL:
        case POL_OPT_DURATION:
            CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&given, o->key), pol_opt_real(&absent, o->key), 0);
            break;
        case POL_OPT_CHOICE:
            CU_ASSERT_EQUAL(pol_opt_choice(&given, o->key), pol_opt_choice(&absent, o->key));
            break;
        case POL_OPT_BOOL:
            CU_ASSERT_EQUAL(pol_opt_bool(&given, o->key), pol_opt_bool(&absent, o->key));
            break;
        default:
            CU_FAIL("a default printed as a value for a type without one");
        }
    }
    /* Slurm's shortest form of a default time; a long text cut, terminated */
    static const struct {
        double s;
        const char *text;
    } times[] = {{0, "0"}, {300, "5"}, {86400, "1-0"}, {90000, "1500"}, {61, "1:1"}};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        const pol_option o = {
            .key = "d", .type = POL_OPT_DURATION, .lo = 0, .hi = INFINITY, .def_real = times[i].s};
        char values[256], def[32];
        pol_option_describe(&o, values, sizeof values, def, sizeof def);
        CU_ASSERT_STRING_EQUAL(def, times[i].text);
        const pol_option d[] = {o, {0}};
        const pol_kv kv = {.key = "d", .value = def};
        pol_setup s = {.options = &kv, .n_options = 1, .declared = d};
        CU_ASSERT_DOUBLE_EQUAL(pol_opt_real(&s, "d"), times[i].s, 0);
    }
    char small[8], def[4];
    pol_option_describe(&probe_options[7], small, sizeof small, def, sizeof def);
    CU_ASSERT_STRING_EQUAL(small, "a non-z"); /* cut, terminated */
    CU_ASSERT_STRING_EQUAL(def, "7-0");
}

int bl_suite_eng_policy(void)
{
    CU_pSuite s = CU_add_suite("eng_policy", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "options: defaults when absent", test_defaults);
    CU_add_test(s, "options: integers, range ends", test_int);
    CU_add_test(s, "options: reals, open and closed ends", test_real);
    CU_add_test(s, "options: choices, yes/no, strings", test_choice_and_bool);
    CU_add_test(s, "options: Slurm times", test_duration);
    CU_add_test(s, "options: lists of words", test_words);
    CU_add_test(s, "options: lists of pairs", test_pairs);
    CU_add_test(s, "options: unknown and repeated keys", test_keys);
    CU_add_test(s, "options: descriptions and defaults read back", test_describe);
    return 0;
}
