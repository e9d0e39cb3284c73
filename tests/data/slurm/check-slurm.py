#!/usr/bin/env python3
"""Checks railyard's Slurm topology files (DIR holding topology.conf,
topology-block.conf and topology.yaml) without Slurm and without railyard's
C code: hostlists are expanded here, host names come from the naming
pattern, and the fabric from railyard's fabric.json.

Rules, from Slurm's topology.conf(5) and topology.yaml(5) and the parsers
behind them (topology/tree switch_record.c, topology/block block_record.c,
the 25.05 data_parser schema):
  tree   every line "SwitchName=X Nodes=H" or "SwitchName=X Switches=H" (never
         both); names unique, 1..64 characters of [A-Za-z0-9_-] ('.' splits
         SLURM_TOPOLOGY_ADDR); every child switch defined and not the switch
         itself; one parent per switch, no cycle, depth <= 20; exactly one
         root; every node of the cluster on exactly one leaf switch, no other
         name.
  block  "BlockName=X Nodes=H" lines and one "BlockSizes=a,b,..." line; names
         unique; every node in exactly one block; the first size is the base
         and no block has fewer nodes (Slurm <= 24.11 refuses it); each next
         size is the previous times a power of two, and the base times at
         most 2^15.
  yaml   a list of topologies, "topology" first in each, unique names, one
         cluster_default, exactly one of tree/block/flat, only the documented
         keys (switches: switch, children, nodes; block_sizes, blocks: block,
         nodes); the same rules, and the same content as the .conf files,
         except that block_sizes start at the largest block (Slurm >= 25.05
         takes a smaller one) where BlockSizes start at the smallest.
And what the names claim, from the fabric: no real leaf serves nodes of two
leaf switches; the leaves of one rail under a switch below the root meet
below their subnet's top; blocks are the HB domains when a domain spans
nodes, else the leaf switches; each larger block size joins blocks that
share switches.

usage: check-slurm.py DIR --nodes N --gpn G --hb K [--su S] [--pattern P]
                      [--fabric JSON]
Prints "ok", or the problems found; exit status 1 on problems."""
import argparse
import json
import os
import re
import sys

try:
    import yaml
except ImportError:          # python3-yaml is a test dependency
    yaml = None

NAME_RE = re.compile(r'^[A-Za-z0-9_-]{1,64}$')
problems = []


def bad(msg):
    problems.append(msg)


# ---- hostlists --------------------------------------------------------------

def expand(expr):
    """Slurm's hostlist reading: items split on commas outside brackets; in
    a bracket, comma-separated N or N-M, printed zero-padded to the width of
    the low end; several brackets give every combination."""
    out = []
    items, depth, cur = [], 0, ''
    for ch in expr:
        if ch == '[':
            if depth:
                raise ValueError('nested [ in ' + expr)
            depth = 1
        elif ch == ']':
            if not depth:
                raise ValueError('] without [ in ' + expr)
            depth = 0
        if ch in ', \t' and not depth:
            if cur:
                items.append(cur)
            cur = ''
        else:
            cur += ch
    if depth:
        raise ValueError('[ without ] in ' + expr)
    if cur:
        items.append(cur)
    for item in items:
        parts = re.split(r'(\[[^\]]*\])', item)
        names = ['']
        for p in parts:
            if p.startswith('['):
                nums = []
                for el in p[1:-1].split(','):
                    m = re.fullmatch(r'(\d+)(?:-(\d+))?', el)
                    if not m:
                        raise ValueError('bad range %r in %s' % (el, expr))
                    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
                    if hi < lo or hi - lo + 1 > 65536:
                        raise ValueError('bad range %r in %s' % (el, expr))
                    w = len(m.group(1))
                    nums += ['%0*d' % (w, v) for v in range(lo, hi + 1)]
                names = [n + x for n in names for x in nums]
            else:
                names = [n + p for n in names]
        out += names
    return out


# ---- host names from the pattern ---------------------------------------------

def host_names(pattern, nodes, gpn, hb, su):
    def one(n):
        unit = n * gpn // hb // su if su else 0
        vals = {'n': n, 'n1': n + 1, 'unit': unit, 'unit1': unit + 1}

        def sub(m):
            v = vals[m.group(1)]
            return '%0*d' % (int(m.group(2)), v) if m.group(2) else str(v)
        return re.sub(r'\{(n1|n|unit1|unit)(?::(\d+))?\}', sub, pattern)
    return [one(n) for n in range(nodes)]


# ---- the files ---------------------------------------------------------------

def conf_lines(path):
    for i, line in enumerate(open(path), 1):
        line = line.split('#', 1)[0].strip()
        if line:
            yield i, line


def read_tree_conf(path):
    sw = {}
    order = []
    for i, line in conf_lines(path):
        m = re.fullmatch(r'SwitchName=(\S+) (Nodes|Switches)=(\S+)', line)
        if not m:
            bad('%s:%d: not "SwitchName=X Nodes=H" or "SwitchName=X Switches=H": %s'
                % (path, i, line))
            continue
        name, kind, hl = m.groups()
        if name in sw:
            bad('%s:%d: switch %s defined twice' % (path, i, name))
        sw[name] = (kind, hl)
        order.append(name)
    return sw, order


def check_tree(where, sw, all_hosts):
    """sw: name -> ('Nodes'|'Switches', hostlist). Returns (parent, leaf_of)."""
    parent, leaf_of = {}, {}
    known = set(all_hosts)
    for name, (kind, hl) in sw.items():
        if not NAME_RE.match(name):
            bad('%s: switch name %r: 1..64 of [A-Za-z0-9_-]' % (where, name))
        try:
            members = expand(hl)
        except ValueError as e:
            bad('%s: %s: %s' % (where, name, e))
            continue
        if not members:
            bad('%s: %s has no children' % (where, name))
        if kind == 'Switches':
            for c in members:
                if c not in sw:
                    bad('%s: %s: child switch %s not defined' % (where, name, c))
                elif c == name:
                    bad('%s: %s is its own child' % (where, name))
                elif c in parent:
                    bad('%s: %s has two parents (%s, %s)' % (where, c, parent[c], name))
                else:
                    parent[c] = name
        else:
            for h in members:
                if h not in known:
                    bad('%s: %s lists %s, not a node of the cluster' % (where, name, h))
                elif h in leaf_of:
                    bad('%s: node %s on two leaf switches (%s, %s)' % (where, h, leaf_of[h], name))
                else:
                    leaf_of[h] = name
    roots = [n for n in sw if n not in parent]
    if len(roots) != 1:
        bad('%s: %d roots (%s), want one' % (where, len(roots), ' '.join(sorted(roots))[:200]))
    for n in sw:
        seen, x, depth = set(), n, 0
        while x in parent:
            if x in seen:
                bad('%s: cycle through %s' % (where, x))
                break
            seen.add(x)
            x = parent[x]
            depth += 1
        if depth > 20:
            bad('%s: %s is %d levels deep (Slurm stops at 20)' % (where, n, depth))
    missing = [h for h in all_hosts if h not in leaf_of]
    if missing:
        bad('%s: %d nodes on no leaf switch, e.g. %s' % (where, len(missing), missing[0]))
    return parent, leaf_of


def read_block_conf(path):
    blocks, order, sizes = {}, [], None
    for i, line in conf_lines(path):
        m = re.fullmatch(r'BlockName=(\S+) Nodes=(\S+)', line)
        if m:
            if m.group(1) in blocks:
                bad('%s:%d: block %s defined twice' % (path, i, m.group(1)))
            blocks[m.group(1)] = m.group(2)
            order.append(m.group(1))
            continue
        m = re.fullmatch(r'BlockSizes=(\d+(?:,\d+)*)', line)
        if m:
            if sizes is not None:
                bad('%s:%d: a second BlockSizes line' % (path, i))
            sizes = [int(x) for x in m.group(1).split(',')]
            continue
        bad('%s:%d: not "BlockName=X Nodes=H" or "BlockSizes=...": %s' % (path, i, line))
    if sizes is None:
        bad('%s: no BlockSizes line' % path)
        sizes = []
    return blocks, order, sizes


def check_blocks(where, blocks, order, sizes, all_hosts, base_is_largest=False):
    known = set(all_hosts)
    block_of, counts = {}, []
    for name in order:
        if not NAME_RE.match(name):
            bad('%s: block name %r: 1..64 of [A-Za-z0-9_-]' % (where, name))
        try:
            members = expand(blocks[name])
        except ValueError as e:
            bad('%s: %s: %s' % (where, name, e))
            members = []
        counts.append(len(members))
        for h in members:
            if h not in known:
                bad('%s: block %s lists %s, not a node of the cluster' % (where, name, h))
            elif h in block_of:
                bad('%s: node %s in two blocks (%s, %s)' % (where, h, block_of[h], name))
            else:
                block_of[h] = name
    missing = [h for h in all_hosts if h not in block_of]
    if missing:
        bad('%s: %d nodes in no block, e.g. %s' % (where, len(missing), missing[0]))
    if not sizes:
        bad('%s: no block sizes' % where)
        return block_of
    base = sizes[0]
    if base_is_largest:     # topology.yaml: Slurm >= 25.05, any block may be smaller
        if counts and base != max(counts):
            bad('%s: first block size %d is not the largest block (%d nodes)'
                % (where, base, max(counts)))
    elif counts and base != min(counts):
        bad('%s: first block size %d is not the base block size (smallest block: %d nodes)'
            % (where, base, min(counts)))
    if not base_is_largest and any(c < base for c in counts):
        bad('%s: a block has fewer than %d nodes' % (where, base))
    for a, b in zip(sizes, sizes[1:]):
        r = b // a if a and b % a == 0 else 0
        if r < 2 or r & (r - 1):
            bad('%s: block size %d is not a power-of-two multiple (> 1) of %d' % (where, b, a))
    if sizes[-1] > base << 15:
        bad('%s: block size %d beyond the base times 2^15' % (where, sizes[-1]))
    if len(order) and sizes[-1] > base * len(order):
        bad('%s: block size %d larger than all %d blocks together' % (where, sizes[-1], len(order)))
    return block_of


def check_yaml(path, sw_conf, blocks_conf, sizes_conf):
    if yaml is None:
        return None
    try:
        doc = yaml.safe_load(open(path))
    except yaml.YAMLError as e:
        bad('%s: not YAML: %s' % (path, e))
        return None
    if not isinstance(doc, list) or not doc:
        bad('%s: not a list of topologies' % path)
        return None
    names, defaults = set(), 0
    tree = block = None
    for t in doc:
        if not isinstance(t, dict) or not t or next(iter(t)) != 'topology':
            bad('%s: each topology must be a map starting with "topology"' % path)
            continue
        extra = set(t) - {'topology', 'cluster_default', 'tree', 'block', 'flat'}
        if extra:
            bad('%s: unknown keys %s' % (path, sorted(extra)))
        if t['topology'] in names:
            bad('%s: topology %s twice' % (path, t['topology']))
        names.add(t['topology'])
        if t.get('cluster_default') is True:
            defaults += 1
        elif t.get('cluster_default', False) is not False:
            bad('%s: cluster_default must be true or false' % path)
        kinds = [k for k in ('tree', 'block', 'flat') if k in t]
        if len(kinds) != 1:
            bad('%s: topology %s has %s, want exactly one of tree, block, flat'
                % (path, t['topology'], kinds))
            continue
        if kinds[0] == 'tree':
            tr = t['tree']
            if not isinstance(tr, dict) or set(tr) != {'switches'}:
                bad('%s: tree must be {switches: [...]}' % path)
                continue
            sw = {}
            for s in tr['switches']:
                keys = set(s)
                if 'switch' not in keys or keys - {'switch', 'children', 'nodes'} or \
                        ('children' in keys) == ('nodes' in keys):
                    bad('%s: switch entry %s: want switch and one of children, nodes' % (path, s))
                    continue
                if not isinstance(s['switch'], str):
                    bad('%s: switch name %r is not a string' % (path, s['switch']))
                sw[str(s['switch'])] = ('Switches', s['children']) if 'children' in s \
                    else ('Nodes', s['nodes'])
            tree = sw
            if sw != sw_conf:
                bad('%s: tree differs from topology.conf' % path)
        elif kinds[0] == 'block':
            bl = t['block']
            if not isinstance(bl, dict) or set(bl) - {'block_sizes', 'blocks'} or 'blocks' not in bl:
                bad('%s: block must be {block_sizes: [...], blocks: [...]}' % path)
                continue
            sizes = bl.get('block_sizes', [])
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in sizes):
                bad('%s: block_sizes must be integers' % path)
            blocks = {}
            order = []
            for b in bl['blocks']:
                if set(b) != {'block', 'nodes'}:
                    bad('%s: block entry %s: want block and nodes' % (path, b))
                    continue
                blocks[str(b['block'])] = b['nodes']
                order.append(str(b['block']))
            block = (blocks, order, sizes)
            if blocks != blocks_conf[0] or order != blocks_conf[1]:
                bad('%s: blocks differ from topology-block.conf' % path)
            # Slurm >= 25.05 takes a block under the first size: the sizes
            # start at the largest block (a full unit), not the smallest
            counts = [len(expand(blocks_conf[0][n])) for n in blocks_conf[1]]
            base = sizes_conf[0] if sizes_conf else 1
            want = [x // base * max(counts, default=base) for x in sizes_conf]
            if sizes != want:
                bad('%s: block_sizes %s, want %s (topology-block.conf\'s scaled to the '
                    'largest block)' % (path, sizes, want))
    if defaults != 1:
        bad('%s: %d topologies with cluster_default: true, want one' % (path, defaults))
    return tree, block


# ---- what the names claim, from the fabric -----------------------------------

def check_fabric(fabric_path, args, hosts, sw, parent, leaf_of, order, block_order, blocks,
                 sizes):
    fab = json.load(open(fabric_path))
    nodes = fab['nodes']
    gpn = args.gpn
    adj = {}
    for l in fab['links']:
        a, b = l['a']['node'], l['b']['node']
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    # real leaf -> the Slurm leaf switches of the nodes it serves
    real_leaves = [n for n in nodes if n['kind'] != 'gpu' and n['tier'] == 1]
    serves = {}
    for lf in real_leaves:
        got = set()
        for x in adj.get(lf['id'], []):
            if nodes[x]['kind'] == 'gpu':
                got.add(leaf_of.get(hosts[nodes[x]['index'] // gpn]))
        serves[lf['id']] = got
        if len(got) > 1:
            bad('fabric: %s serves nodes of leaf switches %s' % (lf['name'], sorted(map(str, got))))
    # upward closure per switch
    top = {}
    for n in nodes:
        if n['kind'] != 'gpu':
            top[n['subnet']] = max(top.get(n['subnet'], 0), n['tier'])
    up_memo = {}

    def ups(i):
        if i not in up_memo:
            s = {i}
            for x in adj.get(i, []):
                if nodes[x]['kind'] != 'gpu' and nodes[x]['tier'] == nodes[i]['tier'] + 1:
                    s |= ups(x)
            up_memo[i] = s
        return up_memo[i]
    leaves_of = {}
    for lf_id, got in serves.items():
        for name in got:
            leaves_of.setdefault(name, []).append(lf_id)
    children = {}
    for c, p in parent.items():
        children.setdefault(p, []).append(c)

    def under(name):
        if sw[name][0] == 'Nodes':
            return [name]
        return [x for c in children.get(name, []) for x in under(c)]
    for name in sw:
        if name not in parent or sw[name][0] == 'Nodes':
            continue                    # the root, or a leaf
        by_rail = {}        # rails meet only at the top of a rail-optimized fabric
        for leafsw in under(name):
            for lf in leaves_of.get(leafsw, []):
                by_rail.setdefault((nodes[lf]['subnet'], nodes[lf]['rail']), []).append(lf)
        for (subnet, rail), lfs in sorted(by_rail.items()):
            common = set.intersection(*[ups(x) for x in lfs])
            if not any(nodes[x]['tier'] < top[subnet] for x in common):
                bad('fabric: %s groups leaves of rail %d that meet only at the top of subnet %d'
                    % (name, rail, subnet))
    # blocks: HB domains when a domain spans nodes, else the leaf switches
    npd = args.hb // gpn if args.hb > gpn else 1
    host_index = {h: i for i, h in enumerate(hosts)}
    part = []                                   # partitions of the blocks, finest first
    for b in block_order:
        members = [host_index[h] for h in expand(blocks[b])]
        if npd > 1:
            doms = {i // npd for i in members}
            if len(doms) != 1 or len(members) != npd:
                bad('blocks: %s is not one HB domain of %d nodes' % (b, npd))
        else:
            leafs = {leaf_of[hosts[i]] for i in members}
            want = {h for h, l in leaf_of.items() if l in leafs}
            if len(leafs) != 1 or set(hosts[i] for i in members) != want:
                bad('blocks: %s is not the nodes of one leaf switch' % b)
    chain = []
    for b in block_order:
        first = expand(blocks[b])[0]
        path = [b]
        x = leaf_of[first]
        path.append(x)
        while x in parent:
            x = parent[x]
            path.append(x)
        chain.append(path)
    depth = max(len(p) for p in chain)
    for k in range(depth):
        part.append([p[k] if k < len(p) else p[-1] for p in chain])
    base = sizes[0] if sizes else 1
    nb = len(block_order)
    for s in sizes[1:]:
        a = s // base
        for lab in part:
            if max(lab.count(x) for x in set(lab)) >= a:
                break
        for i in range(0, nb, a):
            if len(set(lab[i:i + a])) != 1:
                bad('blocks: size %d joins blocks %s.. that share no switch below the root'
                    % (s, block_order[i]))
                break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('dir')
    ap.add_argument('--pattern')   # default: railyard's, node{n1:0W}, W >= 3 digits of --nodes
    ap.add_argument('--gpn', type=int, required=True)
    ap.add_argument('--hb', type=int, required=True)
    ap.add_argument('--su', type=int, default=0)
    ap.add_argument('--nodes', type=int, required=True)
    ap.add_argument('--fabric')
    args = ap.parse_args()
    if not args.pattern:
        args.pattern = 'node{n1:0%d}' % max(3, len(str(args.nodes)))
    hosts = host_names(args.pattern, args.nodes, args.gpn, args.hb, args.su)
    d = args.dir
    sw, order = read_tree_conf(os.path.join(d, 'topology.conf'))
    parent, leaf_of = check_tree('topology.conf', sw, hosts)
    blocks, border, sizes = read_block_conf(os.path.join(d, 'topology-block.conf'))
    check_blocks('topology-block.conf', blocks, border, sizes, hosts)
    got = check_yaml(os.path.join(d, 'topology.yaml'), sw, (blocks, border), sizes)
    if got:
        tree, block = got
        if tree is not None:
            check_tree('topology.yaml tree', tree, hosts)
        if block is not None:
            check_blocks('topology.yaml block', *block, hosts, base_is_largest=True)
    if args.fabric and not problems:
        check_fabric(args.fabric, args, hosts, sw, parent, leaf_of, order, border, blocks, sizes)
    if problems:
        print('\n'.join(problems[:20]))
        sys.exit(1)
    print('ok')


if __name__ == '__main__':
    main()
