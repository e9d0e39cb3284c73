#!/bin/sh
# tests/data/model/published-runs.yaml, the published training runs the
# model is checked against: every run has every field, a unique id, exactly
# one measured figure (none when it did not fit), a known FLOP count, and a
# layout whose tensor*pipeline*context*data is its GPU count and whose
# batch is a multiple of data*micro_batch, and a run naming the fabric it
# ran on names an example spec and its source. The checker must also catch each
# of those faults planted in a copy of the file.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
DATA="$TOP_SRCDIR/tests/data/model/published-runs.yaml"
CHECK="$TOP_SRCDIR/tests/published-runs-check.py"
LIST=runs
PRELUDE='r, s = doc["runs"][0], doc["runs"][1]'
. "$TOP_SRCDIR/tests/published-data-lib.sh"

check_data
[ "$n" -ge 30 ] && ok || fail "only $n runs, want at least 30"
# The coverage the data is for: dense, ZeRO-3 and MoE; A100 and H100/H800;
# 16-bit and FP8; a layout that did not fit; a run on its own fabric.
for what in "zero: 3" "moe:" "gpu: a100" "gpu: h100" "gpu: h800" "precision: fp16" \
            "precision: bf16" "precision: fp8" "fits: false" "context: 16" \
            "spec: examples/llama3-roce.yaml"; do
    grep -q "$what" "$DATA" && ok || fail "no run with '$what'"
done

# Faults planted in a copy, r the first run and s the second: the checker
# must fail naming each.
plant dup-id "repeats" 's["id"] = r["id"]'
plant no-batch "batch missing" 'del r["batch"]'
plant no-layout-field "layout.micro_batch missing" 'del r["layout"]["micro_batch"]'
plant two-figures "expected exactly one" 'r["measured"]["iteration_s"] = 1.0'
plant no-figure "expected exactly one" 'r["measured"] = {}'
plant oom-with-figure "did not fit has a measured" 'r["fits"] = False'
plant product "tensor\*pipeline\*context\*data" 'r["layout"]["data"] += 1'
plant expert-multiplies "tensor\*pipeline\*context\*data" 'r["gpus"] *= 2; r["layout"]["expert"] = 2'
plant batch "not a multiple of data\*micro_batch" 'r["batch"] += 1'
plant formula "flops_formula '6n' unknown" 'r["flops_formula"] = "6n"'
plant formula-missing "flops_formula missing" 'del r["flops_formula"]'
plant recompute "recompute 'some'" 'r["recompute"] = "some"'
plant fabric-source "fabric.source missing" 'r["fabric"] = {"spec": "examples/llama3-roce.yaml"}'
plant fabric-spec "fabric.spec '../x.yaml' is not examples/NAME.yaml" \
    'r["fabric"] = {"spec": "../x.yaml", "source": "a paper, section 1"}'

# A batch that is not a multiple is accepted when the note says so.
"$PY" "$PUBDATA" plant "$DATA" "$TMP/explained.yaml" "$PRELUDE" \
    'r["batch"] += 1; r["note"] += "; batch not a multiple of data x micro_batch: the last step is short"'
"$PY" "$CHECK" "$TMP/explained.yaml" >"$TMP/explained.out" 2>&1
expect_eq "explained batch: checker exit" $? 0
grep -q "explained" "$TMP/explained.out" && ok || fail "explained batch not reported"

# The second table, runs on current hardware: the same checks, the coverage
# it is for (Blackwell, H200, FSDP, MXFP8, long context, latent attention,
# uneven stages) and its extensions' faults.
DATA="$TOP_SRCDIR/tests/data/model/published-runs-current.yaml"
check_data
[ "$n" -ge 40 ] && ok || fail "only $n current runs, want at least 40"
for what in "gpu: b200" "gpu: gb200" "gpu: gb300" "gpu: b300" "gpu: h200" "fsdp: true" \
            "fp8_recipe: mxfp8" "fp8_recipe: tensorwise" "context: 16" "kv_lora_rank:" \
            "first_stage_layers:" "overlap: {expert: 1}" "activation_offload:"; do
    grep -q "$what" "$DATA" && ok || fail "no current run with '$what'"
done
plant recipe "fp8_recipe 'fast' not in" 'r["fp8_recipe"] = "fast"'
plant recipe-bf16 "fp8_recipe on a run that is not fp8" 'r["precision"] = "bf16"'
plant fsdp-zero "layout.fsdp with zero 1" 'r["layout"]["fsdp"] = True; r["zero"] = 1'
plant stages "first_stage_layers . last_stage_layers exceed" \
    'r["layout"]["first_stage_layers"] = 60; r["layout"]["last_stage_layers"] = 60'
plant gpu "gpu 'b100' not in" 'r["gpu"] = "b100"'
finish
