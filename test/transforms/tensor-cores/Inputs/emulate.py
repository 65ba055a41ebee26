#!/usr/bin/env python3
"""Runs tensor-cores results on the host against their original kernels.

Without a GPU the rewrite's index arithmetic, layouts, edge guards and
epilogue can still be checked: each case applies one step, puts the original
kernel (renamed ref_K) and the rewritten one in a C++ file with
wmma-emulation.h (threads as std::threads, fragments as whole matrices,
alignment and tf32 rules asserted), runs both on random inputs at an odd size
with their own launch geometry, and compares every output element.

    emulate.py --tool clang-optiml --cxx nvcc --src ROOT --work DIR CASE...
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def ceil(n, t):
    return f"({n} + {t} - 1) / {t}"


def gemm_args(a, b, c, rows, cols, k):
    return [(a, "in", f"{rows} * {k}"), (b, "in", f"{k} * {cols}"),
            (c, "out", f"{rows} * {cols}"), ("m_", "int", rows),
            ("n_", "int", cols), ("k_", "int", k)]


def cases():
    """name -> (file, kernel, step, sizes, args, old launch, new launch, tol)."""
    out = {}
    sg = ("examples/sgemm.cu", "sgemm", dict(m=133, n=97, k=71),
          gemm_args("A", "B", "C", "m", "n", "k"))
    nt = ("benchmarks/corpus/gemm_lowp.cu", "linear_nt",
          dict(m=133, n=97, k=71), gemm_args("x", "w", "y", "m", "n", "k"))
    old16 = (f"{ceil('n', 16)}, {ceil('m', 16)}", "16, 16")

    def tiles(t):
        return (f"{ceil('n', t)}, {ceil('m', t)}", f"32, {8 if t == 128 else 4}")

    exact, rounded = (1e-5, 1e-5), (5e-2, 1e-1)
    out["sgemm_x3_64"] = sg[:2] + ("tensor-cores(site=sgemm/for#0)",) + \
        sg[2:] + (old16, tiles(64), exact)
    out["sgemm_x3_128"] = sg[:2] + ("tensor-cores(site=sgemm/for#0,tile=128)",) + \
        sg[2:] + (old16, tiles(128), exact)
    out["nt_tf32_32"] = nt[:2] + ("tensor-cores(site=linear_nt/for#0,tile=32)",) + \
        nt[2:] + (old16, tiles(32), rounded)
    out["nt_bf16_128"] = nt[:2] + (
        "tensor-cores(site=linear_nt/for#0,precision=bf16,tile=128)",) + \
        nt[2:] + (old16, tiles(128), rounded)
    out["nt_half_64"] = nt[:2] + (
        "tensor-cores(site=linear_nt/for#0,precision=half)",) + \
        nt[2:] + (old16, tiles(64), rounded)
    tn_args = [("a", "in", "k * m"), ("b", "in", "k * n"),
               ("c", "inout", "m * n"), ("alpha", "float", "0.5f"),
               ("beta", "float", "2.0f"), ("m_", "int", "m"),
               ("n_", "int", "n"), ("k_", "int", "k")]
    tn_old = (f"{ceil('n', 32)}, {ceil('m', 8)}", "32, 8")
    out["tn_half_128"] = ("benchmarks/corpus/gemm_lowp.cu", "gemm_tn",
                          "tensor-cores(site=gemm_tn/for#0,precision=half,tile=128)",
                          dict(m=77, n=131, k=55), tn_args, tn_old, tiles(128),
                          rounded)
    out["tn_x3_64"] = ("benchmarks/corpus/gemm_lowp.cu", "gemm_tn",
                       "tensor-cores(site=gemm_tn/for#0,precision=tf32x3)",
                       dict(m=77, n=131, k=55), tn_args, tn_old, tiles(64),
                       exact)
    rx_args = [("A", "in", "n * n"), ("B", "in", "n * n"), ("C", "out", "n * n"),
               ("n_", "int", "n")]
    for t in (32, 128):
        out[f"rowx_{t}"] = ("benchmarks/corpus/matmul_rowx.cu", "matmul_rowx",
                            f"tensor-cores(site=matmul_rowx/for#0,tile={t})",
                            dict(n=133), rx_args,
                            (f"{ceil('n', 16)}, {ceil('n', 16)}", "16, 16"),
                            (f"{ceil('n', t)}, {ceil('n', t)}",
                             f"32, {8 if t == 128 else 4}"), exact)
    pb_args = [("a", "in", "ni * nk"), ("b", "in", "nk * nj"),
               ("c", "inout", "ni * nj"), ("alpha", "float", "1.5f"),
               ("beta", "float", "1.2f"), ("ni_", "int", "ni"),
               ("nj_", "int", "nj"), ("nk_", "int", "nk")]
    out["poly_32"] = ("benchmarks/corpus/gemm_polybench.cu", "gemm_kernel",
                      "tensor-cores(site=gemm_kernel/for#0,tile=32)",
                      dict(ni=129, nj=97, nk=75), pb_args,
                      (f"{ceil('nj', 32)}, {ceil('ni', 8)}", "32, 8"),
                      (f"{ceil('nj', 32)}, {ceil('ni', 32)}", "32, 4"), exact)
    sy_args = [("a", "in", "n * m"), ("c", "inout", "n * n"),
               ("alpha", "float", "0.75f"), ("beta", "float", "1.25f"),
               ("n_", "int", "n"), ("m_", "int", "m")]
    out["syrk_64"] = ("benchmarks/corpus/syrk.cu", "syrk_lower",
                      "tensor-cores(site=syrk_lower/for#0)",
                      dict(n=211, m=93), sy_args,
                      (f"{ceil('n', 32)}, {ceil('n', 8)}", "32, 8"),
                      (f"{ceil('n', 64)}, {ceil('n', 64)}", "32, 4"), exact)
    return out


def kernel_text(path, name, rename=None):
    """The definition of __global__ NAME, from its line to its closing brace."""
    text = open(path).read()
    m = re.search(r"^__global__ void " + re.escape(name) + r"\(", text, re.M)
    if not m:
        sys.exit(f"no kernel {name} in {path}")
    end = text.index("\n}\n", m.start()) + 3
    kernel = text[m.start():end]
    return kernel.replace(f"void {name}(", f"void {rename}(", 1) if rename else kernel


def defines_before(path):
    """#define and typedef lines of the file (macros the kernel may use)."""
    return "\n".join(l for l in open(path).read().splitlines()
                     if l.startswith("#define") or l.startswith("typedef"))


def program(src, rewritten, case):
    path, kernel, _step, sizes, args, old, new, tol = case
    lines = [f"  const int {k} = {v};" for k, v in sizes.items()]
    for name, kind, expr in args:
        if kind in ("in", "out", "inout"):
            fill = "12345.0f" if kind == "out" else "dist(rng)"
            lines.append(f"  std::vector<float> {name}({expr});")
            lines.append(f"  for (float &v : {name}) v = {fill};")
            lines.append(f"  std::vector<float> {name}_ref = {name};")
        else:
            lines.append(f"  {'int' if kind == 'int' else 'float'} {name} = {expr};")

    def call(suffix):
        return ", ".join(f"{n}{suffix}.data()" if k in ("in", "out", "inout")
                         else n for n, k, _ in args)

    lines.append(f"  launch(dim3({old[0]}), dim3({old[1]}), ref_{kernel}, {call('_ref')});")
    lines.append(f"  launch(dim3({new[0]}), dim3({new[1]}), {kernel}, {call('')});")
    for n, k, _ in args:
        if k in ("out", "inout"):
            lines.append(f'  bad += compare("{n}", {n}_ref, {n}, {tol[0]}, {tol[1]});')
    body = "\n".join(lines)
    return f"""#include "wmma-emulation.h"
#include <random>
{defines_before(os.path.join(src, path))}

{kernel_text(os.path.join(src, path), kernel, "ref_" + kernel)}
{kernel_text(rewritten, kernel)}
static int compare(const char *n, const std::vector<float> &r,
                   const std::vector<float> &c, double rtol, double atol) {{
  size_t bad = 0;
  double worst = 0;
  for (size_t i = 0; i < r.size(); ++i) {{
    double e = std::fabs((double)c[i] - r[i]);
    worst = std::max(worst, e);
    if (!(e <= atol + rtol * std::fabs(r[i])) && bad++ < 3)
      std::printf("  %s[%zu]: %g, not %g\\n", n, i, c[i], r[i]);
  }}
  std::printf("  %s: %zu of %zu elements off, largest error %.2g\\n", n, bad,
              r.size(), worst);
  return bad != 0;
}}
int main() {{
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  int bad = 0;
{body}
  return bad;
}}
"""


def loosened(src, path, work):
    """PATH with a float kernel's tolerance (rtol 1e-4) loosened to
    tf32x3's floor, which the GPU needs and the emulation (sums in double)
    does not: the emulation checks the rewrite's logic, not its rounding."""
    out = os.path.join(work, os.path.basename(path))
    text = open(os.path.join(src, path)).read()
    open(out, "w").write(text.replace("rtol = 1e-4", "rtol = 1e-3, norm = 1e-4"))
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tool", required=True)
    p.add_argument("--cxx", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("cases", nargs="+")
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    all_cases = cases()
    failed = 0
    for name in a.cases:
        case = all_cases[name]
        rewritten = os.path.join(a.work, name + ".cu")
        r = subprocess.run([a.tool, loosened(a.src, case[0], a.work),
                            "--format-style=none", "--apply=" + case[2],
                            "-o", rewritten], capture_output=True, text=True)
        if r.returncode:
            print(f"{name}: the step failed\n{r.stderr}")
            failed += 1
            continue
        cpp = os.path.join(a.work, name + ".cpp")
        open(cpp, "w").write(program(a.src, rewritten, case))
        exe = os.path.join(a.work, name)
        r = subprocess.run([a.cxx, "-std=c++20", "-x", "c++", "-O1", "-w",
                            "-Xcompiler", "-pthread", "-I", HERE, cpp, "-o", exe],
                           capture_output=True, text=True)
        if r.returncode:
            print(f"{name}: does not compile\n{r.stdout}{r.stderr}")
            failed += 1
            continue
        r = subprocess.run([exe], capture_output=True, text=True)
        print(f"{name}: {'ok' if r.returncode == 0 else 'WRONG'}\n{r.stdout}{r.stderr}",
              end="")
        failed += r.returncode != 0
    print("all agree" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
