#!/bin/sh
# railyard draw: every view of every design through Graphviz with no error
# or warning, the summary's labels, counts against the bill of materials,
# the full view's size limit, determinism, the views' error messages, DOT
# that stays small for large fabrics, ToR pairs (fabric.homing) in the box of
# their two planes and the diagrams railyard build writes.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/diagrams"
EX="$TOP_SRCDIR/examples"

if ! command -v dot >/dev/null 2>&1; then
    echo "SKIP: Graphviz's dot is not installed"
    exit 77
fi

# rails and units of a spec, from validate's summary
# (a fat tree's summary has no rails line: its rails are the JSON's)
rails_of() {
    r=$("$RAILYARD" validate "$1" | sed -n 's/^rails: *\([0-9]*\)[ ,].*/\1/p')
    [ -n "$r" ] || r=$("$RAILYARD" validate "$1" --format json |
                       "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["rails"] if d["design"] == "fat-tree" else "")')
    echo "$r"
}
units_of() { "$RAILYARD" validate "$1" | sed -n 's/^scalable unit:.*, \([0-9]*\) units*\( (.*)\)*$/\1/p'; }

# render FILE.dot FORMAT: dot must succeed with nothing on stderr
render() {
    dot -T"$2" "$1" -o "${1%.dot}.$2" 2>"$TMP/dot.err"
    rc=$?
    if [ "$rc" -eq 0 ] && [ ! -s "$TMP/dot.err" ]; then
        ok
    else
        fail "dot -T$2 $(basename "$1"): exit $rc: $(head -3 "$TMP/dot.err")"
    fi
}

# ---- every view of every design, through dot ------------------------------
# name:spec:full (full = also draw the full view)
# (a redirected loop, not a pipe: it runs in this shell and counts its checks)
while IFS=: read -r name spec full; do
    r=$(rails_of "$spec"); u=$(units_of "$spec")
    [ -n "$r" ] && [ -n "$u" ] && ok || fail "$name: rails '$r' units '$u' from validate"
    # rails count from 0, units from 1 (as in Slurm's suN)
    views="summary rail=0 rail=$((r - 1)) unit=1 unit=$u"
    [ -n "$full" ] && views="$views full"
    for v in $views; do
        f="$TMP/$name.$(echo "$v" | tr = -).dot"
        "$RAILYARD" draw "$spec" --view "$v" -o "$f" 2>"$TMP/draw.err"
        expect_eq "$name $v: draw exit" $? 0
        no_sanitizer "$TMP/draw.err"
        [ -s "$f" ] && ok || fail "$name $v: empty DOT"
        render "$f" svg
        case $v in summary|rail=0|unit=1) render "$f" png ;; esac
        # determinism: the same bytes twice
        "$RAILYARD" draw "$spec" --view "$v" >"$TMP/again.dot" 2>/dev/null
        cmp -s "$f" "$TMP/again.dot" && ok || fail "$name $v: DOT differs between runs"
    done
    # the summary's totals are the bill of materials' counts
    "$RAILYARD" bom "$spec" --format json >"$TMP/bom.json"
    "$PY" - "$TMP/$name.summary.dot" "$TMP/bom.json" >"$TMP/cmp.txt" <<'P'
import json, re, sys
dot = open(sys.argv[1]).read()
bom = json.load(open(sys.argv[2]))
rows = re.findall(r'<TD ALIGN="LEFT">(\d+): [a-z]+</TD><TD ALIGN="RIGHT">([\d,]+) [^<]*</TD>'
                  r'<TD ALIGN="RIGHT">([\d,]+)</TD>', dot)
errs = []
num = lambda s: int(s.replace(",", ""))
got = {int(t): (num(s), num(l)) for t, s, l in rows}
for t in range(1, bom["tiers"] + 1):
    want = (bom["switches"]["per_tier"][t - 1], bom["links"]["per_tier"][t - 1])
    if got.get(t) != want:
        errs.append("tier %d: legend %s, bom %s" % (t, got.get(t), want))
m = re.search(r'<TD ALIGN="LEFT">0: GPUs</TD><TD ALIGN="RIGHT">[\d,]+ HB domains?</TD>'
              r'<TD ALIGN="RIGHT">([\d,]+) GPUs</TD>', dot)
if not m or num(m.group(1)) != bom["gpus"]:
    errs.append("GPUs: legend %s, bom %d" % (m and m.group(1), bom["gpus"]))
# every bundle of the summary is a count x speed = bandwidth label
for n, sp, bw in re.findall(r'label="([\d,]+) x (\d+)G = ([\d.,]+ [GTP]b/s)"', dot):
    total = num(n) * int(sp)
    scale = {"G": 1, "T": 1e3, "P": 1e6}[bw.split()[1][0]]
    if abs(float(bw.split()[0].replace(",", "")) * scale - total) > 0.051 * scale:
        errs.append("bandwidth %s for %s x %sG" % (bw, n, sp))
print("\n".join(errs) if errs else "ok")
P
    expect_eq "$name: summary totals against bom" "$(cat "$TMP/cmp.txt")" ok
done <<EOF
superpod:$EX/superpod-4su.yaml:full
rail-only-gh200:$EX/rail-only-gh200.yaml:
b200-2plane:$EX/b200-2plane.yaml:full
fat-tree-2k:$EX/fat-tree.yaml:
rail-only:$D/rail-only.yaml:full
packed:$D/packed.yaml:full
fat-two-planes:$D/fat-two-planes.yaml:full
three-tier:$D/three-tier.yaml:full
four-tier:$D/four-tier.yaml:full
two-planes:$D/two-planes.yaml:full
EOF

# ---- the summary of the SuperPOD example, as Graphviz draws it --------------
# (Graphviz writes '-' in SVG text as &#45;)
unescape() { sed 's/&#45;/-/g' "$1"; }
S="$TMP/summary.txt"
unescape "$TMP/superpod.summary.svg" >"$S"
for label in '16 spines' '32 leaves' 'rails 0-7, 4 units' '127 DGX H100' '8 GPUs, NVLink' \
             '1,024 x 400G = 409.6 Tb/s' '1,016 x 400G = 406.4 Tb/s' 'node001 - node127' \
             '>Legend<' '>2: spine<' '>1: leaf<' '>0: GPUs<' '127 HB domains' '1,016 GPUs' \
             'rail-optimized, 1,016 GPUs in 127 HB domains of 8, 8 rails, 2 tiers of qm9700'; do
    grep -qF -- "$label" "$S" && ok || fail "superpod summary SVG lacks '$label'"
done
# the legend has a cell per rail in the cabling plan's colours
for r in 0 1 2 3 4 5 6 7; do
    c=$("$PY" - "$TOP_SRCDIR/src/emit/colors.c" "$r" <<'P'
import re, sys
pal = re.findall(r'"([0-9a-f]{6})"', open(sys.argv[1]).read().split("palette[12]")[1])
print(pal[int(sys.argv[2]) % 12])
P
)
    grep -qi "fill=\"#$c\"" "$S" && ok || fail "superpod summary SVG lacks rail $r's colour #$c"
done
# the rail view is drawn in the rail's colour, the unit view has every rail
"$RAILYARD" draw "$EX/superpod-4su.yaml" --view rail=3 --format svg -o "$TMP/r3.svg"
expect_eq "draw --format svg exit" $? 0
grep -qi 'stroke="#f08c00"' "$TMP/r3.svg" && ok || fail "rail=3 view lacks rail 3's colour"
# superpod-4su: 8 rails, 4 units, one leaf per (unit, rail). Unit-major names
# (the default) are leaf(u*8 + r); rail-major ones leaf(r*4 + u).
for u in 0 1 2 3; do
    grep -qF ">leaf$((u * 8 + 3))<" "$TMP/r3.svg" && ok ||
        fail "rail=3 view lacks leaf$((u * 8 + 3)) (rail 3, unit $u)"
done
unescape "$TMP/superpod.unit-1.svg" >"$TMP/u0.txt"
for name in leaf0 leaf1 leaf2 leaf3 leaf4 leaf5 leaf6 leaf7 'node001 - node004' \
            '4 links per port' '32 HB domains' 'scalable unit 1 of 4'; do
    grep -qF "$name" "$TMP/u0.txt" && ok || fail "unit=1 view lacks '$name'"
done
grep -qE '>leaf([89]|[1-9][0-9])<' "$TMP/u0.txt" && fail "unit=1 view has another unit's leaf" || ok
"$RAILYARD" --set naming.switch_order=rail-major draw "$EX/superpod-4su.yaml" --view unit=1 \
    --format svg -o "$TMP/u0r.svg"
expect_eq "draw rail-major exit" $? 0
unescape "$TMP/u0r.svg" >"$TMP/u0r.txt"
for r in 0 1 2 3 4 5 6 7; do
    grep -qF ">leaf$((r * 4))<" "$TMP/u0r.txt" && ok ||
        fail "rail-major unit=1 view lacks leaf$((r * 4)) (rail $r)"
done
unescape "$TMP/superpod.unit-4.svg" >"$TMP/u3.txt"
for name in 'node125 - node127' '31 HB domains' 'scalable unit 4 of 4'; do
    grep -qF "$name" "$TMP/u3.txt" && ok || fail "unit=4 (partial) view lacks '$name'"
done

# format from the output file's extension; png and pdf are what they say
"$RAILYARD" draw "$EX/superpod-4su.yaml" -o "$TMP/s.png" && ok || fail "draw -o s.png"
[ "$(head -c 4 "$TMP/s.png" | od -An -c | tr -d ' ')" = '211PNG' ] && ok || fail "s.png is not a PNG"
"$RAILYARD" draw "$EX/superpod-4su.yaml" -o "$TMP/s.pdf" && ok || fail "draw -o s.pdf"
[ "$(head -c 4 "$TMP/s.pdf")" = '%PDF' ] && ok || fail "s.pdf is not a PDF"
"$RAILYARD" draw "$EX/superpod-4su.yaml" >"$TMP/s.out" && ok || fail "draw to stdout"
head -1 "$TMP/s.out" | grep -q '^digraph' && ok || fail "draw without -o does not write DOT"
"$RAILYARD" draw "$EX/superpod-4su.yaml" --format svg -o "$TMP/s1.svg"
"$RAILYARD" draw "$EX/superpod-4su.yaml" --format svg -o "$TMP/s2.svg"
cmp -s "$TMP/s1.svg" "$TMP/s2.svg" && ok || fail "SVG differs between runs"

# ---- the full view's limit ---------------------------------------------------
"$RAILYARD" draw "$EX/fat-tree.yaml" --view full >/dev/null 2>"$TMP/e"
expect_eq "full over the limit: exit" $? 1
for w in '2,096 nodes' 'more than 2,000' 'summary' 'rail=N' 'unit=N' '--force'; do
    grep -qF -- "$w" "$TMP/e" && ok || fail "full-view refusal lacks '$w': $(cat "$TMP/e")"
done
"$RAILYARD" draw "$EX/fat-tree.yaml" --view full --force >"$TMP/ff.dot" 2>"$TMP/e"
expect_eq "full --force: exit" $? 0
expect_eq "full --force: a node per switch" "$(grep -c '^    n[0-9]* \[label=' "$TMP/ff.dot")" 48
expect_eq "full --force: a GPU cell per GPU" "$(grep -o 'PORT="g[0-9]*"' "$TMP/ff.dot" | wc -l | tr -d ' ')" 2048
expect_eq "full --force: a line per link" "$(grep -c ' \[color="#[0-9a-f]*", tooltip=' "$TMP/ff.dot")" \
    "$("$RAILYARD" bom "$EX/fat-tree.yaml" --format json | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["links"]["total"])')"

# ---- the views' error messages -------------------------------------------------
SP="$EX/superpod-4su.yaml"
check_err() {   # check_err WANT-EXIT WANT-TEXT ARGS...
    want=$1; text=$2; shift 2
    "$RAILYARD" draw "$@" >/dev/null 2>"$TMP/e"
    expect_eq "draw $*: exit" $? "$want"
    grep -qF -- "$text" "$TMP/e" && ok || fail "draw $*: message lacks '$text': $(cat "$TMP/e")"
    no_sanitizer "$TMP/e"
}
check_err 1 'no rail 99: superpod-4su has 8 rails, rail=0 to rail=7' "$SP" --view rail=99
check_err 1 'no rail -1' "$SP" --view rail=-1
check_err 1 'no scalable unit 0: superpod-4su has 4, unit=1 to unit=4' "$SP" --view unit=0
check_err 1 'no scalable unit -1' "$SP" --view unit=-1
check_err 1 'no scalable unit 5' "$SP" --view unit=5
check_err 1 "no view 'rails'; superpod-4su has the views summary, rail=N (N = 0-7), unit=N (N = 1-4), full" \
    "$SP" --view rails
check_err 2 "--view rail=x needs a whole number" "$SP" --view rail=x
check_err 2 "--view unit= needs a whole number" "$SP" --view unit=
check_err 2 "option '--view' needs a value" "$SP" --view
check_err 2 "--format takes dot, svg, png or pdf (got 'gif')" "$SP" --format gif
check_err 2 "unknown option '--frobnicate'" "$SP" --frobnicate
check_err 2 "--dir writes the diagrams of railyard build" "$SP" --dir "$TMP/x" --view full
check_err 2 "missing SPEC" --view summary
# without Graphviz: DOT still works, rendering is an error (exit 3)
PATH=/nonexistent "$RAILYARD" draw "$SP" -o "$TMP/np.svg" 2>"$TMP/e"
expect_eq "svg without dot: exit" $? 3
grep -q "needs Graphviz's dot program" "$TMP/e" && ok || fail "no-dot message: $(cat "$TMP/e")"
[ ! -e "$TMP/np.svg" ] && ok || fail "a file was written although dot is missing"
PATH=/nonexistent "$RAILYARD" draw "$SP" -o "$TMP/np.dot" 2>"$TMP/e"
expect_eq "DOT without dot: exit" $? 0

# ---- large fabrics stay small ---------------------------------------------------
for v in summary rail=5 unit=1000; do
    "$RAILYARD" draw "$SP" --set cluster.gpus=262144 --view "$v" >"$TMP/big.dot" 2>"$TMP/e"
    expect_eq "262,144 GPUs $v: exit" $? 0
    no_sanitizer "$TMP/e"
    n=$(grep -c '^ *b[0-9]* \[shape=' "$TMP/big.dot")
    [ "$n" -ge 5 ] && [ "$n" -le 300 ] && ok || fail "262,144 GPUs $v: $n boxes"
    render "$TMP/big.dot" svg
done
grep -qF '262,144 GPUs in 32,768 HB domains' "$TMP/big.svg" && ok || fail "big SVG title"

# ---- ToR pairs (fabric.homing): a pair and its two planes --------------------------
# HPN's units with 2 and 4 planes, both homings, drawn by dot. From the DOT
# text: each leaf (pP-leafN) stands in the box of its planes' pairs
# (cluster_pairK, K = P / 2) and in no plane's box, beside the other ToR of
# its pair (one cluster_tor box for the two); a switch above stands, for
# dual-plane, in the box of the one plane whose leaves it reaches
# (cluster_planeP inside cluster_pairK), for dual-tor (one aggregation layer
# for both planes) in the pair's box itself. From the SVG: every point of a
# "ToR pair" line lies within its pair's boxes and outside every other
# cluster box (another pair's, any plane's).
cat >"$TMP/pairs.py" <<'P'
import collections, re, sys
dotf, svgf, homing, planes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
errs = []
def err(m):
    if len(errs) < 12: errs.append(m)
stack, where, name = [], {}, {}
pairs, down = [], collections.defaultdict(set)
for line in open(dotf):
    m = re.match(r"\s*subgraph (cluster_\w+) \{", line)
    if m: stack.append(m.group(1)); continue
    if re.match(r"\s*\}\s*$", line) and stack: stack.pop(); continue
    m = re.match(r"\s*(b\d+) \[shape=plain, label=<.*?<B>([^<]*)</B>", line)
    if m: where[m.group(1)] = tuple(stack); name[m.group(1)] = m.group(2); continue
    m = re.match(r"\s*(b\d+)(?::\w+)? -> (b\d+)(?::\w+)*\s*\[(.*)", line)
    if m:
        if "ToR pair" in m.group(3): pairs.append((m.group(1), m.group(2)))
        elif "invis" not in m.group(3): down[m.group(1)].add(m.group(2))
leaf_plane = {b: int(re.match(r"p(\d+)-leaf", n).group(1)) for b, n in name.items() if re.match(r"p\d+-leaf\d+$", n)}
if len(leaf_plane) < 2 * planes: err("%d leaves named pP-leafN" % len(leaf_plane))
for b, p in leaf_plane.items():
    w = where[b]
    if not w or w[0] != "cluster_pair%d" % (p // 2) or any(c.startswith("cluster_plane") for c in w) \
       or len(w) != 2 or not w[1].startswith("cluster_tor"):
        err("%s (plane %d) in %s, want cluster_pair%d > cluster_tor" % (name[b], p, "/".join(w), p // 2))
def reach(b, seen):
    if b in leaf_plane: return {leaf_plane[b]}
    out = set()
    for x in down[b]:
        if x not in seen: seen.add(x); out |= reach(x, seen)
    return out
uppers = [b for b in where if where[b] and b not in leaf_plane]
if not uppers: err("no switch above the leaves in a cluster")
for b in uppers:
    ps = reach(b, set())
    if homing == "dual-plane":
        want = ("cluster_pair%d" % (min(ps) // 2), "cluster_plane%d" % min(ps)) if len(ps) == 1 else None
    else:
        want = ("cluster_pair%d" % (min(ps) // 2),) if ps and max(ps) // 2 == min(ps) // 2 else None
    if want is None or where[b] != want:
        err("%s (over the leaves of planes %s) in %s, want %s" % (name[b], sorted(ps), "/".join(where[b]), want and "/".join(want)))
npl = collections.Counter(leaf_plane.values())
if len(pairs) != sum(npl[p] for p in range(0, planes, 2)): err("%d ToR pair lines, %s leaves by plane" % (len(pairs), dict(npl)))
for a, z in pairs:
    pa, pz = leaf_plane.get(a), leaf_plane.get(z)
    if pa is None or pz is None or pa % 2 or pz != pa + 1 or name[a].split("-")[1] != name[z].split("-")[1] or where[a] != where[z]:
        err("ToR pair line %s - %s (%s, %s)" % (name.get(a), name.get(z), "/".join(where.get(a, ())), "/".join(where.get(z, ()))))
# the SVG: cluster boxes and the pair lines' points
svg = open(svgf).read()
box = {}
for m in re.finditer(r'class="cluster">\s*<title>([^<]*)</title>\s*<(?:path|polygon)[^>]*?(?:\bd|points)="([^"]*)"', svg):
    xy = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", m.group(2))]
    xs, ys = xy[0::2], xy[1::2]
    box[m.group(1)] = (min(xs), min(ys), max(xs), max(ys))
checked = 0
for a, z in pairs:
    m = re.search(r"<title>%s&#45;&gt;%s</title>\s*<path[^>]*\bd=\"([^\"]*)\"" % (a, z), svg)
    if not m: err("no SVG path for %s -> %s" % (a, z)); continue
    xy = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))]
    pts = list(zip(xy[0::2], xy[1::2]))
    own = set(where[a])
    for c, (x0, y0, x1, y1) in box.items():
        inside = [x0 < x < x1 and y0 < y < y1 for x, y in pts]
        if c in own and not all(inside): err("ToR pair line %s - %s leaves %s" % (name[a], name[z], c))
        if c not in own and any(inside): err("ToR pair line %s - %s crosses into %s" % (name[a], name[z], c))
    checked += 1
print("\n".join(errs) if errs else "ok")
print("%d leaves, %d switches above, %d pair lines in %d cluster boxes" % (len(leaf_plane), len(uppers), checked, len(box)), file=sys.stderr)
P
for h in dual-plane dual-tor; do
    for pl in 2 4; do
        n="hpn-$h-$pl"
        "$RAILYARD" draw "$EX/alibaba-hpn.yaml" --set cluster.nodes=256 --set cluster.planes=$pl \
            --set fabric.homing=$h --view unit=1 -o "$TMP/$n.dot" 2>"$TMP/e"
        expect_eq "$n: draw exit" $? 0
        render "$TMP/$n.dot" svg
        "$PY" "$TMP/pairs.py" "$TMP/$n.dot" "$TMP/$n.svg" "$h" "$pl" >"$TMP/$n.chk" 2>"$TMP/$n.info"
        expect_eq "$n: ToR pairs and planes in their boxes" "$(cat "$TMP/$n.chk")" ok
        printf '%s: %s\n' "$n" "$(cat "$TMP/$n.info")"
        # the summary too goes through dot without a word
        "$RAILYARD" draw "$EX/alibaba-hpn.yaml" --set cluster.nodes=256 --set cluster.planes=$pl \
            --set fabric.homing=$h -o "$TMP/$n-summary.dot" 2>"$TMP/e"
        render "$TMP/$n-summary.dot" svg
    done
done

# ---- pods are numbered from 1, as Slurm names them --------------------------------
# rail-only, 4,096 GPUs on radix-16 switches: 3 tiers, 512 nodes / 64 per pod
printf 'name: ro3\ncluster: {gpus: 4096, node: dgx-h100}\nfabric: {design: rail-only, switch: {radix: 16}}\n' >"$TMP/ro3.yaml"
pods=$(( 4096 / 8 / (16 / 2 * 16 / 2) ))
"$RAILYARD" draw "$TMP/ro3.yaml" -o "$TMP/ro3.gv" 2>"$TMP/e"; expect_eq "draw ro3: exit" $? 0
"$RAILYARD" slurm "$TMP/ro3.yaml" -o "$TMP/ro3s" 2>"$TMP/e"; expect_eq "slurm ro3: exit" $? 0
grep -q "pods 1-$pods\b" "$TMP/ro3.gv" && ok || fail "diagram pods: $(grep -o 'pods\? [0-9-]*' "$TMP/ro3.gv" | sort -u | tr '\n' ' ')"
grep -q 'pods\? 0' "$TMP/ro3.gv" && fail "diagram counts a pod 0" || ok
expect_eq "Slurm pods" "$(grep -o 'SwitchName=pod[0-9]*' "$TMP/ro3s/slurm/topology.conf" | sed 's/.*pod//' | sort -n | sed -n '1p;$p' | tr '\n' ' ')" "1 $pods "

# ---- the diagrams of railyard build ---------------------------------------------
"$RAILYARD" draw "$SP" --dir "$TMP/b1" 2>"$TMP/e"
expect_eq "draw --dir: exit" $? 0
for f in summary rail0 unit1; do
    [ -s "$TMP/b1/diagrams/$f.dot" ] && ok || fail "--dir: $f.dot missing"
    [ -s "$TMP/b1/diagrams/$f.svg" ] && ok || fail "--dir: $f.svg missing"
    grep -q '^<svg' "$TMP/b1/diagrams/$f.svg" && ok || fail "--dir: $f.svg is not SVG"
done
cmp -s "$TMP/b1/diagrams/summary.dot" "$TMP/superpod.summary.dot" && ok \
    || fail "--dir summary.dot differs from draw's"
[ ! -s "$TMP/e" ] && ok || fail "--dir printed: $(cat "$TMP/e")"
PATH=/nonexistent "$RAILYARD" draw "$SP" --dir "$TMP/b2" 2>"$TMP/e"
expect_eq "draw --dir without dot: exit" $? 0
expect_eq "draw --dir without dot: files" "$(ls "$TMP/b2/diagrams" | tr '\n' ' ')" \
    "rail0.dot summary.dot unit1.dot "
expect_eq "draw --dir without dot: one note" "$(wc -l <"$TMP/e" | tr -d ' ')" 1
grep -q "dot is not installed" "$TMP/e" && ok || fail "no-dot note: $(cat "$TMP/e")"
finish
