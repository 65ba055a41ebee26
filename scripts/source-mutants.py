#!/usr/bin/env python3
"""source-mutants.py - would the unit tests notice a wrong verdict?

Mutation testing of the runner's host-side verdict code against its unit
tests. Each mutant changes one thing in one of the FILES below: a comparison
turned around or made strict, && for ||, + for -, * for /, a negation
dropped, true for false, a constant changed, a statement deleted. The
script compiles FILES, the other runtime sources they need and the TESTS
into a small test program of its own (outside the build tree, whose sources
it never writes), with AddressSanitizer, UndefinedBehaviorSanitizer and
libstdc++'s bounds checks, so that a mutant reading past a buffer fails
for certain rather than by luck; then, for each mutant, it compiles the
mutated file again, links and runs the tests. A mutant is

  killed     when a test fails, crashes, hangs or a sanitizer reports;
  stillborn  when it does not compile (not counted);
  equivalent when it survives and EQUIVALENT below says why no verdict
             and no report can change;
  surviving  otherwise: a hole in the tests, and the run fails.

Usage:
  scripts/source-mutants.py [--cxx c++] [--include DIR ...]
                            [--gtest-libs LIB ...] [--count N] [--seed S]
                            [--only ID ...] [--jobs 2] [--work DIR] [--list]

The mutants are a function of the sources alone, numbered per file
("HostChecks.cpp#12"), so `--only ID` reruns one on any machine. --count N
runs N of them drawn by the seed (printed first; without --seed a new one
each run), so `--seed S --count N` repeats a run; the default runs them
all. Ends with the killed, stillborn, equivalent and surviving counts;
exits 1 if any survived.
"""

import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME = os.path.join(ROOT, "runtime", "src")

# What is mutated: the rules that decide whether a candidate is correct.
FILES = ["Compare.cpp", "HostChecks.cpp", "RedZone.cpp"]
# What else the tests link, never mutated here.
SUPPORT = ["ElemAccess.cpp", "Failure.cpp", "Inputs.cpp"]
TESTS = ["CompareTest.cpp", "HostChecksTest.cpp", "LanesTest.cpp"]

# Survivors that cannot change a verdict or a report, keyed by file, the
# code line before the mutated one, the mutated line (both stripped) and
# the mutation.
EQUIVALENT = {
    ("Compare.cpp", "CompareStats &Stats, Magnitudes &M, ElemIssue &Issue) {",
     "Issue = ElemIssue::Mismatch;",
     "statement deleted"):
        "compareBuffers sets Issue to Mismatch before the call",
    ("Compare.cpp", "double A = loadAsDouble(T, X, Index), "
     "B = loadAsDouble(T, Y, Index);", "if (std::isnan(A) || std::isnan(B))",
     "'||' -> '&&'"):
        "with one NaN the tolerance test below fails too: a comparison with "
        "a NaN is false",
    ("HostChecks.cpp", "std::string hexByte(unsigned char B) {",
     "char Buf[8];", "8 -> 7"):
        "'0x%02x' of a byte needs 5 bytes",
    ("HostChecks.cpp", "Counts.RedZoneDamagedBytes += Z.DamagedBytes;",
     "bool Left = Z.FirstBadByte < 0;", "'<' -> '<='"):
        "FirstBadByte is never 0: a plan's buffer has at least one element, "
        "so the left zone ends at byte -1 and the right one starts at its size",
    ("HostChecks.cpp", "Counts.RedZoneDamagedBytes += Z.DamagedBytes;",
     "bool Left = Z.FirstBadByte < 0;", "0 -> 1"):
        "FirstBadByte is never 0 (as above)",
    ("HostChecks.cpp", "if (Want == Got)", "return;", "statement deleted"):
        "a shortcut: on equal bytes the element walk finds nothing either",
    ("HostChecks.cpp", "if (R0 == R1)", "continue;", "statement deleted"):
        "a shortcut: on identical runs the element walk finds nothing either",
}

# How the tests are built: sanitized, and bounds-checked by libstdc++.
CHECKED_BUILD = ["-fsanitize=address,undefined",
                 "-fno-sanitize-recover=undefined", "-D_GLIBCXX_ASSERTIONS"]
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=0",
                 "UBSAN_OPTIONS": "print_stacktrace=0"}
SANITIZER = re.compile(r"ERROR: AddressSanitizer|runtime error: |"
                       r"Assertion '.*' failed")

# -- finding the places to mutate ------------------------------------------

CODE_MASK = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|^[ \t]*#[^\n]*',
    re.S | re.M)


def masked(text):
    """The text with comments, literals and preprocessor lines blanked (same
    length), so that the patterns below only ever see code."""
    return CODE_MASK.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


# Binary operators as clang-format spaces them; a template's angle brackets
# and a pointer's star are never surrounded by spaces.
SWAPS = {
    " < ": [" <= "], " <= ": [" < "], " > ": [" >= "], " >= ": [" > "],
    " == ": [" != "], " != ": [" == "], " && ": [" || "], " || ": [" && "],
    " + ": [" - "], " - ": [" + "], " * ": [" / "], " / ": [" * "],
    " += ": [" -= "], " -= ": [" += "],
}
OPERATOR = re.compile("|".join(re.escape(k) for k in sorted(SWAPS, key=len,
                                                              reverse=True)))
NEGATION = re.compile(r"!(?=[A-Za-z_(])")
BOOLEAN = re.compile(r"\b(true|false)\b")
INTEGER = re.compile(r"(?<![\w.])(0[xX][0-9A-Fa-f]+|\d+)(?![\w.])")
# A statement with an effect: a call, an assignment, an increment, a jump.
STATEMENT = re.compile(
    r"^(\+\+|--)?[A-Za-z_][\w:]*(\.|->|\[|\(| = | \+= | -= |\+\+|--|;)|"
    r"^(continue|break);")
STATEMENT_BOUNDARY = (";", "{", "}", ")", "else")


class Mutant:
    """One change: old at offset of file becomes new. text is the line it
    is on and context the code line before, as EQUIVALENT quotes them."""

    def __init__(self, file, number, offset, old, new, what, line, text,
                 context):
        self.file, self.number, self.offset = file, number, offset
        self.old, self.new, self.what = old, new, what
        self.line, self.text, self.context = line, text, context

    @property
    def ident(self):
        return "%s#%d" % (self.file, self.number)

    def apply(self, text):
        assert text[self.offset:self.offset + len(self.old)] == self.old
        return text[:self.offset] + self.new + text[self.offset + len(self.old):]


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def has_string(text, offset):
    """True when the line at offset holds a string literal: its + and - are
    most likely std::string's, whose mutants do not compile."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return '"' in text[start:end if end >= 0 else len(text)]


def token_mutants(text, code):
    """(offset, old, new, what) for operators, negations and literals."""
    out = []
    for m in OPERATOR.finditer(code):
        if m.group(0) in (" + ", " - ") and has_string(text, m.start()):
            continue
        for new in SWAPS[m.group(0)]:
            out.append((m.start(), m.group(0), new,
                        "'%s' -> '%s'" % (m.group(0).strip(), new.strip())))
    for m in NEGATION.finditer(code):
        out.append((m.start(), "!", "", "'!' dropped"))
    for m in BOOLEAN.finditer(code):
        new = "false" if m.group(0) == "true" else "true"
        out.append((m.start(), m.group(0), new, "%s -> %s" % (m.group(0), new)))
    for m in INTEGER.finditer(code):
        value = int(m.group(0), 0)
        new = str(value - 1) if value else "1"
        out.append((m.start(), m.group(0), new,
                    "%s -> %s" % (m.group(0), new)))
    return out


def statement_end(code, start):
    """The end of the statement at start (after its ';'), or None when it
    does not end where its parentheses close."""
    depth = 0
    for i in range(start, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif c == ";" and depth == 0:
            return i + 1
    return None


def statement_mutants(text, code):
    """(offset, old, ';', what) for each statement with an effect that
    starts a line; a braceless if's body becomes the empty statement."""
    out = []
    lines = code.split("\n")
    offset = 0
    previous = "{"
    for line in lines:
        stripped = line.strip()
        start = offset + len(line) - len(line.lstrip())
        offset += len(line) + 1
        if not stripped:
            continue
        boundary = previous.endswith(STATEMENT_BOUNDARY)
        previous = stripped
        if not boundary or not STATEMENT.match(stripped):
            continue
        end = statement_end(code, start)
        if end is None:
            continue
        out.append((start, text[start:end], ";", "statement deleted"))
    return out


def code_line_before(text, code, start):
    """The last line before offset start with code on it, stripped."""
    while start > 0:
        end = start - 1
        start = text.rfind("\n", 0, end) + 1
        if code[start:end].strip():
            return text[start:end].strip()
    return ""


def mutants_of(name, text):
    code = masked(text)
    found = sorted(token_mutants(text, code) + statement_mutants(text, code))
    result = []
    for number, (offset, old, new, what) in enumerate(found):
        start = text.rfind("\n", 0, offset) + 1
        end = text.find("\n", offset)
        line = text[start:end].strip()
        result.append(Mutant(name, number, offset, old, new, what,
                             line_of(text, offset), line,
                             code_line_before(text, code, start)))
    return result


# -- building and running ----------------------------------------------------

class Builder:
    def __init__(self, args):
        self.args = args
        self.objects = {}

    def compile(self, source, obj):
        cmd = [self.args.cxx, "-std=c++17", "-O0", "-w"] + CHECKED_BUILD + \
            ["-I" + RUNTIME]
        cmd += ["-I" + d for d in self.args.include]
        cmd += ["-c", source, "-o", obj]
        p = subprocess.run(cmd, capture_output=True)
        return p.returncode == 0, p.stderr.decode("utf-8", "replace")

    def prebuild(self):
        """Compiles every source once, unmutated, and checks that the tests
        pass on it."""
        sources = [os.path.join(RUNTIME, f) for f in FILES + SUPPORT] + \
            [os.path.join(ROOT, "unittests", "Runtime", f) for f in TESTS]
        obj_dir = os.path.join(self.args.work, "objects")
        os.makedirs(obj_dir, exist_ok=True)
        with concurrent.futures.ThreadPoolExecutor(self.args.jobs) as pool:
            jobs = {}
            for s in sources:
                obj = os.path.join(obj_dir, os.path.basename(s) + ".o")
                jobs[s] = (obj, pool.submit(self.compile, s, obj))
            for s, (obj, job) in jobs.items():
                ok, err = job.result()
                if not ok:
                    sys.stderr.write("source-mutants: error: %s does not "
                                     "compile:\n%s" % (s, err))
                    return False
                self.objects[os.path.basename(s)] = obj
        verdict, detail = self.run(os.path.join(self.args.work, "original"),
                                   None, None)
        if verdict != "survived":
            sys.stderr.write("source-mutants: error: the tests fail on the "
                             "unmutated sources (%s):\n%s\n" % (verdict, detail))
            return False
        return True

    def link(self, exe, replaced, obj):
        objs = [obj if name == replaced else o
                for name, o in sorted(self.objects.items())]
        cmd = [self.args.cxx, "-o", exe] + CHECKED_BUILD + objs + \
            self.args.gtest_libs + ["-pthread"]
        p = subprocess.run(cmd, capture_output=True)
        return p.returncode == 0, p.stderr.decode("utf-8", "replace")

    def run(self, folder, mutant, text):
        """('killed' | 'survived' | 'stillborn', detail)."""
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        obj = None
        if mutant:
            source = os.path.join(folder, mutant.file)
            with open(source, "w") as f:
                f.write(mutant.apply(text))
            obj = source + ".o"
            ok, err = self.compile(source, obj)
            if not ok:
                return "stillborn", first_error(err)
        exe = os.path.join(folder, "tests")
        ok, err = self.link(exe, mutant.file if mutant else None, obj)
        if not ok:
            return "stillborn", first_error(err)
        try:
            p = subprocess.run([exe], capture_output=True,
                               timeout=self.args.timeout,
                               env=dict(os.environ, **SANITIZER_ENV))
        except subprocess.TimeoutExpired:
            return "killed", "hang: still running after %g s" % self.args.timeout
        if p.returncode == 0:
            shutil.rmtree(folder, ignore_errors=True)
            return "survived", ""
        shutil.rmtree(folder, ignore_errors=True)
        output = (p.stdout + p.stderr).decode("utf-8", "replace")
        failed = re.findall(r"^\[  FAILED  \] (\S+) \(", output, re.M)
        report = SANITIZER.search(output)
        if report:
            return "killed", "checked build: " + report.group(0)
        if p.returncode < 0:
            return "killed", "signal %d" % -p.returncode
        if failed:
            return "killed", "by " + ", ".join(failed[:3])
        return "killed", "exit %d" % p.returncode


def first_error(err):
    for line in err.splitlines():
        if "error" in line:
            return line.strip()[:160]
    return err.strip()[:160]


def equivalent_reason(mutant):
    return EQUIVALENT.get((mutant.file, mutant.context, mutant.text,
                           mutant.what))


# -- the run ---------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Mutants of the runner's verdict code against its tests.")
    p.add_argument("--cxx", default=os.environ.get("CXX", "c++"))
    p.add_argument("--include", nargs="+", action="extend", default=[],
                   help="include directories (the protocol's, the JSON "
                        "library's and the CUDA toolkit's; default: those of "
                        "this tree and /usr/local/cuda)")
    p.add_argument("--gtest-libs", nargs="+", default=["-lgtest_main",
                                                       "-lgtest"])
    p.add_argument("--count", type=int, default=None,
                   help="mutants to run, drawn by the seed (default: all)")
    p.add_argument("--seed", default=None, help="default: a new one")
    p.add_argument("--only", nargs="+", default=None,
                   help="run these mutants (FILE#N) alone")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=30,
                   help="seconds for one run of the tests")
    p.add_argument("--work", default=None,
                   help="folder for objects and failures (default: new)")
    p.add_argument("--list", action="store_true",
                   help="print the mutants and run nothing")
    args = p.parse_args(argv)
    # A CMake list arrives as one argument; the system's own directory must
    # not be searched before the C++ library's wrappers of its headers.
    args.include = [d for arg in args.include for d in arg.split(";")
                    if d and d != "/usr/include"] or [
        os.path.join(ROOT, "include"), "/usr/local/cuda/include"]
    return args


def all_mutants():
    texts, mutants = {}, []
    for name in FILES:
        with open(os.path.join(RUNTIME, name)) as f:
            texts[name] = f.read()
        mutants += mutants_of(name, texts[name])
    return texts, mutants


def chosen(args, mutants, seed):
    if args.only:
        by_id = {m.ident: m for m in mutants}
        unknown = [i for i in args.only if i not in by_id]
        if unknown:
            raise SystemExit("source-mutants: error: no mutant " +
                             ", ".join(unknown))
        return [by_id[i] for i in args.only]
    if args.count is None or args.count >= len(mutants):
        return mutants
    picked = random.Random(seed).sample(mutants, args.count)
    return sorted(picked, key=lambda m: (FILES.index(m.file), m.number))


def describe(m):
    return "%s (line %d: %s) in `%s`" % (m.ident, m.line, m.what, m.text)


def main(argv):
    args = parse_args(argv)
    seed = args.seed if args.seed is not None else str(
        random.SystemRandom().randrange(1 << 32))
    texts, mutants = all_mutants()
    keys = {(m.file, m.context, m.text, m.what) for m in mutants}
    for stale in sorted(set(EQUIVALENT) - keys):
        print("source-mutants: warning: EQUIVALENT names no mutant: %r"
              % (stale,), flush=True)
    run = chosen(args, mutants, seed)
    if args.list:
        for m in run:
            print(describe(m))
        return 0
    args.work = os.path.abspath(args.work or
                                tempfile.mkdtemp(prefix="optiml-srcmut."))
    os.makedirs(args.work, exist_ok=True)
    print("source-mutants: seed %s, %d of %d mutants of %s, work folder %s"
          % (seed, len(run), len(mutants), ", ".join(FILES), args.work),
          flush=True)
    builder = Builder(args)
    if not builder.prebuild():
        return 2
    start = time.monotonic()
    counts = {"killed": 0, "stillborn": 0, "equivalent": 0, "survived": 0}

    def one(m):
        folder = os.path.join(args.work, m.ident.replace("#", "-"))
        return m, builder.run(folder, m, texts[m.file])

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for m, (verdict, detail) in pool.map(one, run):
            reason = equivalent_reason(m) if verdict == "survived" else None
            if reason:
                verdict = "equivalent"
            counts[verdict] += 1
            if verdict == "survived":
                print("SURVIVED %s\n  rerun: scripts/source-mutants.py "
                      "--only %s" % (describe(m), m.ident), flush=True)
            elif args.only or verdict == "equivalent":
                print("%s %s: %s" % (verdict, describe(m), detail or reason),
                      flush=True)
    print("source-mutants: %d mutants in %.0f s: %d killed, %d stillborn "
          "(not compiled), %d equivalent, %d survived"
          % (len(run), time.monotonic() - start, counts["killed"],
             counts["stillborn"], counts["equivalent"], counts["survived"]))
    return 1 if counts["survived"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
