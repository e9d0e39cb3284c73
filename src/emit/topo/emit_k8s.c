/* Kubernetes node labels (see emit_k8s.h).
 *
 * Why a List applied server-side: the nodes exist (the kubelet registered
 * them) and carry labels of their own; a server-side apply with its own
 * field manager sets exactly these labels and leaves every other field to
 * its owner, and applied again after a change it drops the labels it set
 * before and no longer lists. A merge patch per node would need one kubectl
 * run per node, and `kubectl label` lines a shell script. The cost: apply
 * creates a Node object for a name the cluster does not know, so the
 * header says to apply once the nodes have joined. */
#include "emit/topo/emit_k8s.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "emit/comment.h"
#include "util/buf.h"

static void explain(ry_buf *c, const ry_slurm_tree *t)
{
    const ry_fabric *f = t->f;
    ry_buf_printf(c, "Kubernetes node labels of %s, written by railyard from the spec, in the "
                  "keys NVIDIA topograph v1.0 writes, for schedulers that place pods by them "
                  "(Kueue topology-aware scheduling, KAI Scheduler). Apply once the nodes have "
                  "joined the cluster:\n"
                  "  kubectl apply --server-side --field-manager=railyard -f node-labels.yaml\n"
                  "Only these labels are set (other labels and fields keep their owners); "
                  "applied again after a change, labels railyard set before and no longer "
                  "lists are removed. Apply makes a Node object for a name the cluster does "
                  "not have, so check the names first (kubectl get nodes). Node names are the "
                  "host names of naming.node in lowercase, as the kubelet registers them.\n\n",
                  f->spec->name);
    ry_buf_printf(c, "%lld nodes (%lld GPUs, %d per node, %d per HB domain), %s, %d switch "
                  "tier%s.\n\n", t->nnodes, f->gpus, t->gpn, f->spec->hb_domain,
                  ry_design_name(f->design), f->tiers, f->tiers == 1 ? "" : "s");
    ry_buf_printf(c, "%sN (N = 0..%d): level N of the switch tree of the Slurm files "
                  "(topology.conf), closest to the node first, named as there", 
                  RY_K8S_FABRIC_TIER_PREFIX, t->nlv - 1);
    if (t->rail_design && f->tiers > 1)
        ry_buf_puts(c, ": tier-0 is the node's scalable unit (suN), which stands for the "
                    "unit's leaf switches on every rail, since a node of a rail design has no "
                    "one leaf (nodes with the same value meet on their unit's leaves, rail by "
                    "rail)");
    else if (f->tiers > 1)
        ry_buf_puts(c, ": tier-0 is the node's leaf (leafN)");
    ry_buf_printf(c, "; the last, %s, is the same for every node. Pods that need one "
                  "switch level in common use that tier as their topology key.\n",
                  t->lv[t->nlv - 1].name[0]);
    if (t->blocks.hb)
        ry_buf_printf(c, "%s: the node's HB (NVLink) domain, hbdN, %d nodes each (the "
                      "blocks of topology-block.conf).\n", RY_K8S_ACCEL_DOMAIN,
                      t->blocks.nodes_per_hb);
    else
        ry_buf_printf(c, "No %s: an HB (NVLink) domain is no larger than a node here.\n",
                      RY_K8S_ACCEL_DOMAIN);
    ry_buf_puts(c, "accelerator.topograph.run/sub-domain is not written: the spec has no "
                "level inside an HB domain.\n");
}

int ry_k8s_node_name(const char *host, char *buf, size_t n)
{
    size_t len = strlen(host), i;
    for (i = 0; i < len && i + 1 < n; i++)
        buf[i] = (char)tolower((unsigned char)host[i]);
    if (n)
        buf[i] = '\0';
    if (len == 0 || len > 253 || len >= n)
        return -1;
    size_t lab = 0;
    for (i = 0; i <= len; i++) {
        char c = buf[i];
        if (c == '.' || c == '\0') {
            if (lab == 0 || lab > 63 || buf[i - 1] == '-')
                return -1;
            lab = 0;
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') {
            if (lab == 0 && c == '-')
                return -1;
            lab++;
        } else {
            return -1;
        }
    }
    return 0;
}

int ry_k8s_check_names(const ry_slurm_tree *t, ry_err *err)
{
    char nm[512];
    for (long long n = 0; n < t->nnodes; n++)
        if (ry_k8s_node_name(t->host[n], nm, sizeof nm) < 0) {
            ry_err_set(err, "naming.node", "host name '%s' is no Kubernetes node name, even in "
                       "lowercase (RFC 1123: letters, digits, '-' and '.', a letter or digit at "
                       "each end of a dot-separated part, at most 253 characters): change "
                       "naming.node", t->host[n]);
            return -1;
        }
    return 0;
}

int ry_emit_k8s_labels(ry_outdir *o, const char *prefix, const ry_slurm_tree *t)
{
    FILE *fp = ry_outdir_open_in(o, prefix, "node-labels.yaml");
    if (!fp)
        return -1;
    ry_buf c;
    ry_buf_init(&c);
    explain(&c, t);
    ry_put_comment(fp, c.data);
    ry_buf_free(&c);
    fputs("apiVersion: v1\nkind: List\nitems:\n", fp);
    char nb[32], nm[512];
    for (long long n = 0; n < t->nnodes; n++) {
        int leaf = t->node_leaf[n];
        ry_k8s_node_name(t->host[n], nm, sizeof nm);
        fprintf(fp, "- apiVersion: v1\n  kind: Node\n  metadata:\n    name: \"%s\"\n"
                "    labels:\n", nm);
        /* sorted by key: accelerator.* before fabric.*, tiers below 10 first */
        if (t->blocks.hb)
            fprintf(fp, "      %s: \"%s\"\n", RY_K8S_ACCEL_DOMAIN,
                    ry_slurm_block_name(t, (int)(n / t->blocks.nodes_per_hb), nb, sizeof nb));
        for (int i = 0; i < t->nlv; i++)
            fprintf(fp, "      %s%d: \"%s\"\n", RY_K8S_FABRIC_TIER_PREFIX, i,
                    t->lv[i].name[t->lv[i].label[leaf]]);
    }
    return ry_outdir_close(o, fp);
}
