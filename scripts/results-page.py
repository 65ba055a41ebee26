#!/usr/bin/env python3
"""The tables of benchmarks/results/'s topic pages, made again from the runs
kept in benchmarks/results/archive/.

    scripts/results-page.py --list                  the tables and their pages
    scripts/results-page.py TABLE                   print one table
    scripts/results-page.py --check [TABLE ...]     the pages' tables as made here?
    scripts/results-page.py --write [TABLE ...]     put the tables made here in the pages
    scripts/results-page.py --pack FILE ...         add raw logs to the archive

Each topic page (corpus.md, strategies.md, ...) holds its tables between
`<!-- results-page.py: TABLE -->` and `<!-- end TABLE -->`. A table is made
by reading the files of the runs behind it: the dated pages that stay in
archive/ as they were written, and the raw output (gpu-check's CHECK lines,
corpus.jsonl and strategies.jsonl rows, scripts/throughput.py's lines) kept
in one archive/YYYY-MM-DD.tar.xz per day, read in place (tarfile). Where
several runs measured the same thing, the latest run gives the row; each
row or table names its run.

--check exits 1 when a page's table differs from the one made here (the lit
test test/scripts/results-page.test runs it), and names the table.
--pages and --archive point elsewhere (default: this checkout's
benchmarks/results and its archive/).

--pack FILE... moves files named YYYY-MM-DD-*.{txt,json,jsonl,html,md} into their
day's archive/YYYY-MM-DD.tar.xz (made again, members sorted, times and owners
fixed, so the same files give the same bytes) and deletes them.
"""
import argparse
import difflib
import importlib.util
import io
import json
import math
import os
import re
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(os.path.dirname(HERE), "benchmarks", "results")


def _script(name):
    spec = importlib.util.spec_from_file_location(
        name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


corpus_merge = _script("corpus-merge")
strategy_table = _script("strategy-table")


# --- The archive -------------------------------------------------------------

class Archive:
    """A file of a run by its original name: archive/NAME, or the member NAME
    of archive/YYYY-MM-DD.tar.xz (the name's first ten characters)."""

    def __init__(self, root):
        self.root = root
        self.tars = {}

    def _tar(self, name):
        path = os.path.join(self.root, name[:10] + ".tar.xz")
        if path not in self.tars:
            self.tars[path] = tarfile.open(path, "r:xz") if os.path.exists(path) else None
        return self.tars[path]

    def text(self, name):
        path = os.path.join(self.root, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
        tar = self._tar(name)
        try:
            return tar.extractfile(tar.getmember(name)).read().decode("utf-8")
        except (AttributeError, KeyError):
            sys.exit("results-page: %s is neither in %s nor in its day's .tar.xz"
                     % (name, self.root))

    def link(self, name):
        """Where a page links to NAME: the file, or its day's tarball."""
        if os.path.exists(os.path.join(self.root, name)):
            return "archive/" + name
        return "archive/%s.tar.xz" % name[:10]

    def cite(self, name):
        """NAME as a page cites it: a link to where it is."""
        where = self.link(name)
        return "[`%s`](%s)" % (name, where)


def pack(archive_root, files):
    """Adds FILES to their days' tarballs and deletes them."""
    by_day = {}
    for f in files:
        name = os.path.basename(f)
        if not re.match(r"\d{4}-\d\d-\d\d-", name):
            sys.exit("results-page: --pack: %s is not named YYYY-MM-DD-..." % f)
        by_day.setdefault(name[:10], []).append(f)
    for day, paths in sorted(by_day.items()):
        tar_path = os.path.join(archive_root, day + ".tar.xz")
        members = {}
        if os.path.exists(tar_path):
            with tarfile.open(tar_path, "r:xz") as t:
                for m in t.getmembers():
                    members[m.name] = t.extractfile(m).read()
        for p in paths:
            with open(p, "rb") as f:
                members[os.path.basename(p)] = f.read()
        tmp = tar_path + ".tmp"
        with tarfile.open(tmp, "w:xz", preset=9, format=tarfile.PAX_FORMAT) as t:
            for name in sorted(members):
                info = tarfile.TarInfo(name)
                info.size = len(members[name])
                info.mtime = 0
                info.mode = 0o644
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                t.addfile(info, io.BytesIO(members[name]))
        os.replace(tmp, tar_path)
        for p in paths:
            os.remove(p)
        print("%s: %d files" % (tar_path, len(members)))


# --- Reading what the runs wrote ---------------------------------------------

def flat(text):
    """TEXT with every run of white space one blank (prose across lines)."""
    return re.sub(r"\s+", " ", text)


def md_tables(text):
    """Each Markdown table of TEXT as a list of rows of stripped cells, the
    header first (the |---| line dropped)."""
    tables, cur = [], []
    for line in text.splitlines() + [""]:
        s = line.strip()
        if s.startswith("|") and s.endswith("|"):
            cells = [c.strip() for c in s[1:-1].split("|")]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                cur.append(cells)
        elif cur:
            tables.append(cur)
            cur = []
    return tables


def md_table(text, first):
    """The table whose header's first cell is FIRST; rows as dicts."""
    for t in md_tables(text):
        if t[0][0] == first:
            return [dict(zip(t[0], row)) for row in t[1:]]
    sys.exit("results-page: no table starting with %r" % first)


CHECK = re.compile(r"^(?:\s*\d+s\s+)?(?P<name>\S.*?)\s+(?P<result>ok|FAIL|skip)(?:\s+(?P<detail>.*))?$")


def gpu_checks(text):
    """gpu-check's output in TEXT: one block per `== OptiML GPU check` line
    (when, sections, the bundle's commit, the device) with its CHECK rows."""
    blocks = [{"when": None, "sections": [], "bundle": None, "device": None, "rows": []}]
    for line in text.splitlines():
        m = re.match(r"== OptiML GPU check, (\S+), sections: (.*)", line)
        if m:
            blocks.append({"when": m.group(1), "sections": m.group(2).split(),
                           "bundle": None, "device": None, "rows": []})
            continue
        if line.startswith(("CHECK ", "#")) or re.match(r"\s*\d+ passed, \d+ failed", line):
            continue
        m = CHECK.match(line)
        if not m:
            continue
        name, detail = m.group("name").strip(), (m.group("detail") or "").strip()
        b = blocks[-1]
        if name == "bundle":
            b["bundle"] = detail.split(",")[0]
        elif name == "device":
            b["device"] = detail.split(",")[0]
        b["rows"].append((name, m.group("result"), detail))
    return [b for b in blocks if b["rows"]]


def block_with(blocks, section, row_prefix=None):
    """The block that ran SECTION (or, where the output kept no header line,
    the one with a row starting with ROW_PREFIX)."""
    for b in blocks:
        if section in b["sections"] or (
                row_prefix and any(r[0].startswith(row_prefix) for r in b["rows"])):
            return b
    sys.exit("results-page: no gpu-check block with section %r" % section)


def day(when):
    return when[:10]


def table(header, rows, align=None):
    """A Markdown table; ALIGN per column: 'l' or 'r'."""
    align = align or "l" * len(header)
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return out


def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def x(v, digits=2):
    return "%.*fx" % (digits, v)


def geomean(xs):
    return math.exp(sum(math.log(v) for v in xs) / len(xs))


# --- corpus.md ---------------------------------------------------------------

# Run A's rows exist only as its page's table (budget 20 on every kernel);
# the later runs' corpus.jsonl rows replace them, the latest run of a kernel
# giving its row (scripts/corpus-merge.py). Label, rows, gpu-check output.
CORPUS_A = "2026-11-27-corpus-budget20-h100x4.md"
CORPUS_RUNS = [
    ("B", "2026-11-27-corpus-rerun1.jsonl", "2026-11-27-corpus-rerun1-raw.txt"),
    ("C", "2026-11-27-corpus-rerun2.jsonl", "2026-11-27-corpus-rerun2-raw.txt"),
    ("D", "2026-11-27-corpus-rerun3.jsonl", "2026-11-27-corpus-rerun3-raw.txt"),
    ("E", "2026-11-27-corpus-hints-h100.jsonl", "2026-11-27-corpus-hints-h100-raw.txt"),
    ("F", "2026-11-27-corpus-followers-h200x2.jsonl", "2026-11-27-corpus-followers-h200x2-raw.txt"),
    ("G", "2026-11-27-corpus-final-h200x2.jsonl", "2026-11-27-corpus-final-h200x2-raw.txt"),
    ("H", "2026-11-27-corpus-gridstride-histo-h200x4.jsonl", "2026-11-27-call1-h200x4-raw.txt"),
    ("I", "2026-11-27-corpus-borderline-h100x4.jsonl", "2026-11-27-call2-h100x4-raw.txt"),
    ("J", "2026-11-27-corpus-vectorize-aliasing-h100.jsonl", "2026-11-27-vectorize-aliasing-h100-raw.txt"),
    ("K", "2026-11-27-corpus-trees-h100.jsonl", "2026-11-27-trees-h100-raw.txt"),
    ("L", "2026-11-27-corpus-gridstride-unroll-h200.jsonl", "2026-11-27-gridstride-unroll-h200-raw.txt"),
    ("M", "2026-11-27-corpus-blockstride-h200.jsonl", "2026-11-27-blockstride-h200-raw.txt"),
    ("N", "2026-11-27-corpus-stride-hint-h200.jsonl", "2026-11-27-stride-hint-h200-raw.txt"),
    ("O", "2026-11-27-corpus-nbody-parts-h100.jsonl", "2026-11-27-nbody-parts-h100-raw.txt"),
    ("P", "2026-11-28-corpus-P-sites-h100.jsonl", "2026-11-28-sites-h100-raw1.txt"),
    ("Q", "2026-11-28-corpus-Q-sites-h100.jsonl", "2026-11-28-sites-h100-raw2.txt"),
    ("R", "2026-11-28-corpus-R-count-offsets-h100.jsonl", "2026-11-28-sites-h100-raw3.txt"),
    ("S", "2026-11-28-corpus-S-integer-data-h100.jsonl", "2026-11-28-sites-h100-raw4.txt"),
]


def corpus_rows(ar):
    """Run A's table, then every later run in order."""
    rows = {}
    for r in md_table(ar.text(CORPUS_A), "file"):
        rows[r["kernel"].strip("`")] = {
            "file": r["file"], "kernel": r["kernel"].strip("`"),
            "speedup": float(r["speedup"].rstrip("x")), "before": "",
            "roofline": r["roofline before -> after"], "run": "A",
            "trace": r["best trace"].strip("`")}
    for label, rows_file, _ in CORPUS_RUNS:
        corpus_merge.merge_run(rows, label, jsonl(ar.text(rows_file)))
    return rows


def corpus_stats(rows):
    s = [r["speedup"] for r in rows.values()]
    return len(s), sum(v >= corpus_merge.GOAL for v in s), geomean(s), statistics.median(s)


def t_corpus(ar):
    rows = corpus_rows(ar)
    used = {r["run"] for r in rows.values()}
    a = flat(ar.text(CORPUS_A))
    legend = [("A", day(CORPUS_A), re.search(r"Bundle (\w+)", a).group(1),
               re.search(r"\d+ x (NVIDIA [^)]*?)(?:,|\))", a).group(1), ar.cite(CORPUS_A))]
    for label, rows_file, raw in CORPUS_RUNS:
        b = block_with(gpu_checks(ar.text(raw)), "corpus")
        legend.append((label, b["when"], b["bundle"], b["device"],
                       ar.cite(rows_file) + "; " + ar.cite(raw)))
    out = corpus_merge.table_lines(rows)
    out += ["", "The runs (the commit is the bundle's, as gpu-check printed it; "
            "a run whose label no row shows was replaced by later runs):", ""]
    out += table(["run", "when", "commit", "GPU", "rows and gpu-check output"],
                  [(l if l in used else "(%s)" % l, w, c, d, f) for l, w, c, d, f in legend])
    return out


def h_corpus(ar):
    n, hits, geo, _ = corpus_stats(corpus_rows(ar))
    return "%d of %d kernels at 1.1x or more, geomean %.2fx" % (hits, n, geo)


CORPUS_REAL = "2026-11-29-tables-aliases-corpus-h200.md"


def corpus_real_rows(ar):
    return md_table(ar.text(CORPUS_REAL), "file")


def t_corpus_real(ar):
    rows = corpus_real_rows(ar)
    cols = list(rows[0].keys())
    out = table(cols, [[r[c] for c in cols] for r in rows], "llrrlrl")
    sp = [float(r["speedup"].rstrip("x")) for r in rows]
    only = sum(1 for r in rows if r["measured / failed"].split("/")[0].strip() == "1")
    out += ["", "%d kernels; 1.1x or more: %d; 1.05x or more: %d; only the original "
            "measured: %d. From %s." % (len(rows), sum(v >= 1.1 for v in sp),
                                        sum(v >= 1.05 for v in sp), only, ar.cite(CORPUS_REAL))]
    return out


# The kernels of benchmarks/corpus/sequences.cu, each run as the sequence of
# launches its mark gives: the searches of call 4 (bundle f7820c7), after
# call 3's (bundle 5d82058) that the counters pass starved.
SEQ_CORPUS = ("2026-11-29-sequences-call4-corpus.jsonl", "2026-11-29-sequences-call4-gpu-check.txt")
SEQ_REPORT = "2026-11-29-sequences-call4-corpus-sequences-%s.json"
SEQ_STARVED = "2026-11-29-sequences-call3-corpus-progress.txt"
SEQ_STARVED_REPORT = "2026-11-29-sequences-call3-corpus-sequences-%s.json"
PROGRESS_LINE = re.compile(r"^(?P<file>\S+) (?P<kernel>\S+) exit (?P<rc>\d+) (?P<s>\d+)s: (?P<speed>[\d.]+x), "
                           r"roofline .*, (?P<n>\d+) measured / (?P<failed>\d+) failed: (?P<trace>.*)$")


def limits(report):
    cmd = report["provenance"]["command_line"]
    return re.search(r"--budget=(\d+)", cmd).group(1), re.search(r"--time-limit=(\d+)", cmd).group(1)


def t_corpus_sequences(ar):
    rows_file, raw = SEQ_CORPUS
    b = block_with(gpu_checks(ar.text(raw)), "corpus")
    secs = {n.split()[-1]: re.match(r"(\d+)s:", d).group(1) for n, _, d in b["rows"]
            if n.startswith("corpus ")}
    runs = sorted(jsonl(ar.text(rows_file)), key=lambda r: r["kernel"])
    reports = {r["kernel"]: json.loads(ar.text(SEQ_REPORT % r["kernel"])) for r in runs}
    out = table(["file", "kernel", "speedup", "measured / failed", "roofline before -> after", "s",
                 "best chain"],
                [(r["file"], "`%s`" % r["kernel"], x(r["speedup"]), "%d / %d" % (r["evaluated"], r["failed"]),
                  "%.1f%% -> %.1f%%" % (100 * r["roofline_original"], 100 * r["roofline_best"]),
                  secs[r["kernel"]], "`%s`" % r["trace"] if r["trace"] else "(original kept)")
                 for r in runs], "llrrlrl")
    budget, limit = limits(next(iter(reports.values())))
    tree = [s for s in reports["tree_sum_pass"]["series"]
            if "block-size" in s["trace"] and not s["cached"]]
    out += ["", "%d searches, `--budget=%s --time-limit=%s`; %s, %s, bundle %s; %s; %s." % (
        len(runs), budget, limit, b["when"], b["device"], b["bundle"], ar.cite(rows_file), ar.cite(raw)),
        "", "`tree_sum_pass`'s block-size candidates measured on the GPU: %d, every one verified "
        "(status %s)%s, %s-%s (%s)." % (
            len(tree), "/".join(sorted({s["status"] for s in tree})),
            " and slower" * all(s["speedup"] < 1 for s in tree),
            x(min(s["speedup"] for s in tree)), x(max(s["speedup"] for s in tree)),
            ar.cite(SEQ_REPORT % "tree_sum_pass"))]
    ended = [PROGRESS_LINE.match(l).groupdict() for l in ar.text(SEQ_STARVED).splitlines() if l.strip()]
    first = [json.loads(ar.text(SEQ_STARVED_REPORT % e["kernel"])) for e in ended]
    budget, limit = limits(first[0])
    out += ["", "Before the fix (bundle %s, `--budget=%s --time-limit=%s`): %d searches ended, "
            "in %s-%s s, each having run only the original (the runner's seconds on it, its status: %s); %s." % (
                re.search(r"git (\w+)", first[0]["provenance"]["tool"]).group(1), budget, limit,
                len(ended), min(int(e["s"]) for e in ended), max(int(e["s"]) for e in ended),
                "; ".join("`%s` %.0f s, %s" % (
                    r["kernel"], r["series"][0]["stages"]["run"], r["series"][0]["status"]) for r in first),
                ar.cite(SEQ_STARVED))]
    return out


# --- sites.md ----------------------------------------------------------------

SITES = "2026-11-28-sites-67-warp-scan-h100.md"


def sites_rows(ar):
    """The per-transform block of scripts/corpus-sites.py's output."""
    text = ar.text(SITES)
    lines = text[text.index("transform          legal on kernels"):].splitlines()
    rows = []
    for line in lines[2:]:
        cells = line.split()
        if len(cells) != 5 or not cells[1].isdigit():
            break
        rows.append(cells)
    return rows


def sites_goal(ar):
    m = re.search(r"\*\*(\d+) of (\d+)\*\* corpus kernels", ar.text(SITES))
    return int(m.group(1)), int(m.group(2))


def t_sites(ar):
    rows = sites_rows(ar)
    out = table(["transform", "kernels where legal", "legal sites", "illegal sites",
                 "not-applicable sites"], rows, "lrrrr")
    met, n = sites_goal(ar)
    commit = re.search(r"`python3 scripts/corpus-sites.py` at (\w+)", ar.text(SITES)).group(1)
    out += ["", "%d legal actions in all (the legal sites column); %d of %d kernels have "
            "at least 5 legal actions of at least 3 transforms. From %s (the "
            "script's output at %s, no GPU)." % (
                sum(int(r[2]) for r in rows), met, n, ar.cite(SITES), commit)]
    return out


def h_sites(ar):
    met, n = sites_goal(ar)
    return "%d of %d corpus kernels with 5+ legal actions of 3+ transforms; %d legal actions" % (
        met, n, sum(int(r[2]) for r in sites_rows(ar)))


# --- strategies.md and examples.md's search table ----------------------------

# strategies.jsonl rows of `gpu-check.sh strategies` with
# OPTIML_GPU_STRAT_SHARED=1 (one database per kernel, --compare, budget 10,
# random over seeds 1-5), in the order they ran: a later file's run of a
# (kernel, strategy, seed) replaces an earlier one's (scripts/strategy-table.py).
STRATEGY_FILES = [  # (rows, the bundle's commit as the run's page gives it)
    ("2026-11-28-strategies-helps-call1-h200x2.jsonl", "5ad4b62"),
    ("2026-11-28-strategies-helps-call2-h200x2.jsonl", "0b44b0a"),
    ("2026-11-28-strategies-helps-call3-h200x2.jsonl", "0b44b0a"),
    ("2026-11-28-strategies-all73-session-h200x2.jsonl", "416de75"),
    ("2026-11-28-strategies-5849ea2-h200x2.jsonl", "5849ea2"),
    ("2026-11-28-strategies-twins-h200x2.jsonl", "2bddb08"),
]
# From 5849ea2 on, gpu-check names a namespaced corpus kernel without its
# namespace; the earlier files' name is kept so the runs meet.
STRATEGY_NAMES = {"reduce_atomic_col_sums": "reduce_atomic_reduce__col_sums"}
EXAMPLES = ["sgemm", "transpose", "saxpy", "block_sum", "softmax", "jacobi2d"]


def strategy_runs(ar):
    out = {}
    for f, _ in STRATEGY_FILES:
        for r in jsonl(ar.text(f)):
            r = dict(r, kernel=STRATEGY_NAMES.get(r["kernel"], r["kernel"]), source=f)
            out[(r["kernel"], r["strategy"], str(r["seed"]))] = r
    return list(out.values())


def t_strategies(ar):
    out = strategy_table.table_lines(strategy_runs(ar))
    files = {}
    for r in strategy_runs(ar):
        files.setdefault(r["source"], set()).add(r["kernel"])
    out += ["", "Rows from (later files replace earlier ones' runs):", ""]
    out += table(["rows (2 x H200, 2026-11-28)", "commit", "kernels whose runs it gives"],
                 [(ar.cite(f), c, len(files.get(f, ()))) for f, c in STRATEGY_FILES], "llr")
    return out


def strategy_summary(ar):
    lines = strategy_table.table_lines(strategy_runs(ar))
    m = re.search(r"over the (\d+) kernels .*: mcts ([\d.]+)x, greedy ([\d.]+)x, random ([\d.]+)x",
                  "\n".join(lines))
    return m.groups()


def h_strategies(ar):
    n, mc, gr, rm = strategy_summary(ar)
    return "geomean over %s kernels, budget 10: MCTS %sx, greedy %sx, random %sx" % (n, mc, gr, rm)


def t_examples_search(ar):
    by = {}
    for r in strategy_runs(ar):
        by.setdefault(r["kernel"], {}).setdefault(r["strategy"], []).append(r)
    rows = []
    for k in EXAMPLES:
        s = by[k]
        mc = min(s["mcts"], key=lambda r: r["seed"])
        gr = min(s["greedy"], key=lambda r: r["seed"])
        rs = [r["speedup"] for r in s["random"]]
        rows.append((k, x(mc["speedup"]), x(gr["speedup"]),
                     "%s (%.2f..%.2f, %d)" % (x(sum(rs) / len(rs)), min(rs), max(rs), len(rs)),
                     "`%s`" % (mc["trace"] or "(original kept)"), ar.cite(mc["source"])))
    return table(["example", "MCTS", "greedy", "random (mean, min..max, seeds)",
                  "MCTS's best", "run"], rows, "lrrrll")


def h_examples(ar):
    r = {row[0]: row for row in t_examples_search_rows(ar)}
    share = re.search(r"([\d.]+% of cuBLAS's speed)", "\n".join(t_examples_libraries(ar))).group(1)
    return "search at budget 10: sgemm %s, transpose %s, softmax %s; sgemm's hand chain at %s" % (
        r["sgemm"][1], r["transpose"][1], r["softmax"][1], share)


def t_examples_search_rows(ar):
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in t_examples_search(ar)[2:]]


EXAMPLES_XFORMS = "2026-11-28-examples-transforms-h200-raw.txt"


def t_examples_transforms(ar):
    b = block_with(gpu_checks(ar.text(EXAMPLES_XFORMS)), "transforms")
    rows = []
    for name, result, detail in b["rows"]:
        if name in ("bundle", "device", "nvcc"):
            continue
        example, action = name.split(" ", 1)
        verdict, _, ratio = detail.partition(" ")
        rows.append((example, "`%s`" % action, verdict if result == "ok" else "FAIL " + verdict, ratio))
    ok = sum(1 for r in rows if r[2] == "ok")
    out = table(["example", "action", "verified", "speedup"], rows, "lllr")
    out += ["", "%d of %d legal actions verified; %s, %s, bundle %s; %s." % (
        ok, len(rows), b["when"], b["device"], b["bundle"], ar.cite(EXAMPLES_XFORMS))]
    return out


# The hand chains against the libraries: session 3's table and baselines.
EXAMPLES_LIBS = "2026-11-21-session3-h200.md"


def t_examples_libraries(ar):
    text = ar.text(EXAMPLES_LIBS)
    rows = {r["Example"]: r for r in md_table(text, "Example")}
    prose = flat(text)
    cublas = float(re.search(r"cuBLAS SGEMM 4096³ FP32 ([\d.]+) ms", prose).group(1))
    copy_ms, copy_gbs = re.search(r"device-to-device copy of 256 MiB ([\d.]+) ms \((\d+) GB/s\)",
                                  prose).groups()
    out = []
    sg = rows["sgemm 4096³"]
    sg_ms = float(sg["Time (ms)"].split("->")[1])
    tr = rows["transpose 8192²"]
    tr_ms = float(tr["Time (ms)"].split("->")[1])
    tr_gbs = 2 * 4 * 8192 * 8192 / (tr_ms * 1e-3) / 1e9
    out += table(["example", "hand chain", "time (ms)", "speedup", "library", "share of the library"], [
        ("sgemm 4096³", sg["Sequence"], sg["Time (ms)"], sg["Speedup"],
         "cuBLAS SGEMM FP32: %.3f ms" % cublas, "%.1f%% of cuBLAS's speed" % (100 * cublas / sg_ms)),
        ("transpose 8192²", tr["Sequence"], tr["Time (ms)"], tr["Speedup"],
         "device-to-device copy of 256 MiB: %s ms, %s GB/s" % (copy_ms, copy_gbs),
         "%.0f GB/s, %.0f%% of the copy's" % (tr_gbs, 100 * tr_gbs / float(copy_gbs)))],
        "llrrll")
    out += ["", "Transpose moves 2 x 4 x 8192² bytes. One H200, 2026-11-21, "
            "`gpu-check.sh sequences baselines`; %s." % ar.cite(EXAMPLES_LIBS)]
    return out


# --- throughput.md -----------------------------------------------------------

# scripts/throughput.py's first line per search: "NAME: N measured in S s,
# R a minute[, T answered by a twin's measurement], best B; ..." (the rate
# counts the measured ones), or, from db4cde4 on, "NAME: N measured + T
# answered by a twin's measurement in S s, R a minute, ..." (both kinds).
TP_LINE = re.compile(
    r"^(?P<name>\w+): (?P<n>\d+) measured(?: \+ (?P<twins_b>\d+) answered by a twin's measurement)?"
    r" in (?P<s>\d+) s, (?P<rate>[\d.]+) a minute(?:, (?P<twins_a>\d+) answered by a twin's measurement)?"
    r", best (?P<best>[\d.]+x); (?P<screened>\d+) screened, (?P<counters>\d+) with counters;"
    r" mean s: (?P<stages>.*)$")
TP_TWINS = [  # 55 s of MCTS per example, one H200; a later file replaces an example's row
    ("2026-11-28-throughput-twins-h200-candidates.txt", "2bddb08"),
    ("2026-11-28-throughput-twins-nomoves-h200-candidates.txt", "db4cde4"),
]
TP_BEFORE = ("2026-11-28-throughput-5849ea2-h200-candidates.txt", "5849ea2")
TP_PAGE = "2026-11-28-twins-unroll-nest-h200.md"


def tp_lines(ar, name):
    out = []
    for line in ar.text(name).splitlines():
        m = TP_LINE.match(line)
        if m:
            d = m.groupdict()
            d["stages"] = dict(kv.split(" ") for kv in d["stages"].split(", "))
            d["twins"] = d["twins_a"] or d["twins_b"] or "0"
            d["counts"] = "both" if d["twins_b"] else "measured"
            out.append(d)
    return out


def tp_table(ar, files):
    rows = {}
    for name, commit in files:
        for d in tp_lines(ar, name):
            rows[d["name"]] = (d, name, commit)
    out = []
    for ex in EXAMPLES:
        if ex not in rows:
            continue
        d, name, commit = rows[ex]
        st = d["stages"]
        rate = d["rate"] + (" (measured + twins)" if d["counts"] == "both" else "")
        out.append((ex, d["n"], d["twins"], d["s"], rate, d["best"],
                    st["build"], st["run"], st["verify"], st["time"], st["metrics"],
                    "%s, %s" % (commit, ar.cite(name))))
    return table(["example", "measured on the GPU", "answered by a twin", "seconds",
                  "a minute", "best", "build", "run", "verify", "time", "metrics", "run"],
                 out, "lrrrrrrrrrrl")


def t_throughput(ar):
    return tp_table(ar, TP_TWINS)


def t_throughput_before(ar):
    return tp_table(ar, [TP_BEFORE])


def h_throughput(ar):
    rates = [float(d["rate"]) for d in tp_lines(ar, TP_BEFORE[0])]
    return "%.1f-%.1f candidates a minute measured on the GPU, six examples, 55 s searches" % (
        min(rates), max(rates))


# --- eager.md ----------------------------------------------------------------

EAGER = "2026-11-27-eager-energy-h100.md"


def eager_rows(ar):
    return md_table(ar.text(EAGER), "kernel")


def eager_stats(rows):
    fp32 = [r for r in rows if r["kernel"] not in ("linear_nt", "gemm_tn")]
    ratio = lambda r: float(r["eager ms"]) / float(r["optimized ms"])
    return {"all": geomean([ratio(r) for r in rows]),
            "naive": geomean([float(r["eager ms"]) / float(r["naive ms"]) for r in rows]),
            "fp32": geomean([ratio(r) for r in fp32]), "n": len(rows), "n32": len(fp32),
            "faster": sum(1 for r in rows if ratio(r) > 1)}


def t_eager(ar):
    rows = eager_rows(ar)
    cols = list(rows[0].keys())
    out = table(cols, [[r[c] for c in cols] for r in rows], "llrrrlrr")
    s = eager_stats(rows)
    out += ["", "Geomean of eager / optimized (eager ms / optimized ms): %.3fx over all "
            "%d kernels (eager / naive %.3fx); %.3fx over the %d in float32 arithmetic "
            "(without linear_nt and gemm_tn). OptiML's kernel is faster than eager on "
            "%d of %d. From %s." % (s["all"], s["n"], s["naive"], s["fp32"], s["n32"],
                                     s["faster"], s["n"], ar.cite(EAGER))]
    return out


def h_eager(ar):
    s = eager_stats(eager_rows(ar))
    return "eager / optimized geomean %.3fx over %d kernels; OptiML faster on %d" % (
        s["all"], s["n"], s["faster"])


# --- layouts.md ----------------------------------------------------------------

LAYOUTS_OLD = "2026-11-29-real-cuda-h200.md"
LAYOUTS_NEW = "2026-11-29-tables-aliases-corpus-h200.md"


def layout_rows(ar):
    """Kernels of test/ evaluated against themselves; the later page's row
    replaces the earlier's."""
    rows = {}
    old = [t for t in md_tables(ar.text(LAYOUTS_OLD)) if t[0][:2] == ["kernel", "self ratio"]][0]
    for r in old[1:]:
        rows[r[0]] = (r[0], "-", r[1], r[2], r[4], LAYOUTS_OLD)
    for r in md_table(ar.text(LAYOUTS_NEW), "kernel"):
        rows[r["kernel"]] = (r["kernel"], r["form"], r["self-ratio"], r["noise"], r["edge seed"],
                             LAYOUTS_NEW)
    return list(rows.values())


def t_layouts(ar):
    rows = layout_rows(ar)
    return table(["kernel", "form", "self-ratio", "noise", "edge seed", "run"],
                 [r[:5] + (ar.cite(r[5]),) for r in rows], "llrrll")


def corpus_self_rows(ar):
    t = [t for t in md_tables(ar.text(LAYOUTS_OLD)) if t[0][-1] == "edge seed (per instance)"][0]
    return t


def t_layouts_corpus(ar):
    t = corpus_self_rows(ar)
    out = table(t[0], t[1:], "lrrrl")
    prose = flat(ar.text(LAYOUTS_OLD))
    m = re.search(r"The other (\d+) \(([^)]*)\) were verified as the original of a search", prose)
    out += ["", "%d kernels by `--evaluate` against themselves; the other %d (%s) were "
            "verified as the original of a search. From %s." % (
                len(t) - 1, int(m.group(1)), m.group(2), ar.cite(LAYOUTS_OLD))]
    return out


# Call 1 of the sequences of launches (bundle 5d82058): every kernel of
# OPTIML_GPU_LAYOUT_FILES="test/Spec/Inputs/sequences.cu
# benchmarks/corpus/sequences.cu" against itself, in the files' order.
SEQ_LAYOUTS = "2026-11-29-sequences-call1-gpu-check.txt"
SEQ_LAYOUT_FILES = [
    ("test/Spec/Inputs/sequences.cu", ["smooth", "wavefront", "partial_sums", "rotate_half"]),
    ("benchmarks/corpus/sequences.cu", ["hotspot_tile_step", "nw_diagonal", "ge_fan1", "absmax_partial",
                                        "tree_sum_pass", "l2_normalize_coop", "jacobi5_sweep",
                                        "burgers_update"]),
]
SELF_LINE = re.compile(r"^ok speedup (?P<ratio>[\d.]+) noise (?P<noise>[\d.]+), (?P<runs>\d+) seed runs, "
                       r"edge: (?P<edge>.*)$")


def seq_layout_rows(ar):
    b = block_with(gpu_checks(ar.text(SEQ_LAYOUTS)), "layouts")
    where = {k: f for f, ks in SEQ_LAYOUT_FILES for k in ks}
    rows = []
    for name, result, detail in b["rows"]:
        m = re.match(r"layout (\S+) \(self\)$", name)
        if m:
            d = SELF_LINE.match(detail) if result == "ok" else None
            if not d:
                sys.exit("results-page: %s: %s %s %s" % (SEQ_LAYOUTS, name, result, detail))
            rows.append(("`%s`" % m.group(1), "`%s`" % where[m.group(1)], d.group("ratio"),
                         d.group("noise"), d.group("runs"), d.group("edge")))
    return b, rows


def t_layouts_sequences(ar):
    b, rows = seq_layout_rows(ar)
    out = table(["kernel", "file", "self-ratio", "noise", "seed runs", "edge seed (per instance)"],
                rows, "llrrrl")
    edges = [e for r in rows for e in r[5].split("; ")]
    out += ["", "%d kernels (%s); self-ratios %s-%s; the edge seed compared on %d of %d instances. "
            "%s, %s, bundle %s; %s." % (
                len(rows), ", ".join("%d of `%s`" % (sum(1 for r in rows if r[1] == "`%s`" % f), f)
                                     for f, _ in SEQ_LAYOUT_FILES),
                min(r[2] for r in rows), max(r[2] for r in rows),
                edges.count("compared"), len(edges), b["when"], b["device"], b["bundle"],
                ar.cite(SEQ_LAYOUTS))]
    return out


def h_layouts(ar):
    rows = layout_rows(ar)
    compared = sum(1 for r in rows if r[4].startswith("compared"))
    _, seq = seq_layout_rows(ar)
    seq_compared = sum(1 for r in seq if all(e == "compared" for e in r[5].split("; ")))
    n = len(corpus_self_rows(ar)) - 1
    m = re.search(r"The other (\d+) ", flat(ar.text(LAYOUTS_OLD)))
    return ("%d of %d layout kernels' and %d of %d launch-sequence kernels' edge seeds compared; "
            "%d of %d real-world corpus kernels verified" % (
                compared, len(rows), seq_compared, len(seq), n + int(m.group(1)), n + int(m.group(1))))


# --- from-prompt.md and llm.md -------------------------------------------------

FROMPROMPT = "2026-11-25-warp-per-row-h100.md"
LLM = "2026-11-25-isolation-llm-h100.md"


def fromprompt_block(ar):
    return block_with(gpu_checks(ar.text(FROMPROMPT)), "fromprompt")


def t_fromprompt(ar):
    b = fromprompt_block(ar)
    rows = []
    for name, result, detail in b["rows"]:
        if not name.startswith("fromprompt "):
            continue
        secs, _, rest = detail.partition(": ")
        parts = [p.strip() for p in rest.split(";")]
        m = re.match(r"chosen (s\d) ([\d.]+ ms) vs reference ([\d.]+ ms) \(([\d.]+x)\)", parts[2]) \
            if len(parts) > 2 else None
        search = next((p for p in parts if p.startswith("search ")), "")
        rows.append((name.split()[1], result, parts[0], parts[1],
                     m.group(1) if m else "-", m.group(2) if m else "-",
                     m.group(3) if m else "-", m.group(4) if m else "-",
                     search.split(":")[0].replace("search ", "") if search else "-", secs))
    out = table(["set", "check", "verdict", "strategies against the reference", "chosen",
                 "chosen kernel", "reference", "speedup over the reference",
                 "search after it", "wall"], rows, "lllllrrrll")
    out += ["", "%s, %s, bundle %s; %s." % (b["when"], b["device"], b["bundle"], ar.cite(FROMPROMPT))]
    return out


def h_fromprompt(ar):
    rows = [r for r in fromprompt_block(ar)["rows"] if r[0].startswith("fromprompt ")]
    trusted = sum(1 for r in rows if "verified (trusted)" in r[2])
    refused = sum(1 for r in rows if "refused as expected" in r[2])
    speed = [re.search(r"\(([\d.]+x)\)", r[2]).group(1) for r in rows if "verified (trusted)" in r[2]]
    return "%d of %d sets trusted (%s over the reference), %d refused as designed; replayed answers" % (
        trusted, trusted, ", ".join(speed), refused)


def llm_rows(ar):
    b = block_with(gpu_checks(ar.text(LLM)), "llm")
    return b, [r for r in b["rows"] if r[0].startswith("llm ")]


def t_llm(ar):
    b, rows = llm_rows(ar)
    out = []
    for name, result, detail in rows:
        m = re.match(r"(\d+s): ([\d.]+x), roofline (.*?), (\d+) measured / (\d+) failed: (.*?); "
                     r"(\d+ of \d+) accepted; (.*): (\w+) ([\d.]+x)$", detail)
        out.append((name.split()[1], result, m.group(2), m.group(3), "%s / %s" % (m.group(4), m.group(5)),
                    "`%s`" % m.group(6), m.group(7), "`%s`: %s %s" % (m.group(8), m.group(9), m.group(10)),
                    m.group(1)))
    res = table(["proposals folder", "check", "search's best", "roofline", "measured / failed",
                 "best trace", "proposals accepted", "the model's edit, measured", "wall"], out,
                "llrllllll")
    res += ["", "%s, %s, bundle %s, `OPTIML_GPU_LLM_BUDGET=5`; %s." % (
        b["when"], b["device"], b["bundle"], ar.cite(LLM))]
    return res


def h_llm(ar):
    _, rows = llm_rows(ar)
    d = rows[0][2]
    return "a recorded edit verified and measured (%s); the search's best %s" % (
        re.search(r": (\w+ [\d.]+x)$", d).group(1), re.search(r": ([\d.]+x),", d).group(1))


# --- energy.md -----------------------------------------------------------------

# gpu-check's energy rows: "energy [FILE:]KERNEL ok Ns: best Ex less energy
# at Sx speed (TRACE): A mJ -> B mJ per launch[; same speed, less energy: F]",
# in the order the runs were made (a later run of a kernel gives its row).
ENERGY_LINE = re.compile(
    r"energy (?P<kernel>\S+)\s+ok\s+(?P<secs>\d+)s: best (?P<saving>[\d.]+x) less energy at "
    r"(?P<speed>[\d.]+x) speed \((?P<trace>.*)\): (?P<mj>[\d.]+ mJ -> [\d.]+ mJ) per launch"
    r"(?:; same speed, less energy: (?P<same>.*))?$")
ENERGY_RUNS = [  # (file, commit when the output does not say it, GPU when it does not)
    ("2026-11-26-new-transforms-energy-h200-h100.md", "7206457", None),
    ("2026-11-27-energy-matched-h100-raw1.txt", None, None),
    ("2026-11-27-energy-matched-h100-raw2.txt", None, None),
    ("2026-11-27-call1-h200x4-raw.txt", None, None),
    ("2026-11-27-call2-h100x4-raw.txt", None, None),
    ("2026-11-27-energy-noise-h100-raw.txt", None, None),
    ("2026-11-27-energy-corpus-h100-raw.txt", None, None),
    ("2026-11-28-sites-h100-raw2.txt", None, None),
    # the page's summary of its energy searches (no per-launch joules)
    ("2026-11-28-pipeline-h200-h100.md", "a561d13", "NVIDIA H200"),
    # every candidate of the budget-26 search on sgemm: the largest saving
    ("2026-11-28-energy-sgemm-budget26-h200.jsonl", "355ada3", "NVIDIA H200"),
]


def energy_rows(ar):
    rows = {}
    for name, commit, gpu in ENERGY_RUNS:
        text = ar.text(name)
        if name.endswith(".jsonl"):
            best = max(jsonl(text), key=lambda r: r["energy_saving"] or 0)
            rows["sgemm"] = ("sgemm", "`%s`" % best["trace"], x(best["measured"]),
                             x(best["energy_saving"]), "-", "-", day(name), commit, gpu, name)
            continue
        if name == "2026-11-28-pipeline-h200-h100.md":
            for r in md_table(text, "kernel"):
                k = r["kernel"].replace(" (example)", "")
                rows[k] = (k, r["best under energy"], r["its speed"], r["energy saving"], "-",
                           r["same speed, less energy"], day(name), commit, gpu, name)
            continue
        for b in gpu_checks(text):
            for row in b["rows"]:
                line = "%s %s %s" % row
                m = ENERGY_LINE.search(line)
                if not m:
                    continue
                prefix = re.match(r"(H\d00)\s+energy", line)
                k = m.group("kernel").split(":", 1)[-1]
                rows[k] = (k, "`%s`" % m.group("trace"), m.group("speed"), m.group("saving"),
                           m.group("mj"), m.group("same") or "-",
                           day(b["when"]) if b["when"] else day(name),
                           b["bundle"] or commit,
                           b["device"] or (prefix.group(1) if prefix else gpu), name)
    # The same-speed pair the budget-26 search's report printed.
    m = re.search(r"\(([\d.]+x) and ([\d.]+x) the original's speed, within the noise\), on "
                  r"\*\*([\d.]+x) less energy per launch\*\* \(([\d.]+) mJ against ([\d.]+) mJ",
                  flat(re.sub(r"(?m)^> ?", "", ar.text(ENERGY_PAIR))))
    r = rows["sgemm"]
    rows["sgemm"] = r[:5] + ("two other configurations at %s and %s: %s less energy "
                             "(%s against %s mJ per launch; %s)" % (m.groups() + (ar.cite(ENERGY_PAIR),)),) + r[6:]
    return list(rows.values())


ENERGY_PAIR = "2026-11-28-strategies-corpus-energy-h200x4.md"
ENERGY_NOTES = {
    ("jacobi2d", "2026-11-26-new-transforms-energy-h200-h100.md"):
        "jacobi2d's 1.04x is the original against itself, read as a gain before the fix "
        "of the next commit (its run's page says so)",
}


def t_energy(ar):
    rows = energy_rows(ar)
    notes = [n for (k, f), n in ENERGY_NOTES.items() if any(r[0] == k and r[9] == f for r in rows)]
    return table(["kernel", "best under `--objective=energy`", "its speed", "energy saving",
                  "per launch", "same speed, less energy", "when", "commit", "GPU", "run"],
                 [r[:9] + (ar.cite(r[9]),) for r in sorted(rows, key=lambda r: r[0])],
                 "llrrllllll") + ["", "Note: " + "; ".join(notes) + "."] * bool(notes)


def h_energy(ar):
    rows = energy_rows(ar)
    pair = [r for r in rows if r[5].startswith("two other")][0][5]
    m = re.search(r"at ([\d.]+x) and ([\d.]+x): ([\d.]+x) less energy", pair)
    return "%d kernels searched for energy; one same-speed pair: sgemm, %s less energy at %s and %s" % (
        len(rows), m.group(3), m.group(1), m.group(2))


ENERGY_NOISE = "2026-11-27-energy-noise-h100-raw.txt"


def t_energy_noise(ar):
    b = block_with(gpu_checks(ar.text(ENERGY_NOISE)), "energy-noise")
    detail = [d for n, _, d in b["rows"] if n == "energy noise"][0]
    rows = []
    for item in filter(None, (i.strip() for i in detail.split(";"))):
        setting, n, mean, sd, spread, secs = item.split()
        w, settle, rounds = setting.split(":")
        rows.append(("%s s : %s s : %s" % (w, settle, rounds), n, mean,
                     "%.2f%%" % (100 * float(sd)), "%.2f%%" % (100 * float(spread)), secs))
    out = table(["window : settle : rounds", "ratios", "mean", "sd", "max-min", "s a run"],
                rows, "lrrrrr")
    out += ["", "%s, %s alone, bundle %s, `runtime/selftest/energy-noise.sh`; %s." % (
        b["when"], b["device"], b["bundle"], ar.cite(ENERGY_NOISE))]
    return out


# --- gate.md and adversarial.md ------------------------------------------------

GATE = "2026-11-29-tables-aliases-corpus-h200.md"   # call 5: runtime candidates adversarial
FAULTS = "2026-11-27-runner-worker-h100.md"
ADV_CASES = "2026-11-25-adversarial-h100.md"


def gate_call(ar):
    text = ar.text(GATE)
    call = flat(text[text.index("## Call 5"):])
    top = flat(text)
    g = lambda pat, t=call: re.search(pat, t).groups()
    return {
        "device": g(r"Device: one (NVIDIA \w+)", top)[0],
        "bundle": g(r"Bundle `(\w+)`")[0],
        "secs": g(r"\), (\d+) s, exit status 0")[0],
        "rows": g(r"\*\*(\d+) of (\d+) rows passed\*\*"),
        "selftest": g(r"runner self-test (\d+) of (\d+)"),
        "candidates": g(r"a correct rewrite (\w+), a wrong one `(\w+)`, a fault `(\w+)`, a hang `(\w+)`"),
        "adversarial": g(r"the adversarial suite, (\d+) of (\d+)"),
        "static": g(r"the (\d+) static refusals")[0],
        "cheats": g(r"the (\d+) GPU cheats rejected")[0],
        "accepted": g(r"the (\d+) correct but unusual candidates accepted \(([\d.]+x)-([\d.]+x)\)"),
    }


# The runner's self-test, latest: call 1 of the sequences of launches
# (`gpu-check.sh BUNDLE runtime layouts`), gpu-check's rows and the
# self-test's own output.
SELFTEST = "2026-11-29-sequences-call1-gpu-check.txt"
SELFTEST_CASES = "2026-11-29-sequences-call1-selftest.txt"


def selftest_run(ar):
    b = block_with(gpu_checks(ar.text(SELFTEST)), "runtime")
    detail = [d for n, _, d in b["rows"] if n == "runner self-test"][0]
    passed, failed = map(int, re.match(r"(\d+) passed, (\d+) failed", detail).groups())
    seq = re.findall(r"^PASS (sequence_\w+)\s+(exit \d+, status \w+)", ar.text(SELFTEST_CASES), re.M)
    return b, passed, passed + failed, seq


def t_gate(ar):
    c = gate_call(ar)
    st, passed, total, seq = selftest_run(ar)
    b = block_with(gpu_checks(ar.text(EXAMPLES_XFORMS)), "transforms")
    xf = [r for r in b["rows"] if r[0] not in ("bundle", "device", "nvcc")]
    ok = sum(1 for r in xf if r[1] == "ok" and r[2].startswith("ok"))
    when = day(GATE)
    rows = [
        ("runtime: the runner's self-test", "%d of %d" % (passed, total), day(st["when"]), st["bundle"],
         st["device"], ar.cite(SELFTEST)),
        ("candidates: saxpy rewrites through the tool",
         "right one %s; wrong `%s`, fault `%s`, hang `%s`" % c["candidates"], when, c["bundle"],
         c["device"], ar.cite(GATE)),
        ("adversarial: planted cheats and unusual right ones", "%s of %s" % c["adversarial"], when,
         c["bundle"], c["device"], ar.cite(GATE)),
        ("transforms: every legal action of the examples", "%d of %d verified" % (ok, len(xf)),
         day(b["when"]), b["bundle"], b["device"], ar.cite(EXAMPLES_XFORMS)),
    ]
    out = table(["part of the gate", "result", "when", "commit", "GPU", "run"], rows)
    out += ["", "The candidates and adversarial rows ran as one call (`gpu-check.sh BUNDLE runtime "
            "candidates adversarial`, %s s): %s of %s rows passed, exit status 0, the self-test "
            "then %s of %s. The self-test's row is a later call (`gpu-check.sh BUNDLE runtime "
            "layouts`), with the cases of sequences of launches: %s (%s). The four parts have "
            "not yet run in one `gate` call." % (
                (c["secs"],) + c["rows"] + c["selftest"] +
                ("; ".join("`%s` %s" % s for s in seq), ar.cite(SELFTEST_CASES)))]
    return out


def h_gate(ar):
    c = gate_call(ar)
    _, passed, total, _ = selftest_run(ar)
    b = block_with(gpu_checks(ar.text(EXAMPLES_XFORMS)), "transforms")
    xf = [r for r in b["rows"] if r[0] not in ("bundle", "device", "nvcc")]
    ok = sum(1 for r in xf if r[1] == "ok" and r[2].startswith("ok"))
    return "self-test %d/%d (with sequences of launches), adversarial %s/%s; the examples' legal transforms %d/%d" % (
        (passed, total) + c["adversarial"] + (ok, len(xf)))


def t_adversarial(ar):
    c = gate_call(ar)
    f = flat(ar.text(FAULTS))
    series, best = re.search(r'"((?:ok|timeout|crashed)(?: (?:ok|timeout|crashed))+)", best ([\d.]+x)', f).groups()
    resumed = re.search(r"`--resume` answered (\d+) candidates", f).group(1)
    fb = re.search(r"Same day, same bundle \((\w+)\)", f).group(1)
    fdev = re.search(r"Device: (NVIDIA [\w ]+?) \(", f).group(1)
    when = day(GATE)
    rows = [
        ("static refusals (harness tampering, refused before building)", "refused with the reason",
         "%s of %s" % (c["static"], c["static"]), when, c["bundle"], c["device"], ar.cite(GATE)),
        ("GPU cheats", "rejected with the reason", "%s of %s" % (c["cheats"], c["cheats"]),
         when, c["bundle"], c["device"], ar.cite(GATE)),
        ("correct but unusual candidates", "accepted", "%s of %s (%s-%s)" % (
            c["accepted"][0], c["accepted"][0], c["accepted"][1], c["accepted"][2]),
         when, c["bundle"], c["device"], ar.cite(GATE)),
        ("faults: a search whose proposals hang and trap", "the search goes on",
         "%s; best %s" % (series, best), day(FAULTS), fb, fdev, ar.cite(FAULTS)),
        ("faults: `kill -9` of `--optimize`, then `--resume`", "database intact, answers replayed",
         "%s candidates answered from the database" % resumed, day(FAULTS), fb, fdev, ar.cite(FAULTS)),
    ]
    return table(["class", "expected", "result", "when", "commit", "GPU", "run"], rows)


def h_adversarial(ar):
    c = gate_call(ar)
    return "%s of %s as expected: %s refused, %s cheats rejected, %s accepted" % (
        c["adversarial"] + (c["static"], c["cheats"], c["accepted"][0]))


ADV_LINE = re.compile(r"^(?P<desc>[^:]+): (?P<exp>\S+) -> (?P<got>.+?) \((?P<s>[\d.]+)s\)")


def t_adversarial_cases(ar):
    b = block_with(gpu_checks(ar.text(ADV_CASES)), "adversarial", "adv ")
    rows = []
    for name, result, detail in b["rows"]:
        if not name.startswith("adv "):
            continue
        m = ADV_LINE.match(detail)
        cls, case = name[4:].split("/", 1)
        rows.append((cls, "`%s`" % case, m.group("desc").replace("__", "\\_\\_"), m.group("exp"), m.group("got"),
                     result, m.group("s")))
    out = table(["class", "case", "what it does", "expected", "got", "check", "s"], rows,
                "lllllll")
    ok = sum(1 for r in rows if r[5] == "ok")
    out += ["", "%d of %d as expected; %s, %s, bundle %s; %s." % (
        ok, len(rows), b["when"] or day(ADV_CASES), b["device"], b["bundle"], ar.cite(ADV_CASES))]
    return out


# --- The pages -------------------------------------------------------------------

# table -> (page, maker)
TABLES = {
    "index": ("README.md", lambda ar: t_index(ar)),
    "examples-search": ("examples.md", t_examples_search),
    "examples-transforms": ("examples.md", t_examples_transforms),
    "examples-libraries": ("examples.md", t_examples_libraries),
    "corpus": ("corpus.md", t_corpus),
    "corpus-real": ("corpus.md", t_corpus_real),
    "corpus-sequences": ("corpus.md", t_corpus_sequences),
    "sites": ("sites.md", t_sites),
    "strategies": ("strategies.md", t_strategies),
    "throughput": ("throughput.md", t_throughput),
    "throughput-before": ("throughput.md", t_throughput_before),
    "energy": ("energy.md", t_energy),
    "energy-noise": ("energy.md", t_energy_noise),
    "eager": ("eager.md", t_eager),
    "gate": ("gate.md", t_gate),
    "adversarial": ("adversarial.md", t_adversarial),
    "adversarial-cases": ("adversarial.md", t_adversarial_cases),
    "layouts": ("layouts.md", t_layouts),
    "layouts-corpus": ("layouts.md", t_layouts_corpus),
    "layouts-sequences": ("layouts.md", t_layouts_sequences),
    "from-prompt": ("from-prompt.md", t_fromprompt),
    "llm": ("llm.md", t_llm),
}

# The index: topic, page, headline, and the run the headline comes from.
TOPICS = [
    ("Examples: the six naive kernels", "examples.md", h_examples, "2026-11-28-strategies-twins-h200x2.jsonl"),
    ("Corpus: 67 kernels in common suites' styles, searched", "corpus.md", h_corpus, CORPUS_RUNS[-1][1]),
    ("Legal actions per corpus kernel (no GPU)", "sites.md", h_sites, SITES),
    ("Strategies: MCTS, greedy and random", "strategies.md", h_strategies, STRATEGY_FILES[-1][0]),
    ("Throughput: candidates a minute", "throughput.md", h_throughput, TP_BEFORE[0]),
    ("Energy", "energy.md", h_energy, ENERGY_RUNS[-1][0]),
    ("Against PyTorch eager", "eager.md", h_eager, EAGER),
    ("The gate: can the verdicts be trusted", "gate.md", h_gate, SELFTEST),
    ("Adversarial suite and faults", "adversarial.md", h_adversarial, GATE),
    ("Element types, device tables, aliases", "layouts.md", h_layouts, SEQ_LAYOUTS),
    ("A kernel from a description (--from-prompt)", "from-prompt.md", h_fromprompt, FROMPROMPT),
    ("Language-model proposals in the search", "llm.md", h_llm, LLM),
]


def t_index(ar):
    return table(["topic", "page", "headline", "latest run"],
                 [(t, "[%s](%s)" % (p, p), h(ar), day(src)) for t, p, h, src in TOPICS])


BEGIN = "<!-- results-page.py: %s -->"
END = "<!-- end %s -->"


def page_block(text, name):
    """The lines between TABLE's markers (blank lines at either end dropped),
    or None."""
    b, e = BEGIN % name, END % name
    if b not in text or e not in text:
        return None
    inner = text[text.index(b) + len(b):text.index(e)]
    return inner.strip("\n").splitlines()


def made(ar, name):
    return [line.rstrip() for line in TABLES[name][1](ar)]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tables", nargs="*")
    ap.add_argument("--pages", default=RESULTS)
    ap.add_argument("--archive", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--pack", action="store_true")
    a = ap.parse_args(argv)
    archive = a.archive or os.path.join(a.pages, "archive")
    if a.pack:
        pack(archive, a.tables)
        return 0
    ar = Archive(archive)
    if a.list:
        for name, (page, _) in TABLES.items():
            print("%-20s %s" % (name, page))
        return 0
    names = a.tables or list(TABLES)
    unknown = [n for n in names if n not in TABLES]
    if unknown:
        print("results-page: unknown table %s (--list)" % ", ".join(unknown), file=sys.stderr)
        return 2
    if not (a.check or a.write):
        for n in names:
            print("\n".join(made(ar, n)))
        return 0
    bad = 0
    for n in names:
        path = os.path.join(a.pages, TABLES[n][0])
        text = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        have, want = page_block(text, n), made(ar, n)
        if have is None:
            print("results-page: %s has no table %s (markers %s ... %s)"
                  % (path, n, BEGIN % n, END % n), file=sys.stderr)
            bad += 1
            continue
        if a.write:
            b, e = BEGIN % n, END % n
            text = text[:text.index(b) + len(b)] + "\n\n" + "\n".join(want) + "\n\n" + text[text.index(e):]
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        elif [l.rstrip() for l in have] != want:
            bad += 1
            print("results-page: %s: table %s differs from the one made from the archive:"
                  % (path, n), file=sys.stderr)
            for line in difflib.unified_diff(have, want, "page", "archive", lineterm="", n=0):
                print("  " + line, file=sys.stderr)
    if a.check:
        print("results-page: %d tables, %d as made from the archive" % (len(names), len(names) - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
