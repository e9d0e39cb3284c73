#!/bin/sh
# Ownership of -o DIR: railyard replaces or removes only files it wrote
# (DIR/.railyard-manifest) unless --force; build --skip keeps a group's
# earlier files; a planted journal is refused (another user's link in -o
# and a copy that would change a file's owner: tests/ownership-root.sh).
# Input files that are not regular files (a FIFO, a device, a socket, a
# directory) are refused at once, as I/O errors (exit 3).
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"
SP="$EX/superpod-4su.yaml"      # InfiniBand: opensm/ is written
ETH="$EX/fat-tree.yaml"         # Ethernet: no opensm/

same_tree() {  # WHAT A B
    if diff -r "$2" "$3" >"$TMP/diff" 2>&1; then ok; else fail "$1"; head -5 "$TMP/diff"; fi
}
# Nothing of a run left beside or inside DIR.
leftovers() {
    find "$TMP" -name '*railyard-stage-*' -o -name '*railyard-tmp-*' -o -name '*railyard-old-*' \
        -o -name '.railyard-journal' | sort
}

"$RAILYARD" build "$SP" -o "$TMP/ref" >/dev/null || fail "reference build"
[ -f "$TMP/ref/slurm/topology.conf" ] && [ -d "$TMP/ref/opensm" ] && ok ||
    fail "reference: no slurm/topology.conf or opensm/"

# ---- a directory railyard did not write ----------------------------------------------------------------
# The user's own slurm/topology.conf: refused, kept byte for byte, nothing written.
d="$TMP/d"
mkdir -p "$d/slurm"
echo mine >"$d/slurm/topology.conf"
cp -a "$d" "$TMP/d.before"
"$RAILYARD" build "$SP" -o "$d" >"$TMP/out" 2>"$TMP/err"
expect_eq "no manifest: exit" $? 3
same_tree "no manifest: DIR byte-identical, nothing added" "$d" "$TMP/d.before"
grep -q "'$d' is not empty and railyard did not write it (it has no .railyard-manifest): it holds '$d/slurm/'.*--force" \
    "$TMP/err" && ok || fail "no manifest: message: $(cat "$TMP/err")"
[ -s "$TMP/out" ] && fail "no manifest: a success line was printed" || ok
expect_eq "no manifest: nothing left behind" "$(leftovers)" ""
# A single-group command is refused the same way (slurm -o /etc would have
# replaced /etc/slurm/slurm.conf).
mkdir -p "$TMP/etc/slurm"
echo 'ClusterName=mine' >"$TMP/etc/slurm/slurm.conf"
echo 'root:x:0:0::/root:/bin/sh' >"$TMP/etc/passwd"
cp -a "$TMP/etc" "$TMP/etc.before"
"$RAILYARD" slurm "$SP" -o "$TMP/etc" >/dev/null 2>"$TMP/err"
expect_eq "slurm -o a foreign DIR: exit" $? 3
same_tree "slurm -o a foreign DIR: unchanged" "$TMP/etc" "$TMP/etc.before"
# The refusal names the first five entries and counts the rest.
mkdir "$TMP/many"
for i in 1 2 3 4 5 6 7 8; do echo "$i" >"$TMP/many/f$i"; done
"$RAILYARD" build "$SP" -o "$TMP/many" >/dev/null 2>"$TMP/err"
expect_eq "eight files of the user's: exit" $? 3
grep -q "it holds '$TMP/many/f1', '$TMP/many/f2', '$TMP/many/f3', '$TMP/many/f4', '$TMP/many/f5' and 3 more;" \
    "$TMP/err" && ok || fail "eight files: message: $(cat "$TMP/err")"
expect_eq "eight files: nothing added" "$(ls -A "$TMP/many" | wc -l)" 8

# --force: railyard's files replace the user's at the same paths, the rest is kept.
echo notes >"$d/notes.txt"
ino=$(stat -c %i "$d/notes.txt")
"$RAILYARD" build "$SP" -o "$d" --force >/dev/null 2>"$TMP/err"
expect_eq "--force: exit" $? 0
cmp -s "$d/slurm/topology.conf" "$TMP/ref/slurm/topology.conf" && ok ||
    fail "--force: the user's slurm/topology.conf was not replaced"
grep -q "replacing '$d/slurm/topology.conf', which railyard did not write (forced)" "$TMP/err" &&
    ok || fail "--force: no warning naming the file: $(cat "$TMP/err")"
expect_eq "--force: the user's other file kept (same inode)" "$(stat -c %i "$d/notes.txt")" "$ino"
rm "$d/notes.txt"
same_tree "--force: otherwise the fresh output" "$d" "$TMP/ref"

# An empty directory, or a new one, is railyard's to fill.
mkdir "$TMP/empty"
"$RAILYARD" build "$SP" -o "$TMP/empty" >/dev/null 2>"$TMP/err"
expect_eq "empty DIR: exit" $? 0
same_tree "empty DIR: the output" "$TMP/empty" "$TMP/ref"

# ---- a directory railyard wrote: its manifest says which files are whose ------------------------------
m="$TMP/m"
"$RAILYARD" build "$SP" -o "$m" >/dev/null
echo mine >"$m/notes.txt"
"$RAILYARD" build "$SP" -o "$m" >/dev/null 2>"$TMP/err"
expect_eq "manifest: the user's file elsewhere: exit" $? 0
expect_eq "manifest: the user's file kept" "$(cat "$m/notes.txt")" "mine"
# Six files of the user's at paths railyard writes (taken out of the
# manifest): refused, five named, DIR as it was.
grep -v -x -e summary.txt -e bom.json -e fabric.json -e slurm/topology.conf \
    -e slurm/topology.yaml -e kubernetes/node-labels.yaml "$m/.railyard-manifest" >"$TMP/mf"
expect_eq "manifest: six entries taken out" \
    "$(($(wc -l <"$m/.railyard-manifest") - $(wc -l <"$TMP/mf")))" 6
cat "$TMP/mf" >"$m/.railyard-manifest"
for f in summary.txt bom.json fabric.json slurm/topology.conf slurm/topology.yaml \
         kubernetes/node-labels.yaml; do
    echo "mine: $f" >"$m/$f"
done
cp -a "$m" "$TMP/m.before"
"$RAILYARD" build "$SP" -o "$m" >/dev/null 2>"$TMP/err"
expect_eq "manifest: the user's files at railyard's paths: exit" $? 3
same_tree "manifest: refused, DIR byte-identical" "$m" "$TMP/m.before"
grep -q "6 paths of '$m' that railyard did not write (not in .railyard-manifest) would be replaced: '$m/bom.json', '$m/fabric.json', '$m/kubernetes/node-labels.yaml', '$m/slurm/topology.conf', '$m/slurm/topology.yaml' and 1 more; .*--force" \
    "$TMP/err" && ok || fail "manifest: refusal message: $(cat "$TMP/err")"
"$RAILYARD" build "$SP" -o "$m" --force >/dev/null 2>>"$TMP/err"
expect_eq "manifest, --force: exit" $? 0
rm "$m/notes.txt"
same_tree "manifest, --force: the fresh output" "$m" "$TMP/ref"

# ---- build --skip: an earlier run's files of the group stay as they were ------------------------------
s="$TMP/s"
"$RAILYARD" build "$SP" --set cluster.nodes=64 -o "$s" >/dev/null
cp -a "$s/opensm" "$TMP/opensm.before"
inodes() { find "$1" -type f -exec stat -c '%i %n' {} + | sort -k2; }
inodes "$s/opensm" >"$TMP/inodes.before"
"$RAILYARD" build "$SP" -o "$s" --skip opensm >/dev/null 2>"$TMP/err"
expect_eq "--skip opensm: exit" $? 0
same_tree "--skip opensm: the earlier opensm/ byte-identical" "$s/opensm" "$TMP/opensm.before"
expect_eq "--skip opensm: the same files (inodes)" "$(inodes "$s/opensm")" \
    "$(cat "$TMP/inodes.before")"
cmp -s "$s/slurm/topology.conf" "$TMP/ref/slurm/topology.conf" && ok ||
    fail "--skip opensm: the other groups are not this spec's"
grep -qx "opensm/: skipped (--skip): its files are from an earlier run, kept as they were, and may not match this spec" \
    "$s/summary.txt" && ok || fail "--skip: the summary does not say opensm/ is earlier: $(tail -3 "$s/summary.txt")"
grep -qx "# opensm/: from an earlier run, kept as it was (this run did not write it)" \
    "$s/.railyard-manifest" && ok || fail "--skip: the manifest does not say opensm/ is earlier"
expect_eq "--skip: the manifest still lists opensm/'s files" \
    "$(grep -c '^opensm/' "$s/.railyard-manifest")" "$(find "$s/opensm" -type f | wc -l)"
# The next build writes opensm/ again, and the notes go.
"$RAILYARD" build "$SP" -o "$s" >/dev/null 2>>"$TMP/err"
same_tree "--skip, then a full build: the fresh output" "$s" "$TMP/ref"
# Into a new DIR, a skipped group is said to be not written.
"$RAILYARD" build "$SP" -o "$TMP/s2" --skip opensm,cabling >/dev/null 2>>"$TMP/err"
[ ! -e "$TMP/s2/opensm" ] && [ ! -e "$TMP/s2/cabling" ] && ok || fail "--skip into a new DIR: written"
expect_eq "--skip into a new DIR: summary" "$(grep skipped "$TMP/s2/summary.txt")" \
    "opensm/: skipped (--skip): not written
cabling/: skipped (--skip): not written"
# A group the spec no longer has goes, skipped or not (InfiniBand -> Ethernet).
"$RAILYARD" build "$ETH" -o "$TMP/refe" >/dev/null
"$RAILYARD" build "$ETH" -o "$s" --skip opensm >/dev/null 2>>"$TMP/err"
expect_eq "--skip a group the spec does not have: exit" $? 0
same_tree "--skip a group the spec does not have: removed" "$s" "$TMP/refe"
expect_eq "--skip, all runs: nothing left behind" "$(leftovers)" ""

# ---- a journal planted in DIR -----------------------------------------------------------------------------
# A killed run that swapped groups inside DIR leaves DIR/.railyard-journal
# for the next run to complete. A journal railyard did not write, or one
# that would reach outside DIR or touch the user's files, is refused before
# anything moves: exit 3, the journal named, DIR and its neighbours as they
# were.
dead=999999
while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
stage=".railyard-stage-$dead-0123456789abcdef"
j="$TMP/j"
mkdir "$j"
echo victim >"$j/victim.txt"
echo victim2 >"$j/victim2.txt"
"$RAILYARD" slurm "$SP" -o "$j/out" >/dev/null 2>>"$TMP/err"
mkdir "$j/out/$stage"
echo planted >"$j/out/victim2.txt"
echo mine >"$j/out/notes.txt"
printf 'stage %s\ndrop ../victim.txt\nput ../victim2.txt\nput .railyard-manifest\n' "$stage" \
    >"$j/out/.railyard-journal"
cp -a "$j" "$TMP/j.before"
"$RAILYARD" slurm "$SP" -o "$j/out" >/dev/null 2>"$TMP/jerr"
expect_eq "planted journal with ../ paths: exit" $? 3
expect_eq "planted journal: the files beside DIR survive" "$(cat "$j/victim.txt" "$j/victim2.txt")" \
    "victim
victim2"
same_tree "planted journal: DIR and its neighbours unchanged" "$j" "$TMP/j.before"
grep -q "'$j/out/.railyard-journal' is not a journal railyard wrote for this directory: line 2 ('drop ../victim.txt') does not name a file or directory at the top" \
    "$TMP/jerr" && ok || fail "planted journal: message: $(cat "$TMP/jerr")"
# Well-formed, but removing and replacing the user's files (not in the
# manifest): refused the same way.
printf 'stage %s\ndrop notes.txt\nput victim2.txt\nput .railyard-manifest\n' "$stage" \
    >"$j/out/.railyard-journal"
echo planted >"$j/out/$stage/victim2.txt"
echo mine >"$j/out/victim2.txt"
cp -a "$j/out" "$TMP/jout.before"
"$RAILYARD" slurm "$SP" -o "$j/out" >/dev/null 2>"$TMP/jerr"
expect_eq "journal dropping the user's file: exit" $? 3
same_tree "journal dropping the user's file: DIR unchanged" "$j/out" "$TMP/jout.before"
grep -q "it would remove '$j/out/notes.txt', which railyard did not write (not in .railyard-manifest)" \
    "$TMP/jerr" && ok || fail "journal dropping the user's file: message: $(cat "$TMP/jerr")"
# A journal that is a link is not followed.
rm "$j/out/.railyard-journal"
ln -s ../victim.txt "$j/out/.railyard-journal"
"$RAILYARD" slurm "$SP" -o "$j/out" >/dev/null 2>"$TMP/jerr"
expect_eq "journal a symbolic link: exit" $? 3
grep -q "'$j/out/.railyard-journal' is not a journal railyard wrote .*: it is a symbolic link" \
    "$TMP/jerr" && ok || fail "journal a symbolic link: message: $(cat "$TMP/jerr")"
# One that railyard would have written (railyard's own groups, its stage)
# is completed, and the run goes on.
rm -r "$j/out/.railyard-journal" "$j/out/$stage" "$j/out/victim2.txt" "$j/out/notes.txt"
mkdir -p "$j/out/$stage/slurm"
echo new >"$j/out/$stage/slurm/topology.conf"
echo slurm/topology.conf >"$j/out/$stage/.railyard-manifest"
printf 'stage %s\nput slurm\nput .railyard-manifest\n' "$stage" >"$j/out/.railyard-journal"
"$RAILYARD" slurm "$SP" -o "$j/out" >/dev/null 2>"$TMP/jerr"
expect_eq "a journal of railyard's: completed, exit" $? 0
cmp -s "$j/out/slurm/topology.conf" "$TMP/ref/slurm/topology.conf" && ok ||
    fail "a journal of railyard's: the run's output"
expect_eq "a journal of railyard's: nothing left" "$(ls -A "$j/out" | grep railyard- | grep -v manifest)" ""
expect_eq "journals: the files beside DIR survive" "$(cat "$j/victim.txt" "$j/victim2.txt")" \
    "victim
victim2"

# (links in -o and other users' files, as root: tests/ownership-root.sh)

# ---- input files that are not regular files -------------------------------------------------------------
# run NAME CMD...: under timeout 10; rc and err kept.
run() {
    name=$1; shift
    timeout -k 2 10 "$@" >/dev/null 2>"$TMP/$name.err"; rc=$?
}
mkfifo "$TMP/fifo.yaml"
run fifo-spec "$RAILYARD" validate "$TMP/fifo.yaml"
expect_eq "FIFO as the spec: exit (not 124: a hang)" $rc 3
grep -q "^$TMP/fifo.yaml:1:1: error: cannot read spec: a FIFO, not a regular file" \
    "$TMP/fifo-spec.err" && ok || fail "FIFO spec: message: $(cat "$TMP/fifo-spec.err")"
run fifo-build "$RAILYARD" build "$TMP/fifo.yaml" -o "$TMP/fifo-out"
expect_eq "FIFO as build's spec: exit" $rc 3
[ -e "$TMP/fifo-out" ] && fail "FIFO as build's spec: output written" || ok
mkdir "$TMP/adir"
run dir-spec "$RAILYARD" validate "$TMP/adir"
expect_eq "a directory as the spec: exit" $rc 3
grep -q "cannot read spec: Is a directory" "$TMP/dir-spec.err" && ok ||
    fail "directory spec: message: $(cat "$TMP/dir-spec.err")"
run dir-build "$RAILYARD" build "$TMP/adir" -o "$TMP/dir-out"
expect_eq "a directory as build's spec: exit" $rc 3
[ -e "$TMP/dir-out" ] && fail "a directory as build's spec: output written" || ok
run dev-spec "$RAILYARD" bom /dev/zero
expect_eq "a device as the spec: exit" $rc 3
grep -q "cannot read spec: a character device, not a regular file" "$TMP/dev-spec.err" && ok ||
    fail "device spec: message: $(cat "$TMP/dev-spec.err")"
if "$PY" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock"; then
    run sock-spec "$RAILYARD" validate "$TMP/sock"
    expect_eq "a socket as the spec: exit" $rc 3
    grep -q "a socket, not a regular file" "$TMP/sock-spec.err" && ok ||
        fail "socket spec: message: $(cat "$TMP/sock-spec.err")"
else
    echo "SKIP: cannot make a socket"; ok
fi
# Standard input stays readable as "-".
run stdin-spec sh -c '"$0" validate - <"$1"' "$RAILYARD" "$SP"
expect_eq "- reads standard input" $rc 0

# A catalog file (-T) that is a FIFO.
mkdir "$TMP/T"
cp "$TOP_SRCDIR"/templates/*.yaml "$TMP/T/"
rm "$TMP/T/switches.yaml"
mkfifo "$TMP/T/switches.yaml"
run fifo-catalog "$RAILYARD" -T "$TMP/T" validate "$SP"
expect_eq "FIFO as a catalog file: exit" $rc 3
grep -q "^$TMP/T/switches.yaml:1:1: error: cannot read switch catalog.*: a FIFO, not a regular file" \
    "$TMP/fifo-catalog.err" && ok || fail "FIFO catalog: message: $(cat "$TMP/fifo-catalog.err")"
# --guids, --lids and --fabric that are FIFOs.
for opt in guids lids fabric; do
    run "fifo-$opt" "$RAILYARD" opensm "$SP" -o "$TMP/o-$opt" "--$opt" "$TMP/fifo.yaml"
    expect_eq "FIFO as --$opt: exit" $rc 3
    grep -q "cannot read '$TMP/fifo.yaml': a FIFO, not a regular file" "$TMP/fifo-$opt.err" && ok ||
        fail "FIFO --$opt: message: $(cat "$TMP/fifo-$opt.err")"
done
# libra.workload_file that is a FIFO.
printf 'version: 1\nname: w\ncluster: {gpus: 4096, node: dgx-h100}\nnetwork:\n  dims:\n    - {name: a, block: ring, size: 4, tech: chiplet}\n    - {name: b, block: switch, size: 1024, tech: pod}\nlibra:\n  budget: 1000\n  workload_file: w.fifo\n' >"$TMP/w.yaml"
mkfifo "$TMP/w.fifo"
run fifo-workload "$RAILYARD" optimize "$TMP/w.yaml"
expect_eq "FIFO as libra.workload_file: exit" $rc 3
grep -q "cannot read workload file: a FIFO, not a regular file" "$TMP/fifo-workload.err" && ok ||
    fail "FIFO workload_file: message: $(cat "$TMP/fifo-workload.err")"
# check-routes' topology and LFT files.
run fifo-topology "$RAILYARD" check-routes "$TMP/fifo.yaml" --lfts "$TMP/fifo.yaml"
expect_eq "FIFO as a topology file: exit" $rc 3
finish
