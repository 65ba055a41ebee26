"""Prints the source file a build compiles into the object whose path ends
with the given suffix, read from the build's compile_commands.json."""
import json
import os
import sys

build, suffix = sys.argv[1], sys.argv[2]
for entry in json.load(open(os.path.join(build, "compile_commands.json"))):
    if entry.get("output", "").endswith(suffix) or \
            suffix in entry.get("command", ""):
        print(entry["file"])
