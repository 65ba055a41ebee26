#!/usr/bin/env python3
"""mutate.py - feed mutated sources and specs through clang-optiml.

Takes the repository's kernels (examples/, benchmarks/corpus/, test/) and
their specs, mutates them (truncations, flipped bytes, dropped braces,
garbage clauses, huge and negative sizes, bytes that are not UTF-8 in
comments, loop headers and marks, spliced lines; sidecars with the same
and with wrong types) and runs each mutant through

  --list-kernels, --list-sites, --apply=STEP -o OUT and --evaluate --build-only

(the last with the mutated sidecar as --spec= when the mutant is one;
--list-sites and --apply are skipped when --list-kernels found that the
mutant does not parse, since they would stop at the same error). A run
fails when the tool dies of a signal, runs past the time-out, reports an
internal error (exit 70), exits non-zero without a message, leaves an -o
file behind after failing, changes its input file, or prints a sanitizer
report. Every failing mutant is kept in WORK/failures/ with the command
that failed it; `--seed S --only I` rebuilds and reruns mutant I alone
(the failure's line prints the whole command, --commands included).

Usage:
  scripts/mutate.py --tool build/bin/clang-optiml [--count 2000] [--seed S]
                    [--jobs 2] [--commands all|one] [--work DIR]

Each mutant is a function of the seed and its index only, so a failure is
reproduced by its seed and index on any machine. Without --seed the seed is
new each run (printed first). With --commands=one, mutant I runs only the
I-th command modulo 4 (the quick mode of the ctest test `mutants`); the
default runs all four.
Ends with how many commands ran as they should; exits 1 if any did not.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec_inputs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMANDS = ["list-kernels", "list-sites", "apply", "evaluate"]

# Numbers a size, a length or a launch dimension should never be trusted
# to be.
HOSTILE_NUMBERS = [
    b"0", b"-1", b"-256", b"-2147483648", b"2147483648", b"4294967296",
    b"9223372036854775807", b"-9223372036854775808", b"9223372036854775808",
    b"99999999999999999999999999", b"1 << 62", b"1 << 63", b"1 << 64",
    b"1 << -1", b"-(1 << 40)", b"0x7fffffffffffffff", b"1e308", b"-1e308",
    b"1e-320", b"nan", b"inf", b"0.5", b"-0", b"(0 - 1) / 1", b"1 / 0",
    b"N / 0", b"N % 0", b"ceil_div(N, 0)", b"N * N * N * N * N",
]

GARBAGE_CLAUSES = [
    b"sizes(N = )", b"sizes(N = N)", b"sizes(= 4)", b"sizes(N 4)",
    b"in(x[-1])", b"in(x[N], x[N])", b"out(y[N]", b"out(y[])", b"in(q[N])",
    b"inout(3[N])", b"scalar(n = 1 / 0)", b"scalar(n)", b"grid(0)",
    b"grid(1, 2, 3, 4)", b"block(-256)", b"block(1 << 40)", b"block()",
    b"shmem(-1)", b"shmem(1 << 62)", b"tolerance(rtol = -1)",
    b"tolerance(rtol = nan, atol = inf)", b"tolerance(frob = 1)", b"seeds()",
    b"seeds(-1)", b"dist(x = uniform(1, -1))", b"dist(x = int(0, 1e300))",
    b"dist(x = index(1, 0, 0))", b"dist(x = bogus(1))", b"instance(: N = 3)",
    b"instance(odd N = 3)", b"instance(odd: Q = 3)", b"template(T = )",
    b"template(T = float, T = int)", b"frobnicate(1)", b"kernel kernel",
    b"sizes(ceil_div = 4)", b"grid(((((((((((((((((((((N))))))))))))))))))))",
    b"grid(" + b"(" * 5000 + b"N" + b")" * 5000 + b")",
    b"sizes(N = " + b"-" * 3000 + b"1)", b"\\", b"(", b")", b"[", b"]", b",",
    b"=", b"sizes(N = 1,,)", b"in(x[N]]", b"grid(N\x00)",
]

NOT_UTF8 = [b"\x80", b"\xff", b"\xfe\xff", b"\xc3", b"\xe9", b"\xed\xa0\x80",
            b"\xc0\xaf", b"\xf8\x88\x80\x80\x80", b"caf\xe9", b"\xef\xbb"]

JSON_GARBAGE = [b"null", b"true", b"[]", b"{}", b"\"\"", b"-1", b"1e999",
                b"\"\\ud800\"", b"[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]",
                b"\"N / 0\"", b"\"\xff\"", b"18446744073709551616",
                b"{\"kind\": \"uniform\"}", b"\"uniform(1, -1)\""]


# -- mutation operators: each takes (rng, bytes) and returns bytes --------

def truncate(rng, data):
    return data[:rng.randrange(len(data) + 1)] if data else data


def flip_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        i = rng.randrange(len(data))
        data[i] = rng.randrange(256) if rng.random() < 0.5 else data[i] ^ (
            1 << rng.randrange(8))
    return bytes(data)


def drop_brace(rng, data):
    where = [m.start() for m in re.finditer(rb"[{}()\[\]]", data)]
    if not where:
        return truncate(rng, data)
    for _ in range(rng.randint(1, 2)):
        i = rng.choice(where)
        data = data[:i] + data[i + 1:]
        where = [w - (w > i) for w in where if w != i]
        if not where:
            break
    return data


def _mark_spans(data):
    """(start, end) of each `#pragma optiml` line, continuations included."""
    spans = []
    for m in re.finditer(rb"#[ \t]*pragma[ \t]+optiml\b", data):
        end = m.end()
        while True:
            nl = data.find(b"\n", end)
            if nl < 0:
                end = len(data)
                break
            if data[end:nl].rstrip().endswith(b"\\"):
                end = nl + 1
                continue
            end = nl
            break
        spans.append((m.end(), end))
    return spans


def garbage_clause(rng, data):
    spans = _mark_spans(data)
    clause = rng.choice(GARBAGE_CLAUSES)
    if not spans:
        line = b"#pragma optiml kernel " + clause + b"\n"
        at = data.find(b"__global__")
        at = at if at >= 0 else 0
        return data[:at] + line + data[at:]
    start, end = rng.choice(spans)
    cuts = [start, end] + [m.end() for m in re.finditer(rb"\)\s", data[start:end])]
    at = rng.choice(cuts)
    at = at if at <= end else end
    return data[:at] + b" " + clause + b" " + data[at:]


def hostile_number(rng, data):
    spans = _mark_spans(data)
    # Mostly the numbers of a mark (sizes, lengths, launch dimensions), else
    # any number of the file (loop bounds, launch configurations).
    lo, hi = rng.choice(spans) if spans and rng.random() < 0.8 else (0, len(data))
    nums = [m for m in re.finditer(rb"\b\d+(\.\d+)?([eE][-+]?\d+)?\b", data[lo:hi])]
    if not nums:
        return garbage_clause(rng, data)
    data = bytearray(data)
    for m in sorted(rng.sample(nums, min(len(nums), rng.randint(1, 3))),
                    key=lambda m: -m.start()):
        data[lo + m.start():lo + m.end()] = rng.choice(HOSTILE_NUMBERS)
    return bytes(data)


def not_utf8(rng, data):
    """Bytes that are not UTF-8 in a comment, a loop header or a mark."""
    bad = rng.choice(NOT_UTF8)
    places = []
    for m in re.finditer(rb"//[^\n]*|/\*", data):
        places.append(("comment", m.start() + 2))
    for m in re.finditer(rb"\b(for|while)\s*\(", data):
        places.append(("loop", m.end()))
    for start, end in _mark_spans(data):
        places.append(("mark", rng.randint(start, end)))
    if not places:
        return data + b"// " + bad + b"\n"
    kind, at = rng.choice(places)
    if kind == "loop":
        # Inside the header: a comment there is still valid CUDA.
        insert = rng.choice([b"/* " + bad + b" */ ", b"\n// " + bad + b"\n"])
    elif kind == "comment":
        insert = b" " + bad + b" "
    else:
        insert = bad
    return data[:at] + insert + data[at:]


def splice_lines(rng, data):
    lines = data.split(b"\n")
    if len(lines) < 2:
        return flip_bytes(rng, data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    op = rng.choice(["delete", "duplicate", "move"])
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(j, lines[i])
    else:
        lines.insert(j, lines.pop(i))
    return b"\n".join(lines)


SOURCE_OPS = [truncate, flip_bytes, drop_brace, garbage_clause,
              hostile_number, not_utf8, splice_lines]
# Mostly mutants that still parse as CUDA, so that they get past the parser
# to the spec, the analyses and the rewrites.
SOURCE_WEIGHTS = [1, 1, 1, 3, 3, 3, 1]


def json_wrong_value(rng, data):
    """A value of the sidecar replaced by one of the wrong type or size."""
    values = [m for m in re.finditer(rb":\s*(\"[^\"]*\"|-?[\d.eE+-]+|\[[^\[\]]*\]|null|true|false)", data)]
    if not values:
        return flip_bytes(rng, data)
    m = rng.choice(values)
    return data[:m.start(1)] + rng.choice(JSON_GARBAGE + HOSTILE_NUMBERS[:12]) + data[m.end(1):]


def json_garbage_key(rng, data):
    at = [m.end() for m in re.finditer(rb"{", data)]
    if not at:
        return truncate(rng, data)
    i = rng.choice(at)
    key = rng.choice([b"\"bogus\": 1,", b"\"sizes\": {},", b"\"\xff\": 1,",
                      b"\"\": null,", b"\"args\": 7,", b"\"comment\": [],"])
    return data[:i] + key + data[i:]


def json_hostile_string(rng, data):
    strings = [m for m in re.finditer(rb"\"([^\"\\]*)\"\s*[,}\]\n]", data)]
    if not strings:
        return flip_bytes(rng, data)
    m = rng.choice(strings)
    new = rng.choice(HOSTILE_NUMBERS + NOT_UTF8 + [b"\\n", b"N\\nM", b"\\u0000"])
    return data[:m.start(1)] + new + data[m.end(1):]


SIDECAR_OPS = [truncate, flip_bytes, drop_brace, json_wrong_value,
               json_garbage_key, json_hostile_string]


# -- mutants ---------------------------------------------------------------

class Mutant:
    def __init__(self, index, base, source, sidecar, ops, step):
        self.index, self.base, self.source = index, base, source
        self.sidecar, self.ops, self.step = sidecar, ops, step


def make_mutant(seed, index, bases):
    rng = random.Random("%s:%d" % (seed, index))
    base = rng.choice(bases)
    with open(base, "rb") as f:
        source = f.read()
    sidecar, ops = None, []
    text = source.decode("utf-8", "surrogateescape")
    marked = spec_inputs.marks(text)
    if marked and rng.random() < 0.3:
        sidecar = spec_inputs.sidecar(marked)
    if sidecar is not None:
        data = sidecar.encode("utf-8", "surrogateescape")
        for _ in range(rng.randint(1, 2)):
            op = rng.choice(SIDECAR_OPS)
            ops.append("sidecar:" + op.__name__)
            data = op(rng, data)
        sidecar = data
    else:
        for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
            op = rng.choices(SOURCE_OPS, SOURCE_WEIGHTS)[0]
            ops.append(op.__name__)
            source = op(rng, source)
    return Mutant(index, base, source, sidecar, ops, None)


def choose_step(rng, mutant, sites_json):
    """A step for --apply from what --list-sites offered for the mutant,
    legal ones mostly; sometimes one made wrong on purpose."""
    try:
        sites = json.loads(sites_json.decode("utf-8", "replace"))
        legal = [s["apply"] for s in sites if s.get("legal")]
        other = [s["apply"] for s in sites if not s.get("legal")]
    except (ValueError, TypeError, KeyError, AttributeError):
        legal, other = [], []
    pool = legal * 3 + other or ["unroll(site=k/for#0,factor=4)"]
    step = rng.choice(pool)
    if rng.random() < 0.15:
        step = rng.choice([
            re.sub(r"=\d+", "=" + rng.choice(
                ["-1", "0", "99999999999999999999", "1e9", "x"]), step),
            step[:rng.randrange(len(step) + 1)],
            step.replace("site=", "site=\xe9"),
            "nosuch(site=k)", step + ",,,"])
        mutant.ops.append("step")
    return step


# -- running and judging ---------------------------------------------------

SANITIZER = re.compile(r"ERROR: (Address|Leak|Memory|Thread)Sanitizer|runtime error: ")


def judge(proc_rc, stderr, out_path, timed_out):
    """None when the run is acceptable, else why not."""
    if timed_out:
        return "hang: still running at the time-out"
    err = stderr.decode("utf-8", "replace")
    if SANITIZER.search(err):
        return "sanitizer report: " + SANITIZER.search(err).group(0)
    if proc_rc < 0:
        try:
            name = signal.Signals(-proc_rc).name
        except ValueError:
            name = str(-proc_rc)
        return "killed by signal %s" % name
    if proc_rc == 70:
        return "internal error (exit 70)"
    if proc_rc != 0 and not err.strip():
        return "exit %d without a message" % proc_rc
    if out_path and proc_rc != 0 and os.path.exists(out_path):
        return "exit %d but wrote %s" % (proc_rc, os.path.basename(out_path))
    return None


def command_for(name, tool, src, spec, out_dir, rng, step):
    """The argv of one command and the -o file it may write."""
    fmt = ["--format=json"] if rng.random() < 0.5 else []
    if name == "list-kernels":
        return [tool, src, "--list-kernels"] + fmt, None
    if name == "list-sites":
        return [tool, src, "--list-sites"] + fmt, None
    if name == "list-sites-json":
        return [tool, src, "--list-sites", "--format=json"], None
    if name == "apply":
        out = os.path.join(out_dir, "out.cu")
        return [tool, src, "--apply=" + step, "-o", out], out
    cmd = [tool, src, "--evaluate", "--build-only"]
    if spec:
        cmd.append("--spec=" + spec)
    return cmd, None


def first_line(stderr):
    for line in stderr.decode("utf-8", "replace").splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


def run_command(args, env, cmd, out, cwd, timeout):
    """(rc or None on a time-out, stdout, stderr, why or None)."""
    try:
        p = subprocess.run(cmd, capture_output=True, env=env,
                           timeout=timeout, cwd=cwd)
        rc, stdout, stderr, timed_out = p.returncode, p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr, timed_out = None, b"", e.stderr or b"", True
    return rc, stdout, stderr, judge(rc or 0, stderr, out, timed_out)


def commands_of(args, mutant, has_spec):
    if args.commands == "all":
        return list(COMMANDS)
    if has_spec:
        return ["evaluate"]  # The only command that reads a sidecar.
    return [COMMANDS[mutant.index % len(COMMANDS)]]


def run_mutant(args, seed, mutant, env):
    """[(command name, argv, rc, why or None, stderr's first line, secs)]."""
    d = os.path.join(args.work, "m%05d" % mutant.index)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    src = os.path.join(d, os.path.basename(mutant.base))
    with open(src, "wb") as f:
        f.write(mutant.source)
    spec = None
    if mutant.sidecar is not None:
        spec = os.path.join(d, "spec.optiml.json")
        with open(spec, "wb") as f:
            f.write(mutant.sidecar)
    digest = hashlib.sha256(mutant.source).hexdigest()
    rng = random.Random("%s:%d:commands" % (seed, mutant.index))
    names = commands_of(args, mutant, spec is not None)
    results, sites_json, unparsable = [], None, False
    for name in names:
        if unparsable and name in ("list-sites", "apply"):
            continue  # The same parse error again; evaluate still runs.
        if name == "apply" and sites_json is None:
            names_here = ["list-sites-json", "apply"]
        else:
            names_here = [name]
        for name_here in names_here:
            step = choose_step(rng, mutant, sites_json or b"") \
                if name_here == "apply" else None
            cmd, out = command_for(name_here, args.tool, src, spec, d, rng,
                                   step)
            timeout = args.timeout * (3 if name == "evaluate" else 1)
            start = time.monotonic()
            rc, stdout, stderr, why = run_command(args, env, cmd, out, d,
                                                  timeout)
            if "--format=json" in cmd and "--list-sites" in cmd:
                sites_json = stdout
            if name == "list-kernels" and b"does not parse" in stderr:
                unparsable = True
            with open(src, "rb") as f:
                if why is None and \
                        hashlib.sha256(f.read()).hexdigest() != digest:
                    why = "changed its input file"
            results.append((name_here.replace("-json", ""), cmd, rc, why,
                            first_line(stderr), time.monotonic() - start))
            if out and os.path.exists(out):
                os.remove(out)
    failed = [r for r in results if r[3]]
    if not failed:
        shutil.rmtree(d, ignore_errors=True)
        return results
    with open(os.path.join(d, "failed.txt"), "w") as f:
        for name, cmd, rc, why, line, _ in failed:
            f.write("%s\n  %s\n  %s\n" % (" ".join(cmd), why, line))
    keep = os.path.join(args.work, "failures", "m%05d" % mutant.index)
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(os.path.dirname(keep), exist_ok=True)
    shutil.move(d, keep)
    return results


def rerun_command(args, seed, index):
    """The command that runs mutant INDEX again as this run ran it: the
    commands a mutant runs, and the flags each gets, depend on --commands
    and on the files mutated, not only on the seed."""
    cmd = ["scripts/mutate.py", "--tool", args.tool, "--seed", seed,
           "--only", str(index), "--commands=" + args.commands]
    if args.timeout != 60:
        cmd += ["--timeout", "%g" % args.timeout]
    if args.sources:
        cmd += ["--sources"] + args.sources
    return " ".join(cmd)


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Mutated sources and specs through clang-optiml.")
    p.add_argument("--tool", required=True, help="clang-optiml to test")
    p.add_argument("--count", type=int, default=2000, help="mutants to run")
    p.add_argument("--seed", default=None, help="default: a new one")
    p.add_argument("--only", type=int, default=None,
                   help="run mutant INDEX of --seed alone")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60,
                   help="seconds per command (three times that for "
                        "--evaluate)")
    p.add_argument("--commands", choices=["all", "one"], default="all")
    p.add_argument("--work", default=None,
                   help="folder for mutants and failures (default: new)")
    p.add_argument("--verbose", action="store_true",
                   help="a line for every command, not only failures")
    p.add_argument("--sources", nargs="*", default=None,
                   help="files to mutate (default: the repository's)")
    args = p.parse_args(argv)
    if args.only is not None and args.seed is None:
        p.error("--only needs the --seed it was found with")
    return args


def main(argv):
    args = parse_args(argv)
    args.tool = os.path.abspath(args.tool)
    if not os.access(args.tool, os.X_OK):
        sys.stderr.write("mutate: error: no tool at '%s'\n" % args.tool)
        return 2
    seed = args.seed if args.seed is not None else str(
        random.SystemRandom().randrange(1 << 32))
    if args.work is None:
        import tempfile
        args.work = tempfile.mkdtemp(prefix="optiml-mutate.")
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, OPTIML_CACHE_DIR=os.path.join(args.work, "cache"))
    bases = sorted(os.path.abspath(s) for s in args.sources) if args.sources \
        else [f for f in spec_inputs.source_files(ROOT)
              if b"__global__" in open(f, "rb").read()]
    indices = [args.only] if args.only is not None else range(args.count)
    print("mutate: seed %s, %d mutants of %d files, work folder %s"
          % (seed, len(indices), len(bases), args.work), flush=True)

    lock = threading.Lock()
    passed = failed = 0
    codes = {}
    failures = []
    start = time.monotonic()

    def one(i):
        mutant = make_mutant(seed, i, bases)
        return mutant, run_mutant(args, seed, mutant, env)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for done, (mutant, results) in enumerate(pool.map(one, indices), 1):
            if done % 100 == 0 and not args.verbose:
                print("mutate: %d of %d mutants, %.0f s" %
                      (done, len(indices), time.monotonic() - start),
                      flush=True)
            with lock:
                for name, cmd, rc, why, line, secs in results:
                    codes[(name, rc)] = codes.get((name, rc), 0) + 1
                    if args.verbose:
                        print("mutant %d %s (%s) %s: exit %s in %.1f s: %s"
                              % (mutant.index,
                                 os.path.relpath(mutant.base, ROOT),
                                 ", ".join(mutant.ops), name, rc, secs, line),
                              flush=True)
                    if why is None:
                        passed += 1
                        continue
                    failed += 1
                    failures.append((mutant, name, why, line))
                    print("FAIL mutant %d (%s; %s) %s: %s\n  %s\n  rerun: %s"
                          % (mutant.index, os.path.relpath(mutant.base, ROOT),
                             ", ".join(mutant.ops), name, why, line,
                             rerun_command(args, seed, mutant.index)),
                          flush=True)
    elapsed = time.monotonic() - start
    print("mutate: %d commands over %d mutants in %.0f s; exit codes:"
          % (passed + failed, len(indices), elapsed))
    for name in COMMANDS:
        row = sorted((("timeout" if rc is None else str(rc)), n)
                     for (c, rc), n in codes.items() if c == name)
        if row:
            print("  %-13s %s" % (name, ", ".join("%s: %d" % r for r in row)))
    if failures:
        print("mutate: failing mutants kept in %s" %
              os.path.join(args.work, "failures"))
    print("mutate: %d commands ran as they should, %d did not" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
