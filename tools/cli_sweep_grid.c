/* cli_sweep_grid.c — the grid of a sweep: the grid file read into a
 * bl_grid (bl_grid_parse) and expanded into its runs (bl_grid_expand), with
 * every policy option checked once here (see cli_sweep.c for the format).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_sweep.h"

#include "cli_policy_spec.h"
#include "cli_runopts.h"

#include "eng_run.h"
#include "eng_util.h"
#include "pol_registry.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Small helpers                                                       */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static bool is_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' && *s != '-')
            return false;
    return true;
}

/* An absolute, normalised path for rel, taken relative to base (a folder)
 * when it is not absolute; NULL when it does not exist. */
static char *resolve(const char *base, const char *rel)
{
    char *joined = rel[0] == '/' ? eng_strdup(rel) : eng_asprintf("%s/%s", base, rel);
    if (!joined)
        return NULL;
    char *abs = realpath(joined, NULL);
    free(joined);
    return abs;
}

static char *dir_of(const char *path)
{
    char *abs = realpath(path, NULL);
    if (!abs)
        return NULL;
    char *slash = strrchr(abs, '/');
    if (slash == abs)
        slash[1] = '\0';
    else if (slash)
        *slash = '\0';
    return abs;
}

/* A policy the grid names: one of the registry, or a library's path
 * (pol_solib.h), taken relative to the grid's folder like its other files
 * and replaced in *name by its absolute path, the library loaded to check
 * it. what is the message's context ("policies: " or ""). */
static int check_policy(const char *base, const char *file, int line, const char *what, char **name,
                        eng_diag *d)
{
    if (!pol_solib_is_path(*name)) {
        if (pol_find(*name))
            return ENG_OK;
        return eng_diag_set(d, ENG_PARSE, "%s:%d: %sunknown policy '%s' (valid: %s)", file, line,
                            what, *name, pol_names());
    }
    char *abs = resolve(base, *name);
    if (!abs)
        return eng_diag_set(d, ENG_PARSE, "%s:%d: %spolicy library '%s': cannot open it", file,
                            line, what, *name);
    const pol_type *type;
    const pol_solib *lib;
    char err[600];
    int rc = bl_policy_lookup(abs, &type, &lib, err, sizeof err);
    if (rc != ENG_OK) {
        free(abs);
        return rc == ENG_NOMEM ? eng_diag_set(d, ENG_NOMEM, "out of memory")
                               : eng_diag_set(d, ENG_PARSE, "%s:%d: %s%s", file, line, what, err);
    }
    free(*name);
    *name = abs;
    return ENG_OK;
}

/* ------------------------------------------------------------------ */
/* Grid                                                                */

void bl_grid_fini(bl_grid *g)
{
    if (!g)
        return;
    free(g->path);
    free(g->platform);
    for (size_t i = 0; i < g->n_workloads; i++) {
        free(g->workloads[i].name);
        free(g->workloads[i].path);
        free(g->workloads[i].standin);
    }
    free(g->workloads);
    free(g->loads);
    for (size_t i = 0; i < g->n_policies; i++)
        free(g->policies[i]);
    free(g->policies);
    for (size_t i = 0; i < g->n_options; i++) {
        free(g->options[i].policy);
        free(g->options[i].key);
        for (size_t k = 0; k < g->options[i].n_values; k++)
            free(g->options[i].values[k]);
        free(g->options[i].values);
    }
    free(g->options);
    free(g->seeds);
    free(g->outputs);
    for (size_t i = 0; i < g->n_run_args; i++)
        free(g->run_args[i]);
    free(g->run_args);
    memset(g, 0, sizeof *g);
}

/* Splits "a, b , c" into trimmed values; an empty value is an error. */
static int split_values(const char *file, int line, const char *key, char *text, char ***out,
                        size_t *n, eng_diag *d)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    for (char *p = text;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        char *v = trim(p);
        if (!*v) {
            for (size_t i = 0; i < *n; i++)
                free((*out)[i]);
            free(*out);
            *out = NULL;
            *n = 0;
            return eng_diag_set(d, ENG_PARSE, "%s:%d: %s: expected a value between commas", file,
                                line, key);
        }
        if (eng_grow(out, &cap, *n + 1, sizeof **out) != ENG_OK || !((*out)[*n] = eng_strdup(v)))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        (*n)++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return ENG_OK;
}

static void free_values(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

typedef struct seen_keys {
    char *key[64];
    int line[64];
    size_t n;
} seen_keys;

/* Records key; ENG_PARSE when it was given before. */
static int once(seen_keys *s, const char *file, int line, const char *key, eng_diag *d)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->key[i], key) == 0)
            return eng_diag_set(d, ENG_PARSE, "%s:%d: '%s' given twice (first at line %d)", file,
                                line, key, s->line[i]);
    if (s->n < 64) {
        s->key[s->n] = eng_strdup(key);
        s->line[s->n++] = line;
    }
    return ENG_OK;
}

static int parse_workload(bl_grid *g, const char *base, const char *file, int line,
                          const char *name, const char *value, eng_diag *d)
{
    if (!is_name(name))
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: workload name '%s': expected letters, digits, '.', '_' or '-'",
                            file, line, name);
    size_t cap = g->n_workloads;
    if (eng_grow(&g->workloads, &cap, g->n_workloads + 1, sizeof *g->workloads) != ENG_OK)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    bl_grid_workload *w = &g->workloads[g->n_workloads];
    memset(w, 0, sizeof *w);
    w->line = line;
    if (!(w->name = eng_strdup(name)))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    g->n_workloads++;
    if (strncmp(value, "standin", 7) == 0 && (value[7] == ' ' || value[7] == '\t')) {
        char machine[32];
        unsigned long long jobs = 0;
        char extra;
        if (sscanf(value + 7, " %31s jobs=%llu %c", machine, &jobs, &extra) != 2 ||
            strcmp(machine, "forhlr2") != 0 || jobs < 1 || jobs > 100000000ULL)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: workload.%s: expected 'standin forhlr2 jobs=N' (N >= 1), "
                                "got '%s'",
                                file, line, name, value);
        w->standin = eng_strdup(machine);
        w->standin_jobs = jobs;
        return w->standin ? ENG_OK : eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    w->path = resolve(base, value);
    if (w->path && eng_check_not_dir(w->path, "", NULL) != ENG_OK)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: workload.%s: %s: is a directory, expected an SWF log or "
                            "'standin forhlr2 jobs=N'",
                            file, line, name, value);
    if (!w->path || access(w->path, R_OK) != 0)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: workload.%s: expected a readable SWF log or 'standin forhlr2 "
                            "jobs=N', cannot open '%s'",
                            file, line, name, value);
    return ENG_OK;
}

static int parse_loads(bl_grid *g, const char *file, int line, char **v, size_t n, eng_diag *d)
{
    if (!(g->loads = calloc(n, sizeof *g->loads)))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        double x = 0.0;
        if (strcmp(v[i], "log") != 0) {
            char *end;
            errno = 0;
            x = strtod(v[i], &end);
            if (*end || errno || !(x > 0.0) || !isfinite(x))
                return eng_diag_set(d, ENG_PARSE,
                                    "%s:%d: loads: expected a positive number or 'log', got '%s'",
                                    file, line, v[i]);
        }
        for (size_t k = 0; k < g->n_loads; k++)
            if (g->loads[k] == x)
                return eng_diag_set(d, ENG_PARSE, "%s:%d: loads: '%s' listed twice", file, line,
                                    v[i]);
        g->loads[g->n_loads++] = x;
    }
    return ENG_OK;
}

static int parse_seed(const char *s, unsigned long long *out)
{
    if (!isdigit((unsigned char)s[0]))
        return -1;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno || x > BL_SWEEP_SEED_MAX)
        return -1;
    *out = x;
    return 0;
}

static int parse_seeds(bl_grid *g, const char *file, int line, char **v, size_t n, eng_diag *d)
{
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned long long lo, hi;
        char *dots = strstr(v[i], "..");
        int bad;
        if (dots) {
            *dots = '\0';
            bad = parse_seed(v[i], &lo) || parse_seed(dots + 2, &hi) || hi < lo ||
                  hi - lo >= 1000000ULL;
            *dots = '.';
        } else {
            bad = parse_seed(v[i], &lo);
            hi = lo;
        }
        if (bad)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: seeds: expected a seed 0..4294967295 or a range A..B "
                                "(A <= B), got '%s'",
                                file, line, v[i]);
        for (unsigned long long s = lo;; s++) {
            for (size_t k = 0; k < g->n_seeds; k++)
                if (g->seeds[k] == s)
                    return eng_diag_set(d, ENG_PARSE, "%s:%d: seeds: seed %llu listed twice", file,
                                        line, s);
            if (eng_grow(&g->seeds, &cap, g->n_seeds + 1, sizeof *g->seeds) != ENG_OK)
                return eng_diag_set(d, ENG_NOMEM, "out of memory");
            g->seeds[g->n_seeds++] = s;
            if (s == hi)
                break;
        }
    }
    return ENG_OK;
}

/* Options of `run` outside the run configuration's table that the grid
 * sets itself. */
static const char *const reserved_run_args[] = {"--policy", "-P", "--policy-opt"};

/* run_args: each word an option of the run configuration's table
 * (cli_runopts.h) that the grid does not set itself, its value checked
 * as `run` would check it, so a bad value stops the expansion at its line
 * instead of every run. */
static int parse_run_args(bl_grid *g, const char *file, int line, const char *value, eng_diag *d)
{
    char **words = NULL;
    long n = bl_shell_split(value, &words);
    if (n < 0)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: run_args: expected shell words, found an "
                            "unterminated quote",
                            file, line);
    size_t n_rows;
    const bl_run_option_info *rows = bl_run_option_list(&n_rows);
    for (long i = 0; i < n;) {
        const char *reserved = NULL;
        for (size_t k = 0; k < BL_N_OPTS(reserved_run_args) && !reserved; k++) {
            size_t len = strlen(reserved_run_args[k]);
            if (strncmp(words[i], reserved_run_args[k], len) == 0 &&
                (words[i][len] == '\0' || words[i][len] == '='))
                reserved = reserved_run_args[k];
        }
        char spelled[2][64];
        for (size_t r = 0; r < n_rows && !reserved; r++) {
            if (!rows[r].grid_sets)
                continue;
            snprintf(spelled[0], sizeof spelled[0], "--%s", rows[r].name);
            snprintf(spelled[1], sizeof spelled[1], "-%c", rows[r].short_name);
            for (int k = 0; k < (rows[r].short_name ? 2 : 1) && !reserved; k++) {
                size_t len = strlen(spelled[k]);
                if (strncmp(words[i], spelled[k], len) == 0 &&
                    (words[i][len] == '\0' || words[i][len] == '='))
                    reserved = spelled[k];
            }
        }
        int rc = ENG_OK;
        char msg[512];
        size_t used = 1;
        if (reserved)
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%d: run_args: expected options other than %s, which the grid "
                              "sets itself",
                              file, line, reserved);
        else if (bl_run_option_check((const char *const *)words + i, (size_t)(n - i), &used, msg,
                                     sizeof msg))
            rc = eng_diag_set(d, ENG_PARSE, "%s:%d: run_args: %s", file, line, msg);
        if (rc) {
            bl_words_free(words, n);
            return rc;
        }
        i += (long)used;
    }
    g->run_args = words;
    g->n_run_args = (size_t)n;
    return ENG_OK;
}

/* "POLICY.OPTION = v1, v2": a policy option the grid varies. key is
 * "POLICY\0OPTION" (split at dot by the caller), put back on return. */
static int parse_policy_option(bl_grid *g, const char *base, const char *file, int line, char *key,
                               char *dot, char *value, eng_diag *d)
{
    *dot = '\0';
    const char *opt = dot + 1;
    char *policy = eng_strdup(key);
    if (!policy) {
        *dot = '.';
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    int rc = ENG_OK;
    if (pol_solib_is_path(policy)) {
        rc = check_policy(base, file, line, "", &policy, d);
    } else if (!pol_find(policy)) {
        rc = eng_diag_set(d, ENG_PARSE, "%s:%d: unknown policy '%s' in '%s.%s' (valid: %s)", file,
                          line, policy, policy, opt, pol_names());
    }
    if (rc == ENG_OK && (!is_name(opt) || strchr(opt, '.'))) {
        rc = eng_diag_set(d, ENG_PARSE, "%s:%d: expected POLICY.OPTION, got '%s.%s'", file, line,
                          policy, opt);
    }
    if (rc) {
        free(policy);
        *dot = '.';
        return rc;
    }
    size_t cap = g->n_options;
    if (eng_grow(&g->options, &cap, g->n_options + 1, sizeof *g->options) != ENG_OK) {
        free(policy);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    bl_grid_option *o = &g->options[g->n_options];
    memset(o, 0, sizeof *o);
    o->line = line;
    o->policy = policy;
    o->key = eng_strdup(opt);
    g->n_options++;
    if (!o->policy || !o->key)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    rc = split_values(file, line, key, value, &o->values, &o->n_values, d);
    for (size_t i = 0; i < o->n_values && rc == ENG_OK; i++) {
        if (strpbrk(o->values[i], ":= \t'\"\\"))
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%d: %s.%s: expected a value without ':', '=', quotes or "
                              "blanks, got '%s'",
                              file, line, policy, opt, o->values[i]);
        for (size_t k = 0; k < i && rc == ENG_OK; k++)
            if (strcmp(o->values[k], o->values[i]) == 0)
                rc = eng_diag_set(d, ENG_PARSE, "%s:%d: %s.%s: '%s' listed twice", file, line,
                                  policy, opt, o->values[i]);
    }
    *dot = '.';
    return rc;
}

/* "machine = NODESxCORES". */
static int parse_machine(bl_grid *g, const char *file, int line, const char *value, eng_diag *d)
{
    long long nodes = 0, cores = 0;
    char extra;
    if (sscanf(value, "%lldx%lld%c", &nodes, &cores, &extra) != 2 || nodes < 1 || cores < 1 ||
        nodes > INT32_MAX || cores > INT32_MAX)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: machine: expected NODESxCORES (e.g. 1152x20), got '%s'", file,
                            line, value);
    g->machine_nodes = nodes;
    g->machine_cores = cores;
    return ENG_OK;
}

/* "policies = a, b": known policies, each once (taking v on success). */
static int parse_policies(bl_grid *g, const char *base, const char *file, int line, char ***v,
                          size_t *n, eng_diag *d)
{
    int rc = ENG_OK;
    g->policies_line = line;
    for (size_t i = 0; i < *n && rc == ENG_OK; i++) {
        rc = check_policy(base, file, line, "policies: ", &(*v)[i], d);
        for (size_t k = 0; k < i && rc == ENG_OK; k++)
            if (strcmp((*v)[k], (*v)[i]) == 0)
                rc = eng_diag_set(d, ENG_PARSE, "%s:%d: policies: '%s' listed twice", file, line,
                                  (*v)[i]);
    }
    if (rc == ENG_OK) {
        g->policies = *v;
        g->n_policies = *n;
        *v = NULL;
        *n = 0;
    }
    return rc;
}

/* The list keys: loads, seeds, policies. */
static int parse_list(bl_grid *g, const char *base, const char *file, int line, const char *key,
                      char *value, eng_diag *d)
{
    char **v = NULL;
    size_t n = 0;
    int rc = split_values(file, line, key, value, &v, &n, d);
    if (rc == ENG_OK && strcmp(key, "loads") == 0)
        rc = parse_loads(g, file, line, v, n, d);
    else if (rc == ENG_OK && strcmp(key, "seeds") == 0)
        rc = parse_seeds(g, file, line, v, n, d);
    else if (rc == ENG_OK)
        rc = parse_policies(g, base, file, line, &v, &n, d);
    free_values(v, n);
    return rc;
}

static int parse_line(bl_grid *g, const char *base, const char *file, int line, char *text,
                      seen_keys *seen, eng_diag *d)
{
    char *eq = strchr(text, '=');
    if (!eq)
        return eng_diag_set(d, ENG_PARSE, "%s:%d: expected 'key = value[, value...]', got '%s'",
                            file, line, text);
    *eq = '\0';
    char *key = trim(text), *value = trim(eq + 1);
    if (!*key)
        return eng_diag_set(d, ENG_PARSE, "%s:%d: expected a key before '='", file, line);
    if (!*value)
        return eng_diag_set(d, ENG_PARSE, "%s:%d: %s: expected a value after '='", file, line, key);
    int rc = once(seen, file, line, key, d);
    if (rc)
        return rc;
    char *dot = strchr(key, '.');
    if (dot && strncmp(key, "workload.", 9) == 0)
        return parse_workload(g, base, file, line, key + 9, value, d);
    /* a library's path holds dots of its own: its option follows the last */
    char *last = strrchr(key, '.');
    if (last) {
        *last = '\0';
        bool lib = pol_solib_is_path(key);
        *last = '.';
        if (lib)
            dot = last;
    }
    if (dot)
        return parse_policy_option(g, base, file, line, key, dot, value, d);
    if (strcmp(key, "platform") == 0) {
        g->platform = resolve(base, value);
        if (g->platform && eng_check_not_dir(g->platform, "", NULL) != ENG_OK)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: platform: %s: is a directory, expected a platform file",
                                file, line, value);
        if (!g->platform || access(g->platform, R_OK) != 0)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: platform: expected a readable platform file, cannot "
                                "open '%s'",
                                file, line, value);
        return ENG_OK;
    }
    if (strcmp(key, "machine") == 0)
        return parse_machine(g, file, line, value, d);
    if (strcmp(key, "outputs") == 0) {
        unsigned mask = 0;
        if (!eng_output_parse(value, &mask) || !(mask & ENG_OUT_SUMMARY))
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: outputs: expected a list of jobs, dropped, schedule, "
                                "summary, timeseries that holds summary, got '%s'",
                                file, line, value);
        g->outputs = eng_strdup(value);
        return g->outputs ? ENG_OK : eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    if (strcmp(key, "run_args") == 0)
        return parse_run_args(g, file, line, value, d);
    if (strcmp(key, "keep_inputs") == 0) {
        if (strcmp(value, "yes") != 0 && strcmp(value, "no") != 0)
            return eng_diag_set(d, ENG_PARSE, "%s:%d: keep_inputs: expected yes or no, got '%s'",
                                file, line, value);
        g->keep_inputs = strcmp(value, "yes") == 0;
        return ENG_OK;
    }
    if (strcmp(key, "loads") != 0 && strcmp(key, "policies") != 0 && strcmp(key, "seeds") != 0)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: unknown key '%s': expected platform, workload.NAME, loads, "
                            "machine, policies, POLICY.OPTION, seeds, outputs, run_args or "
                            "keep_inputs",
                            file, line, key);
    return parse_list(g, base, file, line, key, value, d);
}

int bl_grid_parse(const char *path, bl_grid *g, eng_diag *d)
{
    memset(g, 0, sizeof *g);
    if (eng_check_not_dir(path, "a grid file", d) != ENG_OK)
        return ENG_IO;
    FILE *f = fopen(path, "r");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open the grid file: %s", path, strerror(errno));
    char *base = dir_of(path);
    g->path = eng_strdup(path);
    if (!base || !g->path) {
        fclose(f);
        free(base);
        bl_grid_fini(g);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    seen_keys seen = {.n = 0};
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, rc = ENG_OK;
    while (rc == ENG_OK && getline(&buf, &cap, f) >= 0) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *text = trim(buf);
        if (*text)
            rc = parse_line(g, base, path, line, text, &seen, d);
    }
    if (rc == ENG_OK && ferror(f))
        rc = eng_diag_set(d, ENG_IO, "%s: read error", path);
    free(buf);
    fclose(f);
    free(base);
    for (size_t i = 0; i < seen.n; i++)
        free(seen.key[i]);
    if (rc == ENG_OK && !g->platform)
        rc = eng_diag_set(d, ENG_PARSE, "%s: expected a 'platform = FILE' line", path);
    if (rc == ENG_OK && g->n_workloads == 0)
        rc = eng_diag_set(d, ENG_PARSE, "%s: expected at least one 'workload.NAME = FILE' line",
                          path);
    if (rc == ENG_OK && g->n_policies == 0)
        rc = eng_diag_set(d, ENG_PARSE, "%s: expected a 'policies = NAME, ...' line", path);
    for (size_t i = 0; i < g->n_options && rc == ENG_OK; i++) {
        bool listed = false;
        for (size_t k = 0; k < g->n_policies; k++)
            listed = listed || strcmp(g->policies[k], g->options[i].policy) == 0;
        if (!listed)
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s:%d: %s.%s: expected a policy listed in 'policies' (line %d)",
                              path, g->options[i].line, g->options[i].policy, g->options[i].key,
                              g->policies_line);
    }
    if (rc == ENG_OK && g->n_loads == 0) {
        if (!(g->loads = calloc(1, sizeof *g->loads)))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        else
            g->n_loads = 1; /* log */
    }
    if (rc == ENG_OK && g->n_seeds == 0) {
        if (!(g->seeds = calloc(1, sizeof *g->seeds)))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        else {
            g->seeds[0] = 1;
            g->n_seeds = 1;
        }
    }
    if (rc == ENG_OK && !g->outputs && !(g->outputs = eng_strdup("summary")))
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (rc != ENG_OK)
        bl_grid_fini(g);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Expansion                                                           */

void bl_tasks_free(bl_task *tasks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(tasks[i].name);
        free(tasks[i].variant);
    }
    free(tasks);
}

/* Checks one option value the way a run would: the policy's own init on a
 * one-host stand-in pool with only this option set. A backend missing on
 * this machine (ENG_UNSUPPORTED: the sweep may run elsewhere) is not an
 * error here. */
static int check_value(const bl_grid *g, const pol_type *type, const bl_grid_option *o,
                       const char *value, eng_diag *d)
{
    const pol_kv kv = {.key = o->key, .value = value};
    char err[512];
    int rc = pol_try_options(type, &kv, 1, err, sizeof err);
    if (rc == ENG_NOMEM)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    if (rc == ENG_OK || rc == ENG_UNSUPPORTED)
        return ENG_OK;
    if (!err[0])
        snprintf(err, sizeof err, "policy %s: option %s: %s, got '%s'", o->policy, o->key,
                 eng_strerror(rc), value);
    return eng_diag_set(d, ENG_PARSE, "%s:%d: %s", g->path, o->line, err);
}

/* The variants of one policy: the product of its options' values. */
static int policy_variants(const bl_grid *g, const char *policy, char ***out, size_t *n,
                           eng_diag *d)
{
    size_t idx[64], n_opt = 0;
    const bl_grid_option *opt[64];
    for (size_t i = 0; i < g->n_options && n_opt < 64; i++)
        if (strcmp(g->options[i].policy, policy) == 0)
            opt[n_opt++] = &g->options[i];
    size_t total = 1;
    for (size_t k = 0; k < n_opt; k++) {
        if (total > 1000000 / opt[k]->n_values)
            return eng_diag_set(d, ENG_RANGE, "%s:%d: %s has more than a million variants", g->path,
                                opt[k]->line, policy);
        total *= opt[k]->n_values;
    }
    *out = calloc(total, sizeof **out);
    if (!*out)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    *n = 0;
    memset(idx, 0, sizeof idx);
    const pol_type *type = pol_find(policy);
    const pol_solib *lib = NULL;
    char lerr[600];
    if (!type && bl_policy_lookup(policy, &type, &lib, lerr, sizeof lerr) != ENG_OK)
        return eng_diag_set(d, ENG_PARSE, "%s: %s", g->path, lerr); /* checked when parsed */
    for (size_t k = 0; k < n_opt; k++) {
        if (!pol_option_find(type->options, opt[k]->key))
            break; /* reported below, with the variant */
        for (size_t i = 0; i < opt[k]->n_values; i++) {
            int rc = check_value(g, type, opt[k], opt[k]->values[i], d);
            if (rc != ENG_OK) {
                free(*out);
                *out = NULL;
                return rc;
            }
        }
    }
    for (size_t v = 0; v < total; v++) {
        size_t len = strlen(policy) + 1;
        pol_kv kv[64];
        for (size_t k = 0; k < n_opt; k++) {
            len += strlen(opt[k]->key) + strlen(opt[k]->values[idx[k]]) + 2;
            kv[k] = (pol_kv){.key = opt[k]->key, .value = opt[k]->values[idx[k]]};
        }
        char err[512];
        if (pol_check_options(type, kv, n_opt, err, sizeof err) != 0) {
            free_values(*out, *n);
            *out = NULL;
            *n = 0;
            return eng_diag_set(d, ENG_PARSE, "%s:%d: %s", g->path, n_opt ? opt[0]->line : 0, err);
        }
        char *s = malloc(len);
        if (!s) {
            free_values(*out, *n);
            *out = NULL;
            *n = 0;
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        }
        char *p = s + sprintf(s, "%s", policy);
        for (size_t k = 0; k < n_opt; k++)
            p += sprintf(p, ":%s=%s", opt[k]->key, opt[k]->values[idx[k]]);
        (*out)[(*n)++] = s;
        /* Odometer: the last key varies fastest. */
        for (size_t k = n_opt; k-- > 0;) {
            if (++idx[k] < opt[k]->n_values)
                break;
            idx[k] = 0;
        }
    }
    return ENG_OK;
}

/* Two variants whose task folders would share a name (bl_policy_folder:
 * ':' becomes '+', '/' and ' ' become '_'): ENG_PARSE naming both, as
 * `compare` refuses such a pair. O(n^2) in the variants, which are few. */
static int check_variant_folders(const bl_grid *g, char *const *variants, size_t n, eng_diag *d)
{
    int rc = ENG_OK;
    for (size_t i = 0; i < n && rc == ENG_OK; i++)
        for (size_t j = 0; j < i && rc == ENG_OK; j++) {
            char *a = bl_policy_folder(variants[i]), *b = bl_policy_folder(variants[j]);
            if (!a || !b)
                rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            else if (strcmp(a, b) == 0)
                rc = eng_diag_set(d, ENG_PARSE,
                                  "%s: variants '%s' and '%s' would both write into the folder "
                                  "%s (' ' and '/' in a value become '_', ':' becomes '+')",
                                  g->path, variants[j], variants[i], a);
            free(a);
            free(b);
        }
    return rc;
}

int bl_grid_expand(const bl_grid *g, bl_task **tasks, size_t *n, eng_diag *d)
{
    *tasks = NULL;
    *n = 0;
    char **variants = NULL;
    size_t n_variants = 0, cap_variants = 0;
    int rc = ENG_OK;
    for (size_t p = 0; p < g->n_policies && rc == ENG_OK; p++) {
        char **v = NULL;
        size_t nv = 0;
        rc = policy_variants(g, g->policies[p], &v, &nv, d);
        if (rc == ENG_OK &&
            eng_grow(&variants, &cap_variants, n_variants + nv, sizeof *variants) != ENG_OK)
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        if (rc == ENG_OK) {
            memcpy(variants + n_variants, v, nv * sizeof *v);
            n_variants += nv;
            free(v);
        } else {
            free_values(v, nv);
        }
    }
    if (rc == ENG_OK)
        rc = check_variant_folders(g, variants, n_variants, d);
    size_t total = g->n_workloads * g->n_loads * n_variants * g->n_seeds;
    bl_task *t = NULL;
    if (rc == ENG_OK && !(t = calloc(total ? total : 1, sizeof *t)))
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t w = 0; w < g->n_workloads && rc == ENG_OK; w++)
        for (size_t l = 0; l < g->n_loads && rc == ENG_OK; l++)
            for (size_t v = 0; v < n_variants && rc == ENG_OK; v++)
                for (size_t s = 0; s < g->n_seeds && rc == ENG_OK; s++) {
                    char load[32];
                    bl_sweep_load_text(load, sizeof load, g->loads[l]);
                    char *vdir = bl_policy_folder(variants[v]);
                    t[k].name = vdir ? eng_asprintf("%s/load-%s/%s/seed-%llu", g->workloads[w].name,
                                                    load, vdir, g->seeds[s])
                                     : NULL;
                    free(vdir);
                    t[k].variant = eng_strdup(variants[v]);
                    t[k].workload = w;
                    t[k].load = l;
                    t[k].seed = g->seeds[s];
                    k++;
                    if (!t[k - 1].name || !t[k - 1].variant)
                        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
                }
    free_values(variants, n_variants);
    if (rc != ENG_OK) {
        bl_tasks_free(t, k);
        return rc;
    }
    *tasks = t;
    *n = total;
    return ENG_OK;
}
