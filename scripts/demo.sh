#!/usr/bin/env bash
# Setup, build, then the main job on an example. Today that is kernel
# discovery; measuring and optimizing need a GPU and arrive with the runner
# and the search (see the issues), and this script says what it skips.
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
  echo "GPU found: $(nvidia-smi -L | head -n 1)"
else
  echo "No GPU on this machine: a GPU run is skipped (scripts/gpu-check.sh runs on one)."
fi
echo "Not built yet: --evaluate (verified timing) and --optimize (search); see docs/Architecture.md."
