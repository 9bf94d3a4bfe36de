/* eng_util.h — small helpers every engine module uses: growable arrays,
 * string copies, natural ("version") name order, and atomic output files.
 *
 * Atomic files: eng_afile_open() creates "PATH.tmp.PID" next to PATH; the
 * writer writes through a->f; eng_afile_commit() flushes, closes and renames
 * it over PATH; eng_afile_abort() closes and removes it. A failed or
 * interrupted run therefore never leaves a half-written PATH behind, and
 * PATH keeps its previous content until the rename. A write error (a full
 * disk, the file-size limit, an I/O error) is reported once, as
 * "PATH: cannot write: No space left on device", and never retried.
 *
 * Every temporary file still open is listed in a process-wide table so
 * that a signal handler can remove them all (eng_afile_unlink_all, which
 * is async-signal-safe) before the process dies.
 */
#ifndef ENG_UTIL_H
#define ENG_UTIL_H

#include "eng_error.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The growing part of eng_grow, which calls it when need > *cap. */
int eng_grow_to(void *buf_ptr, size_t *cap, size_t need, size_t elem);

/* Ensures *buf holds room for `need` elements of `elem` bytes, doubling the
 * capacity *cap as needed. Returns ENG_OK or ENG_NOMEM (buffer untouched).
 * Inline: the slot lists and the dynamic program of alp/amp ask millions
 * of times for room they already have, and a call cost more than the
 * test (callgrind, bench/HISTORY.md). */
static inline int eng_grow(void *buf_ptr, size_t *cap, size_t need, size_t elem)
{
    return need <= *cap ? ENG_OK : eng_grow_to(buf_ptr, cap, need, elem);
}

/* strdup that returns NULL for NULL. The caller frees. */
char *eng_strdup(const char *s);

/* Copies at most n bytes of s and terminates. The caller frees. */
char *eng_strndup(const char *s, size_t n);

/* printf into a new heap string. The caller frees; NULL on failure. */
char *eng_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last component of a path (borrowed pointer into path). */
const char *eng_basename(const char *path);

/* Natural order of host names: digit runs compare as numbers, so "n2"
 * sorts before "n10" (glibc's strverscmp). Ties cannot occur for distinct
 * names. */
int eng_name_cmp(const char *a, const char *b);

/* Creates a directory and its parents (like mkdir -p). */
int eng_mkdir_p(const char *path, eng_diag *d);

/* Refuses a folder where a file is to be read or written: ENG_IO with
 * "PATH: is a directory, expected WHAT" (WHAT such as "an SWF log"), before
 * a reader, SimGrid's platform parser or a rename meets it with a less
 * clear error. ENG_OK for anything else, a missing path included (opening
 * it then says why). */
int eng_check_not_dir(const char *path, const char *what, eng_diag *d);

/* A text file read line by line, plain or gzip-compressed (zlib), for the
 * small line-oriented inputs (reservations, failure traces). path is
 * borrowed until eng_lines_close. */
typedef struct eng_lines {
    const char *path;
    void *gz;      /* gzFile */
    char *buf;     /* max_chars + 2 bytes */
    int max_chars; /* longest line accepted */
    long line;     /* number of the line last returned, from 1 */
} eng_lines;

/* Opens path (eng_check_not_dir with what first). 0, or ENG_IO or
 * ENG_NOMEM with the message in d; nothing to close on failure. */
int eng_lines_open(eng_lines *l, const char *path, const char *what, int max_chars, eng_diag *d);

/* The next line, cut at its first '#' (comments), in *text (valid until
 * the next call): 1; 0 at the end of the file; or ENG_PARSE ("PATH:LINE:
 * line longer than N characters") or ENG_IO (a read error) with the
 * message in d. */
int eng_lines_next(eng_lines *l, char **text, eng_diag *d);

/* Closes the file; NULL-safe on a closed one. */
void eng_lines_close(eng_lines *l);

/* True if path ends with suffix. */
bool eng_ends_with(const char *s, const char *suffix);

typedef struct eng_afile {
    FILE *f;    /* write here */
    char *path; /* final name */
    char *tmp;  /* temporary name, same directory */
    int slot;   /* 1 + its row in the table of live temporaries; 0: none */
} eng_afile;

/* Creates the temporary file. Errors: ENG_NOMEM, ENG_IO ("PATH: cannot
 * write: REASON", or "PATH: is a directory, ..." before anything is
 * written). */
int eng_afile_open(eng_afile *a, const char *path, eng_diag *d);

/* eng_afile_close() then eng_afile_rename(); on failure the temporary file
 * is removed and PATH is untouched. */
int eng_afile_commit(eng_afile *a, eng_diag *d);

/* The two halves of a commit, for writers of several files that must land
 * together: close (flush and check) them all, then rename them all.
 * eng_afile_close() reports the stream's first write error ("PATH: cannot
 * write: REASON", ENG_IO) and leaves the temporary file for
 * eng_afile_abort(); eng_afile_rename() moves it over PATH and releases a. */
int eng_afile_close(eng_afile *a, eng_diag *d);
int eng_afile_rename(eng_afile *a, eng_diag *d);

/* Closes (if open) and removes the temporary file; releases a. Safe on a
 * zeroed or already released a. */
void eng_afile_abort(eng_afile *a);

/* Records that a write to a->f failed with errno e (0: take errno now) and
 * returns ENG_IO with "PATH: cannot write: REASON" in d. */
int eng_afile_fail(eng_afile *a, int e, eng_diag *d);

/* Removes every temporary file this process has open through eng_afile.
 * Async-signal-safe (unlink only); meant for signal handlers. */
void eng_afile_unlink_all(void);


/* Reads the whole of s as one finite decimal number into *v: false when s
 * is empty, has anything after the number, or overflows. */
bool eng_parse_finite(const char *s, double *v);
/* Decimal text of v that reads back to exactly v: the bytes of "%.15g"
 * where that reads back to v, else of "%.17g"; integral values below 2^53
 * as "%lld". buf needs 32 bytes. Written without printf for integers and
 * for 1e-4 <= |v| < 1e15 (eng_fmt.c), byte-identical to the library's. */
const char *eng_fmt_double(char *buf, size_t len, double v);

/* The bytes of "%lld" of v; buf needs 21 bytes. Returns buf. */
const char *eng_fmt_int(char *buf, size_t len, long long v);

#endif
