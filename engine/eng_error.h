/* eng_error.h — error codes and diagnostics shared by every batchlab module.
 *
 * Functions that can fail return an int: 0 (ENG_OK) or one negative code from
 * the table below, and write a human-readable message into an eng_diag that
 * the caller owns. Messages about bad input name the file and line and say
 * what was expected ("trace.swf:12: field 5 (allocated processors): expected
 * an integer, got '3.5'"). Library code never exits or aborts on bad input;
 * only our own broken invariants are assertions.
 *
 * The table is one X-macro so the code, its name and its text cannot drift
 * apart (the libuv habit). ENG_USAGE is a choice of options that the input
 * rules out (a policy that does not plan with islands on a platform with
 * islands): the command line exits 2 for it, as for any usage error.
 */
#ifndef ENG_ERROR_H
#define ENG_ERROR_H

#include <stddef.h>

#define ENG_ERRORS(X)                                                                              \
    X(OK, 0, "success")                                                                            \
    X(NOMEM, -1, "out of memory")                                                                  \
    X(IO, -2, "input/output error")                                                                \
    X(PARSE, -3, "malformed input")                                                                \
    X(INVAL, -4, "invalid argument")                                                               \
    X(PLATFORM, -5, "invalid platform")                                                            \
    X(RANGE, -6, "value out of range")                                                             \
    X(INVARIANT, -7, "scheduling invariant violated")                                              \
    X(CHILD, -8, "simulation process failed")                                                      \
    X(POLICY, -9, "policy error")                                                                  \
    X(UNSUPPORTED, -10, "not supported")                                                           \
    X(USAGE, -11, "options that do not go together")

enum {
#define ENG_ERR_ENUM(name, code, text) ENG_##name = (code),
    ENG_ERRORS(ENG_ERR_ENUM)
#undef ENG_ERR_ENUM
};

/* Text and symbolic name ("ENG_PARSE") of a code; "unknown error" for others. */
const char *eng_strerror(int code);
const char *eng_errname(int code);

/* A diagnostic: the first failure's code and message. Caller's storage. */
typedef struct eng_diag {
    int code;
    char msg[1024];
} eng_diag;

/* Clears a diagnostic (code 0, empty message). NULL-safe. */
void eng_diag_clear(eng_diag *d);

/* Records code and a printf-style message unless one is already recorded
 * (the first failure is the one worth reporting). Returns code, so that
 * `return eng_diag_set(d, ENG_PARSE, "...")` reads naturally. d may be NULL. */
int eng_diag_set(eng_diag *d, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Prefixes the recorded message with a printf-style context ("run fcfs: ").
 * Returns the recorded code. */
int eng_diag_prefix(eng_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
