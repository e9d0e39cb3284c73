#!/bin/sh
# railyard export: GraphML valid against a schema of GraphML's structure
# (tests/data/graphml/graphml-structure.xsd, which also proves it rejects
# broken files), read back by Graphviz's graphml2gv and by a Python reader
# that checks every edge's ends, every key and value, and the counts against
# the bill of materials (a fabric.tiers list: switch ports within each
# switch's own, the graph giving no one radix); determinism; --format json;
# bad input.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/diagrams"
EX="$TOP_SRCDIR/examples"
XSD="$TOP_SRCDIR/tests/data/graphml/graphml-structure.xsd"
have() { command -v "$1" >/dev/null 2>&1; }

for spec in "$EX/superpod-4su.yaml" "$EX/b200-2plane.yaml" "$EX/fat-tree.yaml" \
            "$EX/rail-only-gh200.yaml" "$D/packed.yaml" "$D/rail-only.yaml" \
            "$D/fat-two-planes.yaml" "$D/three-tier.yaml" "$D/four-tier.yaml" \
            "$D/two-planes.yaml" "$TOP_SRCDIR/tests/data/tiers/ib-two-models.yaml"; do
    name=$(basename "$spec" .yaml)
    g="$TMP/$name.graphml"
    "$RAILYARD" export "$spec" --format graphml -o "$g" 2>"$TMP/e"
    expect_eq "$name: export exit" $? 0
    no_sanitizer "$TMP/e"
    "$RAILYARD" export "$spec" >"$TMP/again.graphml" 2>/dev/null
    cmp -s "$g" "$TMP/again.graphml" && ok || fail "$name: GraphML differs between runs (or -o vs stdout)"
    "$RAILYARD" bom "$spec" --format json >"$TMP/bom.json"

    if have xmllint; then
        xmllint --noout --schema "$XSD" "$g" 2>"$TMP/x.err"
        expect_eq "$name: valid against graphml-structure.xsd" "$?:$(grep -v ' validates$' "$TMP/x.err" | head -3)" "0:"
    fi

    # Graphviz's reader: graphml2gv knows nodes and edges (it reads no
    # <key>/<data>, and says so on stderr), so the counts must match.
    if have graphml2gv && have gc; then
        graphml2gv "$g" -o "$TMP/g.gv" 2>/dev/null
        expect_eq "$name: graphml2gv exit" $? 0
        got=$(gc -n -e "$TMP/g.gv" | awk '{print $1, $2}')
        want=$("$PY" -c 'import json,sys; b=json.load(open(sys.argv[1]))
print(b["gpus"] + b["switches"]["total"], b["links"]["total"])' "$TMP/bom.json")
        expect_eq "$name: graphml2gv nodes and edges" "$got" "$want"
    fi

    "$PY" - "$g" "$TMP/bom.json" >"$TMP/py.txt" <<'P'
import json, sys
import xml.etree.ElementTree as ET
NS = "{http://graphml.graphdrawing.org/xmlns}"
root = ET.parse(sys.argv[1]).getroot()
bom = json.load(open(sys.argv[2]))
errs = []
if root.tag != NS + "graphml":
    errs.append("root is %s" % root.tag)
keys = {}
for k in root.findall(NS + "key"):
    keys[k.get("id")] = (k.get("for"), k.get("attr.name"), k.get("attr.type"))
def check_data(el, domain):
    vals = {}
    for d in el.findall(NS + "data"):
        k = d.get("key")
        if k not in keys:
            errs.append("undeclared key %s" % k); continue
        dom, name, typ = keys[k]
        if dom not in (domain, "all"):
            errs.append("key %s is for %s, used on a %s" % (k, dom, domain))
        v = d.text or ""
        try:
            if typ in ("int", "long"): v = int(v)
            elif typ in ("float", "double"): v = float(v)
        except ValueError:
            errs.append("%s=%r is not %s" % (name, v, typ))
        vals[name] = v
    return vals
graphs = root.findall(NS + "graph")
if len(graphs) != 1:
    errs.append("%d graphs" % len(graphs))
g = graphs[0]
if g.get("edgedefault") != "undirected":
    errs.append("edgedefault %s" % g.get("edgedefault"))
gv = check_data(g, "graph")
nodes = {}
for n in g.findall(NS + "node"):
    i = n.get("id")
    if i in nodes:
        errs.append("duplicate node id %s" % i)
    nodes[i] = check_data(n, "node")
edges = g.findall(NS + "edge")
eids = set()
used = set()
for e in edges:
    s, t = e.get("source"), e.get("target")
    if e.get("id") in eids:
        errs.append("duplicate edge id %s" % e.get("id"))
    eids.add(e.get("id"))
    if s not in nodes or t not in nodes:
        errs.append("edge %s: %s - %s, an end is missing" % (e.get("id"), s, t)); continue
    v = check_data(e, "edge")
    if nodes[t]["tier"] != v.get("tier") or nodes[s]["tier"] >= nodes[t]["tier"]:
        errs.append("edge %s: tiers %s -> %s, edge tier %s" % (e.get("id"), nodes[s]["tier"],
                    nodes[t]["tier"], v.get("tier")))
    for end, port in ((s, v["source_port"]), (t, v["target_port"])):
        if (end, port) in used:
            errs.append("port %s/%d used twice" % (end, port))
        used.add((end, port))
        # a fabric.tiers list has no one radix: each switch gives its ports
        lim = nodes[end].get("ports", gv.get("radix"))
        if nodes[end]["kind"] == "switch" and not 1 <= port <= lim:
            errs.append("%s port %d beyond its %s ports" % (end, port, lim))
    if v["speed_gbps"] <= 0:
        errs.append("edge %s speed %s" % (e.get("id"), v["speed_gbps"]))
# counts against the bill of materials
gpus = [n for n in nodes.values() if n["kind"] == "gpu"]
if len(gpus) != bom["gpus"] or gv["gpus"] != bom["gpus"]:
    errs.append("GPUs: %d nodes, graph says %s, bom %d" % (len(gpus), gv["gpus"], bom["gpus"]))
if not all("host" in n and "hb_domain" in n for n in gpus):
    errs.append("a GPU without host or hb_domain")
for t in range(1, bom["tiers"] + 1):
    sw = sum(1 for n in nodes.values() if n["kind"] == "switch" and n["tier"] == t)
    ln = sum(1 for e in edges if nodes[e.get("target")]["tier"] == t)
    want = (bom["switches"]["per_tier"][t - 1], bom["links"]["per_tier"][t - 1])
    if (sw, ln) != want:
        errs.append("tier %d: %s switches and links, bom %s" % (t, (sw, ln), want))
if len(edges) != bom["links"]["total"]:
    errs.append("%d edges, bom %d links" % (len(edges), bom["links"]["total"]))
if gv["design"] != bom["design"] or gv["tiers"] != bom["tiers"]:
    errs.append("graph data %s" % gv)
print("\n".join(errs[:8]) if errs else "ok")
P
    expect_eq "$name: Python reader" "$(cat "$TMP/py.txt")" ok
done

# every edge carries its cable as the cabling plan lists it: label, medium,
# kind, part and length matched row by row against cabling.csv
for spec in "$EX/superpod-4su.yaml" "$EX/fat-tree.yaml" "$EX/b200-2plane.yaml" "$D/packed.yaml"; do
    name=$(basename "$spec" .yaml)
    "$RAILYARD" cabling "$spec" -o "$TMP/cab-$name" >/dev/null 2>&1
    expect_eq "$name: cabling exit" $? 0
    "$PY" - "$TMP/$name.graphml" "$TMP/cab-$name" >"$TMP/py.txt" <<'P'
import csv, glob, os, sys
import xml.etree.ElementTree as ET
NS = "{http://graphml.graphdrawing.org/xmlns}"
root = ET.parse(sys.argv[1]).getroot()
keys = {k.get("id"): k.get("attr.name") for k in root.findall(NS + "key") if k.get("for") == "edge"}
rows = {}
for path in glob.glob(os.path.join(sys.argv[2], "**", "cabling.csv"), recursive=True):
    for r in csv.DictReader(open(path, newline="")):
        rows[r["label"]] = r
errs, seen = [], 0
for e in root.iter(NS + "edge"):
    v = {keys[d.get("key")]: d.text for d in e.findall(NS + "data")}
    r = rows.get(v.get("label"))
    if r is None:
        errs.append("edge %s: cable %r not in cabling.csv" % (e.get("id"), v.get("label"))); continue
    seen += 1
    got = (v.get("medium"), v.get("kind"), v.get("part"), float(v.get("length_m", "nan")))
    want = (r["media"], r["kind"], r["part"], float(r["length_m"]))
    if got != want:
        errs.append("edge %s: %s, cabling.csv %s" % (e.get("id"), got, want))
if seen != len(rows) or not rows:
    errs.append("%d edges with cables, %d rows in cabling.csv" % (seen, len(rows)))
print("\n".join(errs[:8]) if errs else "ok")
P
    expect_eq "$name: GraphML edges carry the cabling plan's cables" "$(cat "$TMP/py.txt")" ok
done

# the schema is not vacuous: it rejects an edge to a missing node, an
# undeclared key, a graph without edgedefault
if have xmllint; then
    g="$TMP/superpod-4su.graphml"
    sed '0,/target="leaf0"/s//target="leaf-nowhere"/' "$g" >"$TMP/bad1.graphml"
    sed '0,/<data key="tier">/s//<data key="tiers">/' "$g" >"$TMP/bad2.graphml"
    sed 's/ edgedefault="undirected"//' "$g" >"$TMP/bad3.graphml"
    sed '0,/<node id="gpu1">/s//<node id="gpu0">/' "$g" >"$TMP/bad4.graphml"
    for b in 1 2 3 4; do
        xmllint --noout --schema "$XSD" "$TMP/bad$b.graphml" >/dev/null 2>&1
        [ $? -ne 0 ] && ok || fail "graphml-structure.xsd accepts broken file $b"
    done
fi

# --format json is build's fabric.json
SP="$EX/superpod-4su.yaml"
"$RAILYARD" export "$SP" --format json -o "$TMP/f.json" && ok || fail "export --format json"
"$RAILYARD" build "$SP" --skip opensm,cabling -o "$TMP/build" >/dev/null 2>&1
cmp -s "$TMP/f.json" "$TMP/build/fabric.json" && ok || fail "export --format json differs from fabric.json"

# bad input
"$RAILYARD" export "$SP" --format dot >/dev/null 2>"$TMP/e"
expect_eq "export --format dot: exit" $? 2
grep -q "graphml or json" "$TMP/e" && ok || fail "bad format message: $(cat "$TMP/e")"
"$RAILYARD" export 2>"$TMP/e"
expect_eq "export without spec: exit" $? 2
"$RAILYARD" export "$SP" -o "$TMP/no/such/dir/x.graphml" 2>"$TMP/e"
expect_eq "export to a missing directory: exit" $? 3
grep -q "no/such/dir/x.graphml" "$TMP/e" && ok || fail "write error message: $(cat "$TMP/e")"
mkdir "$TMP/ro"
"$RAILYARD" export "$SP" -o "$TMP/ro/x.graphml" >/dev/null 2>&1
expect_eq "export leaves no temporary file" "$(ls -A "$TMP/ro" | grep -c railyard-)" 0
finish
