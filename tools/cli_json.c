/* cli_json.c — the JSON reader of the command line (cli_json.h): a
 * summary.json flattened into dotted keys by Jansson, and a CSV cell
 * writer; used by `sweep merge` and `plot`.
 */
#include "cli_json.h"

#include "eng_util.h"

#include <jansson.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Flat JSON reader (Jansson)                                          */

void bl_json_flat_fini(bl_json_flat *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        free(j->keys[i]);
        free(j->values[i]);
    }
    free(j->keys);
    free(j->values);
    free(j->lens);
    free(j->is_string);
    memset(j, 0, sizeof *j);
}

/* Adds key with the len bytes at value (copied, NUL-terminated). */
static int flat_add(bl_json_flat *j, size_t *cap, const char *key, const char *value, size_t len,
                    bool is_string, eng_diag *d)
{
    size_t c1 = *cap, c2 = *cap, c3 = *cap, c4 = *cap;
    char *k = eng_strdup(key), *v = malloc(len + 1);
    if (!k || !v || eng_grow(&j->keys, &c1, j->n + 1, sizeof *j->keys) != ENG_OK ||
        eng_grow(&j->values, &c2, j->n + 1, sizeof *j->values) != ENG_OK ||
        eng_grow(&j->lens, &c3, j->n + 1, sizeof *j->lens) != ENG_OK ||
        eng_grow(&j->is_string, &c4, j->n + 1, sizeof *j->is_string) != ENG_OK) {
        free(k);
        free(v);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    memcpy(v, value, len);
    v[len] = '\0';
    *cap = c1; /* the four arrays grow alike */
    j->keys[j->n] = k;
    j->values[j->n] = v;
    j->lens[j->n] = len;
    j->is_string[j->n] = is_string;
    j->n++;
    return ENG_OK;
}

static int flat_word(bl_json_flat *j, size_t *cap, const char *key, const char *word, eng_diag *d)
{
    return flat_add(j, cap, key, word, strlen(word), false, d);
}

/* Adds every scalar under v, named by its dotted path from key. */
static int flatten(bl_json_flat *j, size_t *cap, const char *key, json_t *v, eng_diag *d)
{
    char num[40];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *name;
        json_t *item;
        json_object_foreach(v, name, item)
        {
            char *full = *key ? eng_asprintf("%s.%s", key, name) : eng_strdup(name);
            int rc = full ? flatten(j, cap, full, item, d)
                          : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(full);
            if (rc)
                return rc;
        }
        return ENG_OK;
    }
    case JSON_ARRAY:
        for (size_t i = 0; i < json_array_size(v); i++) {
            char *full = eng_asprintf("%s%s%zu", key, *key ? "." : "", i);
            int rc = full ? flatten(j, cap, full, json_array_get(v, i), d)
                          : eng_diag_set(d, ENG_NOMEM, "out of memory");
            free(full);
            if (rc)
                return rc;
        }
        return ENG_OK;
    case JSON_STRING:
        return flat_add(j, cap, key, json_string_value(v), json_string_length(v), true, d);
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return flat_word(j, cap, key, num, d);
    case JSON_REAL:
        return flat_word(j, cap, key, eng_fmt_double(num, sizeof num, json_real_value(v)), d);
    case JSON_TRUE:
        return flat_word(j, cap, key, "true", d);
    case JSON_FALSE:
        return flat_word(j, cap, key, "false", d);
    default:
        return flat_word(j, cap, key, "null", d);
    }
}

/* The parsed document (an object) flattened into j, or a message naming
 * the line and column Jansson stopped at. */
static int flat_from(const char *path, json_t *root, const json_error_t *err, bl_json_flat *j,
                     eng_diag *d)
{
    memset(j, 0, sizeof *j);
    if (!root)
        return eng_diag_set(d, err->line < 0 ? ENG_IO : ENG_PARSE, "%s:%d:%d: %s", path, err->line,
                            err->column, err->text);
    int rc;
    if (!json_is_object(root)) {
        rc = eng_diag_set(d, ENG_PARSE, "%s:1: expected a JSON object", path);
    } else {
        size_t cap = 0;
        rc = flatten(j, &cap, "", root, d);
    }
    json_decref(root);
    if (rc != ENG_OK)
        bl_json_flat_fini(j);
    return rc;
}

int bl_json_flat_parse(const char *path, const char *text, bl_json_flat *j, eng_diag *d)
{
    json_error_t err;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
    return flat_from(path, root, &err, j, d);
}

int bl_json_flat_read(const char *path, bl_json_flat *j, eng_diag *d)
{
    memset(j, 0, sizeof *j);
    FILE *f = fopen(path, "rb");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path, strerror(errno));
    json_error_t err;
    json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &err);
    bool io = ferror(f);
    fclose(f);
    if (io && root) {
        json_decref(root);
        return eng_diag_set(d, ENG_IO, "%s: read error", path);
    }
    return flat_from(path, root, &err, j, d);
}

const char *bl_json_flat_getn(const bl_json_flat *j, const char *key, size_t *len)
{
    for (size_t i = 0; i < j->n; i++)
        if (strcmp(j->keys[i], key) == 0) {
            *len = j->lens[i];
            return j->values[i];
        }
    return NULL;
}

const char *bl_json_flat_get(const bl_json_flat *j, const char *key)
{
    size_t len;
    const char *v = bl_json_flat_getn(j, key, &len);
    return v && strlen(v) == len ? v : NULL; /* never a string cut at a NUL */
}
