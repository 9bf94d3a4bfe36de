/* bl_report_fixture.h — a hand-made compare folder for the suites of
 * `plot --compare` and `report` (tests/bl_report_fixture.c): two runs with
 * known values, one with summary.json's breakdowns and fairness and one
 * without (an older run), and a paired.json.
 *
 *   DIR/easy         4 jobs, waits 5, 0, 100, 5 s, bounded slowdowns 1.5,
 *                    1, 3, 1.5; metrics.wait_mean_s 27.5, median 5,
 *                    bounded_slowdown_mean 1.75, makespan_s 123456;
 *                    breakdowns: size "1" (wait_mean_s 2.5) and "2-3"
 *                    (52.5), runtime "<10min" (27.5); policy option
 *                    note = "a<b & 'c'"
 *   DIR/fcfs&<x>     the same 4 jobs, waits 10, 0, 200, 10; wait_mean_s 55,
 *                    no breakdowns, no fairness
 *   DIR/paired.json  one pair: a easy, b fcfs&<x>, wait_diff_mean_s 27.5,
 *                    CI 2.5 to 60
 */
#ifndef BL_REPORT_FIXTURE_H
#define BL_REPORT_FIXTURE_H

/* Writes the folder and returns its path (a fresh bl_tmpdir()). */
const char *bl_report_fixture(void);

/* Writes text to path (created or replaced); CU_FAIL when it cannot. */
void bl_put_file(const char *path, const char *text);

#endif
