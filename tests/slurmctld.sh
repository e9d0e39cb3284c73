#!/bin/sh
# railyard slurm's files in a real slurmctld (Debian's slurmctld, Slurm
# 22.05): slurm.conf is a few lines of our own plus `Include` of the
# generated slurm.conf.fragment, with the generated topology.conf and
# gres.conf beside it. The nodes are State=FUTURE (appended here), so no
# slurmd is needed and scontrol -F shows them. What slurmctld reports
# (scontrol show topology, show node, show partition) is checked by
# tests/data/slurm/check-slurmctld.py against the fabric, from fabric.json.
# Then files that slurmctld must refuse: a switch named as a child but not
# defined, a switch defined twice.
# topology-block.conf is not loaded: topology/block needs Slurm 24.05
# (BlockSizes; 23.11 has only BlockLevels), which Debian does not ship.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
D="$TOP_SRCDIR/tests/data/slurm"
EX="$TOP_SRCDIR/examples"

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v scontrol >/dev/null 2>&1; then
    echo "slurmctld or scontrol is not installed (apt-get install slurmctld slurm-client): skipped"
    exit 77
fi
ver=$(slurmctld -V 2>/dev/null)
echo "$ver"

port=$((20000 + $$ % 20000))
PID=

# start CONFDIR: slurmctld in the foreground (in the background here), until
# scontrol ping answers or it exits; 0 when it runs.
start() {
    "$(command -v slurmctld)" -D -i -f "$1/slurm.conf" >"$1/ctld.log" 2>&1 &
    PID=$!
    i=0
    while [ $i -lt 100 ]; do
        if ! kill -0 "$PID" 2>/dev/null; then
            wait "$PID"
            PID=
            return 1
        fi
        SLURM_CONF="$1/slurm.conf" scontrol ping 2>/dev/null | grep -q 'is UP' && return 0
        sleep 0.2
        i=$((i + 1))
    done
    return 0
}
stop() {
    if [ -n "$PID" ]; then
        kill "$PID" 2>/dev/null
        wait "$PID" 2>/dev/null
        PID=
    fi
}
trap 'stop; rm -rf "$TMP"' EXIT

# conf OUT CONFDIR: slurm.conf and the generated files of OUT/slurm in CONFDIR
conf() {
    mkdir -p "$2/state"
    cat >"$2/slurm.conf" <<EOF
ClusterName=railyard
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=$(id -un)
StateSaveLocation=$2/state
SlurmctldPidFile=$2/slurmctld.pid
SelectType=select/cons_tres
Include $2/slurm.conf.fragment
EOF
    sed '/^NodeName=/s/$/ State=FUTURE/' "$1/slurm/slurm.conf.fragment" >"$2/slurm.conf.fragment"
    cp "$1/slurm/topology.conf" "$1/slurm/gres.conf" "$2/"
}

. "$TOP_SRCDIR/tests/data/slurm/specs.sh"
scheduler_specs "$TMP"

# name|spec|--set|nodes|gpus per node|hb domain|scalable unit
cases="superpod|$EX/superpod-4su.yaml||127|8|8|32
superpod-3tier|$EX/superpod-4su.yaml|cluster.nodes=2048|2048|8|8|32
b200-2plane|$EX/b200-2plane.yaml||64|8|8|32
fat-tree|$EX/fat-tree.yaml||256|8|8|0
gb200-nvl72|$D/gb200-nvl72.yaml||576|4|72|8
rail-only|$TMP/rail-only.yaml||64|8|16|8
split-node|$TMP/split-node.yaml||12|8|4|3
gh200-small|$TMP/gh200-small.yaml||512|1|256|1
one-switch|$TMP/one-switch.yaml||8|8|8|0
dual-tor|$TOP_SRCDIR/tests/data/ib/dual-tor.yaml||16|4|4|8
megascale|$EX/megascale.yaml||1536|8|8|64"
printf '%s\n' "$cases" >"$TMP/cases"
while IFS="|" read -r name sp sets nodes gpn hb su; do
    out="$TMP/out-$name"
    c="$TMP/ctl-$name"
    if [ -n "$sets" ]; then set -- --set "$sets"; else set --; fi
    "$RAILYARD" slurm "$sp" "$@" -o "$out" >"$TMP/$name.log" 2>&1
    expect_eq "$name: slurm exit" $? 0
    "$RAILYARD" build "$sp" "$@" --skip opensm,cabling,diagrams,slurm -o "$TMP/fab-$name" \
        >/dev/null 2>&1
    expect_eq "$name: build for fabric.json" $? 0
    conf "$out" "$c"
    if start "$c"; then
        ok
        export SLURM_CONF="$c/slurm.conf"
        scontrol show topology >"$c/topology.out" 2>&1
        scontrol -F -o show node >"$c/nodes.out" 2>&1
        scontrol -o show partition >"$c/parts.out" 2>&1
        unset SLURM_CONF
        stop
        "$PY" "$D/check-slurmctld.py" "$c" --fabric "$TMP/fab-$name/fabric.json" \
            --nodes "$nodes" --gpn "$gpn" --hb "$hb" --su "$su" >"$c/check" 2>&1
        expect_eq "$name: what slurmctld made of the files" "$(cat "$c/check")" ok
    else
        fail "$name: slurmctld refused the files: $(grep -i 'error\|fatal' "$c/ctld.log" | head -3)"
    fi
done <"$TMP/cases"

# the checker finds a node with the wrong unit's feature, and a node left
# out of its switch
c="$TMP/ctl-superpod"
chk() {
    "$PY" "$D/check-slurmctld.py" "$1" --fabric "$TMP/fab-superpod/fabric.json" --nodes 127 \
        --gpn 8 --hb 8 --su 32 2>&1
}
mkdir "$c/feature" "$c/left-out"
cp "$c/topology.out" "$c/nodes.out" "$c/parts.out" "$c/feature/"
cp "$c/topology.out" "$c/nodes.out" "$c/parts.out" "$c/left-out/"
sed -i 's/^\(NodeName=node001 .*AvailableFeatures=\)su1 /\1su2 /' "$c/feature/nodes.out"
expect_eq "checker: a feature of the wrong unit" "$(chk "$c/feature")" \
    "nodes: node001 has features ['su2'], want ['su1']"
sed -i 's/^\(SwitchName=su1 .*Nodes=\)node\[001-032\]/\1node[002-032]/' "$c/left-out/topology.out"
chk "$c/left-out" | grep -q "level-0 switches do not split the nodes as the fabric's leaves" &&
    ok || fail "checker: a node left out of its switch: $(chk "$c/left-out")"

# files slurmctld must refuse
out="$TMP/out-superpod"
c="$TMP/ctl-missing-switch"
conf "$out" "$c"
sed -i '/^SwitchName=su4 /d' "$c/topology.conf"
if start "$c"; then
    stop
    fail "slurmctld took a topology.conf whose root names an undefined switch"
else
    grep -q 'spine has invalid child (su4)' "$c/ctld.log" && ok ||
        fail "undefined switch: $(tail -3 "$c/ctld.log")"
fi
c="$TMP/ctl-twice"
conf "$out" "$c"
grep '^SwitchName=su1 ' "$out/slurm/topology.conf" >>"$c/topology.conf"
if start "$c"; then
    stop
    fail "slurmctld took a switch defined twice"
else
    grep -q 'has already been defined' "$c/ctld.log" && ok ||
        fail "switch twice: $(tail -3 "$c/ctld.log")"
fi
finish
