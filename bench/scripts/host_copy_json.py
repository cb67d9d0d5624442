#!/usr/bin/env python3
"""Gathers the runs of host-copy-bench.sh into one results file.

    host_copy_json.py DIR OUT.json --device "..." --date YYYY-MM-DD --command "..."

DIR is the script's $OUT/host-copy. For each case (S) and run: the application's own
timing (kernel device time per launch, the launch loop's wall time per launch, the whole
run's wall time, the result's hash) and, under dl-run, what DL's report says of the
kernel (launches transformed and kept AoS, the copies made and their device time, the
controller's last word).
"""
import argparse
import glob
import json
import os
import re

p = argparse.ArgumentParser()
p.add_argument("dir")
p.add_argument("out")
p.add_argument("--device", required=True)
p.add_argument("--date", required=True)
p.add_argument("--command", required=True)
p.add_argument("--note", default="")
a = p.parse_args()

rows = []
for f in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
    if f.endswith(".report.json"):
        continue
    m = re.match(r"(hostptr|device)-(native|always|auto|keep)-(\d+)-(\d+)\.json$",
                 os.path.basename(f))
    k = re.match(r"kmeans-(native|always|auto|keep)-(\d+)\.json$", os.path.basename(f))
    if not m and not k:
        continue
    app = json.load(open(f))
    c = app["cases"][0]
    if m:
        row = {"app": "micro", "input": m.group(1), "run": m.group(2), "S": int(m.group(3)),
               "repeat": int(m.group(4)), "loop_ms_per_launch": c["loop_ms_per_launch"]}
    else:
        row = {"app": "kmeans", "input": "hostptr", "run": k.group(1), "repeat": int(k.group(2)),
               "case": c["case"]}
    row.update({"kernel_ms": c["kernel_ms"], "wall_ms": c["wall_ms"],
                "result_fnv": c["result_fnv"]})
    rep = f[:-len(".json")] + ".report.json"
    if os.path.exists(rep):
        k = json.load(open(rep))["kernels"][0]
        row.update({"launches": k["launches"], "transformed": k["transformed_launches"],
                    "kept_aos": k["kept_aos"], "fallbacks": k["fallbacks"],
                    "fallback_reasons": k["fallback_reasons"], "host_copies": k["host_copies"],
                    "host_copies_reused": k.get("host_copies_reused", 0),
                    "host_copy_ms_each": k["host_copy_ns"] / 1e6 / max(1, k["host_copies"]),
                    "policy": k["policy"]})
    rows.append(row)
out = {"device": a.device, "date": a.date, "command": a.command, "note": a.note, "runs": rows}
json.dump(out, open(a.out, "w"), indent=1)
print(f"{len(rows)} runs -> {a.out}")
