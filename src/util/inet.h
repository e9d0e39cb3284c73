/* IPv4 and IPv6 prefixes as the Ethernet plan uses them: parsed from a
 * spec's text, counted and formatted. Addresses are numbers (IPv4 in host
 * byte order; IPv6 as 16 bytes, network order), never strings, until they
 * are written. */
#ifndef RY_INET_H
#define RY_INET_H

#include <stddef.h>
#include <stdint.h>

typedef struct ry_prefix4 {
    uint32_t addr;      /* network address, host byte order */
    int len;            /* 0..32 */
} ry_prefix4;

typedef struct ry_prefix6 {
    uint8_t addr[16];
    int len;            /* 0..128 */
} ry_prefix6;

/* "10.0.0.0/9": 0, or -1 with why (a static string) when it is not a
 * prefix or has host bits set. */
int ry_prefix4_parse(const char *s, ry_prefix4 *p, const char **why);
int ry_prefix6_parse(const char *s, ry_prefix6 *p, const char **why);

/* Addresses in p: 2^(32 - len). */
static inline unsigned long long ry_prefix4_size(const ry_prefix4 *p)
{
    return 1ULL << (32 - p->len);
}
/* 1 when a and b share an address. */
int ry_prefix4_overlap(const ry_prefix4 *a, const ry_prefix4 *b);

/* The special-purpose range (RFC 6890) p meets that a pool of routed
 * unicast addresses cannot hold, as text ("224.0.0.0/4 (multicast)"), or
 * NULL: for IPv4 0/8 (this network), 127/8 (loopback), 169.254/16
 * (link-local), 224/4 (multicast) and 240/4 (reserved, with the broadcast
 * address); for IPv6 ::/8 (unspecified, loopback, IPv4-mapped), fe80::/10
 * (link-local) and ff00::/8 (multicast). */
const char *ry_prefix4_special(const ry_prefix4 *p);
const char *ry_prefix6_special(const ry_prefix6 *p);

/* Dotted quad of a (host byte order) into buf; returns buf. */
char *ry_ip4_text(uint32_t a, char *buf, size_t n);
/* RFC 5952 text of an IPv6 address. */
char *ry_ip6_text(const uint8_t a[16], char *buf, size_t n);
/* p's network with the subnet number sub at bits [p->len, sublen) and
 * host in its last 64 bits. */
void ry_ip6_compose(const ry_prefix6 *p, int sublen, unsigned long long sub,
                    unsigned long long host, uint8_t out[16]);

#endif
