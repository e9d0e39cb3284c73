/* The RoCE QoS profiles' numbers, read by the plan's summary, the hosts'
 * and SONiC's files; it calls none of them. */
#include "emit/eth/eth.h"

/* The profiles' defaults, each from a published source:
 *  - RoCE on DSCP 26 and priority 3, PFC on priority 3 only; CNPs on DSCP
 *    48 at priority 6, strict priority: NVIDIA's RoCE configuration guides
 *    for ConnectX (their "lossless" RoCE defaults) and Juniper's AI data
 *    center design (the same markings).
 *  - ECN marking on the RoCE queue from 1 MiB to 2 MiB of queue, with
 *    probability 5% at the top: SONiC's default lossless WRED profile
 *    (sonic-buildimage files/build_templates/qos_config.j2, WRED_PROFILE
 *    AZURE_LOSSLESS: green_min_threshold 1048576, green_max_threshold
 *    2097152, green_drop_probability 5, ecn ecn_all).
 *  - lossy: the same markings and ECN, PFC off, as SONiC's SN5600 AI SKU
 *    ships it (an empty LOSSLESS_TC). */
void ry_roce_qos_of(int profile, ry_roce_qos *q)
{
    q->roce_dscp = 26;
    q->roce_prio = 3;
    q->cnp_dscp = 48;
    q->cnp_prio = 6;
    q->pfc = profile == RY_QOS_LOSSLESS;
    q->ecn_min_kb = 1024;
    q->ecn_max_kb = 2048;
    q->ecn_prob = 5;
}

const char *ry_roce_qos_name(int profile)
{
    return profile == RY_QOS_LOSSY ? "lossy" : "lossless";
}
