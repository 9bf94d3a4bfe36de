/* gpu_sa_impl.h — what the files of gpu/ share behind the public headers:
 * the packed problem (validated, with the derived lists the chains need),
 * the run parameters in integers, the best chain of a run, and the two
 * backends' entry points (the CUDA one is gpu_sa_cuda.cu when CUDA is
 * built, else the gpu_sa_nocuda.c stub answering "not available"). Host
 * code only; plain C with C linkage.
 */
#ifndef GPU_SA_IMPL_H
#define GPU_SA_IMPL_H

#include "gpu_sa.h"
#include "gpu_sa_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A validated problem in one block (see gsa_header), plus the bounds that
 * prove its energies fit in 64 bits. */
typedef struct gsa_packed {
    unsigned char *blob; /* 8-byte aligned, `bytes` long; owned */
    size_t bytes;
    gsa_prob view;
    double ub_time; /* no decoded time exceeds this */
    double ub_xfer; /* nor the sum of download durations */
    double ub_vol;  /* nor the volume downloaded */
    double sum_waited;
    double bytes_per_eval; /* estimated memory traffic of one decoding */
} gsa_packed;

int gsa_pack(const gpu_sa_problem *p, gsa_packed *out, char *err, size_t errlen);
void gsa_packed_fini(gsa_packed *pk);

/* Parameters as every chain sees them; checks that energies cannot
 * overflow with these weights. */
int gsa_run_make(const gsa_packed *pk, const gpu_sa_params *par, gsa_run *run, char *err,
                 size_t errlen);

/* The best chain of a run: its summary and its best candidate (arrays
 * malloc'ed, sizes J, J (grid) and I (grid)). */
typedef struct gsa_best {
    int32_t chain;
    gsa_chain_out out;
    int64_t evaluations; /* over all chains */
    int32_t *order, *mach, *fperm;
} gsa_best;

void gsa_best_fini(gsa_best *b);

/* Runs every chain on the CPU, one after another. */
int gsa_cpu_run(const gsa_packed *pk, const gsa_run *run, gsa_best *best, char *err, size_t errlen);

/* Decodes the best candidate with the reference decoder into a result
 * (arrays allocated); ENG_INVARIANT when the energy differs from the one
 * the backend reported (a device computing other bits than the reference). */
int gsa_result_build(const gsa_packed *pk, const gsa_run *run, const gsa_best *best,
                     const char *backend, double seconds, gpu_sa_result *out, char *err,
                     size_t errlen);

/* Monotonic wall clock in seconds. */
double gsa_now(void);

/* Writes the message into err (when err and errlen) and returns code: the
 * one error helper of gpu/ (gpu_sa.c, the bottom layer). */
int gsa_fail(char *err, size_t errlen, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- CUDA backend ------------------------------------------------------ */

/* 1 when built and a device is usable; 0 with the reason otherwise. */
int gsa_cuda_probe(char *why, size_t len);

/* Name and peak memory bandwidth of the device in use. */
int gsa_cuda_device_info(char *name, size_t len, double *peak_bytes_per_s);

/* A device context with `slots` independent streams, each with device
 * buffers kept (and grown) across requests. */
typedef struct gsa_cuda gsa_cuda;

int gsa_cuda_create(int slots, gsa_cuda **out, char *err, size_t errlen);
void gsa_cuda_destroy(gsa_cuda *c);

/* Queues a run on the slot's stream and returns at once. The packed problem
 * is copied to pinned memory, so pk may be freed after the call. */
int gsa_cuda_launch(gsa_cuda *c, int slot, const gsa_packed *pk, const gsa_run *run, char *err,
                    size_t errlen);

/* Waits for the slot's run and fetches its best chain. */
int gsa_cuda_collect(gsa_cuda *c, int slot, gsa_best *best, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
