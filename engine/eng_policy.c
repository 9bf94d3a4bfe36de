/* eng_policy.c — the engine's side of the policy boundary (eng_policy.h):
 * the decision buffer a policy fills (pol_out_*), the check of option keys
 * against a policy's declared options, and the two lookups every policy
 * may use (pol_option_get, pol_queue_find).
 *
 * It knows no policy by name: the table of policies is the registry
 * (policies/pol_registry.c), which only the command line and the tests
 * link. The engine calls this file, never anything in policies/.
 */
#include "eng_policy.h"

#include "eng_error.h"
#include "eng_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            snprintf(err, errlen, "unknown option '%s' for policy %s", options[i].key, type->name);
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
    if (eng_grow(&out->promises, &out->cap_promises, out->n_promises + 1, sizeof *out->promises)) {
        out->oom = 1;
        return;
    }
    out->promises[out->n_promises++] = (pol_promise){.job_idx = job->idx, .start_by_s = start_by_s};
}

void pol_out_wakeup(pol_out *out, double at_s)
{
    if (at_s < out->wakeup_s)
        out->wakeup_s = at_s;
}
