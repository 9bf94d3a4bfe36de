/* gpu_sa_nocuda.c — the CUDA backend's stub, built instead of
 * gpu_sa_cuda.cu when CUDA is not (BATCHLAB_CUDA=OFF, or AUTO without a
 * toolkit): every entry point answers "not available" (ENG_UNSUPPORTED),
 * so a request for cuda fails loudly and auto falls back to the CPU
 * reference. The libuv habit of per-platform stubs. */
#include "gpu_sa_impl.h"

#include "eng_error.h"

#include <stdio.h>
#include <string.h>

static const char why_not[] =
    "this batchlab was built without CUDA (BATCHLAB_CUDA=OFF, or no toolkit found)";

int gsa_cuda_probe(char *why, size_t len)
{
    if (why && len)
        snprintf(why, len, "%s", why_not);
    return 0;
}

int gsa_cuda_device_info(char *name, size_t len, double *peak_bytes_per_s)
{
    if (name && len)
        snprintf(name, len, "none");
    *peak_bytes_per_s = 0;
    return ENG_UNSUPPORTED;
}

int gsa_cuda_create(int slots, gsa_cuda **out, char *err, size_t errlen)
{
    (void)slots;
    *out = NULL;
    snprintf(err, errlen, "backend cuda not available: %s", why_not);
    return ENG_UNSUPPORTED;
}

void gsa_cuda_destroy(gsa_cuda *c)
{
    (void)c;
}

int gsa_cuda_launch(gsa_cuda *c, int slot, const gsa_packed *pk, const gsa_run *run, char *err,
                    size_t errlen)
{
    (void)c, (void)slot, (void)pk, (void)run;
    snprintf(err, errlen, "backend cuda not available: %s", why_not);
    return ENG_UNSUPPORTED;
}

int gsa_cuda_collect(gsa_cuda *c, int slot, gsa_best *best, char *err, size_t errlen)
{
    (void)c, (void)slot;
    memset(best, 0, sizeof *best);
    snprintf(err, errlen, "backend cuda not available: %s", why_not);
    return ENG_UNSUPPORTED;
}
