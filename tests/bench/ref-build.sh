#!/bin/sh
# Builds a reference commit of railyard beside the tree, once: git archive
# into CACHE/<short id>/src, then bootstrap, configure and make into
# CACHE/<short id>/build (kept between runs). Prints the reference's
# directory; exits 77 with a note when there is no git checkout holding
# REF, 1 when the reference does not build.
#
#   sh tests/bench/ref-build.sh CACHE REF
set -u
CACHE=${1:?usage: ref-build.sh CACHE REF}
REF=${2:?usage: ref-build.sh CACHE REF}
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! git -C "$top" rev-parse --verify -q "$REF^{commit}" >/dev/null 2>&1; then
    echo "skipped: no git checkout with $REF at $top" >&2
    exit 77
fi
refdir="$CACHE/$(git -C "$top" rev-parse --short "$REF")"
if [ ! -x "$refdir/build/railyard" ]; then
    echo "building the reference $REF in $refdir (once)" >&2
    rm -rf "$refdir" && mkdir -p "$refdir/src" "$refdir/build" || exit 1
    git -C "$top" archive "$REF" | tar -x -C "$refdir/src" || exit 1
    (cd "$refdir/src" && ./bootstrap >/dev/null 2>&1 && cd ../build &&
        ../src/configure -q >/dev/null && make -s railyard >/dev/null 2>&1) || {
        echo "the reference $REF does not build" >&2; exit 1; }
fi
echo "$refdir"
