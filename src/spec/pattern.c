#include "spec/pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ry_name_pattern(const char *pat, long long n, long long unit, char *buf, size_t cap,
                    char *why, size_t whycap)
{
    size_t len = 0;
    for (const char *p = pat; *p;) {
        char piece[32];
        const char *add = piece;
        size_t addlen;
        if (*p == '{') {
            const char *close = strchr(p, '}');
            if (!close) {
                snprintf(why, whycap, "unclosed '{'");
                return -1;
            }
            char name[16] = "";
            int width = 0;
            const char *colon = memchr(p, ':', (size_t)(close - p));
            size_t nl = (size_t)((colon ? colon : close) - p - 1);
            if (nl >= sizeof name) {
                snprintf(why, whycap, "unknown placeholder");
                return -1;
            }
            memcpy(name, p + 1, nl);
            name[nl] = '\0';
            if (colon) {
                char *end;
                long w = strtol(colon + 1, &end, 10);
                if (end != close || w < 1 || w > 12) {
                    snprintf(why, whycap, "a width is 1 to 12 digits, as in {n1:03}");
                    return -1;
                }
                width = (int)w;
            }
            long long v;
            if (strcmp(name, "n") == 0)
                v = n;
            else if (strcmp(name, "n1") == 0)
                v = n + 1;
            else if (strcmp(name, "unit") == 0)
                v = unit;
            else if (strcmp(name, "unit1") == 0)
                v = unit + 1;
            else {
                snprintf(why, whycap, "unknown placeholder {%s}", name);
                return -1;
            }
            snprintf(piece, sizeof piece, "%0*lld", width, v);
            addlen = strlen(piece);
            p = close + 1;
        } else {
            if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-') {
                snprintf(why, whycap, "'%c' cannot be part of a host name", *p);
                return -1;
            }
            add = p;
            addlen = 1;
            p++;
        }
        if (len + addlen + 1 > cap) {
            snprintf(why, whycap, "names would be longer than %zu characters", cap - 1);
            return -1;
        }
        memcpy(buf + len, add, addlen);
        len += addlen;
    }
    if (len == 0) {
        snprintf(why, whycap, "names would be empty");
        return -1;
    }
    buf[len] = '\0';
    return (int)len;
}
