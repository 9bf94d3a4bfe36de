/* fuzz_args.c — libFuzzer target: the command-line option parser with the
 * run command's table, the value checkers, policy option validation, and
 * the initialization-table reader, on arguments decoded from arbitrary
 * bytes (NUL-separated words). */
#include "cli_args.h"
#include "eng_prep.h"
#include "pol_registry.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const bl_opt opts[] = {
    {"platform", 'p', BL_VALUE, "FILE", ""},
    {"workload", 'w', BL_VALUE, "FILE", ""},
    {"walltime", 0, BL_VALUE, "kill|extend", ""},
    {"alloc", 0, BL_VALUE, "node|core", ""},
    {"seed", 0, BL_VALUE, "N", ""},
    {"init-share", 0, BL_VALUE, "X", ""},
    {"check", 0, BL_FLAG, NULL, ""},
    {"policy-opt", 0, BL_MULTI, "K=V", ""},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[64];
    int argc = 0;
    argv[argc++] = "run";
    for (size_t i = 0; i < size && argc < 63;) {
        argv[argc++] = text + i;
        i += strlen(text + i) + 1;
    }
    argv[argc] = NULL;
    /* the parser reports to stderr; keep the fuzzer's output readable */
    FILE *saved = stderr;
    stderr = fopen("/dev/null", "w");
    bl_args a;
    if (bl_args_parse("run", opts, sizeof opts / sizeof opts[0], argc, argv, 1, &a) == 0) {
        int k;
        unsigned long long u;
        double x;
        const char *v;
        if ((v = bl_args_value(&a, "walltime", NULL)))
            (void)bl_args_choice("run", "walltime", v, "kill|extend", &k);
        if ((v = bl_args_value(&a, "seed", NULL)))
            (void)bl_args_u64("run", "seed", v, &u);
        if ((v = bl_args_value(&a, "init-share", NULL)))
            (void)bl_args_double("run", "init-share", v, &x);
        const bl_arg *m = bl_args_get(&a, "policy-opt");
        pol_kv kv[16];
        size_t n = 0;
        for (size_t i = 0; i < m->n_values && n < 16; i++) {
            const char *eq = strchr(m->values[i], '=');
            if (eq)
                kv[n++] = (pol_kv){.key = m->values[i], .value = eq + 1};
        }
        char err[256];
        size_t np;
        const pol_type *const *list = pol_list(&np);
        for (size_t i = 0; i < np; i++)
            (void)pol_check_options(list[i], kv, n, err, sizeof err);
        bl_args_fini(&a);
    }
    fclose(stderr);
    stderr = saved;
    /* the same bytes as an initialization table */
    char path[256];
    snprintf(path, sizeof path, "/tmp/batchlab-fuzz-init.%ld", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
        eng_init_time *t = NULL;
        size_t nt = 0;
        eng_diag d;
        eng_diag_clear(&d);
        if (eng_prep_read_init_times(path, &t, &nt, &d) == ENG_OK && (!t || nt == 0))
            abort();
        free(t);
    }
    free(text);
    return 0;
}
