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
    const char *checked[][2] = {{"job-name", name},
                                {"time", time_s},
                                {"mem", mem},
                                {"partition", partition},
                                {"account", account}};
    for (size_t i = 0; i < 5; i++)
        if (checked[i][1] && !directive_ok(checked[i][1])) {
            fprintf(stderr,
                    "batchlab sweep slurm: --%s: expected letters, digits and _.:-+@%%/, "
                    "got '%s'\n",
                    checked[i][0], checked[i][1]);
            goto done;
        }
    rc = 1;
    if (bl_sweep_read_lines(tasks_path, &lines, &n, &d) != ENG_OK) {
        fprintf(stderr, "batchlab sweep slurm: %s\n", d.msg);
        goto done;
    }
    if (n == 0) {
        fprintf(stderr, "batchlab sweep slurm: %s: expected at least one task line\n", tasks_path);
        goto done;
    }
    abs_tasks = realpath(tasks_path, NULL);
    const char *logs_opt = bl_args_value(&a, "logs", NULL);
    if (logs_opt) {
        logs = bl_sweep_absolute(logs_opt);
    } else {
        char *abs_script = bl_sweep_absolute(script);
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
