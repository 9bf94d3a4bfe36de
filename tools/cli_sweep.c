/* cli_sweep.c — `batchlab sweep`: experiments at scale without a home-made
 * scheduler. A sweep is a grid file expanded into a task list, one shell
 * line per run; GNU parallel runs the lines on a workstation, a Slurm job
 * array runs the same lines on a cluster, and the merge reads the results
 * back from the files. Nothing here moves work between machines.
 *
 *   batchlab sweep expand GRID --out DIR [-o TASKS] [--batchlab EXE]
 *   batchlab sweep task --out RUN --platform FILE (--workload FILE | --standin forhlr2
 *                       --jobs N) [--load U --machine PxC] --policy SPEC --seed S ...
 *   batchlab sweep pending TASKS
 *   batchlab sweep slurm TASKS -o SCRIPT [--time T] [--mem M] [--partition P] ...
 *   batchlab sweep merge DIR -o CSV
 *
 * Grid file (choices made here; the issue leaves the format open): one
 * "key = value, value, ..." per line, '#' starts a comment, blank lines are
 * ignored, relative paths are relative to the grid file's folder.
 *
 *   platform         = ../platforms/forhlr2.xml           (required)
 *   workload.NAME    = ../traces/KIT-FH2-2016-1.swf.gz    (a log; one line per workload)
 *   workload.NAME    = standin forhlr2 jobs=10000         (a stand-in drawn per seed)
 *   loads            = 0.5, 0.7, 0.9, log                 (target loads; log = as logged)
 *   machine          = 1152x20                            (nodes x cores for the load;
 *                                                          default: the stand-in's machine
 *                                                          or the platform's hosts)
 *   policies         = fcfs, easy, conservative           (required)
 *   POLICY.KEY       = v1, v2                             (option values of one policy)
 *   seeds            = 1..3, 7                            (default 1)
 *   outputs          = summary,timeseries                 (default summary; must hold summary)
 *   run_args         = --walltime extend --check          (extra `batchlab run` options)
 *   keep_inputs      = no                                 (keep each run's input.swf)
 *
 * A policy's variants are the product of its options' values (keys in file
 * order); a policy without options has one variant. Runs are named
 * WORKLOAD/load-L/VARIANT/seed-S (L the load's shortest decimal or "log",
 * VARIANT the policy spec with ':' as '+', like `batchlab compare`'s
 * folders), expanded in that order, seed fastest, and write DIR/runs/NAME.
 *
 * Seeds: a stand-in is drawn with the run's seed, so seeds give independent
 * workloads and the confidence intervals of bench/compare-loads mean
 * something; on a log, the seed only reaches `run --seed` (seeded policies
 * and drawn failures), so deterministic policies give equal results.
 *
 * A task line is an ordinary shell command calling `batchlab sweep task`
 * with every parameter spelled out, so it runs by hand, under GNU parallel
 * (`parallel < TASKS`) and from a Slurm array (`sed -n Np TASKS | bash`).
 * The task is finished when RUN/summary.json exists (the engine writes its
 * outputs atomically); a finished task exits 0 at once, which makes every
 * runner resumable. Otherwise it builds RUN/input.swf (the stand-in and/or
 * the load rescaling, through the engine's generator and eng_scale), writes
 * RUN/task.json (the grid coordinates, for the merge), runs `batchlab run
 * ... --out RUN --outputs LIST -q` in this process (its printout is
 * dropped; errors go to stderr) and removes input.swf unless asked to keep
 * it: the task line rebuilds it bit for bit.
 *
 * Slurm: the script is one job array; element i runs lines (i-1)K+1 .. iK
 * of the task list, K = ceil(N / max array size) (Slurm's MaxArraySize is
 * 1001 by default, so 1000 elements unless told otherwise), and refuses to
 * run when the task list's SHA-256 is no longer the one it was written for
 * (checked with coreutils' sha256sum on the cluster): a changed seed or
 * option on as many lines must not be filed under the old names.
 *
 * Merge: every summary.json under DIR, in byte order of its path, one CSV
 * row each: the run's folder, its grid coordinates from task.json (or, for
 * folders written by run/compare, the policy and seed of the manifest), and
 * a fixed list of metrics (empty where a summary lacks one). Same files,
 * same bytes, except the wall-time columns.
 *
 * Exit status: 0 success; 1 bad input or a failed run ("FILE:LINE: ...");
 * 2 usage error.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_sweep.h"

#include "cli.h"
#include "cli_args.h"
#include "cli_standin.h"
#include "eng_output.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_sha256.h"
#include "eng_swf.h"
#include "eng_util.h"
#include "pol_registry.h"

#include <jansson.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_OPTS(t) (sizeof(t) / sizeof((t)[0]))
#define SEED_MAX 4294967295ULL

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

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
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

/* The absolute form of a path that may not exist yet (no normalisation). */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return eng_strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    return eng_asprintf("%s/%s", cwd, path);
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

static void load_text(char *buf, size_t len, double load)
{
    if (load == 0.0)
        snprintf(buf, len, "log");
    else
        eng_fmt_double(buf, len, load);
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
            return eng_diag_set(d, ENG_PARSE, "%s:%d: %s: expected a value between commas",
                                file, line, key);
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
    if (*end || errno || x > SEED_MAX)
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
                    return eng_diag_set(d, ENG_PARSE, "%s:%d: seeds: seed %llu listed twice",
                                        file, line, s);
            if (eng_grow(&g->seeds, &cap, g->n_seeds + 1, sizeof *g->seeds) != ENG_OK)
                return eng_diag_set(d, ENG_NOMEM, "out of memory");
            g->seeds[g->n_seeds++] = s;
            if (s == hi)
                break;
        }
    }
    return ENG_OK;
}

/* Options that the grid sets itself and run_args may not. */
static const char *const reserved_run_args[] = {"--out", "-o",    "--platform", "-p",
                                                "--workload", "-w", "--policy", "--seed",
                                                "--outputs", "--policy-opt", "--quiet", "-q"};

static int parse_run_args(bl_grid *g, const char *file, int line, const char *value,
                          eng_diag *d)
{
    char **words = NULL;
    long n = bl_shell_split(value, &words);
    if (n < 0)
        return eng_diag_set(d, ENG_PARSE, "%s:%d: run_args: expected shell words, found an "
                                          "unterminated quote",
                            file, line);
    for (long i = 0; i < n; i++)
        for (size_t k = 0; k < N_OPTS(reserved_run_args); k++) {
            size_t len = strlen(reserved_run_args[k]);
            if (strncmp(words[i], reserved_run_args[k], len) == 0 &&
                (words[i][len] == '\0' || words[i][len] == '=')) {
                int rc = eng_diag_set(d, ENG_PARSE,
                                      "%s:%d: run_args: expected options other than %s, which "
                                      "the grid sets itself",
                                      file, line, reserved_run_args[k]);
                bl_words_free(words, n);
                return rc;
            }
        }
    g->run_args = words;
    g->n_run_args = (size_t)n;
    return ENG_OK;
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
        return eng_diag_set(d, ENG_PARSE, "%s:%d: %s: expected a value after '='", file, line,
                            key);
    int rc = once(seen, file, line, key, d);
    if (rc)
        return rc;
    char *dot = strchr(key, '.');
    if (dot && strncmp(key, "workload.", 9) == 0)
        return parse_workload(g, base, file, line, key + 9, value, d);
    if (dot) {
        *dot = '\0';
        const char *policy = key, *opt = dot + 1;
        if (!pol_find(policy)) {
            rc = eng_diag_set(d, ENG_PARSE, "%s:%d: unknown policy '%s' in '%s.%s' (valid: %s)",
                              file, line, policy, policy, opt, pol_names());
            *dot = '.';
            return rc;
        }
        if (!is_name(opt) || strchr(opt, '.')) {
            rc = eng_diag_set(d, ENG_PARSE, "%s:%d: expected POLICY.OPTION, got '%s.%s'", file,
                              line, policy, opt);
            *dot = '.';
            return rc;
        }
        size_t cap = g->n_options;
        if (eng_grow(&g->options, &cap, g->n_options + 1, sizeof *g->options) != ENG_OK)
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
        bl_grid_option *o = &g->options[g->n_options];
        memset(o, 0, sizeof *o);
        o->line = line;
        o->policy = eng_strdup(policy);
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
                    rc = eng_diag_set(d, ENG_PARSE, "%s:%d: %s.%s: '%s' listed twice", file,
                                      line, policy, opt, o->values[i]);
        }
        *dot = '.';
        return rc;
    }
    if (strcmp(key, "platform") == 0) {
        g->platform = resolve(base, value);
        if (!g->platform || access(g->platform, R_OK) != 0)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: platform: expected a readable platform file, cannot "
                                "open '%s'",
                                file, line, value);
        return ENG_OK;
    }
    if (strcmp(key, "machine") == 0) {
        long long nodes = 0, cores = 0;
        char extra;
        if (sscanf(value, "%lldx%lld%c", &nodes, &cores, &extra) != 2 || nodes < 1 ||
            cores < 1 || nodes > INT32_MAX || cores > INT32_MAX)
            return eng_diag_set(d, ENG_PARSE,
                                "%s:%d: machine: expected NODESxCORES (e.g. 1152x20), got '%s'",
                                file, line, value);
        g->machine_nodes = nodes;
        g->machine_cores = cores;
        return ENG_OK;
    }
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
    bool is_list = strcmp(key, "loads") == 0 || strcmp(key, "policies") == 0 ||
                   strcmp(key, "seeds") == 0;
    if (!is_list)
        return eng_diag_set(d, ENG_PARSE,
                            "%s:%d: unknown key '%s': expected platform, workload.NAME, loads, "
                            "machine, policies, POLICY.OPTION, seeds, outputs, run_args or "
                            "keep_inputs",
                            file, line, key);
    char **v = NULL;
    size_t n = 0;
    rc = split_values(file, line, key, value, &v, &n, d);
    if (rc == ENG_OK && strcmp(key, "loads") == 0)
        rc = parse_loads(g, file, line, v, n, d);
    else if (rc == ENG_OK && strcmp(key, "seeds") == 0)
        rc = parse_seeds(g, file, line, v, n, d);
    else if (rc == ENG_OK) {
        g->policies_line = line;
        for (size_t i = 0; i < n && rc == ENG_OK; i++) {
            if (!pol_find(v[i]))
                rc = eng_diag_set(d, ENG_PARSE, "%s:%d: policies: unknown policy '%s' (valid: %s)",
                                  file, line, v[i], pol_names());
            for (size_t k = 0; k < i && rc == ENG_OK; k++)
                if (strcmp(v[k], v[i]) == 0)
                    rc = eng_diag_set(d, ENG_PARSE, "%s:%d: policies: '%s' listed twice", file,
                                      line, v[i]);
        }
        if (rc == ENG_OK) {
            g->policies = v;
            g->n_policies = n;
            v = NULL;
            n = 0;
        }
    }
    free_values(v, n);
    return rc;
}

int bl_grid_parse(const char *path, bl_grid *g, eng_diag *d)
{
    memset(g, 0, sizeof *g);
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

char *bl_variant_dir(const char *variant)
{
    char *s = eng_strdup(variant);
    if (s)
        for (char *p = s; *p; p++)
            if (*p == ':')
                *p = '+';
    return s;
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
        snprintf(err, sizeof err, "option %s: %s, got '%s'", o->key, eng_strerror(rc), value);
    return eng_diag_set(d, ENG_PARSE, "%s:%d: policy %s: %s", g->path, o->line, o->policy, err);
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
            return eng_diag_set(d, ENG_RANGE, "%s:%d: %s has more than a million variants",
                                g->path, opt[k]->line, policy);
        total *= opt[k]->n_values;
    }
    *out = calloc(total, sizeof **out);
    if (!*out)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    *n = 0;
    memset(idx, 0, sizeof idx);
    const pol_type *type = pol_find(policy);
    for (size_t k = 0; k < n_opt; k++) {
        char err[512];
        const pol_kv kv = {.key = opt[k]->key, .value = opt[k]->values[0]};
        if (pol_check_options(type, &kv, 1, err, sizeof err) != 0)
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
            return eng_diag_set(d, ENG_PARSE, "%s:%d: %s", g->path, n_opt ? opt[0]->line : 0,
                                err);
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
                    load_text(load, sizeof load, g->loads[l]);
                    char *vdir = bl_variant_dir(variants[v]);
                    t[k].name = vdir ? eng_asprintf("%s/load-%s/%s/seed-%llu",
                                                    g->workloads[w].name, load, vdir, g->seeds[s])
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

/* ------------------------------------------------------------------ */
/* Shell words                                                         */

void bl_words_free(char **words, long n)
{
    for (long i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

long bl_shell_split(const char *line, char ***words)
{
    *words = NULL;
    size_t n = 0, cap = 0;
    size_t len = strlen(line);
    char *cur = malloc(len + 1);
    if (!cur)
        return -1;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t m = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    goto bad;
                memcpy(cur + m, p + 1, (size_t)(end - p - 1));
                m += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    cur[m++] = *p++;
                }
                if (*p != '"')
                    goto bad;
                p++;
            } else if (*p == '\\' && p[1]) {
                cur[m++] = p[1];
                p += 2;
            } else {
                cur[m++] = *p++;
            }
        }
        if (eng_grow(words, &cap, n + 1, sizeof **words) != ENG_OK ||
            !((*words)[n] = eng_strndup(cur, m)))
            goto bad;
        n++;
    }
    free(cur);
    return (long)n;
bad:
    free(cur);
    bl_words_free(*words, (long)n);
    *words = NULL;
    return -1;
}

bool bl_shell_quote(char *buf, size_t len, const char *word)
{
    size_t used = strlen(buf);
    bool bare = *word != '\0';
    for (const char *c = word; *c && bare; c++)
        bare = isalnum((unsigned char)*c) || strchr("_./:=+,%@-", *c);
    char *p = buf + used;
    size_t room = len - used;
    if (bare) {
        size_t w = strlen(word);
        if (w + 1 > room)
            return false;
        memcpy(p, word, w + 1);
        return true;
    }
    size_t need = 3;
    for (const char *c = word; *c; c++)
        need += *c == '\'' ? 4 : 1;
    if (need > room)
        return false;
    *p++ = '\'';
    for (const char *c = word; *c; c++) {
        if (*c == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *c;
        }
    }
    *p++ = '\'';
    *p = '\0';
    return true;
}

char *bl_task_out_dir(const char *line)
{
    char **w = NULL;
    long n = bl_shell_split(line, &w);
    char *out = NULL;
    for (long i = 0; i + 1 < n && !out; i++)
        if (strcmp(w[i], "--out") == 0)
            out = eng_strdup(w[i + 1]);
    for (long i = 0; i < n && !out; i++)
        if (strncmp(w[i], "--out=", 6) == 0)
            out = eng_strdup(w[i] + 6);
    bl_words_free(w, n);
    return out;
}

/* ------------------------------------------------------------------ */
/* Flat JSON reader (Jansson)                                          */

void bl_json_flat_fini(bl_json_flat *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        free(j->keys[i]);
        free(j->values[i]);
    }
    free(j->keys);
    free(j->values);
    free(j->is_string);
    memset(j, 0, sizeof *j);
}

static int flat_add(bl_json_flat *j, size_t *cap, const char *key, char *value, bool is_string,
                    eng_diag *d)
{
    size_t c1 = *cap, c2 = *cap, c3 = *cap;
    char *k = eng_strdup(key);
    if (!k || !value || eng_grow(&j->keys, &c1, j->n + 1, sizeof *j->keys) != ENG_OK ||
        eng_grow(&j->values, &c2, j->n + 1, sizeof *j->values) != ENG_OK ||
        eng_grow(&j->is_string, &c3, j->n + 1, sizeof *j->is_string) != ENG_OK) {
        free(k);
        free(value);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    *cap = c1; /* the three arrays grow alike */
    j->keys[j->n] = k;
    j->values[j->n] = value;
    j->is_string[j->n] = is_string;
    j->n++;
    return ENG_OK;
}

/* Adds every scalar under v, named by its dotted path from key. */
static int flatten(bl_json_flat *j, size_t *cap, const char *key, json_t *v, eng_diag *d)
{
    char num[40];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *name;
        json_t *item;
        json_object_foreach(v, name, item)
        {
            char *full = *key ? eng_asprintf("%s.%s", key, name) : eng_strdup(name);
            int rc = full ? flatten(j, cap, full, item, d)
                          : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(full);
            if (rc)
                return rc;
        }
        return ENG_OK;
    }
    case JSON_ARRAY:
        for (size_t i = 0; i < json_array_size(v); i++) {
            char *full = eng_asprintf("%s%s%zu", key, *key ? "." : "", i);
            int rc = full ? flatten(j, cap, full, json_array_get(v, i), d)
                          : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(full);
            if (rc)
                return rc;
        }
        return ENG_OK;
    case JSON_STRING:
        return flat_add(j, cap, key, eng_strdup(json_string_value(v)), true, d);
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return flat_add(j, cap, key, eng_strdup(num), false, d);
    case JSON_REAL:
        return flat_add(j, cap, key,
                        eng_strdup(eng_fmt_double(num, sizeof num, json_real_value(v))), false,
                        d);
    case JSON_TRUE:
        return flat_add(j, cap, key, eng_strdup("true"), false, d);
    case JSON_FALSE:
        return flat_add(j, cap, key, eng_strdup("false"), false, d);
    default:
        return flat_add(j, cap, key, eng_strdup("null"), false, d);
    }
}

/* The parsed document (an object) flattened into j, or a message naming
 * the line and column Jansson stopped at. */
static int flat_from(const char *path, json_t *root, const json_error_t *err, bl_json_flat *j,
                     eng_diag *d)
{
    memset(j, 0, sizeof *j);
    if (!root)
        return eng_diag_set(d, err->line < 0 ? ENG_IO : ENG_PARSE, "%s:%d:%d: %s", path,
                            err->line, err->column, err->text);
    int rc;
    if (!json_is_object(root)) {
        rc = eng_diag_set(d, ENG_PARSE, "%s:1: expected a JSON object", path);
    } else {
        size_t cap = 0;
        rc = flatten(j, &cap, "", root, d);
    }
    json_decref(root);
    if (rc != ENG_OK)
        bl_json_flat_fini(j);
    return rc;
}

int bl_json_flat_parse(const char *path, const char *text, bl_json_flat *j, eng_diag *d)
{
    json_error_t err;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &err);
    return flat_from(path, root, &err, j, d);
}

int bl_json_flat_read(const char *path, bl_json_flat *j, eng_diag *d)
{
    memset(j, 0, sizeof *j);
    FILE *f = fopen(path, "rb");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path, strerror(errno));
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
    bool io = ferror(f);
    fclose(f);
    if (io && root) {
        json_decref(root);
        return eng_diag_set(d, ENG_IO, "%s: read error", path);
    }
    return flat_from(path, root, &err, j, d);
}

const char *bl_json_flat_get(const bl_json_flat *j, const char *key)
{
    for (size_t i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], key) == 0)
            return j->values[i];
    return NULL;
}

/* ------------------------------------------------------------------ */
/* sweep expand                                                        */

static const bl_opt expand_opts[] = {
    {"out", 0, BL_VALUE, "DIR", "sweep folder: runs go to DIR/runs/NAME (required)"},
    {"output", 'o', BL_VALUE, "TASKS", "task list to write (default DIR/tasks.txt)"},
    {"batchlab", 0, BL_VALUE, "EXE", "batchlab executable the task lines call (default: this one)"},
};

/* The running executable, for the task lines. */
static char *self_exe(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return eng_strdup("batchlab");
    buf[n] = '\0';
    return eng_strdup(buf);
}

/* Appends " WORD" quoted; false when the line is full. */
static bool put_word(char *line, size_t len, const char *word)
{
    size_t used = strlen(line);
    if (used + 2 > len)
        return false;
    if (used) {
        line[used] = ' ';
        line[used + 1] = '\0';
    }
    return bl_shell_quote(line, len, word);
}

static int write_tasks(const bl_grid *g, const bl_task *t, size_t n, const char *exe,
                       const char *runs, const char *path, long long nodes, long long cores,
                       eng_diag *d)
{
    eng_afile a;
    int rc = eng_afile_open(&a, path, d);
    if (rc)
        return rc;
    size_t cap = 65536;
    char *line = malloc(cap);
    if (!line) {
        eng_afile_abort(&a);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n && rc == ENG_OK; i++) {
        const bl_grid_workload *w = &g->workloads[t[i].workload];
        double load = g->loads[t[i].load];
        char num[64], seed[32], *out = eng_asprintf("%s/%s", runs, t[i].name);
        snprintf(seed, sizeof seed, "%llu", t[i].seed);
        line[0] = '\0';
        bool ok = out && put_word(line, cap, exe) && put_word(line, cap, "sweep") &&
                  put_word(line, cap, "task") && put_word(line, cap, "--out") &&
                  put_word(line, cap, out) && put_word(line, cap, "--platform") &&
                  put_word(line, cap, g->platform) && put_word(line, cap, "--workload-name") &&
                  put_word(line, cap, w->name);
        if (ok && w->standin) {
            snprintf(num, sizeof num, "%llu", w->standin_jobs);
            ok = put_word(line, cap, "--standin") && put_word(line, cap, w->standin) &&
                 put_word(line, cap, "--jobs") && put_word(line, cap, num);
        } else if (ok) {
            ok = put_word(line, cap, "--workload") && put_word(line, cap, w->path);
        }
        if (ok && load > 0.0) {
            ok = put_word(line, cap, "--load") &&
                 put_word(line, cap, eng_fmt_double(num, sizeof num, load));
            snprintf(num, sizeof num, "%lldx%lld", nodes, cores);
            ok = ok && put_word(line, cap, "--machine") && put_word(line, cap, num);
        }
        ok = ok && put_word(line, cap, "--policy") && put_word(line, cap, t[i].variant) &&
             put_word(line, cap, "--seed") && put_word(line, cap, seed) &&
             put_word(line, cap, "--outputs") && put_word(line, cap, g->outputs);
        if (ok && g->keep_inputs)
            ok = put_word(line, cap, "--keep-input");
        for (size_t k = 0; k < g->n_run_args && ok; k++) {
            char *arg = eng_asprintf("--run-arg=%s", g->run_args[k]);
            ok = arg && put_word(line, cap, arg);
            free(arg);
        }
        free(out);
        if (!ok)
            rc = eng_diag_set(d, ENG_RANGE, "%s: task %zu is longer than %zu characters",
                              g->path, i + 1, cap);
        else
            fprintf(a.f, "%s\n", line);
    }
    free(line);
    if (rc == ENG_OK)
        return eng_afile_commit(&a, d);
    eng_afile_abort(&a);
    return rc;
}

/* P and C of the load computation: the grid's machine line; else, when
 * every workload is a ForHLR II stand-in, the machine it is sized to (1152
 * x 20: the compute pool of platforms/forhlr2.xml, whose 21 visualisation
 * nodes get no job of it); else the platform's hosts when its pools agree
 * on cores per node. */
static int load_machine(const bl_grid *g, long long *nodes, long long *cores, eng_diag *d)
{
    *nodes = g->machine_nodes;
    *cores = g->machine_cores;
    bool scaled = false;
    for (size_t i = 0; i < g->n_loads; i++)
        scaled = scaled || g->loads[i] > 0.0;
    if (!scaled || *nodes > 0)
        return ENG_OK;
    bool all_standins = g->n_workloads > 0;
    for (size_t i = 0; i < g->n_workloads; i++)
        all_standins = all_standins && g->workloads[i].standin;
    if (all_standins) {
        *nodes = BL_FORHLR2_NODES;
        *cores = BL_FORHLR2_CORES_PER_NODE;
        return ENG_OK;
    }
    eng_platform *p = NULL;
    int rc = eng_run_load_platform(g->platform, &p, d);
    if (rc)
        return rc;
    *nodes = (long long)p->n_hosts;
    *cores = p->pools[0].cores_per_node;
    for (size_t i = 1; i < p->n_pools && rc == ENG_OK; i++)
        if (p->pools[i].cores_per_node != p->pools[0].cores_per_node)
            rc = eng_diag_set(d, ENG_PARSE,
                              "%s: the pools of %s differ in cores per node: expected a "
                              "'machine = NODESxCORES' line for the load computation",
                              g->path, g->platform);
    eng_platform_destroy(p);
    return rc;
}

static int cmd_expand(int argc, char **argv)
{
    const char *grid_path = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep expand", expand_opts, N_OPTS(expand_opts), argc, argv,
                           grid_path ? 3 : 2, &a);
    if (rc)
        return rc;
    const char *synopsis = "GRID --out DIR [-o TASKS] [--batchlab EXE]";
    if (a.help) {
        bl_args_usage("sweep expand", synopsis,
                      "Expands a grid file into a task list: one shell line per run, each\n"
                      "writing DIR/runs/WORKLOAD/load-L/VARIANT/seed-S. The grid format is\n"
                      "described in bench/README.md (section Sweeps).",
                      expand_opts, N_OPTS(expand_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *dir = bl_args_value(&a, "out", NULL);
    if (!grid_path || !dir) {
        fprintf(stderr, "batchlab sweep expand: expected %s (see batchlab sweep expand --help)\n",
                synopsis);
        bl_args_fini(&a);
        return 2;
    }
    eng_diag d;
    eng_diag_clear(&d);
    bl_grid g;
    bl_task *t = NULL;
    size_t n = 0;
    char *abs_dir = NULL, *runs = NULL, *tasks = NULL, *exe = NULL;
    long long nodes = 0, cores = 0;
    rc = bl_grid_parse(grid_path, &g, &d);
    if (rc == ENG_OK)
        rc = bl_grid_expand(&g, &t, &n, &d);
    if (rc == ENG_OK)
        rc = load_machine(&g, &nodes, &cores, &d);
    if (rc == ENG_OK)
        rc = eng_mkdir_p(dir, &d);
    if (rc == ENG_OK) {
        abs_dir = realpath(dir, NULL);
        runs = abs_dir ? eng_asprintf("%s/runs", abs_dir) : NULL;
        const char *o = bl_args_value(&a, "output", NULL);
        tasks = o ? eng_strdup(o) : abs_dir ? eng_asprintf("%s/tasks.txt", abs_dir) : NULL;
        const char *e = bl_args_value(&a, "batchlab", NULL);
        exe = e ? absolute(e) : self_exe();
        if (!runs || !tasks || !exe)
            rc = eng_diag_set(&d, ENG_NOMEM, "%s: cannot resolve the folder", dir);
    }
    if (rc == ENG_OK)
        rc = write_tasks(&g, t, n, exe, runs, tasks, nodes, cores, &d);
    if (rc == ENG_OK) {
        size_t nv = n / (g.n_workloads * g.n_loads * g.n_seeds);
        printf("%s: %zu runs = %zu workload%s x %zu load%s x %zu polic%s x %zu seed%s, into "
               "%s\n",
               tasks, n, g.n_workloads, g.n_workloads == 1 ? "" : "s", g.n_loads,
               g.n_loads == 1 ? "" : "s", nv, nv == 1 ? "y variant" : "y variants", g.n_seeds,
               g.n_seeds == 1 ? "" : "s", runs);
    } else {
        fprintf(stderr, "batchlab sweep expand: %s\n", d.msg);
    }
    bl_grid_fini(&g);
    bl_tasks_free(t, n);
    free(abs_dir);
    free(runs);
    free(tasks);
    free(exe);
    bl_args_fini(&a);
    return rc == ENG_OK ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/* sweep task                                                          */

static const bl_opt task_opts[] = {
    {"out", 0, BL_VALUE, "RUN", "the run's output folder (required)"},
    {"platform", 0, BL_VALUE, "FILE", "SimGrid platform XML (required)"},
    {"workload", 0, BL_VALUE, "FILE", "SWF log"},
    {"workload-name", 0, BL_VALUE, "NAME", "the workload's name in the grid (for task.json)"},
    {"standin", 0, BL_VALUE, "MACHINE", "draw a stand-in (forhlr2) with the run's seed instead"},
    {"jobs", 0, BL_VALUE, "N", "jobs of the stand-in"},
    {"load", 0, BL_VALUE, "U", "rescale arrivals to a computed load U (needs --machine)"},
    {"machine", 0, BL_VALUE, "PxC", "nodes x cores per node for the load computation"},
    {"policy", 0, BL_VALUE, "SPEC", "policy NAME[:key=value...] (required)"},
    {"seed", 0, BL_VALUE, "S", "the run's seed: run --seed and the stand-in's (required)"},
    {"outputs", 0, BL_VALUE, "LIST", "run --outputs, must hold summary (default summary)"},
    {"run-arg", 0, BL_MULTI, "ARG", "one more argument for batchlab run (repeatable)"},
    {"keep-input", 0, BL_FLAG, NULL, "keep RUN/input.swf after the run"},
    {"verbose", 'v', BL_FLAG, NULL, "show the run's printout"},
};

static int write_task_json(const char *path, const char *name, const char *workload,
                           const char *load, const char *variant, const char *seed,
                           eng_diag *d)
{
    eng_afile a;
    int rc = eng_afile_open(&a, path, d);
    if (rc)
        return rc;
    size_t plen = strcspn(variant, ":");
    const char *keys[] = {"run", "workload", "load", "policy", "variant", "seed"};
    char policy[128];
    snprintf(policy, sizeof policy, "%.*s", (int)(plen < 127 ? plen : 127), variant);
    const char *vals[] = {name, workload, load, policy, variant, seed};
    fputs("{\n", a.f);
    for (size_t i = 0; i < 6; i++) {
        fprintf(a.f, "  \"%s\": \"", keys[i]);
        for (const char *c = vals[i]; *c; c++) {
            if (*c == '"' || *c == '\\')
                fputc('\\', a.f);
            fputc(*c, a.f);
        }
        fprintf(a.f, "\"%s\n", i + 1 < 6 ? "," : "");
    }
    fputs("}\n", a.f);
    if (ferror(a.f)) {
        eng_afile_abort(&a);
        return eng_diag_set(d, ENG_IO, "%s: cannot write", path);
    }
    return eng_afile_commit(&a, d);
}

/* Builds RUN/input.swf: the stand-in or the log, rescaled to the load. */
static int task_input(const char *in_path, const char *standin, unsigned long long jobs,
                      unsigned long long seed, double load, long long nodes, long long cores,
                      bool lenient, const char *out_path, eng_diag *d)
{
    eng_workload *w = NULL;
    int rc;
    if (standin) {
        rc = bl_standin_forhlr2((size_t)jobs, (unsigned long)seed, &w, d);
    } else {
        eng_swf_read_opts ro = {.lenient = lenient};
        rc = eng_swf_read(in_path, &ro, &w, d);
    }
    if (rc == ENG_OK && load > 0.0) {
        double factor = 1.0;
        rc = eng_scale_to_load(w, nodes, cores, load, &factor, d);
        if (rc != ENG_OK) {
            eng_diag_prefix(d, "%s: ", standin ? "stand-in" : in_path);
        } else {
            char note[256], num[2][32];
            snprintf(note, sizeof note,
                     "scale: inter-arrival times multiplied by %s for a computed load of %s on "
                     "%lld nodes of %lld cores (Baranov & Lyakhovets 2022)",
                     eng_fmt_double(num[0], sizeof num[0], factor),
                     eng_fmt_double(num[1], sizeof num[1], load), nodes, cores);
            rc = eng_workload_set_header(w, "Note", note);
        }
    }
    if (rc == ENG_OK)
        rc = eng_swf_write(out_path, w, NULL, d);
    eng_workload_destroy(w);
    return rc;
}

static int cmd_task(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("sweep task", task_opts, N_OPTS(task_opts), argc, argv, 2, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("sweep task",
                      "--out RUN --platform FILE (--workload FILE | --standin forhlr2 --jobs N)\n"
                      "        [--load U --machine PxC] --policy SPEC --seed S [--outputs LIST]\n"
                      "        [--run-arg ARG ...] [--keep-input]",
                      "One run of a sweep, as a task line calls it. Does nothing when\n"
                      "RUN/summary.json exists (the run is finished). Otherwise builds\n"
                      "RUN/input.swf when a stand-in or a load asks for it, writes\n"
                      "RUN/task.json and runs batchlab run ... --out RUN.",
                      task_opts, N_OPTS(task_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *out = bl_args_value(&a, "out", NULL);
    const char *platform = bl_args_value(&a, "platform", NULL);
    const char *workload = bl_args_value(&a, "workload", NULL);
    const char *standin = bl_args_value(&a, "standin", NULL);
    const char *jobs_s = bl_args_value(&a, "jobs", NULL);
    const char *load_s = bl_args_value(&a, "load", NULL);
    const char *machine = bl_args_value(&a, "machine", NULL);
    const char *policy = bl_args_value(&a, "policy", NULL);
    const char *seed_s = bl_args_value(&a, "seed", NULL);
    const char *outputs = bl_args_value(&a, "outputs", "summary");
    const char *wname = bl_args_value(&a, "workload-name", NULL);
    const bl_arg *extra = bl_args_get(&a, "run-arg");
    unsigned long long seed = 0, jobs = 0;
    long long nodes = 0, cores = 0;
    double load = 0.0;
    unsigned mask = 0;
    char *summary = NULL, *input = NULL, *task_json = NULL, *name = NULL;
    const char **run_argv = NULL;
    rc = 2;
    if (!out || !platform || !policy || !seed_s || (!workload == !standin)) {
        fprintf(stderr, "batchlab sweep task: expected --out, --platform, --policy, --seed and "
                        "one of --workload or --standin (see batchlab sweep task --help)\n");
        goto done;
    }
    if (bl_args_u64("sweep task", "seed", seed_s, &seed))
        goto done;
    if (standin && (strcmp(standin, "forhlr2") != 0 || !jobs_s ||
                    bl_args_u64("sweep task", "jobs", jobs_s, &jobs) || jobs < 1)) {
        fprintf(stderr, "batchlab sweep task: --standin: expected forhlr2 with --jobs N\n");
        goto done;
    }
    if (load_s) {
        char extra_c;
        if (bl_args_double("sweep task", "load", load_s, &load))
            goto done;
        if (!(load > 0.0) || !machine ||
            sscanf(machine, "%lldx%lld%c", &nodes, &cores, &extra_c) != 2 || nodes < 1 ||
            cores < 1) {
            fprintf(stderr, "batchlab sweep task: --load: expected a positive load with "
                            "--machine NODESxCORES\n");
            goto done;
        }
    }
    if (!eng_output_parse(outputs, &mask) || !(mask & ENG_OUT_SUMMARY)) {
        fprintf(stderr, "batchlab sweep task: --outputs: expected a list that holds summary, "
                        "got '%s'\n",
                outputs);
        goto done;
    }
    rc = 1;
    summary = eng_asprintf("%s/summary.json", out);
    input = eng_asprintf("%s/input.swf", out);
    task_json = eng_asprintf("%s/task.json", out);
    if (!summary || !input || !task_json) {
        fprintf(stderr, "batchlab sweep task: out of memory\n");
        goto done;
    }
    if (file_exists(summary)) {
        rc = 0; /* finished: resumption skips it */
        goto done;
    }
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_mkdir_p(out, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", d.msg);
        goto done;
    }
    bool lenient = false;
    for (size_t i = 0; i < extra->n_values; i++)
        lenient = lenient || strcmp(extra->values[i], "--lenient") == 0;
    bool built = standin || load_s;
    if (built && task_input(workload, standin, jobs, seed, load, nodes, cores, lenient, input,
                            &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s: %s\n", out, d.msg);
        goto done;
    }
    /* The run's name for task.json: the folder below "runs/" when there is
     * one, else the folder as given. */
    const char *runs = strstr(out, "/runs/");
    name = eng_strdup(runs ? runs + 6 : out);
    char load_txt[32];
    load_text(load_txt, sizeof load_txt, load);
    if (!name ||
        write_task_json(task_json, name, wname ? wname : eng_basename(workload ? workload : "-"),
                        load_txt, policy, seed_s, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep task: %s\n", name ? d.msg : "out of memory");
        if (built)
            unlink(input);
        goto done;
    }
    size_t n = 0;
    run_argv = calloc(20 + extra->n_values, sizeof *run_argv);
    if (!run_argv) {
        fprintf(stderr, "batchlab sweep task: out of memory\n");
        goto done;
    }
    run_argv[n++] = "batchlab";
    run_argv[n++] = "run";
    run_argv[n++] = "--platform";
    run_argv[n++] = platform;
    run_argv[n++] = "--workload";
    run_argv[n++] = built ? input : workload;
    run_argv[n++] = "--policy";
    run_argv[n++] = policy;
    run_argv[n++] = "--seed";
    run_argv[n++] = seed_s;
    run_argv[n++] = "--out";
    run_argv[n++] = out;
    run_argv[n++] = "--outputs";
    run_argv[n++] = outputs;
    run_argv[n++] = "-q";
    for (size_t i = 0; i < extra->n_values; i++)
        run_argv[n++] = extra->values[i];
    /* The run prints a summary on stdout; a sweep keeps summary.json
     * instead, so the printout goes to /dev/null unless --verbose. */
    bool verbose = bl_args_flag(&a, "verbose");
    int saved = -1;
    fflush(stdout);
    if (!verbose) {
        int null_fd = open("/dev/null", O_WRONLY);
        if (null_fd >= 0) {
            saved = dup(STDOUT_FILENO);
            dup2(null_fd, STDOUT_FILENO);
            close(null_fd);
        }
    }
    rc = bl_cli_main((int)n, (char **)run_argv);
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (built && !bl_args_flag(&a, "keep-input"))
        unlink(input);
    if (rc > 128)
        fprintf(stderr, "batchlab sweep task: %s: the run was stopped (exit %d); it stays "
                        "pending\n",
                out, rc);
    else if (rc != 0)
        fprintf(stderr, "batchlab sweep task: %s: the run failed (exit %d)\n", out, rc);
done:
    free(run_argv);
    free(summary);
    free(input);
    free(task_json);
    free(name);
    bl_args_fini(&a);
    return rc;
}

/* ------------------------------------------------------------------ */
/* sweep pending                                                       */

/* Reads the lines of a task list (without their newlines). */
static int read_lines(const char *path, char ***lines, size_t *n, eng_diag *d)
{
    *lines = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open the task list: %s", path,
                            strerror(errno));
    char *buf = NULL;
    size_t cap = 0, lcap = 0;
    ssize_t len;
    int rc = ENG_OK;
    while (rc == ENG_OK && (len = getline(&buf, &cap, f)) >= 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (eng_grow(lines, &lcap, *n + 1, sizeof **lines) != ENG_OK ||
            !((*lines)[*n] = eng_strdup(buf)))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        else
            (*n)++;
    }
    free(buf);
    fclose(f);
    return rc;
}

static int cmd_pending(int argc, char **argv)
{
    if (argc == 3 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        printf("usage: batchlab sweep pending TASKS\n\n"
               "Prints the lines of a task list whose run is not finished (no summary.json in\n"
               "its --out folder), in order: the input of a resumed GNU parallel run.\n");
        return 0;
    }
    if (argc != 3 || argv[2][0] == '-') {
        fprintf(stderr, "batchlab sweep pending: expected one task list (see batchlab sweep "
                        "pending --help)\n");
        return 2;
    }
    char **lines = NULL;
    size_t n = 0;
    eng_diag d;
    eng_diag_clear(&d);
    if (read_lines(argv[2], &lines, &n, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep pending: %s\n", d.msg);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char *out = bl_task_out_dir(lines[i]);
        if (!out) {
            if (rc == 0)
                fprintf(stderr, "batchlab sweep pending: %s:%zu: expected a task line with "
                                "--out DIR\n",
                        argv[2], i + 1);
            rc = 1;
            continue;
        }
        char *summary = eng_asprintf("%s/summary.json", out);
        if (summary && !file_exists(summary))
            printf("%s\n", lines[i]);
        free(summary);
        free(out);
    }
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    return rc;
}

/* ------------------------------------------------------------------ */
/* sweep slurm                                                         */

static const bl_opt slurm_opts[] = {
    {"output", 'o', BL_VALUE, "SCRIPT", "job script to write (required)"},
    {"job-name", 0, BL_VALUE, "NAME", "Slurm job name (default batchlab-sweep)"},
    {"time", 0, BL_VALUE, "TIME", "time limit of one array element (default 01:00:00)"},
    {"mem", 0, BL_VALUE, "SIZE", "memory of one array element (default 2G)"},
    {"partition", 0, BL_VALUE, "NAME", "Slurm partition"},
    {"account", 0, BL_VALUE, "NAME", "Slurm account"},
    {"max-running", 0, BL_VALUE, "M", "at most M elements at once (--array=...%M)"},
    {"max-array", 0, BL_VALUE, "N", "largest array the cluster takes (default 1000)"},
    {"logs", 0, BL_VALUE, "DIR", "folder of the elements' output (default SCRIPT's folder/logs)"},
};

/* Slurm directive values go to the script verbatim: refuse anything that
 * would break the line or the shell. */
static bool directive_ok(const char *v)
{
    for (const char *c = v; *c; c++)
        if (!isalnum((unsigned char)*c) && !strchr("_.:-+@%/,", *c))
            return false;
    return *v != '\0';
}

static int cmd_slurm(int argc, char **argv)
{
    const char *tasks_path = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep slurm", slurm_opts, N_OPTS(slurm_opts), argc, argv,
                           tasks_path ? 3 : 2, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("sweep slurm", "TASKS -o SCRIPT [options]",
                      "Writes a Slurm job array that runs the lines of a task list: element i\n"
                      "runs lines (i-1)K+1 .. iK, K = ceil(lines / --max-array). Submit it\n"
                      "with sbatch SCRIPT; finished runs are skipped, so a resubmission\n"
                      "resumes the sweep. Expand the grid on the cluster: task lines hold\n"
                      "absolute paths.",
                      slurm_opts, N_OPTS(slurm_opts));
        bl_args_fini(&a);
        return 0;
    }
    const char *script = bl_args_value(&a, "output", NULL);
    const char *name = bl_args_value(&a, "job-name", "batchlab-sweep");
    const char *time_s = bl_args_value(&a, "time", "01:00:00");
    const char *mem = bl_args_value(&a, "mem", "2G");
    const char *partition = bl_args_value(&a, "partition", NULL);
    const char *account = bl_args_value(&a, "account", NULL);
    const char *running_s = bl_args_value(&a, "max-running", NULL);
    const char *max_s = bl_args_value(&a, "max-array", "1000");
    unsigned long long running = 0, max_array = 0;
    char **lines = NULL;
    size_t n = 0;
    char *abs_tasks = NULL, *logs = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    rc = 2;
    if (!tasks_path || !script) {
        fprintf(stderr, "batchlab sweep slurm: expected TASKS -o SCRIPT (see batchlab sweep "
                        "slurm --help)\n");
        goto done;
    }
    if (bl_args_u64("sweep slurm", "max-array", max_s, &max_array) ||
        (running_s && bl_args_u64("sweep slurm", "max-running", running_s, &running)))
        goto done;
    if (max_array < 1 || (running_s && running < 1)) {
        fprintf(stderr, "batchlab sweep slurm: --max-array and --max-running: expected at "
                        "least 1\n");
        goto done;
    }
    const char *checked[][2] = {{"job-name", name}, {"time", time_s}, {"mem", mem},
                                {"partition", partition}, {"account", account}};
    for (size_t i = 0; i < 5; i++)
        if (checked[i][1] && !directive_ok(checked[i][1])) {
            fprintf(stderr, "batchlab sweep slurm: --%s: expected letters, digits and _.:-+@%%/, "
                            "got '%s'\n",
                    checked[i][0], checked[i][1]);
            goto done;
        }
    rc = 1;
    if (read_lines(tasks_path, &lines, &n, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    if (n == 0) {
        fprintf(stderr, "batchlab sweep slurm: %s: expected at least one task line\n",
                tasks_path);
        goto done;
    }
    abs_tasks = realpath(tasks_path, NULL);
    const char *logs_opt = bl_args_value(&a, "logs", NULL);
    if (logs_opt) {
        logs = absolute(logs_opt);
    } else {
        char *abs_script = absolute(script);
        char *slash = abs_script ? strrchr(abs_script, '/') : NULL;
        if (slash)
            *slash = '\0';
        logs = abs_script ? eng_asprintf("%s/logs", abs_script) : NULL;
        free(abs_script);
    }
    if (!abs_tasks || !logs) {
        fprintf(stderr, "batchlab sweep slurm: %s: cannot resolve the path\n", tasks_path);
        goto done;
    }
    if (eng_mkdir_p(logs, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    /* The elements check the list by its digest: a list changed since (a
     * seed, an option) must not run under the old names. */
    char digest[65];
    if (eng_sha256_file(abs_tasks, digest, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    size_t per = (size_t)((n + max_array - 1) / max_array);
    size_t elements = (n + per - 1) / per;
    eng_afile f;
    if (eng_afile_open(&f, script, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    char q_tasks[PATH_MAX * 4 + 8] = "", q_logs[PATH_MAX * 4 + 8] = "";
    bl_shell_quote(q_tasks, sizeof q_tasks, abs_tasks);
    fprintf(f.f,
            "#!/bin/bash\n"
            "# Slurm job array written by batchlab sweep slurm: element i runs lines\n"
            "# (i-1)*%zu+1 .. i*%zu of the task list (%zu lines), one after another. Finished\n"
            "# runs (summary.json present) return at once, so resubmitting resumes the sweep.\n"
            "# Submit: sbatch %s\n",
            per, per, n, script);
    fprintf(f.f, "#SBATCH --job-name=%s\n", name);
    fprintf(f.f, "#SBATCH --array=1-%zu", elements);
    if (running_s)
        fprintf(f.f, "%%%llu", running);
    fprintf(f.f, "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    fprintf(f.f, "#SBATCH --time=%s\n#SBATCH --mem=%s\n", time_s, mem);
    if (partition)
        fprintf(f.f, "#SBATCH --partition=%s\n", partition);
    if (account)
        fprintf(f.f, "#SBATCH --account=%s\n", account);
    bl_shell_quote(q_logs, sizeof q_logs, logs);
    /* %x job name, %A array job id, %a element: sbatch does not create the
     * folder, so it was made above. Paths with blanks cannot be quoted in a
     * directive. */
    if (!strpbrk(logs, " \t'\"\\"))
        fprintf(f.f, "#SBATCH --output=%s/%%x-%%A_%%a.out\n", logs);
    fprintf(f.f,
            "set -u\n"
            "tasks=%s\n"
            "per=%zu\n"
            "n=%zu\n"
            "sha256=%s\n"
            "[ \"$(sha256sum < \"$tasks\" | cut -d' ' -f1)\" = \"$sha256\" ] ||\n"
            "    { echo \"$tasks has changed since this script was written (SHA-256 $sha256): "
            "expand the grid and write the script again\" >&2; exit 1; }\n"
            "first=$(( (SLURM_ARRAY_TASK_ID - 1) * per + 1 ))\n"
            "last=$(( first + per - 1 ))\n"
            "[ \"$last\" -le \"$n\" ] || last=$n\n"
            "status=0\n"
            "for i in $(seq \"$first\" \"$last\"); do\n"
            "    line=$(sed -n \"${i}p\" \"$tasks\")\n"
            "    bash -c \"$line\" || { echo \"task $i failed: $line\" >&2; status=1; }\n"
            "done\n"
            "exit $status\n",
            q_tasks, per, n, digest);
    if (ferror(f.f)) {
        eng_afile_abort(&f);
        fprintf(stderr, "batchlab sweep slurm: %s: cannot write\n", script);
        goto done;
    }
    if (eng_afile_commit(&f, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    chmod(script, 0755);
    printf("%s: %zu tasks in an array of %zu element%s (%zu task%s each); submit with: sbatch "
           "%s\n",
           script, n, elements, elements == 1 ? "" : "s", per, per == 1 ? "" : "s", script);
    rc = 0;
done:
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    free(abs_tasks);
    free(logs);
    bl_args_fini(&a);
    return rc;
}

/* ------------------------------------------------------------------ */
/* sweep merge                                                         */

/* The CSV columns after the run's coordinates: name and summary.json key.
 * The wall-time columns come last: they are the only ones that differ
 * between two runs of the same task. */
static const struct {
    const char *column, *key;
} merge_cols[] = {
    {"jobs_input", "jobs.input"},
    {"jobs_simulated", "jobs.simulated"},
    {"jobs_dropped", "jobs.dropped"},
    {"completed", "jobs.by_final_state.COMPLETED_SUCCESSFULLY"},
    {"killed_at_walltime", "jobs.by_final_state.COMPLETED_WALLTIME_REACHED"},
    {"failed", "jobs.by_final_state.COMPLETED_FAILED"},
    {"requeues", "jobs.requeued_after_failure"},
    {"wait_mean_s", "metrics.wait_mean_s"},
    {"wait_median_s", "metrics.wait_median_s"},
    {"wait_p95_s", "metrics.wait_p95_s"},
    {"wait_max_s", "metrics.wait_max_s"},
    {"response_mean_s", "metrics.response_mean_s"},
    {"slowdown_mean", "metrics.slowdown_mean"},
    {"bounded_slowdown_mean", "metrics.bounded_slowdown_mean"},
    {"utilization", "metrics.utilization"},
    {"makespan_s", "metrics.makespan_s"},
    {"queue_length_mean", "metrics.queue_length_mean"},
    {"queue_length_max", "metrics.queue_length_max"},
    {"cost", "metrics.cost"},
    {"failures_wasted_node_s", "metrics.failures_wasted_node_s"},
    {"initialization_share", "metrics.initialization_share"},
    {"hosts", "platform.hosts"},
    {"workload_sha256", "manifest.inputs.workload.sha256"},
    {"policy_wall_time_s", "manifest.policy_wall_time_s"},
    {"wall_time_s", "manifest.wall_time_s"},
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every folder under dir (itself included) that holds summary.json, as
 * paths relative to dir ("" for dir itself). */
static int find_runs(const char *root, const char *rel, char ***out, size_t *n, size_t *cap,
                     eng_diag *d)
{
    char *path = *rel ? eng_asprintf("%s/%s", root, rel) : eng_strdup(root);
    if (!path)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    DIR *dir = opendir(path);
    if (!dir) {
        int rc = eng_diag_set(d, ENG_IO, "%s: cannot open the folder: %s", path, strerror(errno));
        free(path);
        return rc;
    }
    int rc = ENG_OK;
    struct dirent *e;
    while (rc == ENG_OK && (e = readdir(dir))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *child = eng_asprintf("%s/%s", path, e->d_name);
        struct stat st;
        if (!child) {
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        } else if (stat(child, &st) == 0 && S_ISDIR(st.st_mode)) {
            char *crel = *rel ? eng_asprintf("%s/%s", rel, e->d_name) : eng_strdup(e->d_name);
            rc = crel ? find_runs(root, crel, out, n, cap, d)
                      : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(crel);
        } else if (strcmp(e->d_name, "summary.json") == 0) {
            if (eng_grow(out, cap, *n + 1, sizeof **out) != ENG_OK ||
                !((*out)[*n] = eng_strdup(rel)))
                rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
            else
                (*n)++;
        }
        free(child);
    }
    closedir(dir);
    free(path);
    return rc;
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

/* A number of the summary as CSV: "null" (not finite) becomes empty. */
static const char *num_cell(const char *v)
{
    return v && strcmp(v, "null") != 0 ? v : "";
}

static int merge_one(FILE *f, const char *root, const char *rel, eng_diag *d)
{
    char *sp = *rel ? eng_asprintf("%s/%s/summary.json", root, rel)
                    : eng_asprintf("%s/summary.json", root);
    char *tp = *rel ? eng_asprintf("%s/%s/task.json", root, rel)
                    : eng_asprintf("%s/task.json", root);
    if (!sp || !tp) {
        free(sp);
        free(tp);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    bl_json_flat s, t;
    memset(&t, 0, sizeof t);
    int rc = bl_json_flat_read(sp, &s, d);
    bool has_task = rc == ENG_OK && file_exists(tp);
    if (has_task)
        rc = bl_json_flat_read(tp, &t, d);
    if (rc == ENG_OK) {
        const char *policy = bl_json_flat_get(&s, "manifest.policy");
        /* Without task.json: the variant from the manifest's policy and
         * options, in file order. */
        char variant[1024];
        snprintf(variant, sizeof variant, "%s", policy ? policy : "");
        for (size_t i = 0; i < s.n; i++)
            if (strncmp(s.keys[i], "manifest.policy_options.", 24) == 0) {
                size_t used = strlen(variant);
                snprintf(variant + used, sizeof variant - used, ":%s=%s", s.keys[i] + 24,
                         s.values[i]);
            }
        const char *seed = bl_json_flat_get(&s, "manifest.seed");
        const char *wpath = bl_json_flat_get(&s, "manifest.inputs.workload.path");
        bl_csv_cell(f, *rel ? rel : ".");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "workload")
                       : wpath  ? eng_basename(wpath)
                                : "");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "load") : "");
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "policy") : policy);
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "variant") : variant);
        fputc(',', f);
        bl_csv_cell(f, has_task ? bl_json_flat_get(&t, "seed") : seed);
        for (size_t c = 0; c < N_OPTS(merge_cols); c++) {
            fputc(',', f);
            bl_csv_cell(f, num_cell(bl_json_flat_get(&s, merge_cols[c].key)));
        }
        fputc('\n', f);
        if (ferror(f))
            rc = eng_diag_set(d, ENG_IO, "cannot write the CSV");
    }
    bl_json_flat_fini(&s);
    bl_json_flat_fini(&t);
    free(sp);
    free(tp);
    return rc;
}

static int cmd_merge(int argc, char **argv)
{
    static const bl_opt merge_opts[] = {
        {"output", 'o', BL_VALUE, "CSV", "CSV file to write (required)"},
    };
    const char *dir = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep merge", merge_opts, N_OPTS(merge_opts), argc, argv,
                           dir ? 3 : 2, &a);
    if (rc)
        return rc;
    if (a.help) {
        printf("usage: batchlab sweep merge DIR -o CSV\n\n"
               "Gathers every summary.json under DIR into one CSV, a row per run in the byte\n"
               "order of its folder: run,workload,load,policy,variant,seed (from the run's\n"
               "task.json; else policy, options and seed from its manifest), then");
        for (size_t c = 0; c < N_OPTS(merge_cols); c++)
            printf("%s%s", c % 6 == 0 ? "\n" : " ", merge_cols[c].column);
        printf("\n(empty where a summary lacks the value). Written atomically.\n");
        bl_args_fini(&a);
        return 0;
    }
    const char *csv = bl_args_value(&a, "output", NULL);
    if (!dir || !csv) {
        fprintf(stderr, "batchlab sweep merge: expected DIR -o CSV (see batchlab sweep merge "
                        "--help)\n");
        bl_args_fini(&a);
        return 2;
    }
    char **runs = NULL;
    size_t n = 0, cap = 0;
    eng_diag d;
    eng_diag_clear(&d);
    rc = find_runs(dir, "", &runs, &n, &cap, &d);
    if (rc == ENG_OK && n == 0)
        rc = eng_diag_set(&d, ENG_PARSE, "%s: expected at least one summary.json below it", dir);
    eng_afile f = {0};
    if (rc == ENG_OK) {
        qsort(runs, n, sizeof *runs, cmp_str);
        rc = eng_afile_open(&f, csv, &d);
    }
    if (rc == ENG_OK) {
        fputs("run,workload,load,policy,variant,seed", f.f);
        for (size_t c = 0; c < N_OPTS(merge_cols); c++)
            fprintf(f.f, ",%s", merge_cols[c].column);
        fputc('\n', f.f);
        for (size_t i = 0; i < n && rc == ENG_OK; i++)
            rc = merge_one(f.f, dir, runs[i], &d);
        if (rc == ENG_OK)
            rc = eng_afile_commit(&f, &d);
        else
            eng_afile_abort(&f);
    }
    if (rc == ENG_OK)
        printf("%s: %zu runs\n", csv, n);
    else
        fprintf(stderr, "batchlab sweep merge: %s\n", d.msg);
    for (size_t i = 0; i < n; i++)
        free(runs[i]);
    free(runs);
    bl_args_fini(&a);
    return rc == ENG_OK ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */

static void sweep_usage(FILE *f)
{
    fprintf(f,
            "usage: batchlab sweep expand GRID --out DIR [-o TASKS]   grid -> task list\n"
            "       batchlab sweep task --out RUN ...                 one run (a task line)\n"
            "       batchlab sweep pending TASKS                      unfinished task lines\n"
            "       batchlab sweep slurm TASKS -o SCRIPT [options]    Slurm job array\n"
            "       batchlab sweep merge DIR -o CSV                   summary.json files -> CSV\n"
            "\n"
            "A sweep runs a grid of replays (workloads x loads x policies x options x seeds):\n"
            "expand writes one shell line per run; GNU parallel (bench/sweep) or a Slurm job\n"
            "array runs them; finished runs (summary.json present) are skipped; merge gathers\n"
            "the results. batchlab sweep SUBCOMMAND --help for details.\n");
}

int bl_cmd_sweep(int argc, char **argv)
{
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (!sub) {
        sweep_usage(stderr);
        return 2;
    }
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        sweep_usage(stdout);
        return 0;
    }
    if (strcmp(sub, "expand") == 0)
        return cmd_expand(argc, argv);
    if (strcmp(sub, "task") == 0)
        return cmd_task(argc, argv);
    if (strcmp(sub, "pending") == 0)
        return cmd_pending(argc, argv);
    if (strcmp(sub, "slurm") == 0)
        return cmd_slurm(argc, argv);
    if (strcmp(sub, "merge") == 0)
        return cmd_merge(argc, argv);
    fprintf(stderr, "batchlab sweep: unknown subcommand '%s': expected expand, task, pending, "
                    "slurm or merge\n",
            sub);
    return 2;
}
