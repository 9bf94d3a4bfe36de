/* test_eng_avail.c — the availability model (engine/eng_avail.c): the
 * worked example of Toporkov, Yemelyanov & Tselishchev 2023 §2.1, the shape
 * of a job chain, criterion (3), the environment generators, and drawn
 * unavailability agreeing with the computed availability. */
#include "bl_test.h"
#include "eng_avail.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The two jobs of Fig. 1 of the 2023 paper: allocations expected at 85 and
 * 844, occupations from 133 and 921, releases expected at 545 and 1250. */
static const eng_avail_job fig1_job1 = {85, 16, 133, 480, 545, 0.5};
static const eng_avail_job fig1_job2 = {844, 25, 921, 1180, 1250, 0.5};

static void test_worked_example(void)
{
    eng_avail_res r;
    eng_avail_res_init(&r, 0.06);
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_avail_add_job(&r, &fig1_job1, &d), 0);
    CU_ASSERT_EQUAL(eng_avail_add_job(&r, &fig1_job2, &d), 0);
    /* P_o at the expected allocation and release times is 0.5 */
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_job_po(&fig1_job1, 85), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_job_po(&fig1_job1, 545), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_job_po(&fig1_job2, 844), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_job_po(&fig1_job2, 1250), 0.5, 1e-15);
    /* interval [545, 844]: e1 = release of job 1, e2 = allocation of job 2 */
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_event_po_max(&fig1_job1, ENG_AVAIL_RELEASE, 545, 844), 0.5,
                           1e-15);
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_event_po_max(&fig1_job2, ENG_AVAIL_ALLOCATION, 545, 844), 0.5,
                           1e-15);
    CU_ASSERT_EQUAL(eng_avail_event_po_max(&fig1_job1, ENG_AVAIL_OCCUPATION, 545, 844), 0.0);
    CU_ASSERT_EQUAL(eng_avail_event_po_max(&fig1_job2, ENG_AVAIL_OCCUPATION, 545, 844), 0.0);
    CU_ASSERT_EQUAL(eng_avail_event_po_max(&fig1_job1, ENG_AVAIL_ALLOCATION, 545, 844), 0.0);
    CU_ASSERT_EQUAL(eng_avail_event_po_max(&fig1_job2, ENG_AVAIL_RELEASE, 545, 844), 0.0);
    /* P_a = 0.5 * 0.5 * 0.94 = 0.235 */
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_prob(&r, 545, 844), 0.235, 1e-15);
    /* an interval touching an occupation: the chain counts once, with 1 */
    CU_ASSERT_EQUAL(eng_avail_prob(&r, 100, 300), 0.0);
    CU_ASSERT_EQUAL(eng_avail_job_po_max(&fig1_job1, 100, 300), 1.0);
    eng_avail_res_fini(&r);
}

/* A chain rises to 1, stays, falls back; each event only on its span. */
static void test_chain_shape(void)
{
    const eng_avail_job *j = &fig1_job1;
    double prev = -1;
    for (double t = 0; t < 133; t += 1) {
        double v = eng_avail_job_po(j, t);
        CU_ASSERT(v >= prev);
        CU_ASSERT_EQUAL(v, eng_avail_event_po(j, ENG_AVAIL_ALLOCATION, t));
        prev = v;
    }
    CU_ASSERT_EQUAL(eng_avail_job_po(j, 133), 1.0);
    CU_ASSERT_EQUAL(eng_avail_job_po(j, 480), 1.0);
    CU_ASSERT_EQUAL(eng_avail_event_po(j, ENG_AVAIL_OCCUPATION, 300), 1.0);
    CU_ASSERT_EQUAL(eng_avail_event_po(j, ENG_AVAIL_ALLOCATION, 300), 0.0);
    prev = 2;
    for (double t = 481; t < 2000; t += 3) {
        double v = eng_avail_job_po(j, t);
        CU_ASSERT(v <= prev);
        CU_ASSERT_EQUAL(v, eng_avail_event_po(j, ENG_AVAIL_RELEASE, t));
        prev = v;
    }
    /* heavy tail: still occupied with some probability long after */
    CU_ASSERT(eng_avail_job_po(j, 700) > 0.005);
    /* max over an interval before the plateau is at its right end */
    CU_ASSERT_EQUAL(eng_avail_job_po_max(j, 10, 90), eng_avail_job_po(j, 90));
    CU_ASSERT_EQUAL(eng_avail_job_po_max(j, 600, 900), eng_avail_job_po(j, 600));
    /* steps when the deviations are zero */
    eng_avail_job s = {100, 0, 100, 200, 200, 0};
    CU_ASSERT_EQUAL(eng_avail_job_po(&s, 99.9), 0.0);
    CU_ASSERT_EQUAL(eng_avail_job_po(&s, 150), 1.0);
    CU_ASSERT_EQUAL(eng_avail_job_po(&s, 200.1), 0.0);
    /* bad chains are refused with a message */
    eng_avail_res r;
    eng_avail_res_init(&r, 0);
    eng_diag d;
    eng_diag_clear(&d);
    eng_avail_job bad = {100, 5, 90, 200, 250, 0.5};
    CU_ASSERT_EQUAL(eng_avail_add_job(&r, &bad, &d), ENG_INVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "alloc_mean <= occ_start"));
    CU_ASSERT_EQUAL(r.n_jobs, 0);
    eng_avail_res_fini(&r);
    eng_avail_res_fini(NULL);
}

/* Criterion (3): a group counts once; equal group sets, equal bits. */
static void test_group_window(void)
{
    const int32_t group_of[] = {0, 0, 1, 2, 2, 2};
    const double gp[] = {0.9, 0.8, 0.7};
    double scratch[6];
    const int32_t a[] = {0, 1, 3}; /* groups 0 and 2 */
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_group_window(group_of, gp, a, 3, scratch), 0.9 * 0.7, 1e-15);
    const int32_t b[] = {4, 0}; /* the same groups */
    CU_ASSERT_EQUAL(eng_avail_group_window(group_of, gp, b, 2, scratch),
                    eng_avail_group_window(group_of, gp, a, 3, scratch));
    const int32_t c[] = {5, 2, 1, 3};
    CU_ASSERT_DOUBLE_EQUAL(eng_avail_group_window(group_of, gp, c, 4, scratch), 0.9 * 0.8 * 0.7,
                           1e-15);
}

static void test_generators(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    /* global load: |N(0, 0.05)|, about 68 % below 0.05 */
    size_t below = 0, N = 4000;
    for (size_t i = 0; i < N; i++) {
        double po = eng_avail_gen_global(rng, 0.05, 0.99);
        CU_ASSERT(po >= 0 && po <= 0.99);
        below += po < 0.05;
    }
    CU_ASSERT(bl_binom_ok(below, N, 0.682689, 0, "share of P_o below the global load"));
    CU_ASSERT_EQUAL(eng_avail_gen_global(rng, 0, 0.99), 0.0);
    CU_ASSERT(eng_avail_gen_global(rng, 100, 0.5) <= 0.5);

    /* job load: expected spans cover exactly the share, in order, inside */
    eng_avail_job_params jp = eng_avail_job_defaults();
    eng_diag d;
    eng_diag_clear(&d);
    const double loads[] = {0, 0.1, 0.5, 0.9, 1.0};
    for (size_t l = 0; l < 5; l++) {
        eng_avail_res r;
        eng_avail_res_init(&r, 0);
        CU_ASSERT_EQUAL(eng_avail_gen_jobs(rng, &jp, 0, 1000, loads[l], &r, &d), 0);
        double busy = 0, last_end = 0;
        for (size_t k = 0; k < r.n_jobs; k++) {
            const eng_avail_job *j = &r.jobs[k];
            busy += j->release_median_s - j->alloc_mean_s;
            CU_ASSERT(j->alloc_mean_s >= last_end - 1e-9);
            CU_ASSERT(j->alloc_mean_s <= j->occ_start_s && j->occ_start_s <= j->occ_end_s &&
                      j->occ_end_s <= j->release_median_s);
            last_end = j->release_median_s;
        }
        CU_ASSERT(last_end <= 1000 + 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(busy, 1000 * loads[l], 1e-9);
        if (loads[l] == 0)
            CU_ASSERT_EQUAL(r.n_jobs, 0);
        if (loads[l] == 1.0) /* no gap anywhere: every long window is taken */
            CU_ASSERT(eng_avail_prob(&r, 0, 200) < 1e-3 && eng_avail_prob(&r, 400, 600) < 1e-3);
        eng_avail_res_fini(&r);
    }
    eng_avail_res r;
    eng_avail_res_init(&r, 0);
    CU_ASSERT_EQUAL(eng_avail_gen_jobs(rng, &jp, 0, 1000, 1.5, &r, &d), ENG_INVAL);
    eng_avail_job_params bad = jp;
    bad.rel_hi = 0.95;
    CU_ASSERT_EQUAL(eng_avail_gen_jobs(rng, &bad, 0, 1000, 0.5, &r, &d), ENG_INVAL);
    eng_avail_res_fini(&r);

    /* uniform values, on a grid when a step is given */
    double v[200];
    eng_avail_gen_uniform(rng, 1, 10, 1, v, 200);
    bool seen[11] = {false};
    for (int i = 0; i < 200; i++) {
        CU_ASSERT(v[i] >= 1 && v[i] <= 10 && v[i] == floor(v[i]));
        seen[(int)v[i]] = true;
    }
    CU_ASSERT(seen[1] && seen[10]);
    eng_avail_gen_uniform(rng, 2, 3, 0, v, 200);
    for (int i = 0; i < 200; i++)
        CU_ASSERT(v[i] >= 2 && v[i] <= 3);

    /* groups: a partition with no empty group; same seed, same groups */
    int32_t g1[21], g2[21];
    gsl_rng_set(rng, 99);
    CU_ASSERT_EQUAL(eng_avail_gen_groups(rng, 21, 8, g1, &d), 0);
    gsl_rng_set(rng, 99);
    CU_ASSERT_EQUAL(eng_avail_gen_groups(rng, 21, 8, g2, &d), 0);
    CU_ASSERT_EQUAL(memcmp(g1, g2, sizeof g1), 0);
    int count[8] = {0};
    for (int i = 0; i < 21; i++) {
        CU_ASSERT(g1[i] >= 0 && g1[i] < 8);
        count[g1[i]]++;
    }
    for (int g = 0; g < 8; g++)
        CU_ASSERT(count[g] > 0);
    CU_ASSERT_EQUAL(eng_avail_gen_groups(rng, 3, 4, g1, &d), ENG_INVAL);

    /* group availability (1 - P_o^global) (1 - P_o^event): no load, no
     * event gives 1; with share 0.4 and no static part, 60 % of the groups
     * are exactly 1 and the rest uniform on (0, 1], so 20 % lie below 0.5;
     * the static part alone is the global law */
    gsl_rng_set(rng, 11);
    CU_ASSERT_EQUAL(eng_avail_gen_group_p(rng, 0, 0), 1.0);
    size_t one = 0, half = 0, glob = 0;
    for (size_t i = 0; i < N; i++) {
        double p = eng_avail_gen_group_p(rng, 0, 0.4);
        CU_ASSERT(p > 0 && p <= 1);
        one += p == 1.0;
        half += p < 0.5;
        double q = eng_avail_gen_group_p(rng, 0.05, 0);
        CU_ASSERT(q >= 0.01 && q <= 1);
        glob += 1 - q < 0.05;
    }
    CU_ASSERT(bl_binom_ok(one, N, 0.6, 0, "groups without an event"));
    CU_ASSERT(bl_binom_ok(half, N, 0.2, 0, "groups below 0.5"));
    CU_ASSERT(bl_binom_ok(glob, N, 0.682689, 0, "static part below the global load"));
    /* the share moves no other draw */
    gsl_rng_set(rng, 5);
    eng_avail_gen_group_p(rng, 0.05, 0);
    unsigned long next0 = gsl_rng_get(rng);
    gsl_rng_set(rng, 5);
    eng_avail_gen_group_p(rng, 0.05, 1);
    CU_ASSERT_EQUAL(gsl_rng_get(rng), next0);
    gsl_rng_free(rng);
}

/* True if a span meets [a, b]. */
static bool hits(const eng_avail_span *s, size_t n, double a, double b)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].start_s <= b && s[i].end_s >= a)
            return true;
    return false;
}

/* Drawn unavailability agrees with eng_avail_prob (Monte Carlo, binomial
 * tolerance), is sorted, disjoint, clipped, and reproducible. */
static void test_draw(void)
{
    eng_avail_res r;
    eng_avail_res_init(&r, 0.06);
    eng_diag d;
    eng_diag_clear(&d);
    eng_avail_add_job(&r, &fig1_job1, &d);
    eng_avail_add_job(&r, &fig1_job2, &d);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 2023);
    const double iv[][2] = {{545, 844}, {560, 800}, {0, 60}, {600, 700}, {850, 900}, {1300, 1400}};
    enum { NI = 6, DRAWS = 20000 };
    size_t free_count[NI] = {0};
    eng_avail_span *spans = NULL;
    size_t n = 0, cap = 0;
    for (int k = 0; k < DRAWS; k++) {
        CU_ASSERT_EQUAL_FATAL(eng_avail_draw(&r, 0, 2000, INFINITY, rng, &spans, &n, &cap, &d), 0);
        for (size_t i = 0; i < n; i++) {
            CU_ASSERT(spans[i].start_s >= 0 && spans[i].end_s <= 2000);
            CU_ASSERT(spans[i].start_s <= spans[i].end_s);
            if (i)
                CU_ASSERT(spans[i].start_s > spans[i - 1].end_s);
        }
        for (int i = 0; i < NI; i++)
            free_count[i] += !hits(spans, n, iv[i][0], iv[i][1]);
    }
    for (int i = 0; i < NI; i++) {
        char what[64];
        snprintf(what, sizeof what, "free over [%g, %g]", iv[i][0], iv[i][1]);
        CU_ASSERT(
            bl_binom_ok(free_count[i], DRAWS, eng_avail_prob(&r, iv[i][0], iv[i][1]), 0, what));
    }
    /* the same seed gives the same spans */
    eng_avail_span first[16];
    size_t n_first;
    gsl_rng_set(rng, 5);
    eng_avail_draw(&r, 0, 2000, INFINITY, rng, &spans, &n, &cap, &d);
    n_first = n < 16 ? n : 16;
    memcpy(first, spans, n_first * sizeof *first);
    gsl_rng_set(rng, 5);
    eng_avail_draw(&r, 0, 2000, INFINITY, rng, &spans, &n, &cap, &d);
    CU_ASSERT_EQUAL(n < 16 ? n : 16, n_first);
    CU_ASSERT_EQUAL(memcmp(first, spans, n_first * sizeof *first), 0);
    /* epochs: the global event is redrawn per epoch, each a whole epoch */
    eng_avail_res g;
    eng_avail_res_init(&g, 0.3);
    size_t down = 0, epochs = 0;
    for (int k = 0; k < 2000; k++) {
        eng_avail_draw(&g, 0, 1000, 100, rng, &spans, &n, &cap, &d);
        for (size_t i = 0; i < n; i++) {
            CU_ASSERT_DOUBLE_EQUAL(fmod(spans[i].start_s, 100), 0, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(fmod(spans[i].end_s, 100), 0, 1e-9);
            down += (size_t)llround((spans[i].end_s - spans[i].start_s) / 100);
        }
        epochs += 10;
    }
    CU_ASSERT(bl_binom_ok(down, epochs, 0.3, 0, "epochs taken by the global event"));
    CU_ASSERT_EQUAL(eng_avail_draw(&g, 10, 5, 100, rng, &spans, &n, &cap, &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_avail_draw(&g, 0, 5, 0, rng, &spans, &n, &cap, &d), ENG_INVAL);
    free(spans);
    eng_avail_res_fini(&g);
    eng_avail_res_fini(&r);
    gsl_rng_free(rng);
}

/* Per-resource job-load shares (Toporkov et al. 2021 §4.1-4.2): Beta(K x,
 * K (1 - x)) has mean x and variance x (1 - x) / (K + 1); x = 0, x = 1 and
 * K = 0 are exact. The chains generated for a share cover exactly share x
 * span of the horizon. */
static void test_node_load(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 11);
    CU_ASSERT_EQUAL(eng_avail_gen_node_load(rng, 0, 0.5), 0.0);
    CU_ASSERT_EQUAL(eng_avail_gen_node_load(rng, 1, 0.5), 1.0);
    CU_ASSERT_EQUAL(eng_avail_gen_node_load(rng, 0.3, 0), 0.3);
    /* x = 0.8, K = 0.5: mean 0.8, variance 0.8 * 0.2 / 1.5 = 0.10667; the
     * sample mean of 20 000 draws has deviation sqrt(0.10667 / 20000) =
     * 0.0023, so 0.8 +- 0.01 is more than 4 deviations */
    const size_t N = 20000;
    double sum = 0, sum2 = 0;
    for (size_t i = 0; i < N; i++) {
        double u = eng_avail_gen_node_load(rng, 0.8, 0.5);
        CU_ASSERT(u >= 0 && u <= 1);
        sum += u;
        sum2 += u * u;
    }
    double mean = sum / (double)N, var = sum2 / (double)N - mean * mean;
    CU_ASSERT_DOUBLE_EQUAL(mean, 0.8, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(var, 0.8 * 0.2 / 1.5, 0.006);

    /* coverage per resource: expected spans sum to the share x horizon */
    eng_avail_job_params jp = eng_avail_job_defaults();
    eng_diag d;
    eng_diag_clear(&d);
    for (int k = 0; k < 50; k++) {
        double share = eng_avail_gen_node_load(rng, 0.6, 0.5);
        eng_avail_res r;
        eng_avail_res_init(&r, 0);
        CU_ASSERT_EQUAL(eng_avail_gen_busy(rng, &jp, 0, 1000, share * 1000, &r, &d), 0);
        double busy = 0;
        for (size_t j = 0; j < r.n_jobs; j++)
            busy += r.jobs[j].release_median_s - r.jobs[j].alloc_mean_s;
        CU_ASSERT_DOUBLE_EQUAL(busy, share * 1000, 1e-9);
        eng_avail_res_fini(&r);
    }
    /* a full node: 1000 of [0, 1000] busy, no 200-unit window anywhere */
    eng_avail_res r;
    eng_avail_res_init(&r, 0);
    CU_ASSERT_EQUAL(eng_avail_gen_busy(rng, &jp, 0, 1000, 1000, &r, &d), 0);
    CU_ASSERT(eng_avail_prob(&r, 0, 200) < 1e-3 && eng_avail_prob(&r, 800, 1000) < 1e-3);
    CU_ASSERT_EQUAL(eng_avail_gen_busy(rng, &jp, 0, 1000, 1000.5, &r, &d), ENG_INVAL);
    CU_ASSERT_EQUAL(eng_avail_gen_busy(rng, &jp, 0, 1000, -1, &r, &d), ENG_INVAL);
    eng_avail_res_fini(&r);
    gsl_rng_free(rng);
}

/* Prices by rank of a score: hand-worked ranks, the values kept, ties of
 * score by index; on random draws the rank correlation is exactly 1 and a
 * price law's range and mean (uniform on 1.25..15.5 by 0.25: mean 8.375 by
 * hand) survive the reordering. */
static void test_couple_by_rank(void)
{
    eng_diag d;
    eng_diag_clear(&d);
    /* scores 0.5, 0.9, 0.1, 0.9: ranks 2, 3, 1, 4 (the tie at 0.9 by index) */
    const double score[4] = {0.5, 0.9, 0.1, 0.9};
    double val[4] = {3, 1, 4, 2};
    CU_ASSERT_EQUAL(eng_avail_couple_by_rank(score, val, 4, &d), ENG_OK);
    CU_ASSERT(val[0] == 2 && val[1] == 3 && val[2] == 1 && val[3] == 4);
    CU_ASSERT_EQUAL(eng_avail_couple_by_rank(score, val, 0, &d), ENG_OK);

    enum { N = 20000 };
    double *sc = malloc(N * sizeof *sc), *v = malloc(N * sizeof *v);
    CU_ASSERT_FATAL(sc && v);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 5);
    eng_avail_gen_uniform(rng, 1.25, 15.5, 0.25, v, N);
    for (int i = 0; i < N; i++)
        sc[i] = gsl_rng_uniform(rng);
    double sum0 = 0, sum1 = 0, lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < N; i++)
        sum0 += v[i];
    CU_ASSERT_EQUAL(eng_avail_couple_by_rank(sc, v, N, &d), ENG_OK);
    bool grid = true, monotone = true;
    for (int i = 0; i < N; i++) {
        sum1 += v[i];
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
        grid = grid && v[i] * 4 == floor(v[i] * 4);
        for (int k = i + 1; k < i + 50 && k < N; k++)
            if ((sc[k] > sc[i]) != (v[k] >= v[i]) && v[k] != v[i])
                monotone = false;
    }
    CU_ASSERT(grid && monotone);
    CU_ASSERT(lo == 1.25 && hi == 15.5);
    CU_ASSERT_DOUBLE_EQUAL(sum1, sum0, 1e-6);
    /* mean 8.375, standard error 4.13 / sqrt(20000) = 0.029 */
    CU_ASSERT_DOUBLE_EQUAL(sum1 / N, 8.375, 0.12);
    gsl_rng_free(rng);
    free(sc);
    free(v);
}

int bl_suite_eng_avail(void)
{
    CU_pSuite s = CU_add_suite("eng_avail", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "worked example P_a = 0.235", test_worked_example);
    CU_add_test(s, "job chain shape and validation", test_chain_shape);
    CU_add_test(s, "group criterion (3)", test_group_window);
    CU_add_test(s, "environment generators", test_generators);
    CU_add_test(s, "prices by rank of a score", test_couple_by_rank);
    CU_add_test(s, "job-load shares and coverage per resource", test_node_load);
    CU_add_test(s, "drawn unavailability matches the model", test_draw);
    return 0;
}
