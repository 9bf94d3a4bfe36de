/* test_cli_json.c — the command line's JSON reader (tools/cli_json.c):
 * known keys and values of a flattened object, and the inputs it must
 * refuse with their position. (Moved unchanged from test_cli_sweep.c when
 * the reader left cli_sweep.c.) */
#include "bl_test.h"
#include "cli_json.h"

#include <stdlib.h>
#include <string.h>

static void test_json_flat(void)
{
    bl_json_flat j;
    eng_diag d;
    eng_diag_clear(&d);
    const char *text = "{\n  \"a\": {\"b\": 1.5e3, \"c\": \"x\\\"y\\\\z\\u0041\"},\n"
                       "  \"arr\": [true, null, {\"k\": -2}],\n  \"e\": {}, \"f\": []\n}\n";
    CU_ASSERT_EQUAL_FATAL(bl_json_flat_parse("t.json", text, &j, &d), ENG_OK);
    CU_ASSERT_EQUAL(j.n, 5);
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "a.b"), "1500"); /* as batchlab writes it */
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "a.c"), "x\"y\\zA");
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "arr.0"), "true");
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "arr.1"), "null");
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "arr.2.k"), "-2");
    CU_ASSERT_PTR_NULL(bl_json_flat_get(&j, "a"));
    CU_ASSERT_TRUE(j.is_string[1]);
    CU_ASSERT_FALSE(j.is_string[0]);
    bl_json_flat_fini(&j);

    /* "\u0000" inside a string: kept with the string's length; get, which
     * answers C strings, refuses it rather than cutting it at the NUL. */
    CU_ASSERT_EQUAL_FATAL(
        bl_json_flat_parse("t.json", "{\"a\": \"x\\u0000y\", \"b\": \"z\"}", &j, &d), ENG_OK);
    size_t len = 0;
    const char *a = bl_json_flat_getn(&j, "a", &len);
    CU_ASSERT_EQUAL(len, 3);
    CU_ASSERT_TRUE(a && memcmp(a, "x\0y", 3) == 0);
    CU_ASSERT_PTR_NULL(bl_json_flat_get(&j, "a"));
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "b"), "z");
    CU_ASSERT_PTR_NULL(bl_json_flat_getn(&j, "c", &len));
    bl_json_flat_fini(&j);

    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"{\"a\": 1,\n \"b\" 2}", "t.json:2:6: ':' expected near '2'"},
        {"{\"a\": [1, 2}", "t.json:1:12: ']' expected near '}'"},
        {"{\"a\": \"open", "t.json:1:11: premature end of input"},
        {"[1]", "t.json:1: expected a JSON object"},
        {"{\"a\": 1} x", "t.json:1:10: end of file expected near 'x'"},
        {"{\"a\": tru}", "t.json:1:9: invalid token near 'tru'"},
        /* What the hand-written reader let through: -inf read as a number,
         * the second of two equal keys was lost. (A NUL cut the string:
         * now it is kept, see below.) */
        {"{\"a\": -inf}", "t.json:1:7: invalid token near '-'"},
        {"{\"a\": 1, \"a\": 2}", "t.json:1:12: duplicate object key"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        eng_diag_clear(&d);
        CU_ASSERT_EQUAL(bl_json_flat_parse("t.json", bad[i].text, &j, &d), ENG_PARSE);
        CU_ASSERT_TRUE(bl_contains(d.msg, bad[i].msg));
        CU_ASSERT_EQUAL(j.n, 0);
    }
}

int bl_suite_cli_json(void)
{
    CU_pSuite s = CU_add_suite("cli_json", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "flat JSON reader", test_json_flat);
    return 0;
}
