/* eng_power_save.c — idle shutdown (eng_core.h, eng_power_save), Slurm's
 * power saving (slurm.conf SuspendTime, SuspendTimeout, ResumeTimeout,
 * SuspendRate, ResumeRate, SuspendExcNodes; Slurm's power_save guide) in a
 * discrete-event core.
 *
 * A host's power states, each change through eng_host_set() (eng_energy.c,
 * the one record of what hosts do):
 *
 *   idle --(idle suspend_time_s, not excluded, rate)--> shutting down
 *   shutting down --(its switch-off time)--> off
 *   off --(given to a job; resume rate)--> booting --(switch-on time)--> idle
 *   idle, held by a job that waits for its other hosts --> busy at its start
 *
 * A host that shuts down when a job is given it finishes shutting down and
 * boots at once. A job starts when the last of its hosts is up: its start
 * is known when it is given hosts (the durations are fixed and the boots
 * are booked in order), so its end is scheduled then, and its hosts turn
 * busy at that start (eng_energy.c bills it from there). Until then the
 * hosts already on are idle but taken (never switched off).
 *
 * Rates: the switch-offs, and the boots, begun in each minute [60k, 60k +
 * 60) of simulated time are at most the rate. Boots are booked in order
 * into the first minute with room, so a boot beyond the rate waits for the
 * next minute (bounded: eng_psave_init, part of boot_delay_max_s); a host due
 * to switch off in a full minute is tried again at the next one.
 *
 * Events: (time, host) in c->pchanges, ids 4 h + kind; stale ones (a
 * suspend check for a host that was taken since) are dropped when popped.
 * Applied only while jobs are left, as failures are.
 *
 * Calls no other file of the core but eng_energy.c.
 */
#include "eng_core_impl.h"

#include "eng_resv.h"
#include "eng_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EV_SUSPEND = 0, EV_OFF = 1, EV_UP = 2, EV_START = 3 };

typedef struct psave_host {
    double idle_since_s; /* last time it became idle and free */
    double sw_end_s;     /* end of its current shutdown or boot */
    double off_s, on_s;  /* how long switching off and on take */
    bool excluded;
    bool claimed; /* given to a job while off or shutting down */
} psave_host;

/* Booked switch-ons or -offs: minute `minute` holds `used` of them. */
typedef struct rate_book {
    int32_t rate; /* per minute, 0: no limit */
    double minute;
    int32_t used;
} rate_book;

struct psave_state {
    psave_host *h;
    rate_book offs, ons;
    double delay_max_s;     /* the longest switch-off + boot + rate wait */
    double rate_wait_max_s; /* the resume rate's part of it */
    int32_t *starts;        /* jobs whose start is due, applied after the instant's boots */
    size_t n_starts, cap_starts;
};

/* The start of the first minute at or after t with room, booked. */
static double book(rate_book *b, double t)
{
    if (b->rate <= 0)
        return t;
    double m = floor(t / 60.0);
    if (m < b->minute)
        m = b->minute;
    if (m == b->minute && b->used >= b->rate)
        m += 1;
    if (m != b->minute) {
        b->minute = m;
        b->used = 0;
    }
    b->used++;
    return m * 60.0 > t ? m * 60.0 : t;
}

/* Whether a switch may begin at t without booking it. */
static bool has_room(const rate_book *b, double t)
{
    return b->rate <= 0 || floor(t / 60.0) > b->minute || b->used < b->rate;
}

static int push(eng_core *c, double t, int32_t h, int kind)
{
    return eng_heap_push(&c->pchanges, (eng_heap_ev){.t = t, .id = 4 * h + kind});
}

static int log_switch(eng_core *c, int32_t h, int kind)
{
    if (!c->opts.check)
        return ENG_OK;
    if (eng_grow(&c->pslog, &c->cap_pslog, c->n_pslog + 1, sizeof *c->pslog))
        return ENG_NOMEM;
    c->pslog[c->n_pslog++] = (eng_psave_switch){.t_s = c->now,
                                                .host = h,
                                                .on = kind != EV_SUSPEND,
                                                .idle_since_s = c->psave->h[h].idle_since_s,
                                                .excluded = c->psave->h[h].excluded};
    return ENG_OK;
}

/* Marks the hosts of --suspend-exc-nodes, a hostlist as reservations
 * take it (eng_hostlist_mark: "n[1-4,7],login"; "ALL": every host). */
static int exclude_hosts(eng_core *c, eng_diag *d)
{
    const char *list = c->opts.power_save.exc_nodes;
    if (!list || !*list)
        return ENG_OK;
    bool *mark = calloc(c->plat->n_hosts ? c->plat->n_hosts : 1, sizeof *mark);
    if (!mark)
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    char why[512];
    int rc = eng_hostlist_mark(c->plat, list, mark, why, sizeof why);
    if (rc)
        rc = eng_diag_set(d, ENG_USAGE, "--suspend-exc-nodes '%s': %s", list, why);
    else
        for (size_t h = 0; h < c->plat->n_hosts; h++)
            if (mark[h])
                c->psave->h[h].excluded = true;
    free(mark);
    return rc;
}

int eng_psave_init(eng_core *c, eng_diag *d)
{
    const eng_power_save *o = &c->opts.power_save;
    if (!(o->suspend_time_s >= 0) || !(o->suspend_timeout_s >= 0) || !(o->resume_timeout_s >= 0) ||
        o->suspend_rate < 0 || o->resume_rate < 0)
        return eng_diag_set(d, ENG_USAGE,
                            "idle shutdown: times must be >= 0 s and rates >= 0 per minute");
    if (c->prep->alloc != POL_ALLOC_NODE)
        return eng_diag_set(d, ENG_USAGE, "idle shutdown runs under --alloc node only");
    if (c->opts.failures.enabled)
        return eng_diag_set(d, ENG_USAGE,
                            "idle shutdown (--suspend-time) and host failures (--failures, "
                            "--failure-trace) do not combine yet");
    size_t n = c->plat->n_hosts;
    psave_state *s = c->psave = calloc(1, sizeof *c->psave);
    if (!s || !(s->h = calloc(n ? n : 1, sizeof *s->h)))
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    s->offs = (rate_book){.rate = o->suspend_rate, .minute = -INFINITY};
    s->ons = (rate_book){.rate = o->resume_rate, .minute = -INFINITY};
    int rc = exclude_hosts(c, d);
    if (rc)
        return rc;
    /* The resume rate's longest wait: the boots booked ahead of a new one
     * are at most one per other host plus the rate's own minute, so it
     * begins within 1 + ceil(hosts / rate) minutes of its request. */
    if (o->resume_rate > 0)
        s->rate_wait_max_s = 60.0 * (1.0 + ceil((double)n / (double)o->resume_rate));
    for (size_t h = 0; h < n; h++) {
        const eng_power *p = &c->plat->hosts[h].power;
        psave_host *ph = &s->h[h];
        ph->off_s = p->on && p->switch_off_s > 0 ? p->switch_off_s : o->suspend_timeout_s;
        ph->on_s = p->on && p->switch_on_s > 0 ? p->switch_on_s : o->resume_timeout_s;
        ph->idle_since_s = 0;
        if (!ph->excluded && ph->off_s + ph->on_s + s->rate_wait_max_s > s->delay_max_s)
            s->delay_max_s = ph->off_s + ph->on_s + s->rate_wait_max_s;
        if (!ph->excluded && push(c, o->suspend_time_s, (int32_t)h, EV_SUSPEND))
            return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    return ENG_OK;
}

void eng_psave_destroy(eng_core *c)
{
    if (c->psave) {
        free(c->psave->h);
        free(c->psave->starts);
    }
    free(c->psave);
    c->psave = NULL;
    free(c->pslog);
    c->pslog = NULL;
    eng_heap_fini(&c->pchanges);
}

double eng_psave_delay_max(const eng_core *c)
{
    return c->psave ? c->psave->delay_max_s : 0;
}

double eng_psave_next(const eng_core *c)
{
    return c->pchanges.n ? c->pchanges.v[0].t : INFINITY;
}

static pol_host *view_host(eng_core *c, int32_t h)
{
    return &c->pools[c->plat->hosts[h].pool].hosts[c->pool_pos[h]];
}

/* Job idx has just been given its hosts: claims them, books the boots, and returns when it
 * starts and how long it waited for the resume rate. */
/* Calls f(c, host, arg) for each platform host of job idx, in order. */
#define FOR_JOB_HOSTS(c, idx, h)                                                                   \
    for (int32_t u_ = 0; u_ < (c)->res[idx].n_runs; u_++)                                          \
        for (int32_t h = (c)->runs[(c)->res[idx].runs_off + (size_t)u_].host,                      \
                     e_ = h + (c)->runs[(c)->res[idx].runs_off + (size_t)u_].n;                    \
             h < e_; h++)

int eng_psave_claim(eng_core *c, int32_t idx, double *start_s, double *rate_wait_s)
{
    psave_state *s = c->psave;
    double start = c->now, wait = 0;
    FOR_JOB_HOSTS(c, idx, h)
    {
        psave_host *ph = &s->h[h];
        int st = c->hstate[h];
        double ready = c->now;
        if (st == ENG_HOST_OFF || st == ENG_HOST_SHUTTING_DOWN) {
            double from = st == ENG_HOST_OFF ? c->now : ph->sw_end_s;
            double begin = book(&s->ons, from);
            if (begin > from && begin - from > wait)
                wait = begin - from;
            ready = begin + ph->on_s;
            ph->claimed = true;
            if (st == ENG_HOST_OFF) {
                if (begin == c->now) {
                    eng_host_set(c, h, ENG_HOST_BOOTING);
                    if (log_switch(c, h, EV_UP))
                        return ENG_NOMEM;
                    ph->sw_end_s = ready;
                    if (push(c, ready, h, EV_UP))
                        return ENG_NOMEM;
                } else {
                    ph->sw_end_s = begin; /* boots at begin: EV_OFF begins it */
                    if (push(c, begin, h, EV_OFF))
                        return ENG_NOMEM;
                }
            } else if (begin > from)
                ph->sw_end_s = begin; /* off at its shutdown's end, boots at begin */
            view_host(c, h)->usable_at_s = ready;
        }
        if (ready > start)
            start = ready;
    }
    if (start > c->now) {
        /* its hosts on now are held idle until the start */
        if (push(c, start, idx, EV_START))
            return ENG_NOMEM;
    } else {
        FOR_JOB_HOSTS(c, idx, h)
        eng_host_cores(c, h, 0, c->plat->hosts[h].cores);
    }
    *start_s = start;
    *rate_wait_s = wait;
    return ENG_OK;
}

int eng_psave_released(eng_core *c, int32_t idx)
{
    double t = c->now + c->opts.power_save.suspend_time_s;
    FOR_JOB_HOSTS(c, idx, h)
    {
        psave_host *ph = &c->psave->h[h];
        ph->idle_since_s = c->now;
        if (!ph->excluded && push(c, t, h, EV_SUSPEND))
            return ENG_NOMEM;
    }
    return ENG_OK;
}

/* A due suspend check of host h: switch it off if it has been idle and
 * free for suspend_time_s and the rate has room, else retry. */
static int try_suspend(eng_core *c, int32_t h)
{
    psave_state *s = c->psave;
    psave_host *ph = &s->h[h];
    pol_host *vh = view_host(c, h);
    double due = ph->idle_since_s + c->opts.power_save.suspend_time_s;
    if (c->hstate[h] != ENG_HOST_IDLE || vh->free_cores != vh->cores || due > c->now)
        return ENG_OK; /* taken since, or a later check is pending */
    if (!has_room(&s->offs, c->now))
        return push(c, (floor(c->now / 60.0) + 1) * 60.0, h, EV_SUSPEND);
    book(&s->offs, c->now);
    eng_host_set(c, h, ENG_HOST_SHUTTING_DOWN);
    if (log_switch(c, h, EV_SUSPEND))
        return ENG_NOMEM;
    ph->sw_end_s = c->now + ph->off_s;
    vh->usable_at_s = ph->sw_end_s + ph->on_s;
    return push(c, ph->sw_end_s, h, EV_OFF);
}

/* Host h's shutdown ends, or its booked boot begins. */
static int off_or_boot(eng_core *c, int32_t h)
{
    psave_host *ph = &c->psave->h[h];
    if (c->hstate[h] == ENG_HOST_SHUTTING_DOWN)
        eng_host_set(c, h, ENG_HOST_OFF);
    if (!ph->claimed)
        return ENG_OK;
    if (ph->sw_end_s > c->now) /* shut down before its booked minute */
        return push(c, ph->sw_end_s, h, EV_OFF);
    eng_host_set(c, h, ENG_HOST_BOOTING);
    if (log_switch(c, h, EV_UP))
        return ENG_NOMEM;
    ph->sw_end_s = c->now + ph->on_s;
    return push(c, ph->sw_end_s, h, EV_UP);
}

/* Job idx's hosts, all up now, turn busy. */
static int start_now(eng_core *c, int32_t idx)
{
    if (c->res[idx].state != ENG_JOB_RUNNING || c->res[idx].start_s != c->now)
        return ENG_OK; /* stopped by its policy while its hosts booted */
    FOR_JOB_HOSTS(c, idx, h)
    {
        if (c->hstate[h] != ENG_HOST_IDLE)
            return ENG_INVARIANT;
        eng_host_cores(c, h, 0, c->plat->hosts[h].cores);
    }
    return ENG_OK;
}

int eng_psave_apply(eng_core *c)
{
    psave_state *s = c->psave;
    s->n_starts = 0;
    while (c->pchanges.n && c->pchanges.v[0].t <= c->now) {
        eng_heap_ev ev = eng_heap_pop(&c->pchanges);
        int32_t id = ev.id / 4, kind = ev.id % 4, rc = ENG_OK;
        switch (kind) {
        case EV_SUSPEND:
            rc = try_suspend(c, id);
            break;
        case EV_OFF:
            rc = off_or_boot(c, id);
            break;
        case EV_UP: {
            psave_host *ph = &s->h[id];
            pol_host *vh = view_host(c, id);
            ph->claimed = false;
            eng_host_set(c, id, ENG_HOST_IDLE);
            vh->usable_at_s = -INFINITY;
            if (vh->free_cores == vh->cores) { /* its job was stopped meanwhile */
                ph->idle_since_s = c->now;
                rc = push(c, c->now + c->opts.power_save.suspend_time_s, id, EV_SUSPEND);
            }
            break;
        }
        default: /* EV_START, after the boots of this instant */
            if (eng_grow(&s->starts, &s->cap_starts, s->n_starts + 1, sizeof *s->starts))
                return ENG_NOMEM;
            s->starts[s->n_starts++] = id;
            break;
        }
        if (rc)
            return rc;
    }
    for (size_t i = 0; i < s->n_starts; i++) {
        int rc = start_now(c, s->starts[i]);
        if (rc)
            return rc;
    }
    return ENG_OK;
}

void eng_psave_view(eng_core *c, pool_state *ps)
{
    for (int32_t i = 0; i < ps->n_hosts; i++) {
        pol_host *h = &ps->hosts[i];
        if (c->hstate[h->index] == ENG_HOST_OFF && !c->psave->h[h->index].claimed)
            h->usable_at_s = c->now + c->psave->h[h->index].on_s;
    }
}
