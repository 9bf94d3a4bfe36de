/* test_eng_platform.c — the platform model built from host descriptions:
 * natural name order, properties, pools, routing, per-queue limits, errors. */
#include "bl_test.h"
#include "eng_platform.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int build(const eng_host_desc *d, size_t n, const char *ref, eng_platform **p,
                 eng_diag *diag)
{
    eng_diag_clear(diag);
    return eng_platform_build("p.xml", d, n, ref, p, diag);
}

static void test_order_and_defaults(void)
{
    eng_host_desc d[] = {
        {.name = "n10", .speed_flops = 2e9, .sg_cores = 4},
        {.name = "n2", .speed_flops = 1e9, .sg_cores = 4, .cores = "2", .price_per_s = "0.5"},
        {.name = "n1", .speed_flops = 3e9, .sg_cores = 4},
    };
    eng_platform *p;
    eng_diag diag;
    CU_ASSERT_EQUAL_FATAL(build(d, 3, NULL, &p, &diag), 0);
    CU_ASSERT_STRING_EQUAL(p->hosts[0].name, "n1");
    CU_ASSERT_STRING_EQUAL(p->hosts[1].name, "n2");
    CU_ASSERT_STRING_EQUAL(p->hosts[2].name, "n10");
    /* reference speed defaults to the first host in name order */
    CU_ASSERT_DOUBLE_EQUAL(p->ref_speed_flops, 3e9, 0);
    CU_ASSERT_FALSE(p->ref_speed_given);
    CU_ASSERT_EQUAL(p->hosts[1].cores, 2);
    CU_ASSERT_EQUAL(p->hosts[1].sg_cores, 4);
    CU_ASSERT_DOUBLE_EQUAL(p->hosts[1].price_per_s, 0.5, 0);
    CU_ASSERT_EQUAL(p->n_pools, 1);
    CU_ASSERT_EQUAL(p->catch_all, 0);
    CU_ASSERT_EQUAL(p->pools[0].cores_per_node, 2);
    CU_ASSERT_EQUAL(p->pools[0].total_cores, 10);
    CU_ASSERT_DOUBLE_EQUAL(p->pools[0].min_speed_flops, 1e9, 0);
    CU_ASSERT_STRING_EQUAL(p->pools[0].label, "all queues");
    CU_ASSERT_EQUAL(eng_platform_route(p, 7), 0);
    CU_ASSERT_EQUAL(eng_platform_route(p, -1), 0);
    eng_platform_destroy(p);
}

static void test_pools_and_routing(void)
{
    eng_host_desc d[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .queues = "1, 3"},
        {.name = "b1", .speed_flops = 1e9, .sg_cores = 1, .queues = "2"},
        {.name = "a2", .speed_flops = 1e9, .sg_cores = 1, .queues = "3,1"},
    };
    eng_platform *p;
    eng_diag diag;
    CU_ASSERT_EQUAL_FATAL(build(d, 3, "2Gf", &p, &diag), 0);
    CU_ASSERT_DOUBLE_EQUAL(p->ref_speed_flops, 2e9, 0);
    CU_ASSERT_EQUAL_FATAL(p->n_pools, 2);
    CU_ASSERT_STRING_EQUAL(p->pools[0].label, "queues 1,3");
    CU_ASSERT_EQUAL(p->pools[0].n_hosts, 2);
    CU_ASSERT_STRING_EQUAL(p->pools[1].label, "queue 2");
    CU_ASSERT_EQUAL(p->catch_all, -1);
    CU_ASSERT_EQUAL(eng_platform_route(p, 3), 0);
    CU_ASSERT_EQUAL(eng_platform_route(p, 2), 1);
    CU_ASSERT_EQUAL(eng_platform_route(p, 4), -1);
    eng_platform_destroy(p);
}

static void test_errors(void)
{
    eng_platform *p = NULL;
    eng_diag diag;
    eng_host_desc dup[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1},
                           {.name = "x", .speed_flops = 1e9, .sg_cores = 1}};
    CU_ASSERT_EQUAL(build(dup, 2, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: two hosts are named x");
    CU_ASSERT_PTR_NULL(p);
    eng_host_desc cores[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .cores = "0"}};
    CU_ASSERT_EQUAL(build(cores, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: host x: property cores: expected a positive "
                                     "integer, got '0'");
    eng_host_desc price[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .price_per_s = "-1"}};
    CU_ASSERT_EQUAL(build(price, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "price_per_s: expected a number >= 0, got '-1'"));
    eng_host_desc q[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .queues = "1,a"}};
    CU_ASSERT_EQUAL(build(q, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "property queues: expected comma-separated"));
    eng_host_desc overlap[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .queues = "1,2"},
                               {.name = "y", .speed_flops = 1e9, .sg_cores = 1, .queues = "2"}};
    CU_ASSERT_EQUAL(build(overlap, 2, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "queue 2 is served by two different host sets"));
    eng_host_desc ok[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1}};
    CU_ASSERT_EQUAL(build(ok, 1, "fast", &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "ref_speed: expected a speed such as '2.6Gf', got "
                                            "'fast'"));
    CU_ASSERT_EQUAL(build(ok, 0, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: the platform has no host");
}

/* Islands: numbered per pool by their first host; hosts of other pools
 * (here the visualisation queue) may name none. */
static void test_islands(void)
{
    eng_platform *p = NULL;
    eng_diag diag;
    eng_host_desc d[] = {
        {.name = "n3", .speed_flops = 1e9, .sg_cores = 2, .queues = "1", .island = "west"},
        {.name = "n1", .speed_flops = 1e9, .sg_cores = 2, .queues = "1", .island = "east"},
        {.name = "n2", .speed_flops = 1e9, .sg_cores = 2, .queues = "1", .island = "west"},
        {.name = "n10", .speed_flops = 1e9, .sg_cores = 4, .queues = "1", .island = "east"},
        {.name = "v1", .speed_flops = 1e9, .sg_cores = 8, .queues = "2"},
    };
    CU_ASSERT_EQUAL_FATAL(build(d, 5, NULL, &p, &diag), ENG_OK);
    /* name order n1 n2 n3 n10 v1: east (n1 first), then west */
    const eng_pool *pool = &p->pools[0];
    CU_ASSERT_EQUAL_FATAL(pool->n_islands, 2);
    CU_ASSERT_STRING_EQUAL(pool->island_names[0], "east");
    CU_ASSERT_STRING_EQUAL(pool->island_names[1], "west");
    CU_ASSERT_EQUAL(pool->island_hosts[0], 2);
    CU_ASSERT_EQUAL(pool->island_hosts[1], 2);
    CU_ASSERT_EQUAL(pool->island_cores[0], 6);
    CU_ASSERT_EQUAL(pool->island_cores[1], 4);
    CU_ASSERT_EQUAL(p->hosts[0].island, 0); /* n1 */
    CU_ASSERT_EQUAL(p->hosts[1].island, 1); /* n2 */
    CU_ASSERT_EQUAL(p->hosts[2].island, 1); /* n3 */
    CU_ASSERT_EQUAL(p->hosts[3].island, 0); /* n10 */
    CU_ASSERT_EQUAL(p->hosts[4].island, -1);
    CU_ASSERT_EQUAL(p->pools[1].n_islands, 0);
    CU_ASSERT_TRUE(eng_platform_has_islands(p));

    /* a child hands the platform to its parent: islands survive */
    FILE *f = tmpfile();
    CU_ASSERT_EQUAL_FATAL(eng_platform_save(f, p), ENG_OK);
    rewind(f);
    eng_platform *q = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_platform_restore(f, "p.xml", &q, &diag), ENG_OK);
    fclose(f);
    CU_ASSERT_EQUAL(q->pools[0].n_islands, 2);
    CU_ASSERT_STRING_EQUAL(q->pools[0].island_names[1], "west");
    CU_ASSERT_EQUAL(q->hosts[3].island, 0);
    eng_platform_destroy(q);
    eng_platform_destroy(p);

    /* one island only: no constraint to speak of */
    eng_host_desc one[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .island = "i"}};
    CU_ASSERT_EQUAL_FATAL(build(one, 1, NULL, &p, &diag), ENG_OK);
    CU_ASSERT_EQUAL(p->pools[0].n_islands, 1);
    CU_ASSERT_FALSE(eng_platform_has_islands(p));
    eng_platform_destroy(p);
}

static void test_island_errors(void)
{
    eng_platform *p = NULL;
    eng_diag diag;
    eng_host_desc bad[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .island = "a b"}};
    CU_ASSERT_EQUAL(build(bad, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: host x: property island: expected a name of 1 to "
                                     "63 letters, digits, '-', '_' or '.', got 'a b'");
    CU_ASSERT_PTR_NULL(p);
    eng_host_desc empty[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .island = ""}};
    CU_ASSERT_EQUAL(build(empty, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "property island: expected a name"));
    /* every host of a pool names its island, or none does */
    eng_host_desc mixed[] = {{.name = "x1", .speed_flops = 1e9, .sg_cores = 1, .island = "a"},
                             {.name = "x2", .speed_flops = 1e9, .sg_cores = 1}};
    CU_ASSERT_EQUAL(build(mixed, 2, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: host x2: property island: expected an island "
                                     "name, as host x1 of the same pool (all queues) has; give "
                                     "every host of a pool its island or none");
    CU_ASSERT_PTR_NULL(p);
}


/* queue_limits: entries in any order, sorted by queue; limits looked up
 * per queue; errors name the file and the entry; save and restore keep
 * them. */
static void test_queue_limits(void)
{
    eng_host_desc d[] = {{.name = "n1", .speed_flops = 1e9, .sg_cores = 1}};
    eng_platform *p;
    eng_diag diag;
    CU_ASSERT_EQUAL_FATAL(build(d, 1, NULL, &p, &diag), 0);
    CU_ASSERT_EQUAL(eng_platform_set_limits(p, NULL, &diag), 0);
    CU_ASSERT_EQUAL(p->n_limits, 0);
    CU_ASSERT_PTR_NULL(eng_platform_limits(p, 1));
    CU_ASSERT_EQUAL_FATAL(
        eng_platform_set_limits(p, "3:max_nodes=64  1:max_runtime_s=3600,max_nodes=8\n", &diag), 0);
    CU_ASSERT_EQUAL_FATAL(p->n_limits, 2);
    const eng_queue_limit *l1 = eng_platform_limits(p, 1), *l3 = eng_platform_limits(p, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l3);
    CU_ASSERT_EQUAL(p->limits[0].queue, 1);
    CU_ASSERT_DOUBLE_EQUAL(l1->max_runtime_s, 3600, 0);
    CU_ASSERT_EQUAL(l1->max_nodes, 8);
    CU_ASSERT(isinf(l3->max_runtime_s));
    CU_ASSERT_EQUAL(l3->max_nodes, 64);
    CU_ASSERT_PTR_NULL(eng_platform_limits(p, 2));
    /* save and restore */
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(eng_platform_save(f, p), 0);
    rewind(f);
    eng_platform *q = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_platform_restore(f, "p.xml", &q, &diag), 0);
    fclose(f);
    CU_ASSERT_EQUAL(q->n_limits, 2);
    CU_ASSERT_EQUAL(eng_platform_limits(q, 1)->max_nodes, 8);
    eng_platform_destroy(q);
    static const char *const bad[] = {
        "1:max_nodes=0",      "x:max_nodes=2", "1:max_time=5", "1:max_nodes=2,max_nodes=3", "1:",
        "1:max_runtime_s=-1", "1:max_nodes=2,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        eng_diag_clear(&diag);
        CU_ASSERT_EQUAL(eng_platform_set_limits(p, bad[i], &diag), ENG_PLATFORM);
        char want[80];
        snprintf(want, sizeof want, "p.xml: property queue_limits: entry '%s': expected", bad[i]);
        CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, want));
    }
    eng_diag_clear(&diag);
    CU_ASSERT_EQUAL(eng_platform_set_limits(p, "2:max_nodes=1 2:max_runtime_s=5", &diag),
                    ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "queue 2 listed twice"));
    eng_platform_destroy(p);
}


/* partitions in place of queues: pools by SWF field 16, labelled so;
 * a host naming both, or hosts naming each, is an error; save and
 * restore keep the field. */
static void test_partitions(void)
{
    eng_host_desc d[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .partitions = "1,3"},
        {.name = "b1", .speed_flops = 1e9, .sg_cores = 1, .partitions = "2"},
        {.name = "c1", .speed_flops = 1e9, .sg_cores = 1},
    };
    eng_platform *p;
    eng_diag diag;
    CU_ASSERT_EQUAL_FATAL(build(d, 3, NULL, &p, &diag), 0);
    CU_ASSERT_TRUE(p->by_partition);
    CU_ASSERT_EQUAL_FATAL(p->n_pools, 3);
    CU_ASSERT_STRING_EQUAL(p->pools[0].label, "partitions 1,3");
    CU_ASSERT_STRING_EQUAL(p->pools[1].label, "partition 2");
    CU_ASSERT_STRING_EQUAL(p->pools[2].label, "all partitions");
    CU_ASSERT_EQUAL(eng_platform_route(p, 3), 0);
    CU_ASSERT_EQUAL(eng_platform_route(p, 2), 1);
    CU_ASSERT_EQUAL(eng_platform_route(p, 7), 2);
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(eng_platform_save(f, p), 0);
    rewind(f);
    eng_platform *q = NULL;
    CU_ASSERT_EQUAL_FATAL(eng_platform_restore(f, "p.xml", &q, &diag), 0);
    fclose(f);
    CU_ASSERT_TRUE(q->by_partition);
    CU_ASSERT_STRING_EQUAL(q->pools[0].label, "partitions 1,3");
    eng_platform_destroy(q);
    eng_platform_destroy(p);
    eng_host_desc both[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .queues = "1", .partitions = "1"}};
    CU_ASSERT_EQUAL(build(both, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "p.xml: host a1: properties queues and partitions"));
    eng_host_desc mixed[] = {
        {.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .queues = "1"},
        {.name = "a2", .speed_flops = 1e9, .sg_cores = 1, .partitions = "2"},
    };
    CU_ASSERT_EQUAL(build(mixed, 2, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "host a2: property partitions, where other hosts "
                                            "name queues"));
    eng_host_desc bad[] = {{.name = "a1", .speed_flops = 1e9, .sg_cores = 1, .partitions = "x"}};
    CU_ASSERT_EQUAL(build(bad, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_PTR_NOT_NULL(strstr(diag.msg, "property partitions: expected comma-separated "
                                            "partition numbers"));
}

static void test_speed_units(void)
{
    double f;
    CU_ASSERT_TRUE(eng_parse_speed("2.6Gf", &f));
    CU_ASSERT_DOUBLE_EQUAL(f, 2.6e9, 1);
    CU_ASSERT_TRUE(eng_parse_speed("100Mf", &f));
    CU_ASSERT_DOUBLE_EQUAL(f, 1e8, 0);
    CU_ASSERT_TRUE(eng_parse_speed("1e9", &f));
    CU_ASSERT_TRUE(eng_parse_speed("3 Tf", &f));
    CU_ASSERT_DOUBLE_EQUAL(f, 3e12, 0);
    CU_ASSERT_FALSE(eng_parse_speed("2.6GHz", &f));
    CU_ASSERT_FALSE(eng_parse_speed("-1Gf", &f));
    CU_ASSERT_FALSE(eng_parse_speed("", &f));
    CU_ASSERT_FALSE(eng_parse_speed(NULL, &f));
}

/* Memory sizes: powers of 1024 with the i units, of 1000 without; a bare
 * number is bytes. Per pool, the smallest memory and memory per core:
 * m1 has 8 GiB over 4 cores (2 GiB a core), m2 6 GiB over 2 (3 GiB a
 * core): smallest 6 GiB, smallest per core 2 GiB. */
static void test_memory(void)
{
    double b;
    CU_ASSERT_TRUE(eng_parse_memory("256GiB", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 256.0 * 1024 * 1024 * 1024, 0);
    CU_ASSERT_TRUE(eng_parse_memory("2 MiB", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 2097152, 0);
    CU_ASSERT_TRUE(eng_parse_memory("64GB", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 64e9, 0);
    CU_ASSERT_TRUE(eng_parse_memory("3kB", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 3000, 0);
    CU_ASSERT_TRUE(eng_parse_memory("1TiB", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 1099511627776.0, 0);
    CU_ASSERT_TRUE(eng_parse_memory("1e6", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 1e6, 0);
    CU_ASSERT_TRUE(eng_parse_memory("512B", &b));
    CU_ASSERT_DOUBLE_EQUAL(b, 512, 0);
    CU_ASSERT_FALSE(eng_parse_memory("4GiBs", &b));
    CU_ASSERT_FALSE(eng_parse_memory("4 gb", &b));
    CU_ASSERT_FALSE(eng_parse_memory("0GiB", &b));
    CU_ASSERT_FALSE(eng_parse_memory("-1", &b));
    CU_ASSERT_FALSE(eng_parse_memory("", &b));

    eng_host_desc d[] = {
        {.name = "m1", .speed_flops = 1e9, .sg_cores = 4, .memory = "8GiB"},
        {.name = "m2", .speed_flops = 1e9, .sg_cores = 2, .memory = "6GiB"},
    };
    eng_platform *p;
    eng_diag diag;
    CU_ASSERT_EQUAL_FATAL(build(d, 2, NULL, &p, &diag), 0);
    const double gib = 1024.0 * 1024 * 1024;
    CU_ASSERT_TRUE(p->has_memory);
    CU_ASSERT_DOUBLE_EQUAL(p->hosts[0].memory_b, 8 * gib, 0);
    CU_ASSERT_DOUBLE_EQUAL(p->pools[0].mem_min_b, 6 * gib, 0);
    CU_ASSERT_DOUBLE_EQUAL(p->pools[0].mem_per_core_min_b, 2 * gib, 0);
    eng_platform_destroy(p);

    /* no memory property: off */
    eng_host_desc none[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1}};
    CU_ASSERT_EQUAL_FATAL(build(none, 1, NULL, &p, &diag), 0);
    CU_ASSERT_FALSE(p->has_memory);
    CU_ASSERT_DOUBLE_EQUAL(p->pools[0].mem_min_b, 0, 0);
    eng_platform_destroy(p);

    /* a bad value names the host and the property */
    eng_host_desc bad[] = {{.name = "x", .speed_flops = 1e9, .sg_cores = 1, .memory = "lots"}};
    p = NULL;
    CU_ASSERT_EQUAL(build(bad, 1, NULL, &p, &diag), ENG_PLATFORM);
    CU_ASSERT_STRING_EQUAL(diag.msg, "p.xml: host x: property memory: expected a size > 0 such "
                                     "as '256GiB' (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB; a bare "
                                     "number is bytes), got 'lots'");
    CU_ASSERT_PTR_NULL(p);
}

int bl_suite_eng_platform(void)
{
    CU_pSuite s = CU_add_suite("eng_platform", NULL, NULL);
    if (!s)
        return 1;
    CU_add_test(s, "natural order, defaults, properties", test_order_and_defaults);
    CU_add_test(s, "pools and queue routing", test_pools_and_routing);
    CU_add_test(s, "errors name the file and host", test_errors);
    CU_add_test(s, "speed units", test_speed_units);
    CU_add_test(s, "per-queue limits (queue_limits)", test_queue_limits);
    CU_add_test(s, "pools by partition (field 16)", test_partitions);
    CU_add_test(s, "islands", test_islands);
    CU_add_test(s, "malformed island properties", test_island_errors);
    CU_add_test(s, "memory: units, per pool, errors", test_memory);
    return 0;
}
