/* cli_sweep.h — sweeps: a declared grid of runs (workloads x load levels x
 * policies x policy options x seeds) expanded into a task list, one shell
 * line per run, that GNU parallel or a Slurm job array runs unchanged; and
 * the merge of every run's summary.json into one CSV. The grid format and
 * the task line are described at the top of cli_sweep.c and in
 * bench/README.md. This header is shared by the sweep's files (one per
 * subcommand, dispatched by cli_sweep.c; the grid in cli_sweep_grid.c; the
 * shared helpers in cli_sweep_util.c); the JSON reader is cli_json.h.
 *
 * Ownership: every structure here owns its strings; free with its _fini.
 * Errors: functions return 0 (ENG_OK) or a negative eng_error code and fill
 * the eng_diag with "FILE:LINE: expected ..." for bad input.
 */
#ifndef BL_CLI_SWEEP_H
#define BL_CLI_SWEEP_H

#include "eng_error.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- the grid ---------------------------------------------------------- */

typedef struct bl_grid_workload {
    char *name;    /* [A-Za-z0-9._-]+ */
    char *path;    /* absolute path of an SWF log, or NULL for a stand-in */
    char *standin; /* "forhlr2", or NULL for a log */
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
    double *loads; /* target loads; 0 stands for "log" (as logged, no rescaling) */
    size_t n_loads;
    char **policies;
    size_t n_policies;
    bl_grid_option *options; /* in file order */
    size_t n_options;
    unsigned long long *seeds; /* in file order, no duplicates */
    size_t n_seeds;
    char *outputs;   /* --outputs LIST of every run, default "summary" */
    char **run_args; /* extra `batchlab run` arguments */
    size_t n_run_args;
    long long machine_nodes; /* for the load computation; 0: from the platform */
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
    char *name;            /* WORKLOAD/load-L/VARIANT/seed-S, a relative folder */
    char *variant;         /* policy spec: "easy" or "easy:backfill_order=sjf" */
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

/* ---- task lines (cli_sweep_util.c) -------------------------------------- */

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

/* ---- shared by the subcommands (cli_sweep_util.c) ---------------------- */

/* Seeds are 32-bit (GSL's seeding of the generators takes an unsigned
 * long, and the task lines must read back the same number everywhere). */
#define BL_SWEEP_SEED_MAX 4294967295ULL

bool bl_sweep_file_exists(const char *path);
/* The absolute form of a path that may not exist yet (no normalisation);
 * heap string, NULL when the working folder cannot be read. */
char *bl_sweep_absolute(const char *path);
/* A load as run folders name it: its shortest decimal, "log" for 0. */
void bl_sweep_load_text(char *buf, size_t len, double load);
/* Reads the lines of a task list (without their newlines); heap array of
 * heap strings. ENG_IO naming the file, or ENG_NOMEM. */
int bl_sweep_read_lines(const char *path, char ***lines, size_t *n, eng_diag *d);

/* The paired comparison of the runs rels[0..n) under dir
 * (cli_sweep_paired.c): a new JSON array for results.json's "paired",
 * empty when no two variants share a configuration and a seed. baseline
 * NULL: each configuration's first variant. */
int bl_sweep_paired(const char *dir, char *const *rels, size_t n, const char *baseline,
                    double tolerance_s, json_t **out, eng_diag *d);

/* The subcommands, each given the whole `sweep` argument vector (argv[0]
 * "sweep", argv[1] the subcommand); they return the exit status. */
int bl_sweep_expand(int argc, char **argv);
int bl_sweep_task(int argc, char **argv);
int bl_sweep_pending(int argc, char **argv);
int bl_sweep_slurm(int argc, char **argv);
int bl_sweep_merge(int argc, char **argv);

/* `batchlab sweep ...` (registered in cli_main.c). */
int bl_cmd_sweep(int argc, char **argv);

#endif
