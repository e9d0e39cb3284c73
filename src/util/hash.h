/* Keyed hashing for tables whose keys come from input files (YAML anchors,
 * GUIDs and node ids of a topology): SipHash-2-4 with a key drawn at random
 * once per process, so nobody can choose keys that collide and turn a table
 * into a list. Only lookups depend on it: no output is ordered by a hash, so
 * outputs stay the same bytes from run to run. */
#ifndef RY_HASH_H
#define RY_HASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-2-4 of n bytes under the 128-bit key k[0], k[1]. */
uint64_t ry_siphash(const uint64_t k[2], const void *data, size_t n);

/* The same under this process's random key. */
uint64_t ry_hash_bytes(const void *data, size_t n);
uint64_t ry_hash_str(const char *s);
uint64_t ry_hash_u64(uint64_t x);

#endif
