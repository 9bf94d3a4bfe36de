/* bl_sched.c — see bl_sched.h. */
#include "bl_sched.h"
#include "bl_test.h"
#include "pol_registry.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

eng_workload *bl_make_workload(const bl_jobspec *jobs, size_t n)
{
    eng_workload *w = eng_workload_create("scenario");
    for (size_t i = 0; w && i < n; i++) {
        eng_job j = eng_job_unknown();
        j.id = jobs[i].id;
        j.submit_s = jobs[i].submit;
        j.runtime_s = jobs[i].run;
        j.procs_alloc = j.procs_req = jobs[i].procs;
        j.time_req_s = jobs[i].req;
        j.status = 1;
        j.queue = jobs[i].queue;
        j.line = (int64_t)i + 1;
        if (eng_workload_push(w, &j)) {
            eng_workload_destroy(w);
            return NULL;
        }
    }
    return w;
}

eng_platform *bl_uniform_platform(int n_hosts, int cores)
{
    eng_host_desc *d = calloc((size_t)n_hosts, sizeof *d);
    char(*names)[16] = calloc((size_t)n_hosts, sizeof *names);
    for (int i = 0; i < n_hosts; i++) {
        snprintf(names[i], sizeof names[i], "h%d", i + 1);
        d[i] = (eng_host_desc){.name = names[i], .speed_flops = 1e9, .sg_cores = cores};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("uniform", d, (size_t)n_hosts, NULL, &p, &diag);
    free(d);
    free(names);
    return p;
}

eng_platform *bl_mixed_platform(void)
{
    eng_host_desc d[] = {
        {.name = "slow2", .speed_flops = 1e9, .sg_cores = 2},
        {.name = "fast", .speed_flops = 2e9, .sg_cores = 2},
        {.name = "slow1", .speed_flops = 1e9, .sg_cores = 2},
    };
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_build("mixed", d, 3, "1Gf", &p, &diag), 0);
    return p;
}

eng_platform *bl_island_platform(const int *sizes, int n_islands, int cores)
{
    int n = 0;
    for (int k = 0; k < n_islands; k++)
        n += sizes[k];
    eng_host_desc *d = calloc((size_t)n, sizeof *d);
    char(*names)[16] = calloc((size_t)n, sizeof *names);
    static const char *const isl[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    int i = 0;
    for (int k = 0; k < n_islands && k < 8; k++)
        for (int h = 0; h < sizes[k]; h++, i++) {
            snprintf(names[i], sizeof names[i], "%s%d", isl[k], h + 1);
            d[i] = (eng_host_desc){
                .name = names[i], .speed_flops = 1e9, .sg_cores = cores, .island = isl[k]};
        }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    eng_platform_build("islands", d, (size_t)i, NULL, &p, &diag);
    free(d);
    free(names);
    return p;
}

int bl_core_run(const char *policy, const bl_jobspec *jobs, size_t n, eng_platform *p,
                const bl_opts *opts, bl_sched *out)
{
    memset(out, 0, sizeof *out);
    bl_opts none = {0};
    if (!opts)
        opts = &none;
    out->p = p;
    out->w = bl_make_workload(jobs, n);
    for (size_t i = 0; out->w && i < n; i++) {
        if (opts->users)
            out->w->jobs[i].user = opts->users[i];
        if (opts->groups)
            out->w->jobs[i].group = opts->groups[i];
        if (opts->prev_jobs)
            out->w->jobs[i].prev_job = opts->prev_jobs[i];
        if (opts->think_s)
            out->w->jobs[i].think_s = opts->think_s[i];
        if (opts->waits)
            out->w->jobs[i].wait_s = opts->waits[i];
        if (opts->mem_kb)
            out->w->jobs[i].mem_req_kb = opts->mem_kb[i];
    }
    eng_prep_opts po = {.procs_field = ENG_PROCS_ALLOC,
                        .walltime = opts->walltime,
                        .alloc = opts->alloc,
                        .init_times = opts->init_times,
                        .n_init_times = opts->n_init_times,
                        .init_unplanned = opts->init_unplanned,
                        .feedback = opts->feedback};
    out->rc = eng_prep(out->w, p, &po, &out->prep, &out->diag);
    if (out->rc)
        return out->rc;
    eng_core_opts co = {.policy = opts->policy_type ? opts->policy_type : pol_find(policy),
                        .options = opts->options,
                        .n_options = opts->n_options,
                        .seed = 1,
                        .check = true,
                        .failures = opts->failures,
                        .ignore_islands = opts->ignore_islands,
                        .power_save = opts->power_save,
                        .power_cap_w = opts->power_cap_w,
                        .resv = opts->resv};
    out->rc = eng_core_create(p, &out->prep, &co, &out->core, &out->diag);
    if (out->rc)
        return out->rc;
    out->rc = eng_core_run(out->core, &out->diag);
    if (out->rc)
        printf("\n  core run failed: %s\n", out->diag.msg);
    return out->rc;
}

void bl_sched_fini(bl_sched *s)
{
    eng_core_destroy(s->core);
    eng_prepared_fini(&s->prep);
    eng_platform_destroy(s->p);
    eng_workload_destroy(s->w);
    memset(s, 0, sizeof *s);
}

static long find(const bl_sched *s, int64_t id)
{
    for (size_t i = 0; i < s->prep.n_jobs; i++)
        if (s->prep.jobs[i].id == id)
            return (long)i;
    return -1;
}

double bl_start(const bl_sched *s, int64_t id)
{
    long i = find(s, id);
    return i < 0 || !s->core ? -1 : eng_core_results(s->core)[i].start_s;
}

double bl_end(const bl_sched *s, int64_t id)
{
    long i = find(s, id);
    return i < 0 || !s->core ? -1 : eng_core_results(s->core)[i].end_s;
}

int bl_state(const bl_sched *s, int64_t id)
{
    long i = find(s, id);
    return i < 0 || !s->core ? -1 : eng_core_results(s->core)[i].state;
}

int bl_sim_run(const char *policy, const bl_jobspec *jobs, size_t n, const char *platform_path,
               const bl_opts *opts, eng_run_report *rep, eng_diag *d)
{
    bl_opts none = {0};
    if (!opts)
        opts = &none;
    eng_workload *w = bl_make_workload(jobs, n);
    eng_run_spec spec = {
        .platform_path = platform_path,
        .workload = w,
        .sim =
            {
                .prep = {.procs_field = ENG_PROCS_ALLOC,
                         .walltime = opts->walltime,
                         .alloc = opts->alloc,
                         .init_times = opts->init_times,
                         .n_init_times = opts->n_init_times,
                         .init_unplanned = opts->init_unplanned},
                .core = {.policy = opts->policy_type ? opts->policy_type : pol_find(policy),
                         .options = opts->options,
                         .n_options = opts->n_options,
                         .seed = 1,
                         .check = true,
                         .failures = opts->failures,
                         .ignore_islands = opts->ignore_islands,
                         .power_save = opts->power_save,
                         .power_cap_w = opts->power_cap_w},
                .energy_plugin = opts->energy_plugin,
            },
        .manifest = {.command = "test", .policy = policy},
    };
    int rc = eng_run_isolated(&spec, rep, d);
    eng_workload_destroy(w);
    return rc;
}

double bl_rep_start(const eng_run_report *r, int64_t id)
{
    long i = eng_run_report_find(r, id);
    return i < 0 ? -1 : r->start_s[i];
}

double bl_rep_end(const eng_run_report *r, int64_t id)
{
    long i = eng_run_report_find(r, id);
    return i < 0 ? -1 : r->end_s[i];
}

int bl_rep_state(const eng_run_report *r, int64_t id)
{
    long i = eng_run_report_find(r, id);
    return i < 0 ? -1 : r->state[i];
}

static int check_rows(double (*start)(const void *, int64_t), double (*end)(const void *, int64_t),
                      const void *ctx, const bl_expect *rows, size_t n, const char *what)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        double s = start(ctx, rows[i].id), e = end(ctx, rows[i].id);
        if (s != rows[i].start || e != rows[i].end) {
            printf("\n  %s: job %lld ran %g-%g, expected %g-%g", what, (long long)rows[i].id, s, e,
                   rows[i].start, rows[i].end);
            bad++;
        }
        CU_ASSERT_DOUBLE_EQUAL(s, rows[i].start, 0);
        CU_ASSERT_DOUBLE_EQUAL(e, rows[i].end, 0);
    }
    return bad;
}

static double s_start(const void *c, int64_t id)
{
    return bl_start(c, id);
}
static double s_end(const void *c, int64_t id)
{
    return bl_end(c, id);
}
static double r_start(const void *c, int64_t id)
{
    return bl_rep_start(c, id);
}
static double r_end(const void *c, int64_t id)
{
    return bl_rep_end(c, id);
}

int bl_check(const bl_sched *s, const bl_expect *rows, size_t n, const char *what)
{
    CU_ASSERT_EQUAL_FATAL(s->rc, 0);
    return check_rows(s_start, s_end, s, rows, n, what);
}

int bl_check_rep(const eng_run_report *r, const bl_expect *rows, size_t n, const char *what)
{
    return check_rows(r_start, r_end, r, rows, n, what);
}

int bl_counting_schedule(void *state, const pol_view *v, pol_out *out)
{
    (void)state;
    int32_t free_units = v->free_units;
    for (size_t i = 0; i < v->n_queue; i++)
        if (v->queue[i]->units <= free_units) {
            pol_out_start(out, v->queue[i]);
            free_units -= v->queue[i]->units;
        }
    return 0;
}

/* A policy alone on a hand-made view (bl_sched.h): with a maintenance
 * window over [150, 400) on all 4 free hosts at 0:
 * J1 (2 units, 300 s) would cross it, so it is promised the window's end,
 * 400, though its units are free now; J2 (1 unit, 100 s) ends at 100, by
 * the window, and starts. */
void bl_check_view_reservation(const char *policy)
{
    const pol_type *t = pol_find(policy);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    pol_job jobs[2] = {
        {.idx = 0, .id = 1, .estimate_s = 300, .units = 2, .start_s = -1, .expected_end_s = -1},
        {.idx = 1, .id = 2, .estimate_s = 100, .units = 1, .start_s = -1, .expected_end_s = -1},
    };
    const pol_job *queue[] = {&jobs[0], &jobs[1]};
    pol_host hosts[4];
    const char *names[] = {"h1", "h2", "h3", "h4"};
    for (int k = 0; k < 4; k++)
        hosts[k] = (pol_host){.name = names[k],
                              .index = k,
                              .speed_flops = 1e9,
                              .cores = 1,
                              .free_cores = 1,
                              .up = true,
                              .usable_at_s = -INFINITY,
                              .island = -1};
    const int32_t pos[] = {0, 1, 2, 3};
    const pol_resv resv[] = {{.start_s = 150, .end_s = 400, .pos = pos, .n_pos = 4, .units = 4}};
    pol_view v = {.now_s = 0,
                  .total_units = 4,
                  .free_units = 4,
                  .queue = queue,
                  .n_queue = 2,
                  .hosts = hosts,
                  .n_hosts = 4,
                  .ref_speed_flops = 1e9,
                  .resv = resv,
                  .n_resv = 1};
    void *state = calloc(1, t->state_size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(state);
    pol_setup setup = {.total_units = 4, .n_jobs = 2, .declared = t->options};
    char err[128];
    CU_ASSERT_EQUAL_FATAL(t->init(state, &setup, err, sizeof err), 0);
    for (int k = 0; k < 2 && t->on_submit; k++)
        CU_ASSERT_EQUAL(t->on_submit(state, &v, &jobs[k]), 0);
    pol_out out;
    pol_out_init(&out);
    CU_ASSERT_EQUAL(t->schedule(state, &v, &out), 0);
    CU_ASSERT_EQUAL_FATAL(out.n_starts, 1);
    CU_ASSERT_EQUAL(out.starts[0].job_idx, 1);
    bool promised = false;
    for (size_t k = 0; k < out.n_promises; k++)
        if (out.promises[k].job_idx == 0) {
            CU_ASSERT_DOUBLE_EQUAL(out.promises[k].start_by_s, 400, 0);
            promised = true;
        }
    CU_ASSERT_TRUE(promised);
    pol_out_fini(&out);
    t->fini(state);
    free(state);
}
