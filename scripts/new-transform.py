#!/usr/bin/env python3
"""Scaffold a new OptiML transform, in the manner of clang-tidy's add_new_check.py.

    scripts/new-transform.py loop-interchange --site loop \\
        --summary "swap two perfectly nested loops"

creates, for the step name NAME (kebab-case) and its folder Folder
(CamelCase, `loop-interchange` -> `LoopInterchange`):

    transforms/Folder/Folder.json            the descriptor (name, summary,
                                             site, params, addresses)
    transforms/Folder/Folder.{h,cpp}         the transform: plan() asks the
                                             legality, emit() writes edits
    transforms/Folder/FolderLegality.{h,cpp} the legality: refuses every site
                                             (NotApplicable, "not written
                                             yet") until it is written
    test/transforms/NAME/NAME.cu             a lit test of that refusal, with
                                             the places for the rest
    docs/transforms/NAME.md                  the page, in the library's form

and adds `OPTIML_TRANSFORM(Folder)` to transforms/Transforms.def and a row
to docs/transforms/README.md. The result builds and registers at once:
re-run cmake, build, and `clang-optiml --list-transforms` shows it.

A name that is taken (a folder, a descriptor, a test folder or a page of
that name) is refused, and so is one that is not kebab-case. --dry-run says
what would be written and writes nothing. Only the Python standard library
is used; clang-format formats the C++ when it is on PATH.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

NAME_RE = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
DEF_LINE_RE = re.compile(r"^OPTIML_TRANSFORM\((\w+)\)", re.M)
WIDTH = 80

# Per site kind: the site the test names, the plan's field and its type,
# how legality finds the place to cite, and the test's kernel. In the
# kernel, the line marked `@` is where the refusal points, at the column of
# the text after `@`.
SITES = {
    "kernel": {
        "site": "k",
        "field": "Kernel",
        "type": "const clang::FunctionDecl *",
        "where": "S.Kernel->getLocation()",
        "kernel": [
            "@k(float *y, const float *x, int n) {",
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
            "  if (i < n)",
            "    y[i] = 2.0f * x[i];",
            "}",
        ],
        "prefix": "__global__ void ",
    },
    "loop": {
        "site": "k/for#0",
        "field": "Loop",
        "type": "const clang::Stmt *",
        "where": "S.Loop->getBeginLoc()",
        "kernel": [
            "k(float *y, const float *x, int n, int m) {",
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
            "  float acc = 0.0f;",
            "  @for (int j = 0; j < m; ++j)",
            "    acc += x[j * n + i];",
            "  if (i < n)",
            "    y[i] = acc;",
            "}",
        ],
        "prefix": "__global__ void ",
    },
    "buffer": {
        "site": "k/x",
        "field": "Buffer",
        "type": "const clang::ParmVarDecl *",
        "where": "S.Buffer->getLocation()",
        "kernel": [
            "k(float *y, const float *@x, int n) {",
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
            "  if (i < n)",
            "    y[i] = 2.0f * x[i];",
            "}",
        ],
        "prefix": "__global__ void ",
    },
}


def folder_of(name):
    """`stage-shared` -> `StageShared`, as RegisterTransforms.cpp checks."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("-"))


def banner(path, purpose, header):
    """An LLVM file banner of exactly WIDTH columns."""
    head = "//===- %s - %s " % (os.path.basename(path), purpose)
    tail = "-*- C++ -*-===//" if header else "===//"
    fill = WIDTH - len(head) - len(tail)
    if fill < 1:  # A long purpose: shorten it rather than overflow.
        keep = len(purpose) + fill - 4
        return banner(path, purpose[:max(keep, 8)].rstrip() + "...", header)
    return head + "-" * fill + tail


def rule():
    return "//===" + "-" * (WIDTH - 10) + "===//"


def comment(text):
    """\p text as `//` lines of at most WIDTH columns."""
    return textwrap.fill(text, WIDTH, initial_indent="// ",
                         subsequent_indent="// ").split("\n")


def guard(folder, file_stem):
    return "OPTIML_TRANSFORMS_%s_%s_H" % (folder.upper(), file_stem.upper())


def descriptor(name, site, summary):
    return json.dumps(
        {
            "name": name,
            "summary": summary,
            "site": site,
            "changes_numerics": False,
            "recipe": False,
            "params": [],
            "addresses": [],
        },
        indent=2,
    ) + "\n"


def cxx_header(folder, stem, purpose, intro, includes, body):
    """A header of transforms/FOLDER/: banner, guard, includes and BODY in
    namespace optiml."""
    return "\n".join(
        [banner(stem + ".h", purpose, True), "//"] + comment(intro) +
        ["//", rule(), "", "#ifndef " + guard(folder, stem),
         "#define " + guard(folder, stem), ""] +
        ['#include "%s"' % i if i else "" for i in includes] +
        ["", "namespace optiml {", ""] + body +
        ["", "} // namespace optiml", "", "#endif // " + guard(folder, stem),
         ""])


def cxx_source(stem, purpose, includes, body):
    """A source of transforms/FOLDER/: banner, includes and BODY."""
    return "\n".join(
        [banner(stem + ".cpp", purpose, False), ""] +
        ['#include "%s"' % i for i in includes] +
        ["", "using namespace optiml;", "using namespace clang;", ""] + body +
        [""])


def transform_source(name, folder, summary):
    """<Folder>.cpp: plan() and emit(), private to the file, and the factory
    (declared for the library in TransformFactories.h) that wraps them in a
    FunctionTransform, as every transform of the tree is written."""
    intro = comment(
        "TODO: what `%s` does, as a before/after a CUDA developer reads at a "
        "glance; %sLegality decides where it may run." % (name, folder))
    return "\n".join(
        [banner(folder + ".cpp", summary, False), "//"] + intro +
        ["//", rule(), ""] +
        ['#include "%s"' % i for i in
         ("optiml/Support/Error.h",
          "optiml/Transform/FunctionTransform.h",
          "transforms/%s/%sLegality.h" % (folder, folder),
          "transforms/TransformFactories.h")] +
        ["", "using namespace optiml;", "using namespace clang;", "",
         "/// The edits for a plan %sLegality accepted." % folder,
         "static llvm::Expected<EditSet> emit(const %sPlan &Plan," % folder,
         "                                    ASTContext &Ctx);",
         "",
         "static llvm::Expected<Rewrite> plan(const Site &S, const ParamValues &P,",
         "                                    ASTContext &Ctx) {",
         "  return Rewrite::of(%sLegality::check(S, P, Ctx)," % folder,
         "                     [&Ctx](const auto &Plan) { return emit(Plan, Ctx); });",
         "}",
         "",
         "/// TODO: the rewrite, as Clang Transformer edits on the plan's nodes",
         "/// (EditSet::add), never raw offsets.",
         "static llvm::Expected<EditSet> emit(const %sPlan &Plan," % folder,
         "                                    ASTContext &Ctx) {",
         "  return makeError(ErrorKind::Internal,",
         '                   "%s: the rewrite is not written yet");' % name,
         "}",
         "",
         "std::unique_ptr<Transform> optiml::create%s(TransformDescriptor D) {" % folder,
         "  return std::make_unique<FunctionTransform>(std::move(D), plan);",
         "}",
         ""])


def legality_header(name, folder, site):
    s = SITES[site]
    stem = folder + "Legality"
    return cxx_header(
        folder, stem, "when the rewrite may run",
        "TODO: the rule, one condition a line, each with the analysis that "
        "checks it (Analysis/Legality: LoopInfo, IndexPolynomial, GuardTerms, "
        "BufferAccess, KernelLaunches, ...). Until it is written every site is "
        "refused, so the search never proposes the transform.",
        ["optiml/Transform/ParamSpec.h", "optiml/Transform/Site.h", "",
         "clang/AST/ASTContext.h", "llvm/Support/Error.h"],
        ["/// What the rewrite needs, decided once by %s." % stem,
         "struct %sPlan {" % folder,
         "  %s%s = nullptr;" % (s["type"], s["field"]),
         "};",
         "",
         "class %s {" % stem,
         "public:",
         "  /// The plan at \\p S, or a LegalityError (Illegal or NotApplicable)",
         "  /// with the place and the rule that refuses it.",
         "  static llvm::Expected<%sPlan> check(const Site &S," % folder,
         "                                     const ParamValues &P,",
         "                                     clang::ASTContext &Ctx);",
         "};"])


def legality_source(name, folder, site):
    s = SITES[site]
    return cxx_source(
        folder + "Legality", "when the rewrite may run",
        ["transforms/%s/%sLegality.h" % (folder, folder),
         "optiml/Analysis/Legality/LegalityError.h"], [
            "llvm::Expected<%sPlan> %sLegality::check(const Site &S," % (folder, folder),
            "                                       const ParamValues &P,",
            "                                       ASTContext &Ctx) {",
            "  %sPlan Plan;" % folder,
            "  Plan.%s = S.%s;" % (s["field"], s["field"]),
            "  // TODO: check the rule; return the plan when it holds.",
            "  return notApplicableAt(%s, Ctx," % s["where"],
            '                         "%s is not written yet: %sLegality "' % (name, folder),
            '                         "refuses every site");',
            "}"])


def refusal_reason(name, folder):
    return "%s is not written yet: %sLegality refuses every site" % (name, folder)


def lit_test(name, folder, site, summary):
    s = SITES[site]
    step = "%s(site=%s)" % (name, s["site"])
    lines = comment("%s(site): %s. docs/transforms/%s.md says what it does and "
                "when it is legal." % (name, summary, name)) + [
        "//",
    ] + comment("Until %sLegality is written, every site is refused with the "
                "reason, at the place it concerns:" % folder) + [
        "// RUN: not %%clang-optiml %%s --apply='%s' 2>&1 | %%FileCheck --check-prefix=REFUSED %%s" % step,
        "// It is registered, with its kind of site:",
        "// RUN: %clang-optiml --list-transforms | %FileCheck --check-prefix=LISTED %s",
        "// LISTED: {{^}}  %s {{ *}}%s {{ *}}%s" % (name, site, summary),
        "//",
        "// TODO, once it applies (clang-tidy's style: one RUN per case, the",
        "// expected text next to the code it comes from):",
        "//   - apply it and check the output with FileCheck (CHECK lines below),",
        "//   - compile the output: %nvcc -c %t.cu -o %t.o,",
        "//   - one refusal per rule, as REFUSED below: the exact message at",
        "//     [[@LINE+1]]:COL, and plain code with a one-line reason for each",
        "//     case that must be left alone.",
        "",
        "#include <cuda_runtime.h>",
        "",
    ]
    kernel = list(s["kernel"])
    at = next(i for i, line in enumerate(kernel) if "@" in line)
    text = s["prefix"] + kernel[0] if at == 0 else kernel[at]
    column = text.index("@") + 1
    kernel = [line.replace("@", "") for line in kernel]
    kernel[0] = s["prefix"] + kernel[0]
    check = "// REFUSED: :[[@LINE+1]]:%d: %s is not applicable: %s" % (
        column, step, refusal_reason(name, folder))
    indent = re.match(r"\s*", kernel[at]).group(0)
    kernel.insert(at, indent + check)
    lines += kernel
    lines += [
        "",
        "void launch(float *y, const float *x, int n) {",
        "  k<<<(n + 255) / 256, 256>>>(y, x, n%s);" % (", 4" if site == "loop" else ""),
        "}",
        "",
    ]
    return "\n".join(lines)


def doc_page(name, folder, site, summary):
    s = SITES[site]
    return "\n".join([
        "# `%s(site)`" % name,
        "",
        "**What.** %s%s. TODO: a before/after example." % (summary[:1].upper(), summary[1:]),
        "",
        "**Site.** A %s (`%s`)." % (site, s["site"]),
        "",
        "**Parameters.** None yet (`params` in",
        "`transforms/%s/%s.json`)." % (folder, folder),
        "",
        "**When legal** (`%sLegality`). Not yet: every site is refused" % folder,
        "(NotApplicable) until the rule is written. TODO: the rule, one",
        "condition a line, and the analysis that checks each.",
        "",
        "**Addresses.** TODO: the bottleneck classes it relieves (`addresses`",
        "in the descriptor; the profiler's stage-one priors in",
        "`include/optiml/Profile/TransformPriors.def` must then name it).",
        "",
        "**Example.**",
        "",
        "```",
        "clang-optiml: error: k.cu:LINE:COL: %s(site=%s) is not applicable: %s"
        % (name, s["site"], refusal_reason(name, folder)),
        "```",
        "",
    ])


class Plan:
    """The files to create and the lines to add, applied or only printed."""

    def __init__(self, root):
        self.root = root
        self.creates = []  # (path, text)
        self.edits = []  # (path, new text, what)

    def create(self, rel, text):
        self.creates.append((rel, text))

    def edit(self, rel, text, what):
        self.edits.append((rel, text, what))

    def show(self, out):
        for rel, _ in self.creates:
            out.write("create %s\n" % rel)
        for rel, _, what in self.edits:
            out.write("edit   %s: %s\n" % (rel, what))

    def apply(self):
        for rel, text in self.creates:
            path = os.path.join(self.root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "x", encoding="utf-8") as f:
                f.write(text)
        for rel, text, _ in self.edits:
            with open(os.path.join(self.root, rel), "w", encoding="utf-8") as f:
                f.write(text)


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


def taken(root, name, folder):
    """Why NAME cannot be used, or None."""
    if os.path.exists(os.path.join(root, "transforms", folder)):
        return "transforms/%s/ exists" % folder
    if folder in DEF_LINE_RE.findall(read(root, "transforms/Transforms.def")):
        return "transforms/Transforms.def already lists %s" % folder
    for other in DEF_LINE_RE.findall(read(root, "transforms/Transforms.def")):
        rel = "transforms/%s/%s.json" % (other, other)
        try:
            other_name = json.loads(read(root, rel)).get("name")
        except (OSError, ValueError, AttributeError):
            continue  # The build reports a missing or broken descriptor.
        if other_name == name:
            return "%s is already called '%s'" % (rel, name)
    for rel in ("test/transforms/%s" % name, "docs/transforms/%s.md" % name):
        if os.path.exists(os.path.join(root, rel)):
            return "%s exists" % rel
    return None


def add_def_line(text, folder):
    line = "OPTIML_TRANSFORM(%s)\n" % folder
    at = text.find("\n#undef OPTIML_TRANSFORM")
    if at < 0:
        raise SystemExit("new-transform.py: transforms/Transforms.def has no "
                         "'#undef OPTIML_TRANSFORM' line to add before")
    last = text.rfind("OPTIML_TRANSFORM(", 0, at)
    end = text.index("\n", last) + 1 if last >= 0 else at + 1
    return text[:end] + line + text[end:]


def add_doc_row(text, name, site):
    """A row at the end of the first table of docs/transforms/README.md."""
    lines = text.split("\n")
    rows = [i for i, l in enumerate(lines) if l.startswith("| `")]
    if not rows:
        return None
    row = "| `%s` | a %s (`%s`) | — | [%s.md](%s.md) |" % (
        name, site, SITES[site]["site"], name, name)
    lines.insert(rows[-1] + 1, row)
    return "\n".join(lines)


def clang_format(root, paths):
    tool = shutil.which("clang-format") or shutil.which("clang-format-14")
    if not tool:
        return
    subprocess.run([tool, "-i", "--style=file"] +
                   [os.path.join(root, p) for p in paths], check=False)


def main(argv):
    p = argparse.ArgumentParser(
        description="Scaffold a transform: its folder, descriptor, lit test, "
        "doc page and registration line.")
    p.add_argument("name", help="the step name, kebab-case: loop-interchange")
    p.add_argument("--site", choices=sorted(SITES), default="kernel",
                   help="the kind of site it takes (default: kernel)")
    p.add_argument("--summary",
                   help="one line for --list-transforms (default: a TODO)")
    p.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))),
                   help="the repository (default: this script's)")
    p.add_argument("--dry-run", action="store_true",
                   help="say what would be written; write nothing")
    args = p.parse_args(argv)

    name, root = args.name, args.root
    if not NAME_RE.match(name):
        p.error("'%s' is not a kebab-case name such as loop-interchange" % name)
    if not os.path.exists(os.path.join(root, "transforms", "Transforms.def")):
        p.error("%s has no transforms/Transforms.def" % root)
    summary = args.summary or "TODO: what %s does, in one line" % name
    if '"' in summary or "\\" in summary or "\n" in summary:
        p.error("the summary may not contain quotes, backslashes or newlines")
    folder = folder_of(name)
    why = taken(root, name, folder)
    if why:
        sys.stderr.write("new-transform.py: '%s' is taken: %s\n" % (name, why))
        return 1

    site = args.site
    base = "transforms/%s/%s" % (folder, folder)
    plan = Plan(root)
    plan.create(base + ".json", descriptor(name, site, summary))
    plan.create(base + ".cpp", transform_source(name, folder, summary))
    plan.create(base + "Legality.h", legality_header(name, folder, site))
    plan.create(base + "Legality.cpp", legality_source(name, folder, site))
    plan.create("test/transforms/%s/%s.cu" % (name, name),
                lit_test(name, folder, site, summary))
    plan.create("docs/transforms/%s.md" % name,
                doc_page(name, folder, site, summary))
    plan.edit("transforms/Transforms.def",
              add_def_line(read(root, "transforms/Transforms.def"), folder),
              "OPTIML_TRANSFORM(%s)" % folder)
    readme = "docs/transforms/README.md"
    if os.path.exists(os.path.join(root, readme)):
        row = add_doc_row(read(root, readme), name, site)
        if row:
            plan.edit(readme, row, "a row for `%s`" % name)

    if args.dry_run:
        plan.show(sys.stdout)
        return 0
    plan.apply()
    clang_format(root, [base + e for e in
                        (".cpp", "Legality.h", "Legality.cpp")])
    plan.show(sys.stdout)
    sys.stdout.write(
        "Next: re-run cmake and build; `clang-optiml --list-transforms` lists "
        "'%s'.\nThen write %sLegality, emit(), the lit test's cases, the page, "
        "and `addresses` with its weights in "
        "include/optiml/Profile/TransformPriors.def.\n" % (name, folder))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
