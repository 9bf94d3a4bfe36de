/* cli_sweep_slurm.c — `batchlab sweep slurm TASKS -o SCRIPT`: a Slurm job
 * array running the task list, refusing a task list changed since (its
 * SHA-256 is checked; see cli_sweep.c).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "cli_sweep.h"

#include "cli_args.h"

#include "eng_sha256.h"
#include "eng_util.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* The options of one `sweep slurm`, checked. */
typedef struct slurm_req {
    const char *tasks_path, *script, *name, *time_s, *mem, *partition, *account, *logs;
    bool limit_running;
    unsigned long long running, max_array;
} slurm_req;

/* The options and their values (directives go to the script verbatim).
 * 0, or 2 after the message. */
static int slurm_parse(const bl_args *a, const char *tasks_path, slurm_req *q)
{
    memset(q, 0, sizeof *q);
    q->tasks_path = tasks_path;
    q->script = bl_args_value(a, "output", NULL);
    q->name = bl_args_value(a, "job-name", "batchlab-sweep");
    q->time_s = bl_args_value(a, "time", "01:00:00");
    q->mem = bl_args_value(a, "mem", "2G");
    q->partition = bl_args_value(a, "partition", NULL);
    q->account = bl_args_value(a, "account", NULL);
    q->logs = bl_args_value(a, "logs", NULL);
    const char *running_s = bl_args_value(a, "max-running", NULL);
    const char *max_s = bl_args_value(a, "max-array", "1000");
    q->limit_running = running_s != NULL;
    if (!tasks_path || !q->script) {
        fprintf(stderr, "batchlab sweep slurm: expected TASKS -o SCRIPT (see batchlab sweep "
                        "slurm --help)\n");
        return 2;
    }
    if (bl_args_u64("sweep slurm", "max-array", max_s, &q->max_array) ||
        (running_s && bl_args_u64("sweep slurm", "max-running", running_s, &q->running)))
        return 2;
    if (q->max_array < 1 || (running_s && q->running < 1)) {
        fprintf(stderr, "batchlab sweep slurm: --max-array and --max-running: expected at "
                        "least 1\n");
        return 2;
    }
    const char *checked[][2] = {{"job-name", q->name},
                                {"time", q->time_s},
                                {"mem", q->mem},
                                {"partition", q->partition},
                                {"account", q->account}};
    for (size_t i = 0; i < 5; i++)
        if (checked[i][1] && !directive_ok(checked[i][1])) {
            fprintf(stderr,
                    "batchlab sweep slurm: --%s: expected letters, digits and _.:-+@%%/, "
                    "got '%s'\n",
                    checked[i][0], checked[i][1]);
            return 2;
        }
    return 0;
}

/* The task list's absolute path and the elements' log folder (--logs, or
 * SCRIPT's folder/logs), made here: sbatch does not create it. 0, or 1
 * after the message. */
static int slurm_paths(const slurm_req *q, char **abs_tasks, char **logs, eng_diag *d)
{
    *abs_tasks = realpath(q->tasks_path, NULL);
    if (q->logs) {
        *logs = bl_sweep_absolute(q->logs);
    } else {
        char *abs_script = bl_sweep_absolute(q->script);
        char *slash = abs_script ? strrchr(abs_script, '/') : NULL;
        if (slash)
            *slash = '\0';
        *logs = abs_script ? eng_asprintf("%s/logs", abs_script) : NULL;
        free(abs_script);
    }
    if (!*abs_tasks || !*logs) {
        fprintf(stderr, "batchlab sweep slurm: %s: cannot resolve the path\n", q->tasks_path);
        return 1;
    }
    if (eng_mkdir_p(*logs, d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d->msg);
        return 1;
    }
    return 0;
}

/* The job script: directives, then the check of the task list's SHA-256
 * and the loop over the element's lines. */
static void slurm_script(FILE *f, const slurm_req *q, size_t n, size_t per, size_t elements,
                         const char *abs_tasks, const char *logs, const char *digest)
{
    char q_tasks[PATH_MAX * 4 + 8] = "";
    bl_shell_quote(q_tasks, sizeof q_tasks, abs_tasks);
    fprintf(f,
            "#!/bin/bash\n"
            "# Slurm job array written by batchlab sweep slurm: element i runs lines\n"
            "# (i-1)*%zu+1 .. i*%zu of the task list (%zu line%s), one after another. Finished\n"
            "# runs (summary.json present) return at once, so resubmitting resumes the sweep.\n"
            "# Submit: sbatch %s\n",
            per, per, n, bl_s(n), q->script);
    fprintf(f, "#SBATCH --job-name=%s\n", q->name);
    fprintf(f, "#SBATCH --array=1-%zu", elements);
    if (q->limit_running)
        fprintf(f, "%%%llu", q->running);
    fprintf(f, "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n");
    fprintf(f, "#SBATCH --time=%s\n#SBATCH --mem=%s\n", q->time_s, q->mem);
    if (q->partition)
        fprintf(f, "#SBATCH --partition=%s\n", q->partition);
    if (q->account)
        fprintf(f, "#SBATCH --account=%s\n", q->account);
    /* %x job name, %A array job id, %a element. Paths with blanks cannot
     * be quoted in a directive. */
    if (!strpbrk(logs, " \t'\"\\"))
        fprintf(f, "#SBATCH --output=%s/%%x-%%A_%%a.out\n", logs);
    fprintf(f,
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
}

/* Reads the task list, then writes the script atomically and makes it
 * executable. 0, or 1 after the message. */
static int slurm_write(const slurm_req *q, eng_diag *d)
{
    char **lines = NULL, *abs_tasks = NULL, *logs = NULL;
    size_t n = 0;
    int rc = 1;
    if (bl_sweep_read_lines(q->tasks_path, &lines, &n, d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d->msg);
        goto done;
    }
    if (n == 0) {
        fprintf(stderr, "batchlab sweep slurm: %s: expected at least one task line\n",
                q->tasks_path);
        goto done;
    }
    if (slurm_paths(q, &abs_tasks, &logs, d) != 0)
        goto done;
    /* The elements check the list by its digest: a list changed since (a
     * seed, an option) must not run under the old names. */
    char digest[65];
    if (eng_sha256_file(abs_tasks, digest, d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d->msg);
        goto done;
    }
    size_t per = (size_t)((n + q->max_array - 1) / q->max_array);
    size_t elements = (n + per - 1) / per;
    eng_afile f;
    if (eng_afile_open(&f, q->script, d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d->msg);
        goto done;
    }
    slurm_script(f.f, q, n, per, elements, abs_tasks, logs, digest);
    if (ferror(f.f)) {
        eng_afile_abort(&f);
        fprintf(stderr, "batchlab sweep slurm: %s: cannot write\n", q->script);
        goto done;
    }
    if (eng_afile_commit(&f, d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d->msg);
        goto done;
    }
    chmod(q->script, 0755);
    printf("%s: %zu task%s in an array of %zu element%s (%zu task%s each); submit with: sbatch "
           "%s\n",
           q->script, n, bl_s(n), elements, elements == 1 ? "" : "s", per, per == 1 ? "" : "s",
           q->script);
    rc = 0;
done:
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    free(abs_tasks);
    free(logs);
    return rc;
}

int bl_sweep_slurm(int argc, char **argv)
{
    const char *tasks_path = argc > 2 && argv[2][0] != '-' ? argv[2] : NULL;
    bl_args a;
    int rc = bl_args_parse("sweep slurm", slurm_opts, BL_N_OPTS(slurm_opts), argc, argv,
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
                      slurm_opts, BL_N_OPTS(slurm_opts));
        bl_args_fini(&a);
        return 0;
    }
    eng_diag d;
    eng_diag_clear(&d);
    slurm_req q;
    rc = slurm_parse(&a, tasks_path, &q);
    if (rc == 0)
        rc = slurm_write(&q, &d);
    bl_args_fini(&a);
    return rc;
}
