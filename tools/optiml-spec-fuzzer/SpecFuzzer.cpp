//===- SpecFuzzer.cpp - libFuzzer target for the kernel spec readers ------===//
//
// Everything a user writes about a kernel's spec goes through three readers:
// the `#pragma optiml` clause parser, the JSON sidecar parser and the
// expression evaluator that turns sizes into numbers. This target feeds them
// arbitrary bytes under AddressSanitizer (scripts/fuzz.sh builds and runs
// it). The first byte says what the rest is:
//
//   'P'  the clauses of a mark (what follows `#pragma optiml`)
//   'J'  a sidecar file
//   'E'  one expression, against a few fixed sizes
//
// and any other first byte sends the whole input to all three. A draft that
// parses is also built against a kernel made up from its own arguments and
// instantiated, so that the evaluator sees every expression a real spec
// would give it. Besides crashes, the target stops on a reader that fails
// with anything but a one-line BadInput error: bad input is never an
// internal error, and an error message is one line.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/KernelSpec.h"
#include "optiml/Spec/LaunchClauses.h"
#include "optiml/Spec/MarkLocator.h"
#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Spec/SidecarSpecParser.h"
#include "optiml/Spec/SpecBuilder.h"
#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>

using namespace optiml;
using llvm::StringRef;

/// Stops the run (libFuzzer saves the input) when \p Err is not the kind
/// of error bad input must produce.
static void expectBadInput(llvm::Error Err, StringRef Reader) {
  if (!Err)
    return;
  ErrorSummary S = summarize(std::move(Err));
  bool OneLine = !S.Message.empty() &&
                 StringRef(S.Message).find_first_of("\r\n") == StringRef::npos;
  if (S.Kind == ErrorKind::BadInput && OneLine)
    return;
  llvm::errs() << "spec fuzzer: " << Reader << " failed with "
               << (S.Kind == ErrorKind::BadInput
                       ? "a message that is not one line"
                       : "an error that is not BadInput")
               << ":\n"
               << S.Message << "\n";
  std::abort();
}

template <typename T>
static std::optional<T> valueOr(llvm::Expected<T> V, StringRef Reader) {
  if (V)
    return std::move(*V);
  expectBadInput(V.takeError(), Reader);
  return std::nullopt;
}

/// A kernel whose parameters are the draft's arguments, in order: buffers
/// as float pointers, scalars (and arguments without a role) as ints, and a
/// `typename` template parameter for each template argument.
static KernelInfo kernelFor(const SpecDraft &Draft, StringRef Name) {
  KernelInfo K;
  K.Name = K.QualifiedName = Name.str();
  K.Pos = SourcePos{"fuzz.cu", 2, 17};
  for (const ArgDraft &A : Draft.Args) {
    ParamInfo P;
    P.Name = A.Name;
    bool Buffer = A.Role && *A.Role != ArgRole::Scalar;
    P.IsPointer = Buffer;
    P.IsConst = Buffer && *A.Role == ArgRole::In;
    P.PointeeType = Buffer ? "float" : "";
    P.CanonicalElement = Buffer ? "float" : "int";
    P.Type = Buffer ? (P.IsConst ? "const float *" : "float *") : "int";
    K.Params.push_back(std::move(P));
  }
  for (const auto &[Param, Value] : Draft.TemplateArgs) {
    K.TemplateParameters.push_back("typename " + Param);
    K.TemplateParameterNames.push_back(Param);
  }
  // The file's other kernels, for then(...) and before(...):
  // other(const float *x, float *y, int n) and a template pick<T>.
  auto All = std::make_shared<std::vector<SiblingKernel>>();
  All->push_back({K.Name, K.QualifiedName, K.isTemplate(), K.Params});
  ParamInfo X, Y, N;
  X.Name = "x", X.IsPointer = true, X.IsConst = true, X.PointeeType = "float";
  X.CanonicalElement = "float", X.Type = "const float *";
  Y = X, Y.Name = "y", Y.IsConst = false, Y.Type = "float *";
  N.Name = "n", N.CanonicalElement = "int", N.Type = "int";
  All->push_back({"other", "other", false, {X, Y, N}});
  All->push_back({"pick", "pick", true, {Y}});
  K.FileKernels = All;
  return K;
}

/// What the tool does with a draft once it has one: check it against the
/// kernel, then evaluate every expression of every instance.
static void buildAndInstantiate(const SpecDraft &Draft, StringRef Name) {
  KernelInfo K = kernelFor(Draft, Name);
  auto Spec = valueOr(SpecBuilder::build(Draft, K), "SpecBuilder");
  if (!Spec)
    return;
  valueOr(Spec->instantiate(K), "KernelSpec::instantiate");
}

static std::optional<SpecDraft> fuzzPragma(StringRef Clauses) {
  // The mark as the file would hold it, so that MarkLocator maps offsets
  // back through continuation lines as it does for a real file.
  std::string Source = "#pragma optiml " + Clauses.str() + "\n";
  KernelMark Mark{SourcePos{"fuzz.cu", 1, 1}, Clauses.str()};
  MarkLocator Loc(Mark, Source);
  (void)launchOf(Clauses);
  valueOr(withLaunch(Clauses, "grid(2, 3) block(32)"), "withLaunch");
  auto Draft = valueOr(PragmaSpecParser::parse(Mark, Loc), "PragmaSpecParser");
  if (Draft)
    buildAndInstantiate(*Draft, "k");
  return Draft;
}

/// The first kernel name a sidecar gives, so that mutated names still reach
/// the kernel's entry; "k" when there is none.
static std::string firstKernelName(StringRef Text) {
  auto Root = nlohmann::ordered_json::parse(Text.begin(), Text.end(), nullptr,
                                            /*allow_exceptions=*/false);
  if (!Root.is_object() || !Root.contains("kernels") ||
      !Root["kernels"].is_object() || Root["kernels"].empty())
    return "k";
  return Root["kernels"].begin().key();
}

static std::optional<SpecDraft> fuzzSidecar(StringRef Text) {
  KernelInfo K;
  K.Name = K.QualifiedName = firstKernelName(Text);
  auto Draft = valueOr(SidecarSpecParser::parse(Text, "fuzz.cu.optiml.json", K),
                       "SidecarSpecParser");
  if (!Draft || !*Draft)
    return std::nullopt;
  buildAndInstantiate(**Draft, K.Name);
  return std::move(*Draft);
}

static void fuzzExpression(StringRef Text) {
  static const std::map<std::string, int64_t> Sizes = {
      {"N", 1 << 20},
      {"M", 3},
      {"Z", 0},
      {"BIG", std::numeric_limits<int64_t>::max()},
      {"SMALL", std::numeric_limits<int64_t>::min()}};
  SpecExprEvaluator Eval(Sizes);
  SpecExpr E{Text.str(), SourcePos{"fuzz.cu", 1, 1}};
  valueOr(Eval.evaluate(E), "SpecExprEvaluator");
  valueOr(Eval.evaluateInteger(E, "the fuzzed value"), "SpecExprEvaluator");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  StringRef Rest(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  switch (Data[0]) {
  case 'P':
    fuzzPragma(Rest);
    return 0;
  case 'J':
    fuzzSidecar(Rest);
    return 0;
  case 'E':
    fuzzExpression(Rest);
    return 0;
  default: {
    StringRef All(reinterpret_cast<const char *>(Data), Size);
    auto Mark = fuzzPragma(All);
    auto Sidecar = fuzzSidecar(All);
    fuzzExpression(All);
    if (Mark && Sidecar) {
      // A sidecar entry over a mark, as when a file has both.
      Mark->overrideWith(*Sidecar);
      buildAndInstantiate(*Mark, "k");
    }
    return 0;
  }
  }
}
