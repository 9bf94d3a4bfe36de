/* cli_csv.h — CSV as the command line reads and writes it: the reader of
 * `batchlab plot` (a run's jobs.csv and timeseries.csv, a sweep's
 * results.csv), which splits a line in place into its fields, RFC 4180
 * quotes included, finds a column by its header's name and reads a number
 * in full; and the cell writer of `sweep merge` and `plot --loads`. The
 * files batchlab writes have one record per line, so a reader takes a
 * line, chomps it and splits it.
 */
#ifndef BL_CLI_CSV_H
#define BL_CLI_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The most fields a line of the files read here has (jobs.csv: 29). */
#define BL_CSV_MAX_FIELDS 128

/* Splits a CSV line in place into fields[] (pointers into line; a quoted
 * field unquoted, "" read as "). Returns the field count; max + 1 when the
 * line has more than max fields (the caller reports it); -1 on an
 * unterminated quote. */
long bl_csv_split(char *line, char **fields, size_t max);

/* Removes the line end ("\n", "\r\n") of s in place. */
void bl_csv_chomp(char *s);

/* The index of the header field `name` among head[0..n), or -1. */
int bl_csv_column(char **head, long n, const char *name);

/* A finite number that is the whole of s (strtod's forms); false, with
 * *out untouched, otherwise. */
bool bl_csv_num(const char *s, double *out);

/* Writes v as one CSV cell (RFC 4180: quoted when it holds a comma, a quote
 * or a line end, quotes doubled); nothing for NULL. */
void bl_csv_cell(FILE *f, const char *v);

#endif
