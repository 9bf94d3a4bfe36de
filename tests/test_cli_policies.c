/* test_cli_policies.c — `batchlab policies` (tools/cli_policies.c): what
 * it prints comes from the declarations, and README.md's Policies table
 * agrees with them: each row's options column is the line `batchlab
 * policies --markdown` prints for that policy, every registered policy has
 * a row, and every row names registered policies. The capabilities shown
 * are the type's flags. */
#include "bl_test.h"
#include "pol_registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cells of a table row "| a | b | c |" (at most max), each trimmed;
 * a '|' escaped as "\|" stays inside its cell. Writes into buf. */
static size_t split_row(const char *row, char *buf, size_t len, char **cells, size_t max)
{
    size_t n = 0, k = 0;
    if (*row != '|')
        return 0;
    row++;
    while (*row && *row != '\n' && n < max && k + 1 < len) {
        cells[n] = buf + k;
        while (*row && *row != '\n' && !(*row == '|' && row[-1] != '\\') && k + 1 < len)
            buf[k++] = *row++;
        while (k > 0 && buf[k - 1] == ' ')
            k--;
        buf[k++] = '\0';
        char *c = cells[n];
        while (*c == ' ')
            c++;
        cells[n++] = c;
        if (*row == '|')
            row++;
        if (*row == '\n' || !*row)
            break;
    }
    return n;
}

/* README.md's Policies table: the text from its header row to the blank
 * line after it; NULL if absent. Borrowed from readme. */
static const char *policies_table(const char *readme)
{
    const char *sec = strstr(readme, "\n## Policies\n");
    return sec ? strstr(sec, "\n| name | what | options") : NULL;
}

/* The row of the table whose name cell lists `name` (alp and amp share
 * one), copied into row; false if none. */
static bool row_of(const char *table, const char *name, char *row, size_t len)
{
    char want[64];
    snprintf(want, sizeof want, "`%s`", name);
    for (const char *l = table + 1; l && *l == '|';
         l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        const char *cell_end = strstr(l + 1, " | ");
        if (!cell_end || cell_end > l + n)
            continue;
        /* the name cell: "`alp`, `amp`" */
        char names[128];
        size_t m = (size_t)(cell_end - l);
        if (m >= sizeof names)
            continue;
        memcpy(names, l, m);
        names[m] = '\0';
        if (strstr(names, want) && n < len) {
            memcpy(row, l, n);
            row[n] = '\0';
            return true;
        }
    }
    return false;
}

static void test_readme_agrees(void)
{
    char *readme = bl_slurp(bl_src("README.md"), NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(readme);
    const char *table = policies_table(readme);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    char *md = NULL;
    CU_ASSERT_EQUAL(bl_run(&md, "policies --markdown"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
    size_t n;
    const pol_type *const *list = pol_list(&n);
    size_t lines = 0;
    for (const char *l = md; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
        lines++;
    CU_ASSERT_EQUAL(lines, n); /* one line per policy */
    for (size_t i = 0; i < n; i++) {
        const char *name = list[i]->name;
        char want_row[4096], readme_row[8192], b1[4096], b2[8192];
        char *want[4], *got[6];
        char head[64];
        snprintf(head, sizeof head, "| `%s` | ", name);
        const char *line = strstr(md, head);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        CU_ASSERT_FATAL(len < sizeof want_row);
        memcpy(want_row, line, len);
        want_row[len] = '\0';
        CU_ASSERT_EQUAL_FATAL(split_row(want_row, b1, sizeof b1, want, 4), 2);
        bool has = row_of(table, name, readme_row, sizeof readme_row);
        if (!has)
            printf("\n  README.md's Policies table has no row for %s", name);
        CU_ASSERT_TRUE(has);
        if (!has)
            continue;
        size_t cells = split_row(readme_row, b2, sizeof b2, got, 6);
        CU_ASSERT_EQUAL(cells, 4); /* name, what, options, source */
        bool same = cells == 4 && strcmp(got[2], want[1]) == 0;
        if (!same)
            printf("\n  README.md's options of %s:\n    %s\n  declared (batchlab policies "
                   "--markdown):\n    %s",
                   name, cells == 4 ? got[2] : "(no options column)", want[1]);
        CU_ASSERT_TRUE(same);
    }
    /* and every row names registered policies only */
    for (const char *l = table + 1; *l == '|'; l = strchr(l, '\n') + 1) {
        char b[8192], *c[6], row[8192];
        const char *end = strchr(l, '\n');
        CU_ASSERT_FATAL(end && (size_t)(end - l) < sizeof row);
        memcpy(row, l, (size_t)(end - l));
        row[end - l] = '\0';
        if (split_row(row, b, sizeof b, c, 6) < 1 || c[0][0] != '`')
            continue; /* the header and the rule */
        for (const char *p = strchr(c[0], '`'); p; p = strchr(strchr(p + 1, '`') + 1, '`')) {
            char nm[64];
            const char *q = strchr(p + 1, '`');
            CU_ASSERT_FATAL(q && (size_t)(q - p - 1) < sizeof nm);
            memcpy(nm, p + 1, (size_t)(q - p - 1));
            nm[q - p - 1] = '\0';
            if (!pol_find(nm))
                printf("\n  README.md's Policies table names '%s', not registered", nm);
            CU_ASSERT_PTR_NOT_NULL(pol_find(nm));
        }
    }
    free(md);
    free(readme);
}

/* The options cell is built from the declarations: a key=value default,
 * or the words of an absent one; none for a policy without options. */
static void test_markdown_cells(void)
{
    char *md = NULL;
    CU_ASSERT_EQUAL(bl_run(&md, "policies --markdown"), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(md);
    CU_ASSERT_TRUE(bl_contains(md, "| `fcfs` | none |\n"));
    CU_ASSERT_TRUE(bl_contains(md, "| `easy` | `backfill_order=queue`, `predictor=requested` |\n"));
    CU_ASSERT_TRUE(bl_contains(md, "`budget` (none: no budget), `cost_steps=256` |\n"));
    CU_ASSERT_TRUE(bl_contains(md, "`priority_max_age=7-0`"));
    CU_ASSERT_TRUE(bl_contains(md, "`priority_calc_period=5`"));
    free(md);
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "policies easy --markdown"), 2);
    CU_ASSERT_TRUE(bl_contains(out, "--markdown lists every policy"));
    free(out);
}

/* What a policy supports is shown from its flags, for every policy. */
static void test_capabilities_shown(void)
{
    static const struct {
        unsigned flags;
        const char *words;
    } caps[] = {
        {POL_FLAG_ISLANDS, "plans with islands (--islands strict)"},
        {POL_FLAG_REPLANS, "re-plans at every call (runs with --init-planned no)"},
        {POL_FLAG_CORES, "allocates cores (--alloc core)"},
        {POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
         "plans with islands under --alloc core too"},
    };
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++) {
        char *out = NULL;
        CU_ASSERT_EQUAL(bl_run(&out, "policies %s", list[i]->name), 0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(out);
        for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
            bool has = (list[i]->flags & caps[k].flags) == caps[k].flags;
            CU_ASSERT_EQUAL(bl_contains(out, caps[k].words), has);
        }
        free(out);
    }
    /* the three that plan islands by whole hosts only */
    char *out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "policies conservative"), 0);
    CU_ASSERT_FALSE(bl_contains(out, "under --alloc core too"));
    CU_ASSERT_TRUE(bl_contains(out, "allocates cores"));
    free(out);
}

int bl_suite_cli_policies(void)
{
    CU_pSuite s = CU_add_suite("cli_policies", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "README.md's Policies table agrees with the declarations", test_readme_agrees);
    CU_add_test(s, "--markdown: the options cells from the declarations", test_markdown_cells);
    CU_add_test(s, "capabilities shown from the flags", test_capabilities_shown);
    return 0;
}
