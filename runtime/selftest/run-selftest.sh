#!/usr/bin/env bash
# run-selftest.sh - check optiml-runner's verdicts on hand-written kernels.
#
# Usage: run-selftest.sh <runner-build-dir> [work-dir]
#
#   <runner-build-dir>  the CMake build directory of runtime/: it holds
#                       optiml-runner and selftest/vadd_*.so
#   [work-dir]          where plans, results and logs go (default: a new
#                       temporary directory, kept and printed at the end)
#
# Every case runs the runner under `timeout` on one candidate library, then
# checks its exit code, the result's "status" and, for rejected candidates,
# that the expected failure kind was reported. One PASS/FAIL line per case,
# then "N passed, M failed". Exits 0 only if every case passed.
#
# Needs a CUDA GPU. Environment: SELFTEST_TIMEOUT (seconds per case, default
# 300), SELFTEST_HANG_TIMEOUT (seconds for the hanging kernel, default 30).
set -u

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac

BUILD_DIR=$(cd "$1" 2>/dev/null && pwd) || {
  echo "error: build directory '$1' does not exist" >&2
  exit 2
}
RUNNER="$BUILD_DIR/optiml-runner"
LIBS="$BUILD_DIR/selftest"
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)
TEMPLATE="$SCRIPT_DIR/vadd.plan.json.in"
[ -f "$TEMPLATE" ] || TEMPLATE="$LIBS/vadd.plan.json.in"
AXPY_TEMPLATE="$(dirname "$TEMPLATE")/axpy.plan.json.in"
WORK=${2:-$(mktemp -d "${TMPDIR:-/tmp}/optiml-selftest.XXXXXX")}
mkdir -p "$WORK"
CASE_TIMEOUT=${SELFTEST_TIMEOUT:-300}
HANG_TIMEOUT=${SELFTEST_HANG_TIMEOUT:-30}

for f in "$RUNNER" "$TEMPLATE" "$AXPY_TEMPLATE" "$LIBS/vadd_ref.so" \
         "$LIBS/axpy_ref.so" "$LIBS/lanes_ref.so" "$LIBS/tables_ref.so" \
         "$LIBS/sequence_ref.so"; do
  if [ ! -e "$f" ]; then
    echo "error: missing $f (build runtime/ first: cmake --build <dir>)" >&2
    exit 2
  fi
done
command -v timeout >/dev/null || { echo "error: 'timeout' not found" >&2; exit 2; }
HAVE_PY=0
command -v python3 >/dev/null && HAVE_PY=1

PASSED=0
FAILED=0

# make_plan <out> <candidate .so or ""> <metrics> <energy> [type] [reference]
make_plan() {
  local out=$1 cand=$2 metrics=$3 energy=$4 type=${5:-f32}
  local ref=${6:-$LIBS/vadd_ref.so}
  sed -e "s|@REFERENCE@|$ref|" -e "s|@METRICS@|$metrics|" \
      -e "s|@ENERGY@|$energy|" -e "s|@TYPE@|$type|" "$TEMPLATE" > "$out"
  if [ -z "$cand" ]; then
    sed -i '/"candidate"/d' "$out"
  else
    sed -i "s|@CANDIDATE@|$cand|" "$out"
  fi
}

# candidate_launch <plan> <python expression over grid and block>: gives
# every instance of the plan a candidate geometry, e.g. "(grid // 4, block)".
candidate_launch() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
path, expr = sys.argv[1], sys.argv[2]
plan = json.load(open(path))
for inst in plan["instances"]:
    g, b = eval(expr, {"grid": inst["grid"][0], "block": inst["block"][0]})
    inst["candidate_launch"] = {"grid": [max(1, g), 1, 1], "block": [b, 1, 1],
                                "shmem": inst["shmem"]}
json.dump(plan, open(path, "w"), indent=2)
EOF
}

# The top-level "status" of a result file (the runner writes it near the top,
# with two spaces of indentation).
status_of() {
  [ -f "$1" ] || { echo "(no result file)"; return; }
  sed -n 's/^  "status": "\([a-z_]*\)".*/\1/p' "$1" | head -n 1
}

kinds_of() {
  [ -f "$1" ] || return
  grep -o '"kind": "[a-z_]*"' "$1" | sed 's/.*: "\(.*\)"/\1/' | sort -u | tr '\n' ' '
}

# py <result> <python expression over r, the parsed result>
py() {
  [ "$HAVE_PY" = 1 ] || { echo "(python3 not found; see $1)"; return; }
  python3 - "$1" "$2" <<'EOF' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {"r": r}))
EOF
}

report() { # report <PASS|FAIL> <case> <detail>
  printf '%-4s %-16s %s\n' "$1" "$2" "$3"
  if [ "$1" = PASS ]; then PASSED=$((PASSED + 1)); else FAILED=$((FAILED + 1)); fi
}

show_log() { # last stderr lines of a failed case
  sed 's/^/       | /' "$1" | tail -n 8
}

# run_case <name> <plan> <timeout>; sets RC, RESULT, LOG
run_case() {
  RESULT="$WORK/$1.result.json"
  LOG="$WORK/$1.stderr"
  rm -f "$RESULT"
  timeout -k 10 "$3" "$RUNNER" --plan "$2" --out "$RESULT" 2> "$LOG"
  RC=$?
  if [ "$RC" = 4 ]; then
    echo "error: the runner found no GPU: $(tail -n 1 "$LOG")" >&2
    echo "The self-test needs a CUDA GPU; nothing was checked." >&2
    exit 2
  fi
}

# check <name> <plan> <status> <exit code> [kind]: run one plan and compare
# the verdict with the expectation.
check() {
  local name=$1 plan=$2 want_status=$3 want_rc=$4 want_kind=${5:-}
  run_case "$name" "$plan" "$CASE_TIMEOUT"
  local got_status kinds
  got_status=$(status_of "$RESULT")
  kinds=$(kinds_of "$RESULT")
  local detail="exit $RC, status $got_status"
  [ -n "$kinds" ] && detail="$detail, kinds: $kinds"
  if [ "$RC" != "$want_rc" ] || [ "$got_status" != "$want_status" ]; then
    report FAIL "$name" "$detail (expected exit $want_rc, status $want_status)"
    show_log "$LOG"
  elif [ -n "$want_kind" ] && ! grep -q "\"kind\": \"$want_kind\"" "$RESULT"; then
    report FAIL "$name" "$detail (expected a failure of kind $want_kind)"
  else
    report PASS "$name" "$detail"
  fi
}

# expect <name> <candidate .so or ""> <status> <exit code> [kind]: check a
# vadd candidate against vadd_ref.
expect() {
  make_plan "$WORK/$1.plan.json" "$2" false false
  check "$1" "$WORK/$1.plan.json" "$3" "$4" "${5:-}"
}

echo "optiml-runner self-test"
echo "  runner: $RUNNER"
echo "  work:   $WORK"
echo

# 1. The reference against itself: accepted, and no significant speedup.
make_plan "$WORK/ref_vs_ref.plan.json" "" false false
run_case ref_vs_ref "$WORK/ref_vs_ref.plan.json" "$CASE_TIMEOUT"
st=$(status_of "$RESULT")
sig=$(sed -n 's/^    "significant": \([a-z]*\).*/\1/p' "$RESULT" 2>/dev/null | head -n 1)
summary=$(py "$RESULT" '"speedup %.4f, noise %.4f, spread ref %.4f / cand %.4f, %d pairs (%s)" % (r["timing"]["speedup"], r["timing"]["noise"], r["timing"]["reference"]["spread"], r["timing"]["candidate"]["spread"], r["timing"]["reference"]["reps"], r["timing"]["stop_reason"])')
if [ "$RC" = 0 ] && [ "$st" = ok ] && [ "$sig" = false ]; then
  report PASS ref_vs_ref "exit 0, status ok, $summary, significant false"
else
  report FAIL ref_vs_ref "exit $RC, status $st, significant '$sig' (expected exit 0, ok, false): $summary"
  show_log "$LOG"
fi

# 2. A correct but different candidate: accepted. Also exercises metrics and
#    energy, which report but do not decide PASS/FAIL (they depend on
#    profiling permissions and on NVML).
make_plan "$WORK/gridstride.plan.json" "$LIBS/vadd_gridstride.so" true true
candidate_launch "$WORK/gridstride.plan.json" "(grid // 4, block)"
run_case gridstride "$WORK/gridstride.plan.json" "$CASE_TIMEOUT"
st=$(status_of "$RESULT")
if [ "$RC" = 0 ] && [ "$st" = ok ]; then
  report PASS gridstride "exit 0, status ok, $(py "$RESULT" '"speedup %.4f, noise %.4f, significant %s" % (r["timing"]["speedup"], r["timing"]["noise"], r["timing"]["significant"])')"
else
  report FAIL gridstride "exit $RC, status $st (expected exit 0, status ok)"
  show_log "$LOG"
fi
echo "     metrics: $(py "$RESULT" '("ERROR " + r["metrics"]["error"]) if r["metrics"].get("error") else ", ".join("%s=%.4g" % kv for kv in r["metrics"]["instances"][0]["candidate"]["values"].items())')"
echo "     energy:  $(py "$RESULT" '("unavailable: " + r["energy"]["reason"]) if not r["energy"]["available"] else "reference %.4g J/launch, candidate %.4g J/launch" % (r["energy"]["instances"][0]["reference"].get("joules_per_launch", float("nan")), r["energy"]["instances"][0]["candidate"].get("joules_per_launch", float("nan")))')"

# 3. Broken candidates: rejected with the right status and kind.
expect wrong_element   "$LIBS/vadd_wrong_element.so"   verify_failed 1 mismatch
expect oob_write       "$LIBS/vadd_oob_write.so"       verify_failed 1 redzone
expect unwritten       "$LIBS/vadd_unwritten.so"       verify_failed 1 unwritten
expect writes_input    "$LIBS/vadd_writes_input.so"    verify_failed 1 input_modified
expect race            "$LIBS/vadd_race.so"            verify_failed 1 nondeterministic
expect nan             "$LIBS/vadd_nan.so"             verify_failed 1 nan
expect illegal_address "$LIBS/vadd_illegal_address.so" fault         2 fault
make_plan "$WORK/bad_launch.plan.json" "$LIBS/vadd_bad_launch.so" false false
candidate_launch "$WORK/bad_launch.plan.json" "(grid, 2048)"
check bad_launch "$WORK/bad_launch.plan.json" launch_error 2 launch_error
expect missing_library "$WORK/does-not-exist.so"       load_error    3

# 3a. What is timed is what was verified: a kernel that stops working once
#     it has been launched more often than verification launches it.
expect launch_counter  "$LIBS/vadd_launch_counter.so"  verify_failed 1 timed_unwritten

# 3b. The harness is the runner's own code: a library that defines the CUDA
#     launch function for itself does not take over its launch (accepted:
#     the runner's launch ran the kernel), and an entry that is not a
#     registered kernel is refused before anything runs.
expect interposer      "$LIBS/vadd_interposer.so"      ok            0
expect not_a_kernel    "$LIBS/vadd_not_a_kernel.so"    load_error    3

# 4. A broken reference is a spec error, reported as such.
make_plan "$WORK/reference_unwritten.plan.json" "$LIBS/vadd_ref.so" false false \
  f32 "$LIBS/vadd_unwritten.so"
check reference_unwritten "$WORK/reference_unwritten.plan.json" \
  verify_failed 1 reference_unwritten

# 5. A scalar float, an inout buffer (restored before each timed launch), a
#    result within tolerance but not bit-identical, and two kernel names.
sed -e "s|@LIBS@|$LIBS|g" "$AXPY_TEMPLATE" > "$WORK/axpy_inout.plan.json"
check axpy_inout "$WORK/axpy_inout.plan.json" ok 0
echo "     $(py "$RESULT" '"max rel error %s (within tolerance, not bit-identical), speedup %.4f, significant %s" % (max(s["buffers"][0]["max_rel_err"] for s in r["verify"]["instances"][0]["seeds"]), r["timing"]["speedup"], r["timing"]["significant"])')"

# 5a. Buffers of vectors, structs and halves, lane by lane: a float field
#     within the tolerance passes, an int field off by one and a half off
#     by a quarter do not, and the failure names the element's field.
# variant_plan <template> <name> <candidate .so>: the template's plan
# with this candidate, as $WORK/<name>.plan.json.
variant_plan() {
  sed -e "s|@LIBS@|$LIBS|g" -e "s|@CANDIDATE@|$3|" \
    "$(dirname "$TEMPLATE")/$1.plan.json.in" > "$WORK/$2.plan.json"
}
lanes_plan() { variant_plan lanes "$@"; }
lanes_plan lanes_close "$LIBS/lanes_close.so"
check lanes_close "$WORK/lanes_close.plan.json" ok 0
lanes_plan lanes_wrong_id "$LIBS/lanes_wrong_id.so"
check lanes_wrong_id "$WORK/lanes_wrong_id.plan.json" verify_failed 1 mismatch
echo "     $(py "$RESULT" '", ".join("%s[%s].%s" % (f["buffer"], f["index"], f.get("field")) for f in r["verify"]["failures"][:2])')"
if ! grep -q '"field": "id"' "$RESULT"; then
  report FAIL lanes_field "the failure does not name the field 'id'"
fi
lanes_plan lanes_wrong_half "$LIBS/lanes_wrong_half.so"
check lanes_wrong_half "$WORK/lanes_wrong_half.plan.json" verify_failed 1 mismatch

# 5b. A __constant__ table each library gets filled before each launch, and
#     one buffer passed as two parameters: the same code in its own library
#     passes; zeros (an unfilled table) and a write before the read (right
#     only if the two parameters were distinct) do not.
tables_plan() { variant_plan tables "$@"; }
tables_plan tables_same "$LIBS/tables_same.so"
check tables_same "$WORK/tables_same.plan.json" ok 0
tables_plan tables_zero "$LIBS/tables_zero.so"
check tables_zero "$WORK/tables_zero.plan.json" verify_failed 1 mismatch
tables_plan tables_write_first "$LIBS/tables_write_first.so"
check tables_write_first "$WORK/tables_write_first.plan.json" verify_failed 1 mismatch

# 5c. A sequence of launches: two repetitions of a cooperative kernel with
#     a grid barrier, the kernel and a one-block total, the kernel's
#     buffers swapped and its step argument changing. The same code in its
#     own library passes; a kernel that takes every step for the first,
#     right for one launch alone, does not.
sequence_plan() { variant_plan sequence "$@"; }
sequence_plan sequence_same "$LIBS/sequence_same.so"
check sequence_same "$WORK/sequence_same.plan.json" ok 0
sequence_plan sequence_step_ignored "$LIBS/sequence_step_ignored.so"
check sequence_step_ignored "$WORK/sequence_step_ignored.plan.json" verify_failed 1 mismatch

# 6. A hanging kernel: the runner cannot stop it; `timeout` must kill it and
#    the result file must still say how far the run got.
make_plan "$WORK/hang.plan.json" "$LIBS/vadd_hang.so" false false
run_case hang "$WORK/hang.plan.json" "$HANG_TIMEOUT"
st=$(status_of "$RESULT")
phase=$(sed -n 's/^  "phase": "\(.*\)",$/\1/p' "$RESULT" 2>/dev/null | head -n 1)
if { [ "$RC" = 124 ] || [ "$RC" = 137 ]; } && [ "$st" = incomplete ]; then
  report PASS hang "killed after ${HANG_TIMEOUT}s (exit $RC), status incomplete, phase '$phase'"
else
  report FAIL hang "exit $RC, status $st (expected a timeout kill and status incomplete)"
  show_log "$LOG"
fi

# 7. A malformed plan: bad_plan, exit 3.
make_plan "$WORK/bad_plan.plan.json" "$LIBS/vadd_ref.so" false false f12
run_case bad_plan "$WORK/bad_plan.plan.json" "$CASE_TIMEOUT"
st=$(status_of "$RESULT")
if [ "$RC" = 3 ] && [ "$st" = bad_plan ]; then
  report PASS bad_plan "exit 3, status bad_plan: $(tail -n 1 "$LOG")"
else
  report FAIL bad_plan "exit $RC, status $st (expected exit 3, status bad_plan)"
  show_log "$LOG"
fi

# 8. A plan of another protocol version: bad_plan, exit 3, naming the key.
make_plan "$WORK/old_plan.plan.json" "$LIBS/vadd_ref.so" false false
sed -i 's/"schema_version": [0-9]*/"schema_version": 0/' "$WORK/old_plan.plan.json"
run_case old_plan "$WORK/old_plan.plan.json" "$CASE_TIMEOUT"
st=$(status_of "$RESULT")
if [ "$RC" = 3 ] && [ "$st" = bad_plan ] && grep -q 'schema_version' "$LOG"; then
  report PASS old_plan "exit 3, status bad_plan: $(tail -n 1 "$LOG")"
else
  report FAIL old_plan "exit $RC, status $st (expected exit 3, status bad_plan, schema_version named)"
  show_log "$LOG"
fi

# 9. A serving runner (--serve): plans one after another in one process,
#    the reference's outputs kept between them (each result says so), the
#    verdicts those of one-shot runs; a fault ends the server, exit 2.
SERVE_REQ="$WORK/serve.requests"
SERVE_LOG="$WORK/serve.stderr"
SERVED=0
: > "$SERVE_REQ"
timeout -k 10 "$CASE_TIMEOUT" "$RUNNER" --serve "$SERVE_REQ" 2> "$SERVE_LOG" &
SERVE_PID=$!

# serve <name> <plan>: appends the request and waits for its answer; false
# when the server ended first.
serve() {
  SERVED=$((SERVED + 1))
  RESULT="$WORK/serve_$1.result.json"
  printf '%s\t%s\n' "$2" "$RESULT" >> "$SERVE_REQ"
  for _ in $(seq 1 3000); do
    grep -q "^optiml-runner: served $SERVED exit" "$SERVE_LOG" && return 0
    kill -0 "$SERVE_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# serve_check <name> <plan> <status> <exit code> <reused: yes|no> [kind]
serve_check() {
  local name=$1 want_status=$3 want_rc=$4 want_reused=$5 want_kind=${6:-}
  local rc="(none)" st reused=no
  serve "$name" "$2" &&
    rc=$(sed -n "s/^optiml-runner: served $SERVED exit \([0-9]*\)$/\1/p" "$SERVE_LOG")
  st=$(status_of "$RESULT")
  grep -q "came from earlier plans" "$RESULT" 2>/dev/null && reused=yes
  local detail="served $SERVED, exit $rc, status $st, reference reused: $reused"
  if [ "$rc" != "$want_rc" ] || [ "$st" != "$want_status" ] ||
     [ "$reused" != "$want_reused" ]; then
    report FAIL "serve_$name" "$detail (expected exit $want_rc, status $want_status, reused $want_reused)"
    show_log "$SERVE_LOG"
  elif [ -n "$want_kind" ] && ! grep -q "\"kind\": \"$want_kind\"" "$RESULT"; then
    report FAIL "serve_$name" "$detail (expected a failure of kind $want_kind)"
  else
    report PASS "serve_$name" "$detail"
  fi
}

make_plan "$WORK/serve_good.plan.json" "$LIBS/vadd_gridstride.so" true false
serve_check good1 "$WORK/serve_good.plan.json" ok 0 no
serve_check wrong "$WORK/wrong_element.plan.json" verify_failed 1 yes mismatch
serve_check oob "$WORK/oob_write.plan.json" verify_failed 1 yes redzone
serve_check good2 "$WORK/serve_good.plan.json" ok 0 yes
echo "     metrics: $(py "$RESULT" '("ERROR " + r["metrics"]["error"]) if r["metrics"].get("error") else "%d values" % len(r["metrics"]["instances"][0]["candidate"]["values"])')"
serve_check reference_unwritten "$WORK/reference_unwritten.plan.json" \
  verify_failed 1 no reference_unwritten
serve "illegal_address" "$WORK/illegal_address.plan.json"
wait "$SERVE_PID"
RC=$?
st=$(status_of "$RESULT")
if [ "$RC" = 2 ] && [ "$st" = fault ]; then
  report PASS serve_fault "the server left with exit 2, status fault"
else
  report FAIL serve_fault "exit $RC, status $st (expected the server to leave with exit 2, status fault)"
  show_log "$SERVE_LOG"
fi

echo
echo "results and logs: $WORK"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
