#!/usr/bin/env bash
# Builds the relocatable GPU bundle: a statically linked, stripped
# clang-optiml, Clang's resource headers beside it (where the tool looks when
# relocated), the runtime/ sources with the runner protocol headers they
# include (include/optiml/Protocol, beside runtime/ as in the source tree)
# and nlohmann's json.hpp (the GPU machine has nvcc and CMake but neither
# LLVM nor nlohmann). Output:
#   bundle/optiml-gpu.tar.xz   (git-ignored; carry it to the GPU machine)
# Usage: scripts/gpu-bundle.sh            (after scripts/setup.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${OPTIML_BUNDLE_BUILD:-build-bundle}
out=bundle
stage=$out/optiml-gpu

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOPTIML_STATIC=ON \
  -DOPTIML_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target clang-optiml -j2

resource_dir=$(cmake -N -L "$build" | sed -n 's/^OPTIML_CLANG_RESOURCE_DIR:PATH=//p')
llvm_major=$(basename "$resource_dir")

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib/clang/$llvm_major" "$stage/include"
cp "$build/bin/clang-optiml" "$stage/bin/"
strip "$stage/bin/clang-optiml"
cp -r "$resource_dir/include" "$stage/lib/clang/$llvm_major/"
# The whole folder: json.hpp includes its detail/ headers, and another
# version of them may sit in the GPU machine's /usr/include.
cp -r /usr/include/nlohmann "$stage/include/"
[ -d runtime ] && cp -r runtime "$stage/"
mkdir -p "$stage/include/optiml"
cp -r include/optiml/Protocol "$stage/include/optiml/"
git rev-parse --short HEAD > "$stage/VERSION" 2>/dev/null || echo unknown > "$stage/VERSION"

tar -C "$out" -cJf "$out/optiml-gpu.tar.xz" optiml-gpu
size=$(stat -c %s "$out/optiml-gpu.tar.xz")
echo "bundle: $out/optiml-gpu.tar.xz ($((size / 1024 / 1024)) MiB)"
if [ "$size" -gt $((30 * 1024 * 1024)) ]; then
  echo "error: the bundle is over 30 MiB" >&2
  exit 1
fi
file "$stage/bin/clang-optiml" | grep -q 'statically linked' ||
  { echo "error: clang-optiml is not statically linked" >&2; exit 1; }
