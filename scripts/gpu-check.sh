#!/usr/bin/env bash
# The one script that runs on the GPU machine (nvcc, CUPTI and CMake there,
# no LLVM): unpacks the bundle made by scripts/gpu-bundle.sh, builds what
# must be built with nvcc, runs every GPU check, and prints a short table
# last. Logs go to /tmp/optiml-gpu-logs; with $OUT set (the device tool),
# the table and a tarball of the logs are copied there.
# Usage: scripts/gpu-check.sh [bundle/optiml-gpu.tar.xz]
#   OPTIML_GPU_SKIP_RUNTIME=1  skips building and testing runtime/ and evaluation
#   OPTIML_GPU_SKIP_NCU=1      skips the comparison with Nsight Compute
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bundle=${1:-bundle/optiml-gpu.tar.xz}
work=${OPTIML_GPU_WORK:-/tmp/optiml-gpu-work}
logs=/tmp/optiml-gpu-logs
cuda=${CUDA_PATH:-/usr/local/cuda}
arch=${OPTIML_GPU_ARCH:-sm_90}
rm -rf "$logs"
mkdir -p "$work" "$logs"

rows=()
failures=0
# record CHECK RESULT DETAIL: one row of the final table.
record() {
  rows+=("$1|$2|$3")
  # Progress survives a call that runs out of time.
  [ -n "${OUT:-}" ] && printf '%-28s %-5s %s\n' "$1" "$2" "$3" >>"$OUT/progress.txt"
  [ "$2" = "FAIL" ] && failures=$((failures + 1))
  return 0
}

if [ ! -f "$bundle" ]; then
  echo "gpu-check: error: no bundle at $bundle (run scripts/gpu-bundle.sh first)" >&2
  exit 1
fi
rm -rf "$work/optiml-gpu"
tar -C "$work" -xJf "$bundle"
tool="$work/optiml-gpu/bin/clang-optiml"
record "bundle" "ok" "$(cat "$work/optiml-gpu/VERSION"), $(du -h "$bundle" | cut -f1)"

gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)
if nvidia-smi -L >/dev/null 2>&1; then
  record "device" "ok" "$gpu"
else
  record "device" "FAIL" "no GPU: $gpu"
fi
record "nvcc" "ok" "$("$cuda/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"

# Kernel discovery with the relocated, static tool, then each example built
# with nvcc and run on the GPU (nvcc accepts the #pragma optiml marks).
for src in examples/*.cu; do
  name=$(basename "$src" .cu)
  if "$tool" "$src" --list-kernels --cuda-path="$cuda" >"$logs/list-$name.txt" 2>&1 &&
    "$tool" "$src" --list-kernels --format=json --cuda-path="$cuda" >"$logs/list-$name.json" 2>>"$logs/list-$name.txt"; then
    n=$(grep -c '^kernel ' "$logs/list-$name.txt")
    record "list-kernels $name" "ok" "$n kernel(s), $(grep -c 'for#' "$logs/list-$name.txt") loop(s)"
  else
    record "list-kernels $name" "FAIL" "see $logs/list-$name.txt"
  fi
  if "$cuda/bin/nvcc" -arch="$arch" -O3 -o "$work/$name" "$src" >"$logs/nvcc-$name.txt" 2>&1 &&
    "$work/$name" >"$logs/run-$name.txt" 2>&1; then
    record "nvcc+run $name" "ok" "$(tail -n 1 "$logs/run-$name.txt")"
  else
    record "nvcc+run $name" "FAIL" "see $logs/nvcc-$name.txt, run-$name.txt"
  fi
done

# The runtime (CUDA/CUPTI runner), built with nvcc here, and its self-test.
rt="$work/optiml-gpu/runtime"
if [ -n "${OPTIML_GPU_SKIP_RUNTIME:-}" ]; then
  record "runtime" "skip" "OPTIML_GPU_SKIP_RUNTIME is set"
elif [ -f "$rt/CMakeLists.txt" ]; then
  if cmake -S "$rt" -B "$work/rt-build" -DCMAKE_CUDA_ARCHITECTURES="${arch#sm_}" \
      -DOPTIML_JSON_INCLUDE_DIR="$work/optiml-gpu/include" >"$logs/runtime-build.txt" 2>&1 &&
    cmake --build "$work/rt-build" -j8 >>"$logs/runtime-build.txt" 2>&1; then
    record "runtime build" "ok" "$work/rt-build"
    if [ -x "$rt/selftest/run-selftest.sh" ]; then
      bash "$rt/selftest/run-selftest.sh" "$work/rt-build" >"$logs/selftest.txt" 2>&1
      status=$?
      summary=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$logs/selftest.txt" | tail -n 1)
      [ $status -eq 0 ] && record "runner self-test" "ok" "$summary" ||
        record "runner self-test" "FAIL" "${summary:-exit $status}, see selftest.txt"
    fi
  else
    record "runtime build" "FAIL" "see $logs/runtime-build.txt"
  fi
fi

# Every example evaluated against itself: verification on each instance and
# seed, side-by-side timing (the ratio must be within noise of 1.0) and the
# hardware counters; then Nsight Compute times the same kernel, and the two
# medians must agree within 10%.
export OPTIML_CACHE_DIR="$work/cache"
if [ -z "${OPTIML_GPU_SKIP_RUNTIME:-}" ]; then
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    "$tool" "$src" --evaluate --metrics --format=json --cuda-path="$cuda" \
      >"$logs/eval-$name.json" 2>"$logs/eval-$name.err"
    rc=$?
    verdict=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); t=d['result'].get('timing',{}); print('%s speedup %.3f noise %.3f' % (d['status'], t.get('speedup',0), t.get('noise',0)))" "$logs/eval-$name.json" 2>/dev/null)
    [ $rc -eq 0 ] && record "evaluate $name (self)" "ok" "$verdict" ||
      record "evaluate $name (self)" "FAIL" "exit $rc ${verdict:-$(tail -n 1 "$logs/eval-$name.err")}"
    if [ -z "${OPTIML_GPU_SKIP_NCU:-}" ] && command -v ncu >/dev/null 2>&1; then
      ncu --clock-control none --target-processes all -k "regex:^$name" \
        --launch-count 8 --metrics gpu__time_duration.sum --csv \
        "$tool" "$src" --evaluate --noise-target=0.5 --cuda-path="$cuda" \
        >"$logs/ncu-$name.csv" 2>"$logs/ncu-$name.err"
      line=$(python3 scripts/ncu-compare.py "$name" "$logs/ncu-$name.csv" "$logs/eval-$name.json")
      [ $? -eq 0 ] && record "ncu agrees $name" "ok" "$line" ||
        record "ncu agrees $name" "FAIL" "$line"
    fi
  done
  python3 scripts/eval-table.py "$logs"/eval-*.json >"$logs/eval-table.txt" 2>&1
fi

print_table() {
echo
echo "== OptiML GPU check, $(date -u +%Y-%m-%dT%H:%MZ)"
printf '%-28s %-5s %s\n' CHECK RESULT DETAIL
for r in "${rows[@]}"; do
  IFS='|' read -r c s d <<<"$r"
  printf '%-28s %-5s %s\n' "$c" "$s" "$d"
done
[ -f "$logs/eval-table.txt" ] && { echo; cat "$logs/eval-table.txt"; }
total=${#rows[@]}
echo "$((total - failures)) passed, $failures failed"
}
print_table | tee "$logs/gpu-check.txt"
if [ -n "${OUT:-}" ]; then
  cp "$logs/gpu-check.txt" "$OUT/"
  tar -C "$(dirname "$logs")" -czf "$OUT/gpu-logs.tar.gz" "$(basename "$logs")"
fi
[ $failures -eq 0 ]
