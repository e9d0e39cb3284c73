"""Check tests/data/model/published-runs.yaml: one line per run, exit 1 on
any problem.  The field meanings are in the header of the data file.

    python3 tests/published-runs-check.py FILE

The file loop and output are tests/published_data.py's.
"""
import re
import sys

from published_data import check_main, is_int, is_num

RUN_KEYS = {"id", "source", "model", "gpu", "gpu_memory", "gpus", "layout",
            "batch", "recompute", "zero", "precision", "measured",
            "flops_formula", "fits", "note"}
RUN_OPTIONAL = {"flops_formula", "overlap", "fabric", "fp8_recipe", "activation_offload"}
FABRIC_KEYS = {"spec", "source"}
FABRIC_OPTIONAL = {"note"}
FABRIC_SPEC_RE = re.compile(r"^examples/[a-z0-9][a-z0-9-]*\.yaml$")
MODEL_KEYS = {"parameters", "layers", "d_model", "heads", "kv_heads",
              "ffn_hidden", "mlp", "vocab", "seq_len"}
MODEL_OPTIONAL = {"head_dim", "moe", "v_head_dim", "q_lora_rank", "kv_lora_rank",
                  "qk_rope_head_dim", "qk_nope_head_dim", "window", "window_layers",
                  "window_pattern", "mtp_layers"}
MOE_KEYS = {"experts", "top_k", "shared_experts", "expert_hidden",
            "active_parameters", "dense_layers"}
LAYOUT_KEYS = {"tensor", "pipeline", "data", "context", "expert", "virtual",
               "micro_batch", "sequence_parallel"}
LAYOUT_OPTIONAL = {"expert_tensor", "fsdp", "first_stage_layers", "last_stage_layers"}
FP8_RECIPES = {"tensorwise", "delayed", "blockwise", "mxfp8", "unstated"}
MEASURES = {"tflops_per_gpu", "mfu", "iteration_s", "tokens_per_s",
            "tokens_per_s_per_gpu"}
FLOP_MEASURES = {"tflops_per_gpu", "mfu"}
FORMULAS = {"megatron", "korthikanti_model", "6nt", "6nt_attn", "unstated"}
GPUS = {"a100", "h100", "h800", "h200", "b200", "gb200", "b300", "gb300"}
MLPS = {"gelu", "relu2", "swiglu"}
RECOMPUTE = {"none", "selective", "full", "unstated"}
ZERO = {0, 1, 2, 3, "unstated"}
PRECISION = {"fp16", "bf16", "fp8"}
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
# A batch that is not a multiple of data x micro_batch must say so.
BATCH_EXPLAINED = "not a multiple"


def keys(problems, where, got, required, optional=frozenset()):
    """Missing and unknown keys of one mapping."""
    if not isinstance(got, dict):
        problems.append(f"{where} is not a mapping")
        return False
    for k in sorted(required - set(got)):
        problems.append(f"{where}.{k} missing")
    for k in sorted(set(got) - required - set(optional)):
        problems.append(f"{where}.{k} unknown")
    return True


def positive_ints(problems, where, got, names):
    for k in names:
        if k in got and not (is_int(got[k]) and got[k] > 0):
            problems.append(f"{where}.{k} = {got[k]!r}, expected an integer > 0")


def check_run(run, seen):
    """Return (problems, summary) for one run."""
    problems = []
    if not isinstance(run, dict):
        return ["run is not a mapping"], ""
    keys(problems, "run", run, RUN_KEYS - RUN_OPTIONAL, RUN_OPTIONAL)
    rid = run.get("id")
    if not isinstance(rid, str) or not ID_RE.match(rid):
        problems.append(f"id {rid!r} is not lowercase letters, digits, '.', '-'")
    elif rid in seen:
        problems.append(f"id {rid} repeats")
    else:
        seen.add(rid)
    for k in ("source", "note"):
        if k in run and not (isinstance(run[k], str) and run[k].strip()):
            problems.append(f"{k} is empty")

    model = run.get("model")
    if "model" in run and keys(problems, "model", model, MODEL_KEYS,
                               MODEL_OPTIONAL):
        positive_ints(problems, "model", model,
                      ["layers", "d_model", "heads", "kv_heads", "ffn_hidden",
                       "vocab", "seq_len", "head_dim", "v_head_dim", "q_lora_rank",
                       "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "window",
                       "window_layers"])
        if "mtp_layers" in model and not (is_int(model["mtp_layers"]) and model["mtp_layers"] >= 0):
            problems.append(f"model.mtp_layers = {model['mtp_layers']!r}")
        if "window_pattern" in model and model["window_pattern"] != "alternate":
            problems.append(f"model.window_pattern {model['window_pattern']!r} not alternate")
        if "parameters" in model and not (is_num(model["parameters"])
                                          and model["parameters"] > 0):
            problems.append(f"model.parameters = {model['parameters']!r}")
        if model.get("mlp") not in MLPS:
            problems.append(f"model.mlp {model.get('mlp')!r} not in {sorted(MLPS)}")
        h, kv = model.get("heads"), model.get("kv_heads")
        if is_int(h) and is_int(kv) and kv > 0 and h % kv:
            problems.append(f"heads {h} not a multiple of kv_heads {kv}")
        moe = model.get("moe")
        if "moe" in model and keys(problems, "model.moe", moe, MOE_KEYS):
            positive_ints(problems, "model.moe", moe,
                          ["experts", "top_k", "expert_hidden"])
            for k in ("shared_experts", "dense_layers"):
                if k in moe and not (is_int(moe[k]) and moe[k] >= 0):
                    problems.append(f"model.moe.{k} = {moe[k]!r}")
            if is_int(moe.get("top_k")) and is_int(moe.get("experts")) \
                    and moe["top_k"] > moe["experts"]:
                problems.append("model.moe.top_k exceeds experts")
            ap, p = moe.get("active_parameters"), model.get("parameters")
            if not (is_num(ap) and ap > 0 and (not is_num(p) or ap < p)):
                problems.append(f"model.moe.active_parameters = {ap!r}")

    for k, allowed in (("gpu", GPUS), ("recompute", RECOMPUTE),
                       ("zero", ZERO), ("precision", PRECISION)):
        if k in run and (isinstance(run[k], bool) or run[k] not in allowed):
            problems.append(f"{k} {run[k]!r} not in {sorted(map(str, allowed))}")
    positive_ints(problems, "run", run, ["gpu_memory", "gpus", "batch", "activation_offload"])
    if "fp8_recipe" in run:
        if run["fp8_recipe"] not in FP8_RECIPES:
            problems.append(f"fp8_recipe {run['fp8_recipe']!r} not in {sorted(FP8_RECIPES)}")
        if run.get("precision") != "fp8":
            problems.append("fp8_recipe on a run that is not fp8")
    if "fits" in run and not isinstance(run["fits"], bool):
        problems.append(f"fits {run['fits']!r} is not true or false")

    summary = ""
    lay = run.get("layout")
    if "layout" in run and keys(problems, "layout", lay, LAYOUT_KEYS, LAYOUT_OPTIONAL):
        if "fsdp" in lay and not isinstance(lay["fsdp"], bool):
            problems.append("layout.fsdp is not true or false")
        if lay.get("fsdp") and run.get("zero") != 3:
            problems.append("layout.fsdp with zero %r, expected 3" % run.get("zero"))
        positive_ints(problems, "layout", lay, ["expert_tensor", "first_stage_layers",
                                                "last_stage_layers"])
        fs, ls = lay.get("first_stage_layers", 0), lay.get("last_stage_layers", 0)
        if (fs or ls) and is_int(lay.get("pipeline")) and lay["pipeline"] < 2:
            problems.append("first or last stage layers without pipeline stages")
        if (fs or ls) and isinstance(model, dict) and is_int(model.get("layers")) \
                and is_int(fs) and is_int(ls) and fs + ls > model["layers"]:
            problems.append("first_stage_layers + last_stage_layers exceed the layers")
        # virtual may be "unstated": an interleaved schedule of unknown size
        ints = LAYOUT_KEYS - {"sequence_parallel"}
        if lay.get("virtual") == "unstated":
            ints = ints - {"virtual"}
        positive_ints(problems, "layout", lay, sorted(ints))
        if "sequence_parallel" in lay and not isinstance(lay["sequence_parallel"], bool):
            problems.append("layout.sequence_parallel is not true or false")
        dims = [lay.get(k) for k in ("tensor", "pipeline", "context", "data")]
        gpus = run.get("gpus")
        if all(is_int(d) for d in dims) and is_int(gpus):
            product = dims[0] * dims[1] * dims[2] * dims[3]
            summary = "t%d p%d c%d d%d e%d v%d mb%d" % (
                lay["tensor"], lay["pipeline"], lay["context"], lay["data"],
                lay.get("expert", 0), lay.get("virtual", 0) if is_int(lay.get("virtual", 0)) else 0,
                lay.get("micro_batch", 0))
            if product != gpus:
                problems.append(f"tensor*pipeline*context*data = {product}, gpus = {gpus}")
        batch, mb, data = run.get("batch"), lay.get("micro_batch"), lay.get("data")
        if all(is_int(v) and v > 0 for v in (batch, mb, data)) and batch % (data * mb):
            if BATCH_EXPLAINED in str(run.get("note", "")):
                summary += " (batch not a multiple, explained)"
            else:
                problems.append(f"batch {batch} is not a multiple of data*micro_batch = {data * mb}")
        ep = lay.get("expert")
        moe = model.get("moe") if isinstance(model, dict) else None
        if is_int(ep) and ep > 1:
            if not isinstance(moe, dict):
                problems.append(f"expert {ep} on a dense model")
            else:
                if is_int(moe.get("experts")) and moe["experts"] % ep:
                    problems.append(f"experts {moe['experts']} not divisible by expert {ep}")
                if is_int(data) and is_int(lay.get("tensor")) \
                        and (data * lay["tensor"]) % ep:
                    problems.append(f"expert {ep} does not divide data*tensor")

    fab = run.get("fabric")
    if "fabric" in run and keys(problems, "fabric", fab, FABRIC_KEYS, FABRIC_OPTIONAL):
        if "spec" in fab and not (isinstance(fab["spec"], str) and FABRIC_SPEC_RE.match(fab["spec"])):
            problems.append(f"fabric.spec {fab['spec']!r} is not examples/NAME.yaml")
        for k in ("source", "note"):
            if k in fab and not (isinstance(fab[k], str) and fab[k].strip()):
                problems.append(f"fabric.{k} is empty")
        if run.get("fits") is False:
            problems.append("a run that did not fit names a fabric")
        else:
            summary += "  on " + str(fab.get("spec"))

    meas = run.get("measured")
    if "measured" in run:
        if not isinstance(meas, dict):
            problems.append("measured is not a mapping")
            meas = {}
        for k in sorted(set(meas) - MEASURES):
            problems.append(f"measured.{k} unknown")
        for k, v in meas.items():
            if not (is_num(v) and v > 0) or (k == "mfu" and v > 1):
                problems.append(f"measured.{k} = {v!r}")
        if run.get("fits") is False:
            if meas:
                problems.append("a run that did not fit has a measured figure")
        elif len(meas) != 1:
            problems.append(f"measured has {len(meas)} figures, expected exactly one")
        needs = bool(set(meas) & FLOP_MEASURES)
        if needs and "flops_formula" not in run:
            problems.append("flops_formula missing for a FLOP-rate figure")
        if not needs and "flops_formula" in run:
            problems.append("flops_formula given without tflops_per_gpu or mfu")
        if "flops_formula" in run and run["flops_formula"] not in FORMULAS:
            problems.append(f"flops_formula {run['flops_formula']!r} unknown")
        if meas:
            summary += "  " + " ".join(f"{k}={v}" for k, v in meas.items())
            if "flops_formula" in run:
                summary += f" ({run['flops_formula']})"
        elif run.get("fits") is False:
            summary += "  does not fit"
    return problems, summary

if __name__ == "__main__":
    sys.exit(check_main(sys.argv, "published-runs-check.py", "runs", "runs", check_run))
