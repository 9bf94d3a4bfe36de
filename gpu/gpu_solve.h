/* gpu_solve.h — the one-shot solve: one problem annealed on the named
 * backend, the top of gpu/ (above the kernel pool, gpu_pool.h, which a
 * simulation that refines at every scheduling point uses directly).
 */
#ifndef GPU_SOLVE_H
#define GPU_SOLVE_H

#include "gpu_sa.h"

#include <stddef.h>

/* Runs the annealing on the named backend (auto|cpu|cuda, NULL = auto):
 * the CPU reference for cpu, a one-slot kernel pool for cuda. Fills out;
 * 0, or ENG_INVAL / ENG_RANGE / ENG_UNSUPPORTED / ENG_NOMEM with the
 * message in err. */
int gpu_sa_solve(const gpu_sa_problem *p, const gpu_sa_params *par, const char *backend,
                 gpu_sa_result *out, char *err, size_t errlen);

#endif
