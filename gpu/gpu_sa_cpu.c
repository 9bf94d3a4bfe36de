/* gpu_sa_cpu.c — the CPU reference: every chain of gpu_sa_chain.c run on
 * the host, one after another, in one reused workspace; the best chain is
 * the one with the lowest best energy, ties to the lowest chain number.
 * This is the specification the CUDA backend must reproduce bit for bit
 * (Skrinarova & Povinsky 2019, Algorithms 1 and 2, with the choices stated
 * in gpu_sa.h and gpu_sa_chain.c). Also the reference decoding of results:
 * a backend's best candidate decoded again here, its energy checked
 * (gsa_result_build), and gpu_sa_decode.
 *
 * Cost: chains x (iterations + 17) decodings; a grid decoding is
 * O(J + inputs x copies of the file + dependencies + F + M) from scratch
 * (the first of a chain, or with full_decode); by events it costs the jobs
 * re-evaluated, each O(inputs x (mirrors + readers) + successors) plus a
 * heap operation, and O(J) for Cmax; machine by machine (parallel
 * machines) a decoding is rounds x O(J + inputs x (mirrors + readers)),
 * about 9-13 rounds on the load models; a queue decoding is O(J x profile
 * breakpoints); a move O(J) at worst (an order shift).
 */
#include "gpu_sa_impl.h"

#include "gpu_sa_chain.h"

#include "eng_error.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int copy_best(const gsa_prob *p, const gsa_ws *w, gsa_best *best)
{
    size_t J = (size_t)p->J + 1, I = (size_t)p->I + 1;
    if (!best->order) {
        best->order = malloc(J * sizeof(int32_t));
        if (p->kind == GPU_SA_GRID) {
            best->mach = malloc(J * sizeof(int32_t));
            best->fperm = malloc(I * sizeof(int32_t));
            if (!best->mach || !best->fperm)
                return ENG_NOMEM;
        }
        if (!best->order)
            return ENG_NOMEM;
    }
    memcpy(best->order, w->b_order, sizeof(int32_t) * (size_t)p->J);
    if (p->kind == GPU_SA_GRID) {
        memcpy(best->mach, w->b_mach, sizeof(int32_t) * (size_t)p->J);
        memcpy(best->fperm, w->b_fperm, sizeof(int32_t) * (size_t)p->I);
    }
    return ENG_OK;
}

int gsa_cpu_run(const gsa_packed *pk, const gsa_run *run, gsa_best *best, char *err, size_t errlen)
{
    const gsa_prob *p = &pk->view;
    memset(best, 0, sizeof *best);
    if (!gsa_blob_ok(pk->blob, pk->bytes)) {
        snprintf(err, errlen, "not a packed problem (magic or size)");
        return ENG_INVARIANT;
    }
    gsa_ws w;
    int64_t bytes = gsa_ws_layout(p, gsa_ws_flags(run), NULL, &w);
    unsigned char *mem = calloc(1, (size_t)bytes + 8);
    if (!mem) {
        snprintf(err, errlen, "out of memory (%lld bytes of workspace)", (long long)bytes);
        return ENG_NOMEM;
    }
    gsa_ws_layout(p, gsa_ws_flags(run), mem, &w);
    int64_t evals = 0;
    for (int32_t c = 0; c < run->chains; c++) {
        gsa_chain_out o;
        gsa_chain_run(p, run, c, &w, &o);
        evals += o.evaluations;
        if (c == 0 || o.best_energy < best->out.best_energy) {
            best->chain = c;
            best->out = o;
            if (copy_best(p, &w, best)) {
                free(mem);
                gsa_best_fini(best);
                snprintf(err, errlen, "out of memory");
                return ENG_NOMEM;
            }
        }
    }
    best->evaluations = evals;
    free(mem);
    return ENG_OK;
}

/* ---- results --------------------------------------------------------------- */

static int alloc_result(const gsa_prob *p, gpu_sa_result *out)
{
    size_t J = (size_t)p->J + 1;
    out->order = malloc(J * sizeof *out->order);
    out->start = malloc(J * sizeof *out->start);
    out->end = malloc(J * sizeof *out->end);
    if (p->kind == GPU_SA_GRID) {
        out->machine = malloc(J * sizeof *out->machine);
        out->input_order = malloc(((size_t)p->I + 1) * sizeof *out->input_order);
        if (!out->machine || !out->input_order)
            return ENG_NOMEM;
    }
    return out->order && out->start && out->end ? ENG_OK : ENG_NOMEM;
}

/* The criteria of a decoding into the result (E2 as a double is the
 * caller's: it depends on the run). */
static void put_eval(gpu_sa_result *out, const gsa_eval *e)
{
    out->cmax = e->cmax;
    out->flowtime = e->flow;
    out->transfer_time = e->xfer;
    out->transfer_volume = e->vol;
    out->e1 = e->e1;
    out->e2_fixed = e->e2_fixed;
    out->energy = e->energy;
}

int gsa_result_build(const gsa_packed *pk, const gsa_run *run, const gsa_best *best,
                     const char *backend, double seconds, gpu_sa_result *out, char *err,
                     size_t errlen)
{
    const gsa_prob *p = &pk->view;
    memset(out, 0, sizeof *out);
    gsa_ws w;
    int64_t bytes = gsa_ws_layout(p, 0, NULL, &w);
    unsigned char *mem = calloc(1, (size_t)bytes + 8);
    if (!mem || alloc_result(p, out)) {
        free(mem);
        gpu_sa_result_fini(out);
        return gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
    }
    gsa_ws_layout(p, 0, mem, &w);
    if (p->kind == GPU_SA_GRID)
        gsa_copies_init(p, &w);
    gsa_eval e;
    gsa_decode(p, run, best->order, best->mach, best->fperm, &w, &e);
    out->kind = (gpu_sa_kind)p->kind;
    out->n_jobs = p->J;
    memcpy(out->order, best->order, sizeof(int32_t) * (size_t)p->J);
    memcpy(out->start, w.cstart, sizeof(int64_t) * (size_t)p->J);
    memcpy(out->end, w.cend, sizeof(int64_t) * (size_t)p->J);
    if (p->kind == GPU_SA_GRID) {
        memcpy(out->machine, best->mach, sizeof(int32_t) * (size_t)p->J);
        memcpy(out->input_order, best->fperm, sizeof(int32_t) * (size_t)p->I);
    }
    free(mem);
    put_eval(out, &e);
    out->e2 = run->e2_ok ? (double)e.e2_fixed / 1e5 : NAN;
    out->initial_energy = best->out.init_energy;
    out->best_chain = best->chain;
    out->iterations = best->out.iterations;
    out->evaluations = best->evaluations;
    out->seconds = seconds;
    out->bytes_per_eval = pk->bytes_per_eval;
    out->rounds = best->out.rounds;
    out->rounds_per_decoding = best->out.evaluations > 0
                                   ? (double)best->out.rounds / (double)best->out.evaluations
                                   : 0;
    snprintf(out->backend, sizeof out->backend, "%s", backend);
    if (e.energy != best->out.best_energy) {
        long long got = (long long)best->out.best_energy;
        gpu_sa_result_fini(out);
        return gsa_fail(err, errlen, ENG_INVARIANT,
                        "%s backend reported energy %lld for chain %d, the reference decodes %lld",
                        backend, got, best->chain, (long long)e.energy);
    }
    return ENG_OK;
}

int gpu_sa_decode(const gpu_sa_problem *prob, const gpu_sa_params *par, const int32_t *order,
                  const int32_t *machine, const int32_t *input_order, gpu_sa_result *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    gsa_packed pk;
    gsa_run run;
    int rc = gsa_pack(prob, &pk, err, errlen);
    if (!rc)
        rc = gsa_run_make(&pk, par, &run, err, errlen);
    if (rc) {
        gsa_packed_fini(&pk);
        return rc;
    }
    const gsa_prob *p = &pk.view;
    int32_t *pos = malloc(sizeof(int32_t) * ((size_t)p->J + 1));
    int32_t *fp = NULL;
    if (!pos) {
        gsa_packed_fini(&pk);
        return gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
    }
    for (int32_t j = 0; j < p->J; j++)
        pos[j] = -1;
    rc = ENG_OK;
    for (int32_t k = 0; k < p->J && !rc; k++) {
        if (!order || order[k] < 0 || order[k] >= p->J || pos[order[k]] >= 0)
            rc = gsa_fail(err, errlen, ENG_INVAL, "order: not a permutation of the %d jobs (at %d)",
                          p->J, k);
        else
            pos[order[k]] = k;
    }
    for (int32_t j = 0; j < p->J && !rc && p->kind == GPU_SA_GRID; j++) {
        for (int32_t i = p->pred_off[j]; i < p->pred_off[j + 1]; i++)
            if (pos[p->pred_job[i]] > pos[j]) {
                rc = gsa_fail(err, errlen, ENG_INVAL,
                              "order: job %d comes before job %d, which it depends on", j,
                              p->pred_job[i]);
                break;
            }
        if (!rc && (!machine || machine[j] < 0 || machine[j] >= p->M))
            rc = gsa_fail(err, errlen, ENG_INVAL, "machine: job %d has no valid machine", j);
    }
    if (!rc && p->kind == GPU_SA_GRID) {
        fp = malloc(sizeof(int32_t) * ((size_t)p->I + 1));
        if (!fp)
            rc = gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
        for (int32_t j = 0; j < p->J && !rc; j++) {
            for (int32_t i = p->in_off[j]; i < p->in_off[j + 1] && !rc; i++) {
                fp[i] = input_order ? input_order[i] : p->in_file[i];
                bool found = false;
                for (int32_t x = p->in_off[j]; x < p->in_off[j + 1]; x++)
                    found = found || p->in_file[x] == fp[i];
                for (int32_t x = p->in_off[j]; x < i; x++)
                    found = found && fp[x] != fp[i];
                if (!found)
                    rc = gsa_fail(err, errlen, ENG_INVAL,
                                  "input order: job %d's row is not a permutation of its inputs",
                                  j);
            }
        }
    }
    if (!rc) {
        gsa_best b;
        memset(&b, 0, sizeof b);
        b.order = (int32_t *)order;
        b.mach = (int32_t *)machine;
        b.fperm = fp;
        /* energy unknown beforehand: build, then accept what the decoder says */
        gsa_ws w;
        const int machines = p->kind == GPU_SA_GRID && run.parallel;
        int64_t bytes = gsa_ws_layout(p, gsa_ws_flags(&run), NULL, &w);
        unsigned char *mem = calloc(1, (size_t)bytes + 8);
        if (!mem) {
            rc = gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
        } else {
            gsa_ws_layout(p, gsa_ws_flags(&run), mem, &w);
            if (p->kind == GPU_SA_GRID)
                gsa_copies_init(p, &w);
            gsa_eval e;
            if (machines) {
                gsa_decode_grid_machines(p, order, machine, fp, pos, &w, &e);
                gsa_energies(p, &run, &e);
            } else {
                gsa_decode(p, &run, order, machine, fp, &w, &e);
            }
            b.out.best_energy = b.out.init_energy = e.energy;
            rc = gsa_result_build(&pk, &run, &b, "cpu", 0, out, err, errlen);
            if (!rc && machines) {
                /* what the machine-by-machine decoding computed, as it is */
                for (int32_t j = 0; j < p->J; j++) {
                    out->start[j] = w.cstart[j];
                    out->end[j] = w.cend[j];
                }
                put_eval(out, &e);
                out->rounds = w.rounds;
            }
            free(mem);
        }
    }
    free(pos);
    free(fp);
    gsa_packed_fini(&pk);
    return rc;
}

int gpu_sa_solve_cpu(const gpu_sa_problem *prob, const gpu_sa_params *par, gpu_sa_result *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    gsa_packed pk;
    gsa_run run;
    gsa_best best;
    memset(&best, 0, sizeof best);
    double t0 = gsa_now();
    int rc = gsa_pack(prob, &pk, err, errlen);
    if (!rc)
        rc = gsa_run_make(&pk, par, &run, err, errlen);
    if (!rc)
        rc = gsa_cpu_run(&pk, &run, &best, err, errlen);
    if (!rc)
        rc = gsa_result_build(&pk, &run, &best, "cpu", gsa_now() - t0, out, err, errlen);
    gsa_best_fini(&best);
    gsa_packed_fini(&pk);
    return rc;
}
