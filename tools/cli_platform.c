/* cli_platform.c — `batchlab platform --from-log LOG -o FILE`: writes a
 * SimGrid platform from what an SWF log's header says of its machine, a
 * starting point a user edits and `batchlab run` loads unchanged.
 *
 * What it takes from the header (SWF 2.2: Chapin et al. 1999; Feitelson,
 * Tsafrir & Krakov 2014) and what it guesses, each written in an XML
 * comment of the file:
 *   - hosts: MaxNodes hosts of MaxProcs / MaxNodes cores (the cores
 *     property), one cluster; node types where the header gives them:
 *     Partition lines with MaxNodes= (and MaxProcs=) in their details, or
 *     per-partition counts in parentheses of MaxNodes and MaxProcs ("24
 *     (16 + 8)"), one cluster each. Without MaxNodes the largest job's
 *     processors are the machine (guessed); without MaxProcs, one core a
 *     node (guessed);
 *   - queue limits: Queue lines whose details give MaxRuntime=S,
 *     MaxNodes=N or MaxProcs=N become the root zone's queue_limits
 *     (eng_platform.h), MaxProcs as whole nodes rounded up. The queues'
 *     names, and for each queue what its jobs asked at most (fields 8, 9,
 *     4), are listed in a comment, not as limits: a log's largest job is
 *     not its queue's limit;
 *   - node sets: the cluster of a Partition line serves that partition
 *     (the partitions property: jobs routed by SWF field 16); otherwise
 *     every host serves every queue (one pool): a header says which nodes
 *     a queue may use only in free text, so the comment says how to route
 *     a queue to a cluster;
 *   - speed 1Gf and ref_speed equal to it, so a job runs its logged run
 *     time on every host; network figures are placeholders (batchlab does
 *     not simulate communication).
 * The file is written atomically (eng_afile): a failed write leaves no
 * file behind. The same log gives the same bytes.
 */
#include "cli.h"
#include "cli_args.h"

#include "eng_swf.h"
#include "eng_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TYPES 16

static const bl_opt platform_opts[] = {
    {"from-log", 0, BL_VALUE, "LOG",
     "SWF log (.swf or .swf.gz) whose header describes the machine"},
    {"output", 'o', BL_VALUE, "FILE.xml", "platform file to write (required)"},
};

static const char platform_description[] =
    "Writes a SimGrid platform from an SWF log's header: MaxNodes hosts of MaxProcs / MaxNodes\n"
    "cores, node types where Partition lines or per-partition counts give them, and the\n"
    "per-queue limits (queue_limits) where Queue lines give MaxRuntime=, MaxNodes= or\n"
    "MaxProcs=. XML comments say what came from the header and what was guessed; the\n"
    "file is a starting point to edit, and batchlab run loads it unchanged.";

/* The value of the header's first entry of key, or NULL. */
static const char *header_value(const eng_swf_header *h, const char *key)
{
    for (size_t i = 0; i < h->n_kv; i++)
        if (strcmp(h->kv[i].key, key) == 0)
            return h->kv[i].value;
    return NULL;
}

/* A node type: a cluster of the file. */
typedef struct node_type {
    int64_t nodes, cores;
    int64_t partition; /* the SWF partition (field 16) it serves, or -1 */
    char from[160];    /* where its numbers come from */
} node_type;

/* What the jobs of one queue asked at most (fields 8 or 5, 9, 4). */
typedef struct queue_seen {
    int64_t queue, jobs, procs;
    double req_s, run_s;
} queue_seen;

/* Writes text into an XML comment: no "--", nothing below a space. */
static void comment_text(FILE *f, const char *t, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if ((unsigned char)c < ' ' || c == 127)
            c = ' ';
        if (c == '-' && i + 1 < len && t[i + 1] == '-')
            continue;
        fputc(c, f);
    }
}

static int seen_cmp(const void *a, const void *b)
{
    const queue_seen *x = a, *y = b;
    return (x->queue > y->queue) - (x->queue < y->queue);
}

/* Per queue (field 15) of w: jobs, most processors, longest request and run. */
static int queues_seen(const eng_workload *w, queue_seen **out, size_t *n)
{
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        const eng_job *j = &w->jobs[i];
        size_t k = 0;
        while (k < *n && (*out)[k].queue != j->queue)
            k++;
        if (k == *n) {
            if (eng_grow(out, &cap, *n + 1, sizeof **out))
                return ENG_NOMEM;
            (*out)[(*n)++] = (queue_seen){.queue = j->queue, .procs = -1, .req_s = -1, .run_s = -1};
        }
        queue_seen *q = &(*out)[k];
        int64_t procs = j->procs_req > 0 ? j->procs_req : j->procs_alloc;
        q->jobs++;
        q->procs = procs > q->procs ? procs : q->procs;
        q->req_s = j->time_req_s > q->req_s ? j->time_req_s : q->req_s;
        q->run_s = j->runtime_s > q->run_s ? j->runtime_s : q->run_s;
    }
    if (*n)
        qsort(*out, *n, sizeof **out, seen_cmp);
    return ENG_OK;
}

/* The node types: Partition lines with MaxNodes=, else the per-partition
 * counts of MaxNodes and MaxProcs, else one type of the machine. Writes
 * what it guessed to *guess. */
static size_t node_types(const eng_workload *w, const eng_swf_class *parts, size_t n_parts,
                         node_type *t, char *guess, size_t glen)
{
    const eng_swf_header *h = &w->hdr;
    int64_t nodes = h->max_nodes, procs = h->max_procs, largest = 0;
    for (size_t i = 0; i < w->n_jobs; i++) {
        int64_t p = w->jobs[i].procs_alloc > w->jobs[i].procs_req ? w->jobs[i].procs_alloc
                                                                  : w->jobs[i].procs_req;
        largest = p > largest ? p : largest;
    }
    guess[0] = '\0';
    size_t n = 0;
    for (size_t i = 0; i < n_parts && n < MAX_TYPES; i++)
        if (parts[i].max_nodes > 0) {
            int64_t c = parts[i].max_procs > 0 ? parts[i].max_procs / parts[i].max_nodes : 1;
            t[n] = (node_type){
                .nodes = parts[i].max_nodes, .cores = c > 0 ? c : 1, .partition = parts[i].number};
            snprintf(t[n].from, sizeof t[n].from, "Partition %lld (%s): MaxNodes=%lld%s",
                     (long long)parts[i].number, parts[i].name[0] ? parts[i].name : "unnamed",
                     (long long)parts[i].max_nodes,
                     parts[i].max_procs > 0 ? ", MaxProcs given" : ", one core a node (guessed)");
            n++;
        }
    if (n)
        return n;
    int64_t pn[MAX_TYPES], pp[MAX_TYPES];
    size_t kn = eng_swf_value_parts(header_value(h, "MaxNodes"), pn, MAX_TYPES);
    size_t kp = eng_swf_value_parts(header_value(h, "MaxProcs"), pp, MAX_TYPES);
    if (kn > 1 && kn == kp) {
        for (size_t i = 0; i < kn; i++) {
            t[i] = (node_type){
                .nodes = pn[i], .cores = pp[i] / pn[i] > 0 ? pp[i] / pn[i] : 1, .partition = -1};
            snprintf(t[i].from, sizeof t[i].from,
                     "part %zu of MaxNodes and MaxProcs: %lld nodes, %lld processors", i + 1,
                     (long long)pn[i], (long long)pp[i]);
        }
        return kn;
    }
    if (nodes <= 0) {
        nodes = procs > 0 ? procs : (largest > 0 ? largest : 1);
        snprintf(guess, glen, "the header gives no MaxNodes: %lld nodes, %s (guessed)",
                 (long long)nodes, procs > 0 ? "MaxProcs" : "the largest job's processors");
        procs = procs > 0 ? procs : nodes;
    } else if (procs <= 0) {
        procs = nodes;
        snprintf(guess, glen, "the header gives no MaxProcs: one core a node (guessed)");
    }
    t[0] = (node_type){
        .nodes = nodes, .cores = procs / nodes > 0 ? procs / nodes : 1, .partition = -1};
    snprintf(t[0].from, sizeof t[0].from, "MaxNodes %lld, MaxProcs %lld", (long long)nodes,
             (long long)procs);
    if (procs % nodes && !guess[0])
        snprintf(guess, glen,
                 "MaxProcs %lld is not a multiple of MaxNodes %lld: %lld cores a node (rounded "
                 "down)",
                 (long long)procs, (long long)nodes, (long long)t[0].cores);
    return 1;
}

/* The queue_limits value of the Queue lines that give limits ("" if none). */
static void queue_limits(const eng_swf_class *q, size_t nq, int64_t cores, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < nq && used < len; i++) {
        if (q[i].number < 0 ||
            (q[i].max_runtime_s <= 0 && q[i].max_nodes <= 0 && q[i].max_procs <= 0))
            continue;
        int64_t nodes = q[i].max_nodes;
        if (nodes <= 0 && q[i].max_procs > 0)
            nodes = (q[i].max_procs + cores - 1) / cores;
        int k = snprintf(buf + used, len - used, "%s%lld:", used ? " " : "",
                         (long long)q[i].number);
        if (k > 0 && q[i].max_runtime_s > 0)
            k += snprintf(buf + used + (size_t)k, len - used - (size_t)k, "max_runtime_s=%.17g%s",
                          q[i].max_runtime_s, nodes > 0 ? "," : "");
        if (k > 0 && nodes > 0 && used + (size_t)k < len)
            k += snprintf(buf + used + (size_t)k, len - used - (size_t)k, "max_nodes=%lld",
                          (long long)nodes);
        used += k > 0 ? (size_t)k : 0;
    }
}

static void write_header_comment(FILE *f, const char *log, const eng_workload *w,
                                 const node_type *t, size_t nt, const char *guess,
                                 const eng_swf_class *q, size_t nq, const eng_swf_class *pt,
                                 size_t np, const queue_seen *qs, size_t nqs, const char *limits)
{
    const eng_swf_header *h = &w->hdr;
    fprintf(f, "<!-- Written by batchlab platform from the header of ");
    comment_text(f, log, strlen(log));
    fprintf(f, "\n     as a starting point to edit.");
    if (h->computer || h->installation) {
        fprintf(f, "\n     Computer: ");
        comment_text(f, h->computer ? h->computer : "?",
                     strcspn(h->computer ? h->computer : "?", "\n"));
        fprintf(f, "; Installation: ");
        comment_text(f, h->installation ? h->installation : "?",
                     strcspn(h->installation ? h->installation : "?", "\n"));
    }
    fprintf(f, "\n\n     From the header:");
    for (size_t i = 0; i < nt; i++)
        fprintf(f, "\n     - %lld hosts of %lld core%s (cluster t%zu), from %s",
                (long long)t[i].nodes, (long long)t[i].cores, t[i].cores == 1 ? "" : "s", i + 1,
                t[i].from);
    if (limits[0])
        fprintf(f,
                "\n     - queue_limits \"%s\", from the Queue lines' MaxRuntime=, MaxNodes=, "
                "MaxProcs= (MaxProcs as whole nodes, rounded up)",
                limits);
    for (size_t i = 0; i < nq; i++) {
        fprintf(f, "\n     - Queue: ");
        comment_text(f, q[i].text, q[i].text_len);
    }
    for (size_t i = 0; i < np; i++) {
        fprintf(f, "\n     - Partition: ");
        comment_text(f, pt[i].text, pt[i].text_len);
    }
    if (h->queues_text) {
        fprintf(f, "\n     - Queues: ");
        comment_text(f, h->queues_text, strlen(h->queues_text));
    }
    if (h->partitions_text) {
        fprintf(f, "\n     - Partitions: ");
        comment_text(f, h->partitions_text, strlen(h->partitions_text));
    }
    if (h->max_runtime > 0)
        fprintf(f,
                "\n     - MaxRuntime %lld s for the whole machine: not a limit here (queue_limits "
                "is per queue); add max_runtime_s to a queue to enforce it",
                (long long)h->max_runtime);
    fprintf(f, "\n\n     Guessed (the header does not say; edit):");
    if (guess[0])
        fprintf(f, "\n     - %s;", guess);
    if (nt > 0 && t[0].partition >= 0)
        fprintf(f, "\n     - each Partition line's hosts serve that partition (SWF field 16):\n"
                   "       jobs go to the cluster of their partition, any queue, and a job of\n"
                   "       another partition is dropped (no-pool): remove a prop to pool them;");
    else
        fprintf(f,
                "\n     - every host serves every queue (no queues property: one pool). To route\n"
                "       queues to a cluster, give it <prop id=\"queues\" value=\"1,2\"/>;");
    fprintf(f, "\n"
               "     - speed 1Gf on every host and ref_speed equal to it: a job runs its logged\n"
               "       run time; the network figures are placeholders (batchlab does not\n"
               "       simulate communication).");
    if (nqs) {
        fprintf(f,
                "\n\n     What the jobs of each queue (field 15) asked at most, for limits a user\n"
                "     may write into queue_limits (a log's largest job is not its queue's limit):");
        for (size_t i = 0; i < nqs; i++) {
            const char *name = "";
            for (size_t k = 0; k < nq; k++)
                if (q[k].number == qs[i].queue)
                    name = q[k].name;
            char req[32] = "unknown", run[32] = "unknown";
            if (qs[i].req_s >= 0)
                snprintf(req, sizeof req, "%.0f s", qs[i].req_s);
            if (qs[i].run_s >= 0)
                snprintf(run, sizeof run, "%.0f s", qs[i].run_s);
            fprintf(
                f, "\n     - queue %lld%s%s%s%s: %lld jobs, %lld processors, requests %s, runs %s",
                (long long)qs[i].queue, qs[i].queue < 0 ? " (unknown)" : "", name[0] ? " (" : "",
                name, name[0] ? ")" : "", (long long)qs[i].jobs, (long long)qs[i].procs, req, run);
        }
    }
    fprintf(f, " -->\n");
}

static int write_platform(const char *log, const char *out, const eng_workload *w, eng_diag *d)
{
    eng_swf_class *q = NULL, *pt = NULL;
    size_t nq = 0, np = 0, nqs = 0;
    queue_seen *qs = NULL;
    int rc = eng_swf_classes(&w->hdr, "Queue", &q, &nq);
    if (rc == ENG_OK)
        rc = eng_swf_classes(&w->hdr, "Partition", &pt, &np);
    if (rc == ENG_OK)
        rc = queues_seen(w, &qs, &nqs);
    if (rc) {
        free(q);
        free(pt);
        free(qs);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    node_type t[MAX_TYPES];
    char guess[200], limits[4096];
    size_t nt = node_types(w, pt, np, t, guess, sizeof guess);
    queue_limits(q, nq, t[0].cores, limits, sizeof limits);
    eng_afile a;
    rc = eng_afile_open(&a, out, d);
    if (rc == ENG_OK) {
        FILE *f = a.f;
        fprintf(f, "<?xml version='1.0'?>\n"
                   "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
        write_header_comment(f, log, w, t, nt, guess, q, nq, pt, np, qs, nqs, limits);
        fprintf(f, "<platform version=\"4.1\">\n  <zone id=\"from-log\" routing=\"Full\">\n"
                   "    <prop id=\"ref_speed\" value=\"1Gf\"/>\n");
        if (limits[0])
            fprintf(f, "    <prop id=\"queue_limits\" value=\"%s\"/>\n", limits);
        for (size_t i = 0; i < nt; i++) {
            fprintf(f,
                    "    <cluster id=\"t%zu\" prefix=\"t%zu-\" suffix=\"\" radical=\"1-%lld\" "
                    "speed=\"1Gf\" core=\"%lld\"\n             bw=\"10Gbps\" lat=\"10us\"",
                    i + 1, i + 1, (long long)t[i].nodes, (long long)t[i].cores);
            if (t[i].partition >= 0)
                fprintf(f, ">\n      <prop id=\"partitions\" value=\"%lld\"/>\n    </cluster>\n",
                        (long long)t[i].partition);
            else
                fprintf(f, "/>\n");
        }
        fprintf(f, "  </zone>\n</platform>\n");
        rc = eng_afile_commit(&a, d);
    }
    free(q);
    free(pt);
    free(qs);
    return rc;
}

int bl_cmd_platform(int argc, char **argv)
{
    const size_t n_opts = sizeof platform_opts / sizeof platform_opts[0];
    const char *synopsis = "--from-log LOG -o FILE.xml";
    bl_args a;
    int rc = bl_args_parse("platform", platform_opts, n_opts, argc, argv, 1, &a);
    if (rc != 0)
        return rc;
    if (a.help) {
        bl_args_usage("platform", synopsis, platform_description, platform_opts, n_opts);
        bl_args_fini(&a);
        return 0;
    }
    const char *log = bl_args_value(&a, "from-log", NULL);
    const char *out = bl_args_value(&a, "output", NULL);
    eng_workload *w = NULL;
    if (!log || !out) {
        fprintf(stderr, "batchlab platform: --from-log and -o are required (see batchlab "
                        "platform --help)\n");
        bl_args_fini(&a);
        return 2;
    }
    eng_diag d;
    eng_diag_clear(&d);
    rc = eng_swf_read(log, NULL, &w, &d) || write_platform(log, out, w, &d) ? 1 : 0;
    if (rc)
        fprintf(stderr, "batchlab platform: %s\n", d.msg);
    else
        printf("%s: platform of %s\n", out, log);
    eng_workload_destroy(w);
    bl_args_fini(&a);
    return rc;
}
