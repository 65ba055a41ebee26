"""Applies every legal (transform, site) that `--list-sites --format=json`
reports for each example, then checks that each result compiles with nvcc.
(--apply has parsed the rewritten kernel again before writing it; nvcc
also sees the written file as formatted.)

usage: apply_all_sites.py TOOL NVCC_COMMAND OUT_DIR EXAMPLE.cu...
Prints one line per result and a summary; exits non-zero on any failure.
"""
import json
import os
import shlex
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def check_one(tool, nvcc, out_dir, example, entry, index):
    stem = os.path.splitext(os.path.basename(example))[0]
    out = os.path.join(out_dir, "%s.%d.cu" % (stem, index))
    steps = [
        ("apply", [tool, example, "--apply=" + entry["apply"], "-o", out]),
        ("nvcc", nvcc + ["-c", out, "-o", out + ".o"]),
    ]
    for what, cmd in steps:
        r = run(cmd)
        if r.returncode != 0:
            return "FAIL %s: %s: %s\n%s" % (what, stem, entry["apply"],
                                             r.stdout + r.stderr)
    return None


def main():
    tool, nvcc, out_dir = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
    os.makedirs(out_dir, exist_ok=True)
    total, failures = 0, []
    for example in sys.argv[4:]:
        listing = run([tool, example, "--list-sites", "--format=json"])
        if listing.returncode != 0:
            failures.append("FAIL list-sites: %s\n%s" % (example, listing.stderr))
            continue
        for entry in json.loads(listing.stdout):
            if not entry["legal"]:
                continue
            total += 1
            failure = check_one(tool, nvcc, out_dir, example, entry, total)
            print("%s %s" % ("FAIL" if failure else "ok", entry["apply"]))
            if failure:
                failures.append(failure)
    for f in failures:
        print(f)
    print("%d results, %d failed" % (total, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
