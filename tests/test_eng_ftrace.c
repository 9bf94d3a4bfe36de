/* test_eng_ftrace.c — the failure-trace reader: outages in any order,
 * comments, gzip, and errors that name the file and line. */
#include "bl_test.h"
#include "eng_ftrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void test_reads_outages(void)
{
    const char *path = bl_write_tmp("down.txt", "# host down up\n"
                                                "\n"
                                                "n17  3600 7200   # a comment\n"
                                                "\tn2 5000.5\t5400\r\n"
                                                "n17 0 1e3\n");
    eng_ftrace t;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_ftrace_read(path, &t, &d), 0);
    CU_ASSERT_EQUAL_FATAL(t.n, 3);
    CU_ASSERT_STRING_EQUAL(t.spans[0].host, "n17");
    CU_ASSERT_DOUBLE_EQUAL(t.spans[0].start_s, 3600, 0);
    CU_ASSERT_DOUBLE_EQUAL(t.spans[0].end_s, 7200, 0);
    CU_ASSERT_EQUAL(t.spans[0].line, 3);
    CU_ASSERT_STRING_EQUAL(t.spans[1].host, "n2");
    CU_ASSERT_DOUBLE_EQUAL(t.spans[1].start_s, 5000.5, 0);
    CU_ASSERT_EQUAL(t.spans[1].line, 4);
    CU_ASSERT_DOUBLE_EQUAL(t.spans[2].end_s, 1000, 0);
    eng_ftrace_fini(&t);

    CU_ASSERT_EQUAL(eng_ftrace_read(bl_write_tmp("empty.txt", "# nothing fails\n"), &t, &d), 0);
    CU_ASSERT_EQUAL(t.n, 0);
    eng_ftrace_fini(&t);
}

static void test_reads_gzip(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/down.txt.gz", bl_tmpdir());
    gzFile gz = gzopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
    for (int i = 0; i < 1000; i++)
        gzprintf(gz, "h%d %d %d\n", i % 7 + 1, i * 10, i * 10 + 5);
    gzclose(gz);
    eng_ftrace t;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_ftrace_read(path, &t, &d), 0);
    CU_ASSERT_EQUAL_FATAL(t.n, 1000);
    CU_ASSERT_STRING_EQUAL(t.spans[999].host, "h6"); /* 999 % 7 + 1 */
    CU_ASSERT_DOUBLE_EQUAL(t.spans[999].start_s, 9990, 0);
    eng_ftrace_fini(&t);
}

static void expect_error(const char *text, int code, const char *needle)
{
    const char *path = bl_write_tmp("bad.txt", text);
    eng_ftrace t;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_ftrace_read(path, &t, &d), code);
    CU_ASSERT_EQUAL(t.n, 0);
    CU_ASSERT_PTR_NULL(t.spans);
    if (!bl_contains(d.msg, needle))
        fprintf(stderr, "\n  got '%s', expected '%s'", d.msg, needle);
    CU_ASSERT(bl_contains(d.msg, needle));
}

static void test_errors(void)
{
    expect_error("n1 0 10\nn2 10\n", ENG_PARSE, "bad.txt:2: expected 'HOST DOWN_AT UP_AT'");
    expect_error("n1 0 10 20\n", ENG_PARSE, "bad.txt:1: expected 'HOST DOWN_AT UP_AT'");
    expect_error("n1 zero 10\n", ENG_PARSE, "bad.txt:1: expected");
    expect_error("n1 0 10s\n", ENG_PARSE, "bad.txt:1: expected");
    expect_error("n1 0 inf\n", ENG_PARSE, "bad.txt:1: expected");
    expect_error("# a\nn1 30 10\n", ENG_PARSE, "bad.txt:2: outage of n1 from 30 to 10 s");
    expect_error("n1 -5 10\n", ENG_PARSE, "bad.txt:1: outage of n1 from -5 to 10 s");
    expect_error("n1 5 5\n", ENG_PARSE, "expected 0 <= DOWN_AT < UP_AT");
    char *long_line = calloc(6000, 1);
    memset(long_line, 'x', 5000);
    strcat(long_line, " 0 1\n");
    expect_error(long_line, ENG_PARSE, "bad.txt:1: line longer than 4096 characters");
    free(long_line);

    eng_ftrace t;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_ftrace_read("/nonexistent/down.txt", &t, &d), ENG_IO);
    CU_ASSERT(bl_contains(d.msg, "/nonexistent/down.txt: cannot open"));
}

int bl_suite_eng_ftrace(void)
{
    CU_pSuite s = CU_add_suite("eng_ftrace", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "reads outages, comments, blank lines", test_reads_outages);
    CU_add_test(s, "reads gzip", test_reads_gzip);
    CU_add_test(s, "errors name the file and line", test_errors);
    return 0;
}
