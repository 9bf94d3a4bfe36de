/* gpu_backend.c — which backend runs the annealing: whether CUDA is built
 * and a device usable, the device's name and bandwidth, and the resolution
 * of a request (auto|cpu|cuda) to "cpu" or "cuda".
 *
 * Above the CUDA backend (or its stub), below the kernel pool and the
 * one-shot solve. It reads no environment: the command line reads
 * BATCHLAB_SA_BACKEND and passes its value down as the request.
 */
#include "gpu_sa_impl.h"

#include "eng_error.h"

#include <stdio.h>
#include <string.h>

bool gpu_sa_cuda_built(void)
{
    return GPU_SA_HAVE_CUDA != 0;
}

int gpu_sa_cuda_available(char *why, size_t len)
{
    return gsa_cuda_probe(why, len);
}

int gpu_sa_cuda_device(char *name, size_t len, double *peak_bytes_per_s)
{
    return gsa_cuda_device_info(name, len, peak_bytes_per_s);
}

int gpu_sa_backend_resolve(const char *request, char name[8], char *err, size_t errlen)
{
    const char *want = request && *request ? request : "auto";
    if (strcmp(want, "cpu") == 0) {
        snprintf(name, 8, "cpu");
        return ENG_OK;
    }
    if (strcmp(want, "cuda") != 0 && strcmp(want, "auto") != 0)
        return gsa_fail(err, errlen, ENG_INVAL, "backend '%s': expected auto, cpu or cuda", want);
    char why[256];
    if (gsa_cuda_probe(why, sizeof why)) {
        snprintf(name, 8, "cuda");
        return ENG_OK;
    }
    if (strcmp(want, "auto") == 0) {
        snprintf(name, 8, "cpu");
        return ENG_OK;
    }
    return gsa_fail(err, errlen, ENG_UNSUPPORTED, "backend cuda not available: %s", why);
}
