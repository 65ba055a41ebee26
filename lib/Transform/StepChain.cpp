//===- StepChain.cpp - a known-good chain of steps as one move ------------===//

#include "optiml/Transform/StepChain.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/StepRunner.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace optiml;

namespace {

/// Each chain, by name, built from its step's parameters.
constexpr llvm::StringLiteral RegisterBlock = "register-block";
constexpr llvm::StringLiteral RowsPerThread = "rows-per-thread";
constexpr llvm::StringLiteral StageOperands = "stage-operands";
constexpr llvm::StringLiteral PrivateCounts = "private-counts";
constexpr llvm::StringLiteral ShuffleTrees = "shuffle-trees";
constexpr llvm::StringLiteral StridedBatches = "strided-batches";

/// A staging link never loops forever: a kernel has a handful of operands.
constexpr unsigned MaxSitesPerLink = 6;

ChainLink
link(llvm::StringRef Transform,
     std::initializer_list<std::pair<const char *, std::string>> Params,
     bool EverySite = false, bool Optional = false) {
  ChainLink L;
  L.Transform = Transform.str();
  for (const auto &[Name, Value] : Params)
    L.Params.set(Name, Value);
  L.EverySite = EverySite;
  L.Optional = Optional;
  return L;
}

Step chainStep(
    llvm::StringRef Name, llvm::StringRef Site,
    std::initializer_list<std::pair<const char *, unsigned>> Params) {
  Step S;
  S.Transform = (StepChain::Prefix + Name).str();
  S.Site = Site.str();
  for (const auto &[Param, Value] : Params)
    S.Params.set(Param, std::to_string(Value));
  return S;
}

bool startedBlocking(llvm::ArrayRef<Step> Trace) {
  return llvm::any_of(Trace, [](const Step &S) {
    return S.Transform == "coarsen" || S.Transform == "stage-shared" ||
           StepChain::isChain(S);
  });
}

} // namespace

std::vector<Step> StepChain::offered(llvm::ArrayRef<Step> Legal,
                                     std::array<unsigned, 3> Block,
                                     llvm::ArrayRef<Step> Trace) {
  std::vector<Step> Out;
  if (startedBlocking(Trace))
    return Out;
  const Step *Coarsen = nullptr;
  llvm::StringSet<> Staged;
  bool Counts = false;
  unsigned Trees = 0, Interleaved = 0;
  const Step *While = nullptr;
  for (const Step &S : Legal) {
    if (S.Transform == "while-to-for" && !While)
      While = &S;
    Trees += S.Transform == "warp-reduce";
    Interleaved += S.Transform == "sequential-reduce";
    if (S.Transform == "coarsen" && !Coarsen)
      Coarsen = &S;
    if (S.Transform == "stage-shared")
      Staged.insert(S.Site);
    Counts |= S.Transform == "privatize-atomics";
  }
  // Register blocking and folding rows both end in staging: without an
  // operand to stage now, neither has its payoff.
  if (Coarsen && !Staged.empty() && Block[1] > 1) {
    for (auto [Y, X] : {std::pair{4u, 4u}, {8u, 4u}, {8u, 8u}})
      Out.push_back(chainStep(RegisterBlock, Coarsen->Site,
                              {{"y", Y}, {"x", X}, {"tile", 16}}));
    constexpr unsigned Rows = 4;
    if (Block[1] >= 2 * Rows && Block[1] % Rows == 0)
      Out.push_back(chainStep(RowsPerThread, Coarsen->Site,
                              {{"x", Block[0]},
                               {"y", Block[1] / Rows},
                               {"z", Block[2]},
                               {"factor", Rows}}));
  }
  // A block's private counts pay for their clear and merge only over many
  // elements a thread: coarsening is legal before privatizing, not after
  // (the copy brings barriers).
  if (Coarsen && Counts) {
    Step S = chainStep(PrivateCounts, Coarsen->Site, {{"factor", 8}});
    S.Params.set("dim", Coarsen->Params.get("dim"));
    Out.push_back(std::move(S));
  }
  // Every tree of the kernel in one move: one alone leaves the block
  // waiting at the other's barriers.
  if (Interleaved > 0 || Trees >= 2) {
    const Step &First = *llvm::find_if(Legal, [](const Step &S) {
      return S.Transform == "warp-reduce" || S.Transform == "sequential-reduce";
    });
    Out.push_back(chainStep(ShuffleTrees,
                            llvm::StringRef(First.Site).split('/').first, {}));
  }
  // A while-loop becomes a for-loop only to be transformed: here, a
  // grid-stride loop unrolled with its loads in flight together.
  if (While)
    Out.push_back(chainStep(StridedBatches,
                            llvm::StringRef(While->Site).split('/').first,
                            {{"factor", 4}}));
  if (Staged.size() >= 2) {
    // Every site names its kernel first: "sgemm/for#0/A".
    llvm::StringRef Kernel = Staged.begin()->getKey().split('/').first;
    Out.push_back(chainStep(StageOperands, Kernel, {{"tile", 16}}));
  }
  return Out;
}

/// BadInput naming every parameter of \p Names that \p S lacks (a chain's
/// parameters are all positive integers).
static llvm::Error require(const Step &S,
                           std::initializer_list<llvm::StringRef> Names) {
  std::string Missing;
  for (llvm::StringRef Name : Names)
    if (S.Params.getInt(Name) <= 0)
      Missing += (Missing.empty() ? "'" : ", '") + Name.str() + "'";
  if (Missing.empty())
    return llvm::Error::success();
  return makeError(ErrorKind::BadInput,
                   "chain step '" + S.str() + "' needs a positive " + Missing);
}

llvm::Expected<StepChain> StepChain::decode(const Step &S) {
  llvm::StringRef Name = llvm::StringRef(S.Transform);
  if (!Name.consume_front(Prefix))
    return makeError(ErrorKind::Internal, "'" + S.str() + "' is no chain");
  auto P = [&](llvm::StringRef Param) { return S.Params.get(Param).str(); };
  StepChain C;
  C.Name = Name.str();
  C.Kernel = S.Site;
  if (Name == RegisterBlock) {
    if (llvm::Error E = require(S, {"y", "x", "tile"}))
      return std::move(E);
    // An output accumulated in memory is first kept in a register, where
    // the blocked copies can accumulate it.
    C.Links = {link("scalar-replace", {}, true, /*Optional=*/true),
               link("coarsen", {{"dim", "y"}, {"factor", P("y")}}),
               link("coarsen", {{"dim", "x"}, {"factor", P("x")}}),
               link("stage-shared", {{"tile", P("tile")}}, true)};
    C.Why = llvm::formatv("register blocking: each thread computes {0}x{1} "
                          "outputs (accumulated in registers), then every "
                          "operand is staged through shared memory in "
                          "tiles of {2}",
                          P("y"), P("x"), P("tile"));
    return C;
  }
  if (Name == RowsPerThread) {
    if (llvm::Error E = require(S, {"x", "y", "z", "factor"}))
      return std::move(E);
    C.Links = {
        link("block-size", {{"x", P("x")}, {"y", P("y")}, {"z", P("z")}}),
        link("coarsen", {{"dim", "y"}, {"factor", P("factor")}}),
        link("stage-shared", {}, true)};
    C.Why = llvm::formatv("the block keeps its tile with {0} times fewer "
                          "threads (block {1}x{2}x{3}), each thread taking {0} "
                          "rows, then every operand is staged",
                          P("factor"), P("x"), P("y"), P("z"));
    return C;
  }
  if (Name == StageOperands) {
    if (llvm::Error E = require(S, {"tile"}))
      return std::move(E);
    C.Links = {link("stage-shared", {{"tile", P("tile")}}, true)};
    C.Why = llvm::formatv("every operand staged through shared memory at "
                          "once (tiles of {0}): one operand alone leaves "
                          "the loop waiting on the other",
                          P("tile"));
    return C;
  }
  if (Name == PrivateCounts) {
    if (llvm::Error E = require(S, {"factor"}))
      return std::move(E);
    std::string Dim = P("dim");
    if (Dim != "x" && Dim != "y")
      return makeError(ErrorKind::BadInput,
                       "chain step '" + S.str() + "' needs dim=x or dim=y");
    C.Links = {link("coarsen", {{"dim", Dim}, {"factor", P("factor")}}),
               link("privatize-atomics", {}, true)};
    C.Why = llvm::formatv("each thread takes {0} elements along {1}, then "
                          "every block counts in its own __shared__ copy: "
                          "the copy's clear and merge are shared by {0} "
                          "times more elements",
                          P("factor"), Dim);
    return C;
  }
  if (Name == ShuffleTrees) {
    C.Links = {link("sequential-reduce", {}, true, /*Optional=*/true),
               link("warp-reduce", {}, true)};
    C.Why = "every interleaved tree of the kernel made halving, then every "
            "halving tree finished with warp shuffles";
    return C;
  }
  if (Name == StridedBatches) {
    if (llvm::Error E = require(S, {"factor"}))
      return std::move(E);
    ChainLink Unroll =
        link("unroll", {{"factor", P("factor")}, {"mode", "explicit"}}, true);
    Unroll.Requires.set("mode", "explicit");
    ChainLink Whiles = link("while-to-for", {}, true, /*Optional=*/true);
    Whiles.Consumes = true;
    C.Links = {Whiles, Unroll};
    C.Why = llvm::formatv("every counted while-loop written as a for-loop, "
                          "then every grid-stride loop unrolled {0} times "
                          "with no test between the copies, so that {0} "
                          "iterations' loads are in flight together",
                          P("factor"));
    return C;
  }
  return makeError(ErrorKind::BadInput,
                   "unknown chain '" + Name + "' in '" + S.str() +
                       "' (known: register-block, rows-per-thread, "
                       "stage-operands, private-counts, shuffle-trees, "
                       "strided-batches)");
}

std::string StepChain::describe() const { return "chain " + Name + ": " + Why; }

/// The next site of \p L in \p In: the first site of its transform for a
/// single link (the step's own check decides: the listing judges the
/// site's default parameters, and coarsening x after y is refused by
/// default), a legal one not yet taken for a link at every site.
static std::optional<Step> nextStep(const TransformRegistry &Registry,
                                    ParsedSource &In, llvm::StringRef Kernel,
                                    const ChainLink &L,
                                    const llvm::StringSet<> &Taken) {
  for (const Action &A : ActionSpace::enumerate(Registry, In, Kernel)) {
    if (A.Transform != L.Transform || (L.EverySite && !A.Legal) ||
        Taken.contains(A.Default.Site))
      continue;
    if (llvm::any_of(L.Requires.items(), [&](const auto &P) {
          return A.Default.Params.get(P.first) != P.second;
        }))
      continue;
    Step S = A.Default;
    S.Params = ParamValues();
    for (const auto &[Name, Value] : A.Default.Params.items())
      S.Params.set(Name, L.Params.has(Name) ? L.Params.get(Name) : Value);
    return S;
  }
  return std::nullopt;
}

llvm::Expected<ChainResult> StepChain::run(const TransformRegistry &Registry,
                                           const SourceParser &Parser,
                                           ParsedSource &From) const {
  ChainResult Out;
  ParsedSource *Current = &From;
  auto Context = [&] {
    std::string Text = "chain " + Name;
    if (!Out.Steps.empty())
      Text += " after " + std::to_string(Out.Steps.size()) + " step(s)";
    return Text;
  };
  for (const ChainLink &L : Links) {
    llvm::StringSet<> Taken;
    while (Taken.size() < MaxSitesPerLink) {
      std::optional<Step> Next = nextStep(Registry, *Current, Kernel, L, Taken);
      if (!Next)
        break;
      auto Result = StepRunner(Registry, Parser).run(*Current, *Next);
      if (!Result) {
        ErrorSummary Why = summarize(Result.takeError());
        return makeError(Why.Kind,
                         Context() + ": " + Next->str() + ": " + Why.Message);
      }
      Taken.insert(L.Consumes ? std::to_string(Taken.size()) : Next->Site);
      Out.Steps.push_back(Result->Applied);
      Out.Parsed = std::move(Result->Parsed);
      Current = Out.Parsed.get();
      if (!L.EverySite)
        break;
    }
    if (Taken.empty() && !L.Optional)
      return makeError(ErrorKind::NotApplicable,
                       Context() + ": no legal site for " + L.Transform);
  }
  return Out;
}
