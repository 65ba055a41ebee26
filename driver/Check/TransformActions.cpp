//===- TransformActions.cpp - --list-transforms, --list-sites, --apply ---===//
//
// The transform actions of the Driver. They share one SourceParser so that
// the input and every rewrite of it are parsed with the same command.
//
//===----------------------------------------------------------------------===//

#include "driver/Check/TransformActions.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/LegalityError.h"
#include "optiml/Rewrite/ChangedLinesFormatter.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Search/Trace.h"
#include "optiml/Support/JsonText.h"
#include "optiml/Support/OutputPath.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/SiteIndex.h"
#include "optiml/Transform/StepChain.h"
#include "optiml/Transform/StepRunner.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using json = nlohmann::json;

//===----------------------------------------------------------------------===//
// --list-transforms
//===----------------------------------------------------------------------===//

llvm::Error TransformActions::listTransforms(OutputFormat Format) {
  TransformRegistry Registry = makeTransformRegistry();
  if (Format == OutputFormat::JSON) {
    json All = json::array();
    for (const Transform *T : Registry.all())
      All.push_back(toJSON(T->descriptor()));
    Out << jsonText(All) << "\n";
    return llvm::Error::success();
  }
  Out << Registry.all().size() << " transforms\n";
  size_t Width = 14; // One space at least after the longest name.
  for (const Transform *T : Registry.all())
    Width = std::max(Width, T->name().size() + 1);
  for (const Transform *T : Registry.all()) {
    Out << "  " << llvm::left_justify(T->name(), Width)
        << llvm::left_justify(siteKindName(T->siteKind()), 8) << T->summary()
        << (T->changesNumerics() ? " (changes numerics)" : "") << "\n";
    for (const ParamSpec &P : T->params())
      Out << "      " << P.Name << " in " << P.domainText() << " (default "
          << P.Default << "): " << P.Help << "\n";
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// --list-sites
//===----------------------------------------------------------------------===//

static json actionJSON(const Action &A) {
  json Params = json::object();
  for (const auto &[Name, Value] : A.Default.Params.items())
    Params[Name] = paramValueJSON(Value);
  return {{"transform", A.Transform},
          {"kernel", A.Kernel},
          {"site", A.Default.Site},
          {"legal", A.Legal},
          {"verdict", A.Kind},
          {"reason", A.Reason},
          {"where", A.Where.File.empty() ? json() : json(A.Where.str())},
          {"params", Params},
          {"apply", A.Default.str()}};
}

static void printActions(llvm::StringRef File,
                         const std::vector<Action> &Actions,
                         llvm::raw_ostream &OS) {
  size_t Legal =
      llvm::count_if(Actions, [](const Action &A) { return A.Legal; });
  OS << File << ": " << Actions.size() << " sites, " << Legal << " legal\n";
  // Columns fit the longest transform name, so the sites line up.
  size_t NameWidth = 14;
  for (const Action &A : Actions)
    NameWidth = std::max(NameWidth, A.Transform.size() + 1);
  std::string Kernel;
  for (const Action &A : Actions) {
    if (A.Kernel != Kernel)
      OS << "kernel " << (Kernel = A.Kernel) << "\n";
    OS << "  " << llvm::left_justify(A.Transform, NameWidth)
       << llvm::left_justify(A.Default.Site, 18) << " ";
    if (A.Legal) {
      OS << "legal: --apply='" << A.Default.str() << "'";
      if (!A.Reason.empty())
        OS << " (" << A.Reason << ")";
      OS << "\n";
      continue;
    }
    OS << A.Kind << ": " << A.Reason;
    if (A.Where.Line)
      OS << " (line " << A.Where.Line << ")";
    OS << "\n";
  }
}

/// Why --list-sites found nothing: no kernel at all, or not that one.
static llvm::Error noSuchKernel(llvm::StringRef File, llvm::StringRef Kernel,
                                ParsedSource &Parsed) {
  std::vector<std::string> Names;
  SiteIndex Index(Parsed.context());
  for (const clang::FunctionDecl *K : Index.kernels())
    Names.push_back(K->getQualifiedNameAsString());
  if (Names.empty())
    return makeError(ErrorKind::BadInput,
                     File + ": no __global__ function is defined in this file");
  return makeError(ErrorKind::BadInput,
                   "no kernel named '" + Kernel + "' in " + File +
                       " (kernels: " + llvm::join(Names, ", ") + ")");
}

llvm::Error TransformActions::listSites(llvm::StringRef File,
                                        llvm::StringRef Kernel,
                                        OutputFormat Format,
                                        const TransformChoice &Choice) {
  TransformRegistry Registry = makeTransformRegistry();
  if (llvm::Error E = Choice.check(Registry))
    return E;
  auto Source = KernelSource::fromFile(File);
  if (!Source)
    return Source.takeError();
  auto Parsed = SourceParser(DB, Toolchain).parse(*Source);
  if (!Parsed)
    return Parsed.takeError();
  std::vector<Action> Actions =
      ActionSpace::enumerate(Registry, **Parsed, Kernel);
  if (Actions.empty())
    return noSuchKernel(File, Kernel, **Parsed);
  KernelInventory Inv = KernelFinder::find((*Parsed)->context());
  if (auto Listed = select(Inv, Kernel))
    specWarnings(*Listed, File);
  else
    llvm::consumeError(Listed.takeError());
  llvm::erase_if(Actions,
                 [&](const Action &A) { return !Choice.admits(A.Transform); });
  if (Format == OutputFormat::JSON) {
    json All = json::array();
    for (const Action &A : Actions)
      All.push_back(actionJSON(A));
    Out << jsonText(All) << "\n";
    return llvm::Error::success();
  }
  printActions(File, Actions, Out);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// --apply
//===----------------------------------------------------------------------===//

/// A refused step as one clang-style line: where, which step, why.
static llvm::Error explainRefusal(llvm::Error E, const Step &S, size_t Index) {
  std::string After =
      Index == 0 ? ""
                 : " (in the source after step " + std::to_string(Index) + ")";
  return llvm::handleErrors(std::move(E), [&](const LegalityError &L) {
    std::string Where = L.where().File.empty() ? "" : L.where().str() + ": ";
    const char *Verdict =
        L.kind() == ErrorKind::Illegal ? "is illegal" : "is not applicable";
    return makeError(L.kind(), Where + S.str() + " " + Verdict + ": " +
                                   L.reason() + After);
  });
}

/// \p Result, to -o or stdout alike, with the lines the steps changed
/// formatted in the style of the input's .clang-format (LLVM's without
/// one); every other line as the user wrote it.
static llvm::Error writeResult(const KernelSource &Input,
                               const KernelSource &Result,
                               llvm::StringRef OutputPath,
                               llvm::StringRef FormatStyle,
                               llvm::raw_ostream &Out) {
  std::string Text = formatChangedLines(Input.text(), Result.text(),
                                        Input.path(), FormatStyle);
  if (OutputPath.empty() || OutputPath == "-") {
    Out << Text;
    return llvm::Error::success();
  }
  return writeOutputFile(OutputPath, Text);
}

/// A step of --apply: a transform's, checked against \p Registry, or a
/// chain's (`chain:register-block(site=sgemm,y=8,x=8,tile=16)`), checked
/// against the chains.
static llvm::Expected<Step> parseApplyStep(llvm::StringRef Text,
                                           const TransformRegistry &Registry) {
  if (!Text.trim().starts_with(StepChain::Prefix))
    return Step::parse(Text, Registry);
  auto S = parseStepSpelling(Text.trim());
  if (!S)
    return S.takeError();
  if (auto Chain = StepChain::decode(*S); !Chain)
    return Chain.takeError();
  return S;
}

llvm::Error TransformActions::applySteps(llvm::StringRef File,
                                         llvm::ArrayRef<std::string> Steps,
                                         llvm::StringRef OutputPath,
                                         llvm::StringRef FormatStyle) {
  if (llvm::Error E = refuseOverwrite(File, OutputPath))
    return E;
  if (llvm::Error E = checkOutputFile(OutputPath, "-o"))
    return E;
  TransformRegistry Registry = makeTransformRegistry();
  std::vector<Step> Parsed;
  for (const std::string &Text : Steps) {
    auto S = parseApplyStep(Text, Registry);
    if (!S)
      return S.takeError();
    Parsed.push_back(std::move(*S));
  }
  auto Source = KernelSource::fromFile(File);
  if (!Source)
    return Source.takeError();
  SourceParser Parser(DB, Toolchain);
  auto Current = Parser.parse(*Source);
  if (!Current)
    return Current.takeError();
  std::unique_ptr<ParsedSource> State = std::move(*Current);
  StepRunner Runner(Registry, Parser);
  for (size_t I = 0; I < Parsed.size(); ++I) {
    if (StepChain::isChain(Parsed[I])) {
      auto Chain = StepChain::decode(Parsed[I]);
      if (!Chain)
        return Chain.takeError();
      auto Result = Chain->run(Registry, Parser, *State);
      if (!Result)
        return Result.takeError();
      Err << "clang-optiml: note: " << Parsed[I].str()
          << " applied: " << toString(Result->Steps) << "\n";
      State = std::move(Result->Parsed);
      continue;
    }
    auto Result = Runner.run(*State, Parsed[I]);
    if (!Result)
      return explainRefusal(Result.takeError(), Parsed[I], I);
    for (const std::string &Note : Result->Notes)
      Err << "clang-optiml: note: " << Result->Applied.str() << ": " << Note
          << "\n";
    State = std::move(Result->Parsed);
  }
  return writeResult(*Source, State->source(), OutputPath, FormatStyle, Out);
}
