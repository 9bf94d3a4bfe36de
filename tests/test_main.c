/* test_main.c — the CUnit runner: `batchlab_tests SUITE` runs one suite (as
 * CTest does), `batchlab_tests` runs them all. Exit 0 when every assertion
 * passed, 1 on failures, 77 when the suite was skipped. */
#define _GNU_SOURCE
#include "bl_test.h"
#include "eng_swf.h"

#include <math.h>

#include <CUnit/Basic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BL_SUITE(name) int bl_suite_##name(void);
#include "bl_suites.h"
#undef BL_SUITE

static const struct {
    const char *name;
    int (*add)(void);
} suites[] = {
#define BL_SUITE(name) {#name, bl_suite_##name},
#include "bl_suites.h"
#undef BL_SUITE
};

static char tmp_root[512];
static bool case_skipped; /* bl_skip_case() was called */

int bl_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("SKIPPED: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    return BL_SKIP;
}

void bl_skip_case(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("\n  SKIPPED: ", stdout);
    vprintf(fmt, ap);
    fputc(' ', stdout);
    va_end(ap);
    case_skipped = true;
}

const char *bl_src(const char *rel)
{
    static char buf[8][1024];
    static int slot;
    slot = (slot + 1) % 8;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", BL_SOURCE_DIR, rel);
    return buf[slot];
}

const char *bl_traces_dir(void)
{
    const char *env = getenv("BATCHLAB_TRACES");
    return env && *env ? env : BL_TRACES_DIR;
}

const char *bl_trace(const char *name)
{
    static char buf[4][1024];
    static int slot;
    slot = (slot + 1) % 4;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", bl_traces_dir(), name);
    return access(buf[slot], R_OK) == 0 ? buf[slot] : NULL;
}

const char *bl_tmpdir(void)
{
    static char buf[8][640];
    static int slot, counter;
    if (!tmp_root[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmp_root, sizeof tmp_root, "%s/batchlab-tests.XXXXXX", base ? base : "/tmp");
        if (!mkdtemp(tmp_root)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    slot = (slot + 1) % 8;
    snprintf(buf[slot], sizeof buf[slot], "%s/d%d", tmp_root, ++counter);
    mkdir(buf[slot], 0777);
    return buf[slot];
}

const char *bl_write_tmp(const char *name, const char *text)
{
    static char buf[8][768];
    static int slot;
    slot = (slot + 1) % 8;
    snprintf(buf[slot], sizeof buf[slot], "%s/%s", bl_tmpdir(), name);
    FILE *f = fopen(buf[slot], "wb");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    return buf[slot];
}

char *bl_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap * 2);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (!s)
        return NULL;
    s[n] = '\0';
    if (len)
        *len = n;
    return s;
}

const char *bl_exe(void)
{
    return BL_BATCHLAB_EXE;
}

int bl_system(const char *cmdline, char **output)
{
    char *full = NULL;
    if (asprintf(&full, "%s 2>&1", cmdline) < 0)
        return -1;
    FILE *p = popen(full, "r");
    free(full);
    if (!p)
        return -1;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap * 2);
            if (!t)
                break;
            s = t;
            cap *= 2;
        }
    }
    int st = pclose(p);
    if (s)
        s[n] = '\0';
    if (output)
        *output = s;
    else
        free(s);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int bl_run(char **output, const char *fmt, ...)
{
    char args[2048], line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "'%s' %s", bl_exe(), args);
    return bl_system(line, output);
}

const char *bl_study_exe(void)
{
    return BL_STUDY_EXE;
}

int bl_run_study(char **output, const char *fmt, ...)
{
    char args[2048], line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "'%s' %s", bl_study_exe(), args);
    return bl_system(line, output);
}

bool bl_contains(const char *s, const char *needle)
{
    bool ok = s && strstr(s, needle);
    if (!ok)
        fprintf(stderr, "\nexpected '%s' in: %s\n", needle, s ? s : "(null)");
    return ok;
}

char *bl_json_array(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": [", key);
    const char *p = strstr(json, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    const char *e = strchr(p, ']');
    char *a = e ? malloc((size_t)(e - p) + 1) : NULL;
    if (!a)
        return NULL;
    size_t n = 0;
    for (const char *c = p; c < e; c++)
        if (*c == ',')
            n += (size_t)sprintf(a + n, ", ");
        else if (*c != ' ' && *c != '\n')
            a[n++] = *c;
    a[n] = '\0';
    return a;
}

bool bl_binom_ok(size_t count, size_t n, double p, double slack, const char *what)
{
    double f = (double)count / (double)n;
    double tol = 5.0 * sqrt(p * (1.0 - p) / (double)n) + slack;
    bool ok = fabs(f - p) <= tol;
    if (!ok)
        fprintf(stderr, "\n%s: observed %.6f, expected %.6f +- %.6f\n", what, f, p, tol);
    return ok;
}

const char *bl_find_note(const eng_workload *w, const char *needle)
{
    for (size_t i = 0; i < w->hdr.n_kv; i++)
        if (strcmp(w->hdr.kv[i].key, "Note") == 0 && strstr(w->hdr.kv[i].value, needle))
            return w->hdr.kv[i].value;
    return NULL;
}

static void remove_tmp_root(void)
{
    if (tmp_root[0] && !getenv("BATCHLAB_KEEP_TMP")) {
        char *cmd = NULL;
        if (asprintf(&cmd, "rm -rf '%s'", tmp_root) >= 0) {
            if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", tmp_root);
            free(cmd);
        }
    }
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    atexit(remove_tmp_root);
    size_t n = sizeof suites / sizeof suites[0];
    int added = 0, skipped = 0, found = 0;
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, suites[i].name) != 0)
            continue;
        found = 1;
        int rc = suites[i].add();
        if (rc == BL_SKIP)
            skipped++;
        else if (rc != 0) {
            fprintf(stderr, "suite %s failed to register\n", suites[i].name);
            CU_cleanup_registry();
            return 1;
        } else
            added++;
    }
    if (only && !found) {
        fprintf(stderr, "no suite named '%s'; suites:", only);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", suites[i].name);
        fputc('\n', stderr);
        CU_cleanup_registry();
        return 2;
    }
    if (added == 0 && skipped > 0) {
        CU_cleanup_registry();
        return BL_SKIP;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    if (!failures && case_skipped)
        printf("some cases were skipped (SKIPPED above): reported as skipped\n");
    return failures ? 1 : case_skipped ? BL_SKIP : 0;
}
