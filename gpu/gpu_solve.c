/* gpu_solve.c — the one-shot solve, the top of gpu/: resolves the
 * backend, runs the CPU reference itself for "cpu", and for "cuda" a
 * one-slot kernel pool (gpu_pool.c) with one request. Nothing in gpu/
 * calls it.
 */
#include "gpu_solve.h"

#include "gpu_pool.h"

#include "eng_error.h"

#include <string.h>

int gpu_sa_solve(const gpu_sa_problem *p, const gpu_sa_params *par, const char *backend,
                 gpu_sa_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char name[8];
    int rc = gpu_sa_backend_resolve(backend, name, err, errlen);
    if (rc)
        return rc;
    if (strcmp(name, "cpu") == 0)
        return gpu_sa_solve_cpu(p, par, out, err, errlen);
    gpu_pool_config cfg;
    gpu_pool_config_default(&cfg);
    cfg.backend = "cuda";
    cfg.slots = 1;
    gpu_pool *pool = NULL;
    rc = gpu_pool_create(&cfg, &pool, err, errlen);
    int64_t ticket = 0;
    if (!rc)
        rc = gpu_pool_submit(pool, p, par, &ticket, err, errlen);
    if (!rc)
        rc = gpu_pool_wait(pool, ticket, out, err, errlen);
    gpu_pool_destroy(pool);
    return rc;
}
