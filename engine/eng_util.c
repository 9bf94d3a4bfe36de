/* eng_util.c — see eng_util.h. */
#define _GNU_SOURCE /* strverscmp */
#include "eng_util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

int eng_grow_to(void *buf_ptr, size_t *cap, size_t need, size_t elem)
{
    void **buf = (void **)buf_ptr;
    if (need <= *cap)
        return ENG_OK;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return ENG_NOMEM;
        ncap *= 2;
    }
    void *p = realloc(*buf, ncap * elem);
    if (!p)
        return ENG_NOMEM;
    *buf = p;
    *cap = ncap;
    return ENG_OK;
}

char *eng_strdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

char *eng_strndup(const char *s, size_t n)
{
    return s ? strndup(s, n) : NULL;
}

char *eng_asprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    return n < 0 ? NULL : s;
}

const char *eng_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int eng_name_cmp(const char *a, const char *b)
{
    int c = strverscmp(a, b);
    return c ? c : strcmp(a, b);
}

bool eng_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int eng_mkdir_p(const char *path, eng_diag *d)
{
    char *p = eng_strdup(path);
    if (!p)
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    for (char *s = p + 1;; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                int e = errno;
                free(p);
                return eng_diag_set(d, ENG_IO, "%s: cannot create directory: %s", path,
                                    strerror(e));
            }
            if (end)
                break;
            *s = '/';
        }
    }
    free(p);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return eng_diag_set(d, ENG_IO, "%s: not a directory", path);
    return ENG_OK;
}

int eng_check_not_dir(const char *path, const char *what, eng_diag *d)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return eng_diag_set(d, ENG_IO, "%s: is a directory, expected %s", path, what);
    return ENG_OK;
}

/* The temporary files open now, for eng_afile_unlink_all(). A row is set
 * only once its name is complete and cleared before the name is freed, so
 * a signal handler that reads the table meanwhile sees whole names or
 * NULL. More files than rows are simply not listed. */
#define LIVE_MAX 64
static char *volatile live_tmp[LIVE_MAX];

static void live_add(eng_afile *a)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live_tmp[i]) {
            live_tmp[i] = a->tmp;
            a->slot = i + 1;
            return;
        }
}

static void live_remove(eng_afile *a)
{
    if (a->slot > 0 && a->slot <= LIVE_MAX && live_tmp[a->slot - 1] == a->tmp)
        live_tmp[a->slot - 1] = NULL;
    a->slot = 0;
}

void eng_afile_unlink_all(void)
{
    for (int i = 0; i < LIVE_MAX; i++) {
        char *p = live_tmp[i];
        if (p)
            unlink(p);
    }
}

static void afile_release(eng_afile *a)
{
    live_remove(a);
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
}

int eng_afile_open(eng_afile *a, const char *path, eng_diag *d)
{
    memset(a, 0, sizeof *a);
    if (eng_check_not_dir(path, "a file to write", d) != ENG_OK)
        return ENG_IO; /* the rename over it would fail after all the writing */
    a->path = eng_strdup(path);
    a->tmp = eng_asprintf("%s.tmp.%ld", path, (long)getpid());
    if (!a->path || !a->tmp) {
        eng_afile_abort(a);
        return eng_diag_set(d, ENG_NOMEM, "%s: out of memory", path);
    }
    live_add(a);
    a->f = fopen(a->tmp, "wb");
    if (!a->f) {
        int e = errno;
        afile_release(a);
        return eng_diag_set(d, ENG_IO, "%s: cannot write: %s", path, strerror(e));
    }
    return ENG_OK;
}

int eng_afile_fail(eng_afile *a, int e, eng_diag *d)
{
    if (e == 0)
        e = errno ? errno : EIO;
    return eng_diag_set(d, ENG_IO, "%s: cannot write: %s", a->path ? a->path : "?", strerror(e));
}

int eng_afile_close(eng_afile *a, eng_diag *d)
{
    if (!a->f)
        return ENG_OK;
    int rc = ENG_OK;
    errno = 0;
    if (fflush(a->f) != 0 || ferror(a->f))
        rc = eng_afile_fail(a, 0, d);
    errno = 0;
    if (fclose(a->f) != 0 && rc == ENG_OK)
        rc = eng_afile_fail(a, 0, d);
    a->f = NULL;
    return rc;
}

int eng_afile_rename(eng_afile *a, eng_diag *d)
{
    int rc = ENG_OK;
    if (rename(a->tmp, a->path) != 0) {
        rc = eng_diag_set(d, ENG_IO, "%s: cannot rename from %s: %s", a->path, a->tmp,
                          strerror(errno));
        unlink(a->tmp);
    }
    afile_release(a);
    return rc;
}

int eng_afile_commit(eng_afile *a, eng_diag *d)
{
    int rc = eng_afile_close(a, d);
    if (rc != ENG_OK) {
        eng_afile_abort(a);
        return rc;
    }
    return eng_afile_rename(a, d);
}

void eng_afile_abort(eng_afile *a)
{
    if (a->f) {
        fclose(a->f);
        a->f = NULL;
    }
    if (a->tmp)
        unlink(a->tmp);
    afile_release(a);
}

bool eng_parse_finite(const char *s, double *v)
{
    char *end = NULL;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

int eng_lines_open(eng_lines *l, const char *path, const char *what, int max_chars, eng_diag *d)
{
    memset(l, 0, sizeof *l);
    if (eng_check_not_dir(path, what, d) != ENG_OK)
        return ENG_IO;
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return eng_diag_set(d, ENG_IO, "%s: cannot open: %s", path,
                            errno ? strerror(errno) : "out of memory");
    l->buf = malloc((size_t)max_chars + 2);
    if (!l->buf) {
        gzclose(gz);
        return eng_diag_set(d, ENG_NOMEM, "out of memory");
    }
    l->path = path;
    l->gz = gz;
    l->max_chars = max_chars;
    return ENG_OK;
}

int eng_lines_next(eng_lines *l, char **text, eng_diag *d)
{
    if (!gzgets(l->gz, l->buf, l->max_chars + 2)) {
        int err = 0;
        const char *msg = gzerror(l->gz, &err);
        if (err != Z_OK && err != Z_STREAM_END)
            return eng_diag_set(d, ENG_IO, "%s:%ld: read error: %s", l->path, l->line,
                                err == Z_ERRNO ? strerror(errno) : msg);
        return 0;
    }
    l->line++;
    size_t len = strlen(l->buf);
    if (len > (size_t)l->max_chars && l->buf[len - 1] != '\n')
        return eng_diag_set(d, ENG_PARSE, "%s:%ld: line longer than %d characters", l->path,
                            l->line, l->max_chars);
    char *hash = strchr(l->buf, '#');
    if (hash)
        *hash = '\0';
    *text = l->buf;
    return 1;
}

void eng_lines_close(eng_lines *l)
{
    if (l->gz)
        gzclose(l->gz);
    free(l->buf);
    memset(l, 0, sizeof *l);
}
