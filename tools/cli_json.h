/* cli_json.h — what the command line reads back from its own JSON
 * outputs: a summary.json flattened into dotted keys. Used by `sweep
 * merge` and `plot` (their CSV files: cli_csv.h).
 *
 * Ownership: a bl_json_flat owns its strings; free with bl_json_flat_fini.
 * Errors: 0 (ENG_OK) or a negative eng_error code with "PATH:LINE:COLUMN:
 * ..." in the eng_diag.
 */
#ifndef BL_CLI_JSON_H
#define BL_CLI_JSON_H

#include "eng_error.h"

#include <stdbool.h>
#include <stddef.h>

/* Every scalar of a JSON object under its dotted path ("metrics.wait_mean_s",
 * "platform.pools.0.label"), parsed by Jansson: strings unescaped, with
 * their length (a "\u0000" inside one is kept, see bl_json_flat_getn), integers in
 * decimal, other numbers in the shortest form that reads back the same
 * double (eng_fmt_double: the form batchlab writes them in), true, false
 * and null as words. Duplicate keys, -inf, nan and anything else that is
 * not JSON are errors naming "PATH:LINE:COLUMN". values[i] is NUL-terminated
 * and holds lens[i] bytes. */
typedef struct bl_json_flat {
    char **keys;
    char **values;
    size_t *lens;
    bool *is_string;
    size_t n;
} bl_json_flat;

int bl_json_flat_read(const char *path, bl_json_flat *j, eng_diag *d);
/* Parses text (named path in messages). */
int bl_json_flat_parse(const char *path, const char *text, bl_json_flat *j, eng_diag *d);
/* The value of key as a C string; NULL when the key is missing, or when its
 * string holds U+0000 (never a string cut short: read it with getn). */
const char *bl_json_flat_get(const bl_json_flat *j, const char *key);
/* The value of key and its length in bytes (*len), U+0000 included; NULL
 * when the key is missing. */
const char *bl_json_flat_getn(const bl_json_flat *j, const char *key, size_t *len);
void bl_json_flat_fini(bl_json_flat *j);

#endif
