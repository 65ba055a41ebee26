#!/usr/bin/env python3
"""Stands in for the GPU under `clang-optiml --optimize --measure-with`.

The tool runs it as `fake_measure.py CANDIDATE.cu STEPS` (STEPS "" for the
original), one candidate at a time, and reads the speedup it prints last.
What it answers comes from the environment:

  FAKE_MEASURE_LOG      a file: one line per call is appended, the steps
                        ("original" for the original)
  FAKE_MEASURE_SPEEDUP  "transform=factor,...": a candidate's speedup is
                        the product of its steps' factors (1 for others)
  FAKE_MEASURE_FAIL     "transform,...": a candidate with one of these
                        steps fails verification (exit 1)
  FAKE_MEASURE_STOP_AFTER  a transform: the call after the first that
                        measured a candidate with it sends FAKE_MEASURE_SIGNAL
                        (INT or TERM) to the tool, its parent, and waits
                        until the tool's stderr (the file FAKE_MEASURE_STDERR)
                        says it was interrupted, so that the tool has its
                        request to stop before this call ends; it then
                        answers a speedup of 100, which the tool must drop.
                        FAKE_MEASURE_SIGNALS=2 sends the signal a second
                        time after that (the tool then quits at once).
                        FAKE_MEASURE_THEN=hang: instead, after the signal,
                        it hangs until the tool kills it, as a runner would
                        that the signal did not reach; if that never comes,
                        it writes LOG.unkilled after minutes and answers.
                        Needs FAKE_MEASURE_LOG.

Standard library only; no sleep decides anything (the wait polls a file,
and gives up only after minutes, so that a tool deaf to the signal fails
the test instead of hanging it).
"""
import os
import signal
import sys
import time


def steps_of(text):
    """The transforms of a trace such as 'a(site=x); b(site=y,n=2)'."""
    return [s.split("(", 1)[0].strip() for s in text.split(";") if s.strip()]


def pairs(name):
    out = {}
    for item in os.environ.get(name, "").split(","):
        if "=" in item:
            key, value = item.split("=", 1)
            out[key.strip()] = float(value)
    return out


def interrupted_yet(path):
    try:
        with open(path, errors="replace") as f:
            return "interrupted:" in f.read()
    except OSError:
        return False


def wait_until_interrupted(path):
    # A guard against a tool that never hears the signal, not a timing: the
    # handler runs within milliseconds, and the test fails either way.
    give_up = time.monotonic() + 300
    while not interrupted_yet(path):
        if time.monotonic() > give_up:
            sys.exit("fake_measure: the tool never said it was interrupted")
        time.sleep(0.01)


def hang_until_killed(log):
    # Minutes, not a timing: the tool kills this within milliseconds of the
    # signal, and the test fails on the file either way.
    give_up = time.monotonic() + 300
    while time.monotonic() < give_up:
        time.sleep(0.05)
    with open(log + ".unkilled", "w") as f:
        f.write("the tool let its measuring program run on after the stop\n")


def is_stop_call(log, transform):
    """Whether this call, the last line of the log, comes right after the
    first call that measured `transform`."""
    with open(log) as f:
        calls = [line.rstrip("\n") for line in f]
    for i, line in enumerate(calls):
        if transform in steps_of(line):
            return i + 2 == len(calls)
    return False


def main():
    candidate, trace = sys.argv[1], sys.argv[2]
    with open(candidate) as f:
        f.read()  # The file is there and readable while this runs.
    log = os.environ.get("FAKE_MEASURE_LOG")
    if log:
        with open(log, "a") as f:
            f.write((trace or "original") + "\n")

    stop_after = os.environ.get("FAKE_MEASURE_STOP_AFTER")
    if stop_after and is_stop_call(log, stop_after):
        sig = getattr(signal, "SIG" + os.environ.get("FAKE_MEASURE_SIGNAL", "INT"))
        tool = os.getppid()
        os.kill(tool, sig)
        if os.environ.get("FAKE_MEASURE_THEN") == "hang":
            hang_until_killed(log)
            print(100.0)
            return 0
        wait_until_interrupted(os.environ["FAKE_MEASURE_STDERR"])
        if os.environ.get("FAKE_MEASURE_SIGNALS") == "2":
            os.kill(tool, sig)
        print(100.0)
        return 0

    transforms = steps_of(trace)
    failing = {t.strip() for t in os.environ.get("FAKE_MEASURE_FAIL", "").split(",")}
    if failing.intersection(transforms):
        print("outputs differ at element 0")
        return 1
    factors = pairs("FAKE_MEASURE_SPEEDUP")
    speedup = 1.0
    for t in transforms:
        speedup *= factors.get(t, 1.0)
    print("%.4f" % speedup)
    return 0


if __name__ == "__main__":
    sys.exit(main())
