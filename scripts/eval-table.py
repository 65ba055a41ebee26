#!/usr/bin/env python3
"""Summarizes `clang-optiml --evaluate --format=json` outputs as one table.

Usage: eval-table.py eval-NAME.json ...   (NAME is taken from the file name)
Columns: verdict, reference median and spread, candidate median and spread,
speedup with its noise, and the main counters when --metrics was given.
"""
import json
import os
import sys


def pick(d, *keys, default=None):
    for k in keys:
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def ms(side):
    med = pick(side, "median_ns")
    if med is None:
        return "-"
    spread = pick(side, "spread", default=float("nan"))
    return "%.4f ms ±%.1f%%" % (med / 1e6, 100 * spread)


def metric(m, side, *names):
    """A counter of the first profiled instance (docs/Runner.md, metrics)."""
    inst = pick(m, "instances", default=[]) or [{}]
    values = pick(inst[0], side, "values", default={}) or {}
    for n in names:
        v = values.get(n)
        if isinstance(v, (int, float)):
            return v
    return None


def row(name, doc):
    res = doc.get("result", {})
    t = res.get("timing") or {}
    m = res.get("metrics") or {}
    speed = t.get("speedup")
    cells = [
        name,
        "PASS" if doc.get("accepted") else "FAIL(%s)" % doc.get("status"),
        ms(t.get("reference")),
        ms(t.get("candidate")),
        "-" if speed is None else "%.3fx ±%.1f%%%s" % (
            speed, 100 * t.get("noise", float("nan")),
            "" if t.get("significant") else " (noise)"),
    ]
    dram = metric(m, "reference", "dram__bytes_read.sum")
    dramw = metric(m, "reference", "dram__bytes_write.sum")
    dur = metric(m, "reference", "gpu__time_duration.sum")
    if dram is not None and dramw is not None and dur:
        cells.append("%.0f GB/s" % ((dram + dramw) / dur))
    else:
        cells.append("-")
    for key in ("sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                "sm__warps_active.avg.pct_of_peak_sustained_active"):
        v = metric(m, "reference", key)
        cells.append("-" if v is None else "%.1f%%" % v)
    return cells


def main():
    head = ["example", "verify", "reference", "candidate", "speedup",
            "DRAM", "SM%", "Mem%", "occupancy"]
    rows = [head]
    for path in sys.argv[1:]:
        name = os.path.basename(path)[len("eval-"):-len(".json")]
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            rows.append([name, "NO RESULT (%s)" % e.__class__.__name__] + ["-"] * 7)
            continue
        rows.append(row(name, doc))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


if __name__ == "__main__":
    main()
