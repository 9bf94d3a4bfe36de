/* pol_registry.c — the list of policies, the decision buffer and option
 * validation shared by every policy.
 *
 * Adding a policy: write policies/pol_NAME.c with one `const pol_type
 * pol_NAME`, declare it below and add it to the table. The conformance
 * suite (tests/test_pol_registry.c) then runs it on random workloads under
 * the invariant checker without further work.
 */
#include "pol_policy.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
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
    &pol_fcfs,
    &pol_easy,
    &pol_conservative,
    &pol_packet,
    &pol_alp,
    &pol_amp,
    &pol_sa,
    &pol_knapsack,
    &pol_slurm,
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

const char *pol_names(void)
{
    static char buf[512];
    if (!buf[0]) {
        size_t len = 0;
        for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                                    registry[i]->name);
    }
    return buf;
}

static void append_accepted(const pol_type *type, char *buf, size_t len)
{
    size_t used = strlen(buf);
    if (!type->options || !type->options[0].key) {
        snprintf(buf + used, len - used, " (it accepts none)");
        return;
    }
    used += (size_t)snprintf(buf + used, len - used, " (accepted:");
    for (const pol_option *o = type->options; o->key && used < len; o++)
        used += (size_t)snprintf(buf + used, len - used, " %s", o->key);
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

int pol_check_options(const pol_type *type, const pol_kv *options, size_t n, char *err,
                      size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        bool known = false;
        for (const pol_option *o = type->options; o && o->key; o++)
            if (strcmp(o->key, options[i].key) == 0)
                known = true;
        if (!known) {
            snprintf(err, errlen, "unknown option '%s' for policy %s", options[i].key,
                     type->name);
            append_accepted(type, err, errlen);
            return ENG_INVAL;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(options[j].key, options[i].key) == 0) {
                snprintf(err, errlen, "option '%s' given twice for policy %s", options[i].key,
                         type->name);
                return ENG_INVAL;
            }
    }
    return ENG_OK;
}

int pol_try_options(const pol_type *type, const pol_kv *options, size_t n, char *err,
                    size_t errlen)
{
    const pol_host host = {.name = "h", .speed_flops = 1e9, .cores = 1, .free_cores = 1,
                           .up = true};
    const pol_setup setup = {.alloc = POL_ALLOC_NODE, .total_units = 1, .hosts = &host,
                             .n_hosts = 1, .ref_speed_flops = 1e9, .n_jobs = 1, .seed = 1,
                             .options = options, .n_options = n};
    if (errlen)
        err[0] = '\0';
    void *state = calloc(1, type->state_size ? type->state_size : 1);
    if (!state)
        return ENG_NOMEM;
    int rc = type->init(state, &setup, err, errlen);
    if (rc == ENG_OK && type->fini)
        type->fini(state);
    free(state);
    return rc;
}

const char *pol_option_get(const pol_setup *setup, const char *key, const char *def)
{
    for (size_t i = 0; i < setup->n_options; i++)
        if (strcmp(setup->options[i].key, key) == 0)
            return setup->options[i].value;
    return def;
}

const pol_job *pol_queue_find(const pol_view *v, int32_t idx)
{
    size_t lo = 0, hi = v->n_queue;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v->queue[mid]->idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->n_queue && v->queue[lo]->idx == idx ? v->queue[lo] : NULL;
}

void pol_out_init(pol_out *out)
{
    memset(out, 0, sizeof *out);
    out->wakeup_s = INFINITY;
}

void pol_out_reset(pol_out *out)
{
    out->n_starts = out->n_hosts = out->n_promises = 0;
    out->wakeup_s = INFINITY;
    out->oom = 0;
}

void pol_out_fini(pol_out *out)
{
    free(out->starts);
    free(out->hosts);
    free(out->promises);
    pol_out_init(out);
}

void pol_out_start(pol_out *out, const pol_job *job)
{
    pol_out_start_on(out, job, NULL, 0);
}

void pol_out_start_on(pol_out *out, const pol_job *job, const int32_t *hosts, size_t n)
{
    if (eng_grow(&out->starts, &out->cap_starts, out->n_starts + 1, sizeof *out->starts) ||
        eng_grow(&out->hosts, &out->cap_hosts, out->n_hosts + n, sizeof *out->hosts)) {
        out->oom = 1;
        return;
    }
    out->starts[out->n_starts++] = (pol_start){
        .job_idx = job->idx, .n_hosts = (int32_t)n, .hosts_off = out->n_hosts, .packet = -1};
    if (n)
        memcpy(out->hosts + out->n_hosts, hosts, n * sizeof *hosts);
    out->n_hosts += n;
}

void pol_out_start_packet(pol_out *out, const pol_job *job, int32_t packet, const int32_t *hosts,
                          size_t n)
{
    size_t before = out->n_starts;
    pol_out_start_on(out, job, hosts, n);
    if (out->n_starts > before)
        out->starts[before].packet = packet;
}

void pol_out_promise(pol_out *out, const pol_job *job, double start_by_s)
{
    if (eng_grow(&out->promises, &out->cap_promises, out->n_promises + 1,
                 sizeof *out->promises)) {
        out->oom = 1;
        return;
    }
    out->promises[out->n_promises++] = (pol_promise){.job_idx = job->idx,
                                                      .start_by_s = start_by_s};
}

void pol_out_wakeup(pol_out *out, double at_s)
{
    if (at_s < out->wakeup_s)
        out->wakeup_s = at_s;
}
