/* pol_batsim_peer.h — the other end of the Batsim protocol: a scheduler
 * process and the ZeroMQ REQ socket that talks to it.
 *
 * Batsim's side of the protocol (protocol.rst of Batsim 4) is a REQ socket
 * connected to the scheduler's REP socket: one request, one reply, in
 * turn. This module carries the bytes; pol_batsim.c writes and reads the
 * JSON.
 *
 * The scheduler, when a command is given, is started here (/bin/sh -c
 * COMMAND, stdout sent to stderr so that the command's own output never
 * mixes with batchlab's) in a process group of its own, under a small
 * guardian process: the guardian holds the read end of a pipe whose write
 * end only this process holds, and when that pipe closes — at
 * pol_bs_peer_close, or because this process died in any way, SIGKILL
 * included — it sends SIGTERM to the scheduler's group, SIGKILL a second
 * later, and exits. No scheduler outlives the run. The guardian also
 * reports the scheduler's own exit through a second pipe, which the wait
 * for a reply watches beside the socket: a scheduler that dies is reported
 * at once, one that hangs when the deadline passes.
 *
 * Errors are returned as ENG_ codes with the words in err; nothing here
 * exits or prints.
 */
#ifndef POL_BATSIM_PEER_H
#define POL_BATSIM_PEER_H

#include <stddef.h>

typedef struct pol_bs_peer pol_bs_peer;

/* Starts command (NULL: the scheduler runs already, started by the user)
 * and connects a REQ socket to endpoint ("tcp://localhost:28000",
 * "ipc:///tmp/s.sock"); the connection completes when the scheduler
 * listens, so the first exchange waits for that too. *out is NULL on
 * failure. Returns 0, ENG_NOMEM, or ENG_IO (no socket, a bad endpoint, the
 * process not started) with err. */
int pol_bs_peer_open(const char *endpoint, const char *command, pol_bs_peer **out, char *err,
                     size_t errlen);

/* Sends msg (len bytes) and waits up to timeout_s seconds for the reply,
 * returned NUL-terminated in *reply (malloc'd, the caller frees; *reply_len
 * bytes without the NUL). Returns 0, ENG_NOMEM, ENG_IO (the socket failed),
 * or ENG_POLICY with err saying "the scheduler exited with status 3" or
 * "the scheduler sent no reply within 5 s". */
int pol_bs_peer_exchange(pol_bs_peer *p, const char *msg, size_t len, double timeout_s,
                         char **reply, size_t *reply_len, char *err, size_t errlen);

/* After the last exchange (SIMULATION_ENDS answered): waits up to grace_s
 * seconds for the scheduler it started to exit by itself, as Batsim's
 * schedulers do, before pol_bs_peer_close stops it. */
void pol_bs_peer_let_exit(pol_bs_peer *p, double grace_s);

/* Closes the socket and stops the scheduler it started (SIGTERM to its
 * group, SIGKILL after a second), waiting for the guardian. NULL-safe. */
void pol_bs_peer_close(pol_bs_peer *p);

#endif
