#!/usr/bin/env python3
"""Converting during upload, measured: dl-bench-upload natively and under dl-run.

    bench/scripts/upload_bench.py --build BUILD --out results.json [--runs 5] [--mib 1024]
                                  [--steps 20] [--chunks default] [--pinned]
                                  [--kernel upload_da.rewritten.cl] [--rows-per-plane H]

Each run (interleaved, in alternating order) starts dl-bench-upload natively, under
`dl-run --policy always` with DL_UPLOAD_CHUNK=0 (the write replaces the buffer in AoS and
the launch after it converts), and under `dl-run --policy always` with each
DL_UPLOAD_CHUNK of --chunks (MiB, or `default`: the write lands in chunks, each converted
as it lands). These runs are timed without a trace; after them each DL mode runs once
more with a trace (DL_TRACE), and from it, per step, the device time of the conversions
and how much of it overlaps the step's transfer (from the first chunk's write to the
last one's end): `hidden_fraction` = overlapping conversion time / conversion time, and
`exposed_conversion_ms_per_step`, the conversion time outside the transfer. The JSON holds
every run's step times and the medians, the device, the date and the command.
--kernel names the rewritten kernel (next to dl-bench-upload): upload.rewritten.cl (ASTA,
the default) or upload_da.rewritten.cl (the records as discrete arrays: uploads into DA),
or upload_diag.rewritten.cl with --rows-per-plane H (planes of H records diagonalized:
uploads into DIAG).
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(cmd, env):
    full = dict(os.environ)
    full.update(env)
    p = subprocess.run(cmd, env=full, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p


def intervals(trace, cat, prefix):
    out = []
    for e in trace:
        if e.get("ph") == "X" and e.get("cat") == cat and e["name"].startswith(prefix):
            out.append((e["ts"], e["ts"] + e["dur"]))
    return sorted(out)


def overlap(a, b):
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def analyse(path):
    """Per step: conversion ms, conversion ms hidden behind the transfer, transfer ms."""
    with open(path) as f:
        trace = json.load(f)["traceEvents"]
    kernels = intervals(trace, "kernel (transformed)", "")
    writes = intervals(trace, "transfer", "upload")
    convs = intervals(trace, "marshal", "")
    steps = []
    # The conversions and writes before each launch belong to its step.
    lo = float("-inf")
    for k in kernels:
        ws = [w for w in writes if lo <= w[0] < k[0]]
        cs = [c for c in convs if lo <= c[0] < k[0]]
        lo = k[0]
        conv = sum(c[1] - c[0] for c in cs)
        span = (ws[0][0], ws[-1][1]) if ws else None
        hidden = sum(overlap(c, span) for c in cs) if span else 0.0
        steps.append({"conversion_ms": conv / 1e3, "hidden_ms": hidden / 1e3,
                      "transfer_ms": (span[1] - span[0]) / 1e3 if span else 0.0,
                      "chunks": len(ws)})
    return steps[1:]  # step 0 converts at its launch in every mode (the buffer was AoS)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--chunks", default="default")
    ap.add_argument("--pinned", action="store_true")
    ap.add_argument("--kernel", default="upload.rewritten.cl")
    ap.add_argument("--rows-per-plane", type=int, default=0)
    a = ap.parse_args()
    app = os.path.join(a.build, "bench", "upload", "dl-bench-upload")
    dlrun = os.path.join(a.build, "src", "interpose", "dl-run")
    base = [app, "--mib", str(a.mib), "--steps", str(a.steps),
            "--kernel", os.path.join(os.path.dirname(app), a.kernel)] + (["--pinned"] if a.pinned else [])
    if a.rows_per_plane:
        base += ["--rows-per-plane", str(a.rows_per_plane)]
    modes = [("native", None), ("convert_at_launch", "0")] + [
        ("upload_chunk_" + c + ("" if c == "default" else "mib"),
         "" if c == "default" else str(int(c) << 20)) for c in a.chunks.split(",")]
    tmp = tempfile.mkdtemp(prefix="dl-upload-")
    results = {m: {"runs": []} for m, _ in modes}
    device = None

    def one(name, chunk, tag, trace=None):
        js = os.path.join(tmp, f"{name}-{tag}.json")
        if chunk is None:
            run(base + ["--json", js], {})
        else:
            env = {"DL_UPLOAD_CHUNK": chunk} if chunk else {}
            cmd = [dlrun, "--policy", "always"] + (["--trace", trace] if trace else [])
            run(cmd + ["--"] + base + ["--json", js], env)
        with open(js) as f:
            return json.load(f)

    for r in range(a.runs):
        order = modes if r % 2 == 0 else list(reversed(modes))
        for name, chunk in order:
            j = one(name, chunk, str(r))
            device = device or {k: j[k] for k in ("device", "driver", "platform")}
            results[name]["runs"].append(
                {"step_ms": j["step_ms"], "kernel_ms": j["kernel_ms"],
                 "plain_write_wall_ms": j["plain_write_wall_ms"],
                 "plain_write_device_ms": j["plain_write_device_ms"]})
            print(f"run {r} {name}: step {statistics.median(j['step_ms']):.2f} ms", flush=True)
    for name, chunk in modes:
        if chunk is not None:
            trace = os.path.join(tmp, f"{name}.trace.json")
            j = one(name, chunk, "traced", trace)
            results[name]["traced_run"] = {"step_ms": j["step_ms"], "steps": analyse(trace)}
    for name, _ in modes:
        runs = results[name]["runs"]
        res = results[name]
        res["median_step_ms"] = statistics.median(statistics.median(x["step_ms"]) for x in runs)
        res["median_kernel_ms"] = statistics.median(statistics.median(x["kernel_ms"]) for x in runs)
        res["median_plain_write_ms"] = statistics.median(
            statistics.median(x["plain_write_wall_ms"]) for x in runs)
        steps = res.get("traced_run", {}).get("steps", [])
        if steps:
            conv = sum(s["conversion_ms"] for s in steps)
            res["conversion_ms_per_step"] = conv / len(steps)
            res["hidden_fraction"] = sum(s["hidden_ms"] for s in steps) / conv if conv else 0.0
            res["exposed_conversion_ms_per_step"] = sum(
                s["conversion_ms"] - s["hidden_ms"] for s in steps) / len(steps)
            res["transfer_ms_per_step"] = statistics.median(s["transfer_ms"] for s in steps)
            res["chunks_per_step"] = statistics.median(s["chunks"] for s in steps)
    out = {"tool": "bench/scripts/upload_bench.py",
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "command": " ".join(sys.argv), "device": device, "mib": a.mib, "steps": a.steps,
           "runs": a.runs, "pinned": a.pinned, "kernel": a.kernel,
           "rows_per_plane": a.rows_per_plane, "modes": results}
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    for name, _ in modes:
        res = results[name]
        extra = ""
        if "hidden_fraction" in res:
            extra = (f", conversion {res['conversion_ms_per_step']:.3f} ms/step, hidden "
                     f"{res['hidden_fraction']:.2f}")
        print(f"{name}: step {res['median_step_ms']:.2f} ms{extra}")


if __name__ == "__main__":
    main()
