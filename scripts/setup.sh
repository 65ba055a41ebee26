#!/usr/bin/env bash
# Installs what OptiML needs from Debian's packages (only what is missing:
# a no-op when everything is there), then configures and builds into build/.
# Usage: scripts/setup.sh [extra cmake args]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

packages=(cmake g++ make ccache file xz-utils python3
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools
  nlohmann-json3-dev libcurl4-openssl-dev libsqlite3-dev
  libgtest-dev libgmock-dev zlib1g-dev libzstd-dev)

TAG=setup bash "$root/scripts/apt-install.sh" "${packages[@]}"

cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -x "$cuda/bin/nvcc" ]; then
  echo "setup: error: no CUDA toolkit at $cuda (set CUDA_PATH to its root)" >&2
  exit 1
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j2
echo "setup: built build/bin/clang-optiml"
