#!/usr/bin/env python3
"""One line about a search run with fake_measure.py, for FileCheck.

Usage: search-summary.py REPORT.json MEASURE_LOG DB.sqlite

Prints what the report says (why the search stopped, the best trace and
speedup, the candidates measured and the highest speedup of its series),
how many times the measuring program was called, and what the database
kept: its candidate records, the highest speedup among them, and its
results-cache entries.
"""
import json
import sqlite3
import sys


def main():
    report_path, log_path, db_path = sys.argv[1:4]
    with open(report_path) as f:
        report = json.load(f)
    with open(log_path) as f:
        calls = sum(1 for _ in f)
    db = sqlite3.connect(db_path)
    records, top = db.execute(
        "SELECT COUNT(*), MAX(speedup) FROM candidates").fetchone()
    results = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    series_top = max(p["speedup"] for p in report["series"])
    print("stopped=%s best=%s best_speedup=%.2f measured=%d series_top=%.2f "
          "calls=%d records=%d records_top=%.2f results=%d" %
          (report["stopped"], report["best_trace"] or "original",
           report["best_speedup"], report["evaluated"], series_top, calls,
           records, top or 0, results))


if __name__ == "__main__":
    main()
