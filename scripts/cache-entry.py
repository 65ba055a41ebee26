#!/usr/bin/env python3
"""Writes one results-cache entry by hand (docs/CMake.md, format version 1).

For tests and examples on machines without a GPU: the entry's kernel is the
output of a real `clang-optiml --apply=STEPS --format-style=none` rewrite
(a hit replays the steps and compares the unformatted text), its key comes from
the miss line `clang-optiml FILE --use-cache` printed for the kernel, and
its measurement fields (--gpu, --cuda, --speedup) are whatever you say, so
say that they were not measured. On a GPU machine use --optimize, which
stores measured results, and --export-cache instead.

Usage:
  cache-entry.py --source K.cu --rewritten K.opt.cu --kernel NAME \
      --steps 'restrict(site=NAME)' --miss-log MISS.txt --into CACHE.json \
      [--gpu G] [--cuda C] [--speedup S] [--flags F]

The kernel's text runs from the line of its `#pragma optiml` mark to its
closing brace (template kernels are not handled here).
"""
import argparse
import hashlib
import json
import os
import re
import sys


def fail(message):
    print("cache-entry: error: " + message, file=sys.stderr)
    sys.exit(1)


def kernel_text(path, name):
    text = open(path, encoding="utf-8").read()
    head = re.search(r"__global__[^;{]*?\b" + re.escape(name) + r"\s*\(", text)
    if not head:
        fail("%s: no kernel '%s'" % (path, name))
    mark = text.rfind("#pragma optiml", 0, head.start())
    if mark < 0:
        fail("%s: kernel '%s' has no #pragma optiml mark" % (path, name))
    begin = text.rfind("\n", 0, mark) + 1
    depth, i = 0, text.index("{", head.end())
    while True:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            return text[begin:i]


def project_version():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    cmake = open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8").read()
    return re.search(r"project\(OptiML VERSION ([0-9.]+)", cmake).group(1)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True)
    p.add_argument("--rewritten", required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--steps", required=True, help="'a(site=..); b(site=..)'")
    p.add_argument("--miss-log", required=True)
    p.add_argument("--into", required=True)
    p.add_argument("--gpu", default="unmeasured")
    p.add_argument("--cuda", default="")
    p.add_argument("--speedup", type=float, default=1.0)
    p.add_argument("--flags", default="")
    p.add_argument("--tool", default="",
                   help="OptiML's version (default: this checkout's)")
    a = p.parse_args()

    miss = re.search(r"clang-optiml: " + re.escape(a.kernel) +
                     r": cache miss: no result for kernel ([0-9a-f]{64}) "
                     r"spec ([0-9a-f]{64}) on (\S+)",
                     open(a.miss_log, encoding="utf-8").read())
    if not miss:
        fail("%s: no miss line for '%s'" % (a.miss_log, a.kernel))
    kernel_hash, spec_hash, arch = miss.groups()
    original = kernel_text(a.source, a.kernel)
    if hashlib.sha256(original.encode()).hexdigest() != kernel_hash:
        fail("the kernel's text in %s does not hash to the tool's key" % a.source)

    cache = {"format": "optiml-results", "version": 1, "results": []}
    if os.path.exists(a.into):
        cache = json.load(open(a.into, encoding="utf-8"))
    cache["results"].append({
        "kernel": a.kernel,
        "kernel_hash": kernel_hash,
        "spec_hash": spec_hash,
        "arch": arch,
        "gpu": a.gpu,
        "cuda": a.cuda,
        "tool": a.tool or project_version(),
        "flags": a.flags,
        "steps": [s.strip() for s in a.steps.split(";") if s.strip()],
        "result": kernel_text(a.rewritten, a.kernel),
        "speedup": a.speedup,
        "created_at": 0,
    })
    with open(a.into, "w", encoding="utf-8") as f:
        json.dump(cache, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
