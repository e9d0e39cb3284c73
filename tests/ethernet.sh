#!/bin/sh
# railyard ethernet without a live fabric: the plan against closed forms
# worked out here (switches, ASNs, sessions, addresses, ECMP widths), every
# frr.conf through FRR's own parser (vtysh -C), every netplan file through
# netplan generate, the ip and QoS scripts through sh -n, the same bytes
# twice, IPv6 and both QoS profiles, and refused specs (pools too small,
# meeting or in a special-purpose range, ASNs past the range, an InfiniBand
# switch, NIC names no root script may hold, from a spec or a -T catalog)
# with nothing written.
. "${TOP_SRCDIR:-.}/tests/lib.sh"

D=$TOP_SRCDIR/tests/data/eth
RO=$D/ro-2tier.yaml

# ---- the plan of ro-2tier: 8 servers x 8 GPUs, radix 16, 2 tiers ------------------
# closed forms: a leaf per rail (8 GPUs each, 8 down, 8 up); 64 uplinks over
# 16-port spines: 4 spines; ASNs: 8 leaves + 1 for the spines; sessions: 64
"$RAILYARD" ethernet "$RO" -o "$TMP/ro" >"$TMP/ro.log" 2>&1
expect_eq "ethernet exit" "$?" 0
no_sanitizer "$TMP/ro.log"
E=$TMP/ro/ethernet
expect_eq "frr.conf files" "$(ls "$E"/switches/*/frr.conf | wc -l)" 12
expect_eq "host files" "$(ls "$E"/hosts | wc -l)" 32    # 8 hosts: .yaml, .sh, .qos.sh, .nccl.conf
expect_eq "distinct ASNs" "$(tail -n +2 "$E/asn-plan.csv" | cut -d, -f6 | sort -u | wc -l)" 9
expect_eq "spines share one ASN" \
    "$(awk -F, '$2 == "spine" {print $6}' "$E/asn-plan.csv" | sort -u | wc -l)" 1
expect_eq "leaf ASNs distinct" \
    "$(awk -F, '$2 == "leaf" {print $6}' "$E/asn-plan.csv" | sort -u | wc -l)" 8
expect_eq "neighbour lines" "$(cat "$E"/switches/*/frr.conf | grep -c ' interface peer-group FABRIC')" 128
expect_eq "leaf maximum-paths" "$(grep -h maximum-paths "$E"/switches/leaf*/frr.conf | sort -u)" \
    "  maximum-paths 8"
expect_eq "spine maximum-paths (2 links to each leaf)" \
    "$(grep -h maximum-paths "$E"/switches/spine*/frr.conf | sort -u)" "  maximum-paths 2"
grep -q "^ethernet: eth-ro, 64 GPUs" "$E/summary.txt" && ok || fail "summary: $(head -1 "$E/summary.txt")"
# NIC port i (GPU g, one plane: i = g) has 10.0.0.(2i+1)/31, its ToR 10.0.0.(2i)
$PY - "$E/addresses.csv" >"$TMP/addr.out" <<'PY'
import csv, ipaddress, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = 0
for r in rows:
    g = int(r["gpu"])
    want = ipaddress.ip_address("10.0.0.0") + 2 * g + 1
    if r["address"] != "%s/31" % want or r["switch_address"] != str(want - 1):
        bad += 1
    if r["switch"] != "leaf%d" % (g % 8) or r["rail"] != str(g % 8):
        bad += 1
print(len(rows), bad)
PY
expect_eq "addresses.csv rows, mismatches" "$(cat "$TMP/addr.out")" "64 0"
# loopbacks: switch n of the plan's order has 10.255.0.(n+1)
expect_eq "loopbacks in order" "$(tail -n +2 "$E/asn-plan.csv" | cut -d, -f7 |
    awk '{n++; if ($0 != "10.255.0." n) bad++} END {print n, bad + 0}')" "12 0"

# doc/ethernet.md quotes this summary: it must stay what railyard writes
while IFS= read -r line; do
    grep -qxF "$line" "$TOP_SRCDIR/doc/ethernet.md" && ok || fail "doc/ethernet.md lacks: $line"
done <"$E/summary.txt"
"$RAILYARD" whatif "$RO" --alone --fail spine0 >"$TMP/wi.out" 2>&1
sed -n '/^BGP routes leaf to leaf/,/pairs without/p' "$TMP/wi.out" >"$TMP/wi.rows"
expect_eq "whatif ECMP rows" "$(wc -l <"$TMP/wi.rows")" 4
while IFS= read -r line; do
    grep -qxF "$line" "$TOP_SRCDIR/doc/ethernet.md" && ok || fail "doc/ethernet.md lacks: $line"
done <"$TMP/wi.rows"

# ---- the real consumers ----------------------------------------------------------
if command -v vtysh >/dev/null 2>&1; then
    for f in "$E"/switches/*/frr.conf; do
        if vtysh -C -f "$f" >"$TMP/vtysh.out" 2>&1; then ok; else
            fail "vtysh -C rejects $f: $(head -3 "$TMP/vtysh.out")"; fi
    done
    # the parser can fail: a line FRR does not know
    sed 's/^ neighbor FABRIC bfd$/ neighbor FABRIC bfd-typo/' "$E/switches/leaf0/frr.conf" >"$TMP/bad.conf"
    if vtysh -C -f "$TMP/bad.conf" >/dev/null 2>&1; then fail "vtysh -C took a bad line"; else ok; fi
else
    echo "note: vtysh (frr) not installed: frr.conf syntax not checked"
fi
# netplan_count NAME YAML SECTION: netplan generate on YAML alone (a root of
# its own), then the number of [SECTION]s in the networkd files it made;
# "rejected" when netplan refuses the file
netplan_count() {
    R=$TMP/np-$1
    mkdir -p "$R/etc/netplan" && cp "$2" "$R/etc/netplan/$1.yaml" && chmod 600 "$R/etc/netplan/$1.yaml"
    if netplan generate --root-dir "$R" >"$TMP/np.out" 2>&1; then
        cat "$R"/run/systemd/network/*.network | grep -c "^\[$3\]"
    else
        echo "rejected: $(head -3 "$TMP/np.out")"
    fi
}
if command -v netplan >/dev/null 2>&1; then
    for h in node001 node008; do
        # 8 NICs: 8 policy rules, 2 routes per table plus 2 in the main table
        expect_eq "$h: networkd rules" "$(netplan_count "$h" "$E/hosts/$h.yaml" RoutingPolicyRule)" 8
        expect_eq "$h: networkd routes" "$(netplan_count "$h" "$E/hosts/$h.yaml" Route)" 18
    done
else
    echo "note: netplan not installed: host YAML not checked"
fi
for f in "$E"/hosts/*.sh; do
    if sh -n "$f"; then ok; else fail "sh -n $f"; fi
done
expect_eq "ip rules in node003.sh" "$(grep -c '^ip rule add from' "$E/hosts/node003.sh")" 8
expect_eq "lossless PFC" "$(grep -c 'prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off' "$E/hosts/node001.qos.sh")" 8

# NCCL's file per host, read by NCCL's own rules (NVIDIA/nccl src/misc/param.cc,
# setEnvFile, at commit 5067397c: a line starting '#' is a comment, else
# NAME=VALUE up to the end of the line; the traffic class's default is 0,
# src/transport/net_ib/connect.cc NCCL_IB_TC_DEFAULT): its traffic class the
# DSCP that every switch's CONFIG_DB maps to the PFC priority, with ECT(0);
# its NICs every NIC of the host in addresses.csv, in rail order
nccl_check() {  # nccl_check DIR PFC: DIR/ethernet of a run; PFC 1 lossless
    "$PY" - "$1" "$2" <<'P'
import csv, glob, json, os, sys
e, lossless = sys.argv[1], sys.argv[2] == "1"
def nccl_conf(path):
    env = {}
    for line in open(path):
        line = line.rstrip("\n").rstrip("\r")
        if line.startswith("#") or "=" not in line:
            continue
        k, v = line.split("=", 1)
        env[k] = v
    return env
rows = {}
for r in csv.DictReader(open(os.path.join(e, "addresses.csv"))):
    rows.setdefault(r["host"], []).append(r)
bad = []
for sw in glob.glob(os.path.join(e, "switches", "*", "config_db.json")):
    db = json.load(open(sw))
    qos = next(iter(db["PORT_QOS_MAP"].values()))
    dscp = {int(k): int(v) for k, v in db["DSCP_TO_TC_MAP"][qos["dscp_to_tc_map"]].items()}
    pfc = [int(x) for x in qos.get("pfc_enable", "").split(",") if x]
    roce = [d for d, tc in dscp.items() if tc in pfc] if lossless else None
    break
for host, rs in sorted(rows.items()):
    env = nccl_conf(os.path.join(e, "hosts", host + ".nccl.conf"))
    tc = int(env["NCCL_IB_TC"])
    if tc & 3 != 2:
        bad.append("%s: traffic class %d is not ECT(0)" % (host, tc))
    if lossless and tc >> 2 not in roce:
        bad.append("%s: DSCP %d is not the PFC class's %s" % (host, tc >> 2, roce))
    want = "=" + ",".join(r["rdma"] + ":1" for r in sorted(rs, key=lambda r: (int(r["rail"]), int(r["plane"]))))
    if env.get("NCCL_IB_HCA") != want:
        bad.append("%s: NCCL_IB_HCA %s, want %s" % (host, env.get("NCCL_IB_HCA"), want))
    if env.get("NCCL_IB_ADDR_FAMILY") != "AF_INET" or env.get("NCCL_IB_ROCE_VERSION_NUM") != "2":
        bad.append("%s: the GID's family and RoCE version" % host)
print("\n".join(bad[:5]) if bad else "ok %d" % len(rows))
P
}
# the ARP sysctls the .sh sets, in a file for netplan's hosts: the same
# keys and values, each a key of this kernel; applied in a network
# namespace of its own (procps' sysctl -p) where one can be made
sh_keys=$(grep -o 'net\.ipv4\.conf\.all\.[a-z_]*=[0-9]*' "$E/hosts/node001.sh" | sort | tr '\n' ' ')
conf_keys=$(grep -v '^#' "$E/host-sysctl.conf" | sed 's/ = /=/' | sort | tr '\n' ' ')
expect_eq "host-sysctl.conf holds what node001.sh sets" "$conf_keys" "$sh_keys"
for k in $(grep -v '^#' "$E/host-sysctl.conf" | cut -d' ' -f1); do
    [ -e "/proc/sys/$(echo "$k" | tr . /)" ] && ok || fail "no kernel key $k"
done
if unshare -n true 2>/dev/null; then
    got=$(unshare -n sh -c 'sysctl -q -p "$1" && sysctl -n net.ipv4.conf.all.arp_ignore net.ipv4.conf.all.arp_announce' sh "$E/host-sysctl.conf" 2>&1 | tr '\n' ' ')
    expect_eq "sysctl -p host-sysctl.conf in a namespace" "$got" "1 2 "
else
    echo "note: no network namespace here: host-sysctl.conf not applied"
fi
got=$(nccl_check "$E" 1)
expect_eq "nccl.conf of every host (lossless)" "$got" "ok $(tail -n +2 "$E/addresses.csv" | cut -d, -f1 | sort -u | wc -l)"

# ---- the same bytes twice; IPv6; lossy ----------------------------------------------
"$RAILYARD" ethernet "$RO" -o "$TMP/ro2" >/dev/null 2>&1
if diff -r "$TMP/ro/ethernet" "$TMP/ro2/ethernet" >/dev/null; then ok; else fail "two runs differ"; fi
"$RAILYARD" ethernet "$RO" --set ethernet.ipv6=static --set ethernet.qos=lossy -o "$TMP/v6" \
    >"$TMP/v6.log" 2>&1
expect_eq "ipv6 run" "$?" 0
V=$TMP/v6/ethernet
# link i's /64 is the prefix's /64 number i + 1: GPU 9 (leaf1's second host)
grep -q '^ ipv6 address fd52:6169:6c00:a::1/64$' "$V/switches/leaf1/frr.conf" && ok ||
    fail "leaf1: no ::1 of /64 number 10"
grep -q 'fd52:6169:6c00:a::2/64 dev eth1' "$V/hosts/node002.sh" && ok ||
    fail "node002: no ::2 of /64 number 10"
grep -q '^ ipv6 address fd52:6169:6c00::1/128$' "$V/switches/leaf0/frr.conf" && ok ||
    fail "leaf0: loopback6 not ::1"
expect_eq "lossy PFC off" "$(grep -c 'prio-pfc 0:off 1:off 2:off 3:off' "$V/hosts/node001.qos.sh")" 8
case $(nccl_check "$V" 0) in ok*) ok ;; *) fail "nccl.conf (lossy): $(nccl_check "$V" 0)" ;; esac
if command -v vtysh >/dev/null 2>&1; then
    vtysh -C -f "$V/switches/spine0/frr.conf" >/dev/null 2>&1 && ok || fail "vtysh: IPv6 spine0"
fi
"$RAILYARD" ethernet "$RO" --set ethernet.ipv6=slaac -o "$TMP/slaac" >/dev/null 2>&1
if command -v netplan >/dev/null 2>&1; then
    for m in v6 slaac; do
        # 8 NICs: an IPv4 and an IPv6 rule each
        expect_eq "$m: networkd rules" \
            "$(netplan_count "$m" "$TMP/$m/ethernet/hosts/node002.yaml" RoutingPolicyRule)" 16
    done
fi
grep -q '^ ipv6 nd prefix fd52:6169:6c00:1::/64$' "$TMP/slaac/ethernet/switches/leaf0/frr.conf" &&
    ok || fail "slaac: no RA prefix on leaf0"

# ---- 3 tiers and rail-only: ASNs by RFC 7938 -----------------------------------------
"$RAILYARD" ethernet "$D/ro-3tier.yaml" -o "$TMP/t3" >/dev/null 2>&1
A=$TMP/t3/ethernet/asn-plan.csv
# 8 leaves, 2 blocks of 4 middle switches, 4 top: 8 + 2 + 1 ASNs
expect_eq "3-tier ASNs" "$(tail -n +2 "$A" | cut -d, -f6 | sort -u | wc -l)" 11
expect_eq "3-tier middle ASNs per block" \
    "$(awk -F, '$2 == "spine" {print $5, $6}' "$A" | sort -u | wc -l)" 2
"$RAILYARD" ethernet "$D/rail-only.yaml" -o "$TMP/r1" >/dev/null 2>&1
# each of 4 rails its own network: 8 leaves + 4 spine ASNs
expect_eq "rail-only ASNs" "$(tail -n +2 "$TMP/r1/ethernet/asn-plan.csv" | cut -d, -f6 | sort -u | wc -l)" 12

# ---- refused, nothing written -----------------------------------------------------
refused() {     # refused WHAT KEY-IN-MESSAGE ARGS...
    what=$1 key=$2; shift 2
    rm -rf "$TMP/no"
    "$RAILYARD" ethernet "$@" -o "$TMP/no" >"$TMP/err" 2>&1
    rc=$?
    expect_eq "$what: exit" "$rc" 1
    grep -q "$key" "$TMP/err" && ok || fail "$what: message lacks $key: $(cat "$TMP/err")"
    [ -e "$TMP/no" ] && fail "$what: wrote $TMP/no" || ok
    no_sanitizer "$TMP/err"
}
refused "host pool too small" "ethernet.hosts" "$RO" --set ethernet.hosts=10.0.0.0/26
refused "loopback pool too small" "ethernet.loopbacks" "$RO" --set ethernet.loopbacks=10.255.0.0/29
refused "pools meet" "ethernet.loopbacks" "$RO" --set ethernet.loopbacks=10.0.0.0/16
refused "4-byte ASNs run out" "ethernet.asn_base" "$RO" --set ethernet.asn_base=4294967290
refused "2-byte private range" "ethernet.asn_base" "$RO" --set ethernet.asn_base=65530
refused "host bits" "ethernet.hosts" "$RO" --set ethernet.hosts=10.0.0.1/9
refused "IPv6 pool" "ethernet.ipv6_prefix" "$RO" --set ethernet.ipv6=static \
    --set ethernet.ipv6_prefix=fd00::/60
refused "InfiniBand" "fabric.switch" "$TOP_SRCDIR/examples/superpod-4su.yaml"
# special-purpose ranges hold no pool: the broadcast address as a host's, a
# multicast address as a router-id, loopback, this network, link-local
refused "broadcast host pool" "^--set:1:16: error: ethernet.hosts: 255.255.255.128/25 meets 240.0.0.0/4" \
    "$RO" --set ethernet.hosts=255.255.255.128/25
refused "multicast loopbacks" "^--set:1:20: error: ethernet.loopbacks: 224.0.0.0/24 meets 224.0.0.0/4 (multicast)" \
    "$RO" --set ethernet.loopbacks=224.0.0.0/24
refused "loopback 127/8" "ethernet.hosts: 127.0.0.0/16 meets 127.0.0.0/8 (loopback)" \
    "$RO" --set ethernet.hosts=127.0.0.0/16
refused "this network 0/8" "ethernet.loopbacks: 0.0.0.0/24 meets 0.0.0.0/8" \
    "$RO" --set ethernet.loopbacks=0.0.0.0/24
refused "all of IPv4" "ethernet.hosts: 0.0.0.0/0 meets" "$RO" --set ethernet.hosts=0.0.0.0/0
refused "link-local hosts" "ethernet.hosts: 169.254.0.0/16 meets 169.254.0.0/16 (link-local)" \
    "$RO" --set ethernet.hosts=169.254.0.0/16
refused "link-local IPv6" "ethernet.ipv6_prefix: fe80::/40 meets fe80::/10 (link-local)" \
    "$RO" --set ethernet.ipv6=static --set ethernet.ipv6_prefix=fe80::/40
refused "multicast IPv6" "ethernet.ipv6_prefix: ff00::/40 meets ff00::/8 (multicast)" \
    "$RO" --set ethernet.ipv6=static --set ethernet.ipv6_prefix=ff00::/40
# a spec file's bad prefix: at its line and column
cat >"$TMP/badpre.yaml" <<'Y'
version: 1
name: bad-prefix
cluster: {nodes: 8, node: {name: g8, gpus_per_node: 8, hb_domain: 8, nic_speed: 400G}}
fabric: {design: rail-optimized, switch: {name: e16, radix: 16, speed: 400G, protocol: ethernet}}
ethernet:
  hosts: 10.0.0.0/33
Y
refused "prefix length" "badpre.yaml:6:10: error: ethernet.hosts" "$TMP/badpre.yaml"
sed 's|^  hosts: .*|  loopbacks: 224.0.0.0/24|' "$TMP/badpre.yaml" >"$TMP/mcast.yaml"
refused "multicast loopbacks in a file" "mcast.yaml:6:14: error: ethernet.loopbacks: 224.0.0.0/24 meets" \
    "$TMP/mcast.yaml"
cat >"$TMP/dupnic.yaml" <<'Y'
version: 1
name: dup-nic
cluster:
  nodes: 2
  node:
    name: g2
    gpus_per_node: 2
    hb_domain: 2
    nic_speed: 400G
    nics:
      - {rdma: mlx5_0, netdev: ens1}
      - {rdma: mlx5_1, netdev: ens1}
fabric: {design: rail-optimized, switch: {name: e16, radix: 16, speed: 400G, protocol: ethernet}}
Y
refused "two NICs one name" "dupnic.yaml:10:5: error: cluster.node.nics: NIC ports 0 and 1 are both named 'ens1'" "$TMP/dupnic.yaml"
sed 's/netdev: ens1}$/netdev: enp1s0f0np0longer}/' "$TMP/dupnic.yaml" >"$TMP/longnic.yaml"
refused "a NIC name past 15 characters" "netdev is longer than 15 characters" "$TMP/longnic.yaml"
# names that would reach hosts/*.sh (run as root): refused at the key, in a
# spec and in a -T catalog's node entry (the same reader)
nicspec() {     # nicspec FILE NETDEV RDMA: dupnic.yaml with NIC 1 named so
    sed "12s|.*|      - {rdma: $3, netdev: $2}|" "$TMP/dupnic.yaml" >"$1"
}
nicspec "$TMP/nlnic.yaml" '"e\\nreboot"' mlx5_1   # sed makes \\ one \
refused "a NIC name with a newline" \
    "nlnic.yaml:12:32: error: cluster.node.nics\[1\].netdev must be a device name like ibp24s0.*got 'e\\\\x0areboot'" \
    "$TMP/nlnic.yaml"
grep -q '^reboot' "$TMP/err" && fail "the newline reached the message: $(cat "$TMP/err")" || ok
for bad in '"e;reboot"' "'-x'" "'..'" "'a b'" "'e\$(id)'" "'a/b'" "'e:1'"; do
    nicspec "$TMP/badnic.yaml" "$bad" mlx5_1
    refused "netdev $bad" "badnic.yaml:12:32: error: cluster.node.nics\[1\].netdev must be a device name" \
        "$TMP/badnic.yaml"
done
nicspec "$TMP/badrdma.yaml" ens2 "'x;id'"
refused "rdma x;id" "badrdma.yaml:12:16: error: cluster.node.nics\[1\].rdma must be a device name" \
    "$TMP/badrdma.yaml"
# and what Linux takes passes: dots, dashes, underscores, 15 characters
nicspec "$TMP/oknic.yaml" enp1s0f0np0.12 mlx5_1
"$RAILYARD" ethernet "$TMP/oknic.yaml" -o "$TMP/oknic" >"$TMP/err" 2>&1
expect_eq "netdev enp1s0f0np0.12: exit" "$?" 0
grep -q '^ip link set dev enp1s0f0np0.12 mtu' "$TMP/oknic/ethernet/hosts/node001.sh" && ok ||
    fail "netdev enp1s0f0np0.12 not in node001.sh"
mkdir -p "$TMP/cat"
cat >"$TMP/cat/nodes.yaml" <<'Y'
nodes:
  lab-node:
    description: "a lab server"
    gpus_per_node: 2
    hb_domain: 2
    nic_speed: 400G
    nics:
      - {rdma: mlx5_0, netdev: ens1}
      - {rdma: mlx5_1, netdev: "ens2;reboot"}
Y
printf 'version: 1\nname: lab\ncluster: {nodes: 2, node: lab-node}\nfabric: {design: rail-optimized, switch: {name: e16, radix: 16, speed: 400G, protocol: ethernet}}\n' \
    >"$TMP/lab.yaml"
rm -rf "$TMP/no"
"$RAILYARD" -T "$TMP/cat" ethernet "$TMP/lab.yaml" -o "$TMP/no" >"$TMP/err" 2>&1
expect_eq "-T netdev ens2;reboot: exit" "$?" 1
grep -q "cat/nodes.yaml:9:32: error: nodes.lab-node.nics\[1\].netdev must be a device name" "$TMP/err" \
    && ok || fail "-T netdev: $(cat "$TMP/err")"
[ -e "$TMP/no" ] && fail "-T netdev: wrote $TMP/no" || ok

# ---- every Ethernet example's shape: configs FRR takes ------------------------------
# each at a size that keeps its shape (tiers, splits, tapers, homing) and
# stays quick under the sanitizers
for ex in megascale:cluster.gpus=1024 alibaba-hpn:cluster.nodes=256 \
          llama3-roce:cluster.gpus=4096 juniper-ai-jvd:cluster.gpus=1024 \
          mixed-speed-leaf:cluster.gpus=1024 fat-tree:cluster.nodes=64; do
    set -- "$TOP_SRCDIR/examples/${ex%%:*}.yaml" --set "${ex#*:}"
    ex=${ex%%:*}
    "$RAILYARD" ethernet "$@" -o "$TMP/ex-$ex" >"$TMP/ex.log" 2>&1
    expect_eq "$ex: ethernet exit" "$?" 0
    no_sanitizer "$TMP/ex.log"
    # the number of frr.conf files is the BOM's switch count
    n=$("$RAILYARD" bom "$@" --format json 2>/dev/null |
        $PY -c 'import json,sys; print(json.load(sys.stdin)["switches"]["total"])')
    expect_eq "$ex: frr.conf files" "$(ls "$TMP/ex-$ex/ethernet/switches" | wc -l)" "$n"
    if command -v vtysh >/dev/null 2>&1; then
        for sw in $(ls "$TMP/ex-$ex/ethernet/switches" | sed -n '1p;$p'); do
            vtysh -C -f "$TMP/ex-$ex/ethernet/switches/$sw/frr.conf" >/dev/null 2>&1 && ok ||
                fail "$ex: vtysh -C rejects $sw"
        done
    fi
    rm -rf "$TMP/ex-$ex"
done

# ---- validate refuses what ethernet would, at the key ----------------------------------
"$RAILYARD" validate "$RO" --set ethernet.hosts=10.0.0.0/28 >"$TMP/val.out" 2>"$TMP/val.err"
expect_eq "validate with a small pool: exit" "$?" 1
grep -q "^--set:1:16: error: ethernet.hosts 10.0.0.0/28 holds 8 host links" "$TMP/val.err" && ok ||
    fail "validate: $(cat "$TMP/val.err")"
"$RAILYARD" validate "$RO" >"$TMP/val.out" 2>&1
grep -q "^ethernet:      eBGP unnumbered, ASNs 4200000000 to 4200000008 (9); 12 loopbacks" \
    "$TMP/val.out" && ok || fail "validate: no ethernet line"

# ---- check-routes on files --------------------------------------------------------
mkdir -p "$TMP/tables"
for sw in $(ls "$E/switches"); do echo '[]' >"$TMP/tables/$sw.json"; done
"$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "empty tables: exit" "$?" 5
# every planned route missing: 824 (leaves: 7 x 9 + 4; spines: 8 x 9)
grep -q "824 routes planned: 0 agree, 824 missing" "$TMP/cr.out" && ok || fail "empty tables: $(head -1 "$TMP/cr.out")"
printf '[{"dst": "10.0.0.2/31", "protocol": "bgp", "nexthops": [{"dev": 7}]}]' >"$TMP/tables/leaf0.json"
"$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "bad next hop: exit" "$?" 1
grep -q "leaf0.json" "$TMP/cr.out" && ok || fail "bad next hop: $(cat "$TMP/cr.out")"
printf '[{"dst": ' >"$TMP/tables/leaf0.json"
"$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "truncated JSON: exit" "$?" 1
grep -q "leaf0.json:1:" "$TMP/cr.out" && ok || fail "truncated JSON: $(cat "$TMP/cr.out")"
rm "$TMP/tables/leaf0.json"
"$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "a table missing: exit" "$?" 1
grep -q "leaf0.json: no forwarding table of leaf0" "$TMP/cr.out" && ok || fail "a table missing: $(cat "$TMP/cr.out")"
# a FIFO or a directory in a table's place: refused at once (a FIFO would
# wait for a writer forever), an I/O error
mkfifo "$TMP/tables/leaf0.json"
timeout -k 5 60 "$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "a FIFO as a table: exit" "$?" 3
grep -q "leaf0.json: a FIFO, not a regular file" "$TMP/cr.out" && ok || fail "a FIFO as a table: $(cat "$TMP/cr.out")"
rm "$TMP/tables/leaf0.json"
mkdir "$TMP/tables/leaf0.json"
timeout -k 5 60 "$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" >"$TMP/cr.out" 2>&1
expect_eq "a directory as a table: exit" "$?" 3
grep -q "leaf0.json: Is a directory" "$TMP/cr.out" && ok || fail "a directory as a table: $(cat "$TMP/cr.out")"
rmdir "$TMP/tables/leaf0.json"
"$RAILYARD" ethernet "$RO" --check-routes "$TMP/tables" -o "$TMP/x" >/dev/null 2>&1
expect_eq "--check-routes with -o: usage" "$?" 2
# "Is this fabric Ethernet?" has one answer, ry_spec_is_ethernet (spec/spec.h):
# no other file reads the leaf switch's protocol flag for it.
readers=$(grep -rlE '(spec|s|ctx->spec)(->|\.)sw\.ethernet' "$TOP_SRCDIR/src" --include='*.c' |
    sed "s|^$TOP_SRCDIR/||")
expect_eq "the protocol is asked through ry_spec_is_ethernet" "$readers" ""
finish
