/* eng_lublin.h — the Lublin–Feitelson synthetic workload model of rigid
 * parallel jobs (Lublin & Feitelson 2003, "The workload on parallel
 * supercomputers: modeling the characteristics of rigid jobs"; reference
 * generator lublin99.c). The comments below state the model as that
 * generator implements it, and say which reading we take where the paper,
 * lublin99.c and GridSim's port of it disagree.
 *
 * Model (per class of job: interactive, batch, or the "whole sample" of the
 * typeless mode)
 * - Size: serial with probability SerialProb; otherwise x on the log2
 *   scale from a two-stage uniform ([ULow, UMed] with probability UProb,
 *   else [UMed, UHi]), rounded to an integer for power-of-two jobs (the same
 *   uniform that decided "serial" decides "power of two": u <= SerialProb +
 *   Pow2Prob), nodes = round(2^x).
 * - Run time: ln(run time) from the hyper-gamma p·Gamma(a1, b1) +
 *   (1 − p)·Gamma(a2, b2) with p = pa·n + pb clamped to [0, 1] (n the node
 *   count just drawn); a draw above TOO_MUCH_TIME = 12 is redrawn, the
 *   component chosen again each time; run time = floor(e^g) seconds (>= 1).
 * - Arrivals: ln(gap) ~ Gamma(AARR·ARAR, BARR) redrawn above
 *   TOO_MUCH_ARRIVE_TIME = 13, consumed in "points" through a daily cycle of
 *   48 half-hour buckets whose weights are the mass of Gamma(ANUM, BNUM)
 *   over buckets 11..58, normalised to mean 1, so the arrival rate in a
 *   bucket is proportional to its weight.
 * - Typed mode (the reference default) merges an interactive and a batch
 *   stream, each with its own parameters (the earlier clock wins, a tie
 *   goes to interactive); typeless mode runs one stream with the "whole
 *   sample" parameters.
 * Gamma(α, β) is shape α, scale β everywhere (mean αβ), as in lublin99.c
 * and as GSL's gsl_ran_gamma(r, shape, scale) takes it.
 *
 * Random numbers: every draw comes from one explicitly seeded GSL generator
 * (gsl_rng_mt19937 when created from a seed; gsl_rng_set uses the low 32
 * bits and maps seed 0 to 4357, GSL's default). Draws per job in a fixed
 * order: gap, size, run time. Uniforms come from (0, 1)
 * (gsl_rng_uniform_pos), so that a clamped p = 0 never picks component 1
 * (lublin99.c's drand48 can return 0). Requested times draw from a second mt19937 stream whose seed is
 * the first number taken from the main generator, so the jobs themselves do
 * not depend on the estimate model. Same generator state and options give
 * the same jobs, bit for bit.
 *
 * Clock. By default each class's clock is a double and the submit
 * time written is that clock rounded to the nearest second; the daily cycle
 * survives in the output. With `whole_seconds` the clock is truncated to a
 * whole second after every gap, as lublin99.c does (its clock is an
 * unsigned long); the bucket phase is still tracked exactly, so the written
 * clock lags the phase by about half a second per arrival and the daily
 * cycle washes out after tens of thousands of jobs. Use it only to compare
 * with the reference generator's output statistics.
 *
 * Time origin. Submit times are seconds from the start of the generated
 * period, which is `start_hour`:00 local time; as in the reference the first
 * job arrives one gap after time 0.
 *
 * Machine size. The reference constants fit a 128-node machine.
 * eng_lublin_fit_machine() keeps each class's size parameters relative to
 * UHi, as the specification recommends: UHi = log2 P (interactive:
 * log2 P − 1.5), UMed = UHi − 2.5 (batch: UHi − 2), ULow unchanged; where
 * UMed would fall below ULow (small machines) UMed = UHi − 1.5, the upper end
 * of the recommended range (the reference's advice for P = 8), and finally
 * ULow <= UMed <= UHi is enforced by lowering ULow to UHi and raising UMed
 * to ULow. For P = 128 this reproduces the reference constants exactly.
 *
 * Oversized draws. A power-of-two job can round above P when P is not a
 * power of two (round(x) reaches round(UHi), e.g. 512 for P = 500); such a
 * size is clamped to P, i.e. the job becomes a whole-machine job, as the
 * GridSim port clamps to round(2^UHi) (lublin99.c does not clamp). Sizes
 * are also at least 1.
 * No job is ever larger than the machine.
 *
 * Requested times (the model has none), field 9:
 * - exact (the default): requested = run time. It is the assumption of the
 *   bundling study this generator serves (Baranov & Lyakhovets 2022, whose
 *   simulator uses run times as estimates), draws nothing, and keeps
 *   backfilling results free of an estimate model unless one is asked for.
 * - f-model (Mu'alem & Feitelson 2001): ceil(run time × U[1, f + 1)).
 * - walltimes: the smallest value of an ascending list that is >= the run
 *   time; a run time above the whole list keeps itself as its request (a
 *   generated job is never killed at its walltime). The usual list is
 *   ENG_WALLTIMES_DEFAULT.
 *
 * Output (as lublin99.c writes SWF): jobs numbered from 1 in submit order; fields 2
 * (submit), 4 (run time), 5 and 8 (nodes), 9 (requested time), 11 (status 1)
 * and, in typed mode, 15 (0 interactive, 1 batch); every other field −1
 * (typeless mode has no class: field 15 is −1 too). The header records
 * Computer/Installation "synthetic", MaxNodes/MaxProcs P, MaxRuntime
 * floor(e^TOO_MUCH_TIME), Preemption No, a Generator line (ENG_GENERATOR_KEY:
 * the options of `batchlab generate lublin` that make the same jobs, each
 * parameter that differs from the fitted reference as a --param), and Note
 * lines with the model, the generator version, the seed, every parameter,
 * the clock and the estimate model.
 *
 * Cost: O(N) time and memory for N jobs; about 4 gamma draws per job.
 */
#ifndef ENG_LUBLIN_H
#define ENG_LUBLIN_H

#include "eng_error.h"
#include "eng_swf.h"

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bumped whenever the jobs produced for a given seed and options change. */
#define ENG_LUBLIN_GEN_VERSION 1

/* Class indices; the first two are also the SWF queue numbers (as
 * lublin99.c writes them: 0 interactive, 1 batch). */
enum {
    ENG_LUBLIN_INTERACTIVE = 0,
    ENG_LUBLIN_BATCH = 1,
    ENG_LUBLIN_WHOLE = 2, /* the typeless ("whole sample") parameters */
    ENG_LUBLIN_N_CLASSES = 3
};

#define ENG_LUBLIN_BUCKETS 48
#define ENG_LUBLIN_BUCKET_S 1800.0
#define ENG_LUBLIN_CYCLIC_DAY_START 11

/* One class's parameters, named as in lublin99.c. Sizes on the log2
 * scale, run times and gaps on the natural-log scale. */
typedef struct eng_lublin_class {
    double serial_prob, pow2_prob;     /* SerialProb, Pow2Prob */
    double u_low, u_med, u_hi, u_prob; /* ULow, UMed, UHi, UProb */
    double a1, b1, a2, b2;             /* hyper-gamma shapes and scales */
    double pa, pb;                     /* p(n) = pa·n + pb */
    double aarr, barr, arar;           /* gap gamma: shape AARR·ARAR, scale BARR */
    double anum, bnum;                 /* daily-cycle gamma: shape, scale (buckets) */
} eng_lublin_class;

/* Requested-time (estimate) models. */
typedef enum eng_est_model {
    ENG_EST_EXACT = 0,
    ENG_EST_FMODEL = 1,
    ENG_EST_WALLTIMES = 2,
} eng_est_model;

#define ENG_EST_MAX_WALLTIMES 64
#define ENG_WALLTIMES_DEFAULT "300,900,1800,3600,7200,14400,28800,86400,172800"

typedef struct eng_estimates {
    eng_est_model model;
    double f;                                  /* f-model factor, >= 0 */
    double walltimes_s[ENG_EST_MAX_WALLTIMES]; /* strictly ascending, > 0 */
    size_t n_walltimes;
} eng_estimates;

typedef struct eng_lublin_opts {
    int64_t nodes;            /* P, machine size in nodes (>= 1) */
    size_t n_jobs;            /* jobs to generate */
    unsigned long seed;       /* recorded in the header; used when no rng is given */
    bool typeless;            /* one stream with cls[ENG_LUBLIN_WHOLE] */
    int start_hour;           /* 0..23: time 0 is this hour; first bucket 2·hour */
    bool whole_seconds;       /* truncate the clock every gap, as lublin99.c */
    double max_log_runtime_s; /* TOO_MUCH_TIME, 12 */
    double max_log_gap_s;     /* TOO_MUCH_ARRIVE_TIME, 13 */
    eng_lublin_class cls[ENG_LUBLIN_N_CLASSES];
    eng_estimates est;
} eng_lublin_opts;

/* The reference constants of class `which` (lublin99.c's, fitted to 128 nodes). */
void eng_lublin_class_reference(int which, eng_lublin_class *c);

/* Rescales the size parameters of class `which` to a machine of `nodes`
 * nodes (rules in the file comment). */
void eng_lublin_fit_machine(eng_lublin_class *c, int which, int64_t nodes);

/* Defaults for a machine of `nodes` nodes: reference constants fitted to
 * the machine, typed mode, start hour 0, double clock, caps 12 and 13,
 * estimates exact, n_jobs 0, seed 0. */
void eng_lublin_opts_init(eng_lublin_opts *o, int64_t nodes);

/* Sets one parameter by name, "CLASS.NAME" with CLASS one of batch,
 * interactive, whole and NAME as in lublin99.c (SerialProb, Pow2Prob, ULow,
 * UMed, UHi, UProb, a1, b1, a2, b2, pa, pb, AARR, BARR, ARAR, ANUM, BNUM),
 * case-sensitive. ENG_INVAL with a message for an unknown name. */
int eng_lublin_set_param(eng_lublin_opts *o, const char *name, double value, eng_diag *d);

/* Checks the options (probabilities in [0, 1], SerialProb + Pow2Prob <= 1,
 * positive shapes and scales, ULow <= UMed <= UHi, hour 0..23, nodes >= 1,
 * positive daily weights, estimates). ENG_INVAL or ENG_RANGE with a
 * message naming the parameter. */
int eng_lublin_check(const eng_lublin_opts *o, eng_diag *d);

/* Generates o->n_jobs jobs. rng is borrowed and advanced; NULL means "create
 * a gsl_rng_mt19937 seeded with o->seed" (and free it). On success *out is a
 * new workload the caller destroys; on failure *out is NULL and d says why
 * (ENG_INVAL/ENG_RANGE for bad options, ENG_NOMEM). */
int eng_lublin_generate(const eng_lublin_opts *o, gsl_rng *rng, eng_workload **out, eng_diag *d);

/* ---- The model's pieces, for the modified generator and for tests ---- */

/* The 48 normalised daily-cycle weights of a class, mean exactly 1;
 * w[k] covers [k·1800, (k+1)·1800) s after midnight. */
void eng_lublin_weights(const eng_lublin_class *c, double w[ENG_LUBLIN_BUCKETS]);

/* One job size on a machine of `nodes` nodes, clamped to [1, nodes].
 * Draws 1 uniform for a serial job, 3 otherwise. */
int64_t eng_lublin_draw_nodes(const eng_lublin_class *c, int64_t nodes, gsl_rng *r);

/* The mixing probability p(n) = pa·n + pb clamped to [0, 1]. */
double eng_lublin_mix_prob(const eng_lublin_class *c, int64_t n);

/* One ln(run time) for a job of n nodes, <= max_log; *component (may
 * be NULL) receives 1 or 2, the gamma the accepted value came from. */
double eng_lublin_draw_log_runtime(const eng_lublin_class *c, int64_t n, double max_log, gsl_rng *r,
                                   int *component);

/* Run time in whole seconds from ln(run time): floor(e^g), at least 1. */
double eng_lublin_runtime_s(double log_runtime);

/* Requested time for a run time under e (draws 1 uniform for the f-model,
 * none otherwise). */
double eng_estimate_s(const eng_estimates *e, double runtime_s, gsl_rng *r);

/* Parses a comma-separated list of walltimes in seconds ("300,900,...")
 * into e (model unchanged). ENG_INVAL with a message unless every value is
 * a positive number and the list strictly ascends. */
int eng_estimates_parse_walltimes(eng_estimates *e, const char *list, eng_diag *d);

/* A one-line description of e for headers ("exact (requested time = run
 * time)", ...). Writes into buf and returns it. */
const char *eng_estimates_describe(const eng_estimates *e, char *buf, size_t len);

/* The header key under which a generator records how it was run, e.g.
 * "; Generator: lublin (Lublin & Feitelson 2003) --nodes 128 --jobs 10000
 * --seed 1 --estimates exact": the model, then the options of `batchlab
 * generate MODEL` that make the same jobs (`batchlab info` prints it). */
#define ENG_GENERATOR_KEY "Generator"

/* Writes the options of `batchlab generate` that select e to f:
 * " --estimates exact", " --estimates f-model --f F" or " --estimates
 * walltimes --walltimes LIST" (numbers in their shortest exact form). */
void eng_estimates_args(const eng_estimates *e, FILE *f);

/* Adds the header entries every synthetic workload carries (Computer and
 * Installation "synthetic", MaxNodes, MaxProcs, MaxRuntime when >= 0,
 * Preemption No). ENG_OK or ENG_NOMEM. */
int eng_synthetic_header(eng_workload *w, int64_t nodes, int64_t max_runtime_s);

#endif
