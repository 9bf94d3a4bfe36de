/* core_check.c — checks the core indices of a jobs.csv written under
 * core allocation on a uniform cluster, with the tests' checker
 * (tests/bl_cores.h): no core held by two jobs at once, each job naming
 * exactly its requested count, every index on the platform.
 *
 *   core_check JOBS_CSV HOSTS CORES_PER_HOST
 *
 * Prints "N jobs, C cores named: ok" and exits 0, or prints the first
 * violation and exits 1; 2 on a usage error. */
#include "bl_cores.h"
#include "eng_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *more = realloc(buf, 2 * cap + 1);
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: core_check JOBS_CSV HOSTS CORES_PER_HOST\n");
        return 2;
    }
    int hosts = atoi(argv[2]), cores = atoi(argv[3]);
    if (hosts < 1 || cores < 1) {
        fprintf(stderr, "core_check: HOSTS and CORES_PER_HOST must be positive integers\n");
        return 2;
    }
    char *text = slurp(argv[1]);
    if (!text) {
        fprintf(stderr, "core_check: %s: cannot read\n", argv[1]);
        return 1;
    }
    eng_host_desc *d = calloc((size_t)hosts, sizeof *d);
    char(*names)[24] = calloc((size_t)hosts, sizeof *names);
    for (int i = 0; d && names && i < hosts; i++) {
        snprintf(names[i], sizeof names[i], "n%08d", i);
        d[i] = (eng_host_desc){.name = names[i], .speed_flops = 1e9, .sg_cores = cores};
    }
    eng_platform *p = NULL;
    eng_diag diag;
    eng_diag_clear(&diag);
    int rc = d && names ? eng_platform_build("cluster", d, (size_t)hosts, NULL, &p, &diag) : -1;
    bl_cores_csv csv;
    char why[256] = "";
    if (rc == 0 && (rc = bl_cores_csv_parse(text, &csv, why, sizeof why)) == 0) {
        rc = bl_cores_check(csv.jobs, csv.n_jobs, p, NULL, NULL, why, sizeof why);
        size_t named = 0;
        for (size_t s = 0; s < csv.n_spans; s++)
            named += (size_t)csv.spans[s].n;
        if (rc == 0)
            printf("%zu jobs, %zu cores named: ok\n", csv.n_jobs, named);
        bl_cores_csv_fini(&csv);
    }
    if (rc)
        printf("%s: %s\n", argv[1], why[0] ? why : diag.msg);
    eng_platform_destroy(p);
    free(d);
    free(names);
    free(text);
    return rc ? 1 : 0;
}
