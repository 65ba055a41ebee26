#!/usr/bin/env python3
"""MCTS, greedy and random side by side, from gpu-check's strategy reports.

    scripts/strategy-table.py SOURCE [SOURCE ...] [--jsonl OUT.jsonl]
                              [--seeds N]

A SOURCE is a logs folder of `gpu-check.sh strategies`, whose runs are
either one --compare per example (opt-<example>-compare.compare.json) or
one process per run (opt-<example>-<strategy>-seed<N>.json whose .rc says
0), or a .jsonl of rows that gpu-check wrote (strategies.jsonl) or this
script did (--jsonl). A later SOURCE's run replaces an earlier one's (a
call that reran what an earlier call cut short). It prints one Markdown row per example
whose three strategies all finished (every seed of random that ran): the
best speedup of MCTS and greedy (their first seed) and random's mean over
its seeds with min..max, the candidates measured on the GPU (the rest came
from the example's shared database) and which strategy is ahead. Then the
geometric means and the counts of examples where MCTS is at least as good
as each other strategy, within 1% (the noise the search itself accepts),
over the examples where random ran all N seeds (--seeds, 5; the others are
marked "partial"). --jsonl writes one line per run.
"""
import glob
import json
import math
import os
import re
import sys

RUN = re.compile(r"opt-(?P<name>.+)-(?P<strategy>mcts|greedy|random)-seed(?P<seed>\d+)\.json$")
TIE = 0.01


def compared(path):
    """The rows of one --compare table."""
    name = os.path.basename(path)[len("opt-"):-len("-compare.compare.json")]
    for r in json.load(open(path))["runs"]:
        yield {"kernel": name, "strategy": r["strategy"],
               "seed": r["seed"] or 1, "speedup": r["best_speedup"],
               "measured": r["evaluated"], "cached": r["cached"],
               "failed": r["failed"], "seconds": round(r["seconds"]),
               "trace": r["best_trace"]}


def runs(sources):
    """One run per (kernel, strategy, seed): a later source's replaces an
    earlier one's."""
    out = {}
    for d in sources:
        if d.endswith(".jsonl"):
            for line in open(d):
                if line.strip():
                    r = json.loads(line)
                    out[(r["kernel"], r["strategy"], str(r["seed"]))] = r
            continue
        for path in sorted(glob.glob(os.path.join(d, "opt-*-compare.compare.json"))):
            for r in compared(path):
                out[(r["kernel"], r["strategy"], str(r["seed"]))] = r
        for path in sorted(glob.glob(os.path.join(d, "opt-*-seed*.json"))):
            m = RUN.search(os.path.basename(path))
            rc = path[:-5] + ".rc"
            if not m or not os.path.exists(rc) or open(rc).read().strip() != "0":
                continue
            r = json.load(open(path))
            secs = path[:-5] + ".seconds"
            out[(m["name"], m["strategy"], m["seed"])] = ({
                "kernel": m["name"], "strategy": m["strategy"],
                "seed": int(m["seed"]), "speedup": r["best_speedup"],
                "measured": r["evaluated"], "cached": r.get("cached", 0),
                "failed": r["failed"], "device": r.get("device"),
                "seconds": int(open(secs).read()) if os.path.exists(secs) else None,
                "trace": r["best_trace"]})
    return list(out.values())


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def table_lines(rows, seeds=5):
    """The Markdown table of RUNS' rows, then the geometric means and the
    counts (scripts/results-page.py uses it for benchmarks/results/)."""
    out = []
    by = {}
    for r in rows:
        by.setdefault(r["kernel"], {}).setdefault(r["strategy"], []).append(r)
    out.append("| kernel | mcts | greedy | random (mean, min..max, seeds) | measured | ahead |")
    out.append("|---|---:|---:|---:|---:|---|")
    kept = []
    for k in sorted(by):
        s = by[k]
        if not all(x in s for x in ("mcts", "greedy", "random")):
            continue
        mc = min(s["mcts"], key=lambda r: r["seed"])["speedup"]
        gr = min(s["greedy"], key=lambda r: r["seed"])["speedup"]
        rs = [r["speedup"] for r in s["random"]]
        rm = sum(rs) / len(rs)
        measured = sum(r["measured"] for v in s.values() for r in v)
        best = max(mc, gr, rm)
        ahead = [n for n, v in (("mcts", mc), ("greedy", gr), ("random", rm))
                 if v >= best * (1 - TIE)]
        partial = len(rs) < seeds
        if not partial:
            kept.append((mc, gr, rm))
        out.append("| %s | %.2fx | %.2fx | %.2fx (%.2f..%.2f, %d) | %d | %s |" % (
            k, mc, gr, rm, min(rs), max(rs), len(rs), measured,
            "partial" if partial else " = ".join(ahead)))
    if kept:
        n = len(kept)
        out.append("")
        out.append("Geometric mean over the %d kernels with %d random seeds: mcts %.3fx, greedy %.3fx, random %.3fx" % (
            n, seeds, geomean([m for m, _, _ in kept]), geomean([g for _, g, _ in kept]),
            geomean([r for _, _, r in kept])))
        out.append("MCTS at least as good (within %d%%): as greedy on %d of %d, as random's mean on %d of %d" % (
            TIE * 100, sum(m >= g * (1 - TIE) for m, g, _ in kept), n,
            sum(m >= r * (1 - TIE) for m, _, r in kept), n))
    return out


def main(argv):
    jsonl, seeds = None, 5
    if "--jsonl" in argv:
        i = argv.index("--jsonl")
        jsonl = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if "--seeds" in argv:
        i = argv.index("--seeds")
        seeds = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = runs(argv)
    if jsonl:
        with open(jsonl, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print("\n".join(table_lines(rows, seeds)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
