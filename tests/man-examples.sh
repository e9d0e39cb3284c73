#!/bin/sh
# Every example in railyard(1) and railyard-spec(5) runs: the lines of
# their .nf/.fi and .EX/.EE blocks, with the man escapes undone, run in
# order in one scratch directory per page (so a file one example writes is
# there for the next), railyard being the one under test and the installed
# examples' path the source tree's; each must exit 0. A block that is a
# spec (it starts with "version: 1") must validate. DIR in the ibdm block is
# a build of superpod-4su. Skipped, with the reason: ibdiagnet (it needs an
# InfiniBand HCA on a live fabric), and ibdmchk when ibutils is not
# installed. The count of commands run is checked against the count of
# example lines, so an example this test cannot classify fails it.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
"$RAILYARD" -T "${RAILYARD_TEMPLATES:-$TOP_SRCDIR/templates}" build \
    "$TOP_SRCDIR/examples/superpod-4su.yaml" -o "$TMP/DIR" >/dev/null || fail "build of DIR"
for page in railyard.1 railyard-spec.5; do
    mkdir "$TMP/$page"
    "$PY" - "$TOP_SRCDIR/doc/$page" "$TMP/$page" "$RAILYARD" "$TOP_SRCDIR" "$TMP/DIR" <<'PY' \
        >"$TMP/$page.out" 2>&1
import os, re, shutil, subprocess, sys
page, work, railyard, top, built = sys.argv[1:6]
SKIP = {
    "ibdiagnet": "needs an InfiniBand HCA on a live fabric",
}
def unescape(l):
    l = l.replace("\\-", "-").replace("\\e", "\\").replace("\\(dq", '"').replace("\\(aq", "'")
    return re.sub(r"\\f[BIRP]", "", l)
blocks, cur = [], None
for line in open(page, encoding="utf-8"):
    line = line.rstrip("\n")
    if line in (".nf", ".EX"):
        cur = []
    elif line in (".fi", ".EE"):
        if cur is not None:
            blocks.append(cur)
        cur = None
    elif cur is not None and not line.startswith("."):
        cur.append(unescape(line))
ran = skipped = lines = 0
bad = []
cwd = work
env = dict(os.environ)
for b in blocks:
    if not b:
        continue
    if b[0] == "version: 1":    # a spec
        lines += 1
        path = os.path.join(work, "manpage-spec.yaml")
        open(path, "w").write("\n".join(b) + "\n")
        r = subprocess.run([railyard, "validate", path], capture_output=True, text=True)
        ran += 1
        if r.returncode:
            bad.append(f"the spec in {os.path.basename(page)}: {r.stderr.strip()[:300]}")
        continue
    for cmd in b:
        if not cmd.strip():
            continue
        lines += 1
        words = cmd.split()
        prog = next(w for w in words if "=" not in w)
        if prog in SKIP:
            print(f"skipped: {cmd}: {SKIP[prog]}")
            skipped += 1
            continue
        if prog == "ibdmchk" and not shutil.which("ibdmchk"):
            print(f"skipped: {cmd}: ibdmchk (ibutils) is not installed")
            skipped += 1
            continue
        c = cmd.replace("/usr/local/share/railyard/examples/", top + "/examples/")
        c = re.sub(r"\bDIR\b", built, c)
        if prog == "railyard":
            c = c.replace("railyard", "'" + railyard + "'", 1)
        if prog == "cd":
            cwd = os.path.join(cwd, c.split(None, 1)[1])
            ran += 1
            if not os.path.isdir(cwd):
                bad.append(f"{cmd}: no such directory")
            continue
        r = subprocess.run(["/bin/sh", "-c", c], cwd=cwd, env=env, capture_output=True, text=True)
        ran += 1
        ok = r.returncode == 0
        # Debian's ibdmchk 1.5.7 crashes on exit after a complete report
        # (tests/ibdm.sh): 139 counts when the report is there
        if prog == "ibdmchk" and r.returncode in (139, -11):
            ok = "-I- no credit loops found" in r.stdout
        if not ok:
            bad.append(f"{cmd}: exit {r.returncode}: {(r.stderr or r.stdout).strip()[:300]}")
print(f"{ran} run, {skipped} skipped, {lines} example lines")
if ran + skipped != lines or ran == 0:
    bad.append("some example lines were neither run nor skipped")
for x in bad:
    print("FAIL-LINE: " + x)
sys.exit(1 if bad else 0)
PY
    rc=$?
    sed 's/^/  /' "$TMP/$page.out" | grep -v '^  FAIL-LINE' || true
    if [ "$rc" -eq 0 ]; then ok; else fail "$page: $(grep FAIL-LINE "$TMP/$page.out")"; fi
done
# the pages have examples to run at all: railyard(1) at least these
n=$(grep -c '^railyard ' "$TOP_SRCDIR/doc/railyard.1")
[ "$n" -ge 10 ] && ok || fail "railyard(1) has only $n example command lines"
finish
