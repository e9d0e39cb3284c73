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
