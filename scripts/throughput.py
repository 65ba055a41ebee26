#!/usr/bin/env python3
"""Where a search's time goes, from its --report JSON files.

    scripts/throughput.py REPORT.json [REPORT.json ...] [--per-candidate]

For each report: candidates measured (and answered by a twin's measurement:
the same machine code as a measured one, no GPU time), wall seconds,
candidates a minute (both kinds), and the mean seconds of each stage per
measured candidate: "rewrite" (the step
and the re-parse), "build" (nvcc; the batch's builds run in parallel, so
their sum exceeds the wall time they took), "run" (the candidate's plan in
the runner, from request to result: a process of its own with
--runner=process, a turn of the search's worker by default) and the
runner's own stages inside it (load, device, verify, time,
energy, metrics). "screened" counts the candidates whose timing stopped early
because they could not be the best, "counters" those that got a metrics
pass. --per-candidate adds one line per candidate.
"""
import json
import sys

TOOL_STAGES = ["rewrite", "build", "run"]
RUNNER_STAGES = ["load", "device", "verify", "time", "energy", "metrics"]


def summarize(path):
    d = json.load(open(path))
    # A twin's answer (the same machine code as a measured candidate) has
    # the rewrite and build stages and no GPU time: not a measurement.
    points = [p for p in d.get("series", [])
              if p.get("stages") and not p.get("twin_of")]
    twins = sum(1 for p in d.get("series", []) if p.get("twin_of"))
    wall = d.get("wall_seconds")
    n = len(points)
    mean = {}
    for stage in TOOL_STAGES + RUNNER_STAGES:
        values = [p["stages"][stage] for p in points if stage in p["stages"]]
        if values:
            mean[stage] = sum(values) / n
    return {
        "report": path,
        "kernel": d.get("kernel"),
        "measured": n,
        "twins": twins,
        "wall_seconds": wall,
        "per_minute": 60.0 * (n + twins) / wall if wall else None,
        "best_speedup": d.get("best_speedup"),
        "screened": sum(1 for p in points if p.get("stop_reason") == "screened"),
        "counters": sum(1 for p in points if "metrics" in p["stages"]),
        "mean_seconds": mean,
        "points": points,
    }


def stage_text(mean):
    return ", ".join("%s %.2f" % (s, mean[s])
                     for s in TOOL_STAGES + RUNNER_STAGES if s in mean)


def main(argv):
    per_candidate = "--per-candidate" in argv
    paths = [a for a in argv if a != "--per-candidate"]
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in paths:
        try:
            s = summarize(path)
        except (OSError, ValueError, KeyError) as e:
            print("throughput: %s: %s" % (path, e), file=sys.stderr)
            return 1
        rate = "n/a" if s["per_minute"] is None else "%.1f" % s["per_minute"]
        wall = "n/a" if s["wall_seconds"] is None else "%.0f s" % s["wall_seconds"]
        twins = (" + %d answered by a twin's measurement" % s["twins"]
                 if s["twins"] else "")
        print("%s: %d measured%s in %s, %s a minute, best %.2fx; %d screened, "
              "%d with counters; mean s: %s" %
              (s["kernel"], s["measured"], twins, wall, rate, s["best_speedup"],
               s["screened"], s["counters"], stage_text(s["mean_seconds"])))
        if per_candidate:
            for p in s["points"]:
                print("  #%d %-40s %-10s %s" %
                      (p["evaluation"], (p.get("trace") or "(original)")[:40],
                       p.get("stop_reason") or p["status"],
                       stage_text(p["stages"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
