#!/bin/sh
# The full model against published training runs (doc/llm-model.md,
# "Against published runs"): every run of tests/data/model/published-runs.yaml
# as a spec with its published layout, predicted by `railyard model`, its
# published figure turned into seconds per iteration with the source's own
# FLOPs count; median ratio 0.9-1.1, 80% within 0.8-1.25, none beyond 1.6x,
# every published layout accepted and the one that did not fit refused
# (tests/published_runs.py). Then the documentation's table is the one the
# runs give, and a model broken on purpose (the GEMM efficiency halved)
# fails the same rules: the check can fail.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
RUNS="$TOP_SRCDIR/tests/data/model/published-runs.yaml"
mkdir "$TMP/runs" "$TMP/broken"

"$PY" "$TOP_SRCDIR/tests/published_runs.py" "$RAILYARD" "$RUNS" "$TMP/runs" \
    --table "$TMP/table.md" --fabric-table "$TMP/fabric-table.md" \
    --summary "$TMP/summary-old.md" --label "the 60 above" >"$TMP/out" 2>&1
expect_eq "published runs: the rules hold" $? 0
cat "$TMP/out"
no_sanitizer "$TMP/out"

# The documentation carries the table the runs give.
sed -n '/^<!-- published-runs-table -->$/,/^<!-- end published-runs-table -->$/p' \
    "$TOP_SRCDIR/doc/llm-model.md" | sed '1d;$d' >"$TMP/doc-table.md"
if cmp -s "$TMP/table.md" "$TMP/doc-table.md"; then
    ok
else
    fail "doc/llm-model.md's table of published runs differs from the runs' (update it from $TMP/table.md): $(diff "$TMP/doc-table.md" "$TMP/table.md" | head -5)"
fi

# And the table of the runs on their own fabrics (Llama 3 405B on Meta's
# RoCE cluster, with its 1:7 aggregation taper and without).
sed -n '/^<!-- published-runs-fabric-table -->$/,/^<!-- end published-runs-fabric-table -->$/p' \
    "$TOP_SRCDIR/doc/llm-model.md" | sed '1d;$d' >"$TMP/doc-fabric-table.md"
[ "$(wc -l <"$TMP/fabric-table.md")" -ge 5 ] && ok || fail "fewer than 3 runs on their own fabrics"
if cmp -s "$TMP/fabric-table.md" "$TMP/doc-fabric-table.md"; then
    ok
else
    fail "doc/llm-model.md's table of runs on their own fabrics differs from the runs' (update it from $TMP/fabric-table.md): $(diff "$TMP/doc-fabric-table.md" "$TMP/fabric-table.md" | head -5)"
fi

# The second table (tests/data/model/published-runs-current.yaml): runs on
# Blackwell and current Hopper that set no efficiency, held to the same
# targets in report mode: every published layout accepted (a refusal
# fails), the targets it does not meet yet printed, and the documentation's
# table the one the runs give.
CURRENT="$TOP_SRCDIR/tests/data/model/published-runs-current.yaml"
mkdir "$TMP/current"
"$PY" "$TOP_SRCDIR/tests/published_runs.py" "$RAILYARD" "$CURRENT" "$TMP/current" --report \
    --table "$TMP/current-table.md" --summary "$TMP/summary-current.md" --label current \
    >"$TMP/current.out" 2>&1
expect_eq "published runs (current hardware): every published layout accepted" $? 0
cat "$TMP/current.out"
no_sanitizer "$TMP/current.out"
grep -q "^  Blackwell .* runs: median ratio" "$TMP/current.out" && ok ||
    fail "no summary for Blackwell: $(tail -3 "$TMP/current.out")"
sed -n '/^<!-- published-runs-current-table -->$/,/^<!-- end published-runs-current-table -->$/p' \
    "$TOP_SRCDIR/doc/llm-model.md" | sed '1d;$d' >"$TMP/doc-current-table.md"
if cmp -s "$TMP/current-table.md" "$TMP/doc-current-table.md"; then
    ok
else
    fail "doc/llm-model.md's table of runs on current hardware differs from the runs' (update it from $TMP/current-table.md): $(diff "$TMP/doc-current-table.md" "$TMP/current-table.md" | head -5)"
fi
# The summaries per generation the documentation gives are the runs'.
cat "$TMP/summary-old.md" "$TMP/summary-current.md" >"$TMP/summary.md"
sed -n '/^<!-- published-runs-summary -->$/,/^<!-- end published-runs-summary -->$/p' \
    "$TOP_SRCDIR/doc/llm-model.md" | sed '1d;$d' | sed '1,2d' >"$TMP/doc-summary.md"
if cmp -s "$TMP/summary.md" "$TMP/doc-summary.md"; then
    ok
else
    fail "doc/llm-model.md's summaries per generation differ from the runs' (update them from $TMP/summary.md): $(diff "$TMP/doc-summary.md" "$TMP/summary.md" | head -5)"
fi
# A refused layout fails report mode too: the FSDP run whose activations
# wait in host memory, without its offload.
"$PY" - "$CURRENT" "$TMP/nooffload.yaml" <<'PYEOF'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
d["runs"] = [r for r in d["runs"] if r.get("activation_offload")]
for r in d["runs"]:
    del r["activation_offload"]
yaml.safe_dump(d, open(sys.argv[2], "w"))
PYEOF
mkdir "$TMP/nooffload"
"$PY" "$TOP_SRCDIR/tests/published_runs.py" "$RAILYARD" "$TMP/nooffload.yaml" "$TMP/nooffload" \
    --report >"$TMP/nooffload.out" 2>&1
expect_eq "report mode fails a refused layout" $? 1
grep -q "^FAIL: .*the published layout was refused" "$TMP/nooffload.out" && ok ||
    fail "no refusal reported: $(tail -3 "$TMP/nooffload.out")"

# The rules can fail: GEMMs at half the catalog's efficiency (every run
# with the same GPU catalog, its gemm_efficiency halved).
mkdir "$TMP/T"
"$PY" - "$TOP_SRCDIR/templates/gpus.yaml" "$TMP/T/gpus.yaml" <<'PYEOF'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"(gemm_efficiency(?:_fp8)?): ([0-9.]+)",
              lambda m: "%s: %.3f" % (m.group(1), float(m.group(2)) / 2), text)
open(sys.argv[2], "w").write(text)
PYEOF
cat >"$TMP/railyard-halved" <<EOF2
#!/bin/sh
exec "$RAILYARD" -T "$TMP/T" "\$@"
EOF2
chmod +x "$TMP/railyard-halved"
"$PY" "$TOP_SRCDIR/tests/published_runs.py" "$TMP/railyard-halved" "$RUNS" "$TMP/broken" \
    >"$TMP/broken.out" 2>&1
expect_eq "a model with half the GEMM efficiency fails the rules" $? 1
grep -q "^FAIL: median ratio" "$TMP/broken.out" && ok \
    || fail "the broken model's median is not reported: $(tail -3 "$TMP/broken.out")"
# FP8 speeds only the GEMMs: two published FP8 layouts rerun in BF16. The
# GEMMs' time falls, attention and tensor-parallel communication stay, and
# the step gains 1.1-1.35x (published FP8 gains: 1.13-1.28x), not the 2x of
# the peaks; MFU stays against the BF16 peak and the FP8 one is apart.
# Both on H200, the H100's compute with more memory: in BF16 the layout's
# activations (FP8 keeps the GEMMs' inputs in 8 bits) need not fit 80 GB.
for r in mbridge-llama3-70b-fp8-64 nemo2407-gpt3-175b-512; do
    sed 's/gpu: h100/gpu: h200/; s/node: dgx-h100/node: dgx-h200/' "$TMP/runs/$r.yaml" >"$TMP/$r-fp8.yaml"
    sed 's/precision: fp8/precision: bf16/' "$TMP/$r-fp8.yaml" >"$TMP/$r-bf16.yaml"
    "$RAILYARD" model "$TMP/$r-fp8.yaml" --format json >"$TMP/$r-fp8.json" 2>"$TMP/e" \
        && "$RAILYARD" model "$TMP/$r-bf16.yaml" --format json >"$TMP/$r-bf16.json" 2>>"$TMP/e"
    expect_eq "$r: fp8 and bf16 run" $? 0
    got=$("$PY" - "$TMP/$r-fp8.json" "$TMP/$r-bf16.json" <<'PYEOF'
import json, sys
f, b = (json.load(open(p)) for p in sys.argv[1:3])
fo, bo = f["optimum"], b["optimum"]
gain = bo["total_s"] / fo["total_s"]
why = []
if f["layout"]["text"] != b["layout"]["text"]:
    why.append("layouts differ: %s / %s" % (f["layout"]["text"], b["layout"]["text"]))
if not 1.1 <= gain <= 1.35:
    why.append("gain %.3f outside 1.1-1.35" % gain)
if not fo["gemm_s"] < 0.8 * bo["gemm_s"]:
    why.append("GEMMs %.3f vs %.3f" % (fo["gemm_s"], bo["gemm_s"]))
for k in ("attention_s", "tp_s"):
    if abs(fo[k] - bo[k]) > 1e-9 * max(1, bo[k]):
        why.append("%s moved: %.6f vs %.6f" % (k, fo[k], bo[k]))
peak = f["kernels"]["gemm_peak_flops"] / b["kernels"]["gemm_peak_flops"]
if abs(f["mfu_fp8_peak"] * peak - f["mfu"]) > 1e-9 or "mfu_fp8_peak" in b:
    why.append("MFU: %s against the BF16 peak, %s against the FP8 peak" %
               (f["mfu"], f.get("mfu_fp8_peak")))
print("; ".join(why) or "ok %.3f" % gain)
PYEOF
)
    case "$got" in ok*) ok; echo "$r: FP8 gain ${got#ok }" ;; *) fail "$r: $got" ;; esac
done
finish
