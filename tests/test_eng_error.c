/* test_eng_error.c — the error table and diagnostics. */
#include "bl_test.h"
#include "eng_error.h"

#include <string.h>

static void test_table(void)
{
    CU_ASSERT_STRING_EQUAL(eng_strerror(ENG_OK), "success");
    CU_ASSERT_STRING_EQUAL(eng_strerror(ENG_PARSE), "malformed input");
    CU_ASSERT_STRING_EQUAL(eng_errname(ENG_NOMEM), "ENG_NOMEM");
    CU_ASSERT_STRING_EQUAL(eng_strerror(12345), "unknown error");
    CU_ASSERT_STRING_EQUAL(eng_errname(-999), "ENG_UNKNOWN");
    CU_ASSERT_STRING_EQUAL(eng_errname(ENG_USAGE), "ENG_USAGE");
}

static void test_first_failure_wins(void)
{
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(d.code, 0);
    CU_ASSERT_EQUAL(eng_diag_set(&d, ENG_PARSE, "f.swf:%d: bad", 3), ENG_PARSE);
    CU_ASSERT_EQUAL(eng_diag_set(&d, ENG_IO, "later"), ENG_IO);
    CU_ASSERT_EQUAL(d.code, ENG_PARSE);
    CU_ASSERT_STRING_EQUAL(d.msg, "f.swf:3: bad");
    CU_ASSERT_EQUAL(eng_diag_prefix(&d, "run %s: ", "easy"), ENG_PARSE);
    CU_ASSERT_STRING_EQUAL(d.msg, "run easy: f.swf:3: bad");
    CU_ASSERT_EQUAL(eng_diag_set(NULL, ENG_IO, "x"), ENG_IO);
}

int bl_suite_eng_error(void)
{
    CU_pSuite s = CU_add_suite("eng_error", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "code table", test_table);
    CU_add_test(s, "first failure wins, prefix", test_first_failure_wins);
    return 0;
}
