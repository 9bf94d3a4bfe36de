/* pol_batsim_peer.c — see pol_batsim_peer.h.
 *
 * Processes: this process P forks the guardian G; G forks the scheduler S,
 * which makes its own process group and runs /bin/sh -c COMMAND. G ignores
 * the stop signals (a ^C reaches the whole foreground group, G included:
 * G must outlive P's cleanup, not race it) and loops on two things: the
 * control pipe from P (readable at EOF: P closed it or died) and S's exit
 * (waitpid WNOHANG every 50 ms), which it writes to the status pipe as
 * the raw wait status. At the control pipe's EOF it stops S's group and
 * exits. Between fork and exec only async-signal-safe calls are made, as
 * SimGrid may run threads in P.
 */
#define _GNU_SOURCE /* pipe2 */
#include "batsim/pol_batsim_peer.h"

#include "eng_error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

struct pol_bs_peer {
    void *ctx, *sock;
    pid_t guardian; /* 0: no scheduler started here */
    int ctl_w;      /* control pipe, write end (-1: none) */
    int status_r;   /* S's wait status from the guardian (-1: none) */
    bool exited;    /* S's status has been read */
    int status;
};

static void nap_ms(long ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* The guardian's life (see the top). Never returns. */
static void guardian(const char *command, int ctl_r, int status_w)
{
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    pid_t s = fork();
    if (s == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        signal(SIGXFSZ, SIG_DFL);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    if (s < 0) {
        int status = 127 << 8;
        (void)!write(status_w, &status, sizeof status);
        _exit(1);
    }
    setpgid(s, s); /* either side may win the race; both set the same group */
    int status = 0;
    bool done = false;
    for (;;) {
        struct pollfd pf = {.fd = ctl_r, .events = POLLIN};
        int r = poll(&pf, 1, done ? -1 : 50);
        if (r > 0)
            break; /* EOF: P closed the pipe or died */
        if (!done && waitpid(s, &status, WNOHANG) == s) {
            done = true;
            (void)!write(status_w, &status, sizeof status);
        }
    }
    kill(-s, SIGTERM);
    for (int i = 0; i < 20 && !done; i++) {
        if (waitpid(s, &status, WNOHANG) == s)
            done = true;
        else
            nap_ms(50);
    }
    kill(-s, SIGKILL);
    if (!done)
        waitpid(s, &status, 0);
    _exit(0);
}

static int start(pol_bs_peer *p, const char *command, char *err, size_t errlen)
{
    int ctl[2], st[2];
    if (pipe2(ctl, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
        return ENG_IO;
    }
    if (pipe2(st, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
        close(ctl[0]);
        close(ctl[1]);
        return ENG_IO;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t g = fork();
    if (g < 0) {
        snprintf(err, errlen, "cannot start the scheduler '%s': %s", command, strerror(errno));
        close(ctl[0]);
        close(ctl[1]);
        close(st[0]);
        close(st[1]);
        return ENG_IO;
    }
    if (g == 0) {
        close(ctl[1]);
        close(st[0]);
        guardian(command, ctl[0], st[1]);
    }
    close(ctl[0]);
    close(st[1]);
    p->guardian = g;
    p->ctl_w = ctl[1];
    p->status_r = st[0];
    return ENG_OK;
}

int pol_bs_peer_open(const char *endpoint, const char *command, pol_bs_peer **out, char *err,
                     size_t errlen)
{
    *out = NULL;
    pol_bs_peer *p = calloc(1, sizeof *p);
    if (!p)
        return ENG_NOMEM;
    p->ctl_w = p->status_r = -1;
    int rc = command ? start(p, command, err, errlen) : ENG_OK;
    if (rc) {
        free(p);
        return rc;
    }
    /* the context after the fork: the guardian carries none of its threads */
    p->ctx = zmq_ctx_new();
    p->sock = p->ctx ? zmq_socket(p->ctx, ZMQ_REQ) : NULL;
    int linger = 0;
    if (!p->sock || zmq_setsockopt(p->sock, ZMQ_LINGER, &linger, sizeof linger) != 0) {
        snprintf(err, errlen, "cannot create a ZeroMQ socket: %s", zmq_strerror(zmq_errno()));
        pol_bs_peer_close(p);
        return ENG_IO;
    }
    if (zmq_connect(p->sock, endpoint) != 0) {
        snprintf(err, errlen, "cannot connect to the scheduler at '%s': %s", endpoint,
                 zmq_strerror(zmq_errno()));
        pol_bs_peer_close(p);
        return ENG_IO;
    }
    *out = p;
    return ENG_OK;
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "exited with status 3", "was killed by signal 9 (Killed)". */
static void describe_exit(int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "stopped (wait status %d)", status);
}

int pol_bs_peer_exchange(pol_bs_peer *p, const char *msg, size_t len, double timeout_s,
                         char **reply, size_t *reply_len, char *err, size_t errlen)
{
    *reply = NULL;
    *reply_len = 0;
    char why[128];
    if (p->exited) {
        describe_exit(p->status, why, sizeof why);
        snprintf(err, errlen, "the scheduler %s", why);
        return ENG_POLICY;
    }
    double deadline = mono_now() + timeout_s;
    /* REQ sends queue at once (the pipe exists from zmq_connect on); the
     * wait below covers a scheduler that never listens. */
    while (zmq_send(p->sock, msg, len, 0) < 0) {
        if (zmq_errno() == EINTR)
            continue;
        snprintf(err, errlen, "cannot send to the scheduler: %s", zmq_strerror(zmq_errno()));
        return ENG_IO;
    }
    for (;;) {
        zmq_pollitem_t items[2] = {{.socket = p->sock, .events = ZMQ_POLLIN},
                                   {.fd = p->status_r, .events = ZMQ_POLLIN}};
        int n_items = p->status_r >= 0 ? 2 : 1;
        double left = deadline - mono_now();
        if (left <= 0) {
            snprintf(err, errlen, "the scheduler sent no reply within %g s (--scheduler-timeout)",
                     timeout_s);
            return ENG_POLICY;
        }
        int r = zmq_poll(items, n_items, (long)(left * 1000) + 1);
        if (r < 0) {
            if (zmq_errno() == EINTR)
                continue;
            snprintf(err, errlen, "cannot wait for the scheduler: %s", zmq_strerror(zmq_errno()));
            return ENG_IO;
        }
        if (items[0].revents & ZMQ_POLLIN)
            break;
        if (n_items == 2 && (items[1].revents & (ZMQ_POLLIN | ZMQ_POLLERR))) {
            int status = 0;
            ssize_t got = read(p->status_r, &status, sizeof status);
            p->exited = true;
            p->status = got == (ssize_t)sizeof status ? status : 0;
            if (got == (ssize_t)sizeof status)
                describe_exit(status, why, sizeof why);
            else
                snprintf(why, sizeof why, "stopped: its guardian process is gone");
            snprintf(err, errlen, "the scheduler %s before it replied", why);
            return ENG_POLICY;
        }
    }
    zmq_msg_t m;
    zmq_msg_init(&m);
    while (zmq_msg_recv(&m, p->sock, 0) < 0) {
        if (zmq_errno() == EINTR)
            continue;
        zmq_msg_close(&m);
        snprintf(err, errlen, "cannot receive from the scheduler: %s", zmq_strerror(zmq_errno()));
        return ENG_IO;
    }
    size_t n = zmq_msg_size(&m);
    char *text = malloc(n + 1);
    if (!text) {
        zmq_msg_close(&m);
        return ENG_NOMEM;
    }
    if (n) /* an empty message's data may be NULL */
        memcpy(text, zmq_msg_data(&m), n);
    text[n] = '\0';
    zmq_msg_close(&m);
    *reply = text;
    *reply_len = n;
    return ENG_OK;
}

void pol_bs_peer_let_exit(pol_bs_peer *p, double grace_s)
{
    if (!p || p->status_r < 0 || p->exited)
        return;
    struct pollfd pf = {.fd = p->status_r, .events = POLLIN};
    double deadline = mono_now() + grace_s;
    for (;;) {
        double left = deadline - mono_now();
        if (left <= 0)
            return;
        int r = poll(&pf, 1, (int)(left * 1000) + 1);
        if (r > 0) {
            int status = 0;
            p->exited = read(p->status_r, &status, sizeof status) == (ssize_t)sizeof status;
            p->status = status;
            return;
        }
        if (r < 0 && errno != EINTR)
            return;
    }
}

void pol_bs_peer_close(pol_bs_peer *p)
{
    if (!p)
        return;
    if (p->sock)
        zmq_close(p->sock);
    if (p->ctx)
        zmq_ctx_term(p->ctx);
    if (p->ctl_w >= 0)
        close(p->ctl_w); /* the guardian stops the scheduler's group */
    if (p->status_r >= 0)
        close(p->status_r);
    if (p->guardian > 0)
        while (waitpid(p->guardian, NULL, 0) < 0 && errno == EINTR)
            ;
    free(p);
}
