/* collective's report: a collective's time, algorithm and bus bandwidth as
 * nccl-tests prints them (its table: size, count, type, redop, time in us,
 * algbw and busbw in GB/s of 1e9 bytes), with the inputs on "# " lines
 * above and the bottleneck below; or JSON with the same figures
 * (time_s, algbw_gbytes_per_s, busbw_gbytes_per_s, bottleneck, the inputs
 * and, with a sweep, one row per size). */
#ifndef RY_EMIT_COLLECTIVE_H
#define RY_EMIT_COLLECTIVE_H

#include <stddef.h>

#include "emit/format.h"
#include "net/collective.h"
#include "util/buf.h"

/* One size of the table. */
typedef struct ry_coll_row {
    double bytes;
    ry_coll_result r;
} ry_coll_row;

/* One job of several run at once. */
typedef struct ry_coll_job {
    const ry_job *job;      /* its ranks and nodes */
    ry_coll_result r;       /* its time and bandwidths */
    int gpn;                /* GPUs per node (its node indexes) */
} ry_coll_job;

/* What was run and what came of it. */
typedef struct ry_coll_report {
    const char *spec;           /* the spec's name */
    ry_coll_op op;
    size_t ranks;
    long long nodes;
    const char *placement;      /* "contiguous", "scattered:7" */
    const char *routing;        /* ry_net_routing_name */
    int qps, hash_qp, pxn;
    long long shift;            /* sendrecv */
    const ry_coll_row *rows;    /* ascending sizes; the last is the size asked */
    size_t nrows;
    const char *bottleneck;     /* the last row's bottleneck resource, "" for none */
    int sharp, nvls;            /* asked for (what ran: the rows' algorithm) */
    const char *algo;           /* the algorithm asked: ry_coll_algo_name */
    const ry_coll_job *jobs;    /* every job; the rows are the slowest's */
    size_t njobs;
    long long as_built_down;    /* --fabric: cables found missing or moved, routed around;
                                   -1 without --fabric */
    int lfts;                   /* --lfts: routed by the forwarding tables found */
} ry_coll_report;

void ry_emit_collective(ry_buf *out, const ry_coll_report *r, ry_format fmt);

#endif
