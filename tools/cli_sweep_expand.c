/* cli_sweep_expand.c — `batchlab sweep expand GRID --out DIR`: the grid
 * expanded into a task list, one shell line per run (see cli_sweep.c).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_sweep.h"

#include "cli_args.h"

#include "eng_run.h"
#include "eng_standin.h"
#include "eng_util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
            rc = eng_diag_set(d, ENG_RANGE, "%s: task %zu is longer than %zu characters", g->path,
                              i + 1, cap);
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
        *nodes = ENG_FORHLR2_NODES;
        *cores = ENG_FORHLR2_CORES_PER_NODE;
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

int bl_sweep_expand(int argc, char **argv)
{
    const char *grid_path = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep expand", expand_opts, BL_N_OPTS(expand_opts), argc, argv,
                           grid_path ? 3 : 2, &a);
    if (rc)
        return rc;
    const char *synopsis = "GRID --out DIR [-o TASKS] [--batchlab EXE]";
    if (a.help) {
        bl_args_usage("sweep expand", synopsis,
                      "Expands a grid file into a task list: one shell line per run, each\n"
                      "writing DIR/runs/WORKLOAD/load-L/VARIANT/seed-S. The grid format is\n"
                      "described in bench/README.md (section Sweeps).",
                      expand_opts, BL_N_OPTS(expand_opts));
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
        exe = e ? bl_sweep_absolute(e) : self_exe();
        if (!runs || !tasks || !exe)
            rc = eng_diag_set(&d, ENG_NOMEM, "%s: cannot resolve the folder", dir);
    }
    if (rc == ENG_OK)
        rc = write_tasks(&g, t, n, exe, runs, tasks, nodes, cores, &d);
    if (rc == ENG_OK) {
        size_t nv = n / (g.n_workloads * g.n_loads * g.n_seeds);
        printf("%s: %zu run%s = %zu workload%s x %zu load%s x %zu polic%s x %zu seed%s, into "
               "%s\n",
               tasks, n, bl_s(n), g.n_workloads, g.n_workloads == 1 ? "" : "s", g.n_loads,
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
