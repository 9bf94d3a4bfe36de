/* gpu_pool.c — requests, slots and the fall-back to the CPU reference (see
 * gpu_pool.h). The device side (streams, buffers kept per slot, kernels) is
 * gpu_sa_cuda.cu; this file only decides what runs where and keeps each
 * request's outcome until it is waited for.
 *
 * Invariants: a request is FREE, QUEUED (CPU: runs when waited for),
 * RUNNING on exactly one slot (CUDA), DONE or FAILED; slot_ticket[s] names
 * the request running on slot s (0: none). Once the device failed the pool
 * holds no device resource and every request runs on the CPU.
 */
#include "gpu_pool.h"
#include "gpu_sa_impl.h"

#include "eng_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum req_state { REQ_FREE = 0, REQ_QUEUED, REQ_RUNNING, REQ_DONE, REQ_FAILED } req_state;

typedef struct req {
    int64_t ticket;
    req_state state;
    int slot;
    double t_submit;
    gsa_packed pk;
    gsa_run run;
    gpu_sa_result res;
    int rc;
    char msg[512];
} req;

struct gpu_pool {
    char backend[8];
    char failure[512];
    int32_t slots, fail_after;
    int64_t n_started;
    bool failing; /* inside device_failed */
    gsa_cuda *cuda;
    req *reqs;
    size_t n_reqs;
    int64_t next_ticket;
    int64_t slot_ticket[64];
};

void gpu_pool_config_default(gpu_pool_config *cfg)
{
    cfg->backend = NULL;
    cfg->slots = 4;
    cfg->fail_after = 0;
}

int gpu_pool_create(const gpu_pool_config *cfg, gpu_pool **out, char *err, size_t errlen)
{
    *out = NULL;
    gpu_pool_config def;
    if (!cfg) {
        gpu_pool_config_default(&def);
        cfg = &def;
    }
    if (cfg->slots < 1 || cfg->slots > 64)
        return gsa_fail(err, errlen, ENG_INVAL, "pool: slots: expected 1..64, got %d", cfg->slots);
    if (cfg->fail_after < 0)
        return gsa_fail(err, errlen, ENG_INVAL, "pool: fail_after: expected >= 0");
    gpu_pool *p = calloc(1, sizeof *p);
    if (!p)
        return gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
    int rc = gpu_sa_backend_resolve(cfg->backend, p->backend, err, errlen);
    if (!rc && strcmp(p->backend, "cuda") == 0)
        rc = gsa_cuda_create(cfg->slots, &p->cuda, err, errlen);
    if (rc) {
        free(p);
        return rc;
    }
    p->slots = cfg->slots;
    p->fail_after = cfg->fail_after;
    *out = p;
    return ENG_OK;
}

const char *gpu_pool_backend(const gpu_pool *pool)
{
    return pool->backend;
}

const char *gpu_pool_failure(const gpu_pool *pool)
{
    return pool->failure;
}

int32_t gpu_pool_pending(const gpu_pool *pool)
{
    int32_t n = 0;
    for (size_t i = 0; i < pool->n_reqs; i++)
        n += pool->reqs[i].state != REQ_FREE;
    return n;
}

static req *find(gpu_pool *pool, int64_t ticket)
{
    for (size_t i = 0; i < pool->n_reqs; i++)
        if (pool->reqs[i].state != REQ_FREE && pool->reqs[i].ticket == ticket)
            return &pool->reqs[i];
    return NULL;
}

static void req_release(req *r)
{
    gsa_packed_fini(&r->pk);
    gpu_sa_result_fini(&r->res);
    memset(r, 0, sizeof *r);
}

static void req_fail(req *r, int rc, const char *msg)
{
    r->state = REQ_FAILED;
    r->rc = rc ? rc : ENG_IO;
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    gsa_packed_fini(&r->pk);
}

/* Is the next request to start the one the test hook fails? */
static bool injected(gpu_pool *pool)
{
    return pool->fail_after > 0 && !pool->failure[0] && pool->n_started >= pool->fail_after;
}

static void finish_cuda(gpu_pool *pool, req *r);

/* The device failed: fail what runs on it, release it, go on on the CPU. */
static void device_failed(gpu_pool *pool, const char *why)
{
    if (!pool->failure[0])
        snprintf(pool->failure, sizeof pool->failure, "%s", why);
    pool->failing = true;
    for (int s = 0; s < pool->slots; s++) {
        req *r = pool->slot_ticket[s] ? find(pool, pool->slot_ticket[s]) : NULL;
        if (r && r->state == REQ_RUNNING)
            finish_cuda(pool, r); /* its own outcome: it may still have completed */
        pool->slot_ticket[s] = 0;
    }
    gsa_cuda_destroy(pool->cuda);
    pool->cuda = NULL;
    pool->failing = false;
    snprintf(pool->backend, sizeof pool->backend, "cpu");
}

static void finish_cuda(gpu_pool *pool, req *r)
{
    char msg[512];
    gsa_best best;
    int rc = gsa_cuda_collect(pool->cuda, r->slot, &best, msg, sizeof msg);
    pool->slot_ticket[r->slot] = 0;
    if (!rc)
        rc = gsa_result_build(&r->pk, &r->run, &best, "cuda", gsa_now() - r->t_submit, &r->res, msg,
                              sizeof msg);
    gsa_best_fini(&best);
    if (rc) {
        req_fail(r, rc, msg);
        if (pool->cuda && !pool->failing && rc != ENG_NOMEM)
            device_failed(pool, msg);
        return;
    }
    gsa_packed_fini(&r->pk);
    r->state = REQ_DONE;
}

static void run_cpu(gpu_pool *pool, req *r)
{
    char msg[512];
    if (injected(pool)) {
        pool->n_started++;
        snprintf(pool->failure, sizeof pool->failure, "injected device failure (request %lld)",
                 (long long)r->ticket);
        req_fail(r, ENG_IO, pool->failure);
        return;
    }
    pool->n_started++;
    gsa_best best;
    double t0 = gsa_now();
    int rc = gsa_cpu_run(&r->pk, &r->run, &best, msg, sizeof msg);
    if (!rc)
        rc = gsa_result_build(&r->pk, &r->run, &best, "cpu", gsa_now() - t0, &r->res, msg,
                              sizeof msg);
    gsa_best_fini(&best);
    if (rc) {
        req_fail(r, rc, msg);
        return;
    }
    gsa_packed_fini(&r->pk);
    r->state = REQ_DONE;
}

/* A free slot, after collecting the oldest running request if need be. */
static int free_slot(gpu_pool *pool)
{
    int oldest = -1;
    for (int s = 0; s < pool->slots; s++) {
        if (!pool->slot_ticket[s])
            return s;
        if (oldest < 0 || pool->slot_ticket[s] < pool->slot_ticket[oldest])
            oldest = s;
    }
    finish_cuda(pool, find(pool, pool->slot_ticket[oldest]));
    return pool->cuda ? oldest : -1;
}

int gpu_pool_submit(gpu_pool *pool, const gpu_sa_problem *prob, const gpu_sa_params *par,
                    int64_t *ticket, char *err, size_t errlen)
{
    *ticket = 0;
    gsa_packed pk;
    gsa_run run;
    int rc = gsa_pack(prob, &pk, err, errlen);
    if (!rc)
        rc = gsa_run_make(&pk, par, &run, err, errlen);
    if (rc) {
        gsa_packed_fini(&pk);
        return rc;
    }
    size_t i = 0;
    while (i < pool->n_reqs && pool->reqs[i].state != REQ_FREE)
        i++;
    if (i == pool->n_reqs) {
        req *grown = realloc(pool->reqs, (pool->n_reqs + 1) * sizeof *grown);
        if (!grown) {
            gsa_packed_fini(&pk);
            return gsa_fail(err, errlen, ENG_NOMEM, "out of memory");
        }
        pool->reqs = grown;
        memset(&pool->reqs[pool->n_reqs++], 0, sizeof *grown);
    }
    int64_t t = ++pool->next_ticket;
    if (pool->cuda) {
        int slot = free_slot(pool); /* may fall back to the CPU */
        if (slot >= 0) {
            req *r = &pool->reqs[i];
            r->ticket = t;
            r->pk = pk;
            r->run = run;
            r->slot = slot;
            r->t_submit = gsa_now();
            char msg[512];
            if (injected(pool)) {
                snprintf(msg, sizeof msg, "injected device failure (request %lld)", (long long)t);
                rc = ENG_IO;
            } else {
                rc = gsa_cuda_launch(pool->cuda, slot, &pk, &run, msg, sizeof msg);
            }
            pool->n_started++;
            if (rc) {
                req_fail(r, rc, msg);
                if (rc != ENG_RANGE) /* a request too large for the device is not a failure */
                    device_failed(pool, msg);
            } else {
                r->state = REQ_RUNNING;
                pool->slot_ticket[slot] = t;
            }
            *ticket = t;
            return ENG_OK;
        }
    }
    req *r = &pool->reqs[i];
    r->ticket = t;
    r->pk = pk;
    r->run = run;
    r->state = REQ_QUEUED;
    *ticket = t;
    return ENG_OK;
}

int gpu_pool_wait(gpu_pool *pool, int64_t ticket, gpu_sa_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    req *r = find(pool, ticket);
    if (!r)
        return gsa_fail(err, errlen, ENG_INVAL, "pool: no pending request %lld", (long long)ticket);
    if (r->state == REQ_QUEUED)
        run_cpu(pool, r);
    else if (r->state == REQ_RUNNING)
        finish_cuda(pool, r);
    int rc = ENG_OK;
    if (r->state == REQ_DONE) {
        *out = r->res;
        memset(&r->res, 0, sizeof r->res);
    } else {
        rc = gsa_fail(err, errlen, r->rc, "%s", r->msg);
    }
    req_release(r);
    return rc;
}

void gpu_pool_destroy(gpu_pool *pool)
{
    if (!pool)
        return;
    for (int s = 0; s < pool->slots && pool->cuda; s++) {
        req *r = pool->slot_ticket[s] ? find(pool, pool->slot_ticket[s]) : NULL;
        if (r && r->state == REQ_RUNNING)
            finish_cuda(pool, r);
    }
    for (size_t i = 0; i < pool->n_reqs; i++)
        req_release(&pool->reqs[i]);
    free(pool->reqs);
    gsa_cuda_destroy(pool->cuda);
    free(pool);
}
