#!/usr/bin/env bash
# energy-noise.sh - how much the runner's energy ratio moves when the
# candidate is the reference itself, for several ways of measuring.
#
# Usage: energy-noise.sh <runner-build-dir> [work-dir]
#
# Each setting WINDOW:SETTLE:ROUNDS (seconds, seconds, count; default
# "0.5:0:4 0.5:0.2:4 1:0.3:4 2:0.3:2", or $OPTIML_NOISE_SETTINGS) runs
# $OPTIML_NOISE_RUNS (2) runner processes on vadd (16M floats) against
# itself with energy on, through OPTIML_ENERGY_WINDOW_S, _SETTLE_S and
# _ROUNDS. One row per setting: the per-round ratios pooled over the runs
# (reference J/launch over candidate J/launch, ideally 1), their mean,
# standard deviation and max-min spread, and the seconds a run took. Needs
# a GPU with NVML's energy counter.
set -u
[ $# -ge 1 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
BUILD_DIR=$(cd "$1" && pwd) || exit 2
RUNNER="$BUILD_DIR/optiml-runner"
LIBS="$BUILD_DIR/selftest"
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
TEMPLATE="$SCRIPT_DIR/vadd.plan.json.in"
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/optiml-energy-noise.XXXXXX")}
mkdir -p "$WORK"
for f in "$RUNNER" "$TEMPLATE" "$LIBS/vadd_ref.so"; do
  [ -e "$f" ] || { echo "error: missing $f (build runtime/ first)" >&2; exit 2; }
done
settings=${OPTIML_NOISE_SETTINGS:-0.5:0:4 0.5:0.2:4 1:0.3:4 2:0.3:2}
runs=${OPTIML_NOISE_RUNS:-2}

plan="$WORK/self.plan.json"
sed -e "s|@REFERENCE@|$LIBS/vadd_ref.so|" -e "s|@CANDIDATE@|$LIBS/vadd_ref.so|" \
    -e "s|@METRICS@|false|" -e "s|@ENERGY@|true|" -e "s|@TYPE@|f32|" \
    "$TEMPLATE" > "$plan"

printf '%-14s %6s %8s %8s %8s %8s\n' "window:settle:rounds" ratios mean sd spread "s/run"
status=0
for s in $settings; do
  IFS=: read -r window settle rounds <<<"$s"
  results=()
  start=$SECONDS
  for ((r = 1; r <= runs; ++r)); do
    out="$WORK/self-$s-$r.json"
    if ! OPTIML_ENERGY_WINDOW_S=$window OPTIML_ENERGY_SETTLE_S=$settle \
        OPTIML_ENERGY_ROUNDS=$rounds timeout -k 10 600 "$RUNNER" \
        --plan "$plan" --out "$out" 2>"$WORK/self-$s-$r.log"; then
      echo "error: $s run $r failed, see $WORK/self-$s-$r.log" >&2
      status=1
      continue
    fi
    results+=("$out")
  done
  [ ${#results[@]} -gt 0 ] || continue
  python3 - "$s" "$(( (SECONDS - start) / runs ))" "${results[@]}" <<'PY'
import json, statistics, sys
setting, seconds, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
ratios = []
for p in paths:
    e = json.load(open(p))["energy"]
    if not e.get("available"):
        print("%-20s unavailable: %s" % (setting, e.get("reason")))
        sys.exit(0)
    for inst in e["instances"]:
        ratios += inst.get("ratios") or []
if not ratios:
    print("%-20s no ratios" % setting)
    sys.exit(0)
mean = statistics.fmean(ratios)
sd = statistics.stdev(ratios) if len(ratios) > 1 else 0.0
print("%-20s %6d %8.4f %8.4f %8.4f %8s"
      % (setting, len(ratios), mean, sd, (max(ratios) - min(ratios)) / mean, seconds))
PY
done
exit $status
