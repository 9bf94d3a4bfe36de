/* pol_solib.c — the loader of shared-library policies (pol_solib.h).
 *
 * dlopen with RTLD_NOW, so that a reference the executable does not
 * define fails here, at load, and not in the middle of a run; RTLD_LOCAL,
 * so that one library's symbols never stand in for another's. The checks,
 * in order: the file is readable (its SHA-256, for the manifest), it
 * loads, it exports batchlab_policy_interface with our
 * POL_INTERFACE_VERSION (read before the type, whose layout may differ in
 * another version), it exports batchlab_policy, and that type has what
 * the command line prints and the engine calls.
 *
 * The loaded libraries are kept in one list for the process's life (the
 * engine and the manifest refer to their types and paths until the end);
 * the list is searched by path, so `compare` naming a library twice, or a
 * sweep's grid check then its task, load it once. Cost: O(loaded) per
 * lookup, the loaded being a handful.
 */
#include "pol_solib.h"

#include "eng_error.h"
#include "eng_sha256.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct loaded {
    pol_solib lib;
    void *handle;
    struct loaded *next;
} loaded;

static loaded *libs; /* every library loaded, newest first */

bool pol_solib_is_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') || (n > 3 && strcmp(name + n - 3, ".so") == 0);
}

/* What the command line prints and the engine calls: a name, a summary, a
 * citation, schedule(), and every option with its words. 0, or ENG_POLICY
 * with the message. */
static int check_type(const char *path, const pol_type *t, char *err, size_t errlen)
{
    const char *missing = !t                            ? "type"
                          : !t->name || !t->name[0]     ? "name"
                          : !t->summary || !t->citation ? "summary or citation"
                          : !t->schedule                ? "schedule hook"
                                                        : NULL;
    if (missing) {
        snprintf(err, errlen, "%s: its " POL_TYPE_SYMBOL " has no %s", path, missing);
        return ENG_POLICY;
    }
    char why[512];
    if (pol_check_declarations(t, why, sizeof why) != ENG_OK) {
        snprintf(err, errlen, "%s: %s", path, why);
        return ENG_POLICY;
    }
    return ENG_OK;
}

/* dlopen's view of path: one without '/' would be searched for in the
 * library path; the user named a file here. */
static void *open_library(const char *path, char *err, size_t errlen)
{
    char local[4096];
    const char *name = path;
    if (!strchr(path, '/')) {
        snprintf(local, sizeof local, "./%s", path);
        name = local;
    }
    dlerror();
    void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        snprintf(err, errlen, "%s: not a loadable policy library (%s)", path,
                 why ? why : "dlopen failed");
    }
    return h;
}

/* The checks past dlopen. 0 with *type, or the code with the message. */
static int check_symbols(const char *path, void *h, const pol_type **type, char *err, size_t errlen)
{
    const unsigned *version = dlsym(h, POL_INTERFACE_SYMBOL);
    if (!version) {
        snprintf(err, errlen,
                 "%s: not a batchlab policy library (no symbol " POL_INTERFACE_SYMBOL
                 "; a policy ends with POL_EXPORT(its type), eng_policy.h)",
                 path);
        return ENG_POLICY;
    }
    if (*version != POL_INTERFACE_VERSION) {
        snprintf(err, errlen,
                 "%s: built for policy interface version %u; this batchlab has version %u "
                 "(rebuild it against this batchlab's headers)",
                 path, *version, (unsigned)POL_INTERFACE_VERSION);
        return ENG_UNSUPPORTED;
    }
    const pol_type *const *t = dlsym(h, POL_TYPE_SYMBOL);
    if (!t) {
        snprintf(err, errlen,
                 "%s: not a batchlab policy library (no symbol " POL_TYPE_SYMBOL
                 "; a policy ends with POL_EXPORT(its type), eng_policy.h)",
                 path);
        return ENG_POLICY;
    }
    int rc = check_type(path, *t, err, errlen);
    if (rc == ENG_OK)
        *type = *t;
    return rc;
}

int pol_solib_load(const char *path, const pol_solib **lib, char *err, size_t errlen)
{
    *lib = NULL;
    if (errlen)
        err[0] = '\0';
    for (loaded *l = libs; l; l = l->next)
        if (strcmp(l->lib.path, path) == 0) {
            *lib = &l->lib;
            return ENG_OK;
        }
    char sha[65];
    eng_diag d;
    eng_diag_clear(&d);
    if (eng_sha256_file(path, sha, &d) != ENG_OK) {
        snprintf(err, errlen, "%s", d.msg);
        return ENG_IO;
    }
    void *h = open_library(path, err, errlen);
    if (!h)
        return ENG_INVAL;
    const pol_type *type = NULL;
    int rc = check_symbols(path, h, &type, err, errlen);
    loaded *l = rc == ENG_OK ? calloc(1, sizeof *l) : NULL;
    char *copy = l ? strdup(path) : NULL;
    if (rc == ENG_OK && !copy) {
        free(l);
        snprintf(err, errlen, "out of memory");
        rc = ENG_NOMEM;
    }
    if (rc != ENG_OK) {
        dlclose(h);
        return rc;
    }
    l->lib.path = copy;
    l->lib.type = type;
    memcpy(l->lib.sha256, sha, sizeof sha);
    l->handle = h;
    l->next = libs;
    libs = l;
    *lib = &l->lib;
    return ENG_OK;
}
