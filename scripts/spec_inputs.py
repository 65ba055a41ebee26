"""The repository's kernel specs as inputs for the robustness tests.

scripts/fuzz.sh seeds the spec fuzzer from them and scripts/mutate.py
mutates them: the marks (`#pragma optiml ...` before a kernel, continuation
lines joined), the expressions inside the marks, and each mark written as
the equivalent JSON sidecar entry (docs/Spec.md), so that both spec readers
start from specs that are known to be good.
"""

import json
import sys
import os
import re

# Folders whose .cu files hold real, marked kernels.
SOURCE_DIRS = ["examples", "benchmarks/corpus", "test"]

_MARK = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+optiml\b", re.M)
_KERNEL = re.compile(r"__global__\s+(?:[\w:<>,\s\*&]*?\s)?[\*&]*(\w+)\s*\(")


def source_files(root, dirs=SOURCE_DIRS):
    """Every .cu file under the source folders, sorted."""
    out = []
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            out += [os.path.join(base, f) for f in files if f.endswith(".cu")]
    return sorted(out)


def marks(text):
    """(clauses, kernel name or None) for each mark of a source text."""
    out = []
    for m in _MARK.finditer(text):
        end, lines = m.end(), []
        while True:
            nl = text.find("\n", end)
            line = text[end:] if nl < 0 else text[end:nl]
            if line.rstrip().endswith("\\") and nl >= 0:
                lines.append(line.rstrip()[:-1])
                end = nl + 1
                continue
            lines.append(line)
            break
        clauses = " ".join(" ".join(lines).split())
        kernel = _KERNEL.search(text, end)
        out.append((clauses, kernel.group(1) if kernel else None))
    return out


def closing(text, open_at):
    """The index of the ')' that closes the '(' at OPEN_AT; -1 when none."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def clauses(mark, strict=False):
    """[(name, body)] of a mark's top-level clauses; body None for a word.
    What cannot be read ends the list, or with STRICT raises ValueError."""
    out, i = [], 0
    word = re.compile(r"\s*(\w+)\s*")
    while i < len(mark):
        m = word.match(mark, i)
        if not m:
            if strict and mark[i:].strip():
                raise ValueError("cannot read the mark at %r" % mark[i:i + 20])
            return out
        name, i = m.group(1), m.end()
        if i < len(mark) and mark[i] == "(":
            close = closing(mark, i)
            if close < 0:
                if strict:
                    raise ValueError("unbalanced parenthesis in mark")
                return out
            out.append((name, mark[i + 1:close]))
            i = close + 1
        else:
            out.append((name, None))
    return out


def items(body):
    """A clause body split at its top-level commas."""
    out, depth, start = [], 0, 0
    for i, c in enumerate(body):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(c, 0)
        if c == "," and depth == 0:
            out.append(body[start:i].strip())
            start = i + 1
    out.append(body[start:].strip())
    return [x for x in out if x]


def _number_or_text(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def expressions(mark):
    """The expressions a mark holds: sizes, lengths, values, launch dims."""
    out = []
    for name, body in clauses(mark):
        if body is None:
            continue
        for item in items(body):
            if name in ("grid", "block", "shmem", "seeds"):
                out.append(item)
            elif name in ("in", "out", "inout") and "[" in item:
                out.append(item[item.index("[") + 1:item.rindex("]")])
            elif "=" in item and name in ("sizes", "scalar", "instance"):
                out.append(item.split("=", 1)[1].strip())
    return out


def sidecar_entry(mark):
    """The JSON sidecar entry that says what \\p mark says."""
    entry, args = {}, {}
    for name, body in clauses(mark):
        if body is None:
            continue
        for item in items(body):
            key, _, value = (x.strip() for x in item.partition("="))
            if name == "sizes":
                entry.setdefault("sizes", {})[key] = _number_or_text(value)
            elif name in ("in", "out", "inout") and "[" in item:
                arg = item[:item.index("[")].strip()
                args.setdefault(arg, {}).update(
                    role=name, length=item[item.index("[") + 1:item.rindex("]")])
            elif name == "scalar":
                args.setdefault(key, {}).update(
                    role="scalar", value=_number_or_text(value))
            elif name == "dist":
                args.setdefault(key, {})["dist"] = value
            elif name in ("grid", "block", "seeds"):
                entry.setdefault(name, []).append(_number_or_text(item))
            elif name == "shmem":
                entry["shmem"] = _number_or_text(item)
            elif name == "tolerance":
                entry.setdefault("tolerance", {})[key] = _number_or_text(value)
            elif name == "template":
                entry.setdefault("template", {})[key] = _number_or_text(value)
            elif name == "instance" and ":" in item:
                inst, _, first = item.partition(":")
                entry.setdefault("instances", {})[inst.strip()] = {}
                key, _, value = (x.strip() for x in first.partition("="))
                entry["instances"][inst.strip()][key] = _number_or_text(value)
            elif name == "instance" and entry.get("instances"):
                last = list(entry["instances"].values())[-1]
                last[key] = _number_or_text(value)
    if args:
        entry["args"] = args
    return entry


def sidecar(marked):
    """A sidecar text for [(clauses, kernel)], or None without a kernel."""
    kernels = {k: sidecar_entry(c) for c, k in marked if k}
    if not kernels:
        return None
    return json.dumps({"kernels": kernels}, indent=2) + "\n"


def seeds(root):
    """The spec fuzzer's seed inputs: {file name: bytes}. The first byte
    says which reader an input is for (tools/optiml-spec-fuzzer)."""
    out = {}

    def add(kind, text):
        data = kind + text.encode("utf-8", "surrogateescape")
        out["%s-%04d" % (kind.decode().lower(), len(out))] = data

    seen = set()
    for path in source_files(root):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            found = marks(f.read())
        for clauses_text, _ in found:
            for kind, text in [(b"P", clauses_text)] + [
                    (b"E", e) for e in expressions(clauses_text)]:
                if (kind, text) not in seen:
                    seen.add((kind, text))
                    add(kind, text)
        side = sidecar(found)
        if side:
            add(b"J", side)
    for base, _, files in os.walk(os.path.join(root, "test")):
        for f in sorted(files):
            if f.endswith(".json") and "Spec" in base:
                with open(os.path.join(base, f), encoding="utf-8") as j:
                    add(b"J", j.read())
    return out


def main(argv):
    if len(argv) != 3 or argv[1] != "seeds":
        sys.stderr.write("usage: spec_inputs.py seeds OUT-DIR\n")
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.makedirs(argv[2], exist_ok=True)
    for name, data in seeds(root).items():
        with open(os.path.join(argv[2], name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
