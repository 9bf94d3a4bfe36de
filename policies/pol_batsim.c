/* pol_batsim.c — a scheduler written for Batsim, behind the policy
 * boundary: batchlab plays Batsim's side of Batsim's protocol (version 4,
 * docs/protocol.rst of Batsim: JSON messages over a ZeroMQ REQ socket, the
 * scheduler's REP socket answering each request).
 *
 * Dutot, Mercier, Poquet & Richard 2016 (Batsim: a realistic
 * language-independent resources and jobs management systems simulator).
 *
 * The bridge turns what the view shows into protocol events and the
 * scheduler's answers into decisions, which the engine applies and checks
 * as it does any policy's; the engine knows nothing of sockets or JSON.
 *
 *   hooks      on_submit, on_finish and on_capacity only queue events:
 *              JOB_SUBMITTED (job "w0!ID", res = its units, walltime = its
 *              estimate, profile "delay_R": a delay of its run time R,
 *              forwarded with the job), JOB_COMPLETED (with the state
 *              Batsim gives: COMPLETED_SUCCESSFULLY, _WALLTIME_REACHED,
 *              _FAILED for a host failure, _KILLED after a KILL_JOB, and
 *              the allocation), NOTIFY machine_unavailable/_available.
 *   schedule   the first call sends SIMULATION_BEGINS alone (the compute
 *              resources, one per host in name order: id = the host's
 *              position; the configuration; workload w0 and its profiles).
 *              Each call then sends one request with what the hooks
 *              queued, JOB_KILLED for the kills asked before,
 *              REQUESTED_CALL for the CALL_ME_LATER times reached, and
 *              NOTIFY no_more_static_job_to_submit once every job has been
 *              submitted; a call with nothing new sends nothing. The
 *              reply's events become decisions: EXECUTE_JOB -> a start on
 *              the named hosts, REJECT_JOB -> pol_out_reject, KILL_JOB ->
 *              pol_out_kill, CALL_ME_LATER -> a wake-up (renewed at every
 *              call until it is reached). A reply with a QUERY is answered
 *              at once by a new request at the same time carrying the
 *              ANSWER (consumed_energy: the modelled joules so far). When every job has ended, SIMULATION_ENDS goes out
 *              and the reply must carry no event.
 *
 * Time: all of a reply's decisions apply at the request's time. Batsim
 * would apply an event stamped later than the request at its stamp (the
 * scheduler's own decision time); batchlab models no decision time, and
 * accepts any stamp from the request's now to the reply's now.
 *
 * The other side is input: every reply is checked before anything is
 * applied, and a reply that breaks a rule stops the run (ENG_POLICY, exit
 * 1, nothing written) with a message naming the message, the event and
 * the rule: malformed JSON or a message not shaped as the protocol says; a
 * timestamp in the past or out of order; an unknown job id, or a job
 * that is not waiting (already running, finished, rejected); an
 * allocation that is not an interval set of existing resources ("0-3 7"),
 * gives a host to two jobs or a host that is busy or down, or does not
 * hold exactly the job's requested resources; an event Batsim's
 * scheduler may not send or batchlab does not model (REGISTER_JOB,
 * SET_RESOURCE_STATE...); events answering SIMULATION_ENDS; an ANSWER no
 * QUERY asked for. A scheduler that dies or sends nothing within the
 * timeout ends the run the same way (pol_batsim_peer.h).
 *
 * Model differences (README "External schedulers"): whole hosts only (no
 * POL_FLAG_CORES: the engine refuses --alloc core, ENG_USAGE), no islands
 * (the engine refuses the policy on such a pool: --islands ignore), one
 * pool per platform,
 * jobs killed at their walltime are reported COMPLETED_WALLTIME_REACHED as
 * Batsim does, a requeued job (--on-failure requeue) is submitted again
 * under its id.
 *
 * Cost per call: O(events + hosts of the decisions); the first call
 * O(jobs) for the profiles.
 */
#include "batsim/pol_batsim_peer.h"
#include "eng_policy.h"

#include "eng_error.h"
#include "eng_json.h"
#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BS_WORKLOAD "w0"

enum { BS_NEW, BS_WAITING, BS_RUNNING, BS_ENDED, BS_REJECTED };

typedef struct bs_state {
    char *endpoint, *command, *workload;
    double timeout_s;
    size_t n_jobs;
    const double *run_s;
    double ref_speed;
    bool counted; /* holds the one instance a process may run */

    pol_bs_peer *peer;
    json_t *events; /* queued for the next request */
    size_t n_requests;
    size_t bytes_out, bytes_in; /* JSON text sent and received */
    bool begun, ended, no_more_sent;
    uint8_t *jstate; /* per job: BS_* */
    bool *kill_asked;
    double *slowest;   /* per started job: the slowest speed of its hosts */
    char **alloc_text; /* per started job: its allocation as sent back */
    int64_t *ids;      /* open addressing: SWF id -> idx, by hash */
    int32_t *id_idx;
    size_t id_cap;
    size_t n_submitted, n_ended;
    double *calls; /* CALL_ME_LATER times not yet reached, ascending */
    size_t n_calls, cap_calls;
    json_t *kills;        /* job ids for the next JOB_KILLED */
    json_t *progress;     /*   and the progress of those really killed */
    uint32_t *exec_stamp; /* per job: the call (stamp) that executed it */
    uint32_t *taken;      /* per host: the call (stamp) that gave it */
    bool *down;           /* per host: down as last notified */
    uint32_t stamp;
    int32_t *hostbuf;
    size_t cap_hostbuf;
} bs_state;

/* One bridge per process: the pool it serves is the platform's only one. */
static int live_bridges;

static const pol_option batsim_options[] = {
    {.key = "socket",
     .type = POL_OPT_STRING,
     .metavar = "a ZeroMQ endpoint",
     .absent = "tcp://localhost:28000, as Batsim's",
     .help = "where the scheduler's REP socket listens (--scheduler-socket)"},
    {.key = "command",
     .type = POL_OPT_STRING,
     .metavar = "a shell command",
     .absent = "none: the scheduler runs already",
     .help = "started with /bin/sh -c, stopped with the run (--scheduler-cmd)"},
    {.key = "timeout",
     .type = POL_OPT_REAL,
     .lo = 0,
     .open_lo = true,
     .hi = 1e6,
     .def_real = 60,
     .unit = "seconds",
     .help = "longest wait for one reply (--scheduler-timeout)"},
    {.key = "workload",
     .type = POL_OPT_STRING,
     .metavar = "a path",
     .absent = "none",
     .help = "the workload's path, given to the scheduler in SIMULATION_BEGINS"},
    {0},
};

/* ---- small helpers ------------------------------------------------------ */

static size_t id_slot(const bs_state *s, int64_t id)
{
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (s->id_cap - 1);
}

/* Records job id -> idx; false when the id is taken by another job. */
static bool id_put(bs_state *s, int64_t id, int32_t idx)
{
    size_t k = id_slot(s, id);
    while (s->id_idx[k] >= 0) {
        if (s->ids[k] == id)
            return s->id_idx[k] == idx;
        k = (k + 1) & (s->id_cap - 1);
    }
    s->ids[k] = id;
    s->id_idx[k] = idx;
    return true;
}

static int32_t id_get(const bs_state *s, int64_t id)
{
    size_t k = id_slot(s, id);
    while (s->id_idx[k] >= 0) {
        if (s->ids[k] == id)
            return s->id_idx[k];
        k = (k + 1) & (s->id_cap - 1);
    }
    return -1;
}

static void job_name(char *buf, size_t len, int64_t id)
{
    snprintf(buf, len, BS_WORKLOAD "!%lld", (long long)id);
}

static void profile_name(char *buf, size_t len, double run_s)
{
    char num[40];
    snprintf(buf, len, "delay_%s", eng_fmt_double(num, sizeof num, run_s));
}

static json_t *event(double t, const char *type, json_t *data, bool *ok)
{
    json_t *e = json_object();
    eng_json_set(e, "timestamp", eng_json_num(t), ok);
    eng_json_set(e, "type", eng_json_str(type), ok);
    eng_json_set(e, "data", data ? data : json_object(), ok);
    return e;
}

static json_t *delay_profile(double run_s, bool *ok)
{
    json_t *p = json_object();
    eng_json_set(p, "type", eng_json_str("delay"), ok);
    eng_json_set(p, "delay", eng_json_num(run_s), ok);
    return p;
}

/* An interval set of sorted distinct ids: "0-3 7". */
static char *iset_format(const int32_t *ids, size_t n)
{
    size_t cap = n * 24 + 1, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        len += (size_t)(j > i ? snprintf(s + len, cap - len, "%s%d-%d", len ? " " : "", ids[i],
                                         ids[j])
                              : snprintf(s + len, cap - len, "%s%d", len ? " " : "", ids[i]));
        i = j + 1;
    }
    return s;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Parses an interval set ("0-3 7", Batsim's string form: ranges a-b and
 * single ids separated by spaces) into ascending distinct ids below n_max.
 * Returns the count, or -1 with why. */
static long iset_parse(const char *text, int32_t n_max, int32_t *ids, size_t cap, char *why,
                       size_t wlen)
{
    size_t n = 0;
    const char *p = text;
    while (*p) {
        if (*p == ' ') {
            p++;
            continue;
        }
        char *end;
        errno = 0;
        long a = strtol(p, &end, 10), b;
        if (end == p || a < 0 || errno) {
            snprintf(why, wlen,
                     "expected an interval set of resource ids like \"0-3 7\", got \"%s\"", text);
            return -1;
        }
        b = a;
        p = end;
        if (*p == '-') {
            b = strtol(p + 1, &end, 10);
            if (end == p + 1 || b < a || errno) {
                snprintf(why, wlen,
                         "expected an interval set of resource ids like \"0-3 7\", got \"%s\"",
                         text);
                return -1;
            }
            p = end;
        }
        if (*p && *p != ' ') {
            snprintf(why, wlen,
                     "expected an interval set of resource ids like \"0-3 7\", got \"%s\"", text);
            return -1;
        }
        if (b >= n_max) {
            snprintf(why, wlen, "resource %ld does not exist (the platform has ids 0-%d)", b,
                     n_max - 1);
            return -1;
        }
        for (long k = a; k <= b; k++) {
            if (n >= cap) {
                snprintf(why, wlen, "the allocation \"%s\" holds more resources than the platform",
                         text);
                return -1;
            }
            ids[n++] = (int32_t)k;
        }
    }
    qsort(ids, n, sizeof *ids, cmp_i32);
    for (size_t i = 1; i < n; i++)
        if (ids[i] == ids[i - 1]) {
            snprintf(why, wlen, "the allocation \"%s\" names resource %d twice", text, ids[i]);
            return -1;
        }
    return (long)n;
}

/* ---- init / fini ---------------------------------------------------------- */

static int batsim_init(void *state, const pol_setup *setup, char *err, size_t errlen)
{
    bs_state *s = state;
    s->timeout_s = pol_opt_real(setup, "timeout");
    const char *cmd = pol_opt_str(setup, "command");
    if (cmd && !*cmd) {
        snprintf(err, errlen, "option command: expected a shell command, got ''");
        return ENG_INVAL;
    }
    const char *ep = pol_opt_given(setup, "socket") ? pol_opt_str(setup, "socket")
                                                    : "tcp://localhost:28000";
    if (!*ep) {
        snprintf(err, errlen, "option socket: expected a ZeroMQ endpoint, got ''");
        return ENG_INVAL;
    }
    if (live_bridges > 0) {
        snprintf(err, errlen,
                 "one Batsim scheduler drives one pool of hosts, and this platform has several");
        return ENG_USAGE;
    }
    s->endpoint = eng_strdup(ep);
    s->command = cmd ? eng_strdup(cmd) : NULL;
    const char *wl = pol_opt_str(setup, "workload");
    s->workload = eng_strdup(wl ? wl : "");
    s->n_jobs = setup->n_jobs;
    s->run_s = setup->run_s;
    s->ref_speed = setup->ref_speed_flops;
    size_t n1 = s->n_jobs ? s->n_jobs : 1;
    s->id_cap = 16;
    while (s->id_cap < 2 * n1)
        s->id_cap *= 2;
    s->jstate = calloc(n1, 1);
    s->kill_asked = calloc(n1, sizeof *s->kill_asked);
    s->slowest = calloc(n1, sizeof *s->slowest);
    s->alloc_text = calloc(n1, sizeof *s->alloc_text);
    s->ids = malloc(s->id_cap * sizeof *s->ids);
    s->id_idx = malloc(s->id_cap * sizeof *s->id_idx);
    s->taken = calloc(setup->n_hosts ? setup->n_hosts : 1, sizeof *s->taken);
    s->events = json_array();
    s->kills = json_array();
    s->progress = json_object();
    s->exec_stamp = calloc(n1, sizeof *s->exec_stamp);
    s->down = calloc(setup->n_hosts ? setup->n_hosts : 1, sizeof *s->down);
    if (!s->progress || !s->exec_stamp || !s->down || !s->endpoint || (cmd && !s->command) ||
        !s->workload || !s->jstate || !s->kill_asked || !s->slowest || !s->alloc_text || !s->ids ||
        !s->id_idx || !s->taken || !s->events || !s->kills)
        return ENG_NOMEM; /* fini frees what was allocated */
    for (size_t k = 0; k < s->id_cap; k++)
        s->id_idx[k] = -1;
    live_bridges++;
    s->counted = true;
    return ENG_OK;
}

static void batsim_fini(void *state)
{
    bs_state *s = state;
    pol_bs_peer_close(s->peer);
    s->peer = NULL;
    if (s->counted)
        live_bridges--;
    free(s->endpoint);
    free(s->command);
    free(s->workload);
    free(s->jstate);
    free(s->kill_asked);
    free(s->slowest);
    if (s->alloc_text)
        for (size_t i = 0; i < s->n_jobs; i++)
            free(s->alloc_text[i]);
    free(s->alloc_text);
    free(s->ids);
    free(s->id_idx);
    free(s->taken);
    free(s->calls);
    free(s->hostbuf);
    json_decref(s->events);
    json_decref(s->kills);
    json_decref(s->progress);
    free(s->exec_stamp);
    free(s->down);
}

/* ---- the hooks: events for the next request ------------------------------ */

static int batsim_on_submit(void *state, const pol_view *v, const pol_job *job)
{
    bs_state *s = state;
    if (!id_put(s, job->id, job->idx))
        return ENG_INVAL; /* two jobs with one number: Batsim's ids are unique */
    bool ok = true, again = s->jstate[job->idx] != BS_NEW;
    if (again)
        s->n_ended--; /* requeued after a host failure */
    else
        s->n_submitted++;
    s->jstate[job->idx] = BS_WAITING;
    s->kill_asked[job->idx] = false;
    char name[64], prof[64];
    job_name(name, sizeof name, job->id);
    profile_name(prof, sizeof prof, s->run_s ? s->run_s[job->idx] : 0);
    json_t *j = json_object();
    eng_json_set(j, "id", eng_json_str(name), &ok);
    eng_json_set(j, "subtime", eng_json_num(job->submit_s), &ok);
    eng_json_set(j, "res", json_integer(job->units), &ok);
    eng_json_set(j, "walltime", eng_json_num(job->estimate_s), &ok);
    eng_json_set(j, "profile", eng_json_str(prof), &ok);
    json_t *data = json_object();
    eng_json_set(data, "job_id", eng_json_str(name), &ok);
    eng_json_set(data, "job", j, &ok);
    eng_json_set(data, "profile", delay_profile(s->run_s ? s->run_s[job->idx] : 0, &ok), &ok);
    eng_json_push(s->events, event(v->now_s, "JOB_SUBMITTED", data, &ok), &ok);
    return ok ? ENG_OK : ENG_NOMEM;
}

/* How job ended, as Batsim says it: from its run time, its estimate and
 * the bridge's own kills (the view does not say). */
static const char *end_state(const bs_state *s, const pol_view *v, const pol_job *job,
                             const char **reason)
{
    *reason = "";
    if (s->kill_asked[job->idx]) {
        *reason = "killed by the scheduler (KILL_JOB)";
        return "COMPLETED_KILLED";
    }
    double ran = v->now_s - job->start_s, eps = 1e-9 * (1 + fabs(v->now_s));
    double natural = s->run_s && s->slowest[job->idx] > 0
                         ? s->run_s[job->idx] * s->ref_speed / s->slowest[job->idx] + job->init_s
                         : ran;
    if (ran + eps >= natural)
        return "COMPLETED_SUCCESSFULLY";
    if (ran + eps >= job->estimate_s) {
        *reason = "walltime reached";
        return "COMPLETED_WALLTIME_REACHED";
    }
    *reason = "a host of the job failed";
    return "COMPLETED_FAILED";
}

/* A job ended by the scheduler's KILL_JOB: no JOB_COMPLETED, it goes
 * into the next JOB_KILLED with its progress (the share of its run done). */
static int killed_end(bs_state *s, const pol_view *v, const pol_job *job, const char *name)
{
    bool ok = true;
    double ran = v->now_s - job->start_s;
    double natural = s->run_s && s->slowest[job->idx] > 0
                         ? s->run_s[job->idx] * s->ref_speed / s->slowest[job->idx] + job->init_s
                         : 0;
    char prof[64];
    profile_name(prof, sizeof prof, s->run_s ? s->run_s[job->idx] : 0);
    json_t *p = json_object();
    eng_json_set(p, "profile", eng_json_str(prof), &ok);
    eng_json_set(p, "progress", eng_json_num(natural > 0 ? fmin(ran / natural, 1) : 0), &ok);
    eng_json_set(s->progress, name, p, &ok);
    eng_json_push(s->kills, eng_json_str(name), &ok);
    return ok ? ENG_OK : ENG_NOMEM;
}

static int batsim_on_finish(void *state, const pol_view *v, const pol_job *job)
{
    bs_state *s = state;
    bool ok = true;
    char name[64];
    job_name(name, sizeof name, job->id);
    s->jstate[job->idx] = BS_ENDED;
    s->n_ended++;
    if (s->kill_asked[job->idx])
        return killed_end(s, v, job, name);
    const char *reason;
    const char *st = end_state(s, v, job, &reason);
    json_t *data = json_object();
    eng_json_set(data, "job_id", eng_json_str(name), &ok);
    eng_json_set(data, "job_state", eng_json_str(st), &ok);
    eng_json_set(data, "return_code", json_integer(strcmp(st, "COMPLETED_SUCCESSFULLY") ? 1 : 0),
                 &ok);
    eng_json_set(data, "kill_reason", eng_json_str(reason), &ok);
    eng_json_set(data, "alloc", eng_json_str(s->alloc_text[job->idx]), &ok);
    eng_json_push(s->events, event(v->now_s, "JOB_COMPLETED", data, &ok), &ok);
    return ok ? ENG_OK : ENG_NOMEM;
}

/* Hosts that went down or came back since the last notification: NOTIFY
 * machine_unavailable / machine_available with their interval sets. */
static int batsim_on_capacity(void *state, const pol_view *v)
{
    bs_state *s = state;
    if (eng_grow(&s->hostbuf, &s->cap_hostbuf, v->n_hosts + 1, sizeof *s->hostbuf))
        return ENG_NOMEM;
    bool ok = true;
    for (int up = 0; up < 2; up++) {
        size_t n = 0;
        for (size_t h = 0; h < v->n_hosts; h++)
            if (v->hosts[h].up == (bool)up && s->down[h] == (bool)up) {
                s->hostbuf[n++] = (int32_t)h;
                s->down[h] = !up;
            }
        if (!n)
            continue;
        char *set = iset_format(s->hostbuf, n);
        if (!set)
            return ENG_NOMEM;
        json_t *data = json_object();
        eng_json_set(data, "type", eng_json_str(up ? "machine_available" : "machine_unavailable"),
                     &ok);
        eng_json_set(data, "resources", eng_json_str(set), &ok);
        free(set);
        eng_json_push(s->events, event(v->now_s, "NOTIFY", data, &ok), &ok);
    }
    return ok ? ENG_OK : ENG_NOMEM;
}

/* ---- requests --------------------------------------------------------------- */

static json_t *simulation_begins(const bs_state *s, const pol_view *v, bool *ok)
{
    json_t *data = json_object();
    eng_json_set(data, "nb_resources", json_integer((json_int_t)v->n_hosts), ok);
    eng_json_set(data, "nb_compute_resources", json_integer((json_int_t)v->n_hosts), ok);
    eng_json_set(data, "nb_storage_resources", json_integer(0), ok);
    eng_json_set(data, "allow_compute_sharing", json_false(), ok);
    eng_json_set(data, "allow_storage_sharing", json_true(), ok);
    json_t *cfg = json_object();
    eng_json_set(cfg, "redis-enabled", json_false(), ok);
    eng_json_set(cfg, "redis-hostname", eng_json_str("127.0.0.1"), ok);
    eng_json_set(cfg, "redis-port", json_integer(6379), ok);
    eng_json_set(cfg, "redis-prefix", eng_json_str("default"), ok);
    eng_json_set(cfg, "profiles-forwarded-on-submission", json_true(), ok);
    eng_json_set(cfg, "dynamic-jobs-enabled", json_false(), ok);
    eng_json_set(cfg, "dynamic-jobs-acknowledged", json_false(), ok);
    eng_json_set(cfg, "profile-reuse-enabled", json_false(), ok);
    eng_json_set(cfg, "forward-unknown-events", json_false(), ok);
    eng_json_set(data, "config", cfg, ok);
    json_t *res = json_array();
    for (size_t h = 0; h < v->n_hosts; h++) {
        const pol_host *ph = &v->hosts[h];
        json_t *r = json_object(), *props = json_object();
        char num[40];
        eng_json_set(r, "id", json_integer((json_int_t)h), ok);
        eng_json_set(r, "name", eng_json_str(ph->name), ok);
        eng_json_set(r, "state", eng_json_str("idle"), ok);
        eng_json_set(props, "speed", eng_json_str(eng_fmt_double(num, sizeof num, ph->speed_flops)),
                     ok);
        snprintf(num, sizeof num, "%d", ph->cores);
        eng_json_set(props, "core", eng_json_str(num), ok);
        eng_json_set(r, "properties", props, ok);
        eng_json_push(res, r, ok);
    }
    eng_json_set(data, "compute_resources", res, ok);
    eng_json_set(data, "storage_resources", json_array(), ok);
    json_t *wl = json_object();
    eng_json_set(wl, BS_WORKLOAD, eng_json_str(s->workload), ok);
    eng_json_set(data, "workloads", wl, ok);
    json_t *profs = json_object(), *mine = json_object();
    for (size_t i = 0; s->run_s && i < s->n_jobs && *ok; i++) {
        char prof[64];
        profile_name(prof, sizeof prof, s->run_s[i]);
        if (!json_object_get(mine, prof))
            eng_json_set(mine, prof, delay_profile(s->run_s[i], ok), ok);
    }
    eng_json_set(profs, BS_WORKLOAD, mine, ok);
    eng_json_set(data, "profiles", profs, ok);
    return event(v->now_s, "SIMULATION_BEGINS", data, ok);
}

static int exchange(bs_state *s, pol_out *out, double now, json_t *events, json_t **reply,
                    const char *what)
{
    bool ok = true;
    json_t *msg = json_object();
    eng_json_set(msg, "now", eng_json_num(now), &ok);
    eng_json_set(msg, "events", events, &ok);
    char *text = ok ? json_dumps(msg, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
    json_decref(msg);
    if (!text)
        return ENG_NOMEM;
    s->n_requests++;
    char err[400] = "", *rtext = NULL;
    size_t rlen = 0, tlen = strlen(text);
    s->bytes_out += tlen;
    int rc = pol_bs_peer_exchange(s->peer, text, tlen, s->timeout_s, &rtext, &rlen, err,
                                  sizeof err);
    s->bytes_in += rlen;
    free(text);
    if (rc == ENG_NOMEM)
        return rc;
    if (rc)
        return pol_out_error(out, rc, "request %zu (%s, t=%.17g): %s", s->n_requests, what, now,
                             err);
    json_error_t je;
    *reply = json_loadb(rtext, rlen, JSON_REJECT_DUPLICATES, &je);
    free(rtext);
    if (!*reply)
        return pol_out_error(out, ENG_POLICY,
                             "reply %zu (to %s, t=%.17g): malformed JSON at line %d, column %d: "
                             "%s",
                             s->n_requests, what, now, je.line, je.column, je.text);
    return ENG_OK;
}

/* ---- the reply ------------------------------------------------------------ */

typedef struct reply_ctx {
    bs_state *s;
    const pol_view *v;
    pol_out *out;
    size_t k; /* the event's index */
    const char *type;
    double stamp_s;
    json_t *answers;
} reply_ctx;

#define BAD(cx, ...) reply_error(cx, __VA_ARGS__)

static int reply_error(const reply_ctx *cx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int reply_error(const reply_ctx *cx, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (cx->type)
        return pol_out_error(cx->out, ENG_POLICY, "reply %zu (t=%.17g), event %zu (%s): %s",
                             cx->s->n_requests, cx->v->now_s, cx->k, cx->type, why);
    return pol_out_error(cx->out, ENG_POLICY, "reply %zu (t=%.17g): %s", cx->s->n_requests,
                         cx->v->now_s, why);
}

/* The job a "w0!ID" string names, or -1 after the error. */
static int32_t find_job(reply_ctx *cx, json_t *id, int *rc)
{
    const char *text = json_string_value(id);
    if (!text)
        return *rc = BAD(cx, "expected the job id as a string \"" BS_WORKLOAD "!ID\""), -1;
    const char *p = text;
    if (strncmp(p, BS_WORKLOAD "!", 3) != 0)
        return *rc = BAD(cx, "unknown job '%s' (batchlab's jobs are " BS_WORKLOAD "!ID)", text), -1;
    char *end;
    errno = 0;
    long long n = strtoll(p + 3, &end, 10);
    int32_t idx = end == p + 3 || *end || errno ? -1 : id_get(cx->s, n);
    if (idx < 0)
        return *rc = BAD(cx, "unknown job '%s': no job of that id was submitted", text), -1;
    return idx;
}

static const char *state_words(uint8_t st)
{
    switch (st) {
    case BS_RUNNING:
        return "running already";
    case BS_ENDED:
        return "finished";
    case BS_REJECTED:
        return "rejected";
    default:
        return "not submitted";
    }
}

static int on_execute(reply_ctx *cx, json_t *data)
{
    bs_state *s = cx->s;
    const pol_view *v = cx->v;
    int rc = 0;
    int32_t idx = find_job(cx, json_object_get(data, "job_id"), &rc);
    if (idx < 0)
        return rc;
    const char *id = json_string_value(json_object_get(data, "job_id"));
    if (s->jstate[idx] != BS_WAITING)
        return BAD(cx, "job %s is %s: only a waiting job can be executed", id,
                   state_words(s->jstate[idx]));
    const char *alloc = json_string_value(json_object_get(data, "alloc"));
    if (!alloc)
        return BAD(cx, "job %s: expected \"alloc\", an interval set of resources like \"0-3 7\"",
                   id);
    if (eng_grow(&s->hostbuf, &s->cap_hostbuf, v->n_hosts + 1, sizeof *s->hostbuf))
        return ENG_NOMEM;
    char why[300];
    long n = iset_parse(alloc, (int32_t)v->n_hosts, s->hostbuf, v->n_hosts, why, sizeof why);
    if (n < 0)
        return BAD(cx, "job %s: %s", id, why);
    const pol_job *job = pol_queue_find(v, idx);
    if (!job)
        return BAD(cx, "job %s is not waiting in this pool", id);
    if (n != job->units)
        return BAD(cx, "job %s requested %d resource%s and the allocation \"%s\" holds %ld", id,
                   job->units, job->units == 1 ? "" : "s", alloc, n);
    double slowest = INFINITY;
    for (long k = 0; k < n; k++) {
        int32_t h = s->hostbuf[k];
        const pol_host *ph = &v->hosts[h];
        if (s->taken[h] == s->stamp)
            return BAD(cx, "job %s: resource %d is given to two jobs at this instant", id, h);
        if (!ph->up)
            return BAD(cx, "job %s: resource %d is down", id, h);
        if (ph->free_cores < ph->cores)
            return BAD(cx, "job %s: resource %d is in use by a running job", id, h);
        s->taken[h] = s->stamp;
        if (ph->speed_flops < slowest)
            slowest = ph->speed_flops;
    }
    char *text = iset_format(s->hostbuf, (size_t)n);
    if (!text)
        return ENG_NOMEM;
    free(s->alloc_text[idx]);
    s->alloc_text[idx] = text;
    s->slowest[idx] = slowest;
    s->jstate[idx] = BS_RUNNING;
    s->exec_stamp[idx] = s->stamp;
    pol_out_start_on(cx->out, job, s->hostbuf, (size_t)n);
    return ENG_OK;
}

static int on_call_me_later(reply_ctx *cx, json_t *data)
{
    bs_state *s = cx->s;
    json_t *t = json_object_get(data, "timestamp");
    if (!json_is_number(t))
        return BAD(cx, "expected data.timestamp, the time to be called at (a number)");
    double at = json_number_value(t);
    if (!(at > cx->v->now_s))
        return BAD(cx, "the time to be called at, %.17g, is %s now (t=%.17g)", at,
                   at < cx->v->now_s ? "in the past: before" : "not after", cx->v->now_s);
    if (eng_grow(&s->calls, &s->cap_calls, s->n_calls + 1, sizeof *s->calls))
        return ENG_NOMEM;
    size_t k = s->n_calls;
    while (k > 0 && s->calls[k - 1] > at)
        k--;
    if (k > 0 && s->calls[k - 1] == at)
        return ENG_OK; /* one call answers both */
    memmove(s->calls + k + 1, s->calls + k, (s->n_calls - k) * sizeof *s->calls);
    s->calls[k] = at;
    s->n_calls++;
    return ENG_OK;
}

/* QUERY: Batsim's one request, consumed_energy, is answered with the
 * platform's modelled energy from time 0 to now in joules (pol_view:
 * energy_j), as Batsim answers with the sum of SimGrid's
 * sg_host_get_consumed_energy over the hosts; all requests of one QUERY
 * in one ANSWER. Without power values there is nothing to answer with,
 * and Batsim refuses the request too (its energy is off). */
static int on_query(reply_ctx *cx, json_t *data)
{
    json_t *req = json_object_get(data, "requests");
    if (!json_is_object(req))
        return BAD(cx, "expected data.requests, an object of requests");
    bool ok = true;
    json_t *answer = json_object();
    const char *key;
    json_t *val;
    json_object_foreach(req, key, val)
    {
        (void)val;
        if (strcmp(key, "consumed_energy") != 0) {
            json_decref(answer);
            return BAD(cx, "batchlab answers no request '%s' (only consumed_energy)", key);
        }
        if (!cx->v->has_energy) {
            json_decref(answer);
            return BAD(cx, "consumed_energy needs power values: the platform's hosts have none "
                           "(README, \"Power and energy\")");
        }
        eng_json_set(answer, "consumed_energy", eng_json_num(cx->v->energy_j), &ok);
    }
    eng_json_push(cx->answers, event(cx->v->now_s, "ANSWER", answer, &ok), &ok);
    return ok ? ENG_OK : ENG_NOMEM;
}

static int on_reject(reply_ctx *cx, json_t *data)
{
    bs_state *s = cx->s;
    int rc = 0;
    int32_t idx = find_job(cx, json_object_get(data, "job_id"), &rc);
    if (idx < 0)
        return rc;
    const char *id = json_string_value(json_object_get(data, "job_id"));
    const pol_job *job = pol_queue_find(cx->v, idx);
    if (s->jstate[idx] != BS_WAITING || !job)
        return BAD(cx, "job %s is %s: only a waiting job can be rejected", id,
                   state_words(s->jstate[idx]));
    s->jstate[idx] = BS_REJECTED;
    s->n_ended++;
    pol_out_reject(cx->out, job);
    return ENG_OK;
}

/* KILL_JOB: running jobs are killed (their JOB_KILLED, with progress,
 * follows their end); jobs already ended are acknowledged at once, as
 * Batsim does for jobs that completed before the kill. */
static int on_kill(reply_ctx *cx, json_t *data)
{
    bs_state *s = cx->s;
    json_t *ids = json_object_get(data, "job_ids");
    if (!json_is_array(ids))
        return BAD(cx, "expected data.job_ids, an array of job ids");
    size_t k;
    json_t *one;
    json_array_foreach(ids, k, one)
    {
        int rc = 0;
        int32_t idx = find_job(cx, one, &rc);
        if (idx < 0)
            return rc;
        const char *id = json_string_value(one);
        if (s->jstate[idx] == BS_WAITING)
            return BAD(cx,
                       "job %s is waiting: KILL_JOB stops running jobs (REJECT_JOB removes a "
                       "waiting one)",
                       id);
        if (s->jstate[idx] == BS_RUNNING && s->exec_stamp[idx] == s->stamp)
            return BAD(cx,
                       "job %s was executed at this same instant: it can be killed once it "
                       "runs",
                       id);
        if (s->jstate[idx] == BS_RUNNING && s->kill_asked[idx])
            continue; /* asked twice: one kill */
        if (s->jstate[idx] == BS_RUNNING) {
            const pol_job *job = NULL;
            for (size_t r = 0; r < cx->v->n_running && !job; r++)
                if (cx->v->running[r]->idx == idx)
                    job = cx->v->running[r];
            if (!job)
                return BAD(cx, "job %s is not running in this pool", id);
            s->kill_asked[idx] = true;
            pol_out_kill(cx->out, job);
            continue;
        }
        bool ok = true;
        eng_json_push(s->kills, eng_json_str(id), &ok);
        if (!ok)
            return ENG_NOMEM;
    }
    return ENG_OK;
}

static int on_notify(reply_ctx *cx, json_t *data)
{
    const char *t = json_string_value(json_object_get(data, "type"));
    if (!t)
        return BAD(cx, "expected data.type, the notification's name");
    if (strcmp(t, "registration_finished") == 0 || strcmp(t, "continue_registration") == 0)
        return ENG_OK; /* batchlab's workload is static: nothing to register */
    return BAD(cx,
               "unknown notification '%s' (a scheduler may send registration_finished or "
               "continue_registration)",
               t);
}

/* The events of one reply, checked and applied in order. Returns 0 or an
 * error (with the message in out). */
static int apply_reply(bs_state *s, const pol_view *v, pol_out *out, json_t *reply, bool at_end,
                       json_t *answers)
{
    reply_ctx cx = {.s = s, .v = v, .out = out, .answers = answers};
    json_t *now = json_object_get(reply, "now"), *events = json_object_get(reply, "events");
    if (!json_is_object(reply) || !json_is_number(now) || !json_is_array(events))
        return BAD(&cx, "expected an object with \"now\" (a number) and \"events\" (an array)");
    double rnow = json_number_value(now);
    if (rnow < v->now_s)
        return BAD(&cx, "its now, %.17g, is in the past: before the request's now %.17g", rnow,
                   v->now_s);
    if (at_end && json_array_size(events) > 0)
        return BAD(&cx,
                   "SIMULATION_ENDS is answered by a message without events, got %zu "
                   "event%s",
                   json_array_size(events), json_array_size(events) == 1 ? "" : "s");
    double last = v->now_s;
    json_t *e;
    size_t k;
    json_array_foreach(events, k, e)
    {
        cx.k = k;
        cx.type = NULL;
        json_t *ts = json_object_get(e, "timestamp"), *type = json_object_get(e, "type");
        json_t *data = json_object_get(e, "data");
        if (!json_is_object(e) || !json_is_number(ts) || !json_is_string(type) ||
            !json_is_object(data)) {
            char which[32];
            snprintf(which, sizeof which, "event %zu", k);
            cx.type = which;
            int rc = BAD(&cx, "expected an object with \"timestamp\" (a number), \"type\" (a "
                              "string) and \"data\" (an object)");
            return rc;
        }
        cx.type = json_string_value(type);
        double t = json_number_value(ts);
        if (t < v->now_s)
            return BAD(&cx, "its timestamp %.17g is in the past: before the request's now %.17g", t,
                       v->now_s);
        if (t < last)
            return BAD(&cx, "its timestamp %.17g is before the previous event's %.17g", t, last);
        if (t > rnow)
            return BAD(&cx, "its timestamp %.17g is after the message's now %.17g", t, rnow);
        last = t;
        int rc;
        if (strcmp(cx.type, "EXECUTE_JOB") == 0)
            rc = on_execute(&cx, data);
        else if (strcmp(cx.type, "CALL_ME_LATER") == 0)
            rc = on_call_me_later(&cx, data);
        else if (strcmp(cx.type, "REJECT_JOB") == 0)
            rc = on_reject(&cx, data);
        else if (strcmp(cx.type, "KILL_JOB") == 0)
            rc = on_kill(&cx, data);
        else if (strcmp(cx.type, "NOTIFY") == 0)
            rc = on_notify(&cx, data);
        else if (strcmp(cx.type, "QUERY") == 0)
            rc = on_query(&cx, data);
        else if (strcmp(cx.type, "SET_JOB_METADATA") == 0)
            rc = ENG_OK; /* jobs.csv's metadata column stays batchlab's */
        else if (strcmp(cx.type, "ANSWER") == 0)
            rc = BAD(&cx, "an ANSWER out of protocol order: batchlab asked no QUERY");
        else if (strcmp(cx.type, "REGISTER_JOB") == 0 || strcmp(cx.type, "REGISTER_PROFILE") == 0)
            rc = BAD(&cx, "dynamic job registration is not enabled (its configuration says "
                          "dynamic-jobs-enabled false)");
        else if (strcmp(cx.type, "SET_RESOURCE_STATE") == 0 ||
                 strcmp(cx.type, "CHANGE_JOB_STATE") == 0)
            rc = BAD(&cx, "batchlab models no power states or job state changes");
        else
            rc = BAD(&cx, "unknown event type (expected EXECUTE_JOB, REJECT_JOB, KILL_JOB, "
                          "CALL_ME_LATER, NOTIFY, QUERY or SET_JOB_METADATA)");
        if (rc)
            return rc;
    }
    return ENG_OK;
}

/* Sends events (taken) as one request at now, then as many more as the
 * replies' QUERYs need, applying each reply. */
static int request(bs_state *s, const pol_view *v, pol_out *out, json_t *events, const char *what,
                   bool at_end)
{
    for (;;) {
        json_t *reply = NULL;
        int rc = exchange(s, out, v->now_s, events, &reply, what);
        if (rc)
            return rc;
        json_t *answers = json_array();
        if (!answers) {
            json_decref(reply);
            return ENG_NOMEM;
        }
        rc = apply_reply(s, v, out, reply, at_end, answers);
        json_decref(reply);
        if (rc || json_array_size(answers) == 0) {
            json_decref(answers);
            return rc;
        }
        events = answers;
        what = "ANSWER";
    }
}

/* "JOB_SUBMITTED x3, REQUESTED_CALL" for messages. */
static void describe(json_t *events, char *buf, size_t len)
{
    size_t used = 0, n = json_array_size(events);
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len;) {
        const char *t = json_string_value(json_object_get(json_array_get(events, i), "type"));
        size_t j = i + 1;
        while (j < n &&
               strcmp(json_string_value(json_object_get(json_array_get(events, j), "type")), t) ==
                   0)
            j++;
        used += (size_t)(j - i > 1 ? snprintf(buf + used, len - used, "%s%s x%zu", used ? ", " : "",
                                              t, j - i)
                                   : snprintf(buf + used, len - used, "%s%s", used ? ", " : "", t));
        i = j;
    }
}

static int batsim_schedule(void *state, const pol_view *v, pol_out *out)
{
    bs_state *s = state;
    bool ok = true;
    int rc;
    if (s->ended)
        return pol_out_error(out, ENG_POLICY, "called after SIMULATION_ENDS");
    s->stamp++; /* the hosts and jobs this call's replies decide on */
    if (!s->begun) {
        char err[400] = "";
        rc = pol_bs_peer_open(s->endpoint, s->command, &s->peer, err, sizeof err);
        if (rc)
            return rc == ENG_NOMEM ? rc : pol_out_error(out, rc, "%s", err);
        s->begun = true;
        json_t *first = json_array();
        eng_json_push(first, simulation_begins(s, v, &ok), &ok);
        if (!ok) {
            json_decref(first);
            return ENG_NOMEM;
        }
        if ((rc = request(s, v, out, first, "SIMULATION_BEGINS", false)))
            return rc;
    }
    /* JOB_KILLED for the kills asked before, once their jobs ended */
    if (json_array_size(s->kills) > 0) {
        json_t *data = json_object();
        eng_json_set(data, "job_ids", s->kills, &ok);
        if (json_object_size(s->progress) > 0)
            eng_json_set(data, "job_progress", s->progress, &ok);
        else
            json_decref(s->progress);
        eng_json_push(s->events, event(v->now_s, "JOB_KILLED", data, &ok), &ok);
        s->kills = json_array();
        s->progress = json_object();
    }
    if (!s->no_more_sent && s->n_submitted == s->n_jobs) {
        json_t *data = json_object();
        eng_json_set(data, "type", eng_json_str("no_more_static_job_to_submit"), &ok);
        eng_json_push(s->events, event(v->now_s, "NOTIFY", data, &ok), &ok);
        s->no_more_sent = true;
    }
    size_t reached = 0;
    while (reached < s->n_calls && s->calls[reached] <= v->now_s) {
        eng_json_push(s->events, event(v->now_s, "REQUESTED_CALL", NULL, &ok), &ok);
        reached++;
    }
    if (reached) { /* s->calls may still be NULL: none was ever asked for */
        memmove(s->calls, s->calls + reached, (s->n_calls - reached) * sizeof *s->calls);
        s->n_calls -= reached;
    }
    if (!ok || !s->kills || !s->progress)
        return ENG_NOMEM;
    if (json_array_size(s->events) > 0) {
        json_t *events = s->events;
        s->events = json_array();
        if (!s->events) {
            json_decref(events);
            return ENG_NOMEM;
        }
        char what[200];
        describe(events, what, sizeof what);
        if ((rc = request(s, v, out, events, what, false)))
            return rc;
    }
    if (s->n_ended == s->n_jobs) {
        json_t *last = json_array();
        eng_json_push(last, event(v->now_s, "SIMULATION_ENDS", NULL, &ok), &ok);
        if (!ok) {
            json_decref(last);
            return ENG_NOMEM;
        }
        s->ended = true;
        if ((rc = request(s, v, out, last, "SIMULATION_ENDS", true)))
            return rc;
        pol_bs_peer_let_exit(s->peer, 2); /* it closes its socket and exits */
    }
    if (s->n_calls > 0)
        pol_out_wakeup(out, s->calls[0]);
    return ENG_OK;
}

/* The manifest's policy report: the exchange's size (deterministic; the
 * engine times the policy itself). */
static void batsim_report(void *state, char *buf, size_t len)
{
    const bs_state *s = state;
    snprintf(buf, len, "requests=%zu bytes_sent=%zu bytes_received=%zu", s->n_requests,
             s->bytes_out, s->bytes_in);
}

const pol_type pol_batsim = {
    .name = "batsim",
    .summary = "an external scheduler speaking Batsim's protocol (JSON over ZeroMQ)",
    .citation = "Dutot, Mercier, Poquet & Richard 2016",
    .flags = POL_FLAG_EXTERNAL,
    .state_size = sizeof(bs_state),
    .options = batsim_options,
    .init = batsim_init,
    .fini = batsim_fini,
    .on_submit = batsim_on_submit,
    .on_finish = batsim_on_finish,
    .on_capacity = batsim_on_capacity,
    .schedule = batsim_schedule,
    .report = batsim_report,
};
