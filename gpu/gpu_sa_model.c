/* gpu_sa_model.c — the load models of Skrinarova & Povinsky 2019, section 8:
 * model #1 loads each machine with about 4 jobs and 16 files, model #2
 * with about 16 jobs and 32 files; machines differ in speed, latency and
 * bandwidth. The paper does not publish its generator, so these are our
 * distributions (all uniform, drawn from one Philox stream keyed by the
 * seed, in the order written here; time unit: the paper's "time units"):
 *
 *  - J = 4M (model #1) or 16M (#2) jobs, F = 16M or 32M files;
 *  - machine speed: 500, 1000, 1500 or 2000 operations per time unit;
 *  - sites of 16 consecutive machines; latency 1..5 within a site, 10..50
 *    across; bandwidth 64..256 size units per time unit within a site,
 *    8..32 across; both symmetric;
 *  - job length: 200 000..1 800 000 operations (200..1800 time units at
 *    speed 1000), so Cmax lands in the range of the paper's Table 3;
 *  - file size: 1..1000 size units;
 *  - 20 % of the files are produced by a job (uniform); the others have
 *    1..3 initial mirrors on distinct machines, each existing from time 0,
 *    or with probability 0.2 from 1..200 (a copy still being made);
 *  - each job reads 1..4 distinct files, none produced by itself or by a
 *    later job (so job numbers are a topological order);
 *  - with probability 0.05 a job also depends on one earlier job.
 */
#include "gpu_philox.h"
#include "gpu_sa.h"

#include "eng_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t uniform(gpu_philox_stream *s, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)(hi - lo + 1);
    uint64_t x = ((uint64_t)gpu_philox_next(s) << 32) | gpu_philox_next(s);
    return lo + (int64_t)(x % span);
}

static bool coin(gpu_philox_stream *s, double p)
{
    return gpu_philox_uniform(s) < p;
}

void gpu_sa_model_fini(gpu_sa_model *m)
{
    if (!m)
        return;
    free(m->mem);
    memset(m, 0, sizeof *m);
}

int gpu_sa_model_generate(int model, int32_t machines, uint64_t seed, gpu_sa_model *out, char *err,
                          size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (model != 1 && model != 2) {
        snprintf(err, errlen, "model: expected 1 or 2, got %d", model);
        return ENG_INVAL;
    }
    if (machines < 1 || machines > 16384) {
        snprintf(err, errlen, "machines: expected 1..16384, got %d", machines);
        return ENG_INVAL;
    }
    const int64_t M = machines, J = (model == 1 ? 4 : 16) * M, F = (model == 1 ? 16 : 32) * M;
    const int64_t max_in = 4 * J, max_mir = 3 * F, max_dep = J;
    size_t bytes = sizeof(int64_t) * (size_t)(M + J + F + max_mir) +
                   sizeof(int32_t) * (size_t)(2 * M * M + (F + 1) + max_mir + F + (J + 1) + max_in +
                                              (J + 1) + max_dep) +
                   64;
    char *mem = calloc(1, bytes);
    if (!mem) {
        snprintf(err, errlen, "out of memory (%zu bytes for model #%d, %d machines)", bytes, model,
                 machines);
        return ENG_NOMEM;
    }
    char *at = mem;
#define TAKE(T, n) ((T *)(void *)((at += sizeof(T) * (size_t)(n)) - sizeof(T) * (size_t)(n)))
    int64_t *speed = TAKE(int64_t, M);
    int64_t *ops = TAKE(int64_t, J);
    int64_t *fsize = TAKE(int64_t, F);
    int64_t *mir_t = TAKE(int64_t, max_mir);
    int32_t *lat = TAKE(int32_t, M * M);
    int32_t *bw = TAKE(int32_t, M * M);
    int32_t *mir_off = TAKE(int32_t, F + 1);
    int32_t *mir_m = TAKE(int32_t, max_mir);
    int32_t *producer = TAKE(int32_t, F);
    int32_t *in_off = TAKE(int32_t, J + 1);
    int32_t *in_file = TAKE(int32_t, max_in);
    int32_t *dep_off = TAKE(int32_t, J + 1);
    int32_t *dep_job = TAKE(int32_t, max_dep);
#undef TAKE

    gpu_philox_stream s;
    gpu_philox_stream_init(&s, seed, 0x4D4F444Cu, (uint32_t)model);
    for (int64_t m = 0; m < M; m++)
        speed[m] = 500 * uniform(&s, 1, 4);
    for (int64_t a = 0; a < M; a++) {
        lat[a * M + a] = 0;
        bw[a * M + a] = 1;
        for (int64_t b = a + 1; b < M; b++) {
            bool same = a / 16 == b / 16;
            int32_t l = (int32_t)(same ? uniform(&s, 1, 5) : uniform(&s, 10, 50));
            int32_t w = (int32_t)(same ? uniform(&s, 64, 256) : uniform(&s, 8, 32));
            lat[a * M + b] = lat[b * M + a] = l;
            bw[a * M + b] = bw[b * M + a] = w;
        }
    }
    for (int64_t j = 0; j < J; j++)
        ops[j] = uniform(&s, 200000, 1800000);
    int32_t n_mir = 0;
    for (int64_t f = 0; f < F; f++) {
        fsize[f] = uniform(&s, 1, 1000);
        mir_off[f] = n_mir;
        if (coin(&s, 0.2)) {
            producer[f] = (int32_t)uniform(&s, 0, J - 1);
            continue;
        }
        producer[f] = -1;
        int64_t k = uniform(&s, 1, M < 3 ? M : 3);
        for (int64_t i = 0; i < k; i++) {
            int32_t m;
            bool dup;
            do { /* distinct machines */
                m = (int32_t)uniform(&s, 0, M - 1);
                dup = false;
                for (int32_t x = mir_off[f]; x < n_mir; x++)
                    dup = dup || mir_m[x] == m;
            } while (dup);
            mir_m[n_mir] = m;
            mir_t[n_mir] = coin(&s, 0.2) ? uniform(&s, 1, 200) : 0;
            n_mir++;
        }
    }
    mir_off[F] = n_mir;
    int32_t n_in = 0, n_dep = 0;
    for (int64_t j = 0; j < J; j++) {
        in_off[j] = n_in;
        int64_t k = uniform(&s, 1, 4);
        for (int64_t i = 0; i < k; i++) {
            int32_t f, tries = 0;
            bool bad;
            do { /* a file this job may read, not yet in its list */
                f = (int32_t)uniform(&s, 0, F - 1);
                bad = producer[f] >= j;
                for (int32_t x = in_off[j]; x < n_in && !bad; x++)
                    bad = in_file[x] == f;
            } while (bad && ++tries < 1000);
            if (!bad) /* (a tiny platform may offer fewer files than asked) */
                in_file[n_in++] = f;
        }
        dep_off[j] = n_dep;
        if (j > 0 && coin(&s, 0.05))
            dep_job[n_dep++] = (int32_t)uniform(&s, 0, j - 1);
    }
    in_off[J] = n_in;
    dep_off[J] = n_dep;

    out->mem = mem;
    out->grid = (gpu_sa_grid){
        .n_machines = (int32_t)M,
        .n_jobs = (int32_t)J,
        .n_files = (int32_t)F,
        .speed = speed,
        .latency = lat,
        .bandwidth = bw,
        .ops = ops,
        .file_size = fsize,
        .mirror_off = mir_off,
        .mirror_machine = mir_m,
        .mirror_ready = mir_t,
        .producer = producer,
        .input_off = in_off,
        .input_file = in_file,
        .dep_off = dep_off,
        .dep_job = dep_job,
    };
    out->problem = (gpu_sa_problem){.kind = GPU_SA_GRID, .grid = &out->grid, .queue = NULL};
    return ENG_OK;
}
