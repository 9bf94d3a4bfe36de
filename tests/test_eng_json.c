/* test_eng_json.c — the JSON writer (engine/eng_json.c): numbers (null for
 * non-finite, integers without a fraction, other values in the shortest
 * exact form), escaping of control characters and U+0000 with a round trip
 * through the command line's reader, the layout, and atomic writing. */
#include "bl_test.h"
#include "cli_json.h"
#include "eng_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* root dumped to a string by eng_json_dumpf (the caller frees). */
static char *dump(const json_t *root)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = eng_json_dumpf(root, f);
    fclose(f);
    if (rc != ENG_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void test_numbers(void)
{
    bool ok = true;
    json_t *o = json_object();
    eng_json_set(o, "nan", eng_json_num(NAN), &ok);
    eng_json_set(o, "inf", eng_json_num(-INFINITY), &ok);
    eng_json_set(o, "int", eng_json_num(12107.0), &ok);
    eng_json_set(o, "neg", eng_json_num(-3.0), &ok);
    eng_json_set(o, "two53", eng_json_num(9007199254740992.0), &ok);
    eng_json_set(o, "tenth", eng_json_num(0.1), &ok);
    eng_json_set(o, "paper", eng_json_num(59.85), &ok);
    eng_json_set(o, "mean", eng_json_num(22142.0 / 13.0), &ok); /* needs 17 digits */
    eng_json_set(o, "big", eng_json_num(1e300), &ok);
    eng_json_set(o, "tiny", eng_json_num(-2.5e-7), &ok);
    CU_ASSERT_TRUE_FATAL(ok);
    char *text = dump(o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "{\n"
                                 "  \"nan\": null,\n"
                                 "  \"inf\": null,\n"
                                 "  \"int\": 12107,\n"
                                 "  \"neg\": -3,\n"
                                 "  \"two53\": 9007199254740992,\n"
                                 "  \"tenth\": 0.1,\n"
                                 "  \"paper\": 59.85,\n"
                                 "  \"mean\": 1703.2307692307693,\n"
                                 "  \"big\": 1e+300,\n"
                                 "  \"tiny\": -2.5e-07\n"
                                 "}\n");
    /* every number reads back as the same double */
    json_t *back = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    CU_ASSERT_TRUE(json_is_null(json_object_get(back, "nan")));
    CU_ASSERT_TRUE(json_is_integer(json_object_get(back, "int")));
    CU_ASSERT_EQUAL(json_real_value(json_object_get(back, "mean")), 22142.0 / 13.0);
    CU_ASSERT_EQUAL(json_real_value(json_object_get(back, "tenth")), 0.1);
    CU_ASSERT_EQUAL(json_real_value(json_object_get(back, "big")), 1e300);
    json_decref(back);
    free(text);
    json_decref(o);
}

/* Strings: control characters and U+0000 escaped; text that looks like a
 * number inside a string is left as written; the flat reader gives back
 * the same bytes. */
static void test_strings_round_trip(void)
{
    static const char raw[] = "a\x01"
                              "b\0c\n\"d\\\t0.50";
    size_t n = sizeof raw - 1; /* 13 bytes, the NUL included */
    bool ok = true;
    json_t *o = json_object();
    eng_json_set(o, "s", eng_json_strn(raw, n), &ok);
    eng_json_set(o, "ctl", eng_json_str("x\x1fy"), &ok);
    eng_json_set(o, "none", eng_json_str(NULL), &ok);
    eng_json_set(o, "latin1", eng_json_str("caf\xe9 1.50"), &ok);
    CU_ASSERT_TRUE_FATAL(ok);
    char *text = dump(o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "{\n"
                                 "  \"s\": \"a\\u0001b\\u0000c\\n\\\"d\\\\\\t0.50\",\n"
                                 "  \"ctl\": \"x\\u001Fy\",\n"
                                 "  \"none\": \"\",\n"
                                 "  \"latin1\": \"caf? 1.50\"\n"
                                 "}\n");
    for (const char *p = text; *p; p++)
        CU_ASSERT_FALSE((unsigned char)*p < 0x20 && *p != '\n');
    bl_json_flat j;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(bl_json_flat_parse("t.json", text, &j, &d), ENG_OK);
    size_t len = 0;
    const char *s = bl_json_flat_getn(&j, "s", &len);
    CU_ASSERT_EQUAL(len, n);
    CU_ASSERT_TRUE(s && memcmp(s, raw, n) == 0);
    CU_ASSERT_STRING_EQUAL(bl_json_flat_get(&j, "ctl"), "x\x1fy");
    bl_json_flat_fini(&j);
    free(text);
    json_decref(o);
}

/* A failed set clears ok and frees nothing twice; nested containers keep
 * their order and indentation. */
static void test_tree_and_layout(void)
{
    bool ok = true;
    json_t *o = json_object(), *arr = json_array(), *in = json_object();
    eng_json_set(in, "label", eng_json_str("all"), &ok);
    eng_json_set(in, "hosts", json_integer(100), &ok);
    eng_json_push(arr, in, &ok);
    eng_json_set(o, "z", json_true(), &ok);
    eng_json_set(o, "pools", arr, &ok);
    eng_json_set(o, "empty", json_object(), &ok);
    CU_ASSERT_TRUE(ok);
    char *text = dump(o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "{\n"
                                 "  \"z\": true,\n"
                                 "  \"pools\": [\n"
                                 "    {\n"
                                 "      \"label\": \"all\",\n"
                                 "      \"hosts\": 100\n"
                                 "    }\n"
                                 "  ],\n"
                                 "  \"empty\": {}\n"
                                 "}\n");
    free(text);
    eng_json_set(o, "x", NULL, &ok); /* a value that could not be made */
    CU_ASSERT_FALSE(ok);
    ok = true;
    eng_json_push(NULL, json_integer(1), &ok); /* a container that could not be made */
    CU_ASSERT_FALSE(ok);
    json_decref(o);
}

/* eng_json_write: the file appears whole or not at all. */
static void test_write_atomic(void)
{
    const char *dir = bl_tmpdir();
    char path[600], bad[700];
    snprintf(path, sizeof path, "%s/out.json", dir);
    snprintf(bad, sizeof bad, "%s/missing/out.json", dir);
    json_t *o = json_object();
    bool ok = true;
    eng_json_set(o, "v", eng_json_num(0.25), &ok);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_json_write(path, o, &d), ENG_OK);
    char *text = bl_slurp(path, NULL);
    CU_ASSERT_TRUE(text && strcmp(text, "{\n  \"v\": 0.25\n}\n") == 0);
    free(text);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_json_write(bad, o, &d), ENG_IO);
    CU_ASSERT_TRUE(bl_contains(d.msg, "missing/out.json"));
    struct stat st;
    CU_ASSERT_NOT_EQUAL(stat(bad, &st), 0);
    json_decref(o);
}

int bl_suite_eng_json(void)
{
    CU_pSuite s = CU_add_suite("eng_json", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "numbers: null, integers, shortest exact reals", test_numbers);
    CU_add_test(s, "strings: control characters and NUL round-trip", test_strings_round_trip);
    CU_add_test(s, "tree building and layout", test_tree_and_layout);
    CU_add_test(s, "atomic write", test_write_atomic);
    return 0;
}
