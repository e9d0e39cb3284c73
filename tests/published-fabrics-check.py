"""Check tests/data/fabrics/published-fabrics.yaml: one line per design, exit
1 on any problem. The field meanings are in the header of the data file.

    python3 tests/published-fabrics-check.py FILE

Every fact must name a known source, a place in it and a status; published
and secondary facts say where the number appears; not_published facts carry
no value but say what is derivable; every check: formula is evaluated
(arithmetic only, over other facts of the same design) and must reproduce
the value; a tier with both port plans and a taper must agree with itself;
every table row must satisfy the table's checks unless an exception explains
the mismatch, and an exception on an agreeing row is an error. The file loop
and output are tests/published_data.py's.
"""
import ast
import re
import sys

from published_data import check_main, is_num, text

DESIGN_KEYS = {"id", "title", "sources", "node", "tiers", "totals", "tables",
               "note"}
FACT_KEYS = {"value", "unit", "status", "source", "at", "says", "check",
             "tolerance", "derivable", "note"}
STATUSES = {"published", "secondary", "derived", "not_published"}
UNITS = {"gpus", "hosts", "racks", "switches", "ports", "links", "cables",
         "planes", "tiers", "stripes", "segments", "pods", "sus", "clusters",
         "trays", "shelves", "nics", "cpus", "Gb/s", "kW", "MW", "ratio",
         "model", "text"}
TABLE_KEYS = {"name", "source", "at", "says", "columns", "rows", "checks",
              "exceptions"}
ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DEFAULT_TOLERANCE = 0.001
PORT_PLAN = ("down_count", "down_speed", "up_count", "up_speed")


def close(a, b, tol):
    if b == 0:
        return abs(a) <= tol
    return abs(a - b) <= tol * abs(b)


class FormulaError(Exception):
    pass


def evaluate(expr, lookup):
    """Evaluate + - * / and parentheses over numbers and dotted names.
    lookup(name) returns a number or raises FormulaError."""
    try:
        tree = ast.parse(str(expr), mode="eval")
    except SyntaxError:
        raise FormulaError(f"cannot parse {expr!r}")

    def dotted(node):
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            return dotted(node.value) + "." + node.attr
        raise FormulaError(f"{expr!r}: only names, numbers and + - * / allowed")

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and is_num(node.value):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp) and isinstance(
                node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if b == 0:
                raise FormulaError(f"{expr!r}: division by zero")
            return a / b
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted(node)
            if name.startswith("_") or "._" in name:
                raise FormulaError(f"{expr!r}: name {name} not allowed")
            return lookup(name)
        raise FormulaError(f"{expr!r}: only names, numbers and + - * / allowed")

    return ev(tree)


def collect_facts(design, problems):
    """Return {"section.field": fact} for every fact of the design."""
    facts = {}
    groups = []
    for key in ("node", "totals"):
        if key in design:
            groups.append((key, design[key]))
    tiers = design.get("tiers", [])
    if "tiers" in design and not isinstance(tiers, list):
        problems.append("tiers is not a list")
        tiers = []
    for i, tier in enumerate(tiers):
        if not isinstance(tier, dict) or not isinstance(tier.get("name"), str):
            problems.append(f"tier #{i + 1} has no name")
            continue
        name = tier["name"]
        groups.append((name, {k: v for k, v in tier.items() if k != "name"}))
    for key in sorted(set(design) - DESIGN_KEYS):
        groups.append((key, design[key]))
    seen = set()
    for group, fields in groups:
        if not NAME_RE.match(str(group)):
            problems.append(f"section name {group!r} is not lowercase_with_underscores")
        if group in seen:
            problems.append(f"section or tier {group} repeats")
        seen.add(group)
        if not isinstance(fields, dict) or not fields:
            problems.append(f"{group} is not a mapping of facts")
            continue
        for field, fact in fields.items():
            facts[f"{group}.{field}"] = fact
    return facts


def check_fact(path, fact, sources, problems):
    if not isinstance(fact, dict):
        problems.append(f"{path} is not a fact mapping")
        return False
    for k in sorted(set(fact) - FACT_KEYS):
        problems.append(f"{path}.{k} unknown")
    status = fact.get("status")
    if status not in STATUSES:
        problems.append(f"{path}.status {status!r} not in {sorted(STATUSES)}")
        return False
    if fact.get("unit") not in UNITS:
        problems.append(f"{path}.unit {fact.get('unit')!r} unknown")
    src = fact.get("source")
    if not text(src):
        problems.append(f"{path}.source missing")
    elif src not in sources:
        problems.append(f"{path}.source {src!r} is not a key of sources")
    if not text(fact.get("at")):
        problems.append(f"{path}.at missing")
    value = fact.get("value", "absent")
    if value == "absent":
        problems.append(f"{path}.value missing")
    if status == "not_published":
        if value is not None:
            problems.append(f"{path}: not_published but has value {value!r}")
        if not text(fact.get("derivable")):
            problems.append(f"{path}: not_published without derivable")
        if "check" in fact:
            problems.append(f"{path}: not_published with a check")
    else:
        if value is None or value == "absent":
            problems.append(f"{path}: {status} without a value")
        elif not (is_num(value) or text(value)):
            problems.append(f"{path}.value {value!r} is neither number nor text")
        if not text(fact.get("says")):
            problems.append(f"{path}.says missing")
        if status == "derived" and "check" not in fact:
            problems.append(f"{path}: derived without check")
        if "derivable" in fact:
            problems.append(f"{path}: derivable on a {status} fact")
    if status == "secondary" and not text(fact.get("note")):
        problems.append(f"{path}: secondary without a note naming the copy read")
    if "tolerance" in fact and not (is_num(fact["tolerance"]) and 0 <= fact["tolerance"] < 0.5):
        problems.append(f"{path}.tolerance {fact['tolerance']!r}")
    return True


def run_checks(facts, problems):
    """Evaluate every check formula; returns the number evaluated."""

    def lookup(name):
        if name not in facts:
            raise FormulaError(f"unknown fact {name}")
        f = facts[name]
        v = f.get("value") if isinstance(f, dict) else None
        if not is_num(v):
            raise FormulaError(f"{name} has no numeric value")
        return v

    n = 0
    for path, fact in facts.items():
        if not isinstance(fact, dict) or "check" not in fact:
            continue
        value = fact.get("value")
        try:
            got = evaluate(fact["check"], lookup)
        except FormulaError as e:
            problems.append(f"{path}.check: {e}")
            continue
        n += 1
        if not is_num(value):
            problems.append(f"{path}: check on a non-numeric value")
            continue
        tol = fact.get("tolerance", DEFAULT_TOLERANCE)
        if not close(got, value, tol):
            problems.append(f"{path} = {value}, but its check {fact['check']} gives {got:g}")
    return n


def check_tapers(design, facts, problems):
    n = 0
    for tier in design.get("tiers", []) or []:
        if not isinstance(tier, dict):
            continue
        name = tier.get("name")
        vals = [facts.get(f"{name}.{k}", {}) for k in PORT_PLAN + ("taper",)]
        vals = [v.get("value") if isinstance(v, dict) else None for v in vals]
        if not all(is_num(v) for v in vals):
            continue
        dc, ds, uc, us, taper = vals
        if uc * us == 0:
            problems.append(f"{name}: zero uplink bandwidth")
            continue
        n += 1
        got = dc * ds / (uc * us)
        tol = facts[f"{name}.taper"].get("tolerance", DEFAULT_TOLERANCE)
        if not close(got, taper, tol):
            problems.append(f"{name}.taper = {taper}, but {dc}x{ds} down over "
                            f"{uc}x{us} up is {got:g}")
    return n


def check_table(table, sources, problems):
    where = f"table {table.get('name', '?')}" if isinstance(table, dict) else "table"
    if not isinstance(table, dict):
        problems.append(f"{where} is not a mapping")
        return 0
    for k in sorted(TABLE_KEYS - {"exceptions", "checks"} - set(table)):
        problems.append(f"{where}.{k} missing")
    for k in sorted(set(table) - TABLE_KEYS):
        problems.append(f"{where}.{k} unknown")
    if table.get("source") not in sources:
        problems.append(f"{where}.source {table.get('source')!r} is not a key of sources")
    cols = table.get("columns")
    rows = table.get("rows")
    if not (isinstance(cols, list) and cols and all(isinstance(c, str) and NAME_RE.match(c) for c in cols)):
        problems.append(f"{where}.columns is not a list of names")
        return 0
    if not (isinstance(rows, list) and rows):
        problems.append(f"{where}.rows empty")
        return 0
    keys = []
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(cols):
            problems.append(f"{where} row {i + 1} has {len(row) if isinstance(row, list) else '?'} cells, columns {len(cols)}")
            continue
        if not is_num(row[0]):
            problems.append(f"{where} row {i + 1}: key {row[0]!r} is not a number")
        for c, v in zip(cols, row):
            if v is not None and not is_num(v):
                problems.append(f"{where} row {i + 1}: {c} = {v!r}")
        keys.append(row[0])
    if len(set(keys)) != len(keys):
        problems.append(f"{where}: row keys repeat")
    exceptions = {}
    for e in table.get("exceptions", []) or []:
        if not (isinstance(e, dict) and set(e) == {"key", "equals", "reason"} and text(e.get("reason"))):
            problems.append(f"{where}: exception {e!r} needs key, equals, reason")
            continue
        if e["key"] not in keys:
            problems.append(f"{where}: exception for unknown row {e['key']!r}")
        exceptions[(e["key"], e["equals"])] = False
    n = 0
    checks = table.get("checks", []) or []
    if not checks:
        problems.append(f"{where}: no checks")
    for chk in checks:
        if not (isinstance(chk, dict) and set(chk) == {"expr", "equals"} and chk["equals"] in cols):
            problems.append(f"{where}: check {chk!r} needs expr and equals (a column)")
            continue
        for row in rows:
            if not isinstance(row, list) or len(row) != len(cols):
                continue
            cells = dict(zip(cols, row))

            def lookup(name):
                if name not in cells:
                    raise FormulaError(f"unknown column {name}")
                if cells[name] is None:
                    raise KeyError(name)
                return cells[name]

            want = cells[chk["equals"]]
            if want is None:
                continue
            try:
                got = evaluate(chk["expr"], lookup)
            except KeyError:
                continue
            except FormulaError as e:
                problems.append(f"{where}: {e}")
                break
            n += 1
            key = (row[0], chk["equals"])
            agrees = close(got, want, DEFAULT_TOLERANCE)
            if key in exceptions:
                exceptions[key] = True
                if agrees:
                    problems.append(f"{where} row {row[0]}: exception on {chk['equals']} but the row agrees ({chk['expr']} = {got:g})")
            elif not agrees:
                problems.append(f"{where} row {row[0]}: {chk['equals']} = {want}, but {chk['expr']} gives {got:g}")
    for (k, col), used in exceptions.items():
        if not used:
            problems.append(f"{where}: exception for row {k} on {col} matches no check")
    return n


def check_design(design, seen):
    problems = []
    if not isinstance(design, dict):
        return ["design is not a mapping"], ""
    did = design.get("id")
    if not isinstance(did, str) or not ID_RE.match(did):
        problems.append(f"id {did!r} is not lowercase letters, digits, '-'")
    elif did in seen:
        problems.append(f"id {did} repeats")
    else:
        seen.add(did)
    if not text(design.get("title")):
        problems.append("title missing")
    sources = design.get("sources")
    if not (isinstance(sources, dict) and sources and all(text(v) for v in sources.values())):
        problems.append("sources is not a mapping of key: citation")
        sources = {}
    if not any(k in design for k in ("node", "tiers", "totals", "tables")):
        problems.append("no node, tiers, totals or tables")
    facts = collect_facts(design, problems)
    counts = {s: 0 for s in STATUSES}
    for path, fact in facts.items():
        if check_fact(path, fact, sources, problems):
            counts[fact["status"]] += 1
    nchecks = run_checks(facts, problems)
    nchecks += check_tapers(design, facts, problems)
    tables = design.get("tables", [])
    if not isinstance(tables, list):
        problems.append("tables is not a list")
        tables = []
    for t in tables:
        nchecks += check_table(t, sources, problems)
    used = {f.get("source") for f in facts.values() if isinstance(f, dict)}
    used |= {t.get("source") for t in tables if isinstance(t, dict)}
    for k in sorted(set(sources) - used):
        problems.append(f"source {k} is cited by no fact")
    summary = ("%d facts (%d published, %d secondary, %d derived, %d not published), %d checks"
               % (len(facts), counts["published"], counts["secondary"],
                  counts["derived"], counts["not_published"], nchecks))
    return problems, summary


if __name__ == "__main__":
    sys.exit(check_main(sys.argv, "published-fabrics-check.py", "fabrics", "designs",
                        check_design))
