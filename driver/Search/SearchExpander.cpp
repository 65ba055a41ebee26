//===- SearchExpander.cpp - the search's moves over real sources ---------===//

#include "driver/Search/SearchExpander.h"
#include "driver/Search/LlmGuide.h"
#include "driver/Search/RecordedProfile.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Analysis/Legality/StaticFindings.h"
#include "optiml/Profile/MicroProfiler.h"
#include "optiml/Profile/TransformPriors.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Stopwatch.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/SiteIndex.h"
#include "optiml/Transform/StepChain.h"
#include "optiml/Transform/StepRunner.h"
#include "optiml/Transform/TransformRegistry.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

SearchExpander::SearchExpander(const TransformRegistry &Registry,
                               const SourceParser &Parser,
                               std::unique_ptr<ParsedSource> Original,
                               std::string Kernel, std::string SpecPath,
                               std::string Arch)
    : Registry(Registry), Parser(Parser), Kernel(std::move(Kernel)),
      SpecPath(std::move(SpecPath)), Arch(std::move(Arch)),
      Root(Original->source().hash().str()) {
  Sources[Root] = std::move(Original);
}

ParsedSource *SearchExpander::parsed(llvm::StringRef Hash) const {
  auto It = Sources.find(Hash);
  return It == Sources.end() ? nullptr : It->second.get();
}

const KernelSource *SearchExpander::source(llvm::StringRef Hash) const {
  ParsedSource *P = parsed(Hash);
  return P ? &P->source() : nullptr;
}

std::optional<std::string> SearchExpander::sourceText(llvm::StringRef Hash) {
  if (const KernelSource *S = source(Hash))
    return S->text().str();
  return std::nullopt;
}

void SearchExpander::limitTo(llvm::ArrayRef<std::string> Transforms) {
  Allowed.emplace();
  for (const std::string &T : Transforms)
    Allowed->insert(T);
}

bool SearchExpander::allowed(llvm::StringRef Transform) const {
  return !Allowed || Transform == EditStepName || Allowed->contains(Transform);
}

static llvm::Error unknownState(llvm::StringRef Hash) {
  return makeError(ErrorKind::Internal,
                   "the search asked for source " + Hash +
                       " which the expander never produced");
}

/// The domain indices up to \p Reach places either side of \p Index; with
/// \p LargerFirst and a numeric domain, in decreasing value.
static std::vector<int> neighbourIndices(const ParamSpec &P, int Index,
                                         int Reach, bool LargerFirst) {
  std::vector<int> Out;
  int Size = P.Domain.size();
  for (int I = std::max(0, Index - Reach);
       I <= std::min(Size - 1, Index + Reach); ++I)
    if (I != Index)
      Out.push_back(I);
  auto Number = [&](int I) -> std::optional<double> {
    double V;
    if (llvm::StringRef(P.Domain[I]).getAsDouble(V))
      return std::nullopt;
    return V;
  };
  if (LargerFirst && llvm::all_of(Out, [&](int I) { return Number(I); }))
    llvm::stable_sort(Out,
                      [&](int A, int B) { return *Number(A) > *Number(B); });
  return Out;
}

std::vector<Step> optiml::parameterNeighbours(const Step &Default,
                                              const TransformRegistry &Registry,
                                              int Reach, bool LargerFirst) {
  std::vector<Step> Out;
  const Transform *T = Registry.find(Default.Transform);
  if (!T)
    return Out;
  for (const ParamSpec &P : T->params()) {
    auto At = llvm::find(P.Domain, Default.Params.get(P.Name));
    if (At == P.Domain.end())
      continue;
    int Index = At - P.Domain.begin();
    for (int I : neighbourIndices(P, Index, Reach, LargerFirst)) {
      Step S = Default;
      S.Params = ParamValues();
      for (const auto &[Name, Value] : Default.Params.items())
        S.Params.set(Name, Name == P.Name ? P.Domain[I] : Value);
      Out.push_back(std::move(S));
    }
  }
  return Out;
}

llvm::Expected<std::vector<Step>>
SearchExpander::legalSteps(llvm::StringRef Hash) {
  ParsedSource *P = parsed(Hash);
  if (!P)
    return unknownState(Hash);
  std::vector<Step> Steps;
  for (const Action &A : ActionSpace::enumerate(Registry, *P, Kernel)) {
    if (!A.Legal || !allowed(A.Transform))
      continue;
    Steps.push_back(A.Default);
    for (Step &S : parameterNeighbours(A.Default, Registry))
      Steps.push_back(std::move(S));
  }
  return Steps;
}

std::vector<Step> SearchExpander::retunes(const Step &Paid) {
  if (!allowed(Paid.Transform))
    return {};
  // The nearest values only: each retune is tried before the state's
  // other moves, and softmax's warp-per-row spent budget 10's last three
  // candidates on lanes 16 and 8 below lanes 32 (12.5x) while fast-math
  // on top of it (13.9x) waited. A number's larger value first: on
  // linear_nt, tensor-cores(tf32, tile 64) paid 30x and MCTS's budget 10
  // ended after its tile 32 (19.7x), before tile 128 (48.7x). Replayed on
  // 39 kernels' H200 landscapes, that is the one result this order
  // changes.
  return parameterNeighbours(Paid, Registry, 1, /*LargerFirst=*/true);
}

llvm::Expected<StateKernel> SearchExpander::stateKernel(llvm::StringRef Hash) {
  ParsedSource *P = parsed(Hash);
  if (!P)
    return unknownState(Hash);
  KernelInventory Inv = KernelFinder::find(P->context());
  const KernelInfo *K = Inv.find(Kernel);
  if (!K)
    return makeError(ErrorKind::Internal,
                     "a rewrite lost kernel '" + Kernel + "'");
  StateKernel Out{*K, std::nullopt};
  if (!K->Mark)
    return Out;
  auto Spec = loadKernelSpec(*K, P->source().path(), SpecPath);
  if (!Spec)
    return Spec.takeError();
  Out.Spec.emplace(std::move(*Spec));
  return Out;
}

/// The state's first instance, from its own spec (after a block-size step
/// it is not the original's).
std::optional<ConcreteInstance>
SearchExpander::firstInstance(llvm::StringRef Hash) {
  auto SK = stateKernel(Hash);
  if (!SK) {
    llvm::consumeError(SK.takeError());
    return std::nullopt;
  }
  return firstInstanceOf(SK->Spec ? &*SK->Spec : nullptr, SK->Kernel);
}

std::optional<LaunchGeometry> SearchExpander::geometry(llvm::StringRef Hash) {
  if (std::optional<ConcreteInstance> First = firstInstance(Hash))
    return launchOf(*First);
  return std::nullopt;
}

bool SearchExpander::allowed(const StepChain &C) const {
  return llvm::all_of(C.links(),
                      [&](const ChainLink &L) { return allowed(L.Transform); });
}

/// A site's other parameter values, against its default (favourDefaults).
static constexpr double NeighbourWeight = 1.0 / 3;

/// Transforms whose descriptor calls a step a recipe (tensor-cores) start
/// with the chains at \p Prior, their other parameter values at a third of
/// it. A matrix product's tensor-core rewrite shared its profile finding's
/// prior with five other parameter values and stood 28th of 57 moves on
/// linear_nt: MCTS and greedy spent budget 10 on register blocking (28.7x)
/// while random's seeds reached tensor-cores (tf32, tile 128: 48.9x).
void SearchExpander::rankRecipes(std::vector<ScoredAction> &Moves,
                                 double Prior) const {
  llvm::StringSet<> Seen;
  for (ScoredAction &M : Moves) {
    const Transform *T = Registry.find(M.Action.Transform);
    if (!T || !T->descriptor().Recipe)
      continue;
    bool Default =
        Seen.insert(M.Action.Transform + "\n" + M.Action.Site).second;
    M.Prior = Default ? Prior : Prior * NeighbourWeight;
  }
}

/// Chains start ahead of every single step, at twice the prior of the
/// state's most promising one: a chain is a whole recipe from the guides
/// rather than one hint, and one that does not apply costs no measurement
/// (its refusal prunes it when it is expanded). At an equal prior, MCTS at
/// budget 10 widened the original's single steps first and never reached
/// a chain on SGEMM (2.09x over five seeds; greedy, whose first round of
/// moves took the 8x8 register-blocking chain, 4.79x).
void SearchExpander::addChains(const StateView &S, llvm::ArrayRef<Step> Legal,
                               std::vector<ScoredAction> &Moves) {
  constexpr double ChainWeight = 2;
  std::optional<ConcreteInstance> First = firstInstance(S.Hash);
  if (!First || Moves.empty())
    return;
  const auto &B = First->Block;
  std::array<unsigned, 3> Block{unsigned(B[0]), unsigned(B[1]), unsigned(B[2])};
  double Best = 0;
  for (const ScoredAction &M : Moves)
    Best = std::max(Best, M.Prior * ChainWeight);
  rankRecipes(Moves, Best);
  for (Step &Chain : StepChain::offered(Legal, Block, S.Steps)) {
    auto C = StepChain::decode(Chain);
    if (!C) {
      llvm::consumeError(C.takeError());
      continue;
    }
    if (allowed(*C))
      Moves.push_back({std::move(Chain), Best, C->describe()});
  }
  normalizePriors(Moves);
}

/// A site's other parameter values (parameterNeighbours, listed after
/// its default) at a third of the default's prior: the first candidates
/// then try each transform before a second value of any one (row_sums
/// measured four tiles of stage-shared before any other transform).
static void favourDefaults(std::vector<ScoredAction> &Moves) {
  llvm::StringSet<> Seen;
  for (ScoredAction &M : Moves) {
    std::string Key = M.Action.Transform + "\n" + M.Action.Site;
    if (!Seen.insert(Key).second)
      M.Prior *= NeighbourWeight;
  }
  normalizePriors(Moves);
}

/// What the source of \p Kernel says before anything runs (a strided read,
/// a transcendental call in a loop): counters tell how slow a kernel is,
/// the source often tells why (row_sums' counters name L1 reuse and
/// occupancy; its source, a thread reading a row that its warp neighbours
/// read a row apart).
static std::vector<StaticHint> staticHints(ParsedSource &P,
                                           llvm::StringRef Kernel) {
  std::vector<StaticHint> Out;
  SiteIndex Index(P.context());
  for (const clang::FunctionDecl *K : Index.kernels())
    if (kernelNamed(*K, Kernel))
      for (StaticFinding &F : StaticFindings::of(*K, P.context()))
        Out.push_back({std::move(F.Kind), std::move(F.Site), {}, {}});
  return Out;
}

/// A stack frame without spills: an array the compiler keeps in local
/// memory because it cannot resolve its indices (SpillAnalyzer's
/// local-array case).
static bool keepsLocalArray(const Measurement &M) {
  return M.Usage && M.Usage->StackFrameBytes > 0 &&
         M.Usage->SpillStoreBytes + M.Usage->SpillLoadBytes == 0;
}

/// Which step takes a local array into registers is up to the compiler
/// and hard to foresee from the source: median3x3's window[9] left the
/// stack under `#pragma unroll 2` on its 3-trip gather loop (5.5x on an
/// H200), not under factors 4, 8 or 16 there or at its other loops. ptxas
/// tells, without a GPU: the moves the local-array finding suggests are
/// built, and those whose kernel has no stack frame go ahead of every
/// other move, chains included. The builds are cached, so the one the
/// search measures costs nothing more.
void SearchExpander::screenLocalArray(const StateView &S,
                                      std::vector<ScoredAction> &Moves) {
  if (!Probe || !keepsLocalArray(S.Result))
    return;
  const TransformPrior &Suggested = priorFor(PriorCause::LocalArray);
  std::vector<size_t> Screened;
  std::vector<const KernelSource *> Built;
  for (size_t I = 0; I < Moves.size(); ++I) {
    const Step &Move = Moves[I].Action;
    if (!Suggested.count(Move.Transform))
      continue;
    auto Made = apply(S.Steps, S.Hash, Move);
    if (!Made) {
      llvm::consumeError(Made.takeError());
      continue;
    }
    Screened.push_back(I);
    Built.push_back(source(Made->Hash));
  }
  if (Built.empty())
    return;
  std::vector<std::optional<ResourceUsage>> Usage = Probe(Built);
  constexpr double ScreenWeight = 2;
  double Top = 0;
  for (const ScoredAction &M : Moves)
    Top = std::max(Top, M.Prior);
  bool Raised = false;
  for (size_t J = 0; J < Screened.size() && J < Usage.size(); ++J) {
    if (!Usage[J] || Usage[J]->StackFrameBytes != 0)
      continue;
    ScoredAction &M = Moves[Screened[J]];
    M.Prior = Top * ScreenWeight;
    M.Motivation = llvm::formatv(
        "local-array: ptxas reports no stack frame after this step (the "
        "kernel had {0} bytes): the array lives in registers",
        S.Result.Usage->StackFrameBytes);
    Raised = true;
  }
  if (Raised)
    normalizePriors(Moves);
}

/// Every step the same share: without counters nothing says otherwise.
static std::vector<ScoredAction> uniformPriors(llvm::ArrayRef<Step> Steps) {
  std::vector<ScoredAction> Out;
  for (const Step &S : Steps)
    Out.push_back({S, 1.0 / Steps.size(), "no counters: uniform"});
  return Out;
}

llvm::Expected<std::vector<ScoredAction>>
SearchExpander::actions(const StateView &S) {
  auto Steps = legalSteps(S.Hash);
  if (!Steps)
    return Steps.takeError();
  LlmGuide::StateFacts Facts;
  std::vector<ScoredAction> Moves;
  if (Steps->empty() || !S.Result.Runner) {
    Moves = uniformPriors(*Steps);
  } else {
    ProfileInput In = profileInput(S.Result);
    In.Geometry = geometry(S.Hash);
    In.Hints = staticHints(*parsed(S.Hash), Kernel);
    if (auto Limits = DeviceLimits::forArch(Arch))
      In.Limits = *Limits;
    ProfileReport R = MicroProfiler::standard().profile(In);
    if (llvm::Error E = checkPriorNames(R.Findings, Registry))
      return E;
    Moves = assignPriors(*Steps, R.Findings);
    Facts.Bottleneck = toString(R.Stage1.Kind).str();
    Facts.Findings = std::move(R.Findings);
  }
  History.apply(Moves);
  favourDefaults(Moves);
  addChains(S, *Steps, Moves);
  screenLocalArray(S, Moves);
  if (Guide) {
    if (S.Result.Runner)
      Facts.Device = deviceFactsOf(*S.Result.Runner);
    Guide->guide(*parsed(S.Hash), S.Steps, Facts, Moves);
    // The model may propose any transform: the user's limits still hold.
    llvm::erase_if(Moves, [&](const ScoredAction &M) {
      return !allowed(M.Action.Transform);
    });
  }
  return Moves;
}

void SearchExpander::observe(const Trace &Steps, llvm::StringRef,
                             const Measurement &Result) {
  if (Guide)
    Guide->observe(Steps, Result);
}

llvm::Expected<ChainResult> SearchExpander::applyStep(ParsedSource &From,
                                                      const Step &Next) {
  if (StepChain::isChain(Next)) {
    auto Chain = StepChain::decode(Next);
    if (!Chain)
      return Chain.takeError();
    return Chain->run(Registry, Parser, From);
  }
  if (Next.Transform != EditStepName) {
    auto Result = StepRunner(Registry, Parser).run(From, Next);
    if (!Result)
      return Result.takeError();
    return ChainResult{std::move(Result->Parsed), {Next}};
  }
  if (!Guide)
    return makeError(ErrorKind::NotApplicable,
                     "a free-form edit needs the proposals it came from "
                     "(--llm or --proposals-from)");
  auto Edited = Guide->applyEdit(From, Next);
  if (!Edited)
    return Edited.takeError();
  auto Parsed = Parser.parse(*Edited, ErrorKind::Illegal);
  if (!Parsed)
    return Parsed.takeError();
  return ChainResult{std::move(*Parsed), {Next}};
}

llvm::Expected<AppliedMove> SearchExpander::apply(const Trace &,
                                                  llvm::StringRef FromHash,
                                                  const Step &Next) {
  ParsedSource *From = parsed(FromHash);
  if (!From)
    return unknownState(FromHash);
  Stopwatch Clock;
  auto Result = applyStep(*From, Next);
  if (!Result)
    return Result.takeError();
  AppliedMove Out{Result->Parsed->source().hash().str(),
                  std::move(Result->Steps)};
  if (!Sources.count(Out.Hash)) {
    Sources[Out.Hash] = std::move(Result->Parsed);
    RewriteSeconds[Out.Hash] = Clock.seconds();
  }
  return Out;
}

std::optional<double>
SearchExpander::rewriteSeconds(llvm::StringRef Hash) const {
  auto It = RewriteSeconds.find(Hash);
  if (It == RewriteSeconds.end())
    return std::nullopt;
  return It->second;
}
