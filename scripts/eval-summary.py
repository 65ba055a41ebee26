#!/usr/bin/env python3
"""One line from an `--evaluate --format=json` result, for gpu-check.sh.

    eval-summary.py RESULT.json

Prints "STATUS REF -> CAND ms, SPEEDUPx (noise N%), err E": the medians of
the side-by-side timing and the largest relative L2 error of any output
buffer in any verified instance and seed (how close the candidate came to
the spec's norm bound).
"""

import json
import sys


def norm_errors(node):
    """Every "norm_err" value anywhere under NODE."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "norm_err" and isinstance(value, (int, float)):
                yield value
            else:
                yield from norm_errors(value)
    elif isinstance(node, list):
        for item in node:
            yield from norm_errors(item)


def main():
    d = json.load(open(sys.argv[1]))
    result = d.get("result") or {}
    t = result.get("timing") or {}
    r, c = t.get("reference", {}), t.get("candidate", {})
    errs = list(norm_errors(result))
    err = ", err %.2g" % max(errs) if errs else ""
    print("%s %.4f -> %.4f ms, %.3fx (noise %.1f%%)%s" % (
        d.get("status"), r.get("median_ns", 0) / 1e6,
        c.get("median_ns", 0) / 1e6, t.get("speedup", 0),
        100 * t.get("noise", 0), err))


if __name__ == "__main__":
    main()
