"""Counts the tables of an optiml-replay run where MCTS is behind greedy."""
import re
import sys

best, table = {}, None
for line in open(sys.argv[1]):
    if line.startswith("== "):
        table = line[3:].strip()
        best[table] = {}
    m = re.match(r"(mcts|greedy)\s+([0-9.]+)x", line)
    if m and table:
        best[table][m.group(1)] = float(m.group(2))
behind = [t for t, b in best.items() if b["mcts"] < 0.99 * b["greedy"]]
print(f"{len(best)} tables; MCTS behind greedy by more than 1% on "
      f"{len(behind)}: {' '.join(behind)}")
