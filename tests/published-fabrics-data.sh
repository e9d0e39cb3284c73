#!/bin/sh
# tests/data/fabrics/published-fabrics.yaml, the published AI training
# fabrics the graph is compared against: every fact cited, every derived
# number reproduced by its formula, every tier's port plan agreeing with
# its taper, every size-table row consistent or its inconsistency explained.
# The checker must also catch each of those faults planted in a copy.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
DATA="$TOP_SRCDIR/tests/data/fabrics/published-fabrics.yaml"
CHECK="$TOP_SRCDIR/tests/published-fabrics-check.py"
LIST=fabrics
# d = {id: design}, t(id, name) = a design's tier
PRELUDE='d = {x["id"]: x for x in doc["fabrics"]}
def t(i, name):
    return next(x for x in d[i]["tiers"] if x["name"] == name)'
. "$TOP_SRCDIR/tests/published-data-lib.sh"

check_data
# The designs the data is for.
for id in alibaba-hpn meta-llama3-roce bytedance-megascale juniper-ai-jvd \
          nvidia-superpod-gb200 nvidia-gb300-nvl72 nvidia-sn5600-leaf; do
    grep -q "^ok   $id " "$TMP/out" && ok || fail "no checked design $id"
done

# Anchors against closed forms of the sources' own counts: an HPN pod is
# 15 segments of 128 hosts x 8 GPUs and its ToR port plan fills the 51.2T
# chip; Meta's cluster is 8 pods x 192 racks x 16 GPUs; a MegaScale ToR
# splits 32 downlinks in two; a GB200 SU is 8 racks x 72 GPUs.
val() {   # val DESIGN PATH -> value of a fact (section.field)
    "$PY" - "$DATA" "$1" "$2" <<'PYEOF'
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
d = next(x for x in doc["fabrics"] if x["id"] == sys.argv[2])
sec, field = sys.argv[3].split(".")
if sec in ("node", "totals") or sec in d:
    print(d[sec][field]["value"])
else:
    print(next(t for t in d["tiers"] if t["name"] == sec)[field]["value"])
PYEOF
}
expect_eq "HPN pod GPUs" "$(val alibaba-hpn totals.pod_gpus)" $((128 * 8 * 15))
h() { val alibaba-hpn "tor.$1"; }
expect_eq "HPN ToR port plan fills the chip" \
    $(( ($(h down_count) + $(h down_backup)) * $(h down_speed) + $(h up_count) * $(h up_speed) )) \
    "$(h switch_capacity)"
expect_eq "Meta cluster GPUs" "$(val meta-llama3-roce totals.cluster_gpus)" $((8 * 192 * 16))
expect_eq "MegaScale ToR down ports" "$(val bytedance-megascale tor.down_count)" $((32 * 2))
expect_eq "GB200 SU GPUs" "$(val nvidia-superpod-gb200 totals.gpus_per_su)" $((8 * 72))

# Faults planted in a copy: the checker must fail naming each.
plant no-source "tor.up_count.source missing" 'del t("alibaba-hpn", "tor")["up_count"]["source"]'
plant unknown-source "is not a key of sources" 't("alibaba-hpn", "tor")["up_count"]["source"] = "paper"'
plant bad-status "status 'rumoured'" 't("alibaba-hpn", "tor")["up_count"]["status"] = "rumoured"'
plant no-says "tor.down_count.says missing" 'del t("alibaba-hpn", "tor")["down_count"]["says"]'
plant derived-wrong "segments_per_pod = 16, but its check" 'd["alibaba-hpn"]["totals"]["segments_per_pod"]["value"] = 16'
plant input-changed "tor.taper = 1.067, but its check" 't("alibaba-hpn", "tor")["up_count"]["value"] = 64'
plant unpublished-value "not_published but has value" 't("alibaba-hpn", "agg")["up_speed"]["value"] = 400'
plant no-derivable "not_published without derivable" 'del t("alibaba-hpn", "agg")["up_speed"]["derivable"]'
plant derived-unchecked "tor.per_pod: derived without check" 'del t("alibaba-hpn", "tor")["per_pod"]["check"]'
plant unknown-name "unknown fact tor.nonexistent" 't("alibaba-hpn", "tor")["per_pod"]["check"] = "tor.nonexistent * 2"'
plant not-arithmetic "only names, numbers" 't("alibaba-hpn", "tor")["per_pod"]["check"] = "__import__(\"os\").getpid()"'
plant taper-plan "tor.taper = 2, but 64x200 down" 't("bytedance-megascale", "tor")["taper"]["value"] = 2'
plant secondary-bare "secondary without a note" 'del d["meta-llama3-roce"]["node"]["backend_nics"]["note"]'
plant table-row "row 2: gpus = 500" 'd["nvidia-superpod-b200"]["tables"][0]["rows"][0][2] = 500'
plant table-unexplained "leaves_printed = 1024, but" 'del d["juniper-ai-jvd"]["tables"][0]["exceptions"]'
plant table-stale "exception on gpus but the row agrees" 'd["nvidia-superpod-b300-xdr"]["tables"][0]["rows"][4][2] = 10368'
plant dup-id "repeats" 'd["nvidia-sn5600-leaf"]["id"] = "alibaba-hpn"'
plant unused-source "source extra is cited by no fact" 'd["alibaba-hpn"]["sources"]["extra"] = "a paper"'
finish
