#!/usr/bin/env bash
# Builds the relocatable GPU bundle, the release archive: a statically linked
# clang-optiml installed (cmake --install --strip) into a staging prefix, so
# the bundle has the layout of every install (cmake/OptimlInstall.cmake):
#   bin/clang-optiml                 static, stripped
#   lib/clang/<major>/include/       Clang's builtin headers (no LLVM there)
#   share/optiml/runtime/            the runner's sources
#   share/optiml/include/            the runner protocol headers and
#                                    nlohmann/json.hpp (the GPU machine has
#                                    nvcc and CMake but neither LLVM nor
#                                    nlohmann)
#   share/optiml/prompts/, lib/cmake/OptiML/, VERSION
# Output:
#   bundle/optiml-gpu.tar.xz   (git-ignored; carry it to the GPU machine)
# Usage: scripts/gpu-bundle.sh            (after scripts/setup.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${OPTIML_BUNDLE_BUILD:-build-bundle}
out=bundle
stage=$out/optiml-gpu

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOPTIML_STATIC=ON \
  -DOPTIML_INSTALL_CLANG_HEADERS=ON -DOPTIML_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target clang-optiml -j2

rm -rf "$stage"
cmake --install "$build" --prefix "$stage" --strip >/dev/null
# A tree with changes not yet committed says so.
{ git describe --always --dirty 2>/dev/null || echo unknown; } > "$stage/VERSION"

# Written aside and moved into place: a build killed (or run twice at
# once) never leaves a damaged archive under the name gpu-check reads.
part=$(mktemp "$out/optiml-gpu.tar.xz.XXXXXX")
tar -C "$out" -cJf "$part" optiml-gpu
xz -t "$part"
mv "$part" "$out/optiml-gpu.tar.xz"
size=$(stat -c %s "$out/optiml-gpu.tar.xz")
echo "bundle: $out/optiml-gpu.tar.xz ($((size / 1024 / 1024)) MiB)"
if [ "$size" -gt $((30 * 1024 * 1024)) ]; then
  echo "error: the bundle is over 30 MiB" >&2
  exit 1
fi
file "$stage/bin/clang-optiml" | grep -q 'statically linked' ||
  { echo "error: clang-optiml is not statically linked" >&2; exit 1; }
