/* bl_proc.c — see bl_proc.h. */
#define _DEFAULT_SOURCE /* setenv, nanosleep in older headers */
#include "bl_proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double bl_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

pid_t bl_proc_start(const char *const *argv, const bl_proc_opts *o)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    if (chdir(BL_SOURCE_DIR) != 0)
        _exit(126);
    if (o && o->own_group)
        setpgid(0, 0);
    for (const char *const *e = o && o->env ? o->env : NULL; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        setenv(name, eq + 1, 1);
    }
    int fd = open(o && o->log ? o->log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
    if (o && o->fsize_bytes > 0) {
        struct rlimit rl = {(rlim_t)o->fsize_bytes, (rlim_t)o->fsize_bytes};
        setrlimit(RLIMIT_FSIZE, &rl);
    }
    if (o && o->as_bytes > 0) {
        struct rlimit rl = {(rlim_t)o->as_bytes, (rlim_t)o->as_bytes};
        setrlimit(RLIMIT_AS, &rl);
    }
    /* a test runner killed (a CTest timeout) takes the command with it */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    /* the test runner's own signal dispositions are not the command's */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    execv(argv[0], (char *const *)argv);
    _exit(127);
}

int bl_proc_wait(pid_t pid, double timeout_s)
{
    double end = bl_now_s() + timeout_s;
    for (;;) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return st;
        if (r < 0 && errno != EINTR)
            return -1;
        if (bl_now_s() > end) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            return -1;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

/* Field 4 of /proc/PID/stat (the parent), and field 3 (the state). */
static bool proc_stat(pid_t pid, pid_t *ppid, char *state)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    long pp;
    if (!p || sscanf(p + 1, " %c %ld", state, &pp) != 2)
        return false;
    *ppid = (pid_t)pp;
    return true;
}

pid_t bl_proc_child(pid_t pid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t found = 0;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char *end;
        long p = strtol(e->d_name, &end, 10);
        pid_t ppid;
        char state;
        if (*end || p <= 0)
            continue;
        if (proc_stat((pid_t)p, &ppid, &state) && ppid == pid)
            found = (pid_t)p;
    }
    closedir(d);
    return found;
}

bool bl_proc_alive(pid_t pid)
{
    pid_t ppid;
    char state;
    return proc_stat(pid, &ppid, &state) && state != 'Z' && state != 'X';
}

size_t bl_dir_entries(const char *dir, char *names, size_t len)
{
    if (names && len)
        names[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n++;
        if (names && len) {
            size_t used = strlen(names);
            snprintf(names + used, len - used, "%s%s", used ? " " : "", e->d_name);
        }
    }
    closedir(d);
    return n;
}
