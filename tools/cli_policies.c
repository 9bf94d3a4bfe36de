/* cli_policies.c — `batchlab policies [NAME]`: the registered policies,
 * their citations and options; with NAME, that policy's options with their
 * values and defaults, as declared next to their keys (pol_option). NAME
 * may be a policy library's path (PATH.so, pol_solib.h), loaded and
 * described as a registered policy is.
 */
#include "cli.h"
#include "cli_args.h"
#include "cli_policy_spec.h"

#include "eng_error.h"
#include "pol_registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A policy's name, summary, citation and flags. */
static void policy_head(const pol_type *t)
{
    printf("%-14s %s\n%-14s (%s)\n", t->name, t->summary, "", t->citation);
    if (t->flags & POL_FLAG_ISLANDS)
        printf("%-14s   plans with islands (--islands strict)\n", "");
    if (t->flags & POL_FLAG_REPLANS)
        printf("%-14s   re-plans at every call (runs with --init-planned no)\n", "");
}

/* `policies NAME`: the head, then each option with what it accepts, its
 * default and what it does, as declared next to its key (pol_option). */
static void policy_detail(const char *name, const pol_type *t, const pol_solib *lib)
{
    policy_head(t);
    if (lib)
        printf("%-14s   library %s (policy interface version %u, sha256 %s)\n", "", lib->path,
               (unsigned)POL_INTERFACE_VERSION, lib->sha256);
    if (!t->options || !t->options[0].key) {
        printf("\noptions: none\n");
        return;
    }
    printf("\noptions (--policy %s:KEY=VALUE:... or --policy-opt KEY=VALUE; values, default):\n",
           name);
    for (const pol_option *o = t->options; o->key; o++)
        printf("  %-16s %s; default %s\n  %-16s %s\n", o->key, o->values, o->def, "", o->help);
}

int bl_cmd_policies(int argc, char **argv)
{
    /* an optional NAME first, then options */
    const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    bl_args a;
    int rc = bl_args_parse("policies", NULL, 0, argc, argv, name ? 2 : 1, &a);
    if (rc)
        return rc;
    bool help = a.help;
    bl_args_fini(&a);
    if (help) {
        printf("usage: batchlab policies [NAME | PATH.so]\n\nLists the registered policies, "
               "their citations and options; with NAME, that policy's\noptions with their values "
               "and defaults; with PATH.so, those of the policy that library\nholds.\n");
        return 0;
    }
    if (name) {
        const pol_type *t;
        const pol_solib *lib;
        char err[600];
        rc = bl_policy_lookup(name, &t, &lib, err, sizeof err);
        if (rc != ENG_OK) {
            fprintf(stderr, "batchlab policies: %s\n", rc == ENG_NOMEM ? "out of memory" : err);
            return rc == ENG_NOMEM ? 1 : 2;
        }
        policy_detail(name, t, lib);
        return 0;
    }
    size_t n;
    const pol_type *const *list = pol_list(&n);
    for (size_t i = 0; i < n; i++) {
        policy_head(list[i]);
        for (const pol_option *o = list[i]->options; o && o->key; o++)
            printf("%-14s   option %s (%s; default %s): %s\n", "", o->key, o->values, o->def,
                   o->help);
    }
    return 0;
}
