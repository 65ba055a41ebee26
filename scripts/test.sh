#!/usr/bin/env bash
# Setup, build and every test that runs without a GPU: the GoogleTest unit
# tests and the lit + FileCheck suite, both through ctest. Tests that need a
# GPU are reported as skipped; scripts/gpu-check.sh runs them on a GPU machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
ctest --test-dir build --output-on-failure -j2
