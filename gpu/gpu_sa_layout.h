/* gpu_sa_layout.h — the data one annealing chain works on, as both
 * backends lay it out: the packed problem (one block of arrays behind a
 * gsa_header, which gsa_pack writes on the host and the CUDA backend
 * copies to the device as is), the view of it a chain reads (gsa_prob),
 * the run's parameters in integers (gsa_run), a chain's workspace
 * (gsa_ws) and its summary (gsa_chain_out). Internal to gpu/: the host
 * files (packing, the CPU reference, the pool) need only this; the chain
 * itself is gpu_sa_chain.c.
 *
 * Written in the common subset of C11 and CUDA C++: the functions here are
 * `static inline`, and also __host__ __device__ under nvcc (GSA_FN), so
 * the CUDA kernels lay out the same views and workspaces as the host.
 *
 * Invariants: every array of a packed problem starts at an 8-byte aligned
 * offset (0 for an absent array); a workspace is laid out by
 * gsa_ws_layout alone, so its size and its arrays' places are the same
 * wherever it is measured and wherever it is laid out.
 */
#ifndef GPU_SA_LAYOUT_H
#define GPU_SA_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define GSA_FN static inline __host__ __device__
#else
#define GSA_FN static inline
#endif

/* A packed problem's first word: the bytes "BALSA" in memory on the
 * little-endian machines batchlab runs on (x86-64, ARM64 and CUDA
 * devices); checked by gsa_blob_ok. */
#define GSA_MAGIC 0x41534C4142ll
#define GSA_INF INT64_MAX

enum {
    GSA_SPEED,
    GSA_NET,
    GSA_OPS,
    GSA_FSIZE,
    GSA_COPY_OFF,
    GSA_MIR_OFF,
    GSA_MIR_M,
    GSA_MIR_T,
    GSA_IN_OFF,
    GSA_IN_FILE,
    GSA_PROD_OFF,
    GSA_PROD_FILE,
    GSA_DEP_OFF,
    GSA_DEP_JOB,
    GSA_PRED_OFF,
    GSA_PRED_JOB,
    GSA_SUCC_OFF,
    GSA_SUCC_JOB,
    GSA_MULTI,
    GSA_UNITS,
    GSA_DUR,
    GSA_WAITED,
    GSA_PROF_T,
    GSA_PROF_F,
    GSA_RD_OFF,
    GSA_RD_JOB,
    GSA_FPROD,
    GSA_N_ARRAYS
};

/* The head of a packed problem: one contiguous block (8-byte aligned
 * arrays at the byte offsets in off[], 0 for absent arrays), copied to the
 * device as is. */
typedef struct gsa_header {
    int64_t magic, bytes; /* GSA_MAGIC; the block's size */
    int64_t kind, n_machines, n_jobs, n_files, n_inputs, n_multi;
    int64_t copy_cap, total_units, n_prof, prof_cap;
    int64_t net16; /* latency and bandwidth packed as 16-bit halves */
    int64_t off[GSA_N_ARRAYS];
} gsa_header;

/* Pointers into a packed problem. */
typedef struct gsa_prob {
    int32_t kind, M, J, F, I, n_multi, total_units, n_prof, net16;
    int64_t copy_cap, prof_cap;
    const int64_t *speed;
    /* The network from machine s to machine m, entry k = s M + m: with
     * net16, net[k] = latency | bandwidth << 16; otherwise net[2k] is the
     * latency and net[2k + 1] the bandwidth. One entry per pair keeps a
     * transfer to one cache line (the decoder's main cost is these
     * scattered reads). */
    const uint32_t *net;
    const int64_t *ops, *fsize;
    const int32_t *copy_off; /* [F+1] capacity rows of the copy table */
    const int32_t *mir_off, *mir_m;
    const int64_t *mir_t;
    const int32_t *in_off, *in_file, *prod_off, *prod_file, *dep_off, *dep_job;
    const int32_t *pred_off, *pred_job, *succ_off, *succ_job, *multi;
    const int32_t *units;
    const int64_t *dur, *waited, *prof_t;
    const int32_t *prof_f;
    const int32_t *rd_off, *rd_job; /* [F+1], [I]: the jobs reading each file */
    const int32_t *fprod;           /* [F] the job producing each file, or -1 */
} gsa_prob;

/* What one run asks of every chain (derived from gpu_sa_params on the
 * host; the floating-point cooling factor is turned into cool_q32 there,
 * once, so both backends use the same integer). */
typedef struct gsa_run {
    uint64_t seed;
    int64_t iterations;
    int64_t stall_limit; /* 0: none */
    int32_t energy;      /* 1: E1, 2: E2 */
    int32_t a1, a2, a3, pct;
    uint32_t t0_q16;   /* T0 = mean sampled worsening x t0_q16 / 2^16 */
    uint32_t cool_q32; /* T <- T x cool_q32 / 2^32 each iteration */
    int32_t keep_first;
    int32_t chains;
    int32_t e2_ok;       /* E2 provably fits in 64 bits with these weights */
    int32_t full_decode; /* grid: decode every candidate from scratch */
    int32_t parallel;    /* grid: 0 = one decoder pass (chains), 1 = machine by
                            machine (gsa_decode_grid_machines) */
    int32_t acceptance;  /* GSA_ACCEPT_*: Metropolis, the best kept apart; or
                            the paper's step 6 (gsa_acceptance) */
} gsa_run;

/* gsa_run.acceptance (gsa_acceptance in gpu_sa_chain.c says what each
 * does). */
enum { GSA_ACCEPT_METROPOLIS = 0, GSA_ACCEPT_PAPER = 1 };

/* One copy of a file: on machine m from time t. */
typedef struct gsa_copy {
    int64_t t;
    int32_t m;
    int32_t pad;
} gsa_copy;

/* Transfer times last computed for one input slot (job j's i-th download):
 * file f to machine m from up to eight sources, replaced round-robin. Between two decodings most
 * jobs keep their machine and most copies their place, so most transfers
 * are found here instead of in the network matrix, whose scattered reads
 * would otherwise dominate a decoding. A pure cache: it never changes a
 * result (a slot whose file or machine changed is cleared). */
#define GSA_ICACHE_WAYS 8
typedef struct gsa_icache {
    int32_t f, m, next, pad;
    int32_t src[GSA_ICACHE_WAYS];
    int32_t dur[GSA_ICACHE_WAYS];
} gsa_icache;

/* Jobs a decoding by events takes from the moves since the last one; more
 * and it decodes from scratch. */
#define GSA_EV_PEND 8

/* A chain's workspace (see gsa_ws_layout). */
typedef struct gsa_ws {
    int32_t *order, *pos, *mach, *fperm;
    int32_t *b_order, *b_mach, *b_fperm;
    int32_t *tmp_a, *tmp_b;
    int64_t *cstart, *cend, *mfree, *dlfree;
    int32_t *copy_n;
    gsa_copy *copy;
    gsa_icache *icache;
    int64_t *pt;
    int32_t *pf;
    /* Grid, machine by machine (GSA_WS_MACHINES): each machine's jobs in
     * order (mjobs, rows moff), and two generations (rounds) of each job's
     * completion (mend[g J + j]) and of each input slot's download into a
     * new copy (mdl[g I + i]: its arrival, -1 when the slot made no copy),
     * the download time of each slot (mxf), the rounds of the last
     * decoding (rounds). */
    int32_t *mjobs, *moff;
    int64_t *mend, *mdl, *mxf;
    int32_t rounds;
    /* Grid, by events (GSA_WS_EVENTS; gsa_decode_grid_events): machine
     * lists (eprev, enext, elist [J], ehead [M]), each job's download link
     * after it (elink), each slot's copy made (edl: arrival or -1) and
     * download time (exf) and volume (evsz), the heap and its stamps, the totals, the jobs
     * the moves touched since the last decoding (pend, npend). */
    int32_t *eprev, *enext, *elist, *ehead, *eheap;
    int64_t *estamp, *elink, *edl, *exf, *evsz;
    int64_t eserial, eflow, exfer, evol;
    int32_t en, evalid, enopush, npend;
    int32_t pend[GSA_EV_PEND];
} gsa_ws;

/* What a workspace holds beyond the chain's candidate and one decoding. */
enum { GSA_WS_MACHINES = 2, GSA_WS_EVENTS = 4 };

/* What a chain of this run needs. */
GSA_FN int32_t gsa_ws_flags(const gsa_run *r)
{
    if (r->parallel)
        return GSA_WS_MACHINES;
    return r->full_decode ? 0 : GSA_WS_EVENTS;
}

/* A chain's summary. */
typedef struct gsa_chain_out {
    int64_t best_energy, best_e1, init_energy, iterations, evaluations;
    int64_t rounds; /* machine by machine: rounds over all decodings */
} gsa_chain_out;

/* A decoding's criteria. */
typedef struct gsa_eval {
    int64_t cmax, flow, xfer, vol, e1, e2_fixed, energy;
} gsa_eval;

GSA_FN int64_t gsa_align8(int64_t n)
{
    return (n + 7) & ~(int64_t)7;
}

GSA_FN int64_t gsa_max(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

GSA_FN void gsa_prob_view(const unsigned char *blob, gsa_prob *p)
{
    const gsa_header *h = (const gsa_header *)blob;
    p->kind = (int32_t)h->kind;
    p->M = (int32_t)h->n_machines;
    p->J = (int32_t)h->n_jobs;
    p->F = (int32_t)h->n_files;
    p->I = (int32_t)h->n_inputs;
    p->n_multi = (int32_t)h->n_multi;
    p->total_units = (int32_t)h->total_units;
    p->n_prof = (int32_t)h->n_prof;
    p->net16 = (int32_t)h->net16;
    p->copy_cap = h->copy_cap;
    p->prof_cap = h->prof_cap;
#define GSA_AT(T, id) (h->off[id] ? (T)(const void *)(blob + h->off[id]) : (T)0)
    p->speed = GSA_AT(const int64_t *, GSA_SPEED);
    p->net = GSA_AT(const uint32_t *, GSA_NET);
    p->ops = GSA_AT(const int64_t *, GSA_OPS);
    p->fsize = GSA_AT(const int64_t *, GSA_FSIZE);
    p->copy_off = GSA_AT(const int32_t *, GSA_COPY_OFF);
    p->mir_off = GSA_AT(const int32_t *, GSA_MIR_OFF);
    p->mir_m = GSA_AT(const int32_t *, GSA_MIR_M);
    p->mir_t = GSA_AT(const int64_t *, GSA_MIR_T);
    p->in_off = GSA_AT(const int32_t *, GSA_IN_OFF);
    p->in_file = GSA_AT(const int32_t *, GSA_IN_FILE);
    p->prod_off = GSA_AT(const int32_t *, GSA_PROD_OFF);
    p->prod_file = GSA_AT(const int32_t *, GSA_PROD_FILE);
    p->dep_off = GSA_AT(const int32_t *, GSA_DEP_OFF);
    p->dep_job = GSA_AT(const int32_t *, GSA_DEP_JOB);
    p->pred_off = GSA_AT(const int32_t *, GSA_PRED_OFF);
    p->pred_job = GSA_AT(const int32_t *, GSA_PRED_JOB);
    p->succ_off = GSA_AT(const int32_t *, GSA_SUCC_OFF);
    p->succ_job = GSA_AT(const int32_t *, GSA_SUCC_JOB);
    p->multi = GSA_AT(const int32_t *, GSA_MULTI);
    p->units = GSA_AT(const int32_t *, GSA_UNITS);
    p->dur = GSA_AT(const int64_t *, GSA_DUR);
    p->waited = GSA_AT(const int64_t *, GSA_WAITED);
    p->prof_t = GSA_AT(const int64_t *, GSA_PROF_T);
    p->prof_f = GSA_AT(const int32_t *, GSA_PROF_F);
    p->rd_off = GSA_AT(const int32_t *, GSA_RD_OFF);
    p->rd_job = GSA_AT(const int32_t *, GSA_RD_JOB);
    p->fprod = GSA_AT(const int32_t *, GSA_FPROD);
#undef GSA_AT
}

/* Whether blob holds a packed problem of `bytes` bytes, as gsa_pack wrote
 * it: its magic and its recorded size. The backends check it before they
 * read a problem (gsa_cpu_run, gsa_cuda_launch). */
GSA_FN int gsa_blob_ok(const unsigned char *blob, size_t bytes)
{
    const gsa_header *h = (const gsa_header *)(const void *)blob;
    return blob && bytes >= sizeof *h && h->magic == GSA_MAGIC && h->bytes == (int64_t)bytes;
}

/* Lays a chain's workspace out at base (NULL: only measures). Returns its
 * size in bytes (a multiple of 8). */
GSA_FN int64_t gsa_ws_layout(const gsa_prob *p, int32_t flags, unsigned char *base, gsa_ws *w)
{
    int64_t at = 0;
    int64_t J = p->J, I = p->I, M = p->M, F = p->F;
#define GSA_PUT(field, T, n)                                                                       \
    do {                                                                                           \
        w->field = base ? (T *)(void *)(base + at) : (T *)0;                                       \
        at += gsa_align8((int64_t)sizeof(T) * (n));                                                \
    } while (0)
    GSA_PUT(order, int32_t, J);
    GSA_PUT(pos, int32_t, J);
    GSA_PUT(mach, int32_t, M ? J : 0);
    GSA_PUT(fperm, int32_t, I);
    GSA_PUT(b_order, int32_t, J);
    GSA_PUT(b_mach, int32_t, M ? J : 0);
    GSA_PUT(b_fperm, int32_t, I);
    GSA_PUT(tmp_a, int32_t, J);
    GSA_PUT(tmp_b, int32_t, J);
    GSA_PUT(cstart, int64_t, J);
    GSA_PUT(cend, int64_t, J);
    GSA_PUT(mfree, int64_t, M);
    GSA_PUT(dlfree, int64_t, M);
    GSA_PUT(copy_n, int32_t, F);
    GSA_PUT(copy, gsa_copy, p->copy_cap);
    GSA_PUT(icache, gsa_icache, I);
    GSA_PUT(pt, int64_t, p->prof_cap);
    GSA_PUT(pf, int32_t, p->prof_cap);
    const int64_t H = p->kind == 0 && (flags & GSA_WS_MACHINES) ? 1 : 0;
    GSA_PUT(mjobs, int32_t, H * J);
    GSA_PUT(moff, int32_t, H * (M + 1));
    GSA_PUT(mend, int64_t, H * 2 * J);
    GSA_PUT(mdl, int64_t, H * 2 * I);
    GSA_PUT(mxf, int64_t, H * I);
    w->rounds = 0;
    const int64_t E = p->kind == 0 && (flags & GSA_WS_EVENTS) ? 1 : 0;
    GSA_PUT(eprev, int32_t, E * J);
    GSA_PUT(enext, int32_t, E * J);
    GSA_PUT(elist, int32_t, E * J);
    GSA_PUT(ehead, int32_t, E * M);
    GSA_PUT(eheap, int32_t, E * J);
    GSA_PUT(estamp, int64_t, E * J);
    GSA_PUT(elink, int64_t, E * J);
    GSA_PUT(edl, int64_t, E * I);
    GSA_PUT(exf, int64_t, E * I);
    GSA_PUT(evsz, int64_t, E * I);
    if (!E)
        w->ehead = (int32_t *)0;
    w->eserial = w->eflow = w->exfer = w->evol = 0;
    w->en = w->evalid = w->enopush = w->npend = 0;
#undef GSA_PUT
    return at;
}

#endif
