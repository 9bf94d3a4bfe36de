/* cli_runopts.c — parsing and checking the run configuration from its one
 * table (cli_runopts.h): a parser per option type, the rows expanded into
 * calls of them (from a command line, or one option set from its text),
 * the manifest's settings from the manifest column, and the row
 * descriptions the sweep and the tests read.
 */
#include "cli_runopts.h"

#include "eng_output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *cmd, const char *name, const char *expected, const char *value)
{
    fprintf(bl_args_errors(), "batchlab %s: --%s: expected %s, got '%s'\n", cmd, name, expected,
            value ? value : "");
    return 2;
}

/* One parser per option type: the value as typed, or the default (v NULL
 * when neither), into *out. 0, or 2 after the message. */
static int parse_PATH(const char *cmd, const char *name, const char *choices, const char *v,
                      const char **out)
{
    (void)cmd;
    (void)name;
    (void)choices;
    *out = v;
    return 0;
}

/* A flag: v is "" when it is given, NULL when not. */
static int parse_FLAG(const char *cmd, const char *name, const char *choices, const char *v,
                      bool *out)
{
    (void)cmd;
    (void)name;
    (void)choices;
    *out = v != NULL;
    return 0;
}

static int parse_CHOICE(const char *cmd, const char *name, const char *choices, const char *v,
                        int *out)
{
    return bl_args_choice(cmd, name, v, choices, out) ? 2 : 0;
}

static int parse_U64(const char *cmd, const char *name, const char *choices, const char *v,
                     unsigned long long *out)
{
    (void)choices;
    *out = 0;
    return v && bl_args_u64(cmd, name, v, out) ? 2 : 0;
}

static int parse_DOUBLE(const char *cmd, const char *name, const char *choices, const char *v,
                        double *out)
{
    (void)choices;
    *out = NAN;
    return v && bl_args_double(cmd, name, v, out) ? 2 : 0;
}

static int parse_OUTPUTS(const char *cmd, const char *name, const char *choices, const char *v,
                         unsigned *out)
{
    (void)choices;
    *out = 0;
    if (v && !eng_output_parse(v, out))
        return bad(cmd, name, "names among jobs, dropped, schedule, summary, timeseries, all", v);
    return 0;
}

#define BL_RUN_IS_FLAG_PATH false
#define BL_RUN_IS_FLAG_FLAG true
#define BL_RUN_IS_FLAG_CHOICE false
#define BL_RUN_IS_FLAG_U64 false
#define BL_RUN_IS_FLAG_DOUBLE false
#define BL_RUN_IS_FLAG_OUTPUTS false

/* One function per row: the option given as typed (set, text) or absent
 * (its default), parsed into its field and its value checked. 0, or 2
 * after the message. */
#define BL_RUN_ROW(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)                \
    static int row_##field(const char *cmd, bl_run_config *cfg, bool set, const char *text)        \
    {                                                                                              \
        const char *value = set ? (BL_RUN_IS_FLAG_##type ? "" : text) : def;                       \
        cfg->field##_set = set;                                                                    \
        cfg->field##_arg = set && !BL_RUN_IS_FLAG_##type ? text : NULL;                            \
        if (parse_##type(cmd, name, ch, value, &cfg->field))                                       \
            return 2;                                                                              \
        if (set || def) {                                                                          \
            BL_RT_##type v = cfg->field;                                                           \
            (void)v;                                                                               \
            if (!(check))                                                                          \
                return bad(cmd, name, exp, value);                                                 \
        }                                                                                          \
        return 0;                                                                                  \
    }
BL_RUN_OPTIONS(BL_RUN_ROW)
#undef BL_RUN_ROW

int bl_run_config_parse(const char *cmd, const bl_args *a, bl_run_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
#define BL_RUN_PARSE(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)              \
    if (row_##field(cmd, cfg, bl_args_get(a, name)->set, bl_args_value(a, name, NULL)))            \
        return 2;
    BL_RUN_OPTIONS(BL_RUN_PARSE)
#undef BL_RUN_PARSE
    return 0;
}

int bl_run_config_set(const char *cmd, bl_run_config *cfg, int id, const char *value)
{
    switch (id) {
#define BL_RUN_SET(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)                \
    case BL_RUN_ID_##field:                                                                        \
        return row_##field(cmd, cfg, true, value);
        BL_RUN_OPTIONS(BL_RUN_SET)
#undef BL_RUN_SET
    }
    return 2;
}

static const struct {
    const char *name, *choices;
} choice_rows[] = {
#define BL_RUN_CHOICES(field, name, sh, type, ch, def, check, exp, mv, man, grid, help) {name, ch},
    BL_RUN_OPTIONS(BL_RUN_CHOICES)
#undef BL_RUN_CHOICES
};

const char *bl_run_choice_name(const char *name, int index)
{
    /* the names of every choice option, kept for the life of the program */
    static char names[sizeof choice_rows / sizeof choice_rows[0]][8][32];
    for (size_t r = 0; r < sizeof choice_rows / sizeof choice_rows[0]; r++) {
        if (strcmp(choice_rows[r].name, name) != 0 || !choice_rows[r].choices)
            continue;
        const char *p = choice_rows[r].choices;
        for (int i = 0; i < 8 && *p; i++) {
            size_t len = strcspn(p, "|");
            if (i == index) {
                snprintf(names[r][i], sizeof names[r][i], "%.*s", (int)len, p);
                return names[r][i];
            }
            p += len + (p[len] == '|');
        }
    }
    return NULL;
}

#define BL_RUN_TAKES_VALUE_PATH true
#define BL_RUN_TAKES_VALUE_FLAG false
#define BL_RUN_TAKES_VALUE_CHOICE true
#define BL_RUN_TAKES_VALUE_U64 true
#define BL_RUN_TAKES_VALUE_DOUBLE true
#define BL_RUN_TAKES_VALUE_OUTPUTS true

static const bl_run_option_info info_rows[] = {
#define BL_RUN_INFO(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)               \
    {name, sh, BL_RUN_TAKES_VALUE_##type, man, grid == BL_GRID_SETS},
    BL_RUN_OPTIONS(BL_RUN_INFO)
#undef BL_RUN_INFO
};

const bl_run_option_info *bl_run_option_list(size_t *n)
{
    *n = sizeof info_rows / sizeof info_rows[0];
    return info_rows;
}

/* ---- the manifest's settings ---------------------------------------------- */

/* One value per option type: the setting of a key that one row names. */
static void value_PATH(eng_setting *st, const char *name, const char *const *v, const char *arg,
                       const char *def)
{
    (void)name;
    (void)v;
    st->kind = ENG_SETTING_STRING;
    st->string = arg ? arg : def ? def : "";
}

static void value_FLAG(eng_setting *st, const char *name, const bool *v, const char *arg,
                       const char *def)
{
    (void)name;
    (void)arg;
    (void)def;
    st->kind = ENG_SETTING_BOOL;
    st->boolean = *v;
}

static void value_CHOICE(eng_setting *st, const char *name, const int *v, const char *arg,
                         const char *def)
{
    (void)arg;
    (void)def;
    st->kind = ENG_SETTING_STRING;
    st->string = bl_run_choice_name(name, *v);
}

static void value_U64(eng_setting *st, const char *name, const unsigned long long *v,
                      const char *arg, const char *def)
{
    (void)name;
    (void)arg;
    (void)def;
    st->kind = ENG_SETTING_INT;
    st->integer = (int64_t)*v; /* the rows with a key check v <= INT64_MAX */
}

static void value_DOUBLE(eng_setting *st, const char *name, const double *v, const char *arg,
                         const char *def)
{
    (void)name;
    (void)v;
    st->kind = ENG_SETTING_STRING;
    st->string = arg ? arg : def ? def : "";
}

static void value_OUTPUTS(eng_setting *st, const char *name, const unsigned *v, const char *arg,
                          const char *def)
{
    (void)name;
    (void)v;
    st->kind = ENG_SETTING_STRING;
    st->string = arg ? arg : def ? def : "";
}

static void row_value(const bl_run_config *cfg, size_t id, eng_setting *st)
{
    switch (id) {
#define BL_RUN_VALUE(field, name, sh, type, ch, def, check, exp, mv, man, grid, help)              \
    case BL_RUN_ID_##field:                                                                        \
        value_##type(st, name, &cfg->field, cfg->field##_arg, def);                                \
        break;
        BL_RUN_OPTIONS(BL_RUN_VALUE)
#undef BL_RUN_VALUE
    }
}

size_t bl_run_manifest(const bl_run_config *cfg, const bl_run_label *labels, size_t n_labels,
                       eng_setting *out)
{
    static const char *const passes[] = {"string", "boolean", "integer"};
    size_t n = 0;
    for (size_t p = 0; p < 3; p++)
        for (size_t r = 0; r < BL_RUN_N; r++) {
            const bl_run_option_info *row = &info_rows[r];
            if (!row->manifest || strcmp(row->json_type, passes[p]) != 0)
                continue;
            size_t rows = 0, first = r; /* the rows naming the key, and the first */
            for (size_t k = 0; k < BL_RUN_N; k++)
                if (info_rows[k].manifest && strcmp(info_rows[k].manifest, row->manifest) == 0 &&
                    rows++ == 0)
                    first = k;
            if (first != r)
                continue; /* the key is written once, at its first row */
            eng_setting *st = &out[n++];
            memset(st, 0, sizeof *st);
            st->key = row->manifest;
            const char *label = NULL; /* composed where the option's file is read */
            for (size_t k = 0; k < n_labels; k++)
                if (strcmp(labels[k].key, row->manifest) == 0)
                    label = labels[k].text;
            if (rows == 1 && !label) {
                row_value(cfg, r, st);
                continue;
            }
            st->kind = ENG_SETTING_STRING;
            st->string = label ? label : "";
        }
    return n;
}

static const bl_opt opt_rows[] = {BL_RUN_OPTS};

/* "--NAME" of each row (argv words: they outlive every caller). */
static const char *const long_words[] = {
#define BL_RUN_LONG(field, name, sh, type, ch, def, check, exp, mv, man, grid, help) "--" name,
    BL_RUN_OPTIONS(BL_RUN_LONG)
#undef BL_RUN_LONG
};

size_t bl_run_grid_words(const char *const vals[BL_RUN_N], const char **words)
{
    size_t n = 0;
    for (size_t r = 0; r < BL_RUN_N; r++) {
        if (!info_rows[r].grid_sets || !vals[r])
            continue;
        words[n++] = long_words[r];
        if (info_rows[r].takes_value)
            words[n++] = vals[r];
    }
    return n;
}

int bl_run_option_check(const char *const *words, size_t n, size_t *consumed, char *msg, size_t len)
{
    *consumed = 1;
    msg[0] = '\0';
    const char *w = words[0];
    const bl_opt *opt = NULL;
    const char *value = NULL;
    size_t n_rows = sizeof opt_rows / sizeof opt_rows[0];
    for (size_t r = 0; r < n_rows && !opt; r++) {
        const bl_opt *o = &opt_rows[r];
        size_t nl = strlen(o->name);
        if (w[0] == '-' && w[1] == '-' && strncmp(w + 2, o->name, nl) == 0 &&
            (w[2 + nl] == '\0' || w[2 + nl] == '=')) {
            opt = o;
            value = w[2 + nl] == '=' ? w + 3 + nl : NULL;
        } else if (o->short_name && w[0] == '-' && w[1] == o->short_name && w[2] == '\0') {
            opt = o;
        }
    }
    if (!opt) {
        snprintf(msg, len, "expected an option of batchlab run, got '%s'", w);
        return 2;
    }
    if (opt->kind == BL_FLAG) {
        if (value) {
            snprintf(msg, len, "--%s takes no value", opt->name);
            return 2;
        }
        return 0;
    }
    if (!value) {
        if (n < 2) {
            snprintf(msg, len, "--%s expects a value", opt->name);
            return 2;
        }
        value = words[1];
        *consumed = 2;
    }
    /* the value checked by the parser itself, on a one-option command line
     * whose messages go to a scratch stream */
    char *argv[3] = {"run", NULL, NULL};
    char *arg = NULL;
    size_t arg_len = strlen(opt->name) + strlen(value) + 4;
    arg = malloc(arg_len);
    if (!arg) {
        snprintf(msg, len, "out of memory");
        return 2;
    }
    snprintf(arg, arg_len, "--%s=%s", opt->name, value);
    argv[1] = arg;
    char *buf = NULL;
    size_t buf_len = 0;
    FILE *mem = open_memstream(&buf, &buf_len);
    int rc = 2;
    if (mem) {
        FILE *saved = bl_args_set_errors(mem);
        bl_args a;
        rc = bl_args_parse("run", opt_rows, n_rows, 2, argv, 1, &a);
        if (rc == 0) {
            bl_run_config cfg;
            rc = bl_run_config_parse("run", &a, &cfg);
            bl_args_fini(&a);
        }
        bl_args_set_errors(saved);
        fclose(mem);
    }
    if (rc) {
        const char *m = buf ? strstr(buf, "--") : NULL;
        snprintf(msg, len, "%.*s", m ? (int)strcspn(m, "\n") : 0, m ? m : "");
        if (!msg[0])
            snprintf(msg, len, "--%s: bad value '%s'", opt->name, value);
    }
    free(buf);
    free(arg);
    return rc ? 2 : 0;
}
