#!/usr/bin/env bash
# run-adversarial.sh - the adversarial suite through the tool, on a GPU.
#
# Usage: run-adversarial.sh TOOL [WORK-DIR] [-- TOOL-ARGS...]
#
#   TOOL       clang-optiml
#   WORK-DIR   logs and results (default: a new temporary directory)
#   TOOL-ARGS  passed to every call, e.g. --cuda-path=/usr/local/cuda
#
# Every candidate listed in cases.txt is evaluated against
# Inputs/original.cu with `--evaluate --candidate`: the static ones must be
# refused before building, the cheating ones rejected with the expected
# status and failure kind, the correct ones accepted. The GPU candidates are
# built first, several at a time, so the runs that follow find them cached.
# One line per candidate: file, class, expected, got, reason, seconds, and
# PASS or FAIL (also tab-separated in WORK-DIR/summary.tsv); then
# "N passed, M failed". Exits 0 only if all passed.
# Environment: ADV_TIMEOUT (the tool's --timeout, default 45 seconds),
# ADV_JOBS (parallel builds, default 8), ADV_ONLY (a regex over file names).
set -u

usage() {
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
TOOL=$1
shift
WORK=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then WORK=$1; shift; fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
EXTRA=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
ORIG="$HERE/Inputs/original.cu"
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/optiml-adversarial.XXXXXX")}
mkdir -p "$WORK"
TIMEOUT=${ADV_TIMEOUT:-45}
JOBS=${ADV_JOBS:-8}
ONLY=${ADV_ONLY:-.}
export OPTIML_CACHE_DIR=${OPTIML_CACHE_DIR:-$WORK/cache}

command -v python3 >/dev/null || { echo "error: python3 not found" >&2; exit 2; }
[ -x "$TOOL" ] || command -v "$TOOL" >/dev/null ||
  { echo "error: no tool at '$TOOL'" >&2; exit 2; }

mapfile -t CASES < <(grep -v '^\s*\(#\|$\)' "$HERE/cases.txt" | grep -E "^[^|]*($ONLY)")

# Build every GPU candidate first, in parallel; a build failure shows up
# again, with its log, when the case runs.
printf '%s\n' "${CASES[@]}" | cut -d'|' -f1 | grep -v '^static/' |
  xargs -P "$JOBS" -I{} sh -c 't=$0 o=$1 h=$2 f=$3; shift 3
    "$t" "$o" --evaluate --build-only --candidate="$h/Inputs/$f.cu" "$@" >/dev/null 2>&1' \
    "$TOOL" "$ORIG" "$HERE" {} ${EXTRA[@]+"${EXTRA[@]}"}

# verdict JSON-FILE: "STATUS|KINDS|REASON" of one evaluation.
verdict() {
  python3 - "$1" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("none||unreadable result: %s" % e)
    sys.exit()
r = d.get("result") or {}
fails = (r.get("verify") or {}).get("failures") or []
kinds = sorted({f["kind"] for f in fails})
if fails:
    f = fails[0]
    where = " ".join(str(x) for x in (f.get("buffer"), f.get("index")) if x is not None)
    reason = "%s%s: %s" % (f["kind"], " [" + where + "]" if where else "", f["message"])
elif d["status"] == "ok":
    t = r.get("timing") or {}
    reason = "speedup %.3f (noise %.3f)" % (t.get("speedup", 0), t.get("noise", 0))
else:
    reason = r.get("error") or d["status"]
print("%s|%s|%s" % (d["status"], ",".join(kinds), reason.replace("|", "/").replace("\n", " ")))
PY
}

PASSED=0
FAILED=0
printf '%-34s %-32s %-34s %-34s %7s  %s\n' FILE CLASS EXPECTED GOT SECONDS 'RESULT REASON'
: >"$WORK/summary.tsv"
for line in "${CASES[@]}"; do
  IFS='|' read -r file class expected <<<"$line"
  tag=${file//\//-}
  start=$(date +%s%N)
  if [[ "$file" == static/* ]]; then
    "$TOOL" "$ORIG" --evaluate --build-only --candidate="$HERE/Inputs/$file.cu" \
      ${EXTRA[@]+"${EXTRA[@]}"} >"$WORK/$tag.out" 2>"$WORK/$tag.err"
    rc=$?
    reason=$(tail -n 1 "$WORK/$tag.err")
    if [ $rc -ne 0 ] && grep -q "the candidate is refused\|different parameters" "$WORK/$tag.err"; then
      got=refused
    else
      got="exit $rc"
    fi
    kinds=""
  else
    "$TOOL" "$ORIG" --evaluate --candidate="$HERE/Inputs/$file.cu" \
      --timeout="$TIMEOUT" --noise-target=0.05 --format=json \
      ${EXTRA[@]+"${EXTRA[@]}"} >"$WORK/$tag.json" 2>"$WORK/$tag.err"
    IFS='|' read -r got kinds reason <<<"$(verdict "$WORK/$tag.json")"
    [ "$got" = none ] && reason="$reason; $(tail -n 1 "$WORK/$tag.err")"
  fi
  tenths=$((($(date +%s%N) - start) / 100000000))
  seconds="$((tenths / 10)).$((tenths % 10))"
  want_status=${expected%%:*}
  ok=0
  if [ "$got" = "$want_status" ]; then
    ok=1
    if [[ "$expected" == *:* ]]; then
      ok=0
      IFS=',' read -ra want_kinds <<<"${expected#*:}"
      for k in "${want_kinds[@]}"; do
        [[ ",$kinds," == *",$k,"* ]] && ok=1
      done
    fi
  fi
  shown=$got
  [ -n "$kinds" ] && shown="$got:$kinds"
  if [ $ok = 1 ]; then result=PASS; PASSED=$((PASSED + 1)); else result=FAIL; FAILED=$((FAILED + 1)); fi
  printf '%-34s %-32s %-34s %-34s %6ss  %s %s\n' "$file" "$class" "$expected" "$shown" "$seconds" "$result" "$reason"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$file" "$class" "$expected" "$shown" "$seconds" "$result" "$reason" >>"$WORK/summary.tsv"
done
echo
echo "logs: $WORK"
echo "$PASSED passed, $FAILED failed"
[ $FAILED -eq 0 ]
