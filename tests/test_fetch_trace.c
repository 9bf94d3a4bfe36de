/* test_fetch_trace.c — tools/fetch-trace, a shell script, driven through
 * the shell (its own suite, named after the script, as the CUnit suites are
 * named after their source files): the table (--list, KIT-FH2-2016-1
 * first), --from with the archive's KTH-SP2 and SDSC-SP2 logs (verified
 * against the table's checksums, stored atomically, found again), a damaged
 * or foreign file refused with nothing left behind, a log without a known
 * checksum stored with the warning, an unreachable archive (a refused local
 * port) explained with a pointer to --from, usage errors. The cases that
 * need an archive log print a note and check nothing where it is absent.
 * No case needs the network. */
#include "bl_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs tools/fetch-trace ARGS; returns its exit status, output in *out. */
static int fetch(char **out, const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s", bl_src("tools/fetch-trace"), args);
    return bl_system(cmd, out);
}

/* The number of entries in dir (hidden ones too). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void test_list_and_usage(void)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, "--list"), 0);
    /* The header, then the mission's log first. */
    const char *second = out ? strchr(out, '\n') : NULL;
    CU_ASSERT_TRUE(second && strncmp(second + 1, "KIT-FH2-2016-1 ", 15) == 0);
    CU_ASSERT_TRUE(bl_contains(out,
                               "KTH-SP2-1996-2.1-cln            2620495  "
                               "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87"));
    CU_ASSERT_TRUE(bl_contains(out,
                               "SDSC-SP2-1998-4.2-cln           5601165  "
                               "2bb635f4b5793f52bd49ccb8fd913d95f9c5be6346925162cadcaf0117e28cf2"));
    CU_ASSERT_TRUE(bl_contains(out, "CTC-SP2-1996-3.1-cln"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, "NO-SUCH-LOG"), 2);
    CU_ASSERT_TRUE(bl_contains(out, "unknown log 'NO-SUCH-LOG'"));
    CU_ASSERT_TRUE(bl_contains(out, "    KIT-FH2-2016-1\n"));
    free(out);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, ""), 2);
    CU_ASSERT_TRUE(bl_contains(out, "usage: tools/fetch-trace"));
    free(out);
    CU_ASSERT_EQUAL(fetch(NULL, "--bogus KIT-FH2-2016-1"), 2);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, "--help"), 0);
    CU_ASSERT_TRUE(bl_contains(out, "--from FILE"));
    free(out);
}

static void test_from_archive_logs(void)
{
    const char *kth = bl_trace("KTH-SP2-1996-2.1-cln.swf");
    const char *sdsc = bl_trace("SDSC-SP2-1998-4.2-cln.swf.gz");
    if (!kth || !sdsc) {
        bl_skip_case("the archive logs are absent from %s: --from not checked", bl_traces_dir());
        return;
    }
    const char *dir = bl_tmpdir();
    char args[2048], path[800];
    char *out = NULL;
    /* A plain log stays plain; the name may carry its extension. */
    snprintf(args, sizeof args, "--dir '%s' --from '%s' KTH-SP2-1996-2.1-cln.swf", dir, kth);
    CU_ASSERT_EQUAL(fetch(&out, args), 0);
    CU_ASSERT_TRUE(bl_contains(out,
                               "KTH-SP2-1996-2.1-cln: 2620495 bytes of log text, SHA-256 "
                               "fba36494c4e4257f72182e8b629ebb0bcb054b3b82851ef957445bd627adcc87: "
                               "verified"));
    free(out);
    snprintf(path, sizeof path, "%s/KTH-SP2-1996-2.1-cln.swf", dir);
    snprintf(args, sizeof args, "cmp '%s' '%s'", kth, path);
    CU_ASSERT_EQUAL(bl_system(args, NULL), 0);
    /* A gzip log stays gzip. */
    snprintf(args, sizeof args, "--dir '%s' --from '%s' SDSC-SP2-1998-4.2-cln", dir, sdsc);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 0);
    CU_ASSERT_TRUE(bl_contains(out, "SDSC-SP2-1998-4.2-cln.swf.gz: stored"));
    CU_ASSERT_TRUE(bl_contains(out, ": verified"));
    free(out);
    CU_ASSERT_EQUAL(entries(dir), 2); /* the two logs, no temporary file */
    /* Present already: verified again, nothing fetched. */
    snprintf(args, sizeof args, "--dir '%s' KTH-SP2-1996-2.1-cln", dir);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 0);
    CU_ASSERT_TRUE(bl_contains(out, "already present"));
    free(out);
    /* The stored log replays. */
    out = NULL;
    CU_ASSERT_EQUAL(bl_run(&out, "info --workload '%s'", path), 0);
    free(out);

    /* The wrong file under a known name: a checksum mismatch, nothing
     * stored. */
    const char *d2 = bl_tmpdir();
    snprintf(args, sizeof args, "--dir '%s' --from '%s' KTH-SP2-1996-2.1-cln", d2, sdsc);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "checksum mismatch for KTH-SP2-1996-2.1-cln"));
    CU_ASSERT_TRUE(bl_contains(out, "found    5601165 bytes"));
    free(out);
    CU_ASSERT_EQUAL(entries(d2), 0);
    /* A truncated gzip file. */
    snprintf(args, sizeof args, "head -c 100000 '%s' > '%s/cut.gz'", sdsc, dir);
    CU_ASSERT_EQUAL_FATAL(bl_system(args, NULL), 0);
    snprintf(args, sizeof args, "--dir '%s' --from '%s/cut.gz' SDSC-SP2-1998-4.2-cln", d2, dir);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "cut.gz: a damaged or truncated gzip file"));
    free(out);
    CU_ASSERT_EQUAL(entries(d2), 0);
    /* One digit more on one line of the text. */
    snprintf(args, sizeof args,
             "awk 'NR == 1000 { sub(/[0-9]+$/, \"&0\") } 1' '%s' > '%s/edited.swf'", kth, dir);
    CU_ASSERT_EQUAL_FATAL(bl_system(args, NULL), 0);
    snprintf(args, sizeof args, "--dir '%s' --from '%s/edited.swf' KTH-SP2-1996-2.1-cln", d2, dir);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "checksum mismatch"));
    free(out);
    CU_ASSERT_EQUAL(entries(d2), 0);

    /* A log without a known checksum: stored, with the warning. */
    snprintf(args, sizeof args, "--dir '%s' --from '%s' KIT-FH2-2016-1", d2, sdsc);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 0);
    CU_ASSERT_TRUE(bl_contains(out,
                               "KIT-FH2-2016-1: 5601165 bytes of log text, SHA-256 "
                               "2bb635f4b5793f52bd49ccb8fd913d95f9c5be6346925162cadcaf0117e28cf2 "
                               "-- NOT verified against a known value"));
    free(out);
    snprintf(path, sizeof path, "%s/KIT-FH2-2016-1.swf.gz", d2);
    CU_ASSERT_EQUAL(access(path, R_OK), 0);
}

static void test_not_a_log_and_no_network(void)
{
    const char *dir = bl_tmpdir();
    const char *junk = bl_write_tmp("junk.swf", "; a header\nnot an swf line\n");
    char args[2048];
    snprintf(args, sizeof args, "--dir '%s/t' --from '%s' CTC-SP2-1996-3.1-cln", dir, junk);
    char *out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "expected an SWF log (18 fields per job line), found 4"));
    free(out);
    snprintf(args, sizeof args, "%s/t", dir);
    CU_ASSERT_EQUAL(entries(args), 0);
    snprintf(args, sizeof args, "--dir '%s/t' --from /no/such.swf CTC-SP2-1996-3.1-cln", dir);
    out = NULL;
    CU_ASSERT_EQUAL(fetch(&out, args), 1);
    CU_ASSERT_TRUE(bl_contains(out, "--from /no/such.swf: cannot read the file"));
    free(out);

    if (bl_system("command -v curl || command -v wget", NULL) != 0) {
        printf("\n  neither curl nor wget: the download path not checked ");
        return;
    }
    /* An archive that cannot be reached (a refused local port). */
    snprintf(args, sizeof args, "--dir '%s/t' KIT-FH2-2016-1", dir);
    char cmd[2600];
    snprintf(cmd, sizeof cmd, "BATCHLAB_PWA_URL=http://127.0.0.1:9 '%s' %s",
             bl_src("tools/fetch-trace"), args);
    out = NULL;
    CU_ASSERT_EQUAL(bl_system(cmd, &out), 1);
    CU_ASSERT_TRUE(bl_contains(out, "cannot download http://127.0.0.1:9/l_kit_fh2/"
                                    "KIT-FH2-2016-1.swf.gz"));
    CU_ASSERT_TRUE(bl_contains(out, "The network is closed or the archive is unreachable"));
    CU_ASSERT_TRUE(bl_contains(out, "tools/fetch-trace --from FILE KIT-FH2-2016-1"));
    free(out);
    snprintf(args, sizeof args, "%s/t", dir);
    CU_ASSERT_EQUAL(entries(args), 0);
}

int bl_suite_fetch_trace(void)
{
    CU_pSuite s = CU_add_suite("fetch_trace", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "--list and usage", test_list_and_usage);
    CU_add_test(s, "--from the archive logs: verified, atomic", test_from_archive_logs);
    CU_add_test(s, "not a log; an unreachable archive", test_not_a_log_and_no_network);
    return 0;
}
