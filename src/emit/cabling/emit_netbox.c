/*
 * NetBox's import set: the objects a cable import refers to, one file per
 * kind, numbered in the order NetBox needs them (a row may name only what
 * an earlier file, or an earlier row of its own file, made):
 *
 *   01-sites.csv         the site: the spec's name
 *   02-locations.csv     buildings ("B1", ...), then the rooms in them
 *                        (halls "H01", network rooms "N1"), each room's
 *                        parent its building
 *   03-racks.csv         every rack in its room, layout.rack_units high
 *   04-manufacturers.csv the makers of the models
 *   05-device-types/     one devicetype-library YAML file per model (the
 *                        node, each switch type: a model as its tier of
 *                        fabric.tiers uses it, split ports and all, as
 *                        high as the model (ry_layout_switch_units); a
 *                        rack-scale node's other trays), interfaces as
 *                        templates: a device gets its interfaces when it
 *                        is made
 *   06-device-roles.csv  "server", one role per switch tier and per tray kind
 *   07-devices.csv       every server and switch in its rack and unit
 *   08-cables.csv        written with the other cable lists (emit_cabling.c)
 *
 * Every interface a cable ends on is a template of its device's type, so
 * there is no interface file. Servers face the rack's front; switches its
 * rear, where the servers' NIC ports are (the catalog's NVIDIA switches are
 * the power-to-connector models: ports to the hot aisle).
 * Field names and choice values are those of NetBox's import forms; the
 * test (tests/netbox.sh) holds them with the NetBox version they come from.
 */
#include "emit/cabling/emit_netbox.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "emit/csv.h"
#include "fabric/names.h"
#include "util/escape.h"
#include "util/buf.h"
#include "util/hash.h"
#include "util/phys.h"

#define NB_GENERIC "Generic"    /* manufacturer of a model with no vendor */
#define NB_STATUS "planned"
#define NB_SLUG_MAX 100         /* a device type's slug in NetBox and the devicetype-library */

/* A slug: lower case, [a-z0-9_-], anything else a '-'; never starting with
 * '-' (a device type's slug names its file, and a file name starting with
 * '-' reads as an option to the commands given it), "generic" when nothing
 * is left. */
static void slug(char *out, size_t n, const char *s)
{
    size_t i = 0;
    for (; *s && i + 1 < n; s++) {
        unsigned char c = (unsigned char)*s;
        char o = isalnum(c) || c == '_' || c == '-' ? (char)tolower(c) : '-';
        if (o != '-' || i > 0)
            out[i++] = o;
    }
    out[i] = '\0';
    if (i == 0)
        snprintf(out, n, "generic");
}

static const char *vendor_of(const char *v)
{
    return v && *v ? v : NB_GENERIC;
}

/* "<maker>-<model>", the devicetype-library's slug of a device type. One
 * longer than NetBox takes (NB_SLUG_MAX: a long maker, node name and tray
 * kind) keeps its first characters and ends in "-" and 8 hex digits of the
 * whole slug's hash: two long models that begin alike keep two slugs, and
 * two files. */
static void type_slug(char *out, size_t n, const char *vendor, const char *model)
{
    char a[64], b[2 * RY_NAME_MAX + 8], full[sizeof a + sizeof b];
    slug(a, sizeof a, vendor_of(vendor));
    slug(b, sizeof b, model);
    snprintf(full, sizeof full, "%s-%s", a, b);
    size_t len = strlen(full);
    if (len > NB_SLUG_MAX) {
        static const uint64_t key[2] = { 0, 0 };        /* fixed: the same slug every run */
        snprintf(full + NB_SLUG_MAX - 9, sizeof full - (NB_SLUG_MAX - 9), "-%08x",
                 (unsigned)(ry_siphash(key, full, len) & 0xffffffffu));
    }
    snprintf(out, n, "%s", full);
}

/*
 * NetBox's interface type of a port of `gbps` in a `connector` cage: the
 * form-factor types NetBox and the devicetype-library both list; where none
 * fits (200G in an OSFP cage, a split HDR100 port, no connector known), an
 * InfiniBand port gets its generation (the switch's speed: NDR200 is NDR),
 * an Ethernet one "other".
 */
static const char *iface_type(double gbps, const char *connector, const ry_switch_model *sw)
{
    static _Thread_local char type[48];
    for (size_t i = 0; i < ry_ncages; i++)
        for (int r = 0; r < 4 && ry_cages[i].gbps[r] > 0; r++)
            if (gbps == ry_cages[i].gbps[r] && strcasecmp(connector, ry_cages[i].name) == 0) {
                snprintf(type, sizeof type, "%.0fgbase-x-%s", gbps, ry_cages[i].netbox);
                return type;
            }
    const ry_ib_gen *g = sw->ethernet ? NULL : ry_ib_gen_of_speed(sw->speed);
    return g && g->netbox ? g->netbox : "other";
}

/* A YAML double-quoted scalar. */
static void yq(ry_buf *b, const char *s)
{
    ry_buf_putc(b, '"');
    ry_escape_str(b, s, RY_ESC_YAML);
    ry_buf_putc(b, '"');
}

static void type_head(ry_buf *b, const char *what, const char *vendor, const char *model,
                      const char *part, int units)
{
    char sl[160];
    type_slug(sl, sizeof sl, vendor, model);
    ry_buf_printf(b, "# railyard: NetBox device type of the %s (devicetype-library format)\n",
                  what);
    ry_buf_puts(b, "manufacturer: ");
    yq(b, vendor_of(vendor));
    ry_buf_puts(b, "\nmodel: ");
    yq(b, model);
    ry_buf_puts(b, "\nslug: ");
    yq(b, sl);
    if (part && *part) {
        ry_buf_puts(b, "\npart_number: ");
        yq(b, part);
    }
    ry_buf_printf(b, "\nu_height: %d\nis_full_depth: true\n", units > 0 ? units : 1);
}

static void iface(ry_buf *b, const char *name, const char *label, const char *type,
                  const char *desc)
{
    ry_buf_puts(b, "  - name: ");
    yq(b, name);
    if (label && *label) {
        ry_buf_puts(b, "\n    label: ");
        yq(b, label);
    }
    ry_buf_printf(b, "\n    type: %s\n", type);
    if (desc && *desc) {
        ry_buf_puts(b, "    description: ");
        yq(b, desc);
        ry_buf_putc(b, '\n');
    }
}

static int put(ry_outdir *o, const char *prefix, const char *name, ry_buf *b)
{
    int rc = ry_outdir_put_in(o, prefix, name, b->data ? b->data : "", b->len);
    ry_buf_reset(b);
    return rc;
}

/* The switch device types: one per model and the way its tier uses the
 * model's ports. A tier of fabric.tiers that splits a side names those
 * ports as split (cage/port/part) at their own speed, so its type is not
 * the unsplit model's: "<model>-<down>x<speed>[-<up>x<speed>]". A model
 * used whole keeps its name, or "<name>-switch" when the node's type would
 * have the same slug (a node and a switch both named "custom"): NetBox
 * finds a device type by maker and model. A spec with one model and no
 * tier list has one type, named as the model. */
typedef struct nb_swtype {
    const ry_switch_model *sw;  /* borrowed from the spec */
    uint32_t node;              /* a switch of the type: its ports are the templates */
    char model[RY_NAME_MAX + 64];
} nb_swtype;

typedef struct nb_swtypes {
    int n;
    int of_tier[RY_MAX_TIERS + 2];  /* [tier]: index into t */
    nb_swtype t[RY_MAX_TIERS + 1];
} nb_swtypes;

static const char *iface_type(double gbps, const char *connector, const ry_switch_model *sw);

/* The interface templates of switch node n: every port by its label and
 * speed (ry_port_label: split ports as their tier splits them). */
static void switch_ifaces(ry_buf *b, const ry_fabric *f, uint32_t node)
{
    const ry_node *n = &f->nodes[node];
    const ry_switch_model *sw = ry_node_model_of(f, n);
    char name[64];
    for (uint32_t p = 0; p < n->nports; p++) {
        ry_port_label(f, n->port0 + p, name, sizeof name);
        iface(b, name, "", iface_type(ry_port_gbps(f, n->port0 + p), sw->connector, sw), "");
    }
}

static void switch_types(const ry_cab_names *nm, nb_swtypes *ty)
{
    const ry_fabric *f = nm->f;
    const ry_spec *s = f->spec;
    ry_buf a, b;
    ry_buf_init(&a);
    ry_buf_init(&b);
    memset(ty, 0, sizeof *ty);
    for (int j = 1; j <= f->tiers; j++) {
        uint32_t first = 0;
        for (size_t i = f->first_switch; i < f->nnodes; i++)
            if (f->nodes[i].tier == j) {
                first = (uint32_t)i;
                break;
            }
        const ry_switch_model *sw = ry_node_model_of(f, &f->nodes[first]);
        ry_buf_reset(&a);
        switch_ifaces(&a, f, first);
        int k = 0;
        for (; k < ty->n; k++) {
            const nb_swtype *o = &ty->t[k];
            if (strcmp(o->sw->name, sw->name) || strcmp(o->sw->vendor, sw->vendor))
                continue;
            ry_buf_reset(&b);
            switch_ifaces(&b, f, o->node);
            if (a.len == b.len && memcmp(a.data, b.data, a.len) == 0)
                break;
        }
        ty->of_tier[j] = k;
        if (k < ty->n)
            continue;
        nb_swtype *t = &ty->t[ty->n++];
        t->sw = sw;
        t->node = first;
        const ry_tier_ports *tp = &f->tier[j];
        size_t len = (size_t)snprintf(t->model, sizeof t->model, "%s", sw->name);
        if (tp->sw && (tp->down_split > 1 || tp->up_split > 1)) {
            len += (size_t)snprintf(t->model + len, sizeof t->model - len, "-%dx%gG", tp->down,
                                    tp->down_gbps);
            if (tp->up > 0)
                snprintf(t->model + len, sizeof t->model - len, "-%dx%gG", tp->up, tp->up_gbps);
        }
        char x[160], y[160];
        type_slug(x, sizeof x, s->node.vendor, s->node.name);
        type_slug(y, sizeof y, sw->vendor, t->model);
        if (strcmp(x, y) == 0)
            strncat(t->model, "-switch", sizeof t->model - strlen(t->model) - 1);
        for (int o = 0; o < ty->n - 1; o++)     /* one name per maker and model */
            if (strcmp(ty->t[o].model, t->model) == 0 &&
                strcmp(vendor_of(ty->t[o].sw->vendor), vendor_of(sw->vendor)) == 0) {
                len = strlen(t->model);
                snprintf(t->model + len, sizeof t->model - len, "-tier%d", j);
                break;
            }
    }
    ry_buf_free(&a);
    ry_buf_free(&b);
}

/* The device type of tray kind k of the node's rack: "<node>-<kind>"
 * ("gb200-nvl72-nvlink-switch-tray"), its part the part number. */
static void tray_model(const ry_node_model *nd, int k, char *out, size_t n)
{
    snprintf(out, n, "%s-%s", nd->name, nd->trays[k].kind);
}

/* The device types: the node with its NIC ports (GPUs per node x planes,
 * named as in the cable files), each switch type with its ports. */
static int write_types(ry_outdir *o, const char *prefix, const ry_cab_names *nm, ry_buf *b,
                       const nb_swtypes *ty)
{
    const ry_fabric *f = nm->f;
    const ry_node_model *nd = &f->spec->node;
    char name[160], file[200], sl[160];
    int bad = 0;

    type_head(b, "servers", nd->vendor, nd->name, "", nm->lay->node_units);
    ry_buf_puts(b, "interfaces:\n");
    const char *nt = iface_type(nd->nic_gbps, nd->connector, &f->spec->sw);
    for (int i = 0; i < nm->gpn * f->planes; i++) {
        ry_nic_rdma(nd, i, name, sizeof name);
        const char *netdev = ry_nic_netdev(nd, i);
        char desc[48] = "";
        if (*netdev)
            snprintf(desc, sizeof desc, "netdev %s", netdev);
        iface(b, name, ry_nic_cage(nd, i), nt, desc);
    }
    type_slug(sl, sizeof sl, nd->vendor, nd->name);
    snprintf(file, sizeof file, "05-device-types/%s.yaml", sl);
    bad |= put(o, prefix, file, b) < 0;

    for (int k = 0; k < ty->n; k++) {
        const nb_swtype *t = &ty->t[k];
        type_head(b, "switches", t->sw->vendor, t->model, t->sw->part,
                  ry_layout_switch_units(nm->lay, &f->nodes[t->node]));
        ry_buf_puts(b, "interfaces:\n");
        switch_ifaces(b, f, t->node);
        type_slug(sl, sizeof sl, t->sw->vendor, t->model);
        snprintf(file, sizeof file, "05-device-types/%s.yaml", sl);
        bad |= put(o, prefix, file, b) < 0;
    }

    /* a rack-scale node's other trays: no interfaces the plan cables */
    for (int k = 0; k < nd->ntrays; k++) {
        const ry_rack_tray *t = &nd->trays[k];
        tray_model(nd, k, name, sizeof name);
        type_head(b, t->kind, nd->vendor, name, t->part, t->units);
        type_slug(sl, sizeof sl, nd->vendor, name);
        snprintf(file, sizeof file, "05-device-types/%s.yaml", sl);
        bad |= put(o, prefix, file, b) < 0;
    }
    return bad ? -1 : 0;
}

/* Role of a switch tier: its tier name ("leaf", "spine", "core", "top"),
 * "tierN" for the unnamed middle tiers of a tall fabric. */
static void role_name(const ry_fabric *f, int tier, char *buf, size_t n)
{
    const char *t = ry_tier_name(tier, f->tiers);
    if (strcmp(t, "tier") == 0)
        snprintf(buf, n, "tier%d", tier);
    else
        snprintf(buf, n, "%s", t);
}

static void device_at(ry_buf *b, const char *name, const char *role, const char *vendor,
                      const char *model, const ry_cab_names *nm, int rack, int unit,
                      const char *face)
{
    const ry_layout *lay = nm->lay;
    char room[32];
    ry_cab_room_name(&lay->rooms[lay->racks[rack].room], room, sizeof room);
    ry_csv_fields(b, (const char *const[]){ name, role, vendor_of(vendor), model,
                                            nm->f->spec->name }, 5);
    ry_buf_printf(b, ",%s,", room);
    ry_csv_field(b, nm->pool + nm->rack[rack]);
    ry_buf_printf(b, ",%d,%s," NB_STATUS "%s", unit, face, ry_csv_eol());
}

static void device_row(ry_buf *b, const char *name, const char *role, const char *vendor,
                       const char *model, const ry_cab_names *nm, uint32_t node, const char *face)
{
    int rack, unit, units;
    ry_layout_where(nm->lay, node, &rack, &unit, &units);
    device_at(b, name, role, vendor, model, nm, rack, unit, face);
}

/* The trays of every compute rack of a rack-scale node, above its servers
 * at their units: "<rack>-<kind>-<n>" (n from 1), the kind its role. */
static void tray_rows(ry_buf *b, const ry_cab_names *nm)
{
    const ry_layout *lay = nm->lay;
    const ry_node_model *nd = &nm->f->spec->node;
    char name[160], model[160];
    for (int r = 0; r < lay->nracks; r++) {
        if (!lay->racks[r].trays)
            continue;
        for (int k = 0; k < nd->ntrays; k++) {
            tray_model(nd, k, model, sizeof model);
            for (int c = 0; c < nd->trays[k].per_rack; c++) {
                snprintf(name, sizeof name, "%s-%s-%d", nm->pool + nm->rack[r],
                         nd->trays[k].kind, c + 1);
                device_at(b, name, nd->trays[k].kind, nd->vendor, model, nm, r,
                          ry_layout_tray_unit(lay, k, c), "front");
            }
        }
    }
}

int ry_emit_netbox(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    const ry_fabric *f = nm->f;
    const ry_spec *s = f->spec;
    const ry_layout *lay = nm->lay;
    ry_buf b;
    char sl[160], room[32];
    int bad = 0;
    ry_buf_init(&b);

    slug(sl, sizeof sl, s->name);
    ry_buf_puts(&b, "name,slug,status");
    ry_csv_end(&b);
    ry_csv_fields(&b, (const char *const[]){ s->name, sl }, 2);
    ry_buf_puts(&b, "," NB_STATUS);
    ry_csv_end(&b);
    bad |= put(o, prefix, "01-sites.csv", &b) < 0;

    ry_buf_puts(&b, "site,parent,name,slug,status,description");
ry_csv_end(&b);
    for (int i = 0; i < lay->nbuildings; i++) {
        ry_csv_field(&b, s->name);
        ry_buf_printf(&b, ",,B%d,b%d," NB_STATUS ",building %d%s", i + 1, i + 1, i + 1,
                      ry_csv_eol());
    }
    for (int i = 0; i < lay->nrooms; i++) {
        const ry_room *r = &lay->rooms[i];
        ry_cab_room_name(r, room, sizeof room);
        slug(sl, sizeof sl, room);
        ry_csv_field(&b, s->name);
        ry_buf_printf(&b, ",B%d,%s,%s," NB_STATUS ",%s%s", r->building + 1, room, sl,
                      r->kind == RY_ROOM_HALL ? "data hall" : "network room", ry_csv_eol());
    }
    bad |= put(o, prefix, "02-locations.csv", &b) < 0;

    /* Racks: 19-inch (NetBox needs a width when no rack type is given). */
    ry_buf_puts(&b, "site,location,name,status,width,u_height,description");
ry_csv_end(&b);
    for (int i = 0; i < lay->nracks; i++) {
        const ry_rack *k = &lay->racks[i];
        ry_cab_room_name(&lay->rooms[k->room], room, sizeof room);
        ry_csv_field(&b, s->name);
        ry_buf_printf(&b, ",%s,", room);
        ry_csv_field(&b, nm->pool + nm->rack[i]);
        ry_buf_printf(&b, "," NB_STATUS ",19,%d,%s rack%s", s->layout.rack_units,
                      k->kind == RY_RACK_COMPUTE ? "compute" : "network", ry_csv_eol());
    }
    bad |= put(o, prefix, "03-racks.csv", &b) < 0;

    /* the makers: the node's, then each switch type's, each once */
    nb_swtypes ty;
    switch_types(nm, &ty);
    const char *mk[RY_MAX_TIERS + 2];
    int nmk = 0;
    mk[nmk++] = vendor_of(s->node.vendor);
    for (int k = 0; k < ty.n; k++) {
        const char *v = vendor_of(ty.t[k].sw->vendor);
        int seen = 0;
        for (int i = 0; i < nmk; i++)
            seen |= strcmp(mk[i], v) == 0;
        if (!seen)
            mk[nmk++] = v;
    }
    ry_buf_puts(&b, "name,slug");
    ry_csv_end(&b);
    for (int i = 0; i < nmk; i++) {
        slug(sl, sizeof sl, mk[i]);
        ry_csv_row(&b, (const char *const[]){ mk[i], sl }, 2);
    }
    bad |= put(o, prefix, "04-manufacturers.csv", &b) < 0;

    bad |= write_types(o, prefix, nm, &b, &ty) < 0;

    /* Roles, coloured as NetBox draws them in rack elevations. */
    static const char *const colors[] = { "2196f3", "4caf50", "ff9800", "9c27b0", "f44336",
                                          "795548", "607d8b" };
    char role[32];
    ry_buf_puts(&b, "name,slug,color,description");
    ry_csv_end(&b);
    ry_buf_printf(&b, "server,server,%s,%s servers%s", colors[0], s->node.name, ry_csv_eol());
    for (int t = 1; t <= f->tiers; t++) {
        role_name(f, t, role, sizeof role);
        ry_buf_printf(&b, "%s,%s,%s,tier %d switches%s", role, role,
                      colors[t < 7 ? t : 6], t, ry_csv_eol());
    }
    for (int k = 0; k < s->node.ntrays; k++) {
        ry_csv_field(&b, s->node.trays[k].kind);
        ry_buf_putc(&b, ',');
        slug(sl, sizeof sl, s->node.trays[k].kind);
        ry_csv_field(&b, sl);
        ry_buf_printf(&b, ",%s,", colors[6]);
        ry_csv_field(&b, s->node.trays[k].part[0] ? s->node.trays[k].part : s->node.trays[k].kind);
        ry_csv_end(&b);
    }
    bad |= put(o, prefix, "06-device-roles.csv", &b) < 0;

    ry_buf_puts(&b, "name,role,manufacturer,device_type,site,location,rack,position,face,status");
ry_csv_end(&b);
    for (long long i = 0; i < nm->nservers; i++)
        device_row(&b, nm->pool + nm->server[i], "server", s->node.vendor, s->node.name, nm,
                   (uint32_t)(i * nm->gpn), "front");
    for (size_t i = f->first_switch; i < f->nnodes; i++) {
        const nb_swtype *t = &ty.t[ty.of_tier[f->nodes[i].tier]];
        role_name(f, f->nodes[i].tier, role, sizeof role);
        device_row(&b, nm->pool + nm->sw[i - f->first_switch], role, t->sw->vendor, t->model,
                   nm, (uint32_t)i, "rear");
    }
    tray_rows(&b, nm);
    bad |= put(o, prefix, "07-devices.csv", &b) < 0;

    ry_buf_free(&b);
    return bad ? -1 : 0;
}
