"""The full training model against published training runs
(tests/data/model/published-runs.yaml; doc/llm-model.md, "Against published runs").

For every run: a spec with its GPUs, model shape and published layout, fed to
`railyard model --format json`; the published figure turned into seconds per
iteration with the source's own FLOPs formula; the ratio predicted / measured
(above 1: railyard is slow). Then the rules: median ratio within 0.9-1.1, at
least 80% of runs within 0.8-1.25, none beyond 1.6x either way, every
published layout accepted by the memory model and every layout the source says
did not fit refused.

A run that names the fabric it was trained on (fabric.spec, an example spec)
is modelled once more on that fabric (its cluster, fabric and layout
sections, the run's GPUs): as published, and with every tier's taper 1:1.
Those predictions stand apart from the rules above (the run is counted once,
on the default fabric); each must be within 1.6x of the measured time, as
every run, and the tapered fabric must leave traffic spread over the run's
GPUs less than the NIC (the layout's groups their own shares, within (0, 1])
while the 1:1 one leaves it all of it.

With --report (a table held to the targets but not yet meeting them): only
a refused published layout fails; the targets missed print as TARGET NOT MET.
Either way a summary per GPU generation follows the overall one.

Usage: published_runs.py RAILYARD RUNS.yaml WORKDIR [--table FILE] [--fabric-table FILE]
                         [--report] [--summary FILE --label TEXT]
--summary writes the Markdown rows of the summaries (all runs, then each
GPU generation), each labelled "TEXT, generation".
Prints one line per run and the summary; --table writes the Markdown table the
documentation carries, --fabric-table the one of the runs on their own
fabrics. Exits 1 when a rule fails.
"""
import json
import os
import statistics
import subprocess
import sys

import yaml

GENERATION = {"a100": "Ampere", "h100": "Hopper", "h800": "Hopper", "h200": "Hopper",
              "b200": "Blackwell", "gb200": "Blackwell", "b300": "Blackwell", "gb300": "Blackwell"}
PEAK = {"a100": 312e12, "h100": 989e12, "h800": 989e12, "h200": 989e12, "b200": 2250e12,
        "gb200": 2500e12, "b300": 2250e12, "gb300": 2500e12}
NODE = {"a100": "dgx-a100", "h100": "dgx-h100", "h800": "dgx-h100", "h200": "dgx-h200",
        "b200": "dgx-b200", "gb200": "gb200-nvl72", "b300": "dgx-b300", "gb300": "gb300-nvl72"}


def source_flops(run):
    """FLOPs of one iteration as the source counted them."""
    m = run["model"]
    B = run["batch"]
    s = m["seq_len"]
    l = m["layers"]
    h = m["d_model"]
    V = m["vocab"]
    f = run["flops_formula"]
    if f == "megatron":
        return 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h))
    if f == "korthikanti_model":
        return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h))
    if f == "korthikanti_hardware":
        # selective recomputation adds the attention core's forward
        return 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h)) + \
            4 * B * s * s * h * l
    if f == "6nt":
        P = float(m.get("moe", {}).get("active_parameters", m["parameters"]))
        return 6 * P * B * s
    if f in ("6nt_attn", "unstated"):
        # unstated: the source defines no count; 6NT with causal attention is
        # taken (the bracket's upper end), the lower end printed beside it
        P = float(m.get("moe", {}).get("active_parameters", m["parameters"]))
        return 6 * P * B * s + 6 * B * s * s * h * l
    raise SystemExit("%s: unknown flops_formula %s" % (run["id"], f))


def measured_seconds(run):
    x = run["measured"]
    N = run["gpus"]
    tokens = run["batch"] * run["model"]["seq_len"]
    if "iteration_s" in x:
        return x["iteration_s"]
    if "tokens_per_s" in x:
        return tokens / x["tokens_per_s"]
    if "tokens_per_s_per_gpu" in x:
        return tokens / (x["tokens_per_s_per_gpu"] * N)
    if "tflops_per_gpu" in x:
        return source_flops(run) / (x["tflops_per_gpu"] * 1e12 * N)
    if "mfu" in x:
        peak = x.get("peak_tflops", PEAK[run["gpu"]] / 1e12) * 1e12
        return source_flops(run) / (x["mfu"] * peak * N)
    raise SystemExit("%s: no measured figure" % run["id"])


def published_mfu(run):
    """The source's FLOP rate over the GPU's dense BF16 peak, as text."""
    x = run["measured"]
    if "mfu" in x:
        return "%.1f%%" % (100 * x["mfu"])
    if "tflops_per_gpu" in x:
        return "%.1f%%" % (100 * x["tflops_per_gpu"] * 1e12 / PEAK[run["gpu"]])
    return "-"


def spec_text(run):
    m = dict(run["model"])
    moe = m.pop("moe", None)
    lay = run["layout"]
    model = {"name": run["id"], "parameters": float(m["parameters"]), "layers": m["layers"],
             "d_model": m["d_model"], "heads": m["heads"], "seq_len": m["seq_len"],
             "vocab": m["vocab"], "mcc": 8, "batch": run["batch"],
             "precision": run["precision"]}
    for k in ("kv_heads", "ffn_hidden", "mlp", "dropout", "head_dim", "v_head_dim",
              "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "window", "window_layers",
              "mtp_layers"):
        if k in m:
            model[k] = m[k]
    if m.get("window") and m.get("window_pattern") == "alternate":
        model["window_layers"] = m["layers"] // 2
    if model.get("mlp") == "relu2":     # two matrices, as GELU's
        model["mlp"] = "gelu"
    if moe:
        model["moe"] = {k: moe[k] for k in ("experts", "top_k", "shared_experts",
                                             "expert_hidden", "active_parameters",
                                             "dense_layers") if k in moe}
    par = {"tensor": lay["tensor"], "pipeline": lay["pipeline"],
           "context": lay.get("context", 1), "data": lay["data"],
           "zero": run["zero"] if run.get("zero", "unstated") != "unstated" else 1,
           "sequence": bool(lay.get("sequence_parallel", False))}
    for k in ("virtual", "micro_batch"):
        if isinstance(lay.get(k), int):     # "unstated": railyard searches it
            par[k] = lay[k]
    if moe and lay.get("expert", 1) > 1:
        par["expert"] = lay["expert"]
    for k in ("first_stage_layers", "last_stage_layers"):
        if lay.get(k):
            par[k] = lay[k]
    if moe and lay.get("expert_tensor", 1) > 1:
        par["expert_tensor"] = lay["expert_tensor"]
    if lay.get("fsdp"):
        par["fsdp"] = True
        par["zero"] = 3
    w = {"model": model, "gpu": run["gpu"], "batch": run["batch"],
         "precision": run["precision"], "parallelism": par,
         "flash_attention": bool(run.get("flash_attention", True))}
    if run.get("recompute", "unstated") != "unstated":
        w["recompute"] = run["recompute"]
    elif run.get("flops_formula") == "megatron":
        # the source's count includes the recomputed forward: full recomputation
        w["recompute"] = "full"
    if run["precision"] == "fp16":
        w["precision"] = "fp16"
    if run.get("fp8_recipe", "unstated") != "unstated":
        w["fp8_recipe"] = run["fp8_recipe"]
    if run.get("activation_offload"):
        w["activation_offload"] = run["activation_offload"]
    if run.get("overlap"):
        w["overlap"] = run["overlap"]
    spec = {"name": run["id"], "cluster": {"gpus": run["gpus"], "node": NODE[run["gpu"]]},
            "workload": w}
    if run["gpu"] in ("gb200", "gb300") and run["gpus"] % 72:
        # A job of GB200/GB300 NVL72 racks whose GPUs are not whole racks
        # (the published runs' 8, 64, 256): NVLink domains of the largest
        # number of trays of 4 GPUs that divides the job, up to a rack's 72
        # (64: 16 of the 18 trays). An ASSUMPTION; the sources do not say.
        spec["cluster"]["hb_domain"] = max(k for k in range(4, 73, 4) if run["gpus"] % k == 0)
    return yaml.safe_dump(spec, sort_keys=False)


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fabric_spec_text(run, flat):
    """The run's spec on the fabric it names: the example's cluster (its
    GPUs the run's), fabric, network (how it routes) and layout; flat:
    every taper 1:1."""
    spec = yaml.safe_load(spec_text(run))
    with open(os.path.join(TOP, run["fabric"]["spec"])) as fh:
        ex = yaml.safe_load(fh)
    cluster = {k: v for k, v in ex["cluster"].items() if k not in ("gpus", "nodes")}
    spec["cluster"] = dict(cluster, gpus=run["gpus"])
    spec["fabric"] = ex["fabric"]
    if flat:
        for tier in ex["fabric"].get("tiers", []):
            if "taper" in tier:
                tier["taper"] = "1:1"
        if "oversubscription" in ex["fabric"]:
            del ex["fabric"]["oversubscription"]
    if "layout" in ex:
        spec["layout"] = ex["layout"]
    if "network" in ex:
        spec["network"] = ex["network"]
    return yaml.safe_dump(spec, sort_keys=False)


def model_json(railyard, path, text):
    with open(path, "w") as fh:
        fh.write(text)
    p = subprocess.run([railyard, "model", path, "--format", "json"],
                       capture_output=True, text=True)
    return p, (json.loads(p.stdout) if p.returncode == 0 else None)


def fabric_runs(railyard, runs, work, fails):
    """The runs that name their fabric, on it with and without its tapers.
    Returns the rows of the documentation's table."""
    rows = []
    for run in runs:
        if "fabric" not in run:
            continue
        meas = measured_seconds(run)
        name = os.path.splitext(os.path.basename(run["fabric"]["spec"]))[0]
        got = {}
        for flat in (False, True):
            path = os.path.join(work, "%s-on-%s%s.yaml" % (run["id"], name, "-1to1" if flat else ""))
            p, j = model_json(railyard, path, fabric_spec_text(run, flat))
            if j is None:
                print("%-28s on %s%s: REFUSED: %s" % (run["id"], name, " at 1:1" if flat else "",
                                                       p.stderr.strip()[:300]))
                fails.append("%s on %s: refused" % (run["id"], name))
                break
            got[flat] = j
        if len(got) != 2:
            continue
        share = got[False]["fabric_share"]
        t, t1 = got[False]["optimum"]["total_s"], got[True]["optimum"]["total_s"]
        r, r1 = t / meas, t1 / meas
        g = share.get("groups", {})
        print("%-28s on %s: share %.4f above tier %d (groups: context %.4f, pipeline %.4f, "
              "data %.4f): %9.3f s  ratio %.3f  MFU %.1f%%;  "
              "every taper 1:1: %9.3f s  ratio %.3f  MFU %.1f%%" %
              (run["id"], name, share["share"], share["tier"], g.get("context", -1),
               g.get("pipeline", -1), g.get("data", -1), t, r, 100 * got[False]["mfu"],
               t1, r1, 100 * got[True]["mfu"]))
        rows.append((run, name, share, meas, t, r, got[False]["mfu"], t1, r1, got[True]["mfu"]))
        if not share["share"] < 1:
            fails.append("%s on %s: its traffic crosses no taper (share %g)" %
                         (run["id"], name, share["share"]))
        if not g or any(not 0 < g[k] <= 1 for k in ("context", "pipeline", "data")):
            fails.append("%s on %s: the groups' shares are missing or out of (0, 1]: %r" %
                         (run["id"], name, g))
        if "groups" in got[True]["fabric_share"]:
            fails.append("%s on %s at 1:1: groups reported with no taper" % (run["id"], name))
        if got[True]["fabric_share"]["share"] != 1:
            fails.append("%s on %s at 1:1: share %g, not 1" %
                         (run["id"], name, got[True]["fabric_share"]["share"]))
        if r > 1.6 or r < 1 / 1.6:
            fails.append("%s on %s: ratio %.3f beyond 1.6x" % (run["id"], name, r))
    return rows


def main():
    railyard, runs_file, work = sys.argv[1:4]
    table = sys.argv[sys.argv.index("--table") + 1] if "--table" in sys.argv else None
    ftable = (sys.argv[sys.argv.index("--fabric-table") + 1]
              if "--fabric-table" in sys.argv else None)
    report = "--report" in sys.argv
    runs = yaml.safe_load(open(runs_file))["runs"]
    fails = []
    targets = []
    gen = {}
    ratios = []
    rows = []
    kinds = set()
    for run in runs:
        path = os.path.join(work, run["id"] + ".yaml")
        with open(path, "w") as fh:
            fh.write(spec_text(run))
        p = subprocess.run([railyard, "model", path, "--format", "json"],
                           capture_output=True, text=True)
        lay = run["layout"]
        layout = "TP %d PP %d DP %d" % (lay["tensor"], lay["pipeline"], lay["data"])
        if lay.get("context", 1) > 1:
            layout += " CP %d" % lay["context"]
        if lay.get("expert", 1) > 1:
            layout += " EP %d" % lay["expert"]
        low = None
        if run.get("flops_formula") == "unstated":
            low = measured_seconds(dict(run, flops_formula="6nt"))
        if run.get("fits", True) is False:
            ok = p.returncode == 1 and "fits" in p.stderr
            print("%-28s %-26s published: did not fit; railyard: %s" %
                  (run["id"], layout, "refused" if ok else "ACCEPTED (exit %d)" % p.returncode))
            if not ok:
                fails.append("%s: a layout the source says did not fit was accepted" % run["id"])
            rows.append((run, layout, None, None, None, None))
            continue
        if p.returncode != 0:
            print("%-28s %-26s REFUSED: %s" % (run["id"], layout, p.stderr.strip()[:300]))
            fails.append("%s: the published layout was refused" % run["id"])
            continue
        j = json.loads(p.stdout)
        pred = j["optimum"]["total_s"]
        meas = measured_seconds(run)
        r = pred / meas
        ratios.append(r)
        kinds.add("moe" if "moe" in run["model"] else
                  "zero3" if run.get("zero") == 3 else "dense")
        kinds.add(run["gpu"] if run["gpu"] != "h800" else "h100")
        kinds.add("fp8" if run["precision"] == "fp8" else "bf16")
        print("%-28s %-26s measured %9.3f s  railyard %9.3f s  ratio %.3f  MFU %.1f%%%s" %
              (run["id"], layout, meas, pred, r, 100 * j["mfu"],
               "  (6NT count: %.3f s, ratio %.3f)" % (low, pred / low) if low else ""))
        rows.append((run, layout, meas, pred, r, low))
        gen.setdefault(GENERATION[run["gpu"]], []).append(r)
        if r > 1.6 or r < 1 / 1.6:
            (targets if report else fails).append("%s: ratio %.3f beyond 1.6x" % (run["id"], r))
    n = len(ratios)
    med = statistics.median(ratios) if ratios else 0
    within = sum(1 for r in ratios if 0.8 <= r <= 1.25)
    print("%d runs predicted, %d refused as published; median ratio %.3f; %d of %d (%.0f%%) "
          "within 0.8-1.25; worst %.3f" % (n, sum(1 for r in rows if r[2] is None), med,
                                            within, n, 100.0 * within / max(n, 1),
                                            max(ratios, key=lambda r: max(r, 1 / r)) if ratios
                                            else 0))
    summary = [("all", ratios)] + [(g, gen[g]) for g in sorted(gen)]
    for g, rs in summary[1:]:
        print("  %-10s %2d runs: median ratio %.3f; %d (%.0f%%) within 0.8-1.25; worst %.3f" %
              (g, len(rs), statistics.median(rs), sum(1 for r in rs if 0.8 <= r <= 1.25),
               100.0 * sum(1 for r in rs if 0.8 <= r <= 1.25) / len(rs),
               max(rs, key=lambda r: max(r, 1 / r))))
    if "--summary" in sys.argv:
        label = sys.argv[sys.argv.index("--label") + 1] if "--label" in sys.argv else runs_file
        with open(sys.argv[sys.argv.index("--summary") + 1], "w") as fh:
            for g, rs in summary:
                if rs:
                    w = sum(1 for r in rs if 0.8 <= r <= 1.25)
                    fh.write("| %s, %s | %d | %.3f | %d (%.0f%%) | %.3f |\n" %
                             (label, g, len(rs), statistics.median(rs), w, 100.0 * w / len(rs),
                              max(rs, key=lambda r: max(r, 1 / r))))
    if n < 25:
        fails.append("only %d runs predicted (at least 25)" % n)
    if not 0.9 <= med <= 1.1:
        (targets if report else fails).append("median ratio %.3f outside 0.9-1.1" % med)
    if within < 0.8 * n:
        (targets if report else fails).append("%d of %d within 0.8-1.25 (80%% needed)" %
                                              (within, n))
    for k in (() if report else ("dense", "zero3", "moe", "a100", "h100", "bf16", "fp8")):
        if k not in kinds:
            fails.append("no %s run" % k)
    if table:
        with open(table, "w") as fh:
            fh.write("| run | source | GPUs | layout | measured s/iteration | railyard | ratio |\n")
            fh.write("|---|---|---|---|---|---|---|\n")
            for run, layout, meas, pred, r, low in rows:
                if meas is None:
                    fh.write("| %s | %s | %d %s | %s | did not fit | refused | - |\n" %
                             (run["id"], run["source"], run["gpus"], run["gpu"].upper(), layout))
                else:
                    fh.write("| %s | %s | %d %s | %s | %.2f%s | %.2f | %.2f |\n" %
                             (run["id"], run["source"], run["gpus"], run["gpu"].upper(), layout,
                              meas, " (6NT: %.2f)" % low if low else "", pred, r))
    frows = fabric_runs(railyard, runs, work, fails)
    if ftable:
        with open(ftable, "w") as fh:
            fh.write("| run | fabric | NIC share across the top tier crossed | NIC share the layout's "
                     "context / pipeline / data groups keep | measured s/iteration "
                     "(MFU) | railyard | ratio | MFU | every taper 1:1 | ratio | MFU |\n")
            fh.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
            for run, name, share, meas, t, r, mfu, t1, r1, mfu1 in frows:
                g = share["groups"]
                fh.write("| %s | %s | %.3f (tier %d up) | %.3f / %.3f / %.3f | %.2f (%s) | %.2f "
                         "| %.2f | %.1f%% | %.2f | %.2f | %.1f%% |\n" %
                         (run["id"], name, share["share"], share["tier"], g["context"],
                          g["pipeline"], g["data"], meas, published_mfu(run), t, r, 100 * mfu,
                          t1, r1, 100 * mfu1))
    for f in targets:
        print("TARGET NOT MET: " + f)
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
