#!/usr/bin/env python3
"""Merges corpus runs into one table: the latest run that measured a kernel
gives its row.

Usage: corpus-merge.py BASE.md LABEL=RUN.jsonl ...

BASE.md is an earlier merged table (one of the dated pages in
benchmarks/results/archive/, e.g. *-corpus-reruns-*.md: rows
`| file | `kernel` | speedup | before | roofline | run | trace |`);
each RUN.jsonl is the corpus.jsonl that scripts/gpu-check.sh writes, later
runs last. Prints the merged table, then the summary line: kernels, how
many reach 1.1x, the geomean and the median. scripts/results-page.py uses
merge_run() and table_lines() for benchmarks/results/corpus.md.
"""
import json
import math
import statistics
import sys


def base_rows(path):
    rows = {}
    for line in open(path):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 9 or not cells[2].startswith("`"):
            continue
        try:
            speedup = float(cells[3].rstrip("x"))
        except ValueError:
            continue
        kernel = cells[2].strip("`")
        rows[kernel] = {
            "file": cells[1], "kernel": kernel, "speedup": speedup,
            "before": cells[4], "roofline": cells[5], "run": cells[6],
            "trace": cells[7].strip("`")}
    return rows


GOAL = 1.1


def speedup_text(s):
    """Two decimals, or four where two would round a miss up to the goal
    (1.0997 is no 1.10x)."""
    text = "%.2fx" % s
    if s < GOAL and float(text.rstrip("x")) >= GOAL:
        text = "%.4fx" % s
    return text


def percent(x):
    return "%.1f%%" % (100 * x)


def merge_run(rows, label, records):
    """Puts each record of one run (a corpus.jsonl row) in its kernel's
    place; the row it replaces becomes its "before"."""
    for r in records:
        old = rows.get(r["kernel"])
        rows[r["kernel"]] = {
            "file": r["file"], "kernel": r["kernel"],
            "speedup": r["speedup"],
            "before": "%.2fx" % old["speedup"] if old else "",  # the previous table's
            "roofline": percent(r["roofline_original"]) + " -> " +
            percent(r["roofline_best"]),
            "run": label, "trace": r["trace"] or "(original kept)"}
    return rows


def table_lines(rows):
    """The merged table, a blank line and the summary line."""
    out = ["| file | kernel | speedup | before | roofline before -> after "
           "| run | best trace |",
           "|---|---|---:|---:|---|---|---|"]
    for r in sorted(rows.values(), key=lambda r: (r["file"], r["kernel"])):
        out.append("| %s | `%s` | %s | %s | %s | %s | `%s` |" % (
            r["file"], r["kernel"], speedup_text(r["speedup"]), r["before"],
            r["roofline"], r["run"], r["trace"]))
    speedups = [r["speedup"] for r in rows.values()]
    hits = sum(s >= GOAL for s in speedups)
    geo = math.exp(sum(math.log(max(s, 1e-9)) for s in speedups) /
                   len(speedups))
    out += ["", "**Summary.** Kernels %d; >=1.1x: %d (%d%%); geomean %.2fx; "
            "median %.2fx." % (len(speedups), hits,
                               round(100 * hits / len(speedups)), geo,
                               statistics.median(speedups))]
    return out


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    rows = base_rows(argv[1])
    for arg in argv[2:]:
        label, _, path = arg.partition("=")
        merge_run(rows, label, (json.loads(line) for line in open(path)))
    print("\n".join(table_lines(rows)))


if __name__ == "__main__":
    main(sys.argv)
