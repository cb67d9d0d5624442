"""Net speedup of one run of an application under dl-run against its plain run, as
run-eval.sh's DL mode computes it: plain kernel ms * iterations / (DL's kernel ms *
iterations + DL's marshaling device ms). Used by zero-touch-bench.sh and
controller-curve.sh."""
import json


def load(path):
    with open(path) as f:
        return json.load(f)


def dl_run(plain_case, app_json, report_json, iters=None):
    """What one DL run did and its net speedup: `plain_case` is the plain run's first
    case, `app_json` the DL run's output (--json), `report_json` DL's report."""
    d = load(app_json)["cases"][0]
    rep = load(report_json)
    tot = rep.get("totals", {})
    mms = tot.get("marshal_device_ns", 0) / 1e6
    it = plain_case.get("iters", iters or 1)
    return {"kernel_ms": d["kernel_ms"], "marshal_ms": mms, "iters": it,
            "transformed_launches": tot.get("transformed_launches"),
            "policy": {k.get("name"): k.get("policy") for k in rep.get("kernels", [])},
            "net_speedup": plain_case["kernel_ms"] * it / (d["kernel_ms"] * it + mms),
            "same_results": d.get("result_fnv") == plain_case.get("result_fnv"),
            "auto": [{k: a.get(k) for k in ("rewritten", "cached", "seconds", "kernels", "why")}
                     for a in rep.get("auto", [])]}
