//===- TransformRegistryTest.cpp - explicit registration -----------------===//

#include "optiml/Transform/TransformRegistry.h"
#include "optiml/Support/Error.h"
#include "transforms/RegisterTransforms.h"

#include "gtest/gtest.h"

#include <set>

using namespace optiml;

namespace {

/// A transform with a name and nothing else, to exercise the registry.
class NamedOnly : public Transform {
public:
  explicit NamedOnly(std::string Name)
      : Transform({std::move(Name), "test", SiteKind::Kernel}) {}
  llvm::Expected<Rewrite> plan(const Site &, const ParamValues &,
                               clang::ASTContext &) const override {
    return Rewrite([] { return llvm::Expected<EditSet>(EditSet()); });
  }
};

TEST(TransformRegistryTest, LibraryInListingOrder) {
  TransformRegistry R = makeTransformRegistry();
  EXPECT_EQ(R.names(), (std::vector<std::string>{"unroll",
                                                 "tile",
                                                 "hoist",
                                                 "fission",
                                                 "fusion",
                                                 "scalar-replace",
                                                 "stage-shared",
                                                 "pipeline-shared",
                                                 "sequential-reduce",
                                                 "warp-reduce",
                                                 "warp-scan",
                                                 "warp-per-row",
                                                 "vectorize-loop",
                                                 "while-to-for",
                                                 "restrict",
                                                 "read-only",
                                                 "pad-shared",
                                                 "aggregate-atomics",
                                                 "privatize-atomics",
                                                 "launch-bounds",
                                                 "fast-math",
                                                 "coarsen",
                                                 "vectorize",
                                                 "block-size",
                                                 "swap-xy",
                                                 "tensor-cores"}));
  ASSERT_NE(R.find("unroll"), nullptr);
  EXPECT_EQ(R.find("unroll")->siteKind(), SiteKind::Loop);
  EXPECT_EQ(R.find("block-size")->siteKind(), SiteKind::Kernel);
  EXPECT_EQ(R.find("stage-shared")->siteKind(), SiteKind::Buffer);
  EXPECT_EQ(R.find("pipeline-shared")->siteKind(), SiteKind::Loop);
  EXPECT_EQ(R.find("read-only")->siteKind(), SiteKind::Buffer);
  EXPECT_EQ(R.find("pad-shared")->siteKind(), SiteKind::Kernel);
  EXPECT_EQ(R.find("skew"), nullptr);
}

TEST(TransformRegistryTest, EveryParameterHasAFiniteDomainWithItsDefault) {
  TransformRegistry R = makeTransformRegistry();
  for (const Transform *T : R.all()) {
    std::set<std::string> Names;
    for (const ParamSpec &P : T->params()) {
      EXPECT_FALSE(P.Domain.empty()) << T->name().str() << "." << P.Name;
      EXPECT_TRUE(P.admits(P.Default)) << T->name().str() << "." << P.Name;
      EXPECT_NE(P.Name, "site") << "'site' is reserved";
      EXPECT_TRUE(Names.insert(P.Name).second) << P.Name;
      EXPECT_EQ(T->param(P.Name), &P);
    }
    EXPECT_EQ(T->param("nope"), nullptr);
    EXPECT_FALSE(T->summary().empty());
  }
}

TEST(TransformRegistryTest, RejectsASecondTransformOfTheSameName) {
  TransformRegistry R;
  ASSERT_FALSE(bool(R.add(std::make_unique<NamedOnly>("a"))));
  ASSERT_FALSE(bool(R.add(std::make_unique<NamedOnly>("b"))));
  ErrorSummary E = summarize(R.add(std::make_unique<NamedOnly>("a")));
  EXPECT_EQ(E.Kind, ErrorKind::Internal);
  EXPECT_EQ(E.Message, "transform 'a' is registered twice");
  EXPECT_EQ(R.names(), (std::vector<std::string>{"a", "b"}));
}

TEST(TransformRegistryTest, RegisteringTheLibraryTwiceFails) {
  TransformRegistry R;
  ASSERT_FALSE(bool(registerTransforms(R)));
  EXPECT_TRUE(bool(llvm::errorToBool(registerTransforms(R))));
}

} // namespace
