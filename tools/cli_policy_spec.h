/* cli_policy_spec.h — a policy as the command line names it: NAME or
 * NAME:key=value:..., plus --policy-opt pairs, looked up in the registry
 * and its options checked (cli_policy_spec.c). `run`, `compare` and a
 * sweep's tasks parse their policies here; a sweep's grid and `compare`
 * name their output folders by bl_policy_folder.
 */
#ifndef BL_CLI_POLICY_SPEC_H
#define BL_CLI_POLICY_SPEC_H

#include "eng_policy.h"
#include "pol_solib.h"

#include <stddef.h>

/* A parsed spec. */
typedef struct bl_policy_spec {
    const char *label; /* as typed, borrowed */
    const pol_type *type;
    const pol_solib *lib; /* the library it came from (PATH.so...), else NULL */
    pol_kv *kv;           /* keys and values owned */
    size_t n_kv;
} bl_policy_spec;

/* Parses spec (NAME[:key=value...], NAME being a policy of the registry
 * or the path of a shared library, pol_solib.h) plus the n_extra --policy-opt pairs of
 * extra; with BL_SA_BACKEND_ENV set, a policy that declares a `backend`
 * option gets its value. Checks the keys (pol_check_options) and, for a
 * value out of range, the policy's own init (pol_try_options). Returns 0,
 * or 2 after printing "batchlab CMD: ..." (a library that cannot be used
 * too; 1 when memory runs out); out is then empty. Free with bl_policy_spec_fini. */
int bl_policy_spec_parse(const char *cmd, const char *spec, const char *const *extra,
                         size_t n_extra, bl_policy_spec *out);
void bl_policy_spec_fini(bl_policy_spec *p);

/* The environment variable that chooses where simulated annealing runs
 * (auto|cpu|cuda) over the `backend` option of a policy that has one
 * (`sa`) and over the sa study's --backend. Only the command line (and the
 * studies' program) reads it; gpu/ and the policies get its value passed
 * down as that option. */
#define BL_SA_BACKEND_ENV "BATCHLAB_SA_BACKEND"

/* Reads BL_SA_BACKEND_ENV. Returns 0 with *value NULL when it is unset or
 * empty, or with its value when it is auto, cpu or cuda; otherwise prints
 * "batchlab CMD: BATCHLAB_SA_BACKEND 'x': expected auto, cpu or cuda" (the
 * program as bl_args_program names it) and
 * returns 2 (a usage error). */
int bl_sa_backend_env(const char *cmd, const char **value);

/* The folder name of a policy spec (NAME or NAME:key=value:...), the one
 * rule by which `compare --out` and a sweep's task folders name a policy:
 * ':' becomes '+', '/' and ' ' become '_' ("easy+backfill_order=sjf";
 * "slurm+shares=data_shares.txt" for slurm:shares=data/shares.txt); a
 * library's path gives its base name ("sjf.so+window=2" for
 * lib/sjf.so:window=2). Two
 * specs may thus share a name; `compare` refuses such a pair. Heap string,
 * NULL when out of memory. */
char *bl_policy_folder(const char *spec);

/* Looks up the policy NAME names for a check before any run (a sweep's
 * grid): the registry's, or a library loaded (pol_solib_load). Returns 0,
 * or ENG_INVAL with "unknown policy 'x' (valid: ...)" or the loader's code
 * and message in err. */
int bl_policy_lookup(const char *name, const pol_type **type, const pol_solib **lib, char *err,
                     size_t errlen);

#endif
