#!/usr/bin/env python3
"""Gathers the runs of bench/scripts/map-bench.sh into one results file.

    map_json.py OUT_DIR/map results.json [--what TEXT] [--command TEXT]

Per case (map, how often x is written): every run's kernel time per launch, first
launch, wall time (first upload to last read) and result hash, natively, under
`dl-run --policy always` and under `dl-run` (the default policy); the means of the runs;
the speedups over native; DL's --summary lines for the kernel; and the map kernel's
device time per copy (from the `gathered copies` line) as a rate (x read once, the copy
written: 2 x bytes / time) and its ratio to the copy of the same run (dl-bench-marshal's
reference at x's size, whose gather rows are kept too).
"""
import argparse
import datetime
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gather_json import summary_lines  # noqa: E402 (DL's --summary lines of a run)


def map_ms(lines):
    """The map kernel's device time per copy, from `gathered copies: N gathered (X ms)`."""
    for line in lines:
        m = re.search(r"gathered copies: (\d+) gathered \(([0-9.]+) ms\)", line)
        if m and int(m.group(1)) > 0:
            return float(m.group(2)) / int(m.group(1))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("out")
    ap.add_argument("--what", default="")
    ap.add_argument("--command", default="bench/scripts/map-bench.sh")
    a = ap.parse_args()
    device, cases = {}, {}
    reference = None
    mp = os.path.join(a.dir, "marshal.json")
    marshal = json.load(open(mp)) if os.path.exists(mp) else None
    if marshal and marshal.get("copies"):
        reference = marshal["copies"][0].get("reference_gbps")
    for f in sorted(glob.glob(os.path.join(a.dir, "*.json"))):
        m = re.match(r"(native|always|auto)-(bitrev|transposed)-u(\d+)-(\d+)\.json$",
                     os.path.basename(f))
        if not m:
            continue
        mode, mapname, upd, run = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        d = json.load(open(f))
        for k in ("device", "platform", "device_version", "driver", "date"):
            if k in d and k not in device:
                device[k] = d[k]
        c = d["cases"][0]
        e = cases.setdefault((mapname, upd), {"case": c["case"], "map": mapname, "update_x": upd,
                                              "n": c["n"], "iters": c["iters"], "runs": {}})
        row = {"run": run, "command": d.get("command", "")}
        row.update({k: c[k] for k in ("kernel_ms", "first_kernel_ms", "wall_ms", "x_updates",
                                      "checks", "result_fnv")})
        if mode != "native":
            row["summary"] = summary_lines(f[:-5] + ".txt")
            ms = map_ms(row["summary"])
            if ms:
                row["map_kernel_ms"] = round(ms, 5)
                gbps = 2 * 4 * c["n"] / (ms * 1e6)
                row["map_kernel_gbps"] = round(gbps, 1)
                if reference:
                    row["map_kernel_ratio_to_copy"] = round(gbps / reference, 3)
        e["runs"].setdefault(mode, []).append(row)
    out_cases = []
    for key in sorted(cases):
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
    res = {"benchmark": "user-defined maps (bench/apps/map)", "what": a.what,
           "command": a.command,
           "collected": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           **device, "copy_reference_gbps": reference, "cases": out_cases}
    if marshal:
        res["marshal"] = {"command": marshal.get("command"), "date": marshal.get("date"),
                          "copies": marshal.get("copies"),
                          "gbps_definition": marshal.get("gbps_definition"),
                          "rows": marshal.get("rows"), "wrong_results": marshal.get("wrong_results")}
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
