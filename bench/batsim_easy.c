/* batsim_easy.c — EASY backfilling as a Batsim scheduler in C (ZeroMQ REP
 * socket, Jansson), for bench/batsim-perf.sh: the protocol's cost without
 * Python's. It takes the decisions of tests/batsim/bl_batsim_sched.py
 * --policy easy (and so of the built-in easy: Lifka 1995; Mu'alem &
 * Feitelson 2001): queue in JOB_SUBMITTED order, start from the head while
 * jobs fit, the blocked head's shadow time and extra resources from the
 * planned ends (start + walltime), backfill what ends by the shadow time
 * or fits in the extra resources, lowest free resource ids first.
 *
 * Usage: batsim_easy --socket ENDPOINT. O(queue + running log running)
 * per request; a linear scan of the resources per start.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zmq.h>

typedef struct job {
    char *id;
    int res;
    double walltime, end;
    int *ids; /* while running */
} job;

typedef struct sched {
    bool *free;
    int n_res, n_free;
    job **queue, **running;
    size_t n_queue, n_running, cap_queue, cap_running;
} sched;

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q) {
        fprintf(stderr, "batsim_easy: out of memory\n");
        exit(1);
    }
    *cap = c;
    return q;
}

/* Sorted ids as an interval set "0-3 7". */
static char *iset(const int *ids, int n)
{
    char *s = malloc((size_t)n * 24 + 1);
    size_t len = 0;
    s[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && ids[j + 1] == ids[j] + 1)
            j++;
        len += (size_t)(j > i ? sprintf(s + len, "%s%d-%d", len ? " " : "", ids[i], ids[j])
                              : sprintf(s + len, "%s%d", len ? " " : "", ids[i]));
        i = j + 1;
    }
    return s;
}

static void start(sched *s, job *j, double now, json_t *out)
{
    j->ids = malloc((size_t)j->res * sizeof *j->ids);
    int k = 0;
    for (int i = 0; i < s->n_res && k < j->res; i++)
        if (s->free[i]) {
            s->free[i] = false;
            j->ids[k++] = i;
        }
    s->n_free -= j->res;
    j->end = now + j->walltime;
    s->running = grow(s->running, &s->cap_running, s->n_running + 1, sizeof *s->running);
    s->running[s->n_running++] = j;
    char *alloc = iset(j->ids, j->res);
    json_array_append_new(out, json_pack("{s:f, s:s, s:{s:s, s:s}}", "timestamp", now, "type",
                                         "EXECUTE_JOB", "data", "job_id", j->id, "alloc", alloc));
    free(alloc);
}

static int cmp_end(const void *a, const void *b)
{
    double x = (*(const job *const *)a)->end, y = (*(const job *const *)b)->end;
    return (x > y) - (x < y);
}

/* The shadow time of a head needing `need` with `free_now` free, and the
 * extra resources then (every end at that time counted). */
static double shadow(sched *s, double now, int free_now, int need, int *extra)
{
    job **ends = malloc((s->n_running ? s->n_running : 1) * sizeof *ends);
    memcpy(ends, s->running, s->n_running * sizeof *ends);
    qsort(ends, s->n_running, sizeof *ends, cmp_end);
    int acc = free_now;
    double t = now;
    bool found = acc >= need;
    for (size_t i = 0; i < s->n_running; i++) {
        double e = fmax(ends[i]->end, now);
        if (found && e > t)
            break;
        acc += ends[i]->res;
        if (!found && acc >= need) {
            found = true;
            t = e;
        }
    }
    free(ends);
    *extra = found ? acc - need : 0;
    return found ? t : INFINITY;
}

static void schedule(sched *s, double now, json_t *out)
{
    size_t head = 0;
    while (head < s->n_queue && s->queue[head]->res <= s->n_free)
        start(s, s->queue[head++], now, out);
    memmove(s->queue, s->queue + head, (s->n_queue - head) * sizeof *s->queue);
    s->n_queue -= head;
    if (s->n_queue == 0 || s->n_free == 0)
        return;
    int extra, free_now = s->n_free;
    double sh = shadow(s, now, free_now, s->queue[0]->res, &extra);
    size_t kept = 1;
    for (size_t i = 1; i < s->n_queue; i++) {
        job *j = s->queue[i];
        bool by_shadow = now + j->walltime <= sh;
        if (s->n_free == 0 || j->res > s->n_free || (!by_shadow && j->res > extra)) {
            s->queue[kept++] = j;
            continue;
        }
        start(s, j, now, out);
        if (!by_shadow)
            extra -= j->res;
    }
    s->n_queue = kept;
}

static void job_ended(sched *s, const char *id)
{
    for (size_t i = 0; i < s->n_running; i++)
        if (strcmp(s->running[i]->id, id) == 0) {
            job *j = s->running[i];
            for (int k = 0; k < j->res; k++)
                s->free[j->ids[k]] = true;
            s->n_free += j->res;
            s->running[i] = s->running[--s->n_running];
            free(j->ids);
            free(j->id);
            free(j);
            return;
        }
}

/* One request; false at SIMULATION_ENDS. */
static bool handle(sched *s, json_t *msg, json_t *out)
{
    double now = json_number_value(json_object_get(msg, "now"));
    size_t k;
    json_t *e;
    json_array_foreach(json_object_get(msg, "events"), k, e)
    {
        const char *type = json_string_value(json_object_get(e, "type"));
        json_t *data = json_object_get(e, "data");
        if (strcmp(type, "SIMULATION_BEGINS") == 0) {
            s->n_res = s->n_free = (int)json_integer_value(
                json_object_get(data, "nb_compute_resources"));
            s->free = malloc((size_t)s->n_res * sizeof *s->free);
            for (int i = 0; i < s->n_res; i++)
                s->free[i] = true;
        } else if (strcmp(type, "SIMULATION_ENDS") == 0) {
            return false;
        } else if (strcmp(type, "JOB_SUBMITTED") == 0) {
            json_t *jj = json_object_get(data, "job");
            job *j = calloc(1, sizeof *j);
            j->id = strdup(json_string_value(json_object_get(jj, "id")));
            j->res = (int)json_integer_value(json_object_get(jj, "res"));
            j->walltime = json_number_value(json_object_get(jj, "walltime"));
            s->queue = grow(s->queue, &s->cap_queue, s->n_queue + 1, sizeof *s->queue);
            s->queue[s->n_queue++] = j;
        } else if (strcmp(type, "JOB_COMPLETED") == 0) {
            job_ended(s, json_string_value(json_object_get(data, "job_id")));
        }
    }
    schedule(s, now, out);
    return true;
}

int main(int argc, char **argv)
{
    const char *endpoint = "tcp://*:28000";
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--socket") == 0)
            endpoint = argv[++i];
    void *ctx = zmq_ctx_new(), *sock = zmq_socket(ctx, ZMQ_REP);
    if (zmq_bind(sock, endpoint) != 0) {
        fprintf(stderr, "batsim_easy: cannot bind %s: %s\n", endpoint, zmq_strerror(zmq_errno()));
        return 1;
    }
    sched s = {0};
    for (bool more = true; more;) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0)
            return 1;
        json_error_t je;
        json_t *msg = json_loadb(zmq_msg_data(&m), zmq_msg_size(&m), 0, &je);
        zmq_msg_close(&m);
        if (!msg) {
            fprintf(stderr, "batsim_easy: malformed request: %s\n", je.text);
            return 1;
        }
        json_t *out = json_array();
        more = handle(&s, msg, out);
        json_t *reply = json_pack("{s:O, s:o}", "now", json_object_get(msg, "now"), "events", out);
        char *text = json_dumps(reply, JSON_COMPACT | JSON_REAL_PRECISION(17));
        zmq_send(sock, text, strlen(text), 0);
        free(text);
        json_decref(reply);
        json_decref(msg);
    }
    int linger = 0;
    zmq_setsockopt(sock, ZMQ_LINGER, &linger, sizeof linger);
    zmq_close(sock);
    zmq_ctx_term(ctx);
    return 0;
}
