#!/usr/bin/python3
"""Checks railyard's kubernetes/node-labels.yaml, read with PyYAML, against
the fabric and the cabling plan of the same build:

  shape      a v1 List of Node objects, one per host name of the naming
             pattern, in order, with metadata.name and metadata.labels only;
  keys       the keys NVIDIA topograph v1.0 writes (KEYS below, read in
             NVIDIA/topograph v1.0.0, commit aab33e18,
             pkg/topology/topology.go): fabric tiers 0..L-1 on every node,
             the accelerator domain exactly when an HB domain spans nodes;
             values valid Kubernetes label values;
  cabling    from cabling/cabling.csv (node-to-leaf rows, tier 1): every
             leaf serves nodes of one tier-0 value, and every node has a
             leaf on every rail of its GPUs;
  fabric     from fabric.json: tier-0 groups are the nodes joined by leaves,
             HB domains and, on rail designs, scalable units (the
             components of check-slurmctld.py); each higher tier holds
             whole groups of the tier below and is such a component for a
             cut below the top tier, the last is one value for all; the
             accelerator domain of node n is its HB domain n // (K / G);
  slurm      tier-N of a node is its level-N switch in slurm/topology.conf.

Usage: check-node-labels.py BUILD-DIR --nodes N --gpn G --hb K [--su S]
       [--pattern P]. Prints "ok" or the problems.
"""
import argparse
import csv
import importlib.util
import json
import os
import re
import sys

import yaml

# topograph v1.0.0 (aab33e18), pkg/topology/topology.go
FABRIC_TIER_PREFIX = 'fabric.topograph.run/tier-'
ACCEL_DOMAIN = 'accelerator.topograph.run/domain'
ACCEL_SUB_DOMAIN = 'accelerator.topograph.run/sub-domain'

here = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


cs = load('cs', os.path.join(here, '..', 'slurm', 'check-slurm.py'))
cc = load('cc', os.path.join(here, '..', 'slurm', 'check-slurmctld.py'))

problems = []


def bad(msg):
    if len(problems) < 20:
        problems.append(msg)


VALUE = re.compile(r'([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--nodes', type=int, required=True)
    ap.add_argument('--gpn', type=int, required=True)
    ap.add_argument('--hb', type=int, required=True)
    ap.add_argument('--su', type=int, default=0)
    ap.add_argument('--pattern', default='node{n1:03}')
    a = ap.parse_args()
    hosts = cs.host_names(a.pattern, a.nodes, a.gpn, a.hb, a.su)
    index = {h: i for i, h in enumerate(hosts)}

    doc = yaml.safe_load(open(os.path.join(a.dir, 'kubernetes', 'node-labels.yaml')))
    if doc.get('apiVersion') != 'v1' or doc.get('kind') != 'List':
        bad('not a v1 List')
    items = doc.get('items') or []
    if [it.get('metadata', {}).get('name') for it in items] != hosts:
        bad('the Node objects are not the %d hosts in order' % a.nodes)
    labels = []
    for it in items:
        if it.get('apiVersion') != 'v1' or it.get('kind') != 'Node' or \
                set(it) != {'apiVersion', 'kind', 'metadata'} or \
                set(it['metadata']) != {'name', 'labels'}:
            bad('%s: not a Node with only a name and labels' % it.get('metadata'))
        labels.append(it.get('metadata', {}).get('labels') or {})
    if problems or not labels:
        return
    tiers = sum(1 for k in labels[0] if k.startswith(FABRIC_TIER_PREFIX))
    keys = {FABRIC_TIER_PREFIX + str(i) for i in range(tiers)}
    if a.hb > a.gpn:
        keys.add(ACCEL_DOMAIN)
    for h, lab in zip(hosts, labels):
        if set(lab) != keys:
            bad('%s: keys %s, want %s' % (h, sorted(lab), sorted(keys)))
        for k, v in lab.items():
            if not isinstance(v, str) or len(v) > 63 or not VALUE.fullmatch(v):
                bad('%s: %s=%r is no Kubernetes label value' % (h, k, v))
    if problems:
        return
    tier = [[lab[FABRIC_TIER_PREFIX + str(i)] for lab in labels] for i in range(tiers)]

    # cabling plan: node-to-leaf cables
    leaf_values = {}
    node_rails = {}
    for row in csv.DictReader(open(os.path.join(a.dir, 'cabling', 'cabling.csv'))):
        if row['tier'] != '1' or row['a_device'] not in index:
            continue
        n = index[row['a_device']]
        leaf_values.setdefault(row['z_device'], set()).add(tier[0][n])
        node_rails.setdefault(n, set()).add(int(row['rail']))
    for leaf, vals in sorted(leaf_values.items()):
        if len(vals) != 1:
            bad('cabling: leaf %s serves nodes of tier-0 %s' % (leaf, sorted(vals)))

    # fabric: the groups each tier should make
    fab = json.load(open(os.path.join(a.dir, 'fabric.json')))
    rails_of = {}
    for x in fab['nodes']:
        if x['kind'] == 'gpu':
            rails_of.setdefault(x['index'] // a.gpn, set()).add(x['rail'])
    for n in range(a.nodes):
        if node_rails.get(n) != rails_of[n]:
            bad('cabling: %s is cabled to rails %s, its GPUs are on %s'
                % (hosts[n], sorted(node_rails.get(n, ())), sorted(rails_of[n])))
    top = max(x['tier'] for x in fab['nodes'] if x['kind'] != 'gpu')

    def groups(values):
        g = {}
        for n, v in enumerate(values):
            g.setdefault(v, set()).add(n)
        return {frozenset(s) for s in g.values()}
    if groups(tier[0]) != cc.components(a.nodes, a.gpn, a.hb, fab, 1):
        bad('tier-0 does not group the nodes as the fabric\'s leaves do')
    cuts = [cc.components(a.nodes, a.gpn, a.hb, fab, t) for t in range(1, top)]
    for i in range(1, tiers):
        up = {}
        for n in range(a.nodes):
            up.setdefault(tier[i - 1][n], set()).add(tier[i][n])
        if any(len(v) != 1 for v in up.values()):
            bad('tier-%d splits a group of tier-%d' % (i, i - 1))
        for g in groups(tier[i]):
            if len(g) < a.nodes and not any(g in c for c in cuts):
                bad('tier-%d groups nodes that meet only at the top tier' % i)
                break
    if len(set(tier[-1])) != 1:
        bad('tier-%d, the last, differs between nodes' % (tiers - 1))
    if a.hb > a.gpn:
        npd = a.hb // a.gpn
        if groups([lab[ACCEL_DOMAIN] for lab in labels]) != \
                {frozenset(range(s, s + npd)) for s in range(0, a.nodes, npd)}:
            bad('%s is not the HB domain' % ACCEL_DOMAIN)

    # slurm: the same tree as topology.conf
    sw, _ = cs.read_tree_conf(os.path.join(a.dir, 'slurm', 'topology.conf'))
    parent, leaf_of = cs.check_tree('topology.conf', sw, hosts)
    for n, h in enumerate(hosts):
        x, path = leaf_of.get(h), []
        while x is not None:
            path.append(x)
            x = parent.get(x)
        if path != [t[n] for t in tier]:
            bad('%s: tiers %s, topology.conf %s' % (h, [t[n] for t in tier], path))


if __name__ == '__main__':
    main()
    print('\n'.join(problems) if problems else 'ok')
    sys.exit(1 if problems else 0)
