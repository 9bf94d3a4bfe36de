/* cli_info.c — `batchlab info`: what an SWF log holds before it is
 * simulated (header, jobs, time span, sizes, run times, estimate accuracy,
 * status mix, the jobs any replay drops) and, given a machine, its
 * computed load; given a platform, the jobs a replay there drops.
 */
#include "cli.h"
#include "cli_args.h"
#include "cli_run.h"

#include "eng_error.h"
#include "eng_lublin.h"
#include "eng_resv.h"
#include "eng_run.h"
#include "eng_scale.h"
#include "eng_swf.h"
#include "eng_wstats.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const bl_opt info_opts[] = {
    {"workload", 'w', BL_VALUE, "FILE", "SWF log, plain or .gz (required)"},
    {"platform", 'p', BL_VALUE, "FILE",
     "also: the jobs a replay on this platform drops, and the "
     "computed load on all its hosts"},
    {"nodes", 0, BL_VALUE, "P", "also: the computed load on P nodes"},
    {"cores-per-node", 0, BL_VALUE, "C",
     "with --nodes: a job of p processors takes ceil(p/C) "
     "nodes (default 1)"},
    {"lenient", 0, BL_FLAG, NULL, "skip and count malformed SWF lines instead of stopping"},
    {"outages", 0, BL_VALUE, "LOG",
     "instead: the stretches where LOG shows no job running while jobs waited, as a "
     "--reservations file (Flags=MAINT Nodes=ALL)"},
    {"reservations", 0, BL_VALUE, "FILE",
     "also: whether the log kept to a --reservations file (jobs that ran in its maintenance "
     "windows, or started in its limit windows over MaxTime), on the log's calendar"},
    {"min-gap", 0, BL_VALUE, "SECONDS",
     "with --outages: the shortest stretch listed (default 3600: an idle minute with a queue "
     "is a scheduler's cycle or the log's rounding, a maintenance is planned in hours)"},
};

/* The default of --min-gap: shorter idle stretches with jobs waiting come
 * from a scheduler's cycle, the log's rounding to seconds or minutes, or a
 * held job released; maintenance windows are planned in hours. */
#define OUTAGE_MIN_GAP_S 3600.0

/* `info --outages LOG [--min-gap S]`: the candidate outages, written as a
 * reservation file (eng_resv.h) on stdout. */
static int info_outages(const char *path, const char *gap_text, bool lenient)
{
    double gap = OUTAGE_MIN_GAP_S;
    if (gap_text && (bl_args_double("info", "min-gap", gap_text, &gap) || !(gap >= 0))) {
        if (gap < 0)
            fprintf(stderr, "batchlab info: --min-gap: expected seconds >= 0, got '%s'\n",
                    gap_text);
        return 2;
    }
    eng_workload *w = NULL;
    int rc = bl_read_workload("info", path, lenient, &w);
    if (rc)
        return rc;
    eng_outage *o = NULL;
    size_t n = 0, skipped = 0;
    if (eng_outages_find(w, gap, &o, &n, &skipped)) {
        fprintf(stderr, "batchlab info: out of memory\n");
        eng_workload_destroy(w);
        return 1;
    }
    size_t waiting = 0;
    double held = 0;
    for (size_t i = 0; i < n; i++) {
        waiting += o[i].waiting;
        held += o[i].end_s - o[i].start_s;
    }
    printf("# Candidate outages of %s: stretches of at least %g s in which the log shows\n"
           "# no job running while jobs were waiting (submitted and not yet started, by the\n"
           "# log's wait, field 3). Times are seconds from the trace's start.\n"
           "# %zu stretch%s, %.0f s in all, %zu job%s waiting in them in all; %zu job%s "
           "without a\n"
           "# submit, wait or run time left out. Each holds the whole machine: a file for\n"
           "# batchlab run --reservations.\n",
           path, gap, n, n == 1 ? "" : "es", held, waiting, bl_s(waiting), skipped, bl_s(skipped));
    for (size_t i = 0; i < n; i++)
        printf("# %zu job%s waiting\nReservationName=outage%zu StartTime=%.15g EndTime=%.15g "
               "Nodes=ALL Flags=MAINT\n",
               o[i].waiting, bl_s(o[i].waiting), i + 1, o[i].start_s, o[i].end_s);
    free(o);
    eng_workload_destroy(w);
    return 0;
}

/* `info --workload LOG --reservations FILE`: whether the log's own
 * schedule kept to the file, its repeats on the log's calendar. 0, or 1
 * after the message (a bad file). */
static int info_reservations(const eng_workload *w, const char *file)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_resvs r;
    eng_resv_obey o;
    int rc = eng_resvs_read(file, &r, &d);
    if (rc == ENG_OK)
        rc = eng_resvs_expand_on(&r, w, &d);
    if (rc == ENG_OK && eng_resvs_obeyed(&r, w, &o))
        rc = eng_diag_set(&d, ENG_NOMEM, "out of memory");
    if (rc) {
        fprintf(stderr, "batchlab info: %s\n", d.msg);
        eng_resvs_fini(&r);
        return 1;
    }
    char first_m[48] = "", first_o[48] = "";
    if (o.first_maint >= 0)
        snprintf(first_m, sizeof first_m, " (the first: job %lld)", (long long)o.first_maint);
    if (o.first_over >= 0)
        snprintf(first_o, sizeof first_o, " (the first: job %lld)", (long long)o.first_over);
    printf("  reservations       %s: %zu maintenance window%s, %zu limit window%s after the "
           "repeats\n"
           "                     of %zu job%s with a logged start, %zu ran in a maintenance "
           "window%s, %zu started in a limit window over its MaxTime%s\n",
           file, o.n_maint, bl_s(o.n_maint), r.n_lim, bl_s(r.n_lim), o.jobs, bl_s(o.jobs),
           o.in_maint, first_m, o.over_limit, first_o);
    eng_resvs_fini(&r);
    return 0;
}

/* info's machine: --platform FILE, or --nodes P [--cores-per-node C].
 * 0, or 2 after the message. */
static int info_machine(const bl_args *a, bool *have_nodes, unsigned long long *nodes,
                        unsigned long long *cpn)
{
    *have_nodes = bl_args_get(a, "nodes")->set;
    *nodes = 0;
    *cpn = 1;
    if (*have_nodes &&
        (bl_args_u64("info", "nodes", bl_args_value(a, "nodes", ""), nodes) ||
         bl_args_u64("info", "cores-per-node", bl_args_value(a, "cores-per-node", "1"), cpn)))
        return 2;
    if (*have_nodes && bl_args_value(a, "platform", NULL)) {
        fprintf(stderr, "batchlab info: give --platform or --nodes, not both\n");
        return 2;
    }
    if (*have_nodes && (*nodes < 1 || *cpn < 1)) {
        fprintf(stderr, "batchlab info: --nodes and --cores-per-node must be at least 1\n");
        return 2;
    }
    return 0;
}

/* The log's header and its counts of lines and jobs. A generated log
 * names its generator and options (ENG_GENERATOR_KEY) where its machine
 * would only say "synthetic, synthetic"; what `scale` (or a stand-in's or
 * a sweep task's load) did to it is in its "scale: " notes. */
static void info_header(const char *path, const eng_workload *w)
{
    const eng_swf_header *h = &w->hdr;
    printf("%s\n", path);
    bool generated = false;
    for (size_t i = 0; i < h->n_kv; i++)
        if (strcmp(h->kv[i].key, ENG_GENERATOR_KEY) == 0) {
            printf("  generator          %s\n", h->kv[i].value);
            generated = true;
        }
    bool synthetic = h->computer && h->installation && strcmp(h->computer, "synthetic") == 0 &&
                     strcmp(h->installation, "synthetic") == 0;
    if ((h->computer || h->installation) && !(generated && synthetic))
        printf("  machine            %s%s%s\n", h->computer ? h->computer : "",
               h->computer && h->installation ? ", " : "", h->installation ? h->installation : "");
    for (size_t i = 0; i < h->n_kv; i++)
        if (strcmp(h->kv[i].key, "Note") == 0 && strncmp(h->kv[i].value, "scale: ", 7) == 0)
            printf("  scale              %s\n", h->kv[i].value + 7);
    if (h->max_nodes >= 0 || h->max_procs >= 0)
        printf("  header size        MaxNodes %lld, MaxProcs %lld\n", (long long)h->max_nodes,
               (long long)h->max_procs);
    if (h->unix_start_time >= 0)
        printf("  log start          UnixStartTime %lld%s%s\n", (long long)h->unix_start_time,
               h->time_zone_string ? ", " : "", h->time_zone_string ? h->time_zone_string : "");
    printf("  jobs               %zu (%zu data line%s; %zu malformed skipped, %zu out of submit "
           "order, %zu partial-execution line%s, %zu repeated job number%s)\n",
           w->n_jobs, w->n_data_lines, bl_s(w->n_data_lines), w->n_malformed, w->n_reordered,
           w->n_part_lines, bl_s(w->n_part_lines), w->n_dup_ids, bl_s(w->n_dup_ids));
}

/* The jobs' statistics (eng_wstats). */
static void info_stats(const eng_wstats *ws, const eng_swf_header *h)
{
    printf("  submits            %.0f .. %.0f s (%.1f days)\n", ws->first_submit_s,
           ws->last_submit_s, (ws->last_submit_s - ws->first_submit_s) / 86400.0);
    if (ws->n_with_procs)
        printf("  processors         median %g, max %g; serial %.1f%%, power of two %.1f%% "
               "(field 5, else 8)\n",
               ws->procs_median, ws->procs_max,
               100.0 * (double)ws->n_serial / (double)ws->n_with_procs,
               100.0 * (double)ws->n_pow2 / (double)ws->n_with_procs);
    if (ws->n_with_runtime)
        printf("  run time (s)       median %g, max %g; unknown in %zu job%s\n",
               ws->runtime_median_s, ws->runtime_max_s, ws->n_no_runtime, bl_s(ws->n_no_runtime));
    printf("  requested time     given for %zu job%s; run/request median %.3f; %zu job%s ran "
           "past it\n",
           ws->n_with_request, bl_s(ws->n_with_request), ws->accuracy_median, ws->n_over_request,
           bl_s(ws->n_over_request));
    printf("  status             %zu completed, %zu failed, %zu cancelled, %zu unknown (-1)\n",
           ws->n_completed, ws->n_failed, ws->n_cancelled, ws->n_status_unknown);
    printf("  dropped by any replay  %zu without run time, %zu without processor count\n",
           ws->n_no_runtime, ws->n_no_procs);
    if (h->max_procs > 0)
        printf("  larger than MaxProcs %zu\n", ws->n_larger_than_header);
}

/* With --platform: the jobs a replay there (default options) simulates
 * and drops, and the computed load over its hosts. 0, or 1 after the
 * message. */
static int info_on_platform(const eng_workload *w, const eng_platform *plat, const char *platform)
{
    eng_prepared prep;
    eng_prep_opts po = eng_prep_defaults();
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_prep(w, plat, &po, &prep, &d)) {
        fprintf(stderr, "batchlab info: %s\n", d.msg);
        return 1;
    }
    eng_summary s = {0};
    memcpy(s.n_dropped, prep.n_dropped, sizeof s.n_dropped);
    s.n_dropped_total = prep.n_dropped_total;
    printf("  on %s (%zu host%s, %zu pool%s): %zu job%s simulated; ", platform, plat->n_hosts,
           bl_s(plat->n_hosts), plat->n_pools, bl_s(plat->n_pools), prep.n_jobs, bl_s(prep.n_jobs));
    bl_print_drops(stdout, &s, "dropped ");
    double load = eng_wstats_prepared_load(&prep, plat->n_hosts);
    if (!isnan(load))
        printf("  computed load      %.4f on its %zu host%s (whole nodes per job)\n", load,
               plat->n_hosts, bl_s(plat->n_hosts));
    eng_prepared_fini(&prep);
    return 0;
}

int bl_cmd_info(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("info", info_opts, sizeof info_opts / sizeof info_opts[0], argc, argv, 1,
                           &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("info",
                      "--workload FILE [--platform FILE | --nodes P [--cores-per-node C]] "
                      "[--reservations FILE]\n"
                      "       batchlab info --outages LOG [--min-gap SECONDS]",
                      "Describes what an SWF log holds before it is simulated: header, jobs, "
                      "time span,\nsizes, run times, estimate accuracy, status mix and the "
                      "jobs a replay would drop\nwhatever the platform. With a machine it also "
                      "gives the computed load\nU = sum(run time x nodes) / (D x P) of the "
                      "job-bundling study (Baranov & Lyakhovets\n2022), D the time from the "
                      "first to the last arrival, P the machine's nodes; with\n--platform the "
                      "drops of a replay there (default options) and U over its hosts;\nwith "
                      "--reservations whether the log's own schedule kept to that file.\n"
                      "With --outages it lists instead the stretches where the log shows no "
                      "job running\nwhile jobs were waiting, candidate outages, as a file for "
                      "run --reservations.",
                      info_opts, sizeof info_opts / sizeof info_opts[0]);
        bl_args_fini(&a);
        return 0;
    }
    const char *outages = bl_args_value(&a, "outages", NULL);
    if (outages) {
        const char *gap = bl_args_value(&a, "min-gap", NULL);
        bool lenient = bl_args_flag(&a, "lenient"), alone = !bl_args_get(&a, "workload")->set &&
                                                            !bl_args_get(&a, "platform")->set &&
                                                            !bl_args_get(&a, "nodes")->set;
        bl_args_fini(&a);
        if (!alone) {
            fprintf(stderr, "batchlab info: --outages takes the log itself: give it without "
                            "--workload, --platform or --nodes\n");
            return 2;
        }
        return info_outages(outages, gap, lenient);
    }
    if (bl_args_get(&a, "min-gap")->set) {
        fprintf(stderr, "batchlab info: --min-gap goes with --outages\n");
        bl_args_fini(&a);
        return 2;
    }
    const char *path = bl_args_value(&a, "workload", NULL);
    const char *platform = bl_args_value(&a, "platform", NULL);
    const char *resv = bl_args_value(&a, "reservations", NULL);
    unsigned long long nodes = 0, cpn = 1;
    bool have_nodes = false;
    if (!path) {
        fprintf(stderr, "batchlab info: --workload is required\n");
        rc = 2;
    } else {
        rc = info_machine(&a, &have_nodes, &nodes, &cpn);
    }
    eng_workload *w = NULL;
    if (rc == 0)
        rc = bl_read_workload("info", path, bl_args_flag(&a, "lenient"), &w);
    bl_args_fini(&a);
    if (rc)
        return rc;
    eng_platform *plat = NULL;
    if (platform) {
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_run_load_platform(platform, &plat, &d)) {
            fprintf(stderr, "batchlab info: %s\n", d.msg);
            eng_workload_destroy(w);
            return 1;
        }
    }
    info_header(path, w);
    eng_wstats ws;
    if (w->n_jobs == 0) {
        rc = 0;
    } else if (eng_wstats_compute(w, &ws) != ENG_OK) {
        fprintf(stderr, "batchlab info: out of memory\n");
        rc = 1;
    } else {
        info_stats(&ws, &w->hdr);
        if (have_nodes) {
            eng_load load;
            eng_scale_load(w, (int64_t)nodes, (int64_t)cpn, &load, NULL);
            char text[40];
            printf("  computed load      %s on %llu node%s of %llu core%s (%zu job%s counted)\n",
                   bl_fmt_load(text, sizeof text, load.load), nodes, bl_s(nodes), cpn, bl_s(cpn),
                   load.n_counted, bl_s(load.n_counted));
        }
        if (plat)
            rc = info_on_platform(w, plat, platform);
        if (rc == 0 && resv)
            rc = info_reservations(w, resv);
    }
    eng_platform_destroy(plat);
    eng_workload_destroy(w);
    return rc;
}
