/* IPv4 and IPv6 prefixes: parsing with reasons, overlap and text. The
 * system's inet_pton and inet_ntop do the text; this file adds the prefix
 * length and the checks a spec's pool needs. */
#include "util/inet.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int split_len(const char *s, char *addr, size_t cap, int max, int *len,
                     const char **why)
{
    const char *slash = strchr(s, '/');
    if (!slash) {
        *why = "no prefix length (/N)";
        return -1;
    }
    size_t n = (size_t)(slash - s);
    if (n == 0 || n >= cap) {
        *why = "not an address";
        return -1;
    }
    memcpy(addr, s, n);
    addr[n] = 0;
    const char *d = slash + 1;
    if (!*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 3) {
        *why = "the prefix length is not a number";
        return -1;
    }
    *len = atoi(d);
    if (*len > max) {
        *why = max == 32 ? "the prefix length is above 32" : "the prefix length is above 128";
        return -1;
    }
    return 0;
}

int ry_prefix4_parse(const char *s, ry_prefix4 *p, const char **why)
{
    char a[INET_ADDRSTRLEN + 1];
    struct in_addr in;
    if (split_len(s, a, sizeof a, 32, &p->len, why) < 0)
        return -1;
    if (inet_pton(AF_INET, a, &in) != 1) {
        *why = "not an IPv4 address";
        return -1;
    }
    p->addr = ntohl(in.s_addr);
    uint32_t host = p->len == 32 ? 0 : (uint32_t)((1ULL << (32 - p->len)) - 1);
    if (p->addr & host) {
        *why = "host bits are set (the network address ends in zeros)";
        return -1;
    }
    return 0;
}

int ry_prefix6_parse(const char *s, ry_prefix6 *p, const char **why)
{
    char a[INET6_ADDRSTRLEN + 1];
    if (split_len(s, a, sizeof a, 128, &p->len, why) < 0)
        return -1;
    if (inet_pton(AF_INET6, a, p->addr) != 1) {
        *why = "not an IPv6 address";
        return -1;
    }
    for (int b = p->len; b < 128; b++)
        if (p->addr[b / 8] & (0x80 >> (b % 8))) {
            *why = "host bits are set (the network address ends in zeros)";
            return -1;
        }
    return 0;
}

int ry_prefix4_overlap(const ry_prefix4 *a, const ry_prefix4 *b)
{
    int len = a->len < b->len ? a->len : b->len;
    uint32_t mask = len == 0 ? 0 : ~(uint32_t)0 << (32 - len);
    return (a->addr & mask) == (b->addr & mask);
}

const char *ry_prefix4_special(const ry_prefix4 *p)
{
    static const struct { ry_prefix4 r; const char *text; } special[] = {
        { { 0x00000000u, 8 }, "0.0.0.0/8 (this network)" },
        { { 0x7f000000u, 8 }, "127.0.0.0/8 (loopback)" },
        { { 0xa9fe0000u, 16 }, "169.254.0.0/16 (link-local)" },
        { { 0xe0000000u, 4 }, "224.0.0.0/4 (multicast)" },
        { { 0xf0000000u, 4 }, "240.0.0.0/4 (reserved, and the broadcast address)" },
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (ry_prefix4_overlap(p, &special[i].r))
            return special[i].text;
    return NULL;
}

const char *ry_prefix6_special(const ry_prefix6 *p)
{
    static const struct { uint8_t first[2]; int len; const char *text; } special[] = {
        { { 0x00, 0x00 }, 8, "::/8 (unspecified, loopback, IPv4-mapped)" },
        { { 0xfe, 0x80 }, 10, "fe80::/10 (link-local)" },
        { { 0xff, 0x00 }, 8, "ff00::/8 (multicast)" },
    };
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
        /* they share an address when they agree on the shorter's bits */
        int len = p->len < special[i].len ? p->len : special[i].len;
        unsigned v = (unsigned)p->addr[0] << 8 | p->addr[1];
        unsigned r = (unsigned)special[i].first[0] << 8 | special[i].first[1];
        unsigned mask = len == 0 ? 0 : (0xffffu << (16 - len)) & 0xffffu;
        if ((v & mask) == (r & mask))
            return special[i].text;
    }
    return NULL;
}

char *ry_ip4_text(uint32_t a, char *buf, size_t n)
{
    snprintf(buf, n, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
    return buf;
}

char *ry_ip6_text(const uint8_t a[16], char *buf, size_t n)
{
    char t[INET6_ADDRSTRLEN];
    if (!inet_ntop(AF_INET6, a, t, sizeof t))
        t[0] = 0;
    snprintf(buf, n, "%s", t);
    return buf;
}

void ry_ip6_compose(const ry_prefix6 *p, int sublen, unsigned long long sub,
                    unsigned long long host, uint8_t out[16])
{
    memcpy(out, p->addr, 16);
    /* the subnet number's bits, last bit at sublen - 1 */
    for (int b = sublen - 1; b >= p->len && sub; b--, sub >>= 1)
        if (sub & 1)
            out[b / 8] |= (uint8_t)(0x80 >> (b % 8));
    for (int i = 0; i < 8; i++)
        out[15 - i] |= (uint8_t)(host >> (8 * i));
}
