#!/usr/bin/env python3
"""Summarises the applications' JSON of bench/scripts/rewrite-bench.sh as rewrite.json.

Per kernel (application case): aos_ms (the application's own AoS kernel, the file
dl-annotate reads), hand_ms (the fastest hand-written layout other than AoS, and which;
the hand-written AoS is in hand_all_ms), rewritten_ms (dl-annotate's rewrite in the
layout it chose, at its fastest tile width T, and which), every variant's times at its
fastest T, and the target's two ratios: rewritten / hand and rewritten / aos (<= 1.05).
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--command", default="")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    out = {"command": a.command, "kernels": []}
    for path in sorted(a.files):
        d = json.load(open(path))
        if path.endswith("/rewrite.json"):
            continue
        for k in ("device", "driver", "platform", "date"):
            out.setdefault(k, d.get(k))
        tag = path.rsplit("/", 1)[-1][len("rewrite-"):-len(".json")]
        for c in d["cases"]:
            rw = c.get("rewritten_ms", {})
            if "rewritten" not in rw:
                continue
            ms = c["kernel_ms"]
            hand = {k: v for k, v in ms.items() if k != "AoS"}
            best_hand = min(hand, key=hand.get)
            times = rw["rewritten"]["ms"]
            best_t = min(times, key=times.get)
            row = {
                "kernel": tag,
                "case": c["case"],
                "aos_ms": c["annotated_aos_ms"],
                "hand_ms": hand[best_hand],
                "hand_layout": best_hand,
                "hand_all_ms": ms,
                "layout_chosen": rw["rewritten"]["layout"],
                "rewritten_ms": times[best_t],
                "rewritten_tile": best_t,
                "rewritten_all_ms": times,
                "variants": {k: v for k, v in rw.items() if k != "rewritten"},
            }
            for k, v in row["variants"].items():
                best = min(v["ms"].values())
                v["best_ms"] = best
                v["over_hand"] = best / row["hand_ms"]
                v["over_aos"] = best / row["aos_ms"]
            row["rewritten_over_hand"] = row["rewritten_ms"] / row["hand_ms"]
            row["rewritten_over_aos"] = row["rewritten_ms"] / row["aos_ms"]
            row["target_met"] = row["rewritten_over_hand"] <= 1.05 and row["rewritten_over_aos"] <= 1.05
            out["kernels"].append(row)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
