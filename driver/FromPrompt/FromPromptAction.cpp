//===- FromPromptAction.cpp - --from-prompt ------------------------------===//
//
// From a description to a verified kernel. The model writes the interface
// (signature and spec), K strategies, one kernel per strategy and the
// simplest reference; each answer passes the static checks or gets one
// repair round. On a GPU every candidate is verified against the reference,
// and the reference is trusted only when candidates of two strategies agree
// with it (AgreementMatrix): otherwise it is written again (bounded) or the
// run stops with the matrix. The danger designed against is a plausible
// but wrong reference becoming ground truth, so nothing is ever picked
// silently.
//
//===----------------------------------------------------------------------===//

#include "driver/FromPrompt/FromPromptAction.h"
#include "driver/FromPrompt/EvaluatorComparer.h"
#include "driver/FromPrompt/FromPromptReport.h"
#include "driver/FromPrompt/GeneratedKernelChecker.h"
#include "driver/FromPrompt/ReferenceCrossCheck.h"
#include "driver/Optimize/OptimizeAction.h"
#include "driver/Search/LlmSession.h"
#include "optiml/Eval/GpuProbe.h"
#include "optiml/LLM/KernelWriter.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <list>

using namespace optiml;

namespace {

/// Where a run writes: OUT.cu, OUT.reference.cu, OUT.fromprompt.{md,json}
/// and every generated file in OUT.fromprompt/.
struct OutputPaths {
  explicit OutputPaths(llvm::StringRef Out) : Out(Out.str()) {
    llvm::SmallString<256> S(Out);
    llvm::sys::path::replace_extension(S, "");
    Stem = S.str().str();
  }
  std::string file(llvm::StringRef Label) const {
    return Stem + ".fromprompt/" + Label.str() + ".cu";
  }
  /// The name a generated file is checked and built under. The build cache
  /// keys on the source's folder (nvcc's -I), and a generated file
  /// includes nothing of its own: one folder for every run lets a kernel
  /// written again, for another -o or in a replay, reuse its build.
  static std::string checked(llvm::StringRef Label) {
    return "/optiml-from-prompt/" + Label.str() + ".cu";
  }
  std::string Out, Stem;
};

/// One generated kernel that passed the checks, with its report entry.
struct Written {
  CheckedKernel Kernel;
  size_t Entry;
};

/// The state of one run; its methods are the steps, in order.
class FromPromptRun {
  const FromPromptOptions &O;

public:
  FromPromptRun(const FromPromptOptions &O, KernelWriter &W,
                const GeneratedKernelChecker &C, llvm::raw_ostream &Err)
      : O(O), Paths(O.OutputPath), W(W), C(C), Err(Err) {}

  llvm::Expected<std::optional<CheckedKernel>> interface();
  llvm::Expected<std::vector<Strategy>> strategies();
  llvm::Expected<std::optional<Written>> reference(unsigned Attempt);
  llvm::Expected<std::vector<Written>> candidates();

  FromPromptReport Report;
  std::optional<CheckedKernel> Interface;
  std::vector<Strategy> Plans;
  const OutputPaths Paths;

private:
  using Check = std::function<llvm::Expected<CheckedKernel>(llvm::StringRef)>;
  llvm::Expected<std::optional<CheckedKernel>>
  withRepair(llvm::Expected<ChatExchange> First, const Check &Judge,
             GeneratedEntry &E);
  llvm::Expected<std::optional<Written>>
  kernel(llvm::Expected<ChatExchange> First, GeneratedEntry E);

  KernelWriter &W;
  const GeneratedKernelChecker &C;
  llvm::raw_ostream &Err;
};

} // namespace

/// Judges \p First's answer; when refused, asks once more with the reason.
/// An error is a question that could not be asked; nullopt is an answer
/// refused twice, the reason in \p E.
llvm::Expected<std::optional<CheckedKernel>>
FromPromptRun::withRepair(llvm::Expected<ChatExchange> First,
                          const Check &Judge, GeneratedEntry &E) {
  if (!First)
    return First.takeError();
  auto Checked = Judge(First->Answer.Text);
  if (Checked)
    return std::optional<CheckedKernel>(std::move(*Checked));
  std::string Why = llvm::toString(Checked.takeError());
  Err << "clang-optiml: " << E.Label << " refused, asking once more: " << Why
      << "\n";
  auto Again = W.repair(*First, Why);
  if (!Again)
    return Again.takeError();
  auto Repaired = Judge(Again->Answer.Text);
  if (!Repaired) {
    E.Status = "dropped";
    E.Reason = llvm::toString(Repaired.takeError());
    if (E.Reason != Why)
      E.Reason += " (first: " + Why + ")";
    return std::nullopt;
  }
  E.Repaired = true;
  E.Reason = "repaired after: " + Why;
  return std::optional<CheckedKernel>(std::move(*Repaired));
}

llvm::Expected<std::optional<CheckedKernel>> FromPromptRun::interface() {
  GeneratedEntry E;
  E.Label = "interface";
  std::string Path = OutputPaths::checked("interface");
  auto Judge = [&](llvm::StringRef Text) -> llvm::Expected<CheckedKernel> {
    auto Code = FromPromptAnswer::interface(Text);
    if (!Code)
      return Code.takeError();
    return C.interface(*Code, Path, O.Name);
  };
  auto I = withRepair(W.interface(O.Description, O.Name), Judge, E);
  if (!I)
    return I.takeError();
  if (*I) {
    E.File = Paths.file("interface");
    E.Launch = (*I)->Launch;
    Report.Kernel = (*I)->Kernel.QualifiedName;
  }
  Report.Entries.push_back(E);
  return I;
}

/// The interface as the later prompts show it: the file without its
/// include.
static std::string interfaceText(const CheckedKernel &I) {
  return llvm::StringRef(I.Source.text()).split("\n\n").second.trim().str();
}

llvm::Expected<std::vector<Strategy>> FromPromptRun::strategies() {
  auto X = W.strategies(O.Description, interfaceText(*Interface), O.Thoughts);
  if (!X)
    return X.takeError();
  auto S = FromPromptAnswer::strategies(X->Answer.Text, O.Thoughts);
  if (S)
    return S;
  std::string Why = llvm::toString(S.takeError());
  Err << "clang-optiml: the strategies were refused, asking once more: " << Why
      << "\n";
  auto Again = W.repair(*X, Why);
  if (!Again)
    return Again.takeError();
  S = FromPromptAnswer::strategies(Again->Answer.Text, O.Thoughts);
  if (!S)
    return makeError(ErrorKind::BadInput,
                     "the model's strategies were refused twice: " +
                         llvm::toString(S.takeError()));
  return S;
}

llvm::Expected<std::optional<Written>>
FromPromptRun::kernel(llvm::Expected<ChatExchange> First, GeneratedEntry E) {
  std::string Path = OutputPaths::checked(E.Label);
  auto Judge = [&](llvm::StringRef Text) -> llvm::Expected<CheckedKernel> {
    auto A = FromPromptAnswer::kernel(Text);
    if (!A)
      return A.takeError();
    return C.kernel(*Interface, *A, Path);
  };
  auto K = withRepair(std::move(First), Judge, E);
  if (!K)
    return K.takeError();
  if (*K) {
    E.File = Paths.file(E.Label);
    E.Launch = (*K)->Launch;
    if (llvm::Error Wr = writeOutputFile(E.File, (*K)->Source.text()))
      return Wr;
  }
  Err << "clang-optiml: " << E.Label << (E.Strategy.empty() ? "" : " (")
      << E.Strategy << (E.Strategy.empty() ? "" : ")") << ": " << E.Status
      << (E.Reason.empty() ? "" : ": " + E.Reason) << "\n";
  Report.Entries.push_back(E);
  if (!*K)
    return std::nullopt;
  return std::optional<Written>(
      Written{std::move(**K), Report.Entries.size() - 1});
}

llvm::Expected<std::optional<Written>>
FromPromptRun::reference(unsigned Attempt) {
  GeneratedEntry E;
  E.Label =
      Attempt == 0 ? "reference" : "reference" + std::to_string(Attempt + 1);
  return kernel(W.reference(O.Description, interfaceText(*Interface),
                            Report.Kernel, Attempt),
                E);
}

llvm::Expected<std::vector<Written>> FromPromptRun::candidates() {
  std::vector<Written> Out;
  for (unsigned I = 0; I < Plans.size(); ++I) {
    GeneratedEntry E;
    E.Label = "s" + std::to_string(I + 1);
    E.Strategy = Plans[I].Name;
    E.Plan = Plans[I].Plan;
    auto K = kernel(W.kernel(O.Description, interfaceText(*Interface),
                             Report.Kernel, Plans[I], I, Plans.size()),
                    E);
    if (!K)
      return K.takeError();
    if (*K)
      Out.push_back(std::move(**K));
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The cross-check's result in the report
//===----------------------------------------------------------------------===//

static const char *statusOf(Agreement A) {
  switch (A) {
  case Agreement::Agree:
    return "agrees";
  case Agreement::Disagree:
    return "disagrees";
  default:
    return "failed";
  }
}

/// Each candidate's verdict and time against the last reference, each
/// reference's status, the matrix and the verdict.
static void record(FromPromptReport &Report, const CrossCheckResult &R,
                   const std::vector<Written> &Cands,
                   const std::list<Written> &Refs) {
  for (size_t I = 0; I < Cands.size(); ++I) {
    const Comparison &C = R.WithReference[I];
    GeneratedEntry &E = Report.Entries[Cands[I].Entry];
    E.Status = statusOf(C.Verdict);
    E.Reason = C.Verdict == Agreement::Agree ? "" : C.Status + ": " + C.Detail;
    E.TimeNs = C.SecondNs;
    if (C.FirstNs > 0)
      Report.ReferenceNs = C.FirstNs;
  }
  for (const Written &W : Refs)
    Report.Entries[W.Entry].Status = "not trusted";
  GeneratedEntry &Last = Report.Entries[Refs.back().Entry];
  Last.TimeNs = Report.ReferenceNs;
  if (R.trusted())
    Last.Status = "trusted";
  Report.Matrix = R.Matrix;
  Report.Summary = R.Matrix.explain();
}

//===----------------------------------------------------------------------===//
// FromPromptAction::fromPrompt
//===----------------------------------------------------------------------===//

static llvm::Error checkOptions(const FromPromptOptions &O) {
  if (!O.Llm.enabled())
    return makeError(ErrorKind::BadInput,
                     "--from-prompt needs a model: --llm=openai or "
                     "--llm=anthropic, with --llm-model (--llm=none writes "
                     "no kernel)");
  if (llvm::StringRef(O.Description).trim().empty())
    return makeError(ErrorKind::BadInput,
                     "--from-prompt: the description is empty");
  if (O.Thoughts < 2 || O.Thoughts > 8)
    return makeError(ErrorKind::BadInput,
                     "--thoughts=" + llvm::Twine(O.Thoughts) +
                         " is outside 2..8 (two strategies must agree with "
                         "the reference)");
  if (O.ReferenceAttempts < 1 || O.ReferenceAttempts > 4)
    return makeError(ErrorKind::BadInput, "--reference-attempts=" +
                                              llvm::Twine(O.ReferenceAttempts) +
                                              " is outside 1..4");
  if (O.OutputPath.empty() || O.OutputPath == "-" ||
      !llvm::StringRef(O.OutputPath).ends_with(".cu"))
    return makeError(ErrorKind::BadInput,
                     "--from-prompt needs -o FILE.cu for the kernel it writes");
  if (llvm::Error E = refuseOverwrite(O.DescriptionFile, O.OutputPath))
    return E;
  return checkOutputFile(O.OutputPath, "-o");
}

/// The comment OUT.cu starts with: where the kernel came from and what was
/// (or was not) checked.
static std::string banner(const FromPromptRun &Run, llvm::StringRef Chosen,
                          bool Verified) {
  std::string First = llvm::StringRef(Run.Report.Description)
                          .split('\n')
                          .first.take_front(100)
                          .str();
  std::string B = "// Written by clang-optiml --from-prompt (" +
                  Run.Report.Model + ") from: " + First + "\n";
  if (Verified)
    return B + "// Strategy " + Chosen.str() + ", verified on " +
           Run.Report.Gpu + " against the reference in " + Run.Paths.Stem +
           ".reference.cu, which candidates of " +
           "different strategies agree with; see " + Run.Paths.Stem +
           ".fromprompt.md.\n";
  return B + "// NOT CROSS-CHECKED: no GPU; " + Chosen.str() +
         " passed the static checks only. Verify it before use:\n//   "
         "clang-optiml " +
         Run.Paths.Stem + ".reference.cu --evaluate --candidate " +
         Run.Paths.Out + "\n";
}

static llvm::Error writeReport(FromPromptRun &Run, double Seconds,
                               const LlmUsage &Usage,
                               const LlmUsage &Answered) {
  Run.Report.Seconds = Seconds;
  Run.Report.Usage = Usage;
  Run.Report.Answered = Answered;
  if (llvm::Error E = writeOutputFile(Run.Paths.Stem + ".fromprompt.md",
                                      toMarkdown(Run.Report)))
    return E;
  if (llvm::Error E = writeOutputFile(Run.Paths.Stem + ".fromprompt.html",
                                      toHtml(Run.Report)))
    return E;
  return writeOutputFile(Run.Paths.Stem + ".fromprompt.json",
                         jsonText(toJSON(Run.Report)) + "\n");
}

/// The reference beside OUT (OUT.reference.cu) and the chosen kernel in
/// \p Start (OUT.cu, or the search's starting file).
static llvm::Error writeOutputs(const FromPromptRun &Run, const Written &Ref,
                                const Written &Chosen, llvm::StringRef Start,
                                bool Verified) {
  llvm::StringRef Label = Run.Report.Entries[Chosen.Entry].Label;
  if (llvm::Error E =
          writeOutputFile(Run.Paths.Stem + ".reference.cu",
                          "// The reference kernel of " + Run.Paths.Out +
                              " (clang-optiml --from-prompt).\n" +
                              Ref.Kernel.Source.text().str()))
    return E;
  return writeOutputFile(Start, banner(Run, Label, Verified) +
                                    Chosen.Kernel.Source.text().str());
}

/// Without a GPU: the first candidate that passed the checks, marked as
/// not cross-checked.
template <typename FinishFn, typename StopFn>
static llvm::Expected<int>
writeUnchecked(FromPromptRun &Run, const Written &Ref,
               const std::vector<Written> &Cands, llvm::raw_ostream &Err,
               FinishFn &Finish, StopFn &Stop) {
  if (Cands.empty())
    return Stop(makeError(ErrorKind::BadInput,
                          "no candidate passed the static checks"));
  Run.Report.Outcome = "not_cross_checked";
  Run.Report.Chosen = Run.Report.Entries[Cands.front().Entry].Label;
  Run.Report.Summary =
      "no GPU: the kernels were generated and checked statically only; "
      "their outputs were NOT cross-checked. " +
      Run.Paths.Out + " holds " + Run.Report.Chosen + ", unverified";
  Err << "clang-optiml: warning: no GPU: the outputs were not cross-checked "
         "(generation and static checks only)\n";
  if (llvm::Error E = writeOutputs(Run, Ref, Cands.front(), Run.Paths.Out,
                                   /*Verified=*/false))
    return E;
  return Finish(ExitOK);
}

llvm::Expected<int> FromPromptAction::fromPrompt(const FromPromptOptions &O) {
  auto Began = std::chrono::steady_clock::now();
  if (llvm::Error E = checkOptions(O))
    return E;
  // A search needs a GPU: say so before asking anything.
  std::optional<GpuInfo> Gpu;
  if (auto G = probeGpu(ToolPath))
    Gpu = *G;
  else if (O.Optimize)
    return G.takeError();
  else
    llvm::consumeError(G.takeError());

  BuildOptions BO;
  BO.Arch = !O.Arch.empty() ? O.Arch : Gpu ? Gpu->Arch : "sm_90";
  BO.ExtraFlags = O.NvccFlags;
  auto B = Builder::create(BO);
  if (!B)
    return B.takeError();
  auto Db = openDatabaseAt(O.DbPath);
  if (!Db)
    return Db.takeError();
  SourceParser Parser(DB, Toolchain);
  TransformRegistry Registry = makeTransformRegistry();
  auto Session =
      LlmSession::forEndpoint(O.Llm, *Db, Registry, Parser, &*B, ToolPath);
  if (!Session)
    return Session.takeError();
  auto Writer =
      KernelWriter::load((*Session)->recording(),
                         PromptLibrary::locate(O.Llm.PromptsDir, ToolPath),
                         O.Llm.Temperature, O.Llm.MaxTokens);
  if (!Writer)
    return Writer.takeError();
  GeneratedKernelChecker Checker(Parser, (*Session)->validator());
  FromPromptRun Run(O, *Writer, Checker, Err);
  if (std::error_code EC =
          llvm::sys::fs::create_directories(Run.Paths.Stem + ".fromprompt"))
    return makeError(ErrorKind::BadInput, "cannot create " + Run.Paths.Stem +
                                              ".fromprompt: " + EC.message());
  Run.Report.Description = O.Description;
  Run.Report.Model = Writer->model();
  Run.Report.Gpu = Gpu ? Gpu->Name : "";
  auto Finish = [&](int Code) -> llvm::Expected<int> {
    std::chrono::duration<double> S = std::chrono::steady_clock::now() - Began;
    if (llvm::Error E =
            writeReport(Run, S.count(), (*Session)->recording().usage(),
                        Writer->answered()))
      return E;
    if (Run.Report.Matrix && Run.Report.Outcome != "verified")
      Out << Run.Report.Matrix->toMarkdown();
    Out << "clang-optiml: " << Run.Report.Outcome << ": " << Run.Report.Summary
        << "\n";
    return Code;
  };
  auto Stop = [&](llvm::Error E) -> llvm::Expected<int> {
    Run.Report.Summary = llvm::toString(std::move(E));
    auto Code = Finish(ExitBadInput);
    if (!Code)
      return Code.takeError();
    return makeError(ErrorKind::BadInput, Run.Report.Summary);
  };

  auto I = Run.interface();
  if (!I)
    return Stop(I.takeError());
  if (!*I)
    return Stop(makeError(ErrorKind::BadInput,
                          "the model's interface was refused twice: " +
                              Run.Report.Entries.back().Reason));
  Run.Interface = std::move(**I);
  if (llvm::Error E = writeOutputFile(Run.Paths.file("interface"),
                                      Run.Interface->Source.text()))
    return E;
  auto S = Run.strategies();
  if (!S)
    return Stop(S.takeError());
  Run.Plans = std::move(*S);
  auto Ref = Run.reference(0);
  if (!Ref)
    return Stop(Ref.takeError());
  if (!*Ref)
    return Stop(makeError(ErrorKind::BadInput,
                          "the model's reference was refused twice: " +
                              Run.Report.Entries.back().Reason));
  auto Cands = Run.candidates();
  if (!Cands)
    return Stop(Cands.takeError());
  if (!Gpu)
    return writeUnchecked(Run, **Ref, *Cands, Err, Finish, Stop);
  if (Cands->size() < 2) {
    Run.Report.Outcome = "untrusted";
    Run.Report.Summary = std::to_string(Cands->size()) +
                         " candidate(s) passed the static checks; the "
                         "reference is trusted only when candidates of 2 "
                         "strategies agree with it, so no kernel is written";
    return Finish(ExitRejected);
  }

  auto R = Runner::prepare(ToolPath, BO.Arch, &Err);
  if (!R)
    return Stop(R.takeError());
  Evaluator Eval(*B, O.Measure, O.TimeoutSeconds);
  EvaluatorComparer Cmp(Eval, *R);
  std::vector<LabelledKernel> Labelled;
  for (const Written &W : *Cands)
    Labelled.push_back({&W.Kernel, Run.Report.Entries[W.Entry].Label,
                        static_cast<unsigned>(W.Entry)});
  // Every reference written stays alive: the result points to the last.
  std::list<Written> Refs;
  Refs.push_back(std::move(**Ref));
  auto Next =
      [&](unsigned Attempt) -> llvm::Expected<std::optional<LabelledKernel>> {
    auto Again = Run.reference(Attempt);
    if (!Again)
      return Again.takeError();
    if (!*Again)
      return std::nullopt;
    Refs.push_back(std::move(**Again));
    return LabelledKernel{&Refs.back().Kernel,
                          Run.Report.Entries[Refs.back().Entry].Label, 0};
  };
  ReferenceCrossCheck Check(Cmp, std::move(Labelled));
  auto Checked = Check.run(
      {&Refs.front().Kernel, Run.Report.Entries[Refs.front().Entry].Label, 0},
      O.ReferenceAttempts, Next, Err);
  if (!Checked)
    return Stop(Checked.takeError());
  record(Run.Report, *Checked, *Cands, Refs);
  if (!Checked->trusted()) {
    Run.Report.Outcome = "untrusted";
    Run.Report.Summary += "; after " + std::to_string(Checked->References) +
                          " reference(s) no kernel is written";
    return Finish(ExitRejected);
  }
  const Written &Best = (*Cands)[*Checked->fastest()];
  const Written &Reference = Refs.back();
  Run.Report.Chosen = Run.Report.Entries[Best.Entry].Label;
  Run.Report.Outcome = "verified";
  std::string Start = O.Optimize ? Run.Paths.file("start") : Run.Paths.Out;
  if (llvm::Error E = writeOutputs(Run, Reference, Best, Start, true))
    return E;
  auto Code = Finish(ExitOK);
  if (!Code || !O.Optimize)
    return Code;
  OptimizeOptions OO = *O.Optimize;
  OO.OutputPath = O.OutputPath;
  OO.Kernel = Run.Report.Kernel;
  return OptimizeAction(*this).optimize(Start, OO);
}
