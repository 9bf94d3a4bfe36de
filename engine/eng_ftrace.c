/* eng_ftrace.c — the failure-trace reader (format in eng_ftrace.h). */
#include "eng_ftrace.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_CHARS 4096

void eng_ftrace_fini(eng_ftrace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
    free(t->spans);
    memset(t, 0, sizeof *t);
}


static int add_span(eng_ftrace *t, size_t *cap, const char *host, double down, double up, long line)
{
    size_t old = *cap;
    if (eng_grow(&t->spans, cap, t->n + 1, sizeof *t->spans))
        return ENG_NOMEM;
    if (*cap != old) {
        size_t c = *cap;
        char **names = realloc(t->names, c * sizeof *names);
        if (!names)
            return ENG_NOMEM;
        t->names = names;
    }
    char *name = eng_strdup(host);
    if (!name)
        return ENG_NOMEM;
    t->names[t->n] = name;
    t->spans[t->n++] = (eng_fail_span){.host = name, .start_s = down, .end_s = up, .line = line};
    return ENG_OK;
}

int eng_ftrace_read(const char *path, eng_ftrace *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    eng_lines in;
    int rc = eng_lines_open(&in, path, "a failure trace of 'HOST DOWN_AT UP_AT' lines",
                            LINE_MAX_CHARS, d);
    if (rc)
        return rc;
    size_t cap = 0;
    char *buf;
    while ((rc = eng_lines_next(&in, &buf, d)) == 1) {
        long line = in.line;
        char *save = NULL, *f[4];
        int n = 0;
        for (char *tok = strtok_r(buf, " \t\r\n", &save); tok && n < 4;
             tok = strtok_r(NULL, " \t\r\n", &save))
            f[n++] = tok;
        if (n == 0)
            continue;
        double down, up;
        if (n != 3 || !eng_parse_finite(f[1], &down) || !eng_parse_finite(f[2], &up)) {
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%ld: expected 'HOST DOWN_AT UP_AT' (a host name and two "
                              "times in seconds)",
                              path, line);
            break;
        }
        if (!(down >= 0) || !(up > down)) {
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%ld: outage of %s from %s to %s s: expected 0 <= DOWN_AT < "
                              "UP_AT",
                              path, line, f[0], f[1], f[2]);
            break;
        }
        if (add_span(out, &cap, f[0], down, up, line)) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            break;
        }
    }
    eng_lines_close(&in);
    if (rc)
        eng_ftrace_fini(out);
    return rc;
}
