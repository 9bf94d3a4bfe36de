/* test_eng_resv.c — reservations: the file's reader and its errors, the
 * hosts on a platform, the schedules fcfs, easy and conservative make
 * around them (checker on: no job runs in a window on its hosts, first
 * promises kept), the engine's refusal of a start into a window, and a
 * log's candidate outages. */
#include "bl_scenarios.h"
#include "bl_sched.h"
#include "bl_test.h"
#include "eng_resv.h"
#include "pol_registry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Reads text as a reservation file; 0 or the code, the message in d. */
static int read_text(const char *text, eng_resvs *r, eng_diag *d)
{
    eng_diag_clear(d);
    return eng_resvs_read(bl_write_tmp("resv.txt", text), r, d);
}

static void test_reads(void)
{
    eng_resvs r;
    eng_diag d;
    CU_ASSERT_EQUAL_FATAL(read_text("# maintenance and a hold\n"
                                    "\n"
                                    "ReservationName=maint StartTime=100 EndTime=200 Nodes=ALL "
                                    "Flags=MAINT  # the machine\n"
                                    "  starttime=50.5 reservationname=hold duration=10 "
                                    "nodes=h[1-2],h4\r\n"
                                    "ReservationName=m2 StartTime=300 Duration=1 Flags=maint\n",
                                    &r, &d),
                          0);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_STRING_EQUAL(r.v[0].name, "maint");
    CU_ASSERT_TRUE(r.v[0].maint);
    CU_ASSERT_DOUBLE_EQUAL(r.v[0].start_s, 100, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.v[0].end_s, 200, 0);
    CU_ASSERT_EQUAL(r.v[0].line, 3);
    CU_ASSERT_STRING_EQUAL(r.v[1].nodes, "h[1-2],h4");
    CU_ASSERT_FALSE(r.v[1].maint);
    CU_ASSERT_DOUBLE_EQUAL(r.v[1].start_s, 50.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.v[1].end_s, 60.5, 0); /* Duration */
    CU_ASSERT_STRING_EQUAL(r.v[2].nodes, "ALL");   /* MAINT without Nodes */

    /* on hosts h1..h4: h1, h2 and h4 hold maint then hold; h3 maint only;
     * every host m2 */
    eng_platform *p = bl_uniform_platform(4, 1);
    eng_holds h;
    CU_ASSERT_EQUAL_FATAL(eng_resvs_resolve(&r, p, &h, &d), 0);
    CU_ASSERT_EQUAL(h.n, 3 * 4 - 1);
    CU_ASSERT_EQUAL(h.off[1] - h.off[0], 3);
    CU_ASSERT_EQUAL(h.off[3] - h.off[2], 2);
    CU_ASSERT_EQUAL(h.w[h.off[0]].resv, 1); /* by start: hold (50.5) first */
    CU_ASSERT_PTR_NOT_NULL(eng_holds_meet(&h, 0, 60, 61));
    CU_ASSERT_PTR_NULL(eng_holds_meet(&h, 0, 60.5, 100)); /* touching windows do not meet */
    CU_ASSERT_PTR_NULL(eng_holds_meet(&h, 2, 0, 100));
    CU_ASSERT_EQUAL(eng_holds_meet(&h, 2, 150, 1000)->resv, 0);
    eng_holds_fini(&h);
    eng_platform_destroy(p);
    eng_resvs_fini(&r);

    CU_ASSERT_EQUAL(read_text("# nothing held\n", &r, &d), 0);
    CU_ASSERT_EQUAL(r.n, 0);
    eng_resvs_fini(&r);
}

/* One bad file per class of error: the code and the message (file:line,
 * what was expected). */
static void test_errors(void)
{
    const struct {
        const char *text;
        int code;
        const char *msg; /* after "PATH:" */
    } c[] = {
        {"ReservationName=a StartTime=0 EndTime=10 Nodes=h1 Color=red\n", ENG_PARSE,
         "1: unknown keyword 'Color' (expected ReservationName, StartTime, EndTime, Duration, "
         "Nodes, Flags, Until, TimeZone or MaxTime)"},
        {"\nReservationName=a StartTime=noon EndTime=10 Nodes=h1\n", ENG_PARSE,
         "2: StartTime: expected seconds >= 0 from the trace's start, got 'noon'"},
        {"ReservationName=a StartTime=0 EndTime=1e999 Nodes=h1\n", ENG_PARSE,
         "1: EndTime: expected seconds >= 0, got '1e999'"},
        {"ReservationName=a StartTime=10 EndTime=10 Nodes=h1\n", ENG_PARSE,
         "1: reservation a ends at 10 s, not after its start at 10 s (expected EndTime > "
         "StartTime, or Duration > 0)"},
        {"ReservationName=a StartTime=10 Nodes=h1\n", ENG_PARSE,
         "1: expected one of EndTime=SECONDS or Duration=SECONDS"},
        {"StartTime=10 EndTime=20 Nodes=h1\n", ENG_PARSE, "1: expected ReservationName=NAME"},
        {"ReservationName=a StartTime=10 EndTime=20\n", ENG_PARSE,
         "1: expected Nodes=HOSTLIST (or ALL)"},
        {"ReservationName=a StartTime=10 EndTime=20 Nodes=h1 Flags=IGNORE_JOBS\n", ENG_PARSE,
         "1: Flags: expected MAINT, HOURLY, DAILY, WEEKDAY, WEEKEND or WEEKLY, separated by "
         "commas, got 'IGNORE_JOBS'"},
        {"ReservationName=a StartTime=10 EndTime=20 Nodes=h1 Flags=MAINT\n", ENG_PARSE,
         "1: Flags=MAINT holds the whole machine: expected Nodes=ALL or no Nodes, got Nodes=h1"},
        {"ReservationName=a StartTime=0 StartTime=1 EndTime=20 Nodes=h1\n", ENG_PARSE,
         "1: StartTime given twice"},
        {"ReservationName=a StartTime=0 EndTime=20 h1\n", ENG_PARSE,
         "1: expected KEYWORD=VALUE (ReservationName, StartTime, EndTime, Duration, Nodes, "
         "Flags, Until, TimeZone, MaxTime), got 'h1'"},
    };
    for (size_t k = 0; k < N_OF(c); k++) {
        eng_resvs r;
        eng_diag d;
        CU_ASSERT_EQUAL(read_text(c[k].text, &r, &d), c[k].code);
        const char *colon = strstr(d.msg, "resv.txt:");
        CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
        if (strcmp(colon + strlen("resv.txt:"), c[k].msg) != 0)
            printf("\n  case %zu: %s\n", k, d.msg);
        CU_ASSERT_STRING_EQUAL(colon + strlen("resv.txt:"), c[k].msg);
        CU_ASSERT_EQUAL(r.n, 0);
        eng_resvs_fini(&r);
    }

    /* on the platform: an unknown host, a bad range, overlapping windows */
    const struct {
        const char *text, *msg;
    } p_cases[] = {
        {"ReservationName=a StartTime=0 EndTime=10 Nodes=h[1-2],x9\n",
         "1: reservation a: Nodes=h[1-2],x9: host 'x9' is not in platform uniform"},
        {"ReservationName=a StartTime=0 EndTime=10 Nodes=h[3-9]\n",
         "1: reservation a: Nodes=h[3-9]: host 'h5' is not in platform uniform"},
        {"ReservationName=a StartTime=0 EndTime=10 Nodes=h[2-1]\n",
         "1: reservation a: Nodes=h[2-1]: expected a range a-b with a <= b in 'h[2-1]'"},
        {"ReservationName=a StartTime=0 EndTime=100 Nodes=h[1-2]\n"
         "# later\n"
         "ReservationName=b StartTime=50 EndTime=60 Nodes=h2,h3\n",
         "3: reservation b [50, 60) overlaps reservation a [0, 100) of line 1 on host h2 "
         "(expected windows that do not overlap on a host)"},
    };
    eng_platform *p = bl_uniform_platform(4, 1);
    for (size_t k = 0; k < N_OF(p_cases); k++) {
        eng_resvs r;
        eng_diag d;
        CU_ASSERT_EQUAL_FATAL(read_text(p_cases[k].text, &r, &d), 0);
        eng_holds h;
        CU_ASSERT_EQUAL(eng_resvs_resolve(&r, p, &h, &d), ENG_INVAL);
        const char *colon = strstr(d.msg, "resv.txt:");
        CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
        if (strcmp(colon + strlen("resv.txt:"), p_cases[k].msg) != 0)
            printf("\n  case %zu: %s\n", k, d.msg);
        CU_ASSERT_STRING_EQUAL(colon + strlen("resv.txt:"), p_cases[k].msg);
        CU_ASSERT_PTR_NULL(h.off);
        eng_resvs_fini(&r);
    }
    eng_platform_destroy(p);
}

/* Runs jobs on 4 hosts of 1 core under policy with the reservations of
 * text (NULL: none), checker on. */
static eng_resvs resv_now; /* the last run_with's, freed by the next or the suite */

static int free_resv(void)
{
    eng_resvs_fini(&resv_now);
    return 0;
}

static int run_with(const char *policy, const bl_jobspec *jobs, size_t n, const char *text,
                    bl_sched *s)
{
    eng_resvs *r = &resv_now;
    eng_resvs_fini(r);
    eng_diag d;
    if (text)
        CU_ASSERT_EQUAL_FATAL(read_text(text, r, &d), 0);
    bl_opts o = {.resv = text ? r : NULL};
    return bl_core_run(policy, jobs, n, bl_uniform_platform(4, 1), &o, s);
}

/* A reservation of h1 and h2 over [50, 200) delays a job:
 *   J1 (0 s, 3 hosts, 100 s) would end at 100, past 50: it may not take h1
 *      or h2, and h3, h4 are too few; at 200 (the window's end) every host
 *      is free: J1 on h1-h3 over [200, 300). Without the reservation: [0,
 *      100).
 *   J2 (0 s, 2 hosts, 40 s) ends by 50 wherever it starts:
 *      fcfs keeps it behind J1: at 200 only h4 is left, so [300, 340);
 *      easy backfills it at 0 on h1, h2 (it ends by J1's shadow time 200).
 * Conservative plans whole-pool windows only: refused. */
static void test_delays_a_job(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 100, 3, 0}, {2, 0, 40, 40, 2, 0}};
    const char *text = "ReservationName=hold StartTime=50 EndTime=200 Nodes=h[1-2]\n";
    const bl_expect fcfs[] = {{1, 200, 300}, {2, 300, 340}};
    const bl_expect easy[] = {{1, 200, 300}, {2, 0, 40}};
    const bl_expect none[] = {{1, 0, 100}, {2, 100, 140}};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(run_with("fcfs", jobs, 2, text, &s), 0);
    bl_check(&s, fcfs, 2, "fcfs around a reservation");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL_FATAL(run_with("easy", jobs, 2, text, &s), 0);
    bl_check(&s, easy, 2, "easy around a reservation");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL_FATAL(run_with("fcfs", jobs, 2, NULL, &s), 0);
    bl_check(&s, none, 2, "fcfs without it");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL(run_with("conservative", jobs, 2, text, &s), ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "conservative plans reservations that hold its "
                                              "whole pool"));
    bl_sched_fini(&s);
    /* a policy that does not declare it plans around reservations */
    CU_ASSERT_EQUAL(run_with("packet", jobs, 2, text, &s), ENG_USAGE);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "--reservations needs a policy that plans around them "
                                       "(POL_FLAG_RESERVATIONS: fcfs, easy, conservative, slurm)");
    bl_sched_fini(&s);
}

/* A maintenance holds the whole machine over [150, 400):
 *   J1 (0 s, 2 hosts, 100 s): [0, 100), ends before it.
 *   J2 (0 s, 2 hosts, 300 s) would cross it: its shadow time moves from 0
 *      (2 hosts free) to 400, the window's end: [400, 700).
 *   J3 (10 s, 4 hosts, 50 s) and J4 (20 s, 1 host, 40 s):
 *      fcfs keeps them behind J2: J3 [700, 750), J4 [750, 790);
 *      easy and conservative: J4 at 20 on a free host (ends at 60 <= 150
 *      and by the shadow 400), J3 at J1's end, 100, ending 150 when the
 *      window begins: [100, 150);
 *      slurm: below.
 * Without the maintenance, easy: J2 [0, 300), J3 head blocked until 300,
 * J4 backfills at J1's end [100, 140), J3 [300, 350). */
static void test_maintenance(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 100, 2, 0},
                               {2, 0, 300, 300, 2, 0},
                               {3, 10, 50, 50, 4, 0},
                               {4, 20, 40, 40, 1, 0}};
    const char *text = "ReservationName=maint StartTime=150 EndTime=400 Nodes=ALL Flags=MAINT\n";
    const bl_expect fcfs[] = {{1, 0, 100}, {2, 400, 700}, {3, 700, 750}, {4, 750, 790}};
    const bl_expect easy[] = {{1, 0, 100}, {2, 400, 700}, {3, 100, 150}, {4, 20, 60}};
    const bl_expect none[] = {{1, 0, 100}, {2, 0, 300}, {3, 300, 350}, {4, 100, 140}};
    /* slurm: its backfill passes run every bf_interval (30 s), so J4 starts
     * at 30; its plan windows are closed, [start, end], so J3 ending at 150
     * would meet the window and waits for J2's end: [700, 750) */
    const bl_expect slurm[] = {{1, 0, 100}, {2, 400, 700}, {3, 700, 750}, {4, 30, 70}};
    const struct {
        const char *policy, *what;
        const bl_expect *e;
    } c[] = {{"fcfs", "fcfs, maintenance", fcfs},
             {"easy", "easy, maintenance", easy},
             {"conservative", "conservative, maintenance", easy},
             {"slurm", "slurm, maintenance", slurm}};
    for (size_t k = 0; k < N_OF(c); k++) {
        bl_sched s;
        CU_ASSERT_EQUAL_FATAL(run_with(c[k].policy, jobs, 4, text, &s), 0);
        bl_check(&s, c[k].e, 4, c[k].what);
        bl_sched_fini(&s);
    }
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(run_with("easy", jobs, 4, NULL, &s), 0);
    bl_check(&s, none, 4, "easy without it");
    bl_sched_fini(&s);
}

/* Under core allocation, 2 hosts of 2 cores, h1 held over [50, 200)
 * (easy, fcfs, and slurm with its plan per host):
 *   J1 (0 s, 3 cores, 100 s) crosses 50: only h2's 2 cores may take it;
 *      at 200 it takes h1's 2 cores and one of h2: [200, 300).
 *   J2 (0 s, 1 core, 40 s) ends by 50: easy backfills it at 0 on h1 (first
 *      fit); fcfs keeps it behind J1, and at 200 h2's last core takes it:
 *      [200, 240). */
static void test_core_allocation(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 100, 3, 0}, {2, 0, 40, 40, 1, 0}};
    eng_resvs r;
    eng_diag d;
    CU_ASSERT_EQUAL_FATAL(
        read_text("ReservationName=h StartTime=50 EndTime=200 Nodes=h1\n", &r, &d), 0);
    const bl_expect easy[] = {{1, 200, 300}, {2, 0, 40}}, fcfs[] = {{1, 200, 300}, {2, 200, 240}};
    bl_opts o = {.alloc = POL_ALLOC_CORE, .resv = &r};
    bl_sched s;
    CU_ASSERT_EQUAL_FATAL(bl_core_run("easy", jobs, 2, bl_uniform_platform(2, 2), &o, &s), 0);
    bl_check(&s, easy, 2, "easy, cores");
    bl_sched_fini(&s);
    CU_ASSERT_EQUAL_FATAL(bl_core_run("fcfs", jobs, 2, bl_uniform_platform(2, 2), &o, &s), 0);
    bl_check(&s, fcfs, 2, "fcfs, cores");
    bl_sched_fini(&s);
    /* slurm plans per host here: h1's plan has no core over [50, 200), J1
     * is planned at 200 and J2 backfills at 0, as under easy */
    CU_ASSERT_EQUAL_FATAL(bl_core_run("slurm", jobs, 2, bl_uniform_platform(2, 2), &o, &s), 0);
    bl_check(&s, easy, 2, "slurm, cores, a window on one host");
    bl_sched_fini(&s);
    eng_resvs_fini(&r);
}

/* A policy that counts units and ignores the windows, though it says it
 * plans around them: the engine refuses its start into a window. J1 (2
 * hosts, 100 s) at 0 with h[1-3] held from 50: only h4 may take it. */
static const pol_type counting = {
    .name = "counting",
    .flags = POL_FLAG_RESERVATIONS,
    .schedule = bl_counting_schedule,
};

static void test_refused_start(void)
{
    const bl_jobspec jobs[] = {{1, 0, 100, 100, 2, 0}};
    eng_resvs r;
    eng_diag d;
    CU_ASSERT_EQUAL_FATAL(
        read_text("ReservationName=r StartTime=50 EndTime=60 Nodes=h[1-3]\n", &r, &d), 0);
    bl_opts o = {.resv = &r, .policy_type = &counting};
    bl_sched s;
    CU_ASSERT_EQUAL(bl_core_run(NULL, jobs, 1, bl_uniform_platform(4, 1), &o, &s), ENG_POLICY);
    CU_ASSERT_STRING_EQUAL(s.diag.msg, "t=0: policy counting started job 1 needing 2 units until "
                                       "100, with only 1 free on hosts no reservation holds by "
                                       "then");
    bl_sched_fini(&s);
    eng_resvs_fini(&r);
}

/* A header whose clock starts at unix (-1: none), in zone (NULL: none). */
static eng_swf_header header_at(int64_t unix_start, const char *zone)
{
    eng_swf_header h;
    memset(&h, 0, sizeof h);
    h.unix_start_time = unix_start;
    h.time_zone_string = zone;
    return h;
}

/* Reads text and expands it on h up to last_submit; 0 or the code. */
static int read_expand(const char *text, const eng_swf_header *h, double last_submit, eng_resvs *r,
                       eng_diag *d)
{
    int rc = read_text(text, r, d);
    return rc ? rc : eng_resvs_expand(r, h, last_submit, d);
}

/* Reads one line on a clock starting at unix in zone, expands it up to
 * last_submit and checks the occurrences' starts. */
static void check_starts(const char *text, int64_t unix_start, const char *zone, double last_submit,
                         const double *starts, size_t n)
{
    eng_resvs r;
    eng_diag d;
    eng_swf_header h = header_at(unix_start, zone);
    CU_ASSERT_EQUAL_FATAL(read_expand(text, &h, last_submit, &r, &d), 0);
    CU_ASSERT_EQUAL(r.n, n);
    for (size_t k = 0; k < n && k < r.n; k++)
        CU_ASSERT_DOUBLE_EQUAL(r.v[k].start_s, starts[k], 0);
    eng_resvs_fini(&r);
}

/* Repeats, by hand. The clock starts on Monday 1970-01-05 00:00 UTC
 * (345600 s after the epoch, a Thursday, plus 4 days):
 *   WEEKDAY at 07:00 UTC (25200), until 600000: Monday to Friday, 25200 +
 *      k * 86400 for k = 0..4; Saturday and Sunday skipped; the next
 *      Monday, 630000, is past Until: 5 windows of 3600 s.
 *   WEEKEND from Monday 00:00: the first is Saturday (432000), then Sunday
 *      (518400); the next Saturday, 1036800, is past Until 700000.
 *   HOURLY at 100, until 7300: 100, 3700, 7300 (Until included).
 * Then DAILY at 07:00 local on Europe/Stockholm (the header's zone)
 * across the change to summer time of 1997-03-30: the clock starts on
 * Saturday 1997-03-29 00:00 UTC (859593600); 07:00 CET is 21600, 07:00
 * CEST the next days 104400 and 190800 (23 h later, then 24 h); without
 * Until, the last submit (200000) ends them. And back to winter time. */
static void test_repeats(void)
{
    eng_resvs r;
    eng_diag d;
    eng_swf_header h = header_at(345600, NULL);
    CU_ASSERT_EQUAL_FATAL(
        read_expand("ReservationName=w StartTime=25200 Duration=3600 Flags=MAINT,WEEKDAY "
                    "TimeZone=UTC Until=600000\n"
                    "ReservationName=e StartTime=0 Duration=60 Flags=weekend Nodes=h1 "
                    "Until=700000\n"
                    "ReservationName=hr StartTime=100 Duration=10 Flags=HOURLY Nodes=h2 "
                    "Until=7300\n",
                    &h, 1e9, &r, &d),
        0);
    const double starts[] = {25200,  111600, 198000, 284400, 370800,
                             432000, 518400, 100,    3700,   7300};
    CU_ASSERT_EQUAL_FATAL(r.n, N_OF(starts));
    for (size_t k = 0; k < N_OF(starts); k++) {
        CU_ASSERT_DOUBLE_EQUAL(r.v[k].start_s, starts[k], 0);
        CU_ASSERT_EQUAL(r.v[k].repeat, ENG_RESV_ONCE);
    }
    CU_ASSERT_DOUBLE_EQUAL(r.v[4].end_s, 374400, 0);
    CU_ASSERT_TRUE(r.v[0].maint);
    CU_ASSERT_STRING_EQUAL(r.v[5].nodes, "h1");
    CU_ASSERT_EQUAL(r.v[9].line, 3);
    eng_resvs_fini(&r);

    const double spring[] = {21600, 104400, 190800};
    check_starts("ReservationName=d StartTime=21600 Duration=60 Flags=DAILY Nodes=ALL\n", 859593600,
                 "Europe/Stockholm", 200000, spring, N_OF(spring));
    /* StartTime in the hour summer time repeats: 02:30 CEST on 1996-10-27
     * (00:30 UTC, 1800 s after 846374400) is itself the first occurrence,
     * the next 02:30 CET on 10-28, 25 h later (91800) */
    const double autumn[] = {1800, 91800};
    check_starts("ReservationName=f StartTime=1800 Duration=60 Flags=DAILY Nodes=ALL\n", 846374400,
                 "Europe/Stockholm", 100000, autumn, N_OF(autumn));
    /* WEEKLY in UTC while the log's zone is Stockholm: 7 days apart */
    const double weekly[] = {21600, 21600 + 604800, 21600 + 2 * 604800};
    check_starts("ReservationName=k StartTime=21600 Duration=60 Flags=WEEKLY Nodes=ALL "
                 "TimeZone=UTC\n",
                 859593600, "Europe/Stockholm", 1300000, weekly, N_OF(weekly));
}

/* Overlapping maintenance windows become their union, as Slurm lets a
 * maintenance take hosts already reserved: [0, 100) and [50, 150) are
 * [0, 150); [150, 200) only touches it and stays; a hold on h1 is kept
 * as it is. */
static void test_maint_union(void)
{
    eng_resvs r;
    eng_diag d;
    eng_swf_header h = header_at(-1, NULL);
    CU_ASSERT_EQUAL_FATAL(read_expand("ReservationName=a StartTime=50 EndTime=150 Flags=MAINT\n"
                                      "ReservationName=h StartTime=300 EndTime=400 Nodes=h1\n"
                                      "ReservationName=b StartTime=0 EndTime=100 Flags=MAINT\n"
                                      "ReservationName=c StartTime=150 EndTime=200 Flags=MAINT\n",
                                      &h, 1000, &r, &d),
                          0);
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_STRING_EQUAL(r.v[0].name, "h");
    CU_ASSERT_STRING_EQUAL(r.v[1].name, "b"); /* the first by start keeps its name and line */
    CU_ASSERT_DOUBLE_EQUAL(r.v[1].start_s, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(r.v[1].end_s, 150, 0);
    CU_ASSERT_EQUAL(r.v[1].line, 3);
    CU_ASSERT_DOUBLE_EQUAL(r.v[2].start_s, 150, 0);
    eng_platform *p = bl_uniform_platform(2, 1);
    eng_holds holds;
    CU_ASSERT_EQUAL(eng_resvs_resolve(&r, p, &holds, &d), 0);
    eng_holds_fini(&holds);
    eng_platform_destroy(p);
    eng_resvs_fini(&r);
}

/* The errors of repeats and limit windows: file:line and what was
 * expected. */
static void test_repeat_errors(void)
{
    const struct {
        const char *text;
        int64_t unix_start;
        const char *msg; /* after "PATH:" */
    } c[] = {
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Until=10\n", 0,
         "1: Until ends a repeating reservation: expected a flag HOURLY, DAILY, WEEKDAY, "
         "WEEKEND or WEEKLY with it"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Flags=HOURLY TimeZone=UTC\n", 0,
         "1: TimeZone places a calendar repeat: expected a flag DAILY, WEEKDAY, WEEKEND or "
         "WEEKLY with it"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Flags=DAILY,WEEKLY\n", 0,
         "1: Flags: expected at most one of HOURLY, DAILY, WEEKDAY, WEEKEND and WEEKLY, got "
         "'DAILY,WEEKLY'"},
        {"ReservationName=a StartTime=50 Duration=1 Nodes=h1 Flags=DAILY Until=10\n", 0,
         "1: Until: expected seconds from the trace's start, not before StartTime, got '10'"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 MaxTime=10\n", 0,
         "1: MaxTime limits the whole machine and holds no host: expected no MAINT and "
         "Nodes=ALL or no Nodes"},
        {"ReservationName=a StartTime=0 Duration=1 MaxTime=ten\n", 0,
         "1: MaxTime: expected seconds >= 0, got 'ten'"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Flags=WEEKDAY\n", -1,
         "1: reservation a repeats by the calendar, which needs the log's '; UnixStartTime:' "
         "header line (this log has none; HOURLY needs no calendar)"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Flags=DAILY TimeZone=Mars/Olympus\n", 0,
         "1: reservation a: time zone 'Mars/Olympus' is not a zoneinfo name (expected one such "
         "as Europe/Stockholm, or UTC)"},
        {"ReservationName=a StartTime=0 Duration=1 Nodes=h1 Flags=HOURLY Until=4e8\n", 0,
         "1: reservation a repeats more than 100000 times before 4e+08 s (expected an Until= "
         "that ends it sooner)"},
        {"ReservationName=day StartTime=0 Duration=100 MaxTime=10\n"
         "ReservationName=night StartTime=50 Duration=100 MaxTime=20\n",
         0,
         "2: limit window night [50, 150) overlaps limit window day [0, 100) of line 1 "
         "(expected MaxTime windows that do not overlap)"},
    };
    eng_swf_header h;
    for (size_t k = 0; k < N_OF(c); k++) {
        eng_resvs r;
        eng_diag d;
        h = header_at(c[k].unix_start, NULL);
        CU_ASSERT_NOT_EQUAL(read_expand(c[k].text, &h, 1e9, &r, &d), 0);
        const char *colon = strstr(d.msg, "resv.txt:");
        CU_ASSERT_PTR_NOT_NULL_FATAL(colon);
        if (strcmp(colon + strlen("resv.txt:"), c[k].msg) != 0)
            printf("\n  case %zu: %s\n", k, d.msg);
        CU_ASSERT_STRING_EQUAL(colon + strlen("resv.txt:"), c[k].msg);
        eng_resvs_fini(&r);
    }
    /* a daily window longer than a day overlaps its next occurrence */
    eng_resvs r;
    eng_diag d;
    h = header_at(0, NULL);
    CU_ASSERT_EQUAL_FATAL(read_expand("ReservationName=long StartTime=0 Duration=90000 Nodes=h1 "
                                      "Flags=DAILY\n",
                                      &h, 100000, &r, &d),
                          0);
    eng_platform *p = bl_uniform_platform(2, 1);
    eng_holds holds;
    CU_ASSERT_EQUAL(eng_resvs_resolve(&r, p, &holds, &d), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "resv.txt:1: reservation long [86400, 176400) overlaps "
                                         "reservation long [0, 90000) of line 1 on host h1"));
    eng_platform_destroy(p);
    eng_resvs_fini(&r);
}

/* A policy that starts each job when it is submitted, whether or not the
 * queue shows it (it keeps the job from its submission hook). */
static const pol_job *eager_job;

static int eager_submit(void *state, const pol_view *v, const pol_job *j)
{
    (void)state, (void)v;
    eager_job = j;
    return 0;
}

static int eager_schedule(void *state, const pol_view *v, pol_out *out)
{
    (void)state, (void)v;
    if (eager_job)
        pol_out_start(out, eager_job);
    eager_job = NULL;
    return 0;
}

static const pol_type eager = {
    .name = "eager",
    .flags = POL_FLAG_TIME_LIMITS,
    .on_submit = eager_submit,
    .schedule = eager_schedule,
};

/* Limit windows on 4 hosts of 1 core: [0, 200) admits jobs of at most 60
 * s, [200, 300) at most 500 s:
 *   J1 (0 s, 1 host, 100 s) is not shown until 200, then starts: [200, 300);
 *   J2 (0 s, 1 host, 50 s) starts at once: [0, 50), under fcfs too, since
 *      J1 is not in the queue it is shown;
 *   J3 (250 s, 1 host, 600 s) is over both limits; after 300 no window
 *      limits it: [300, 900).
 * Without the windows: all at their submit. A policy that keeps state
 * about its queue (conservative) is refused. */
static void test_limit_windows(void)
{
    const bl_jobspec jobs[] = {
        {1, 0, 100, 100, 1, 0}, {2, 0, 50, 50, 1, 0}, {3, 250, 600, 600, 1, 0}};
    eng_resvs r;
    eng_diag d;
    eng_swf_header h = header_at(0, NULL);
    CU_ASSERT_EQUAL_FATAL(read_expand("ReservationName=short StartTime=0 EndTime=200 MaxTime=60\n"
                                      "ReservationName=long StartTime=200 EndTime=300 "
                                      "MaxTime=500\n",
                                      &h, 250, &r, &d),
                          0);
    CU_ASSERT_EQUAL(r.n, 0);
    CU_ASSERT_EQUAL(r.n_lim, 2);
    const bl_expect e[] = {{1, 200, 300}, {2, 0, 50}, {3, 300, 900}};
    bl_opts o = {.resv = &r};
    const char *pols[] = {"easy", "fcfs", "slurm"};
    for (size_t k = 0; k < N_OF(pols); k++) {
        bl_sched s;
        CU_ASSERT_EQUAL_FATAL(bl_core_run(pols[k], jobs, 3, bl_uniform_platform(4, 1), &o, &s), 0);
        bl_check(&s, e, 3, pols[k]);
        bl_sched_fini(&s);
    }
    bl_sched s;
    CU_ASSERT_EQUAL(bl_core_run("conservative", jobs, 3, bl_uniform_platform(4, 1), &o, &s),
                    ENG_USAGE);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "POL_FLAG_TIME_LIMITS: fcfs, easy, slurm"));
    bl_sched_fini(&s);
    /* a policy that starts a job it was not shown: refused */
    o.policy_type = &eager;
    eager_job = NULL;
    CU_ASSERT_EQUAL(bl_core_run(NULL, jobs, 1, bl_uniform_platform(4, 1), &o, &s), ENG_INVARIANT);
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "t=0: policy eager started job 1 (estimate 100 s) "
                                              "in limit window short of "));
    CU_ASSERT_PTR_NOT_NULL(strstr(s.diag.msg, "resv.txt:1, which admits at most 60 s"));
    bl_sched_fini(&s);
    eng_resvs_fini(&r);
}

/* A log against a reservation file, by its own schedule (submit, wait,
 * run, requested time):
 * the maintenances [50, 60) and [55, 70) are one, [50, 70);
 *   J1 0, 0, 100, 100: runs [0, 100), into the maintenance, and starts in
 *      the limit window [0, 200) of MaxTime 50 asking 100: over it;
 *   J2 0, 70, 40, 50: starts at 70, as the maintenance ends: kept to it;
 *      in the limit window, at its limit: kept;
 *   J3 10, 90, 20, 80: starts at 100 asking 80 > 50: over the limit;
 *   J4 300, 0, 10, -1: starts after the window, asks its run time: kept;
 *   J5 400, -1, 10: no logged wait: left out.
 * The hold of h1 is not checked (the log gives no hosts). */
static void test_obeyed(void)
{
    eng_workload *w = eng_workload_create("obeyed");
    const double rows[][4] = {
        {0, 0, 100, 100}, {0, 70, 40, 50}, {10, 90, 20, 80}, {300, 0, 10, -1}, {400, -1, 10, 10}};
    for (size_t k = 0; k < N_OF(rows); k++) {
        eng_job j = eng_job_unknown();
        j.id = (int64_t)k + 1, j.submit_s = rows[k][0], j.wait_s = rows[k][1];
        j.runtime_s = rows[k][2], j.time_req_s = rows[k][3], j.procs_alloc = 1;
        eng_workload_push(w, &j);
    }
    eng_resvs r;
    eng_diag d;
    CU_ASSERT_EQUAL_FATAL(read_expand("ReservationName=m StartTime=50 EndTime=60 Flags=MAINT\n"
                                      "ReservationName=m2 StartTime=55 EndTime=70 Flags=MAINT\n"
                                      "ReservationName=h StartTime=0 EndTime=500 Nodes=h1\n"
                                      "ReservationName=l StartTime=0 EndTime=200 MaxTime=50\n",
                                      &w->hdr, 400, &r, &d),
                          0);
    eng_resv_obey o;
    CU_ASSERT_EQUAL_FATAL(eng_resvs_obeyed(&r, w, &o), 0);
    CU_ASSERT_EQUAL(o.jobs, 4);
    CU_ASSERT_EQUAL(o.n_maint, 1);
    CU_ASSERT_EQUAL(o.in_maint, 1);
    CU_ASSERT_EQUAL(o.first_maint, 1);
    CU_ASSERT_EQUAL(o.over_limit, 2);
    CU_ASSERT_EQUAL(o.first_over, 1);
    eng_resvs_fini(&r);
    eng_workload_destroy(w);
}

/* Candidate outages of a small log (submit, wait, run):
 *   J1 0, 0, 100: runs [0, 100);
 *   J2 50, 5050, 100: waits [50, 5100), runs [5100, 5200);
 *   J3 200, 4900, 10: waits [200, 5100), runs [5100, 5110);
 *   J4 6000, wait unknown: left out;
 *   J5 7000, 0, 10: runs [7000, 7010), never waits.
 * No job runs over [100, 5100) while J2 and J3 wait: one stretch of 5000 s,
 * 2 jobs waiting; [5200, 7000) has no job waiting. With a minimum of 5001
 * s, none. */
static void test_outages(void)
{
    eng_workload *w = eng_workload_create("outages");
    const double rows[][3] = {
        {0, 0, 100}, {50, 5050, 100}, {200, 4900, 10}, {6000, -1, 10}, {7000, 0, 10}};
    for (size_t k = 0; k < N_OF(rows); k++) {
        eng_job j = eng_job_unknown();
        j.id = (int64_t)k + 1, j.submit_s = rows[k][0], j.wait_s = rows[k][1];
        j.runtime_s = rows[k][2], j.procs_alloc = 1;
        eng_workload_push(w, &j);
    }
    eng_outage *o;
    size_t n, skipped;
    CU_ASSERT_EQUAL_FATAL(eng_outages_find(w, 3600, &o, &n, &skipped), 0);
    CU_ASSERT_EQUAL(skipped, 1);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_DOUBLE_EQUAL(o[0].start_s, 100, 0);
    CU_ASSERT_DOUBLE_EQUAL(o[0].end_s, 5100, 0);
    CU_ASSERT_EQUAL(o[0].waiting, 2);
    free(o);
    CU_ASSERT_EQUAL_FATAL(eng_outages_find(w, 5001, &o, &n, &skipped), 0);
    CU_ASSERT_EQUAL(n, 0);
    free(o);
    eng_workload_destroy(w);
}

int bl_suite_eng_resv(void)
{
    CU_pSuite s = CU_add_suite("eng_resv", NULL, free_resv);
    if (!s)
        return 1;
    CU_add_test(s, "reads reservations, their hosts on a platform", test_reads);
    CU_add_test(s, "a bad file per class of error", test_errors);
    CU_add_test(s, "a reservation delays a job (fcfs, easy)", test_delays_a_job);
    CU_add_test(s, "maintenance: easy's shadow moves, conservative's promise, slurm",
                test_maintenance);
    CU_add_test(s, "under core allocation (easy, fcfs, slurm per host)", test_core_allocation);
    CU_add_test(s, "the engine refuses a start into a window", test_refused_start);
    CU_add_test(s, "candidate outages of a log", test_outages);
    CU_add_test(s, "repeats: weekdays, weekends, hours, a change to summer time", test_repeats);
    CU_add_test(s, "overlapping maintenance windows become their union", test_maint_union);
    CU_add_test(s, "the errors of repeats and limit windows", test_repeat_errors);
    CU_add_test(s, "limit windows hold back the jobs over their MaxTime", test_limit_windows);
    CU_add_test(s, "a log against a reservation file", test_obeyed);
    return 0;
}
