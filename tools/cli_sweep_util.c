/* cli_sweep_util.c — what the files of `batchlab sweep` share (cli_sweep.h):
 * task lines (a shell line split into words and words quoted for a shell,
 * without expansions: bl_shell_split, bl_shell_quote; the output folder a
 * line writes: bl_task_out_dir), files and paths (bl_sweep_file_exists,
 * bl_sweep_absolute, bl_sweep_read_lines) and a load as run folders name
 * it (bl_sweep_load_text). It calls none of the subcommands: they call it.
 */
#include "cli_sweep.h"

#include "eng_util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Shell words                                                         */

void bl_words_free(char **words, long n)
{
    for (long i = 0; i < n; i++)
        free(words[i]);
    free(words);
}

long bl_shell_split(const char *line, char ***words)
{
    *words = NULL;
    size_t n = 0, cap = 0;
    size_t len = strlen(line);
    char *cur = malloc(len + 1);
    if (!cur)
        return -1;
    const char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (!*p)
            break;
        size_t m = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end)
                    goto bad;
                memcpy(cur + m, p + 1, (size_t)(end - p - 1));
                m += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
                        p++;
                    cur[m++] = *p++;
                }
                if (*p != '"')
                    goto bad;
                p++;
            } else if (*p == '\\' && p[1]) {
                cur[m++] = p[1];
                p += 2;
            } else {
                cur[m++] = *p++;
            }
        }
        if (eng_grow(words, &cap, n + 1, sizeof **words) != ENG_OK ||
            !((*words)[n] = eng_strndup(cur, m)))
            goto bad;
        n++;
    }
    free(cur);
    return (long)n;
bad:
    free(cur);
    bl_words_free(*words, (long)n);
    *words = NULL;
    return -1;
}

bool bl_shell_quote(char *buf, size_t len, const char *word)
{
    size_t used = strlen(buf);
    bool bare = *word != '\0';
    for (const char *c = word; *c && bare; c++)
        bare = isalnum((unsigned char)*c) || strchr("_./:=+,%@-", *c);
    char *p = buf + used;
    size_t room = len - used;
    if (bare) {
        size_t w = strlen(word);
        if (w + 1 > room)
            return false;
        memcpy(p, word, w + 1);
        return true;
    }
    size_t need = 3;
    for (const char *c = word; *c; c++)
        need += *c == '\'' ? 4 : 1;
    if (need > room)
        return false;
    *p++ = '\'';
    for (const char *c = word; *c; c++) {
        if (*c == '\'') {
            memcpy(p, "'\\''", 4);
            p += 4;
        } else {
            *p++ = *c;
        }
    }
    *p++ = '\'';
    *p = '\0';
    return true;
}

char *bl_task_out_dir(const char *line)
{
    char **w = NULL;
    long n = bl_shell_split(line, &w);
    char *out = NULL;
    for (long i = 0; i + 1 < n && !out; i++)
        if (strcmp(w[i], "--out") == 0)
            out = eng_strdup(w[i + 1]);
    for (long i = 0; i < n && !out; i++)
        if (strncmp(w[i], "--out=", 6) == 0)
            out = eng_strdup(w[i] + 6);
    bl_words_free(w, n);
    return out;
}

/* ------------------------------------------------------------------ */
/* Helpers shared by the subcommands                                   */

bool bl_sweep_file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The absolute form of a path that may not exist yet (no normalisation). */
char *bl_sweep_absolute(const char *path)
{
    if (path[0] == '/')
        return eng_strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    return eng_asprintf("%s/%s", cwd, path);
}

void bl_sweep_load_text(char *buf, size_t len, double load)
{
    if (load == 0.0)
        snprintf(buf, len, "log");
    else
        eng_fmt_double(buf, len, load);
}

/* Reads the lines of a task list (without their newlines). */
int bl_sweep_read_lines(const char *path, char ***lines, size_t *n, eng_diag *d)
{
    *lines = NULL;
    *n = 0;
    if (eng_check_not_dir(path, "a task list", d) != ENG_OK)
        return ENG_IO;
    FILE *f = fopen(path, "r");
    if (!f)
        return eng_diag_set(d, ENG_IO, "%s: cannot open the task list: %s", path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0, lcap = 0;
    ssize_t len;
    int rc = ENG_OK;
    while (rc == ENG_OK && (len = getline(&buf, &cap, f)) >= 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (eng_grow(lines, &lcap, *n + 1, sizeof **lines) != ENG_OK ||
            !((*lines)[*n] = eng_strdup(buf)))
            rc = eng_diag_set(d, ENG_NOMEM, "out of memory");
        else
            (*n)++;
    }
    free(buf);
    fclose(f);
    return rc;
}
