#!/usr/bin/python3
"""Checks what a running slurmctld made of railyard's Slurm files against the
fabric, computed here from fabric.json and not from railyard's tree:

  topology   `scontrol show topology`: the level-0 switches split the nodes
             as the fabric's leaves do (nodes that share a leaf or an HB
             domain, directly or through other nodes, are one group: the
             connected components of the node-leaf graph); every higher switch holds its children's
             nodes and is a component of the fabric cut at some tier below
             its top; one root holds every node.
  nodes      `scontrol -F -o show node`: every node, Gres=gpu:<gpn>,
             Features = its level-0 switch (when there are several), its HB
             domain hbdN (when a domain spans nodes), railR for the rails of
             its GPUs when they are fewer than all; Partitions = all and its
             level-0 switch.
  partitions `scontrol -o show partition`: all (the default) with every
             node, one per level-0 switch with its nodes.

Usage: check-slurmctld.py DIR --fabric fabric.json --nodes N --gpn G --hb K
       [--su S] [--pattern P]; DIR holds topology.out, nodes.out, parts.out.
Prints "ok" or the problems.
"""
import argparse
import importlib.util
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('cs', os.path.join(here, 'check-slurm.py'))
cs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cs)
expand, host_names = cs.expand, cs.host_names

problems = []


def bad(msg):
    if len(problems) < 20:
        problems.append(msg)


def fields(line):
    out = {}
    for word in line.split():
        if '=' in word:
            k, v = word.split('=', 1)
            out[k] = v
    return out


def components(nnodes, gpn, hb, fab, max_tier):
    """Groups of node numbers joined by switches of tier <= max_tier, by an
    HB (NVLink) domain (nodes on different rails of one domain reach each
    other through it) or, on rail designs, by a scalable unit (the leaves
    of one unit, whose group in fabric.json is the unit, are one leaf
    switch to Slurm: a unit can need more than one leaf per rail)."""
    nodes = fab['nodes']
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def key(i):
        n = nodes[i]
        return ('n', n['index'] // gpn) if n['kind'] == 'gpu' else ('s', i)
    for l in fab['links']:
        a, b = nodes[l['a']['node']], nodes[l['b']['node']]
        if max(a['tier'], b['tier']) <= max_tier:
            parent[find(key(a['id']))] = find(key(b['id']))
    if fab['design'] != 'fat-tree':
        for n in nodes:
            if n['kind'] != 'gpu' and n['tier'] == 1:
                parent[find(('s', n['id']))] = find(('unit', n['group']))
    if hb > gpn:
        for n in range(nnodes):
            parent[find(('n', n))] = find(('n', n - n % (hb // gpn)))
    groups = {}
    for n in range(nnodes):
        groups.setdefault(find(('n', n)), set()).add(n)
    return {frozenset(g) for g in groups.values()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--fabric', required=True)
    ap.add_argument('--nodes', type=int, required=True)
    ap.add_argument('--gpn', type=int, required=True)
    ap.add_argument('--hb', type=int, required=True)
    ap.add_argument('--su', type=int, default=0)
    ap.add_argument('--pattern')   # default: railyard's, node{n1:0W}, W >= 3 digits of --nodes
    a = ap.parse_args()
    if not a.pattern:
        a.pattern = 'node{n1:0%d}' % max(3, len(str(a.nodes)))
    hosts = host_names(a.pattern, a.nodes, a.gpn, a.hb, a.su)
    index = {h: i for i, h in enumerate(hosts)}
    fab = json.load(open(a.fabric))
    top = max(n['tier'] for n in fab['nodes'] if n['kind'] != 'gpu')

    # topology
    sw = {}
    for line in open(os.path.join(a.dir, 'topology.out')):
        f = fields(line)
        if 'SwitchName' not in f:
            continue
        members = {index.get(h, -1) for h in expand(f.get('Nodes', ''))}
        if -1 in members:
            bad('topology: %s holds a node that is not in the cluster' % f['SwitchName'])
        kids = expand(f['Switches']) if 'Switches' in f else []
        sw[f['SwitchName']] = (int(f['Level']), frozenset(members), kids)
    leaf_sets = {name: m for name, (lv, m, _) in sw.items() if lv == 0}
    want = components(a.nodes, a.gpn, a.hb, fab, 1)
    if set(leaf_sets.values()) != want:
        bad('topology: level-0 switches do not split the nodes as the fabric\'s leaves do '
            '(%d switches, %d groups)' % (len(leaf_sets), len(want)))
    leaf_of = {}
    for name, m in leaf_sets.items():
        for n in m:
            if n in leaf_of:
                bad('topology: %s is under %s and %s' % (hosts[n], leaf_of[n], name))
            leaf_of[n] = name
    cuts = [components(a.nodes, a.gpn, a.hb, fab, t) for t in range(1, top)]
    roots = [name for name, (lv, m, _) in sw.items() if len(m) == a.nodes]
    maxlv = max(lv for lv, _, _ in sw.values())
    if len(sw) > 1 and (len(roots) != 1 or sw[roots[0]][0] != maxlv):
        bad('topology: no single root at the top level holds every node (%s)' % roots)
    for name, (lv, m, kids) in sw.items():
        if lv == 0:
            continue
        if not kids or set().union(*(sw[k][1] for k in kids if k in sw)) != m:
            bad('topology: %s does not hold exactly its children\'s nodes' % name)
        if any(sw.get(k, (lv,))[0] >= lv for k in kids):
            bad('topology: %s has a child at its own level or above' % name)
        if len(m) < a.nodes and not any(m in c for c in cuts):
            bad('topology: %s groups nodes that meet only at the top tier' % name)

    # nodes
    rails_of = {}
    for n in fab['nodes']:
        if n['kind'] == 'gpu':
            rails_of.setdefault(n['index'] // a.gpn, set()).add(n['rail'])
    all_rails = set().union(*rails_of.values())
    npd = a.hb // a.gpn if a.hb > a.gpn else 0
    seen = set()
    for line in open(os.path.join(a.dir, 'nodes.out')):
        f = fields(line)
        if 'NodeName' not in f:
            continue
        h = f['NodeName']
        if h not in index:
            bad('nodes: %s is not in the cluster' % h)
            continue
        n = index[h]
        seen.add(n)
        if f.get('Gres') != 'gpu:%d' % a.gpn:
            bad('nodes: %s has Gres=%s, want gpu:%d' % (h, f.get('Gres'), a.gpn))
        feats = set()
        if len(leaf_sets) > 1:
            feats.add(leaf_of.get(n))
        if npd:
            feats.add('hbd%d' % (n // npd + 1))
        if rails_of[n] != all_rails:
            feats |= {'rail%d' % r for r in rails_of[n]}
        got = f.get('AvailableFeatures', '(null)')
        got = set() if got == '(null)' else set(got.split(','))
        if got != feats:
            bad('nodes: %s has features %s, want %s' % (h, sorted(got), sorted(map(str, feats))))
        parts = {'all'} | ({leaf_of.get(n)} if len(leaf_sets) > 1 else set())
        if set(f.get('Partitions', '').split(',')) != parts:
            bad('nodes: %s is in partitions %s, want %s' % (h, f.get('Partitions'),
                                                            sorted(map(str, parts))))
    if len(seen) != a.nodes:
        bad('nodes: slurmctld knows %d of the %d nodes' % (len(seen), a.nodes))

    # partitions
    parts = {}
    for line in open(os.path.join(a.dir, 'parts.out')):
        f = fields(line)
        if 'PartitionName' in f:
            parts[f['PartitionName']] = f
    want_parts = {'all'} | (set(leaf_sets) if len(leaf_sets) > 1 else set())
    if set(parts) != want_parts:
        bad('partitions: %s, want %s' % (sorted(parts), sorted(want_parts)))
    if parts.get('all', {}).get('Default') != 'YES' or \
            parts.get('all', {}).get('TotalNodes') != str(a.nodes):
        bad('partitions: all is not the default with every node')
    for name in want_parts - {'all'}:
        got = {index.get(h, -1) for h in expand(parts.get(name, {}).get('Nodes', ''))}
        if got != leaf_sets[name]:
            bad('partitions: %s does not hold the nodes of switch %s' % (name, name))

    print('\n'.join(problems) if problems else 'ok')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
