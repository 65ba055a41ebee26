#!/usr/bin/env python3
"""Compares OptiML's CUPTI kernel timings with Nsight Compute's.

Usage: ncu-compare.py NAME ncu.csv eval.json
ncu.csv:   `ncu --clock-control none --csv --metrics gpu__time_duration.sum`
           over a run of the same kernel on the same instance;
eval.json: `clang-optiml --evaluate --format=json` of that kernel.
Prints one line: NAME, ncu median, runner median, their ratio, and whether
they agree within 10%. Exits 1 when they do not.
"""
import csv
import json
import statistics
import sys

UNITS = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3,
         "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9}


def ncu_durations(path):
    out = []
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for rec in csv.DictReader(lines):
        if rec.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = float(rec["Metric Value"].replace(",", ""))
        out.append(value * UNITS.get(rec.get("Metric Unit", "nsecond"), 1.0))
    return out


def main():
    name, csv_path, eval_path = sys.argv[1:4]
    durations = ncu_durations(csv_path)
    with open(eval_path) as f:
        doc = json.load(f)
    runner = doc.get("result", {}).get("timing", {}).get("reference", {}).get("median_ns")
    if not durations or not runner:
        print("%-10s ncu or runner timing missing (%d ncu samples)" % (name, len(durations)))
        return 1
    ncu = statistics.median(durations)
    ratio = runner / ncu
    ok = abs(ratio - 1.0) <= 0.10
    print("%-10s ncu %.4f ms (n=%d)  runner %.4f ms  runner/ncu %.3f  %s" % (
        name, ncu / 1e6, len(durations), runner / 1e6, ratio,
        "agree" if ok else "DISAGREE"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
