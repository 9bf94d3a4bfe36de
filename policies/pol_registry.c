/* pol_registry.c — the list of policies (pol_registry.h): lookup by name,
 * the names for messages, and the trial of option values on a stand-in
 * pool. The decision buffer and the check of options every run needs are
 * the engine's (engine/eng_policy.c); only the command line and the tests
 * link this table, so linking the engine does not drag in every policy.
 *
 * Adding a policy: write policies/pol_NAME.c with one `const pol_type
 * pol_NAME`, declare it below and add it to the table. The conformance
 * suite (tests/test_pol_registry.c) then runs it on random workloads under
 * the invariant checker without further work.
 */
#include "pol_registry.h"

#include "eng_error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const pol_type pol_fcfs;
extern const pol_type pol_easy;
extern const pol_type pol_conservative;
extern const pol_type pol_packet;
extern const pol_type pol_alp;
extern const pol_type pol_amp;
extern const pol_type pol_sa;
extern const pol_type pol_knapsack;
extern const pol_type pol_slurm;

static const pol_type *const registry[] = {
    &pol_fcfs, &pol_easy, &pol_conservative, &pol_packet, &pol_alp,
    &pol_amp,  &pol_sa,   &pol_knapsack,     &pol_slurm,
};

const pol_type *pol_find(const char *name)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const pol_type *const *pol_list(size_t *n)
{
    *n = sizeof registry / sizeof registry[0];
    return registry;
}

size_t pol_names_join(const pol_type *const *list, size_t n, char *buf, size_t len)
{
    size_t need = 0;
    for (size_t i = 0; i < n; i++) {
        const char *sep = i ? ", " : "";
        size_t at = need;
        need += strlen(sep) + strlen(list[i]->name);
        if (at < len)
            snprintf(buf + at, len - at, "%s%s", sep, list[i]->name);
    }
    if (len && need == 0)
        buf[0] = '\0';
    return need;
}

const char *pol_names(void)
{
    /* built once, as long as the names need; kept for the program's life */
    static char *names;
    if (!names) {
        size_t n = sizeof registry / sizeof registry[0];
        size_t len = pol_names_join(registry, n, NULL, 0) + 1;
        char *buf = malloc(len);
        if (!buf)
            return "(the policy names: out of memory)";
        pol_names_join(registry, n, buf, len);
        names = buf;
    }
    return names;
}

int pol_try_options(const pol_type *type, const pol_kv *options, size_t n, char *err, size_t errlen)
{
    const pol_host host = {
        .name = "h", .speed_flops = 1e9, .cores = 1, .free_cores = 1, .up = true};
    const pol_setup setup = {.alloc = POL_ALLOC_NODE,
                             .total_units = 1,
                             .hosts = &host,
                             .n_hosts = 1,
                             .ref_speed_flops = 1e9,
                             .n_jobs = 1,
                             .seed = 1,
                             .options = options,
                             .n_options = n,
                             .declared = type->options};
    if (errlen)
        err[0] = '\0';
    int rc = pol_check_options(type, options, n, err, errlen);
    if (rc)
        return rc;
    void *state = calloc(1, type->state_size ? type->state_size : 1);
    if (!state)
        return ENG_NOMEM;
    char msg[512] = "";
    rc = type->init ? type->init(state, &setup, msg, sizeof msg) : ENG_OK; /* init is optional */
    if (rc && msg[0])
        snprintf(err, errlen, "policy %s: %s", type->name, msg);
    if (rc == ENG_OK && type->fini)
        type->fini(state);
    free(state);
    return rc;
}
