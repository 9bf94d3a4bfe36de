/* gpu_pool.h — the kernel pool: refinement requests submitted and waited
 * for, several in flight at once, on a backend chosen once per pool.
 *
 * With CUDA, the pool owns `slots` streams; each slot keeps its device
 * buffers (problem, chain workspaces, per-chain summaries, the best
 * candidate) and pinned host buffers alive across requests, growing them
 * only when a larger request comes, so a simulation that refines its queue
 * at every scheduling point pays no allocation per request. A submission
 * packs and validates the problem on the host, copies it to the slot and
 * queues the kernels on the slot's stream, and returns at once; requests
 * on different slots run concurrently (different problems, or the same
 * problem with other chains). When every slot is busy, submit first
 * collects the oldest request (its result is kept until waited for).
 * With the CPU backend a request runs when it is waited for.
 *
 * Errors. A bad problem or parameters fail the submission (ENG_INVAL, the
 * pool is unchanged); a request needing more device memory than is free
 * fails alone (ENG_RANGE: use fewer chains). A device error fails the request it hit (and those
 * in flight with it) with its message, never a fabricated result; the pool
 * then releases the device and runs every later request on the CPU
 * reference, and gpu_pool_backend() says "cpu" (gpu_pool_failure() keeps
 * the reason). Results are identical whichever backend produced them.
 *
 * A pool is used by one thread at a time. Destroying it waits for the
 * requests in flight and frees their results.
 */
#ifndef GPU_POOL_H
#define GPU_POOL_H

#include "gpu_sa.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gpu_pool gpu_pool;

typedef struct gpu_pool_config {
    const char *backend; /* auto|cpu|cuda; NULL = auto */
    int32_t slots;       /* requests running at once (1..64, default 4) */
    /* Testing the error path: every request after the first fail_after
     * ones fails as a device error would (0 = never). */
    int32_t fail_after;
} gpu_pool_config;

void gpu_pool_config_default(gpu_pool_config *cfg);

/* 0, ENG_INVAL (bad configuration), ENG_UNSUPPORTED (cuda requested and not
 * available: the message says why) or ENG_NOMEM. */
int gpu_pool_create(const gpu_pool_config *cfg, gpu_pool **out, char *err, size_t errlen);

/* NULL-safe. */
void gpu_pool_destroy(gpu_pool *pool);

/* "cpu" or "cuda": where the next request will run. */
const char *gpu_pool_backend(const gpu_pool *pool);

/* "" while the device works; otherwise why the pool went back to the CPU. */
const char *gpu_pool_failure(const gpu_pool *pool);

/* Requests submitted and not yet waited for. */
int32_t gpu_pool_pending(const gpu_pool *pool);

/* Queues a refinement. The problem's arrays are copied: the caller may
 * free them at once. *ticket identifies the request for gpu_pool_wait. */
int gpu_pool_submit(gpu_pool *pool, const gpu_sa_problem *prob, const gpu_sa_params *par,
                    int64_t *ticket, char *err, size_t errlen);

/* Waits for a request and moves its result into out (gpu_sa_result_fini it).
 * ENG_INVAL for an unknown or already waited ticket; the request's own
 * error otherwise. */
int gpu_pool_wait(gpu_pool *pool, int64_t ticket, gpu_sa_result *out, char *err, size_t errlen);

#endif
