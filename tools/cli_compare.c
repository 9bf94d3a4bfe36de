/* cli_compare.c — `batchlab compare`: the same replay under several
 * policies, side by side. The workload and the files the options name are
 * read once (bl_run_inputs); each policy is one bl_run_one (cli_run.h),
 * with its own output folder under --out (bl_policy_folder). A spec given
 * twice, or two whose folders would share a name, is a usage error before
 * anything runs; a stop signal ends the command after the policies that
 * finished, whose folders are complete. With two policies or more, each
 * after the first is compared with the first job by job (eng_paired.h):
 * a table, and DIR/paired.json with --out DIR.
 */
#include "cli.h"
#include "cli_run.h"

#include "eng_json.h"
#include "eng_paired.h"
#include "eng_util.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const bl_opt compare_opts[] = {
    BL_RUN_OPTS{"policies", 'P', BL_VALUE, "LIST",
                "comma-separated policies, each NAME or NAME:key=value:..., NAME a registered "
                "policy or a policy library's PATH.so (default fcfs,easy,conservative)"},
    {"tolerance", 0, BL_VALUE, "S",
     "paired comparison: a job's wait differs when by more than S seconds (default 60)"},
};

/* One output folder per policy: OUT/ and the spec's folder name. */
static char *policy_dir(const char *out, const char *label)
{
    char *name = bl_policy_folder(label);
    char *dir = name ? eng_asprintf("%s/%s", out, name) : NULL;
    free(name);
    return dir;
}

/* The same policy with the same options, in whatever order they were
 * given (a key appears at most once: pol_check_options). */
static bool same_spec(const bl_policy_spec *a, const bl_policy_spec *b)
{
    if (a->type != b->type || a->n_kv != b->n_kv)
        return false;
    for (size_t i = 0; i < a->n_kv; i++) {
        bool found = false;
        for (size_t j = 0; j < b->n_kv && !found; j++)
            found = strcmp(a->kv[i].key, b->kv[j].key) == 0 &&
                    strcmp(a->kv[i].value, b->kv[j].value) == 0;
        if (!found)
            return false;
    }
    return true;
}

/* Each policy spec runs once: one given twice would only repeat a column
 * (and with --out overwrite its own folder), and two distinct specs may
 * not share a folder name (bl_policy_folder maps ' ' and '/' to '_'). 0, or 2
 * after the message. O(n^2) in the specs, which are few. */
static int check_distinct_specs(const char *const *labels, const bl_policy_spec *specs, size_t n,
                                const char *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++) {
            if (same_spec(&specs[i], &specs[j])) {
                if (strcmp(labels[i], labels[j]) == 0)
                    fprintf(stderr,
                            "batchlab compare: --policies: '%s' is given twice (policy %s with "
                            "the same options); give each policy spec once\n",
                            labels[i], specs[i].type->name);
                else
                    fprintf(stderr,
                            "batchlab compare: --policies: '%s' and '%s' are the same (policy "
                            "%s with the same options); give each policy spec once\n",
                            labels[j], labels[i], specs[i].type->name);
                return 2;
            }
            if (!out)
                continue;
            char *a = policy_dir(out, labels[i]), *b = policy_dir(out, labels[j]);
            bool clash = a && b && strcmp(a, b) == 0;
            if (clash)
                fprintf(stderr,
                        "batchlab compare: --policies: '%s' and '%s' would both write their "
                        "outputs into the folder %s (' ' and '/' in a spec become '_', ':' "
                        "becomes '+'); write them with two compare commands\n",
                        labels[j], labels[i], a);
            free(a);
            free(b);
            if (clash)
                return 2;
        }
    return 0;
}

static void print_compare(const char *const *labels, const eng_run_report *r, size_t n,
                          const bl_run_config *c)
{
    printf("batchlab compare: %s on %s (%zu host%s, %s allocation), walltime %s\n", c->workload,
           c->platform, r[0].n_platform_hosts, bl_s(r[0].n_platform_hosts),
           bl_run_choice_name("alloc", c->alloc), bl_run_choice_name("walltime", c->walltime));
    printf("  %zu job%s read, %zu simulated; ", r[0].summary.n_input, bl_s(r[0].summary.n_input),
           r[0].summary.n_simulated);
    bl_print_drops(stdout, &r[0].summary, "dropped ");
    struct {
        const char *name;
        int decimals;
        size_t off;
        bool count;
    } rows[] = {
        {"killed at walltime", 0, offsetof(eng_summary, n_killed), true},
        {"mean wait (s)", 1, offsetof(eng_summary, wait_mean_s), false},
        {"median wait (s)", 1, offsetof(eng_summary, wait_median_s), false},
        {"p95 wait (s)", 1, offsetof(eng_summary, wait_p95_s), false},
        {"max wait (s)", 0, offsetof(eng_summary, wait_max_s), false},
        {"mean response (s)", 1, offsetof(eng_summary, response_mean_s), false},
        {"mean slowdown", 3, offsetof(eng_summary, slowdown_mean), false},
        {"mean bounded slowdown", 3, offsetof(eng_summary, bsld_mean), false},
        {"utilization", 4, offsetof(eng_summary, utilization), false},
        {"makespan (s)", 0, offsetof(eng_summary, makespan_s), false},
        {"mean queue length", 2, offsetof(eng_summary, queue_mean), false},
        {"max queue length", 0, offsetof(eng_summary, queue_max), false},
        {"initialization share", 4, offsetof(eng_summary, init_share), false},
        {"total cost", 2, offsetof(eng_summary, cost), false},
        {"failed jobs", 0, offsetof(eng_summary, n_failed), true},
        {"requeued after failures", 0, offsetof(eng_summary, n_requeues), true},
        {"wasted node-seconds", 0, offsetof(eng_summary, wasted_node_s), false},
        /* agreement with the log's own schedule (eng_log_agreement) */
        {"log: jobs compared", 0, offsetof(eng_summary, log.jobs), true},
        {"log: mean wait logged (s)", 1, offsetof(eng_summary, log.wait_mean_log_s), false},
        {"log: mean wait sim. (s)", 1, offsetof(eng_summary, log.wait_mean_sim_s), false},
        {"log: mean |wait diff| (s)", 1, offsetof(eng_summary, log.wait_mae_s), false},
        {"log: wait Spearman", 3, offsetof(eng_summary, log.wait_spearman), false},
    };
    bool any_init = false, any_cost = false, any_log = false;
    for (size_t i = 0; i < n; i++) {
        any_init = any_init || r[i].summary.init_total_s > 0;
        any_cost = any_cost || r[i].summary.cost > 0;
        any_log = any_log || r[i].summary.log.jobs > 0;
    }
    /* columns as wide as the widest label or value, two spaces apart */
    int width = 14;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            printf("\n%-26s", "");
            for (size_t i = 0; i < n; i++)
                printf("%*s", width, labels[i]);
            printf("\n");
        }
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
            bool failure_row = rows[k].off == offsetof(eng_summary, n_failed) ||
                               rows[k].off == offsetof(eng_summary, n_requeues) ||
                               rows[k].off == offsetof(eng_summary, wasted_node_s);
            if ((rows[k].off == offsetof(eng_summary, init_share) && !any_init) ||
                (rows[k].off == offsetof(eng_summary, cost) && !any_cost) ||
                (failure_row && !c->failures && !c->failure_trace) ||
                (rows[k].off >= offsetof(eng_summary, log) &&
                 rows[k].off < offsetof(eng_summary, log) + sizeof(eng_log_agreement) && !any_log))
                continue;
            if (pass == 1)
                printf("%-26s", rows[k].name);
            for (size_t i = 0; i < n; i++) {
                const char *base = (const char *)&r[i].summary;
                double v = rows[k].count ? (double)*(const size_t *)(base + rows[k].off)
                                         : *(const double *)(base + rows[k].off);
                char buf[64];
                if (isfinite(v))
                    bl_fmt_grouped(buf, sizeof buf, v, rows[k].decimals);
                else
                    snprintf(buf, sizeof buf, "n/a");
                if (pass == 0 && (int)strlen(buf) + 2 > width)
                    width = (int)strlen(buf) + 2;
                if (pass == 0 && (int)strlen(labels[i]) + 2 > width)
                    width = (int)strlen(labels[i]) + 2;
                if (pass == 1)
                    printf("%*s", width, buf);
            }
            if (pass == 1)
                printf("\n");
        }
    }
    printf("%-26s", "simulation wall time (s)");
    for (size_t i = 0; i < n; i++)
        printf("%*.2f", width, r[i].wall_s);
    printf("\n%-26s", "peak memory (MB)");
    for (size_t i = 0; i < n; i++)
        printf("%*.1f", width, (double)r[i].peak_rss_kb / 1024.0);
    printf("\n");
}

/* The paired comparison of every policy after the first with the first:
 * its table on stdout, and paired.json under out. 0, or 1 after the
 * message. */
static int paired(const char *const *labels, const eng_run_report *r, size_t n,
                  const bl_run_config *c, double tolerance_s)
{
    eng_paired_opts o = {.tolerance_s = tolerance_s,
                         .level = ENG_PAIRED_LEVEL,
                         .resamples = ENG_PAIRED_RESAMPLES,
                         .seed = c->seed};
    eng_paired *p = calloc(n, sizeof *p);
    int rc = p ? ENG_OK : ENG_NOMEM;
    for (size_t i = 1; i < n && rc == ENG_OK; i++)
        rc = eng_paired_reports(&r[0], &r[i], &o, &p[i]);
    if (rc != ENG_OK) {
        free(p);
        fprintf(stderr, "batchlab compare: out of memory\n");
        return 1;
    }
    char tol[64], res[64];
    printf("\npaired waits against %s (B - A per job, matched by job number; better or worse: by "
           "more than %s s;\n%g %% bootstrap interval of the mean, %s resamples, seed %llu)\n",
           labels[0], bl_fmt_grouped(tol, sizeof tol, tolerance_s, 0), 100 * o.level,
           bl_fmt_grouped(res, sizeof res, (double)o.resamples, 0), (unsigned long long)c->seed);
    printf("%-14s%8s%10s%14s%14s%8s%8s   %s\n", "B", "jobs", "left out", "mean (s)", "median (s)",
           "better", "worse", "interval of the mean (s)");
    for (size_t i = 1; i < n; i++) {
        char a[64], b[64], lo[64], hi[64];
        printf("%-14s%8zu%10zu%14s%14s%7.1f%%%7.1f%%   [%s, %s]\n", labels[i], p[i].jobs,
               p[i].left_out_a + p[i].left_out_b, bl_fmt_grouped(a, sizeof a, p[i].diff_mean_s, 1),
               bl_fmt_grouped(b, sizeof b, p[i].diff_median_s, 1), 100 * p[i].better_share,
               100 * p[i].worse_share, bl_fmt_grouped(lo, sizeof lo, p[i].ci_lo_s, 1),
               bl_fmt_grouped(hi, sizeof hi, p[i].ci_hi_s, 1));
    }
    if (c->out) {
        bool ok = true;
        json_t *root = eng_paired_json(labels[0], labels + 1, p + 1, n - 1, &o, &ok);
        char *path = eng_asprintf("%s/paired.json", c->out);
        eng_diag d;
        eng_diag_clear(&d);
        if (!ok || !path)
            rc = eng_diag_set(&d, ENG_NOMEM, "out of memory");
        else
            rc = eng_json_write(path, root, &d);
        if (rc != ENG_OK)
            fprintf(stderr, "batchlab compare: %s\n", d.msg);
        json_decref(root);
        free(path);
    }
    free(p);
    return rc == ENG_OK ? 0 : 1;
}

int bl_cmd_compare(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("compare", compare_opts, sizeof compare_opts / sizeof compare_opts[0],
                           argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("compare", "--platform FILE --workload FILE [--policies a,b,c] [options]",
                      "Replays the same workload on the same platform under several policies "
                      "and prints\nthe results side by side, then each policy after the first "
                      "against the first, job by\njob (paired waits, a bootstrap interval). "
                      "With --out DIR each policy writes its\nfiles into DIR/POLICY, and the "
                      "paired comparison goes to DIR/paired.json.",
                      compare_opts, sizeof compare_opts / sizeof compare_opts[0]);
        bl_args_fini(&a);
        return 0;
    }
    bl_run_config cfg;
    bl_run_inputs in;
    rc = bl_run_parse("compare", &a, &cfg, &in);
    double tolerance_s = ENG_PAIRED_TOLERANCE_S;
    const char *tol = bl_args_value(&a, "tolerance", NULL);
    if (rc == 0 && tol &&
        (bl_args_double("compare", "tolerance", tol, &tolerance_s) || tolerance_s < 0)) {
        if (tolerance_s < 0)
            fprintf(stderr, "batchlab compare: --tolerance: expected seconds >= 0, got '%s'\n",
                    tol);
        rc = 2;
    }
    char *list = eng_strdup(bl_args_value(&a, "policies", "fcfs,easy,conservative"));
    size_t n = 0;
    char **labels = NULL;
    bl_policy_spec *specs = NULL;
    eng_run_report *reps = NULL;
    if (rc == 0 && !list) {
        fprintf(stderr, "batchlab compare: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        size_t cap = 1;
        for (char *p = list; *p; p++)
            cap += *p == ',';
        labels = calloc(cap, sizeof *labels);
        specs = calloc(cap, sizeof *specs);
        reps = calloc(cap, sizeof *reps);
        if (!labels || !specs || !reps) {
            fprintf(stderr, "batchlab compare: out of memory\n");
            rc = 1;
        }
        size_t len = strlen(list);
        if (rc == 0 && (len == 0 || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,"))) {
            fprintf(stderr,
                    "batchlab compare: --policies: expected policy names separated by "
                    "single commas, got an empty name in '%s'\n",
                    list);
            rc = 2;
        }
        for (char *tok = strtok(list, ","); tok && rc == 0; tok = strtok(NULL, ","))
            labels[n++] = tok;
        if (n == 0 && rc == 0) {
            fprintf(stderr, "batchlab compare: --policies: expected at least one policy\n");
            rc = 2;
        }
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = bl_policy_spec_parse("compare", labels[i], NULL, 0, &specs[i]);
        if (rc == 0)
            rc = check_distinct_specs((const char *const *)labels, specs, n, cfg.out);
    }
    if (rc == 0)
        rc = bl_run_inputs_workload(&cfg, &in);
    if (rc == 0 && !(in.command = bl_command_line(argc, (const char *const *)argv))) {
        fprintf(stderr, "batchlab compare: out of memory\n");
        rc = 1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        char *dir = cfg.out ? policy_dir(cfg.out, labels[i]) : NULL;
        if (cfg.out && !dir) {
            fprintf(stderr, "batchlab compare: out of memory\n");
            rc = 1;
            break;
        }
        if (!cfg.quiet && isatty(STDERR_FILENO))
            fprintf(stderr, "batchlab compare: running %s (%zu of %zu)...\n", labels[i], i + 1, n);
        rc = bl_run_one(&cfg, &in, &specs[i], dir, true, n > 1, &reps[i]);
        if (rc > 128) {
            if (i > 0 && cfg.out)
                fprintf(stderr,
                        "batchlab compare: the %zu polic%s before %s finished; %s in %s %s "
                        "complete\n",
                        i, i == 1 ? "y" : "ies", labels[i], i == 1 ? "its folder" : "their folders",
                        cfg.out, i == 1 ? "is" : "are");
        }
        free(dir);
    }
    if (rc == 0)
        print_compare((const char *const *)labels, reps, n, &cfg);
    if (rc == 0 && n > 1)
        rc = paired((const char *const *)labels, reps, n, &cfg, tolerance_s);
    for (size_t i = 0; i < n; i++) {
        eng_run_report_fini(&reps[i]);
        bl_policy_spec_fini(&specs[i]);
    }
    free(reps);
    free(specs);
    free(labels);
    free(list);
    bl_run_inputs_fini(&in);
    bl_args_fini(&a);
    return rc;
}
