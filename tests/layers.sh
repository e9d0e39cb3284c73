#!/bin/sh
# The source's layers include only downward:
#   util < io < spec, ibfmt, netfmt, ooxml < fabric < net < analysis, model < study < emit < cmd < src/*.c
# Every #include "dir/..." under src/ is checked: one into a higher layer, or
# between peers of the same rank (spec, ibfmt, netfmt and ooxml, analysis and model), fails
# with file:line and both layers. Includes without a directory (the file's
# own directory, config.h) are fine. The checker first runs on a scratch
# tree with planted violations, so it is known to fail when it should.
# It reads only the source, so it also runs alone from the top of the tree.
#
# Within emit/, a family (emit/ib/, emit/cabling/, ...) includes its own
# files and the shared units at the top of emit/ (emit/format.h, csv.h, ...),
# never a sibling family's; a shared unit includes no family.
#
# No circle of files: a .c file X that includes Y's header while Y's .c
# includes X's header (X calls Y and Y calls X) fails, in any folder. The
# circles the source held when the rule came are listed in KNOWN_CIRCLES
# below; each is to be broken, and none may be added.
RAILYARD=${RAILYARD:-unused}
. "${TOP_SRCDIR:-.}/tests/lib.sh"

# layer_violations SRCDIR: one line per include that breaks the order.
layer_violations() {
    (cd "$1" && find . -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
        sed 's|^\./||' | xargs -r awk '
function rank(l) {
    if (l == "util") return 0
    if (l == "io") return 1
    if (l == "spec" || l == "ibfmt" || l == "netfmt" || l == "ooxml") return 2
    if (l == "fabric") return 3
    if (l == "net") return 4
    if (l == "analysis" || l == "model") return 5
    if (l == "study") return 6
    if (l == "emit") return 7
    if (l == "cmd") return 8
    if (l == "main.c") return 9
    return -1
}
# emit/X/file: X, the family; emit/file: "", the shared units.
function family(p,    n, part) {
    n = split(p, part, "/")
    return n >= 3 ? part[2] : ""
}
FNR == 1 {
    from = FILENAME
    if (index(from, "/") == 0)
        from = "main.c"             # src/*.c: the top
    else
        sub(/\/.*/, "", from)
    if (rank(from) < 0)
        printf "src/%s: %s/ is not a layer (rank it in tests/layers.sh)\n", FILENAME, from
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc)
    sub(/".*/, "", inc)
    if (index(inc, "/") == 0 || rank(from) < 0)
        next
    to = inc
    sub(/\/.*/, "", to)
    if (to == from && from == "emit") {
        fam = family(FILENAME)
        tofam = family(inc)
        if (tofam != "" && tofam != fam) {
            if (fam == "")
                printf "src/%s:%d: the shared unit %s includes %s of the family emit/%s/\n",
                       FILENAME, FNR, FILENAME, inc, tofam
            else
                printf "src/%s:%d: family emit/%s/ includes %s of its sibling emit/%s/\n",
                       FILENAME, FNR, fam, inc, tofam
        }
    }
    if (to == from)
        next
    if (rank(to) < 0)
        printf "src/%s:%d: includes %s: %s/ is not a layer\n", FILENAME, FNR, inc, to
    else if (rank(to) > rank(from))
        printf "src/%s:%d: %s (layer %d) includes %s of a higher layer, %s (%d)\n",
               FILENAME, FNR, from, rank(from), inc, to, rank(to)
    else if (rank(to) == rank(from))
        printf "src/%s:%d: %s includes %s of its peer %s (both layer %d)\n",
               FILENAME, FNR, from, inc, to, rank(to)
}')
}

# circles ROOM WHAT: reads "N unit" and "E from to" lines (a graph of the
# room's files) and prints one line per circle found, "src/ROOM: WHAT" and
# the circle, "util/a -> util/b -> util/a".
circles() {
    awk -v room="$1" -v what="$2" '
$1 == "N" { unit[$2] = 1 }
$1 == "E" { unit[$2] = unit[$3] = 1; uses[$2, $3] = 1 }
function visit(u, path,    v) {
    state[u] = 1
    for (v in unit)
        if ((u, v) in uses) {
            if (state[v] == 1 && !found) {
                sub("^(.* -> )?" v " -> ", v " -> ", path)
                print "src/" room ": " what path " -> " v
                found = 1
            } else if (!state[v])
                visit(v, path " -> " v)
        }
    state[u] = 2
}
END {
    n = 0
    for (u in unit)
        names[++n] = u
    for (i = 1; i <= n; i++)
        for (j = i + 1; j <= n; j++)
            if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
    for (i = 1; i <= n; i++)
        if (!state[names[i]]) {
            found = 0
            visit(names[i], names[i])
        }
}'
}

# file_circles SRCDIR ROOM...: one line per circle of files inside a room,
# where a file X (X.c and X.h together) uses Y when either includes Y.h; a
# circle is where calls go both ways, so the room has no bottom to read
# from. "src/util: util/buf -> util/diag -> util/buf".
file_circles() {
    dir=$1
    shift
    for room in "$@"; do
        (cd "$dir" && find "$room" -type f \( -name '*.c' -o -name '*.h' \) | LC_ALL=C sort |
            xargs -r awk -v room="$room" '
FNR == 1 { from = FILENAME; sub(/\.[ch]$/, "", from); print "N", from }
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc)
    sub(/".*/, "", inc)
    if (index(inc, "/") == 0)
        inc = room "/" inc
    sub(/\.h$/, "", inc)
    if (inc != from && index(inc, room "/") == 1)
        print "E", from, inc
}') | circles "$room" ""
    done
}

# call_circles DIR ROOM...: one line per circle of calls between the objects
# (DIR/ROOM/*.o) of a room: an object uses another when it calls a function
# or reads a variable the other defines.
call_circles() {
    dir=$1
    shift
    for room in "$@"; do
        set -- "$dir/$room"/*.o
        [ -e "$1" ] || continue
        for o in "$@"; do
            nm "$o" | awk -v u="$room/$(basename "$o" .o)" '
                $1 == "U" { print u, "U", $2; next }
                NF == 3 && $2 ~ /^[A-TV-Z]$/ { print u, "D", $3 }'
        done | awk '
$2 == "D" { def[$3] = $1; print "N", $1; next }
{ want[++n] = $1 SUBSEP $3 }
END {
    for (i = 1; i <= n; i++) {
        split(want[i], w, SUBSEP)
        if ((w[2] in def) && def[w[2]] != w[1])
            print "E", w[1], def[w[2]]
    }
}' | circles "$room" "calls go round: "
    done
}

# pair_circles SRCDIR: one line per pair of .c files that include each other's
# header (their names without .c: dir/x). The known ones are left out.
KNOWN_CIRCLES=""
pair_circles() {
    (cd "$1" && find . -type f -name '*.c' | LC_ALL=C sort |
        sed 's|^\./||' | xargs -r awk -v known="$KNOWN_CIRCLES" '
BEGIN {
    nk = split(known, line, "\n")
    for (i = 1; i <= nk; i++) {
        split(line[i], pair, " ")
        skip[pair[1], pair[2]] = 1
    }
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0
    sub(/^[^"]*"/, "", inc)
    sub(/".*/, "", inc)
    if (index(inc, "/") == 0) {     # in the folder of the file
        dir = FILENAME
        if (sub(/\/[^\/]*$/, "", dir))
            inc = dir "/" inc
    }
    a = FILENAME
    sub(/\.c$/, "", a)
    b = inc
    sub(/\.h$/, "", b)
    if (a != b && !((a, b) in edge)) {
        edge[a, b] = FILENAME ":" FNR
        n++
        from[n] = a
        to[n] = b
    }
}
END {
    for (i = 1; i <= n; i++)
        if (from[i] < to[i] && (to[i], from[i]) in edge && !((from[i], to[i]) in skip))
            printf "src/%s: %s.c includes %s.h, and src/%s: %s.c includes %s.h: a circle\n",
                   edge[from[i], to[i]], from[i], to[i], edge[to[i], from[i]], to[i], from[i]
}')
}

# ---- the checker on a scratch tree ------------------------------------------------
F="$TMP/fake/src"
mkdir -p "$F/util" "$F/io" "$F/fabric" "$F/analysis" "$F/model" "$F/emit" "$F/cmd" "$F/ooxml"
mkdir -p "$F/emit/ib" "$F/emit/topo"
printf '#include "config.h"\n' >"$F/util/u.h"
printf '#include "util/u.h"\n' >"$F/io/o.h"
printf '#include "io/o.h"\n#include "emit/shared.h"\n#include "emit/ib/i.h"\n#include "ooxml/x.h"\n' >"$F/emit/ib/i.c"
printf '#include "util/u.h"\n#include "io/o.h"\n' >"$F/ooxml/x.h"
printf '#include "util/u.h"\n' >"$F/emit/shared.h"
printf '#include "io/o.h"\n' >"$F/emit/ib/i.h"
printf '#include "emit/shared.h"\n' >"$F/emit/topo/t.c"
printf '#include "u.h"\n#include "util/u.h"\n' >"$F/util/u.c"
printf '#include "util/u.h"\n#include <stdio.h>\n' >"$F/fabric/f.h"
printf '#include "fabric/f.h"\n' >"$F/analysis/a.h"
printf '#include "analysis/a.h"\n#include "model/m.h"\n' >"$F/emit/e.h"
printf '#include "emit/e.h"\n#include "model/m.h"\n' >"$F/cmd/c.c"
printf '#include "fabric/f.h"\n' >"$F/model/m.h"
printf '#include "cmd/c.h"\n#include "util/u.h"\n' >"$F/main.c"
layer_violations "$F" >"$TMP/clean"
expect_eq "a tree that keeps the order" "$(cat "$TMP/clean")" ""

printf '#include "fabric/f.h"\n  # include "emit/e.h" /* up */\n' >"$F/model/m.c"
printf '#include "util/u.h"\n#include "analysis/a.h"\n' >"$F/model/m.h"
printf '#include "main.h"\n#include "cmd/c.h"\n' >"$F/emit/e.c"
mkdir "$F/views"
printf '#include "fabric/f.h"\n' >"$F/views/v.c"
printf '#include "util/u.h"\n#include "third/t.h"\n' >"$F/fabric/f.c"
printf '#include "util/u.h"\n#include "io/o.h"\n' >"$F/util/u.c"
printf '#include "emit/shared.h"\n#include "emit/ib/i.h"\n' >"$F/emit/topo/t.c"
printf '#include "emit/topo/t.h"\n' >"$F/emit/shared.c"
printf '#include "ooxml/x.h"\n#include "spec/s.h"\n#include "fabric/f.h"\n' >"$F/ooxml/x.c"
layer_violations "$F" >"$TMP/planted"
cat >"$TMP/want" <<'E'
src/emit/e.c:2: emit (layer 7) includes cmd/c.h of a higher layer, cmd (8)
src/emit/shared.c:1: the shared unit emit/shared.c includes emit/topo/t.h of the family emit/topo/
src/emit/topo/t.c:2: family emit/topo/ includes emit/ib/i.h of its sibling emit/ib/
src/fabric/f.c:2: includes third/t.h: third/ is not a layer
src/model/m.c:2: model (layer 5) includes emit/e.h of a higher layer, emit (7)
src/model/m.h:2: model includes analysis/a.h of its peer analysis (both layer 5)
src/ooxml/x.c:2: ooxml includes spec/s.h of its peer spec (both layer 2)
src/ooxml/x.c:3: ooxml (layer 2) includes fabric/f.h of a higher layer, fabric (3)
src/util/u.c:2: util (layer 0) includes io/o.h of a higher layer, io (1)
src/views/v.c: views/ is not a layer (rank it in tests/layers.sh)
E
if cmp -s "$TMP/want" "$TMP/planted"; then
    ok
else
    fail "planted violations: the checker printed"
    sed 's/^/    /' "$TMP/planted"
fi

# circles, on a tree of their own: first one-way includes only, then two
# planted (one through an include without a folder), a known one (left out)
C="$TMP/ctree/src"
mkdir -p "$C/spec" "$C/model" "$C/emit/ib"
printf '#include "emit/ib/i.h"\n#include "model/a.h"\n' >"$C/emit/ib/j.c"
printf '#include "model/b.h"\n' >"$C/model/a.c"
printf '#include "b.h"\n' >"$C/model/c.c"
pair_circles "$C" >"$TMP/clean"
expect_eq "a tree without circles" "$(cat "$TMP/clean")" ""
printf '#include "emit/ib/j.h"\n' >"$C/emit/ib/i.c"
printf '#include "a.h"\n' >"$C/model/b.c"
printf '#include "spec/schema.h"\n' >"$C/spec/catalog.c"
printf '#include "spec/catalog.h"\n' >"$C/spec/schema.c"
known=$KNOWN_CIRCLES
KNOWN_CIRCLES="spec/catalog spec/schema"
pair_circles "$C" >"$TMP/planted"
KNOWN_CIRCLES=$known
cat >"$TMP/want" <<'E'
src/emit/ib/i.c:1: emit/ib/i.c includes emit/ib/j.h, and src/emit/ib/j.c:1: emit/ib/j.c includes emit/ib/i.h: a circle
src/model/a.c:1: model/a.c includes model/b.h, and src/model/b.c:1: model/b.c includes model/a.h: a circle
E
if cmp -s "$TMP/want" "$TMP/planted"; then
    ok
else
    fail "planted circles: the checker printed"
    sed 's/^/    /' "$TMP/planted"
fi

# ---- the source -------------------------------------------------------------------
layer_violations "$TOP_SRCDIR/src" >"$TMP/src"
n=$(wc -l <"$TMP/src" | tr -d ' ')
[ "$n" -eq 0 ] && ok
while IFS= read -r line; do
    fail "$line"
done <"$TMP/src"
# ---- circles of files -------------------------------------------------------------
C="$TMP/circle/src"
mkdir -p "$C/util"
printf '#include "util/b.h"\n' >"$C/util/a.c"
printf '#include "c.h"\n' >"$C/util/b.c"
printf '#include "util/a.h"\n#include <stdio.h>\n' >"$C/util/c.h"
printf '#include "util/c.h"\n' >"$C/util/d.c"
touch "$C/util/a.h" "$C/util/b.h"
expect_eq "a planted circle is found" "$(file_circles "$C" util)" \
    "src/util: util/a -> util/b -> util/c -> util/a"
rm "$C/util/c.h"
expect_eq "no circle once it is cut" "$(file_circles "$C" util)" ""
# The rooms kept free of circles (each a stack of files, read from the bottom).
# spec/ is free of circles of calls; its headers still meet in one: the
# schema's rows are typed by the readers' headers, which include the schema.
ROOMS="util fabric net ooxml"
CALL_ROOMS="util fabric net spec ooxml"
for room in $ROOMS; do
    expect_eq "no circle of files in src/$room" "$(file_circles "$TOP_SRCDIR/src" "$room")" ""
done
# Calls, from the built objects: a header shared by two files (fabric.h
# declares what build_clos.c defines) hides a circle from the includes.
if command -v nm >/dev/null 2>&1 && [ -e "${TOP_BUILDDIR:-.}/src/util/diag.o" ]; then
    mkdir -p "$TMP/calls/util"
    printf 'void b(void);\nvoid a(void) { b(); }\n' >"$TMP/calls/a.c"
    printf 'void a(void);\nvoid b(void) { a(); }\n' >"$TMP/calls/b.c"
    if ${CC:-cc} -c -o "$TMP/calls/util/a.o" "$TMP/calls/a.c" 2>/dev/null &&
       ${CC:-cc} -c -o "$TMP/calls/util/b.o" "$TMP/calls/b.c" 2>/dev/null; then
        expect_eq "a planted circle of calls is found" "$(call_circles "$TMP/calls" util)" \
            "src/util: calls go round: util/a -> util/b -> util/a"
    fi
    for room in $CALL_ROOMS; do
        expect_eq "no circle of calls in src/$room" "$(call_circles "$TOP_BUILDDIR/src" "$room")" ""
    done
else
    echo "no objects or no nm: the circles of calls are not checked"
fi
# ---- one writer for a format ------------------------------------------------------
# Every JSON file goes through emit/json_out.c (SONiC's config_db.json too,
# indented by four with sorted keys as SONiC writes it).
dumps=$(grep -rl 'json_dumps(' "$TOP_SRCDIR/src" --include='*.c' | sed "s|^$TOP_SRCDIR/||" |
    grep -v '^src/emit/json_out.c$')
expect_eq "JSON is written by ry_json_out" "$dumps" ""
pair_circles "$TOP_SRCDIR/src" >"$TMP/circles"
c=$(wc -l <"$TMP/circles" | tr -d ' ')
[ "$c" -eq 0 ] && ok
while IFS= read -r line; do
    fail "$line"
done <"$TMP/circles"
echo "$(grep -rc '^[ 	]*#[ 	]*include[ 	]*"' "$TOP_SRCDIR/src" | awk -F: '{ s += $2 } END { print s }') includes in src/, $n against the layers, $c circles of files ($(printf "%s" "$KNOWN_CIRCLES" | grep -c .) known, to break)"
finish
