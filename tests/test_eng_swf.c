/* test_eng_swf.c — the SWF reader and writer (engine/eng_swf.c).
 *
 * Known answers on hand-made files: the fixtures in traces/fixtures/ (each
 * says in its header what it exercises) and small inline files; exact error
 * messages with file and line; write-read round trips compared bit for bit;
 * and, when the logs' folder has them, two Parallel Workloads Archive
 * logs (Feitelson, Tsafrir & Krakov 2014): KTH-SP2 and SDSC-SP2.
 */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_swf.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* A data line (a string literal) for job number `id` submitted at `submit`,
 * run time 10 s on 1 processor, the other optional fields -1. */
#define LINE(id, submit) #id " " #submit " 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"

static eng_workload *read_ok(const char *path, const eng_swf_read_opts *opts)
{
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = (eng_workload *)0x1;
    int rc = eng_swf_read(path, opts, &w, &d);
    CU_ASSERT_EQUAL(rc, ENG_OK);
    if (rc != ENG_OK) {
        fprintf(stderr, "\nunexpected failure: %s\n", d.msg);
        return NULL;
    }
    CU_ASSERT_PTR_NOT_NULL(w);
    return w;
}

/* Reads text written to a temporary file and expects code and message
 * "PATH:LINE: what" (or "PATH: what" when line is 0). */
static void expect_fail_text(const char *text, int code, int line, const char *what)
{
    const char *path = bl_write_tmp("bad.swf", text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = (eng_workload *)0x1;
    CU_ASSERT_EQUAL(eng_swf_read(path, NULL, &w, &d), code);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(d.code, code);
    char want[1024];
    if (line > 0)
        snprintf(want, sizeof want, "%s:%d: %s", path, line, what);
    else
        snprintf(want, sizeof want, "%s: %s", path, what);
    CU_ASSERT_STRING_EQUAL(d.msg, want);
    if (strcmp(d.msg, want) != 0)
        fprintf(stderr, "\n got: %s\nwant: %s\n", d.msg, want);
    eng_workload_destroy(w == (eng_workload *)0x1 ? NULL : w);
}

static const char *kv_get(const eng_workload *w, const char *key, int nth)
{
    for (size_t i = 0; i < w->hdr.n_kv; i++)
        if (strcmp(w->hdr.kv[i].key, key) == 0 && nth-- == 0)
            return w->hdr.kv[i].value;
    return NULL;
}

static size_t kv_count(const eng_workload *w, const char *key)
{
    size_t n = 0;
    for (size_t i = 0; i < w->hdr.n_kv; i++)
        n += strcmp(w->hdr.kv[i].key, key) == 0;
    return n;
}

/* The 18 fields of a and b are bitwise equal (the source line is not
 * compared: a written file has its own header). */
static bool same_fields(const eng_job *a, const eng_job *b)
{
#define SAME(m) (memcmp(&a->m, &b->m, sizeof a->m) == 0)
    return SAME(id) && SAME(submit_s) && SAME(wait_s) && SAME(runtime_s) && SAME(procs_alloc) &&
           SAME(cpu_avg_s) && SAME(mem_used_kb) && SAME(procs_req) && SAME(time_req_s) &&
           SAME(mem_req_kb) && SAME(status) && SAME(user) && SAME(group) && SAME(app) &&
           SAME(queue) && SAME(partition) && SAME(prev_job) && SAME(think_s);
#undef SAME
}

static void write_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void write_gz(const char *path, const char *text, size_t n)
{
    gzFile gz = gzopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
    CU_ASSERT_EQUAL(gzwrite(gz, text, (unsigned)n), (int)n);
    CU_ASSERT_EQUAL(gzclose(gz), Z_OK);
}

/* Entries of a directory other than "." and "..". */
static int dir_entries(const char *dir)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(dp);
    return n;
}

/* ------------------------------------------------------------------ */

static void test_field_names(void)
{
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(1), "job number");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(4), "run time");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(5), "allocated processors");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(11), "status");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(18), "think time");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(0), "unknown field");
    CU_ASSERT_STRING_EQUAL(eng_swf_field_name(19), "unknown field");
    eng_job j = eng_job_unknown();
    CU_ASSERT_EQUAL(j.id, 0);
    CU_ASSERT_EQUAL(j.line, 0);
    CU_ASSERT_EQUAL(j.submit_s, -1);
    CU_ASSERT_EQUAL(j.status, -1);
    CU_ASSERT_EQUAL(j.think_s, -1);
}

static void test_small_fixture(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/small.swf"), NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 16);
    CU_ASSERT_EQUAL(w->cap_jobs, 16);
    CU_ASSERT_EQUAL(w->n_data_lines, 16);
    CU_ASSERT_EQUAL(w->n_malformed, 0);
    CU_ASSERT_EQUAL(w->n_reordered, 0);
    CU_ASSERT_EQUAL(w->n_part_lines, 0);
    CU_ASSERT_EQUAL(w->n_dup_ids, 0);
    CU_ASSERT_STRING_EQUAL(w->path, bl_src("traces/fixtures/small.swf"));

    const eng_swf_header *h = &w->hdr;
    CU_ASSERT_EQUAL(h->n_kv, 22);
    CU_ASSERT_EQUAL(h->max_jobs, 16);
    CU_ASSERT_EQUAL(h->max_records, 16);
    CU_ASSERT_EQUAL(h->max_nodes, 64);
    CU_ASSERT_EQUAL(h->max_procs, 128);
    CU_ASSERT_EQUAL(h->unix_start_time, 1464739965);
    CU_ASSERT_EQUAL(h->max_runtime, 86400);
    CU_ASSERT_EQUAL(h->max_queues, 2);
    CU_ASSERT_EQUAL(h->max_partitions, -1);
    CU_ASSERT_STRING_EQUAL(h->version, "2.2");
    CU_ASSERT_STRING_EQUAL(h->computer, "Synthetic cluster, 64 nodes x 2 processors");
    CU_ASSERT_STRING_EQUAL(h->installation, "batchlab test fixtures");
    CU_ASSERT_STRING_EQUAL(h->preemption, "No");
    CU_ASSERT_STRING_EQUAL(h->time_zone_string, "Europe/Berlin");
    CU_ASSERT_STRING_EQUAL(h->queues_text, "queue 1 is batch, queue 0 is interactive");
    CU_ASSERT_PTR_NULL(h->partitions_text);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "EndTime", 0), "Wed Jun 01 11:03:50 CEST 2016");
    CU_ASSERT_EQUAL(kv_count(w, "Queue"), 2);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Queue", 0),
                           "0 interactive (at most 4 processors, 30 minutes)");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Queue", 1), "1 batch");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 0),
                           "Requested time is the user's wall-clock estimate.\n"
                           "Run time is until the last processor was freed.");
    CU_ASSERT_STRING_EQUAL(h->kv[0].key, "Version");

    const eng_job *j = &w->jobs[0];
    CU_ASSERT_EQUAL(j->id, 1);
    CU_ASSERT_EQUAL(j->submit_s, 0);
    CU_ASSERT_EQUAL(j->wait_s, 12);
    CU_ASSERT_EQUAL(j->runtime_s, 3541);
    CU_ASSERT_EQUAL(j->procs_alloc, 32);
    CU_ASSERT_EQUAL(j->cpu_avg_s, 3502.5);
    CU_ASSERT_EQUAL(j->mem_used_kb, -1);
    CU_ASSERT_EQUAL(j->procs_req, 32);
    CU_ASSERT_EQUAL(j->time_req_s, 7200);
    CU_ASSERT_EQUAL(j->status, 1);
    CU_ASSERT_EQUAL(j->queue, 1);
    CU_ASSERT_EQUAL(j->line, 31);
    CU_ASSERT_EQUAL(w->jobs[1].cpu_avg_s, 110.25);
    CU_ASSERT_EQUAL(w->jobs[7].cpu_avg_s, 58.125);
    CU_ASSERT_EQUAL(w->jobs[11].prev_job, 11);
    CU_ASSERT_EQUAL(w->jobs[11].think_s, 30);
    CU_ASSERT_EQUAL(w->jobs[15].id, 16);
    CU_ASSERT_EQUAL(w->jobs[15].line, 46);

    /* Hand-counted: jobs 4 and 15 cancelled before running, 5, 8 and 14
     * failed, 1+2+...+16 = 136, allocated processors sum to 546. */
    int cancelled = 0, failed = 0;
    int64_t ids = 0, procs = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        cancelled += w->jobs[i].status == 5 && w->jobs[i].runtime_s == -1;
        failed += w->jobs[i].status == 0;
        ids += w->jobs[i].id;
        procs += w->jobs[i].procs_alloc > 0 ? w->jobs[i].procs_alloc : 0;
    }
    CU_ASSERT_EQUAL(cancelled, 2);
    CU_ASSERT_EQUAL(failed, 3);
    CU_ASSERT_EQUAL(ids, 136);
    CU_ASSERT_EQUAL(procs, 546);
    eng_workload_destroy(w);
}

static void test_odd_header(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/odd_header.swf"), NULL);
    if (!w)
        return;
    const eng_swf_header *h = &w->hdr;
    CU_ASSERT_EQUAL(h->n_kv, 12);
    CU_ASSERT_STRING_EQUAL(h->version, "2.2");
    CU_ASSERT_STRING_EQUAL(h->computer, "Test\tmachine");
    CU_ASSERT_STRING_EQUAL(h->installation, "nowhere in particular");
    CU_ASSERT_EQUAL(h->max_nodes, 1173);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "MaxNodes", 0), "1173 (1152 + 21)");
    /* free text: -1, kept verbatim; the parsed value is the first
     * occurrence's, and "maxprocs" is another key */
    CU_ASSERT_EQUAL(h->max_procs, -1);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "MaxProcs", 0), "unknown");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "MaxProcs", 1), "64");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "maxprocs", 0), "64");
    CU_ASSERT_EQUAL(h->max_queues, 2);
    CU_ASSERT_EQUAL(kv_count(w, "Note"), 2);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 0), "first line\nsecond line\nthird line");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 1), "a note between data lines");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Information", 0),
                           "http://example.org/\nhttp://example.org/mirror");
    CU_ASSERT_EQUAL(h->unix_start_time, 1000); /* a key after data lines */
    CU_ASSERT_STRING_EQUAL(h->kv[10].key, "UnixStartTime");

    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 3);
    const eng_job *j = &w->jobs[1];
    CU_ASSERT_EQUAL(j->id, 2);
    CU_ASSERT_EQUAL(j->submit_s, 5.5);
    CU_ASSERT_EQUAL(j->wait_s, 0.25);
    CU_ASSERT_EQUAL(j->runtime_s, 10.75);
    CU_ASSERT_EQUAL(j->procs_alloc, 2);
    CU_ASSERT_EQUAL(j->cpu_avg_s, 3.125);
    CU_ASSERT_EQUAL(j->mem_used_kb, 1024.5);
    CU_ASSERT_EQUAL(j->time_req_s, 20.5);
    CU_ASSERT_EQUAL(j->mem_req_kb, 2048.75);
    CU_ASSERT_EQUAL(j->prev_job, 1);
    CU_ASSERT_EQUAL(j->think_s, 2.5);
    CU_ASSERT_EQUAL(j->line, 25);
    CU_ASSERT_EQUAL(w->jobs[2].id, 3); /* tab-separated */
    CU_ASSERT_EQUAL(w->jobs[2].time_req_s, 60);
    CU_ASSERT_EQUAL(w->jobs[2].group, 2);
    eng_workload_destroy(w);
}

static void test_inline_header_rules(void)
{
    const char *text = "; Note: one\n"
                       ";   two\n"
                       "\n"
                       "; not a continuation: a blank line ended the note\n"
                       "; Queue: 1 a\n"
                       "; Queue: 2 b\n"
                       "; Note:\n"
                       ";   body on the next line\n"
                       ";\t\n"
                       ";   dropped\n"
                       "; MaxRuntime: 64800s\n"
                       ";MaxProcs:128\n"
                       "; MaxJobs: -1\n"
                       "; MaxPartitions:\n"
                       "; http://not.a.key/\n"
                       "; key with space: continues MaxPartitions\n";
    eng_workload *w = read_ok(bl_write_tmp("hdr.swf", text), NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 0);
    CU_ASSERT_PTR_NULL(w->jobs);
    CU_ASSERT_EQUAL(w->hdr.n_kv, 8);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 0), "one\ntwo");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 1), "body on the next line");
    CU_ASSERT_EQUAL(kv_count(w, "Queue"), 2);
    CU_ASSERT_EQUAL(w->hdr.max_runtime, 64800);
    CU_ASSERT_EQUAL(w->hdr.max_jobs, -1);
    CU_ASSERT_EQUAL(w->hdr.max_partitions, -1);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "MaxPartitions", 0),
                           "http://not.a.key/\nkey with space: continues MaxPartitions");
    CU_ASSERT_PTR_NULL(w->hdr.version);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 128); /* a spec key needs no blank after ':' */
    eng_workload_destroy(w);
}

static void test_crlf(void)
{
    const char *text = "; Version: 2.2\r\n"
                       "; Note: crlf\r\n"
                       ";    ends\r\n"
                       "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 2.5\r\n"
                       "2 1 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\r\n";
    eng_workload *w = read_ok(bl_write_tmp("crlf.swf", text), NULL);
    if (!w)
        return;
    CU_ASSERT_STRING_EQUAL(w->hdr.version, "2.2");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 0), "crlf\nends");
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 2);
    CU_ASSERT_EQUAL(w->jobs[0].think_s, 2.5);
    CU_ASSERT_EQUAL(w->jobs[1].think_s, -1);
    CU_ASSERT_EQUAL(w->jobs[1].line, 5);
    eng_workload_destroy(w);
}

static void test_empty_files(void)
{
    eng_workload *w = read_ok(bl_write_tmp("empty.swf", ""), NULL);
    if (w) {
        CU_ASSERT_EQUAL(w->n_jobs, 0);
        CU_ASSERT_EQUAL(w->n_data_lines, 0);
        CU_ASSERT_EQUAL(w->hdr.n_kv, 0);
        CU_ASSERT_EQUAL(w->hdr.max_procs, -1);
        CU_ASSERT_PTR_NULL(w->hdr.version);
    }
    eng_workload_destroy(w);
    w = read_ok(bl_write_tmp("comments.swf", "; Version: 2.2\n;\n\n   \n; Note: no jobs"), NULL);
    if (w) {
        CU_ASSERT_EQUAL(w->n_jobs, 0);
        CU_ASSERT_EQUAL(w->hdr.n_kv, 2);
        CU_ASSERT_STRING_EQUAL(kv_get(w, "Note", 0), "no jobs");
    }
    eng_workload_destroy(w);
}

static void test_no_final_newline_and_long_lines(void)
{
    /* A comment and a data line far longer than the reader's buffer. */
    size_t pad = 600000;
    char *text = malloc(2 * pad + 400);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *p = text;
    p += sprintf(p, "; Note: ");
    memset(p, 'x', pad);
    p += pad;
    p += sprintf(p, "\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1");
    memset(p, ' ', pad);
    p += pad;
    p += sprintf(p, "7\n" LINE(2, 3));
    p[-1] = '\0'; /* no final newline */
    eng_workload *w = read_ok(bl_write_tmp("long.swf", text), NULL);
    free(text);
    if (!w)
        return;
    CU_ASSERT_EQUAL(strlen(kv_get(w, "Note", 0)), pad);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 2);
    CU_ASSERT_EQUAL(w->jobs[0].think_s, 7);
    CU_ASSERT_EQUAL(w->jobs[1].id, 2);
    CU_ASSERT_EQUAL(w->jobs[1].think_s, -1);
    CU_ASSERT_EQUAL(w->jobs[1].line, 3);
    eng_workload_destroy(w);
}

static void test_field_count_errors(void)
{
    expect_fail_text(LINE(1, 0) "; c\n"
                                "2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1\n",
                     ENG_PARSE, 3, "expected 18 fields, found 17");
    expect_fail_text("; Version: 2.2\n"
                     "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1 -1\n",
                     ENG_PARSE, 2, "expected 18 fields, found 19");
    expect_fail_text("\n\n  7\n", ENG_PARSE, 3, "expected 18 fields, found 1");
}

static void test_value_errors(void)
{
    expect_fail_text("1 0 0 abc 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 4 (run time): expected a number, got 'abc'");
    expect_fail_text(LINE(1, 0) "2 0 0 10 3.5 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 2,
                     "field 5 (allocated processors): expected an integer, got '3.5'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                     "2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                     "3 -7 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
                     ENG_PARSE, 3, "field 2 (submit time): expected a value >= 0 or -1, got '-7'");
    expect_fail_text("-1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 1 (job number): expected a value >= 0, got '-1'");
    expect_fail_text("1 0 0 10 1 -1 -1 -2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 8 (requested processors): expected a value >= 0 or -1, got '-2'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 -3 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 9 (requested time): expected a value >= 0 or -1, got '-3'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -2 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 15 (queue): expected a value >= 0 or -1, got '-2'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 x -1\n", ENG_PARSE, 1,
                     "field 17 (preceding job): expected an integer, got 'x'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 20 -1 1 1e2 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 12 (user): expected an integer, got '1e2'");
    /* strtod would take these; SWF does not */
    expect_fail_text("1 0 0 nan 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 4 (run time): expected a number, got 'nan'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 inf -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 9 (requested time): expected a number, got 'inf'");
    expect_fail_text("1 0x10 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 2 (submit time): expected a number, got '0x10'");
    expect_fail_text("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 .\n", ENG_PARSE, 1,
                     "field 18 (think time): expected a number, got '.'");
}

/* Fields the replay does not use: out-of-range values (exit codes in the
 * status field, negative think times...) read as -1 and are counted per
 * field; the line is kept. */
static void test_ignored_values(void)
{
    const char *path = bl_write_tmp("ignored.swf",
                                    "1 0 -7 10 1 -1 -1 1 20 -1 265 1 1 -1 -1 -1 -1 -0.5\n"
                                    "2 5 0 10 1 -3 -1 1 20 -1 127 -4 -9 -1 -1 -1 -2 -1\n"
                                    "3 6 0 10 1 -1 -1 1 20 -1 -2 1 1 -1 -1 -1 -1 -1\n"
                                    "4 8 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    eng_workload *w = read_ok(path, NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 4);
    CU_ASSERT_EQUAL(w->n_malformed, 0);
    CU_ASSERT_EQUAL(w->n_ignored[3], 1);  /* wait -7 */
    CU_ASSERT_EQUAL(w->n_ignored[6], 1);  /* CPU time -3 */
    CU_ASSERT_EQUAL(w->n_ignored[11], 3); /* 265, 127, -2 */
    CU_ASSERT_EQUAL(w->n_ignored[12], 1); /* user -4 */
    CU_ASSERT_EQUAL(w->n_ignored[13], 1); /* group -9 */
    CU_ASSERT_EQUAL(w->n_ignored[17], 1); /* preceding job -2 */
    CU_ASSERT_EQUAL(w->n_ignored[18], 1); /* think time -0.5 */
    size_t total = 0;
    for (int f = 1; f <= 18; f++)
        total += w->n_ignored[f];
    CU_ASSERT_EQUAL(total, 9);
    CU_ASSERT_EQUAL(w->jobs[0].status, -1);
    CU_ASSERT_EQUAL(w->jobs[0].wait_s, -1);
    CU_ASSERT_EQUAL(w->jobs[0].think_s, -1);
    CU_ASSERT_EQUAL(w->jobs[1].user, -1);
    CU_ASSERT_EQUAL(w->jobs[3].status, 1);
    CU_ASSERT_TRUE(eng_swf_field_lax(11));
    CU_ASSERT_FALSE(eng_swf_field_lax(2));
    CU_ASSERT_FALSE(eng_swf_field_lax(0));
    eng_workload_destroy(w);
}

/* Unknown submit times (-1) are kept, sorted after every known one in file
 * order, and not counted as reordered. */
static void test_unknown_submit(void)
{
    const char *path = bl_write_tmp("nosubmit.swf", LINE(1, 0) /* line 1 */
                                    "2 -1 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n"
                                    "3 -1 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" LINE(4, 7)
                                        LINE(5, 9));
    eng_workload *w = read_ok(path, NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 5);
    CU_ASSERT_EQUAL(w->n_reordered, 0);
    int64_t want[5] = {1, 4, 5, 2, 3};
    for (size_t i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(w->jobs[i].id, want[i]);
    CU_ASSERT_EQUAL(w->jobs[3].submit_s, -1);
    eng_workload_destroy(w);

    /* Already at the end, with one real reordering before them. */
    path = bl_write_tmp("nosubmit2.swf",
                        LINE(1, 5) LINE(2, 3) "3 -1 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n");
    w = read_ok(path, NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_reordered, 1);
    CU_ASSERT_EQUAL(w->jobs[0].id, 2);
    CU_ASSERT_EQUAL(w->jobs[1].id, 1);
    CU_ASSERT_EQUAL(w->jobs[2].id, 3);
    eng_workload_destroy(w);
}

static void test_huge_values(void)
{
    expect_fail_text("99999999999999999999 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n",
                     ENG_PARSE, 1,
                     "field 1 (job number): expected an integer that fits in 64 bits, "
                     "got '99999999999999999999'");
    expect_fail_text("9223372036854775808 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE,
                     1,
                     "field 1 (job number): expected an integer that fits in 64 bits, "
                     "got '9223372036854775808'");
    expect_fail_text("1 0 0 10 2147483648 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 5 (allocated processors): expected at most 2147483647 processors, "
                     "got '2147483648'");
    expect_fail_text("1 0 0 10 1 -1 -1 4294967296 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 8 (requested processors): expected at most 2147483647 processors, "
                     "got '4294967296'");
    expect_fail_text("1 0 0 1e999 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 4 (run time): expected a finite number, got '1e999'");

    /* The largest accepted values. */
    eng_workload *w = read_ok(
        bl_write_tmp("big.swf", "9223372036854775807 1e300 0 99999999999999999999 2147483647 "
                                "-1 -1 2147483647 20 -1 1 1 1 -1 -1 -1 -1 -1\n"),
        NULL);
    if (w) {
        CU_ASSERT_EQUAL(w->jobs[0].id, INT64_MAX);
        CU_ASSERT_EQUAL(w->jobs[0].submit_s, 1e300);
        CU_ASSERT_EQUAL(w->jobs[0].runtime_s, 1e20);
        CU_ASSERT_EQUAL(w->jobs[0].procs_alloc, 2147483647);
    }
    eng_workload_destroy(w);
}

static void test_binary_junk(void)
{
    const char *path = bl_write_tmp("junk.swf", "");
    static const char junk[] = LINE(1, 0) "1 0 0 10\0\x01\x02 junk\n" LINE(3, 2);
    write_bytes(path, junk, sizeof junk - 1);
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    CU_ASSERT_EQUAL(eng_swf_read(path, NULL, &w, &d), ENG_PARSE);
    CU_ASSERT_PTR_NULL(w);
    char want[1024];
    snprintf(want, sizeof want, "%s:2: expected text, found a NUL byte in column 9 (binary data?)",
             path);
    CU_ASSERT_STRING_EQUAL(d.msg, want);

    /* Other bytes are shown escaped. */
    expect_fail_text("1 0 0 \x89PNG\x1a 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", ENG_PARSE, 1,
                     "field 4 (run time): expected a number, got '\\x89PNG\\x1a'");
    expect_fail_text("\x89PNG\r\n\x1a\n", ENG_PARSE, 1, "expected 18 fields, found 1");
}

static void test_cannot_open(void)
{
    char path[800];
    snprintf(path, sizeof path, "%s/no-such-file.swf", bl_tmpdir());
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = (eng_workload *)0x1;
    CU_ASSERT_EQUAL(eng_swf_read(path, NULL, &w, &d), ENG_IO);
    CU_ASSERT_PTR_NULL(w);
    char want[1024];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    CU_ASSERT_STRING_EQUAL(d.msg, want);

    /* a directory opens but cannot be read */
    eng_diag_clear(&d);
    const char *dir = bl_tmpdir();
    CU_ASSERT_EQUAL(eng_swf_read(dir, NULL, &w, &d), ENG_IO);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(strncmp(d.msg, dir, strlen(dir)), 0);
}

static void test_unsorted(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/unsorted.swf"), NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_reordered, 3);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 6);
    static const int64_t order[6] = {6, 2, 4, 1, 3, 5};
    static const double submit[6] = {10, 50, 50, 100, 100, 200};
    for (int i = 0; i < 6; i++) {
        CU_ASSERT_EQUAL(w->jobs[i].id, order[i]);
        CU_ASSERT_EQUAL(w->jobs[i].submit_s, submit[i]);
        CU_ASSERT_EQUAL(w->jobs[i].line, 4 + order[i]);
    }
    eng_workload_destroy(w);

    /* Many equal submit times keep file order (qsort alone is not stable). */
    size_t n = 2000;
    char *text = malloc(n * 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *p = text;
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%zu %d 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n", i + 1,
                     (int)((n - i) % 3) * 10);
    w = read_ok(bl_write_tmp("ties.swf", text), NULL);
    free(text);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, n);
    bool ordered = true;
    for (size_t i = 1; i < w->n_jobs; i++) {
        const eng_job *a = &w->jobs[i - 1], *b = &w->jobs[i];
        ordered = ordered &&
                  (a->submit_s < b->submit_s || (a->submit_s == b->submit_s && a->id < b->id));
    }
    CU_ASSERT(ordered);
    eng_workload_destroy(w);
}

static void test_preemption_double(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/preempt_double.swf"), NULL);
    if (!w)
        return;
    CU_ASSERT_STRING_EQUAL(w->hdr.preemption, "Double");
    CU_ASSERT_EQUAL(w->n_data_lines, 7);
    CU_ASSERT_EQUAL(w->n_part_lines, 4);
    CU_ASSERT_EQUAL(w->n_dup_ids, 0);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 3);
    CU_ASSERT_EQUAL(w->jobs[0].id, 1);
    CU_ASSERT_EQUAL(w->jobs[0].runtime_s, 100);
    CU_ASSERT_EQUAL(w->jobs[0].status, 1);
    CU_ASSERT_EQUAL(w->jobs[1].id, 2);
    CU_ASSERT_EQUAL(w->jobs[2].id, 3);
    CU_ASSERT_EQUAL(w->jobs[2].runtime_s, 30);
    CU_ASSERT_EQUAL(w->jobs[2].status, 0);
    eng_workload_destroy(w);
}

static void test_preemption_yes(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/preempt_yes.swf"), NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_data_lines, 7);
    CU_ASSERT_EQUAL(w->n_part_lines, 6);
    CU_ASSERT_EQUAL(w->n_dup_ids, 0);
    CU_ASSERT_EQUAL(w->n_reordered, 0);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 4);
    const eng_job *j = w->jobs;
    CU_ASSERT_EQUAL(j[0].id, 1);
    CU_ASSERT_EQUAL(j[0].runtime_s, 100);
    CU_ASSERT_EQUAL(j[0].status, 1);
    CU_ASSERT_EQUAL(j[0].wait_s, 0); /* the first part's */
    CU_ASSERT_EQUAL(j[0].line, 11);
    CU_ASSERT_EQUAL(j[1].id, 2);
    CU_ASSERT_EQUAL(j[1].runtime_s, 50);
    CU_ASSERT_EQUAL(j[1].status, 1);
    CU_ASSERT_EQUAL(j[2].id, 3);
    CU_ASSERT_EQUAL(j[2].runtime_s, 30.5);
    CU_ASSERT_EQUAL(j[2].status, 0);
    CU_ASSERT_EQUAL(j[2].submit_s, 20);
    CU_ASSERT_EQUAL(j[3].id, 4);
    CU_ASSERT_EQUAL(j[3].runtime_s, 5);
    CU_ASSERT_EQUAL(j[3].status, 1);

    /* No Preemption key at all: parts are merged the same way; a first part
     * with an unknown run time takes the later parts' sum. */
    eng_workload_destroy(w);
    w = read_ok(bl_write_tmp("parts.swf", "7 0 0 -1 2 -1 -1 2 60 -1 2 1 1 -1 -1 -1 -1 -1\n"
                                          "7 0 9 15 2 -1 -1 2 60 -1 4 1 1 -1 -1 -1 -1 -1\n"),
                NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_part_lines, 2);
    CU_ASSERT_EQUAL_FATAL(w->n_jobs, 1);
    CU_ASSERT_EQUAL(w->jobs[0].runtime_s, 15);
    CU_ASSERT_EQUAL(w->jobs[0].status, 0);
    eng_workload_destroy(w);
}

static void test_duplicate_ids(void)
{
    eng_workload *w = read_ok(bl_write_tmp("dup.swf", LINE(1, 0) LINE(2, 1) LINE(1, 2) LINE(3, 3)
                                                          LINE(3, 4) LINE(3, 5) LINE(4, 6)),
                              NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 7);    /* all kept */
    CU_ASSERT_EQUAL(w->n_dup_ids, 2); /* job numbers 1 and 3 */
    CU_ASSERT_EQUAL(w->n_part_lines, 0);
    eng_workload_destroy(w);
}

static void test_lenient(void)
{
    const char *text = LINE(1, 0)                           /* line 1 */
        "2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1\n"      /* 2: 17 fields */
        LINE(3, 6)                                          /* 3 */
        "; Note: fine\n"                                    /* 4 */
        "4 7 0 10 1 -1 -1 1 -20 -1 1 1 1 -1 -1 -1 -1 -1\n"  /* 5: requested -20 */
        LINE(5, 8)                                          /* 6 */
        "6 9 0 10 2.5 -1 -1 1 20 -1 1 1 1 -1 -1 -1 -1 -1\n" /* 7: 2.5 procs */
        LINE(7, 10);                                        /* 8 */
    const char *path = bl_write_tmp("lenient.swf", text);
    eng_swf_read_opts opts = {.lenient = true};
    eng_workload *w = read_ok(path, &opts);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 4);
    CU_ASSERT_EQUAL(w->n_malformed, 3);
    CU_ASSERT_EQUAL(w->n_data_lines, 7);
    char want[1024];
    snprintf(want, sizeof want, "%s:2: expected 18 fields, found 17", path);
    CU_ASSERT_STRING_EQUAL(w->first_malformed, want);
    CU_ASSERT_EQUAL(w->jobs[3].id, 7);
    CU_ASSERT_EQUAL(w->jobs[3].line, 8);
    eng_workload_destroy(w);

    /* The same file, strict: the first bad line stops the read. */
    eng_swf_read_opts strict = {.lenient = false};
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_read(path, &strict, &w, &d), ENG_PARSE);
    CU_ASSERT_STRING_EQUAL(d.msg, want);

    /* Lenient with binary junk. */
    static const char junk[] = LINE(1, 0) "\0\0\0\n" LINE(2, 1);
    path = bl_write_tmp("lenient-junk.swf", "");
    write_bytes(path, junk, sizeof junk - 1);
    w = read_ok(path, &opts);
    if (w) {
        CU_ASSERT_EQUAL(w->n_jobs, 2);
        CU_ASSERT_EQUAL(w->n_malformed, 1);
    }
    eng_workload_destroy(w);
}

static void test_gzip(void)
{
    size_t len;
    char *text = bl_slurp(bl_src("traces/fixtures/small.swf"), &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char path[800];
    snprintf(path, sizeof path, "%s/small.swf.gz", bl_tmpdir());
    write_gz(path, text, len);
    eng_workload *plain = read_ok(bl_src("traces/fixtures/small.swf"), NULL);
    eng_workload *gz = read_ok(path, NULL);
    if (plain && gz) {
        CU_ASSERT_EQUAL_FATAL(gz->n_jobs, plain->n_jobs);
        for (size_t i = 0; i < gz->n_jobs; i++) {
            CU_ASSERT(same_fields(&gz->jobs[i], &plain->jobs[i]));
            CU_ASSERT_EQUAL(gz->jobs[i].line, plain->jobs[i].line);
        }
        CU_ASSERT_EQUAL(gz->hdr.n_kv, plain->hdr.n_kv);
        CU_ASSERT_STRING_EQUAL(gz->hdr.time_zone_string, "Europe/Berlin");
    }
    eng_workload_destroy(plain);
    eng_workload_destroy(gz);

    /* Truncated streams: cut in the middle, and cut in the trailer. */
    size_t zlen;
    char *z = bl_slurp(path, &zlen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(z);
    size_t cuts[2] = {zlen / 2, zlen - 3};
    for (int k = 0; k < 2; k++) {
        char cut[800];
        snprintf(cut, sizeof cut, "%s/cut%d.swf.gz", bl_tmpdir(), k);
        write_bytes(cut, z, cuts[k]);
        eng_diag d;
        eng_diag_clear(&d);
        eng_workload *w = (eng_workload *)0x1;
        CU_ASSERT_EQUAL(eng_swf_read(cut, NULL, &w, &d), ENG_IO);
        CU_ASSERT_PTR_NULL(w);
        char want[1024];
        snprintf(want, sizeof want, "%s: corrupt or truncated gzip data: ", cut);
        CU_ASSERT_EQUAL(strncmp(d.msg, want, strlen(want)), 0);
        if (strncmp(d.msg, want, strlen(want)) != 0)
            fprintf(stderr, "\n got: %s\n", d.msg);
    }
    /* A damaged byte in the middle of the stream. */
    z[zlen / 2] ^= 0x55;
    z[zlen / 2 + 1] ^= 0x55;
    char bad[800];
    snprintf(bad, sizeof bad, "%s/bad.swf.gz", bl_tmpdir());
    write_bytes(bad, z, zlen);
    eng_diag d;
    eng_diag_clear(&d);
    eng_workload *w = NULL;
    int rc = eng_swf_read(bad, NULL, &w, &d);
    CU_ASSERT(rc == ENG_IO || rc == ENG_PARSE);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(strncmp(d.msg, bad, strlen(bad)), 0);
    free(z);
    free(text);
}

/* Reads path, writes it to out, reads that back: same jobs, bit for bit,
 * and the same header entries apart from the regenerated ones. */
static void round_trip(const char *path, const char *out_name)
{
    eng_workload *a = read_ok(path, NULL);
    if (!a)
        return;
    char out[800];
    snprintf(out, sizeof out, "%s/%s", bl_tmpdir(), out_name);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(out, a, NULL, &d), ENG_OK);
    eng_workload *b = read_ok(out, NULL);
    if (!b) {
        eng_workload_destroy(a);
        return;
    }
    CU_ASSERT_EQUAL_FATAL(b->n_jobs, a->n_jobs);
    size_t same = 0;
    for (size_t i = 0; i < a->n_jobs; i++)
        same += same_fields(&a->jobs[i], &b->jobs[i]);
    CU_ASSERT_EQUAL(same, a->n_jobs);
    CU_ASSERT_EQUAL(b->n_reordered, 0);
    CU_ASSERT_EQUAL(b->n_part_lines, 0);

    CU_ASSERT_STRING_EQUAL(b->hdr.version, "2.2");
    CU_ASSERT_EQUAL(b->hdr.max_jobs, (int64_t)a->n_jobs);
    CU_ASSERT_EQUAL(b->hdr.max_records, (int64_t)a->n_jobs);
    CU_ASSERT_EQUAL(kv_count(b, "Version"), 1);
    CU_ASSERT_EQUAL(kv_count(b, "MaxJobs"), 1);
    size_t ib = 0, kept = 0, expected = 0;
    for (size_t ia = 0; ia < a->hdr.n_kv; ia++) {
        const eng_swf_kv *ka = &a->hdr.kv[ia];
        if (!strcmp(ka->key, "Version") || !strcmp(ka->key, "MaxJobs") ||
            !strcmp(ka->key, "MaxRecords"))
            continue;
        expected++;
        while (ib < b->hdr.n_kv &&
               (!strcmp(b->hdr.kv[ib].key, "Version") || !strcmp(b->hdr.kv[ib].key, "MaxJobs") ||
                !strcmp(b->hdr.kv[ib].key, "MaxRecords")))
            ib++;
        if (ib < b->hdr.n_kv && !strcmp(b->hdr.kv[ib].key, ka->key) &&
            !strcmp(b->hdr.kv[ib].value, ka->value))
            kept++;
        ib++;
    }
    CU_ASSERT_EQUAL(kept, expected);
    CU_ASSERT_EQUAL(b->hdr.n_kv, expected + 3);
    CU_ASSERT_EQUAL(b->hdr.max_procs, a->hdr.max_procs);
    CU_ASSERT_EQUAL(b->hdr.unix_start_time, a->hdr.unix_start_time);
    eng_workload_destroy(a);
    eng_workload_destroy(b);
}

static void test_round_trip(void)
{
    round_trip(bl_src("traces/fixtures/small.swf"), "small.swf");
    round_trip(bl_src("traces/fixtures/small.swf"), "small.swf.gz");
    round_trip(bl_src("traces/fixtures/odd_header.swf"), "odd.swf");
    round_trip(bl_src("traces/fixtures/preempt_yes.swf"), "yes.swf.gz");

    /* The .gz output really is gzip, and no temporary file is left. */
    const char *dir = bl_tmpdir();
    char out[800];
    snprintf(out, sizeof out, "%s/x.swf.gz", dir);
    eng_workload *w = read_ok(bl_src("traces/fixtures/small.swf"), NULL);
    if (!w)
        return;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(out, w, NULL, &d), ENG_OK);
    size_t n;
    char *bytes = bl_slurp(out, &n);
    CU_ASSERT_FATAL(bytes && n > 2);
    CU_ASSERT((unsigned char)bytes[0] == 0x1f && (unsigned char)bytes[1] == 0x8b);
    free(bytes);
    CU_ASSERT_EQUAL(dir_entries(dir), 1);
    eng_workload_destroy(w);
}

/* What eng_swf_write_stream writes for w, as a string the caller frees;
 * NULL if it fails. */
static char *stream_text(const eng_workload *w, const eng_swf_write_opts *opts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    int rc = eng_swf_write_stream(mem, w, opts);
    fclose(mem);
    if (rc != ENG_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void test_values_that_need_17_digits(void)
{
    eng_workload *w = eng_workload_create("generated");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    static const double times[] = {0.1,           1.0 / 3,
                                   2.0 / 3 * 1e6, 123456.789012345678,
                                   5e-324,        9007199254740993.0,
                                   1e22,          0.30000000000000004};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        eng_job j = eng_job_unknown();
        j.id = (int64_t)i + 1;
        j.submit_s = 10.0 * (double)i;
        j.runtime_s = times[i];
        j.cpu_avg_s = times[i] / 7;
        j.mem_req_kb = times[i] * 3;
        j.procs_alloc = INT32_MAX;
        j.user = INT64_MAX;
        j.status = (int32_t)i % 6;
        if (j.status >= 2 && j.status <= 4)
            j.status = 5;
        CU_ASSERT_EQUAL(eng_workload_push(w, &j), ENG_OK);
    }
    CU_ASSERT_EQUAL(eng_workload_set_header(w, "Computer", "synthetic"), ENG_OK);
    CU_ASSERT_EQUAL(eng_workload_set_header(w, "MaxProcs", "4096 (64 x 64)"), ENG_OK);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 4096);
    CU_ASSERT_STRING_EQUAL(w->hdr.computer, "synthetic");
    const char *notes[] = {"generator: test, seed 42", "two\nlines"};
    eng_swf_write_opts opts = {.notes = notes, .n_notes = 2};
    char out[800];
    snprintf(out, sizeof out, "%s/gen.swf", bl_tmpdir());
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(out, w, &opts, &d), ENG_OK);
    eng_workload *b = read_ok(out, NULL);
    if (b) {
        CU_ASSERT_EQUAL_FATAL(b->n_jobs, w->n_jobs);
        for (size_t i = 0; i < w->n_jobs; i++)
            CU_ASSERT(same_fields(&w->jobs[i], &b->jobs[i]));
        CU_ASSERT_EQUAL(b->hdr.max_procs, 4096);
        CU_ASSERT_EQUAL(b->hdr.max_jobs, 8);
        CU_ASSERT_STRING_EQUAL(kv_get(b, "Note", 0), "generator: test, seed 42");
        CU_ASSERT_STRING_EQUAL(kv_get(b, "Note", 1), "two\nlines");
        CU_ASSERT_STRING_EQUAL(b->hdr.kv[0].key, "Version");
    }
    eng_workload_destroy(b);

    /* The stream writer, including to a full device. */
    char *buf = stream_text(w, &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    const char *want = "; Version: 2.2\n; MaxJobs: 8\n; MaxRecords: 8\n; Computer: synthetic\n"
                       "; MaxProcs: 4096 (64 x 64)\n; Note: generator: test, seed 42\n"
                       "; Note: two\n;       lines\n1 0 -1 0.1 2147483647 ";
    CU_ASSERT_EQUAL(strncmp(buf, want, strlen(want)), 0);
    free(buf);
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        CU_ASSERT_EQUAL(eng_swf_write_stream(full, w, NULL), ENG_IO);
        fclose(full);
    }
    eng_workload_destroy(w);
    eng_workload_destroy(NULL);
}

/* Derived jobs: every second job of the workload, its wait set to 7 s,
 * written in place of the workload's own jobs. */
static void every_second_job(void *arg, size_t i, eng_job *j)
{
    const eng_workload *w = arg;
    *j = w->jobs[2 * i + 1];
    j->wait_s = 7;
}

static void test_write_derived_jobs(void)
{
    eng_workload *w = eng_workload_create("generated");
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    for (int i = 0; i < 4; i++) {
        eng_job j = eng_job_unknown();
        j.id = 10 + i;
        j.submit_s = 100.0 * i;
        j.runtime_s = 5;
        j.procs_alloc = 2;
        CU_ASSERT_EQUAL(eng_workload_push(w, &j), ENG_OK);
    }
    CU_ASSERT_EQUAL(eng_workload_set_header(w, "Computer", "synthetic"), ENG_OK);
    eng_swf_write_opts opts = {.job = every_second_job, .arg = w, .n_jobs = 2};
    char *buf = stream_text(w, &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    /* the workload's header, the count of the derived jobs, jobs 11 and
     * 13 with their new wait; the workload itself unchanged */
    const char *want = "; Version: 2.2\n; MaxJobs: 2\n; MaxRecords: 2\n; Computer: synthetic\n"
                       "11 100 7 5 2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
                       "13 300 7 5 2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n";
    CU_ASSERT_STRING_EQUAL(buf, want);
    CU_ASSERT_EQUAL(w->n_jobs, 4);
    CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].wait_s, -1, 0);
    free(buf);
    eng_workload_destroy(w);
}

static void test_write_unwritable(void)
{
    eng_workload *w = read_ok(bl_src("traces/fixtures/small.swf"), NULL);
    if (!w)
        return;
    const char *dir = bl_tmpdir();
    char out[1024], want[1100];
    eng_diag d;

    /* a missing directory */
    snprintf(out, sizeof out, "%s/missing/out.swf", dir);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(out, w, NULL, &d), ENG_IO);
    snprintf(want, sizeof want, "%s: cannot write: ", out);
    CU_ASSERT_EQUAL(strncmp(d.msg, want, strlen(want)), 0);
    CU_ASSERT_EQUAL(dir_entries(dir), 0);

    /* a file where the directory should be */
    char file[800];
    snprintf(file, sizeof file, "%s/file", dir);
    write_bytes(file, "x", 1);
    snprintf(out, sizeof out, "%s/out.swf.gz", file);
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_swf_write(out, w, NULL, &d), ENG_IO);
    snprintf(want, sizeof want, "%s: cannot write: ", out);
    CU_ASSERT_EQUAL(strncmp(d.msg, want, strlen(want)), 0);
    CU_ASSERT_EQUAL(dir_entries(dir), 1);

    /* a directory without write permission (meaningless for root) */
    if (geteuid() != 0) {
        char ro[800];
        snprintf(ro, sizeof ro, "%s/ro", dir);
        CU_ASSERT_EQUAL_FATAL(mkdir(ro, 0555), 0);
        snprintf(out, sizeof out, "%s/out.swf", ro);
        eng_diag_clear(&d);
        CU_ASSERT_EQUAL(eng_swf_write(out, w, NULL, &d), ENG_IO);
        snprintf(want, sizeof want, "%s: cannot write: Permission denied", out);
        CU_ASSERT_STRING_EQUAL(d.msg, want);
        CU_ASSERT_EQUAL(dir_entries(ro), 0);
        chmod(ro, 0755);
    }
    eng_workload_destroy(w);
}

/* The Parallel Workloads Archive logs, when the logs' folder has them. */
static void test_kth_log(void)
{
    const char *path = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    if (!path) {
        bl_skip_case("KTH-SP2-1996-2.1-cln.swf absent from %s", bl_traces_dir());
        return;
    }
    eng_workload *w = read_ok(path, NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 28476);
    CU_ASSERT_EQUAL(w->n_malformed, 0);
    CU_ASSERT_EQUAL(w->n_part_lines, 0);
    CU_ASSERT_EQUAL(w->n_dup_ids, 0);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 100);
    CU_ASSERT_EQUAL(w->hdr.max_nodes, 100);
    CU_ASSERT_EQUAL(w->hdr.max_jobs, 28490);
    CU_ASSERT_EQUAL(w->hdr.max_records, 28476);
    CU_ASSERT_EQUAL(w->hdr.unix_start_time, 843480031);
    CU_ASSERT_STRING_EQUAL(w->hdr.time_zone_string, "Europe/Stockholm");
    CU_ASSERT_STRING_EQUAL(w->hdr.preemption, "No");
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Information", 0),
                           "http://www.pdc.kth.se/\n"
                           "http://www.cs.huji.ac.il/labs/parallel/workload/");
    CU_ASSERT_EQUAL(kv_count(w, "Note"), 2);
    CU_ASSERT_EQUAL(w->jobs[0].id, 15);
    CU_ASSERT_EQUAL(w->jobs[0].submit_s, 599850);
    eng_workload_destroy(w);
}


/* Queue and Partition lines: number, name, the header's own keys in the
 * details (MaxRuntime, MaxNodes, MaxProcs), free text kept, a line that
 * does not start with a number (-1), continuation lines left out of the
 * line; Max* per-partition counts in parentheses. */
static void test_queue_lines(void)
{
    const char *path = bl_write_tmp("queues.swf",
                                    "; MaxNodes: 24 (16 + 8)\n"
                                    "; MaxProcs: 64 (32, 32)\n"
                                    "; Queue: 1 short MaxRuntime=3600 MaxNodes=4\n"
                                    "; Queue:  2  long (MaxProcs=16, 2 days)\n"
                                    ";   more about queue 2\n"
                                    "; Queue: batch jobs\n"
                                    "; Partition: 1 thin MaxNodes=16 MaxProcs=32\n" LINE(1, 0));
    eng_workload *w = read_ok(path, NULL);
    if (!w)
        return;
    eng_swf_class *q = NULL, *pt = NULL;
    size_t nq = 0, np = 0;
    CU_ASSERT_EQUAL(eng_swf_classes(&w->hdr, "Queue", &q, &nq), ENG_OK);
    CU_ASSERT_EQUAL(eng_swf_classes(&w->hdr, "Partition", &pt, &np), ENG_OK);
    CU_ASSERT_EQUAL_FATAL(nq, 3);
    CU_ASSERT_EQUAL(q[0].number, 1);
    CU_ASSERT_STRING_EQUAL(q[0].name, "short");
    CU_ASSERT_DOUBLE_EQUAL(q[0].max_runtime_s, 3600, 0);
    CU_ASSERT_EQUAL(q[0].max_nodes, 4);
    CU_ASSERT_EQUAL(q[0].max_procs, -1);
    CU_ASSERT_EQUAL(q[1].number, 2);
    CU_ASSERT_STRING_EQUAL(q[1].name, "long");
    CU_ASSERT_EQUAL(q[1].max_procs, 16);
    CU_ASSERT_DOUBLE_EQUAL(q[1].max_runtime_s, -1, 0);
    CU_ASSERT_EQUAL(q[1].text_len, strlen("2  long (MaxProcs=16, 2 days)"));
    CU_ASSERT_EQUAL(q[2].number, -1);
    CU_ASSERT_STRING_EQUAL(q[2].name, "");
    CU_ASSERT_EQUAL_FATAL(np, 1);
    CU_ASSERT_EQUAL(pt[0].max_nodes, 16);
    CU_ASSERT_EQUAL(pt[0].max_procs, 32);
    int64_t parts[4];
    CU_ASSERT_EQUAL(eng_swf_value_parts(kv_get(w, "MaxNodes", 0), parts, 4), 2);
    CU_ASSERT_EQUAL(parts[0], 16);
    CU_ASSERT_EQUAL(parts[1], 8);
    CU_ASSERT_EQUAL(eng_swf_value_parts(kv_get(w, "MaxProcs", 0), parts, 1), 1);
    CU_ASSERT_EQUAL(eng_swf_value_parts("128", parts, 4), 0);
    free(q);
    free(pt);
    eng_swf_class *none = (eng_swf_class *)0x1;
    size_t nn = 9;
    CU_ASSERT_EQUAL(eng_swf_classes(&w->hdr, "Partitions", &none, &nn), ENG_OK);
    CU_ASSERT_PTR_NULL(none);
    CU_ASSERT_EQUAL(nn, 0);
    eng_workload_destroy(w);
}

static void test_sdsc_log(void)
{
    const char *path = bl_trace("SDSC-SP2-1998-4.2-cln.swf.gz");
    if (!path) {
        bl_skip_case("SDSC-SP2-1998-4.2-cln.swf.gz absent from %s", bl_traces_dir());
        return;
    }
    eng_workload *w = read_ok(path, NULL);
    if (!w)
        return;
    CU_ASSERT_EQUAL(w->n_jobs, 59715);
    CU_ASSERT_EQUAL(w->hdr.max_procs, 128);
    CU_ASSERT_EQUAL(w->hdr.max_queues, 7);
    CU_ASSERT_STRING_EQUAL(w->hdr.time_zone_string, "US/Pacific");
    CU_ASSERT_EQUAL(kv_count(w, "Queue"), 7);
    CU_ASSERT_STRING_EQUAL(kv_get(w, "Queue", 6), "6  No_Class");
    eng_swf_class *q = NULL;
    size_t nq = 0;
    CU_ASSERT_EQUAL(eng_swf_classes(&w->hdr, "Queue", &q, &nq), ENG_OK);
    CU_ASSERT_EQUAL(nq, 7);
    if (nq == 7) {
        CU_ASSERT_EQUAL(q[6].number, 6);
        CU_ASSERT_STRING_EQUAL(q[6].name, "No_Class");
        CU_ASSERT_STRING_EQUAL(q[3].name, "normal");
        CU_ASSERT_EQUAL(q[3].max_nodes, -1); /* the header gives names only */
    }
    free(q);
    size_t no_runtime = 0, queued = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        no_runtime += w->jobs[i].runtime_s == -1;
        queued += w->jobs[i].queue >= 0;
    }
    CU_ASSERT(no_runtime > 0);
    CU_ASSERT_EQUAL(no_runtime, 5671);
    CU_ASSERT_EQUAL(queued, w->n_jobs);
    CU_ASSERT_EQUAL(w->jobs[0].cpu_avg_s, 27758);
    eng_workload_destroy(w);
    round_trip(path, "sdsc.swf.gz"); /* decimals in field 6, a long header */
}

int bl_suite_eng_swf(void)
{
    CU_pSuite s = CU_add_suite("eng_swf", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "field names, unknown job", test_field_names);
    CU_add_test(s, "Queue and Partition lines", test_queue_lines);
    CU_add_test(s, "small.swf known answers", test_small_fixture);
    CU_add_test(s, "odd header spacing, notes, free text, keys after data", test_odd_header);
    CU_add_test(s, "header continuation rules", test_inline_header_rules);
    CU_add_test(s, "CRLF line ends", test_crlf);
    CU_add_test(s, "empty and comment-only files", test_empty_files);
    CU_add_test(s, "long lines, no final newline", test_no_final_newline_and_long_lines);
    CU_add_test(s, "17 and 19 fields rejected", test_field_count_errors);
    CU_add_test(s, "bad values rejected with file:line", test_value_errors);
    CU_add_test(s, "unused fields: out-of-range values read as -1", test_ignored_values);
    CU_add_test(s, "unknown submit times kept at the end", test_unknown_submit);
    CU_add_test(s, "huge values", test_huge_values);
    CU_add_test(s, "binary junk", test_binary_junk);
    CU_add_test(s, "cannot open", test_cannot_open);
    CU_add_test(s, "unsorted submits: stable order", test_unsorted);
    CU_add_test(s, "Preemption: Double skips parts", test_preemption_double);
    CU_add_test(s, "Preemption: Yes merges parts", test_preemption_yes);
    CU_add_test(s, "duplicate job numbers", test_duplicate_ids);
    CU_add_test(s, "lenient mode", test_lenient);
    CU_add_test(s, "gzip input, truncated and corrupt streams", test_gzip);
    CU_add_test(s, "round trip plain and gzip", test_round_trip);
    CU_add_test(s, "generated workload, 17-digit values, notes", test_values_that_need_17_digits);
    CU_add_test(s, "write derived jobs in place of the workload's", test_write_derived_jobs);
    CU_add_test(s, "write to an unwritable place", test_write_unwritable);
    CU_add_test(s, "KTH-SP2 log", test_kth_log);
    CU_add_test(s, "SDSC-SP2 log", test_sdsc_log);
    return 0;
}
