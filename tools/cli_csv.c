/* cli_csv.c — see cli_csv.h. */
#include "cli_csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

long bl_csv_split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return (long)n + 1; /* too many: the caller reports it */
        char *out = p;
        fields[n++] = p;
        if (*p == '"') {
            char *r = p + 1;
            for (;;) {
                if (!*r)
                    return -1;
                if (*r == '"' && r[1] == '"') {
                    *out++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *out++ = *r++;
                }
            }
            p = r;
            *out = '\0';
            if (*p == ',') {
                p++;
                continue;
            }
            return (long)n;
        }
        char *comma = strchr(p, ',');
        if (!comma)
            return (long)n;
        *comma = '\0';
        p = comma + 1;
    }
}

void bl_csv_chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

int bl_csv_column(char **head, long n, const char *name)
{
    for (long i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return (int)i;
    return -1;
}

bool bl_csv_num(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(x))
        return false;
    *out = x;
    return true;
}

void bl_csv_cell(FILE *f, const char *v)
{
    if (!v)
        return;
    if (!strpbrk(v, ",\"\n\r")) {
        fputs(v, f);
        return;
    }
    fputc('"', f);
    for (const char *c = v; *c; c++) {
        if (*c == '"')
            fputc('"', f);
        fputc(*c, f);
    }
    fputc('"', f);
}
