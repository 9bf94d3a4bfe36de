/* eng_energy.c — host states and their energy (eng_core.h: eng_host_state,
 * eng_energy_totals; eng_core_impl.h for who calls what). The scheduling
 * core already knows every host's taken cores at every instant; power is a
 * function of that and of the host's state, so energy is recorded where
 * the time series is, not simulated a second time (DESIGN.md).
 *
 * One mechanism for host states: every change of what a host does goes
 * through eng_host_cores() (cores taken or freed: eng_alloc.c) or
 * eng_host_set() (a failure takes it down or brings it up: eng_fail.c).
 * Each updates the host's state and the platform's power by where it goes,
 * so a step costs O(1) more per host changed, and nothing per host
 * otherwise.
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
 * Idle shutdown will plug in here and in eng_fail.c's timeline: switching
 * a host off is "not usable from t1 to t2" as a failure is, the same
 * change heap (c->changes) carrying its shutting-down -> off -> booting ->
 * idle changes and the same view (pol_host.up) telling policies; each
 * change calls eng_host_set(), which bills the switching and off watts and
 * counts the switch-ons and offs. A power cap changing pstates will bill a
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

/* A host's power by where it goes: to jobs, idle (free cores and idle
 * hosts), off, switching. */
typedef struct host_w {
    double busy, idle, off, switching;
} host_w;

static host_w host_watts(const eng_host *h, int state, int32_t busy)
{
    const eng_power *p = &h->power;
    host_w w = {0, 0, 0, 0};
    switch (state) {
    case ENG_HOST_BUSY:
        w.busy = (double)busy * p->all_cores_w / h->cores;
        w.idle = (double)(h->cores - busy) * p->epsilon_w / h->cores;
        break;
    case ENG_HOST_IDLE:
        w.idle = p->idle_w;
        break;
    case ENG_HOST_DOWN:
        w.off = p->off_w;
        break;
    case ENG_HOST_OFF:
        w.off = p->sleep_w;
        break;
    case ENG_HOST_BOOTING:
        w.switching = p->switch_on_w;
        break;
    default: /* ENG_HOST_SHUTTING_DOWN */
        w.switching = p->switch_off_w;
        break;
    }
    return w;
}

static void add_watts(energy_acc *e, host_w w, int sign)
{
    e->busy_w += sign * (long double)w.busy;
    e->free_w += sign * (long double)w.idle;
    e->off_w += sign * (long double)w.off;
    e->switching_w += sign * (long double)w.switching;
}

static double power_now(const energy_acc *e)
{
    return (double)(e->busy_w + e->free_w + e->idle_w + e->off_w + e->switching_w);
}

int eng_energy_init(eng_core *c)
{
    size_t n = c->plat->n_hosts;
    c->hstate = calloc(n ? n : 1, sizeof *c->hstate); /* all ENG_HOST_IDLE */
    if (!c->hstate)
        return ENG_NOMEM;
    if (!c->plat->has_power)
        return ENG_OK;
    c->energy = calloc(1, sizeof *c->energy);
    if (!c->energy)
        return ENG_NOMEM;
    for (size_t h = 0; h < n; h++)
        add_watts(c->energy, host_watts(&c->plat->hosts[h], ENG_HOST_IDLE, 0), +1);
    c->energy->peak_w = power_now(c->energy);
    return ENG_OK;
}

void eng_energy_destroy(eng_core *c)
{
    free(c->hstate);
    free(c->energy);
    free(c->ets);
    c->hstate = NULL;
    c->energy = NULL;
    c->ets = NULL;
}

void eng_host_cores(eng_core *c, int32_t h, int32_t busy_before, int32_t busy_after)
{
    int before = c->hstate[h];
    int after = busy_after > 0 ? ENG_HOST_BUSY : ENG_HOST_IDLE;
    c->hstate[h] = (uint8_t)after;
    if (!c->energy)
        return;
    const eng_host *host = &c->plat->hosts[h];
    add_watts(c->energy, host_watts(host, before, busy_before), -1);
    add_watts(c->energy, host_watts(host, after, busy_after), +1);
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
    const eng_host *host = &c->plat->hosts[h];
    /* a host changing state has no core taken (busy hosts do not fail) */
    add_watts(e, host_watts(host, before, 0), -1);
    add_watts(e, host_watts(host, (int)s, 0), +1);
    int32_t *from = state_count(e, before), *to = state_count(e, (int)s);
    if (from)
        (*from)--;
    if (to)
        (*to)++;
    e->switch_ons += s == ENG_HOST_BOOTING;
    e->switch_offs += s == ENG_HOST_SHUTTING_DOWN;
}

double eng_energy_job_w(const eng_core *c, int32_t h, int32_t cores)
{
    if (!c->energy)
        return 0;
    const eng_host *host = &c->plat->hosts[h];
    return (double)cores * host->power.all_cores_w / host->cores;
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
    e->jobs_j += e->busy_w * dt;
    e->idle_j += (e->idle_w + e->free_w) * dt;
    e->off_j += e->off_w * dt;
    e->switching_j += e->switching_w * dt;
    e->total_j += (e->busy_w + e->free_w + e->idle_w + e->off_w + e->switching_w) * dt;
    e->t_s = c->now;
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
    c->ets[at] = (eng_energy_row){
        .power_w = w, .off = e->n_off, .booting = e->n_booting, .shutting_down = e->n_shutting};
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
