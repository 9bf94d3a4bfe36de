/* bl_proc.h — processes for the fault tests: start the built executables
 * with extra environment and resource limits, wait with a deadline, and
 * look at what is left (children, files).
 */
#ifndef BL_PROC_H
#define BL_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct bl_proc_opts {
    const char *const *env; /* extra "NAME=VALUE" entries, NULL-terminated, or NULL */
    const char *log;        /* stdout and stderr go to this file (NULL: /dev/null) */
    long long fsize_bytes;  /* RLIMIT_FSIZE, 0: unchanged */
    long long as_bytes;     /* RLIMIT_AS, 0: unchanged */
    bool own_group;         /* a process group of its own (its pid), as a shell's job */
} bl_proc_opts;

/* Starts argv[0] (a path) with argv in the source folder; returns its pid
 * or -1. */
pid_t bl_proc_start(const char *const *argv, const bl_proc_opts *o);

/* Waits up to timeout_s for pid; returns its raw wait status, or -1 after
 * killing it (SIGKILL) when the deadline passed. */
int bl_proc_wait(pid_t pid, double timeout_s);

/* The first child of pid found in /proc, or 0 if it has none. */
pid_t bl_proc_child(pid_t pid);

/* True while pid exists and is not a zombie. */
bool bl_proc_alive(pid_t pid);

/* Entries of a folder other than . and .. (0 when it does not exist); the
 * names, space-separated, into names when given. */
size_t bl_dir_entries(const char *dir, char *names, size_t len);

/* The number of seconds since an arbitrary start (CLOCK_MONOTONIC). */
double bl_now_s(void);

#endif
