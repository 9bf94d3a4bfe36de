/* fuzz_swf.c — libFuzzer target: the SWF reader (plain and gzip, strict and
 * lenient) on arbitrary bytes. The reader takes a path, so each input is
 * written to a file in the fuzzer's temporary folder. Anything but a clean
 * ENG_OK or an error code with a message is a finding (crashes, leaks and
 * undefined behaviour are caught by the sanitizers). */
#include "eng_swf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[256];
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/batchlab-fuzz-swf.%ld", dir ? dir : "/tmp", (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    for (int lenient = 0; lenient < 2; lenient++) {
        eng_diag d;
        eng_diag_clear(&d);
        eng_workload *w = NULL;
        eng_swf_read_opts o = {.lenient = lenient};
        int rc = eng_swf_read(path, &o, &w, &d);
        if (rc == ENG_OK) {
            if (!w)
                abort();
            /* The reader promises submit order, jobs of unknown submit
             * time (-1) last (eng_swf.h). */
            for (size_t i = 1; i < w->n_jobs; i++) {
                double prev = w->jobs[i - 1].submit_s, cur = w->jobs[i].submit_s;
                if (prev < 0 ? cur >= 0 : cur >= 0 && cur < prev)
                    abort();
            }
            eng_workload_destroy(w);
        } else if (w || d.code == 0 || !d.msg[0]) {
            abort(); /* an error must come with a message and no workload */
        }
    }
    return 0;
}
