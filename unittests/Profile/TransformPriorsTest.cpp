//===- TransformPriorsTest.cpp - the profiler's priors and the registry ---===//
//
// Every transform the profiler can suggest exists, the stage-one priors
// and the descriptors' `addresses` say the same, and a name no transform
// has is an Internal error where the search reads the findings.
//
//===----------------------------------------------------------------------===//

#include "optiml/Profile/TransformPriors.h"
#include "ProfileTestUtil.h"
#include "RecordedRuns.h"
#include "optiml/Search/ProfileGuidedPriors.h"
#include "optiml/Support/Error.h"
#include "optiml/Transform/TransformRegistry.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

#include <set>

using namespace optiml;
using namespace optiml::test;

namespace {

/// The classes stage one reports, and descriptors may address.
const BottleneckKind Classes[] = {
    BottleneckKind::MemoryBound, BottleneckKind::ComputeBound,
    BottleneckKind::LatencyBound, BottleneckKind::TooFewWaves};

TEST(TransformPriorsTest, EveryTransformTheProfilerCanSuggestIsRegistered) {
  TransformRegistry R = makeTransformRegistry();
  ASSERT_FALSE(causePriors().empty());
  for (const CausePrior &C : causePriors()) {
    EXPECT_FALSE(C.Prior.empty()) << C.Name.str();
    for (const auto &[Name, Share] : C.Prior) {
      EXPECT_NE(R.find(Name), nullptr)
          << C.Name.str() << " suggests '" << Name << "'";
      EXPECT_GT(Share, 0) << C.Name.str() << ": " << Name;
    }
  }
}

TEST(TransformPriorsTest, StageOneNamesTheTransformsThatAddressTheClass) {
  TransformRegistry R = makeTransformRegistry();
  for (BottleneckKind K : Classes) {
    std::set<std::string> Weighted, Addressing;
    for (const CausePrior &C : causePriors())
      if (C.Class == K)
        for (const auto &Entry : C.Prior)
          Weighted.insert(Entry.first);
    for (const Transform *T : R.all())
      if (llvm::is_contained(T->descriptor().Addresses, toString(K)))
        Addressing.insert(T->name().str());
    EXPECT_FALSE(Weighted.empty()) << toString(K).str();
    EXPECT_EQ(Weighted, Addressing) << toString(K).str();
  }
}

TEST(TransformPriorsTest, DescriptorsAddressOnlyClassesTheProfilerReports) {
  std::set<std::string> Known;
  for (BottleneckKind K : Classes)
    Known.insert(toString(K).str());
  TransformRegistry R = makeTransformRegistry();
  for (const Transform *T : R.all())
    for (const std::string &Class : T->descriptor().Addresses)
      EXPECT_TRUE(Known.count(Class)) << T->name().str() << ": " << Class;
}

TEST(TransformPriorsTest, FindingsCarryTheirCausesPrior) {
  ProfileReport R = profile(input(Saxpy, 65536, 256, 16));
  ASSERT_FALSE(R.Findings.empty());
  EXPECT_EQ(R.Findings[0].Id, "dram-bound");
  EXPECT_EQ(R.Findings[0].Prior, priorFor(PriorCause::DramBound));
  EXPECT_EQ(priorFor(PriorCause::ShortLoopHint),
            (TransformPrior{{"unroll", 1.0}}));
}

TEST(TransformPriorsTest, AnUnknownNameIsAnInternalError) {
  TransformRegistry R = makeTransformRegistry();
  Finding F;
  F.Id = "dram-bound";
  F.Prior = {{"vectorize", 0.5}, {"vectorise", 0.5}};
  ErrorSummary E = summarize(checkPriorNames({F}, R));
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  EXPECT_EQ(E.Message.rfind("finding 'dram-bound' suggests transform "
                            "'vectorise', which is not registered (known: "
                            "unroll, tile, ",
                            0),
            0u)
      << E.Message;
  F.Prior = priorFor(PriorCause::DramBound);
  EXPECT_FALSE(llvm::errorToBool(checkPriorNames({F}, R)));
}

TEST(TransformPriorsTest, AHintsOwnPriorIsCheckedToo) {
  ProfileInput In;
  In.Hints.push_back({"reduction-loop", "softmax/for#1", {}, {}});
  In.Hints.push_back({"needs-tensor-cores", "", {}, {{"mma", 1}}});
  ProfileReport P = profile(In);
  ASSERT_EQ(P.Findings.size(), 2u);
  TransformRegistry R = makeTransformRegistry();
  EXPECT_FALSE(llvm::errorToBool(checkPriorNames({P.Findings[0]}, R)));
  ErrorSummary E = summarize(checkPriorNames(P.Findings, R));
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  EXPECT_NE(E.Message.find("'hint:needs-tensor-cores' suggests transform "
                           "'mma'"),
            std::string::npos)
      << E.Message;
}

TEST(TransformPriorsTest, TheRecordedRunsFindingsNameRegisteredTransforms) {
  TransformRegistry R = makeTransformRegistry();
  ProfileInput Softmax32 = input(Softmax, 32, 128, 26);
  Softmax32.Hints.push_back({"reduction-loop", "softmax/for#1", {}, {}});
  ProfileInput Spilling = input(Sgemm, 65536, 256, 255);
  Spilling.Usage->SpillStoreBytes = 96;
  for (const ProfileInput &In :
       {input(Saxpy, 65536, 256, 16), input(Sgemm, 65536, 256, 32),
        input(Transpose, 65536, 1024, 10, &TransposeAccess),
        input(TransposeStagedUnpadded, 65536, 1024, 10,
              &TransposeStagedUnpaddedAccess),
        input(BlockSumTree, 4096, 256, 16, &BlockSumTreeAccess),
        input(Diverge, 65536, 256, 16, &DivergeAccess),
        input(Scale48, 65536, 48, 16, &Scale48Access), Softmax32, Spilling}) {
    ProfileReport P = profile(In);
    EXPECT_FALSE(P.Findings.empty());
    llvm::Error E = checkPriorNames(P.Findings, R);
    EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  }
}

} // namespace
