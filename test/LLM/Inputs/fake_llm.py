#!/usr/bin/env python3
"""A fake OpenAI-compatible (and Anthropic) endpoint for OptiML's tests.

Usage: fake_llm.py --answers DIR [--log FILE] [--port N] -- CMD... [--- CMD...]

Starts an HTTP server on 127.0.0.1 at a free port (or --port), runs each command with
every "@URL@" in its arguments replaced by http://127.0.0.1:PORT, then stops
the server and exits with the first failing command's status (0 if none).
Standard library only; nothing but the loopback address is used.

A request to /SCENARIO/.../chat/completions (or .../messages) is answered
from DIR/SCENARIO.json, a list of answers served in order (the last one
repeats). An answer is an object with any of:
  "status"   HTTP status (200)
  "delay"    seconds to wait before answering (a hang, past the client's limit)
  "headers"  extra response headers, e.g. {"Retry-After": "0"}
  "content"  the model's text: wrapped into a chat completion (or an
             Anthropic message) with "finish_reason" (default "stop")
  "body"     the raw body (a string, or JSON) instead of "content"
An answer may also have "match", a string or a list of strings: when any
answer of a scenario has one, a request gets the first answer not served
yet whose strings all occur in the request's messages (the last one that
matches when every match was served), so that one scenario can answer
several different prompts whatever their order.
Each request is logged to --log as one JSON line: path, whether an
Authorization or x-api-key header came, and the request body.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class State:
    def __init__(self, answers, log):
        self.answers = answers
        self.log = log
        self.served = {}
        self.lock = threading.Lock()

    def next_answer(self, scenario, request):
        with self.lock:
            path = os.path.join(self.answers, scenario + ".json")
            with open(path) as f:
                answers = json.load(f)
            if any("match" in a for a in answers):
                return self.matching_answer(scenario, answers, request)
            index = self.served.get(scenario, 0)
            self.served[scenario] = index + 1
            return answers[min(index, len(answers) - 1)]

    def matching_answer(self, scenario, answers, request):
        text = "\n".join(str(m.get("content", ""))
                         for m in (request or {}).get("messages", []))
        text += str((request or {}).get("system", ""))
        used = self.served.setdefault(scenario, set())
        last = None
        for index, answer in enumerate(answers):
            wanted = answer.get("match", [])
            wanted = [wanted] if isinstance(wanted, str) else wanted
            if not all(w in text for w in wanted):
                continue
            if index not in used:
                used.add(index)
                return answer
            last = answer
        if last is None:
            raise ValueError("no answer matches the request")
        return last

    def record(self, entry):
        if not self.log:
            return
        with self.lock, open(self.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


def completion(answer, anthropic, model):
    text = answer.get("content", "")
    reason = answer.get("finish_reason", "stop")
    if anthropic:
        return {"id": "msg_fake", "type": "message", "role": "assistant",
                "model": model, "stop_reason": reason,
                "content": [{"type": "text", "text": text}],
                "usage": {"input_tokens": 100, "output_tokens": 20}}
    return {"id": "chatcmpl-fake", "object": "chat.completion", "model": model,
            "choices": [{"index": 0, "finish_reason": reason,
                         "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20,
                      "total_tokens": 120}}


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", 0))
            raw = self.rfile.read(length)
            try:
                request = json.loads(raw)
            except ValueError:
                request = None
            state.record({
                "path": self.path,
                "authorization": "Authorization" in self.headers,
                "x_api_key": "x-api-key" in self.headers,
                "request": request,
            })
            scenario = self.path.strip("/").split("/")[0]
            try:
                answer = state.next_answer(scenario, request)
            except (OSError, ValueError) as e:
                self.send_error(404, "no scenario %s: %s" % (scenario, e))
                return
            time.sleep(answer.get("delay", 0))
            if "body" in answer:
                body = answer["body"]
                body = body if isinstance(body, str) else json.dumps(body)
            else:
                model = (request or {}).get("model", "fake")
                body = json.dumps(completion(
                    answer, self.path.endswith("/messages"), model))
            data = body.encode()
            try:
                self.send_response(answer.get("status", 200))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in answer.get("headers", {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # The client gave up (its time limit): as intended.

    return Handler


def main():
    argv = sys.argv[1:]
    if "--" not in argv:
        sys.exit("usage: fake_llm.py --answers DIR [--log FILE] -- CMD...")
    split = argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", required=True)
    parser.add_argument("--log")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv[:split])
    commands, current = [], []
    for word in argv[split + 1:]:
        if word == "---":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)

    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(
        State(args.answers, args.log)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = "http://127.0.0.1:%d" % server.server_address[1]
    status = 0
    try:
        for command in commands:
            command = [word.replace("@URL@", url) for word in command]
            sys.stdout.flush()
            code = subprocess.call(command, timeout=300)
            if code != 0 and status == 0:
                status = code
    finally:
        server.shutdown()
        server.server_close()
    sys.exit(status)


if __name__ == "__main__":
    main()
