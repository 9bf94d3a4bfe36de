/* cli_args.h — command-line options for batchlab's commands: one table per
 * command gives the parser and the --help text, so they cannot disagree.
 *
 * Accepted forms: "--name value", "--name=value", "-o value" for options
 * with a short name, and flags without a value. Anything unknown is a
 * usage error naming the command and the option.
 */
#ifndef BL_CLI_ARGS_H
#define BL_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum bl_opt_kind {
    BL_FLAG,  /* --check */
    BL_VALUE, /* --platform FILE (the last one given wins) */
    BL_MULTI, /* --policy-opt k=v, repeatable */
} bl_opt_kind;

/* The number of entries of an option table (or of any array). */
#define BL_N_OPTS(t) (sizeof(t) / sizeof((t)[0]))

typedef struct bl_opt {
    const char *name; /* long name without "--" */
    char short_name;  /* 0 for none */
    bl_opt_kind kind;
    const char *metavar; /* "FILE" */
    const char *help;
} bl_opt;

typedef struct bl_arg {
    bool set;
    const char *value;   /* BL_VALUE */
    const char **values; /* BL_MULTI */
    size_t n_values;
} bl_arg;

typedef struct bl_args {
    const bl_opt *opts;
    size_t n_opts;
    bl_arg *arg; /* parallel to opts */
    bool help;
} bl_args;

/* The stream the parsers below print their messages to: stderr, unless
 * set (a sweep checks its run_args with messages caught in a buffer).
 * bl_args_set_errors returns the previous stream (NULL: stderr). */
FILE *bl_args_set_errors(FILE *f);
FILE *bl_args_errors(void);

/* The program the messages and usage lines name: "batchlab" unless set (the
 * studies' program, bench/studies, sets "batchlab-study"). The name is
 * borrowed. */
void bl_args_set_program(const char *name);
const char *bl_args_program(void);

/* Parses argv[first..argc). Returns 0, or 2 (1 when memory runs out) after
 * printing "batchlab CMD: ..." to stderr (the program's name, see above). Free with bl_args_fini. */
int bl_args_parse(const char *cmd, const bl_opt *opts, size_t n_opts, int argc, char **argv,
                  int first, bl_args *out);
void bl_args_fini(bl_args *a);

/* The parsed option by long name (asserts that it is in the table). */
const bl_arg *bl_args_get(const bl_args *a, const char *name);
const char *bl_args_value(const bl_args *a, const char *name, const char *def);
bool bl_args_flag(const bl_args *a, const char *name);

/* Prints "usage: batchlab CMD SYNOPSIS\n\nDESCRIPTION\n\noptions:\n..." */
void bl_args_usage(const char *cmd, const char *synopsis, const char *description,
                   const bl_opt *opts, size_t n_opts);

/* Checks that value is one of a |-separated list ("kill|extend"); prints
 * "batchlab CMD: --NAME: expected kill or extend, got 'x'" and returns 2. */
int bl_args_choice(const char *cmd, const char *name, const char *value, const char *choices,
                   int *index);

/* Parses an unsigned 64-bit integer option; 2 with a message on error. */
int bl_args_u64(const char *cmd, const char *name, const char *value, unsigned long long *out);

/* The integer option NAME of a parsed table, in [lo, hi], into *out, which
 * is left as it is when the option is absent (set the default first).
 * 0, or 2 after "batchlab CMD: --NAME: expected a non-negative integer, got
 * 'x'" or "... expected LO..HI, got 'x'". */
int bl_args_int(const char *cmd, const bl_args *a, const char *name, unsigned long long lo,
                unsigned long long hi, unsigned long long *out);

/* Parses a double option (finite); 2 with a message on error. */
int bl_args_double(const char *cmd, const char *name, const char *value, double *out);

/* The plural ending of a count in a message: "%zu job%s", n, bl_s(n)
 * reads "1 job" and "2 jobs". */
static inline const char *bl_s(unsigned long long n)
{
    return n == 1 ? "" : "s";
}

#endif
