/* eng_json.c — see eng_json.h. */
#include "eng_json.h"

#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

json_t *eng_json_num(double v)
{
    if (!isfinite(v))
        return json_null();
    if (v == nearbyint(v) && fabs(v) <= 9007199254740992.0) /* 2^53: exact as an integer */
        return json_integer((json_int_t)v);
    return json_real(v);
}

json_t *eng_json_strn(const char *s, size_t n)
{
    if (!s)
        return json_string("");
    json_t *v = json_stringn(s, n);
    if (v)
        return v;
    /* Not UTF-8 (or no memory): the bytes from 0x80 up become '?'. */
    char *copy = malloc(n ? n : 1);
    if (!copy)
        return NULL;
    for (size_t i = 0; i < n; i++)
        copy[i] = (unsigned char)s[i] >= 0x80 ? '?' : s[i];
    v = json_stringn(copy, n);
    free(copy);
    return v;
}

json_t *eng_json_str(const char *s)
{
    return eng_json_strn(s, s ? strlen(s) : 0);
}

void eng_json_set(json_t *obj, const char *key, json_t *v, bool *ok)
{
    if (!v || json_object_set_new(obj, key, v) != 0)
        *ok = false;
}

void eng_json_push(json_t *arr, json_t *v, bool *ok)
{
    if (!v || json_array_append_new(arr, v) != 0)
        *ok = false;
}

/* The end of the string token that opens at text[i] (a quote). */
static size_t skip_string(const char *text, size_t i)
{
    for (i++; text[i] && text[i] != '"'; i++)
        if (text[i] == '\\' && text[i + 1])
            i++;
    return text[i] ? i + 1 : i;
}

/* Writes text to f with every real number in its shortest exact form. */
static void put_shortest(const char *text, FILE *f)
{
    size_t from = 0, i = 0;
    while (text[i]) {
        if (text[i] == '"') {
            i = skip_string(text, i);
            continue;
        }
        if (text[i] != '-' && (text[i] < '0' || text[i] > '9')) {
            i++;
            continue;
        }
        size_t len = strspn(text + i, "-+.0123456789eE");
        if (strcspn(text + i, ".eE") < len) { /* a real, as Jansson printed it */
            char num[40];
            fwrite(text + from, 1, i - from, f);
            fputs(eng_fmt_double(num, sizeof num, strtod(text + i, NULL)), f);
            from = i + len;
        }
        i += len;
    }
    fputs(text + from, f);
}

int eng_json_dumpf(const json_t *root, FILE *f)
{
    char *text = json_dumps(root, ENG_JSON_FLAGS);
    if (!text)
        return ENG_NOMEM;
    errno = 0;
    put_shortest(text, f);
    free(text);
    fputc('\n', f);
    return ferror(f) ? ENG_IO : ENG_OK;
}

int eng_json_write(const char *path, const json_t *root, eng_diag *d)
{
    eng_afile a;
    int rc = eng_afile_open(&a, path, d);
    if (rc)
        return rc;
    rc = eng_json_dumpf(root, a.f);
    if (rc == ENG_IO)
        eng_afile_fail(&a, 0, d);
    else if (rc == ENG_NOMEM)
        eng_diag_set(d, rc, "%s: out of memory", path);
    if (rc) {
        eng_afile_abort(&a);
        return rc;
    }
    return eng_afile_commit(&a, d);
}
