#!/usr/bin/env python3
"""Gathers the runs of bench/scripts/gather-bench.sh into one results file.

    gather_json.py OUT_DIR/gather results.json [--what TEXT] [--command TEXT]

The gather kernel's rows of dl-bench-marshal (rate and ratio to the copy of the same run)
and, per case (column band, how often x is written): every run's kernel time per launch,
first launch, wall time (first upload to last read) and result hash, natively, under
`dl-run --policy always` and under `dl-run` (the default policy), and where the runs
had them the zero-touch modes (ztalways, ztauto: the kernel without its //DL: line under
`dl-run --auto`, with and without `--policy always`); the means of the runs;
the speedups over native; and DL's --summary lines for the kernel (launches transformed,
copies gathered and read again, the controller's decision).
"""
import argparse
import datetime
import glob
import json
import os
import re
import statistics


def summary_lines(path):
    keep = []
    if os.path.exists(path):
        for line in open(path, errors="replace"):
            if re.match(r"\[dl\] +(summary|kernel|gathered|policy)", line.strip()):
                keep.append(line.rstrip())
    return keep


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--what", default="")
    ap.add_argument("--command", default="bench/scripts/gather-bench.sh")
    a = ap.parse_args()
    device, cases = {}, {}
    for f in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
        m = re.match(r"(native|always|auto|ztalways|ztauto)-b(\d+)-u(\d+)-(\d+)\.json$", os.path.basename(f))
        if not m:
            continue
        mode, band, upd, run = m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))
        d = json.load(open(f))
        for k in ("device", "platform", "device_version", "driver", "date"):
            if k in d and k not in device:
                device[k] = d[k]
        c = d["cases"][0]
        e = cases.setdefault((band, upd), {"case": c["case"], "band": band, "update_x": upd,
                                           "rows": c["rows"], "K": c["K"], "iters": c["iters"],
                                           "nnz": c["nnz"], "runs": {}})
        row = {"run": run, "command": d.get("command", "")}
        row.update({k: c[k] for k in ("kernel_ms", "first_kernel_ms", "wall_ms", "x_updates",
                                      "checks", "result_fnv")})
        if mode != "native":
            row["summary"] = summary_lines(f[:-5] + ".txt")
        e["runs"].setdefault(mode, []).append(row)
    out_cases = []
    for key in sorted(cases, key=lambda k: (-k[0], k[1])):
        e = cases[key]
        mean = {m: {k: round(statistics.mean(r[k] for r in rs), 4)
                    for k in ("kernel_ms", "wall_ms")} for m, rs in e["runs"].items()}
        e["mean_of_runs"] = mean
        if "native" in mean:
            e["speedup_over_native"] = {
                m: {k: round(mean["native"][k] / v[k], 3) for k in v}
                for m, v in mean.items() if m != "native"}
        hashes = {r["result_fnv"] for rs in e["runs"].values() for r in rs}
        e["results_identical"] = len(hashes) == 1
        out_cases.append(e)
    res = {"benchmark": "indirect gather (bench/apps/gather) and the gather kernel",
           "what": a.what, "command": a.command,
           "collected": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           **device, "cases": out_cases}
    mp = os.path.join(a.dir, "marshal.json")
    if os.path.exists(mp):
        m = json.load(open(mp))
        res["gather_kernel"] = {"command": m.get("command"), "date": m.get("date"),
                                "copies": m.get("copies"), "timing": m.get("timing"),
                                "gbps_definition": m.get("gbps_definition"),
                                "rows": m.get("rows"), "wrong_results": m.get("wrong_results")}
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
