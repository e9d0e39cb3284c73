/* The cluster spec's own helpers, below every reader: where a key stands in
 * the source, errors at it, the NIC and tray tables of a node model, the
 * cluster as another design. The loader that reads a spec, calling the
 * readers of spec/, is spec/load.c: the readers may call this file, and it
 * calls none of them. */
#include "spec/spec.h"

#include "spec/yaml.h"
#include "util/diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- positions ------------------------------------------------------------------- */

ry_pos ry_spec_pos(const ry_spec *s, const char *key)
{
    ry_pos none = { s ? s->path : NULL, 0, 0 };
    if (!s || !s->doc)
        return none;
    ry_pos top = { s->doc->file, 1, 1 };
    char buf[256];
    snprintf(buf, sizeof buf, "%s", key ? key : "");
    for (;;) {
        ry_ynode *k = NULL;
        ry_ynode *v = buf[0] ? ry_ydoc_find(s->doc, buf, &k) : NULL;
        if (v) {
            /* A value error points at the value; a whole section at its key. */
            if (v->kind == RY_YSCALAR || !k)
                return v->pos;
            return k->pos;
        }
        char *dot = strrchr(buf, '.');
        if (!dot)
            return top;
        *dot = '\0';
    }
}

void ry_spec_error(const ry_spec *s, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ry_verror_at(ry_spec_pos(s, key), fmt, ap);
    va_end(ap);
}

/* ---- NIC names -------------------------------------------------------------- */

static int mlx5_number(const char *name)
{
    if (strncmp(name, "mlx5_", 5) != 0 || !isdigit((unsigned char)name[5]))
        return -1;
    char *end;
    long v = strtol(name + 5, &end, 10);
    return *end || v > 100000 ? -1 : (int)v;
}

int ry_nic_number(const ry_node_model *m, int i)
{
    if (i < m->nnics) {
        int v = mlx5_number(m->nics[i].rdma);
        return v >= 0 ? v : i;
    }
    int top = -1;
    for (int j = 0; j < m->nnics; j++) {
        int v = mlx5_number(m->nics[j].rdma);
        if (v > top)
            top = v;
    }
    if (top < m->nnics - 1)
        top = m->nnics - 1;
    return m->nnics ? top + 1 + (i - m->nnics) : i;
}

int ry_nic_rdma(const ry_node_model *m, int i, char *buf, size_t n)
{
    if (i >= 0 && i < m->nnics)
        return snprintf(buf, n, "%s", m->nics[i].rdma);
    return snprintf(buf, n, "mlx5_%d", ry_nic_number(m, i));
}

const char *ry_nic_netdev(const ry_node_model *m, int i)
{
    return i >= 0 && i < m->nnics ? m->nics[i].netdev : "";
}

const char *ry_nic_cage(const ry_node_model *m, int i)
{
    return i >= 0 && i < m->nnics ? m->nics[i].cage : "";
}

int ry_rack_tray_units(const ry_node_model *m)
{
    int u = 0;
    for (int i = 0; i < m->ntrays; i++)
        u += m->trays[i].per_rack * m->trays[i].units;
    return u;
}

double ry_rack_tray_power(const ry_node_model *m)
{
    double w = 0;
    for (int i = 0; i < m->ntrays; i++)
        w += m->trays[i].per_rack * m->trays[i].power_w;
    return w;
}

void ry_spec_as_design(const ry_spec *s, ry_design d, ry_spec *out)
{
    *out = *s;
    out->design = d;
    if (d != s->design) {
        out->tiers = 0;
        out->tiers_by_position = s->n_tier > 0;
        out->rack_tor = 0;
    }
}
