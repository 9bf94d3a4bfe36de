/* fuzz_resv.c — libFuzzer target: the reservation file's reader, its
 * repeats on a log's calendar (UTC and a zone with summer time), the union
 * of overlapping maintenances, and the windows on a platform of 4 hosts,
 * on arbitrary bytes. Anything but ENG_OK or an error code with a message
 * is a finding, and so are limit windows out of order or overlapping after
 * the expansion, and a maintenance window that still overlaps another. */
#include "eng_platform.h"
#include "eng_resv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static eng_platform *four_hosts(void)
{
    static eng_platform *p;
    if (!p) {
        eng_host_desc d[4];
        static const char *names[] = {"h1", "h2", "h3", "h4"};
        for (int i = 0; i < 4; i++)
            d[i] = (eng_host_desc){.name = names[i], .speed_flops = 1e9, .sg_cores = 1};
        eng_diag e;
        eng_diag_clear(&e);
        if (eng_platform_build("fuzz", d, 4, NULL, &p, &e))
            abort();
    }
    return p;
}

static int by_start(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static void check_expanded(const eng_resvs *r)
{
    for (size_t i = 1; i < r->n_lim; i++)
        if (r->lim[i].start_s < r->lim[i - 1].end_s)
            abort();
    double(*m)[2] = malloc((r->n ? r->n : 1) * sizeof *m);
    size_t n = 0;
    for (size_t i = 0; m && i < r->n; i++)
        if (r->v[i].maint) {
            m[n][0] = r->v[i].start_s;
            m[n++][1] = r->v[i].end_s;
        }
    qsort(m, n, sizeof *m, by_start);
    for (size_t i = 1; i < n; i++)
        if (m[i][0] < m[i - 1][1])
            abort();
    free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[256];
    if (size > 16384)
        return 0;
    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/batchlab-fuzz-resv.%ld", dir ? dir : "/tmp",
                 (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    static const char *zones[] = {NULL, "Europe/Stockholm"};
    for (int z = 0; z < 2; z++) {
        eng_diag d;
        eng_diag_clear(&d);
        eng_resvs r;
        int rc = eng_resvs_read(path, &r, &d);
        if (rc != ENG_OK) {
            if (d.code == 0 || !d.msg[0] || r.n || r.n_lim)
                abort();
            return 0;
        }
        eng_swf_header h;
        memset(&h, 0, sizeof h);
        h.unix_start_time = 843480031; /* a Monday afternoon */
        h.time_zone_string = zones[z];
        rc = eng_resvs_expand(&r, &h, 1e6, &d);
        if (rc == ENG_OK) {
            check_expanded(&r);
            eng_holds holds;
            rc = eng_resvs_resolve(&r, four_hosts(), &holds, &d);
            if (rc == ENG_OK)
                eng_holds_fini(&holds);
        }
        if (rc != ENG_OK && (d.code == 0 || !d.msg[0]))
            abort();
        eng_resvs_fini(&r);
    }
    return 0;
}
