/* The Ethernet configs: the input is a spec; when it loads as an Ethernet
 * fabric (of at most 512 GPUs and 4,096 ports), every file railyard
 * ethernet writes is made in memory (ry_outdir_begin_memory: nothing is
 * written) and read back: config_db.json parses with Jansson (no key
 * twice), the netplan YAML with libyaml, and every line of frr.conf, the
 * host scripts and the QoS scripts is one of the shapes their writers
 * write, each field of its kind (a number, an address, a name without
 * blanks or shell syntax). No file holds a control character but the
 * newline. A file that breaks this aborts, for libFuzzer to keep the spec. */
#include "fuzz.h"

#include <jansson.h>
#include <stdlib.h>
#include <yaml.h>

#include "emit/eth/eth.h"
#include "io/outdir.h"
#include "fabric/ethplan.h"

/* ---- lines by shape ------------------------------------------------------------------------
 * A shape is literal text with fields:
 *   %n  a number            %a  an IPv4 address     %4  an IPv4 prefix (address/len)
 *   %b  an IPv6 address     %6  an IPv6 prefix      %w  a name: letters, digits, ._-+@:=,
 *                                                       or one single-quoted shell word
 *   %t  text to the end of the line (printable)     %p  PFC priorities: 0:off 1:on ...
 * A field takes as much or as little as lets the rest match. */

static int in_class(char k, unsigned char c)
{
    switch (k) {
    case 'n': return c >= '0' && c <= '9';
    case 'a': return (c >= '0' && c <= '9') || c == '.';
    case '4': return (c >= '0' && c <= '9') || c == '.' || c == '/';
    case 'b': return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                     (c >= 'A' && c <= 'F') || c == ':' || c == '.';
    case '6': return in_class('b', c) || c == '/';
    case 'w': return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                     (c >= 'A' && c <= 'Z') || (c && strchr("._-+@:=,", c));
    case 't': return c >= 0x20 && c != 0x7f;
    case 'p': return (c >= '0' && c <= '9') || c == ':' || c == ' ' || c == 'o' || c == 'n' ||
                     c == 'f';
    }
    return 0;
}

/* Length of a single-quoted shell word at s ('it'\''s'), or 0. */
static size_t quoted_word(const char *s, const char *end)
{
    const char *p = s;
    while (p < end && *p == '\'') {
        const char *q = memchr(p + 1, '\'', (size_t)(end - p - 1));
        if (!q)
            return 0;
        for (const char *c = p + 1; c < q; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                return 0;
        p = q + 1;
        if (p + 2 < end && p[0] == '\\' && p[1] == '\'' && p[2] == '\'')
            p += 2;     /* '\'' and the next quoted part */
        else
            break;
    }
    return (size_t)(p - s);
}

static int match(const char *shape, const char *s, const char *end)
{
    if (!*shape)
        return s == end;
    if (shape[0] != '%') {
        return s < end && *s == *shape && match(shape + 1, s + 1, end);
    }
    char k = shape[1];
    if (k == 'w') {
        size_t q = s < end && *s == '\'' ? quoted_word(s, end) : 0;
        if (q)
            return match(shape + 2, s + q, end);
    }
    /* at least one character of the class, then the rest of the shape */
    const char *p = s;
    while (p < end && in_class(k, (unsigned char)*p)) {
        p++;
        if (match(shape + 2, p, end))
            return 1;
    }
    return 0;
}

static const char *const frr_shapes[] = {
    "!", "! %t", "frr defaults datacenter", "hostname %w", "service integrated-vtysh-config",
    "interface lo", "interface %w", " ip address %4", " ipv6 address %6", "exit",
    " description %t", " ipv6 nd prefix %6", " no ipv6 nd suppress-ra",
    "router bgp %n", " bgp router-id %a", " no bgp ebgp-requires-policy",
    " bgp bestpath as-path multipath-relax", " neighbor FABRIC peer-group",
    " neighbor FABRIC remote-as external", " neighbor FABRIC bfd",
    " neighbor %w interface peer-group FABRIC", " !", " address-family ipv4 unicast",
    " address-family ipv6 unicast", "  redistribute connected route-map LOCAL",
    "  redistribute connected route-map LOCAL6", "  neighbor FABRIC activate",
    "  maximum-paths %n", " exit-address-family",
    "ip prefix-list LOCAL seq 10 permit %4 ge 32",
    "ip prefix-list LOCAL seq 20 permit %4 ge 31 le 31", "route-map LOCAL permit 10",
    " match ip address prefix-list LOCAL", "ipv6 prefix-list LOCAL6 seq 10 permit %6 ge 64",
    "route-map LOCAL6 permit 10", " match ipv6 address prefix-list LOCAL6", "end", NULL
};

static const char *const ip_shapes[] = {
    "#!/bin/sh", "# %t", "set -e",
    "sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2",
    "ip link set dev %w mtu %n up", "ip addr replace %4 dev %w",
    "ip route replace %4 via %a dev %w table %n", "ip route replace %4 via %a dev %w",
    "ip rule del priority %n 2>/dev/null || true", "ip rule add from %a table %n priority %n",
    "sysctl -qw net.ipv6.conf.%w.accept_ra=2 net.ipv6.conf.%w.autoconf=1",
    "ip -6 addr replace %6 dev %w nodad", "ip -6 route replace %6 via %b dev %w table %n",
    "ip -6 route replace %6 via %b dev %w", "ip -6 rule del priority %n 2>/dev/null || true",
    "ip -6 rule add from %6 table %n priority %n", NULL
};

static const char *const qos_shapes[] = {
    "#!/bin/sh", "# %t", "set -e", "dcb app replace dev %w dscp-prio %n:%n %n:%n",
    "dcb pfc set dev %w prio-pfc %p", "echo 1 > /sys/class/net/%w/ecn/roce_np/enable/%n",
    "echo 1 > /sys/class/net/%w/ecn/roce_rp/enable/%n",
    "echo %n > /sys/class/net/%w/ecn/roce_np/cnp_dscp",
    "echo %n > /sys/class/infiniband/%w/tc/1/traffic_class", NULL
};

static void violation(const char *rel, const char *what, const char *line, size_t n)
{
    fprintf(stderr, "fuzz_ethernet: %s: %s: '%.*s'\n", rel, what, (int)(n > 300 ? 300 : n),
            line);
    abort();
}

/* Each line of data is one of shapes (NULL: any line); no control
 * character but the newline, and the file ends with one. */
static void check_lines(const char *rel, const char *data, size_t len,
                        const char *const *shapes)
{
    if (len && data[len - 1] != '\n')
        violation(rel, "no newline at the end", data, len);
    for (const char *s = data, *end = data + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        for (const char *c = s; c < nl; c++)
            if (((unsigned char)*c < 0x20 && *c != '\t') || *c == 0x7f)
                violation(rel, "a control character", s, (size_t)(nl - s));
        int ok = !shapes;
        for (int i = 0; !ok && shapes[i]; i++)
            ok = match(shapes[i], s, nl);
        if (!ok)
            violation(rel, "a line of no known shape", s, (size_t)(nl - s));
        s = nl + 1;
    }
}

static void check_json(const char *rel, const char *data, size_t len)
{
    json_error_t e;
    json_t *j = json_loadb(data, len, JSON_REJECT_DUPLICATES, &e);
    if (!j || !json_is_object(j)) {
        fprintf(stderr, "fuzz_ethernet: %s: %d:%d: %s\n", rel, e.line, e.column, e.text);
        abort();
    }
    json_decref(j);
}

static void check_yaml(const char *rel, const char *data, size_t len)
{
    yaml_parser_t p;
    yaml_event_t ev;
    if (!yaml_parser_initialize(&p))
        abort();
    yaml_parser_set_input_string(&p, (const unsigned char *)data, len);
    int docs = 0, done = 0;
    while (!done) {
        if (!yaml_parser_parse(&p, &ev)) {
            fprintf(stderr, "fuzz_ethernet: %s: %zu:%zu: %s\n", rel, p.problem_mark.line + 1,
                    p.problem_mark.column + 1, p.problem ? p.problem : "?");
            abort();
        }
        docs += ev.type == YAML_DOCUMENT_START_EVENT;
        done = ev.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&p);
    if (docs != 1)
        violation(rel, "not one YAML document", data, len);
}

static int ends(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

static void check_file(const char *rel, const char *data, size_t len)
{
    if (ends(rel, "/frr.conf"))
        check_lines(rel, data, len, frr_shapes);
    else if (ends(rel, "/config_db.json"))
        check_json(rel, data, len);
    else if (ends(rel, ".qos.sh"))
        check_lines(rel, data, len, qos_shapes);
    else if (ends(rel, ".sh"))
        check_lines(rel, data, len, ip_shapes);
    else if (ends(rel, ".yaml")) {
        check_lines(rel, data, len, NULL);
        check_yaml(rel, data, len);
    } else
        check_lines(rel, data, len, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_spec fs;
    ry_spec *s = fuzz_spec_input(&fs, data, size);
    ry_fabric *f = s && s->sw.ethernet ? fuzz_spec_build(&fs, 512) : NULL;
    ry_ethplan pl;
    ry_err err;
    /* switch ports make the configs' bulk (a chassis has hundreds): each
     * input well under a second under the sanitizers */
    if (f && f->nports <= 4096 && ry_ethplan_build(f, &pl, &err) == 0) {
        ry_outdir *o = ry_outdir_begin_memory();
        ry_eth_stats st = { 0 };
        if (ry_emit_ethernet(o, "ethernet", &pl, NULL, &st) < 0)
            abort();    /* nothing can fail in memory */
        const char *rel, *text;
        size_t len;
        for (size_t i = 0; ry_outdir_file(o, i, &rel, &text, &len); i++)
            check_file(rel, text, len);
        if (ry_outdir_commit(o) < 0)
            abort();
        ry_ethplan_free(&pl);
    }
    fuzz_spec_free(&fs);
    fuzz_done();
    return 0;
}
