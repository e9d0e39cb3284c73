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

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
        /* A row read by its own reader may be a scalar or hold keys
         * (fabric.tiers: a count, or a list of maps). */
        CHECK(p && (p->type == RY_KEY_SECTION || p->type == RY_KEY_CUSTOM ||
                    (p->flags & RY_KEY_READER && p->type_doc)),
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
    CHECK(s.node_pattern[0] == 0, "naming %s (the default is made per cluster)", s.node_pattern);
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
    ry_key_summary(ry_key_find("workload.parallelism.pipeline"), buf, sizeof buf);
    CHECK(strcmp(buf, "auto or integer, 1..1048576; default auto; stages") == 0, "pipeline: %s", buf);
    ry_key_summary(ry_key_find("fabric.tiers"), buf, sizeof buf);
    CHECK(strcmp(buf, "auto, a count, or a list of tiers; default auto") == 0, "tiers: %s", buf);
    ry_key_summary(ry_key_find("layout.rack_pitch"), buf, sizeof buf);
    CHECK(strcmp(buf, "number, 0.1..100; default 0.6; metres") == 0, "rack_pitch: %s", buf);
    ry_key_summary(ry_key_find("libra.cycle_time"), buf, sizeof buf);
    CHECK(strcmp(buf, "time; default 1ns") == 0, "cycle_time: %s", buf);
    ry_key_summary(ry_key_find("network.dims[].size"), buf, sizeof buf);
    CHECK(strcmp(buf, "integer, 1..1048576; required; NPUs") == 0, "dims[].size: %s", buf);
}

/* ---- units (railyard-spec(5), UNITS) ---- */

/* A scalar as a spec would hold it. */
static ry_ynode scalar_of(const char *text)
{
    ry_ynode n;
    memset(&n, 0, sizeof n);
    n.kind = RY_YSCALAR;
    n.value = (char *)text;
    n.pos.file = "units";
    n.pos.line = 1;
    n.pos.col = 1;
    return n;
}

static int stderr_fd = -1;
static FILE *captured;

/* Errors into a file, to read back what the reader said. */
static void capture_begin(void)
{
    fflush(stderr);
    captured = tmpfile();
    stderr_fd = dup(2);
    dup2(fileno(captured), 2);
}

static void capture_end(char *buf, size_t cap)
{
    fflush(stderr);
    dup2(stderr_fd, 2);
    close(stderr_fd);
    rewind(captured);
    size_t n = fread(buf, 1, cap - 1, captured);
    buf[n] = '\0';
    fclose(captured);
}

/* The value row k reads from text: 0 with *out, -1 when refused. */
static int value_of(const ry_key *k, const char *text, double *out)
{
    ry_ynode n = scalar_of(text);
    ry_keyval v;
    char err[512];
    capture_begin();
    int r = ry_key_get(k, &n, NULL, &v);
    capture_end(err, sizeof err);
    *out = k->type == RY_KEY_NUMBER ? v.d : (double)v.i;
    return r;
}

static int in_range(const ry_key *k, double x)
{
    if (k->type == RY_KEY_NUMBER)
        return x >= k->dmin && x <= k->dmax;
    return x >= (double)k->min && x <= (double)k->max && x == (long long)x &&
           (!(k->flags & RY_KEY_EVEN) || (long long)x % 2 == 0);
}

/* Accepted "number suffix" pairs, written here apart from the reader:
 * the symbol of each unit that is not a count, and its scale. */
static const struct {
    const char *unit, *sym;
    double scale;
} symbols[] = {
    { "metres", "m", 1 }, { "metres", "cm", 0.01 }, { "metres", "km", 1000 },
    { "W", "W", 1 }, { "W", "kW", 1000 }, { "kW", "kW", 1 }, { "kW", "MW", 1000 },
    { "kW", "W", 0.001 }, { "percent", "%", 1 }, { "rack units", "U", 1 },
};

static int is_count(const ry_key *k)
{
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
        if (k->unit && strcmp(k->unit, symbols[i].unit) == 0)
            return 0;
    return !k->unit || strstr(k->unit, " per ") == NULL;
}

/* text with suffix gives the same value as plain, the number it means. */
static void same_value(const ry_key *k, double num, const char *suffix, double plain)
{
    char a[64], b[64];
    double va = -1, vb = -2;
    snprintf(a, sizeof a, "%.10g%s", num, suffix);
    snprintf(b, sizeof b, "%.10g", plain);
    int ra = value_of(k, a, &va), rb = value_of(k, b, &vb);
    CHECK(rb == 0, "%s: plain %s refused", k->key, b);
    CHECK(ra == 0, "%s: '%s' refused", k->key, a);
    CHECK(ra != 0 || rb != 0 || fabs(va - vb) <= 1e-12 * fabs(vb), "%s: '%s' gives %g, '%s' %g",
          k->key, a, va, b, vb);
}

static void check_units(void)
{
    int rows = 0;
    for (size_t i = 0; i < ry_spec_nkeys; i++) {
        const ry_key *k = &ry_spec_keys[i];
        if ((k->type != RY_KEY_INT && k->type != RY_KEY_AUTO_INT && k->type != RY_KEY_NUMBER) ||
            k->read)
            continue;
        rows++;
        /* A value in range: the least, or 1 when the least is 0. */
        double x = k->type == RY_KEY_NUMBER ? k->dmin : (double)k->min;
        if (x <= 0 && in_range(k, 2))
            x = 2;
        CHECK(in_range(k, x), "%s: no sample value", k->key);
        /* Its own name. */
        if (k->unit) {
            char sfx[64];
            snprintf(sfx, sizeof sfx, " %s", k->unit);
            same_value(k, x, sfx, x);
        }
        /* The unit's symbols. */
        for (size_t s = 0; s < sizeof symbols / sizeof symbols[0]; s++) {
            if (!k->unit || strcmp(k->unit, symbols[s].unit) != 0)
                continue;
            double num = x / symbols[s].scale;
            same_value(k, num, symbols[s].sym, x);
        }
        /* A count's prefixes, on a multiple of each in range. */
        if (is_count(k)) {
            static const struct {
                const char *p;
                double scale;
            } pre[] = { { "k", 1e3 }, { "M", 1e6 }, { "Ki", 1024 }, { "Mi", 1048576 } };
            for (size_t p = 0; p < sizeof pre / sizeof pre[0]; p++) {
                double m = 2;
                while (!in_range(k, m * pre[p].scale) && m * pre[p].scale < 1e7)
                    m += 2;
                if (in_range(k, m * pre[p].scale))
                    same_value(k, m, pre[p].p, m * pre[p].scale);
            }
        }
        /* A value out of range: refused, and the error names the unit. */
        char text[64], err[512];
        if (k->type == RY_KEY_NUMBER && k->dmax < 1e300)
            snprintf(text, sizeof text, "%.10g", k->dmax * 2 + 1);
        else if (k->type == RY_KEY_NUMBER)
            snprintf(text, sizeof text, "%.10g", k->dmin - 1);
        else
            snprintf(text, sizeof text, "%lld", k->max < 4000000000000000000LL ? k->max + 1
                                                                               : k->min - 1);
        ry_ynode n = scalar_of(text);
        ry_keyval v;
        capture_begin();
        int r = ry_key_get(k, &n, NULL, &v);
        capture_end(err, sizeof err);
        CHECK(r < 0, "%s: out of range %s accepted", k->key, text);
        CHECK(strstr(err, k->key) && strstr(err, text), "%s: the error names neither key nor "
              "value: %s", k->key, err);
        if (k->unit) {
            char want[64];
            snprintf(want, sizeof want, " %s", k->unit);
            CHECK(strstr(err, want) != NULL, "%s: the error does not name %s: %s", k->key,
                  k->unit, err);
        }
    }
    CHECK(rows > 60, "only %d numeric rows", rows);

    /* The cases, by hand. */
    const ry_key *g = ry_key_find("cluster.gpus");
    double d;
    CHECK(value_of(g, "4k", &d) == 0 && d == 4000, "4k GPUs: %g", d);
    CHECK(value_of(g, "4Ki", &d) == 0 && d == 4096, "4Ki GPUs: %g", d);
    CHECK(value_of(g, "4k GPUs", &d) == 0 && d == 4000, "4k GPUs: %g", d);
    CHECK(value_of(g, "1.0005k", &d) < 0, "1.0005k GPUs accepted");
    CHECK(value_of(g, "4kB", &d) < 0, "4kB GPUs accepted");
    const ry_key *sl = ry_key_find("layout.slack");
    CHECK(value_of(sl, "0.5m", &d) == 0 && d == 0.5, "0.5m: %g", d);
    CHECK(value_of(sl, "50 cm", &d) == 0 && d == 0.5, "50 cm: %g", d);
    CHECK(value_of(sl, "0.5M", &d) < 0, "0.5M (mega) accepted as metres");
    CHECK(value_of(sl, "0.5k", &d) < 0, "a count's prefix accepted for metres");
    CHECK(value_of(ry_key_find("layout.hall_power"), "20MW", &d) == 0 && d == 20000, "20MW: %g",
          d);
    CHECK(value_of(ry_key_find("infiniband.pkey_base"), "0x0100", &d) == 0 && d == 256,
          "hex: %g", d);
    char err[512];
    ry_ynode n = scalar_of("60 m");
    ry_keyval v;
    capture_begin();
    ry_key_get(sl, &n, NULL, &v);
    capture_end(err, sizeof err);
    CHECK(strstr(err, "units:1:1: error: layout.slack must be 0..50 metres (got 60 m)") != NULL,
          "slack: %s", err);
    ry_error_reset();
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0)
        return list();
    check_rows();
    check_defaults();
    check_other_defaults();
    check_summary();
    check_units();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
