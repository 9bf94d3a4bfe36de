/* gpu_sa_cpu.c — the CPU reference: every chain of gpu_sa_chain.h run on
 * the host, one after another, in one reused workspace; the best chain is
 * the one with the lowest best energy, ties to the lowest chain number.
 * This is the specification the CUDA backend must reproduce bit for bit
 * (Skrinarova & Povinsky 2019, Algorithms 1 and 2, with the choices stated
 * in gpu_sa.h and gpu_sa_chain.h).
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

#include "eng_error.h"

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
