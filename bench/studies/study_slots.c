/* study_slots.c — `batchlab-study slots`: the simulation study of
 * Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011, Section 5. Each cycle
 * draws an ordered slot list (SlotGenerator) and a batch (JobGenerator),
 * searches the batch's alternatives with ALP and with AMP on the same list
 * (policies/slots/pol_alp_amp.h), and chooses one alternative per job with
 * the backward-run dynamic program (pol_batch_dp.h): min total time under
 * B* (3), and min total cost under T* (2). A cycle counts ("is kept") for a
 * problem when every job of the batch has an alternative under both
 * algorithms and both programs have a solution. The means over the kept
 * cycles are printed beside the paper's.
 *
 * Generators (every value uniform; integers for counts):
 *   slots: m in 120..150; each next slot starts with the previous one with
 *     probability 0.4, else U[0, 10] later; length U[50, 300]; performance
 *     U[1, 3]; price U[0.75 p, 1.25 p] with p = 1.7^performance.
 *   jobs: n in 3..7; nodes N in 1..6; length t U[50, 150]; minimum
 *     performance P U[1, 2].
 * Draws come from one gsl_rng_mt19937 seeded with --seed, in this order:
 * m, then per slot (same start?, gap, length, performance, price factor),
 * then n, then per job (N, t, P).
 *
 * Readings of what the paper leaves unstated (options, printed in the
 * output; the defaults are those that reproduce the paper's figures, the
 * others are shown by bench/slots-study.sh):
 *  - the job's length t is its work at performance 1, run t/p on a slot of
 *    performance p (--length-ref unit, the JobGenerator's "length
 *    (representing the complexity)"), or the span at the requested
 *    performance P, run t P/p (--length-ref required: Section 3's request,
 *    the printed 2°b with numerator and denominator swapped);
 *  - the per-job price limit is C = K * 1.7^P (--price-factor K, default
 *    1: the nominal price of a node of the requested performance); AMP's
 *    budget is S = C t N as the paper defines it;
 *  - T* of (2) floors each job's mean time (--t-limit means; --t-limit
 *    terms floors every term as printed, which can leave the programs
 *    without a solution although every job has an alternative);
 *  - performances are real (--perf integer: 1..3 and P in 1..2).
 * The paper's times and costs are per job ("average job execution
 * cost"): the batch totals of the program divided by the batch size and
 * averaged over the kept cycles. The time quantum of the programs is one
 * time unit (the paper's [.] in (2) makes T* an integer).
 *
 * Cost: per cycle O(passes * n * m * W) for the searches and O(cells * sum
 * of alternatives) for the programs; 25 000 cycles take seconds.
 */
#include "study.h"

#include "cli_args.h"

#include "eng_json.h"
#include "eng_util.h"
#include "slots/pol_alp_amp.h"
#include "slots/pol_batch_dp.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char study_slots_summary[] =
    "ALP vs AMP slot search and batch DP (Toporkov et al. 2011, Section 5)";

#define MAX_JOBS 7
#define SEED_MAX 4294967295ULL

static const bl_opt opts[] = {
    {"cycles", 0, BL_VALUE, "N", "scheduling cycles to simulate (default 25000)"},
    {"seed", 0, BL_VALUE, "S", "generator seed, 0..4294967295 (default 1)"},
    {"json", 0, BL_VALUE, "FILE", "write the results as JSON"},
    {"csv", 0, BL_VALUE, "FILE", "write one row per cycle (for the figures)"},
    {"price-factor", 0, BL_VALUE, "K", "per-job price limit C = K * 1.7^P (default 1)"},
    {"length-ref", 0, BL_VALUE, "REF",
     "unit (default): t is the work at performance 1; "
     "required: t holds at performance P"},
    {"t-limit", 0, BL_VALUE, "RULE",
     "(2) floored per job mean (means, default) or term by "
     "term as printed (terms)"},
    {"perf", 0, BL_VALUE, "KIND",
     "real (default): performance U[1, 3] and P U[1, 2]; "
     "integer: 1..3 and 1..2"},
    {"dp-cells", 0, BL_VALUE, "N", "largest grid of the dynamic program's limit (default 4096)"},
};

static const char synopsis[] =
    "[--cycles N] [--seed S] [--json FILE] [--csv FILE] [--price-factor K]\n"
    "        [--length-ref unit|required] [--t-limit means|terms] [--perf real|integer]\n"
    "        [--dp-cells N]";

static const char description[] =
    "Reproduces the simulation study of Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011\n"
    "(Section 5): per cycle an ordered list of 120-150 slots and a batch of 3-7 jobs, the\n"
    "batch's alternatives found by ALP and by AMP on the same slots, and one alternative per\n"
    "job chosen by the backward-run dynamic program: min total time under the budget B* (3),\n"
    "then min total cost under the time limit T* (2). Prints the means over the cycles in\n"
    "which every job had an alternative under both algorithms, next to the paper's numbers.\n"
    "A job's time is its window's slowest task, its cost the sum of price x time over its\n"
    "slots; the paper's figures are means per job (batch total / batch size, averaged over\n"
    "the kept cycles), the batch totals are printed too. JSON: time_min and cost_min, each\n"
    "with alp and amp {time, cost, alternatives_per_job (per job), batch_time, batch_cost,\n"
    "paper} and cycles_kept. --csv writes one row per cycle with batch totals.\n"
    "\n"
    "Readings of what the paper leaves open (defaults reproduce its figures best): the job's\n"
    "length is its work at performance 1, so a slot of performance p runs it t/p (the\n"
    "JobGenerator's 'length (representing the complexity)'; --length-ref required runs it\n"
    "t P/p, t holding at the requested performance P); the per-job price limit is\n"
    "C = K 1.7^P, the nominal price of the requested performance; AMP's budget S = C t N;\n"
    "T* (2) floors each job's mean time (--t-limit terms floors every term as printed, which\n"
    "can leave the programs without a solution).";

/* The paper's numbers (Section 5). */
static const struct {
    double time, cost, alt;
} paper[2][2] = {
    /* time_min */ {{59.85, 313.56, 7.39}, {39.01, 369.69, 34.28}},
    /* cost_min */ {{61.04, 313.09, 7.28}, {51.62, 343.3, 34.23}},
};
static const double paper_kept_cost_min = 8571;

/* Sums over the kept cycles of one problem and one algorithm. */
typedef struct acc {
    double time, cost;         /* batch totals */
    double time_job, cost_job; /* batch totals / n, summed */
    double alts, jobs;
} acc;

typedef struct problem {
    acc a[2];
    double kept;
    double kept_jobs;
    double dp_infeasible; /* cycles lost to the program only */
    double dp_lost[2];    /* ... by algorithm (a cycle may count for both) */
} problem;

typedef struct study {
    unsigned long long cycles;
    unsigned long seed;
    double price_factor;
    bool unit_ref;
    bool int_perf;
    pol_dp_tlimit rule;
    int64_t dp_cells;
    problem p[2];
    double searched; /* cycles where every job had alternatives under both */
    double no_alp, no_amp;
    double slots_sum, jobs_sum;
} study;

static double uni(gsl_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * gsl_rng_uniform(r);
}

static int uint_in(gsl_rng *r, int lo, int hi)
{
    return lo + (int)gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1));
}

/* SlotGenerator: the ordered list of one cycle. */
static int gen_slots(gsl_rng *r, const study *st, pol_slot_list *l, size_t *m_out)
{
    pol_slots_clear(l);
    int m = uint_in(r, 120, 150);
    double start = 0;
    for (int i = 0; i < m; i++) {
        bool same = gsl_rng_uniform(r) < 0.4;
        double gap = uni(r, 0, 10);
        if (i > 0 && !same)
            start += gap;
        double len = uni(r, 50, 300);
        double perf = st->int_perf ? uint_in(r, 1, 3) : uni(r, 1, 3);
        double price = uni(r, 0.75, 1.25) * pow(1.7, perf);
        pol_slot s = {
            .start_s = start, .end_s = start + len, .perf = perf, .price = price, .line = i};
        int rc = pol_slots_insert(l, &s, NULL);
        if (rc)
            return rc;
    }
    *m_out = (size_t)m;
    return 0;
}

/* JobGenerator: the batch of one cycle. */
static size_t gen_jobs(gsl_rng *r, const study *st, pol_slot_req *req)
{
    size_t n = (size_t)uint_in(r, 3, 7);
    for (size_t i = 0; i < n; i++) {
        int nodes = uint_in(r, 1, 6);
        double t = uni(r, 50, 150);
        double p = st->int_perf ? uint_in(r, 1, 2) : uni(r, 1, 2);
        req[i] = (pol_slot_req){.n = nodes,
                                .t = t,
                                .perf_ref = st->unit_ref ? 1 : p,
                                .perf_min = p,
                                .price_max = st->price_factor * pow(1.7, p)};
    }
    return n;
}

/* The batch's alternatives as the program's CSR arrays. */
typedef struct csr {
    size_t off[MAX_JOBS + 1];
    double *time, *cost;
    size_t cap;
} csr;

static int to_csr(const pol_alt_set *s, size_t n, csr *c)
{
    if (eng_grow(&c->time, &c->cap, s->n_alt + 1, sizeof *c->time))
        return ENG_NOMEM;
    double *cost = realloc(c->cost, c->cap * sizeof *cost);
    if (!cost)
        return ENG_NOMEM;
    c->cost = cost;
    c->off[0] = 0;
    for (size_t i = 0; i < n; i++)
        c->off[i + 1] = c->off[i] + s->per_job[i];
    size_t fill[MAX_JOBS];
    memcpy(fill, c->off, n * sizeof *fill);
    for (size_t a = 0; a < s->n_alt; a++) {
        size_t k = fill[s->alt[a].job]++;
        c->time[k] = s->alt[a].time;
        c->cost[k] = s->alt[a].cost;
    }
    return 0;
}

/* One row of the per-cycle file. */
typedef struct row {
    size_t n, alts[2];
    bool kept[2];
    double time[2][2], cost[2][2]; /* [problem][algorithm] */
} row;

static int run(study *st, FILE *csv)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r)
        return ENG_NOMEM;
    gsl_rng_set(r, st->seed);
    pol_slot_list base, work;
    pol_slot_search ss;
    pol_alt_set set[2];
    pol_dp dp;
    csr c[2] = {{{0}, NULL, NULL, 0}, {{0}, NULL, NULL, 0}};
    int rc = pol_slots_init(&base, st->seed);
    if (rc == 0)
        rc = pol_slots_init(&work, st->seed);
    pol_slot_search_init(&ss);
    pol_alt_set_init(&set[0]);
    pol_alt_set_init(&set[1]);
    pol_dp_init(&dp);
    pol_dp_grid grid = {.time_quantum = 1, .max_cells = st->dp_cells, .rule = st->rule};
    if (csv)
        fprintf(csv, "cycle,jobs,alp_alternatives,amp_alternatives,time_min_kept,"
                     "time_min_alp_time,time_min_alp_cost,time_min_amp_time,time_min_amp_cost,"
                     "cost_min_kept,cost_min_alp_time,cost_min_alp_cost,cost_min_amp_time,"
                     "cost_min_amp_cost\n");
    for (unsigned long long cy = 0; cy < st->cycles && rc == 0; cy++) {
        size_t m;
        pol_slot_req req[MAX_JOBS];
        rc = gen_slots(r, st, &base, &m);
        if (rc)
            break;
        size_t n = gen_jobs(r, st, req);
        st->slots_sum += (double)m;
        st->jobs_sum += (double)n;
        bool all[2] = {true, true};
        for (int g = 0; g < 2 && rc == 0; g++) {
            rc = pol_slots_copy(&work, &base);
            if (rc == 0)
                rc = pol_slot_batch_search(&ss, &work, (pol_slot_algo)g, req, n, 0, &set[g]);
            if (rc == 0)
                rc = to_csr(&set[g], n, &c[g]);
            for (size_t i = 0; i < n; i++)
                if (set[g].per_job[i] == 0)
                    all[g] = false;
        }
        if (rc)
            break;
        st->no_alp += !all[0];
        st->no_amp += !all[1];
        row rw = {.n = n, .alts = {set[0].n_alt, set[1].n_alt}};
        if (all[0] && all[1]) {
            st->searched++;
            for (int pb = 0; pb < 2 && rc == 0; pb++) {
                pol_dp_result res[2];
                int32_t choice[MAX_JOBS];
                for (int g = 0; g < 2 && rc == 0; g++) {
                    pol_dp_batch b = {
                        .n_jobs = n, .off = c[g].off, .time = c[g].time, .cost = c[g].cost};
                    rc = pb == 0 ? pol_dp_min_time(&dp, &b, &grid, choice, &res[g])
                                 : pol_dp_min_cost(&dp, &b, &grid, choice, &res[g]);
                }
                if (rc)
                    break;
                problem *p = &st->p[pb];
                if (!res[0].feasible || !res[1].feasible) {
                    p->dp_infeasible++;
                    p->dp_lost[0] += !res[0].feasible;
                    p->dp_lost[1] += !res[1].feasible;
                    continue;
                }
                rw.kept[pb] = true;
                p->kept++;
                p->kept_jobs += (double)n;
                for (int g = 0; g < 2; g++) {
                    acc *a = &p->a[g];
                    a->time += res[g].time;
                    a->cost += res[g].cost;
                    a->time_job += res[g].time / (double)n;
                    a->cost_job += res[g].cost / (double)n;
                    a->alts += (double)set[g].n_alt;
                    a->jobs += (double)n;
                    rw.time[pb][g] = res[g].time;
                    rw.cost[pb][g] = res[g].cost;
                }
            }
        }
        if (csv && rc == 0)
            fprintf(csv, "%llu,%zu,%zu,%zu,%d,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.6g\n", cy,
                    rw.n, rw.alts[0], rw.alts[1], rw.kept[0], rw.time[0][0], rw.cost[0][0],
                    rw.time[0][1], rw.cost[0][1], rw.kept[1], rw.time[1][0], rw.cost[1][0],
                    rw.time[1][1], rw.cost[1][1]);
    }
    pol_dp_fini(&dp);
    for (int g = 0; g < 2; g++) {
        pol_alt_set_fini(&set[g]);
        free(c[g].time);
        free(c[g].cost);
    }
    pol_slot_search_fini(&ss);
    pol_slots_fini(&work);
    pol_slots_fini(&base);
    gsl_rng_free(r);
    return rc;
}

static double mean(double sum, double n)
{
    return n > 0 ? sum / n : NAN;
}

static const char *const pname[2] = {"time_min", "cost_min"};
static const char *const aname[2] = {"alp", "amp"};

static void print_table(const study *st)
{
    printf("batchlab-study slots: ALP vs AMP, %llu cycle%s, seed %lu\n", st->cycles,
           bl_s(st->cycles), st->seed);
    printf("reading: t holds at performance %s; C = %g * 1.7^P; S = C t N; T* (2) floored %s; "
           "%s performance; DP grid <= %lld cells\n",
           st->unit_ref ? "1 (run t/p)" : "P (run t P/p)", st->price_factor,
           st->rule == POL_DP_TLIMIT_MEANS ? "per job mean" : "term by term",
           st->int_perf ? "integer" : "real", (long long)st->dp_cells);
    printf("mean slots per cycle %.2f (paper 135.11); cycles where every job has alternatives "
           "under both: %.0f (ALP failed in %.0f, AMP in %.0f)\n\n",
           mean(st->slots_sum, (double)st->cycles), st->searched, st->no_alp, st->no_amp);
    static const char *const title[2] = {"min total time T under the budget B* (3)",
                                         "min total cost C under the time limit T* (2)"};
    for (int pb = 0; pb < 2; pb++) {
        const problem *p = &st->p[pb];
        printf("%s:\n  %.0f cycles kept (paper: %s), %.2f jobs per kept batch (paper: %s); %.0f "
               "lost to an infeasible program (ALP %.0f, AMP %.0f)\n",
               title[pb], p->kept, pb ? "8571" : "not given", mean(p->kept_jobs, p->kept),
               pb ? "4.18" : "not given", p->dp_infeasible, p->dp_lost[0], p->dp_lost[1]);
        printf("  %-26s %10s %10s %10s %10s\n", "", "paper ALP", "ALP", "paper AMP", "AMP");
        printf("  %-26s %10.2f %10.2f %10.2f %10.2f\n", "time per job", paper[pb][0].time,
               mean(p->a[0].time_job, p->kept), paper[pb][1].time, mean(p->a[1].time_job, p->kept));
        printf("  %-26s %10.2f %10.2f %10.2f %10.2f\n", "cost per job", paper[pb][0].cost,
               mean(p->a[0].cost_job, p->kept), paper[pb][1].cost, mean(p->a[1].cost_job, p->kept));
        printf("  %-26s %10.2f %10.2f %10.2f %10.2f\n", "alternatives per job", paper[pb][0].alt,
               mean(p->a[0].alts, p->a[0].jobs), paper[pb][1].alt,
               mean(p->a[1].alts, p->a[1].jobs));
        printf("  %-26s %10s %10.2f %10s %10.2f\n", "batch time (sum over jobs)", "",
               mean(p->a[0].time, p->kept), "", mean(p->a[1].time, p->kept));
        printf("  %-26s %10s %10.2f %10s %10.2f\n", "batch cost (sum over jobs)", "",
               mean(p->a[0].cost, p->kept), "", mean(p->a[1].cost, p->kept));
        double ta = mean(p->a[0].time_job, p->kept), tm = mean(p->a[1].time_job, p->kept);
        double ca = mean(p->a[0].cost_job, p->kept), cm = mean(p->a[1].cost_job, p->kept);
        printf("  AMP vs ALP: time %+.0f%% (paper %+.0f%%), cost %+.0f%% (paper %+.0f%%)\n\n",
               100 * (tm / ta - 1), 100 * (paper[pb][1].time / paper[pb][0].time - 1),
               100 * (cm / ca - 1), 100 * (paper[pb][1].cost / paper[pb][0].cost - 1));
    }
}

/* A mean rounded to 1e-6 (null when not finite). */
static json_t *num6(double v)
{
    return eng_json_num(round(v * 1e6) / 1e6);
}

/* How the paper was read (Section 5's silences, chosen once). */
static json_t *json_reading(const study *st, bool *ok)
{
    json_t *o = json_object();
    eng_json_set(o, "length_ref", eng_json_str(st->unit_ref ? "unit" : "required"), ok);
    eng_json_set(o, "price_factor", num6(st->price_factor), ok);
    eng_json_set(o, "budget", eng_json_str("C*t*N"), ok);
    eng_json_set(o, "t_limit", eng_json_str(st->rule == POL_DP_TLIMIT_MEANS ? "means" : "terms"),
                 ok);
    eng_json_set(o, "perf", eng_json_str(st->int_perf ? "integer" : "real"), ok);
    eng_json_set(o, "dp_cells", json_integer((json_int_t)st->dp_cells), ok);
    return o;
}

/* One problem (time or cost minimization): ALP and AMP, ours beside the
 * paper's, and the cycles kept. */
static json_t *json_problem(int pb, const study *st, bool *ok)
{
    const problem *p = &st->p[pb];
    json_t *o = json_object();
    for (int g = 0; g < 2; g++) {
        const acc *a = &p->a[g];
        json_t *ag = json_object(), *pp = json_object();
        eng_json_set(ag, "time", num6(mean(a->time_job, p->kept)), ok);
        eng_json_set(ag, "cost", num6(mean(a->cost_job, p->kept)), ok);
        eng_json_set(ag, "alternatives_per_job", num6(mean(a->alts, a->jobs)), ok);
        eng_json_set(ag, "batch_time", num6(mean(a->time, p->kept)), ok);
        eng_json_set(ag, "batch_cost", num6(mean(a->cost, p->kept)), ok);
        eng_json_set(pp, "time", num6(paper[pb][g].time), ok);
        eng_json_set(pp, "cost", num6(paper[pb][g].cost), ok);
        eng_json_set(pp, "alternatives_per_job", num6(paper[pb][g].alt), ok);
        eng_json_set(ag, "paper", pp, ok);
        eng_json_set(o, aname[g], ag, ok);
    }
    eng_json_set(o, "cycles_kept", eng_json_num(p->kept), ok);
    eng_json_set(o, "jobs_per_kept_cycle", num6(mean(p->kept_jobs, p->kept)), ok);
    eng_json_set(o, "cycles_lost_to_dp", eng_json_num(p->dp_infeasible), ok);
    eng_json_set(o, "paper_cycles_kept", pb == 1 ? num6(paper_kept_cost_min) : json_null(), ok);
    return o;
}

static int write_file(const char *path, const study *st)
{
    eng_diag d;
    eng_diag_clear(&d);
    bool ok = true;
    json_t *root = json_object();
    eng_json_set(root, "study", eng_json_str("slots"), &ok);
    eng_json_set(root, "paper",
                 eng_json_str("Toporkov, Yemelyanov, Toporkova & Bobchenkov 2011, Section 5"), &ok);
    eng_json_set(root, "cycles", json_integer((json_int_t)st->cycles), &ok);
    eng_json_set(root, "seed", json_integer((json_int_t)st->seed), &ok);
    eng_json_set(root, "reading", json_reading(st, &ok), &ok);
    eng_json_set(root, "mean_slots", num6(mean(st->slots_sum, (double)st->cycles)), &ok);
    eng_json_set(root, "cycles_all_jobs_have_alternatives", eng_json_num(st->searched), &ok);
    for (int pb = 0; pb < 2; pb++)
        eng_json_set(root, pname[pb], json_problem(pb, st, &ok), &ok);
    int rc = ok ? eng_json_write(path, root, &d) : eng_diag_set(&d, ENG_NOMEM, "out of memory");
    json_decref(root);
    if (rc != ENG_OK) {
        fprintf(stderr, "batchlab-study slots: %s\n", d.msg);
        return 1;
    }
    return 0;
}

int study_slots(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("slots", opts, BL_N_OPTS(opts), argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("slots", synopsis, description, opts, BL_N_OPTS(opts));
        bl_args_fini(&a);
        return 0;
    }
    study st = {.cycles = 25000, .seed = 1, .price_factor = 1, .dp_cells = 4096};
    unsigned long long v;
    int idx = 0;
    const char *ref = bl_args_value(&a, "length-ref", "unit");
    const char *pf = bl_args_value(&a, "price-factor", NULL);
    if ((rc = bl_args_int("slots", &a, "cycles", 1, 100000000ULL, &st.cycles)) != 0)
        goto done;
    v = st.seed;
    if ((rc = bl_args_int("slots", &a, "seed", 0, SEED_MAX, &v)) != 0)
        goto done;
    st.seed = (unsigned long)v;
    v = (unsigned long long)st.dp_cells;
    if ((rc = bl_args_int("slots", &a, "dp-cells", 16, 1ULL << 24, &v)) != 0)
        goto done;
    st.dp_cells = (int64_t)v;
    if ((rc = bl_args_choice("slots", "length-ref", ref, "unit|required", &idx)) != 0)
        goto done;
    st.unit_ref = idx == 0;
    if ((rc = bl_args_choice("slots", "t-limit", bl_args_value(&a, "t-limit", "means"),
                             "means|terms", &idx)) != 0)
        goto done;
    st.rule = idx == 0 ? POL_DP_TLIMIT_MEANS : POL_DP_TLIMIT_TERMS;
    if ((rc = bl_args_choice("slots", "perf", bl_args_value(&a, "perf", "real"), "real|integer",
                             &idx)) != 0)
        goto done;
    st.int_perf = idx == 1;
    if (pf) {
        if ((rc = bl_args_double("slots", "price-factor", pf, &st.price_factor)) != 0)
            goto done;
        if (!(st.price_factor > 0)) {
            fprintf(stderr,
                    "batchlab-study slots: --price-factor: expected a number > 0, got "
                    "'%s'\n",
                    pf);
            rc = 2;
            goto done;
        }
    }
    FILE *csv = NULL;
    eng_afile caf;
    eng_diag d;
    eng_diag_clear(&d);
    const char *csv_path = bl_args_value(&a, "csv", NULL);
    if (csv_path) {
        if (eng_afile_open(&caf, csv_path, &d) != 0) {
            fprintf(stderr, "batchlab-study slots: %s\n", d.msg);
            rc = 1;
            goto done;
        }
        csv = caf.f;
    }
    if (run(&st, csv) != 0) {
        fprintf(stderr, "batchlab-study slots: out of memory\n");
        if (csv)
            eng_afile_abort(&caf);
        rc = 1;
        goto done;
    }
    if (csv && eng_afile_commit(&caf, &d) != 0) {
        fprintf(stderr, "batchlab-study slots: %s\n", d.msg);
        rc = 1;
        goto done;
    }
    print_table(&st);
    const char *json = bl_args_value(&a, "json", NULL);
    if (json)
        rc = write_file(json, &st);
done:
    bl_args_fini(&a);
    return rc;
}
