#!/usr/bin/env python3
"""Fails when a transform test's checks would pass on the test's own source.

A transform test runs the tool on its own file and pipes the output into
FileCheck. Unanchored checks are copied into that output as comments, so a
check written as plain text can match itself even when the transform did
nothing. For every FileCheck prefix a test uses that has a positive check
(PREFIX:, -NEXT:, -SAME:, -DAG:, -LABEL:, -EMPTY:), this runs FileCheck
with that prefix on the test's unchanged source; a prefix that passes there
checks nothing. Tests whose output is meant to be their input (a round
trip) are named in ROUND_TRIPS with the prefix and the reason.

Usage: scripts/check-selfmatch.py [--filecheck=PATH] [TEST_DIR]
        (default: test/transforms of this repository)
Exit status 1 when a prefix passes on its own source, else 0.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

from lit_runs import run_lines

# (test file name, prefix): why passing on the source is the point.
ROUND_TRIPS = {
    ("fission.cu", "BACK"):
        "fission then fusion gives back the original, byte for byte",
}

PREFIX_RE = re.compile(r"--check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)")
POSITIVE = ("", "-NEXT", "-SAME", "-DAG", "-LABEL", "-EMPTY", "-COUNT")


def rewrites_own_source(command):
    """True when \p command rewrites the test's own file (%s) and writes
    the result: its output holds the test's check lines as comments."""
    first = command.split("|")[0].strip()
    # A command that must fail prints its error, never the source.
    return ("%s" in first and "--apply" in first and
            not first.startswith("not "))


def prefixes_of(text):
    """The prefixes of the FileCheck calls whose input is a rewrite of the
    test's own source: piped from one, or read from a file one wrote."""
    found, written = [], set()
    for command in run_lines(text):
        stages = command.split("|")
        first = stages[0]
        if rewrites_own_source(first):
            m = re.search(r"-o[= ](\S+)", first)
            if m:
                written.add(m.group(1))
        for i, stage in enumerate(stages):
            if "FileCheck" not in stage:
                continue
            m = re.search(r"(?:--input-file[= ]|<\s*)(\S+)", stage)
            fed = (m.group(1) in written) if m else (
                i > 0 and rewrites_own_source(stages[0]) and
                not re.search(r"-o[= ]", stages[0]))
            if not fed:
                continue
            named = PREFIX_RE.findall(stage)
            names = [p for g in named for p in g.split(",")] or ["CHECK"]
            for name in names:
                if name not in [f[0] for f in found]:
                    found.append((name, options_of(stage)))
    return found


def options_of(stage):
    """The options of a FileCheck call that change what matches
    (--match-full-lines, --strict-whitespace, -D...), without its input
    and prefixes."""
    words = shlex.split(stage[stage.index("FileCheck") + len("FileCheck"):])
    keep = []
    for w in words:
        if w.startswith(("--match-full-lines", "--strict-whitespace",
                         "-strict-whitespace", "-match-full-lines",
                         "--implicit-check-not", "-implicit-check-not",
                         "-D", "--ignore-case")):
            keep.append(w)
    return keep


def has_positive(text, prefix):
    for suffix in POSITIVE:
        if re.search(r"(^|[^A-Za-z0-9_-])" + re.escape(prefix + suffix) +
                     r"(\{[^}]*\})?:", text, re.M):
            return True
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--filecheck", default=None)
    parser.add_argument("dir", nargs="?", default=None)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    test_dir = args.dir or os.path.join(root, "test", "transforms")
    filecheck = (args.filecheck or shutil.which("FileCheck") or
                 "/usr/lib/llvm-22/bin/FileCheck")
    if not os.path.exists(filecheck) and not shutil.which(filecheck):
        print("check-selfmatch: error: FileCheck not found (--filecheck=PATH)",
              file=sys.stderr)
        return 2
    bad, checked = [], 0
    for folder, _, files in sorted(os.walk(test_dir)):
        if os.path.basename(folder) == "Inputs":
            continue
        for name in sorted(files):
            if not name.endswith((".cu", ".test")):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for prefix, options in prefixes_of(text):
                if not has_positive(text, prefix):
                    continue
                checked += 1
                run = subprocess.run(
                    [filecheck, "--check-prefix=" + prefix] + options +
                    ["--input-file=" + path, path],
                    capture_output=True, text=True)
                if run.returncode != 0:
                    continue
                why = ROUND_TRIPS.get((name, prefix))
                if why:
                    print("round trip: %s %s (%s)" % (name, prefix, why))
                    continue
                bad.append("%s: %s" % (os.path.relpath(path, root), prefix))
    for b in bad:
        print("check-selfmatch: %s passes on the test's own source: its "
              "checks would pass if the transform did nothing" % b)
    print("check-selfmatch: %d prefixes checked, %d pass on their own source"
          % (checked, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
