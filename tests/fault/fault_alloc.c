/* fault_alloc.c — an allocation hook for fault-injection tests: the
 * batchlab command line (tools/batchlab.c) linked with
 * -Wl,--wrap=malloc,--wrap=calloc,... so that every allocation made by
 * batchlab's own code (engine, policies, gpu, tools) goes through a counter
 * that can fail the k-th one, as libuv's and Lua's test suites do. Nothing
 * in the code base is edited: the linker redirects the calls of the
 * objects in this executable only (allocations made inside SimGrid, GSL or
 * libc are not counted).
 *
 * bl_fault_arm(K, MARK): from now on count allocations; the K-th (1-based)
 * returns NULL with errno ENOMEM, all others succeed; on that failure
 * "K PID\n" is appended to the file MARK (open/write only, no allocation),
 * so a test knows whether and where the hook fired. Until it is armed the
 * hook counts nothing: the static CUDA runtime's constructors allocate
 * before main() and do not expect to fail.
 *
 * The counter is per process and copied by fork(): a simulation child
 * counts on from its parent's count at the fork, so K may land in the
 * parent or in the child.
 *
 * Linked into batchlab_faulty (fault_main.c: the command line, armed from
 * BATCHLAB_FAIL_ALLOC and BATCHLAB_FAIL_MARK) and into the test runner,
 * whose sweep forks and arms it before calling the command line.
 */
#include "fault_alloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
int __real_vasprintf(char **out, const char *fmt, va_list ap);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);
int __wrap_vasprintf(char **out, const char *fmt, va_list ap);

static long fail_at = -1; /* -1: never */
static long count;
static int armed;
static char mark_path[1024];

void bl_fault_arm(long k, const char *mark)
{
    fail_at = k > 0 ? k : -1;
    count = 0;
    snprintf(mark_path, sizeof mark_path, "%s", mark ? mark : "");
    armed = 1;
}

static void write_mark(long k)
{
    const char *mark = mark_path;
    if (!mark[0])
        return;
    int fd = open(mark, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0)
        return;
    char line[64];
    int n = snprintf(line, sizeof line, "%ld %ld\n", k, (long)getpid());
    if (n > 0 && write(fd, line, (size_t)n) < 0)
        n = 0;
    close(fd);
}

/* True when this allocation is the one to fail. */
static int should_fail(void)
{
    if (!armed)
        return 0;
    if (++count != fail_at)
        return 0;
    write_mark(count);
    errno = ENOMEM;
    return 1;
}

void *__wrap_malloc(size_t size)
{
    return should_fail() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return should_fail() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
    return should_fail() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
    return should_fail() ? NULL : __real_strdup(s);
}

char *__wrap_strndup(const char *s, size_t n)
{
    return should_fail() ? NULL : __real_strndup(s, n);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
    if (should_fail()) {
        *out = NULL;
        return -1;
    }
    return __real_vasprintf(out, fmt, ap);
}
