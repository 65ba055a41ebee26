#!/usr/bin/env python3
"""How many of a model's proposals OptiML can use, with and without the schema.

Usage: scripts/llm-proposal-share.py [--tool PATH] [--url URL] [-n N]
           [--max-tokens T] [--timeout S] [--modes auto,off] [--json OUT]
           [FILE[:KERNEL] ...]

Asks `clang-optiml --propose -n N` of the model at URL (an OpenAI-compatible
endpoint, default: the one scripts/llm-server.sh started) for every marked
kernel of the given files (default: every example and the ten corpus kernels
below), once per mode of --llm-schema, each in a fresh database so that no
answer comes from the cache. Kernels come from the tool's own listing
(--list-kernels --format=json). Prints one table: per mode, the structured
proposals and the share naming a legal action with parameters in range
(accepted), the edits and the share passing the static checks and nvcc
(accepted), and the notes (answers cut off, not JSON). --json writes every
listing as well. Needs no GPU.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = [
    "benchmarks/corpus/gemv.cu:gemv_rows",
    "benchmarks/corpus/histogram.cu:histo_global",
    "benchmarks/corpus/layernorm.cu:layernorm_forward",
    "benchmarks/corpus/conv1d.cu:conv1d_basic",
    "benchmarks/corpus/covariance.cu:mean_kernel",
    "benchmarks/corpus/spmv_csr.cu:spmv_csr_scalar",
    "benchmarks/corpus/transpose_samples.cu:transpose_naive",
    "benchmarks/corpus/stencil1d.cu:stencil1d",
    "benchmarks/corpus/row_stats.cu:row_moments",
    "benchmarks/corpus/matmul_rowx.cu:matmul_rowx",
]


def marked_kernels(tool, path):
    """The kernels of path that have a #pragma optiml mark."""
    out = subprocess.run([tool, path, "--list-kernels", "--format=json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("llm-proposal-share: cannot list %s: %s"
                 % (path, out.stderr.strip().splitlines()[-1:]))
    return [k["qualified_name"] for k in json.loads(out.stdout)["kernels"]
            if k.get("mark")]


def targets(tool, specs):
    """(file, kernel) pairs from FILE[:KERNEL] arguments."""
    pairs = []
    for spec in specs:
        path, _, kernel = spec.partition(":")
        path = os.path.join(ROOT, path) if not os.path.isabs(path) else path
        names = [kernel] if kernel else marked_kernels(tool, path)
        pairs += [(path, k) for k in names]
    return pairs


def propose(args, url, mode, path, kernel, db):
    cmd = [args.tool, path, "--kernel=" + kernel, "--propose", "-n", str(args.n),
           "--llm=openai", "--llm-model=smollm2", "--llm-base-url=" + url,
           "--llm-schema=" + mode, "--llm-max-tokens=%d" % args.max_tokens,
           "--llm-timeout=%d" % args.timeout, "--llm-retries=0",
           "--db=" + db, "--format=json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        lines = out.stderr.strip().splitlines()
        return {"error": lines[-1] if lines else "exit %d" % out.returncode}
    return json.loads(out.stdout)


def tally(listings):
    t = {"kernels": 0, "errors": 0, "structured": 0, "structured_ok": 0,
         "edits": 0, "edits_ok": 0, "notes": 0}
    for L in listings:
        t["kernels"] += 1
        if "error" in L:
            t["errors"] += 1
            continue
        t["notes"] += len(L.get("notes", []))
        for p in L.get("proposals", []):
            kind = "structured" if p["kind"] == "structured" else "edits"
            t[kind] += 1
            t[kind + "_ok"] += p["status"] == "accepted"
    return t


def share(ok, total):
    return "%d/%d (%.0f%%)" % (ok, total, 100.0 * ok / total) if total else "0/0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default=os.path.join(ROOT, "build/bin/clang-optiml"))
    ap.add_argument("--url")
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--max-tokens", type=int, default=768)
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--modes", default="auto,off")
    ap.add_argument("--json")
    ap.add_argument("targets", nargs="*")
    args = ap.parse_args()
    url = args.url
    if not url:
        url_file = os.path.join(ROOT, "build/llm-server/url")
        if not os.path.exists(url_file):
            sys.exit("llm-proposal-share: no --url and no server: run "
                     "scripts/llm-server.sh start first")
        url = open(url_file).read().strip()
    specs = args.targets or (
        [os.path.relpath(p, ROOT) for p in sorted(
            glob.glob(os.path.join(ROOT, "examples/*.cu"))
            + glob.glob(os.path.join(ROOT, "examples/*/*.cu")))]
        + CORPUS)
    pairs = targets(args.tool, specs)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in args.modes.split(","):
            db = os.path.join(tmp, mode + ".sqlite")
            results[mode] = []
            for path, kernel in pairs:
                L = propose(args, url, mode, path, kernel, db)
                L["target"] = "%s:%s" % (os.path.relpath(path, ROOT), kernel)
                results[mode].append(L)
                status = L.get("error") or "%d proposals" % len(L["proposals"])
                print("[%s] %s: %s" % (mode, L["target"], status), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    print("\n| --llm-schema | kernels | structured legal | edits that build | notes | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode, listings in results.items():
        t = tally(listings)
        print("| %s | %d | %s | %s | %d | %d |" % (
            mode, t["kernels"], share(t["structured_ok"], t["structured"]),
            share(t["edits_ok"], t["edits"]), t["notes"], t["errors"]))


if __name__ == "__main__":
    main()
