/* test_cli_report_browser.c — the page of `batchlab report` opened in a
 * real browser: Debian's chromium, headless (skipped, exit 77, where it
 * is not installed; tools/setup does not install it).
 *
 * The page of the hand-made compare folder (bl_report_fixture.h) is
 * loaded from a file: --dump-dom gives the document as the browser built
 * it, which must hold every table and all five figures as SVG elements
 * (an SVG that did not parse would not be there); --enable-logging=stderr
 * --v=0 prints each console message as a line with ":CONSOLE", of which
 * there must be none. That this check sees a console error at all is
 * tested first, on a page that writes one. --screenshot draws the first
 * screen into a PNG. (bl_system adds 2>&1 to a command line: the browser's
 * redirections are in a subshell of their own.) Each run has its own profile folder, so that runs
 * side by side do not share one. */
#include "bl_report_fixture.h"
#include "bl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *chromium(void)
{
    static const char *const names[] = {"chromium", "chromium-browser"};
    for (size_t i = 0; i < 2; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "command -v %s >/dev/null", names[i]);
        if (bl_system(cmd, NULL) == 0)
            return names[i];
    }
    return NULL;
}

/* Runs the browser on page: the DOM into *dom, the console lines into
 * *console (heap strings); its exit status. */
static int browse(const char *page, const char *extra, char **dom, char **console)
{
    const char *tmp = bl_tmpdir();
    char cmd[4000];
    snprintf(cmd, sizeof cmd,
             "(timeout 120 %s --headless --no-sandbox --disable-gpu --no-first-run "
             "--user-data-dir=%s/profile --enable-logging=stderr --v=0 "
             "--virtual-time-budget=3000 %s --dump-dom 'file://%s' 2>%s/log >%s/dom)",
             chromium(), tmp, extra, page, tmp, tmp);
    int st = bl_system(cmd, NULL);
    snprintf(cmd, sizeof cmd, "%s/dom", tmp);
    *dom = bl_slurp(cmd, NULL);
    snprintf(cmd, sizeof cmd, "grep ':CONSOLE' %s/log", tmp);
    *console = NULL;
    bl_system(cmd, console);
    return st;
}

static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_detects_console_errors(void)
{
    const char *bad = bl_write_tmp("bad.html", "<!DOCTYPE html><html><body><p>x</p>"
                                               "<script>console.error('bl-probe-error')</script>"
                                               "</body></html>\n");
    char *dom = NULL, *console = NULL;
    CU_ASSERT_EQUAL(browse(bad, "", &dom, &console), 0);
    CU_ASSERT_TRUE(dom && bl_contains(dom, "<p>x</p>"));
    CU_ASSERT_TRUE(console && bl_contains(console, "bl-probe-error"));
    free(dom);
    free(console);
}

static void test_page(void)
{
    if (bl_system("command -v gnuplot", NULL) != 0) {
        bl_skip_case("gnuplot not installed: the page has no figures to show");
        return;
    }
    const char *dir = bl_report_fixture();
    CU_ASSERT_EQUAL_FATAL(bl_run(NULL, "report %s", dir), 0);
    char page[900], shot[900], extra[1000];
    snprintf(page, sizeof page, "%s/report.html", dir);
    snprintf(shot, sizeof shot, "%s/shot.png", bl_tmpdir());
    snprintf(extra, sizeof extra, "--window-size=1280,1000 --hide-scrollbars --screenshot=%s",
             shot);
    char *dom = NULL, *console = NULL;
    CU_ASSERT_EQUAL(browse(page, "", &dom, &console), 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dom);
    CU_ASSERT_TRUE(console && console[0] == '\0');
    if (console && console[0])
        printf("\nconsole:\n%s\n", console);
    static const char *const ids[] = {
        "d1-headline",          "d1-summary-table", "d1-paired-table", "d1-fairness-table",
        "d1-bd-size",           "d1-bd-runtime",    "d1-bd-user",      "d1-manifest-0",
        "d1-manifest-1",        "d1-fig-cdf-wait",  "d1-fig-cdf-bsld", "d1-fig-class-size",
        "d1-fig-class-runtime", "d1-fig-compare"};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        char id[80];
        snprintf(id, sizeof id, "id=\"%s\"", ids[i]);
        CU_ASSERT_TRUE(bl_contains(dom, id));
    }
    /* Five figures parsed as SVG, each with its plot drawn. */
    CU_ASSERT_EQUAL(count(dom, "<svg"), 5);
    CU_ASSERT_TRUE(count(dom, "<path") >= 10);
    CU_ASSERT_TRUE(bl_contains(dom, "fcfs&amp;&lt;x&gt;"));
    free(dom);
    free(console);
    /* The first screen drawn. */
    dom = console = NULL;
    browse(page, extra, &dom, &console);
    size_t n = 0;
    char *png = bl_slurp(shot, &n);
    CU_ASSERT_TRUE(png && n > 10000 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    free(dom);
    free(console);
}

int bl_suite_cli_report_browser(void)
{
    if (!chromium())
        return bl_skip("chromium is not installed (Debian package chromium)");
    CU_pSuite s = CU_add_suite("cli_report_browser", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "a console error is seen", test_detects_console_errors);
    CU_add_test(s, "the page renders every table and figure, no console message", test_page);
    return 0;
}
