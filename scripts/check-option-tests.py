#!/usr/bin/env python3
"""Fails when an option of clang-optiml is passed to it by no test.

The options are the tool's own: those `--help` lists, and those that
`--help-hidden` adds outside LLVM's "Generic Options" (--print-options and
the like belong to LLVM's parser, not to OptiML). An option counts as
tested when a RUN line of a lit test passes it to the tool: it follows
`%clang-optiml` in the same command (up to the next pipe, `;` or `&&`);
an option in a comment or a check line does not count.
Tests that need a GPU (`REQUIRES: gpu`) do not count: CI has none, so what
they pass is never run there. Files under Inputs/ are not tests.

Usage: scripts/check-option-tests.py --tool=PATH [TEST_DIR]
        (default: test/ of this repository)
Prints the options no test passes, one a line, and exits with 1 when there
are any; else one line saying how many were found tested.
"""
import argparse
import os
import re
import subprocess
import sys

from lit_runs import run_lines

TEST_SUFFIXES = (".test", ".cu")
OPTION_LINE = re.compile(r"^ {2,4}(-{1,2}[A-Za-z][A-Za-z0-9-]*)")
HEADING = re.compile(r"^\S.*:$")


def options_of(help_text, keep_generic):
    """The options a help text lists, by heading; those under "Generic
    Options" only when \\p keep_generic."""
    found, heading = [], ""
    for line in help_text.splitlines():
        if HEADING.match(line):
            heading = line
            continue
        m = OPTION_LINE.match(line)
        if not m:
            continue
        if heading.startswith("Generic Options") and not keep_generic:
            continue
        found.append(m.group(1))
    return found


def tool_options(tool):
    def run(flag):
        return subprocess.run([tool, flag], capture_output=True, text=True,
                              check=True).stdout
    shown = options_of(run("--help"), keep_generic=True)
    hidden = options_of(run("--help-hidden"), keep_generic=False)
    return sorted(set(shown) | set(hidden))


# The tool's substitution; "%%clang-optiml" is lit's escape for the text
# itself (a test that writes a test), which runs nothing.
TOOL = re.compile(r"(?<!%)%clang-optiml")


def tool_commands(command):
    """The parts of \\p command that are arguments of the tool."""
    parts = []
    for piece in re.split(r"\|\||\||;|&&", command):
        m = TOOL.search(piece)
        if m:
            parts.append(piece[m.end():])
    return parts


def needs_gpu(text):
    for m in re.finditer(r"REQUIRES:(.*)$", text, re.MULTILINE):
        if "gpu" in [f.strip() for f in m.group(1).split(",")]:
            return True
    return False


def tests_in(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "Inputs")
        for name in sorted(filenames):
            if name.endswith(TEST_SUFFIXES):
                yield os.path.join(dirpath, name)


def passes(argument_text, option):
    """Whether \\p option is one of the arguments: `--opt`, `--opt=v`,
    `-opt v`, also in quotes."""
    name = re.escape(option)
    return re.search(r"(?:^|[\s'\"])" + name + r"(?=$|[\s='\"])",
                     argument_text) is not None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True)
    parser.add_argument("tests", nargs="?",
                        default=os.path.join(os.path.dirname(__file__), "..",
                                             "test"))
    args = parser.parse_args()

    arguments = []
    for path in tests_in(args.tests):
        with open(path, errors="replace") as f:
            text = f.read()
        if needs_gpu(text):
            continue
        for command in run_lines(text):
            arguments.extend(tool_commands(command))
    everything = " \n ".join(arguments)

    options = tool_options(args.tool)
    untested = [o for o in options if not passes(everything, o)]
    for o in untested:
        print("untested: %s (no RUN line of a test passes it to clang-optiml)"
              % o)
    print("check-option-tests: %d options, %d passed to clang-optiml by a "
          "test, %d by none" % (len(options), len(options) - len(untested),
                                len(untested)))
    return 1 if untested else 0


if __name__ == "__main__":
    sys.exit(main())
