/* eng_json.h — every JSON file batchlab writes is a Jansson tree (libjansson)
 * written by one helper, so that escaping, numbers and layout are the same
 * everywhere and nothing half-written is left behind.
 *
 * Layout: two-space indentation, keys in the order they were set, one key
 * or array element per line, a final newline.
 *
 * Strings: Jansson escapes '"', '\\', every control character (U+0000 to
 * U+001F: "\n", "\t", "\u0001"...) and U+0000 inside a counted string
 * (eng_json_strn). Jansson accepts only UTF-8: a string that is not valid
 * UTF-8 (a file name in Latin-1) is written with each byte from 0x80 up
 * replaced by '?', rather than as a file no JSON reader accepts.
 *
 * Numbers (eng_json_num): a non-finite value (NaN, +-inf: "not measured",
 * "no job") is written as null; an integral value within +-2^53 as an
 * integer without a fraction ("12107"); any other value in the shortest
 * decimal form that reads back to exactly the same double (eng_fmt_double:
 * "%.15g", else "%.17g"; "59.85", "0.72242406171965268", "1e+300"), the
 * form batchlab prints numbers in everywhere. Jansson prints every real at
 * one fixed precision, 17 digits here so that it is exact ("59.85" would
 * read "59.850000000000001"); eng_json_dumpf rewrites each real of its text
 * in the shortest form (strings, which Jansson has escaped, are skipped).
 *
 * Building a tree: eng_json_set/eng_json_push take ownership of the value
 * (a NULL value, a NULL container or no memory clears *ok instead), so a
 * builder sets every field and checks ok once at the end.
 *
 * Errors: ENG_NOMEM, ENG_IO ("PATH: cannot write: REASON").
 */
#ifndef ENG_JSON_H
#define ENG_JSON_H

#include "eng_error.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The dump flags of every file: indentation 2, reals with 17 digits (then
 * shortened, see above). */
#define ENG_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER)

/* null, an integer or a real, as described above. NULL when out of memory. */
json_t *eng_json_num(double v);

/* A string value: s as text ("" for NULL), or the n bytes at s (U+0000
 * included). NULL when out of memory. */
json_t *eng_json_str(const char *s);
json_t *eng_json_strn(const char *s, size_t n);

/* obj[key] = v and arr[] += v, taking v (freed on failure); a failure
 * clears *ok and is otherwise silent. */
void eng_json_set(json_t *obj, const char *key, json_t *v, bool *ok);
void eng_json_push(json_t *arr, json_t *v, bool *ok);

/* Writes root and a newline to f. ENG_IO when a write fails (errno holds
 * the cause), ENG_NOMEM when Jansson runs out of memory. */
int eng_json_dumpf(const json_t *root, FILE *f);

/* Writes root to path atomically (eng_afile: a temporary file in the same
 * folder, renamed over path once complete); on failure path is untouched.
 * root is borrowed. */
int eng_json_write(const char *path, const json_t *root, eng_diag *d);

#endif
