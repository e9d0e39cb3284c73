#!/bin/sh
# The cable validation tool's files (cabling/p2p.xlsx, p2p.csv,
# hca_mapping.csv, floor.csv) against the tool's manual, read with openpyxl
# and LibreOffice, every row against cabling.csv, racks.csv and the node
# model's NIC table.
#
# The manual, as checked (the headers and names below are copied from it,
# not from railyard):
#   "NVIDIA UFM Cable Validation Tool v1.6.0", Topology Files > P2P File,
#     https://docs.nvidia.com/networking/display/cablevalidationtool160/P2P+File
#     (same text in v1.4.0 .../cablevalidationtool140/p2p+file and v1.5.0
#     .../cablevalidationtool150/p2p+file; read 2026-11-25): an Excel file,
#     possibly of several sheets, whose columns the tool finds by header
#     name; Ethernet example headers A-Rack, A-U, A-Node Name, A-Type,
#     A-Port, Z-Rack, Z-RU, Z-Node Name, Z-Type, Z-Port; type Host or
#     Switch; Ethernet ports swp<port>s<split> on switches, rail<n> on
#     hosts; InfiniBand ports a number or a split port (1/2) on switches,
#     sw<port>p<split> on XDR (NVOS) switches ("sw1p1"), a number on hosts,
#     port n = mlx5_<n-1> unless an HCA mapping file says otherwise.
#   "NVIDIA UFM Cable Validation Tool v1.5.0", Topology Files > Optional
#     Files, https://docs.nvidia.com/networking/display/cablevalidationtool150/optional+files
#     (last updated May 5, 2025; read 2026-11-25): hca_mapping is a CSV
#     "port,hca-name"; the layout file maps racks to data hall, scalable
#     unit, row (its headers are only in a picture: floor.csv's are ours).
# Not checked against: v1.7.1's "unified PTP" (cablevalidationtool171/p2p+file,
# 2025-11-12: Nodes and Links sheets), a format railyard does not write.
# DGX H100 NICs of GPUs 0..7: mlx5_0, 3, 4, 5, 6, 9, 10, 11 (NVIDIA DGX
# H100/H200 User Guide, "Network Modules"; as tests/nics.sh).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
TPL="${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}"

cat >"$TMP/check.py" <<'P'
import csv, os, re, sys
import openpyxl, yaml

DOC_HEADERS = ["A-Rack", "A-U", "A-Node Name", "A-Type", "A-Port",
               "Z-Rack", "Z-RU", "Z-Node Name", "Z-Type", "Z-Port"]
DOC_HCA_HEADER = ["port", "hca-name"]
DGX_H100 = ["mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11"]

out, spec_path, tdir, eth = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "eth"
errs = []
def err(m): errs.append(m)
def rd(name):
    with open(os.path.join(out, name), newline="") as f:
        return list(csv.reader(f))

spec = yaml.safe_load(open(spec_path))
nodes = yaml.safe_load(open(os.path.join(tdir, "nodes.yaml")))["nodes"]
switches = yaml.safe_load(open(os.path.join(tdir, "switches.yaml")))["switches"]
node = nodes[spec["cluster"]["node"]]
sw = switches[spec["fabric"]["switch"]]
if (sw.get("protocol") == "ethernet") != eth: err("spec's protocol is not the one tested")
# NIC port i (GPU + plane * GPUs per server): the model's table, else mlx5_<i>
nnic = node.get("gpus_per_node", 8) * spec["cluster"].get("planes", 1)
table = [n["rdma"] for n in node.get("nics", [])][:nnic]
table += ["mlx5_%d" % i for i in range(len(table), nnic)] if not table else []
if len(table) != nnic: err("NIC table of %d ports for %d" % (len(table), nnic))
if spec["cluster"]["node"] == "dgx-h100" and table != DGX_H100:
    err("templates/nodes.yaml dgx-h100 nics: %s" % table)
split = sw["radix"] // (sw["cages"] * sw.get("cage_ports", 1))
nvos = sw.get("speed") == "XDR"   # the manual: XDR on NVOS switches, ports sw<port>p<split>

cab = rd("cabling.csv")
ch, cab = cab[0], [dict(zip(cab[0], r)) for r in cab[1:]]

# ---- p2p.xlsx -------------------------------------------------------------------------------
wb = openpyxl.load_workbook(os.path.join(out, "p2p.xlsx"), read_only=True)
names = wb.sheetnames
if names != ["P2P"] + ["P2P %d" % k for k in range(2, len(names) + 1)]:
    err("sheets: %s" % names)
rows = []
for n in names:
    it = wb[n].iter_rows(values_only=True)
    head = list(next(it))
    if head != DOC_HEADERS: err("%s: headers %s, documented %s" % (n, head, DOC_HEADERS))
    rows += [list(r) for r in it]
if len(rows) != len(cab): err("p2p.xlsx: %d rows for %d cables" % (len(rows), len(cab)))

def cell(v):  # a plain number is a number cell, as typed in Excel
    return int(v) if re.fullmatch(r"\d+", v) else v
def port(r, e, host):
    v = r[e + "_port"] if host else r[e + "_cage_port"]   # a switch's port as its OS names it
    if host:
        n = table.index(v) + 1
        return "rail%d" % n if eth else n
    if not eth and not nvos: return cell(v)
    p = [int(x) for x in v.split("/")]
    if len(p) == 1: return "sw%dp1" % p[0] if nvos else "swp%d" % p[0]
    sub = (p[1] - 1) * split + p[2] - 1 if len(p) == 3 else p[1] - 1
    return "sw%dp%d" % (p[0], sub + 1) if nvos else "swp%ds%d" % (p[0], sub)

SWP, RAIL = re.compile(r"swp\d+(s\d+)?$"), re.compile(r"rail\d+$")
ends = set()
for k, (r, x) in enumerate(zip(cab, rows)):
    host = r["a_type"] == spec["cluster"]["node"]
    want = [r["a_rack"], int(r["a_u"]), r["a_device"], "Host" if host else "Switch", port(r, "a", host),
            r["z_rack"], int(r["z_u"]), r["z_device"], "Switch", port(r, "z", False)]
    if x != want:
        err("row %d (%s): %s, want %s" % (k + 2, r["label"], x, want))
        if len(errs) > 5: break
    for node_, typ, p in ((x[2], x[3], x[4]), (x[7], x[8], x[9])):
        if (node_, p) in ends: err("%s %s: two cables" % (node_, p))
        ends.add((node_, p))
        if eth and not (RAIL if typ == "Host" else SWP).match(str(p)):
            err("%s port %r is not of the documented form" % (typ, p))
        if not eth and typ == "Host" and not (isinstance(p, int) and 1 <= p <= len(table)):
            err("host port %r is not 1..%d" % (p, len(table)))
        if not eth and typ == "Switch" and not re.fullmatch(
                r"sw\d+p\d+" if nvos else r"\d+(/\d+){0,2}", str(p)):
            err("switch port %r is not of the documented form" % p)

# p2p.csv: the same cells as text
pc = rd("p2p.csv")
if pc[0] != DOC_HEADERS: err("p2p.csv header %s" % pc[0])
if pc[1:] != [[str(v) for v in r] for r in rows]: err("p2p.csv differs from p2p.xlsx")

# ---- hca_mapping.csv: the NIC table in rail order ------------------------------------------------
hm = rd("hca_mapping.csv")
want = [DOC_HCA_HEADER] + [[str(i + 1), n] for i, n in enumerate(table)]
if hm != want: err("hca_mapping.csv: %s, want %s" % (hm, want))
hosts = {(r[2], r[4]) for r in rows if r[3] == "Host"}
if not eth:
    byname = {(d, hm[p][1]) for d, p in hosts}
    want = {("node%03d" % (s + 1), n) for s in range(spec["cluster"]["nodes"]) for n in table}
    if byname != want: err("p2p hosts through hca_mapping: %d ports, %d wanted" % (len(byname), len(want)))

# ---- floor.csv: one row per rack of racks.csv ---------------------------------------------------
fl, rk = rd("floor.csv"), rd("racks.csv")
if fl[0] != ["Rack", "Building", "Data Hall", "Row", "Scalable Unit"]: err("floor.csv header %s" % fl[0])
rk = [dict(zip(rk[0], r)) for r in rk[1:]]
if [r[0] for r in fl[1:]] != [r["rack"] for r in rk]: err("floor.csv racks are not racks.csv's")
su = {}
for f, r in zip(fl[1:], rk):
    if f[1:3] != [r["building"], r["room"]]: err("floor %s: %s, racks.csv %s" % (f[0], f[1:3], r))
    if not (f[3].endswith("R%02d" % int(r["row"])) and f[0].startswith(f[3] + "-")):
        err("floor %s: row %s, racks.csv row %s" % (f[0], f[3], r["row"]))
    if r["kind"] == "compute" and not f[4].isdigit(): err("floor %s: compute rack without a unit" % f[0])
    su[f[0]] = f[4]
for r in cab:  # a server and its leaf are of one scalable unit
    if r["tier"] == "1" and su[r["z_rack"]] and su[r["a_rack"]] != su[r["z_rack"]]:
        err("%s: server in unit %s, its leaf in %s" % (r["label"], su[r["a_rack"]], su[r["z_rack"]]))
print("\n".join(errs[:10]) if errs else "ok")
P

LO=$(command -v libreoffice || command -v soffice || true)
for t in "ib $TOP_SRCDIR/tests/data/nics/dgx-h100.yaml" \
         "ib $TOP_SRCDIR/tests/data/cabling/xdr.yaml" \
         "eth $TOP_SRCDIR/tests/data/cablevalid/eth.yaml" \
         "eth $TOP_SRCDIR/tests/data/cabling/fat-tree.yaml"; do
    set -- $t
    n=$(basename "$2" .yaml)
    "$RAILYARD" cabling "$2" -o "$TMP/$n" >"$TMP/$n.log" 2>&1
    expect_eq "$n: cabling exit" $? 0
    no_sanitizer "$TMP/$n.log"
    "$PY" "$TMP/check.py" "$TMP/$n/cabling" "$2" "$TPL" "$1" >"$TMP/$n.chk" 2>&1
    expect_eq "$n: the tool's files against its manual" "$(cat "$TMP/$n.chk")" ok
    "$RAILYARD" cabling "$2" -o "$TMP/$n-again" >/dev/null 2>&1
    cmp -s "$TMP/$n/cabling/p2p.xlsx" "$TMP/$n-again/cabling/p2p.xlsx" && ok \
        || fail "$n: p2p.xlsx differs between runs"
    # LibreOffice opens the workbook: its sheet as CSV is p2p.csv
    if [ -n "$LO" ]; then
        mkdir -p "$TMP/lo-$n"
        HOME="$TMP" timeout 300 "$LO" -env:UserInstallation="file://$TMP/lo-profile" --headless \
            --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1' \
            --outdir "$TMP/lo-$n" "$TMP/$n/cabling/p2p.xlsx" >"$TMP/lo-$n.log" 2>&1
        expect_eq "$n: libreoffice converts p2p.xlsx" $? 0
        "$PY" - "$TMP/lo-$n/p2p.csv" "$TMP/$n/cabling/p2p.csv" >"$TMP/lo-$n.chk" 2>&1 <<'P'
import csv, sys
a, b = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:3])
print("ok" if a == b and len(b) > 1 else "%d rows, p2p.csv %d; first difference %s"
      % (len(a), len(b), next(((x, y) for x, y in zip(a, b) if x != y), None)))
P
        expect_eq "$n: p2p.xlsx in LibreOffice is p2p.csv" "$(cat "$TMP/lo-$n.chk")" ok
    else
        echo "SKIP: LibreOffice (libreoffice/soffice) not installed"
    fi
done
finish
