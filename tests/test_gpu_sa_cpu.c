/* test_gpu_sa_cpu.c — the CPU reference of the annealing (gpu/gpu_sa.h):
 * decoder known answers on hand-made problems (transfers, mirrors, a chain
 * of produced files, download order, dependencies, the queue's profile
 * placement), the energy formulas, validation, annealing determinism and
 * quality against brute force, the E1 stopping rule, the load models and
 * backend selection. Derivations are written next to the numbers. */
#define _POSIX_C_SOURCE 200809L
#include "bl_test.h"
#include "eng_error.h"
#include "gpu_sa.h"
#include "gpu_solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

/* ---- problem A: transfers and mirrors ----------------------------------
 * M0 speed 10, M1 speed 5; latency 2 and bandwidth 4 both ways.
 * f0 (size 8) on M0 from 0; f1 (size 12) on M1 from 0 and on M0 from 10.
 * j0 (100 ops) reads f0, f1; j1 (50 ops) reads f1. */
static const int64_t a_speed[] = {10, 5};
static const int32_t a_lat[] = {0, 2, 2, 0};
static const int32_t a_bw[] = {1, 4, 4, 1};
static const int64_t a_ops[] = {100, 50};
static const int64_t a_size[] = {8, 12};
static const int32_t a_mir_off[] = {0, 1, 3};
static const int32_t a_mir_m[] = {0, 1, 0};
static const int64_t a_mir_t[] = {0, 0, 10};
static const int32_t a_prod[] = {-1, -1};
static const int32_t a_in_off[] = {0, 2, 3};
static const int32_t a_in[] = {0, 1, 1};
static const int32_t a_dep_off[] = {0, 0, 0};

static gpu_sa_grid grid_a(void)
{
    return (gpu_sa_grid){.n_machines = 2,
                         .n_jobs = 2,
                         .n_files = 2,
                         .speed = a_speed,
                         .latency = a_lat,
                         .bandwidth = a_bw,
                         .ops = a_ops,
                         .file_size = a_size,
                         .mirror_off = a_mir_off,
                         .mirror_machine = a_mir_m,
                         .mirror_ready = a_mir_t,
                         .producer = a_prod,
                         .input_off = a_in_off,
                         .input_file = a_in,
                         .dep_off = a_dep_off,
                         .dep_job = NULL};
}

static gpu_sa_params params(void)
{
    gpu_sa_params p;
    gpu_sa_params_default(&p);
    return p;
}

/* Both jobs on M0: j0 finds f0 locally (0); f1 from M1 arrives 0 + 2 +
 * ceil(12/4) = 5, earlier than M0's own copy at 10: j0 runs [5, 15) (100/10),
 * the download leaves a copy of f1 on M0 at 5. j1 uses it (5), waits for
 * M0 until 15, runs [15, 20). Cmax 20, F 35, download time 5, volume
 * moved 12 (f1 once), E1 = 2 x 20 + 35 = 75; with a = (0.35, 0.35, 0.3)
 * and 10 % transfer cost TC = 0.1 x n x V = 0.1 x 2 x 12 = 2.4 and
 * E2 = 0.35 x 40 + 0.35 x 35 + 0.3 x 2.4 = 26.97.
 * j1 on M1 instead: its own copy of f1 (0), runs [0, 10) (50/5): Cmax 15,
 * F 25, E1 55, the same download of f1 for j0. */
static void test_decode_transfers_mirrors(void)
{
    gpu_sa_grid g = grid_a();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    gpu_sa_params par = params();
    par.transfer_cost_pct = 10;
    gpu_sa_result r;
    const int32_t order[] = {0, 1}, same[] = {0, 0}, split[] = {0, 1};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, order, same, NULL, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.start[0], 5);
    CU_ASSERT_EQUAL(r.end[0], 15);
    CU_ASSERT_EQUAL(r.start[1], 15);
    CU_ASSERT_EQUAL(r.end[1], 20);
    CU_ASSERT_EQUAL(r.cmax, 20);
    CU_ASSERT_EQUAL(r.flowtime, 35);
    CU_ASSERT_EQUAL(r.transfer_time, 5);
    CU_ASSERT_EQUAL(r.transfer_volume, 12);
    CU_ASSERT_EQUAL(r.e1, 75);
    CU_ASSERT_EQUAL(r.e2_fixed, 2697000);
    CU_ASSERT_DOUBLE_EQUAL(r.e2, 26.97, 1e-9);
    CU_ASSERT_EQUAL(r.energy, 75);
    gpu_sa_result_fini(&r);
    par.energy = GPU_SA_E2;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, order, split, NULL, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.start[1], 0);
    CU_ASSERT_EQUAL(r.end[1], 10);
    CU_ASSERT_EQUAL(r.cmax, 15);
    CU_ASSERT_EQUAL(r.flowtime, 25);
    CU_ASSERT_EQUAL(r.e1, 55);
    /* E2 = 0.35 x 2 x 15 + 0.35 x 25 + 0.3 x 0.1 x 2 x 12 = 19.97 */
    CU_ASSERT_EQUAL(r.transfer_volume, 12);
    CU_ASSERT_EQUAL(r.e2_fixed, 1997000);
    CU_ASSERT_EQUAL(r.energy, r.e2_fixed);
    gpu_sa_result_fini(&r);
}

/* The same with bandwidths beyond 16 bits (the network then takes two words
 * per pair): sizes and bandwidths times 17 500 give the same transfer
 * times, hence the same schedule. */
static void test_decode_wide_network(void)
{
    static const int32_t bw[] = {1, 70000, 70000, 1};
    static const int64_t size[] = {8 * 17500, 12 * 17500};
    gpu_sa_grid g = grid_a();
    g.bandwidth = bw;
    g.file_size = size;
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    gpu_sa_params par = params();
    gpu_sa_result r;
    const int32_t order[] = {0, 1}, same[] = {0, 0};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, order, same, NULL, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.start[0], 5);
    CU_ASSERT_EQUAL(r.end[1], 20);
    CU_ASSERT_EQUAL(r.e1, 75);
    gpu_sa_result_fini(&r);
}

/* ---- problem B: a chain of produced files, download order, a dependency
 * Two machines of speed 1; latency 1 and bandwidth 1 both ways.
 * f0 (size 2) on M1 from 0; f1 (size 3) produced by j0; f2 (size 1) on M0
 * from 0. j0 (4 ops) reads f0; j1 (2 ops) reads f1, f2; j2 (3 ops) reads
 * f1 and depends on j1. */
static const int64_t b_speed[] = {1, 1};
static const int32_t b_lat[] = {0, 1, 1, 0};
static const int32_t b_bw[] = {1, 1, 1, 1};
static const int64_t b_ops[] = {4, 2, 3};
static const int64_t b_size[] = {2, 3, 1};
static const int32_t b_mir_off[] = {0, 1, 1, 2};
static const int32_t b_mir_m[] = {1, 0};
static const int64_t b_mir_t[] = {0, 0};
static const int32_t b_prod[] = {-1, 0, -1};
static const int32_t b_in_off[] = {0, 1, 3, 4};
static const int32_t b_in[] = {0, 1, 2, 1};
static const int32_t b_dep_off[] = {0, 0, 0, 1};
static const int32_t b_dep[] = {1};

static gpu_sa_grid grid_b(void)
{
    return (gpu_sa_grid){.n_machines = 2,
                         .n_jobs = 3,
                         .n_files = 3,
                         .speed = b_speed,
                         .latency = b_lat,
                         .bandwidth = b_bw,
                         .ops = b_ops,
                         .file_size = b_size,
                         .mirror_off = b_mir_off,
                         .mirror_machine = b_mir_m,
                         .mirror_ready = b_mir_t,
                         .producer = b_prod,
                         .input_off = b_in_off,
                         .input_file = b_in,
                         .dep_off = b_dep_off,
                         .dep_job = b_dep};
}

/* Order 0, 1, 2 on M0, M1, M1.
 * j0 on M0: f0 from M1 arrives 0 + 1 + 2 = 3; runs [3, 7); f1 exists on M0
 * at 7.
 * j1 on M1, downloads f1 then f2: f1 leaves M0 at 7, arrives 7 + 1 + 3 =
 * 11; f2 then waits for the link: 11 + 1 + 1 = 13; runs [13, 15).
 * j2 on M1: after j1 (dependency and machine), f1 is already on M1 (11):
 * runs [15, 18). Cmax 18, F = 7 + 15 + 18 = 40, E1 = 3 x 18 + 40 = 94;
 * downloads 3 + 4 + 2 = 9.
 * Downloading f2 first: f2 arrives 0 + 1 + 1 = 2, f1 still 7 + 4 = 11:
 * j1 runs [11, 13), j2 [13, 16): Cmax 16, F 36, E1 84. */
static void test_decode_produced_chain(void)
{
    gpu_sa_grid g = grid_b();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    gpu_sa_params par = params();
    gpu_sa_result r;
    const int32_t order[] = {0, 1, 2}, mach[] = {0, 1, 1};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, order, mach, NULL, &r, err, sizeof err), 0);
    const int64_t s1[] = {3, 13, 15}, e1[] = {7, 15, 18};
    for (int j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(r.start[j], s1[j]);
        CU_ASSERT_EQUAL(r.end[j], e1[j]);
    }
    CU_ASSERT_EQUAL(r.cmax, 18);
    CU_ASSERT_EQUAL(r.flowtime, 40);
    CU_ASSERT_EQUAL(r.transfer_time, 9);
    CU_ASSERT_EQUAL(r.e1, 94);
    gpu_sa_result_fini(&r);
    const int32_t swapped[] = {0, 2, 1, 1};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, order, mach, swapped, &r, err, sizeof err), 0);
    const int64_t s2[] = {3, 11, 13}, e2[] = {7, 13, 16};
    for (int j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(r.start[j], s2[j]);
        CU_ASSERT_EQUAL(r.end[j], e2[j]);
    }
    CU_ASSERT_EQUAL(r.e1, 84);
    CU_ASSERT_EQUAL(r.transfer_time, 9);
    CU_ASSERT_EQUAL(r.input_order[1], 2);
    CU_ASSERT_EQUAL(r.input_order[2], 1);
    gpu_sa_result_fini(&r);
}

/* Candidates that break the precedence or are not permutations. */
static void test_decode_rejects(void)
{
    gpu_sa_grid g = grid_b();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    gpu_sa_params par = params();
    gpu_sa_result r;
    const int32_t mach[] = {0, 1, 1};
    const int32_t before_producer[] = {1, 0, 2}, before_dep[] = {0, 2, 1}, twice[] = {0, 0, 2};
    CU_ASSERT_EQUAL(gpu_sa_decode(&p, &par, before_producer, mach, NULL, &r, err, sizeof err),
                    ENG_INVAL);
    CU_ASSERT(bl_contains(err, "depends on"));
    CU_ASSERT_EQUAL(gpu_sa_decode(&p, &par, before_dep, mach, NULL, &r, err, sizeof err),
                    ENG_INVAL);
    CU_ASSERT_EQUAL(gpu_sa_decode(&p, &par, twice, mach, NULL, &r, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "permutation"));
    const int32_t order[] = {0, 1, 2}, bad_mach[] = {0, 2, 1};
    CU_ASSERT_EQUAL(gpu_sa_decode(&p, &par, order, bad_mach, NULL, &r, err, sizeof err), ENG_INVAL);
    const int32_t bad_inputs[] = {0, 1, 1, 1};
    CU_ASSERT_EQUAL(gpu_sa_decode(&p, &par, order, mach, bad_inputs, &r, err, sizeof err),
                    ENG_INVAL);
}

/* ---- the queue: profile placement ---------------------------------------
 * 4 units, 2 busy until 10. a: 3 units x 5; b: 2 x 20; c: 1 x 4.
 * Order a, b, c: a cannot start before 10 (2 free): [10, 15); b fits [0,
 * 10) but not [10, 15) (1 left): [15, 35); c fits at 0: [0, 4).
 * Cmax 35, F 54, E1 = 3 x 35 + 54 = 159.
 * Order b, c, a: b [0, 20) (2 free before 10, 4 after); c: nothing free
 * before 10, then [10, 14); a: 1 free on [10, 14), 2 on [14, 20): [20, 25).
 * Cmax 25, F 59, E1 134. Waiting times 5, 0, 1 add 6 to F. */
static const int32_t q_units[] = {3, 2, 1};
static const int64_t q_dur[] = {5, 20, 4};
static const int64_t q_waited[] = {5, 0, 1};
static const int32_t q_busy_units[] = {2};
static const int64_t q_busy_end[] = {10};

static gpu_sa_queue queue_q(void)
{
    return (gpu_sa_queue){.n_jobs = 3,
                          .total_units = 4,
                          .units = q_units,
                          .duration = q_dur,
                          .waited = NULL,
                          .n_busy = 1,
                          .busy_units = q_busy_units,
                          .busy_end = q_busy_end};
}

static void test_decode_queue(void)
{
    gpu_sa_queue q = queue_q();
    gpu_sa_problem p = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params();
    gpu_sa_result r;
    const int32_t abc[] = {0, 1, 2}, bca[] = {1, 2, 0};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, abc, NULL, NULL, &r, err, sizeof err), 0);
    const int64_t s1[] = {10, 15, 0}, e1[] = {15, 35, 4};
    for (int j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(r.start[j], s1[j]);
        CU_ASSERT_EQUAL(r.end[j], e1[j]);
    }
    CU_ASSERT_EQUAL(r.e1, 159);
    CU_ASSERT_PTR_NULL(r.machine);
    gpu_sa_result_fini(&r);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, bca, NULL, NULL, &r, err, sizeof err), 0);
    const int64_t s2[] = {20, 0, 10}, e2[] = {25, 20, 14};
    for (int j = 0; j < 3; j++) {
        CU_ASSERT_EQUAL(r.start[j], s2[j]);
        CU_ASSERT_EQUAL(r.end[j], e2[j]);
    }
    CU_ASSERT_EQUAL(r.cmax, 25);
    CU_ASSERT_EQUAL(r.flowtime, 59);
    CU_ASSERT_EQUAL(r.e1, 134);
    gpu_sa_result_fini(&r);
    q.waited = q_waited;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, bca, NULL, NULL, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.flowtime, 65);
    CU_ASSERT_EQUAL(r.e1, 140);
    gpu_sa_result_fini(&r);
}

/* ---- validation ------------------------------------------------------------ */

static void test_validation(void)
{
    gpu_sa_grid g = grid_b();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), 0);
    /* j0 depending on j2 closes a cycle j0 -> j1 (f1) -> j2 -> j0 */
    const int32_t dep_off[] = {0, 1, 1, 2}, dep[] = {2, 1};
    g.dep_off = dep_off;
    g.dep_job = dep;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "cycle"));
    g = grid_b();
    const int32_t lonely_mir[] = {0, 1, 1, 1}; /* f2 has no mirror and no producer */
    g.mirror_off = lonely_mir;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "no mirror and no producer"));
    g = grid_b();
    const int32_t dup_in[] = {0, 1, 1, 1};
    g.input_file = dup_in;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "listed twice"));
    g = grid_b();
    const int64_t zero_speed[] = {1, 0};
    g.speed = zero_speed;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    g = grid_b();
    const int32_t zero_bw[] = {1, 0, 1, 1};
    g.bandwidth = zero_bw;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    g = grid_b();
    const int32_t self_prod[] = {-1, 1, -1}; /* j1 reads f1, which it produces */
    g.producer = self_prod;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_INVAL);
    const int64_t huge[] = {INT64_MAX / 4, 1, 1};
    g = grid_b();
    g.ops = huge;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&p, err, sizeof err), ENG_RANGE);
    CU_ASSERT(bl_contains(err, "overflow"));

    gpu_sa_queue q = queue_q();
    gpu_sa_problem pq = {.kind = GPU_SA_QUEUE, .queue = &q};
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&pq, err, sizeof err), 0);
    const int32_t too_wide[] = {5, 1, 1};
    q.units = too_wide;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&pq, err, sizeof err), ENG_INVAL);
    q = queue_q();
    const int32_t too_busy[] = {5};
    q.busy_units = too_busy;
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&pq, err, sizeof err), ENG_INVAL);
    gpu_sa_problem none = {.kind = GPU_SA_QUEUE, .queue = NULL};
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&none, err, sizeof err), ENG_INVAL);

    gpu_sa_params par = params();
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), 0);
    par.chains = 0;
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), ENG_INVAL);
    par = params();
    par.iterations = -1;
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), ENG_INVAL);
    par = params();
    par.t_end_ppm = 0;
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), ENG_INVAL);
    par = params();
    par.t0_accept_permille = 1000;
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), ENG_INVAL);
    par = params();
    par.energy = 3;
    CU_ASSERT_EQUAL(gpu_sa_params_check(&par, err, sizeof err), ENG_INVAL);
}

/* ---- annealing ------------------------------------------------------------ */

static bool same_result(const gpu_sa_result *a, const gpu_sa_result *b, int32_t n_inputs)
{
    bool ok = a->energy == b->energy && a->e1 == b->e1 && a->e2_fixed == b->e2_fixed &&
              a->best_chain == b->best_chain && a->iterations == b->iterations &&
              a->evaluations == b->evaluations && a->n_jobs == b->n_jobs;
    for (int32_t j = 0; ok && j < a->n_jobs; j++)
        ok = a->order[j] == b->order[j] && a->start[j] == b->start[j] && a->end[j] == b->end[j] &&
             (!a->machine || a->machine[j] == b->machine[j]);
    for (int32_t i = 0; ok && a->input_order && i < n_inputs; i++)
        ok = a->input_order[i] == b->input_order[i];
    return ok;
}

/* Same seed, same everything; the best energy never exceeds the best
 * chain's initial one; the result decodes to its energy. */
static void test_anneal_deterministic(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 16, 7, &m, err, sizeof err), 0);
    gpu_sa_params par = params();
    par.iterations = 300;
    par.chains = 3;
    par.seed = 99;
    gpu_sa_result a, b, c;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &a, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &b, err, sizeof err), 0);
    int32_t n_in = m.grid.input_off[m.grid.n_jobs];
    CU_ASSERT(same_result(&a, &b, n_in));
    CU_ASSERT(a.energy <= a.initial_energy);
    CU_ASSERT_EQUAL(a.evaluations, 3 * (1 + GPU_SA_T0_SAMPLES + 300));
    CU_ASSERT_STRING_EQUAL(a.backend, "cpu");
    gpu_sa_result d;
    CU_ASSERT_EQUAL_FATAL(
        gpu_sa_decode(&m.problem, &par, a.order, a.machine, a.input_order, &d, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.e1, a.e1);
    gpu_sa_result_fini(&d);
    par.seed = 100;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &c, err, sizeof err), 0);
    CU_ASSERT(!same_result(&a, &c, n_in));
    gpu_sa_result_fini(&a);
    gpu_sa_result_fini(&b);
    gpu_sa_result_fini(&c);
    gpu_sa_model_fini(&m);
}

/* A chain does not depend on how many run beside it: chain 0 alone gives
 * exactly chain 0's result of a three-chain run. Where chain 0 is the best
 * of three, the two results are the same schedule (only the evaluations,
 * counted over all chains, differ); where it is not, it is strictly worse
 * than the best, because equal energies go to the lowest chain. Over these
 * six seeds chain 0 wins once (this model's known answer), so both cases
 * are checked. */
static void test_chain_independent_of_count(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 16, 7, &m, err, sizeof err), 0);
    int32_t n_in = m.grid.input_off[m.grid.n_jobs];
    int chain0_best = 0;
    for (uint64_t seed = 99; seed < 105; seed++) {
        gpu_sa_params par = params();
        par.iterations = 300;
        par.seed = seed;
        par.chains = 3;
        gpu_sa_result three, one;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &three, err, sizeof err), 0);
        par.chains = 1;
        CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &one, err, sizeof err), 0);
        CU_ASSERT_EQUAL(one.best_chain, 0);
        CU_ASSERT_EQUAL(one.evaluations, 1 + GPU_SA_T0_SAMPLES + 300);
        CU_ASSERT_EQUAL(three.evaluations, 3 * one.evaluations);
        if (three.best_chain == 0) {
            chain0_best++;
            one.evaluations = three.evaluations;
            CU_ASSERT(same_result(&three, &one, n_in));
        } else {
            CU_ASSERT(three.energy < one.energy);
        }
        gpu_sa_result_fini(&three);
        gpu_sa_result_fini(&one);
    }
    CU_ASSERT_EQUAL(chain0_best, 1); /* so both branches above ran */
    gpu_sa_model_fini(&m);
}

static int64_t brute_queue(const gpu_sa_problem *p, const gpu_sa_params *par, int32_t *perm, int k,
                           int n)
{
    if (k == n) {
        gpu_sa_result r;
        if (gpu_sa_decode(p, par, perm, NULL, NULL, &r, err, sizeof err))
            return INT64_MAX;
        int64_t e = r.energy;
        gpu_sa_result_fini(&r);
        return e;
    }
    int64_t best = INT64_MAX;
    for (int i = k; i < n; i++) {
        int32_t t = perm[k];
        perm[k] = perm[i];
        perm[i] = t;
        int64_t e = brute_queue(p, par, perm, k + 1, n);
        best = e < best ? e : best;
        perm[i] = perm[k];
        perm[k] = t;
    }
    return best;
}

/* Six queued jobs (720 orders): annealing finds the brute-force optimum;
 * with the given order kept as chain 0's start it never does worse than
 * that order. */
static void test_anneal_queue_optimum(void)
{
    const int32_t units[] = {4, 1, 2, 3, 1, 2};
    const int64_t dur[] = {30, 50, 10, 20, 5, 40};
    const int32_t busy_u[] = {2, 1};
    const int64_t busy_e[] = {15, 25};
    gpu_sa_queue q = {.n_jobs = 6,
                      .total_units = 4,
                      .units = units,
                      .duration = dur,
                      .n_busy = 2,
                      .busy_units = busy_u,
                      .busy_end = busy_e};
    gpu_sa_problem p = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params();
    int32_t perm[6] = {0, 1, 2, 3, 4, 5};
    int64_t opt = brute_queue(&p, &par, perm, 0, 6);
    par.iterations = 2000;
    par.chains = 4;
    par.keep_given_first = true;
    gpu_sa_result r, given;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&p, &par, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.energy, opt);
    const int32_t id[] = {0, 1, 2, 3, 4, 5};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&p, &par, id, NULL, NULL, &given, err, sizeof err), 0);
    CU_ASSERT(r.energy <= given.energy);
    gpu_sa_result_fini(&given);
    gpu_sa_result_fini(&r);
    /* no iterations: chain 0 is the given order itself */
    par.iterations = 0;
    par.chains = 1;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&p, &par, &r, err, sizeof err), 0);
    for (int j = 0; j < 6; j++)
        CU_ASSERT_EQUAL(r.order[j], j);
    CU_ASSERT_EQUAL(r.iterations, 0);
    gpu_sa_result_fini(&r);
}

/* Problem B has few candidates: 2 machines per job (8), 2 topological
 * orders (j0 first; j1 before j2 — so 1), 2 download orders for j1. The
 * brute-force optimum: enumerate them. */
static void test_anneal_grid_optimum(void)
{
    gpu_sa_grid g = grid_b();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    gpu_sa_params par = params();
    int64_t opt = INT64_MAX;
    const int32_t order[] = {0, 1, 2};
    const int32_t rows[2][4] = {{0, 1, 2, 1}, {0, 2, 1, 1}};
    for (int a = 0; a < 8; a++)
        for (int d = 0; d < 2; d++) {
            int32_t mach[3] = {a & 1, (a >> 1) & 1, (a >> 2) & 1};
            gpu_sa_result r;
            CU_ASSERT_EQUAL_FATAL(
                gpu_sa_decode(&p, &par, order, mach, rows[d], &r, err, sizeof err), 0);
            opt = r.energy < opt ? r.energy : opt;
            gpu_sa_result_fini(&r);
        }
    par.iterations = 500;
    par.chains = 2;
    gpu_sa_result r;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&p, &par, &r, err, sizeof err), 0);
    if (r.energy != opt)
        printf("\n  annealing %lld, optimum %lld (init %lld)", (long long)r.energy, (long long)opt,
               (long long)r.initial_energy);
    CU_ASSERT_EQUAL(r.energy, opt);
    gpu_sa_result_fini(&r);
}

/* The E1 rule: a problem where no move changes anything stops after
 * exactly 50 iterations; a load model stops before its cap, after at least
 * 50. */
static void test_stop_e1(void)
{
    const int32_t units[] = {1, 1};
    const int64_t dur[] = {10, 10};
    gpu_sa_queue q = {.n_jobs = 2, .total_units = 1, .units = units, .duration = dur};
    gpu_sa_problem p = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params();
    par.iterations = 1000;
    par.stop_e1 = true;
    gpu_sa_result r;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&p, &par, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.iterations, GPU_SA_STALL_ITERATIONS);
    CU_ASSERT_EQUAL(r.e1, 2 * 20 + 30);
    gpu_sa_result_fini(&r);
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 32, 1, &m, err, sizeof err), 0);
    par.iterations = 100000;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &r, err, sizeof err), 0);
    CU_ASSERT(r.iterations >= GPU_SA_STALL_ITERATIONS);
    CU_ASSERT(r.iterations < 100000);
    gpu_sa_result_fini(&r);
    gpu_sa_model_fini(&m);
}

/* E2 with transfer costs: the same candidate's E2 grows with the cost
 * percentage by exactly a3 x pct x n x volume moved (in units of 1e-5:
 * 300 x pct x n x V). */
static void test_energy_e2(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 8, 3, &m, err, sizeof err), 0);
    gpu_sa_params par = params();
    par.energy = GPU_SA_E2;
    par.iterations = 200;
    gpu_sa_result r, d;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.energy, r.e2_fixed);
    int64_t n = m.grid.n_jobs;
    CU_ASSERT_EQUAL(r.e2_fixed, 100 * (350 * n * r.cmax + 350 * r.flowtime));
    CU_ASSERT_EQUAL(r.e1, n * r.cmax + r.flowtime);
    for (int pct = 0; pct <= 25; pct += 5) {
        par.transfer_cost_pct = pct;
        CU_ASSERT_EQUAL_FATAL(
            gpu_sa_decode(&m.problem, &par, r.order, r.machine, r.input_order, &d, err, sizeof err),
            0);
        CU_ASSERT_EQUAL(d.e2_fixed, r.e2_fixed + 300LL * pct * n * r.transfer_volume);
        CU_ASSERT(r.transfer_volume > 0);
        CU_ASSERT_DOUBLE_EQUAL(d.e2, d.e2_fixed / 1e5, 1e-6);
        gpu_sa_result_fini(&d);
    }
    gpu_sa_result_fini(&r);
    gpu_sa_model_fini(&m);
}

/* Load models: sizes, validity, reproducibility, argument checks. */
static void test_models(void)
{
    gpu_sa_model a, b;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 32, 5, &a, err, sizeof err), 0);
    CU_ASSERT_EQUAL(a.grid.n_machines, 32);
    CU_ASSERT_EQUAL(a.grid.n_jobs, 16 * 32);
    CU_ASSERT_EQUAL(a.grid.n_files, 32 * 32);
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&a.problem, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 32, 5, &b, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(a.grid.ops, b.grid.ops, sizeof(int64_t) * 512), 0);
    CU_ASSERT_EQUAL(memcmp(a.grid.input_file, b.grid.input_file,
                           sizeof(int32_t) * (size_t)a.grid.input_off[512]),
                    0);
    gpu_sa_model_fini(&b);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 32, 6, &b, err, sizeof err), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a.grid.ops, b.grid.ops, sizeof(int64_t) * 512), 0);
    gpu_sa_model_fini(&b);
    gpu_sa_model_fini(&a);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 1, 5, &a, err, sizeof err), 0);
    CU_ASSERT_EQUAL(gpu_sa_problem_check(&a.problem, err, sizeof err), 0);
    gpu_sa_model_fini(&a);
    CU_ASSERT_EQUAL(gpu_sa_model_generate(3, 32, 5, &a, err, sizeof err), ENG_INVAL);
    CU_ASSERT_EQUAL(gpu_sa_model_generate(1, 0, 5, &a, err, sizeof err), ENG_INVAL);
}

/* Backend names: cpu always; cuda only where available. The library reads
 * no environment: BATCHLAB_SA_BACKEND (which the command line reads and
 * passes down) changes nothing here. */
static void test_backend_resolve(void)
{
    char name[8];
    CU_ASSERT_EQUAL(gpu_sa_backend_resolve("cpu", name, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(name, "cpu");
    CU_ASSERT_EQUAL(gpu_sa_backend_resolve("auto", name, err, sizeof err), 0);
    char why[256];
    bool cuda = gpu_sa_cuda_available(why, sizeof why);
    CU_ASSERT_STRING_EQUAL(name, cuda ? "cuda" : "cpu");
    CU_ASSERT_EQUAL(gpu_sa_backend_resolve(NULL, name, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(name, cuda ? "cuda" : "cpu");
    int rc = gpu_sa_backend_resolve("cuda", name, err, sizeof err);
    if (cuda) {
        CU_ASSERT_EQUAL(rc, 0);
    } else {
        CU_ASSERT_EQUAL(rc, ENG_UNSUPPORTED);
        CU_ASSERT(bl_contains(err, "not available"));
    }
    if (!gpu_sa_cuda_built())
        CU_ASSERT(bl_contains(why, "without CUDA"));
    CU_ASSERT_EQUAL(gpu_sa_backend_resolve("gpu", name, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "'gpu'"));
    /* the environment is not read */
    const char *saved = getenv("BATCHLAB_SA_BACKEND");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("BATCHLAB_SA_BACKEND", "fpga", 1);
    CU_ASSERT_EQUAL(gpu_sa_backend_resolve("cpu", name, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(name, "cpu");
    /* the one-shot solve on the requested backend */
    gpu_sa_queue q = queue_q();
    gpu_sa_problem p = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params();
    gpu_sa_result r;
    CU_ASSERT_EQUAL(gpu_sa_solve(&p, &par, "cpu", &r, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(r.backend, "cpu");
    CU_ASSERT_EQUAL(r.e1, 134); /* the optimum of three jobs */
    gpu_sa_result_fini(&r);
    if (keep)
        setenv("BATCHLAB_SA_BACKEND", keep, 1);
    else
        unsetenv("BATCHLAB_SA_BACKEND");
    free(keep);
}

/* ---- machine by machine (the paper's Algorithm 1 decomposition) ----------
 * Problem C: three machines, five jobs, with ties on purpose. Speeds 2, 1,
 * 1; latency 1 between all machines except 0 between M0 and M2; bandwidth
 * 2 everywhere. f0 (size 4) on M1 and M2 from 0; f1 (size 2) produced by
 * j0; f2 (size 0) on M0 from 3; f3 (size 6) produced by j1. j0 (4 ops)
 * reads f0; j1 (2) reads f0, f2; j2 (6) reads f1, f0; j3 (2) reads f1, f3
 * and depends on j2; j4 (3) reads f3, f2, f0. */
static const int64_t c_speed[] = {2, 1, 1};
static const int32_t c_lat[] = {0, 1, 0, 1, 0, 1, 0, 1, 0};
static const int32_t c_bw[] = {1, 2, 2, 2, 1, 2, 2, 2, 1};
static const int64_t c_ops[] = {4, 2, 6, 2, 3};
static const int64_t c_size[] = {4, 2, 0, 6};
static const int32_t c_mir_off[] = {0, 2, 2, 3, 3};
static const int32_t c_mir_m[] = {1, 2, 0};
static const int64_t c_mir_t[] = {0, 0, 3};
static const int32_t c_prod[] = {-1, 0, -1, 1};
static const int32_t c_in_off[] = {0, 1, 3, 5, 7, 10};
static const int32_t c_in[] = {0, 0, 2, 1, 0, 1, 3, 3, 2, 0};
static const int32_t c_dep_off[] = {0, 0, 0, 0, 1, 1};
static const int32_t c_dep[] = {2};

static gpu_sa_grid grid_c(void)
{
    return (gpu_sa_grid){.n_machines = 3,
                         .n_jobs = 5,
                         .n_files = 4,
                         .speed = c_speed,
                         .latency = c_lat,
                         .bandwidth = c_bw,
                         .ops = c_ops,
                         .file_size = c_size,
                         .mirror_off = c_mir_off,
                         .mirror_machine = c_mir_m,
                         .mirror_ready = c_mir_t,
                         .producer = c_prod,
                         .input_off = c_in_off,
                         .input_file = c_in,
                         .dep_off = c_dep_off,
                         .dep_job = c_dep};
}

/* Decodes one candidate both ways; 1 if every value agrees. */
static int same_both_ways(const gpu_sa_problem *p, const int32_t *order, const int32_t *mach,
                          const int32_t *in_order, int32_t *rounds)
{
    gpu_sa_params par = params();
    par.energy = GPU_SA_E2;
    par.transfer_cost_pct = 25;
    gpu_sa_result a, b;
    if (gpu_sa_decode(p, &par, order, mach, in_order, &a, err, sizeof err) != 0)
        return -1; /* not a valid candidate */
    par.parallel = GPU_SA_PARALLEL_MACHINES;
    int rc = gpu_sa_decode(p, &par, order, mach, in_order, &b, err, sizeof err);
    int same = rc == 0 && a.cmax == b.cmax && a.flowtime == b.flowtime &&
               a.transfer_time == b.transfer_time && a.transfer_volume == b.transfer_volume &&
               a.e1 == b.e1 && a.e2_fixed == b.e2_fixed && b.rounds >= 1;
    for (int32_t j = 0; same && j < a.n_jobs; j++)
        same = a.start[j] == b.start[j] && a.end[j] == b.end[j];
    *rounds = b.rounds;
    gpu_sa_result_fini(&a);
    if (rc == 0)
        gpu_sa_result_fini(&b);
    return same;
}

/* Every candidate of problems A, B and C — every order (invalid ones are
 * refused by the decoder and skipped), every machine per job, each job's
 * downloads as given and reversed — decodes to the same schedule machine
 * by machine as in one pass. */
static void test_machines_identity_exhaustive(void)
{
    gpu_sa_grid grids[3] = {grid_a(), grid_b(), grid_c()};
    int64_t checked = 0, differ = 0, max_rounds = 0;
    for (int gi = 0; gi < 3; gi++) {
        const gpu_sa_grid *g = &grids[gi];
        gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = g};
        const int32_t J = g->n_jobs, M = g->n_machines;
        int32_t order[5], mach[5], rev[10];
        for (int32_t j = 0; j < J; j++)
            for (int32_t i = g->input_off[j]; i < g->input_off[j + 1]; i++)
                rev[i] = g->input_file[g->input_off[j] + g->input_off[j + 1] - 1 - i];
        int64_t n_orders = 1, n_mach = 1;
        for (int32_t j = 0; j < J; j++) {
            n_orders *= J;
            n_mach *= M;
        }
        for (int64_t o = 0; o < n_orders; o++) {
            int64_t x = o;
            int used = 0, ok = 1;
            for (int32_t k = 0; k < J; k++, x /= J) {
                order[k] = (int32_t)(x % J);
                ok = ok && !(used & 1 << order[k]);
                used |= 1 << order[k];
            }
            if (!ok)
                continue;
            for (int64_t a = 0; a < n_mach; a++) {
                int64_t y = a;
                for (int32_t j = 0; j < J; j++, y /= M)
                    mach[j] = (int32_t)(y % M);
                for (int v = 0; v < 2; v++) {
                    int32_t rounds = 0;
                    int s = same_both_ways(&p, order, mach, v ? rev : NULL, &rounds);
                    if (s < 0)
                        continue;
                    checked++;
                    differ += !s;
                    if (rounds > max_rounds)
                        max_rounds = rounds;
                }
            }
        }
    }
    /* A: 2 orders x 4 assignments x 2 download orders; B: 1 topological
     * order (j0 before j1 before j2) x 8 x 2; C: 9 topological orders (j0
     * before j2 before j3, j1 before j3 and j4) x 243 x 2 */
    CU_ASSERT_EQUAL(checked, 16 + 16 + 4374);
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(max_rounds >= 3); /* some candidates need several rounds */
}

/* Problem C with every job on M0 except j4 on M1, in order j0..j4:
 * rounds by hand. M0's jobs need only initial mirrors and M0's own copies,
 * so round 1 settles them. M1's j4 needs f3, produced by j1 on M0, and the
 * copies of f0 and f2 M0's jobs downloaded: in round 1 it sees round 0's
 * values (none), in round 2 M0's final ones, and round 3 changes nothing:
 * 3 rounds. Everything on M0: round 1 settles, round 2 confirms. */
static void test_machines_rounds(void)
{
    gpu_sa_grid g = grid_c();
    gpu_sa_problem p = {.kind = GPU_SA_GRID, .grid = &g};
    const int32_t order[] = {0, 1, 2, 3, 4}, mach[] = {0, 0, 0, 0, 1};
    int32_t rounds = 0;
    CU_ASSERT_EQUAL(same_both_ways(&p, order, mach, NULL, &rounds), 1);
    CU_ASSERT_EQUAL(rounds, 3);
    const int32_t alone[] = {0, 0, 0, 0, 0};
    CU_ASSERT_EQUAL(same_both_ways(&p, order, alone, NULL, &rounds), 1);
    CU_ASSERT_EQUAL(rounds, 2); /* one machine: one round, one to confirm */
}

/* Whole annealing runs: chains (decoding by events), chains
 * decoding from scratch, and machine by machine give the same best
 * schedule, for E1 and for E2 with transfer costs, with either acceptance
 * rule. */
static void test_machines_identity_anneal(void)
{
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 16, 5, &m, err, sizeof err), 0);
    for (int v = 0; v < 4; v++) {
        gpu_sa_params par = params();
        par.iterations = 150;
        par.chains = 2;
        par.energy = v & 1 ? GPU_SA_E2 : GPU_SA_E1;
        par.transfer_cost_pct = v & 1 ? 25 : 0;
        par.acceptance = v & 2 ? GPU_SA_ACCEPT_PAPER : GPU_SA_ACCEPT_METROPOLIS;
        gpu_sa_result r[3];
        for (int k = 0; k < 3; k++) {
            par.full_decode = k == 1;
            par.parallel = k == 2 ? GPU_SA_PARALLEL_MACHINES : GPU_SA_PARALLEL_CHAINS;
            CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &r[k], err, sizeof err), 0);
        }
        for (int k = 1; k < 3; k++) {
            CU_ASSERT_EQUAL(r[k].energy, r[0].energy);
            CU_ASSERT_EQUAL(r[k].best_chain, r[0].best_chain);
            CU_ASSERT_EQUAL(r[k].iterations, r[0].iterations);
            CU_ASSERT_EQUAL(memcmp(r[k].order, r[0].order, sizeof(int32_t) * 64), 0);
            CU_ASSERT_EQUAL(memcmp(r[k].machine, r[0].machine, sizeof(int32_t) * 64), 0);
            CU_ASSERT_EQUAL(memcmp(r[k].end, r[0].end, sizeof(int64_t) * 64), 0);
        }
        CU_ASSERT(r[0].energy < r[0].initial_energy || v & 2);
        for (int k = 0; k < 3; k++)
            gpu_sa_result_fini(&r[k]);
    }
    gpu_sa_model_fini(&m);
    /* a queue has no machines */
    gpu_sa_queue q = queue_q();
    gpu_sa_problem pq = {.kind = GPU_SA_QUEUE, .queue = &q};
    gpu_sa_params par = params();
    par.parallel = GPU_SA_PARALLEL_MACHINES;
    gpu_sa_result r;
    CU_ASSERT_EQUAL(gpu_sa_solve_cpu(&pq, &par, &r, err, sizeof err), ENG_INVAL);
    CU_ASSERT(bl_contains(err, "no machines"));
}

/* The acceptance rules on whole runs (the rules themselves, step by step:
 * test_gpu_sa_chain.c). */
static void test_acceptance_runs(void)
{
    /* Whole runs: the current schedule follows the same trajectory under
     * both rules (the same draws decide), so Metropolis' best-ever is never
     * worse than the paper's last accepted, and here strictly better. */
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(1, 8, 2, &m, err, sizeof err), 0);
    gpu_sa_params par = params();
    par.iterations = 300;
    par.t0_accept_permille = 900;
    par.t_end_ppm = 500000;
    gpu_sa_result a, b;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &a, err, sizeof err), 0);
    par.acceptance = GPU_SA_ACCEPT_PAPER;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &b, err, sizeof err), 0);
    CU_ASSERT(a.energy < b.energy);
    CU_ASSERT_EQUAL(a.initial_energy, b.initial_energy);
    gpu_sa_result_fini(&a);
    gpu_sa_result_fini(&b);
    gpu_sa_model_fini(&m);
}

/* The Cmax lower bound on instances whose optimum is known.
 * D: two machines of speed 10 and 5, no files; jobs of 100, 50 and 50
 * operations. Load bound ceil(200 / 15) = 14; the longest job alone takes
 * 10 on M0. The optimum is 10 + ... : j0 on M0 [0, 10), j1 and j2 on M1
 * take 10 each: Cmax 20, or j1 on M0 after j0 (15) and j2 on M1 (10):
 * Cmax 15; the bound says 14 (the load bound), the optimum is 15 (by
 * enumeration below).
 * B's chain: j0 (4) produces f1, read by j1 (2) and j2 (3), j2 after j1.
 * Bound: j0 needs f0 (on M1 from 0): on M1 at 0, completes 4; j1 needs f1
 * (producer may be local: 4) and f2 (on M0 from 0; on M1 via one hop: 0 +
 * 1 + 1 = 2): 4 + 2 = 6; j2 after j1: 6 + 3 = 9. The optimum is 9 (all on
 * M1: j0 [0, 4); f2 arrives at 2; j1 [4, 6); j2 [6, 9)). */
static void test_lower_bound(void)
{
    static const int64_t d_speed[] = {10, 5};
    static const int32_t d_lat[] = {0, 1, 1, 0};
    static const int32_t d_bw[] = {1, 1, 1, 1};
    static const int64_t d_ops[] = {100, 50, 50};
    static const int32_t d_zero[] = {0, 0, 0, 0};
    gpu_sa_grid d = {.n_machines = 2,
                     .n_jobs = 3,
                     .n_files = 0,
                     .speed = d_speed,
                     .latency = d_lat,
                     .bandwidth = d_bw,
                     .ops = d_ops,
                     .file_size = NULL,
                     .mirror_off = d_zero,
                     .producer = NULL,
                     .input_off = d_zero,
                     .dep_off = d_zero};
    gpu_sa_problem pd = {.kind = GPU_SA_GRID, .grid = &d};
    int64_t lb = 0;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_cmax_lower_bound(&pd, &lb, err, sizeof err), 0);
    CU_ASSERT_EQUAL(lb, 14);
    /* the optimum by enumeration of every candidate: 15 >= 14 */
    int64_t opt = INT64_MAX;
    gpu_sa_params par = params();
    const int32_t orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int o = 0; o < 6; o++)
        for (int a = 0; a < 8; a++) {
            int32_t mach[3] = {a & 1, (a >> 1) & 1, (a >> 2) & 1};
            gpu_sa_result r;
            CU_ASSERT_EQUAL_FATAL(
                gpu_sa_decode(&pd, &par, orders[o], mach, NULL, &r, err, sizeof err), 0);
            if (r.cmax < opt)
                opt = r.cmax;
            gpu_sa_result_fini(&r);
        }
    CU_ASSERT_EQUAL(opt, 15);

    gpu_sa_grid b = grid_b();
    gpu_sa_problem pb = {.kind = GPU_SA_GRID, .grid = &b};
    CU_ASSERT_EQUAL_FATAL(gpu_sa_cmax_lower_bound(&pb, &lb, err, sizeof err), 0);
    CU_ASSERT_EQUAL(lb, 9);
    const int32_t order[] = {0, 1, 2}, on1[] = {1, 1, 1};
    gpu_sa_result r;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_decode(&pb, &par, order, on1, NULL, &r, err, sizeof err), 0);
    CU_ASSERT_EQUAL(r.cmax, 9); /* the bound is attained: the optimum */
    gpu_sa_result_fini(&r);

    /* on a load model the annealed Cmax is never below the bound */
    gpu_sa_model m;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_model_generate(2, 16, 1, &m, err, sizeof err), 0);
    CU_ASSERT_EQUAL_FATAL(gpu_sa_cmax_lower_bound(&m.problem, &lb, err, sizeof err), 0);
    par.iterations = 200;
    CU_ASSERT_EQUAL_FATAL(gpu_sa_solve_cpu(&m.problem, &par, &r, err, sizeof err), 0);
    CU_ASSERT(lb > 0 && r.cmax >= lb);
    gpu_sa_result_fini(&r);
    gpu_sa_model_fini(&m);
    /* a queue has no bound here */
    gpu_sa_queue q = queue_q();
    gpu_sa_problem pq = {.kind = GPU_SA_QUEUE, .queue = &q};
    CU_ASSERT_EQUAL(gpu_sa_cmax_lower_bound(&pq, &lb, err, sizeof err), ENG_INVAL);
}

int bl_suite_gpu_sa_cpu(void)
{
    CU_pSuite s = CU_add_suite("gpu_sa_cpu", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "decoder: transfers and mirrors", test_decode_transfers_mirrors);
    CU_add_test(s, "decoder: 32-bit network entries", test_decode_wide_network);
    CU_add_test(s, "decoder: produced files, download order, dependency",
                test_decode_produced_chain);
    CU_add_test(s, "decoder: invalid candidates", test_decode_rejects);
    CU_add_test(s, "decoder: queue profile placement", test_decode_queue);
    CU_add_test(s, "validation", test_validation);
    CU_add_test(s, "annealing: determinism", test_anneal_deterministic);
    CU_add_test(s, "a chain independent of how many run beside it",
                test_chain_independent_of_count);
    CU_add_test(s, "annealing: queue optimum", test_anneal_queue_optimum);
    CU_add_test(s, "annealing: grid optimum", test_anneal_grid_optimum);
    CU_add_test(s, "E1 stopping rule", test_stop_e1);
    CU_add_test(s, "E2 and transfer costs", test_energy_e2);
    CU_add_test(s, "load models", test_models);
    CU_add_test(s, "backend selection", test_backend_resolve);
    CU_add_test(s, "machine by machine: every small candidate", test_machines_identity_exhaustive);
    CU_add_test(s, "machine by machine: rounds", test_machines_rounds);
    CU_add_test(s, "machine by machine: whole annealing runs", test_machines_identity_anneal);
    CU_add_test(s, "acceptance: whole runs, Metropolis and the paper's", test_acceptance_runs);
    CU_add_test(s, "Cmax lower bound", test_lower_bound);
    return 0;
}
