/* test_eng_coreidx.c — core indices under core allocation (eng_coreidx.h),
 * on hand-made results without SimGrid: the index of a core, the lowest
 * free cores first, ends before starts at one instant, starts of one
 * instant by job index, a job of zero length, spans merged across hosts,
 * a job that never ran, and a host asked for more cores than it has. */
#include "bl_test.h"
#include "eng_coreidx.h"

#include <stdio.h>
#include <string.h>

/* Hosts a (4 cores: indices 0-3), b (2: 4-5), c (4: 6-9). */
static eng_host HOSTS[] = {
    {.name = "a", .cores = 4},
    {.name = "b", .cores = 2},
    {.name = "c", .cores = 4},
};

static const eng_platform PLATFORM = {.hosts = HOSTS, .n_hosts = 3, .total_cores = 10};

/* The spans of job j as Batsim writes them ("0-1 3"). */
static void spans_text(const eng_coreidx *x, size_t j, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t s = 0; s < x->count[j]; s++) {
        const eng_core_span *sp = &x->spans[x->off[j] + (size_t)s];
        if (sp->n > 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%lld-%lld", s ? " " : "",
                                     (long long)sp->first, (long long)(sp->first + sp->n - 1));
        else
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", s ? " " : "",
                                     (long long)sp->first);
    }
}

/* Derivation, events in (time, ends first, job) order:
 *  t=0  J0 starts: a takes 2 -> 0-1.
 *       J1 starts: a 2 more -> 2-3; b 2 -> 4-5; merged "2-5".
 *  t=5  J1 ends (frees 2-3, 4-5). J2 starts: a 1 -> 2; c 3 -> 6-8: "2 6-8".
 *  t=8  J2 ends (frees 2, 6-8); J3 (zero length) ends, then starts: b 2
 *       -> 4-5, given back at once; J4 starts: b 2 -> 4-5 again; a 1 -> 2;
 *       its runs list b before a: "2 4-5".
 *  t=10 J0 ends (frees 0-1). J6 starts: a 3 -> 0, 1, 3 (2 is J4's): "0-1 3".
 *  J5 never ran: nothing. */
static void test_known_answer(void)
{
    const eng_host_run runs[] = {
        {.host = 0, .n = 1, .cores = 2},                                  /* J0: 0 */
        {.host = 0, .n = 2, .cores = 2},                                  /* J1: 1 */
        {.host = 0, .n = 1, .cores = 1}, {.host = 2, .n = 1, .cores = 3}, /* J2: 2, 3 */
        {.host = 1, .n = 1, .cores = 2},                                  /* J3: 4 */
        {.host = 1, .n = 1, .cores = 2}, {.host = 0, .n = 1, .cores = 1}, /* J4: 5, 6 */
        {.host = 0, .n = 1, .cores = 3},                                  /* J6: 7 */
    };
    const eng_job_result res[] = {
        {.start_s = 0, .end_s = 10, .n_hosts = 1, .n_runs = 1, .runs_off = 0},
        {.start_s = 0, .end_s = 5, .n_hosts = 2, .n_runs = 1, .runs_off = 1},
        {.start_s = 5, .end_s = 8, .n_hosts = 2, .n_runs = 2, .runs_off = 2},
        {.start_s = 8, .end_s = 8, .n_hosts = 1, .n_runs = 1, .runs_off = 4},
        {.start_s = 8, .end_s = 12, .n_hosts = 2, .n_runs = 2, .runs_off = 5},
        {.start_s = -1, .end_s = -1},
        {.start_s = 10, .end_s = 20, .n_hosts = 1, .n_runs = 1, .runs_off = 7},
    };
    static const char *const want[] = {"0-1", "2-5", "2 6-8", "4-5", "2 4-5", "", "0-1 3"};
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_coreidx_build(&PLATFORM, res, 7, runs, &x, &d), 0);
    CU_ASSERT_EQUAL(x.n_jobs, 7);
    char buf[128];
    for (size_t j = 0; j < 7; j++) {
        spans_text(&x, j, buf, sizeof buf);
        if (strcmp(buf, want[j]) != 0)
            printf("\n  job %zu: '%s', expected '%s'\n", j, buf, want[j]);
        CU_ASSERT_STRING_EQUAL(buf, want[j]);
    }
    /* the cores named add up to the cores the runs hold */
    int64_t named = 0;
    for (size_t s = 0; s < x.n_spans; s++)
        named += x.spans[s].n;
    CU_ASSERT_EQUAL(named, 2 + 4 + 4 + 2 + 3 + 3);
    eng_coreidx_fini(&x);
    eng_coreidx_fini(&x); /* a finished struct is zeroed: fini again is safe */
}

/* Two jobs at once on b (2 cores) asking for 3 between them: a broken
 * engine invariant, reported with the host, never wrapped around. */
static void test_overfull_host(void)
{
    const eng_host_run runs[] = {
        {.host = 1, .n = 1, .cores = 2},
        {.host = 1, .n = 1, .cores = 1},
    };
    const eng_job_result res[] = {
        {.start_s = 0, .end_s = 4, .n_hosts = 1, .n_runs = 1, .runs_off = 0},
        {.start_s = 3, .end_s = 6, .n_hosts = 1, .n_runs = 1, .runs_off = 1},
    };
    eng_coreidx x;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_coreidx_build(&PLATFORM, res, 2, runs, &x, &d), ENG_INVARIANT);
    CU_ASSERT(bl_contains(d.msg, "host b holds more cores than its 2"));
    CU_ASSERT_PTR_NULL(x.spans);
    /* the second job starting when the first ends fits */
    const eng_job_result later[] = {
        {.start_s = 0, .end_s = 4, .n_hosts = 1, .n_runs = 1, .runs_off = 0},
        {.start_s = 4, .end_s = 6, .n_hosts = 1, .n_runs = 1, .runs_off = 1},
    };
    CU_ASSERT_EQUAL_FATAL(eng_coreidx_build(&PLATFORM, later, 2, runs, &x, &d), 0);
    CU_ASSERT_EQUAL(x.count[1], 1);
    CU_ASSERT_EQUAL(x.spans[x.off[1]].first, 4);
    eng_coreidx_fini(&x);
}

int bl_suite_eng_coreidx(void)
{
    CU_pSuite s = CU_add_suite("eng_coreidx", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "known answer", test_known_answer);
    CU_add_test(s, "a host holding more cores than it has", test_overfull_host);
    return 0;
}
