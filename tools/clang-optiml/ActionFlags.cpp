//===- ActionFlags.cpp - which action the command line asks for ----------===//
//
// The flags that choose an action, one at a time, and the table of every
// option's actions, assembled from the rows each options file gives.
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

#include "llvm/ADT/STLExtras.h"

using namespace optiml;
using namespace llvm;

const OptionGroup &optiml::actionsGroup() {
  // --help lists the headings in alphabetical order.
  static cl::OptionCategory Heading("Actions (one at a time)");
  static const OptionGroup Actions{Heading, {}};
  return Actions;
}

static cl::opt<bool>
    CheckSpecs("check",
               cl::desc("Check the spec of every kernel of the files (marks "
                        "and sidecars) and print every error with its "
                        "position; nothing is built"),
               cl::cat(optimlCategory()));
static cl::opt<bool>
    ListKernels("list-kernels",
                cl::desc("List the kernels defined in the file"),
                cl::cat(optimlCategory()));
static cl::opt<bool>
    ListTransforms("list-transforms",
                   cl::desc("List the transforms, their parameters and "
                            "domains (no source file needed)"),
                   cl::cat(optimlCategory()));
static cl::opt<bool>
    ListSites("list-sites",
              cl::desc("Tell, per kernel, where each transform applies and "
                       "why not elsewhere"),
              cl::cat(optimlCategory()));
static cl::opt<bool> TimeRewrites(
    "time-rewrites",
    cl::desc("Time the search's rewrites of the kernel (each legal move of "
             "the original and of its first child: the step and the "
             "re-parse); no GPU needed"),
    cl::Hidden, cl::cat(optimlCategory()));
static cl::list<std::string>
    ApplySteps("apply",
               cl::desc("Apply a transform, e.g. "
                        "'unroll(site=sgemm/for#0,factor=4)'; repeat to "
                        "chain"),
               cl::value_desc("step"), cl::cat(optimlCategory()));
static cl::opt<bool>
    Evaluate("evaluate",
             cl::desc("Build, verify and time the kernel (or --candidate "
                      "against it) on the GPU"),
             cl::cat(optimlCategory()));
static cl::opt<bool>
    Optimize("optimize",
             cl::desc("Search verified rewrites of the kernel on the GPU and "
                      "write the fastest to -o (with a report)"),
             cl::cat(optimlCategory()));
static cl::opt<bool>
    Propose("propose",
            cl::desc("Ask the model (--llm) for changes to the kernel and "
                     "validate each without a GPU (apply, re-parse, edit "
                     "checks, nvcc build)"),
            cl::cat(optimlCategory()));
static cl::opt<bool>
    UseCache("use-cache",
             cl::desc("Replace each marked kernel that has a cached result "
                      "(its steps replayed and checked) and write the file "
                      "to -o (default: stdout; never the input); one line "
                      "per kernel on stderr says hit or miss"),
             cl::cat(optimlCategory()));

Expected<std::string> optiml::chosenAction() {
  std::vector<std::string> Given;
  for (cl::opt<bool> *A :
       {&CheckSpecs, &ListKernels, &ListTransforms, &ListSites, &Evaluate,
        &Optimize, &Propose, &UseCache, &TimeRewrites})
    if (*A)
      Given.push_back(A->ArgStr.str());
  if (!ApplySteps.empty())
    Given.push_back("apply");
  if (Given.size() > 1)
    return makeError(ErrorKind::BadInput, "one action at a time: --" +
                                              Given[0] + " and --" + Given[1] +
                                              " were both given");
  return Given.empty() ? std::string() : Given.front();
}

std::vector<std::string> optiml::applySteps() {
  return {ApplySteps.begin(), ApplySteps.end()};
}

std::vector<OptionTable::Row> optiml::actionRows() {
  const OptionGroup &Actions = actionsGroup();
  return {
      {CheckSpecs, Actions}, {ListKernels, Actions}, {ListTransforms, Actions},
      {ListSites, Actions},  {ApplySteps, Actions},  {Evaluate, Actions},
      {Optimize, Actions},   {Propose, Actions},     {UseCache, Actions},
  };
}

/// Where an option goes (its --help heading) and which actions read it.
/// Options of the parser itself (-p, --extra-arg) and an option with no row
/// are common to every action. The check reports the first misplaced
/// option in this order.
const OptionTable &optiml::optionTable() {
  static const OptionTable Table([] {
    std::vector<OptionTable::Row> Rows;
    using RowsOfFile = std::vector<OptionTable::Row> (*)();
    for (RowsOfFile RowsOf :
         {actionRows, cacheRows, targetRows, evaluateRows, optimizeRows,
          proposeRows, fromPromptRows, modelRows})
      for (const OptionTable::Row &R : RowsOf())
        Rows.push_back(R);
    return Rows;
  }());
  return Table;
}

/// Why an action has no JSON output, for --format=json.
static StringRef whyNoJson(StringRef Action) {
  if (Action == "optimize")
    return " (it writes OUT.report.json; see --report)";
  if (Action == "from-prompt")
    return " (it writes OUT.fromprompt.json)";
  if (Action == "apply" || Action == "use-cache")
    return " (its output is CUDA source)";
  return "";
}

Error optiml::checkOptionsFit(StringRef Action, StringRef Also) {
  if (targetFlags().Format == OutputFormat::JSON && !Action.empty() &&
      !whyNoJson(Action).empty())
    return makeError(ErrorKind::BadInput, "--format=json does not apply to --" +
                                              Action + whyNoJson(Action));
  if (Error E = optionTable().check(Action, Also))
    return E;
  if (Error E = checkSearchFlags())
    return E;
  return checkTargetFlags();
}
