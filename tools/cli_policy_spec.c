/* cli_policy_spec.c — policy specs as the command line gives them: "easy",
 * "easy:backfill_order=sjf", plus --policy-opt pairs; looked up in the
 * registry, their keys and values checked before any run starts, and the
 * `backend` option taken from BATCHLAB_SA_BACKEND (the one place that reads
 * it). The folder name a spec's outputs get (bl_policy_folder).
 */
#include "cli_policy_spec.h"

#include "cli_args.h"

#include "eng_error.h"
#include "eng_util.h"
#include "pol_registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bl_policy_spec_fini(bl_policy_spec *p)
{
    for (size_t i = 0; i < p->n_kv; i++) {
        free((char *)p->kv[i].key);
        free((char *)p->kv[i].value);
    }
    free(p->kv);
    memset(p, 0, sizeof *p);
}

static int add_kv(const char *cmd, const char *what, const char *text, size_t len,
                  bl_policy_spec *p)
{
    const char *eq = memchr(text, '=', len);
    if (!eq || eq == text) {
        fprintf(stderr, "batchlab %s: %s '%.*s': expected key=value\n", cmd, what, (int)len, text);
        return 2;
    }
    char *key = eng_strndup(text, (size_t)(eq - text));
    char *value = eng_strndup(eq + 1, len - (size_t)(eq - text) - 1);
    if (!key || !value) {
        free(key);
        free(value);
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    p->kv[p->n_kv++] = (pol_kv){.key = key, .value = value};
    return 0;
}

/* Option values out of range are a usage error before the run starts:
 * only an ENG_INVAL that the options cause counts (when init refuses the
 * stand-in pool without options too, or memory runs out, the run itself
 * decides). Returns 1 with the message in err. */
static int option_values_bad(const bl_policy_spec *p, char *err, size_t errlen)
{
    char msg[400];
    if (p->n_kv == 0 || pol_try_options(p->type, p->kv, p->n_kv, msg, sizeof msg) != ENG_INVAL)
        return 0;
    char other[400];
    if (pol_try_options(p->type, NULL, 0, other, sizeof other) != ENG_OK)
        return 0;
    if (msg[0])
        snprintf(err, errlen, "%s", msg);
    else
        snprintf(err, errlen, "policy %s: an option value is out of range", p->type->name);
    return 1;
}

int bl_sa_backend_env(const char *cmd, const char **value)
{
    const char *env = getenv(BL_SA_BACKEND_ENV);
    *value = NULL;
    if (!env || !*env)
        return 0;
    if (strcmp(env, "auto") != 0 && strcmp(env, "cpu") != 0 && strcmp(env, "cuda") != 0) {
        fprintf(stderr, "%s %s: " BL_SA_BACKEND_ENV " '%s': expected auto, cpu or cuda\n",
                bl_args_program(), cmd, env);
        return 2;
    }
    *value = env;
    return 0;
}

/* BL_SA_BACKEND_ENV, when set, gives the `backend` option of a policy that
 * declares one (replacing a value from the command line): the environment
 * is read here and passed down, never inside gpu/ or the policies. The
 * manifest then records the backend asked for. Returns 0, 2 (bad value)
 * or 1 (out of memory); p->kv has room for one more pair. */
static int backend_from_env(const char *cmd, bl_policy_spec *p)
{
    bool has = false;
    for (const pol_option *o = p->type->options; o && o->key; o++)
        has = has || strcmp(o->key, "backend") == 0;
    if (!has)
        return 0;
    const char *env = NULL;
    int rc = bl_sa_backend_env(cmd, &env);
    if (rc || !env)
        return rc;
    char *value = strdup(env);
    if (!value) {
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    for (size_t i = 0; i < p->n_kv; i++)
        if (strcmp(p->kv[i].key, "backend") == 0) {
            free((char *)p->kv[i].value);
            p->kv[i].value = value;
            return 0;
        }
    char *key = strdup("backend");
    if (!key) {
        free(value);
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    p->kv[p->n_kv++] = (pol_kv){.key = key, .value = value};
    return 0;
}

int bl_policy_spec_parse(const char *cmd, const char *spec, const char *const *extra,
                         size_t n_extra, bl_policy_spec *out)
{
    memset(out, 0, sizeof *out);
    out->label = spec;
    size_t max_kv = n_extra + 2; /* + the backend from the environment */
    for (const char *p = spec; *p; p++)
        max_kv += *p == ':';
    out->kv = calloc(max_kv, sizeof *out->kv);
    if (!out->kv) {
        fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        return 1;
    }
    size_t name_len = strcspn(spec, ":");
    char *name = eng_strndup(spec, name_len);
    char err[1024]; /* a library's path and dlerror's words */
    int found = name ? bl_policy_lookup(name, &out->type, &out->lib, err, sizeof err) : ENG_NOMEM;
    free(name);
    if (found != ENG_OK) {
        if (found == ENG_NOMEM)
            fprintf(stderr, "batchlab %s: out of memory\n", cmd);
        else
            fprintf(stderr, "batchlab %s: %s\n", cmd, err);
        bl_policy_spec_fini(out);
        return found == ENG_NOMEM ? 1 : 2;
    }
    for (const char *p = spec + name_len; *p == ':';) {
        const char *start = p + 1;
        size_t len = strcspn(start, ":");
        int rc = add_kv(cmd, "policy option", start, len, out);
        if (rc) {
            bl_policy_spec_fini(out);
            return rc;
        }
        p = start + len;
    }
    for (size_t i = 0; i < n_extra; i++) {
        int rc = add_kv(cmd, "--policy-opt", extra[i], strlen(extra[i]), out);
        if (rc) {
            bl_policy_spec_fini(out);
            return rc;
        }
    }
    int rc = backend_from_env(cmd, out);
    if (rc) {
        bl_policy_spec_fini(out);
        return rc;
    }
    if (pol_check_options(out->type, out->kv, out->n_kv, err, sizeof err) ||
        option_values_bad(out, err, sizeof err)) {
        fprintf(stderr, "batchlab %s: %s\n", cmd, err);
        bl_policy_spec_fini(out);
        return 2;
    }
    return 0;
}

int bl_policy_lookup(const char *name, const pol_type **type, const pol_solib **lib, char *err,
                     size_t errlen)
{
    *type = NULL;
    *lib = NULL;
    if (pol_solib_is_path(name)) {
        int rc = pol_solib_load(name, lib, err, errlen);
        if (rc == ENG_OK)
            *type = (*lib)->type;
        return rc;
    }
    *type = pol_find(name);
    if (!*type) {
        snprintf(err, errlen,
                 "unknown policy '%s' (valid: %s; or the path of a policy library, "
                 "PATH.so)",
                 name, pol_names());
        return ENG_INVAL;
    }
    return ENG_OK;
}

char *bl_policy_folder(const char *spec)
{
    /* a library's path: its base name, the options after it */
    size_t name_len = strcspn(spec, ":");
    char *name0 = eng_strndup(spec, name_len);
    if (!name0)
        return NULL;
    bool path = pol_solib_is_path(name0);
    free(name0);
    if (path) {
        const char *base = spec;
        for (const char *p = spec; p < spec + name_len; p++)
            if (*p == '/')
                base = p + 1;
        spec = base;
    }
    char *name = eng_strdup(spec);
    if (name)
        for (char *p = name; *p; p++)
            if (*p == ':' || *p == '/' || *p == ' ')
                *p = *p == ':' ? '+' : '_';
    return name;
}
