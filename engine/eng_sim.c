/* eng_sim.c — SimGrid driver of the scheduling core (SimGrid 3.32 C API).
 *
 * Why a driver actor plus a pool of executor actors (measured on this
 * project's 2-core development machine, SimGrid 3.32, 50 000 jobs):
 * - one actor created per job: about 25-90 us per job, growing with the
 *   number of live actors (each actor maps and unmaps its own stack);
 * - the driver starting every execution itself: SimGrid keeps an actor's
 *   activities in a list whose removal cost grows with its length, so the
 *   cost per execution rises with the number of running executions (about
 *   7 us each at 1 000 concurrent, 25 us at 3 000);
 * - sg_exec_wait_any_for() over all running executions: O(running) per
 *   event, and in 3.32 its C wrapper releases every execution when it times
 *   out;
 * - executors reused from a pool, each owning only its own job's
 *   execution: flat in the number of running jobs. That is the design here.
 *
 * One execution per job, on its slowest allocated host, lasting what that
 * host takes (the core's durations already hold the kill at the requested
 * time and the cut at a host failure): the job's end in SimGrid is its
 * slowest host's, as with one execution per host, at a cost that does not
 * grow with the job's width. One execution per host cost 2-3 us per host:
 * 34 s against 3.0 s for EASY on the 100 000-job ForHLR II stand-in (94
 * hosts per job on average), outputs byte-identical (bench/HISTORY.md).
 * A SimGrid parallel execution would need the ptask host model for the
 * whole platform and still charge per host. Each executor checks that its
 * execution ends exactly when the core ends the job.
 *
 * Time: the core knows every job's end (start + duration); SimGrid's clock
 * must agree with it. The driver waits until every execution of the jobs
 * ending at the next event time has completed (or sleeps to the next
 * submission or wake-up), checks that SimGrid's clock is within 1e-6
 * relative of that time, and lets the core apply the instant. Reported
 * times are the core's exact event times, so outputs do not depend on
 * floating-point noise inside SimGrid's solver.
 */
#include "eng_sim.h"

#include "eng_util.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>
#include <simgrid/semaphore.h>
#include <simgrid/version.h>
#include <simgrid/zone.h>
#include <xbt/dict.h>
#include <xbt/dynar.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- platform loading ------------------------------------------------- */

typedef struct zone_props {
    const char *cores, *price_per_s, *queues, *partitions, *occupation, *island, *memory;
} zone_props;

static void walk_zone(sg_netzone_t z, zone_props inherited, zone_props *per_host, size_t n)
{
    zone_props mine = inherited;
    const char *v;
    if ((v = sg_zone_get_property_value(z, "cores")))
        mine.cores = v;
    if ((v = sg_zone_get_property_value(z, "price_per_s")))
        mine.price_per_s = v;
    if ((v = sg_zone_get_property_value(z, "queues")))
        mine.queues = v;
    if ((v = sg_zone_get_property_value(z, "partitions")))
        mine.partitions = v;
    if ((v = sg_zone_get_property_value(z, "occupation_probability")))
        mine.occupation = v;
    if ((v = sg_zone_get_property_value(z, "island")))
        mine.island = v;
    if ((v = sg_zone_get_property_value(z, "memory")))
        mine.memory = v;
    xbt_dynar_t hosts = xbt_dynar_new(sizeof(sg_host_t), NULL);
    sg_zone_get_hosts(z, hosts);
    unsigned it;
    sg_host_t h;
    xbt_dynar_foreach(hosts, it, h)
    {
        uintptr_t slot = (uintptr_t)sg_host_get_data(h);
        if (slot >= 1 && slot <= n)
            per_host[slot - 1] = mine;
    }
    xbt_dynar_free(&hosts);
    xbt_dict_t sons = xbt_dict_new_homogeneous(NULL);
    sg_zone_get_sons(z, sons);
    xbt_dict_cursor_t cursor = NULL;
    char *key;
    sg_netzone_t son;
    xbt_dict_foreach(sons, cursor, key, son) walk_zone(son, mine, per_host, n);
    xbt_dict_free(&sons);
}

static bool simgrid_started;

/* SimGrid installs its own SIGINT handler when it starts; it prints the
 * actors' status and exits through the engine, which a Ctrl-C in the midst
 * of a run turned into "It is currently forbidden to create more than one
 * instance of kernel::EngineImpl". The caller's handler (the run's child:
 * remove the temporary outputs, die of the signal) stays in place. */
static void start_simgrid(void)
{
    if (simgrid_started)
        return;
    simgrid_started = true;
    static char *args[] = {"batchlab", "--log=root.thresh:warning", NULL};
    int argc = 2;
    struct sigaction caller;
    sigaction(SIGINT, NULL, &caller);
    simgrid_init(&argc, args);
    sigaction(SIGINT, &caller, NULL);
}

/* A host's own property, else what its zones gave it. */
static const char *host_prop(sg_host_t h, const char *name, const char *from_zone)
{
    const char *v = sg_host_get_property_value(h, name);
    return v ? v : from_zone;
}

/* The power properties of a host, its own only: SimGrid's energy plugin
 * reads them from the host (a <cluster>'s properties are its hosts'). */
static eng_power_props host_power_props(sg_host_t h)
{
    return (eng_power_props){
        .wattage_per_state = sg_host_get_property_value(h, "wattage_per_state"),
        .wattage_off = sg_host_get_property_value(h, "wattage_off"),
        .switch_off_s = sg_host_get_property_value(h, "switch_off_s"),
        .switch_off_w = sg_host_get_property_value(h, "switch_off_w"),
        .switch_on_s = sg_host_get_property_value(h, "switch_on_s"),
        .switch_on_w = sg_host_get_property_value(h, "switch_on_w"),
        .watt_per_state = sg_host_get_property_value(h, "watt_per_state"),
        .watt_off = sg_host_get_property_value(h, "watt_off"),
        .sleep_pstates = sg_host_get_property_value(h, "sleep_pstates"),
    };
}

int eng_sim_load_platform(const char *path, eng_platform **out, eng_diag *d)
{
    *out = NULL;
    if (eng_check_not_dir(path, "a platform file", d) != ENG_OK)
        return ENG_IO; /* SimGrid's parser would exit with "input in flex scanner failed" */
    if (access(path, R_OK) != 0)
        return eng_diag_set(d, ENG_IO, "%s: cannot open platform file: %s", path, strerror(errno));
    start_simgrid();
    simgrid_load_platform(path); /* SimGrid reports its own parse errors and exits */
    size_t n = sg_host_count();
    sg_host_t *list = sg_host_list();
    eng_host_desc *desc = calloc(n ? n : 1, sizeof *desc);
    zone_props *zp = calloc(n ? n : 1, sizeof *zp);
    double **speeds = calloc(n ? n : 1, sizeof *speeds);
    if (!desc || !zp || !speeds) {
        free(desc);
        free(zp);
        free(speeds);
        free(list);
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    }
    for (size_t i = 0; i < n; i++)
        sg_host_set_data(list[i], (void *)(uintptr_t)(i + 1));
    walk_zone(sg_zone_get_root(), (zone_props){0}, zp, n);
    bool nomem = false;
    for (size_t i = 0; i < n; i++) {
        desc[i] = (eng_host_desc){
            .name = sg_host_get_name(list[i]),
            .speed_flops = sg_host_get_speed(list[i]),
            .sg_cores = sg_host_core_count(list[i]),
            .cores = host_prop(list[i], "cores", zp[i].cores),
            .price_per_s = host_prop(list[i], "price_per_s", zp[i].price_per_s),
            .queues = host_prop(list[i], "queues", zp[i].queues),
            .partitions = host_prop(list[i], "partitions", zp[i].partitions),
            .occupation = host_prop(list[i], "occupation_probability", zp[i].occupation),
            .island = host_prop(list[i], "island", zp[i].island),
            .memory = host_prop(list[i], "memory", zp[i].memory),
            .power = host_power_props(list[i]),
        };
        sg_host_set_data(list[i], NULL);
        unsigned long np = sg_host_get_nb_pstates(list[i]);
        if (np > (1u << 16))
            np = 1u << 16; /* more than any machine has; the list will not match */
        speeds[i] = malloc((np ? np : 1) * sizeof **speeds);
        if (!speeds[i]) {
            nomem = true;
            continue;
        }
        for (unsigned long k = 0; k < np; k++)
            speeds[i][k] = sg_host_get_pstate_speed(list[i], k);
        desc[i].n_pstates = (int32_t)np;
        desc[i].pstate = (int32_t)sg_host_get_pstate(list[i]);
        desc[i].pstate_speeds = speeds[i];
    }
    const char *ref = sg_zone_get_property_value(sg_zone_get_root(), "ref_speed");
    int rc = nomem ? eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path)
                   : eng_platform_build(path, desc, n, ref, out, d);
    const char *limits = sg_zone_get_property_value(sg_zone_get_root(), "queue_limits");
    if (rc == ENG_OK && (rc = eng_platform_set_limits(*out, limits, d)) != ENG_OK) {
        eng_platform_destroy(*out);
        *out = NULL;
    }
    for (size_t i = 0; i < n; i++)
        free(speeds[i]);
    free(speeds);
    free(desc);
    free(zp);
    free(list);
    return rc;
}

const char *eng_sim_simgrid_version(void)
{
    static char buf[32];
    int major, minor, patch;
    sg_version_get(&major, &minor, &patch);
    snprintf(buf, sizeof buf, "%d.%d.%d", major, minor, patch);
    return buf;
}

/* ---- the simulation --------------------------------------------------- */

typedef struct executor executor;

typedef struct sim sim;

struct sim {
    eng_core *core;
    const eng_prepared *prep;
    const eng_platform *plat;
    sg_host_t *hosts; /* platform index -> SimGrid host */
    sg_sem_t done;
    int8_t *pending; /* per job: 1 while its execution runs, 0 once reported */
    executor *free_list;
    executor **all; /* every executor, freed after the run */
    size_t n_executors, cap_executors;
    bool progress;
    bool progress_shown;
    double wall_start; /* when the simulation started, for the time left */
    size_t n_jobs;
    int rc;
    eng_diag *diag;
    void (*on_done)(struct sim *s, int32_t job); /* optional, before reporting */
    void *ctx;
    bool per_core;   /* energy_plugin: an execution per taken core */
    double energy_j; /*   and SimGrid's total at the end */
};

struct executor {
    sim *s;
    sg_sem_t go;
    int32_t job;    /* -1: none */
    sg_host_t host; /* NULL: a job on no host (nothing to execute) */
    double flops;
    double dur_s;   /* per_core: how long each execution lasts */
    sg_exec_t exec; /* while it executes (not per_core) */
    bool cut;       /* its job was killed by its policy (pol_out_kill) */
    executor *next_free;
};

static sim the_sim;

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* energy_plugin: the job as one execution per core it takes on each of
 * its hosts, each lasting the job (x->dur_s), started together and waited
 * for in turn. */
static void run_per_core(executor *x)
{
    sim *s = x->s;
    const eng_job_result *r = &eng_core_results(s->core)[x->job];
    const eng_host_run *runs = eng_core_alloc_runs(s->core);
    size_t n = 0, cap = 0;
    sg_exec_t *e = NULL;
    for (int32_t u = 0; u < r->n_runs; u++) {
        const eng_host_run *run = &runs[r->runs_off + (size_t)u];
        for (int32_t k = 0; k < run->n; k++)
            for (int32_t c = 0; c < run->cores; c++) {
                if (eng_grow(&e, &cap, n + 1, sizeof *e)) {
                    s->rc = eng_diag_set(s->diag, ENG_NOMEM, "out of memory");
                    break;
                }
                int32_t h = run->host + k;
                e[n] = sg_actor_exec_init(x->dur_s * s->plat->hosts[h].speed_flops);
                sg_exec_set_host(e[n], s->hosts[h]);
                sg_exec_start(e[n++]);
            }
    }
    for (size_t i = 0; i < n; i++)
        sg_exec_wait(e[i]);
    free(e);
}

static void executor_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    executor *x = sg_actor_self_get_data();
    sg_actor_daemonize(sg_actor_self());
    for (;;) {
        sg_sem_acquire(x->go);
        if (x->s->per_core && x->host && !x->cut) {
            run_per_core(x); /* the energy cross-check: runs no policy that kills */
        } else if (x->host && !x->cut) {
            sg_exec_t e = sg_actor_exec_init(x->flops);
            sg_exec_set_host(e, x->host);
            sg_exec_start(e);
            x->exec = e;
            sg_exec_wait(e); /* returns early when cancelled (cut_exec) */
            x->exec = NULL;
        }
        x->cut = false;
        sim *s = x->s;
        int32_t job = x->job;
        /* The execution must end exactly when the core ends the job: one
         * on a faster host than the slowest would end early unnoticed by
         * the driver's clock check. */
        if (s->core && s->rc == ENG_OK) {
            double end = eng_core_results(s->core)[job].end_s, clock = simgrid_get_clock();
            if (fabs(clock - end) > 1e-6 * fmax(1.0, fabs(end)))
                s->rc = eng_diag_set(s->diag, ENG_INVARIANT,
                                     "job %lld's execution ended at %.17g, the job at %.17g",
                                     (long long)s->prep->jobs[job].id, clock, end);
        }
        x->job = -1;
        x->next_free = s->free_list;
        s->free_list = x;
        s->pending[job] = 0;
        if (s->on_done)
            s->on_done(s, job);
        sg_sem_release(s->done);
    }
}

/* A job killed by its policy ends now: its execution is cancelled (or,
 * not begun yet, skipped), so that its executor reports the end at this
 * instant, which the core now holds as the job's end. O(executors). */
static void cut_exec(sim *s, int32_t job)
{
    for (size_t i = 0; i < s->n_executors; i++) {
        executor *x = s->all[i];
        if (x->job != job)
            continue;
        x->cut = true;
        if (x->exec)
            sg_exec_cancel(x->exec);
        return;
    }
}

/* Hands a job's one execution (duration_s on host, or nothing when host is
 * negative) to a free executor, creating one when none is free. */
static int dispatch_exec(sim *s, int32_t job, int32_t host, double duration_s)
{
    executor *x = s->free_list;
    if (x) {
        s->free_list = x->next_free;
    } else {
        x = calloc(1, sizeof *x);
        if (!x || eng_grow(&s->all, &s->cap_executors, s->n_executors + 1, sizeof *s->all)) {
            free(x);
            return ENG_NOMEM;
        }
        s->all[s->n_executors] = x;
        x->s = s;
        x->go = sg_sem_init(0);
        x->job = -1;
        char name[32];
        snprintf(name, sizeof name, "executor-%zu", s->n_executors++);
        sg_actor_t a = sg_actor_init(name, s->hosts[0]);
        sg_actor_set_data(a, x);
        sg_actor_start(a, executor_main, 0, NULL);
    }
    x->host = host >= 0 ? s->hosts[host] : NULL;
    x->flops = host >= 0 ? duration_s * s->plat->hosts[host].speed_flops : 0;
    x->dur_s = duration_s;
    x->job = job;
    s->pending[job] = 1;
    sg_sem_release(x->go);
    return ENG_OK;
}

/* The mapping of a job onto SimGrid: one execution on its slowest host
 * (the first of equally slow ones in allocation order), lasting what that
 * host takes, i.e. until the job's end. The other hosts' shorter runs end
 * before it and change nothing SimGrid or the core observe: a job ends
 * when its slowest host finishes, and no two executions ever share a core
 * (a host runs at most its cores' count of jobs, checked at load). So the
 * cost per job is one execution and one executor hand-over whatever its
 * width (bench/README.md "Replay performance" has the measurements). */
static int dispatch(sim *s, size_t i_started, int32_t job)
{
    int32_t host;
    double dur;
    eng_core_started_work(s->core, i_started, &host, &dur);
    return dispatch_exec(s, job, host, dur);
}

/* "\rbatchlab: 42.0 % of 100000 jobs done, 35.2 days simulated, about 3 s
 * left": the time left extrapolates the wall time per job done so far (a
 * share of jobs, not of simulated time: a log's jobs are what costs). */
static void show_progress(sim *s, double t, bool final)
{
    size_t done = s->n_jobs - eng_core_jobs_left(s->core);
    double share = s->n_jobs ? (double)done / (double)s->n_jobs : 1.0;
    fprintf(stderr, "\rbatchlab: %5.1f %% of %zu jobs done, %.1f days simulated", 100.0 * share,
            s->n_jobs, t / 86400.0);
    if (final) {
        fprintf(stderr, " in %.1f s wall       \n", wall_now() - s->wall_start);
    } else if (done > 0) {
        double left = (wall_now() - s->wall_start) * (double)(s->n_jobs - done) / (double)done;
        fprintf(stderr, left < 120 ? ", about %.0f s left   " : ", about %.0f min left   ",
                left < 120 ? left : left / 60.0);
    }
    fflush(stderr);
    s->progress_shown = true;
}

static void driver_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sim *s = &the_sim;
    double t;
    const int32_t *ending;
    size_t n_ending;
    double last_shown = wall_now();
    s->wall_start = last_shown;
    /* SimGrid 3.32's plugin bills each host at pstate 0 until its first
     * update, whatever the host's pstate: one update of every host at time
     * 0 makes it read the current pstate from the start. */
    if (s->per_core)
        sg_host_energy_update_all();
    size_t steps = 0;
    while (eng_core_begin(s->core, &t, &ending, &n_ending)) {
        for (size_t i = 0; i < n_ending; i++)
            while (s->pending[ending[i]])
                sg_sem_acquire(s->done);
        if (s->rc)
            return;
        if (t > simgrid_get_clock())
            sg_actor_sleep_until(t);
        double clock = simgrid_get_clock();
        if (fabs(clock - t) > 1e-6 * fmax(1.0, fabs(t))) {
            s->rc = eng_diag_set(s->diag, ENG_INVARIANT,
                                 "SimGrid's clock (%.17g) disagrees with the event time %.17g",
                                 clock, t);
            return;
        }
        int rc = eng_core_step(s->core, s->diag);
        if (rc) {
            s->rc = rc;
            return;
        }
        const int32_t *stopped;
        size_t n_stopped = eng_core_stopped(s->core, &stopped);
        for (size_t i = 0; i < n_stopped; i++)
            cut_exec(s, stopped[i]);
        const int32_t *started;
        size_t n_started = eng_core_started(s->core, &started);
        for (size_t i = 0; i < n_started; i++) {
            rc = dispatch(s, i, started[i]);
            if (rc) {
                s->rc = eng_diag_set(s->diag, rc, "out of memory");
                return;
            }
        }
        if (s->progress && (++steps & 1023) == 0) {
            double w = wall_now();
            if (w - last_shown >= 1.0) {
                show_progress(s, t, false);
                last_shown = w;
            }
        }
    }
    if (s->progress_shown)
        show_progress(s, simgrid_get_clock(), true);
    if (s->per_core) { /* SimGrid's energy, at the last event, in host order */
        sg_host_energy_update_all();
        long double sum = 0;
        for (size_t h = 0; h < s->plat->n_hosts; h++)
            sum += sg_host_get_consumed_energy(s->hosts[h]);
        s->energy_j = (double)sum;
    }
}

static void sim_teardown(sim *s)
{
    for (size_t i = 0; i < s->n_executors; i++) {
        executor *x = s->all[i];
        sg_sem_destroy(x->go);
        free(x);
    }
    free(s->all);
    sg_sem_destroy(s->done);
    free(s->hosts);
    free(s->pending);
    memset(s, 0, sizeof *s);
}

void eng_sim_result_fini(eng_sim_result *r)
{
    if (!r)
        return;
    eng_core_destroy(r->core);
    eng_prepared_fini(&r->prep);
    eng_platform_destroy(r->platform);
    memset(r, 0, sizeof *r);
}

/* The run is over: with user feedback the prepared jobs take the submits
 * the core simulated, so that every output (jobs.csv, schedule.swf, the
 * metrics, log agreement's simulated waits) reads them where it reads
 * submit_s; the logged ones stay in the workload. */
static void finish_run(eng_sim_result *out)
{
    const eng_job_result *res = eng_core_results(out->core);
    for (size_t i = 0; out->prep.pred && i < out->prep.n_jobs; i++)
        out->prep.jobs[i].submit_s = res[i].submit_s;
    eng_core_finish(out->core);
}

int eng_sim_run(const char *platform_path, const eng_workload *w, const eng_sim_opts *opts,
                eng_sim_result *out, eng_diag *d)
{
    memset(out, 0, sizeof *out);
    out->simgrid_energy_j = NAN;
    if (opts->energy_plugin) { /* before the platform, as SimGrid asks */
        start_simgrid();
        sg_host_energy_plugin_init();
    }
    int rc = eng_sim_load_platform(platform_path, &out->platform, d);
    if (rc)
        return rc;
    const eng_platform *p = out->platform;
    for (size_t i = 0; opts->energy_plugin && i < p->n_hosts; i++)
        if (!sg_host_get_property_value(sg_host_by_name(p->hosts[i].name), "wattage_per_state")) {
            rc = eng_diag_set(d, ENG_USAGE,
                              "%s: host %s: SimGrid's energy plugin reads wattage_per_state, "
                              "which the host lacks",
                              platform_path, p->hosts[i].name);
            eng_sim_result_fini(out);
            return rc;
        }
    if (opts->prep.alloc == POL_ALLOC_CORE)
        for (size_t i = 0; i < p->n_hosts; i++)
            if (p->hosts[i].cores > p->hosts[i].sg_cores) {
                rc = eng_diag_set(d, ENG_PLATFORM,
                                  "%s: host %s: --alloc core needs its cores property (%d) to "
                                  "be at most its SimGrid core count (%d)",
                                  platform_path, p->hosts[i].name, p->hosts[i].cores,
                                  p->hosts[i].sg_cores);
                eng_sim_result_fini(out);
                return rc;
            }
    rc = eng_prep(w, p, &opts->prep, &out->prep, d);
    if (rc == ENG_OK)
        rc = eng_core_create(p, &out->prep, &opts->core, &out->core, d);
    if (rc) {
        eng_sim_result_fini(out);
        return rc;
    }

    sim *s = &the_sim;
    memset(s, 0, sizeof *s);
    s->core = out->core;
    s->prep = &out->prep;
    s->plat = p;
    s->n_jobs = out->prep.n_jobs;
    s->progress = opts->progress;
    s->per_core = opts->energy_plugin;
    s->diag = d;
    s->hosts = malloc(p->n_hosts * sizeof *s->hosts);
    s->pending = calloc(s->n_jobs ? s->n_jobs : 1, sizeof *s->pending);
    if (!s->hosts || !s->pending) {
        free(s->hosts);
        free(s->pending);
        eng_sim_result_fini(out);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < p->n_hosts; i++)
        s->hosts[i] = sg_host_by_name(p->hosts[i].name);
    s->done = sg_sem_init(0);

    double w0 = wall_now();
    sg_actor_create("driver", s->hosts[0], driver_main, 0, NULL);
    simgrid_run();
    out->wall_s = wall_now() - w0;
    out->sim_end_s = simgrid_get_clock();
    if (s->per_core)
        out->simgrid_energy_j = s->energy_j;
    rc = s->rc;
    if (rc == ENG_OK && eng_core_jobs_left(out->core) != 0)
        rc = eng_diag_set(d, ENG_INVARIANT, "the simulation ended with %zu jobs unfinished",
                          eng_core_jobs_left(out->core));
    sim_teardown(s);
    if (rc)
        eng_sim_result_fini(out);
    else
        finish_run(out);
    return rc;
}

/* ---- replaying the log's own schedule (the bare baseline) ------------- */

typedef struct log_replay {
    const eng_prepared *prep;
    const size_t *order;  /* jobs by logged start */
    const double *start;  /* logged start per job */
    int32_t **free_hosts; /* per pool: stack of free host indices */
    size_t *n_free;
    int32_t *hosts;  /* per job: its hosts, at hosts_off[job] */
    double *sleep_s; /* per job: its slowest host's time */
    size_t *hosts_off;
    size_t n_delayed; /* jobs that waited for hosts */
} log_replay;

static log_replay the_replay;

static void replay_done(sim *s, int32_t job)
{
    log_replay *lr = s->ctx;
    int32_t pool = lr->prep->jobs[job].pool;
    for (int32_t k = 0; k < lr->prep->jobs[job].units; k++)
        lr->free_hosts[pool][lr->n_free[pool]++] = lr->hosts[lr->hosts_off[job] + (size_t)k];
}

/* The floor: one actor per job, created at its logged start on its
 * slowest host, sleeping as long as that host takes. */
static void job_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    int32_t job = (int32_t)(uintptr_t)sg_actor_self_get_data();
    sim *s = &the_sim;
    sg_actor_sleep_for(the_replay.sleep_s[job]);
    replay_done(s, job);
    sg_sem_release(s->done);
}

static void replay_driver(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    sim *s = &the_sim;
    log_replay *lr = &the_replay;
    const eng_platform *p = s->plat;
    size_t acquired = 0;
    for (size_t k = 0; k < lr->prep->n_jobs; k++) {
        int32_t j = (int32_t)lr->order[k];
        const eng_sim_job *job = &lr->prep->jobs[j];
        if (lr->start[j] > simgrid_get_clock())
            sg_actor_sleep_until(lr->start[j]);
        /* The log's own schedule may not fit the platform (SDSC-SP2 has
         * instants with 202 busy processors out of 128): then the job
         * waits for hosts instead of sharing them. */
        bool delayed = false;
        while (lr->n_free[job->pool] < (size_t)job->units) {
            sg_sem_acquire(s->done);
            acquired++;
            delayed = true;
        }
        lr->n_delayed += delayed;
        size_t off = lr->hosts_off[j];
        int32_t slow = -1;
        double longest = -1;
        for (int32_t u = 0; u < job->units; u++) {
            int32_t h = lr->free_hosts[job->pool][--lr->n_free[job->pool]];
            lr->hosts[off + (size_t)u] = h;
            double dur = job->run_s * (p->ref_speed_flops / p->hosts[h].speed_flops);
            if (dur > job->kill_s)
                dur = job->kill_s;
            if (dur > longest) {
                longest = dur;
                slow = h;
            }
        }
        lr->sleep_s[j] = longest > 0 ? longest : 0;
        sg_actor_t a = sg_actor_init("job", s->hosts[slow >= 0 ? slow : 0]);
        sg_actor_set_data(a, (void *)(uintptr_t)j);
        sg_actor_start(a, job_actor, 0, NULL);
    }
    for (; acquired < lr->prep->n_jobs; acquired++)
        sg_sem_acquire(s->done);
}

static const double *sort_start;

static int by_logged_start(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (sort_start[x] != sort_start[y])
        return sort_start[x] < sort_start[y] ? -1 : 1;
    return (x > y) - (x < y);
}

int eng_sim_replay_log(const char *platform_path, const eng_workload *w, const eng_prep_opts *opts,
                       eng_replay_stats *st, eng_diag *d)
{
    memset(st, 0, sizeof *st);
    eng_platform *p = NULL;
    int rc = eng_sim_load_platform(platform_path, &p, d);
    if (rc)
        return rc;
    eng_prep_opts po = *opts;
    po.alloc = POL_ALLOC_NODE;
    po.feedback = ENG_FEEDBACK_NONE; /* the log's own schedule, at its own submits */
    eng_prepared prep;
    rc = eng_prep(w, p, &po, &prep, d);
    if (rc) {
        eng_platform_destroy(p);
        return rc;
    }
    size_t n = prep.n_jobs, n1 = n ? n : 1, total = 0;
    for (size_t i = 0; i < n; i++)
        total += (size_t)prep.jobs[i].units;
    log_replay *lr = &the_replay;
    memset(lr, 0, sizeof *lr);
    lr->prep = &prep;
    size_t *order = malloc(n1 * sizeof *order);
    double *start = malloc(n1 * sizeof *start);
    lr->sleep_s = malloc(n1 * sizeof *lr->sleep_s);
    lr->hosts = malloc((total ? total : 1) * sizeof *lr->hosts);
    lr->hosts_off = malloc(n1 * sizeof *lr->hosts_off);
    lr->free_hosts = calloc(p->n_pools, sizeof *lr->free_hosts);
    lr->n_free = calloc(p->n_pools, sizeof *lr->n_free);
    bool ok = order && start && lr->sleep_s && lr->hosts && lr->hosts_off && lr->free_hosts &&
              lr->n_free;
    for (size_t i = 0; ok && i < p->n_pools; i++) {
        const eng_pool *pool = &p->pools[i];
        lr->free_hosts[i] = malloc(pool->n_hosts * sizeof **lr->free_hosts);
        ok = lr->free_hosts[i] != NULL;
        /* lowest names on top of the stack */
        for (size_t k = 0; ok && k < pool->n_hosts; k++)
            lr->free_hosts[i][k] = pool->hosts[pool->n_hosts - 1 - k];
        lr->n_free[i] = pool->n_hosts;
    }
    sim *s = &the_sim;
    memset(s, 0, sizeof *s);
    if (ok) {
        size_t off = 0;
        for (size_t i = 0; i < n; i++) {
            const eng_job *j = &w->jobs[prep.jobs[i].src];
            order[i] = i;
            start[i] = j->submit_s + (j->wait_s > 0 ? j->wait_s : 0);
            lr->hosts_off[i] = off;
            off += (size_t)prep.jobs[i].units;
        }
        sort_start = start;
        qsort(order, n, sizeof *order, by_logged_start);
        lr->order = order;
        lr->start = start;
        s->plat = p;
        s->n_jobs = n;
        s->diag = d;
        s->on_done = replay_done;
        s->ctx = lr;
        s->hosts = malloc(p->n_hosts * sizeof *s->hosts);
        s->pending = calloc(n1, sizeof *s->pending);
        ok = s->hosts && s->pending;
    }
    if (!ok) {
        rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
    } else {
        for (size_t i = 0; i < p->n_hosts; i++)
            s->hosts[i] = sg_host_by_name(p->hosts[i].name);
        s->done = sg_sem_init(0);
        double w0 = wall_now();
        sg_actor_create("replay", s->hosts[0], replay_driver, 0, NULL);
        simgrid_run();
        st->wall_s = wall_now() - w0;
        st->sim_end_s = simgrid_get_clock();
        st->n_jobs = n;
        st->n_host_runs = total;
        st->n_delayed = lr->n_delayed;
        rc = s->rc;
    }
    sim_teardown(s);
    for (size_t i = 0; lr->free_hosts && i < p->n_pools; i++)
        free(lr->free_hosts[i]);
    free(lr->free_hosts);
    free(lr->n_free);
    free(lr->hosts);
    free(lr->sleep_s);
    free(lr->hosts_off);
    memset(lr, 0, sizeof *lr);
    free(order);
    free(start);
    eng_prepared_fini(&prep);
    eng_platform_destroy(p);
    return rc;
}
