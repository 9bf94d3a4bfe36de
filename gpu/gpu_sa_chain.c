/* gpu_sa_chain.c — one annealing chain: the decoders (Skrinarova &
 * Povinsky 2019, Algorithm 1, and the profile placement of conservative
 * backfilling, Mu'alem & Feitelson 2001), the neighbour moves, the integer
 * acceptance test and the annealing loop (their Algorithm 2), over the
 * data of gpu_sa_layout.h. Internal to gpu/.
 *
 * This file is the specification both backends execute, compiled twice:
 * as a C file of the library, whose entry points (gpu_sa_chain.h) the CPU
 * reference calls (gpu_sa_cpu.c: gsa_chain_run for chains 0, 1, ... in
 * turn, and the reference decoding of a result); and inside the CUDA
 * backend's translation unit (gpu_sa_cuda.cu includes it), where every
 * function is __host__ __device__ and a kernel calls gsa_chain_run from
 * one thread per chain, or, machine by machine, runs gsa_chain_begin /
 * gsa_chain_next on a block's thread 0 and gsa_mdec_machine on one thread
 * per machine. (Device code called from a kernel must be compiled with it,
 * unless the device code is linked separately, which would give up the
 * inlining the decoders' inner loops rely on.) Three grid decoders give the
 * same bits: one pass (gsa_decode_grid, the reference), machine by machine
 * in rounds (gsa_decode_grid_machines), and by events, re-evaluating only
 * what a move affects (gsa_decode_grid_events, what chains use). It is
 * written in the common subset of C11 and CUDA C++ and uses only integer
 * arithmetic and Philox (gpu_philox.h), so both compute the same bits: no
 * floating point, no library calls, no data-dependent behaviour other than
 * the problem's and the chain's own numbers.
 *
 * Invariants: the order of a chain is always a topological order of the
 * precedence relation (dependencies and file producers before their
 * consumers), so decoding never waits for a job not yet decoded; every
 * time value is at most the bound checked at packing (the largest initial
 * copy time or release plus the sum of all durations), so no 64-bit
 * quantity overflows.
 */
#include "gpu_philox.h"
#include "gpu_sa.h"
#include "gpu_sa_layout.h"

/* The entry points: external C functions declared in gpu_sa_chain.h, or,
 * compiled inside gpu_sa_cuda.cu, the kernels' own like every other
 * function here. */
#if defined(__CUDACC__)
#define GSA_API GSA_FN
#else
#include "gpu_sa_chain.h"
#define GSA_API
#endif

/* ---- energies -------------------------------------------------------- */

/* E1 = n Cmax + F; E2 = a1 n Cmax + a2 F + a3 TC in units of 1e-5, with
 * TC = pct / 100 x n x V, V the volume downloaded (sum of the sizes of the
 * files moved between machines): moving one size unit costs pct % of what
 * one time unit of makespan costs in E1 (n). The paper: "Transfer costs
 * are caused mainly by transfer files and creating virtual machines", set
 * at 0, 5, 10 and 25 %; it gives no formula. Our reading prices the files
 * moved; creating virtual machines is not modelled (our machines exist
 * from time 0). */
GSA_API void gsa_energies(const gsa_prob *p, const gsa_run *r, gsa_eval *e)
{
    int64_t n = p->J;
    e->e1 = n * e->cmax + e->flow;
    e->e2_fixed = r->e2_ok ? 100 * ((int64_t)r->a1 * n * e->cmax + (int64_t)r->a2 * e->flow) +
                                 (int64_t)r->a3 * r->pct * n * e->vol
                           : 0;
    e->energy = r->energy == 2 ? e->e2_fixed : e->e1;
}

/* ---- the grid decoder (Algorithm 1) ------------------------------------ */

/* Copies of every file: the initial mirrors are written once per chain;
 * each decoding only resets the counts. */
GSA_API void gsa_copies_init(const gsa_prob *p, gsa_ws *w)
{
    for (int64_t c = 0; c < p->copy_cap; c++) {
        w->copy[c].m = -1;
        w->copy[c].t = 0;
        w->copy[c].pad = 0;
    }
    for (int32_t i = 0; i < p->I; i++)
        w->icache[i].f = -1;
    for (int32_t f = 0; f < p->F; f++) {
        int32_t base = p->copy_off[f], k = 0;
        for (int32_t i = p->mir_off[f]; i < p->mir_off[f + 1]; i++, k++) {
            w->copy[base + k].m = p->mir_m[i];
            w->copy[base + k].t = p->mir_t[i];
        }
    }
}

/* Transfer time of a file of `size` from machine s to m (s != m). */
GSA_FN int64_t gsa_transfer(const gsa_prob *p, int32_t s, int32_t m, int64_t size)
{
    const int64_t k = (int64_t)s * p->M + m;
    int64_t lat, bw;
    if (p->net16) {
        const uint32_t x = p->net[k];
        lat = x & 0xFFFFu;
        bw = x >> 16;
    } else {
        lat = p->net[2 * k];
        bw = p->net[2 * k + 1];
    }
    return lat + (size + bw - 1) / bw;
}

/* Duration of the transfer of input slot i's file (size bytes) from s to m
 * (s != m), through the slot's cache (ic already keyed to this file and
 * machine). */
GSA_FN int64_t gsa_slot_transfer(const gsa_prob *p, gsa_icache *ic, int32_t s, int32_t m,
                                 int64_t size)
{
    for (int q = 0; q < GSA_ICACHE_WAYS; q++)
        if (ic->src[q] == s)
            return ic->dur[q];
    const int64_t dur = gsa_transfer(p, s, m, size);
    if (dur <= INT32_MAX) {
        ic->src[ic->next] = s;
        ic->dur[ic->next] = (int32_t)dur;
        ic->next = (ic->next + 1) % GSA_ICACHE_WAYS;
    }
    return dur;
}

/* Keys input slot i's cache to file f on machine m (cleared if either
 * changed). */
GSA_FN gsa_icache *gsa_slot_cache(gsa_ws *w, int32_t i, int32_t f, int32_t m)
{
    gsa_icache *ic = &w->icache[i];
    if (ic->f != f || ic->m != m) {
        ic->f = f;
        ic->m = m;
        ic->next = 0;
        for (int q = 0; q < GSA_ICACHE_WAYS; q++)
            ic->src[q] = -1;
    }
    return ic;
}

/* Algorithm 1 as one pass over the candidate's order: the specification
 * the other decoders (gsa_decode_grid_machines, gsa_decode_grid_events)
 * reproduce bit for bit. */
GSA_FN void gsa_decode_grid(const gsa_prob *p, const int32_t *order, const int32_t *mach,
                            const int32_t *fperm, gsa_ws *w, gsa_eval *e)
{
    int64_t cmax = 0, flow = 0, xfer = 0, vol = 0;
    for (int32_t m = 0; m < p->M; m++)
        w->mfree[m] = w->dlfree[m] = 0;
    for (int32_t f = 0; f < p->F; f++)
        w->copy_n[f] = p->mir_off[f + 1] - p->mir_off[f];
    for (int32_t k = 0; k < p->J; k++) {
        const int32_t j = order[k], m = mach[j];
        int64_t ready = w->mfree[m];
        for (int32_t d = p->dep_off[j]; d < p->dep_off[j + 1]; d++)
            ready = gsa_max(ready, w->cend[p->dep_job[d]]);
        int64_t link = w->dlfree[m], last = 0;
        for (int32_t i = p->in_off[j]; i < p->in_off[j + 1]; i++) {
            const int32_t f = fperm[i];
            const int32_t base = p->copy_off[f], nc = w->copy_n[f];
            const int64_t size = p->fsize[f];
            gsa_icache *ic = gsa_slot_cache(w, i, f, m);
            int64_t best = GSA_INF, best_from = 0;
            int32_t remote = 0;
            for (int32_t c = 0; c < nc; c++) {
                const gsa_copy *cp = &w->copy[base + c];
                const int32_t s = cp->m;
                const int64_t t = cp->t;
                int64_t arrive, from = 0;
                if (s == m) {
                    arrive = t;
                } else {
                    from = gsa_max(link, t);
                    if (from >= best)
                        continue; /* cannot arrive first */
                    int64_t dur = -1;
                    for (int q = 0; q < GSA_ICACHE_WAYS; q++)
                        if (ic->src[q] == s)
                            dur = ic->dur[q];
                    if (dur < 0) {
                        dur = gsa_transfer(p, s, m, size);
                        if (dur <= INT32_MAX) {
                            ic->src[ic->next] = s;
                            ic->dur[ic->next] = (int32_t)dur;
                            ic->next = (ic->next + 1) % GSA_ICACHE_WAYS;
                        }
                    }
                    arrive = from + dur;
                }
                if (arrive < best) { /* ties: the earlier copy in the table */
                    best = arrive;
                    best_from = from;
                    remote = s != m;
                }
            }
            if (remote) {
                xfer += best - best_from;
                vol += size;
                link = best;
                w->copy[base + nc].m = m;
                w->copy[base + nc].t = best;
                w->copy_n[f] = nc + 1;
            }
            last = gsa_max(last, best);
        }
        w->dlfree[m] = link;
        const int64_t start = gsa_max(ready, last);
        const int64_t end = start + (p->ops[j] + p->speed[m] - 1) / p->speed[m];
        w->mfree[m] = end;
        w->cstart[j] = start;
        w->cend[j] = end;
        for (int32_t i = p->prod_off[j]; i < p->prod_off[j + 1]; i++) {
            const int32_t f = p->prod_file[i];
            const int32_t nc = w->copy_n[f];
            w->copy[p->copy_off[f] + nc].m = m;
            w->copy[p->copy_off[f] + nc].t = end;
            w->copy_n[f] = nc + 1;
        }
        cmax = gsa_max(cmax, end);
        flow += end;
    }
    e->cmax = cmax;
    e->flow = flow;
    e->xfer = xfer;
    e->vol = vol;
}

/* The copy of file f that job j (at position pj, on machine m, its download
 * link free from `link`) reads: the earliest arrival over the candidate
 * copies — the file's mirrors, its producer's output, and the copies earlier
 * readers downloaded — ties to the copy first in the sequential copy table
 * (mirrors in their order, then copies in the order of the jobs that made
 * them). A copy's time is read from end_own / dl_own when it lies on m and
 * from end_other / dl_other otherwise: the machine-by-machine decoder reads
 * other machines' values from the previous round, the event decoder passes
 * the same arrays twice. Sets *best (arrival) and *best_from (when the
 * download starts, for a remote copy); returns 1 when the copy is remote
 * (a download), 0 when it is on m. */
GSA_FN int32_t gsa_pick_copy(const gsa_prob *p, const int32_t *mach, const int32_t *fperm,
                             const int32_t *pos, int32_t f, int32_t pj, int32_t m, int64_t link,
                             gsa_icache *ic, const int64_t *end_own, const int64_t *end_other,
                             const int64_t *dl_own, const int64_t *dl_other, int64_t *best_out,
                             int64_t *best_from_out)
{
    const int64_t size = p->fsize[f];
    const int32_t nm = p->mir_off[f + 1] - p->mir_off[f];
    int64_t best = GSA_INF, rank = GSA_INF, best_from = 0;
    int32_t remote = 0;
    const int32_t n_cand = nm + 1 + (p->rd_off[f + 1] - p->rd_off[f]);
    for (int32_t c = 0; c < n_cand; c++) {
        int32_t s;
        int64_t t, r;
        if (c < nm) {
            s = p->mir_m[p->mir_off[f] + c];
            t = p->mir_t[p->mir_off[f] + c];
            r = c;
        } else if (c == nm) {
            const int32_t q = p->fprod[f];
            if (q < 0 || pos[q] >= pj)
                continue;
            s = mach[q];
            t = s == m ? end_own[q] : end_other[q];
            r = (int64_t)nm + pos[q];
        } else {
            const int32_t q = p->rd_job[p->rd_off[f] + (c - nm - 1)];
            if (pos[q] >= pj)
                continue; /* later, or j itself */
            s = mach[q];
            int32_t slot = p->in_off[q];
            while (fperm[slot] != f)
                slot++;
            t = s == m ? dl_own[slot] : dl_other[slot];
            if (t < 0)
                continue; /* that reader made no copy */
            r = (int64_t)nm + pos[q];
        }
        int64_t arrive, from = 0;
        if (s == m) {
            arrive = t;
        } else {
            from = gsa_max(link, t);
            if (from > best)
                continue; /* cannot arrive first */
            arrive = from + gsa_slot_transfer(p, ic, s, m, size);
        }
        if (arrive < best || (arrive == best && r < rank)) {
            best = arrive;
            rank = r;
            best_from = from;
            remote = s != m;
        }
    }
    *best_out = best;
    *best_from_out = best_from;
    return remote;
}

/* ---- the grid decoder, machine by machine -------------------------------
 *
 * Algorithm 1 as the paper parallelises it: "One thread in program is
 * responsible for creating schedule on one machine" (Skrinarova & Povinsky
 * 2019, section 6). Machine m's part decodes m's jobs in the candidate's
 * order (its download link and its clock are its own); what it needs of
 * other machines' jobs — completions of predecessors and producers, copies
 * left by their downloads — it reads from the previous round, what it needs
 * of its own jobs from this round. Rounds repeat until one changes nothing
 * (the paper's "if not completed all jobs or is found better completion
 * time then for every machine do").
 *
 * Why this is the sequential decoder's schedule, bit for bit: a job's
 * values depend only on jobs earlier in the order, so after k rounds the
 * first k positions are final, and a round that changes nothing satisfies
 * the very equations the sequential pass solves, which have one solution.
 * The copy a download takes is the sequential one too: the earliest
 * arrival, ties to the copy first in the sequential copy table — initial
 * mirrors in their order, then copies in the order of the jobs that made
 * them (each job makes at most one copy of a file).
 *
 * The driver (CPU: gsa_decode_grid_machines; CUDA: one thread per machine)
 * calls gsa_mdec_lists, gsa_mdec_start, then rounds of gsa_mdec_machine for
 * every machine (generation g = 1, 0, 1, ...), then gsa_mdec_finish. */

/* Each machine's jobs in the order (sequential counting sort; the CUDA
 * backend builds the same lists in parallel). */
GSA_FN void gsa_mdec_lists(const gsa_prob *p, const int32_t *order, const int32_t *mach, gsa_ws *w)
{
    for (int32_t m = 0; m <= p->M; m++)
        w->moff[m] = 0;
    for (int32_t j = 0; j < p->J; j++)
        w->moff[mach[j] + 1]++;
    for (int32_t m = 0; m < p->M; m++)
        w->moff[m + 1] += w->moff[m];
    for (int32_t k = 0; k < p->J; k++) {
        const int32_t j = order[k];
        w->mjobs[w->moff[mach[j]]++] = j;
    }
    for (int32_t m = p->M; m > 0; m--)
        w->moff[m] = w->moff[m - 1];
    w->moff[0] = 0;
}

/* Round 0's values (generation 0): no completion, no copy. Items t, t +
 * nt, ... (CUDA: one share per thread). */
GSA_FN void gsa_mdec_start(const gsa_prob *p, gsa_ws *w, int32_t t, int32_t nt)
{
    for (int32_t j = t; j < p->J; j += nt)
        w->mend[j] = 0;
    for (int32_t i = t; i < p->I; i += nt)
        w->mdl[i] = -1;
}

/* One round of machine m, writing generation g and reading generation 1-g
 * of other machines. Returns 1 if a value differs from the previous round. */
GSA_FN int gsa_mdec_machine(const gsa_prob *p, const int32_t *mach, const int32_t *fperm,
                            const int32_t *pos, int32_t m, int32_t g, gsa_ws *w)
{
    const int64_t J = p->J, I = p->I;
    int64_t *end_g = w->mend + g * J, *end_p = w->mend + (1 - g) * J;
    int64_t *dl_g = w->mdl + g * I, *dl_p = w->mdl + (1 - g) * I;
    int64_t mfree = 0, link = 0;
    int changed = 0;
    for (int32_t x = w->moff[m]; x < w->moff[m + 1]; x++) {
        const int32_t j = w->mjobs[x], pj = pos[j];
        int64_t ready = mfree;
        for (int32_t d = p->dep_off[j]; d < p->dep_off[j + 1]; d++) {
            const int32_t q = p->dep_job[d];
            ready = gsa_max(ready, mach[q] == m ? end_g[q] : end_p[q]);
        }
        int64_t last = 0;
        for (int32_t i = p->in_off[j]; i < p->in_off[j + 1]; i++) {
            const int32_t f = fperm[i];
            gsa_icache *ic = gsa_slot_cache(w, i, f, m);
            int64_t best, best_from;
            const int32_t remote = gsa_pick_copy(p, mach, fperm, pos, f, pj, m, link, ic, end_g,
                                                 end_p, dl_g, dl_p, &best, &best_from);
            int64_t made = -1;
            w->mxf[i] = 0;
            if (remote) {
                w->mxf[i] = best - best_from;
                link = best;
                made = best;
            }
            changed |= made != dl_p[i];
            dl_g[i] = made;
            last = gsa_max(last, best);
        }
        const int64_t start = gsa_max(ready, last);
        const int64_t end = start + (p->ops[j] + p->speed[m] - 1) / p->speed[m];
        mfree = end;
        w->cstart[j] = start;
        changed |= end != end_p[j];
        end_g[j] = end;
    }
    return changed;
}

/* The criteria of the final round (generation g); cend filled. */
GSA_FN void gsa_mdec_finish(const gsa_prob *p, const int32_t *fperm, int32_t g, gsa_ws *w,
                            gsa_eval *e)
{
    int64_t cmax = 0, flow = 0, xfer = 0;
    for (int32_t j = 0; j < p->J; j++) {
        const int64_t end = w->mend[(int64_t)g * p->J + j];
        w->cend[j] = end;
        cmax = gsa_max(cmax, end);
        flow += end;
    }
    int64_t vol = 0;
    for (int32_t i = 0; i < p->I; i++) {
        xfer += w->mxf[i];
        if (w->mdl[(int64_t)g * p->I + i] >= 0)
            vol += p->fsize[fperm[i]];
    }
    e->cmax = cmax;
    e->flow = flow;
    e->xfer = xfer;
    e->vol = vol;
}

/* The CPU's machine-by-machine decoding: the same decomposition as the
 * CUDA kernel, the machines taken one after another within a round. */
GSA_API void gsa_decode_grid_machines(const gsa_prob *p, const int32_t *order, const int32_t *mach,
                                      const int32_t *fperm, const int32_t *pos, gsa_ws *w,
                                      gsa_eval *e)
{
    gsa_mdec_lists(p, order, mach, w);
    gsa_mdec_start(p, w, 0, 1);
    int32_t g = 1, rounds = 0;
    for (;;) {
        int changed = 0;
        for (int32_t m = 0; m < p->M; m++)
            changed |= gsa_mdec_machine(p, mach, fperm, pos, m, g, w);
        rounds++;
        if (!changed || rounds > p->J + 1)
            break;
        g = 1 - g;
    }
    w->rounds = rounds;
    gsa_mdec_finish(p, fperm, g, w, e);
}

/* ---- the grid decoder, by events ------------------------------------------
 *
 * Between two candidates of a chain only a few jobs change (one moved or
 * reassigned, one job's downloads reordered), so instead of decoding every
 * position again the chain keeps each job's decoded values and re-evaluates
 * only the jobs whose inputs changed, in order of position. A job's values
 * are a function of: the job before it on its machine (completion and
 * download link), its predecessors' completions, and the copies of its
 * input files made before it (initial mirrors, its producer's, the
 * downloads of earlier readers) — the equations of gsa_mdec_machine, with
 * the same tie rule, so the values are the one-pass decoder's bits. When a
 * job's completion or link changes, the next job on its machine and its
 * successors (dependants and readers of its files) are re-evaluated; when
 * one of its downloads changes, the later readers of that file are. Jobs a
 * move touched (recorded by gsa_move and gsa_undo_move in w->pend) are
 * taken out of their machine's list, put back by position, and re-evaluated
 * with their neighbours, the other readers of their files and their
 * successors. Each machine's jobs are a list linked by position (eprev,
 * enext, ehead); the jobs to evaluate a min-heap by position (eheap).
 * Totals (F, download time, volume) change by differences; Cmax is taken
 * over all completions. */

GSA_FN void gsa_ev_push(gsa_ws *w, int32_t j)
{
    if (w->enopush || w->estamp[j] == w->eserial)
        return;
    w->estamp[j] = w->eserial;
    int32_t i = w->en++;
    const int32_t k = w->pos[j];
    while (i > 0) {
        const int32_t up = (i - 1) / 2;
        if (w->pos[w->eheap[up]] <= k)
            break;
        w->eheap[i] = w->eheap[up];
        i = up;
    }
    w->eheap[i] = j;
}

GSA_FN int32_t gsa_ev_pop(gsa_ws *w)
{
    const int32_t top = w->eheap[0], last = w->eheap[--w->en];
    const int32_t k = w->pos[last], n = w->en;
    int32_t i = 0;
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && w->pos[w->eheap[c + 1]] < w->pos[w->eheap[c]])
            c++;
        if (w->pos[w->eheap[c]] >= k)
            break;
        w->eheap[i] = w->eheap[c];
        i = c;
    }
    if (n > 0)
        w->eheap[i] = last;
    return top;
}

/* Takes job j out of its machine's list (if in one). */
GSA_FN void gsa_ev_unlink(gsa_ws *w, int32_t j)
{
    const int32_t m = w->elist[j];
    if (m < 0)
        return;
    const int32_t a = w->eprev[j], b = w->enext[j];
    if (a >= 0)
        w->enext[a] = b;
    else
        w->ehead[m] = b;
    if (b >= 0)
        w->eprev[b] = a;
    w->elist[j] = -1;
}

/* Puts job j into machine m's list at its position. */
GSA_FN void gsa_ev_link(gsa_ws *w, int32_t j, int32_t m)
{
    const int32_t k = w->pos[j];
    int32_t a = -1, b = w->ehead[m];
    while (b >= 0 && w->pos[b] < k) {
        a = b;
        b = w->enext[b];
    }
    w->eprev[j] = a;
    w->enext[j] = b;
    if (a >= 0)
        w->enext[a] = j;
    else
        w->ehead[m] = j;
    if (b >= 0)
        w->eprev[b] = j;
    w->elist[j] = m;
}

/* Re-evaluates job j; schedules what depends on a changed value. */
GSA_FN void gsa_ev_job(const gsa_prob *p, const int32_t *mach, const int32_t *fperm, int32_t j,
                       gsa_ws *w)
{
    const int32_t m = mach[j], pj = w->pos[j], prev = w->eprev[j];
    int64_t ready = prev >= 0 ? w->cend[prev] : 0;
    int64_t link = prev >= 0 ? w->elink[prev] : 0;
    for (int32_t d = p->dep_off[j]; d < p->dep_off[j + 1]; d++)
        ready = gsa_max(ready, w->cend[p->dep_job[d]]);
    int64_t last = 0;
    for (int32_t i = p->in_off[j]; i < p->in_off[j + 1]; i++) {
        const int32_t f = fperm[i];
        const int64_t size = p->fsize[f];
        gsa_icache *ic = gsa_slot_cache(w, i, f, m);
        int64_t best, best_from;
        const int32_t remote = gsa_pick_copy(p, mach, fperm, w->pos, f, pj, m, link, ic, w->cend,
                                             w->cend, w->edl, w->edl, &best, &best_from);
        const int64_t made = remote ? best : -1, xf = remote ? best - best_from : 0;
        const int64_t moved = remote ? size : 0;
        if (remote)
            link = best;
        w->evol += moved - w->evsz[i]; /* the slot may have held another file */
        w->evsz[i] = moved;
        if (made != w->edl[i]) {
            w->edl[i] = made;
            for (int32_t x = p->rd_off[f]; x < p->rd_off[f + 1]; x++) {
                const int32_t q = p->rd_job[x];
                if (w->pos[q] > pj)
                    gsa_ev_push(w, q);
            }
        }
        w->exfer += xf - w->exf[i];
        w->exf[i] = xf;
        last = gsa_max(last, best);
    }
    const int64_t start = gsa_max(ready, last);
    const int64_t end = start + (p->ops[j] + p->speed[m] - 1) / p->speed[m];
    w->cstart[j] = start;
    const int changed_end = end != w->cend[j];
    if (changed_end) {
        w->eflow += end - w->cend[j];
        w->cend[j] = end;
        for (int32_t x = p->succ_off[j]; x < p->succ_off[j + 1]; x++)
            gsa_ev_push(w, p->succ_job[x]);
    }
    if ((changed_end || link != w->elink[j]) && w->enext[j] >= 0)
        gsa_ev_push(w, w->enext[j]);
    w->elink[j] = link;
}

/* Records that a move touched job j (its machine, place or download
 * order). */
GSA_FN void gsa_ev_touch(gsa_ws *w, int32_t j)
{
    if (!w->ehead)
        return;
    if (w->npend < GSA_EV_PEND)
        w->pend[w->npend] = j;
    w->npend++;
}

GSA_FN void gsa_decode_grid_events(const gsa_prob *p, const int32_t *order, const int32_t *mach,
                                   const int32_t *fperm, gsa_ws *w, gsa_eval *e)
{
    w->eserial++;
    w->en = 0;
    if (!w->evalid || w->npend > GSA_EV_PEND) {
        /* from scratch: lists by position, every job once in order */
        for (int32_t m = 0; m < p->M; m++)
            w->ehead[m] = -1;
        for (int32_t j = 0; j < p->J; j++) {
            w->elist[j] = -1;
            w->cend[j] = 0;
            w->elink[j] = 0;
            w->estamp[j] = 0;
        }
        w->eserial = 1;
        for (int32_t i = 0; i < p->I; i++) {
            w->edl[i] = -1;
            w->exf[i] = 0;
            w->evsz[i] = 0;
        }
        w->eflow = w->exfer = w->evol = 0;
        for (int32_t k = p->J - 1; k >= 0; k--) {
            /* pushed in front, last position first: lists in order */
            const int32_t j = order[k], m = mach[j], b = w->ehead[m];
            w->eprev[j] = -1;
            w->enext[j] = b;
            if (b >= 0)
                w->eprev[b] = j;
            w->ehead[m] = j;
            w->elist[j] = m;
        }
        w->enopush = 1; /* in order of position: nothing to schedule */
        for (int32_t k = 0; k < p->J; k++)
            gsa_ev_job(p, mach, fperm, order[k], w);
        w->enopush = 0;
        w->en = 0;
        w->evalid = 1;
    } else {
        for (int32_t x = 0; x < w->npend; x++) {
            const int32_t j = w->pend[x];
            if (w->elist[j] >= 0 && w->enext[j] >= 0)
                gsa_ev_push(w, w->enext[j]);
            gsa_ev_unlink(w, j);
        }
        for (int32_t x = 0; x < w->npend; x++) {
            const int32_t j = w->pend[x];
            if (w->elist[j] < 0)
                gsa_ev_link(w, j, mach[j]);
            gsa_ev_push(w, j);
            if (w->enext[j] >= 0)
                gsa_ev_push(w, w->enext[j]);
            for (int32_t i = p->in_off[j]; i < p->in_off[j + 1]; i++) {
                const int32_t f = p->in_file[i];
                for (int32_t y = p->rd_off[f]; y < p->rd_off[f + 1]; y++)
                    if (p->rd_job[y] != j)
                        gsa_ev_push(w, p->rd_job[y]);
            }
            for (int32_t y = p->succ_off[j]; y < p->succ_off[j + 1]; y++)
                gsa_ev_push(w, p->succ_job[y]);
        }
        while (w->en > 0)
            gsa_ev_job(p, mach, fperm, gsa_ev_pop(w), w);
        w->evalid = 1;
    }
    w->npend = 0;
    int64_t cmax = 0;
    for (int32_t j = 0; j < p->J; j++)
        cmax = gsa_max(cmax, w->cend[j]);
    e->cmax = cmax;
    e->flow = w->eflow;
    e->xfer = w->exfer;
    e->vol = w->evol;
}

/* ---- the queue decoder (profile placement) ----------------------------- */

GSA_FN void gsa_decode_queue(const gsa_prob *p, const int32_t *order, gsa_ws *w, gsa_eval *e)
{
    int32_t n = p->n_prof;
    for (int32_t i = 0; i < n; i++) {
        w->pt[i] = p->prof_t[i];
        w->pf[i] = p->prof_f[i];
    }
    int64_t cmax = 0, flow = 0;
    for (int32_t k = 0; k < p->J; k++) {
        const int32_t j = order[k], u = p->units[j];
        const int64_t d = p->dur[j];
        int32_t i = 0, hi;
        int64_t t, end;
        for (;;) { /* earliest segment i with u free on [pt[i], pt[i] + d) */
            while (w->pf[i] < u)
                i++; /* the last segment has every unit free */
            t = w->pt[i];
            end = t + d;
            hi = i + 1;
            while (hi < n && w->pt[hi] < end && w->pf[hi] >= u)
                hi++;
            if (hi < n && w->pt[hi] < end)
                i = hi; /* blocked by segment hi: restart after it */
            else
                break;
        }
        /* Segments i .. hi-1 cover [t, end); split at end if needed. */
        if (hi == n || w->pt[hi] > end) {
            for (int32_t s = n; s > hi; s--) {
                w->pt[s] = w->pt[s - 1];
                w->pf[s] = w->pf[s - 1];
            }
            w->pt[hi] = end;
            w->pf[hi] = w->pf[hi - 1];
            n++;
        }
        for (int32_t s = i; s < hi; s++)
            w->pf[s] -= u;
        w->cstart[j] = t;
        w->cend[j] = end;
        cmax = gsa_max(cmax, end);
        flow += end + (p->waited ? p->waited[j] : 0);
    }
    e->cmax = cmax;
    e->flow = flow;
    e->xfer = 0;
    e->vol = 0;
}

/* Decodes a candidate from scratch with the reference decoder. */
GSA_API void gsa_decode(const gsa_prob *p, const gsa_run *r, const int32_t *order,
                        const int32_t *mach, const int32_t *fperm, gsa_ws *w, gsa_eval *e)
{
    if (p->kind == 0)
        gsa_decode_grid(p, order, mach, fperm, w, e);
    else
        gsa_decode_queue(p, order, w, e);
    gsa_energies(p, r, e);
}

/* ---- acceptance ------------------------------------------------------ */

/* floor(2^32 e^-k), k = 0..22 (k = 0 clamped to 2^32 - 1). */
#define GSA_EXP_INT                                                                                \
    {                                                                                              \
        4294967295u, 1580030168u, 581260615u, 213833830u, 78665070u, 28939262u, 10646159u,         \
            3916503u, 1440801u, 530041u, 194991u, 71733u, 26389u, 9708u, 3571u, 1313u, 483u, 177u, \
            65u, 24u, 8u, 3u, 1u                                                                   \
    }
/* floor(2^32 e^(-2^-i)), i = 1..16. */
#define GSA_EXP_FRAC                                                                               \
    {                                                                                              \
        2605029347u, 3344923893u, 3790295335u, 4034748382u, 4162825044u, 4228379999u, 4261543595u, \
            4278222805u, 4286586874u, 4290775039u, 4292870655u, 4293918847u, 4294443039u,          \
            4294705159u, 4294836225u, 4294901760u                                                  \
    }

/* 2^32 e^(-delta / T) for delta > 0, T > 0, in integers only: both are
 * scaled down until T < 2^31, x = delta / T is split into an integer part
 * (a table) and 16 fraction bits (a product of table entries). Relative
 * error below 2^-15: plenty for an acceptance probability, and exactly the
 * same bits everywhere. */
GSA_FN uint32_t gsa_accept_q32(int64_t delta, int64_t temp)
{
    const uint32_t ei[23] = GSA_EXP_INT;
    const uint32_t ef[16] = GSA_EXP_FRAC;
    uint64_t d = (uint64_t)delta, t = (uint64_t)temp;
    while (t >= ((uint64_t)1 << 31)) {
        t >>= 1;
        d >>= 1;
    }
    if (t == 0)
        return 0;
    uint64_t ip = d / t;
    if (ip >= 23)
        return 0;
    uint64_t frac = ((d - ip * t) << 16) / t; /* < 2^16 */
    uint64_t v = ei[ip];
    for (int b = 0; b < 16; b++)
        if (frac & ((uint64_t)1 << (15 - b)))
            v = (v * ef[b]) >> 32;
    return (uint32_t)v;
}

/* T x q / 2^32 without overflow for T < 2^63. */
GSA_FN int64_t gsa_cool(int64_t temp, uint32_t q)
{
    uint64_t t = (uint64_t)temp;
    return (int64_t)((t >> 32) * q + (((t & 0xFFFFFFFFu) * q) >> 32));
}

/* x q / 2^16, saturated at 2^62. */
GSA_FN int64_t gsa_scale_q16(int64_t x, uint32_t q)
{
    int64_t hi = x >> 16;
    if (q && hi > ((int64_t)1 << 62) / (int64_t)q)
        return (int64_t)1 << 62;
    return hi * q + (((x & 0xFFFF) * (int64_t)q) >> 16);
}

/* ---- initial solutions and moves --------------------------------------- */

GSA_FN void gsa_initial(const gsa_prob *p, const gsa_run *r, int32_t chain, gpu_philox_stream *s,
                        gsa_ws *w)
{
    const int32_t J = p->J;
    if (p->kind == 0) {
        /* A random topological order (Kahn's algorithm, a random ready job
         * each step), a random machine per job, a random download order. */
        int32_t *indeg = w->tmp_a, *ready = w->tmp_b, n_ready = 0;
        for (int32_t j = 0; j < J; j++) {
            indeg[j] = p->pred_off[j + 1] - p->pred_off[j];
            if (indeg[j] == 0)
                ready[n_ready++] = j;
        }
        for (int32_t k = 0; k < J; k++) {
            int32_t x = (int32_t)gpu_philox_below(s, (uint32_t)n_ready);
            int32_t j = ready[x];
            ready[x] = ready[--n_ready];
            w->order[k] = j;
            for (int32_t i = p->succ_off[j]; i < p->succ_off[j + 1]; i++)
                if (--indeg[p->succ_job[i]] == 0)
                    ready[n_ready++] = p->succ_job[i];
        }
        for (int32_t j = 0; j < J; j++)
            w->mach[j] = (int32_t)gpu_philox_below(s, (uint32_t)p->M);
        for (int32_t j = 0; j < J; j++) {
            int32_t a = p->in_off[j], n = p->in_off[j + 1] - a;
            for (int32_t i = 0; i < n; i++)
                w->fperm[a + i] = p->in_file[a + i];
            for (int32_t i = n - 1; i > 0; i--) {
                int32_t x = (int32_t)gpu_philox_below(s, (uint32_t)(i + 1));
                int32_t tmp = w->fperm[a + i];
                w->fperm[a + i] = w->fperm[a + x];
                w->fperm[a + x] = tmp;
            }
        }
        gsa_copies_init(p, w);
    } else {
        for (int32_t j = 0; j < J; j++)
            w->order[j] = j;
        if (!(r->keep_first && chain == 0))
            for (int32_t i = J - 1; i > 0; i--) {
                int32_t x = (int32_t)gpu_philox_below(s, (uint32_t)(i + 1));
                int32_t tmp = w->order[i];
                w->order[i] = w->order[x];
                w->order[x] = tmp;
            }
    }
    for (int32_t k = 0; k < J; k++)
        w->pos[w->order[k]] = k;
}

/* Moves job order[from] to position to, shifting the jobs in between. */
GSA_FN void gsa_shift(gsa_ws *w, int32_t from, int32_t to)
{
    int32_t j = w->order[from];
    if (from < to)
        for (int32_t k = from; k < to; k++) {
            w->order[k] = w->order[k + 1];
            w->pos[w->order[k]] = k;
        }
    else
        for (int32_t k = from; k > to; k--) {
            w->order[k] = w->order[k - 1];
            w->pos[w->order[k]] = k;
        }
    w->order[to] = j;
    w->pos[j] = to;
}

/* What a move changed, to undo it. */
typedef struct gsa_undo {
    int32_t job, old_machine; /* reassignment (job >= 0) */
    int32_t from, to;         /* shift (from != to) */
    int32_t swap_a, swap_b;   /* download swap (swap_a >= 0) */
    int32_t shift_job, swap_job;
} gsa_undo;

/* A neighbour (Algorithm 2, steps 1 and 2): move one job — to another
 * machine, or (for the queue always) to another place in the order within
 * the range its predecessors and successors allow — then, for the grid,
 * with probability 1/2 swap two files in the download order of a job that
 * has several. */
GSA_FN void gsa_move(const gsa_prob *p, gpu_philox_stream *s, gsa_ws *w, gsa_undo *u)
{
    u->job = -1;
    u->from = u->to = 0;
    u->swap_a = -1;
    const uint32_t J = (uint32_t)p->J;
    const uint32_t coin = gpu_philox_next(s);
    if (p->kind == 0 && p->M > 1 && (coin & 1u)) {
        int32_t j = (int32_t)gpu_philox_below(s, J);
        int32_t m = (int32_t)gpu_philox_below(s, (uint32_t)p->M - 1);
        if (m >= w->mach[j])
            m++;
        u->job = j;
        u->old_machine = w->mach[j];
        w->mach[j] = m;
        gsa_ev_touch(w, j);
    } else if (J > 1) {
        int32_t j = (int32_t)gpu_philox_below(s, J);
        int32_t lo = 0, hi = (int32_t)J - 1;
        if (p->kind == 0) {
            for (int32_t i = p->pred_off[j]; i < p->pred_off[j + 1]; i++)
                if (w->pos[p->pred_job[i]] + 1 > lo)
                    lo = w->pos[p->pred_job[i]] + 1;
            for (int32_t i = p->succ_off[j]; i < p->succ_off[j + 1]; i++)
                if (w->pos[p->succ_job[i]] - 1 < hi)
                    hi = w->pos[p->succ_job[i]] - 1;
        }
        int32_t to = lo + (int32_t)gpu_philox_below(s, (uint32_t)(hi - lo + 1));
        u->from = w->pos[j];
        u->to = to;
        gsa_shift(w, u->from, to);
        u->shift_job = j;
        if (u->from != to)
            gsa_ev_touch(w, j);
    }
    if (p->kind == 0 && p->n_multi > 0 && (coin & 2u)) {
        int32_t j = p->multi[gpu_philox_below(s, (uint32_t)p->n_multi)];
        int32_t a = p->in_off[j], n = p->in_off[j + 1] - a;
        int32_t x = (int32_t)gpu_philox_below(s, (uint32_t)n);
        int32_t y = (int32_t)gpu_philox_below(s, (uint32_t)n - 1);
        if (y >= x)
            y++;
        u->swap_a = a + x;
        u->swap_b = a + y;
        u->swap_job = j;
        gsa_ev_touch(w, j);
        int32_t tmp = w->fperm[a + x];
        w->fperm[a + x] = w->fperm[a + y];
        w->fperm[a + y] = tmp;
    }
}

GSA_FN void gsa_undo_move(gsa_ws *w, const gsa_undo *u)
{
    if (u->swap_a >= 0)
        gsa_ev_touch(w, u->swap_job);
    if (u->from != u->to)
        gsa_ev_touch(w, u->shift_job);
    if (u->job >= 0)
        gsa_ev_touch(w, u->job);
    if (u->swap_a >= 0) {
        int32_t tmp = w->fperm[u->swap_a];
        w->fperm[u->swap_a] = w->fperm[u->swap_b];
        w->fperm[u->swap_b] = tmp;
    }
    if (u->from != u->to)
        gsa_shift(w, u->to, u->from);
    if (u->job >= 0)
        w->mach[u->job] = u->old_machine;
}

GSA_FN void gsa_keep_best(const gsa_prob *p, gsa_ws *w)
{
    for (int32_t j = 0; j < p->J; j++)
        w->b_order[j] = w->order[j];
    if (p->kind == 0) {
        for (int32_t j = 0; j < p->J; j++)
            w->b_mach[j] = w->mach[j];
        for (int32_t i = 0; i < p->I; i++)
            w->b_fperm[i] = w->fperm[i];
    }
}

/* ---- acceptance (Algorithm 2, steps 5 and 6) ------------------------------ */

/* Step 5: a candidate delta worse than the current one is accepted when it
 * is not worse, or, while the temperature is positive, with probability
 * e^(-delta/T) (draw: a uniform 32-bit number). */
GSA_API int gsa_accept_decide(int64_t delta, int64_t temp, uint32_t draw)
{
    if (delta <= 0)
        return 1;
    return temp > 0 && draw < gsa_accept_q32(delta, temp);
}

/* Step 6, after the decision: updates the current and best energies and
 * says whether the candidate becomes the best schedule (1) — the caller
 * then keeps it — or not (0). A rejected candidate is undone by the caller
 * (back to the current schedule).
 *  - GSA_ACCEPT_METROPOLIS: the usual annealing; an accepted candidate
 *    becomes the current one, and the best one only if it is better than
 *    every schedule seen (the best is kept apart);
 *  - GSA_ACCEPT_PAPER: the paper's step 6, "if the schedule has been
 *    accepted then set the schedule as the best schedule, else return to the
 *    best solution": the best and the current schedule are one, so an
 *    accepted worsening move also replaces the best. */

GSA_API int gsa_acceptance(int32_t mode, int64_t cand, int accepted, int64_t *cur, int64_t *best)
{
    if (!accepted)
        return 0;
    *cur = cand;
    if (mode == GSA_ACCEPT_PAPER || cand < *best) {
        *best = cand;
        return 1;
    }
    return 0;
}

/* ---- the chain (Algorithm 2) -------------------------------------------- */

/* A chain between two decodings. */
typedef struct gsa_chain_st {
    gpu_philox_stream s;
    gsa_undo u;
    int64_t cur, best, best_e1, it, evals, stall, temp, q, rem, cnt;
    int32_t phase, k, movable;
} gsa_chain_st;

/* Runs chain `chain` as a sequence of decodings: gsa_chain_begin sets up
 * the initial candidate in w and returns 0 (decode it); each
 * gsa_chain_next takes the decoding of the candidate in w and returns 0
 * when the next candidate is ready to decode, or -1 when the chain has
 * ended (summary in out, best candidate in w->b_*). The caller decodes in
 * between — by events or from scratch (gsa_decode_run), machine by machine
 * on the CPU (gsa_decode_grid_machines) or on a CUDA block — so every
 * backend and decomposition runs this one control flow.
 *
 * The chain: generate a random initial solution, evaluate it and remember
 * it as the best; sample GPU_SA_T0_SAMPLES moves (each undone) for the
 * initial temperature: the mean of the positive energy changes (summed as
 * quotient and remainder by the sample count, so no overflow) times
 * t0_q16 / 2^16; then per iteration: move (gsa_move), evaluate, cool,
 * decide (gsa_accept_decide) and apply (gsa_acceptance) by r->acceptance;
 * a rejected move is undone. The chain stops after r->iterations, or
 * earlier when its best E1 has not improved for r->stall_limit
 * iterations. */
GSA_FN int32_t gsa_chain_begin(const gsa_prob *p, const gsa_run *r, int32_t chain, gsa_ws *w,
                               gsa_chain_st *st)
{
    gpu_philox_stream_init(&st->s, r->seed, (uint32_t)chain, 0x5A5A0001u);
    gsa_initial(p, r, chain, &st->s, w);
    w->evalid = 0;
    w->npend = 0;
    st->phase = 0;
    st->movable = p->J > 1 || (p->kind == 0 && p->M > 1);
    return 0;
}

GSA_FN int32_t gsa_chain_next(const gsa_prob *p, const gsa_run *r, gsa_ws *w, gsa_chain_st *st,
                              const gsa_eval *e, gsa_chain_out *out)
{
    switch (st->phase) {
    case 0: /* the initial candidate */
        st->cur = st->best = e->energy;
        st->best_e1 = e->e1;
        out->init_energy = e->energy;
        gsa_keep_best(p, w);
        st->it = st->stall = st->temp = 0;
        st->evals = 1;
        if (st->movable && r->iterations > 0) {
            st->q = st->rem = st->cnt = 0;
            st->k = 0;
            st->phase = 1;
            gsa_move(p, &st->s, w, &st->u);
            return 0;
        }
        break;
    case 1: { /* a sample for T0 */
        st->evals++;
        const int64_t d = e->energy - st->cur;
        if (d > 0) {
            st->q += d / GPU_SA_T0_SAMPLES;
            st->rem += d % GPU_SA_T0_SAMPLES;
            st->cnt++;
        }
        gsa_undo_move(w, &st->u);
        if (++st->k < GPU_SA_T0_SAMPLES) {
            gsa_move(p, &st->s, w, &st->u);
            return 0;
        }
        if (st->cnt) {
            const int64_t q = st->q, cnt = st->cnt;
            const int64_t mean = (q / cnt) * GPU_SA_T0_SAMPLES +
                                 ((q % cnt) * GPU_SA_T0_SAMPLES + st->rem) / cnt;
            st->temp = gsa_scale_q16(mean, r->t0_q16);
        }
        break;
    }
    case 2: { /* an iteration */
        st->evals++;
        const int64_t delta = e->energy - st->cur;
        int accept = delta <= 0;
        if (!accept && st->temp > 0)
            accept = gsa_accept_decide(delta, st->temp, gpu_philox_next(&st->s));
        st->temp = gsa_cool(st->temp, r->cool_q32);
        if (accept) {
            if (gsa_acceptance(r->acceptance, e->energy, 1, &st->cur, &st->best))
                gsa_keep_best(p, w);
            if (e->e1 < st->best_e1) {
                st->best_e1 = e->e1;
                st->stall = 0;
            } else {
                st->stall++;
            }
        } else {
            gsa_undo_move(w, &st->u);
            st->stall++;
        }
        if (r->stall_limit > 0 && st->stall >= r->stall_limit)
            st->movable = 0; /* ends the chain below */
        break;
    }
    }
    if (st->movable && st->it < r->iterations) {
        st->it++;
        st->phase = 2;
        gsa_move(p, &st->s, w, &st->u);
        return 0;
    }
    out->best_energy = st->best;
    out->best_e1 = st->best_e1;
    out->iterations = st->it;
    out->evaluations = st->evals;
    return -1;
}

/* Decodes the candidate in w as the run asks: machine by machine
 * (r->parallel, grid), by events (grid, a workspace laid out for them), or
 * from scratch in one pass. */
GSA_FN void gsa_decode_run(const gsa_prob *p, const gsa_run *r, gsa_ws *w, gsa_eval *e)
{
    if (p->kind == 0 && r->parallel) {
        gsa_decode_grid_machines(p, w->order, w->mach, w->fperm, w->pos, w, e);
        gsa_energies(p, r, e);
    } else if (p->kind == 0 && w->ehead) {
        gsa_decode_grid_events(p, w->order, w->mach, w->fperm, w, e);
        gsa_energies(p, r, e);
    } else {
        gsa_decode(p, r, w->order, w->mach, w->fperm, w, e);
    }
}

/* Runs chain `chain` to its end on one processor. */
GSA_API void gsa_chain_run(const gsa_prob *p, const gsa_run *r, int32_t chain, gsa_ws *w,
                           gsa_chain_out *out)
{
    gsa_chain_st st;
    gsa_eval e;
    e.cmax = e.flow = e.xfer = e.vol = e.e1 = e.e2_fixed = e.energy = 0;
    int64_t rounds = 0;
    int32_t more = gsa_chain_begin(p, r, chain, w, &st);
    while (more >= 0) {
        gsa_decode_run(p, r, w, &e);
        rounds += w->rounds;
        more = gsa_chain_next(p, r, w, &st, &e, out);
    }
    out->rounds = rounds;
}
