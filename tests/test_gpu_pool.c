/* test_gpu_pool.c — the kernel pool's contract on whatever backend this
 * machine has (the CPU reference where there is no device): several
 * requests in flight waited for in any order, results equal to the
 * reference's, tickets, bad submissions leaving the pool usable, the
 * backend taken from the configuration only, the device-error path (injected) falling back to
 * the CPU reference, and destruction with requests pending. The same
 * requests on a real device are compared bit for bit in test_gpu_sa_cuda.c. */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_error.h"
#include "gpu_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static bool same(const gpu_sa_result *a, const gpu_sa_result *b)
{
    bool ok = a->energy == b->energy && a->e1 == b->e1 && a->best_chain == b->best_chain &&
              a->iterations == b->iterations && a->evaluations == b->evaluations &&
              a->n_jobs == b->n_jobs;
    for (int32_t j = 0; ok && j < a->n_jobs; j++)
        ok = a->order[j] == b->order[j] && a->start[j] == b->start[j] &&
             (!a->machine || a->machine[j] == b->machine[j]);
    return ok;
}

static gpu_sa_params params(uint64_t seed, int32_t chains, int64_t iterations)
{
    gpu_sa_params p;
    gpu_sa_params_default(&p);
    p.seed = seed;
    p.chains = chains;
    p.iterations = iterations;
    return p;
}

/* Three models and two parameter sets in flight on two slots, waited for
 * in reverse order: each equals the CPU reference. */
static void test_in_flight(void)
{
    gpu_sa_model m[3];
    for (int k = 0; k < 3; k++)
        CU_ASSERT_EQUAL_FATAL(
            gpu_sa_model_generate(1 + k % 2, 8 + 4 * k, 10 + (uint64_t)k, &m[k], err, sizeof err),
            0);
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.slots = 2;
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(&cfg, &pool, err, sizeof err), 0);
    int64_t t[6];
    gpu_sa_params par[6];
    for (int k = 0; k < 6; k++) {
        par[k] = params(100 + (uint64_t)k, 1 + k % 3, 50 + 10 * k);
        CU_ASSERT_EQUAL_FATAL(
            gpu_pool_submit(pool, &m[k % 3].problem, &par[k], &t[k], err, sizeof err), 0);
    }
    CU_ASSERT_EQUAL(gpu_pool_pending(pool), 6);
    for (int k = 5; k >= 0; k--) {
        gpu_sa_result a, b;
        CU_ASSERT_EQUAL_FATAL(gpu_pool_wait(pool, t[k], &a, err, sizeof err), 0);
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m[k % 3].problem, &par[k], &b, err, sizeof err), 0);
        CU_ASSERT(same(&a, &b));
        CU_ASSERT_STRING_EQUAL(a.backend, gpu_pool_backend(pool));
        gpu_sa_result_fini(&a);
        gpu_sa_result_fini(&b);
    }
    CU_ASSERT_EQUAL(gpu_pool_pending(pool), 0);
    CU_ASSERT_STRING_EQUAL(gpu_pool_failure(pool), "");
    gpu_pool_destroy(pool);
    for (int k = 0; k < 3; k++)
        gpu_sa_model_fini(&m[k]);
}

/* The caller's arrays may be freed right after submit. */
static void test_problem_copied(void)
{
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(NULL, &pool, err, sizeof err), 0);
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 8, 4, &m, err, sizeof err), 0);
    gpu_sa_params par = params(7, 2, 100);
    gpu_sa_result ref, got;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &ref, err, sizeof err), 0);
    int64_t t;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_submit(pool, &m.problem, &par, &t, err, sizeof err), 0);
    gpu_sa_model_fini(&m);
    CU_ASSERT_EQUAL_FATAL(gpu_pool_wait(pool, t, &got, err, sizeof err), 0);
    CU_ASSERT(same(&ref, &got));
    gpu_sa_result_fini(&ref);
    gpu_sa_result_fini(&got);
    gpu_pool_destroy(pool);
}

/* Bad submissions fail at once and leave the pool usable; tickets are
 * single-use. */
static void test_errors(void)
{
    gpu_pool *pool;
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.backend = "cpu";
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(&cfg, &pool, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(gpu_pool_backend(pool), "cpu");
    const int32_t units[] = {9};
    const int64_t dur[] = {5};
    gpu_sa_queue q = {.n_jobs = 1, .total_units = 4, .units = units, .duration = dur};
    gpu_sa_problem bad = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params(1, 1, 10);
    int64_t t;
    CU_ASSERT_EQUAL(gpu_pool_submit(pool, &bad, &par, &t, err, sizeof err), ENG_INVAL);
    CU_ASSERT_EQUAL(gpu_pool_pending(pool), 0);
    gpu_sa_params bad_par = params(1, 0, 10);
    const int32_t ok_units[] = {2};
    q.units = ok_units;
    CU_ASSERT_EQUAL(gpu_pool_submit(pool, &bad, &bad_par, &t, err, sizeof err), ENG_INVAL);
    CU_ASSERT_EQUAL(gpu_pool_submit(pool, &bad, &par, &t, err, sizeof err), 0);
    gpu_sa_result r;
    CU_ASSERT_EQUAL(gpu_pool_wait(pool, t + 100, &r, err, sizeof err), ENG_INVAL);
    CU_ASSERT_EQUAL(gpu_pool_wait(pool, t, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.start[0], 0);
    CU_ASSERT_EQUAL(r.end[0], 5);
    gpu_sa_result_fini(&r);
    CU_ASSERT_EQUAL(gpu_pool_wait(pool, t, &r, err, sizeof err), ENG_INVAL);
    gpu_pool_destroy(pool);
    gpu_pool_config_default(&cfg);
    cfg.slots = 0;
    CU_ASSERT_EQUAL(gpu_pool_create(&cfg, &pool, err, sizeof err), ENG_INVAL);
    cfg.slots = 1;
    cfg.backend = "tpu";
    CU_ASSERT_EQUAL(gpu_pool_create(&cfg, &pool, err, sizeof err), ENG_INVAL);
    char why[256];
    if (!gpu_sa_cuda_available(why, sizeof why)) {
        cfg.backend = "cuda";
        CU_ASSERT_EQUAL(gpu_pool_create(&cfg, &pool, err, sizeof err), ENG_UNSUPPORTED);
        CU_ASSERT(bl_contains(err, "not available"));
    }
}

/* The pool runs where its configuration says: the library reads no
 * environment (the command line reads BATCHLAB_SA_BACKEND and passes it
 * down), and an unknown backend name is refused. */
static void test_backend_config(void)
{
    setenv("BATCHLAB_SA_BACKEND", "quantum", 1);
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.backend = "cpu";
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(&cfg, &pool, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(gpu_pool_backend(pool), "cpu");
    gpu_pool_destroy(pool);
    unsetenv("BATCHLAB_SA_BACKEND");
    cfg.backend = "quantum";
    CU_ASSERT_EQUAL(gpu_pool_create(&cfg, &pool, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "'quantum'"));
}

/* A device error (injected after two requests) fails the request it hits
 * with its message — never a made-up result — and the pool goes on with
 * the CPU reference, whose results are the same. */
static void test_device_error_path(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 8, 2, &m, err, sizeof err), 0);
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.fail_after = 2;
    cfg.slots = 2;
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(&cfg, &pool, err, sizeof err), 0);
    int64_t t[4];
    gpu_sa_params par = params(3, 2, 40);
    for (int k = 0; k < 4; k++)
        CU_ASSERT_EQUAL_FATAL(gpu_pool_submit(pool, &m.problem, &par, &t[k], err, sizeof err), 0);
    gpu_sa_result ref, r;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &ref, err, sizeof err), 0);
    for (int k = 0; k < 4; k++) {
        int rc = gpu_pool_wait(pool, t[k], &r, err, sizeof err);
        if (k == 2) {
            CU_ASSERT_EQUAL(rc, ENG_IO);
            CU_ASSERT(bl_contains(err, "injected device failure"));
            CU_ASSERT_PTR_NULL(r.order);
        } else {
            CU_ASSERT_EQUAL_FATAL(rc, 0);
            CU_ASSERT(same(&ref, &r));
            gpu_sa_result_fini(&r);
        }
    }
    CU_ASSERT(bl_contains(gpu_pool_failure(pool), "injected"));
    CU_ASSERT_STRING_EQUAL(gpu_pool_backend(pool), "cpu");
    /* later requests run, on the CPU */
    int64_t t5;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_submit(pool, &m.problem, &par, &t5, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_pool_wait(pool, t5, &r, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(r.backend, "cpu");
    CU_ASSERT(same(&ref, &r));
    gpu_sa_result_fini(&r);
    gpu_sa_result_fini(&ref);
    gpu_pool_destroy(pool);
    gpu_sa_model_fini(&m);
}

/* Destroying a pool with requests pending frees them (valgrind-checked). */
static void test_destroy_pending(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 4, 9, &m, err, sizeof err), 0);
    gpu_pool *pool;
    CU_ASSERT_EQUAL_FATAL(gpu_pool_create(NULL, &pool, err, sizeof err), 0);
    gpu_sa_params par = params(1, 1, 20);
    int64_t t;
    for (int k = 0; k < 5; k++)
        CU_ASSERT_EQUAL(gpu_pool_submit(pool, &m.problem, &par, &t, err, sizeof err), 0);
    gpu_sa_result r;
    CU_ASSERT_EQUAL(gpu_pool_wait(pool, t, &r, err, sizeof err), 0);
    gpu_sa_result_fini(&r);
    CU_ASSERT_EQUAL(gpu_pool_pending(pool), 4);
    gpu_pool_destroy(pool);
    gpu_pool_destroy(NULL);
    gpu_sa_model_fini(&m);
}

int bl_suite_gpu_pool(void)
{
    CU_pSuite s = CU_add_suite("gpu_pool", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "requests in flight, any order, equal to the reference", test_in_flight);
    CU_add_test(s, "problem copied at submit", test_problem_copied);
    CU_add_test(s, "bad submissions and tickets", test_errors);
    CU_add_test(s, "backend from the configuration only", test_backend_config);
    CU_add_test(s, "device error path falls back to the CPU", test_device_error_path);
    CU_add_test(s, "destroy with requests pending", test_destroy_pending);
    return 0;
}
