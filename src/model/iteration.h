/* The rail-only paper's iteration-time model (Wang et al., eq. 1-3), as
 * doc/llm-model.md restates it: hybrid tensor (N_M) and two-level data
 * parallelism (N_Ds inside an HB domain, N_Df across domains), N = N_M *
 * N_Ds * N_Df and K = N_M * N_Ds, hierarchical all-reduce:
 *
 *   T_iter = M_flop/(N*C)                                       compute
 *          + l * 2*S_T*(N_Df-1)/(N*B_S)                         DP across domains
 *          + l * 2*S_T*(N_Ds-1)/(K*B_F)                         DP inside a domain
 *          + l * M_cc*b*d_model*(N_M-1)/(N*B_F)                 tensor parallel
 *
 * with S_T in bytes (one block's gradients), b in tokens, M_cc in bytes
 * (collective rounds per block times bytes per element), B_F and B_S in
 * bytes/s per GPU, C in FLOP/s per GPU. The ideal is the same model with
 * K = N. */
#ifndef RY_ITERATION_H
#define RY_ITERATION_H

#include "spec/workload.h"
#include "spec/spec.h"
#include "model/moe.h"

typedef struct ry_iter_in {
    long long N;        /* GPUs */
    long long K;        /* HB domain size */
    double layers;      /* l */
    double d_model;
    double S_T;         /* bytes */
    double b;           /* tokens per iteration */
    double M_cc;        /* bytes */
    double M_flop;      /* FLOPs the hardware executes per iteration */
    double C;           /* FLOP/s per GPU (efficiency applied) */
    double B_F, B_S;    /* bytes/s per GPU */
    long long batch;    /* sequences: N/N_M may not exceed it; 0 = no limit */
} ry_iter_in;

typedef struct ry_iter_terms {
    long long K, NM, NDs, NDf;
    double compute, dp_cross, dp_in, tp;    /* seconds */
    double total;
} ry_iter_terms;

/* Eq. 1 at HB domain K and tensor-parallel size NM (NM divides K, K divides N). */
void ry_iter_eval(const ry_iter_in *in, long long K, long long NM, ry_iter_terms *t);

/* Whether NM is a valid tensor-parallel size at HB domain K: it divides K,
 * K divides N, and N/NM <= batch. */
int ry_iter_valid(const ry_iter_in *in, long long K, long long NM);

/* The minimum of eq. 1 over the valid NM at K (ties to the smaller NM), or
 * at NM = forced when forced > 0. -1 when there is none. */
int ry_iter_best(const ry_iter_in *in, long long K, long long forced, ry_iter_terms *t);

/* The paper's eq. 2, N_M* = sqrt(N*S_T) / (2*sqrt(b*M_cc*d_model)). */
double ry_iter_eq2(const ry_iter_in *in);
/* The continuous minimiser of eq. 1: sqrt(2*N*S_T / (b*M_cc*d_model)). */
double ry_iter_nm_continuous(const ry_iter_in *in);

/* Everything `railyard model` reports. */
typedef struct ry_model {
    ry_workload w;
    ry_design design;       /* the spec's */
    ry_iter_in in;
    int bytes;              /* per element */
    double peak_flops;      /* per GPU, at the precision, no efficiency */
    double model_flops;     /* per iteration (the convention's) */
    double hw_flops;        /* model_flops, plus recomputation */
    double nic_gbps;        /* per GPU, all planes */
    ry_iter_terms best;     /* optimum at the cluster's K */
    ry_iter_terms ideal;    /* K = N */
    double eq2, nm_cont;
    double relative;        /* T_ideal / T_iter */
    double mfu, hfu;
    double tokens_per_s;
    /* Mixture of experts (model/moe.h): the expert all-to-all, a term apart
     * from eq. 1's (best.total leaves it out). */
    int has_moe;
    ry_moe_in moe_in;
    ry_moe_a2a moe;         /* both designs */
    double moe_s;           /* seconds per iteration on the spec's design */
} ry_model;

/* What every model of a spec needs: a workload the cluster can run and
 * NICs no faster than the switch ports (unless the spec accepts it). -1
 * with the error printed at the spec's key. */
int ry_model_check_spec(const ry_spec *s);

/* Fills the inputs of eq. 1 from a loaded spec with a workload. */
void ry_model_inputs(const ry_spec *s, ry_model *m);
/* Inputs and results. -1 (error printed at the spec) when no tensor-parallel
 * size is valid or the spec has no workload. */
int ry_model_compute(const ry_spec *s, ry_model *m);

/* The model after a failure (railyard whatif). The job keeps its layout:
 * the same HB domain and tensor-parallel size as m->best. B_S is scaled by
 * bs_ratio, the slowest HB domain's share of its network bandwidth (it
 * gates the cross-domain all-reduce). Traffic an HB domain forwards for its
 * GPUs over NVLink is given in units of V, one GPU's cross-domain
 * all-reduce bytes per iteration, l*2*S_T*(N_Df-1)/N: fwd_max on the
 * busiest GPU, fwd_sum over all; a forwarded byte crosses NVLink on the way
 * out and its answer on the way in (twice), at B_F, after the all-reduce
 * (no overlap assumed). */
typedef struct ry_iter_degraded {
    ry_iter_terms before, after;    /* after.total includes nvlink_s */
    double bs_before, bs_after;     /* bytes/s per GPU */
    double v_bytes;                 /* V */
    double fwd_bytes_max;           /* extra NVLink bytes per iteration, busiest GPU */
    double fwd_bytes_total;         /* the same, all GPUs */
    double nvlink_s;                /* fwd_bytes_max at B_F */
    double slowdown;                /* after.total / before.total; INFINITY when stalled */
    int stalled;                    /* an HB domain has no network left */
} ry_iter_degraded;

void ry_iter_degrade(const ry_model *m, double bs_ratio, double fwd_max, double fwd_sum,
                     ry_iter_degraded *d);

#endif
