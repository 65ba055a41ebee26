//===- FromPromptFlags.cpp - the options of --from-prompt ----------------===//
//
// A kernel written from a description (docs/FromPrompt.md): no source
// file, the description on the command line or in a file.
//
//===----------------------------------------------------------------------===//

#include "Flags.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace optiml;
using namespace llvm;

static cl::OptionCategory FromPromptHeading("Options of --from-prompt");

static cl::opt<std::string>
    FromPrompt("from-prompt",
               cl::desc("Write a kernel from this description with the model "
                        "(--llm): strategies, candidates, a reference and a "
                        "spec, checked statically and cross-checked on the "
                        "GPU; the fastest verified one goes to -o (no source "
                        "file)"),
               cl::value_desc("text"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    FromPromptFile("from-prompt-file",
                   cl::desc("As --from-prompt, the description read from a "
                            "file"),
                   cl::value_desc("file.md"), cl::cat(optimlCategory()));
static cl::opt<std::string>
    GeneratedName("name",
                  cl::desc("The kernel's name (default: "
                           "the model's choice)"),
                  cl::value_desc("name"), cl::cat(optimlCategory()));
static cl::opt<unsigned>
    Thoughts("thoughts",
             cl::desc("Implementation strategies, one "
                      "candidate kernel each (2..8, default 3)"),
             cl::init(3), cl::value_desc("K"), cl::cat(optimlCategory()));
static cl::opt<unsigned> ReferenceAttempts(
    "reference-attempts",
    cl::desc("References written, at most, before the "
             "run stops with the agreement matrix (1..4, default 2)"),
    cl::init(2), cl::value_desc("N"), cl::cat(optimlCategory()));

/// The description of --from-prompt, or of --from-prompt-file.
static Expected<std::string> description() {
  if (FromPromptFile.empty())
    return FromPrompt.getValue();
  if (!FromPrompt.empty())
    return makeError(ErrorKind::BadInput,
                     "--from-prompt and --from-prompt-file both give the "
                     "description: choose one");
  auto Buffer = MemoryBuffer::getFile(FromPromptFile);
  if (!Buffer)
    return makeError(ErrorKind::BadInput,
                     FromPromptFile + ": " + Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

Expected<FromPromptOptions>
optiml::fromPromptOptions(const TargetFlags &T, bool AlsoOptimize,
                          const ReportProvenance &Provenance) {
  auto Text = description();
  if (!Text)
    return Text.takeError();
  auto Llm = llmConfig();
  if (!Llm)
    return Llm.takeError();
  FromPromptOptions O;
  O.Description = std::move(*Text);
  O.DescriptionFile = FromPromptFile;
  O.Name = GeneratedName;
  O.Thoughts = Thoughts;
  O.ReferenceAttempts = ReferenceAttempts;
  O.OutputPath = T.Output;
  O.Arch = T.Arch;
  O.NvccFlags = T.NvccFlags;
  O.DbPath = T.DbPath;
  O.Measure.NoiseTarget = T.NoiseTarget;
  O.TimeoutSeconds = T.TimeoutSeconds;
  if (AlsoOptimize)
    O.Optimize = optimizeOptions(T, *Llm, Provenance);
  O.Llm = std::move(*Llm);
  return O;
}

std::vector<OptionTable::Row> optiml::fromPromptRows() {
  static const OptionGroup FromPromptOnly{FromPromptHeading, {"from-prompt"}};
  return {
      {FromPrompt, actionsGroup()},        {FromPromptFile, actionsGroup()},
      {GeneratedName, FromPromptOnly},     {Thoughts, FromPromptOnly},
      {ReferenceAttempts, FromPromptOnly},
  };
}
