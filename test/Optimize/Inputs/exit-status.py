#!/usr/bin/env python3
"""Runs a command and prints how it ended: "exit N", or "exit -N" when
signal N killed it.

Usage: exit-status.py COMMAND [ARG...]

The command starts with SIGINT's default action, as a terminal's shell
starts it: lit ignores SIGINT in its workers, and a program inherits that.
"""
import signal
import subprocess
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
print("exit", subprocess.run(sys.argv[1:]).returncode)
