#include "emit/tier_text.h"

#include <stdio.h>

#include "fabric/names.h"

const char *ry_tier_ports_text(char *buf, size_t n, const ry_tier_ports *t)
{
    int cnt[3] = { t->down, t->up, t->sw->radix - t->cages_down - t->cages_up };
    double sp[3] = { t->down_gbps, t->up_gbps, t->sw->port_gbps };
    int m = 0;
    for (int i = 0; i < 3; i++) {
        if (cnt[i] <= 0)
            continue;
        if (m > 0 && sp[m - 1] == sp[i]) {
            cnt[m - 1] += cnt[i];
        } else {
            cnt[m] = cnt[i];
            sp[m++] = sp[i];
        }
    }
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < m && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d x %gG", i ? " + " : "", cnt[i], sp[i]);
    return buf;
}

void ry_spec_tiers_text(ry_buf *o, const ry_spec *s, const char *sep)
{
    for (int j = 1; j <= s->n_tier; j++) {
        ry_tier_ports t;
        ry_err err;
        char ports[128];
        ry_buf_printf(o, "%s%s %s", j > 1 ? sep : "", ry_tier_name(j, s->n_tier),
                      ry_spec_tier_switch(s, j)->name);
        if (ry_tier_ports_of(s, s->n_tier, j, &t, &err) == 0)    /* checked when loaded */
            ry_buf_printf(o, " (%s)", ry_tier_ports_text(ports, sizeof ports, &t));
    }
}

static const char *use_word(ry_tier_use u)
{
    return u == RY_TIER_AS_TOP ? "as-top" : u == RY_TIER_REPEATED ? "repeated" : "as-listed";
}

void ry_tier_entries_text(ry_buf *o, const ry_spec *s, ry_design design, int tiers,
                          const ry_tier_entries *e)
{
    if (!e->by_position)
        return;
    ry_buf_printf(o, "%s: %d tier%s from fabric.tiers by position:", ry_design_name(design),
                  tiers, tiers == 1 ? "" : "s");
    for (int k = 1; k <= tiers; k++) {
        ry_buf_printf(o, "%s %s [%d]", k > 1 ? "," : "", ry_tier_name(k, tiers), e->entry[k]);
        if (e->use[k] == RY_TIER_AS_TOP)
            ry_buf_puts(o, " as the top (every port down)");
        else if (e->use[k] == RY_TIER_REPEATED)
            ry_buf_puts(o, " below the top (ports 1:1)");
    }
    int used = e->entry[tiers] + 1;     /* the entries above the top's are not used */
    if (used < s->n_tier) {
        ry_buf_printf(o, "; [%d", used);
        for (int k = used + 1; k < s->n_tier; k++)
            ry_buf_printf(o, "], [%d", k);
        ry_buf_puts(o, "] not used");
    }
    ry_buf_putc(o, '\n');
}

json_t *ry_tier_entries_json(int tiers, const ry_tier_entries *e)
{
    json_t *a = json_array();
    for (int k = 1; k <= tiers; k++)
        json_array_append_new(a, json_pack("{s:i, s:s, s:i, s:s}", "tier", k, "name",
                                           ry_tier_name(k, tiers), "entry", e->entry[k], "use",
                                           use_word(e->use[k])));
    return a;
}
