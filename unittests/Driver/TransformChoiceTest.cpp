//===- TransformChoiceTest.cpp - --transforms, --exclude, numerics -------===//

#include "driver/Session/TransformChoice.h"
#include "optiml/Transform/TransformRegistry.h"
#include "transforms/RegisterTransforms.h"

#include "llvm/ADT/STLExtras.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// The message of \p E, or "" for success.
std::string messageOf(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

class TransformChoiceTest : public ::testing::Test {
protected:
  TransformChoiceTest() : Registry(makeTransformRegistry()) {}

  TransformSelection selection(const TransformChoice &C, double RTol) {
    auto S = C.select(Registry, RTol);
    if (!S) {
      ADD_FAILURE() << llvm::toString(S.takeError());
      return {};
    }
    return *S;
  }

  /// The error select() gives, or "" when it succeeds.
  std::string refusal(const TransformChoice &C, double RTol) {
    auto S = C.select(Registry, RTol);
    return S ? std::string() : messageOf(S.takeError());
  }

  TransformRegistry Registry;
};

TEST_F(TransformChoiceTest, EveryTransformByDefaultUnderALooseTolerance) {
  TransformSelection S = selection(TransformChoice(), NumericsRTolFloor);
  EXPECT_EQ(S.Names, Registry.names());
  EXPECT_TRUE(S.Notes.empty());
}

TEST_F(TransformChoiceTest, NumericsNeedATolerance) {
  TransformSelection S = selection(TransformChoice(), 1e-6);
  EXPECT_NE(llvm::find(S.Notes,
                       "fast-math changes numerics and the spec's rtol 1e-06 "
                       "is below 1e-05: not searched (name it in "
                       "--transforms to search it)"),
            S.Notes.end());
  size_t Numerical = llvm::count_if(
      Registry.all(), [](const Transform *T) { return T->changesNumerics(); });
  EXPECT_EQ(S.Notes.size(), Numerical);
  // Exactly the transforms that change numerics are left out.
  for (const Transform *T : Registry.all())
    EXPECT_EQ(llvm::is_contained(S.Names, T->name()), !T->changesNumerics())
        << T->name().str();
  EXPECT_TRUE(llvm::is_contained(S.Names, "unroll"));
  EXPECT_FALSE(llvm::is_contained(S.Names, "fast-math"));
}

TEST_F(TransformChoiceTest, ExactSpecsKeepNumericsOut) {
  EXPECT_FALSE(
      llvm::is_contained(selection(TransformChoice(), 0).Names, "fast-math"));
}

TEST_F(TransformChoiceTest, IntegerDataNeedsNoTolerance) {
  auto S = TransformChoice().select(Registry, 0, /*IntegerOnly=*/true);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Names, Registry.names());
  EXPECT_TRUE(S->Notes.empty());
}

TEST_F(TransformChoiceTest, NamingATransformIsConsent) {
  TransformSelection S =
      selection(TransformChoice({"fast-math", "unroll"}, {}), 0);
  // In the registry's order, whatever the order on the command line.
  EXPECT_EQ(S.Names, (std::vector<std::string>{"unroll", "fast-math"}));
  EXPECT_TRUE(S.Notes.empty());
}

TEST_F(TransformChoiceTest, OnlyAndExclude) {
  TransformChoice Only({"restrict", "unroll"}, {});
  EXPECT_TRUE(Only.admits("unroll"));
  EXPECT_FALSE(Only.admits("tile"));
  TransformChoice Not({}, {"unroll"});
  EXPECT_FALSE(Not.admits("unroll"));
  EXPECT_TRUE(Not.admits("tile"));
  TransformSelection S = selection(Not, 1e-3);
  EXPECT_EQ(S.Names.size(), Registry.names().size() - 1);
  EXPECT_FALSE(llvm::is_contained(S.Names, "unroll"));
}

TEST_F(TransformChoiceTest, UnknownNamesListTheKnownOnes) {
  std::string Unknown =
      messageOf(TransformChoice({"unrol"}, {}).check(Registry));
  EXPECT_EQ(Unknown.rfind("--transforms: unknown transform 'unrol' "
                          "(transforms: ",
                          0),
            0u)
      << Unknown;
  for (const std::string &N : Registry.names())
    EXPECT_NE(Unknown.find(N), std::string::npos) << N;
  EXPECT_EQ(messageOf(TransformChoice({}, {"x"}).check(Registry))
                .rfind("--exclude: unknown transform 'x'", 0),
            0u);
  EXPECT_EQ(messageOf(TransformChoice({"tile"}, {"tile"}).check(Registry)),
            "'tile' is in both --transforms and --exclude: choose one");
  EXPECT_EQ(messageOf(TransformChoice({"tile"}, {"unroll"}).check(Registry)),
            "");
}

TEST_F(TransformChoiceTest, NothingLeftToSearchIsAnError) {
  EXPECT_EQ(refusal(TransformChoice({}, Registry.names()), 1),
            "--transforms and --exclude leave no transform to search");
  // Only the transforms that change numerics admitted, and the tolerance
  // refuses them: the note says why.
  std::vector<std::string> Exact;
  for (const Transform *T : Registry.all())
    if (!T->changesNumerics())
      Exact.push_back(T->name().str());
  EXPECT_NE(
      refusal(TransformChoice({}, Exact), 0).find(" changes numerics and the "),
      std::string::npos);
}

} // namespace
