#!/usr/bin/env python3
"""Where the transforms apply across the kernel corpus, and why not elsewhere.

Runs `clang-optiml FILE --list-sites --format=json` on every corpus file
and prints:

  1. a table per kernel: sites, legal actions (legal (transform, site)
     pairs, the moves the search can make), distinct legal transforms, and
     whether the kernel meets the goal (GOAL_ACTIONS actions of GOAL_TRANSFORMS
     transforms);
  2. per transform: on how many kernels it is legal somewhere;
  3. the refusal reasons grouped by transform, ranked by the number of
     kernels they hit. Reasons are normalized: a quoted name, expression or
     site, a number, or an x/y/z dimension that differs between occurrences
     becomes a placeholder ('…', <n>, <d>); one that is the same everywhere
     stays as written;
  4. the reasons that keep a transform off the kernels below the goal (a
     transform with no legal site on such a kernel): what to generalize
     first;
  5. tool problems: a crash, a hang, output that is not JSON, and with
     --check-apply, a legal action whose --apply fails (and with --nvcc,
     whose result nvcc does not compile); with --check-build, a kernel
     whose `--evaluate --build-only` fails.

Usage:
  scripts/corpus-sites.py [--tool=PATH] [--corpus=DIR] [-j N] [--top=N]
                          [--check-apply [--nvcc]] [--check-build]

The exit status is 1 when the tool misbehaved (section 5), else 0.
Python 3 standard library only.
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

GOAL_ACTIONS = 5
GOAL_TRANSFORMS = 3

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_tool():
    built = os.path.join(REPO, "build", "bin", "clang-optiml")
    if os.access(built, os.X_OK):
        return built
    return shutil.which("clang-optiml") or built


def run(cmd, timeout):
    """Runs cmd; returns (status, stdout, stderr) with status an int exit
    code, 'timeout', or 'signal N'."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", "", ""
    if p.returncode < 0:
        return "signal %d" % -p.returncode, p.stdout, p.stderr
    return p.returncode, p.stdout, p.stderr


def first_line(text):
    text = text.strip()
    return text.splitlines()[0] if text else ""


# --- One file ---------------------------------------------------------------


class FileResult:
    def __init__(self, path):
        self.path = path
        self.kernels = []   # qualified names, in file order
        self.actions = []   # --list-sites entries
        self.problems = []  # (what, detail)


def list_file(tool, path, timeout):
    r = FileResult(path)
    status, out, err = run([tool, path, "--list-kernels", "--format=json"],
                           timeout)
    if status != 0:
        r.problems.append(("--list-kernels " + str(status), first_line(err)))
    else:
        try:
            for k in json.loads(out)["kernels"]:
                r.kernels.append(k.get("qualified_name") or k["name"])
        except (ValueError, KeyError, TypeError) as e:
            r.problems.append(("--list-kernels: bad JSON", str(e)))
    status, out, err = run([tool, path, "--list-sites", "--format=json"],
                           timeout)
    if status != 0:
        r.problems.append(("--list-sites " + str(status), first_line(err)))
        return r
    try:
        r.actions = json.loads(out)
    except ValueError as e:
        r.problems.append(("--list-sites: bad JSON", str(e)))
        return r
    for a in r.actions:
        if a["kernel"] not in r.kernels:
            r.kernels.append(a["kernel"])
    return r


def check_apply(tool, path, action, timeout, nvcc):
    """Applies one legal action; returns a problem string or None."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, os.path.basename(path))
        status, _, err = run([tool, path, "--apply=" + action["apply"],
                              "-o", out], timeout)
        if status != 0:
            return "--apply %s: %s" % (status, first_line(err))
        if nvcc:
            status, _, err = run([nvcc, "-arch=sm_90", "-c", out, "-o",
                                  os.path.join(tmp, "x.o")], timeout)
            if status != 0:
                return "nvcc %s on the result: %s" % (status, first_line(err))
    return None


def check_build(tool, path, kernel, timeout):
    status, out, err = run([tool, path, "--evaluate", "--build-only",
                            "--kernel=" + kernel], timeout)
    if status == 0:
        return None
    return "--evaluate --build-only %s: %s" % (status,
                                              first_line(err or out))


# --- Normalizing reasons ----------------------------------------------------

# A parenthesized list of "'EXPR' at L:C WHY" items (hoist explains itself
# this way); the number of items varies, so it is folded to the set of WHYs.
ITEM = re.compile(r"'[^']*' at \d+:\d+ ([^;)]*)")
ITEM_LIST = re.compile(r"\(('[^']*' at \d+:\d+ [^;)]*(?:; )?)+\)")
# Slots: a quoted string, an x/y/z dimension after a CUDA builtin or 'grid'
# (group 1 is the dimension), a number that is not part of a word.
SLOT = re.compile(r"'[^']*'"
                  r"|\b(?:grid|blockIdx|threadIdx|blockDim|gridDim)[ .]([xyz])\b"
                  r"|(?<![\w#.])-?\d+(?:\.\d+)?(?![\w.])")


def fold_items(reason):
    def fold(m):
        whys = sorted(set(ITEM.findall(m.group(0))))
        return "('…' at L:C " + " / ".join(w.strip() for w in whys) + ")"
    return ITEM_LIST.sub(fold, reason)


def skeleton(reason):
    """(skeleton with '\\0' for each slot, [slot values])."""
    reason = fold_items(reason)
    parts, values, at = [], [], 0
    for m in SLOT.finditer(reason):
        start = m.start(1) if m.group(1) else m.start()
        parts.append(reason[at:start])
        values.append(reason[start:m.end()])
        at = m.end()
    parts.append(reason[at:])
    return "\0".join(parts), values


def placeholder(value):
    if value.startswith("'"):
        return "'…'"
    if value in ("x", "y", "z"):
        return "<d>"
    return "<n>"


class Group:
    """One normalized reason of one transform."""

    def __init__(self, transform, verdict, skel):
        self.transform = transform
        self.verdict = verdict
        self.skel = skel
        self.sites = 0
        self.kernels = set()
        self.slot_values = collections.defaultdict(set)

    def add(self, kernel, values):
        self.sites += 1
        self.kernels.add(kernel)
        for i, v in enumerate(values):
            self.slot_values[i].add(v)

    def text(self):
        parts = self.skel.split("\0")
        out = [parts[0]]
        for i, rest in enumerate(parts[1:]):
            vals = self.slot_values[i]
            out.append(next(iter(vals)) if len(vals) == 1
                       else placeholder(next(iter(vals))))
            out.append(rest)
        return "".join(out)


def group_refusals(actions, only_kernels=None):
    """Groups by (transform, verdict, skeleton); only_kernels restricts to
    refusals of transforms that are legal nowhere on those kernels."""
    legal_on = collections.defaultdict(set)
    for a in actions:
        if a["legal"]:
            legal_on[a["kernel"]].add(a["transform"])
    groups = {}
    for a in actions:
        if a["legal"]:
            continue
        k = a["kernel"]
        if only_kernels is not None:
            if k not in only_kernels or a["transform"] in legal_on[k]:
                continue
        skel, values = skeleton(a["reason"])
        key = (a["transform"], a["verdict"], skel)
        if key not in groups:
            groups[key] = Group(*key)
        groups[key].add(k, values)
    return groups


# --- Printing ----------------------------------------------------------------


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(header, widths))
             .rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for r in rows:
        lines.append("  ".join(str(c).ljust(w) for c, w in zip(r, widths))
                     .rstrip())
    return "\n".join(lines)


def print_groups(title, groups, top, kernel_total):
    print("\n## " + title + "\n")
    by_transform = collections.defaultdict(list)
    for g in groups.values():
        by_transform[g.transform].append(g)
    order = sorted(by_transform, key=lambda t: -sum(
        g.sites for g in by_transform[t]))
    for t in order:
        gs = sorted(by_transform[t],
                    key=lambda g: (-len(g.kernels), -g.sites, g.text()))
        kernels = set().union(*(g.kernels for g in gs))
        print("### %s: %d refusals on %d of %d kernels" %
              (t, sum(g.sites for g in gs), len(kernels), kernel_total))
        shown = gs if top <= 0 else gs[:top]
        rows = []
        for g in shown:
            example = sorted(g.kernels)[0]
            rows.append((len(g.kernels), g.sites, g.verdict, g.text(),
                         example))
        print(table(rows, ("kernels", "sites", "verdict", "reason",
                           "e.g.")))
        if len(gs) > len(shown):
            print("  (%d more reasons; --top=0 lists all)" %
                  (len(gs) - len(shown)))
        print()


def main():
    ap = argparse.ArgumentParser(
        description="Legal actions and refusal reasons across the corpus.")
    ap.add_argument("--tool", default=default_tool(),
                    help="clang-optiml to run (default: build/bin, then PATH)")
    ap.add_argument("--corpus",
                    default=os.path.join(REPO, "benchmarks", "corpus"),
                    help="directory of .cu files")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=10,
                    help="reasons shown per transform (0: all)")
    ap.add_argument("--timeout", type=int, default=120,
                    help="seconds per tool call before it counts as a hang")
    ap.add_argument("--check-apply", action="store_true",
                    help="--apply every legal action and report failures")
    ap.add_argument("--nvcc", action="store_true",
                    help="with --check-apply: compile each result with nvcc")
    ap.add_argument("--check-build", action="store_true",
                    help="run --evaluate --build-only on every kernel")
    args = ap.parse_args()

    if not os.access(args.tool, os.X_OK):
        sys.exit("corpus-sites: no clang-optiml at %s; build it or pass "
                 "--tool=PATH" % args.tool)
    if not os.path.isdir(args.corpus):
        sys.exit("corpus-sites: no corpus directory %s" % args.corpus)
    files = sorted(os.path.join(args.corpus, f)
                   for f in os.listdir(args.corpus) if f.endswith(".cu"))
    if not files:
        sys.exit("corpus-sites: no .cu files in %s" % args.corpus)
    nvcc = None
    if args.nvcc:
        cuda = os.environ.get("CUDA_PATH", "/usr/local/cuda")
        nvcc = shutil.which("nvcc") or os.path.join(cuda, "bin", "nvcc")

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(
            lambda f: list_file(args.tool, f, args.timeout), files))

        problems = []  # (file, kernel, what)
        for r in results:
            for what, detail in r.problems:
                problems.append((r.path, "", "%s: %s" % (what, detail)))
        if args.check_apply:
            jobs = [(r.path, a) for r in results for a in r.actions
                    if a["legal"]]
            outcomes = pool.map(
                lambda j: check_apply(args.tool, j[0], j[1], args.timeout,
                                      nvcc), jobs)
            for (path, a), p in zip(jobs, outcomes):
                if p:
                    problems.append((path, a["kernel"], p))
        if args.check_build:
            jobs = [(r.path, k) for r in results for k in r.kernels]
            outcomes = pool.map(
                lambda j: check_build(args.tool, j[0], j[1], args.timeout),
                jobs)
            for (path, k), p in zip(jobs, outcomes):
                if p:
                    problems.append((path, k, p))

    actions = [a for r in results for a in r.actions]
    rows, below = [], set()
    for r in results:
        for k in r.kernels:
            mine = [a for a in r.actions if a["kernel"] == k]
            legal = [a for a in mine if a["legal"]]
            transforms = sorted({a["transform"] for a in legal})
            goal = (len(legal) >= GOAL_ACTIONS and
                    len(transforms) >= GOAL_TRANSFORMS)
            if not goal:
                below.add(k)
            rows.append((os.path.basename(r.path), k, len(mine), len(legal),
                         len(transforms), "yes" if goal else "no",
                         " ".join(transforms)))
    kernel_total = len(rows)

    print("# Transform sites across %s (%d files, %d kernels)\n" %
          (os.path.relpath(args.corpus, os.getcwd()), len(files),
           kernel_total))
    print("Goal: at least %d legal actions of at least %d transforms per "
          "kernel.\n" % (GOAL_ACTIONS, GOAL_TRANSFORMS))
    print(table(rows, ("file", "kernel", "sites", "legal", "transforms",
                       "goal", "legal transforms")))
    met = kernel_total - len(below)
    hist = collections.Counter(r[3] for r in rows)
    print("\n%d of %d kernels meet the goal. Legal actions per kernel: %s" %
          (met, kernel_total, ", ".join("%d: %d" % (n, hist[n])
                                        for n in sorted(hist))))

    print("\n## Transforms\n")
    per = collections.defaultdict(lambda: collections.Counter())
    legal_kernels = collections.defaultdict(set)
    for a in actions:
        per[a["transform"]][a["verdict"]] += 1
        if a["legal"]:
            legal_kernels[a["transform"]].add(a["kernel"])
    trows = [(t, len(legal_kernels[t]), c["legal"], c["illegal"],
              c["not-applicable"])
             for t, c in sorted(per.items(),
                                key=lambda tc: -len(legal_kernels[tc[0]]))]
    print(table(trows, ("transform", "legal on kernels", "legal sites",
                        "illegal sites", "not-applicable sites")))

    print_groups("Refusal reasons by transform (all kernels)",
                 group_refusals(actions), args.top, kernel_total)
    print_groups("What keeps a transform off the %d kernels below the goal "
                 "(transforms with no legal site on the kernel)" % len(below),
                 group_refusals(actions, below), args.top, len(below))

    print("## Tool problems\n")
    if not problems:
        print("none (%s%s%s)" % (
            "list-kernels and list-sites on every file",
            ", --apply of every legal action" if args.check_apply else "",
            ", --build-only of every kernel" if args.check_build else ""))
        return 0
    print(table([(os.path.basename(f), k, p) for f, k, p in problems],
                ("file", "kernel", "problem")))
    return 1


if __name__ == "__main__":
    sys.exit(main())
