/* The catalog as tables (railyard catalog): one row per entry of a
 * catalog file with its key figures, as aligned text or as JSON (every
 * figure the loader keeps). The rows are built once, as JSON objects, and
 * the text table prints the columns named for it, so the two formats
 * cannot disagree. */
#ifndef RY_EMIT_CATALOG_H
#define RY_EMIT_CATALOG_H

#include "emit/report/emit_bom.h"
#include "spec/catalog.h"
#include "util/buf.h"

/* The sections, in the order `railyard catalog` lists them. */
typedef enum {
    RY_CAT_SWITCHES,
    RY_CAT_NODES,
    RY_CAT_GPUS,
    RY_CAT_LLMS,
    RY_CAT_MEDIA,
    RY_CAT_PRICES,
    RY_CAT_N
} ry_cat_section;

/* "switches", "nodes", "gpus", "llms", "media", "prices". */
const char *ry_cat_section_name(ry_cat_section s);
/* The catalog file of a section ("libra-costs.yaml" for prices). */
const char *ry_cat_section_file(ry_cat_section s);

/* What the sections are made from; a NULL member's sections are not
 * printed. All borrowed. */
typedef struct ry_cat_sources {
    const ry_catalog *cat;              /* switches, nodes */
    const ry_llm_catalog *llm;          /* gpus, llms (and a node's GPU) */
    const ry_media_catalog *media;
    const ry_libra_costs *prices;
} ry_cat_sources;

/* The sections whose bit (1 << section) is set in which, in order. Text:
 * each section under a heading line "NAME (FILE):" when more than one is
 * printed; JSON: one object keyed by section name holding arrays. */
void ry_emit_catalog(ry_buf *out, const ry_cat_sources *src, unsigned which, ry_format fmt);

#endif
