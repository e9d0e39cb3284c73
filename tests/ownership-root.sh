#!/bin/sh
# Ownership of -o DIR as root, against other users' files (the checks of
# tests/ownership.sh that need root):
#  - a link another user owns in a sticky, world-writable directory (/tmp)
#    is not followed, in any component of -o (the kernel's
#    protected_symlinks rule, whatever the sysctl says); root's own link is;
#  - a copy of another user's file (a hard link refused, as in a shared
#    directory) would change its owner: refused unless --force.
# Needs root, the user nobody, setpriv and fs.protected_hardlinks = 1, and
# nobody able to run railyard in the test's directory; without them the
# test is skipped (exit 77), not passed.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
SP="$TOP_SRCDIR/examples/superpod-4su.yaml"

skip() {
    echo "SKIP: links and other users' files in -o ($1)"
    exit 77
}
[ "$(id -u)" = 0 ] || skip "needs root"
id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null || skip "needs the user nobody and setpriv"
[ "$(cat /proc/sys/fs/protected_hardlinks 2>/dev/null)" = 1 ] ||
    skip "needs fs.protected_hardlinks = 1"
# A shared directory (world-writable here; group-writable alike), where
# nobody writes its output and root puts a file and a directory.
chmod 711 "$TMP"
shared="$TMP/shared"
mkdir -m 777 "$shared"
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
as_nobody "$RAILYARD" validate "$SP" >/dev/null 2>&1 && as_nobody test -w "$shared" ||
    skip "nobody cannot run railyard in $TMP"

"$RAILYARD" build "$SP" -o "$TMP/ref" >/dev/null || fail "reference build"
[ -f "$TMP/ref/slurm/topology.conf" ] && ok || fail "reference: no slurm/topology.conf"
same_tree() {  # WHAT A B
    if diff -r "$2" "$3" >"$TMP/diff" 2>&1; then ok; else fail "$1"; head -5 "$TMP/diff"; fi
}

sticky="$TMP/sticky"
mkdir -m 1777 "$sticky"
echo precious >"$TMP/rootfile"
mkdir "$TMP/rootdir"
echo precious >"$TMP/rootdir/keep"
ln -s "$TMP/rootfile" "$sticky/flink"
ln -s "$TMP/rootdir" "$sticky/dlink"
chown -h nobody "$sticky/flink" "$sticky/dlink"
cp -a "$TMP/rootfile" "$TMP/rootfile.before"
cp -a "$TMP/rootdir" "$TMP/rootdir.before"
"$RAILYARD" bom "$SP" -o "$sticky/flink" 2>"$TMP/lerr"
expect_eq "-o FILE, another user's link in a sticky directory: exit" $? 3
grep -q "cannot write output to '$sticky/flink': '$sticky/flink' is a symbolic link owned by nobody (uid [0-9]*) in the sticky, world-writable directory '$sticky' owned by root (uid 0); .*protected_symlinks.*name the link's target instead" \
    "$TMP/lerr" && ok || fail "another user's link: message: $(cat "$TMP/lerr")"
"$RAILYARD" build "$SP" -o "$sticky/dlink" >/dev/null 2>"$TMP/lerr"
expect_eq "-o DIR, another user's link: exit" $? 3
"$RAILYARD" build "$SP" -o "$sticky/dlink/sub" >/dev/null 2>"$TMP/lerr"
expect_eq "-o DIR through another user's link: exit" $? 3
"$RAILYARD" bom "$SP" -o "$sticky/dlink/keep" 2>"$TMP/lerr"
expect_eq "-o FILE through another user's link: exit" $? 3
"$RAILYARD" init --gpus 1024 --node dgx-h100 -o "$sticky/dlink/new.yaml" 2>"$TMP/lerr"
expect_eq "init -o FILE through another user's link: exit" $? 3
grep -q "'$sticky/dlink' is a symbolic link owned by nobody" "$TMP/lerr" && ok ||
    fail "init through another user's link: message: $(cat "$TMP/lerr")"
cmp -s "$TMP/rootfile" "$TMP/rootfile.before" && [ -O "$TMP/rootfile" ] && ok ||
    fail "another user's link: root's file was replaced"
same_tree "another user's link: root's directory unchanged" "$TMP/rootdir" "$TMP/rootdir.before"
# Root's own link there, and a link of the directory's owner, are followed.
ln -s "$TMP/mine" "$sticky/mylink"
"$RAILYARD" bom "$SP" -o "$sticky/mylink" 2>"$TMP/lerr"
expect_eq "-o root's own link in a sticky directory: exit" $? 0
[ -L "$sticky/mylink" ] && [ -s "$TMP/mine" ] && ok || fail "root's own link: not followed"
nobodys="$TMP/nobodys"
mkdir -m 1777 "$nobodys"
chown nobody "$nobodys"
ln -s "$TMP/theirs" "$nobodys/link"
chown -h nobody "$nobodys/link"
"$RAILYARD" bom "$SP" -o "$nobodys/link" 2>"$TMP/lerr"
expect_eq "-o a link of the sticky directory's owner: exit" $? 0

# nobody's output in the shared directory, where root puts a file and a
# directory.
as_nobody "$RAILYARD" slurm "$SP" -o "$shared/out" >/dev/null 2>>"$TMP/err"
expect_eq "shared: nobody's first run" $? 0
echo alice >"$shared/out/alice.txt"
mkdir "$shared/out/adir"
echo alice >"$shared/out/adir/f"
ino=$(stat -c %i "$shared/out/alice.txt")
as_nobody "$RAILYARD" slurm "$SP" --set cluster.nodes=64 -o "$shared/out" >/dev/null \
    2>"$TMP/cerr"
expect_eq "another user's file, its hard link refused: exit" $? 3
expect_eq "another user's file: owner, inode" \
    "$(stat -c '%U %i' "$shared/out/alice.txt" "$shared/out/adir" | tr '\n' ' ')" \
    "root $ino root $(stat -c %i "$shared/out/adir") "
grep -q "3 paths of '$shared/out' would not keep their owner, group and mode in the new output: '$shared/out/adir/f', '$shared/out/adir/', '$shared/out/alice.txt' (the file system refused a hard link: Operation not permitted, and a copy would be yours); use --force" \
    "$TMP/cerr" && ok || fail "another user's file: message: $(cat "$TMP/cerr")"
as_nobody "$RAILYARD" slurm "$SP" --set cluster.nodes=64 -o "$shared/out" --force \
    >/dev/null 2>"$TMP/cerr"
expect_eq "another user's file, --force: copied, exit" $? 0
expect_eq "--force: the copy" "$(cat "$shared/out/alice.txt")" alice
# DIR itself another user's: the new tree beside it would be nobody's.
"$RAILYARD" slurm "$SP" -o "$shared/rootout" >/dev/null 2>>"$TMP/err"
chmod 777 "$shared/rootout"
as_nobody "$RAILYARD" slurm "$SP" --set cluster.nodes=64 -o "$shared/rootout" \
    >/dev/null 2>"$TMP/cerr"
expect_eq "DIR another user's: exit" $? 3
expect_eq "DIR another user's: its owner" "$(stat -c %U "$shared/rootout")" root
cmp -s "$shared/rootout/slurm/topology.conf" "$TMP/ref/slurm/topology.conf" && ok ||
    fail "DIR another user's: replaced"
rm -rf "$shared"    # nobody's files in root's test directory
finish
