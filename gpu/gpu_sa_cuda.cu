/* gpu_sa_cuda.cu — the CUDA backend, two kernels over the code of
 * gpu_sa_chain.c — the very code the CPU reference runs, compiled here
 * into the kernels' translation unit — each chain on its
 * own workspace in device memory, then a best-of reduction (lowest energy,
 * ties to the lowest chain) and a copy of the best chain's candidate back
 * to the host:
 *
 *  - parallel chains (gsa_kernel_chains): one thread per independent
 *    chain, each running gsa_chain_run sequentially; fills the device once
 *    a request has a few hundred chains;
 *  - parallel machines (gsa_kernel_machines): Skrinarova & Povinsky 2019's
 *    Algorithm 1 — one thread per machine decodes that machine's jobs, in
 *    rounds until nothing changes (gsa_mdec_machine); one block per chain,
 *    its thread 0 running the chain's moves and acceptance
 *    (gsa_chain_begin / gsa_chain_next) between decodings. Block size: the
 *    paper used blocks of 16 threads; one decoding here is a sequence of
 *    rounds, each ending in a barrier over all machines, and a barrier
 *    within one block (__syncthreads) costs far less than one across
 *    blocks (a grid-wide barrier or a launch per round), so a chain takes
 *    one block of GSA_MACHINE_THREADS threads (the machine count rounded up
 *    to a warp, at most 1024 or what the kernel's registers allow: 256 on
 *    an H100), thread t taking machines t, t + blockDim.x, ...
 *
 * Both give the CPU reference's bits: integer times, integer acceptance,
 * one Philox stream per chain, and the machine-by-machine decoding proven
 * equal to the one-pass decoder (gpu_sa_chain.c).
 *
 * Memory layout: per-machine and per-item loops (lists, round starts, the
 * final reduction) have neighbouring threads on neighbouring words; the
 * job and file rows a machine's thread walks are gathers decided by the
 * candidate (its jobs are anywhere in the job arrays), and a chain's
 * workspace is one block of arrays per chain, so in the chains kernel
 * neighbouring threads touch words one workspace apart.
 *
 * Slots (the kernel pool's device side): each slot owns a stream and its
 * buffers — the packed problem, the chain workspaces, the
 * per-chain summaries, the best candidate — on the device and pinned
 * staging buffers on the host. Buffers are kept across requests and only
 * grow. A launch stages the problem into pinned memory, then queues on
 * the slot's stream: upload, chains kernel, reduction kernel, download;
 * nothing blocks until gsa_cuda_collect synchronises the slot's stream.
 *
 * Errors: every CUDA call is checked; a failure returns ENG_IO with the
 * call and CUDA's message, and the pool then goes back to the CPU.
 */
#include "gpu_sa_impl.h"

/* The chain, compiled here as device code (see gpu_sa_chain.c). */
#include "gpu_sa_chain.c"

#include "eng_error.h"

#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GSA_THREADS 64
#define GSA_MACHINE_THREADS_MAX 1024

struct gsa_slot {
    cudaStream_t stream;
    bool ready; /* stream created */
    unsigned char *d_blob;
    size_t cap_blob;
    unsigned char *d_ws;
    size_t cap_ws;
    gsa_chain_out *d_out;
    size_t cap_out;
    int32_t *d_best; /* [0] best chain, then order, machine, download order */
    size_t cap_best;
    gsa_chain_out *d_best_out; /* [0] best chain's summary; [1].evaluations: total */
    unsigned char *h_blob;     /* pinned */
    size_t cap_h_blob;
    int32_t *h_best; /* pinned */
    size_t cap_h_best;
    gsa_chain_out *h_best_out; /* pinned, 2 entries */
    int32_t J, I, kind, chains;
    bool launched;
};

struct gsa_cuda {
    int device;
    int n_slots;
    struct gsa_slot slot[64];
};

#define CK(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(err, errlen, "%s: %s", #call, cudaGetErrorString(e_));                        \
            return ENG_IO;                                                                         \
        }                                                                                          \
    } while (0)

__global__ void gsa_kernel_chains(const unsigned char *blob, unsigned char *ws, int64_t ws_bytes,
                                  gsa_run run, gsa_chain_out *out)
{
    int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= run.chains)
        return;
    gsa_prob p;
    gsa_prob_view(blob, &p);
    gsa_ws w;
    gsa_ws_layout(&p, gsa_ws_flags(&run), ws + c * ws_bytes, &w);
    gsa_chain_out o;
    gsa_chain_run(&p, &run, (int32_t)c, &w, &o);
    out[c] = o;
}

/* Each machine's jobs in order, built by the block: counts by atomics,
 * offsets by thread 0, a scatter by atomics (any order), then every
 * machine's thread sorts its own list by position — the lists of
 * gsa_mdec_lists, whatever order the atomics took. */
__device__ void gsa_block_lists(const gsa_prob *p, gsa_ws *w)
{
    const int t = threadIdx.x, nt = blockDim.x;
    for (int32_t m = t; m <= p->M; m += nt)
        w->moff[m] = 0;
    __syncthreads();
    for (int32_t j = t; j < p->J; j += nt)
        atomicAdd(&w->moff[w->mach[j] + 1], 1);
    __syncthreads();
    if (t == 0)
        for (int32_t m = 0; m < p->M; m++)
            w->moff[m + 1] += w->moff[m];
    __syncthreads();
    for (int32_t j = t; j < p->J; j += nt)
        w->mjobs[atomicAdd(&w->moff[w->mach[j]], 1)] = j;
    __syncthreads();
    if (t == 0) {
        for (int32_t m = p->M; m > 0; m--)
            w->moff[m] = w->moff[m - 1];
        w->moff[0] = 0;
    }
    __syncthreads();
    for (int32_t m = t; m < p->M; m += nt) {
        const int32_t a = w->moff[m], b = w->moff[m + 1];
        for (int32_t x = a + 1; x < b; x++) {
            const int32_t j = w->mjobs[x], k = w->pos[j];
            int32_t y = x;
            while (y > a && w->pos[w->mjobs[y - 1]] > k) {
                w->mjobs[y] = w->mjobs[y - 1];
                y--;
            }
            w->mjobs[y] = j;
        }
    }
    __syncthreads();
}

/* One block per chain; blockDim.x a power of two, 32..1024. */
__global__ void gsa_kernel_machines(const unsigned char *blob, unsigned char *ws, int64_t ws_bytes,
                                    gsa_run run, gsa_chain_out *out)
{
    __shared__ int32_t s_from, s_changed;
    __shared__ gsa_chain_out s_out;
    __shared__ long long s_red[4][GSA_MACHINE_THREADS_MAX];
    const int t = threadIdx.x, nt = blockDim.x;
    const int32_t c = blockIdx.x;
    gsa_prob p;
    gsa_prob_view(blob, &p);
    gsa_ws w;
    gsa_ws_layout(&p, GSA_WS_MACHINES, ws + (int64_t)c * ws_bytes, &w);
    gsa_chain_st st; /* thread 0's */
    gsa_eval e;
    int64_t total_rounds = 0;
    if (t == 0)
        s_from = gsa_chain_begin(&p, &run, c, &w, &st);
    __syncthreads();
    while (s_from >= 0) {
        gsa_block_lists(&p, &w);
        gsa_mdec_start(&p, &w, t, nt);
        __syncthreads();
        int32_t g = 1, rounds = 0;
        for (;;) {
            if (t == 0)
                s_changed = 0;
            __syncthreads();
            int ch = 0;
            for (int32_t m = t; m < p.M; m += nt)
                ch |= gsa_mdec_machine(&p, w.mach, w.fperm, w.pos, m, g, &w);
            if (ch)
                s_changed = 1;
            __syncthreads();
            const int done = !s_changed || ++rounds > p.J + 1;
            __syncthreads();
            if (done)
                break;
            g = 1 - g;
        }
        long long cmax = 0, flow = 0, xfer = 0, vol = 0;
        for (int32_t j = t; j < p.J; j += nt) {
            const int64_t end = w.mend[(int64_t)g * p.J + j];
            w.cend[j] = end;
            cmax = end > cmax ? end : cmax;
            flow += end;
        }
        for (int32_t i = t; i < p.I; i += nt) {
            xfer += w.mxf[i];
            if (w.mdl[(int64_t)g * p.I + i] >= 0)
                vol += p.fsize[w.fperm[i]];
        }
        s_red[0][t] = cmax;
        s_red[1][t] = flow;
        s_red[2][t] = xfer;
        s_red[3][t] = vol;
        __syncthreads();
        for (int h = nt / 2; h > 0; h /= 2) {
            if (t < h) {
                if (s_red[0][t + h] > s_red[0][t])
                    s_red[0][t] = s_red[0][t + h];
                s_red[1][t] += s_red[1][t + h];
                s_red[2][t] += s_red[2][t + h];
                s_red[3][t] += s_red[3][t + h];
            }
            __syncthreads();
        }
        if (t == 0) {
            total_rounds += rounds;
            e.cmax = s_red[0][0];
            e.flow = s_red[1][0];
            e.xfer = s_red[2][0];
            e.vol = s_red[3][0];
            gsa_energies(&p, &run, &e);
            s_from = gsa_chain_next(&p, &run, &w, &st, &e, &s_out);
        }
        __syncthreads();
    }
    if (t == 0) {
        s_out.rounds = total_rounds;
        out[c] = s_out;
    }
}

/* One block: the best chain (lowest energy, then lowest number), the sum of
 * evaluations, and the best chain's candidate copied out. */
__global__ void gsa_kernel_best(const unsigned char *blob, const unsigned char *ws,
                                int64_t ws_bytes, const gsa_chain_out *out, int32_t chains,
                                int32_t *best, gsa_chain_out *best_out)
{
    __shared__ int64_t s_energy[256];
    __shared__ int32_t s_chain[256];
    __shared__ long long s_evals[256];
    int t = threadIdx.x;
    int64_t e = GSA_INF;
    int32_t ch = INT32_MAX;
    long long ev = 0;
    for (int32_t c = t; c < chains; c += blockDim.x) {
        ev += out[c].evaluations;
        if (out[c].best_energy < e || (out[c].best_energy == e && c < ch)) {
            e = out[c].best_energy;
            ch = c;
        }
    }
    s_energy[t] = e;
    s_chain[t] = ch;
    s_evals[t] = ev;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if (t < h) {
            s_evals[t] += s_evals[t + h];
            if (s_energy[t + h] < s_energy[t] ||
                (s_energy[t + h] == s_energy[t] && s_chain[t + h] < s_chain[t])) {
                s_energy[t] = s_energy[t + h];
                s_chain[t] = s_chain[t + h];
            }
        }
        __syncthreads();
    }
    int32_t b = s_chain[0];
    gsa_prob p;
    gsa_prob_view(blob, &p);
    gsa_ws w;
    gsa_ws_layout(&p, 0, (unsigned char *)ws + (int64_t)b * ws_bytes, &w);
    int32_t *order = best + 1, *mach = order + p.J, *fperm = mach + p.J;
    for (int32_t j = t; j < p.J; j += blockDim.x) {
        order[j] = w.b_order[j];
        if (p.kind == 0)
            mach[j] = w.b_mach[j];
    }
    if (p.kind == 0)
        for (int32_t i = t; i < p.I; i += blockDim.x)
            fperm[i] = w.b_fperm[i];
    if (t == 0) {
        best[0] = b;
        best_out[0] = out[b];
        best_out[1].evaluations = s_evals[0];
    }
}

/* The probe's answer, computed once (file scope: no guarded statics). */
static int probe_done, probe_ok;
static char probe_reason[256];

extern "C" int gsa_cuda_probe(char *why, size_t len)
{
    int &probed = probe_done, &ok = probe_ok;
    char *reason = probe_reason;
    if (!probed) {
        int n = 0;
        cudaError_t e = cudaGetDeviceCount(&n);
        if (e != cudaSuccess)
            snprintf(reason, sizeof probe_reason, "no usable CUDA device: %s",
                     cudaGetErrorString(e));
        else if (n == 0)
            snprintf(reason, sizeof probe_reason, "no CUDA device");
        else
            ok = 1;
        probed = 1;
    }
    if (!ok && why && len)
        snprintf(why, len, "%s", reason);
    return ok;
}

/* The largest power-of-two block the machine-by-machine kernel can be
 * launched with: GSA_MACHINE_THREADS_MAX, or less where the kernel's
 * registers per thread leave fewer threads to a block (cudaFuncGetAttributes;
 * 256 on an H100 with nvcc 13). */
static unsigned machine_threads_max(void)
{
    static unsigned most;
    if (!most) {
        cudaFuncAttributes a;
        unsigned limit = GSA_MACHINE_THREADS_MAX;
        if (cudaFuncGetAttributes(&a, gsa_kernel_machines) == cudaSuccess &&
            a.maxThreadsPerBlock > 0 && (unsigned)a.maxThreadsPerBlock < limit)
            limit = (unsigned)a.maxThreadsPerBlock;
        most = 32;
        while (most * 2 <= limit)
            most *= 2;
    }
    return most;
}

extern "C" int gsa_cuda_device_info(char *name, size_t len, double *peak_bytes_per_s)
{
    *peak_bytes_per_s = 0;
    if (!gsa_cuda_probe(NULL, 0))
        return ENG_UNSUPPORTED;
    int dev = 0, clock_khz = 0, bus_bits = 0;
    cudaDeviceProp prop;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
        return ENG_UNSUPPORTED;
    if (name && len)
        snprintf(name, len, "%s, machine-by-machine blocks of up to %u threads", prop.name,
                 machine_threads_max());
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
        *peak_bytes_per_s = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0); /* double data rate */
    return ENG_OK;
}

static void slot_free(struct gsa_slot *s)
{
    cudaFree(s->d_blob);
    cudaFree(s->d_ws);
    cudaFree(s->d_out);
    cudaFree(s->d_best);
    cudaFree(s->d_best_out);
    cudaFreeHost(s->h_blob);
    cudaFreeHost(s->h_best);
    cudaFreeHost(s->h_best_out);
    if (s->ready)
        cudaStreamDestroy(s->stream);
    memset(s, 0, sizeof *s);
}

extern "C" void gsa_cuda_destroy(gsa_cuda *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_slots; i++) {
        if (c->slot[i].ready)
            cudaStreamSynchronize(c->slot[i].stream);
        slot_free(&c->slot[i]);
    }
    free(c);
}

extern "C" int gsa_cuda_create(int slots, gsa_cuda **out, char *err, size_t errlen)
{
    *out = NULL;
    char why[256];
    if (!gsa_cuda_probe(why, sizeof why)) {
        snprintf(err, errlen, "backend cuda not available: %s", why);
        return ENG_UNSUPPORTED;
    }
    gsa_cuda *c = (gsa_cuda *)calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    c->n_slots = slots;
    cudaError_t e = cudaGetDevice(&c->device);
    for (int i = 0; i < slots && e == cudaSuccess; i++) {
        e = cudaStreamCreateWithFlags(&c->slot[i].stream, cudaStreamNonBlocking);
        c->slot[i].ready = e == cudaSuccess;
        if (e == cudaSuccess)
            e = cudaMallocHost((void **)&c->slot[i].h_best_out, 2 * sizeof(gsa_chain_out));
    }
    if (e != cudaSuccess) {
        snprintf(err, errlen, "creating CUDA streams: %s", cudaGetErrorString(e));
        gsa_cuda_destroy(c);
        return ENG_IO;
    }
    *out = c;
    return ENG_OK;
}

/* Grows a device buffer to at least `need` bytes (contents not kept). */
static cudaError_t grow_dev(void **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return cudaSuccess;
    cudaFree(*buf);
    *buf = NULL;
    *cap = 0;
    size_t n = need + need / 4;
    cudaError_t e = cudaMalloc(buf, n);
    if (e == cudaSuccess)
        *cap = n;
    return e;
}

static cudaError_t grow_host(void **buf, size_t *cap, size_t need)
{
    if (*cap >= need)
        return cudaSuccess;
    cudaFreeHost(*buf);
    *buf = NULL;
    *cap = 0;
    size_t n = need + need / 4;
    cudaError_t e = cudaMallocHost(buf, n);
    if (e == cudaSuccess)
        *cap = n;
    return e;
}

extern "C" int gsa_cuda_launch(gsa_cuda *c, int slot, const gsa_packed *pk, const gsa_run *run,
                               char *err, size_t errlen)
{
    struct gsa_slot *s = &c->slot[slot];
    const gsa_prob *p = &pk->view;
    if (!gsa_blob_ok(pk->blob, pk->bytes)) {
        snprintf(err, errlen, "not a packed problem (magic or size)");
        return ENG_INVARIANT;
    }
    gsa_ws w;
    int64_t ws_bytes = gsa_ws_layout(p, gsa_ws_flags(run), NULL, &w);
    size_t n_best = 1 + 2 * (size_t)p->J + (size_t)p->I;
    size_t cap_out = s->cap_out;
    size_t need = (size_t)ws_bytes * (size_t)run->chains, free_b = 0, total_b = 0;
    if (need > s->cap_ws && cudaMemGetInfo(&free_b, &total_b) == cudaSuccess &&
        need > free_b + s->cap_ws) {
        snprintf(err, errlen,
                 "%d chains need %.0f MB of device memory (%.2f MB each), %.0f MB are free: "
                 "use fewer chains",
                 run->chains, need / 1e6, ws_bytes / 1e6, (free_b + s->cap_ws) / 1e6);
        return ENG_RANGE;
    }
    CK(grow_dev((void **)&s->d_blob, &s->cap_blob, pk->bytes));
    CK(grow_dev((void **)&s->d_ws, &s->cap_ws, (size_t)ws_bytes * (size_t)run->chains));
    CK(grow_dev((void **)&s->d_out, &cap_out, sizeof(gsa_chain_out) * (size_t)run->chains));
    s->cap_out = cap_out;
    CK(grow_dev((void **)&s->d_best, &s->cap_best, sizeof(int32_t) * n_best));
    if (!s->d_best_out)
        CK(cudaMalloc((void **)&s->d_best_out, 2 * sizeof(gsa_chain_out)));
    CK(grow_host((void **)&s->h_blob, &s->cap_h_blob, pk->bytes));
    CK(grow_host((void **)&s->h_best, &s->cap_h_best, sizeof(int32_t) * n_best));
    memcpy(s->h_blob, pk->blob, pk->bytes);
    CK(cudaMemcpyAsync(s->d_blob, s->h_blob, pk->bytes, cudaMemcpyHostToDevice, s->stream));
    if (run->parallel) {
        unsigned threads = 32, most = machine_threads_max();
        while (threads < (unsigned)p->M && threads < most)
            threads *= 2;
        gsa_kernel_machines<<<(unsigned)run->chains, threads, 0, s->stream>>>(
            s->d_blob, s->d_ws, ws_bytes, *run, s->d_out);
    } else {
        unsigned blocks = (unsigned)((run->chains + GSA_THREADS - 1) / GSA_THREADS);
        gsa_kernel_chains<<<blocks, GSA_THREADS, 0, s->stream>>>(s->d_blob, s->d_ws, ws_bytes, *run,
                                                                 s->d_out);
    }
    CK(cudaGetLastError());
    gsa_kernel_best<<<1, 256, 0, s->stream>>>(s->d_blob, s->d_ws, ws_bytes, s->d_out, run->chains,
                                              s->d_best, s->d_best_out);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(s->h_best, s->d_best, sizeof(int32_t) * n_best, cudaMemcpyDeviceToHost,
                       s->stream));
    CK(cudaMemcpyAsync(s->h_best_out, s->d_best_out, 2 * sizeof(gsa_chain_out),
                       cudaMemcpyDeviceToHost, s->stream));
    s->J = p->J;
    s->I = p->I;
    s->kind = p->kind;
    s->chains = run->chains;
    s->launched = true;
    return ENG_OK;
}

extern "C" int gsa_cuda_collect(gsa_cuda *c, int slot, gsa_best *best, char *err, size_t errlen)
{
    memset(best, 0, sizeof *best);
    struct gsa_slot *s = &c->slot[slot];
    if (!s->launched) {
        snprintf(err, errlen, "slot %d: nothing launched", slot);
        return ENG_INVARIANT;
    }
    s->launched = false;
    CK(cudaStreamSynchronize(s->stream));
    size_t J = (size_t)s->J, I = (size_t)s->I;
    best->chain = s->h_best[0];
    best->out = s->h_best_out[0];
    best->evaluations = s->h_best_out[1].evaluations;
    best->order = (int32_t *)malloc((J + 1) * sizeof(int32_t));
    if (s->kind == 0) {
        best->mach = (int32_t *)malloc((J + 1) * sizeof(int32_t));
        best->fperm = (int32_t *)malloc((I + 1) * sizeof(int32_t));
    }
    if (!best->order || (s->kind == 0 && (!best->mach || !best->fperm))) {
        gsa_best_fini(best);
        snprintf(err, errlen, "out of memory");
        return ENG_NOMEM;
    }
    memcpy(best->order, s->h_best + 1, J * sizeof(int32_t));
    if (s->kind == 0) {
        memcpy(best->mach, s->h_best + 1 + J, J * sizeof(int32_t));
        memcpy(best->fperm, s->h_best + 1 + 2 * J, I * sizeof(int32_t));
    }
    return ENG_OK;
}
