#!/usr/bin/env bash
# Setup, build, then the main job on an example: kernel discovery, then an
# evaluation (verified, side-by-side timing on the GPU; without a GPU only the
# nvcc builds, and the script says so). Optimizing arrives with the search.
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
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== GPU: $(nvidia-smi -L | head -n 1)"
  echo "== $tool $example --evaluate --metrics   (the kernel against itself: verification and a noise check)"
  "$tool" "$example" --evaluate --metrics
else
  echo "== No GPU on this machine: verification and timing are skipped."
  echo "== $tool $example --evaluate --build-only   (nvcc builds and resource usage only)"
  "$tool" "$example" --evaluate --build-only
fi
echo
echo "Not built yet: --apply (rewrites) and --optimize (search); see docs/Architecture.md."
