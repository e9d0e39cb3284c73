#!/bin/sh
# make install DESTDIR=...: the catalog (every templates/*.yaml), the spec's
# JSON Schema, every example under $(pkgdatadir)/examples and the design
# notes under $(docdir) land; the installed examples validate against the
# installed catalog; railyard(1)'s FILES names every catalog file and
# railyard-spec(5)'s EXAMPLES every example, at the installed path.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
: "${TOP_BUILDDIR:=.}"
D="$TMP/inst"

# the man pages, against the source tree
for f in "$TOP_SRCDIR"/templates/*.yaml; do
    b=$(basename "$f" | sed 's/-/\\\\-/g')
    sed -n '/^\.SH FILES/,/^\.SH /p' "$TOP_SRCDIR/doc/railyard.1" | grep -q "^\.I.* $b\|^\.I $b" \
        && ok || fail "railyard(1) FILES does not name $(basename "$f")"
done
for f in "$TOP_SRCDIR"/examples/*.yaml; do
    b=$(basename "$f" | sed 's/-/\\\\-/g')
    sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$TOP_SRCDIR/doc/railyard-spec.5" | grep -q "^\.I $b\$" \
        && ok || fail "railyard-spec(5) EXAMPLES does not name $(basename "$f")"
done
grep -q '^\.I /usr/local/share/railyard/examples$' "$TOP_SRCDIR/doc/railyard-spec.5" && ok \
    || fail "railyard-spec(5) does not say where the examples are installed"

if ! make -s -C "$TOP_BUILDDIR" install DESTDIR="$D" >"$TMP/install.log" 2>&1; then
    fail "make install: $(tail -5 "$TMP/install.log")"
    finish
fi
data=$(find "$D" -type d -path '*/share/railyard' | head -1)
doc=$(find "$D" -type d -path '*/share/doc/railyard' | head -1)
[ -n "$data" ] && ok || fail "no share/railyard installed"
[ -n "$doc" ] && ok || fail "no share/doc/railyard installed"
for f in "$TOP_SRCDIR"/templates/*.yaml; do
    cmp -s "$f" "$data/$(basename "$f")" && ok || fail "$(basename "$f") not installed"
done
for f in "$TOP_SRCDIR"/doc/*.md; do
    cmp -s "$f" "$doc/$(basename "$f")" && ok || fail "$(basename "$f") not installed in docdir"
done
n=0
for f in "$TOP_SRCDIR"/examples/*.yaml; do
    n=$((n + 1))
    i="$data/examples/$(basename "$f")"
    cmp -s "$f" "$i" && ok || { fail "$(basename "$f") not installed"; continue; }
    # the installed example against the installed catalog alone
    RAILYARD_TEMPLATES= "$RAILYARD" -T "$data" validate "$i" >/dev/null 2>"$TMP/err" \
        && ok || fail "installed $(basename "$f"): $(head -3 "$TMP/err")"
done
expect_eq "installed examples" "$(ls "$data/examples" | wc -l)" "$n"
"$RAILYARD" catalog schema >"$TMP/schema.json"
cmp -s "$TMP/schema.json" "$data/schema.json" && ok || fail "schema.json is not railyard catalog schema"
finish
