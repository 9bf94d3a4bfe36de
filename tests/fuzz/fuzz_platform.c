/* fuzz_platform.c — libFuzzer target: what batchlab adds to SimGrid's
 * platform loading — host ordering, the batchlab properties (cores,
 * price_per_s, queues, occupation_probability, ref_speed), pools and
 * routing — fed with host descriptions decoded from arbitrary bytes, plus
 * the save/restore round trip used between processes.
 *
 * Input: lines "name|speed|sg_cores|cores|price|queues|occupation", the
 * first line "ref|SPEED" optionally; an empty field means "absent". */
#include "eng_platform.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *field(char **cursor)
{
    char *s = *cursor;
    if (!s)
        return NULL;
    char *bar = strchr(s, '|');
    if (bar) {
        *bar = '\0';
        *cursor = bar + 1;
    } else {
        *cursor = NULL;
    }
    return *s ? s : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    eng_host_desc desc[64];
    size_t n = 0;
    const char *ref = NULL;
    for (char *line = strtok(text, "\n"); line && n < 64; line = strtok(NULL, "\n")) {
        char *cur = line;
        char *name = field(&cur);
        if (name && strcmp(name, "ref") == 0 && n == 0 && !ref) {
            ref = field(&cur);
            continue;
        }
        char *speed = field(&cur), *sg = field(&cur);
        desc[n] = (eng_host_desc){
            .name = name ? name : "",
            .speed_flops = speed ? strtod(speed, NULL) : 1e9,
            .sg_cores = sg ? atoi(sg) : 1,
            .cores = field(&cur),
            .price_per_s = field(&cur),
            .queues = field(&cur),
            .occupation = field(&cur),
        };
        n++;
    }
    eng_platform *p = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    int rc = eng_platform_build("fuzz.xml", desc, n, ref, &p, &d);
    if (rc == ENG_OK) {
        for (int64_t q = -2; q < 8; q++)
            (void)eng_platform_route(p, q);
        FILE *f = tmpfile();
        if (f && eng_platform_save(f, p) == ENG_OK) {
            rewind(f);
            eng_platform *back = NULL;
            eng_diag_clear(&d);
            if (eng_platform_restore(f, "fuzz.xml", &back, &d) != ENG_OK)
                abort(); /* a platform must survive its own round trip */
            if (back->n_hosts != p->n_hosts || back->n_pools != p->n_pools)
                abort();
            eng_platform_destroy(back);
        }
        if (f)
            fclose(f);
        eng_platform_destroy(p);
    } else if (p || !d.msg[0]) {
        abort();
    }
    double flops;
    (void)eng_parse_speed(text, &flops);
    free(text);
    return 0;
}
