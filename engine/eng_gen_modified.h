/* eng_gen_modified.h — the "modified generator" of the job-bundling study
 * (Baranov & Lyakhovets 2022), built from pieces of the Lublin–Feitelson
 * model (Lublin & Feitelson 2003).
 *
 * Model
 * - Arrivals: a homogeneous Poisson process of rate lambda (default 0.0142
 *   jobs/s, mean gap 70.4 s): gaps ~ Exp(mean 1/lambda) from
 *   gsl_ran_exponential, no daily cycle, no classes. The first job arrives
 *   one gap after time 0.
 * - Run time: g ~ Gamma(shape 4.2, scale 0.94) on the natural-log scale (the
 *   typeless component-1 constants of the L-F model, the shape/scale reading
 *   of the paper's "alpha = 4.2, beta = 0.94"), redrawn until
 *   lo <= g <= hi with lo = 5, hi = 8 (bounds inclusive, tested on g in
 *   double precision before rounding: our choice, the study does not
 *   say); run time
 *   = floor(e^g) in [148, 2980] s. About 4.6 draws per job (acceptance
 *   0.2168).
 * - Size: the L-F size model (eng_lublin.h) with the typeless ("whole sample")
 *   parameters fitted to the machine (eng_lublin_fit_machine), clamped to
 *   [1, P] like the L-F generator; the paper does not say which size model it
 *   used.
 * - Job type: uniform in 1..K (default 8), written to SWF field 15 (queue
 *   number). The type changes no other attribute.
 * - Requested time: as eng_lublin (default exact), drawn from a second
 *   stream seeded by the first number of the main generator.
 * Draw order per job: gap, size, run time, type. Submit times are the double
 * clock rounded to the nearest second.
 *
 * Output fields as eng_lublin (2, 4, 5, 8, 9, 11 = 1, 15 = type), header
 * with a Generator line (ENG_GENERATOR_KEY: the options of `batchlab
 * generate modified` that make the same jobs), the model, the generator
 * version, the seed and every parameter.
 */
#ifndef ENG_GEN_MODIFIED_H
#define ENG_GEN_MODIFIED_H

#include "eng_lublin.h"

/* Bumped whenever the jobs produced for a given seed and options change. */
#define ENG_GEN_MODIFIED_VERSION 1

typedef struct eng_gen_modified_opts {
    int64_t nodes; /* P (>= 1) */
    size_t n_jobs;
    unsigned long seed;    /* recorded; used when no rng is given */
    double lambda_per_s;   /* Poisson rate, > 0 */
    double shape, scale;   /* ln(run time) gamma, 4.2 and 0.94 */
    double log_lo, log_hi; /* rejection window on ln(run time), 5 and 8 */
    unsigned types;        /* K >= 1 */
    eng_lublin_class size; /* only the size parameters are used */
    eng_estimates est;
} eng_gen_modified_opts;

/* Defaults for a machine of `nodes` nodes (values in the file comment). */
void eng_gen_modified_init(eng_gen_modified_opts *o, int64_t nodes);

/* Checks the options; ENG_RANGE/ENG_INVAL with a message. The window must
 * hold some probability mass (lo < hi). */
int eng_gen_modified_check(const eng_gen_modified_opts *o, eng_diag *d);

/* Generates o->n_jobs jobs. rng is borrowed; NULL creates gsl_rng_mt19937
 * seeded with o->seed. *out is a new workload the caller destroys (NULL on
 * failure, with d set). */
int eng_gen_modified_generate(const eng_gen_modified_opts *o, gsl_rng *rng, eng_workload **out,
                              eng_diag *d);

/* One ln(run time) drawn as above (for tests). */
double eng_gen_modified_draw_log_runtime(const eng_gen_modified_opts *o, gsl_rng *r);

#endif
