/* cli_args.c — see cli_args.h. */
#include "cli_args.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *errors; /* NULL: stderr */
static const char *program = "batchlab";

void bl_args_set_program(const char *name)
{
    program = name;
}

const char *bl_args_program(void)
{
    return program;
}

FILE *bl_args_set_errors(FILE *f)
{
    FILE *old = errors;
    errors = f;
    return old;
}

FILE *bl_args_errors(void)
{
    return errors ? errors : stderr;
}

#define ERR bl_args_errors()

void bl_args_fini(bl_args *a)
{
    if (!a || !a->arg)
        return;
    for (size_t i = 0; i < a->n_opts; i++)
        free(a->arg[i].values);
    free(a->arg);
    a->arg = NULL;
}

static const bl_opt *find_long(const bl_opt *opts, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(opts[i].name) == len && strncmp(opts[i].name, name, len) == 0)
            return &opts[i];
    return NULL;
}

int bl_args_parse(const char *cmd, const bl_opt *opts, size_t n_opts, int argc, char **argv,
                  int first, bl_args *out)
{
    memset(out, 0, sizeof *out);
    out->opts = opts;
    out->n_opts = n_opts;
    out->arg = calloc(n_opts ? n_opts : 1, sizeof *out->arg);
    if (!out->arg) {
        fprintf(ERR, "%s %s: out of memory\n", program, cmd);
        return 1;
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            out->help = true;
            continue;
        }
        const bl_opt *o = NULL;
        const char *inline_value = NULL;
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            const char *eq = strchr(a + 2, '=');
            size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
            o = find_long(opts, n_opts, a + 2, len);
            if (eq)
                inline_value = eq + 1;
        } else if (a[0] == '-' && a[1] && !a[2]) {
            for (size_t k = 0; k < n_opts; k++)
                if (opts[k].short_name == a[1])
                    o = &opts[k];
        } else {
            fprintf(ERR, "%s %s: unexpected argument '%s' (see %s %s --help)\n", program, cmd, a,
                    program, cmd);
            bl_args_fini(out);
            return 2;
        }
        if (!o) {
            fprintf(ERR, "%s %s: unknown option '%s' (see %s %s --help)\n", program, cmd, a,
                    program, cmd);
            bl_args_fini(out);
            return 2;
        }
        bl_arg *arg = &out->arg[o - opts];
        if (o->kind == BL_FLAG) {
            if (inline_value) {
                fprintf(ERR, "%s %s: --%s takes no value\n", program, cmd, o->name);
                bl_args_fini(out);
                return 2;
            }
            arg->set = true;
            continue;
        }
        const char *value = inline_value;
        if (!value) {
            if (i + 1 >= argc) {
                fprintf(ERR, "%s %s: --%s needs a value (%s)\n", program, cmd, o->name,
                        o->metavar ? o->metavar : "VALUE");
                bl_args_fini(out);
                return 2;
            }
            value = argv[++i];
        }
        arg->set = true;
        if (o->kind == BL_VALUE) {
            arg->value = value;
        } else {
            const char **v = realloc(arg->values, (arg->n_values + 1) * sizeof *v);
            if (!v) {
                fprintf(ERR, "%s %s: out of memory\n", program, cmd);
                bl_args_fini(out);
                return 1;
            }
            arg->values = v;
            arg->values[arg->n_values++] = value;
        }
    }
    return 0;
}

const bl_arg *bl_args_get(const bl_args *a, const char *name)
{
    const bl_opt *o = find_long(a->opts, a->n_opts, name, strlen(name));
    assert(o && "option not in the command's table");
    return &a->arg[o - a->opts];
}

const char *bl_args_value(const bl_args *a, const char *name, const char *def)
{
    const bl_arg *arg = bl_args_get(a, name);
    return arg->set && arg->value ? arg->value : def;
}

bool bl_args_flag(const bl_args *a, const char *name)
{
    return bl_args_get(a, name)->set;
}

void bl_args_usage(const char *cmd, const char *synopsis, const char *description,
                   const bl_opt *opts, size_t n_opts)
{
    printf("usage: %s %s %s\n\n%s\n", program, cmd, synopsis, description);
    if (n_opts)
        printf("\noptions:\n");
    for (size_t i = 0; i < n_opts; i++) {
        char head[96];
        int len;
        if (opts[i].short_name)
            len = snprintf(head, sizeof head, "  -%c, --%s", opts[i].short_name, opts[i].name);
        else
            len = snprintf(head, sizeof head, "  --%s", opts[i].name);
        if (opts[i].kind != BL_FLAG && len > 0 && (size_t)len < sizeof head)
            snprintf(head + len, sizeof head - (size_t)len, " %s",
                     opts[i].metavar ? opts[i].metavar : "VALUE");
        if (strlen(head) < 30)
            printf("%-30s %s\n", head, opts[i].help);
        else
            printf("%s\n%-30s %s\n", head, "", opts[i].help);
    }
    printf("  -h, --help                   show this help\n");
}

int bl_args_choice(const char *cmd, const char *name, const char *value, const char *choices,
                   int *index)
{
    int k = 0;
    for (const char *p = choices;; k++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (strlen(value) == len && strncmp(value, p, len) == 0) {
            *index = k;
            return 0;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    fprintf(ERR, "%s %s: --%s: expected ", program, cmd, name);
    for (const char *p = choices; *p; p++) {
        if (*p == '|')
            fputs(strchr(p + 1, '|') ? ", " : " or ", ERR);
        else
            fputc(*p, ERR);
    }
    fprintf(ERR, ", got '%s'\n", value);
    return 2;
}

int bl_args_u64(const char *cmd, const char *name, const char *value, unsigned long long *out)
{
    errno = 0;
    char *end;
    unsigned long long v = strtoull(value, &end, 10);
    if (end == value || *end || errno || value[0] == '-') {
        fprintf(ERR, "%s %s: --%s: expected a non-negative integer, got '%s'\n", program, cmd, name,
                value);
        return 2;
    }
    *out = v;
    return 0;
}

int bl_args_int(const char *cmd, const bl_args *a, const char *name, unsigned long long lo,
                unsigned long long hi, unsigned long long *out)
{
    const char *v = bl_args_value(a, name, NULL);
    if (!v)
        return 0;
    unsigned long long x;
    if (bl_args_u64(cmd, name, v, &x) != 0)
        return 2;
    if (x < lo || x > hi) {
        fprintf(ERR, "%s %s: --%s: expected %llu..%llu, got '%s'\n", program, cmd, name, lo, hi, v);
        return 2;
    }
    *out = x;
    return 0;
}

int bl_args_double(const char *cmd, const char *name, const char *value, double *out)
{
    errno = 0;
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || errno || !isfinite(v)) {
        fprintf(ERR, "%s %s: --%s: expected a number, got '%s'\n", program, cmd, name, value);
        return 2;
    }
    *out = v;
    return 0;
}
