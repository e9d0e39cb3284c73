/* The cabling plan's files. Rows follow link ids, so the same spec gives the
 * same bytes; every CSV is RFC 4180 (CRLF, fields quoted only when they hold
 * a comma, a quote or a line break, quotes doubled). Rows are formatted by
 * hand into one buffer per file: at 200,000 cables, one fprintf per field
 * would be most of the run. */
#include "emit/cabling/emit_cabling.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "emit/colors.h"
#include "emit/csv.h"
#include "emit/cabling/cab_rows.h"
#include "emit/cabling/emit_netbox.h"
#include "emit/cabling/emit_p2p.h"
#include "emit/cabling/emit_xlsx.h"
#include "fabric/names.h"
#include "util/buf.h"
#include "util/diag.h"

/* ---- CSV ------------------------------------------------------------------------------------ */

/* v as "%lld" writes it, into t, without parsing a format on every cell. */
static const char *int_text(char t[24], long long v)
{
    char *p = t + 23;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *--p = '-';
    return p;
}

static const char *num_text(char t[32], double v)
{
    snprintf(t, 32, "%.10g", v);
    return t;
}

static const char *netbox_type(int kind)
{
    switch (kind) {
    case RY_MEDIA_DAC: return "dac-passive";
    case RY_MEDIA_LACC: return "dac-active";
    case RY_MEDIA_AOC: return "aoc";
    case RY_MEDIA_MMF: return "mmf-om4";
    case RY_MEDIA_SMF: return "smf-os2";
    }
    return "";
}

static void row_cabling(ry_buf *b, const ry_cab_row *r)
{
    const ry_cab_end *e[2] = { &r->a, &r->z };
    char n[10][24], len[32], gbps[32];
    const char *f[23];
    int k = 0;
    f[k++] = r->label;
    for (int i = 0; i < 2; i++) {
        f[k++] = int_text(n[4 * i], e[i]->row);
        f[k++] = e[i]->rack_name;
        f[k++] = int_text(n[4 * i + 1], e[i]->unit);
        f[k++] = e[i]->device;
        f[k++] = e[i]->type;
        /* the port as errors, whatif and the OpenSM files number it, then
         * (switches) as the switch's faceplate and OS name it */
        f[k++] = e[i]->is_server ? e[i]->port_name : int_text(n[4 * i + 2], e[i]->number);
        f[k++] = e[i]->is_server ? "" : e[i]->port_name;
    }
    f[k++] = r->medium->name;
    f[k++] = ry_media_kind_name(r->medium->kind);
    f[k++] = r->part;
    f[k++] = num_text(len, r->length_m);
    f[k++] = num_text(gbps, r->gbps);
    f[k++] = r->rail >= 0 ? int_text(n[3], r->rail) : "";
    f[k++] = int_text(n[7], r->plane);
    f[k++] = int_text(n[8], r->tier);
    ry_csv_row(b, f, k);
}

static void row_netbox(ry_buf *b, const ry_cab_row *r)
{
    char len[32];
    const char *f[] = {
        r->a.device, "dcim.interface", r->a.port_name,
        r->z.device, "dcim.interface", r->z.port_name,
        netbox_type(r->medium->kind), "planned", r->label, ry_rail_color(r->rail),
        num_text(len, r->length_m), "m"
    };
    ry_csv_row(b, f, (int)(sizeof f / sizeof f[0]));
}

/* ---- files ------------------------------------------------------------------------------------ */

typedef struct outfile {
    FILE *fp;
    ry_buf b;
} outfile;

#define FLUSH_AT (1u << 20)

static int out_open(outfile *of, ry_outdir *o, const char *prefix, const char *name)
{
    ry_buf_init(&of->b);
    of->fp = ry_outdir_open_in(o, prefix, name);
    return of->fp ? 0 : -1;
}

static void out_flush(outfile *of)
{
    if (of->b.len)
        fwrite(of->b.data, 1, of->b.len, of->fp);
    ry_buf_reset(&of->b);
}

static int out_close(outfile *of, ry_outdir *o)
{
    int rc = 0;
    if (of->fp) {
        out_flush(of);
        rc = ry_outdir_close(o, of->fp);
        of->fp = NULL;
    }
    ry_buf_free(&of->b);
    return rc;
}

static int write_csvs(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    outfile cab, nb;
    int bad = out_open(&cab, o, prefix, "cabling.csv") < 0;
    bad |= out_open(&nb, o, prefix, "netbox/08-cables.csv") < 0;
    if (!bad) {
        ry_buf_puts(&cab.b, "label,a_row,a_rack,a_u,a_device,a_type,a_port,a_cage_port,z_row,"
                            "z_rack,z_u,z_device,z_type,z_port,z_cage_port,media,kind,part,"
                            "length_m,speed_gbps,rail,plane,tier");
        ry_csv_end(&cab.b);
        ry_buf_puts(&nb.b, "side_a_device,side_a_type,side_a_name,side_b_device,side_b_type,"
                           "side_b_name,type,status,label,color,length,length_unit");
        ry_csv_end(&nb.b);
        ry_cab_row r;
        for (size_t l = 0; l < nm->f->nlinks; l++) {
            ry_cab_row_of(nm, (uint32_t)l, &r);
            row_cabling(&cab.b, &r);
            row_netbox(&nb.b, &r);
            if (cab.b.len >= FLUSH_AT)
                out_flush(&cab);
            if (nb.b.len >= FLUSH_AT)
                out_flush(&nb);
        }
    }
    bad |= out_close(&cab, o) < 0;
    bad |= out_close(&nb, o) < 0;
    return bad ? -1 : 0;
}

/* ---- racks and rooms -------------------------------------------------------------------------- */

/* Metres and kilowatts, to the millimetre and the watt. */
static void csv_m(ry_buf *b, double v)
{
    char t[32];
    ry_buf_puts(b, num_text(t, round(v * 1000) / 1000));
}

/*
 * racks.csv: one row per rack (name, room, building, row and position
 * from 1, kind, units in use, power of what stands in it); rooms.csv: one
 * row per room, with its place: the building's on the campus (grid cell and
 * metres), its side of the corridor, its distance along it and its size,
 * and where the building's cables leave it (entry_m along the corridor).
 */
static int write_racks(ry_outdir *o, const char *prefix, const ry_cab_names *nm)
{
    const ry_layout *lay = nm->lay;
    outfile rk, rm;
    int bad = out_open(&rk, o, prefix, "racks.csv") < 0;
    bad |= out_open(&rm, o, prefix, "rooms.csv") < 0;
    if (!bad) {
        char name[32];
        ry_buf_puts(&rk.b, "rack,room,building,row,position,kind,units_used,power_kw");
        ry_csv_end(&rk.b);
        for (int i = 0; i < lay->nracks; i++) {
            const ry_rack *k = &lay->racks[i];
            ry_csv_field(&rk.b, nm->pool + nm->rack[i]);
            ry_cab_room_name(&lay->rooms[k->room], name, sizeof name);
            ry_buf_printf(&rk.b, ",%s,%d,%d,%d,%s,%d,", name, lay->rooms[k->room].building + 1,
                          k->row + 1, k->col + 1,
                          k->kind == RY_RACK_COMPUTE ? "compute" : "network", k->used_units);
            csv_m(&rk.b, k->power_w / 1000);
            ry_csv_end(&rk.b);
            if (rk.b.len >= FLUSH_AT)
                out_flush(&rk);
        }
        ry_buf_puts(&rm.b, "room,kind,building,grid_x,grid_y,building_x_m,building_y_m,entry_m,"
                           "side,x_m,width_m,depth_m,rows,racks_per_row,racks,power_kw");
        ry_csv_end(&rm.b);
        for (int i = 0; i < lay->nrooms; i++) {
            const ry_room *r = &lay->rooms[i];
            const ry_building *bd = &lay->buildings[r->building];
            ry_cab_room_name(r, name, sizeof name);
            ry_buf_printf(&rm.b, "%s,%s,%d,%d,%d,", name,
                          r->kind == RY_ROOM_HALL ? "hall" : "network", r->building + 1, bd->gx,
                          bd->gy);
            csv_m(&rm.b, bd->gx * lay->pitch_x);
            ry_buf_putc(&rm.b, ',');
            csv_m(&rm.b, bd->gy * lay->pitch_y);
            ry_buf_putc(&rm.b, ',');
            csv_m(&rm.b, bd->entry);
            ry_buf_printf(&rm.b, ",%d,", r->side);
            csv_m(&rm.b, r->x0);
            ry_buf_putc(&rm.b, ',');
            csv_m(&rm.b, r->width);
            ry_buf_putc(&rm.b, ',');
            csv_m(&rm.b, r->depth);
            ry_buf_printf(&rm.b, ",%d,%d,%d,", r->rows, r->racks_per_row, r->nracks);
            csv_m(&rm.b, r->power_w / 1000);
            ry_csv_end(&rm.b);
        }
    }
    bad |= out_close(&rk, o) < 0;
    bad |= out_close(&rm, o) < 0;
    return bad ? -1 : 0;
}

/* ---- the workbook ------------------------------------------------------------------------------ */

/* The workbook takes most of the time at scale (libxlsxwriter's cells and
 * its deflate of every sheet), so it is written on a thread of its own
 * while the other files (and the other groups of a build) are: with names
 * of its own, as the others' are freed when they are done. */
typedef struct xlsx_job {
    ry_cab_names nm;
    ry_capex capex;
    int has_capex;
    char *path;
} xlsx_job;

static int xlsx_job_run(void *arg)
{
    xlsx_job *j = arg;
    const ry_xlsx_limits excel = { RY_XLSX_MAX_ROWS, RY_XLSX_RACK_SHEETS };
    int rc = ry_emit_cabling_xlsx(&j->nm, j->has_capex ? &j->capex : NULL, j->path, &excel);
    ry_cab_names_free(&j->nm);
    free(j->path);
    free(j);
    return rc;
}

int ry_emit_cabling(ry_outdir *o, const char *prefix, const ry_cabling *c, const ry_capex *capex)
{
    char *path = ry_outdir_path_in(o, prefix, "cabling.xlsx");
    if (!path)
        return -1;
    xlsx_job *j = ry_xcalloc(1, sizeof *j);
    ry_cab_names_init(&j->nm, c);
    if (capex) {
        j->capex = *capex;
        j->has_capex = 1;
    }
    j->path = path;
    if (ry_outdir_spawn(o, xlsx_job_run, j) < 0)
        return -1;
    ry_cab_names nm;
    ry_cab_names_init(&nm, c);
    int bad = write_csvs(o, prefix, &nm) < 0;
    if (!bad)
        bad = write_racks(o, prefix, &nm) < 0;
    if (!bad)
        bad = ry_emit_p2p(o, prefix, &nm) < 0;
    if (!bad) {
        char nb[512];
        snprintf(nb, sizeof nb, "%s/netbox", prefix);
        bad = ry_emit_netbox(o, nb, &nm) < 0;
    }
    ry_cab_names_free(&nm);
    return bad ? -1 : 0;
}
