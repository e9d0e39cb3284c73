/* Slurm hostlist expressions: "node[001-127]", "gpu[1-3,7],login".
 *
 * Compression keeps the caller's order and only looks at a name's trailing
 * number: names that share the text before it become one bracket, a run of
 * consecutive numbers one range. A range's width is the length of its low
 * number and every member is printed zero-padded to that width, as Slurm
 * reads it, so node099,node100 is node[099-100] and node9,node10 is
 * node[9-10]; a member that would print differently (node009 after node8)
 * starts a new range. Names with no trailing digits (login, gpu1.ib) or
 * nothing before the number are written as they are: Slurm documents only
 * prefix[ranges], so railyard writes nothing else. A range holds at most
 * RY_HOSTLIST_MAX_RANGE names, Slurm's limit. */
#ifndef RY_HOSTLIST_H
#define RY_HOSTLIST_H

#include <stddef.h>

#include "util/buf.h"

#define RY_HOSTLIST_MAX_RANGE 65536

/* Appends the expression of names[0..n) to out (nothing when n is 0). Names
 * must be non-empty and hold no '[', ']', ',' or white space. */
void ry_hostlist_compress_buf(ry_buf *out, const char *const *names, size_t n);

/* The same, as a string the caller frees. */
char *ry_hostlist_compress(const char *const *names, size_t n);

/* Expands an expression into its names, in order: items separated by commas
 * or white space, each text with any number of [a,b-c,...] groups (every
 * combination, the leftmost group varying slowest; a group's numbers keep the
 * width of their low end). On success *names holds *n malloc'd strings (free
 * with ry_hostlist_free) and 0 is returned; on a malformed expression, -1
 * with the reason in why. More than max names
 * (0: 2^32) is an error. */
int ry_hostlist_expand(const char *expr, size_t max, char ***names, size_t *n, char *why,
                       size_t whycap);

void ry_hostlist_free(char **names, size_t n);

/* Names in the order a person counts them: runs of digits compare as
 * numbers (mlx5_3 before mlx5_10, node9 before node10), the rest byte by
 * byte; equal numbers with more leading zeros after (node9 before node09),
 * so the order is total and agrees with strcmp on names without digits. */
int ry_name_cmp(const char *a, const char *b);

#endif
