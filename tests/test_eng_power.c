/* test_eng_power.c — the power properties read into a host's model
 * (engine/eng_power.c): SimGrid's form at the current pstate, Batsim's
 * form with its sleep and virtual pstates, the model's watts, and every
 * bad property named with its file, host and property (through the
 * platform builder and, for a platform file, the command line's exit 1). */
#include "bl_test.h"
#include "eng_platform.h"
#include "eng_power.h"
#include "eng_run.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int read_props(const eng_power_props *p, int32_t pstate, int32_t n, const double *speeds,
                      eng_power *out, eng_diag *d)
{
    eng_diag_clear(d);
    return eng_power_read("p.xml", "n1", p, pstate, n, speeds, 4, out, d);
}

static void test_simgrid_form(void)
{
    eng_power w;
    eng_diag d;
    static const double speeds[] = {2e9, 1e9};
    eng_power_props p = {.wattage_per_state = "95:120:200, 90 : 110 : 150", .wattage_off = "10"};
    CU_ASSERT_EQUAL(read_props(&p, 1, 2, speeds, &w, &d), 0);
    CU_ASSERT_TRUE(w.on);
    CU_ASSERT_EQUAL(w.idle_w, 90);
    CU_ASSERT_EQUAL(w.epsilon_w, 110);
    CU_ASSERT_EQUAL(w.all_cores_w, 150);
    CU_ASSERT_EQUAL(w.off_w, 10);
    CU_ASSERT_EQUAL(w.sleep_w, 10);
    /* the model: Idle, then Epsilon + k / c x (AllCores - Epsilon) */
    CU_ASSERT_EQUAL(eng_power_watts(&w, 0, 4), 90);
    CU_ASSERT_EQUAL(eng_power_watts(&w, 1, 4), 120);
    CU_ASSERT_EQUAL(eng_power_watts(&w, 4, 4), 150);
    /* Idle:AllCores: Epsilon is Idle */
    p = (eng_power_props){.wattage_per_state = "100:200",
                          .switch_on_s = "150",
                          .switch_on_w = "125.5",
                          .switch_off_s = "6",
                          .switch_off_w = "101"};
    CU_ASSERT_EQUAL(read_props(&p, 0, 1, NULL, &w, &d), 0);
    CU_ASSERT_EQUAL(w.epsilon_w, 100);
    CU_ASSERT_EQUAL(w.off_w, 0);
    CU_ASSERT_EQUAL(w.switch_on_s, 150);
    CU_ASSERT_EQUAL(w.switch_on_w, 125.5);
    CU_ASSERT_EQUAL(w.switch_off_s, 6);
    CU_ASSERT_EQUAL(w.switch_off_w, 101);
    /* no property: no model */
    p = (eng_power_props){0};
    CU_ASSERT_EQUAL(read_props(&p, 0, 1, NULL, &w, &d), 0);
    CU_ASSERT_FALSE(w.on);
}

/* Batsim's cluster_energy_128.xml, shortened: pstates 0-1 compute, 2
 * sleeps, 3 and 4 switch off and on by one flop each. */
static void test_batsim_form(void)
{
    static const double speeds[] = {100e6, 88.9e6, 1e-3, 0.1639344262295082, 0.006599788806758183};
    eng_power_props p = {.watt_per_state = "95.0:190.738, 95.0:171.02, 9.75:9.75, "
                                           "100.99672131147543:100.99672131147543, "
                                           "125.1743848996832:125.1743848996832",
                         .watt_off = "9.75",
                         .sleep_pstates = "2:3:4"};
    eng_power w;
    eng_diag d;
    CU_ASSERT_EQUAL(read_props(&p, 0, 5, speeds, &w, &d), 0);
    CU_ASSERT_EQUAL(w.idle_w, 95);
    CU_ASSERT_EQUAL(w.all_cores_w, 190.738);
    CU_ASSERT_EQUAL(w.off_w, 9.75);
    CU_ASSERT_EQUAL(w.sleep_w, 9.75);
    CU_ASSERT_DOUBLE_EQUAL(w.switch_off_s, 6.1, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(w.switch_on_s, 151.52, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.switch_off_w, 100.99672131147543, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(w.switch_on_w, 125.1743848996832, 1e-12);
}

/* One bad case: the message names the file, the host and the property. */
static void expect_error(const eng_power_props *p, int32_t pstate, int32_t n, const double *speeds,
                         const char *prop, const char *words)
{
    eng_power w;
    eng_diag d;
    CU_ASSERT_EQUAL(read_props(p, pstate, n, speeds, &w, &d), ENG_PLATFORM);
    char head[64];
    snprintf(head, sizeof head, "p.xml: host n1: property %s: ", prop);
    CU_ASSERT_TRUE(bl_contains(d.msg, head));
    CU_ASSERT_TRUE(bl_contains(d.msg, words));
    CU_ASSERT_FALSE(w.on);
}

static void test_errors(void)
{
    static const double two[] = {2e9, 1e9};
    static const double five[] = {1e8, 1e8, 1e-3, 0.5, 0.25};
    expect_error(&(eng_power_props){.wattage_per_state = "100:-1:200"}, 0, 1, NULL,
                 "wattage_per_state", "got '100:-1:200'");
    expect_error(&(eng_power_props){.wattage_per_state = "100:120:200"}, 0, 2, two,
                 "wattage_per_state", "expected 2 comma-separated");
    expect_error(&(eng_power_props){.wattage_per_state = "100;200"}, 0, 1, NULL,
                 "wattage_per_state", "'Idle:Epsilon:AllCores'");
    expect_error(&(eng_power_props){.wattage_per_state = "1:2:3:4"}, 0, 1, NULL,
                 "wattage_per_state", "got '1:2:3:4'");
    expect_error(&(eng_power_props){.wattage_per_state = "100:200,"}, 0, 1, NULL,
                 "wattage_per_state", "got '100:200,'");
    expect_error(&(eng_power_props){.wattage_per_state = "100:200", .wattage_off = "-3"}, 0, 1,
                 NULL, "wattage_off", "watts >= 0");
    expect_error(&(eng_power_props){.wattage_per_state = "100:200", .switch_on_s = "-1"}, 0, 1,
                 NULL, "switch_on_s", "seconds >= 0");
    expect_error(&(eng_power_props){.wattage_per_state = "100:200", .switch_off_w = "x"}, 0, 1,
                 NULL, "switch_off_w", "watts >= 0");
    expect_error(&(eng_power_props){.wattage_off = "10"}, 0, 1, NULL, "wattage_off",
                 "wattage_per_state");
    /* the two forms mixed */
    expect_error(&(eng_power_props){.wattage_per_state = "100:200", .sleep_pstates = "0:0:0"}, 0, 1,
                 NULL, "sleep_pstates", "give one, not both");
    expect_error(&(eng_power_props){.wattage_per_state = "100:200", .watt_per_state = "100:200"}, 0,
                 1, NULL, "watt_per_state", "give one, not both");
    /* sleep pstates: the current one, out of range, not triplets, speed 0 */
    static const char list5[] = "1:2, 1:2, 1:1, 3:3, 4:4";
    expect_error(&(eng_power_props){.watt_per_state = list5, .sleep_pstates = "0:3:4"}, 0, 5, five,
                 "sleep_pstates", "triplets");
    expect_error(&(eng_power_props){.watt_per_state = list5, .sleep_pstates = "2:3:5"}, 0, 5, five,
                 "sleep_pstates", "triplets");
    expect_error(&(eng_power_props){.watt_per_state = list5, .sleep_pstates = "2:3"}, 0, 5, five,
                 "sleep_pstates", "triplets");
    expect_error(&(eng_power_props){.watt_per_state = list5, .sleep_pstates = "2:3:4,"}, 0, 5, five,
                 "sleep_pstates", "triplets");
    static const double zero[] = {1e8, 1e8, 1e-3, 0, 0.25};
    expect_error(&(eng_power_props){.watt_per_state = list5, .sleep_pstates = "2:3:4"}, 0, 5, zero,
                 "sleep_pstates", "speed > 0");
}

/* Every host has power values or none has. */
static void test_all_or_none(void)
{
    eng_host_desc h[2] = {
        {.name = "n1", .speed_flops = 1e9, .sg_cores = 1, .power = {.wattage_per_state = "1:2"}},
        {.name = "n2", .speed_flops = 1e9, .sg_cores = 1},
    };
    eng_platform *p = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL(eng_platform_build("p.xml", h, 2, NULL, &p, &d), ENG_PLATFORM);
    CU_ASSERT_TRUE(bl_contains(d.msg, "p.xml: host n2: property wattage_per_state: expected the "
                                      "host's watts per pstate, as host n1 has them"));
    h[1].power.wattage_per_state = "3:4";
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_platform_build("p.xml", h, 2, NULL, &p, &d), 0);
    CU_ASSERT_TRUE(p->has_power);
    CU_ASSERT_EQUAL(p->hosts[1].power.all_cores_w, 4);
    eng_platform_destroy(p);
}

/* Platform files through SimGrid's loader: Batsim's form loads unchanged
 * (and survives the child's hand-over); a bad property stops the command
 * with exit 1 and the message. */
static void test_platform_files(void)
{
    eng_platform *p = NULL;
    eng_diag d;
    eng_diag_clear(&d);
    CU_ASSERT_EQUAL_FATAL(eng_run_load_platform(bl_src("platforms/test/power-batsim.xml"), &p, &d),
                          0);
    CU_ASSERT_TRUE(p->has_power);
    CU_ASSERT_EQUAL(p->n_hosts, 2);
    CU_ASSERT_EQUAL(p->hosts[0].power.idle_w, 95);
    CU_ASSERT_DOUBLE_EQUAL(p->hosts[1].power.switch_on_s, 151.52, 1e-9);
    eng_platform_destroy(p);
    p = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_run_load_platform(bl_src("platforms/test/power-3x4.xml"), &p, &d), 0);
    CU_ASSERT_EQUAL(p->hosts[2].power.idle_w, 70); /* pstate 1 */
    CU_ASSERT_EQUAL(p->hosts[2].power.all_cores_w, 130);
    eng_platform_destroy(p);

    const char *bad = bl_write_tmp(
        "power-bad.xml",
        "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\">\n"
        "<host id=\"a1\" speed=\"1Gf,0.5Gf\"><prop id=\"wattage_per_state\" "
        "value=\"100:200\"/></host>\n"
        "</zone></platform>\n");
    const char *swf = bl_write_tmp("power-bad.swf",
                                   "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n");
    char *out = NULL;
    int st = bl_run(&out, "run --platform %s --workload %s --policy fcfs", bad, swf);
    CU_ASSERT_EQUAL(st, 1);
    CU_ASSERT_TRUE(out && bl_contains(out, "power-bad.xml: host a1: property wattage_per_state: "
                                           "expected 2 comma-separated"));
    free(out);
}

int bl_suite_eng_power(void)
{
    CU_pSuite s = CU_add_suite("eng_power", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "SimGrid's form at the current pstate", test_simgrid_form);
    CU_add_test(s, "Batsim's form: sleep and virtual pstates", test_batsim_form);
    CU_add_test(s, "bad properties name file, host and property", test_errors);
    CU_add_test(s, "power values on every host or none", test_all_or_none);
    CU_add_test(s, "platform files: Batsim's loads, a bad one exits 1", test_platform_files);
    return 0;
}
