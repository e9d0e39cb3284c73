/* The spec schema (spec/schema.c): its rows are well formed, their defaults
 * are what railyard-spec(5) promises, and the checks of specs built in code
 * follow the rows.
 *
 *   spec_keys_test          run the checks
 *   spec_keys_test --list   print the table for tests/spec-keys.sh:
 *                           "key<TAB>summary" per key, and
 *                           "section<TAB>name" per section */
#include "check.h"

#include "spec/libra_spec.h"
#include "spec/schema.h"
#include "spec/spec.h"
#include "spec/workload.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>

static int list(void)
{
    char sum[256];
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        if (k->type == RY_KEY_SECTION) {
            printf("section\t%s\n", k->key);
        } else if (k->type != RY_KEY_ANY) {
            ry_key_summary(k, sum, sizeof sum);
            printf("%s\t%s\n", k->key, sum);
        }
    }
    return 0;
}

/* A row's parent section is a row before it; every row has a doc. */
static void check_rows(void)
{
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        CHECK(k->doc && *k->doc, "%s: no doc", k->key);
        CHECK(ry_key_find(k->key) == k, "%s: given twice", k->key);
        const char *dot = strrchr(k->key, '.');
        if (!dot)
            continue;
        char parent[96];
        snprintf(parent, sizeof parent, "%.*s", (int)(dot - k->key), k->key);
        size_t len = strlen(parent);
        if (len > 2 && strcmp(parent + len - 2, "[]") == 0)
            parent[len - 2] = '\0';
        const ry_key *p = ry_key_find(parent);
        CHECK(p && p < k, "%s: its section %s is not a row before it", k->key, parent);
        CHECK(p && (p->type == RY_KEY_SECTION || p->type == RY_KEY_CUSTOM),
              "%s: %s holds no keys", k->key, parent);
        CHECK(k->type != RY_KEY_ENUM || (k->words && k->words[0]), "%s: no words", k->key);
        CHECK(k->type != RY_KEY_CUSTOM || k->type_doc, "%s: custom without type_doc", k->key);
    }
}

static void check_defaults(void)
{
    ry_spec s;
    ry_spec_defaults(&s);
    CHECK(s.sw.radix == 64, "radix %d", s.sw.radix);
    CHECK(s.sw.port_gbps == 400 && strcmp(s.sw.speed, "400G") == 0, "speed %g %s",
          s.sw.port_gbps, s.sw.speed);
    CHECK(strcmp(s.sw.name, "generic") == 0, "switch %s", s.sw.name);
    CHECK(s.node.gpus_per_node == 8 && s.hb_domain == 8 && s.node.hb_domain == 8, "node");
    CHECK(s.node.nic_gbps == 400, "nic %g", s.node.nic_gbps);
    CHECK(s.planes == 1 && s.rails == 0 && s.tiers == 0 && s.scalable_unit == 0, "cluster");
    CHECK(s.design == RY_DESIGN_RAIL_OPTIMIZED, "design");
    CHECK(s.transceiver_cost == 374 && s.switch_port_cost == 748, "cost");
    CHECK(s.ib.guid_base == 0x0002c90000000000ULL && s.ib.lmc == 0 && s.ib.lft_portguid == 1 &&
              s.ib.pkey_base == 0x100 && strcmp(s.ib.routing_engine, "file") == 0,
          "infiniband");
    CHECK(strcmp(s.node_pattern, "node{n1:03}") == 0, "naming %s", s.node_pattern);
    CHECK(s.layout.rows == 0 && s.layout.racks_per_row == 0 && s.layout.rack_units == 48 &&
              s.layout.first_unit == 2 && s.layout.nodes_per_rack == 4 &&
              s.layout.node_units == 8 && s.layout.switch_units == 1 && s.layout.network == 0,
          "layout");
    CHECK(s.layout.hall_racks == 512 && s.layout.hall_power == 20000 &&
              s.layout.rack_power == 0 && s.layout.switches_per_rack == 0 &&
              s.layout.halls_per_building == 8 && s.layout.hall_gap == 10 &&
              s.layout.building_gap == 50,
          "halls");
    CHECK(s.layout.rack_pitch == 0.6 && s.layout.row_pitch == 2.4 &&
              s.layout.tray_height == 2.6 && s.layout.slack == 0.5, "layout distances");

    /* The defaults with a cluster size pass every rule... */
    int before = ry_error_count();
    s.gpus = 1024;
    CHECK(ry_spec_check(&s) == 0 && ry_error_count() == before, "defaults fail the rules");
    CHECK(s.rails == 8 && s.nodes == 128, "filled in: rails %d, nodes %lld", s.rails, s.nodes);

    /* ...and each stored row's rule holds on the struct too. */
    ry_spec t = s;
    t.sw.radix = 63;
    CHECK(ry_spec_check(&t) < 0, "odd radix accepted");
    t = s;
    t.planes = 9;
    CHECK(ry_spec_check(&t) < 0, "9 planes accepted");
    t = s;
    t.tiers = 9;
    CHECK(ry_spec_check(&t) < 0, "9 tiers accepted");
    t = s;
    t.transceiver_cost = -1;
    CHECK(ry_spec_check(&t) < 0, "negative cost accepted");
    t = s;
    snprintf(t.name, sizeof t.name, "Big Cluster");
    CHECK(ry_spec_check(&t) < 0, "bad name accepted");
    t = s;
    t.ib.lmc = 8;
    CHECK(ry_spec_check(&t) < 0, "lmc 8 accepted");
    t = s;
    snprintf(t.node_pattern, sizeof t.node_pattern, "node");
    CHECK(ry_spec_check(&t) < 0, "host pattern without {n} accepted");
    ry_error_reset();
}

/* The defaults of the workload's and LIBRA's structs, from their rows. */
static void check_other_defaults(void)
{
    ry_workload w;
    memset(&w, 0, sizeof w);
    ry_schema_defaults_in(RY_IN_WORKLOAD, &w);
    CHECK(w.efficiency == 1 && w.flops == RY_FLOPS_6NT && w.recompute == 0 && w.tensor == 0,
          "workload");
    ry_llm l;
    memset(&l, 0xff, sizeof l);
    ry_schema_defaults_in(RY_IN_LLM, &l);
    CHECK(l.precision == RY_PREC_BF16, "model precision %d", (int)l.precision);
    ry_libra_spec p;
    memset(&p, 0, sizeof p);
    ry_schema_defaults_in(RY_IN_LIBRA, &p);
    CHECK(p.objective == RY_LIBRA_TIME && p.starts == 12, "libra");
    CHECK(ry_libra_time_scale(p.time_unit) == 1e-3 && p.cycle_time == 1e-9, "libra times");
    ry_libra_workload wl;
    memset(&wl, 0, sizeof wl);
    ry_libra_layer *ly = ry_libra_workload_add(&wl);
    CHECK(ly->count == 1 && ly->ph[RY_PHASE_WG].coll == RY_COLL_NONE &&
              ly->ph[RY_PHASE_FWD].compute == 0 && ly->ph[RY_PHASE_IG].group[0] == 1,
          "layer");
    ry_libra_workload_free(&wl);
}

static void check_summary(void)
{
    char buf[256];
    ry_key_summary(ry_key_find("fabric.switch.radix"), buf, sizeof buf);
    CHECK(strcmp(buf, "even integer, 4..65535; default 64; ports") == 0, "radix: %s", buf);
    ry_key_summary(ry_key_find("fabric.tiers"), buf, sizeof buf);
    CHECK(strcmp(buf, "auto or integer, 1..8; default auto") == 0, "tiers: %s", buf);
    ry_key_summary(ry_key_find("layout.rack_pitch"), buf, sizeof buf);
    CHECK(strcmp(buf, "number, 0.1..100; default 0.6; metres") == 0, "rack_pitch: %s", buf);
    ry_key_summary(ry_key_find("libra.cycle_time"), buf, sizeof buf);
    CHECK(strcmp(buf, "time; default 1ns") == 0, "cycle_time: %s", buf);
    ry_key_summary(ry_key_find("network.dims[].size"), buf, sizeof buf);
    CHECK(strcmp(buf, "integer, 1..1048576; required; NPUs") == 0, "dims[].size: %s", buf);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0)
        return list();
    check_rows();
    check_defaults();
    check_other_defaults();
    check_summary();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
