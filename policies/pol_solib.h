/* pol_solib.h — policies compiled outside the tree, loaded from shared
 * libraries: `--policy PATH.so[:key=value...]` (see "policies in shared
 * libraries" in eng_policy.h for the contract a library keeps).
 *
 * Part of the registry library: the command line and the tests call it,
 * the engine never does (it receives the loaded `const pol_type *` as it
 * receives a built-in one). A library is loaded in the process that parses
 * the command line, before any simulation child is forked, so every child
 * inherits it and a library that cannot be used is reported before a run
 * starts. A loaded library stays loaded for the life of the process (its
 * pol_type is referenced until then), and loading the same path again
 * returns the same entry.
 */
#ifndef POL_SOLIB_H
#define POL_SOLIB_H

#include "eng_policy.h"

#include <stdbool.h>
#include <stddef.h>

/* A loaded library. Owned by the loader, valid for the process's life. */
typedef struct pol_solib {
    const char *path;     /* as given */
    const pol_type *type; /* its exported batchlab_policy */
    char sha256[65];      /* of the file's bytes when it was loaded */
} pol_solib;

/* Whether a policy name names a library: it holds '/' or ends in ".so". */
bool pol_solib_is_path(const char *name);

/* Loads the library at path (dlopen, RTLD_NOW | RTLD_LOCAL; a path without
 * '/' is taken relative to the working directory, not searched for), checks
 * its interface version and its type, and hashes the file. Returns 0 with
 * *lib set, or with a message naming the file in err:
 *   ENG_IO       the file cannot be read ("PATH: cannot open: ...");
 *   ENG_INVAL    not a loadable library, or one whose references the
 *                executable does not define (dlerror's words);
 *   ENG_POLICY   a library without the symbols, or whose batchlab_policy
 *                lacks a name, summary, citation or schedule hook, or
 *                declares an option without its values, default or help;
 *   ENG_UNSUPPORTED  built for another interface version ("PATH: built for
 *                policy interface version 999; this batchlab has 1");
 *   ENG_NOMEM.
 * Nothing is kept loaded after a failure. */
int pol_solib_load(const char *path, const pol_solib **lib, char *err, size_t errlen);

#endif
