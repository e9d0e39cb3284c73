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
    --table "$TMP/table.md" >"$TMP/out" 2>&1
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
finish
