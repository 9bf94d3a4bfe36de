/* test_gpu_sa_cuda.c — the CUDA backend against the CPU reference: the same
 * problems, parameters and seeds must give the identical best schedule
 * (order, machines, download order, starts, ends), energy, best chain,
 * iteration and evaluation counts. Skipped (exit 77, never passed) where
 * the backend is not built or no device is usable. */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_error.h"
#include "gpu_pool.h"
#include "gpu_solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static int compare(const gpu_sa_result *c, const gpu_sa_result *g, int32_t n_inputs,
                   const char *what)
{
    int bad = 0;
#define CMP(x)                                                                                     \
    if (c->x != g->x) {                                                                            \
        printf("\n  %s: " #x " cpu %lld, cuda %lld", what, (long long)c->x, (long long)g->x);      \
        bad++;                                                                                     \
    }
    CMP(energy);
    CMP(e1);
    CMP(e2_fixed);
    CMP(cmax);
    CMP(flowtime);
    CMP(transfer_time);
    CMP(transfer_volume);
    CMP(best_chain);
    CMP(iterations);
    CMP(evaluations);
    CMP(initial_energy);
#undef CMP
    for (int32_t j = 0; j < c->n_jobs && !bad; j++)
        if (c->order[j] != g->order[j] || c->start[j] != g->start[j] || c->end[j] != g->end[j] ||
            (c->machine && c->machine[j] != g->machine[j])) {
            printf("\n  %s: job %d differs", what, j);
            bad++;
        }
    for (int32_t i = 0; c->input_order && i < n_inputs && !bad; i++)
        if (c->input_order[i] != g->input_order[i]) {
            printf("\n  %s: download slot %d differs", what, i);
            bad++;
        }
    return bad;
}

static void one(const gpu_sa_problem *p, const gpu_sa_params *par, int32_t n_inputs,
                const char *what)
{
    gpu_sa_result c, g;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve(p, par, "cpu", &c, err, sizeof err), 0);
    int rc = gpu_sa_solve(p, par, "cuda", &g, err, sizeof err);
    if (rc)
        printf("\n  %s: %s", what, err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(g.backend, "cuda");
    CU_ASSERT_EQUAL(compare(&c, &g, n_inputs, what), 0);
    gpu_sa_result_fini(&c);
    gpu_sa_result_fini(&g);
}

/* Load models, E1 and E2, fixed iterations and the E1 rule, 1 to 300
 * chains (several blocks). */
static void test_models_identical(void)
{
    static const struct {
        int model, machines, chains;
        int64_t iterations;
        bool stop_e1, e2;
        int pct;
    } cases[] = {
        {1, 8, 1, 200, false, false, 0},    {1, 32, 64, 300, false, false, 0},
        {2, 16, 33, 200, false, true, 10},  {1, 32, 300, 5000, true, false, 0},
        {2, 64, 128, 100, false, true, 25},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        gpu_sa_model m;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(cases[k].model, cases[k].machines,
                                                    (uint64_t)k + 1, &m, err, sizeof err),
                              0);
        gpu_sa_params par;
        gpu_sa_params_default(&par);
        par.seed = 1000 + k;
        par.chains = cases[k].chains;
        par.iterations = cases[k].iterations;
        par.stop_e1 = cases[k].stop_e1;
        par.energy = cases[k].e2 ? GPU_SA_E2 : GPU_SA_E1;
        par.transfer_cost_pct = cases[k].pct;
        char what[64];
        snprintf(what, sizeof what, "case %zu", k);
        one(&m.problem, &par, m.grid.input_off[m.grid.n_jobs], what);
        gpu_sa_model_fini(&m);
    }
}

/* Machine by machine (the paper's Algorithm 1: one thread per machine, a
 * block per chain): the same bits as the CPU reference running the same
 * decomposition, and as the chains decomposition; both acceptance rules;
 * machine counts below, at and above one block's 1024 threads. */
static void test_machines_identical(void)
{
    static const struct {
        int model, machines, chains;
        int64_t iterations;
        bool e2, paper;
    } cases[] = {
        {1, 8, 1, 100, false, false},   {1, 48, 3, 200, true, false}, {2, 64, 2, 100, false, true},
        {1, 1024, 1, 20, false, false}, {1, 1500, 1, 10, true, true},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        gpu_sa_model m;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(cases[k].model, cases[k].machines,
                                                    (uint64_t)k + 7, &m, err, sizeof err),
                              0);
        gpu_sa_params par;
        gpu_sa_params_default(&par);
        par.seed = 2000 + k;
        par.chains = cases[k].chains;
        par.iterations = cases[k].iterations;
        par.energy = cases[k].e2 ? GPU_SA_E2 : GPU_SA_E1;
        par.transfer_cost_pct = cases[k].e2 ? 25 : 0;
        par.acceptance = cases[k].paper ? GPU_SA_ACCEPT_PAPER : GPU_SA_ACCEPT_METROPOLIS;
        par.parallel = GPU_SA_PARALLEL_MACHINES;
        char what[64];
        snprintf(what, sizeof what, "machines case %zu", k);
        one(&m.problem, &par, m.grid.input_off[m.grid.n_jobs], what);
        /* and the chains decomposition on the device gives the same */
        gpu_sa_result a, b;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve(&m.problem, &par, "cuda", &a, err, sizeof err), 0);
        par.parallel = GPU_SA_PARALLEL_CHAINS;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve(&m.problem, &par, "cuda", &b, err, sizeof err), 0);
        CU_ASSERT_EQUAL(compare(&a, &b, m.grid.input_off[m.grid.n_jobs], what), 0);
        gpu_sa_result_fini(&a);
        gpu_sa_result_fini(&b);
        gpu_sa_model_fini(&m);
    }
}

/* A queue problem as the sa policy builds it. */
static void test_queue_identical(void)
{
    enum { J = 24 };
    int32_t units[J];
    int64_t dur[J], waited[J];
    for (int j = 0; j < J; j++) {
        units[j] = 1 + (j * 7) % 16;
        dur[j] = 10 + (j * 37) % 300;
        waited[j] = (j * 13) % 50;
    }
    const int32_t bu[] = {4, 8, 2};
    const int64_t be[] = {30, 5, 200};
    gpu_sa_queue q = {.n_jobs = J,
                      .total_units = 16,
                      .units = units,
                      .duration = dur,
                      .waited = waited,
                      .n_busy = 3,
                      .busy_units = bu,
                      .busy_end = be};
    gpu_sa_problem p = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par;
    gpu_sa_params_default(&par);
    par.chains = 96;
    par.iterations = 500;
    par.keep_given_first = true;
    one(&p, &par, 0, "queue");
}

/* Several requests in flight on the device's streams, waited for out of
 * order, each equal to the reference. */
static void test_pool_streams(void)
{
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.backend = "cuda";
    cfg.slots = 3;
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(&cfg, &pool, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(gpu_pool_backend(pool), "cuda");
    gpu_sa_model m[4];
    gpu_sa_params par[8];
    int64_t t[8];
    for (int k = 0; k < 4; k++)
        CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1 + k % 2, 16 << (k % 2), 50 + (uint64_t)k,
                                                    &m[k], err, sizeof err),
                              0);
    for (int k = 0; k < 8; k++) { /* more requests than slots */
        gpu_sa_params_default(&par[k]);
        par[k].seed = (uint64_t)k;
        par[k].chains = 32 + 16 * k;
        par[k].iterations = 100;
        CU_ASSERT_EQUAL_FATAL(
            gpu_pool_submit(pool, &m[k % 4].problem, &par[k], &t[k], err, sizeof err), 0);
    }
    for (int k = 7; k >= 0; k--) {
        gpu_sa_result g, c;
        CU_ASSERT_EQUAL_FATAL(gpu_pool_wait(pool, t[k], &g, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m[k % 4].problem, &par[k], &c, err, sizeof err), 0);
        char what[32];
        snprintf(what, sizeof what, "request %d", k);
        CU_ASSERT_EQUAL(compare(&c, &g, m[k % 4].grid.input_off[m[k % 4].grid.n_jobs], what), 0);
        gpu_sa_result_fini(&g);
        gpu_sa_result_fini(&c);
    }
    CU_ASSERT_STRING_EQUAL(gpu_pool_failure(pool), "");
    /* buffers are kept: a larger request after smaller ones still works */
    gpu_sa_params big;
    gpu_sa_params_default(&big);
    big.chains = 512;
    big.iterations = 50;
    gpu_sa_model mb;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 128, 77, &mb, err, sizeof err), 0);
    int64_t tb;
    gpu_sa_result g, c;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_submit(pool, &mb.problem, &big, &tb, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_pool_wait(pool, tb, &g, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&mb.problem, &big, &c, err, sizeof err), 0);
    CU_ASSERT_EQUAL(compare(&c, &g, mb.grid.input_off[mb.grid.n_jobs], "large"), 0);
    gpu_sa_result_fini(&g);
    gpu_sa_result_fini(&c);
    gpu_sa_model_fini(&mb);
    gpu_pool_destroy(pool);
    for (int k = 0; k < 4; k++)
        gpu_sa_model_fini(&m[k]);
}

int bl_suite_gpu_sa_cuda(void)
{
    char why[256];
    if (!gpu_sa_cuda_available(why, sizeof why))
        return bl_skip("CUDA backend not available: %s", why);
    CU_pSuite s = CU_add_suite("gpu_sa_cuda", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "load models: CPU and GPU identical", test_models_identical);
    CU_add_test(s, "queue problem: CPU and GPU identical", test_queue_identical);
    CU_add_test(s, "machine by machine: CPU and GPU identical", test_machines_identical);
    CU_add_test(s, "pool: streams in flight, buffers kept", test_pool_streams);
    return 0;
}
