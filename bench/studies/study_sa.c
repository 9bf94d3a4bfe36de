/* study_sa.c — `batchlab-study sa`: schedule refinement by simulated
 * annealing on the load models of Skrinarova & Povinsky 2019 (gpu/gpu_sa.h):
 * one run on one load model and machine count, with a fixed number of
 * iterations or the E1 stopping rule, minimising E1 or E2, on the CPU
 * reference or the CUDA backend. Prints our schedule-creation time, Cmax,
 * flowtime, E1, E2 and throughput next to the paper's numbers for the
 * same model and size where it has them (Tables 1-3 and 5-9); bench/
 * sa-study.sh runs the grid of sizes.
 *
 * What differs from the paper by construction: their instances are not
 * published, so ours come from gpu_sa_model.c's stated distributions; the
 * numbers beside ours are the paper's own, for orientation, not a target.
 * Their Tables 1 and 2 do not say whether they ran 1000 or 5000
 * iterations; Table 4 (model #1 with the E1 rule) is missing from the
 * text.
 */
#include "study.h"

#include "cli_args.h"
#include "cli_policy_spec.h"

#include "eng_json.h"
#include "eng_util.h"
#include "gpu_solve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char study_sa_summary[] =
    "simulated-annealing schedule refinement on CPU/GPU (Skrinarova & Povinsky 2019)";


static const bl_opt opts[] = {
    {"model", 0, BL_VALUE, "1|2",
     "load model: #1 about 4 jobs and 16 files per machine, #2 "
     "about 16 and 32 (required)"},
    {"machines", 0, BL_VALUE, "M", "number of machines, 1..16384 (required)"},
    {"iterations", 0, BL_VALUE, "I",
     "iterations per chain (default 1000; with --stop-e1 the "
     "upper bound, default 100000)"},
    {"stop-e1", 0, BL_FLAG, NULL,
     "stop a chain when E1 has not improved for 50 iterations "
     "(the temperature then falls as in a 5000-iteration run)"},
    {"energy", 0, BL_VALUE, "e1|e2", "energy to minimise (default e1)"},
    {"transfer-cost", 0, BL_VALUE, "PCT",
     "E2's transfer costs: a size unit moved costs PCT % "
     "of n (default 0; the paper: 0, 5, 10, 25)"},
    {"chains", 0, BL_VALUE, "C", "independent chains, best of (default 1)"},
    {"parallel", 0, BL_VALUE, "chains|machines",
     "what a device runs in parallel: independent chains (default), or one schedule decoded "
     "machine by machine as the paper's Algorithm 1 (same schedule either way)"},
    {"acceptance", 0, BL_VALUE, "metropolis|paper",
     "step 6: keep the best schedule apart (metropolis, default) or make every accepted "
     "schedule the best (paper)"},
    {"full-decode", 0, BL_FLAG, NULL,
     "decode every candidate from scratch instead of re-evaluating only the jobs a move "
     "affects (the same schedule; for the speed ablation)"},
    {"backend", 0, BL_VALUE, "auto|cpu|cuda",
     "where to run (default auto; " BL_SA_BACKEND_ENV " overrides)"},
    {"t0-accept", 0, BL_VALUE, "PERMILLE",
     "initial acceptance of an average worsening move, "
     "1..999 (default 500)"},
    {"t-end", 0, BL_VALUE, "PPM",
     "final temperature, parts per million of the initial one "
     "(default 10000)"},
    {"seed", 0, BL_VALUE, "S", "annealing seed (default 1)"},
    {"instance", 0, BL_VALUE, "N", "seed of the generated load model (default 1)"},
    {"json", 0, BL_VALUE, "FILE", "write the results as JSON"},
};

static const char synopsis[] =
    "--model 1|2 --machines M [--iterations I | --stop-e1] [--energy e1|e2]\n"
    "        [--transfer-cost PCT] [--chains C] [--parallel chains|machines]\n"
    "        [--acceptance metropolis|paper] [--full-decode] [--backend auto|cpu|cuda]\n"
    "        [--seed S] [--instance N] [--t0-accept PERMILLE] [--t-end PPM] [--json FILE]";

static const char description[] =
    "Generates load model #1 or #2 of Skrinarova & Povinsky 2019 for M machines (machines\n"
    "with speeds, latency and bandwidth matrices, jobs with input and produced files, files\n"
    "with mirrors, job dependencies; distributions in gpu/gpu_sa_model.c) and refines a\n"
    "random initial schedule by simulated annealing: their Algorithm 1 decodes a candidate\n"
    "(jobs in order on their machines, each input fetched from the copy that delivers it\n"
    "first over the machine's download link), Algorithm 2 moves a job to another machine\n"
    "or place and swaps downloads, accepting by e^(-delta/T). Energies: E1 = n Cmax + F,\n"
    "E2 = 0.35 n Cmax + 0.35 F + 0.3 TC with TC = PCT % x n x the volume of the files\n"
    "moved between machines. Times are integer time units. The same seed gives the same\n"
    "schedule on the CPU reference and on CUDA, with either --parallel. Prints ours beside\n"
    "the paper's Tables 1-3, 5-9, and Cmax against a lower bound for the instance.";

/* ---- the paper's numbers (NAN: not reported) ------------------------------ */

enum { N_SIZES = 7 }; /* 32, 64, ..., 2048 machines */

/* Tables 1 and 2: schedule creation time, s, CPU then GPU (fixed
 * iterations). */
static const double paper_time[2][N_SIZES][2] = {
    {{2, 29}, {5, 60}, {21, 144}, {108, 344}, {1468, 806}, {8782, 1989}, {NAN, NAN}},
    {{13, 184}, {77, 298}, {979, 751}, {8046, 1508}, {NAN, 3654}, {NAN, 7706}, {NAN, NAN}},
};
/* Table 3: Cmax, time units. */
static const double paper_cmax[2][N_SIZES] = {
    {48645, 3460, 2880, 3510, 4620, 5980, NAN},
    {91025, 8692, 9033, 9768, 13234, 14520, NAN},
};
/* Table 5: model #2 with the E1 rule, s, CPU then GPU. */
static const double paper_time_e1[N_SIZES][2] = {
    {NAN, NAN},         {8.042, 95.868},     {34.799, 200.03},     {255.67, 496.66},
    {1777.00, 1236.00}, {14432.00, 2565.00}, {105625.00, 7019.00},
};
/* Tables 6 and 7: iterations until the E1 rule stopped, CPU then GPU. */
static const double paper_iter_e1[2][N_SIZES][2] = {
    {{NAN, NAN}, {982, 924}, {996, 771}, {1049, 1199}, {1018, 879}, {3308, 212}, {4253, 954}},
    {{NAN, NAN}, {1388, 218}, {1352, 1004}, {2361, 1036}, {2438, 1068}, {4237, 875}, {7080, 436}},
};
/* Tables 8 and 9: E2 (a = 0.35, 0.35, 0.3) at 0, 5, 10 and 25 % transfer
 * costs. */
static const double paper_e2[2][N_SIZES][4] = {
    {{NAN, NAN, NAN, NAN},
     {24714.56, 47690.21, 109395.26, 259951.37},
     {65060.84, 127329.11, 261197.47, 611860.92},
     {174838.04, 138607.04, 202695.94, 159212.39},
     {610780.30, 515638.89, 728897.45, 591133.18},
     {957908.38, 881491.50, 696758.58, 637495.88},
     {3190675.54, 3190014.30, 2319272.60, 2256150.73}},
    {{NAN, NAN, NAN, NAN},
     {63413.48, 61460.27, 142046.33, 136438.66},
     {154334.70, 142181.14, 305987.45, 268544.87},
     {306087.08, 333765.90, 488058.46, 511702.10},
     {1151302.36, 762769.83, 1486293.45, 927528.72},
     {2565776.98, 3145666.38, 4658539.32, 5759775.81},
     {5417199.06, 9260877.29, 8723311.99, 14700214.62}},
};

static int size_index(int machines)
{
    for (int k = 0; k < N_SIZES; k++)
        if (machines == 32 << k)
            return k;
    return -1;
}

static int pct_index(int pct)
{
    return pct == 0 ? 0 : pct == 5 ? 1 : pct == 10 ? 2 : pct == 25 ? 3 : -1;
}

/* ---- options ------------------------------------------------------------ */


typedef struct study {
    int model, machines, energy_idx, pct, k, parallel_idx, accept_idx;
    unsigned long long instance;
    gpu_sa_params par;
    const char *backend_req;
    gpu_sa_model m;
    gpu_sa_result r;
    int64_t bound; /* Cmax lower bound of the instance */
    double gen_seconds, cpu_seconds;
    char device[128];
    double peak_bw;
} study;

static double paper_or_nan(const study *st, int which)
{
    int k = st->k, m = st->model - 1;
    if (k < 0)
        return NAN;
    switch (which) {
    case 0: /* CPU time */
    case 1: /* GPU time */
        if (st->par.stop_e1)
            return m == 1 ? paper_time_e1[k][which] : NAN;
        return paper_time[m][k][which];
    case 2:
        return paper_cmax[m][k];
    case 3:
    case 4:
        return st->par.stop_e1 ? paper_iter_e1[m][k][which - 3] : NAN;
    case 5: {
        int p = pct_index(st->pct);
        return st->energy_idx == 1 && p >= 0 ? paper_e2[m][k][p] : NAN;
    }
    }
    return NAN;
}

/* Estimated memory traffic of one decoding: the one-pass decoder's
 * (gpu_sa_result.bytes_per_eval); machine by machine, every round reads
 * about what one pass reads. An estimate for the share of peak bandwidth,
 * not a measurement. */
static double bytes_per_eval(const study *st)
{
    const gpu_sa_result *r = &st->r;
    return st->parallel_idx && r->rounds_per_decoding > 0
               ? r->bytes_per_eval * r->rounds_per_decoding
               : r->bytes_per_eval;
}

static void print_row(const char *what, const char *ours, double paper)
{
    char buf[64];
    if (isfinite(paper))
        snprintf(buf, sizeof buf, "%.10g", paper);
    else
        snprintf(buf, sizeof buf, "-");
    printf("  %-28s %18s %18s\n", what, ours, buf);
}

static void print_report(const study *st)
{
    const gpu_sa_result *r = &st->r;
    const gpu_sa_grid *g = &st->m.grid;
    char a[64];
    printf("load model #%d, %d machine%s: %d jobs, %d files, %d input files, %d dependencies\n",
           st->model, st->machines, bl_s((unsigned long long)st->machines), g->n_jobs, g->n_files,
           g->input_off[g->n_jobs], g->dep_off[g->n_jobs]);
    printf("annealing: %s, %d chain%s, parallel %s, acceptance %s, %s%lld iteration%s, "
           "seed %llu, instance %llu, backend %s%s%s\n",
           st->energy_idx ? "E2" : "E1", st->par.chains, st->par.chains == 1 ? "" : "s",
           st->parallel_idx ? "machines" : "chains", st->accept_idx ? "paper" : "metropolis",
           st->par.stop_e1 ? "E1 rule, at most " : "", (long long)st->par.iterations,
           bl_s((unsigned long long)st->par.iterations), (unsigned long long)st->par.seed,
           st->instance, r->backend, st->device[0] ? " on " : "", st->device);
    if (st->energy_idx)
        printf("E2 weights 0.35, 0.35, 0.3; transfer costs %d %%\n", st->pct);
    printf("\n  %-28s %18s %18s\n", "", "ours", "paper");
    bool gpu = strcmp(r->backend, "cuda") == 0;
    snprintf(a, sizeof a, "%.3f", r->seconds);
    print_row(gpu ? "schedule creation, GPU [s]" : "schedule creation, CPU [s]", a,
              paper_or_nan(st, gpu ? 1 : 0));
    print_row(gpu ? "  (paper, CPU [s])" : "  (paper, GPU [s])", "", paper_or_nan(st, gpu ? 0 : 1));
    snprintf(a, sizeof a, "%.3f", st->cpu_seconds);
    print_row("  process CPU time [s]", a, NAN);
    snprintf(a, sizeof a, "%lld", (long long)r->iterations);
    print_row(gpu ? "iterations (GPU)" : "iterations (CPU)", a, paper_or_nan(st, gpu ? 4 : 3));
    snprintf(a, sizeof a, "%lld", (long long)r->cmax);
    print_row("Cmax [time units]", a, paper_or_nan(st, 2));
    snprintf(a, sizeof a, "%lld", (long long)st->bound);
    print_row("Cmax lower bound", a, NAN);
    snprintf(a, sizeof a, "%.3f", st->bound > 0 ? (double)r->cmax / (double)st->bound : NAN);
    print_row("Cmax / lower bound", a, NAN);
    snprintf(a, sizeof a, "%lld", (long long)r->flowtime);
    print_row("flowtime F", a, NAN);
    snprintf(a, sizeof a, "%lld", (long long)r->e1);
    print_row("E1 = n Cmax + F", a, NAN);
    snprintf(a, sizeof a, "%.2f", r->e2);
    print_row("E2", a, paper_or_nan(st, 5));
    snprintf(a, sizeof a, "%lld", (long long)r->transfer_time);
    print_row("download time", a, NAN);
    snprintf(a, sizeof a, "%lld", (long long)r->transfer_volume);
    print_row("volume downloaded", a, NAN);
    snprintf(a, sizeof a, "%lld", (long long)r->initial_energy);
    print_row("initial energy (best chain)", a, NAN);
    double eps = r->seconds > 0 ? r->evaluations / r->seconds : 0;
    snprintf(a, sizeof a, "%.4g", eps);
    print_row("evaluations per second", a, NAN);
    if (st->parallel_idx) {
        snprintf(a, sizeof a, "%.2f", r->rounds_per_decoding);
        print_row("rounds per decoding", a, NAN);
    }
    if (st->peak_bw > 0) {
        snprintf(a, sizeof a, "%.2f %%", 100 * eps * bytes_per_eval(st) / st->peak_bw);
        print_row("share of peak bandwidth (est.)", a, NAN);
    }
}

/* The problem: model, size of the grid, instance and the annealing's
 * settings. */
static void json_setup(json_t *o, const study *st, bool *ok)
{
    const gpu_sa_grid *g = &st->m.grid;
    eng_json_set(o, "study", eng_json_str("sa"), ok);
    eng_json_set(o, "model", json_integer(st->model), ok);
    eng_json_set(o, "machines", json_integer(st->machines), ok);
    eng_json_set(o, "jobs", json_integer(g->n_jobs), ok);
    eng_json_set(o, "files", json_integer(g->n_files), ok);
    eng_json_set(o, "inputs", json_integer(g->input_off[g->n_jobs]), ok);
    eng_json_set(o, "dependencies", json_integer(g->dep_off[g->n_jobs]), ok);
    eng_json_set(o, "instance", json_integer((json_int_t)st->instance), ok);
    eng_json_set(o, "seed", json_integer((json_int_t)st->par.seed), ok);
    eng_json_set(o, "chains", json_integer(st->par.chains), ok);
    eng_json_set(o, "parallel", eng_json_str(st->parallel_idx ? "machines" : "chains"), ok);
    eng_json_set(o, "acceptance", eng_json_str(st->accept_idx ? "paper" : "metropolis"), ok);
    eng_json_set(o, "energy", eng_json_str(st->energy_idx ? "e2" : "e1"), ok);
    eng_json_set(o, "transfer_cost_pct", json_integer(st->pct), ok);
    eng_json_set(o, "stop_e1", json_boolean(st->par.stop_e1), ok);
    eng_json_set(o, "max_iterations", json_integer((json_int_t)st->par.iterations), ok);
}

/* The run: its speed, where it ran, and the schedule's criteria. */
static void json_result(json_t *o, const study *st, bool *ok)
{
    const gpu_sa_result *r = &st->r;
    double eps = r->seconds > 0 ? r->evaluations / r->seconds : 0;
    double bpe = bytes_per_eval(st);
    eng_json_set(o, "iterations", json_integer((json_int_t)r->iterations), ok);
    eng_json_set(o, "evaluations", json_integer((json_int_t)r->evaluations), ok);
    eng_json_set(o, "seconds", eng_json_num(r->seconds), ok);
    eng_json_set(o, "generate_seconds", eng_json_num(st->gen_seconds), ok);
    eng_json_set(o, "evaluations_per_s", eng_json_num(eps), ok);
    eng_json_set(o, "backend", eng_json_str(r->backend), ok);
    eng_json_set(o, "device", eng_json_str(st->device), ok);
    eng_json_set(o, "peak_bandwidth_bytes_s", eng_json_num(st->peak_bw), ok);
    eng_json_set(o, "bytes_per_eval", eng_json_num(bpe), ok);
    eng_json_set(o, "rounds_per_decoding", eng_json_num(r->rounds_per_decoding), ok);
    eng_json_set(o, "bandwidth_share",
                 eng_json_num(st->peak_bw > 0 ? eps * bpe / st->peak_bw : NAN), ok);
    eng_json_set(o, "cpu_seconds", eng_json_num(st->cpu_seconds), ok);
    eng_json_set(o, "cmax", json_integer((json_int_t)r->cmax), ok);
    eng_json_set(o, "cmax_lower_bound", json_integer((json_int_t)st->bound), ok);
    eng_json_set(o, "cmax_over_bound",
                 eng_json_num(st->bound > 0 ? (double)r->cmax / (double)st->bound : NAN), ok);
    eng_json_set(o, "flowtime", json_integer((json_int_t)r->flowtime), ok);
    eng_json_set(o, "transfer_time", json_integer((json_int_t)r->transfer_time), ok);
    eng_json_set(o, "transfer_volume", json_integer((json_int_t)r->transfer_volume), ok);
    eng_json_set(o, "e1", json_integer((json_int_t)r->e1), ok);
    eng_json_set(o, "e2", eng_json_num(r->e2), ok);
    eng_json_set(o, "initial_energy", json_integer((json_int_t)r->initial_energy), ok);
    eng_json_set(o, "best_chain", json_integer(r->best_chain), ok);
}

/* The paper's numbers for this configuration (null where it has none). */
static json_t *json_paper(const study *st, bool *ok)
{
    static const char *const keys[] = {"cpu_seconds",    "gpu_seconds",    "cmax",
                                       "iterations_cpu", "iterations_gpu", "e2"};
    json_t *o = json_object();
    for (int k = 0; k < 6; k++)
        eng_json_set(o, keys[k], eng_json_num(paper_or_nan(st, k)), ok);
    return o;
}

static int write_file(const char *path, const study *st)
{
    eng_diag d;
    eng_diag_clear(&d);
    bool ok = true;
    json_t *root = json_object();
    json_setup(root, st, &ok);
    json_result(root, st, &ok);
    eng_json_set(root, "paper", json_paper(st, &ok), &ok);
    int rc = ok ? eng_json_write(path, root, &d) : eng_diag_set(&d, ENG_NOMEM, "out of memory");
    json_decref(root);
    if (rc != ENG_OK) {
        fprintf(stderr, "batchlab-study sa: %s\n", d.msg);
        return 1;
    }
    return 0;
}

static int parse(const bl_args *a, study *st)
{
    if (!bl_args_get(a, "model")->set || !bl_args_get(a, "machines")->set) {
        fprintf(stderr, "batchlab-study sa: --model and --machines are required (see --help)\n");
        return 2;
    }
    const bool stop_e1 = bl_args_flag(a, "stop-e1");
    /* the defaults, then the options given */
    unsigned long long model = 1, machines = 32, iterations = stop_e1 ? 100000 : 1000, chains = 1,
                       pct = 0, t0 = 500, t_end = 10000, seed = 1;
    st->instance = 1;
    if (bl_args_int("sa", a, "model", 1, 2, &model) ||
        bl_args_int("sa", a, "machines", 1, 16384, &machines) ||
        bl_args_int("sa", a, "iterations", 0, 1000000000ULL, &iterations) ||
        bl_args_int("sa", a, "chains", 1, 1 << 20, &chains) ||
        bl_args_int("sa", a, "transfer-cost", 0, 1000, &pct) ||
        bl_args_int("sa", a, "t0-accept", 1, 999, &t0) ||
        bl_args_int("sa", a, "t-end", 1, 1000000, &t_end) ||
        bl_args_int("sa", a, "seed", 0, UINT64_MAX, &seed) ||
        bl_args_int("sa", a, "instance", 0, UINT64_MAX, &st->instance))
        return 2;
    st->model = (int)model;
    st->machines = (int)machines;
    gpu_sa_params_default(&st->par);
    st->par.stop_e1 = stop_e1;
    st->par.iterations = (int64_t)iterations;
    if (st->par.stop_e1) /* cool as the paper's longer fixed runs, not over the cap */
        st->par.cooling_iterations = 5000;
    st->par.chains = (int32_t)chains;
    st->pct = (int)pct;
    st->par.transfer_cost_pct = st->pct;
    st->par.t0_accept_permille = (int32_t)t0;
    st->par.t_end_ppm = (int32_t)t_end;
    st->par.seed = seed;
    if (bl_args_choice("sa", "energy", bl_args_value(a, "energy", "e1"), "e1|e2",
                       &st->energy_idx) != 0)
        return 2;
    st->par.energy = st->energy_idx ? GPU_SA_E2 : GPU_SA_E1;
    if (bl_args_choice("sa", "parallel", bl_args_value(a, "parallel", "chains"), "chains|machines",
                       &st->parallel_idx) != 0)
        return 2;
    st->par.parallel = st->parallel_idx ? GPU_SA_PARALLEL_MACHINES : GPU_SA_PARALLEL_CHAINS;
    if (bl_args_choice("sa", "acceptance", bl_args_value(a, "acceptance", "metropolis"),
                       "metropolis|paper", &st->accept_idx) != 0)
        return 2;
    st->par.acceptance = st->accept_idx ? GPU_SA_ACCEPT_PAPER : GPU_SA_ACCEPT_METROPOLIS;
    st->par.full_decode = bl_args_flag(a, "full-decode");
    int b = 0;
    st->backend_req = bl_args_value(a, "backend", "auto");
    if (bl_args_choice("sa", "backend", st->backend_req, "auto|cpu|cuda", &b) != 0)
        return 2;
    const char *env = NULL;
    if (bl_sa_backend_env("sa", &env) != 0)
        return 2;
    if (env)
        st->backend_req = env;
    st->k = size_index(st->machines);
    return 0;
}

int study_sa(int argc, char **argv)
{
    bl_args a;
    int rc = bl_args_parse("sa", opts, BL_N_OPTS(opts), argc, argv, 1, &a);
    if (rc)
        return rc;
    if (a.help) {
        bl_args_usage("sa", synopsis, description, opts, BL_N_OPTS(opts));
        bl_args_fini(&a);
        return 0;
    }
    static study st;
    memset(&st, 0, sizeof st);
    rc = parse(&a, &st);
    if (rc) {
        bl_args_fini(&a);
        return rc;
    }
    char err[512];
    double peak = 0;
    if (gpu_sa_cuda_device(st.device, sizeof st.device, &peak) == 0)
        st.peak_bw = peak;
    else
        st.device[0] = '\0';
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = gpu_sa_model_generate(st.model, st.machines, st.instance, &st.m, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    st.gen_seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (rc == 0)
        rc = gpu_sa_cmax_lower_bound(&st.m.problem, &st.bound, err, sizeof err);
    clock_t c0 = clock();
    if (rc == 0)
        rc = gpu_sa_solve(&st.m.problem, &st.par, st.backend_req, &st.r, err, sizeof err);
    st.cpu_seconds = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (rc) {
        fprintf(stderr, "batchlab-study sa: %s\n", err);
        gpu_sa_model_fini(&st.m);
        bl_args_fini(&a);
        return 1;
    }
    if (strcmp(st.r.backend, "cuda") != 0) {
        st.device[0] = '\0';
        st.peak_bw = 0;
    }
    print_report(&st);
    const char *json = bl_args_value(&a, "json", NULL);
    if (json)
        rc = write_file(json, &st);
    gpu_sa_result_fini(&st.r);
    gpu_sa_model_fini(&st.m);
    bl_args_fini(&a);
    return rc;
}
