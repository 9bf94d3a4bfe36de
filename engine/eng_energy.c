/* eng_energy.c — host states and their energy (eng_core.h: eng_host_state,
 * eng_energy_totals; eng_core_impl.h for who calls what). The scheduling
 * core already knows every host's taken cores at every instant; power is a
 * function of that and of the host's state, so energy is recorded where
 * the time series is, not simulated a second time (DESIGN.md).
 *
 * One mechanism for host states: every change of what a host does goes
 * through eng_host_cores() (cores taken or freed: eng_alloc.c) or
 * eng_host_set() (a failure takes it down or brings it up: eng_fail.c).
 * Each updates the host's state and the counts of its power class (hosts
 * of one power model and core count: cores busy and free on busy hosts,
 * hosts idle, down, off, booting, shutting down), integers only, so a
 * change costs O(1); each step recomputes the power from the counts,
 * O(classes) (one or a few on real platforms), exactly, with no drift.
 *
 * Power (eng_power.h, SimGrid's host energy model at the host's pstate):
 *   idle                Idle
 *   busy, k of c cores  Epsilon + k / c x (AllCores - Epsilon)
 *                     = k x AllCores / c  +  (c - k) x Epsilon / c
 *   down                wattage_off
 *   off, booting, shutting down  sleep, switch-on, switch-off watts
 * A host held by a job counts as busy for the whole job, its cores as
 * loaded: a parallel job's ranks that finish early wait for the others in
 * busy polling, and batchlab does not model a host finishing early.
 *
 * Attribution (jobs.csv's consumed_energy): the second form of the busy
 * power splits it by core. Each taken core draws AllCores / c and is billed
 * to the job holding it; each free core of a busy host draws Epsilon / c
 * and counts as idle, as an idle host's Idle does. A job's energy is then
 * the sum over its hosts of its cores x AllCores / c x the time it holds
 * them, independent of what else shares the host; under node allocation it
 * is its hosts' whole power (k = c). Jobs + idle + off + switching is the
 * platform's power integrated, term by term (equal up to rounding).
 *
 * Energy is integrated exactly (the power is constant between events) at
 * the start of each step over [last step, now], in long double, from time
 * 0 (or the first event if earlier) to the last event, as SimGrid's energy
 * plugin integrates from 0 to the end of the simulation.
 *
 * Idle shutdown (eng_power_save.c) changes states through eng_host_set()
 * as failures do (shutting down -> off -> booting -> idle), which bills the
 * switching and off watts and counts the switch-ons and offs, and turns a
 * job's hosts busy at its start after the boots through eng_host_cores();
 * the view tells policies when each host is next usable in one field
 * (pol_host.usable_at_s) whatever the reason. A power cap changing pstates will bill a
 * busy host's jobs up to the change before switching its watts (a job's
 * rate is constant between its hosts' pstate changes).
 *
 * Calls no other file of the core.
 */
#include "eng_core_impl.h"

#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The power by where it goes, from the class counts. */
typedef struct watts {
    long double jobs, idle, off, switching;
} watts;

static watts watts_now(const energy_acc *e)
{
    watts w = {0, 0, 0, 0};
    for (int32_t k = 0; k < e->n_cls; k++) {
        const power_class *p = &e->cls[k];
        w.jobs += (long double)p->busy_cores * p->all_per_core_w;
        w.idle += (long double)p->free_cores * p->eps_per_core_w + (long double)p->idle * p->idle_w;
        w.off += (long double)p->down * p->off_w + (long double)p->off * p->sleep_w;
        w.switching += (long double)p->booting * p->on_w + (long double)p->shutting * p->shut_w;
    }
    return w;
}

static double power_now(const energy_acc *e)
{
    watts w = watts_now(e);
    return (double)(w.jobs + w.idle + w.off + w.switching);
}

/* Host h's class: the first with its power model and cores, or a new one. */
static int class_of(energy_acc *e, const eng_host *h, int32_t *cap)
{
    const eng_power *p = &h->power;
    power_class want = {
        .all_per_core_w = p->all_cores_w / h->cores,
        .eps_per_core_w = p->epsilon_w / h->cores,
        .idle_w = p->idle_w,
        .off_w = p->off_w,
        .sleep_w = p->sleep_w,
        .on_w = p->switch_on_w,
        .shut_w = p->switch_off_w,
        .cores = h->cores,
    };
    for (int32_t k = 0; k < e->n_cls; k++) {
        const power_class *c = &e->cls[k];
        if (c->all_per_core_w == want.all_per_core_w && c->eps_per_core_w == want.eps_per_core_w &&
            c->idle_w == want.idle_w && c->off_w == want.off_w && c->sleep_w == want.sleep_w &&
            c->on_w == want.on_w && c->shut_w == want.shut_w && c->cores == want.cores)
            return k;
    }
    size_t cap_sz = (size_t)*cap;
    if (eng_grow(&e->cls, &cap_sz, (size_t)e->n_cls + 1, sizeof *e->cls))
        return -1;
    *cap = (int32_t)cap_sz;
    e->cls[e->n_cls] = want;
    return e->n_cls++;
}

double eng_energy_power_now(const eng_core *c)
{
    return power_now(c->energy);
}

int64_t eng_energy_cap_units(const eng_core *c, const pool_state *ps, double cap_w)
{
    double p0 = 0, per_unit = 0;
    bool node = c->prep->alloc == POL_ALLOC_NODE;
    for (size_t h = 0; h < c->plat->n_hosts; h++)
        p0 += c->plat->hosts[h].power.idle_w;
    for (int32_t k = 0; k < ps->n_hosts; k++) {
        const eng_host *h = &c->plat->hosts[ps->hosts[k].index];
        const eng_power *p = &h->power;
        /* node: idle -> all cores; core: the first core, or any later one */
        double core = (p->all_cores_w - p->epsilon_w) / h->cores;
        double u = node ? p->all_cores_w - p->idle_w : fmax(p->epsilon_w - p->idle_w + core, core);
        if (u > per_unit)
            per_unit = u;
    }
    if (cap_w < p0)
        return -1;
    if (!(per_unit > 0))
        return INT64_MAX;
    double n = floor((cap_w - p0) / per_unit);
    return n > (double)INT32_MAX ? INT64_MAX : (int64_t)n;
}

int eng_energy_init(eng_core *c)
{
    size_t n = c->plat->n_hosts;
    c->hstate = calloc(n ? n : 1, sizeof *c->hstate); /* all ENG_HOST_IDLE */
    if (!c->hstate)
        return ENG_NOMEM;
    if (!c->plat->has_power)
        return ENG_OK;
    energy_acc *e = c->energy = calloc(1, sizeof *c->energy);
    if (!e || !(e->host_cls = malloc((n ? n : 1) * sizeof *e->host_cls)))
        return ENG_NOMEM;
    int32_t cap = 0;
    for (size_t h = 0; h < n; h++) {
        int k = class_of(e, &c->plat->hosts[h], &cap);
        if (k < 0)
            return ENG_NOMEM;
        e->host_cls[h] = k;
        e->cls[k].idle++;
    }
    e->peak_w = power_now(e);
    return ENG_OK;
}

void eng_energy_destroy(eng_core *c)
{
    if (c->energy) {
        free(c->energy->cls);
        free(c->energy->host_cls);
    }
    free(c->hstate);
    free(c->energy);
    free(c->ets);
    c->hstate = NULL;
    c->energy = NULL;
    c->ets = NULL;
}

void eng_host_cores(eng_core *c, int32_t h, int32_t busy_before, int32_t busy_after)
{
    c->hstate[h] = busy_after > 0 ? ENG_HOST_BUSY : ENG_HOST_IDLE;
    if (!c->energy)
        return;
    c->energy->n_busy += (busy_after > 0) - (busy_before > 0);
    power_class *k = &c->energy->cls[c->energy->host_cls[h]];
    if (busy_before > 0) {
        k->busy_cores -= busy_before;
        k->free_cores -= k->cores - busy_before;
    } else {
        k->idle--;
    }
    if (busy_after > 0) {
        k->busy_cores += busy_after;
        k->free_cores += k->cores - busy_after;
    } else {
        k->idle++;
    }
}

/* The count of class k's hosts in state s (a host changing state has no
 * core taken: busy hosts do not fail or switch off). */
static int64_t *state_hosts(power_class *k, int s)
{
    switch (s) {
    case ENG_HOST_IDLE:
        return &k->idle;
    case ENG_HOST_DOWN:
        return &k->down;
    case ENG_HOST_OFF:
        return &k->off;
    case ENG_HOST_BOOTING:
        return &k->booting;
    case ENG_HOST_SHUTTING_DOWN:
        return &k->shutting;
    default:
        return NULL;
    }
}

/* The count of hosts in state s that the rows keep. */
static int32_t *state_count(energy_acc *e, int s)
{
    return s == ENG_HOST_OFF             ? &e->n_off
           : s == ENG_HOST_BOOTING       ? &e->n_booting
           : s == ENG_HOST_SHUTTING_DOWN ? &e->n_shutting
                                         : NULL;
}

void eng_host_set(eng_core *c, int32_t h, eng_host_state s)
{
    int before = c->hstate[h];
    c->hstate[h] = (uint8_t)s;
    energy_acc *e = c->energy;
    if (!e)
        return;
    power_class *k = &e->cls[e->host_cls[h]];
    int64_t *from = state_hosts(k, before), *to = state_hosts(k, (int)s);
    if (from)
        (*from)--;
    if (to)
        (*to)++;
    int32_t *cf = state_count(e, before), *ct = state_count(e, (int)s);
    if (cf)
        (*cf)--;
    if (ct)
        (*ct)++;
    e->switch_ons += s == ENG_HOST_BOOTING;
    e->switch_offs += s == ENG_HOST_SHUTTING_DOWN;
}

void eng_energy_advance(eng_core *c)
{
    energy_acc *e = c->energy;
    if (!e)
        return;
    if (!e->started) {
        e->started = true;
        e->start_s = e->t_s = c->now < 0 ? c->now : 0;
    }
    if (!(c->now > e->t_s))
        return;
    long double dt = (long double)c->now - e->t_s;
    watts w = watts_now(e);
    e->jobs_j += w.jobs * dt;
    e->idle_j += w.idle * dt;
    e->off_j += w.off * dt;
    e->switching_j += w.switching * dt;
    e->total_j += (w.jobs + w.idle + w.off + w.switching) * dt;
    e->t_s = c->now;
}

double eng_energy_total_j(const eng_core *c)
{
    return c->energy ? (double)c->energy->total_j : 0;
}

int eng_energy_sample(eng_core *c)
{
    energy_acc *e = c->energy;
    if (!e)
        return ENG_OK;
    size_t at = c->n_ts - 1;
    if (eng_grow(&c->ets, &c->cap_ets, c->n_ts, sizeof *c->ets))
        return ENG_NOMEM;
    double w = power_now(e);
    if (w > e->peak_w)
        e->peak_w = w;
    c->ets[at] = (eng_energy_row){.power_w = w,
                                  .off = e->n_off,
                                  .booting = e->n_booting,
                                  .shutting_down = e->n_shutting,
                                  .busy = e->n_busy};
    return ENG_OK;
}

const eng_energy_row *eng_core_energy_rows(const eng_core *c, size_t *n)
{
    *n = c->energy ? c->n_ts : 0;
    return c->energy ? c->ets : NULL;
}

bool eng_core_energy(const eng_core *c, eng_energy_totals *out)
{
    const energy_acc *e = c->energy;
    if (!e)
        return false;
    *out = (eng_energy_totals){
        .start_s = e->start_s,
        .end_s = e->t_s,
        .total_j = (double)e->total_j,
        .jobs_j = (double)e->jobs_j,
        .idle_j = (double)e->idle_j,
        .off_j = (double)e->off_j,
        .switching_j = (double)e->switching_j,
        .peak_w = e->peak_w,
        .switch_ons = e->switch_ons,
        .switch_offs = e->switch_offs,
    };
    return true;
}
