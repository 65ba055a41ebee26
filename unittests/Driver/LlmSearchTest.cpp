//===- LlmSearchTest.cpp - a proposer inside --optimize, no GPU ----------===//
//
// The guide between a proposer and the search, with a scripted proposer
// (what a model would answer, judged by the real validator) and a fake
// measurer standing in for the GPU: edits become moves that are measured,
// picks weigh the listed moves, failures reach the next prompt, a silent
// model leaves the heuristic search running, and recorded proposals from a
// --propose folder are replayed.
//
//===----------------------------------------------------------------------===//

#include "driver/Optimize/OptimizeSearch.h"
#include "driver/Search/LlmGuide.h"
#include "driver/Search/LlmSession.h"
#include "driver/Search/SearchExpander.h"
#include "optiml/LLM/DirectoryProposer.h"
#include "optiml/Rewrite/SourceParser.h"
#include "optiml/Support/Error.h"
#include "transforms/RegisterTransforms.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

using namespace optiml;

namespace {

std::string saxpyPath() {
  return std::string(OPTIML_UNITTEST_INPUTS) + "/../../../examples/saxpy.cu";
}

/// saxpy with the multiply-add spelt as fmaf: a legal, different kernel.
const char *FmaEdit =
    "__global__ void saxpy(int n, float a, const float *x, float *y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n)\n"
    "    y[i] = fmaf(a, x[i], y[i]);\n"
    "}\n";

/// Answers every round with the same raw proposals, judged by the real
/// validator, and remembers what it was told.
class ScriptedProposer : public Proposer {
public:
  ScriptedProposer(const ProposalValidator &V, std::vector<RawProposal> Raw)
      : V(V), Raw(std::move(Raw)) {}

  llvm::Expected<ProposalBatch> propose(const ProposalContext &C) override {
    Contexts.push_back(C.Trajectory);
    if (Fail)
      return makeError(ErrorKind::BadInput,
                       "cannot reach http://127.0.0.1:9/v1: connection "
                       "refused");
    ProposalBatch B;
    B.Model = "scripted";
    B.PromptVersion = "propose/1";
    B.TokensIn = 100;
    B.TokensOut = 20;
    for (const RawProposal &R : Raw)
      B.Proposals.push_back(V.validate(R, C.State, C.Kernel));
    return B;
  }

  const ProposalValidator &V;
  std::vector<RawProposal> Raw;
  bool Fail = false;
  std::vector<std::vector<TrajectoryEntry>> Contexts;
};

/// Edits are 1.5x faster (or fail, when asked to), every other step 1.1x
/// per step, unroll fails.
class FakeMeasurer : public Measurer {
public:
  Measurement measure(const Candidate &C) override {
    Measurement M;
    M.Status = CandidateStatus::Ok;
    double Speedup = 1;
    for (const Step &S : C.Steps) {
      if (S.Transform == "unroll") {
        M.Status = CandidateStatus::VerifyFailed;
        M.Log = "outputs differ at [7]";
        return M;
      }
      bool Edit = S.Transform == EditStepName;
      if (Edit && FailEdits) {
        M.Status = CandidateStatus::VerifyFailed;
        M.Log = "outputs differ at [7]";
        return M;
      }
      Speedup *= Edit ? 1.5 : 1.1;
      Edits += Edit;
    }
    M.Speedup = Speedup;
    M.Threshold = 0.02;
    M.Noise = 0.005;
    M.Significant = !C.Steps.empty();
    M.ReferenceTimeNs = 1000;
    M.TimeNs = 1000 / Speedup;
    return M;
  }
  unsigned Edits = 0;
  bool FailEdits = false;
};

RawProposal editProposal(const char *Code, double Confidence = 0.9) {
  RawProposal R;
  R.Kind = ProposalKind::Edit;
  R.Code = Code;
  R.Confidence = Confidence;
  R.Rationale = "one fused multiply-add";
  return R;
}

RawProposal structuredProposal(const std::string &Action) {
  RawProposal R;
  R.Kind = ProposalKind::Structured;
  R.Action = Action;
  R.Confidence = 1;
  R.Rationale = "say why";
  return R;
}

class LlmSearchTest : public ::testing::Test {
protected:
  LlmSearchTest()
      : DB(".", {"-std=c++17"}),
        Parser(DB, CudaToolchain::detect("optiml-unittests", "", "")),
        Registry(makeTransformRegistry()), Validator(Registry, Parser, nullptr),
        Log(LogText) {}

  std::unique_ptr<SearchExpander> expander() {
    auto Source = KernelSource::fromFile(saxpyPath());
    EXPECT_TRUE(bool(Source));
    auto P = Parser.parse(*Source);
    EXPECT_TRUE(bool(P));
    return std::make_unique<SearchExpander>(Registry, Parser, std::move(*P),
                                            "saxpy", "", "sm_90");
  }

  /// The root's moves, as the search sees them first.
  std::vector<ScoredAction> rootMoves(SearchExpander &E) {
    Trace None;
    Measurement M;
    M.Status = CandidateStatus::Ok;
    auto Moves = E.actions({None, E.rootHash(), M});
    EXPECT_TRUE(bool(Moves));
    return Moves ? *Moves : std::vector<ScoredAction>();
  }

  llvm::Expected<OptimizeOutcome> search(SearchExpander &E, LlmGuide &G,
                                         Measurer &M, llvm::StringRef Dir) {
    auto Db = Database::open(":memory:");
    if (!Db)
      return Db.takeError();
    auto Id = Db->kernelId({0, E.rootHash(), "saxpy", "{}", "fake", "sm_90"});
    if (!Id)
      return Id.takeError();
    OptimizeOptions O;
    O.Strategy = "mcts";
    // Enough for a proposal after the first children's results, which
    // come back one at a time.
    O.Budget = 8;
    O.OutputPath = (Dir + "/saxpy.opt.cu").str();
    return runOptimizeSearch(E, M, *Db, *Id, "saxpy", O, Log, false, &G);
  }

  clang::tooling::FixedCompilationDatabase DB;
  SourceParser Parser;
  TransformRegistry Registry;
  ProposalValidator Validator;
  std::string LogText;
  llvm::raw_string_ostream Log;
};

TEST_F(LlmSearchTest, AnEditBecomesAMoveThatIsMeasuredAndReported) {
  auto E = expander();
  ScriptedProposer P(Validator, {editProposal(FmaEdit)});
  LlmGuide G(P, Validator, "saxpy", "", {}, Log);
  E->setGuide(&G);
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-llm", Dir));
  FakeMeasurer M;
  auto Out = search(*E, G, M, Dir);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());

  EXPECT_GT(M.Edits, 0u);
  EXPECT_NE(Out->BestTrace.find("edit(site=saxpy,id="), std::string::npos)
      << Out->BestTrace;
  auto Written = llvm::MemoryBuffer::getFile((Dir + "/saxpy.opt.cu").str());
  ASSERT_TRUE(bool(Written));
  EXPECT_NE((*Written)->getBuffer().find("fmaf(a, x[i], y[i])"),
            llvm::StringRef::npos);
  auto J = llvm::MemoryBuffer::getFile(Out->ReportJSON);
  ASSERT_TRUE(bool(J));
  nlohmann::json R = nlohmann::json::parse((*J)->getBuffer().str());
  EXPECT_EQ(R["llm"]["model"], "scripted");
  EXPECT_GE(R["llm"]["calls"].get<unsigned>(), 1u);
  EXPECT_GE(R["llm"]["accepted"].get<unsigned>(), 1u);
  EXPECT_EQ(R["llm"]["tokens_in"].get<int64_t>(),
            100 * R["llm"]["calls"].get<int64_t>());
  bool Motivated = false;
  for (const auto &S : R["steps"])
    if (S["step"].get<std::string>().find("edit(") == 0)
      Motivated = S["motivation"].get<std::string>().find(
                      "scripted (prompt propose/1") != std::string::npos &&
                  S["motivation"].get<std::string>().find(
                      "one fused multiply-add") != std::string::npos;
  EXPECT_TRUE(Motivated) << R["steps"].dump(2);
  auto Md = llvm::MemoryBuffer::getFile(Out->ReportMarkdown);
  ASSERT_TRUE(bool(Md));
  EXPECT_NE((*Md)->getBuffer().find("## Language model"), llvm::StringRef::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST_F(LlmSearchTest, PicksWeighListedMovesAndPriorPolicyAddsNone) {
  auto Plain = expander();
  std::vector<ScoredAction> Before = rootMoves(*Plain);
  ASSERT_GT(Before.size(), 2u);
  // The heuristic's first move (a default, so legal), which the model
  // likes best.
  std::string Liked = Before.front().Action.str();

  auto E = expander();
  ScriptedProposer P(Validator,
                     {structuredProposal(Liked), editProposal(FmaEdit)});
  LlmGuideOptions O;
  O.Policy = LlmPolicy::Prior;
  LlmGuide G(P, Validator, "saxpy", "", O, Log);
  E->setGuide(&G);
  std::vector<ScoredAction> After = rootMoves(*E);
  ASSERT_EQ(After.size(), Before.size()); // No edit move under `prior`.
  double Sum = 0, LikedPrior = 0;
  for (const ScoredAction &A : After) {
    Sum += A.Prior;
    if (A.Action.str() == Liked)
      LikedPrior = A.Prior;
  }
  double BeforeSum = 0;
  for (const ScoredAction &A : Before)
    BeforeSum += A.Prior;
  // Half the mass goes to the model's one usable pick (the edit is not a
  // listed move, so under `prior` it takes no share).
  EXPECT_NEAR(LikedPrior / Sum,
              (Before.front().Prior + BeforeSum) / (2 * BeforeSum), 1e-9);
  EXPECT_EQ(G.usage().Accepted, 2u);
}

TEST_F(LlmSearchTest, ExpandPolicyAddsTheEditWithoutReweighing) {
  auto E = expander();
  ScriptedProposer P(Validator, {editProposal(FmaEdit)});
  LlmGuideOptions O;
  O.Policy = LlmPolicy::Expand;
  LlmGuide G(P, Validator, "saxpy", "", O, Log);
  E->setGuide(&G);
  std::vector<ScoredAction> Moves = rootMoves(*E);
  ASSERT_FALSE(Moves.empty());
  const ScoredAction &Edit = Moves.back();
  EXPECT_EQ(Edit.Action.Transform, EditStepName.str());
  // Applying it gives the edited source; replaying it does too.
  Trace None;
  auto Hash = E->apply(None, E->rootHash(), Edit.Action);
  ASSERT_TRUE(bool(Hash)) << llvm::toString(Hash.takeError());
  EXPECT_NE(E->sourceText(Hash->Hash)->find("fmaf("), std::string::npos);
  EXPECT_EQ(toString(Hash->Steps), Edit.Action.str());
  Step Unknown = Edit.Action;
  Unknown.Params = ParamValues();
  Unknown.Params.set("id", "0000");
  auto Missing = E->apply(None, E->rootHash(), Unknown);
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(summarize(Missing.takeError()).Kind, ErrorKind::NotApplicable);
}

TEST_F(LlmSearchTest, RejectedProposalsAreNotedAndFailuresReachThePrompt) {
  auto E = expander();
  // A signature change and an unknown transform: both dropped with reasons.
  ScriptedProposer P(
      Validator,
      {editProposal("__global__ void saxpy(int n, float *y) { }\n"),
       structuredProposal("teleport(site=saxpy/for#0)"),
       editProposal(FmaEdit)});
  LlmGuide G(P, Validator, "saxpy", "", {}, Log);
  E->setGuide(&G);
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-llm", Dir));
  FakeMeasurer M;
  M.FailEdits = true;
  auto Out = search(*E, G, M, Dir);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  const ProposerUsage &U = G.usage();
  EXPECT_GE(U.Proposals, 3u);
  bool Signature = false, Unknown = false;
  for (const std::string &N : U.Notes) {
    Signature |= N.find("edit proposal dropped") == 0;
    Unknown |= N.find("'teleport(site=saxpy/for#0)' dropped") !=
               std::string::npos;
  }
  EXPECT_TRUE(Signature && Unknown) << llvm::join(U.Notes, "\n");
  // A later prompt hears what was measured, failures included.
  bool SawFailure = false;
  for (const auto &T : P.Contexts)
    for (const TrajectoryEntry &S : T)
      SawFailure |=
          S.Step == "(tried elsewhere) a free-form edit of the kernel (one "
                    "fused multiply-add)" &&
          S.Outcome == "verify_failed: outputs differ at [7]";
  EXPECT_TRUE(SawFailure);
  llvm::sys::fs::remove_directories(Dir);
}

TEST_F(LlmSearchTest, ASilentModelLeavesTheHeuristicSearchRunning) {
  auto E = expander();
  ScriptedProposer P(Validator, {});
  P.Fail = true;
  LlmGuide G(P, Validator, "saxpy", "", {}, Log);
  E->setGuide(&G);
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-llm", Dir));
  FakeMeasurer M;
  auto Out = search(*E, G, M, Dir);
  ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
  EXPECT_TRUE(Out->Improved); // The heuristic moves still ran.
  EXPECT_EQ(P.Contexts.size(), 1u); // Asked once, then left alone.
  EXPECT_NE(LogText.find("warning: the model could not be asked: cannot "
                         "reach http://127.0.0.1:9/v1"),
            std::string::npos);
  ASSERT_FALSE(G.usage().Notes.empty());
  EXPECT_NE(G.usage().Notes.back().find("the model fell silent"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST_F(LlmSearchTest, RecordedProposalsAreReplayedAtTheRootOnly) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-props", Dir));
  nlohmann::json L = {
      {"kernel", "saxpy"},
      {"model", "smollm2"},
      {"prompt_version", "propose/1"},
      {"source_hash", "0"},
      {"proposals",
       {{{"kind", "edit"}, {"status", "accepted"}, {"code", FmaEdit},
         {"confidence", 0.8}, {"rationale", "fma"}},
        {{"kind", "edit"}, {"status", "rejected"}, {"code", "x"}},
        {{"kind", "edit"}, {"status", "accepted"}}}}};
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS((Dir + "/proposals.json").str(), EC);
    ASSERT_FALSE(EC);
    OS << L.dump();
  }
  auto P = DirectoryProposer::load(Dir, "saxpy", Validator);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->size(), 1u);
  auto E = expander();
  LlmGuide G(*P, Validator, "saxpy", "", {}, Log);
  E->setGuide(&G);
  std::vector<ScoredAction> Moves = rootMoves(*E);
  EXPECT_TRUE(llvm::any_of(Moves, [](const ScoredAction &A) {
    return A.Action.Transform == EditStepName.str();
  }));
  std::string Notes = llvm::join(G.usage().Notes, "\n");
  EXPECT_NE(Notes.find("proposals from " + Dir.str().str() + " (made by smollm2)"),
            std::string::npos);
  EXPECT_NE(Notes.find("has no code: skipped"), std::string::npos);
  EXPECT_NE(Notes.find("another version of the source"), std::string::npos);
  // Later states get nothing more from the folder.
  auto Source = KernelSource::fromFile(saxpyPath());
  ASSERT_TRUE(bool(Source));
  auto Parsed = Parser.parse(*Source);
  ASSERT_TRUE(bool(Parsed));
  ProposalContext Again{**Parsed, "saxpy"};
  auto Second = P->propose(Again);
  ASSERT_TRUE(bool(Second));
  EXPECT_TRUE(Second->Proposals.empty());

  auto Wrong = DirectoryProposer::load(Dir, "daxpy", Validator);
  ASSERT_FALSE(bool(Wrong));
  EXPECT_NE(llvm::toString(Wrong.takeError())
                .find("the proposals are for kernel 'saxpy', not 'daxpy'"),
            std::string::npos);
  auto None =
      DirectoryProposer::load((Dir + "/nowhere").str(), "saxpy", Validator);
  ASSERT_FALSE(bool(None));
  EXPECT_NE(llvm::toString(None.takeError()).find("--propose -o"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(LlmPolicyTest, NamesAreCheckedWithAClearMessage) {
  EXPECT_TRUE(bool(parseLlmPolicy("expand")));
  auto Bad = parseLlmPolicy("greedy");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "unknown --llm-policy 'greedy' (choose expand, prior or both)");
}

} // namespace
