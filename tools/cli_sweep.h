/* cli_sweep.h — sweeps: a declared grid of runs (workloads x load levels x
 * policies x policy options x seeds) expanded into a task list, one shell
 * line per run, that GNU parallel or a Slurm job array runs unchanged; and
 * the merge of every run's summary.json into one CSV. The grid format and
 * the task line are described at the top of cli_sweep.c and in
 * bench/README.md.
 *
 * Ownership: every structure here owns its strings; free with its _fini.
 * Errors: functions return 0 (ENG_OK) or a negative eng_error code and fill
 * the eng_diag with "FILE:LINE: expected ..." for bad input.
 */
#ifndef BL_CLI_SWEEP_H
#define BL_CLI_SWEEP_H

#include "eng_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- the grid ---------------------------------------------------------- */

typedef struct bl_grid_workload {
    char *name;           /* [A-Za-z0-9._-]+ */
    char *path;           /* absolute path of an SWF log, or NULL for a stand-in */
    char *standin;        /* "forhlr2", or NULL for a log */
    unsigned long long standin_jobs;
    int line;
} bl_grid_workload;

typedef struct bl_grid_option {
    char *policy; /* a name of bl_grid.policies */
    char *key;
    char **values;
    size_t n_values;
    int line;
} bl_grid_option;

typedef struct bl_grid {
    char *path;     /* the grid file as given */
    char *platform; /* absolute */
    bl_grid_workload *workloads;
    size_t n_workloads;
    double *loads;  /* target loads; 0 stands for "log" (as logged, no rescaling) */
    size_t n_loads;
    char **policies;
    size_t n_policies;
    bl_grid_option *options; /* in file order */
    size_t n_options;
    unsigned long long *seeds; /* in file order, no duplicates */
    size_t n_seeds;
    char *outputs;            /* --outputs LIST of every run, default "summary" */
    char **run_args;          /* extra `batchlab run` arguments */
    size_t n_run_args;
    long long machine_nodes;  /* for the load computation; 0: from the platform */
    long long machine_cores;
    bool keep_inputs;
    int policies_line;
} bl_grid;

/* Reads a grid file. Relative paths in it are relative to its folder.
 * ENG_PARSE/ENG_IO with "FILE:LINE: ..." on bad input; g is then empty. */
int bl_grid_parse(const char *path, bl_grid *g, eng_diag *d);
void bl_grid_fini(bl_grid *g);

/* One run of the grid. */
typedef struct bl_task {
    char *name;    /* WORKLOAD/load-L/VARIANT/seed-S, a relative folder */
    char *variant; /* policy spec: "easy" or "easy:backfill_order=sjf" */
    size_t workload, load; /* indices into the grid */
    unsigned long long seed;
} bl_task;

/* Expands the grid in the order workload, load, policy variant, seed (the
 * last varies fastest). The variants of a policy are the product of its
 * options' values, keys in file order. Checks every variant with the
 * registry's option check (unknown or repeated keys: ENG_PARSE naming the
 * option's line), and each value by the policy's own init on a one-host
 * pool, alone (a bad value: ENG_PARSE naming its line; a combination of
 * values is checked when a run starts). */
int bl_grid_expand(const bl_grid *g, bl_task **tasks, size_t *n, eng_diag *d);
void bl_tasks_free(bl_task *tasks, size_t n);

/* The folder name of a variant: ':' becomes '+' ("easy+backfill_order=sjf"),
 * as `batchlab compare` names its folders. Heap string. */
char *bl_variant_dir(const char *variant);

/* ---- task lines --------------------------------------------------------- */

/* Splits a shell line into words: unquoted text, '...' and "..." (with \"
 * \\ \$ \` escapes) and backslash escapes, as the shell does, without
 * expansions. Returns the number of words (heap array, heap strings), or -1
 * on an unterminated quote. */
long bl_shell_split(const char *line, char ***words);
void bl_words_free(char **words, long n);

/* Appends word to buf quoted for a POSIX shell (bare when it holds only
 * [A-Za-z0-9_./:=+,%@-]). Returns false when buf is too small. */
bool bl_shell_quote(char *buf, size_t len, const char *word);

/* The output folder a task line writes (the value of its --out), heap
 * string, or NULL when the line has none. */
char *bl_task_out_dir(const char *line);

/* ---- the flat JSON reader used by the merge ----------------------------- */

/* Every scalar of a JSON object under its dotted path ("metrics.wait_mean_s",
 * "platform.pools.0.label"), parsed by Jansson: strings unescaped (a
 * "\u0000" inside one is an error, not a silent truncation), integers in
 * decimal, other numbers in the shortest form that reads back the same
 * double (eng_fmt_double: the form batchlab writes them in), true, false
 * and null as words. Duplicate keys, -inf, nan and anything else that is
 * not JSON are errors naming "PATH:LINE:COLUMN". */
typedef struct bl_json_flat {
    char **keys;
    char **values;
    bool *is_string;
    size_t n;
} bl_json_flat;

int bl_json_flat_read(const char *path, bl_json_flat *j, eng_diag *d);
/* Parses text (named path in messages). */
int bl_json_flat_parse(const char *path, const char *text, bl_json_flat *j, eng_diag *d);
const char *bl_json_flat_get(const bl_json_flat *j, const char *key);
void bl_json_flat_fini(bl_json_flat *j);

/* Writes v as one CSV cell (RFC 4180: quoted when it holds a comma, a quote
 * or a line end, quotes doubled); nothing for NULL. */
void bl_csv_cell(FILE *f, const char *v);

/* `batchlab sweep ...` (registered in cli_main.c). */
int bl_cmd_sweep(int argc, char **argv);

#endif
