#!/usr/bin/python3
# The fenced blocks of a document that show railyard's own output: every
# block whose first line is "$ COMMAND" is run, in order, with /bin/sh in
# WORKDIR, and must exit 0 and print exactly the lines the block shows.
# With "1" as the third argument the blocks are rewritten from the output
# instead. The last line says "blocks N bad M".
#
#   doc-blocks.py DOC WORKDIR 0|1
import subprocess, sys
doc, work, regenerate = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
lines = open(doc, encoding="utf-8").read().split("\n")
out, i, n, bad = [], 0, 0, 0
while i < len(lines):
    out.append(lines[i])
    if lines[i] == "```" and i + 1 < len(lines) and lines[i + 1].startswith("$ "):
        cmd = lines[i + 1][2:]
        j = i + 2
        while j < len(lines) and lines[j] != "```":
            j += 1
        want = "\n".join(lines[i + 2:j]) + "\n"
        r = subprocess.run(["/bin/sh", "-c", cmd], cwd=work, capture_output=True, text=True)
        n += 1
        if r.returncode != 0:
            print(f"FAIL: {cmd}: exit {r.returncode}: {r.stderr.strip()[:300]}")
            bad += 1
        for s in ("AddressSanitizer", "LeakSanitizer", "runtime error:"):
            if s in r.stderr:
                print(f"FAIL: {cmd}: sanitizer report: {r.stderr.strip()[:300]}")
                bad += 1
        got = r.stdout if r.stdout.endswith("\n") else r.stdout + "\n"
        out.append(lines[i + 1])
        out.extend(got[:-1].split("\n"))
        if got != want and not regenerate:
            print(f"FAIL: {cmd}: the output differs from {doc} ('-' the doc, '+' now):")
            import difflib
            for d in list(difflib.unified_diff(want.split("\n"), got.split("\n"), lineterm="", n=0))[2:14]:
                print("    " + d)
            bad += 1
        i = j
        continue
    i += 1
if regenerate:
    open(doc, "w", encoding="utf-8").write("\n".join(out))
    print(f"regenerated {n} blocks of {doc}")
print(f"blocks {n} bad {bad}")
