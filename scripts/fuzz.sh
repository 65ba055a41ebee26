#!/usr/bin/env bash
# fuzz.sh - build the spec fuzzer and run it for a bounded time.
#
# Usage: scripts/fuzz.sh [SECONDS] [-- LIBFUZZER-ARGS...]
#
#   SECONDS  how long libFuzzer runs (default 60)
#
# Builds tools/optiml-spec-fuzzer with Clang 22 (libFuzzer + AddressSanitizer,
# only the Support, IR and Spec layers) into build-fuzz/, writes a seed corpus
# from the repository's marks and sidecars (scripts/spec_inputs.py) and runs
# the target on it. The corpus it grows is kept in build-fuzz/corpus for the
# next run; an input that crashes it is written to build-fuzz/artifacts/ and
# the script exits non-zero. Replay one with
#   build-fuzz/bin/optiml-spec-fuzzer build-fuzz/artifacts/crash-...
# Environment: FUZZ_BUILD (build folder, default build-fuzz), CLANG (default
# clang-22; its C++ driver is taken beside it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=60
if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
case "$seconds" in
  ''|*[!0-9]*) echo "fuzz: error: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac
build=${FUZZ_BUILD:-build-fuzz}
clang=${CLANG:-clang-22}

# libFuzzer's runtime is in libclang-rt-22-dev, which clang-22 does not pull in.
TAG=fuzz bash "$root/scripts/apt-install.sh" clang-22 libclang-rt-22-dev

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DOPTIML_FUZZ=ON \
  -DOPTIML_BUILD_TESTS=OFF -DCMAKE_C_COMPILER="$clang" \
  -DCMAKE_CXX_COMPILER="${clang/clang/clang++}" >/dev/null
cmake --build "$build" -j2 --target optiml-spec-fuzzer

seeds="$build/seeds"
rm -rf "$seeds"
python3 scripts/spec_inputs.py seeds "$seeds"
mkdir -p "$build/corpus" "$build/artifacts"

echo "fuzz: running for ${seconds}s (seeds: $(ls "$seeds" | wc -l))"
set +e
"$build/bin/optiml-spec-fuzzer" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
  -dict=tools/optiml-spec-fuzzer/spec.dict \
  -artifact_prefix="$build/artifacts/" "$@" "$build/corpus" "$seeds" \
  2>"$build/fuzz.log"
rc=$?
set -e
grep -E "^(stat::|INFO: Loaded|Done |#[0-9]+ +DONE)" "$build/fuzz.log" || true
if [ $rc -ne 0 ]; then
  tail -n 60 "$build/fuzz.log" >&2
  echo "fuzz: error: the fuzzer stopped (exit $rc); inputs in $build/artifacts/" >&2
  exit 1
fi
echo "fuzz: no crash in ${seconds}s"
