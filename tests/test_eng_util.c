/* test_eng_util.c — the engine's small helpers (engine/eng_util.c):
 * growable arrays, natural name order, shortest exact decimals, mkdir -p and
 * atomic output files. */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_util.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Names in dir other than "." and "..", and how many contain ".tmp.". */
static int count_entries(const char *dir, int *tmp_files)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return -1;
    int n = 0;
    *tmp_files = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        n++;
        *tmp_files += strstr(e->d_name, ".tmp.") != NULL;
    }
    closedir(dp);
    return n;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void test_grow(void)
{
    int *a = NULL;
    size_t cap = 0;
    CU_ASSERT_EQUAL(eng_grow(&a, &cap, 1, sizeof *a), ENG_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL(cap, 16);
    int *before = a;
    CU_ASSERT_EQUAL(eng_grow(&a, &cap, 16, sizeof *a), ENG_OK); /* fits: untouched */
    CU_ASSERT_PTR_EQUAL(a, before);
    CU_ASSERT_EQUAL(cap, 16);
    for (int i = 0; i < 16; i++)
        a[i] = i;
    CU_ASSERT_EQUAL(eng_grow(&a, &cap, 17, sizeof *a), ENG_OK);
    CU_ASSERT_EQUAL(cap, 32);
    CU_ASSERT_EQUAL(eng_grow(&a, &cap, 1000, sizeof *a), ENG_OK);
    CU_ASSERT_EQUAL(cap, 1024);
    bool kept = true;
    for (int i = 0; i < 16; i++)
        kept = kept && a[i] == i;
    CU_ASSERT(kept);
    a[999] = 7;

    /* an impossible size fails and leaves the buffer alone */
    before = a;
    CU_ASSERT_EQUAL(eng_grow(&a, &cap, SIZE_MAX / 2, sizeof *a), ENG_NOMEM);
    CU_ASSERT_PTR_EQUAL(a, before);
    CU_ASSERT_EQUAL(cap, 1024);
    free(a);
}

static void test_name_cmp(void)
{
    CU_ASSERT(eng_name_cmp("n2", "n10") < 0);
    CU_ASSERT(eng_name_cmp("n10", "n100") < 0);
    CU_ASSERT(eng_name_cmp("n2", "n100") < 0);
    CU_ASSERT(eng_name_cmp("n100", "n2") > 0);
    CU_ASSERT(eng_name_cmp("a", "b") < 0);
    CU_ASSERT(eng_name_cmp("b", "a") > 0);
    CU_ASSERT_EQUAL(eng_name_cmp("n10", "n10"), 0);
    CU_ASSERT_EQUAL(eng_name_cmp("", ""), 0);
    CU_ASSERT(eng_name_cmp("node-9.cluster", "node-10.cluster") < 0);
    CU_ASSERT(eng_name_cmp("rack1-n2", "rack2-n1") < 0);
}

static void test_fmt_double(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0), "0");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 42), "42");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, -1), "-1");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 86400), "86400");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0.1), "0.1");
    CU_ASSERT_EQUAL(strtod(buf, NULL), 0.1);
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, -2.5), "-2.5");
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 1e300), "1e+300");
    CU_ASSERT_EQUAL(strtod(buf, NULL), 1e300);
    CU_ASSERT_STRING_EQUAL(eng_fmt_double(buf, sizeof buf, 0.1 + 0.2), "0.30000000000000004");
    CU_ASSERT_EQUAL(strtod(buf, NULL), 0.1 + 0.2);

    /* every value reads back exactly */
    static const double v[] = {1.0 / 3,
                               -1.0 / 3,
                               2.0 / 3 * 1e6,
                               5e-324,
                               -1e-300,
                               123456.789012345678,
                               9007199254740993.0,
                               1.7976931348623157e308};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        eng_fmt_double(buf, sizeof buf, v[i]);
        CU_ASSERT_EQUAL(strtod(buf, NULL), v[i]);
        CU_ASSERT(strlen(buf) <= 24);
    }
}

static void test_mkdir_p(void)
{
    const char *root = bl_tmpdir();
    char path[900];
    snprintf(path, sizeof path, "%s/a/b/c", root);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_mkdir_p(path, &d), ENG_OK);
    CU_ASSERT(is_dir(path));
    CU_ASSERT_EQUAL(eng_mkdir_p(path, &d), ENG_OK); /* exists already */
    CU_ASSERT_EQUAL(d.code, 0);

    /* a file in the way */
    char file[900];
    snprintf(file, sizeof file, "%s/a/file", root);
    FILE *f = fopen(file, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/a/file/sub", root);
    CU_ASSERT_EQUAL(eng_mkdir_p(path, &d), ENG_IO);
    CU_ASSERT_EQUAL(strncmp(d.msg, path, strlen(path)), 0);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_mkdir_p(file, &d), ENG_IO);
    char want[1024];
    snprintf(want, sizeof want, "%s: not a directory", file);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
}

static void test_afile(void)
{
    const char *dir = bl_tmpdir();
    char path[900];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    eng_diag d;
    eng_diag_clear(&d);
    int tmp_files;

    /* commit: the final name appears only at the end */
    eng_afile a;
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, path, &d), ENG_OK);
    fputs("hello\n", a.f);
    CU_ASSERT_EQUAL(access(path, F_OK), -1);
    CU_ASSERT_EQUAL(count_entries(dir, &tmp_files), 1);
    CU_ASSERT_EQUAL(tmp_files, 1);
    CU_ASSERT_EQUAL(eng_afile_commit(&a, &d), ENG_OK);
    char *text = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "hello\n");
    free(text);
    CU_ASSERT_EQUAL(count_entries(dir, &tmp_files), 1);
    CU_ASSERT_EQUAL(tmp_files, 0);
    CU_ASSERT_PTR_NULL(a.path);
    CU_ASSERT_PTR_NULL(a.tmp);

    /* commit over an existing file replaces it */
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, path, &d), ENG_OK);
    fputs("second\n", a.f);
    CU_ASSERT_EQUAL(eng_afile_commit(&a, &d), ENG_OK);
    text = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "second\n");
    free(text);

    /* abort: the old content stays, nothing else is left */
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, path, &d), ENG_OK);
    fputs("never\n", a.f);
    eng_afile_abort(&a);
    text = bl_slurp(path, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_STRING_EQUAL(text, "second\n");
    free(text);
    CU_ASSERT_EQUAL(count_entries(dir, &tmp_files), 1);
    CU_ASSERT_EQUAL(tmp_files, 0);

    /* abort of a new file leaves nothing */
    char fresh[900];
    snprintf(fresh, sizeof fresh, "%s/new.txt", dir);
    CU_ASSERT_EQUAL_FATAL(eng_afile_open(&a, fresh, &d), ENG_OK);
    eng_afile_abort(&a);
    CU_ASSERT_EQUAL(access(fresh, F_OK), -1);
    CU_ASSERT_EQUAL(count_entries(dir, &tmp_files), 1);

    /* a directory that does not exist */
    snprintf(path, sizeof path, "%s/missing/out.txt", dir);
    CU_ASSERT_EQUAL(eng_afile_open(&a, path, &d), ENG_IO);
    char want[1024];
    snprintf(want, sizeof want, "%s: cannot write: No such file or directory", path);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    CU_ASSERT_PTR_NULL(a.f);
}

/* A folder where a file is expected is named as one; a file, a missing
 * path (its opening says why) pass; an atomic file refuses a folder
 * before writing anything. */
static void test_check_not_dir(void)
{
    const char *dir = bl_tmpdir();
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_check_not_dir(dir, "an SWF log", &d), ENG_IO);
    char want[800];
    snprintf(want, sizeof want, "%s: is a directory, expected an SWF log", dir);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_check_not_dir(bl_write_tmp("plain.txt", "x\n"), "a file", &d), ENG_OK);
    CU_ASSERT_EQUAL(eng_check_not_dir("/no/such/file", "a file", &d), ENG_OK);
    CU_ASSERT_STRING_EQUAL(d.msg, "");
    CU_ASSERT_EQUAL(eng_check_not_dir(dir, "a file", NULL), ENG_IO); /* d may be NULL */
    eng_afile a;
    CU_ASSERT_EQUAL(eng_afile_open(&a, dir, &d), ENG_IO);
    snprintf(want, sizeof want, "%s: is a directory, expected a file to write", dir);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    int tmp = 0;
    CU_ASSERT_EQUAL(count_entries(dir, &tmp), 0);
    eng_afile_abort(&a);
}

/* eng_lines: lines cut at '#', numbered from 1; a line over the limit
 * (here 8 characters) stops the reading naming file and line; a folder is
 * refused before opening. */
static void test_lines(void)
{
    const char *path = bl_write_tmp("lines.txt", "a b # c\n\n12345678\n123456789\nnot read\n");
    eng_lines in;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_lines_open(&in, path, "lines", 8, &d), 0);
    char *t = NULL;
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), 1);
    CU_ASSERT_STRING_EQUAL(t, "a b ");
    CU_ASSERT_EQUAL(in.line, 1);
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), 1);
    CU_ASSERT_STRING_EQUAL(t, "\n");
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), 1);
    CU_ASSERT_STRING_EQUAL(t, "12345678\n");
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), ENG_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "lines.txt:4: line longer than 8 characters"));
    eng_lines_close(&in);
    const char *last = bl_write_tmp("last.txt", "x");
    CU_ASSERT_EQUAL_FATAL(eng_lines_open(&in, last, "lines", 8, &d), 0);
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), 1);
    CU_ASSERT_STRING_EQUAL(t, "x");
    CU_ASSERT_EQUAL(eng_lines_next(&in, &t, &d), 0);
    eng_lines_close(&in);
    eng_lines_close(&in); /* closing twice is harmless */
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_lines_open(&in, bl_tmpdir(), "lines", 8, &d), ENG_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "is a directory"));
}

/* eng_parse_finite: the whole text, one finite number. */
static void test_parse_finite(void)
{
    double v = -1;
    CU_ASSERT_TRUE(eng_parse_finite("3600", &v));
    CU_ASSERT_DOUBLE_EQUAL(v, 3600, 0);
    CU_ASSERT_TRUE(eng_parse_finite("-2.5e1", &v));
    CU_ASSERT_DOUBLE_EQUAL(v, -25, 0);
    CU_ASSERT_FALSE(eng_parse_finite("", &v));
    CU_ASSERT_FALSE(eng_parse_finite("12s", &v));
    CU_ASSERT_FALSE(eng_parse_finite("1e999", &v)); /* overflows */
    CU_ASSERT_FALSE(eng_parse_finite("inf", &v));
    CU_ASSERT_FALSE(eng_parse_finite("nan", &v));
}

static void test_strings(void)
{
    CU_ASSERT(eng_ends_with("trace.swf.gz", ".gz"));
    CU_ASSERT(!eng_ends_with("trace.swf", ".gz"));
    CU_ASSERT(!eng_ends_with("gz", ".gz"));
    CU_ASSERT(eng_ends_with("x", ""));
    CU_ASSERT_STRING_EQUAL(eng_basename("/a/b/c.swf"), "c.swf");
    CU_ASSERT_STRING_EQUAL(eng_basename("c.swf"), "c.swf");
    CU_ASSERT_PTR_NULL(eng_strdup(NULL));
    char *s = eng_strndup("abcdef", 3);
    CU_ASSERT_STRING_EQUAL(s, "abc");
    free(s);
    s = eng_asprintf("%s-%d", "n", 7);
    CU_ASSERT_STRING_EQUAL(s, "n-7");
    free(s);
}

int bl_suite_eng_util(void)
{
    CU_pSuite s = CU_add_suite("eng_util", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "eng_grow", test_grow);
    CU_add_test(s, "eng_name_cmp natural order", test_name_cmp);
    CU_add_test(s, "eng_fmt_double shortest exact", test_fmt_double);
    CU_add_test(s, "eng_mkdir_p", test_mkdir_p);
    CU_add_test(s, "eng_afile commit and abort", test_afile);
    CU_add_test(s, "string helpers", test_strings);
    CU_add_test(s, "eng_parse_finite: one whole finite number", test_parse_finite);
    CU_add_test(s, "eng_lines: numbered lines without comments", test_lines);
    CU_add_test(s, "eng_check_not_dir: a folder where a file is expected", test_check_not_dir);
    return 0;
}
