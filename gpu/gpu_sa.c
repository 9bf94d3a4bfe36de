/* gpu_sa.c — the problem model, the bottom of gpu/: parameters, problem
 * validation and packing, and the Cmax lower bound. It calls nothing else
 * of gpu/; beside it at the bottom, the chain (gpu_sa_chain.c); the CPU
 * reference (gpu_sa_cpu.c, which also decodes results) and the CUDA
 * backend build on both, backend selection (gpu_backend.c) and the kernel
 * pool (gpu_pool.c) above them, and the one-shot solve (gpu_solve.c) on
 * top (tools/check-layers checks the order).
 *
 * Packing turns a borrowed gpu_sa_problem into one block (the gsa_header
 * layout of gpu_sa_layout.h) that both backends read as is, and adds what the
 * chains need: the precedence lists (explicit dependencies plus the
 * producer of every input file, both directions), each job's produced
 * files, a capacity row per file in the copy table (initial mirrors + its
 * producer + one per reading job: every download adds at most one copy),
 * the jobs with several inputs, and for a queue the initial availability
 * profile. It also bounds every time a decoding can produce (the largest
 * initial time plus the sum of all run times and worst-case transfers), so
 * that the 64-bit energies provably do not overflow.
 *
 * Cost: O(M^2 + J + F + inputs + dependencies) per packing.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#endif
#include "gpu_sa_impl.h"

#include "eng_error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int gsa_fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

double gsa_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void gpu_sa_params_default(gpu_sa_params *p)
{
    memset(p, 0, sizeof *p);
    p->seed = 1;
    p->chains = 1;
    p->iterations = 1000;
    p->stop_e1 = false;
    p->energy = GPU_SA_E1;
    p->a1 = 350;
    p->a2 = 350;
    p->a3 = 300;
    p->transfer_cost_pct = 0;
    p->t0_accept_permille = 500;
    p->t_end_ppm = 10000;
    p->cooling_iterations = 0;
    p->keep_given_first = false;
}

int gpu_sa_params_check(const gpu_sa_params *p, char *err, size_t errlen)
{
    if (p->chains < 1 || p->chains > (1 << 20))
        return gsa_fail(err, errlen, ENG_INVAL, "chains: expected 1..1048576, got %d", p->chains);
    if (p->iterations < 0)
        return gsa_fail(err, errlen, ENG_INVAL, "iterations: expected >= 0, got %lld",
                        (long long)p->iterations);
    if (p->energy != GPU_SA_E1 && p->energy != GPU_SA_E2)
        return gsa_fail(err, errlen, ENG_INVAL, "energy: expected E1 or E2");
    if (p->a1 < 0 || p->a2 < 0 || p->a3 < 0 || p->a1 > 1000000 || p->a2 > 1000000 ||
        p->a3 > 1000000)
        return gsa_fail(err, errlen, ENG_INVAL, "E2 weights: expected 0..1000000 thousandths");
    if (p->transfer_cost_pct < 0 || p->transfer_cost_pct > 1000)
        return gsa_fail(err, errlen, ENG_INVAL, "transfer cost: expected 0..1000 %%, got %d",
                        p->transfer_cost_pct);
    if (p->t0_accept_permille < 1 || p->t0_accept_permille > 999)
        return gsa_fail(err, errlen, ENG_INVAL,
                        "initial acceptance: expected 1..999 permille, got %d",
                        p->t0_accept_permille);
    if (p->t_end_ppm < 1 || p->t_end_ppm > 1000000)
        return gsa_fail(err, errlen, ENG_INVAL,
                        "final temperature: expected 1..1000000 ppm of T0, got %d", p->t_end_ppm);
    if (p->cooling_iterations < 0)
        return gsa_fail(err, errlen, ENG_INVAL, "cooling iterations: expected >= 0");
    if (p->parallel != GPU_SA_PARALLEL_CHAINS && p->parallel != GPU_SA_PARALLEL_MACHINES)
        return gsa_fail(err, errlen, ENG_INVAL, "parallel: expected chains or machines");
    if (p->acceptance != GPU_SA_ACCEPT_METROPOLIS && p->acceptance != GPU_SA_ACCEPT_PAPER)
        return gsa_fail(err, errlen, ENG_INVAL, "acceptance: expected metropolis or paper");
    return ENG_OK;
}

void gpu_sa_result_fini(gpu_sa_result *r)
{
    if (!r)
        return;
    free(r->order);
    free(r->machine);
    free(r->input_order);
    free(r->start);
    free(r->end);
    memset(r, 0, sizeof *r);
}

void gsa_best_fini(gsa_best *b)
{
    if (!b)
        return;
    free(b->order);
    free(b->mach);
    free(b->fperm);
    memset(b, 0, sizeof *b);
}

void gsa_packed_fini(gsa_packed *pk)
{
    if (!pk)
        return;
    free(pk->blob);
    memset(pk, 0, sizeof *pk);
}

/* ---- packing ------------------------------------------------------------ */

/* Array sizes of a packed problem, in elements (element size by id). */
typedef struct pack_plan {
    int64_t n[GSA_N_ARRAYS];
} pack_plan;

static size_t elem_size(int id)
{
    switch (id) {
    case GSA_SPEED:
    case GSA_OPS:
    case GSA_FSIZE:
    case GSA_MIR_T:
    case GSA_DUR:
    case GSA_WAITED:
    case GSA_PROF_T:
        return 8;
    default:
        return 4;
    }
}

/* Allocates the block and sets the offsets; arrays zeroed. */
static int pack_alloc(const pack_plan *plan, gsa_header *h, gsa_packed *out)
{
    int64_t at = gsa_align8((int64_t)sizeof(gsa_header));
    for (int id = 0; id < GSA_N_ARRAYS; id++) {
        if (plan->n[id] <= 0) {
            h->off[id] = 0;
            continue;
        }
        h->off[id] = at;
        at += gsa_align8(plan->n[id] * (int64_t)elem_size(id));
    }
    h->magic = GSA_MAGIC;
    h->bytes = at;
    out->blob = calloc(1, (size_t)at);
    if (!out->blob)
        return ENG_NOMEM;
    memcpy(out->blob, h, sizeof *h);
    out->bytes = (size_t)at;
    gsa_prob_view(out->blob, &out->view);
    return ENG_OK;
}

#define W32(pk, id) ((int32_t *)(void *)((pk)->blob + ((gsa_header *)(void *)(pk)->blob)->off[id]))
#define W64(pk, id) ((int64_t *)(void *)((pk)->blob + ((gsa_header *)(void *)(pk)->blob)->off[id]))

static int check_csr(const int32_t *off, int32_t rows, const char *what, char *err, size_t errlen)
{
    if (!off)
        return gsa_fail(err, errlen, ENG_INVAL, "%s: offsets missing", what);
    if (off[0] != 0)
        return gsa_fail(err, errlen, ENG_INVAL, "%s: offsets must start at 0", what);
    for (int32_t r = 0; r < rows; r++)
        if (off[r + 1] < off[r])
            return gsa_fail(err, errlen, ENG_INVAL, "%s: offsets decrease at row %d", what, r);
    return ENG_OK;
}

/* A grid's packing, step by step: check its shape (counts, lists,
 * offsets), then its values (speeds, network, mirrors, files, lengths)
 * while taking the bounds the energies need; then the derived lists in
 * scratch arrays (readers and time bounds from the inputs; predecessors;
 * successors and the cycle check; products and the copy table's size);
 * then the block laid out, filled, and its memory traffic estimated. */

/* What the checks learn about a grid. */
typedef struct grid_facts {
    int32_t M, J, F;
    int32_t n_mir, n_in, n_dep;
    int64_t min_speed, max_lat, min_bw, max_bw;
    double max_ready;
    bool net16; /* latency and bandwidth both fit in 16 bits */
} grid_facts;

/* The derived lists, in scratch arrays until the block is laid out. */
typedef struct grid_scratch {
    int32_t *mark;            /* [max(F, J)] last job that touched an entry */
    int32_t *readers;         /* [F] jobs reading each file */
    int32_t *pred_off, *pred; /* predecessors: dependencies, then producers */
    int32_t *succ_off, *succ; /* the same edges the other way */
    int32_t *prod_off;        /* [J + 1] files each job produces */
    int32_t *indeg, *queue;   /* Kahn's algorithm; then fill cursors */
    int32_t n_pred, n_multi, n_prod;
    int64_t copy_cap;
    double ub_time, ub_xfer, ub_vol;
} grid_scratch;

static int grid_check_shape(const gpu_sa_grid *g, grid_facts *x, char *err, size_t errlen)
{
    const int32_t M = g->n_machines, J = g->n_jobs, F = g->n_files;
    x->M = M;
    x->J = J;
    x->F = F;
    if (M < 1)
        return gsa_fail(err, errlen, ENG_INVAL, "grid: expected at least one machine, got %d", M);
    if (J < 0 || F < 0)
        return gsa_fail(err, errlen, ENG_INVAL, "grid: negative job or file count");
    if ((int64_t)M * M > INT32_MAX)
        return gsa_fail(err, errlen, ENG_RANGE, "grid: %d machines are too many", M);
    if (!g->speed || !g->latency || !g->bandwidth || (J && !g->ops) || (F && !g->file_size) ||
        (F && !g->producer))
        return gsa_fail(err, errlen, ENG_INVAL, "grid: an array is missing");
    int rc;
    if ((rc = check_csr(g->mirror_off, F, "grid mirrors", err, errlen)) ||
        (rc = check_csr(g->input_off, J, "grid inputs", err, errlen)) ||
        (rc = check_csr(g->dep_off, J, "grid dependencies", err, errlen)))
        return rc;
    x->n_mir = g->mirror_off[F];
    x->n_in = g->input_off[J];
    x->n_dep = g->dep_off[J];
    if ((x->n_mir && (!g->mirror_machine || !g->mirror_ready)) || (x->n_in && !g->input_file) ||
        (x->n_dep && !g->dep_job))
        return gsa_fail(err, errlen, ENG_INVAL, "grid: a list is missing");
    return ENG_OK;
}

/* Speeds and the network, with their extremes. */
static int grid_check_machines(const gpu_sa_grid *g, grid_facts *x, char *err, size_t errlen)
{
    const int32_t M = x->M;
    x->min_speed = INT64_MAX;
    for (int32_t m = 0; m < M; m++) {
        if (g->speed[m] <= 0)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: machine %d: speed must be > 0", m);
        if (g->speed[m] < x->min_speed)
            x->min_speed = g->speed[m];
    }
    x->max_lat = 0;
    x->min_bw = INT64_MAX;
    x->max_bw = 1;
    for (int32_t a = 0; a < M; a++)
        for (int32_t b = 0; b < M; b++) {
            int64_t k = (int64_t)a * M + b;
            if (a == b)
                continue;
            if (g->latency[k] < 0)
                return gsa_fail(err, errlen, ENG_INVAL, "grid: latency[%d][%d] < 0", a, b);
            if (g->bandwidth[k] <= 0)
                return gsa_fail(err, errlen, ENG_INVAL, "grid: bandwidth[%d][%d] must be > 0", a,
                                b);
            if (g->latency[k] > x->max_lat)
                x->max_lat = g->latency[k];
            if (g->bandwidth[k] < x->min_bw)
                x->min_bw = g->bandwidth[k];
            if (g->bandwidth[k] > x->max_bw)
                x->max_bw = g->bandwidth[k];
        }
    x->net16 = x->max_lat <= 0xFFFF && x->max_bw <= 0xFFFF;
    return ENG_OK;
}

/* Mirrors, files and job lengths. */
static int grid_check_data(const gpu_sa_grid *g, grid_facts *x, char *err, size_t errlen)
{
    x->max_ready = 0;
    for (int32_t i = 0; i < x->n_mir; i++) {
        if (g->mirror_machine[i] < 0 || g->mirror_machine[i] >= x->M)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: mirror %d: machine %d out of range", i,
                            g->mirror_machine[i]);
        if (g->mirror_ready[i] < 0)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: mirror %d: negative time", i);
        if (g->mirror_ready[i] > x->max_ready)
            x->max_ready = (double)g->mirror_ready[i];
    }
    for (int32_t f = 0; f < x->F; f++) {
        if (g->file_size[f] < 0)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: file %d: negative size", f);
        if (g->producer[f] < -1 || g->producer[f] >= x->J)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: file %d: producer %d out of range", f,
                            g->producer[f]);
    }
    for (int32_t j = 0; j < x->J; j++)
        if (g->ops[j] < 0)
            return gsa_fail(err, errlen, ENG_INVAL, "grid: job %d: negative length", j);
    return ENG_OK;
}

static void grid_scratch_fini(grid_scratch *s)
{
    free(s->mark);
    free(s->readers);
    free(s->pred_off);
    free(s->pred);
    free(s->succ_off);
    free(s->succ);
    free(s->prod_off);
    free(s->indeg);
    free(s->queue);
}

static int grid_scratch_init(const grid_facts *x, grid_scratch *s)
{
    const int32_t J = x->J, F = x->F, FJ = F > J ? F : J;
    memset(s, 0, sizeof *s);
    s->mark = malloc(sizeof(int32_t) * (size_t)FJ + 4);
    s->readers = calloc((size_t)F + 1, sizeof(int32_t));
    s->pred_off = calloc((size_t)J + 1, sizeof(int32_t));
    s->pred = malloc(sizeof(int32_t) * ((size_t)x->n_dep + (size_t)x->n_in) + 4);
    s->succ_off = calloc((size_t)J + 2, sizeof(int32_t));
    s->prod_off = calloc((size_t)J + 2, sizeof(int32_t));
    s->indeg = malloc(sizeof(int32_t) * (size_t)J + 4);
    s->queue = malloc(sizeof(int32_t) * (size_t)J + 4);
    if (!s->mark || !s->readers || !s->pred_off || !s->pred || !s->succ_off || !s->prod_off ||
        !s->indeg || !s->queue)
        return ENG_NOMEM;
    return ENG_OK;
}

static void grid_unmark(const grid_facts *x, grid_scratch *s)
{
    for (int32_t i = 0; i < (x->F > x->J ? x->F : x->J); i++)
        s->mark[i] = -1;
}

/* Every input: in range, listed once, reachable (a mirror or a producer);
 * readers per file, jobs with several inputs, and the bounds on times,
 * transfers and volume (each run at the slowest speed, each input moved at
 * the worst latency and bandwidth). */
static int grid_scan_inputs(const gpu_sa_grid *g, const grid_facts *x, grid_scratch *s, char *err,
                            size_t errlen)
{
    grid_unmark(x, s);
    s->ub_time = x->max_ready;
    for (int32_t j = 0; j < x->J; j++) {
        int32_t a = g->input_off[j], b = g->input_off[j + 1];
        if (b - a >= 2)
            s->n_multi++;
        s->ub_time += (double)((g->ops[j] + x->min_speed - 1) / x->min_speed);
        for (int32_t i = a; i < b; i++) {
            int32_t f = g->input_file[i];
            if (f < 0 || f >= x->F)
                return gsa_fail(err, errlen, ENG_INVAL, "grid: job %d: input file %d out of range",
                                j, f);
            if (s->mark[f] == j)
                return gsa_fail(err, errlen, ENG_INVAL, "grid: job %d: file %d listed twice", j, f);
            s->mark[f] = j;
            s->readers[f]++;
            if (g->mirror_off[f + 1] == g->mirror_off[f] && g->producer[f] < 0)
                return gsa_fail(err, errlen, ENG_INVAL,
                                "grid: job %d: file %d has no mirror and no producer", j, f);
            if (x->M > 1) {
                double t = (double)x->max_lat + ceil((double)g->file_size[f] / (double)x->min_bw);
                s->ub_time += t;
                s->ub_xfer += t;
                s->ub_vol += (double)g->file_size[f];
            }
        }
    }
    return ENG_OK;
}

/* Predecessors of each job: its dependencies, then the producers of its
 * inputs, without repeats. */
static int grid_predecessors(const gpu_sa_grid *g, const grid_facts *x, grid_scratch *s, char *err,
                             size_t errlen)
{
    grid_unmark(x, s);
    for (int32_t j = 0; j < x->J; j++) {
        s->pred_off[j] = s->n_pred;
        for (int32_t d = g->dep_off[j]; d < g->dep_off[j + 1]; d++) {
            int32_t q = g->dep_job[d];
            if (q < 0 || q >= x->J || q == j)
                return gsa_fail(err, errlen, ENG_INVAL,
                                "grid: job %d: dependency %d is not another job", j, q);
            if (s->mark[q] != j) {
                s->mark[q] = j;
                s->pred[s->n_pred++] = q;
            }
        }
        for (int32_t i = g->input_off[j]; i < g->input_off[j + 1]; i++) {
            int32_t q = g->producer[g->input_file[i]];
            if (q == j)
                return gsa_fail(err, errlen, ENG_INVAL,
                                "grid: job %d reads file %d, which it produces", j,
                                g->input_file[i]);
            if (q >= 0 && s->mark[q] != j) {
                s->mark[q] = j;
                s->pred[s->n_pred++] = q;
            }
        }
    }
    s->pred_off[x->J] = s->n_pred;
    return ENG_OK;
}

/* Successors (the predecessor edges reversed), then Kahn's algorithm:
 * the precedence must be acyclic. */
static int grid_successors(const grid_facts *x, grid_scratch *s, char *err, size_t errlen)
{
    const int32_t J = x->J;
    s->succ = malloc(sizeof(int32_t) * (size_t)s->n_pred + 4);
    if (!s->succ)
        return ENG_NOMEM;
    for (int32_t i = 0; i < s->n_pred; i++)
        s->succ_off[s->pred[i] + 1]++;
    for (int32_t j = 0; j < J; j++)
        s->succ_off[j + 1] += s->succ_off[j];
    for (int32_t j = 0; j < J; j++)
        s->indeg[j] = s->succ_off[j]; /* fill cursor */
    for (int32_t j = 0; j < J; j++)
        for (int32_t i = s->pred_off[j]; i < s->pred_off[j + 1]; i++)
            s->succ[s->indeg[s->pred[i]]++] = j;
    int32_t qh = 0, qt = 0;
    for (int32_t j = 0; j < J; j++) {
        s->indeg[j] = s->pred_off[j + 1] - s->pred_off[j];
        if (!s->indeg[j])
            s->queue[qt++] = j;
    }
    while (qh < qt) {
        int32_t j = s->queue[qh++];
        for (int32_t i = s->succ_off[j]; i < s->succ_off[j + 1]; i++)
            if (--s->indeg[s->succ[i]] == 0)
                s->queue[qt++] = s->succ[i];
    }
    if (qt != J)
        return gsa_fail(err, errlen, ENG_INVAL,
                        "grid: the dependencies and produced files form a cycle (%d jobs in it or "
                        "after it)",
                        J - qt);
    return ENG_OK;
}

/* Files produced per job, the copy table's size (mirrors + producer + one
 * per reader, per file), and the overflow checks of the energies. */
static int grid_products(const gpu_sa_grid *g, const grid_facts *x, grid_scratch *s, char *err,
                         size_t errlen)
{
    for (int32_t f = 0; f < x->F; f++)
        if (g->producer[f] >= 0) {
            s->prod_off[g->producer[f] + 1]++;
            s->n_prod++;
        }
    for (int32_t j = 0; j < x->J; j++)
        s->prod_off[j + 1] += s->prod_off[j];
    for (int32_t f = 0; f < x->F; f++)
        s->copy_cap += (g->mirror_off[f + 1] - g->mirror_off[f]) + (g->producer[f] >= 0) +
                       s->readers[f];
    if (s->copy_cap > INT32_MAX)
        return gsa_fail(err, errlen, ENG_RANGE, "grid: too many file copies");
    if (2.0 * x->J * s->ub_time >= 4.0e18 || s->ub_time >= 4.0e18)
        return gsa_fail(err, errlen, ENG_RANGE,
                        "grid: times up to %.3g units: the energies would overflow 64 bits",
                        s->ub_time);
    return ENG_OK;
}

/* The block's arrays and header. */
static int grid_layout(const grid_facts *x, const grid_scratch *s, gsa_packed *out)
{
    const int64_t M = x->M, J = x->J, F = x->F;
    pack_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.n[GSA_SPEED] = M;
    plan.n[GSA_NET] = M * M * (x->net16 ? 1 : 2);
    plan.n[GSA_OPS] = J;
    plan.n[GSA_FSIZE] = F;
    plan.n[GSA_COPY_OFF] = F + 1;
    plan.n[GSA_MIR_OFF] = F + 1;
    plan.n[GSA_MIR_M] = x->n_mir;
    plan.n[GSA_MIR_T] = x->n_mir;
    plan.n[GSA_IN_OFF] = J + 1;
    plan.n[GSA_IN_FILE] = x->n_in;
    plan.n[GSA_PROD_OFF] = J + 1;
    plan.n[GSA_PROD_FILE] = s->n_prod;
    plan.n[GSA_DEP_OFF] = J + 1;
    plan.n[GSA_DEP_JOB] = x->n_dep;
    plan.n[GSA_PRED_OFF] = J + 1;
    plan.n[GSA_PRED_JOB] = s->n_pred;
    plan.n[GSA_SUCC_OFF] = J + 1;
    plan.n[GSA_SUCC_JOB] = s->n_pred;
    plan.n[GSA_MULTI] = s->n_multi;
    plan.n[GSA_RD_OFF] = F + 1;
    plan.n[GSA_RD_JOB] = x->n_in;
    plan.n[GSA_FPROD] = F;
    gsa_header h;
    memset(&h, 0, sizeof h);
    h.kind = GPU_SA_GRID;
    h.n_machines = x->M;
    h.n_jobs = x->J;
    h.n_files = x->F;
    h.n_inputs = x->n_in;
    h.n_multi = s->n_multi;
    h.copy_cap = s->copy_cap;
    h.net16 = x->net16;
    return pack_alloc(&plan, &h, out);
}

/* Speeds and the network (latency and bandwidth in one or two words). */
static void grid_fill_machines(const gpu_sa_grid *g, const grid_facts *x, gsa_packed *out)
{
    const int32_t M = x->M;
    memcpy(W64(out, GSA_SPEED), g->speed, sizeof(int64_t) * (size_t)M);
    uint32_t *net = (uint32_t *)W32(out, GSA_NET);
    for (int64_t k = 0; k < (int64_t)M * M; k++) {
        /* the diagonal is never read; keep it harmless */
        uint32_t lat = k / M == k % M ? 0 : (uint32_t)g->latency[k];
        uint32_t bw = k / M == k % M ? 1 : (uint32_t)g->bandwidth[k];
        if (x->net16) {
            net[k] = lat | bw << 16;
        } else {
            net[2 * k] = lat;
            net[2 * k + 1] = bw;
        }
    }
}

/* Lengths, files, copies, mirrors and the job lists as given. */
static void grid_fill_given(const gpu_sa_grid *g, const grid_facts *x, const grid_scratch *s,
                            gsa_packed *out)
{
    const int32_t J = x->J, F = x->F;
    if (J)
        memcpy(W64(out, GSA_OPS), g->ops, sizeof(int64_t) * (size_t)J);
    if (F)
        memcpy(W64(out, GSA_FSIZE), g->file_size, sizeof(int64_t) * (size_t)F);
    int32_t *copy_off = W32(out, GSA_COPY_OFF);
    copy_off[0] = 0;
    for (int32_t f = 0; f < F; f++)
        copy_off[f + 1] = copy_off[f] + (g->mirror_off[f + 1] - g->mirror_off[f]) +
                          (g->producer[f] >= 0) + s->readers[f];
    memcpy(W32(out, GSA_MIR_OFF), g->mirror_off, sizeof(int32_t) * ((size_t)F + 1));
    if (x->n_mir) {
        memcpy(W32(out, GSA_MIR_M), g->mirror_machine, sizeof(int32_t) * (size_t)x->n_mir);
        memcpy(W64(out, GSA_MIR_T), g->mirror_ready, sizeof(int64_t) * (size_t)x->n_mir);
    }
    memcpy(W32(out, GSA_IN_OFF), g->input_off, sizeof(int32_t) * ((size_t)J + 1));
    if (x->n_in)
        memcpy(W32(out, GSA_IN_FILE), g->input_file, sizeof(int32_t) * (size_t)x->n_in);
    memcpy(W32(out, GSA_DEP_OFF), g->dep_off, sizeof(int32_t) * ((size_t)J + 1));
    if (x->n_dep)
        memcpy(W32(out, GSA_DEP_JOB), g->dep_job, sizeof(int32_t) * (size_t)x->n_dep);
    if (F)
        memcpy(W32(out, GSA_FPROD), g->producer, sizeof(int32_t) * (size_t)F);
}

/* The derived lists: products, predecessors, successors, readers, jobs
 * with several inputs. Uses indeg and readers as fill cursors. */
static void grid_fill_derived(const gpu_sa_grid *g, const grid_facts *x, grid_scratch *s,
                              gsa_packed *out)
{
    const int32_t J = x->J, F = x->F;
    memcpy(W32(out, GSA_PROD_OFF), s->prod_off, sizeof(int32_t) * ((size_t)J + 1));
    if (s->n_prod) {
        int32_t *pf = W32(out, GSA_PROD_FILE);
        for (int32_t j = 0; j < J; j++)
            s->indeg[j] = s->prod_off[j];
        for (int32_t f = 0; f < F; f++)
            if (g->producer[f] >= 0)
                pf[s->indeg[g->producer[f]]++] = f;
    }
    memcpy(W32(out, GSA_PRED_OFF), s->pred_off, sizeof(int32_t) * ((size_t)J + 1));
    memcpy(W32(out, GSA_SUCC_OFF), s->succ_off, sizeof(int32_t) * ((size_t)J + 1));
    if (s->n_pred) {
        memcpy(W32(out, GSA_PRED_JOB), s->pred, sizeof(int32_t) * (size_t)s->n_pred);
        memcpy(W32(out, GSA_SUCC_JOB), s->succ, sizeof(int32_t) * (size_t)s->n_pred);
    }
    int32_t *rd_off = W32(out, GSA_RD_OFF), *rd_job = W32(out, GSA_RD_JOB);
    rd_off[0] = 0;
    for (int32_t f = 0; f < F; f++)
        rd_off[f + 1] = rd_off[f] + s->readers[f];
    for (int32_t f = 0; f < F; f++)
        s->readers[f] = rd_off[f]; /* fill cursor */
    for (int32_t j = 0; j < J; j++)
        for (int32_t i = g->input_off[j]; i < g->input_off[j + 1]; i++)
            rd_job[s->readers[g->input_file[i]]++] = j;
    if (s->n_multi) {
        int32_t *mu = W32(out, GSA_MULTI), k = 0;
        for (int32_t j = 0; j < J; j++)
            if (g->input_off[j + 1] - g->input_off[j] >= 2)
                mu[k++] = j;
    }
}

/* Per job: order, machine, length, speed, the machine's two clocks (read
 * and written), start and end, row offsets; per dependency an index and an
 * end; per input its slot, size, copy row and count, and per copy looked
 * at (about its mirrors plus one) the copy's machine and time and the
 * latency and bandwidth entries; per file and machine the resets. */
static double grid_bytes_per_eval(const gpu_sa_grid *g, const grid_facts *x, const grid_scratch *s)
{
    double scanned = 0;
    for (int32_t j = 0; j < x->J; j++)
        for (int32_t i = g->input_off[j]; i < g->input_off[j + 1]; i++) {
            int32_t f = g->input_file[i];
            scanned += 1.0 + (g->mirror_off[f + 1] - g->mirror_off[f]);
        }
    return 80.0 * x->J + 12.0 * x->n_dep + 28.0 * x->n_in + (x->net16 ? 16.0 : 20.0) * scanned +
           12.0 * x->F + 16.0 * x->M + 12.0 * s->n_prod;
}

static int pack_grid(const gpu_sa_grid *g, gsa_packed *out, char *err, size_t errlen)
{
    grid_facts x;
    memset(&x, 0, sizeof x);
    int rc;
    if ((rc = grid_check_shape(g, &x, err, errlen)) ||
        (rc = grid_check_machines(g, &x, err, errlen)) ||
        (rc = grid_check_data(g, &x, err, errlen)))
        return rc;
    grid_scratch s;
    rc = grid_scratch_init(&x, &s);
    if (rc == ENG_OK)
        rc = grid_scan_inputs(g, &x, &s, err, errlen);
    if (rc == ENG_OK)
        rc = grid_predecessors(g, &x, &s, err, errlen);
    if (rc == ENG_OK)
        rc = grid_successors(&x, &s, err, errlen);
    if (rc == ENG_OK)
        rc = grid_products(g, &x, &s, err, errlen);
    if (rc == ENG_OK)
        rc = grid_layout(&x, &s, out);
    if (rc == ENG_OK) {
        grid_fill_machines(g, &x, out);
        grid_fill_given(g, &x, &s, out);
        grid_fill_derived(g, &x, &s, out);
        out->ub_time = s.ub_time;
        out->ub_xfer = s.ub_xfer;
        out->ub_vol = s.ub_vol;
        out->sum_waited = 0;
        out->bytes_per_eval = grid_bytes_per_eval(g, &x, &s);
    }
    grid_scratch_fini(&s);
    return rc == ENG_NOMEM ? gsa_fail(err, errlen, ENG_NOMEM, "out of memory") : rc;
}

static int cmp_release(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static int pack_queue(const gpu_sa_queue *q, gsa_packed *out, char *err, size_t errlen)
{
    const int32_t J = q->n_jobs;
    if (J < 0 || q->n_busy < 0)
        return gsa_fail(err, errlen, ENG_INVAL, "queue: negative job or busy count");
    if (q->total_units < 1)
        return gsa_fail(err, errlen, ENG_INVAL, "queue: expected at least one unit");
    if ((J && (!q->units || !q->duration)) || (q->n_busy && (!q->busy_units || !q->busy_end)))
        return gsa_fail(err, errlen, ENG_INVAL, "queue: an array is missing");
    double ub = 0, waited = 0;
    for (int32_t j = 0; j < J; j++) {
        if (q->units[j] < 1 || q->units[j] > q->total_units)
            return gsa_fail(err, errlen, ENG_INVAL, "queue: job %d needs %d units of %d", j,
                            q->units[j], q->total_units);
        if (q->duration[j] < 1)
            return gsa_fail(err, errlen, ENG_INVAL, "queue: job %d: duration must be >= 1", j);
        if (q->waited && q->waited[j] < 0)
            return gsa_fail(err, errlen, ENG_INVAL, "queue: job %d: negative waiting time", j);
        ub += (double)q->duration[j];
        waited += q->waited ? (double)q->waited[j] : 0;
    }
    int64_t busy = 0;
    double max_end = 0;
    for (int32_t i = 0; i < q->n_busy; i++) {
        if (q->busy_units[i] < 1 || q->busy_end[i] < 1)
            return gsa_fail(err, errlen, ENG_INVAL,
                            "queue: busy entry %d: units and release time must be >= 1", i);
        busy += q->busy_units[i];
        if (q->busy_end[i] > max_end)
            max_end = (double)q->busy_end[i];
    }
    if (busy > q->total_units)
        return gsa_fail(err, errlen, ENG_INVAL, "queue: %lld busy units of %d", (long long)busy,
                        q->total_units);
    ub += max_end;
    if (2.0 * J * ub + waited >= 4.0e18)
        return gsa_fail(err, errlen, ENG_RANGE,
                        "queue: times up to %.3g units: the energies would overflow 64 bits", ub);
    int64_t(*rel)[2] = malloc(sizeof *rel * ((size_t)q->n_busy + 1));
    if (!rel)
        return gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
    for (int32_t i = 0; i < q->n_busy; i++) {
        rel[i][0] = q->busy_end[i];
        rel[i][1] = q->busy_units[i];
    }
    qsort(rel, (size_t)q->n_busy, sizeof *rel, cmp_release);
    int32_t n_prof = 1;
    for (int32_t i = 0; i < q->n_busy; i++)
        if (i == 0 || rel[i][0] != rel[i - 1][0])
            n_prof++;
    pack_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.n[GSA_UNITS] = J;
    plan.n[GSA_DUR] = J;
    plan.n[GSA_WAITED] = J;
    plan.n[GSA_PROF_T] = n_prof;
    plan.n[GSA_PROF_F] = n_prof;
    gsa_header h;
    memset(&h, 0, sizeof h);
    h.kind = GPU_SA_QUEUE;
    h.n_jobs = J;
    h.total_units = q->total_units;
    h.n_prof = n_prof;
    h.prof_cap = n_prof + J + 1;
    int rc = pack_alloc(&plan, &h, out);
    if (rc) {
        free(rel);
        return gsa_fail(err, errlen, rc, "out of memory");
    }
    if (J) {
        memcpy(W32(out, GSA_UNITS), q->units, sizeof(int32_t) * (size_t)J);
        memcpy(W64(out, GSA_DUR), q->duration, sizeof(int64_t) * (size_t)J);
        if (q->waited)
            memcpy(W64(out, GSA_WAITED), q->waited, sizeof(int64_t) * (size_t)J);
    }
    int64_t *pt = W64(out, GSA_PROF_T);
    int32_t *pf = W32(out, GSA_PROF_F);
    int32_t free_now = q->total_units - (int32_t)busy, k = 0;
    pt[0] = 0;
    pf[0] = free_now;
    for (int32_t i = 0; i < q->n_busy; i++) {
        if (i == 0 || rel[i][0] != rel[i - 1][0]) {
            k++;
            pt[k] = rel[i][0];
            pf[k] = pf[k - 1];
        }
        pf[k] += (int32_t)rel[i][1];
    }
    free(rel);
    out->ub_time = ub;
    out->ub_xfer = 0;
    out->sum_waited = waited;
    /* Per job its order slot, units, duration, waited, start, end, and a
     * scan of about half the profile (12 bytes a breakpoint). */
    out->bytes_per_eval = 40.0 * J + 12.0 * J * (n_prof + J / 2.0) / 2.0 + 12.0 * n_prof;
    return ENG_OK;
}

int gsa_pack(const gpu_sa_problem *p, gsa_packed *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!p)
        return gsa_fail(err, errlen, ENG_INVAL, "no problem given");
    if (p->kind == GPU_SA_GRID && p->grid)
        return pack_grid(p->grid, out, err, errlen);
    if (p->kind == GPU_SA_QUEUE && p->queue)
        return pack_queue(p->queue, out, err, errlen);
    return gsa_fail(err, errlen, ENG_INVAL, "problem: unknown kind or missing description");
}

int gpu_sa_problem_check(const gpu_sa_problem *p, char *err, size_t errlen)
{
    gsa_packed pk;
    int rc = gsa_pack(p, &pk, err, errlen);
    gsa_packed_fini(&pk);
    return rc;
}

int gsa_run_make(const gsa_packed *pk, const gpu_sa_params *par, gsa_run *run, char *err,
                 size_t errlen)
{
    int rc = gpu_sa_params_check(par, err, errlen);
    if (rc)
        return rc;
    if (par->parallel == GPU_SA_PARALLEL_MACHINES && pk->view.kind != GPU_SA_GRID)
        return gsa_fail(err, errlen, ENG_INVAL,
                        "parallel machines: a queue problem has no machines to decode on "
                        "(use chains)");
    double n = pk->view.J, a = par->a1 > par->a2 ? par->a1 : par->a2;
    double bound = 100.0 * a * (2.0 * n * pk->ub_time + pk->sum_waited) +
                   (double)par->a3 * par->transfer_cost_pct * n * pk->ub_vol;
    if (par->energy == GPU_SA_E2 && bound >= 4.0e18)
        return gsa_fail(err, errlen, ENG_RANGE,
                        "E2 up to %.3g fixed-point units would overflow 64 bits: lower the weights",
                        bound);
    memset(run, 0, sizeof *run);
    run->e2_ok = bound < 4.0e18; /* else E2 is not computed (minimising E1) */
    run->seed = par->seed;
    run->iterations = par->iterations;
    run->stall_limit = par->stop_e1 ? GPU_SA_STALL_ITERATIONS : 0;
    run->energy = par->energy;
    run->a1 = par->a1;
    run->a2 = par->a2;
    run->a3 = par->a3;
    run->pct = par->transfer_cost_pct;
    run->t0_q16 = (uint32_t)lround(65536.0 / -log(par->t0_accept_permille / 1000.0));
    run->keep_first = par->keep_given_first;
    run->chains = par->chains;
    run->parallel = par->parallel == GPU_SA_PARALLEL_MACHINES;
    run->acceptance = par->acceptance == GPU_SA_ACCEPT_PAPER ? GSA_ACCEPT_PAPER
                                                             : GSA_ACCEPT_METROPOLIS;
    run->full_decode = par->full_decode;
    int64_t k = par->cooling_iterations > 0 ? par->cooling_iterations : par->iterations;
    double q = 0;
    if (k > 0)
        q = ldexp(pow(par->t_end_ppm / 1e6, 1.0 / (double)k), 32);
    run->cool_q32 = q >= 4294967295.0 ? 4294967295u : (uint32_t)q;
    return ENG_OK;
}

/* ---- a Cmax lower bound ---------------------------------------------------- */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

int gpu_sa_cmax_lower_bound(const gpu_sa_problem *prob, int64_t *bound, char *err, size_t errlen)
{
    *bound = 0;
    gsa_packed pk;
    int rc = gsa_pack(prob, &pk, err, errlen);
    if (rc)
        return rc;
    if (pk.view.kind != GPU_SA_GRID) {
        gsa_packed_fini(&pk);
        return gsa_fail(err, errlen, ENG_INVAL, "Cmax lower bound: grid problems only");
    }
    const gpu_sa_grid *g = prob->grid;
    const gsa_prob *p = &pk.view;
    const int32_t M = p->M, J = p->J, F = p->F;
    /* Load: Cmax x sum of speeds >= sum of lengths. */
    int64_t sum_speed = 0, sum_ops = 0;
    for (int32_t m = 0; m < M; m++)
        sum_speed += g->speed[m];
    for (int32_t j = 0; j < J; j++)
        sum_ops += g->ops[j];
    int64_t lb = sum_ops > 0 ? ceil_div(sum_ops, sum_speed) : 0;
    /* Chains: the earliest completion of every job in a topological order,
     * each job placed on its best machine with no waiting for machines or
     * links; a file reaches machine m no earlier than its first copy on m,
     * or its earliest copy anywhere plus the cheapest last hop into m
     * (smallest latency, largest bandwidth into m: any copy on m that was
     * downloaded came over one such hop). */
    int64_t *lat_in = malloc(sizeof(int64_t) * (size_t)M);
    int64_t *bw_in = malloc(sizeof(int64_t) * (size_t)M);
    int64_t *ect = malloc(sizeof(int64_t) * ((size_t)J + 1));
    int64_t *first = malloc(sizeof(int64_t) * ((size_t)F + 1));
    int64_t *arr = malloc(sizeof(int64_t) * (size_t)M);
    int32_t *topo = malloc(sizeof(int32_t) * ((size_t)J + 1));
    int32_t *indeg = malloc(sizeof(int32_t) * ((size_t)J + 1));
    if (!lat_in || !bw_in || !ect || !first || !arr || !topo || !indeg) {
        rc = gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
        goto done;
    }
    for (int32_t m = 0; m < M; m++) {
        lat_in[m] = INT64_MAX;
        bw_in[m] = 1;
        for (int32_t s = 0; s < M; s++) {
            if (s == m)
                continue;
            int64_t k = (int64_t)s * M + m;
            if (g->latency[k] < lat_in[m])
                lat_in[m] = g->latency[k];
            if (g->bandwidth[k] > bw_in[m])
                bw_in[m] = g->bandwidth[k];
        }
    }
    int32_t qh = 0, qt = 0;
    for (int32_t j = 0; j < J; j++) {
        indeg[j] = p->pred_off[j + 1] - p->pred_off[j];
        if (!indeg[j])
            topo[qt++] = j;
    }
    while (qh < qt) {
        int32_t j = topo[qh++];
        for (int32_t i = p->succ_off[j]; i < p->succ_off[j + 1]; i++)
            if (--indeg[p->succ_job[i]] == 0)
                topo[qt++] = p->succ_job[i];
    }
    for (int32_t f = 0; f < F; f++) {
        first[f] = INT64_MAX;
        for (int32_t i = g->mirror_off[f]; i < g->mirror_off[f + 1]; i++)
            if (g->mirror_ready[i] < first[f])
                first[f] = g->mirror_ready[i];
    }
    for (int32_t x = 0; x < J; x++) {
        const int32_t j = topo[x];
        int64_t ready = 0;
        for (int32_t d = g->dep_off[j]; d < g->dep_off[j + 1]; d++)
            ready = gsa_max(ready, ect[g->dep_job[d]]);
        for (int32_t m = 0; m < M; m++)
            arr[m] = ready;
        for (int32_t i = g->input_off[j]; i < g->input_off[j + 1]; i++) {
            const int32_t f = g->input_file[i], q = g->producer[f];
            const int64_t size = g->file_size[f];
            /* a produced file: its producer may run anywhere, so its copy
             * may be local at the producer's completion */
            int64_t anywhere = q >= 0 ? ect[q] : first[f];
            if (q >= 0 && first[f] < anywhere)
                anywhere = first[f];
            for (int32_t m = 0; m < M; m++) {
                int64_t a = q >= 0 ? ect[q] : INT64_MAX;
                for (int32_t c = g->mirror_off[f]; c < g->mirror_off[f + 1]; c++)
                    if (g->mirror_machine[c] == m && g->mirror_ready[c] < a)
                        a = g->mirror_ready[c];
                if (M > 1 && lat_in[m] != INT64_MAX) {
                    int64_t hop = anywhere + lat_in[m] + ceil_div(size, bw_in[m]);
                    if (hop < a)
                        a = hop;
                }
                if (a > arr[m])
                    arr[m] = a;
            }
        }
        int64_t best = INT64_MAX;
        for (int32_t m = 0; m < M; m++) {
            int64_t c = arr[m] + ceil_div(g->ops[j], g->speed[m]);
            if (c < best)
                best = c;
        }
        ect[j] = best;
        lb = gsa_max(lb, best);
    }
    *bound = lb;
done:
    free(lat_in);
    free(bw_in);
    free(ect);
    free(first);
    free(arr);
    free(topo);
    free(indeg);
    gsa_packed_fini(&pk);
    return rc;
}
