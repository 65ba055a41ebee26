#!/usr/bin/env bash
# Records the --from-prompt benchmark answers (answers/NAME.json, written by
# answers.py) into databases for --llm-replay: runs the tool of BUILD (a
# build with libcurl, default build/) against the fake endpoint of
# test/LLM/Inputs/fake_llm.py on a fixed port, then writes the calls each
# run recorded (its database's llm_calls rows) to recorded/NAME.json.
# scripts/gpu-check.sh (section fromprompt) puts them into a fresh database
# on the GPU machine, whose static tool cannot reach any endpoint, and replays the same questions with the same settings:
#   --llm=openai --llm-model=recorded
#   --llm-base-url=http://127.0.0.1:18431/NAME/v1 --llm-replay
# Re-run this whenever a fromprompt-*.prompt template changes (the answers
# are keyed by the rendered prompt).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/answers.py"
mkdir -p "$here/recorded"
for set in softmax stencil5 matvec wrongref nocons; do
  python3 "$root/test/LLM/Inputs/fake_llm.py" --answers "$here/answers" \
    --port 18431 -- "$build/bin/clang-optiml" \
    --from-prompt-file="$here/$set.md" --llm=openai --llm-model=recorded \
    --llm-base-url="http://127.0.0.1:18431/$set/v1" --db="$tmp/$set.sqlite" \
    -o "$tmp/$set.cu" >"$tmp/$set.log" 2>&1 ||
    { cat "$tmp/$set.log"; exit 1; }
  python3 - "$tmp/$set.sqlite" "$here/recorded/$set.json" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.row_factory = sqlite3.Row
rows = [dict(r) for r in db.execute("SELECT * FROM llm_calls ORDER BY id")]
for r in rows:
    del r["id"]
with open(sys.argv[2], "w") as f:
    json.dump(rows, f, indent=1)
    f.write("\n")
PY
  echo "recorded $set: $(tail -n 1 "$tmp/$set.log")"
done
