#!/bin/sh
# Output transactions: -o FILE on devices, FIFOs and symbolic links; -o DIR
# replaced whole under kill -9 and signals, stale groups, the user's own
# files, failing runs; exit codes.
. "${TOP_SRCDIR:-.}/tests/lib.sh"
EX="$TOP_SRCDIR/examples"
SP="$EX/superpod-4su.yaml"
# Temporary directories (the workbook's, the plots') go here, where the
# test can see them.
mkdir "$TMP/tmp"
TMPDIR="$TMP/tmp"
export TMPDIR
ERR="$TMP/err"
: >"$ERR"

# What railyard leaves only when it failed to clean up: staging
# directories, temporaries, journals, scratch directories.
leftovers() {
    find "$TMP" -name '*railyard-stage-*' -o -name '*railyard-tmp-*' -o -name '*railyard-old-*' \
        -o -name '.railyard-journal' -o -path "$TMPDIR/railyard-*" | sort
}
expect_clean() {
    expect_eq "$1: nothing left behind" "$(leftovers)" ""
}
same_tree() {  # WHAT A B
    if diff -r "$2" "$3" >"$TMP/diff" 2>&1; then ok; else fail "$1"; head -5 "$TMP/diff"; fi
}
# Runs railyard with SIGINT, SIGTERM and SIGHUP at their defaults, as a
# shell's background job would not have them, in place of the subshell of
# "with_signals ... &" (so that $! is railyard's pid).
with_signals() {
    if env --default-signal=INT true 2>/dev/null; then
        exec env --default-signal=INT,TERM,HUP "$@"
    else
        exec "$PY" -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"
    fi
}

# ---- -o FILE ----------------------------------------------------------------------------------------
"$RAILYARD" bom "$SP" >"$TMP/bom.want" 2>>"$ERR"

echo old >"$TMP/file"
chmod 640 "$TMP/file"
# a file railyard did not write is replaced only with --force (tests/output-file.sh)
"$RAILYARD" bom "$SP" -o "$TMP/file" 2>/dev/null; expect_eq "-o FILE of the user's: exit" $? 3
"$RAILYARD" bom "$SP" -o "$TMP/file" --force 2>>"$ERR"; expect_eq "-o FILE: exit" $? 0
cmp -s "$TMP/file" "$TMP/bom.want" && ok || fail "-o FILE: contents"
expect_eq "-o FILE: mode kept" "$(stat -c %a "$TMP/file")" 640

echo old >"$TMP/target"
ln -s target "$TMP/link"
"$RAILYARD" bom "$SP" -o "$TMP/link" --force 2>>"$ERR"; expect_eq "-o symlink: exit" $? 0
[ -L "$TMP/link" ] && ok || fail "-o symlink: the link was replaced"
cmp -s "$TMP/target" "$TMP/bom.want" && ok || fail "-o symlink: the target was not written"
ln -s new-target "$TMP/dangling"
"$RAILYARD" bom "$SP" -o "$TMP/dangling" 2>>"$ERR"
[ -L "$TMP/dangling" ] && cmp -s "$TMP/new-target" "$TMP/bom.want" && ok ||
    fail "-o dangling symlink: its target is created, the link stays"

"$RAILYARD" bom "$SP" -o /dev/null 2>>"$ERR"; expect_eq "-o /dev/null: exit" $? 0
[ -c /dev/null ] && ok || fail "-o /dev/null: no longer a device"
"$RAILYARD" bom "$SP" -o /dev/stdout >"$TMP/stdout" 2>>"$ERR"; expect_eq "-o /dev/stdout: exit" $? 0
cmp -s "$TMP/stdout" "$TMP/bom.want" && ok || fail "-o /dev/stdout: not printed"

mkfifo "$TMP/fifo"
cat "$TMP/fifo" >"$TMP/fifo.got" &
reader=$!
"$RAILYARD" bom "$SP" -o "$TMP/fifo" 2>>"$ERR"; expect_eq "-o FIFO: exit" $? 0
wait "$reader"
[ -p "$TMP/fifo" ] && ok || fail "-o FIFO: replaced by a file"
cmp -s "$TMP/fifo.got" "$TMP/bom.want" && ok || fail "-o FIFO: the reader got other bytes"

if [ "$(id -u)" = 0 ] && mknod "$TMP/null" c 1 3 2>/dev/null; then
    "$RAILYARD" bom "$SP" -o "$TMP/null" 2>>"$ERR"; expect_eq "-o device: exit" $? 0
    [ -c "$TMP/null" ] && ok || fail "-o device: replaced by a file"
else
    echo "SKIP: -o on a device node (needs root)"; ok
fi

"$RAILYARD" bom "$SP" -o "$TMP/no/such/dir/f" 2>/dev/null; expect_eq "-o in a missing directory" $? 3
[ -e "$TMP/no" ] && fail "-o in a missing directory: something was created" || ok
mkdir "$TMP/adir"
"$RAILYARD" bom "$SP" -o "$TMP/adir" 2>/dev/null; expect_eq "-o a directory" $? 3
"$RAILYARD" bom "$SP" -o "" 2>/dev/null; expect_eq "bom -o ''" $? 2
"$RAILYARD" build "$SP" -o "" 2>/dev/null; expect_eq "build -o ''" $? 2
expect_clean "-o FILE"

# ---- planted names ------------------------------------------------------------------------------------
# Links under names an attacker could guess (the old pid-only scheme, and the
# new one's prefix with a dead pid) are never followed.
mkdir "$TMP/victim"
echo precious >"$TMP/victim/keep"
echo precious >"$TMP/victim.file"
dead=999999
while kill -0 "$dead" 2>/dev/null; do dead=$((dead - 1)); done
for p in $$ $(($$ + 1)) $(($$ + 2)) $(($$ + 3)); do
    ln -s victim "$TMP/pl.railyard-tmp-$p"
    ln -s victim.file "$TMP/plf.railyard-tmp-$p"
done
ln -s victim "$TMP/.pl.railyard-stage-$dead-0123abcd"
ln -s victim.file "$TMP/.plf.railyard-tmp-$dead-0123abcd"
"$RAILYARD" build "$SP" --skip cabling,diagrams -o "$TMP/pl" >/dev/null 2>>"$ERR"
expect_eq "planted: build exit" $? 0
"$RAILYARD" bom "$SP" -o "$TMP/plf" 2>>"$ERR"; expect_eq "planted: bom exit" $? 0
expect_eq "planted: the directory outside untouched" "$(ls "$TMP/victim")" keep
expect_eq "planted: the file outside untouched" "$(cat "$TMP/victim/keep" "$TMP/victim.file")" \
    "precious
precious"
[ -L "$TMP/.pl.railyard-stage-$dead-0123abcd" ] && fail "planted: stale link not removed" || ok
# A killed run's scratch directories go with the next run that writes,
# workbook or not; a live process's stay.
mkdir "$TMPDIR/railyard-xlsx-$dead-0a1b" "$TMPDIR/railyard-plot-$dead-0a1b" \
    "$TMPDIR/railyard-xlsx-$$-0a1b"
ln -s "$TMP/victim" "$TMPDIR/railyard-xlsx-$dead-0a1b/link"
"$RAILYARD" slurm "$SP" -o "$TMP/pl" >/dev/null 2>>"$ERR"
expect_eq "stale scratch directories removed" "$(ls "$TMPDIR")" "railyard-xlsx-$$-0a1b"
expect_eq "stale scratch: the link's target untouched" "$(ls "$TMP/victim")" keep
rmdir "$TMPDIR/railyard-xlsx-$$-0a1b"
rm -f "$TMP"/pl.railyard-tmp-* "$TMP"/plf.railyard-tmp-*

# ---- -o DIR: a symbolic link, stale groups, the user's files -------------------------------------------
# Another design's file groups: the fat-tree example at 256 of its 2,048
# GPUs (the groups and the transactions do not depend on the size).
FT=$TMP/fat-tree.yaml
sed 's/^\(  nodes:\) *256 .*/\1 32/' "$EX/fat-tree.yaml" >"$FT"
grep -q '^  nodes: 32$' "$FT" && ok || fail "the smaller fat-tree spec"
"$RAILYARD" build "$EX/b200-2plane.yaml" -o "$TMP/ref2" >/dev/null 2>>"$ERR"
"$RAILYARD" build "$EX/b200-2plane.yaml" --set cluster.planes=1 -o "$TMP/ref1" >/dev/null 2>>"$ERR"
"$RAILYARD" build "$FT" -o "$TMP/refe" >/dev/null 2>>"$ERR"
[ -d "$TMP/ref2/opensm/plane1" ] && [ -f "$TMP/ref1/cabling/p2p.csv" ] && ok ||
    fail "references: unexpected groups"
expect_eq "manifest lists the files" "$(grep -c '^opensm/plane1/' "$TMP/ref2/.railyard-manifest")" \
    "$(find "$TMP/ref2/opensm/plane1" -type f | wc -l)"

mkdir "$TMP/real"
ln -s real "$TMP/dlink"
"$RAILYARD" build "$EX/b200-2plane.yaml" -o "$TMP/dlink" >/dev/null 2>>"$ERR"
expect_eq "-o symlink to DIR: exit" $? 0
[ -L "$TMP/dlink" ] && ok || fail "-o symlink to DIR: the link was replaced"
same_tree "-o symlink to DIR: the target holds the output" "$TMP/real" "$TMP/ref2"

d="$TMP/stale"
"$RAILYARD" build "$EX/b200-2plane.yaml" -o "$d" >/dev/null 2>>"$ERR"
"$RAILYARD" build "$EX/b200-2plane.yaml" --set cluster.planes=1 -o "$d" >/dev/null 2>>"$ERR"
same_tree "planes 2 -> 1: opensm/plane1 gone, equal to a fresh build" "$d" "$TMP/ref1"
"$RAILYARD" build "$FT" -o "$d" >/dev/null 2>>"$ERR"
same_tree "InfiniBand -> Ethernet: opensm/ gone" "$d" "$TMP/refe"
# A directory without a manifest (an older railyard's, or anyone's) is not
# railyard's: refused; with --force, the files at railyard's paths are
# replaced and the rest (the old opensm/plane1) is kept.
"$RAILYARD" build "$EX/b200-2plane.yaml" -o "$d" >/dev/null 2>>"$ERR"
rm -r "$d/.railyard-manifest" "$d/kubernetes"
cp -a "$d" "$d.before"
"$RAILYARD" build "$EX/b200-2plane.yaml" --set cluster.planes=1 -o "$d" >/dev/null 2>"$TMP/nomf"
expect_eq "no manifest: refused" $? 3
same_tree "no manifest: DIR unchanged" "$d" "$d.before"
grep -q "no .railyard-manifest" "$TMP/nomf" && ok || fail "no manifest: message: $(cat "$TMP/nomf")"
"$RAILYARD" build "$EX/b200-2plane.yaml" --set cluster.planes=1 -o "$d" --force >/dev/null \
    2>>"$ERR"
expect_eq "no manifest, --force: exit" $? 0
diff -r "$d" "$TMP/ref1" >"$TMP/diff" 2>&1
expect_eq "no manifest, --force: railyard's paths replaced, the rest kept" "$(cat "$TMP/diff")" \
    "Only in $d/opensm: plane1"
rm -r "$d.before"
# A single-group command replaces its group only.
"$RAILYARD" opensm "$EX/b200-2plane.yaml" -o "$d" >/dev/null 2>>"$ERR"
[ -d "$d/opensm/plane1" ] && [ -f "$d/cabling/p2p.csv" ] && ok ||
    fail "opensm -o DIR: other groups kept"
grep -q '^cabling/p2p.csv$' "$d/.railyard-manifest" && ok || fail "opensm -o DIR: manifest kept others"

u="$TMP/user"
"$RAILYARD" build "$EX/b200-2plane.yaml" -o "$u" >/dev/null 2>>"$ERR"
echo mine >"$u/notes.txt"
mkdir -p "$u/mine/deep" "$u/opensm/extra" "$u/empty"
echo mine >"$u/mine/deep/f"
echo mine >"$u/opensm/extra/f"
ln -s notes.txt "$u/notes.link"
ino=$(stat -c %i "$u/notes.txt")
"$RAILYARD" build "$FT" -o "$u" >/dev/null 2>>"$ERR"
expect_eq "user files: exit" $? 0
expect_eq "user files: kept" "$(cat "$u/notes.txt" "$u/mine/deep/f" "$u/opensm/extra/f")" "mine
mine
mine"
expect_eq "user files: the same file, not a copy" "$(stat -c %i "$u/notes.txt")" "$ino"
[ -L "$u/notes.link" ] && [ -d "$u/empty" ] && ok || fail "user files: link or empty directory lost"
rm -r "$u/notes.txt" "$u/notes.link" "$u/mine" "$u/opensm" "$u/empty"
same_tree "user files: the rest is the new output" "$u" "$TMP/refe"

# A file of the user's where railyard writes: refused, then forced.
rm -r "$u/slurm"
echo mine >"$u/slurm"
cp -a "$u" "$u.before"
"$RAILYARD" build "$FT" -o "$u" >/dev/null 2>"$TMP/refused"
expect_eq "user file at a railyard path: exit" $? 3
grep -q "1 path of '$u' that railyard did not write .* would be replaced: '$u/slurm'; .*--force" \
    "$TMP/refused" && ok || fail "user file: no clear error: $(cat "$TMP/refused")"
same_tree "user file at a railyard path: DIR unchanged" "$u" "$u.before"
"$RAILYARD" build "$FT" -o "$u" --force >/dev/null 2>>"$ERR"
expect_eq "--force: exit" $? 0
same_tree "--force: the new output" "$u" "$TMP/refe"
"$RAILYARD" build "$SP" -o "$TMP/refe/summary.txt" >/dev/null 2>/dev/null
expect_eq "-o DIR naming a file" $? 3
expect_clean "-o DIR"

# ---- failing runs leave DIR as it was -----------------------------------------------------------------
f="$TMP/fail"
"$RAILYARD" build "$SP" -o "$f" >/dev/null 2>>"$ERR"
cp -a "$f" "$f.before"
"$RAILYARD" build "$SP" --set cluster.nodes=-1 -o "$f" >/dev/null 2>/dev/null
expect_eq "bad input: exit" $? 1
same_tree "bad input: DIR unchanged" "$f" "$f.before"
# Past the file-size limit (which stops root too) every write fails.
(ulimit -f 64 && exec "$RAILYARD" build "$SP" --set cluster.nodes=64 -o "$f" >/dev/null 2>"$TMP/efbig")
expect_eq "write error (file-size limit): exit" $? 3
grep -q "too large" "$TMP/efbig" && ok || fail "write error: no message"
same_tree "write error: DIR unchanged" "$f" "$f.before"
echo x >"$TMP/plainfile"
"$RAILYARD" build "$SP" -o "$TMP/plainfile/out" >/dev/null 2>/dev/null
expect_eq "a path component that is a file: exit" $? 3
expect_clean "failing runs"

# ---- signals -------------------------------------------------------------------------------------------
for sig in INT:130 TERM:143 HUP:129; do
    with_signals "$RAILYARD" build "$SP" --set cluster.nodes=512 -o "$f" >/dev/null 2>>"$ERR" &
    pid=$!
    # Signalled while the workbook is being written: staging directory and
    # the workbook's scratch directory both exist.
    n=0
    while ! ls "$TMPDIR" | grep -q railyard-xlsx && [ $n -lt 3000 ] && kill -0 $pid 2>/dev/null; do
        sleep 0.01; n=$((n + 1))
    done
    kill -"${sig%:*}" $pid
    wait $pid
    expect_eq "SIG${sig%:*}: exit" $? "${sig#*:}"
    same_tree "SIG${sig%:*}: DIR unchanged" "$f" "$f.before"
    expect_clean "SIG${sig%:*}"
done

# ---- kill -9 at random moments ---------------------------------------------------------------------------
# DIR must always be exactly the old tree or the new one; the next run
# removes what the killed one left.
k="$TMP/kill"
"$RAILYARD" build "$SP" --set cluster.nodes=256 -o "$TMP/refA" >/dev/null 2>>"$ERR"
"$RAILYARD" build "$SP" --set cluster.nodes=192 --set cluster.planes=2 -o "$TMP/refB" \
    >/dev/null 2>>"$ERR"
cp -a "$TMP/refA" "$k"
start=$(date +%s)
awk 'BEGIN { srand(10); for (i = 0; i < 30; i++) printf "%.3f\n", rand() * 0.7 }' >"$TMP/sleeps"
i=0
while read -r s; do
    i=$((i + 1))
    if [ $((i % 2)) = 1 ]; then set -- --set cluster.nodes=192 --set cluster.planes=2; else
        set -- --set cluster.nodes=256; fi
    "$RAILYARD" build "$SP" "$@" -o "$k" >/dev/null 2>>"$ERR" &
    pid=$!
    sleep "$s"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    if diff -r "$k" "$TMP/refA" >/dev/null 2>&1 || diff -r "$k" "$TMP/refB" >/dev/null 2>&1; then
        ok
    else
        fail "kill -9 after ${s}s (run $i): DIR is neither the old nor the new output"
        diff -rq "$k" "$TMP/refA" | head -3
        break
    fi
done <"$TMP/sleeps"
"$RAILYARD" build "$SP" --set cluster.nodes=256 -o "$k" >/dev/null 2>>"$ERR"
expect_eq "after kill -9: a complete run" $? 0
same_tree "after kill -9: the new output" "$k" "$TMP/refA"
expect_clean "after kill -9 and a complete run"
echo "kill -9 loop: $(($(date +%s) - start)) s"

# ---- DIR a mount point: staged inside, groups swapped under a journal ---------------------------------------
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
    m="$TMP/mnt"
    mkdir "$m"
    R="$RAILYARD" E="$EX" F="$FT" M="$m" T="$TMP" unshare -m sh -c '
        mount -t tmpfs none "$M" || exit 77
        "$R" build "$E/b200-2plane.yaml" -o "$M" >/dev/null || exit 1
        echo mine >"$M/notes"
        "$R" build "$E/b200-2plane.yaml" --set cluster.planes=1 -o "$M" >/dev/null || exit 2
        rm "$M/notes"; diff -r "$M" "$T/ref1" >/dev/null || exit 3
        "$R" build "$F" -o "$M" >/dev/null || exit 4
        diff -r "$M" "$T/refe" >/dev/null || exit 5
        for s in 0.05 0.1 0.15 0.2 0.25 0.3; do
            "$R" build "$E/b200-2plane.yaml" -o "$M" >/dev/null 2>&1 & p=$!
            sleep $s; kill -9 $p 2>/dev/null; wait $p
        done
        "$R" build "$E/b200-2plane.yaml" -o "$M" >/dev/null || exit 6
        diff -r "$M" "$T/ref2" >/dev/null || exit 7
        [ -z "$(ls -A "$M" | grep railyard- | grep -v manifest)" ] || exit 8
        echo x > "$M/slurm.keep"; rm -r "$M/slurm"; echo mine >"$M/slurm"
        "$R" build "$E/b200-2plane.yaml" -o "$M" >/dev/null 2>&1; [ $? = 3 ] || exit 9
        [ "$(cat "$M/slurm")" = mine ] || exit 10
        # A full file system: the run fails, DIR stays as it was.
        umount "$M"; mount -t tmpfs -o size=16m none "$M" || exit 77
        "$R" build "$F" -o "$M/out" >/dev/null || exit 11
        "$R" build "$E/superpod-4su.yaml" --set cluster.nodes=512 -o "$M/out" >/dev/null 2>&1
        [ $? = 3 ] || exit 12
        diff -r "$M/out" "$T/refe" >/dev/null || exit 13
        [ -z "$(ls -A "$M" | grep -v "^out$")" ] || exit 14'
    rc=$?
    if [ $rc = 77 ]; then echo "SKIP: cannot mount a tmpfs"; ok
    else expect_eq "DIR a mount point (step that failed)" $rc 0; fi
else
    echo "SKIP: DIR a mount point (needs root and unshare)"; ok
fi
expect_clean "mount point"

# ---- exit codes -----------------------------------------------------------------------------------------
"$RAILYARD" bom "$TMP/no-such-spec.yaml" 2>/dev/null; expect_eq "missing spec" $? 3
"$RAILYARD" build "$TMP/no-such-spec.yaml" -o "$TMP/x" 2>/dev/null; expect_eq "build, missing spec" $? 3
"$RAILYARD" validate "$TMP/adir" 2>/dev/null; expect_eq "spec is a directory (I/O)" $? 3
printf 'version: 1\ncluster: [\n' >"$TMP/bad.yaml"
"$RAILYARD" bom "$TMP/bad.yaml" 2>/dev/null; expect_eq "bad spec" $? 1
"$RAILYARD" bom "$SP" --no-such-option 2>/dev/null; expect_eq "usage" $? 2
[ -e "$TMP/x" ] && fail "missing spec: output written" || ok

no_sanitizer "$ERR"
finish
