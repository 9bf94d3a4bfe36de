/* test_cli_csv.c — the command line's CSV reader and cell writer
 * (tools/cli_csv.c): fields split in place with RFC 4180 quotes, too many
 * fields and an unterminated quote reported, line ends removed, columns
 * found by name, numbers read only in full, and cells that read back as
 * written. */
#include "bl_test.h"

#include "cli_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_split(void)
{
    char *f[BL_CSV_MAX_FIELDS];
    char plain[] = "1,,a b,2.5";
    CU_ASSERT_EQUAL(bl_csv_split(plain, f, BL_CSV_MAX_FIELDS), 4);
    CU_ASSERT_STRING_EQUAL(f[0], "1");
    CU_ASSERT_STRING_EQUAL(f[1], "");
    CU_ASSERT_STRING_EQUAL(f[2], "a b");
    CU_ASSERT_STRING_EQUAL(f[3], "2.5");
    /* Quotes: a comma and a doubled quote inside, an empty quoted field. */
    char quoted[] = "\"easy:a=1,2\",\"say \"\"hi\"\"\",\"\",x";
    CU_ASSERT_EQUAL(bl_csv_split(quoted, f, BL_CSV_MAX_FIELDS), 4);
    CU_ASSERT_STRING_EQUAL(f[0], "easy:a=1,2");
    CU_ASSERT_STRING_EQUAL(f[1], "say \"hi\"");
    CU_ASSERT_STRING_EQUAL(f[2], "");
    CU_ASSERT_STRING_EQUAL(f[3], "x");
    /* More fields than room: max + 1, for the caller to report. */
    char many[] = "a,b,c,d";
    CU_ASSERT_EQUAL(bl_csv_split(many, f, 3), 4);
    char open_quote[] = "a,\"b,c";
    CU_ASSERT_EQUAL(bl_csv_split(open_quote, f, BL_CSV_MAX_FIELDS), -1);
}

static void test_chomp_column_num(void)
{
    char crlf[] = "a,b\r\n", lf[] = "a\n", none[] = "a";
    bl_csv_chomp(crlf);
    bl_csv_chomp(lf);
    bl_csv_chomp(none);
    CU_ASSERT_STRING_EQUAL(crlf, "a,b");
    CU_ASSERT_STRING_EQUAL(lf, "a");
    CU_ASSERT_STRING_EQUAL(none, "a");
    char *head[] = {"job_id", "submission_time", "starting_time"};
    CU_ASSERT_EQUAL(bl_csv_column(head, 3, "starting_time"), 2);
    CU_ASSERT_EQUAL(bl_csv_column(head, 3, "finish_time"), -1);
    CU_ASSERT_EQUAL(bl_csv_column(head, 2, "starting_time"), -1);
    double x = -1;
    CU_ASSERT_TRUE(bl_csv_num("1e3", &x));
    CU_ASSERT_DOUBLE_EQUAL(x, 1000.0, 0);
    CU_ASSERT_TRUE(bl_csv_num("-0.25", &x));
    CU_ASSERT_DOUBLE_EQUAL(x, -0.25, 0);
    x = 7;
    CU_ASSERT_FALSE(bl_csv_num("", &x));
    CU_ASSERT_FALSE(bl_csv_num("5x", &x));
    CU_ASSERT_FALSE(bl_csv_num("nan", &x));
    CU_ASSERT_FALSE(bl_csv_num("inf", &x));
    CU_ASSERT_FALSE(bl_csv_num("1e999", &x));
    CU_ASSERT_DOUBLE_EQUAL(x, 7.0, 0); /* untouched */
}

/* Cells written by bl_csv_cell read back by bl_csv_split as they were. */
static void test_cells_round_trip(void)
{
    static const char *const cells[] = {"plain", "a,b", "say \"hi\"", "", "x\r\ny"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    for (size_t i = 0; i < 5; i++) {
        if (i)
            fputc(',', f);
        bl_csv_cell(f, cells[i]);
    }
    bl_csv_cell(f, NULL); /* nothing */
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "plain,\"a,b\",\"say \"\"hi\"\"\",,\"x\r\ny\"");
    char *fields[BL_CSV_MAX_FIELDS];
    CU_ASSERT_EQUAL_FATAL(bl_csv_split(buf, fields, BL_CSV_MAX_FIELDS), 5);
    for (size_t i = 0; i < 5; i++)
        CU_ASSERT_STRING_EQUAL(fields[i], cells[i]);
    free(buf);
}

int bl_suite_cli_csv(void)
{
    CU_pSuite s = CU_add_suite("cli_csv", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "fields split in place, quotes, too many, unterminated", test_split);
    CU_add_test(s, "line ends, columns by name, whole numbers", test_chomp_column_num);
    CU_add_test(s, "cells written read back the same", test_cells_round_trip);
    return 0;
}
