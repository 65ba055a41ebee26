#!/usr/bin/env bash
# The one script that runs on the GPU machine (nvcc, CUPTI and CMake there,
# no LLVM): unpacks the bundle made by scripts/gpu-bundle.sh, builds what
# must be built with nvcc, runs the GPU checks, and prints a short table
# last. Logs go to /tmp/optiml-gpu-logs; with $OUT set (the device tool),
# progress lines, the table and a tarball of the logs are copied there.
#
# Usage: scripts/gpu-check.sh [BUNDLE] [SECTION ...]
#   BUNDLE    default bundle/optiml-gpu.tar.xz
#   SECTION   any of: tool runtime evaluate candidates adversarial transforms
#             sequences baselines optimize strategies ncu (default), llm,
#             fromprompt, cmake, corpus, eager; `gate` stands for the
#             sections that decide whether the tool's verdicts can be
#             trusted (runtime candidates adversarial transforms): the
#             exit status is 0 only when every row of them passed
#     tool      --list-kernels on every example with the relocated tool, and
#               each example built by nvcc and run
#     runtime   the runner built with CMake + nvcc, and its self-test
#     evaluate  every example evaluated against itself: verification,
#               side-by-side timing (a FAIL when the runner calls the
#               ratio of a kernel to itself significant), counters
#     candidates  saxpy candidates through the tool: a correct rewrite is
#               accepted; a wrong element, a fault and a hang are rejected
#     adversarial test/adversarial through the tool: cheating candidates
#               (harness tampering refused before building; launch counting,
#               stale or memoized results, writes once timed, races, tails,
#               NaNs, traps, hangs... rejected with their reason) and correct
#               but unusual ones accepted; one row per candidate with the
#               class, expected and actual verdict, reason and seconds
#               (about 5 minutes; $OPTIML_GPU_ADV_ONLY: a regex of files)
#     transforms  every legal (transform, site) of every example applied
#               and verified against the original through the tool (only
#               the actions matching the regex $OPTIML_GPU_XFORM_ONLY when
#               set, e.g. "^swap-xy"; the sources of $OPTIML_GPU_XFORM_FILES
#               instead of examples/*.cu when set, e.g.
#               "benchmarks/corpus/reduce_samples.cu")
#     sequences   hand-chosen transform chains (benchmarks/sequences.txt),
#                 on examples and on corpus kernels, only those of
#                 $OPTIML_GPU_SEQ_EXAMPLES when set, and only chains whose
#                 steps match the regex $OPTIML_GPU_SEQ_ONLY when set
#     baselines   cuBLAS SGEMM (FP32) and device-to-device copy bandwidth
#     eager     OptiML against PyTorch eager (benchmarks/eager.txt): per
#               kernel the naive and the optimized time (its chain applied
#               and evaluated, both timed side by side by the runner) and
#               the same computation in PyTorch eager at the mark's sizes
#               (benchmarks/eager.py: cuBLAS, cuDNN, cuSPARSE, torch's
#               reductions and scans; fp32, TF32 off), and the geomean of
#               eager / optimized; eager.jsonl in $OUT. Only the rows whose
#               "file kernel op" matches the regex $OPTIML_GPU_EAGER_ONLY
#               when set; $OPTIML_GPU_EAGER_CHECK=1 also runs each naive
#               kernel on the op's inputs and compares (an nvcc build each).
#               About 5 minutes; not in the default
#     optimize    --optimize (MCTS) on each example, $OPTIML_GPU_OPT_BUDGET
#                 candidates (12), only $OPTIML_GPU_OPT_EXAMPLES when set; a
#                 row says the best speedup, the fraction of the roofline
#                 reached (original -> best) and measured / failed, read
#                 from the report's JSON; --time-limit $OPTIML_GPU_OPT_SECONDS
#                 when set. With OPTIML_GPU_PARALLEL=all (here, in
#                 strategies and in corpus) one search per GPU at a time,
#                 each on its own GPU (CUDA_VISIBLE_DEVICES) and database
#     strategies  MCTS, greedy and random at equal budget, each with every
#                 seed of $OPTIML_GPU_STRAT_SEEDS ("1 2", --search-seed) on
#                 every example of $OPTIML_GPU_STRAT_EXAMPLES ("sgemm"; FILE:KERNEL
#                 names a corpus kernel, e.g. "gemv:gemv_rows"; "corpus"
#                 every marked kernel of benchmarks/corpus/),
#                 $OPTIML_GPU_STRAT_BUDGET candidates (8), a fresh database
#                 per run (only the strategies of $OPTIML_GPU_STRAT_STRATEGIES
#                 when set); one row per (example, strategy) with the mean and
#                 min..max speedup over the seeds. Defaults: 3 x 2 x 8 = 48
#                 candidates, at ~8 s each on sgemm about 6-7 min; each
#                 added example (e.g. transpose, ~11 s a candidate) adds as
#                 much again, so run more examples in separate calls.
#                 OPTIML_GPU_STRAT_SHARED=1: one database per example, its
#                 runs one after the other on one GPU, MCTS and greedy
#                 with the first seed only (they make no random choice),
#                 random with every seed, database answers counted against
#                 the budget (--budget-counts-database): a candidate is
#                 measured once and every strategy sees the same number;
#                 each example's reports merged into landscapes/NAME.json
#                 of $OUT/landscapes.tar.gz (one file: the device tool
#                 brings back at most 8; scripts/landscape.py --lean, for
#                 build/bin/optiml-replay).
#                 OPTIML_GPU_STRAT_DEADLINE=S: no example starts after
#                 second S of the check; OPTIML_GPU_STRAT_STOP=S: a search
#                 still running at second S is stopped and its example
#                 skipped, so the table and the logs come back within a
#                 call's limit (a call cut short by the device tool keeps
#                 only strategies.jsonl)
#     ncu       the runner's timing of each example against Nsight Compute
#               (--clock-control none) on the same kernel and instance
#     llm       --optimize --proposals-from on each folder of
#               benchmarks/llm-proposals/ (EXAMPLE.SOURCE/, made by --propose
#               -o on a machine that reached the model), budget
#               $OPTIML_GPU_LLM_BUDGET (6): the model's accepted proposals
#               measured like any candidate; a row says what they did
#     fromprompt  --from-prompt replayed from benchmarks/fromprompt/recorded/
#               (calls recorded by record.sh there, --llm-replay): row
#               softmax, 2-D 5-point stencil and matrix-vector product
#               cross-checked and then searched (--optimize, budget
#               $OPTIML_GPU_FP_BUDGET, 6); a row says the strategies, which
#               agreed with the reference, the chosen kernel's time against
#               the reference and the search's speedup on top. wrongref (a
#               wrong reference) and nocons (nobody agrees) must stop with
#               exit 4 and the verdict reference_suspect / no_consensus.
#               Not in the default
#     cmake     examples/cmake-project built with the bundle as the
#               installed package in auto mode and run: with its committed
#               cache, then with an empty one (a search per kernel,
#               $OPTIML_GPU_CMAKE_BUDGET candidates, 6); not in the default
#     throughput  where a search's time goes: --optimize on each example of
#               $OPTIML_GPU_TP_EXAMPLES ("sgemm transpose saxpy block_sum"),
#               $OPTIML_GPU_TP_BUDGET candidates (12), once per runner mode
#               of $OPTIML_GPU_TP_RUNNERS ("worker+batches worker": one
#               runner process serving the search, "process" one per
#               candidate; a mode ending "+batches" adds --pipeline=false,
#               batches built and then measured; with
#               $OPTIML_GPU_TP_SECONDS, a --time-limit too), same search
#               seed, each from an empty build cache and database; one row
#               per run with
#               candidates a minute and mean seconds per stage
#               (scripts/throughput.py), and throughput.txt in $OUT; not in
#               the default
#     energy    --optimize --objective=energy on each example of
#               $OPTIML_GPU_ENERGY_EXAMPLES ("saxpy transpose"; FILE:KERNEL
#               names a corpus kernel),
#               $OPTIML_GPU_ENERGY_BUDGET candidates (8): the best energy
#               saving, its speed, joules per launch before and after, and
#               the report's same-speed-less-energy finding; not in the
#               default
#     energy-noise  the runner's energy ratio of vadd against itself for
#               several window, settle and round settings
#               ($OPTIML_NOISE_SETTINGS, runtime/selftest/energy-noise.sh):
#               mean, deviation and spread per setting; not in the default
#     faults    a search whose proposals (test/faults/saxpy.faulty) hang,
#               trap and write out of bounds goes on past them (timeout,
#               crashed) to a verified best; a search killed with kill -9
#               leaves its database intact (integrity_check) and no output
#               file, and a rerun answers the measured candidates from the
#               database; not in the default
#     several   a file with two marked kernels and two files at once:
#               --evaluate of each in turn, --optimize chained into one -o
#               (both kernels, a report each, progress, output builds); not
#               in the default
#     probe     the GPU probe (CUDA runtime): with CUDA_VISIBLE_DEVICES empty
#               --evaluate stops with exit 3 "no CUDA GPU found"; --evaluate
#               shows the runner's steps while it runs; the kernel's
#               registers come from the driver (cudaFuncGetAttributes) and
#               its binary matches nvidia-smi's compute capability; not in
#               the default
#     gpus      --optimize on the first GPU and with --gpus=all, from empty
#               caches (examples $OPTIML_GPU_MULTI_EXAMPLES, "sgemm saxpy";
#               budget $OPTIML_GPU_MULTI_BUDGET, 12): candidates a minute
#               with one GPU and with all; skipped on a one-GPU machine
#     layouts   every kernel of the files of $OPTIML_GPU_LAYOUT_FILES (the
#               element-type and toolkit-header inputs of test/) evaluated
#               against itself through the tool: buffers of vector types,
#               structs and narrow floats, and kernels that include
#               cooperative groups, CUB, cuda::std and Thrust, verified on
#               every seed and the edge seed; one row per kernel with the
#               self-ratio and its noise; not in the default
#     corpus    --optimize on every kernel of benchmarks/corpus (only the
#               files of $OPTIML_GPU_CORPUS_FILES when set, e.g. "gemv
#               atax", and only the kernels of $OPTIML_GPU_CORPUS_KERNELS,
#               e.g. "gemv_rows reduce::row_sums"),
#               $OPTIML_GPU_CORPUS_BUDGET candidates (6) and at most
#               $OPTIML_GPU_CORPUS_SECONDS (60) each; one row per kernel, and
#               corpus.json (speedup, roofline before/after, trace) in $OUT;
#               OPTIML_GPU_PARALLEL=all (or OPTIML_GPU_CORPUS_PARALLEL=all)
#               runs one search per GPU at a time
# Two checks can share a machine at once, each on its own GPUs
# (CUDA_VISIBLE_DEVICES), with their own OPTIML_GPU_WORK, OPTIML_GPU_LOGS
# (/tmp/optiml-gpu-logs) and OUT.
set -uo pipefail
run_limit=() # A command optimize_run runs its search under (timeout).
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bundle=bundle/optiml-gpu.tar.xz
if [ $# -gt 0 ] && [[ "$1" == *.tar.xz ]]; then bundle=$1; shift; fi
sections=${*:-tool runtime evaluate candidates adversarial transforms sequences baselines optimize strategies ncu}
sections=${sections/gate/runtime candidates adversarial transforms}
work=${OPTIML_GPU_WORK:-/tmp/optiml-gpu-work}
logs=${OPTIML_GPU_LOGS:-/tmp/optiml-gpu-logs}
cuda=${CUDA_PATH:-/usr/local/cuda}
arch=${OPTIML_GPU_ARCH:-sm_90}
export PATH="$cuda/bin:$PATH"
export OPTIML_CACHE_DIR="$work/cache"
rm -rf "$logs"
mkdir -p "$work" "$logs"
start=$SECONDS

rows=()
failures=0
# record CHECK RESULT DETAIL: one row of the final table.
record() {
  rows+=("$1|$2|$3")
  [ "$2" = "FAIL" ] && failures=$((failures + 1))
  # Progress survives a call that runs out of time.
  [ -n "${OUT:-}" ] &&
    printf '%4ds %-28s %-5s %s\n' $((SECONDS - start)) "$1" "$2" "$3" >>"$OUT/progress.txt"
  return 0
}
wants() { [[ " $sections " == *" $1 "* ]]; }

unpack() {
  if [ ! -f "$bundle" ]; then
    echo "gpu-check: error: no bundle at $bundle (run scripts/gpu-bundle.sh first)" >&2
    exit 1
  fi
  rm -rf "$work/optiml-gpu"
  # A damaged archive unpacks in part: stop rather than measure that.
  if ! tar -C "$work" -xJf "$bundle"; then
    echo "gpu-check: error: $bundle does not unpack (rebuild it with scripts/gpu-bundle.sh)" >&2
    exit 1
  fi
  tool="$work/optiml-gpu/bin/clang-optiml"
  record "bundle" "ok" "$(cat "$work/optiml-gpu/VERSION"), $(du -h "$bundle" | cut -f1)"
  local gpu
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)
  if nvidia-smi -L >/dev/null 2>&1; then
    record "device" "ok" "$gpu"
  else
    record "device" "FAIL" "no GPU: $gpu"
  fi
  record "nvcc" "ok" "$(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
}

# Kernel discovery with the relocated, static tool, then each example built
# with nvcc and run (nvcc accepts the #pragma optiml marks).
check_tool() {
  local src name n
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    if "$tool" "$src" --list-kernels --cuda-path="$cuda" >"$logs/list-$name.txt" 2>&1 &&
      "$tool" "$src" --list-kernels --format=json --cuda-path="$cuda" >"$logs/list-$name.json" 2>>"$logs/list-$name.txt"; then
      n=$(grep -c '^kernel ' "$logs/list-$name.txt")
      record "list-kernels $name" "ok" "$n kernel(s), $(grep -c 'for#' "$logs/list-$name.txt") loop(s)"
    else
      record "list-kernels $name" "FAIL" "see list-$name.txt"
    fi
    if nvcc -arch="$arch" -O3 -o "$work/$name" "$src" >"$logs/nvcc-$name.txt" 2>&1 &&
      "$work/$name" >"$logs/run-$name.txt" 2>&1; then
      record "nvcc+run $name" "ok" "$(tail -n 1 "$logs/run-$name.txt")"
    else
      record "nvcc+run $name" "FAIL" "see nvcc-$name.txt, run-$name.txt"
    fi
  done
}

# The runner's sources in the bundle.
runtime_dir() {
  local rt="$work/optiml-gpu/share/optiml/runtime"
  # Bundles made before the install layout had runtime/ and include/ on top.
  [ -d "$rt" ] || rt="$work/optiml-gpu/runtime"
  echo "$rt"
}

# The runner, built once with CMake + nvcc as the tool does, in rt-build.
build_runtime() {
  local rt inc="$work/optiml-gpu/share/optiml/include"
  rt=$(runtime_dir)
  [ -d "$inc" ] || inc="$work/optiml-gpu/include"
  [ -x "$work/rt-build/optiml-runner" ] && return 0
  if cmake -S "$rt" -B "$work/rt-build" -DCMAKE_CUDA_ARCHITECTURES="${arch#sm_}" \
      -DOPTIML_JSON_INCLUDE_DIR="$inc" >"$logs/runtime-build.txt" 2>&1 &&
    cmake --build "$work/rt-build" -j16 >>"$logs/runtime-build.txt" 2>&1; then
    record "runtime build" "ok" "$work/rt-build"
  else
    record "runtime build" "FAIL" "see runtime-build.txt"
    return 1
  fi
}

# The runner's self-test.
check_runtime() {
  local status summary
  build_runtime || return
  bash "$(runtime_dir)/selftest/run-selftest.sh" "$work/rt-build" >"$logs/selftest.txt" 2>&1
  status=$?
  summary=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$logs/selftest.txt" | tail -n 1)
  if [ $status -eq 0 ]; then
    record "runner self-test" "ok" "$summary"
  else
    record "runner self-test" "FAIL" "${summary:-exit $status}, see selftest.txt"
  fi
}

# record_self CHECK RC RESULT.json ERRFILE VERDICT: the row of a kernel
# evaluated against itself. It must pass and come out the same within the
# noise: a self-ratio the runner calls significant is a FAIL.
record_self() {
  local significant
  significant=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["result"].get("timing") or {}; print(bool(t.get("significant")))' "$3" 2>/dev/null)
  if [ "$2" -ne 0 ]; then
    record "$1" "FAIL" "exit $2 ${5:-$(tail -n 1 "$4")}"
  elif [ "$significant" = True ]; then
    record "$1" "FAIL" "$5: the ratio of a kernel to itself is called significant"
  else
    record "$1" "ok" "$5"
  fi
}

# Every example against itself, with the counters; the plan is kept for ncu.
check_evaluate() {
  local src name rc verdict
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    "$tool" "$src" --evaluate --metrics --format=json --cuda-path="$cuda" \
      --save-plan="$logs/plan-$name.json" >"$logs/eval-$name.json" 2>"$logs/eval-$name.err"
    rc=$?
    verdict=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); t=d['result'].get('timing') or {}; print('%s speedup %.4f noise %.4f' % (d['status'], t.get('speedup',0), t.get('noise',0)))" "$logs/eval-$name.json" 2>/dev/null)
    record_self "evaluate $name (self)" $rc "$logs/eval-$name.json" \
      "$logs/eval-$name.err" "$verdict"
  done
  python3 scripts/eval-table.py "$logs"/eval-*.json >"$logs/eval-table.txt" 2>&1
}

# Every kernel of the layout files against itself: what a real program's
# element types and headers need, verified and timed through the tool.
check_layouts() {
  local src kernel tag rc verdict
  local files=${OPTIML_GPU_LAYOUT_FILES:-test/Spec/Inputs/element-layouts.cu test/Driver/Inputs/toolkit-headers.cu}
  for src in $files; do
    for kernel in $(marked_kernels "$src"); do
      tag="layout-$(basename "$src" .cu)-$kernel"
      "$tool" "$src" --kernel="$kernel" --evaluate --format=json \
        --cuda-path="$cuda" >"$logs/$tag.json" 2>"$logs/$tag.err"
      rc=$?
      verdict=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["result"]; t=r.get("timing") or {}; seeds=[s for i in r["verify"]["instances"] for s in i["seeds"]]; edge=[s.get("comparison", "compared") for s in seeds if s.get("edge")]; print("%s speedup %.4f noise %.4f, %d seed runs, edge: %s" % (d["status"], t.get("speedup", 0), t.get("noise", 0), len(seeds), "; ".join(edge) or "none"))' "$logs/$tag.json" 2>/dev/null)
      record_self "layout $kernel (self)" $rc "$logs/$tag.json" \
        "$logs/$tag.err" "$verdict"
    done
  done
}

# Through the tool: a correct rewrite is accepted; a wrong result, a fault
# and a hang are rejected with their status, and the tool carries on.
check_candidates() {
  local pair cand expect rc status
  for pair in saxpy-restrict:ok saxpy-wrong:verify_failed saxpy-fault:fault \
    saxpy-hang:timeout; do
    cand=${pair%%:*}
    expect=${pair##*:}
    "$tool" examples/saxpy.cu --evaluate --candidate="test/Eval/Inputs/$cand.cu" \
      --timeout=40 --format=json --cuda-path="$cuda" \
      >"$logs/cand-$cand.json" 2>"$logs/cand-$cand.err"
    rc=$?
    status=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['status'])" \
      "$logs/cand-$cand.json" 2>/dev/null)
    if [ "$status" = "$expect" ]; then
      record "candidate $cand" "ok" "status $status, exit $rc"
    else
      record "candidate $cand" "FAIL" "status ${status:-none} (expected $expect), exit $rc"
    fi
  done
}

# The adversarial suite (test/adversarial/run-adversarial.sh): one row per
# candidate, "expected -> got (seconds): reason".
check_adversarial() {
  local dir="$work/adversarial" file class expected got seconds result reason
  rm -rf "$dir"
  ADV_ONLY=${OPTIML_GPU_ADV_ONLY:-.} bash test/adversarial/run-adversarial.sh \
    "$tool" "$dir" -- --cuda-path="$cuda" >"$logs/adversarial.txt" 2>&1
  if [ ! -s "$dir/summary.tsv" ]; then
    record "adversarial" "FAIL" "no summary; see adversarial.txt"
    return
  fi
  while IFS=$'\t' read -r file class expected got seconds result reason; do
    [ "$result" = PASS ] && result=ok
    record "adv $file" "$result" "$class: $expected -> $got (${seconds}s) ${reason:0:160}"
  done <"$dir/summary.tsv"
}

# Every legal (transform, site) of every example, applied with its default
# parameters and evaluated against the original: all must be accepted.
check_transforms() {
  local src name apply tag out rc status speed kernel marked unmarked
  for src in ${OPTIML_GPU_XFORM_FILES:-examples/*.cu}; do
    name=$(basename "$src" .cu)
    if ! "$tool" "$src" --list-sites --format=json --cuda-path="$cuda" \
        >"$logs/sites-$name.json" 2>"$logs/sites-$name.err"; then
      record "sites $name" "FAIL" "$(tail -n 1 "$logs/sites-$name.err")"
      continue
    fi
    # A kernel without a spec (one that only a sequence launches) has
    # nothing to be verified against on its own.
    marked=" $(marked_kernels "$src" | tr '\n' ' ') "
    unmarked=0
    while IFS= read -r apply; do
      [ -n "${OPTIML_GPU_XFORM_ONLY:-}" ] && [[ ! "$apply" =~ $OPTIML_GPU_XFORM_ONLY ]] && continue
      kernel=$(echo "$apply" | sed -n 's/^[^(]*(site=\([^,/)]*\).*/\1/p')
      if [ -n "$kernel" ] && [[ "$marked" != *" $kernel "* ]]; then
        unmarked=$((unmarked + 1))
        continue
      fi
      tag=$(echo "$apply" | tr -c 'A-Za-z0-9_\n-' '_' | cut -c1-60)
      out="$work/xform-$name-$tag.cu"
      if ! "$tool" "$src" --apply="$apply" -o "$out" --cuda-path="$cuda" \
          >"$logs/apply-$name-$tag.txt" 2>&1; then
        record "apply $name $apply" "FAIL" "$(tail -n 1 "$logs/apply-$name-$tag.txt")"
        continue
      fi
      # The site names its kernel first: "ew::gelu/for#0", "k/buf".
      "$tool" "$src" --evaluate --candidate="$out" --noise-target=0.02 \
        ${kernel:+--kernel="$kernel"} \
        --format=json --cuda-path="$cuda" >"$logs/xeval-$name-$tag.json" \
        2>"$logs/xeval-$name-$tag.err"
      rc=$?
      status=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); t=d['result'].get('timing') or {}; print('%s %.3fx%s' % (d['status'], t.get('speedup',0), '' if t.get('significant') else ' (noise)'))" \
        "$logs/xeval-$name-$tag.json" 2>/dev/null)
      if [ $rc -eq 0 ]; then
        record "$name $apply" "ok" "$status"
      else
        record "$name $apply" "FAIL" "exit $rc ${status:-$(tail -n 1 "$logs/xeval-$name-$tag.err")}"
      fi
    done < <(python3 -c "import json,sys; [print(a['apply']) for a in json.load(open(sys.argv[1])) if a.get('legal')]" "$logs/sites-$name.json")
    if [ "$unmarked" -gt 0 ]; then
      record "sites $name" "ok" \
        "$unmarked legal action(s) on kernels without a spec not evaluated"
    fi
  done
}

# Library baselines (cuBLAS SGEMM in FP32, device-to-device copy) to put
# the examples' times in context.
check_baselines() {
  if python3 benchmarks/baselines.py >"$logs/baselines.jsonl" 2>"$logs/baselines.err"; then
    while IFS= read -r line; do
      record "baseline" "ok" "$line"
    done <"$logs/baselines.jsonl"
  else
    record "baseline" "FAIL" "$(tail -n 1 "$logs/baselines.err")"
  fi
}

# OptiML against PyTorch eager (benchmarks/eager.txt: file|kernel|chain|op).
# Per row: the mark from --list-kernels (eager.py reads the sizes from its
# clauses), the chain applied and evaluated against the naive kernel (or
# the kernel against itself when it has no chain: optimized = naive). Then
# one eager.py process times every op (torch's start-up paid once); jobs it
# did not reach (a crash, a lost CUDA context) run again one process each.
# eager.py --table merges both sides into one row per kernel and the
# geomean of eager / optimized.
check_eager() {
  local file kernel chain op step tag rc err i=0 only=${OPTIML_GPU_EAGER_ONLY:-}
  local jobs="$logs/eager-jobs.jsonl" measured="$logs/eager-rows.jsonl" status name detail job
  local -a apply cand parts check=()
  [ "${OPTIML_GPU_EAGER_CHECK:-0}" = 1 ] && check=(--check)
  : >"$jobs"
  : >"$measured"
  # fd 3: nothing the tool starts can read the list.
  while IFS='|' read -r -u 3 file kernel chain op; do
    [[ -z "$file" || "$file" == \#* ]] && continue
    i=$((i + 1))
    [ -n "$only" ] && ! [[ "$file $kernel $op" =~ $only ]] && continue
    tag="eager-$i"
    err=""
    "$tool" "$file" --list-kernels --kernel="$kernel" --format=json --cuda-path="$cuda" \
      >"$logs/$tag-list.json" 2>"$logs/$tag.txt"
    cand=()
    if [ -n "$chain" ]; then
      apply=()
      IFS=';' read -ra parts <<<"$chain"
      for step in "${parts[@]}"; do apply+=("--apply=$step"); done
      if "$tool" "$file" "${apply[@]}" -o "$work/$tag.cu" --cuda-path="$cuda" \
        >>"$logs/$tag.txt" 2>&1; then
        cand=(--candidate="$work/$tag.cu")
      else
        err="the chain does not apply: $(tail -n 1 "$logs/$tag.txt")"
      fi
    fi
    rc=""
    if [ -z "$err" ]; then
      "$tool" "$file" --evaluate ${cand[@]+"${cand[@]}"} --kernel="$kernel" --format=json \
        --cuda-path="$cuda" >"$logs/$tag.json" 2>>"$logs/$tag.txt"
      rc=$?
    fi
    python3 -c 'import json, sys
keys = ["id", "file", "kernel", "chain", "op", "spec", "eval", "eval_rc", "error"]
print(json.dumps(dict(zip(keys, sys.argv[1:]), id=int(sys.argv[1]))))' \
      "$i" "$file" "$kernel" "$chain" "$op" "$logs/$tag-list.json" "$logs/$tag.json" "$rc" "$err" >>"$jobs"
  done 3<benchmarks/eager.txt
  python3 benchmarks/eager.py --batch "$jobs" ${check[@]+"${check[@]}"} >>"$measured" 2>"$logs/eager.err"
  while IFS= read -r job; do
    printf '%s\n' "$job" >"$logs/eager-one.jsonl"
    python3 benchmarks/eager.py --batch "$logs/eager-one.jsonl" ${check[@]+"${check[@]}"} \
      >>"$measured" 2>>"$logs/eager.err"
  done < <(python3 benchmarks/eager.py --missing "$jobs" "$measured")
  while IFS=$'\t' read -r status name detail; do
    record "$name" "$status" "$detail"
  done < <(python3 benchmarks/eager.py --table "$jobs" "$measured" --jsonl "$logs/eager.jsonl" \
    2>>"$logs/eager.err" || printf 'FAIL\teager table\teager.py --table failed, see eager.err\n')
  [ -n "${OUT:-}" ] && [ -f "$logs/eager.jsonl" ] && cp "$logs/eager.jsonl" "$OUT/eager.jsonl"
  return 0
}

# Hand-chosen transform sequences (benchmarks/sequences.txt: one
# "example|step;step;...[|kernel]" per line), applied in order and evaluated
# against the original: examples/<example>.cu, or benchmarks/<example>.cu
# for a name with a folder (corpus/two_mm); the kernel field picks one
# kernel of a file that has several.
check_sequences() {
  local name steps kernel src out args select step i=0 status rc only=${OPTIML_GPU_SEQ_EXAMPLES:-}
  local match=${OPTIML_GPU_SEQ_ONLY:-}
  while IFS='|' read -r name steps kernel; do
    [[ -z "$name" || "$name" == \#* ]] && continue
    i=$((i + 1))
    [ -n "$only" ] && [[ " $only " != *" $name "* ]] && continue
    [ -n "$match" ] && ! [[ "$steps" =~ $match ]] && continue
    src="examples/$name.cu"
    [[ "$name" == */* ]] && src="benchmarks/$name.cu"
    out="$work/seq-$i-${name//\//-}.cu"
    args=()
    IFS=';' read -ra parts <<<"$steps"
    for step in "${parts[@]}"; do args+=("--apply=$step"); done
    if ! "$tool" "$src" "${args[@]}" -o "$out" --cuda-path="$cuda" >"$logs/seq-$i.txt" 2>&1; then
      record "seq $i $name" "FAIL" "$(tail -n 1 "$logs/seq-$i.txt")"
      continue
    fi
    select=()
    [ -n "$kernel" ] && select=("--kernel=$kernel")
    "$tool" "$src" --evaluate --candidate="$out" ${select[@]+"${select[@]}"} \
      --format=json --cuda-path="$cuda" >"$logs/seq-$i.json" 2>>"$logs/seq-$i.txt"
    rc=$?
    status=$(python3 scripts/eval-summary.py "$logs/seq-$i.json" 2>/dev/null)
    [ $rc -eq 0 ] && record "seq $i $name${kernel:+ $kernel}" "ok" "$status  [$steps]" ||
      record "seq $i $name${kernel:+ $kernel}" "FAIL" "exit $rc $status [$steps]"
  done <benchmarks/sequences.txt
}

# The SASS instruction mix (cuobjdump -sass, attached to every build) of the
# naive sgemm and of the one --optimize wrote, as two rows; both builds come
# from the cache.
sgemm_sass_rows() {
  local opt="$work/opt-sgemm-mcts.cu" args=() side line
  [ -f "$opt" ] && args=(--candidate="$opt")
  "$tool" examples/sgemm.cu --evaluate --build-only ${args[@]+"${args[@]}"} --format=json \
    --cuda-path="$cuda" >"$logs/sass-sgemm.json" 2>"$logs/sass-sgemm.err"
  while IFS='|' read -r side line; do
    case "$line" in
      none*) record "sass sgemm $side" "FAIL" "no SASS mix: $line" ;;
      *) record "sass sgemm $side" "ok" "$line" ;;
    esac
  done < <(python3 - "$logs/sass-sgemm.json" "$([ -f "$opt" ] && echo 1)" <<'PY' 2>&1
import json, sys
w = lambda c: '%d/%d/%d' % (c['32'], c['64'], c['128'])
def row(m):
    n = max(m['instructions'], 1)
    return '%d instr, %d FFMA (%.0f%%), %d int; LDG %s, LDS %s, STS %s (32/64/128); LDL/STL %d/%d' % (
        m['instructions'], m['ffma'], 100.0 * m['ffma'] / n, m['integer'],
        w(m['global_loads']), w(m['shared_loads']), w(m['shared_stores']),
        sum(m['local_loads'].values()), sum(m['local_stores'].values()))
sides = [('naive', 'reference')] + ([('optimized', 'candidate')] if sys.argv[2] else [])
for name, side in sides:
    try:
        m = json.load(open(sys.argv[1]))['build'][side]['sass']
        print('%s|%s' % (name, row(m) if m else 'none (no cuobjdump beside nvcc or on PATH?)'))
    except Exception as e:
        print('%s|none (%s: %s)' % (name, type(e).__name__, e))
PY
  )
}

# --optimize on each example with a small budget ($OPTIML_GPU_OPT_BUDGET,
# default 12 candidates) and the MCTS strategy.
check_optimize() {
  local src name budget=${OPTIML_GPU_OPT_BUDGET:-12} examples=${OPTIML_GPU_OPT_EXAMPLES:-}
  local slots i=0
  slots=$(gpu_slots)
  if [ "$slots" -eq 1 ]; then
    for src in examples/*.cu; do
      name=$(basename "$src" .cu)
      [ -n "$examples" ] && [[ " $examples " != *" $name "* ]] && continue
      optimize_one "$src" "$name" mcts "$budget"
    done
    sgemm_sass_rows
    return
  fi
  # One search per GPU at a time, each with its own database (no history
  # from another example): rows once all have ended.
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    [ -n "$examples" ] && [[ " $examples " != *" $name "* ]] && continue
    in_slot $i "$slots" optimize_job "examples/$name.cu" "$name-mcts" mcts "$budget" \
      "$work/search-$name.db" 1 "${OPTIML_GPU_OPT_SECONDS:-}"
    i=$((i + 1))
  done
  wait
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    [ -n "$examples" ] && [[ " $examples " != *" $name "* ]] && continue
    job_row "optimize $name mcts" "$name-mcts"
  done
}

# The same search measured in batches and pipelined (or with a runner
# process per candidate), each from empty build caches, so all pay for
# their nvcc builds: candidates a minute and where the seconds go.
check_throughput() {
  local examples=${OPTIML_GPU_TP_EXAMPLES:-sgemm transpose saxpy block_sum}
  local runners=${OPTIML_GPU_TP_RUNNERS:-worker+batches worker}
  local budget=${OPTIML_GPU_TP_BUDGET:-12} name mode tag start_s line=""
  local table="$logs/throughput.txt"
  : >"$table"
  for name in $examples; do
    for mode in $runners; do
      tag="tp-$name-$mode"
      rm -rf "$OPTIML_CACHE_DIR/builds" "$work/$tag.db"
      start_s=$SECONDS
      if "$tool" "examples/$name.cu" --optimize --runner="${mode%+batches}" \
        $([ "$mode" != "${mode%+batches}" ] && echo --pipeline=false) \
        ${OPTIML_GPU_TP_SECONDS:+--time-limit="$OPTIML_GPU_TP_SECONDS"} \
        --search-seed=7 --budget="$budget" --db="$work/$tag.db" \
        -o "$work/$tag.cu" --report="$logs/$tag" --cuda-path="$cuda" \
        >"$logs/$tag.txt" 2>&1 &&
        line=$(python3 scripts/throughput.py "$logs/$tag.json" 2>&1); then
        record "throughput $name $mode" "ok" "$((SECONDS - start_s))s: $line"
        python3 scripts/throughput.py --per-candidate "$logs/$tag.json" >>"$table"
      else
        record "throughput $name $mode" "FAIL" "$(tail -n 1 "$logs/$tag.txt") $line"
      fi
    done
  done
  [ -n "${OUT:-}" ] && cp "$table" "$OUT/throughput.txt"
}

# --gpus: the same search on the first GPU and on all of them, each from
# an empty build cache and database and with one search seed, so that the
# rows differ only in how many GPUs measure; a row each with candidates a
# minute and the best speedup (scripts/throughput.py).
check_gpus() {
  local examples=${OPTIML_GPU_MULTI_EXAMPLES:-sgemm saxpy}
  local budget=${OPTIML_GPU_MULTI_BUDGET:-12} name which tag start_s line=""
  local count
  count=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  if [ "${count:-0}" -lt 2 ]; then
    record "gpus" "SKIP" "this machine has ${count:-0} GPU(s); --gpus=all needs two"
    return
  fi
  for name in $examples; do
    for which in 0 all; do
      tag="gpus-$name-$which"
      rm -rf "$OPTIML_CACHE_DIR/builds" "$work/$tag.db"
      start_s=$SECONDS
      if "$tool" "examples/$name.cu" --optimize --gpus="$which" -j 4 \
        --budget="$budget" --search-seed=7 --db="$work/$tag.db" -o "$work/$tag.cu" \
        --report="$logs/$tag" --cuda-path="$cuda" >"$logs/$tag.txt" 2>&1 &&
        line=$(python3 scripts/throughput.py "$logs/$tag.json" 2>&1); then
        record "gpus $name --gpus=$which ($count GPUs)" "ok" "$((SECONDS - start_s))s: $line"
      else
        record "gpus $name --gpus=$which" "FAIL" "$(tail -n 1 "$logs/$tag.txt") $line"
      fi
    done
  done
}

# --objective=energy: the search ranks by NVML energy per launch; a row per
# example with the best configuration's energy saving, its speed against
# the original, and the joules per launch of both (from the report).
check_energy() {
  local examples=${OPTIML_GPU_ENERGY_EXAMPLES:-saxpy transpose}
  local budget=${OPTIML_GPU_ENERGY_BUDGET:-8} name tag start_s line src
  local -a pick
  for name in $examples; do
    # An example's name, or FILE:KERNEL of the corpus (elementwise:ew::axpby).
    src="examples/$name.cu" pick=()
    if [[ $name == *:* ]]; then
      src="benchmarks/corpus/${name%%:*}.cu" pick=(--kernel="${name#*:}")
    fi
    tag="energy-${name//:/_}"
    rm -f "$work/$tag.db"
    start_s=$SECONDS
    if "$tool" "$src" "${pick[@]}" --optimize --objective=energy \
      --budget="$budget" --db="$work/$tag.db" -o "$work/$tag.cu" \
      --report="$logs/$tag" --cuda-path="$cuda" >"$logs/$tag.txt" 2>&1 &&
      line=$(python3 - "$logs/$tag.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mj = lambda j: "n/a" if j is None else "%.3f mJ" % (j * 1e3)
m = r.get("matched_speed")
print("best %.2fx less energy at %.2fx speed (%s): %s -> %s per launch; "
      "same speed, less energy: %s"
      % (r["best_gain"], r["best_speedup"], r["best_trace"] or "original",
         mj(r["joules_original"]), mj(r["joules_best"]),
         m["text"] if m else "none measured"))
PY
      ); then
      record "energy $name" "ok" "$((SECONDS - start_s))s: $line"
    else
      record "energy $name" "FAIL" "$(tail -n 1 "$logs/$tag.txt")"
    fi
  done
}

# The energy ratio of vadd against itself under several window lengths,
# settle times and round counts (runtime/selftest/energy-noise.sh): a row
# per setting with the ratios' mean, deviation and spread.
check_energy_noise() {
  build_runtime || return
  if bash "$(runtime_dir)/selftest/energy-noise.sh" "$work/rt-build" \
      "$work/energy-noise" >"$logs/energy-noise.txt" 2>&1; then
    record "energy noise" "ok" "$(tail -n +2 "$logs/energy-noise.txt" | tr '\n' ';' | tr -s ' ')"
  else
    record "energy noise" "FAIL" "see energy-noise.txt: $(tail -n 1 "$logs/energy-noise.txt")"
  fi
}

# A search goes on past candidates that hang or fault, and one killed with
# kill -9 loses nothing that it had measured.
check_faults() {
  local tag=faults-proposals start_s line="" pid db="$work/faults-kill.db" n=0
  start_s=$SECONDS
  rm -f "$work/$tag.db"
  if "$tool" examples/saxpy.cu --optimize --budget=8 --timeout=20 \
    --proposals-from=test/faults/saxpy.faulty --db="$work/$tag.db" \
    -o "$work/$tag.cu" --report="$logs/$tag" --cuda-path="$cuda" \
    >"$logs/$tag.txt" 2>&1 &&
    line=$(python3 - "$logs/$tag.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
seen = [p["status"] for p in d["series"]]
bad = {"timeout", "crashed", "verify_failed"}
first_bad = min((i for i, s in enumerate(seen) if s in bad), default=None)
assert "timeout" in seen, "no candidate timed out: %s" % seen
assert "crashed" in seen or "verify_failed" in seen, "no fault: %s" % seen
assert any(s == "ok" for s in seen[first_bad + 1:]), "nothing measured after the faults: %s" % seen
print("went on: %s; best %.2fx" % (" ".join(seen), d["best_speedup"]))
PY
    ); then
    record "faults hang+trap search" "ok" "$((SECONDS - start_s))s: $line"
  else
    record "faults hang+trap search" "FAIL" "$line $(tail -n 1 "$logs/$tag.txt")"
  fi

  start_s=$SECONDS
  rm -f "$db" "$db-wal" "$db-shm" "$work/faults-kill.cu"
  "$tool" examples/sgemm.cu --optimize --budget=40 --db="$db" \
    -o "$work/faults-kill.cu" --cuda-path="$cuda" >"$logs/faults-kill.txt" 2>&1 &
  pid=$!
  # Killed once three candidates are in the database, mid-search.
  while [ $n -lt 3 ] && [ $((SECONDS - start_s)) -lt 120 ] && kill -0 $pid 2>/dev/null; do
    sleep 1
    n=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from candidates").fetchone()[0])' "$db" 2>/dev/null || echo 0)
  done
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  line=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("pragma integrity_check").fetchone()[0], c.execute("select count(*) from candidates").fetchone()[0])' "$db" 2>&1)
  if [ -e "$work/faults-kill.cu" ]; then
    record "faults kill -9" "FAIL" "an output file was written by the killed search"
  elif [[ "$line" != ok* ]] || [ "${line#ok }" -lt 3 ]; then
    record "faults kill -9" "FAIL" "after kill -9 with $n candidates: $line"
  elif "$tool" examples/sgemm.cu --optimize --resume --budget=6 --db="$db" \
    -o "$work/faults-kill.cu" --report="$logs/faults-resume" \
    --cuda-path="$cuda" >"$logs/faults-resume.txt" 2>&1 &&
    cached=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cached"])' "$logs/faults-resume.json") &&
    [ "$cached" -gt 0 ]; then
    record "faults kill -9" "ok" "$((SECONDS - start_s))s: killed with ${line#ok } candidates in the database (integrity ok, no output); --resume answered $cached from it"
  else
    record "faults kill -9" "FAIL" "resume: $(tail -n 1 "$logs/faults-resume.txt")"
  fi
}

# Every corpus kernel searched with a small budget: what the transforms
# find on code written by others. With OPTIML_GPU_CORPUS_PARALLEL=all the
# searches run one per GPU at a time, each on its own GPU and database.
check_corpus() {
  local src name kernel files=${OPTIML_GPU_CORPUS_FILES:-}
  local kernels=${OPTIML_GPU_CORPUS_KERNELS:-}
  local summary="$logs/corpus.jsonl" tag line rc slots i=0 item
  local -a items=()
  : >"$summary"
  slots=$(gpu_slots)
  for src in benchmarks/corpus/*.cu; do
    name=$(basename "$src" .cu)
    [ -n "$files" ] && [[ " $files " != *" $name "* ]] && continue
    for kernel in $(marked_kernels "$src"); do
      [ -n "$kernels" ] && [[ " $kernels " != *" $kernel "* ]] && continue
      items+=("$src|$name|$kernel")
    done
  done
  for item in "${items[@]}"; do
    in_slot $i "$slots" corpus_one "$item"
    i=$((i + 1))
  done
  wait
  # The table below is written once every search has ended; each search
  # also leaves its own line in $OUT/corpus-progress.txt as it ends, so a
  # call that runs out of time keeps what finished.
  for item in "${items[@]}"; do
    IFS='|' read -r src name kernel <<<"$item"
    tag="corpus-$name-${kernel//:/_}"
    rc=$(cat "$logs/$tag.rc" 2>/dev/null || echo "?")
    if [ "$rc" != 0 ]; then
      record "corpus $name $kernel" "FAIL" "exit $rc $(tail -n 1 "$logs/$tag.txt")"
      echo "{\"file\": \"$name\", \"kernel\": \"$kernel\", \"exit\": \"$rc\"}" >>"$summary"
    elif line=$(report_line "$logs/$tag.json"); then
      record "corpus $name $kernel" "ok" "$(cat "$logs/$tag.seconds")s: $line"
      python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"file": sys.argv[2], "kernel": sys.argv[3], "speedup": d["best_speedup"], "roofline_original": d.get("roofline_original"), "roofline_best": d.get("roofline_best"), "evaluated": d["evaluated"], "failed": d["failed"], "trace": d["best_trace"]}))' \
        "$logs/$tag.json" "$name" "$kernel" >>"$summary"
    else
      record "corpus $name $kernel" "FAIL" "unreadable report: $line"
    fi
  done
  [ -n "${OUT:-}" ] && cp "$summary" "$OUT/corpus.jsonl"
}

# corpus_one "SRC|NAME|KERNEL" GPU: one corpus search on that GPU; its exit
# code and seconds go to $logs/<tag>.rc and .seconds for check_corpus.
corpus_one() {
  local src name kernel tag t0 rc
  IFS='|' read -r src name kernel <<<"$1"
  tag="corpus-$name-${kernel//:/_}"
  t0=$SECONDS
  CUDA_VISIBLE_DEVICES=$(gpu_of "$2") "$tool" "$src" --kernel="$kernel" \
    --optimize --budget="${OPTIML_GPU_CORPUS_BUDGET:-6}" \
    --time-limit="${OPTIML_GPU_CORPUS_SECONDS:-60}" \
    --db="$work/corpus-gpu$2.db" -o "$work/$tag.cu" --report="$logs/$tag" \
    --cuda-path="$cuda" >"$logs/$tag.txt" 2>&1
  rc=$?
  echo "$rc" >"$logs/$tag.rc"
  echo "$((SECONDS - t0))" >"$logs/$tag.seconds"
  if [ -n "${OUT:-}" ]; then
    echo "$name $kernel exit $rc $((SECONDS - t0))s: $(report_line "$logs/$tag.json" 2>/dev/null)" \
      >>"$OUT/corpus-progress.txt"
    cp "$logs/$tag.json" "$OUT/" 2>/dev/null
  fi
}

# The CUDA_VISIBLE_DEVICES entry of slot $1's GPU (slot modulo the GPUs):
# that entry of a list the caller set, else the GPU's number.
gpu_of() {
  local i=$(($1 % $(gpu_count)))
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    echo "$CUDA_VISIBLE_DEVICES" | cut -d, -f$((i + 1))
  else
    echo "$i"
  fi
}

# What the proposals of one --proposals-from run did: "2 of 3 accepted;
# edit(...): ok 1.02x; restrict(...): ok 1.31x".
llm_line() {
  python3 - "$1" <<'PY' 2>&1 | tail -n 1
import json, sys
d = json.load(open(sys.argv[1]))
u = d.get('llm') or {}
seen = {}
for p in d['series']:
    last = p['trace'].split('; ')[-1] if p['trace'] else ''
    if last.startswith('edit(') or (p['trace'] and len(p['trace'].split('; ')) == 1):
        got = p['status'] if p['status'] != 'ok' else 'ok %.2fx' % (p['measured'] or 1)
        seen.setdefault(last[:40], got)
edits = ['%s: %s' % (k, v) for k, v in seen.items() if k.startswith('edit(')]
print('%d of %d accepted; %s' % (u.get('accepted', 0), u.get('proposals', 0),
      '; '.join(edits) or 'no edit measured'))
PY
}

# The model's proposals, made where it was reachable, measured here.
check_llm() {
  local dir tag name start_s rc line budget=${OPTIML_GPU_LLM_BUDGET:-6}
  for dir in benchmarks/llm-proposals/*/; do
    [ -f "$dir/proposals.json" ] || continue
    tag=$(basename "$dir")
    name=${tag%%.*}
    start_s=$SECONDS
    "$tool" "examples/$name.cu" --optimize --proposals-from="$dir" \
      --budget="$budget" --db="$work/llm-$tag.db" -o "$work/llm-$tag.cu" \
      --report="$logs/llm-$tag" --cuda-path="$cuda" >"$logs/llm-$tag.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
      record "llm $tag" "FAIL" "exit $rc $(tail -n 1 "$logs/llm-$tag.txt")"
    elif line=$(report_line "$logs/llm-$tag.json"); then
      record "llm $tag" "ok" "$((SECONDS - start_s))s: $line; $(llm_line "$logs/llm-$tag.json")"
    else
      record "llm $tag" "FAIL" "unreadable report: $line"
    fi
  done
}

# fromprompt_line REPORT.json [SEARCH.json]: "verified; s1 agrees 0.41 ms,
# s2 agrees 0.09 ms, ...; chosen s2 0.0900 ms vs reference 1.2000 ms
# (13.33x); search 1.10x".
fromprompt_line() {
  python3 - "$@" <<'PY' 2>&1 | tail -n 1
import json, sys
d = json.load(open(sys.argv[1]))
ref = d.get('reference_ns') or 0
ks = ['%s %s%s' % (k['label'], k['status'],
                   ' %.4f ms' % (k['time_ns'] / 1e6) if k['time_ns'] else '')
      for k in d['kernels'] if k['strategy']]
line = '%s (%s); %s' % (d['outcome'], (d.get('agreement') or {}).get('verdict', 'not cross-checked'), ', '.join(ks))
chosen = [k for k in d['kernels'] if k['label'] == d['chosen']]
if chosen and chosen[0]['time_ns'] and ref:
    t = chosen[0]['time_ns']
    line += '; chosen %s %.4f ms vs reference %.4f ms (%.2fx)' % (d['chosen'], t / 1e6, ref / 1e6, ref / t)
u = d['llm']
line += '; %d answers, %d+%d tokens' % (u['answers'], u['answers_tokens_in'], u['answers_tokens_out'])
if len(sys.argv) > 2:
    s = json.load(open(sys.argv[2]))
    line += '; search %.2fx (%d measured): %s' % (s['best_speedup'], s['evaluated'], s['best_trace'] or '(start kept)')
print(line)
PY
}

# --from-prompt on recorded answers: each set's recorded calls go into a
# fresh database and the same questions are replayed; no endpoint is
# reached.
check_fromprompt() {
  local set db rc start_s line budget=${OPTIML_GPU_FP_BUDGET:-6}
  local -a common
  for set in softmax stencil5 matvec wrongref nocons; do
    db="$work/fp-$set.sqlite"
    rm -f "$db"
    # The tool makes the schema; the recorded calls go into it.
    "$tool" --export-cache "$work/fp-empty.json" --db="$db" >/dev/null 2>&1
    python3 - "$db" "benchmarks/fromprompt/recorded/$set.json" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in json.load(open(sys.argv[2])):
    keys = sorted(row)
    db.execute("INSERT INTO llm_calls (%s) VALUES (%s)" % (
        ", ".join(keys), ", ".join("?" * len(keys))), [row[k] for k in keys])
db.commit()
PY
    common=(--from-prompt-file="benchmarks/fromprompt/$set.md" --llm=openai
      --llm-model=recorded --llm-base-url="http://127.0.0.1:18431/$set/v1"
      --llm-replay --db="$db" -o "$work/fp-$set.cu" --cuda-path="$cuda")
    start_s=$SECONDS
    case $set in
    wrongref | nocons)
      "$tool" "${common[@]}" --reference-attempts=1 >"$logs/fp-$set.txt" 2>&1
      rc=$?
      cp "$work/fp-$set.fromprompt.md" "$logs/" 2>/dev/null
      line=$(fromprompt_line "$work/fp-$set.fromprompt.json")
      local want=reference_suspect
      [ $set = nocons ] && want=no_consensus
      if [ $rc -eq 4 ] && [[ "$line" == *"($want)"* ]] && [ ! -e "$work/fp-$set.cu" ]; then
        record "fromprompt $set" "ok" "$((SECONDS - start_s))s: refused as expected: $line"
      else
        record "fromprompt $set" "FAIL" "exit $rc (want 4, $want, no output): $line"
      fi
      ;;
    *)
      "$tool" "${common[@]}" --optimize --budget="$budget" \
        --report="$logs/fp-$set-search" >"$logs/fp-$set.txt" 2>&1
      rc=$?
      cp "$work/fp-$set.fromprompt.md" "$logs/" 2>/dev/null
      if [ $rc -ne 0 ]; then
        record "fromprompt $set" "FAIL" "exit $rc $(tail -n 1 "$logs/fp-$set.txt")"
      else
        record "fromprompt $set" "ok" "$((SECONDS - start_s))s: $(fromprompt_line "$work/fp-$set.fromprompt.json" "$logs/fp-$set-search.json")"
      fi
      ;;
    esac
  done
}

# A file with two marked kernels (and an unmarked one), and two files:
# --evaluate handles every marked kernel in turn (each accepted against
# itself); --optimize chains the two kernels into one -o that has both,
# with a report each, shows done/budget progress, and its output builds.
check_several() {
  local src=test/Driver/Inputs/two-marked.cu out="$work/several" rc
  mkdir -p "$out"
  "$tool" "$src" examples/saxpy.cu --evaluate --cuda-path="$cuda" \
    >"$logs/several-eval.txt" 2>&1
  rc=$?
  if [ $rc -eq 0 ] && grep -q "two-marked.cu: 2 kernels, 2 accepted" "$logs/several-eval.txt" &&
    grep -q "kernel saxpy" "$logs/several-eval.txt"; then
    record "several: evaluate" "ok" "2 kernels of two-marked.cu + saxpy.cu accepted"
  else
    record "several: evaluate" "FAIL" "exit $rc, see several-eval.txt"
  fi
  "$tool" "$src" --optimize --budget=4 --db="$work/several.db" -o "$out/two.cu" \
    --cuda-path="$cuda" >"$logs/several-opt.txt" 2>&1
  rc=$?
  cp "$out"/two.report.*.md "$logs/" 2>/dev/null
  if [ $rc -eq 0 ] && grep -q "void scale" "$out/two.cu" && grep -q "void add" "$out/two.cu" &&
    [ -f "$out/two.report.scale.json" ] && [ -f "$out/two.report.add.json" ] &&
    grep -q "2 of 2 kernels optimized in turn" "$logs/several-opt.txt" &&
    grep -q "/4 measured" "$logs/several-opt.txt" &&
    nvcc -arch="$arch" -c -o "$out/two.o" "$out/two.cu" >>"$logs/several-opt.txt" 2>&1; then
    record "several: optimize chained" "ok" "scale $(report_line "$out/two.report.scale.json" | cut -d, -f1), add $(report_line "$out/two.report.add.json" | cut -d, -f1); output builds"
  else
    record "several: optimize chained" "FAIL" "exit $rc, see several-opt.txt"
  fi
}

# The GPU as the CUDA runtime sees it (the probe honours
# CUDA_VISIBLE_DEVICES, which nvidia-smi ignores), the runner's steps shown
# while it runs, and the driver's registers in place of ptxas' estimate.
check_probe() {
  local rc smi_cap lines src=examples/saxpy.cu
  CUDA_VISIBLE_DEVICES= "$tool" "$src" --evaluate --cuda-path="$cuda" \
    >"$logs/probe-hidden.txt" 2>&1
  rc=$?
  if [ $rc -eq 3 ] && grep -q "error: no CUDA GPU found" "$logs/probe-hidden.txt"; then
    record "probe: no visible GPU" "ok" "exit 3: $(grep -o 'no CUDA GPU found.*' "$logs/probe-hidden.txt" | head -n 1 | cut -c1-90)"
  else
    record "probe: no visible GPU" "FAIL" "exit $rc, see probe-hidden.txt"
  fi
  "$tool" "$src" --evaluate --cuda-path="$cuda" >"$logs/probe-eval.txt" 2>"$logs/probe-eval.err"
  rc=$?
  lines=$(grep -c "clang-optiml: on the GPU: " "$logs/probe-eval.err")
  if [ $rc -eq 0 ] && [ "$lines" -ge 4 ] && grep -q "as loaded on the GPU" "$logs/probe-eval.txt"; then
    record "probe: evaluate progress" "ok" "$lines runner steps shown; $(grep -m1 'as loaded' "$logs/probe-eval.txt" | sed 's/^ *//' | cut -c1-90)"
  else
    record "probe: evaluate progress" "FAIL" "exit $rc, $lines step lines, see probe-eval.txt/.err"
  fi
  smi_cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.')
  "$tool" "$src" --evaluate --format=json --cuda-path="$cuda" >"$logs/probe-eval.json" 2>/dev/null
  if python3 - "$logs/probe-eval.json" "$smi_cap" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
u = d["build"]["candidate"]["usage"]
lib = d["result"]["libraries"]["candidate"]["attributes"]
assert u["source"] == "driver" and u["registers"] == lib["registers"] > 0, (u, lib)
assert str(lib["binary_version"]) == sys.argv[2], (lib, sys.argv[2])
print("registers %d, binary sm_%d" % (lib["registers"], lib["binary_version"]))
PY
  then
    record "probe: kernel attributes" "ok" "$(python3 -c "import json,sys; a=json.load(open(sys.argv[1]))['result']['libraries']['candidate']['attributes']; print('registers %d, binary %d, nvidia-smi cap $smi_cap' % (a['registers'], a['binary_version']))" "$logs/probe-eval.json")"
  else
    record "probe: kernel attributes" "FAIL" "see probe-eval.json"
  fi
}

# optimize_run SRC TAG STRATEGY BUDGET DB SEED: one search; the output is
# $work/opt-TAG.cu, the log and reports $logs/opt-TAG.{txt,md,json,html}.
optimize_run() {
  local src=$1 tag=$2 strategy=$3 budget=$4 db=$5 seed=$6 kernel=""
  shift 6
  # SRC may name one kernel of a file: path.cu#kernel.
  if [[ $src == *"#"* ]]; then kernel=${src#*#} src=${src%%#*}; fi
  # No strategy: the extra flags choose (--compare). $run_limit, set by a
  # caller, bounds the run (timeout).
  "${run_limit[@]}" "$tool" "$src" ${kernel:+--kernel="$kernel"} --optimize ${strategy:+--strategy="$strategy"} --budget="$budget" \
    --search-seed="$seed" --db="$db" -o "$work/opt-$tag.cu" \
    --report="$logs/opt-$tag" --cuda-path="$cuda" "$@" >"$logs/opt-$tag.txt" 2>&1
}

# report_line REPORT.json: "2.07x, roofline 8.2% -> 31.0%, 12 measured / 0
# failed: TRACE" ("n/a" where the counters did not give a roofline).
report_line() {
  python3 - "$1" <<'PY' 2>&1 | tail -n 1
import json, sys
d = json.load(open(sys.argv[1]))
pct = lambda f: 'n/a' if f is None else '%.1f%%' % (100 * f)
print('%.2fx, roofline %s -> %s, %d measured / %d failed: %s' % (
    d['best_speedup'], pct(d.get('roofline_original')),
    pct(d.get('roofline_best')), d['evaluated'], d['failed'],
    d['best_trace'] or '(original kept)'))
PY
}

# gpu_count: the GPUs visible (nvidia-smi, narrowed by CUDA_VISIBLE_DEVICES).
gpu_count() {
  local gpus listed
  gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    listed=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .)
    [ "$listed" -lt "$gpus" ] && gpus=$listed
  fi
  [ "${gpus:-0}" -ge 1 ] || gpus=1
  echo "$gpus"
}

# gpu_slots: how many searches run at once: 1, or with OPTIML_GPU_PARALLEL=all
# every GPU visible times $OPTIML_GPU_PER_GPU (1): searches that share a GPU
# take turns measuring on it (the runner's GPU lock), the rest overlaps.
gpu_slots() {
  if [ "${OPTIML_GPU_PARALLEL:-${OPTIML_GPU_CORPUS_PARALLEL:-}}" != all ]; then
    echo 1
    return
  fi
  echo $(($(gpu_count) * ${OPTIML_GPU_PER_GPU:-1}))
}

# in_slot I SLOTS COMMAND ARGS...: COMMAND ARGS GPU in the background on
# slot I % SLOTS, once that slot's previous job has ended.
declare -a slot_pids=()
in_slot() {
  local slot=$(($1 % $2))
  shift 2
  [ -n "${slot_pids[$slot]:-}" ] && wait "${slot_pids[$slot]}"
  "$@" "$slot" &
  slot_pids[$slot]=$!
}

# optimize_job SRC TAG STRATEGY BUDGET DB SEED SECONDS GPU [FLAG...]:
# optimize_run on that GPU (with --time-limit=SECONDS unless empty, and the
# FLAGs), its seconds and exit code kept for job_row.
optimize_job() {
  local t0=$SECONDS rc
  CUDA_VISIBLE_DEVICES=$(gpu_of "$8") optimize_run "$1" "$2" "$3" "$4" "$5" "$6" \
    ${7:+--time-limit="$7"} "${@:9}"
  rc=$?
  echo "$rc" >"$logs/opt-$2.rc"
  echo "$((SECONDS - t0))" >"$logs/opt-$2.seconds"
}

# job_row NAME TAG: the row of an optimize_job.
job_row() {
  local rc line
  rc=$(cat "$logs/opt-$2.rc" 2>/dev/null || echo "?")
  if [ "$rc" != 0 ]; then
    record "$1" "FAIL" "exit $rc $(tail -n 1 "$logs/opt-$2.txt")"
  elif line=$(report_line "$logs/opt-$2.json"); then
    record "$1" "ok" "$(cat "$logs/opt-$2.seconds")s: $line"
  else
    record "$1" "FAIL" "unreadable report: $line"
  fi
}

# optimize_one SRC NAME STRATEGY BUDGET [DB]: one search, one row.
optimize_one() {
  local src=$1 name=$2 strategy=$3 budget=$4 db=${5:-$work/search.db} tag start_s rc line
  tag="$name-$strategy"
  start_s=$SECONDS
  optimize_run "$src" "$tag" "$strategy" "$budget" "$db" 1
  rc=$?
  if [ $rc -ne 0 ]; then
    record "optimize $name $strategy" "FAIL" "exit $rc $(tail -n 1 "$logs/opt-$tag.txt")"
  elif line=$(report_line "$logs/opt-$tag.json"); then
    record "optimize $name $strategy" "ok" "$((SECONDS - start_s))s: $line"
  else
    record "optimize $name $strategy" "FAIL" "unreadable report: $line"
  fi
}

# seed_summary REPORT.json...: the best speedups of runs that differ only
# in their seed, as "mean 1.52x, 1.03..2.01x over 2 seeds; 16 measured / 1
# failed; top: TRACE".
seed_summary() {
  python3 - "$@" <<'PY' 2>&1 | tail -n 1
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
x = [r['best_speedup'] for r in runs]
top = max(runs, key=lambda r: r['best_speedup'])
print('mean %.2fx, %.2f..%.2fx over %d seeds; %d measured / %d failed; top: %s' % (
    sum(x) / len(x), min(x), max(x), len(x),
    sum(r['evaluated'] for r in runs), sum(r['failed'] for r in runs),
    top['best_trace'] or '(original kept)'))
PY
}

# marked_kernels SRC: the qualified names of SRC's marked kernels.
marked_kernels() {
  "$tool" "$1" --list-kernels --format=json --cuda-path="$cuda" 2>/dev/null |
    python3 -c 'import json,sys; [print(k["qualified_name"]) for k in json.load(sys.stdin)["kernels"] if k.get("mark")]'
}

# corpus_kernels: FILE:KERNEL for every marked kernel of benchmarks/corpus/.
corpus_kernels() {
  local src kernel
  for src in benchmarks/corpus/*.cu; do
    for kernel in $(marked_kernels "$src"); do
      printf '%s:%s ' "$(basename "$src" .cu)" "$kernel"
    done
  done
}

# strategy_slot BUDGET STRATEGIES SEEDS SLOT: takes the next example of
# $work/strategy-queue until none is left, or until the second
# $OPTIML_GPU_STRAT_DEADLINE of the check (a call's time limit), and runs
# it with strategy_runs_shared on its GPU.
strategy_slot() {
  local n item fd
  while :; do
    if [ -n "${OPTIML_GPU_STRAT_DEADLINE:-}" ] && [ "$SECONDS" -ge "$OPTIML_GPU_STRAT_DEADLINE" ]; then
      return
    fi
    exec {fd}>>"$work/strategy-next"
    flock "$fd"
    n=$(cat "$work/strategy-next")
    echo $((n + 1)) >"$work/strategy-next"
    flock -u "$fd"
    exec {fd}>&-
    item=$(sed -n "$((n + 1))p" "$work/strategy-queue")
    [ -n "$item" ] || return
    strategy_runs_shared "${item%%|*}" "${item#*|}" "$1" "$2" "$3" "$4"
  done
}

# strategy_rows EXAMPLE...: one JSON line per finished run (kernel,
# strategy, seed, best speedup, measured, from the database, seconds, trace).
strategy_rows() {
  local name s seed tag
  for name in "$@"; do
    for s in ${OPTIML_GPU_STRAT_STRATEGIES:-mcts greedy random}; do
      for seed in ${OPTIML_GPU_STRAT_SEEDS:-1 2}; do
        tag="${name//:/_}-$s-seed$seed"
        [ "$(cat "$logs/opt-$tag.rc" 2>/dev/null)" = 0 ] || continue
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps({"kernel": sys.argv[2], "strategy": sys.argv[3], "seed": int(sys.argv[4]), "speedup": d["best_speedup"], "measured": d["evaluated"], "cached": d.get("cached", 0), "failed": d["failed"], "seconds": int(sys.argv[5]), "trace": d["best_trace"]}))' \
          "$logs/opt-$tag.json" "$name" "$s" "$seed" "$(cat "$logs/opt-$tag.seconds")"
      done
    done
  done
}

# strategy_runs_shared SRC NAME BUDGET STRATEGIES SEEDS SLOT: every run of
# one example in one --compare process on the slot's GPU (one database, one
# runner: the original is set up once); random's seeds are the first of
# SEEDS and the ones after it, as many as SEEDS has.
strategy_runs_shared() {
  local src=$1 name=$2 budget=$3 strategies=$4 seeds=$5 gpu=$6 n
  local -a run_limit=()
  if [ -n "${OPTIML_GPU_STRAT_STOP:-}" ]; then
    [ "$SECONDS" -lt "$OPTIML_GPU_STRAT_STOP" ] || return 0
    run_limit=(timeout -k 10 $((OPTIML_GPU_STRAT_STOP - SECONDS)))
  fi
  rm -f "$work/strategy-$name.db"
  n=$(echo "$seeds" | wc -w)
  optimize_job "$src" "$name-compare" "" "$budget" "$work/strategy-$name.db" \
    "${seeds%% *}" "" "$gpu" --compare="${strategies// /,}" --compare-seeds="$n"
  [ -n "${OUT:-}" ] && compare_rows "$name" >>"$OUT/strategies.jsonl"
}

# compare_rows NAME: one JSON line per search of NAME's --compare run.
compare_rows() {
  [ "$(cat "$logs/opt-$1-compare.rc" 2>/dev/null)" = 0 ] || return 0
  python3 - "$logs/opt-$1-compare.compare.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    print(json.dumps({"kernel": sys.argv[2], "strategy": r["strategy"],
                      "seed": r["seed"] or 1, "speedup": r["best_speedup"],
                      "measured": r["evaluated"], "cached": r["cached"],
                      "failed": r["failed"], "seconds": round(r["seconds"]),
                      "trace": r["best_trace"]}))
PY
}

# compare_summary NAME: "mcts 2.45x, greedy 2.42x, random 2.12x (5 seeds,
# 1.00..4.92x); 41 measured in 312 s", from NAME's --compare run.
compare_summary() {
  python3 - "$logs/opt-$1-compare.compare.json" "$(cat "$logs/opt-$1-compare.seconds")" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
parts = []
for s in d["strategies"]:
    t = "%s %.2fx" % (s["strategy"], s["mean"])
    if s["runs"] > 1:
        t += " (%d seeds, %.2f..%.2fx)" % (s["runs"], s["min"], s["max"])
    parts.append(t)
measured = sum(r["evaluated"] for r in d["runs"])
print("%s; %d measured in %s s" % (", ".join(parts), measured, sys.argv[2]))
PY
}

# The landscape a kernel's reports recorded (stopped runs' too), merged
# into landscapes/NAME.json of $OUT/landscapes.tar.gz for optiml-replay
# (scripts/landscape.py).
strategy_landscape() {
  local tag=$1 name=$2 dir="$logs/landscapes"
  [ -n "${OUT:-}" ] && compgen -G "$logs/opt-$tag.*.json" >/dev/null || return 0
  mkdir -p "$dir"
  python3 scripts/landscape.py "$logs/opt-$tag".*.json --lean \
    -o "$dir/$name.json" >/dev/null 2>&1 || true
  tar -C "$logs" -czf "$OUT/landscapes.tar.gz" landscapes
}

# MCTS against greedy and random at equal budget, over seeds: random's
# choices follow the seed; MCTS and greedy make no random choices, so their
# runs differ only where the GPU's noise changes a decision.
check_strategies() {
  local examples=${OPTIML_GPU_STRAT_EXAMPLES:-sgemm} seeds=${OPTIML_GPU_STRAT_SEEDS:-1 2}
  local budget=${OPTIML_GPU_STRAT_BUDGET:-8} name s seed tag start_s failed line src
  local strategies=${OPTIML_GPU_STRAT_STRATEGIES:-mcts greedy random} slots i=0
  local -a reports
  # "corpus" stands for every marked kernel of benchmarks/corpus/.
  [[ " $examples " == *" corpus "* ]] &&
    examples="${examples/corpus/$(corpus_kernels)}"
  slots=$(gpu_slots)
  start_s=$SECONDS
  : >"$work/strategy-queue"
  echo 0 >"$work/strategy-next"
  for name in $examples; do
    # An example's name, or FILE:KERNEL of the corpus (gemv:gemv_rows).
    src="examples/$name.cu"
    [[ $name == *:* ]] && src="benchmarks/corpus/${name%%:*}.cu#${name#*:}"
    if [ "${OPTIML_GPU_STRAT_SHARED:-0}" = 1 ]; then
      echo "$src|${name//:/_}" >>"$work/strategy-queue"
      continue
    fi
    for s in $strategies; do
      for seed in $seeds; do
        tag="${name//:/_}-$s-seed$seed"
        # A fresh database each: no run starts from another's records.
        rm -f "$work/strategy-$tag.db"
        in_slot $i "$slots" optimize_job "$src" "$tag" "$s" "$budget" \
          "$work/strategy-$tag.db" "$seed" ""
        i=$((i + 1))
      done
    done
  done
  if [ -s "$work/strategy-queue" ]; then
    for ((i = 0; i < slots; i++)); do
      strategy_slot "$budget" "$strategies" "$seeds" "$i" &
    done
  fi
  wait
  # Shared runs wrote theirs as each example ended (a call cut short keeps
  # them).
  [ -n "${OUT:-}" ] && [ "${OPTIML_GPU_STRAT_SHARED:-0}" != 1 ] &&
    strategy_rows $examples >"$OUT/strategies.jsonl"
  for name in $examples; do
    if [ "${OPTIML_GPU_STRAT_SHARED:-0}" = 1 ]; then
      tag="${name//:/_}-compare"
      if [ ! -f "$logs/opt-$tag.rc" ]; then
        record "strategy $name" "skip" "not started before the deadline (second ${OPTIML_GPU_STRAT_DEADLINE:-})"
      elif [ -n "${OPTIML_GPU_STRAT_STOP:-}" ] && [ "$(cat "$logs/opt-$tag.rc")" = 124 ]; then
        record "strategy $name" "skip" "stopped at second $OPTIML_GPU_STRAT_STOP, unfinished"
      elif [ "$(cat "$logs/opt-$tag.rc")" = 0 ] && line=$(compare_summary "${name//:/_}"); then
        record "strategy $name" "ok" "budget $budget: $line"
      else
        record "strategy $name" "FAIL" "exit $(cat "$logs/opt-$tag.rc") $(tail -n 1 "$logs/opt-$tag.txt")"
      fi
      strategy_landscape "$tag" "${name//:/_}"
      continue
    fi
    for s in $strategies; do
      reports=()
      failed=""
      line=""
      for seed in $seeds; do
        tag="${name//:/_}-$s-seed$seed"
        if [ "$(cat "$logs/opt-$tag.rc" 2>/dev/null)" = 0 ]; then
          reports+=("$logs/opt-$tag.json")
        else
          failed+="; seed $seed: exit $(cat "$logs/opt-$tag.rc" 2>/dev/null) $(tail -n 1 "$logs/opt-$tag.txt")"
        fi
      done
      if [ ${#reports[@]} -gt 0 ] && line=$(seed_summary "${reports[@]}") && [ -z "$failed" ]; then
        record "strategy $name $s" "ok" "$((SECONDS - start_s))s (all runs), budget $budget: $line"
      else
        record "strategy $name $s" "FAIL" "${line:-no run finished}$failed"
      fi
    done
  done
}

# ncu times the kernel's first launches on the timed instance, which the
# runner makes while verifying it (the plan without timing or counters).
check_ncu() {
  local src name runner line
  runner=$(ls "$OPTIML_CACHE_DIR"/runner/*/optiml-runner 2>/dev/null | head -n 1)
  if [ -z "$runner" ] || ! command -v ncu >/dev/null; then
    record "ncu" "FAIL" "no runner built (run the evaluate section) or no ncu"
    return
  fi
  for src in examples/*.cu; do
    name=$(basename "$src" .cu)
    [ -f "$logs/plan-$name.json" ] || continue
    python3 -c "import json,sys; p=json.load(open(sys.argv[1])); p.pop('candidate', None); p['metrics']=False; [i.update(time=False) for i in p['instances']]; json.dump(p, open(sys.argv[2],'w'))" \
      "$logs/plan-$name.json" "$logs/plan-ncu-$name.json"
    ncu --clock-control none -k "regex:^$name" --launch-count 8 \
      --metrics gpu__time_duration.sum --csv \
      "$runner" --plan "$logs/plan-ncu-$name.json" --out "$logs/ncu-run-$name.json" \
      >"$logs/ncu-$name.csv" 2>"$logs/ncu-$name.err"
    if line=$(python3 scripts/ncu-compare.py "$name" "$logs/ncu-$name.csv" "$logs/eval-$name.json"); then
      record "ncu agrees $name" "ok" "$line"
    else
      record "ncu agrees $name" "FAIL" "$line"
    fi
  done
}

# examples/cmake-project with the unpacked bundle as the installed package:
# in auto mode with the committed cache (its rewrites applied and the
# output checked on the GPU), then with an empty cache, so auto searches
# each kernel ($OPTIML_GPU_CMAKE_BUDGET candidates, 6) before the build.
check_cmake() {
  local ex=examples/cmake-project b="$work/cmake-example" empty="$work/empty-cache.json"
  local budget=${OPTIML_GPU_CMAKE_BUDGET:-6} mode cache log
  printf '{"format": "optiml-results", "version": 1, "results": []}\n' >"$empty"
  for mode in cached:"$root/$ex/optiml-results.json" searched:"$empty"; do
    cache=${mode#*:}
    mode=${mode%%:*}
    log="$logs/cmake-$mode.txt"
    rm -rf "$b"
    if cmake -S "$ex" -B "$b" -DCMAKE_PREFIX_PATH="$work/optiml-gpu" \
        -DCMAKE_CUDA_ARCHITECTURES="${arch#sm_}" -DOPTIML_MODE=auto \
        -DOPTIML_EXAMPLE_CACHE="$cache" -DOPTIML_EXAMPLE_BUDGET="$budget" >"$log" 2>&1 &&
      cmake --build "$b" -j16 >>"$log" 2>&1 &&
      "$b/vecops" >>"$log" 2>&1; then
      record "cmake example ($mode)" "ok" "$(grep -c 'cache hit' "$log") hit line(s), $(tail -n 1 "$log")"
    else
      record "cmake example ($mode)" "FAIL" "see cmake-$mode.txt"
    fi
  done
}

print_table() {
  echo
  echo "== OptiML GPU check, $(date -u +%Y-%m-%dT%H:%MZ), sections: $sections"
  printf '%-28s %-5s %s\n' CHECK RESULT DETAIL
  local r c s d
  for r in "${rows[@]}"; do
    IFS='|' read -r c s d <<<"$r"
    printf '%-28s %-5s %s\n' "$c" "$s" "$d"
  done
  [ -f "$logs/eval-table.txt" ] && { echo; cat "$logs/eval-table.txt"; }
  echo "$((${#rows[@]} - failures)) passed, $failures failed"
}

unpack
wants tool && check_tool
wants runtime && check_runtime
wants evaluate && check_evaluate
wants candidates && check_candidates
wants adversarial && check_adversarial
wants transforms && check_transforms
wants sequences && check_sequences
wants baselines && check_baselines
wants eager && check_eager
wants optimize && check_optimize
wants strategies && check_strategies
wants ncu && check_ncu
wants throughput && check_throughput
wants energy && check_energy
wants energy-noise && check_energy_noise
wants gpus && check_gpus
wants faults && check_faults
wants several && check_several
wants probe && check_probe
wants layouts && check_layouts
wants corpus && check_corpus
wants llm && check_llm
wants fromprompt && check_fromprompt
wants cmake && check_cmake
print_table | tee "$logs/gpu-check.txt"
if [ -n "${OUT:-}" ]; then
  cp "$logs/gpu-check.txt" "$OUT/"
  tar -C "$(dirname "$logs")" -czf "$OUT/gpu-logs.tar.gz" "$(basename "$logs")"
fi
[ $failures -eq 0 ]
