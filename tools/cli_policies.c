/* cli_policies.c — `batchlab policies [NAME | PATH.so] [--markdown]`: the
 * registered policies, their citations, capabilities (pol_type.flags) and
 * options; with NAME, that policy's options with their types, values and
 * defaults; NAME may be a policy library's path (PATH.so, pol_solib.h),
 * loaded and described as a registered policy is; with --markdown, the
 * options cells of README.md's Policies table. All of it comes from the
 * declarations (pol_option, described by the engine's pol_option_describe),
 * so nothing here can drift from what a run accepts.
 */
#include "cli.h"
#include "cli_args.h"
#include "cli_policy_spec.h"

#include "eng_error.h"
#include "pol_registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* What the policy supports, in the words `batchlab policies` prints: a
 * line for each entry whose flags the policy all carries. */
static const struct capability {
    unsigned flags;
    const char *words;
} capabilities[] = {
    {POL_FLAG_ISLANDS, "plans with islands (--islands strict)"},
    {POL_FLAG_REPLANS, "re-plans at every call (runs with --init-planned no)"},
    {POL_FLAG_CORES, "allocates cores (--alloc core)"},
    {POL_FLAG_EXTERNAL, "drives an external scheduler (--scheduler-socket, --scheduler-cmd)"},
    {POL_FLAG_BOOT_PLANS, "plans with boot delays (promises held under --suspend-time)"},
    {POL_FLAG_POWER_CAP, "plans within a power cap (--power-cap)"},
    {POL_FLAG_RESERVATIONS, "plans around reservations (--reservations)"},
    {POL_FLAG_TIME_LIMITS, "runs under limit windows (--reservations MaxTime=)"},
    {POL_FLAG_ISLANDS | POL_FLAG_CORES | POL_FLAG_ISLANDS_CORES,
     "plans with islands under --alloc core too"},
};

/* A policy's name, summary, citation and capabilities. */
static void policy_head(const pol_type *t)
{
    printf("%-14s %s\n%-14s (%s)\n", t->name, t->summary, "", t->citation);
    for (size_t i = 0; i < sizeof capabilities / sizeof capabilities[0]; i++)
        if ((t->flags & capabilities[i].flags) == capabilities[i].flags)
            printf("%-14s   %s\n", "", capabilities[i].words);
}

/* `policies NAME`: the head, then each option with what it accepts, its
 * default and what it does, from its declaration (pol_option). */
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
    for (const pol_option *o = t->options; o->key; o++) {
        char values[512], def[256];
        pol_option_describe(o, values, sizeof values, def, sizeof def);
        printf("  %-16s %s; default %s\n  %-16s %s\n", o->key, values, def, "", o->help);
    }
}

/* `policies --markdown`: each policy's options cell of README.md's
 * Policies table, one line per policy: "| `easy` | `backfill_order=queue`,
 * `predictor=requested` |", an option without a value for its default
 * followed by what its absence means. tests/test_cli_policies.c compares
 * the README's rows with these lines. */
static void policy_markdown(const pol_type *t)
{
    printf("| `%s` | ", t->name);
    if (!t->options || !t->options[0].key)
        printf("none");
    for (const pol_option *o = t->options; o && o->key; o++) {
        char values[512], def[256];
        pol_option_describe(o, values, sizeof values, def, sizeof def);
        if (def[0] == '(')
            printf("%s`%s` %s", o == t->options ? "" : ", ", o->key, def);
        else
            printf("%s`%s=%s`", o == t->options ? "" : ", ", o->key, def);
    }
    printf(" |\n");
}

int bl_cmd_policies(int argc, char **argv)
{
    /* an optional NAME first, then options */
    const char *name = argc > 1 && argv[1][0] != '-' ? argv[1] : NULL;
    static const bl_opt opts[] = {
        {"markdown", 0, BL_FLAG, NULL, "each policy's options as README.md's table shows them"}};
    bl_args a;
    int rc = bl_args_parse("policies", opts, BL_N_OPTS(opts), argc, argv, name ? 2 : 1, &a);
    if (rc)
        return rc;
    bool help = a.help;
    bool markdown = bl_args_flag(&a, "markdown");
    bl_args_fini(&a);
    if (help) {
        printf("usage: batchlab policies [NAME | PATH.so] [--markdown]\n\nLists the registered "
               "policies, their citations, what they support and their\noptions; with NAME, "
               "that policy's options with their types, values and defaults;\nwith PATH.so, "
               "those of the policy that library holds; with --markdown, each\npolicy's options "
               "and defaults as README.md's Policies table shows them.\n");
        return 0;
    }
    if (markdown && name) {
        fprintf(stderr, "batchlab policies: --markdown lists every policy: no NAME\n");
        return 2;
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
        if (markdown) {
            policy_markdown(list[i]);
            continue;
        }
        policy_head(list[i]);
        for (const pol_option *o = list[i]->options; o && o->key; o++) {
            char values[512], def[256];
            pol_option_describe(o, values, sizeof values, def, sizeof def);
            printf("%-14s   option %s (%s; default %s): %s\n", "", o->key, values, def, o->help);
        }
    }
    return 0;
}
