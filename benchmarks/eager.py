#!/usr/bin/env python3
"""PyTorch eager baselines for OptiML's kernels (benchmarks/eager.txt).

For a kernel of examples/ or benchmarks/corpus/ that has a PyTorch
equivalent, this times that equivalent in eager mode (cuBLAS, cuDNN,
cuSPARSE and PyTorch's own reductions and scans) at the sizes of the
kernel's `#pragma optiml kernel` mark, so that the naive and the optimized
kernel (timed by OptiML's runner) can be put next to what a PyTorch user
gets. Each op computes what its kernel computes: the same input and output
shapes, the same results (up to the order of floating-point sums).

    eager.py --op mm --sizes '{"M": 4096, "N": 4096, "K": 4096}'
    eager.py --op axpy --sizes '{"N": 16777216}' --scalars '{"a": 2.5}'
    eager.py --op mm --spec examples/sgemm.cu --kernel sgemm
    eager.py --op mm --spec LIST.json --kernel sgemm --dry-run
    eager.py --op mm --spec examples/sgemm.cu --kernel sgemm --check
    eager.py --list

--op NAME: one of --list's ops. --sizes/--scalars: the mark's sizes and
scalar values (JSON); --spec takes them from a mark instead: a .cu file, or
the JSON of `clang-optiml FILE --list-kernels --format=json` (which gives
the mark's clauses); --sizes then overrides sizes of the mark (the others
that depend on them follow, as in an instance), and --instance NAME uses a
named instance of the mark. Prints one JSON line:
{"op", "median_ms", "spread", "what", ...}.

Timing: float32 unless the kernel's types say otherwise, TF32 off for
matmuls and convolutions; CUDA events around each repetition after a
warm-up, the median of --reps (>= 30) repetitions; spread is the
interquartile range over the median. As OptiML's runner does, the L2 cache
is flushed before every repetition (256 MiB written); the flush also lets
the op's launches queue up behind it, so the host's launch latency of the
first kernel is not counted, while gaps between the kernels of a
multi-kernel op are, as they are in eager mode. The runner times kernels
with CUPTI (the kernel's own duration), so on a one-kernel op the event
time is a few microseconds longer than CUPTI would say.

--dry-run: no torch needed; prints the op's input and output shapes, and
with --spec checks them against the mark's buffers: element counts in the
mark's order (in then inout buffers; out then inout buffers), floating or
integer types, and the inputs' distributions (exit 1 on a mismatch).

--check: also runs the naive kernel itself (the .cu built with nvcc into a
shared library, launched with the mark's geometry on the op's inputs) and
compares its outputs with the op's: "ok" within the mark's tolerance,
"close" when only the order of sums explains the difference (relative L2
error <= 1e-4), "FAIL" otherwise. Needs nvcc and --spec.

For scripts/gpu-check.sh (section eager):
    eager.py --batch JOBS.jsonl [--check]   one JSON line per job {id, op, spec, file, kernel}
    eager.py --table JOBS.jsonl ROWS.jsonl [--jsonl OUT]
        the evaluate results and the eager rows merged: "STATUS<TAB>NAME<TAB>DETAIL"
        per kernel, and the geomean of eager / optimized last (no torch needed)
    eager.py --missing JOBS.jsonl ROWS.jsonl   the jobs without a row
"""

import argparse
import ast
import ctypes
import hashlib
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "scripts"))
import spec_inputs  # noqa: E402  (the marks' reader the robustness tests use)

# Imported in main() unless --dry-run: shapes and specs need no torch.
torch = None
F = None

FLUSH_BYTES = 256 << 20


class SpecError(Exception):
    pass


# --- The mark: C-like expressions, clauses, instances ----------------------

# C literal suffixes (16u, 2.5f, 1UL) that Python does not read.
_SUFFIX = re.compile(
    r"(?<![\w.])(0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)[uUlLfF]+\b")


def _c_div(a, b):
    if b == 0:
        raise SpecError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def c_eval(expr, names):
    """Value of a spec expression (docs/Spec.md): 64-bit integer arithmetic
    with C's truncating / and %, double once a floating value takes part,
    ceil_div/min/max, sizes looked up in NAMES."""
    text = _SUFFIX.sub(r"\1", str(expr).strip())
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise SpecError("cannot read expression %r" % expr)

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and type(n.value) in (int, float):
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in names:
                raise SpecError("unknown size %r in %r" % (n.id, expr))
            return names[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ints = isinstance(a, int) and isinstance(b, int)
            kind = type(n.op)
            if kind is ast.Add:
                return a + b
            if kind is ast.Sub:
                return a - b
            if kind is ast.Mult:
                return a * b
            if kind is ast.Div:
                return _c_div(a, b) if ints else a / b
            if kind is ast.Mod and ints:
                return a - b * _c_div(a, b)
            if kind is ast.LShift and ints:
                return a << b
            if kind is ast.RShift and ints:
                return a >> b
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and not n.keywords and len(n.args) == 2):
            a, b = ev(n.args[0]), ev(n.args[1])
            if n.func.id == "ceil_div" and isinstance(a, int) and isinstance(b, int):
                return _c_div(a + b - 1, b)
            if n.func.id == "min":
                return min(a, b)
            if n.func.id == "max":
                return max(a, b)
        raise SpecError("unsupported expression %r" % expr)

    return ev(tree)


def split_clauses(mark):
    """[(name, body)] of the mark's top-level clauses; body None for a bare
    word (the leading `kernel`)."""
    try:
        return spec_inputs.clauses(mark, strict=True)
    except ValueError as e:
        raise SpecError(str(e))


split_items = spec_inputs.items


class Spec:
    """A kernel's mark, as written (expressions unevaluated), and its
    parameters (name, C type, pointer, element type) when known."""

    def __init__(self, kernel, clauses, params=None, typedefs=None):
        self.kernel = kernel
        self.clauses = clauses
        self.params = params
        self.typedefs = typedefs or {}
        self.sizes, self.scalars, self.buffers = [], [], []
        self.dists, self.tolerance, self.instances = {}, {}, {}
        self.grid, self.block, self.shmem = ["1"], ["1"], "0"
        for name, body in split_clauses(clauses):
            if body is None:
                continue
            items = split_items(body)
            if name in ("sizes", "scalar", "tolerance", "dist"):
                for item in items:
                    key, eq, value = (x.strip() for x in item.partition("="))
                    if not eq:
                        raise SpecError("expected NAME = VALUE in %s(%s)" % (name, body))
                    if name == "sizes":
                        self.sizes.append((key, value))
                    elif name == "scalar":
                        self.scalars.append((key, value))
                    elif name == "tolerance":
                        self.tolerance[key] = float(c_eval(value, {}))
                    else:
                        self.dists[key] = value
            elif name in ("in", "out", "inout"):
                for item in items:
                    m = re.match(r"(\w+)\s*\[(.*)\]$", item, re.S)
                    if not m:
                        raise SpecError("expected NAME[LENGTH] in %s(%s)" % (name, body))
                    self.buffers.append((name, m.group(1), m.group(2).strip()))
            elif name in ("grid", "block"):
                setattr(self, name, items)
            elif name == "shmem":
                self.shmem = body.strip()
            elif name == "instance":
                inst, colon, first = items[0].partition(":")
                if not colon:
                    raise SpecError("expected NAME: SIZE = EXPR in instance(%s)" % body)
                pairs = [first] + items[1:]
                self.instances[inst.strip()] = [
                    tuple(x.strip() for x in p.split("=", 1)) for p in pairs]

    def names(self, role):
        return [n for r, n, _ in self.buffers if r == role]

    def instantiate(self, instance=None, overrides=None):
        """Concrete numbers: sizes (each in the order written, an override
        in place of the default), scalars, buffer lengths, launch."""
        over = {}
        if instance:
            if instance not in self.instances:
                raise SpecError("no instance %r in the mark of %s (has: %s)" % (
                    instance, self.kernel, ", ".join(self.instances) or "none"))
            over.update(dict(self.instances[instance]))
        over.update(overrides or {})
        known = {k for k, _ in self.sizes}
        unknown = sorted(set(over) - known)
        if unknown:
            raise SpecError("%s: no size %s in the mark (sizes: %s)" % (
                self.kernel, ", ".join(unknown), ", ".join(sorted(known))))
        sizes = {}
        for name, expr in self.sizes:
            value = c_eval(over.get(name, expr), sizes)
            if not isinstance(value, int) or value < 0:
                raise SpecError("size %s = %r is not a non-negative integer" % (name, value))
            sizes[name] = value
        return types.SimpleNamespace(
            sizes=sizes,
            scalars={k: c_eval(v, sizes) for k, v in self.scalars},
            lengths={n: c_eval(e, sizes) for _, n, e in self.buffers},
            grid=tuple(c_eval(e, sizes) for e in self.grid) + (1,) * (3 - len(self.grid)),
            block=tuple(c_eval(e, sizes) for e in self.block) + (1,) * (3 - len(self.block)),
            shmem=c_eval(self.shmem, sizes),
            tolerance={"rtol": self.tolerance.get("rtol", 1e-5),
                       "atol": self.tolerance.get("atol", 1e-6),
                       "norm": self.tolerance.get("norm", 1e-5)})

    def param_type(self, p):
        """The runner's element type of a parameter (a pointer's pointee)."""
        c = p["element_type"] if p["pointer"] else p["type"]
        c = " ".join(w for w in c.replace("*", " ").split()
                     if w not in ("const", "volatile", "__restrict__", "restrict"))
        c = self.typedefs.get(c, c)
        if c.startswith("std::"):
            c = c[5:]
        return C_TYPES.get(c)


C_TYPES = {
    "float": "f32", "double": "f64",
    "char": "i8", "signed char": "i8", "int8_t": "i8",
    "unsigned char": "u8", "uint8_t": "u8",
    "short": "i16", "int16_t": "i16", "unsigned short": "u16", "uint16_t": "u16",
    "int": "i32", "int32_t": "i32", "unsigned": "u32", "unsigned int": "u32",
    "uint32_t": "u32", "long": "i64", "long long": "i64", "int64_t": "i64",
    "ptrdiff_t": "i64", "unsigned long": "u64", "unsigned long long": "u64",
    "uint64_t": "u64", "size_t": "u64",
}

def _typedefs(text):
    return {m.group(2): " ".join(m.group(1).split())
            for m in re.finditer(r"\btypedef\s+([\w\s]+?)\s+(\w+)\s*;", text)}


def _signature(text, at):
    """Parameters of the kernel whose '(' is at AT, from the source text."""
    close = spec_inputs.closing(text, at)
    if close < 0:
        raise SpecError("unbalanced parenthesis in the kernel's parameters")
    body = text[at + 1:close]
    params = []
    for item in split_items(body):
        m = re.match(r"(.*?)(\w+)\s*$", item, re.S)
        if not m:
            raise SpecError("cannot read parameter %r" % item)
        ctype = " ".join(m.group(1).replace("*", " * ").split())
        pointer = "*" in ctype
        base = " ".join(w for w in ctype.split() if w not in ("*",))
        params.append({"name": m.group(2), "pointer": pointer, "type": ctype,
                       "element_type": base if pointer else None})
    return params


def spec_from_source(path, kernel):
    """The mark right before KERNEL (its unqualified name) in a .cu file, and
    the kernel's parameters read from its signature."""
    text = open(path, encoding="utf-8", errors="replace").read()
    want = kernel.split("::")[-1]
    for mark, name in spec_inputs.marks(text):
        found = re.search(r"__global__\s+(?:[\w:<>,\s\*&]*?\s)?[\*&]*" +
                          re.escape(want) + r"\s*\(", text)
        if name == want and found:
            return Spec(kernel, mark, _signature(text, found.end() - 1),
                        _typedefs(text))
    raise SpecError("no marked kernel %s in %s" % (kernel, path))


def spec_from_listing(path, kernel, source=None):
    """The mark of KERNEL from `clang-optiml FILE --list-kernels
    --format=json` output (the tool ties marks to kernels)."""
    doc = json.load(open(path))
    for k in doc.get("kernels", []):
        if kernel in (k.get("name"), k.get("qualified_name")):
            if not k.get("mark"):
                raise SpecError("kernel %s has no mark in %s" % (kernel, path))
            src = source or doc.get("file")
            typedefs = {}
            if src and os.path.exists(src):
                typedefs = _typedefs(open(src, encoding="utf-8", errors="replace").read())
            return Spec(k.get("qualified_name") or kernel, k["mark"]["clauses"],
                        k.get("params"), typedefs)
    raise SpecError("no kernel %s in %s" % (kernel, path))


def load_spec(path, kernel, source=None):
    if path.endswith(".json"):
        return spec_from_listing(path, kernel, source)
    return spec_from_source(path, kernel)


# --- The ops ----------------------------------------------------------------

UNIFORM = ("uniform", -1.0, 1.0)  # the spec's default for floating inputs


class Buf:
    """One buffer of an op: its shape and element type, and for an input
    the distribution it is drawn from (the kernel's mark says the same)."""

    def __init__(self, name, shape, dtype="f32", dist=UNIFORM):
        self.name, self.shape, self.dtype, self.dist = name, tuple(shape), dtype, dist

    @property
    def numel(self):
        return math.prod(self.shape)

    def describe(self, with_dist=True):
        d = {"name": self.name, "shape": list(self.shape), "dtype": self.dtype}
        if with_dist and self.dist:
            d["dist"] = "%s(%s)" % (self.dist[0], ", ".join(str(x) for x in self.dist[1:]))
        return d


class Plan:
    """What an op reads and writes, positionally as the kernel's mark lists
    them: INS are the kernel's in buffers, INOUTS its inout buffers (read,
    then changed in place or returned), OUTS its out buffers. RUN(t) gets a
    namespace of tensors by these names and returns None (outputs written
    in place) or {name: tensor} for the outputs it made. PREPARE(t), once
    and not timed, builds what the op needs besides the inputs (a CSR
    matrix)."""

    def __init__(self, call, what, ins=(), outs=(), inouts=(), run=None, prepare=None):
        self.call, self.what = call, what
        self.ins, self.outs, self.inouts = list(ins), list(outs), list(inouts)
        self.run, self.prepare = run, prepare


OPS = {}


def op(name, doc):
    def wrap(fn):
        fn.doc = doc
        OPS[name] = fn
        return fn
    return wrap


def make_plan(name, sizes, scalars):
    try:
        return OPS[name](sizes, scalars)
    except SpecError as e:
        raise SpecError("op %s: %s" % (name, e))


def need(d, kind, *keys):
    missing = [k for k in keys if k not in d]
    if missing:
        raise SpecError("missing %s %s" % (kind, ", ".join(missing)))
    return [d[k] for k in keys]


@op("mm", "C = A @ B, row-major A[M,K], B[K,N] (sizes M, N, K; or N alone: square)")
def op_mm(S, sc):
    if "M" in S or "K" in S:
        m, n, k = need(S, "size", "M", "N", "K")
    else:
        m = n = k = need(S, "size", "N")[0]
    return Plan("torch.mm", "torch.mm (cuBLAS SGEMM, fp32, TF32 off)",
                ins=[Buf("A", (m, k)), Buf("B", (k, n))], outs=[Buf("C", (m, n))],
                run=lambda t: torch.mm(t.A, t.B, out=t.C))


@op("linear", "y = x @ w^T with w stored as N rows of K (sizes M, N, K)")
def op_linear(S, sc):
    m, n, k = need(S, "size", "M", "N", "K")
    return Plan("F.linear", "torch.nn.functional.linear, no bias (cuBLAS, fp32, TF32 off)",
                ins=[Buf("x", (m, k)), Buf("w", (n, k))], outs=[Buf("y", (m, n))],
                run=lambda t: {"y": F.linear(t.x, t.w)})


@op("addmm_tn", "c = alpha * a^T @ b + beta * c, a stored K x M (sizes M, N, K; scalars alpha, beta)")
def op_addmm_tn(S, sc):
    m, n, k = need(S, "size", "M", "N", "K")
    alpha, beta = need(sc, "scalar", "alpha", "beta")
    return Plan("Tensor.addmm_", "c.addmm_(a.t(), b, beta, alpha) (cuBLAS, fp32, TF32 off)",
                ins=[Buf("a", (k, m)), Buf("b", (k, n))], inouts=[Buf("c", (m, n))],
                run=lambda t: t.c.addmm_(t.a.t(), t.b, beta=beta, alpha=alpha))


@op("addmm", "c = alpha * a @ b + beta * c (sizes NI, NJ, NK; scalars alpha, beta)")
def op_addmm(S, sc):
    ni, nj, nk = need(S, "size", "NI", "NJ", "NK")
    alpha, beta = need(sc, "scalar", "alpha", "beta")
    return Plan("Tensor.addmm_", "c.addmm_(a, b, beta, alpha) (cuBLAS, fp32, TF32 off)",
                ins=[Buf("a", (ni, nk)), Buf("b", (nk, nj))], inouts=[Buf("c", (ni, nj))],
                run=lambda t: t.c.addmm_(t.a, t.b, beta=beta, alpha=alpha))


@op("mv", "y = A @ x, A[M,N] row-major (sizes M, N)")
def op_mv(S, sc):
    m, n = need(S, "size", "M", "N")
    return Plan("torch.mv", "torch.mv (cuBLAS SGEMV, fp32)",
                ins=[Buf("A", (m, n)), Buf("x", (n,))], outs=[Buf("y", (m,))],
                run=lambda t: torch.mv(t.A, t.x, out=t.y))


@op("transpose", "out[C,R] = in[R,C]^T (sizes R, C)")
def op_transpose(S, sc):
    r, c = need(S, "size", "R", "C")
    return Plan("x.t().contiguous()", "out.copy_(x.t()): the copy .contiguous() makes",
                ins=[Buf("x", (r, c))], outs=[Buf("y", (c, r))],
                run=lambda t: t.y.copy_(t.x.t()))


@op("axpy", "y = a * x + y in place (size N; scalar a)")
def op_axpy(S, sc):
    n, = need(S, "size", "N")
    a, = need(sc, "scalar", "a")
    return Plan("y.add_(x, alpha=a)", "y.add_(x, alpha=a) (elementwise, fp32)",
                ins=[Buf("x", (n,))], inouts=[Buf("y", (n,))],
                run=lambda t: t.y.add_(t.x, alpha=a))


@op("softmax", "row softmax of x[R,C], inputs uniform(-8, 8) (sizes R, C)")
def op_softmax(S, sc):
    r, c = need(S, "size", "R", "C")
    return Plan("torch.softmax", "torch.softmax(x, dim=1) (fp32)",
                ins=[Buf("x", (r, c), dist=("uniform", -8.0, 8.0))], outs=[Buf("y", (r, c))],
                run=lambda t: {"y": torch.softmax(t.x, dim=1)})


@op("block_sums", "partial[b] = sum of x[256 b .. 256 b + 255] (size N; block_sum's BLOCK)")
def op_block_sums(S, sc):
    n, = need(S, "size", "N")
    blocks = (n + 255) // 256

    def run(t):
        x = t.x if n % 256 == 0 else F.pad(t.x, (0, blocks * 256 - n))
        torch.sum(x.view(blocks, 256), dim=1, out=t.p)
    return Plan("torch.sum(x.view(-1, 256), 1)", "torch.sum over rows of 256 (fp32)",
                ins=[Buf("x", (n,))], outs=[Buf("p", (blocks,))], run=run)


@op("col_mean", "mean[j] = sum_i data[i, j] / float_n, data[N,M] (sizes M, N; scalar float_n)")
def op_col_mean(S, sc):
    m, n = need(S, "size", "M", "N")
    float_n, = need(sc, "scalar", "float_n")

    def run(t):
        # The kernel divides by float_n; where that is the row count this
        # is exactly torch.mean, one kernel.
        if float_n == n:
            torch.mean(t.data, dim=0, out=t.mean)
        else:
            torch.div(torch.sum(t.data, dim=0), float_n, out=t.mean)
    return Plan("torch.mean(data, 0)", "torch.mean(data, dim=0) (fp32)",
                ins=[Buf("data", (n, m))], outs=[Buf("mean", (m,))], run=run)


@op("sum", "result[0] += sum of x, x uniform(0, 1) (size N)")
def op_sum(S, sc):
    n, = need(S, "size", "N")
    return Plan("torch.sum", "result.add_(torch.sum(x)) (fp32)",
                ins=[Buf("x", (n,), dist=("uniform", 0.0, 1.0))],
                inouts=[Buf("result", (1,), dist=("constant", 0.0))],
                run=lambda t: t.result.add_(torch.sum(t.x)))


@op("row_sum", "sums[r] = sum of mat[r, :] (sizes R, C)")
def op_row_sum(S, sc):
    r, c = need(S, "size", "R", "C")
    return Plan("torch.sum(mat, 1)", "torch.sum(mat, dim=1) (fp32)",
                ins=[Buf("mat", (r, c))], outs=[Buf("sums", (r,))],
                run=lambda t: torch.sum(t.mat, dim=1, out=t.sums))


@op("bincount", "bins[v] += count of bytes v in data, 256 bins (size N)")
def op_bincount(S, sc):
    n, = need(S, "size", "N")
    return Plan("torch.bincount", "bins.add_(torch.bincount(data, minlength=256)) (uint8 data)",
                ins=[Buf("data", (n,), "u8", ("int", 0, 255))],
                inouts=[Buf("bins", (256,), "i64", ("constant", 0))],
                run=lambda t: t.bins.add_(torch.bincount(t.data, minlength=256)))


@op("layer_norm", "LayerNorm over C (eps 1e-5) with weight and bias, and each row's mean and rstd (sizes BT, C)")
def op_layer_norm(S, sc):
    bt, c = need(S, "size", "BT", "C")

    def run(t):
        out, mean, rstd = torch.native_layer_norm(t.x, (c,), t.w, t.b, 1e-5)
        return {"out": out, "mean": mean, "rstd": rstd}
    return Plan("torch.native_layer_norm",
                "torch.native_layer_norm (F.layer_norm's op, which also returns mean and rstd; fp32)",
                ins=[Buf("x", (bt, c)), Buf("w", (c,)), Buf("b", (c,))],
                outs=[Buf("out", (bt, c)), Buf("mean", (bt,)), Buf("rstd", (bt,))], run=run)


@op("row_mean_var", "each row's mean and biased variance (sizes R, C)")
def op_row_mean_var(S, sc):
    r, c = need(S, "size", "R", "C")

    def run(t):
        var, mean = torch.var_mean(t.x, dim=1, correction=0)
        return {"mean": mean, "var": var}
    return Plan("torch.var_mean", "torch.var_mean(x, dim=1, correction=0) (fp32)",
                ins=[Buf("x", (r, c))], outs=[Buf("mean", (r,)), Buf("var", (r,))], run=run)


@op("spmv_csr", "y = A @ x, A CSR with NZR nonzeros a row (sizes R, C, NZR)")
def op_spmv_csr(S, sc):
    r, c, nzr = need(S, "size", "R", "C", "NZR")

    def prepare(t):
        t.A = torch.sparse_csr_tensor(t.row_ptr, t.col_idx, t.vals, size=(r, c))
        try:
            torch.mv(t.A, t.x)
            t.mv = lambda: torch.mv(t.A, t.x)
        except (RuntimeError, NotImplementedError):
            t.mv = lambda: torch.sparse.mm(t.A, t.x.unsqueeze(1)).squeeze(1)
            t.what = "torch.sparse.mm(A_csr, x[:, None]) (cuSPARSE SpMM, fp32, int32 indices)"

    return Plan("torch.mv(A_csr, x)", "torch.mv(A_csr, x) (cuSPARSE SpMV, fp32, int32 indices)",
                ins=[Buf("row_ptr", (r + 1,), "i32", ("index", nzr, 0)),
                     Buf("col_idx", (r * nzr,), "i32", ("int", 0, c - 1)),
                     Buf("vals", (r * nzr,)), Buf("x", (c,))],
                outs=[Buf("y", (r,))], prepare=prepare, run=lambda t: {"y": t.mv()})


@op("cumsum", "y[r, :] = cumulative sum of x[r, :] (sizes R, C)")
def op_cumsum(S, sc):
    r, c = need(S, "size", "R", "C")
    return Plan("torch.cumsum(x, 1)", "torch.cumsum(x, dim=1) (fp32)",
                ins=[Buf("x", (r, c))], outs=[Buf("y", (r, c))],
                run=lambda t: torch.cumsum(t.x, dim=1, out=t.y))


@op("conv2d", "NCHW convolution, stride 1, no padding, with bias (sizes NB, C, K, H, W, RS)")
def op_conv2d(S, sc):
    nb, c, k, h, w, rs = need(S, "size", "NB", "C", "K", "H", "W", "RS")
    return Plan("F.conv2d", "torch.nn.functional.conv2d with bias (cuDNN, fp32, TF32 off)",
                ins=[Buf("x", (nb, c, h, w)), Buf("wt", (k, c, rs, rs), dist=("uniform", -0.1, 0.1)),
                     Buf("b", (k,))],
                outs=[Buf("y", (nb, k, h - rs + 1, w - rs + 1))],
                run=lambda t: {"y": F.conv2d(t.x, t.wt, t.b)})


@op("conv1d", "P[i] = sum_j N[i - MW/2 + j] * M[j], zero outside (sizes W, MW)")
def op_conv1d(S, sc):
    w, mw = need(S, "size", "W", "MW")

    def run(t):
        # conv1d is a correlation: output i reads inputs i - pad .. i - pad
        # + MW - 1, the kernel's window; an even MW gives one extra output.
        y = F.conv1d(t.x.view(1, 1, w), t.m.view(1, 1, mw), padding=mw // 2)
        return {"P": y.view(-1)[:w]}
    return Plan("F.conv1d", "torch.nn.functional.conv1d, padding MW/2 (cuDNN, fp32, TF32 off)",
                ins=[Buf("x", (w,)), Buf("m", (mw,))], outs=[Buf("P", (w,))], run=run)


# --- Inputs, timing, checking ------------------------------------------------

TORCH_TYPES = {"f32": "float32", "f64": "float64", "u8": "uint8", "i8": "int8",
               "i16": "int16", "i32": "int32", "u32": "int32", "i64": "int64",
               "u64": "int64", "u16": "int16"}


def tdtype(kind):
    return getattr(torch, TORCH_TYPES[kind])


def make_input(buf, gen):
    dev, dt = "cuda", tdtype(buf.dtype)
    kind = buf.dist[0]
    if kind == "uniform":
        lo, hi = buf.dist[1:]
        return torch.rand(buf.shape, generator=gen, device=dev, dtype=dt) * (hi - lo) + lo
    if kind == "normal":
        mean, std = buf.dist[1:]
        return torch.randn(buf.shape, generator=gen, device=dev, dtype=dt) * std + mean
    if kind == "int":
        lo, hi = buf.dist[1:]
        return torch.randint(lo, hi + 1, buf.shape, generator=gen, device=dev, dtype=dt)
    if kind == "index":  # (i mod mod) * scale + offset, no mod when absent
        scale, offset = buf.dist[1:3]
        idx = torch.arange(buf.numel, device=dev, dtype=torch.int64)
        if len(buf.dist) > 3:
            idx = idx % buf.dist[3]
        idx = idx * scale + offset
        return idx.to(dt).view(buf.shape)
    if kind == "constant":
        return torch.full(buf.shape, buf.dist[1], device=dev, dtype=dt)
    raise SpecError("unknown distribution %r" % (buf.dist,))


class Case:
    """An op's plan with its tensors on the GPU, ready to run."""

    def __init__(self, plan, seed=1):
        self.plan = plan
        gen = torch.Generator(device="cuda").manual_seed(seed)
        self.t = types.SimpleNamespace(what=None)
        for b in plan.ins + plan.inouts:
            setattr(self.t, b.name, make_input(b, gen))
        for b in plan.outs:
            setattr(self.t, b.name, torch.empty(b.shape, device="cuda", dtype=tdtype(b.dtype)))
        # inout buffers start from the same values in every repetition
        self.initial = {b.name: getattr(self.t, b.name).clone() for b in plan.inouts}
        if plan.prepare:
            plan.prepare(self.t)
        self.made = {}

    def reset(self):
        for name, value in self.initial.items():
            getattr(self.t, name).copy_(value)

    def run(self):
        # An op either writes its buffers in place (out=, add_: whatever it
        # returns is that buffer) or returns new tensors by name (a dict).
        made = self.plan.run(self.t)
        if isinstance(made, dict):
            self.made = made

    def outputs(self):
        """The results in the mark's order: out buffers, then inout ones."""
        return [self.made.get(b.name, getattr(self.t, b.name))
                for b in self.plan.outs + self.plan.inouts]

    @property
    def what(self):
        return self.t.what or self.plan.what


def measure(case, reps, warmup):
    flush = torch.empty(FLUSH_BYTES // 4, device="cuda", dtype=torch.float32)
    for _ in range(warmup):
        case.reset()
        case.run()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        case.reset()
        flush.fill_(1.0)
        start.record()
        case.run()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    med = statistics.median(times)
    q1, q3 = times[len(times) // 4], times[(3 * len(times)) // 4]
    return {"median_ms": med, "spread": (q3 - q1) / med if med > 0 else 0.0,
            "min_ms": times[0], "max_ms": times[-1], "reps": reps}


def spec_layout_errors(plan, spec, inst):
    """Where the op's buffers disagree with the mark's, in order and count."""
    errors = []
    pairs = [("in", plan.ins + plan.inouts, spec.names("in") + spec.names("inout")),
             ("out", plan.outs + plan.inouts, spec.names("out") + spec.names("inout"))]
    for side, bufs, names in pairs:
        if len(bufs) != len(names):
            errors.append("%s buffers: op has %d (%s), mark has %d (%s)" % (
                side, len(bufs), ", ".join(b.name for b in bufs), len(names), ", ".join(names)))
            continue
        for b, name in zip(bufs, names):
            if b.numel != inst.lengths[name]:
                errors.append("%s %s: op has %d elements (%s), mark %s[%d]" % (
                    side, b.name, b.numel, "x".join(map(str, b.shape)), name, inst.lengths[name]))
    # Inputs drawn as the mark draws them (the spec's default when it says
    # nothing): a histogram's or a sparse matrix's time depends on them.
    for b, name in zip(plan.ins + plan.inouts, spec.names("in") + spec.names("inout")):
        want = mark_dist(spec, name, inst.sizes, b.dtype)
        if want and (want[0] != b.dist[0] or any(
                abs(float(x) - float(y)) > 1e-12 for x, y in zip(want[1:], b.dist[1:]))):
            errors.append("%s: op draws %s, mark %s" % (
                name, b.describe()["dist"], Buf(name, (), dist=want).describe()["dist"]))
    if spec.params:
        by_name = {p["name"]: p for p in spec.params}
        for b, name in zip(plan.ins + plan.inouts + plan.outs,
                           spec.names("in") + spec.names("inout") + spec.names("out")):
            kind = spec.param_type(by_name[name]) if name in by_name else None
            if kind and (kind[0] == "f") != (b.dtype[0] == "f"):
                errors.append("%s: op type %s, kernel %s" % (name, b.dtype, kind))
    return errors


def mark_dist(spec, name, sizes, dtype):
    """The mark's distribution of buffer NAME as a tuple, the spec's default
    (uniform(-1, 1) for floating inputs, int(0, 100) for integers) when it
    gives none."""
    text = spec.dists.get(name)
    if text is None:
        return ("uniform", -1.0, 1.0) if dtype[0] == "f" else ("int", 0, 100)
    m = re.match(r"(\w+)\s*\((.*)\)$", text.strip(), re.S)
    if not m:
        raise SpecError("cannot read distribution %r" % text)
    return (m.group(1),) + tuple(c_eval(x, sizes) for x in split_items(m.group(2)))


def sizes_and_scalars(args):
    spec = inst = None
    overrides = json.loads(args.sizes) if args.sizes else {}
    scalars = json.loads(args.scalars) if args.scalars else {}
    if args.spec:
        spec = load_spec(args.spec, args.kernel, args.source)
        inst = spec.instantiate(args.instance, overrides)
        sizes = inst.sizes
        scalars = dict(inst.scalars, **scalars)
    else:
        sizes = overrides
    return spec, inst, sizes, scalars


# --- --check: the naive kernel itself, on the op's inputs -------------------

CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i8": ctypes.c_int8,
          "u8": ctypes.c_uint8, "i16": ctypes.c_int16, "u16": ctypes.c_uint16,
          "i32": ctypes.c_int32, "u32": ctypes.c_uint32, "i64": ctypes.c_int64,
          "u64": ctypes.c_uint64}


def build_kernel(source, spec, workdir, arch=None):
    """The source built by nvcc into a shared library with one entry,
    optiml_eager_launch(args, grid, block, shmem), that launches the marked
    kernel (the file's main renamed away). Cached by content."""
    if arch is None:
        arch = "sm_%d%d" % torch.cuda.get_device_capability()
    source = os.path.abspath(source)
    text = open(source, "rb").read()
    key = hashlib.sha256(text + spec.kernel.encode() + arch.encode()).hexdigest()[:16]
    lib = os.path.join(workdir, "eager-check-%s.so" % key)
    if os.path.exists(lib):
        return lib
    wrapper = os.path.join(workdir, "eager-check-%s.cu" % key)
    with open(wrapper, "w") as f:
        f.write('#define main optiml_eager_unused_main\n#include "%s"\n#undef main\n'
                'extern "C" int optiml_eager_launch(void **args, unsigned gx, unsigned gy,\n'
                '    unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned long shmem) {\n'
                '  cudaError_t err = cudaLaunchKernel((const void *)&::%s, dim3(gx, gy, gz),\n'
                '      dim3(bx, by, bz), args, (size_t)shmem, 0);\n'
                '  if (err == cudaSuccess) err = cudaDeviceSynchronize();\n'
                '  return (int)err;\n}\n' % (source, spec.kernel))
    nvcc = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
    if not os.path.exists(nvcc):
        nvcc = "nvcc"
    cmd = [nvcc, "-O3", "-arch=" + arch, "-shared", "-Xcompiler", "-fPIC",
           "-o", lib + ".tmp", wrapper]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SpecError("nvcc failed: %s" % (p.stderr.strip().splitlines() or ["?"])[-1])
    os.replace(lib + ".tmp", lib)
    return lib


def compare(got, want, tol):
    """Elementwise |got - want| <= atol + rtol |want| and the relative L2
    error, in double."""
    g = got.reshape(-1).to(torch.float64)
    w = want.reshape(-1).to(torch.float64)
    if g.numel() != w.numel():
        return {"ok": False, "error": "%d elements, expected %d" % (g.numel(), w.numel())}
    diff = (g - w).abs()
    bad = int((diff > tol["atol"] + tol["rtol"] * w.abs()).sum().item())
    bad += int((torch.isfinite(g) != torch.isfinite(w)).sum().item())
    norm = (torch.linalg.vector_norm(g - w) / max(torch.linalg.vector_norm(w).item(), 1e-30)).item()
    return {"ok": bad == 0, "mismatches": bad, "norm_err": norm,
            "max_abs_err": diff.max().item() if diff.numel() else 0.0}


def check(plan, spec, inst, source, workdir):
    """The naive kernel and the op on the same inputs; the verdict."""
    errors = spec_layout_errors(plan, spec, inst)
    if errors:
        return {"verdict": "FAIL", "error": "; ".join(errors)}
    if not spec.params:
        return {"verdict": "FAIL", "error": "the kernel's parameters are unknown"}
    case = Case(plan, seed=7)
    lib = ctypes.CDLL(build_kernel(source, spec, workdir), mode=ctypes.RTLD_LOCAL)
    lib.optiml_eager_launch.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 6 + [ctypes.c_ulong]
    lib.optiml_eager_launch.restype = ctypes.c_int
    # The kernel's buffers: copies of the op's inputs (inout ones from their
    # initial values) in the kernel's element types, outputs poisoned.
    bufs = {}
    in_names = spec.names("in") + spec.names("inout")
    for b, name in zip(plan.ins + plan.inouts, in_names):
        bufs[name] = case.initial.get(b.name, getattr(case.t, b.name))
    params = {p["name"]: p for p in spec.params}
    kernel_bufs = {}
    for role, name, _ in spec.buffers:
        kind = spec.param_type(params[name])
        if kind is None:
            return {"verdict": "FAIL", "error": "unknown element type of %s" % name}
        if role == "out":
            kernel_bufs[name] = torch.full((inst.lengths[name],), float("nan") if kind[0] == "f" else 77,
                                           device="cuda", dtype=tdtype(kind))
        else:
            kernel_bufs[name] = bufs[name].reshape(-1).to(tdtype(kind)).clone()
    values = []
    for p in spec.params:
        if p["name"] in kernel_bufs:
            values.append(ctypes.c_void_p(kernel_bufs[p["name"]].data_ptr()))
        else:
            kind = spec.param_type(p)
            if kind is None or p["name"] not in inst.scalars:
                return {"verdict": "FAIL", "error": "cannot pass parameter %s" % p["name"]}
            v = inst.scalars[p["name"]]
            values.append(CTYPES[kind](v if kind[0] == "f" else int(v)))
    argv = (ctypes.c_void_p * len(values))(
        *[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in values])
    torch.cuda.synchronize()
    err = lib.optiml_eager_launch(ctypes.cast(argv, ctypes.c_void_p), *inst.grid, *inst.block,
                                  inst.shmem)
    if err != 0:
        return {"verdict": "FAIL", "error": "the kernel's launch failed: cudaError %d" % err}
    case.reset()
    case.run()
    torch.cuda.synchronize()
    out_names = spec.names("out") + spec.names("inout")
    results = {}
    verdict = "ok"
    for got, name in zip(case.outputs(), out_names):
        r = compare(got, kernel_bufs[name], inst.tolerance)
        results[name] = r
        if "error" in r or not math.isfinite(r["norm_err"]):
            verdict = "FAIL"
        elif not r["ok"]:
            # Another order of the same sums (cuBLAS, tree reductions) moves
            # results by rounding only; a different computation does not.
            if r["norm_err"] <= max(1e-4, inst.tolerance["norm"]):
                verdict = "close" if verdict == "ok" else verdict
            else:
                verdict = "FAIL"
    return {"verdict": verdict, "buffers": results, "tolerance": inst.tolerance}


def check_line(c):
    if "error" in c:
        return "%s: %s" % (c["verdict"], c["error"])
    worst = max(c["buffers"].items(), key=lambda kv: kv[1].get("norm_err", 0))
    return "%s (worst %s: norm err %.2g, %d outside the mark's tolerance)" % (
        c["verdict"], worst[0], worst[1]["norm_err"], worst[1]["mismatches"])


# --- One op, a batch ---------------------------------------------------------

def setup_torch():
    global torch, F
    import torch as _torch
    import torch.nn.functional as _F
    torch, F = _torch, _F
    if not torch.cuda.is_available():
        raise SpecError("no CUDA GPU visible to PyTorch")
    # True FP32: no TF32 in cuBLAS or cuDNN.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")


def run_one(name, spec, inst, sizes, scalars, reps, warmup, do_check, source):
    plan = make_plan(name, sizes, scalars)
    if spec is not None:
        errors = spec_layout_errors(plan, spec, inst)
        if errors:
            raise SpecError("op %s does not fit the mark of %s: %s" % (name, spec.kernel, "; ".join(errors)))
    row = {"op": name}
    if do_check:
        row["check"] = check(plan, spec, inst, source, tempfile.gettempdir())
        row["check_line"] = check_line(row["check"])
    case = Case(plan)
    row.update(measure(case, reps, warmup))
    row.update({"what": case.what, "call": plan.call, "sizes": sizes,
                "scalars": scalars,
                "device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                "l2_flush_bytes": FLUSH_BYTES})
    del case
    return row


def cuda_alive():
    try:
        torch.cuda.synchronize()
        return True
    except Exception:
        return False


def batch(path, reps, warmup, do_check):
    """One JSON line per job, written as soon as it is measured; a job that
    fails says why. The ops and marks are checked first, without torch, so a
    wrong row says so even where torch is missing. A CUDA error that kills
    the context ends the batch (exit 3): the caller runs the remaining jobs
    in fresh processes."""
    def fail(job, e):
        print(json.dumps({"id": job["id"], "op": job.get("op"), "status": "FAIL",
                          "error": "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")}),
              flush=True)

    ready = []
    for job in read_jsonl(path):
        try:
            if job["op"] not in OPS:
                raise SpecError("unknown op %r" % job["op"])
            source = job.get("file")
            spec_path = job.get("spec")
            if not spec_path or not os.path.exists(spec_path) or os.path.getsize(spec_path) == 0:
                spec_path = source  # the tool's listing failed: read the mark ourselves
            spec = load_spec(spec_path, job["kernel"], source)
            inst = spec.instantiate()
            errors = spec_layout_errors(make_plan(job["op"], inst.sizes, inst.scalars), spec, inst)
            if errors:
                raise SpecError("op %s does not fit the mark: %s" % (job["op"], "; ".join(errors)))
            ready.append((job, spec, inst, source))
        except Exception as e:  # one row's failure must not stop the others
            fail(job, e)
    try:
        setup_torch()
    except Exception as e:  # no torch, no GPU: every job says so
        for job, _, _, _ in ready:
            fail(job, e)
        return
    for job, spec, inst, source in ready:
        try:
            row = {"id": job["id"]}
            row.update(run_one(job["op"], spec, inst, inst.sizes, inst.scalars,
                               reps, warmup, do_check, source))
            row["status"] = "ok"
            print(json.dumps(row), flush=True)
        except Exception as e:
            fail(job, e)
            if not cuda_alive():
                sys.stderr.write("eager.py: the CUDA context is lost after job %s; stopping\n" % job["id"])
                sys.exit(3)


# --- Merging with OptiML's evaluations (no torch) -----------------------------

def read_jsonl(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def evaluation(job):
    """(naive ms, optimized ms, speedup, None) or (..., error) from the
    tool's --evaluate JSON. Without a chain the kernel was evaluated against
    itself, and the optimized time is the naive one."""
    if job.get("error"):
        return None, None, None, job["error"]
    try:
        d = json.load(open(job["eval"]))
    except (OSError, ValueError) as e:
        return None, None, None, "no evaluation (exit %s): %s" % (job.get("eval_rc"), e)
    t = (d.get("result") or {}).get("timing") or {}
    ref = (t.get("reference") or {}).get("median_ns")
    cand = (t.get("candidate") or {}).get("median_ns")
    if str(job.get("eval_rc")) != "0" or d.get("status") != "ok" or not ref:
        return None, None, None, "evaluate exit %s, status %s%s" % (
            job.get("eval_rc"), d.get("status"),
            ": " + str(d.get("error"))[:160] if d.get("error") else "")
    if not job.get("chain"):
        return ref / 1e6, ref / 1e6, 1.0, None
    if not cand:
        return None, None, None, "no candidate timing"
    return ref / 1e6, cand / 1e6, t.get("speedup") or ref / cand, None


def table(jobs_path, rows_path, jsonl_path=None):
    jobs = read_jsonl(jobs_path)
    rows = {}
    for r in read_jsonl(rows_path):
        rows[r.get("id")] = r  # a rerun's row replaces a failed one
    merged, lines, ratios, naive_ratios = [], [], [], []
    for job in jobs:
        name = "eager %s %s" % (job["file"], job["kernel"])
        naive, opt, speedup, eval_error = evaluation(job)
        row = rows.get(job["id"])
        m = {"file": job["file"], "kernel": job["kernel"], "chain": job.get("chain", ""),
             "op": job["op"], "naive_ms": naive, "optimized_ms": opt, "speedup": speedup}
        problems = []
        if eval_error:
            problems.append(eval_error)
        if row is None:
            problems.append("no result from eager.py (see eager.err)")
        elif row.get("status") != "ok":
            problems.append("eager: " + row.get("error", "failed"))
        else:
            m.update({k: row.get(k) for k in ("median_ms", "spread", "what", "call", "check_line", "device", "torch")})
            m["eager_ms"] = m.pop("median_ms")
            if row.get("check") and row["check"]["verdict"] == "FAIL":
                problems.append("check: " + row["check_line"])
        parts = []
        if naive is not None:
            parts.append("naive %.4f ms, optimized %.4f ms (%.2fx)" % (naive, opt, speedup))
        if m.get("eager_ms"):
            parts.append("eager %.4f ms (%s)" % (m["eager_ms"], m["call"]))
        if naive is not None and m.get("eager_ms"):
            m["eager_over_optimized"] = m["eager_ms"] / opt
            m["eager_over_naive"] = m["eager_ms"] / naive
            parts[-1] += ": eager/optimized %.2fx" % m["eager_over_optimized"]
        if m.get("check_line") and not any(x.startswith("check: ") for x in problems):
            parts.append("check " + m["check_line"])
        status = "FAIL" if problems else "ok"
        m["status"] = status
        if problems:
            m["error"] = "; ".join(problems)
            parts = problems + parts
        else:
            ratios.append(m["eager_over_optimized"])
            naive_ratios.append(m["eager_over_naive"])
        merged.append(m)
        lines.append((status, name, ", ".join(parts)))
    n = len(ratios)
    summary = {"summary": True, "kernels": n, "of": len(jobs)}
    if n:
        geo = math.exp(sum(math.log(r) for r in ratios) / n)
        geo_naive = math.exp(sum(math.log(r) for r in naive_ratios) / n)
        faster = sum(1 for r in ratios if r > 1)
        summary.update(geomean_eager_over_optimized=geo, geomean_eager_over_naive=geo_naive,
                       optimized_faster=faster)
        lines.append(("ok", "eager geomean", "eager/optimized %.3fx over %d of %d kernels "
                      "(eager/naive %.3fx); optimized faster than eager on %d" % (
                          geo, n, len(jobs), geo_naive, faster)))
    else:
        lines.append(("FAIL", "eager geomean", "no kernel measured on both sides (of %d)" % len(jobs)))
    if jsonl_path:
        with open(jsonl_path, "w") as f:
            for m in merged + [summary]:
                f.write(json.dumps(m) + "\n")
    for status, name, detail in lines:
        print("%s\t%s\t%s" % (status, name, detail.replace("\t", " ").replace("\n", " ")))


def missing(jobs_path, rows_path):
    """The jobs without a row: the batch died before them (a crash, or a
    lost CUDA context). A row that failed with its reason is a result."""
    done = {r.get("id") for r in read_jsonl(rows_path)}
    for job in read_jsonl(jobs_path):
        if job["id"] not in done:
            print(json.dumps(job))


# --- Command line ------------------------------------------------------------

def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--op")
    p.add_argument("--sizes", help="JSON object of sizes, e.g. '{\"M\": 4096}'")
    p.add_argument("--scalars", help="JSON object of scalar values, e.g. '{\"alpha\": 1.5}'")
    p.add_argument("--spec", help="a .cu file or the tool's --list-kernels JSON: sizes and scalars from the mark")
    p.add_argument("--kernel", help="the marked kernel (with --spec)")
    p.add_argument("--source", help="the .cu file (with a --spec JSON; default: the listing's file)")
    p.add_argument("--instance", help="a named instance of the mark (with --spec)")
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--check", action="store_true")
    p.add_argument("--list", action="store_true")
    p.add_argument("--batch")
    p.add_argument("--table", nargs=2, metavar=("JOBS", "ROWS"))
    p.add_argument("--jsonl")
    p.add_argument("--missing", nargs=2, metavar=("JOBS", "ROWS"))
    args = p.parse_args(argv)
    reps = max(args.reps, 30)

    if args.list:
        for name, fn in OPS.items():
            print("%-14s %s" % (name, fn.doc))
        return 0
    if args.table:
        table(args.table[0], args.table[1], args.jsonl)
        return 0
    if args.missing:
        missing(*args.missing)
        return 0
    if args.batch:
        batch(args.batch, reps, args.warmup, args.check)
        return 0
    if not args.op:
        p.error("--op, --list, --batch, --table or --missing is required")
    if args.op not in OPS:
        p.error("unknown op %r; --list shows them" % args.op)
    if args.spec and not args.kernel:
        p.error("--spec needs --kernel")
    if args.check and not args.spec:
        p.error("--check needs --spec (the kernel's file or listing) and --kernel")
    try:
        spec, inst, sizes, scalars = sizes_and_scalars(args)
        if args.dry_run:
            plan = make_plan(args.op, sizes, scalars)
            out = {"op": args.op, "call": plan.call, "what": plan.what, "sizes": sizes,
                   "scalars": scalars,
                   "inputs": [b.describe() for b in plan.ins + plan.inouts],
                   "outputs": [b.describe(False) for b in plan.outs + plan.inouts]}
            if spec is not None:
                errors = spec_layout_errors(plan, spec, inst)
                out["kernel"] = spec.kernel
                out["mark"] = "ok" if not errors else "; ".join(errors)
                print(json.dumps(out))
                return 1 if errors else 0
            print(json.dumps(out))
            return 0
        setup_torch()
        source = args.source or (args.spec if args.spec and not args.spec.endswith(".json") else None)
        if args.check and source is None and spec is not None:
            source = json.load(open(args.spec)).get("file")
        row = run_one(args.op, spec, inst, sizes, scalars, reps, args.warmup, args.check, source)
    except SpecError as e:
        sys.stderr.write("eager.py: error: %s\n" % e)
        return 1
    print(json.dumps(row))
    if args.check and row["check"]["verdict"] == "FAIL":
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
