#!/usr/bin/env python3
"""Checks the form of what scripts/new-transform.py wrote, without a rebuild.

    check-scaffold.py ROOT FOLDER BUILD LISTING

ROOT is the tree the scaffold wrote into, FOLDER the new transform's folder,
BUILD the build directory (its compile_commands.json gives the flags the
transform library compiles with) and LISTING the output of
`clang-optiml --list-transforms --format=json`, whose entries have the
descriptor schema. It checks that the descriptor has exactly the fields and
kinds of value the tool's descriptors have, and that every new .cpp compiles
(-fsyntax-only) with the library's flags, the new folder found first. One
line per problem on stderr and exit 1; "scaffold ok" otherwise.
"""

import json
import os
import shlex
import subprocess
import sys


def fail(message):
    sys.stderr.write("check-scaffold: %s\n" % message)
    sys.exit(1)


def check_descriptor(path, listing):
    with open(path, encoding="utf-8") as f:
        new = json.load(f)
    with open(listing, encoding="utf-8") as f:
        known = json.load(f)
    if not known:
        fail("%s lists no transform" % listing)
    fields = sorted(known[0])
    if sorted(new) != fields:
        fail("%s has fields %s, the tool's descriptors %s" %
             (path, sorted(new), fields))
    for key in fields:
        if type(new[key]) is not type(known[0][key]):
            fail("%s: '%s' is a %s, not a %s" %
                 (path, key, type(new[key]).__name__,
                  type(known[0][key]).__name__))
    if new["name"] in [t["name"] for t in known]:
        fail("%s reuses the name '%s'" % (path, new["name"]))


def library_command(build):
    """The compile command of a transform library source, as argv."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    for e in entries:
        if os.sep + "transforms" + os.sep in e["file"] and \
                e["file"].endswith(".cpp"):
            argv = e.get("arguments") or shlex.split(e["command"])
            if os.path.basename(argv[0]) == "ccache":
                argv = argv[1:]
            return argv, e["file"], e["directory"]
    fail("no transforms/ source in %s/compile_commands.json" % build)


def syntax_check(root, folder, build):
    argv, file, directory = library_command(build)
    flags = []
    skip = False
    for a in argv[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = a != "-c"
            continue
        if a == file or a.startswith("-o") or a in ("-MD", "-MMD"):
            continue
        flags.append(a)
    sources = sorted(f for f in os.listdir(os.path.join(root, "transforms", folder))
                     if f.endswith(".cpp"))
    if len(sources) < 2:
        fail("transforms/%s has %d .cpp files, not the transform and its "
             "legality" % (folder, len(sources)))
    for source in sources:
        path = os.path.join(root, "transforms", folder, source)
        cmd = [argv[0], "-I" + root] + flags + ["-fsyntax-only", path]
        run = subprocess.run(cmd, cwd=directory, capture_output=True, text=True)
        if run.returncode != 0:
            fail("%s does not compile:\n%s" % (path, run.stderr))


def main():
    if len(sys.argv) != 5:
        fail("usage: check-scaffold.py ROOT FOLDER BUILD LISTING")
    root, folder, build, listing = sys.argv[1:]
    check_descriptor(os.path.join(root, "transforms", folder, folder + ".json"),
                     listing)
    syntax_check(root, folder, build)
    print("scaffold ok")


if __name__ == "__main__":
    main()
