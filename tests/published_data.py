"""What the two files of published numbers share: the published training runs
(tests/data/model/published-runs.yaml, checked by
tests/published-runs-check.py) and the published fabrics
(tests/data/fabrics/published-fabrics.yaml, checked by
tests/published-fabrics-check.py). Both files are a list of entries, each
with an id; both checkers print one line per entry (`ok   ID  SUMMARY` or
`FAIL ID: problem; problem`) and a count, and exit 1 when any entry has a
problem. Their tests (tests/published-runs-data.sh,
tests/published-fabrics-data.sh, through tests/published-data.sh) plant
faults in copies of the files with `plant` below.

    python3 tests/published_data.py count FILE LIST
        the number of entries of the file's list LIST
    python3 tests/published_data.py plant FILE OUT PRELUDE CODE
        a copy of FILE as OUT, changed by the Python statements CODE run
        after PRELUDE (which names parts of `doc`, the file as loaded)
"""
import sys

import yaml


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def text(v):
    return isinstance(v, str) and v.strip() != ""


def check_main(argv, prog, list_key, noun, check_entry):
    """The checkers' main: load FILE (argv[1]), run check_entry(entry, seen)
    -> (problems, summary) on every entry of its list list_key, print a line
    per entry and '<n> <noun>, <bad> with problems'. Returns the exit code:
    0 all clean, 1 problems, 2 usage, 3 unreadable file."""
    if len(argv) != 2:
        print(f"usage: {prog} FILE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            doc = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        return 3
    entries = doc.get(list_key) if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not entries:
        print(f"{argv[1]}: no '{list_key}' list", file=sys.stderr)
        return 1
    seen, bad = set(), 0
    for i, entry in enumerate(entries):
        problems, summary = check_entry(entry, seen)
        eid = entry.get("id", f"#{i + 1}") if isinstance(entry, dict) else f"#{i + 1}"
        if problems:
            bad += 1
            print(f"FAIL {eid}: " + "; ".join(problems))
        else:
            print(f"ok   {eid}  {summary}")
    print(f"{len(entries)} {noun}, {bad} with problems")
    return 1 if bad else 0


def plant(src, dst, prelude, code):
    """Write a copy of the YAML file src to dst, changed by code."""
    with open(src, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    names = {"doc": doc}
    exec(prelude, names)
    exec(code, names)
    with open(dst, "w", encoding="utf-8") as f:
        yaml.safe_dump(doc, f, sort_keys=False)


def main(argv):
    if len(argv) == 4 and argv[1] == "count":
        with open(argv[2], encoding="utf-8") as f:
            print(len(yaml.safe_load(f)[argv[3]]))
        return 0
    if len(argv) == 6 and argv[1] == "plant":
        plant(*argv[2:6])
        return 0
    print("usage: published_data.py count FILE LIST | plant FILE OUT PRELUDE CODE",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
