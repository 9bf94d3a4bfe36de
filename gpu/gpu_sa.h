/* gpu_sa.h — schedule refinement by simulated annealing, after Skrinarova &
 * Povinsky 2019 ("Parallel simulation of tasks scheduling and scheduling
 * criteria in high-performance computing systems", JIOS 43(2)): a decoder
 * turns a candidate (job order, machine per job, file download order) into
 * a schedule (their Algorithm 1), and annealing moves jobs and reorders
 * downloads to minimise an energy (their Algorithm 2):
 *
 *     E1 = n Cmax + F                          (their eq. 3)
 *     E2 = a1 n Cmax + a2 F + a3 TC            (their eq. 4)
 *
 * with n the number of jobs, Cmax the last completion, F = sum of
 * completions (flowtime) and TC the transfer costs.
 *
 * Two problem kinds share the annealing:
 *
 *  - GPU_SA_GRID, the paper's model: machines with speeds, latency and
 *    bandwidth matrices; jobs with lengths in operations, input files,
 *    produced files and predecessor jobs; files with sizes and mirrors.
 *  - GPU_SA_QUEUE, a batch queue: jobs needing `units` of a pool for a
 *    duration, placed in a given order at their earliest slot in an
 *    availability profile, as conservative backfilling places them
 *    (Mu'alem & Feitelson 2001); the `sa` policy plans its waiting queue
 *    with it.
 *
 * Determinism. All times are integers (time units; the caller chooses the
 * unit), energies are 64-bit integers (E2 in fixed point, 1e-5 units), the
 * acceptance test is integer-only, and every chain draws from its own
 * Philox stream (gpu_philox.h) keyed by the seed and named by the chain.
 * The CPU reference and the CUDA backend run the same chain code
 * (gpu_sa_chain.c), so the same problem, parameters and seed give the
 * identical best schedule and energy on either; the best chain is the one
 * with the lowest energy, ties to the lowest chain number.
 *
 * Decompositions (gpu_sa_params.parallel): independent chains, or one
 * schedule decoded machine by machine as the paper's Algorithm 1; both
 * give the same schedule for the same seed.
 *
 * Backends: "cpu" (always built; the specification) and "cuda" (built when
 * CMake finds the toolkit, usable when a device is present). A request
 * names auto|cpu|cuda. "cuda" without a built backend or without a device
 * is an error (ENG_UNSUPPORTED, "not available: ..."), never a silent CPU
 * run; "auto" takes cuda when it is available, else cpu. The library reads
 * no environment: the command line reads BATCHLAB_SA_BACKEND and passes
 * its value down as the request.
 *
 * Layers, bottom up (tools/check-layers checks them): this header's model,
 * decoding and load models (gpu_sa.c, gpu_sa_model.c); the CPU reference
 * (gpu_sa_cpu.c) and the CUDA backend (gpu_sa_cuda.cu or its stub);
 * backend selection (gpu_backend.c); the kernel pool (gpu_pool.h); the
 * one-shot solve (gpu_solve.h) on top.
 *
 * Errors: functions return 0 or a negative ENG_ code (engine/eng_error.h)
 * and write a message into err (errlen bytes). Arrays in problems are
 * borrowed for the duration of the call (gpu_pool_submit copies them).
 */
#ifndef GPU_SA_H
#define GPU_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Iterations without improvement of E1 after which --stop-e1 ends a chain
 * (Skrinarova & Povinsky 2019, section 8). */
#define GPU_SA_STALL_ITERATIONS 50

/* Moves tried to set a chain's initial temperature. */
#define GPU_SA_T0_SAMPLES 16

typedef enum gpu_sa_kind { GPU_SA_GRID = 0, GPU_SA_QUEUE = 1 } gpu_sa_kind;

/* The paper's model. Lists are CSR: the items of row r are
 * list[off[r] .. off[r + 1]). Times in time units, sizes in size units.
 *
 * Decoding (Algorithm 1), jobs taken in the candidate's order (always a
 * topological order of the precedence: dependencies and producers first):
 *  - job j runs on machine m = machine[j]; its run time is
 *    ceil(ops[j] / speed[m]);
 *  - its input files are fetched in the candidate's download order, one
 *    after another over m's download link (which is free again when the
 *    previous download on m ended); each from the copy that delivers it
 *    first: a copy on m itself arrives when it exists; a copy on machine s
 *    that exists from time t arrives at max(link free, t) + latency[s][m] +
 *    ceil(size / bandwidth[s][m]). Each download leaves a new copy on m;
 *  - a file produced by job p exists on p's machine when p completes;
 *  - j starts at max(m free, last file arrival, completion of its
 *    predecessor jobs) and m is free again at its completion.
 *  TC = transfer_cost_pct % x n x V, V the volume downloaded (the sizes of
 *  the files moved between machines, summed): moving a size unit costs
 *  transfer_cost_pct % of what a time unit of makespan costs in E1 (gpu_sa_chain.c,
 *  gsa_energies, says why). */
typedef struct gpu_sa_grid {
    int32_t n_machines, n_jobs, n_files;
    const int64_t *speed;          /* [M] operations per time unit, > 0 */
    const int32_t *latency;        /* [M*M] row = source machine, >= 0 */
    const int32_t *bandwidth;      /* [M*M] size units per time unit, > 0 off the diagonal */
    const int64_t *ops;            /* [J] job length in operations, >= 0 */
    const int64_t *file_size;      /* [F] >= 0 */
    const int32_t *mirror_off;     /* [F+1] initial copies of each file ... */
    const int32_t *mirror_machine; /* ... on these machines */
    const int64_t *mirror_ready;   /* ... existing from these times (>= 0) */
    const int32_t *producer;       /* [F] job producing the file, or -1 */
    const int32_t *input_off;      /* [J+1] input files of each job (distinct) */
    const int32_t *input_file;
    const int32_t *dep_off; /* [J+1] predecessor jobs of each job */
    const int32_t *dep_job;
} gpu_sa_grid;

/* A batch queue on a pool of total_units units. Busy units are released at
 * busy_end (time units from now, > 0). Decoding places the jobs in the
 * candidate's order, each at the earliest time at which its units are free
 * for its whole duration, every earlier placement kept (conservative
 * backfilling's placement). Completions are counted from now; F adds each
 * job's time already waited (a constant, so that F is the true flowtime).
 * TC = 0. */
typedef struct gpu_sa_queue {
    int32_t n_jobs;
    int32_t total_units;
    const int32_t *units;    /* [J] 1..total_units */
    const int64_t *duration; /* [J] >= 1 */
    const int64_t *waited;   /* [J] >= 0, or NULL for zeros */
    int32_t n_busy;
    const int32_t *busy_units; /* [n_busy] >= 1, sum <= total_units */
    const int64_t *busy_end;   /* [n_busy] >= 1 */
} gpu_sa_queue;

typedef struct gpu_sa_problem {
    gpu_sa_kind kind;
    const gpu_sa_grid *grid;   /* kind GPU_SA_GRID */
    const gpu_sa_queue *queue; /* kind GPU_SA_QUEUE */
} gpu_sa_problem;

typedef enum gpu_sa_energy { GPU_SA_E1 = 1, GPU_SA_E2 = 2 } gpu_sa_energy;

/* What runs in parallel on a device (and how the CPU reference decodes):
 *  - GPU_SA_PARALLEL_CHAINS: independent chains, one device thread each;
 *    a chain keeps its decoded schedule and re-evaluates only the jobs a
 *    move affects (gpu_sa_chain.c, gsa_decode_grid_events; the default);
 *  - GPU_SA_PARALLEL_MACHINES: the paper's Algorithm 1, one candidate
 *    decoded machine by machine — one device thread per machine, rounds
 *    until nothing changes (gpu_sa_chain.c, gsa_decode_grid_machines); the
 *    CPU reference runs the same rounds as a loop over machines. Grid
 *    problems only. Both give the same schedule, bit for bit. */
typedef enum gpu_sa_parallel {
    GPU_SA_PARALLEL_CHAINS = 0,
    GPU_SA_PARALLEL_MACHINES = 1
} gpu_sa_parallel;

/* Acceptance (Algorithm 2, step 6):
 *  - GPU_SA_ACCEPT_METROPOLIS: a rejected candidate returns to the current
 *    schedule; the best schedule seen is kept apart and returned (the
 *    default: the usual simulated annealing);
 *  - GPU_SA_ACCEPT_PAPER: "if the schedule has been accepted then set the
 *    schedule as the best schedule, else return to the best solution": the
 *    current and best schedules are one; the last accepted is returned. */
typedef enum gpu_sa_acceptance {
    GPU_SA_ACCEPT_METROPOLIS = 0,
    GPU_SA_ACCEPT_PAPER = 1
} gpu_sa_acceptance;

/* Annealing parameters. gpu_sa_params_default() fills the paper's values. */
typedef struct gpu_sa_params {
    uint64_t seed;
    int32_t chains;            /* independent chains, best-of (>= 1) */
    int64_t iterations;        /* per chain; with stop_e1 the upper bound (>= 0) */
    bool stop_e1;              /* stop a chain when its best E1 did not improve
                              for GPU_SA_STALL_ITERATIONS iterations */
    gpu_sa_energy energy;      /* what the annealing minimises */
    int32_t a1, a2, a3;        /* E2 weights in thousandths (350, 350, 300) */
    int32_t transfer_cost_pct; /* TC's price of a size unit moved, percent of
                                  n (0..1000) */
    /* Temperature. Before its first iteration a chain tries
     * GPU_SA_T0_SAMPLES moves from its initial solution (undoing each) and
     * sets T0 so that the average worsening among them would be accepted
     * with probability t0_accept_permille / 1000 (T0 = mean / -ln p;
     * Johnson, Aragon, McGeoch & Schevon 1989's initial acceptance ratio).
     * Each iteration then multiplies T by a constant factor chosen so that
     * T reaches T0 x t_end_ppm / 1e6 after `iterations` (or
     * cooling_iterations when > 0) and keeps falling after that; once
     * integer truncation takes it to 0, only moves that do not worsen the
     * energy are accepted (Algorithm 2, step 5). */
    int32_t t0_accept_permille; /* 1..999, default 500 */
    int32_t t_end_ppm;          /* 1..1000000, default 10000 */
    int64_t cooling_iterations;
    /* Queue kind: chain 0 starts from the given order (0, 1, ..., n-1)
     * instead of a random one, so the best plan is never worse than it. */
    bool keep_given_first;
    gpu_sa_parallel parallel;     /* default GPU_SA_PARALLEL_CHAINS */
    gpu_sa_acceptance acceptance; /* default GPU_SA_ACCEPT_METROPOLIS */
    /* Grid, chains: decode every candidate from scratch in one pass instead
     * of by events (same results; for tests and the speed ablation). */
    bool full_decode;
} gpu_sa_params;

void gpu_sa_params_default(gpu_sa_params *p);

/* The refined schedule. Arrays are allocated by the library and freed by
 * gpu_sa_result_fini (NULL-safe; a zeroed result is valid to fini). */
typedef struct gpu_sa_result {
    gpu_sa_kind kind;
    int32_t n_jobs;
    int32_t *order;       /* [J] decoding order (a topological order) */
    int32_t *machine;     /* [J] grid: machine per job; queue: NULL */
    int32_t *input_order; /* grid: [inputs] each job's files in download order
                              (same CSR rows as input_off); queue: NULL */
    int64_t *start;       /* [J] start time of each job */
    int64_t *end;         /* [J] completion */
    int64_t cmax, flowtime;
    int64_t transfer_time;   /* grid: sum of download durations */
    int64_t transfer_volume; /* grid: sum of the sizes of the files downloaded
                                (moved between machines) */
    int64_t e1;              /* n Cmax + F */
    int64_t e2_fixed;        /* E2 x 1e5 (exact); 0 when E2 could overflow */
    double e2;               /* e2_fixed / 1e5; NAN when E2 could overflow 64 bits
                              (E1 runs on huge problems) */
    int64_t energy;          /* the minimised energy (e1 or e2_fixed) */
    int64_t initial_energy;  /* best chain's initial energy */
    int32_t best_chain;
    int64_t iterations;         /* iterations the best chain ran */
    int64_t evaluations;        /* decodings over all chains */
    double seconds;             /* wall time of the refinement */
    double bytes_per_eval;      /* estimated memory traffic of one decoding (for
                              the share of peak bandwidth a device uses) */
    char backend[8];            /* "cpu" or "cuda" */
    int64_t rounds;             /* GPU_SA_PARALLEL_MACHINES: the rounds of the
                              decoding (gpu_sa_decode) or of all the best
                              chain's decodings (solve); otherwise 0 */
    double rounds_per_decoding; /* solve: rounds / the best chain's decodings */
} gpu_sa_result;

void gpu_sa_result_fini(gpu_sa_result *r);

/* Checks a problem (indices in range, positive speeds and bandwidths,
 * distinct inputs, every input reachable, no precedence cycle, energies
 * that cannot overflow). 0 or ENG_INVAL / ENG_RANGE with a message. */
int gpu_sa_problem_check(const gpu_sa_problem *p, char *err, size_t errlen);

/* Checks parameters. 0 or ENG_INVAL. */
int gpu_sa_params_check(const gpu_sa_params *p, char *err, size_t errlen);

/* Decodes one candidate with the reference decoder, without annealing.
 * order: a permutation of the jobs (a topological order for the grid);
 * machine and input_order: grid only (input_order NULL = as given). Fills
 * out (arrays allocated). ENG_INVAL if the candidate is not valid. */
int gpu_sa_decode(const gpu_sa_problem *p, const gpu_sa_params *par, const int32_t *order,
                  const int32_t *machine, const int32_t *input_order, gpu_sa_result *out, char *err,
                  size_t errlen);

/* A lower bound on the Cmax of every schedule of a grid problem: the larger
 * of the load bound (total length over total speed) and the longest chain
 * — every job at its earliest completion over all machines given its
 * predecessors' earliest completions, its input files' earliest arrival
 * (a local initial copy, a producer that may have run on the same machine,
 * or the earliest copy anywhere plus the cheapest hop into the machine),
 * with no waiting for machines or download links. O(M^2 + J M (inputs +
 * mirrors)). 0, or ENG_INVAL for a queue problem or an invalid one. */
int gpu_sa_cmax_lower_bound(const gpu_sa_problem *p, int64_t *bound, char *err, size_t errlen);

/* The CPU reference: every chain on the CPU, one after another (what
 * gpu_sa_solve, gpu_solve.h, runs for "cpu"). */
int gpu_sa_solve_cpu(const gpu_sa_problem *p, const gpu_sa_params *par, gpu_sa_result *out,
                     char *err, size_t errlen);

/* Whether this build contains the CUDA backend (also the compile
 * definition GPU_SA_HAVE_CUDA=0|1 of the batchlab_gpu target). */
bool gpu_sa_cuda_built(void);

/* 1 if the CUDA backend is built and a device is usable; 0 otherwise with
 * the reason in why ("not built", "no CUDA device: ..."). */
int gpu_sa_cuda_available(char *why, size_t len);

/* The first CUDA device's name and peak memory bandwidth (bytes/s, from
 * its memory clock and bus width). 0 on success; ENG_UNSUPPORTED when no
 * device is usable. */
int gpu_sa_cuda_device(char *name, size_t len, double *peak_bytes_per_s);

/* Resolves a request (auto|cpu|cuda, NULL = auto) against availability:
 * writes "cpu" or "cuda" into name (8 bytes).
 * ENG_INVAL for an unknown name; ENG_UNSUPPORTED when cuda is requested but
 * not available (the message says why). */
int gpu_sa_backend_resolve(const char *request, char name[8], char *err, size_t errlen);

/* ---- the paper's load models ------------------------------------------ */

/* A generated grid problem, owning its arrays. */
typedef struct gpu_sa_model {
    gpu_sa_grid grid;
    gpu_sa_problem problem;
    void *mem; /* one allocation holding every array */
} gpu_sa_model;

/* Load model #1 (about 4 jobs and 16 files per machine) or #2 (about 16
 * jobs and 32 files per machine) of Skrinarova & Povinsky 2019 for
 * `machines` machines, drawn from Philox with the seed. The paper does not
 * publish its generator; the distributions are stated in gpu_sa_model.c.
 * 0, ENG_INVAL (model not 1 or 2, machines < 1) or ENG_NOMEM. */
int gpu_sa_model_generate(int model, int32_t machines, uint64_t seed, gpu_sa_model *out, char *err,
                          size_t errlen);
void gpu_sa_model_fini(gpu_sa_model *m);

#endif
