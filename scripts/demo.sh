#!/usr/bin/env bash
# Setup, build, then the main job on an example: kernel discovery, then an
# evaluation (verified, side-by-side timing on the GPU; without a GPU only the
# nvcc builds and one rewrite, and the script says so), then on a GPU the
# search (--optimize) with a small budget.
# Usage: scripts/demo.sh [example.cu]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
example=${1:-examples/sgemm.cu}
tool=build/bin/clang-optiml

echo
echo "== $tool $example --list-kernels"
"$tool" "$example" --list-kernels
echo
echo "== the same as JSON, for tools (first lines)"
"$tool" "$example" --list-kernels --format=json | head -n 20

echo
echo "== $tool $example --list-sites   (where each rewrite applies, and why not elsewhere)"
"$tool" "$example" --list-sites
echo
out=$(mktemp -d)/$(basename "$example" .cu).opt.cu
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== GPU: $(nvidia-smi -L | head -n 1)"
  echo "== $tool $example --evaluate --metrics   (the kernel against itself: verification and a noise check)"
  "$tool" "$example" --evaluate --metrics
  echo
  echo "== $tool $example --optimize --budget=12 -o $out"
  "$tool" "$example" --optimize --budget=12 -o "$out"
else
  echo "== No GPU on this machine: verification, timing and the search are skipped."
  echo "== $tool $example --evaluate --build-only   (nvcc builds and resource usage only)"
  "$tool" "$example" --evaluate --build-only
  echo
  step=$("$tool" "$example" --list-sites --format=json | python3 -c "import json,sys; print(next(a['apply'] for a in json.load(sys.stdin) if a['legal']))")
  echo "== $tool $example --apply='$step' -o $out   (a rewrite, unverified without a GPU)"
  "$tool" "$example" --apply="$step" -o "$out"
  diff -u "$example" "$out" || true
fi
