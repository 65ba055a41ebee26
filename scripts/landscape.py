#!/usr/bin/env python3
"""Merges the landscapes recorded in search reports into one table.

Every report clang-optiml writes (OUT.report.json, and each strategy's report
of a --compare run) holds "landscape": the states its search measured, with
their moves and what each came to (RecordedLandscape.h). This merges the
reports of one kernel on one GPU into a SimulatedEnvironment table, which
optiml-replay runs the strategies on:

  scripts/landscape.py opt-sgemm-compare.*.json -o sgemm.table.json
  build/bin/optiml-replay sgemm.table.json --budget 10 -j 4

A move no report tried stays "untried": the replay guesses that it leads
to a state as fast as the one it starts from, with no moves of its own. A
replay that relies on such guesses says more about the guess than about
the kernel, and the script prints how many untried moves there are.
--lean leaves the moves' motivations out, for tables kept in the
repository (benchmarks/landscapes/).
"""
import argparse
import json
import sys


def merge(reports):
    """The union of the reports' landscapes (the first report of a state
    gives its time; any report that tried a move gives its outcome), and
    their retunes."""
    root, noise, states, retunes = None, None, {}, {}
    for path, report in reports:
        land = report.get("landscape")
        if not land:
            print(f"{path}: no landscape (an older report, or the original "
                  "was not timed)", file=sys.stderr)
            continue
        if root is None:
            root, noise = land["root"], land.get("noise", 0.01)
        elif land["root"] != root:
            sys.exit(f"{path}: another original ({land['root'][:12]}, not "
                     f"{root[:12]}): one kernel's reports only")
        for made, others in land.get("retunes", {}).items():
            retunes.setdefault(made, others)
        # Reports before the landscape kept twins name them in the series.
        twins = {p["hash"]: p["twin_of"] for p in report.get("series", [])
                 if p.get("twin_of")}
        for name, state in land["states"].items():
            known = states.setdefault(name, dict(state, actions=[]))
            if name in twins:
                known.setdefault("twin_of", twins[name])
            seen = {a["step"]: a for a in known["actions"]}
            for action in state.get("actions", []):
                mine = seen.get(action["step"])
                if mine is None:
                    known["actions"].append(dict(action))
                    seen[action["step"]] = known["actions"][-1]
                elif mine.get("untried") and not action.get("untried"):
                    mine.clear()
                    mine.update(action)
    if root is None:
        sys.exit("no report had a landscape")
    return root, noise, states, retunes


def untried(states):
    """Marks a move to a state no report holds (one still in flight when
    its search stopped) untried like the moves nobody tried; returns how
    many untried moves there are. The replay guesses where they lead."""
    count = 0
    for state in states.values():
        for action in state["actions"]:
            if "to" in action and action["to"] not in states:
                del action["to"]
                action["untried"] = True
            count += bool(action.get("untried"))
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+", help="report JSON files")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--lean", action="store_true",
                        help="leave the moves' motivations out")
    args = parser.parse_args()
    reports = []
    for path in args.reports:
        try:
            with open(path) as f:
                reports.append((path, json.load(f)))
        except (OSError, ValueError) as e:
            sys.exit(f"{path}: {e}")
    root, noise, states, retunes = merge(reports)
    moves = untried(states)
    if args.lean:
        for state in states.values():
            for action in state["actions"]:
                action.pop("motivation", None)
    with open(args.output, "w") as f:
        table = {"root": root, "noise": noise, "states": states}
        if retunes:
            table["retunes"] = retunes
        json.dump(table, f, separators=(",", ":"))
        f.write("\n")
    print(f"{args.output}: {len(states)} states measured, {moves} moves "
          "untried")


if __name__ == "__main__":
    main()
