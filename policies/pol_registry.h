/* pol_registry.h — the table of every policy: lookup by name, the list,
 * the names for messages, and the trial of option values.
 *
 * Linked by the command line and the tests only; the engine never calls
 * it (it receives the chosen `const pol_type *`), so linking the engine
 * does not link every policy and, through `sa`, gpu/. Adding a policy is
 * one line in the table of pol_registry.c.
 */
#ifndef POL_REGISTRY_H
#define POL_REGISTRY_H

#include "eng_policy.h"

#include <stddef.h>

/* Looks up a policy by name; NULL if unknown. */
const pol_type *pol_find(const char *name);

/* All registered policies, in registry order. */
const pol_type *const *pol_list(size_t *n);

/* "fcfs, easy, conservative": the registered names, for messages; the
 * whole list however long the names are (built once on the heap; a
 * fixed text saying so if that allocation fails). */
const char *pol_names(void);

/* Writes the names of list[0..n) as "a, b, c" into buf, at most len bytes
 * with the terminator (a longer text is cut; nothing is written when len
 * is 0, so buf may then be NULL), and returns the length of the whole
 * text without the terminator, as snprintf does. */
size_t pol_names_join(const pol_type *const *list, size_t n, char *buf, size_t len);

/* Checks option values the way a run would: the engine's check of the
 * keys and values against the declarations (pol_check_options), then
 * type's own init on a one-host stand-in pool (1 core, 1e9 flop/s, one
 * job, seed 1) with these options, then fini, for what init refuses
 * itself (a combination of options). A type without init (it is
 * optional, as for the engine) accepts every value its declarations do.
 * Returns 0, ENG_INVAL with a message naming the policy in err ("policy
 * easy: option backfill_order: expected queue or sjf, got 'lifo'"), what
 * else init returned (ENG_UNSUPPORTED...), or ENG_NOMEM when the state
 * cannot be allocated. err is "" when nothing was written. */
int pol_try_options(const pol_type *type, const pol_kv *options, size_t n, char *err,
                    size_t errlen);

#endif
