"""Checks the shape of `--list-sites --format=json` and prints one line per
entry: transform kernel site legal apply."""
import json
import sys

REQUIRED = {"transform": str, "kernel": str, "site": str, "legal": bool,
            "reason": str, "apply": str}

entries = json.load(open(sys.argv[1]))
assert isinstance(entries, list), "expected a list"
for e in entries:
    for key, kind in REQUIRED.items():
        assert isinstance(e.get(key), kind), (key, e)
    assert e["apply"].startswith(e["transform"] + "(site=" + e["site"]), e
    assert e["legal"] or e["reason"], e  # A refusal always says why.
    print(e["transform"], e["kernel"], e["site"], e["legal"], e["apply"])
print("ok", len(entries))
