#!/usr/bin/env python3
"""Merges the landscapes recorded in search reports into one table.

Every report clang-optiml writes (OUT.report.json, and each strategy's report
of a --compare run) holds "landscape": the states its search measured, with
their moves and what each came to (RecordedLandscape.h). This merges the
reports of one kernel on one GPU into a SimulatedEnvironment table, which
optiml-replay runs the strategies on:

  scripts/landscape.py opt-sgemm-compare.*.json -o sgemm.table.json
  build/bin/optiml-replay sgemm.table.json --budget 10 -j 4

A move no report tried leads to a guessed state, as fast as the state it
starts from and with no moves of its own ("guessed": true): a replay that
relies on such states says more about the guess than about the kernel, and
the script prints how many there are.
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
        for name, state in land["states"].items():
            known = states.setdefault(name, dict(state, actions=[]))
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


def fill(states):
    """Gives every untried move, and every move to a state no report holds,
    a guessed state: the starting state's time, no moves. Returns how many."""
    guessed = 0
    for name, state in list(states.items()):
        for action in state["actions"]:
            if action.get("untried") or action.get("to", name) not in states:
                action.pop("untried", None)
                target = action.get("to") or f"guess:{name[:12]}:{action['step']}"
                action["to"] = target
                if target not in states:
                    states[target] = {"status": "ok", "guessed": True,
                                      "time_ns": state.get("time_ns") or 1.0,
                                      "actions": []}
                    guessed += 1
    return guessed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+", help="report JSON files")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    reports = []
    for path in args.reports:
        try:
            with open(path) as f:
                reports.append((path, json.load(f)))
        except (OSError, ValueError) as e:
            sys.exit(f"{path}: {e}")
    root, noise, states, retunes = merge(reports)
    measured = sum(1 for s in states.values() if not s.get("guessed"))
    guessed = fill(states)
    with open(args.output, "w") as f:
        table = {"root": root, "noise": noise, "states": states}
        if retunes:
            table["retunes"] = retunes
        json.dump(table, f, indent=1)
    print(f"{args.output}: {measured} states measured, {guessed} guessed")


if __name__ == "__main__":
    main()
