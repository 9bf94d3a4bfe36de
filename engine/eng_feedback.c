/* eng_feedback.c — the dependencies of user feedback (eng_feedback.h has
 * the rules and their sources): read from SWF fields 17 and 18, or
 * inferred from users' sessions as Zakay & Feitelson do, and checked for
 * cycles. The core turns them into submissions (eng_core.c).
 *
 * Invariant: prep->pred[i] is -1 or a simulated job other than i, and the
 * graph of pred links has no cycle (each job has at most one predecessor,
 * so it is a forest, walked once by colours: O(n)). Sessions cost a sort
 * of the logged ends and one of the users, O(n log n).
 */
#include "eng_feedback.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct id_idx {
    int64_t id;
    int32_t idx;
} id_idx;

static int cmp_id_idx(const void *pa, const void *pb)
{
    const id_idx *a = pa, *b = pb;
    if (a->id != b->id)
        return (a->id > b->id) - (a->id < b->id);
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The simulated job numbered id, or -1 (numbers are unique among them,
 * eng_prep.h). */
static int32_t find_id(const id_idx *map, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (map[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && map[lo].id == id ? map[lo].idx : -1;
}

static int from_swf(const eng_workload *w, eng_prepared *prep)
{
    size_t n = prep->n_jobs;
    id_idx *map = malloc((n ? n : 1) * sizeof *map);
    if (!map)
        return ENG_NOMEM;
    for (size_t i = 0; i < n; i++)
        map[i] = (id_idx){.id = prep->jobs[i].id, .idx = (int32_t)i};
    qsort(map, n, sizeof *map, cmp_id_idx);
    for (size_t i = 0; i < n; i++) {
        const eng_job *j = &w->jobs[prep->jobs[i].src];
        if (j->prev_job <= 0)
            continue; /* -1: none (SWF numbers jobs from 1) */
        int32_t k = find_id(map, n, j->prev_job);
        if (k < 0) {
            prep->n_fb_missing++;
            continue;
        }
        prep->pred[i] = k;
        prep->think_s[i] = j->think_s > 0 ? j->think_s : 0;
        prep->n_fb_deps++;
    }
    free(map);
    return ENG_OK;
}

/* ---- sessions --------------------------------------------------------- */

typedef struct end_ev {
    double t;
    size_t wi; /* workload index */
} end_ev;

static int cmp_end(const void *pa, const void *pb)
{
    const end_ev *a = pa, *b = pb;
    if (a->t != b->t)
        return (a->t > b->t) - (a->t < b->t);
    return (a->wi > b->wi) - (a->wi < b->wi);
}

static double logged_end(const eng_job *j)
{
    return j->submit_s + (j->wait_s > 0 ? j->wait_s : 0) + j->runtime_s;
}

static bool ends_known(const eng_job *j)
{
    return j->submit_s >= 0 && j->runtime_s >= 0 && j->user >= 0;
}

/* Users numbered 0..k-1 in order of their numbers: uid[wi], -1 unknown. */
static int number_users(const eng_workload *w, int32_t *uid)
{
    size_t n = w->n_jobs;
    id_idx *u = malloc((n ? n : 1) * sizeof *u);
    if (!u)
        return ENG_NOMEM;
    for (size_t i = 0; i < n; i++)
        u[i] = (id_idx){.id = w->jobs[i].user, .idx = (int32_t)i};
    qsort(u, n, sizeof *u, cmp_id_idx);
    int32_t next = -1;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || u[i].id != u[i - 1].id)
            next++;
        uid[u[i].idx] = u[i].id >= 0 ? next : -1;
    }
    free(u);
    return ENG_OK;
}

/* The workload is in log order (submit, file order); a job's predecessor
 * is taken among the jobs before it whose logged end is at or before its
 * submit: the ends are swept in (end, index) order up to (its submit, its
 * index), each the latest end of its user so far. */
static int from_sessions(const eng_workload *w, eng_prepared *prep)
{
    size_t n = w->n_jobs, n_ev = 0;
    end_ev *ev = malloc((n ? n : 1) * sizeof *ev);
    int32_t *uid = malloc((n ? n : 1) * sizeof *uid);
    int64_t *last = malloc((n ? n : 1) * sizeof *last); /* per user: workload index, -1 */
    int32_t *sim = malloc((n ? n : 1) * sizeof *sim);   /* workload index -> simulated job */
    int rc = ENG_NOMEM;
    if (!ev || !uid || !last || !sim || number_users(w, uid))
        goto out;
    for (size_t i = 0; i < n; i++) {
        last[i] = -1;
        sim[i] = -1;
        if (ends_known(&w->jobs[i]))
            ev[n_ev++] = (end_ev){.t = logged_end(&w->jobs[i]), .wi = i};
    }
    for (size_t i = 0; i < prep->n_jobs; i++)
        sim[prep->jobs[i].src] = (int32_t)i;
    qsort(ev, n_ev, sizeof *ev, cmp_end);
    size_t e = 0;
    for (size_t wi = 0; wi < n; wi++) {
        const eng_job *j = &w->jobs[wi];
        if (j->submit_s < 0)
            break; /* unknown submits come last */
        while (e < n_ev && (ev[e].t < j->submit_s || (ev[e].t == j->submit_s && ev[e].wi < wi))) {
            last[uid[ev[e].wi]] = (int64_t)ev[e].wi;
            e++;
        }
        if (sim[wi] < 0 || uid[wi] < 0 || last[uid[wi]] < 0)
            continue;
        size_t k = (size_t)last[uid[wi]];
        double think = j->submit_s - logged_end(&w->jobs[k]);
        if (think > ENG_FEEDBACK_SESSION_BREAK_S)
            continue; /* a new session: its logged submit */
        if (sim[k] < 0) {
            prep->n_fb_missing++;
            continue;
        }
        prep->pred[sim[wi]] = sim[k];
        prep->think_s[sim[wi]] = think > 0 ? think : 0;
        prep->n_fb_deps++;
    }
    rc = ENG_OK;
out:
    free(ev);
    free(uid);
    free(last);
    free(sim);
    return rc;
}

/* ---- cycles ----------------------------------------------------------- */

/* ENG_INVAL with the first cycle met (from the lowest index on it, in the
 * order of the walk) when one exists. */
static int refuse_cycles(const eng_workload *w, const eng_prepared *prep, eng_diag *d)
{
    size_t n = prep->n_jobs;
    uint8_t *colour = calloc(n ? n : 1, 1); /* 0 new, 1 on this walk, 2 done */
    if (!colour)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", w->path);
    int rc = ENG_OK;
    for (size_t i = 0; i < n && rc == ENG_OK; i++) {
        int32_t k = (int32_t)i;
        while (k >= 0 && colour[k] == 0) {
            colour[k] = 1;
            k = prep->pred[k];
        }
        if (k >= 0 && colour[k] == 1) {
            char buf[512];
            size_t used = 0;
            int32_t x = k;
            do {
                int m = snprintf(buf + used, sizeof buf - used, "%lld (line %lld) -> ",
                                 (long long)prep->jobs[x].id,
                                 (long long)w->jobs[prep->jobs[x].src].line);
                used = m < 0 || (size_t)m >= sizeof buf - used ? sizeof buf - 1 : used + (size_t)m;
                x = prep->pred[x];
            } while (x != k && used < sizeof buf - 1);
            rc = eng_diag_set(d, ENG_INVAL,
                              "%s: jobs %s%lld form a cycle of preceding jobs (SWF field 17): "
                              "none of them could be submitted",
                              w->path, buf, (long long)prep->jobs[k].id);
        }
        for (k = (int32_t)i; k >= 0 && colour[k] == 1; k = prep->pred[k])
            colour[k] = 2;
    }
    free(colour);
    return rc;
}

int eng_feedback_build(const eng_workload *w, eng_prepared *prep, eng_diag *d)
{
    prep->pred = NULL;
    prep->think_s = NULL;
    prep->n_fb_deps = prep->n_fb_missing = 0;
    if (prep->feedback == ENG_FEEDBACK_NONE)
        return ENG_OK;
    size_t n1 = prep->n_jobs ? prep->n_jobs : 1;
    prep->pred = malloc(n1 * sizeof *prep->pred);
    prep->think_s = malloc(n1 * sizeof *prep->think_s);
    if (!prep->pred || !prep->think_s)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", w->path);
    for (size_t i = 0; i < prep->n_jobs; i++) {
        prep->pred[i] = -1;
        prep->think_s[i] = 0;
    }
    int rc = prep->feedback == ENG_FEEDBACK_SWF ? from_swf(w, prep) : from_sessions(w, prep);
    if (rc)
        return eng_diag_set(d, rc, "%s: out of memory", w->path);
    return prep->feedback == ENG_FEEDBACK_SWF ? refuse_cycles(w, prep, d) : ENG_OK;
}
