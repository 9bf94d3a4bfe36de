/* bl_report_fixture.c — the hand-made compare folder of
 * bl_report_fixture.h. */
#include "bl_report_fixture.h"

#include "bl_test.h"

#include <stdio.h>
#include <sys/stat.h>

void bl_put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static const char jobs_easy[] = "job_id,waiting_time,bounded_slowdown\n"
                                "1,5,1.5\n2,0,1\n3,100,3\n4,5,1.5\n";
static const char jobs_fcfs[] = "job_id,waiting_time,bounded_slowdown\n"
                                "1,10,2\n2,0,1\n3,200,5\n4,10,2\n";

static const char sum_easy[] =
    "{\"jobs\": {\"input\": 4, \"simulated\": 4, \"by_final_state\": "
    "{\"COMPLETED_SUCCESSFULLY\": 4, \"COMPLETED_WALLTIME_REACHED\": 0}},\n"
    " \"metrics\": {\"wait_mean_s\": 27.5, \"wait_median_s\": 5, \"wait_p95_s\": 100,\n"
    "   \"bounded_slowdown_mean\": 1.75, \"utilization\": 0.5, \"makespan_s\": 123456,\n"
    "   \"queue_length_mean\": 0.25},\n"
    " \"breakdowns\": {\"bounds\": {\"runtime_s\": [600, 3600, 36000], \"bsld_tau_s\": 10},\n"
    "   \"user\": [{\"key\": \"7\", \"jobs\": 4, \"wait_mean_s\": 27.5, \"wait_median_s\": 5,\n"
    "     \"wait_p95_s\": 100, \"bsld_mean\": 1.75, \"killed\": 0}],\n"
    "   \"size\": [{\"key\": \"1\", \"jobs\": 2, \"wait_mean_s\": 2.5, \"wait_median_s\": 2.5,\n"
    "     \"wait_p95_s\": 5, \"bsld_mean\": 1.25, \"killed\": 0, \"lo\": 1, \"hi\": 1},\n"
    "    {\"key\": \"2-3\", \"jobs\": 2, \"wait_mean_s\": 52.5, \"wait_median_s\": 52.5,\n"
    "     \"wait_p95_s\": 100, \"bsld_mean\": 2.25, \"killed\": 0, \"lo\": 2, \"hi\": 3}],\n"
    "   \"runtime\": [{\"key\": \"<10min\", \"jobs\": 4, \"wait_mean_s\": 27.5,\n"
    "     \"wait_median_s\": 5, \"wait_p95_s\": 100, \"bsld_mean\": 1.75, \"killed\": 0,\n"
    "     \"lo_s\": 0, \"hi_s\": 600}]},\n"
    " \"fairness\": {\"users\": 1, \"bsld_user_mean_min\": 1.75, \"bsld_user_mean_max\": 1.75,\n"
    "   \"bsld_user_mean_cv\": 0, \"jain_index\": 1},\n"
    " \"manifest\": {\"git_commit\": \"abc123\", \"policy\": \"easy\",\n"
    "   \"policy_options\": {\"note\": \"a<b & 'c'\"},\n"
    "   \"inputs\": {\"workload\": {\"path\": \"w.swf\", \"sha256\": \"00ff\"}},\n"
    "   \"wall_time_s\": 0.123}}\n";

static const char sum_fcfs[] =
    "{\"jobs\": {\"input\": 4, \"simulated\": 4},\n"
    " \"metrics\": {\"wait_mean_s\": 55, \"wait_median_s\": 10, \"wait_p95_s\": 200,\n"
    "   \"bounded_slowdown_mean\": 2.5, \"utilization\": 0.5, \"makespan_s\": 123456,\n"
    "   \"queue_length_mean\": null},\n"
    " \"manifest\": {\"git_commit\": \"abc123\", \"policy\": \"fcfs\", \"policy_options\": {}}}\n";

static const char paired[] =
    "{\"baseline\": \"easy\", \"tolerance_s\": 60, \"level\": 0.95, \"resamples\": 10000,\n"
    " \"seed\": 1, \"pairs\": [{\"a\": \"easy\", \"b\": \"fcfs&<x>\", \"jobs\": 4,\n"
    " \"wait_diff_mean_s\": 27.5, \"wait_diff_median_s\": 5, \"better_share\": 0,\n"
    " \"worse_share\": 0.75, \"ci_lo_s\": 2.5, \"ci_hi_s\": 60}]}\n";

const char *bl_report_fixture(void)
{
    const char *dir = bl_tmpdir();
    char p[900];
    snprintf(p, sizeof p, "%s/easy", dir);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/fcfs&<x>", dir);
    mkdir(p, 0777);
    snprintf(p, sizeof p, "%s/easy/jobs.csv", dir);
    bl_put_file(p, jobs_easy);
    snprintf(p, sizeof p, "%s/easy/summary.json", dir);
    bl_put_file(p, sum_easy);
    snprintf(p, sizeof p, "%s/fcfs&<x>/jobs.csv", dir);
    bl_put_file(p, jobs_fcfs);
    snprintf(p, sizeof p, "%s/fcfs&<x>/summary.json", dir);
    bl_put_file(p, sum_fcfs);
    snprintf(p, sizeof p, "%s/paired.json", dir);
    bl_put_file(p, paired);
    return dir;
}
