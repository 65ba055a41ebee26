//===- PragmaSpecParserTest.cpp - kernel specs from pragma marks ----------===//

#include "optiml/Spec/PragmaSpecParser.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// A mark at k.cu:5:1 whose clauses are \p Clauses; without the source
/// text, clause offset O is reported at column 16 + O.
KernelMark mark(llvm::StringRef Clauses) {
  return KernelMark{SourcePos{"k.cu", 5, 1}, Clauses.str()};
}

SpecDraft parse(llvm::StringRef Clauses) {
  KernelMark M = mark(Clauses);
  auto D = PragmaSpecParser::parse(M, MarkLocator(M));
  if (!D) {
    ADD_FAILURE() << summarize(D.takeError()).Message;
    return {};
  }
  return std::move(*D);
}

std::string error(llvm::StringRef Clauses) {
  KernelMark M = mark(Clauses);
  auto D = PragmaSpecParser::parse(M, MarkLocator(M));
  if (D) {
    ADD_FAILURE() << "parsed: " << Clauses.str();
    return "";
  }
  ErrorSummary S = summarize(D.takeError());
  EXPECT_EQ(S.Kind, ErrorKind::BadInput);
  return S.Message;
}

/// "k.cu:5:<column of \p Needle in \p Clauses>: error: ".
std::string at(llvm::StringRef Clauses, llvm::StringRef Needle) {
  return "k.cu:5:" + std::to_string(16 + Clauses.find(Needle)) + ": error: ";
}

const ArgDraft &argNamed(const SpecDraft &D, llvm::StringRef Name) {
  for (const ArgDraft &A : D.Args)
    if (A.Name == Name)
      return A;
  static ArgDraft None;
  ADD_FAILURE() << "no argument " << Name.str();
  return None;
}

const char *Full =
    "kernel sizes(M = 4096, N = 4096, K = 4096) "
    "in(A[M * K], B[K * N]) out(C[M * N]) inout(D[N]) "
    "scalar(m = M, n = N, k = K, alpha = 2.5) "
    "grid((N + 15) / 16, (M + 15) / 16) block(16, 16) shmem(0) "
    "dist(A = uniform(-1, 1), B = normal(0, 1), idx = int(0, N - 1), "
    "w = index(1, 0), c = constant(3)) "
    "tolerance(rtol = 1e-4, atol = 1e-4, norm = 1e-5) seeds(1, 2) "
    "instance(odd: M = 133, N = 97, K = 71) instance(tiny: M = 1, N = 1, K = "
    "1)";

TEST(PragmaSpecParserTest, SizesRolesAndScalars) {
  SpecDraft D = parse(Full);
  EXPECT_EQ(D.From, SpecDraft::Origin::Pragma);
  EXPECT_EQ(D.Pos.Line, 5u);
  ASSERT_EQ(D.Sizes.size(), 3u);
  EXPECT_EQ(D.Sizes[0].first, "M");
  EXPECT_EQ(D.Sizes[1].second.Text, "4096");
  EXPECT_EQ(D.Sizes[2].first, "K");
  EXPECT_EQ(argNamed(D, "A").Role, ArgRole::In);
  EXPECT_EQ(argNamed(D, "A").Length->Text, "M * K");
  EXPECT_EQ(argNamed(D, "B").Length->Text, "K * N");
  EXPECT_EQ(argNamed(D, "C").Role, ArgRole::Out);
  EXPECT_EQ(argNamed(D, "D").Role, ArgRole::InOut);
  EXPECT_EQ(argNamed(D, "alpha").Role, ArgRole::Scalar);
  EXPECT_EQ(argNamed(D, "alpha").Value->Text, "2.5");
  EXPECT_FALSE(argNamed(D, "alpha").Length);
  // Positions: the argument's name and its expression.
  EXPECT_EQ(argNamed(D, "B").Pos.Column, 16 + std::string(Full).find("B[K"));
  EXPECT_EQ(argNamed(D, "B").Length->Pos.Column,
            16 + std::string(Full).find("K * N"));
}

TEST(PragmaSpecParserTest, LaunchToleranceSeedsInstances) {
  SpecDraft D = parse(Full);
  ASSERT_TRUE(D.Grid && D.Block && D.SharedMemory && D.Seeds);
  ASSERT_EQ(D.Grid->Dims.size(), 2u);
  EXPECT_EQ(D.Grid->Dims[0].Text, "(N + 15) / 16");
  EXPECT_EQ(D.Grid->Dims[1].Text, "(M + 15) / 16");
  EXPECT_EQ(D.Block->Dims.size(), 2u);
  EXPECT_EQ(D.SharedMemory->Text, "0");
  EXPECT_EQ(D.RTol->Text, "1e-4");
  EXPECT_EQ(D.ATol->Text, "1e-4");
  EXPECT_EQ(D.NormTol->Text, "1e-5");
  ASSERT_EQ(D.Seeds->Dims.size(), 2u);
  EXPECT_EQ(D.Seeds->Dims[1].Text, "2");
  ASSERT_EQ(D.Instances.size(), 2u);
  EXPECT_EQ(D.Instances[0].Name, "odd");
  ASSERT_EQ(D.Instances[0].Sizes.size(), 3u);
  EXPECT_EQ(D.Instances[0].Sizes[1].first, "N");
  EXPECT_EQ(D.Instances[0].Sizes[1].second.Text, "97");
  EXPECT_EQ(D.Instances[1].Name, "tiny");
}

TEST(PragmaSpecParserTest, Distributions) {
  SpecDraft D = parse(Full);
  const auto &A = argNamed(D, "A").Dist;
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Kind, "uniform");
  ASSERT_EQ(A->Params.size(), 2u);
  EXPECT_EQ(A->Params[0].Text, "-1");
  EXPECT_EQ(argNamed(D, "B").Dist->Kind, "normal");
  // A distribution may come before (or without) the argument's role.
  const ArgDraft &Idx = argNamed(D, "idx");
  EXPECT_FALSE(Idx.Role);
  EXPECT_EQ(Idx.Dist->Kind, "int");
  EXPECT_EQ(Idx.Dist->Params[1].Text, "N - 1");
  EXPECT_EQ(argNamed(D, "w").Dist->Params.size(), 2u);
  EXPECT_EQ(argNamed(D, "c").Dist->Kind, "constant");
  SpecDraft Mod = parse("kernel dist(w = index(2, 1, N)) in(w[N])");
  EXPECT_EQ(argNamed(Mod, "w").Dist->Params.size(), 3u);
  EXPECT_EQ(argNamed(Mod, "w").Role, ArgRole::In);
}

TEST(PragmaSpecParserTest, ClauseOrderIsFree) {
  SpecDraft D = parse("kernel block(256) out(y[N]) grid(N / 256) "
                      "sizes(N = 1 << 20) tolerance(atol = 0)");
  EXPECT_EQ(D.Sizes.size(), 1u);
  EXPECT_EQ(D.Block->Dims[0].Text, "256");
  EXPECT_EQ(argNamed(D, "y").Role, ArgRole::Out);
  EXPECT_TRUE(D.ATol && !D.RTol);
}

TEST(PragmaSpecParserTest, SecondMarkIsAppendedWithItsKernelWord) {
  SpecDraft D = parse("kernel sizes(N = 4) kernel in(x[N])");
  EXPECT_EQ(argNamed(D, "x").Role, ArgRole::In);
}

TEST(PragmaSpecParserTest, UnknownClause) {
  const char *C = "kernel sizes(N = 4) size(M = 2)";
  EXPECT_EQ(error(C),
            at(C, "size(M") +
                "unknown clause 'size' (did you mean 'sizes'?); "
                "expected one of sizes, in, out, inout, scalar, null, "
                "alias, symbol, grid, block, shmem, dist, tolerance, seeds, "
                "template, instance, repeat, swap, then, before, cooperative");
}

TEST(PragmaSpecParserTest, MarkMustStartWithKernel) {
  EXPECT_EQ(error("sizes(N = 4)")
                .rfind("k.cu:5:16: error: the mark does not "
                       "start with 'kernel'",
                       0),
            0u);
}

TEST(PragmaSpecParserTest, UnbalancedParentheses) {
  const char *Open = "kernel sizes(N = 4 in(x[N])";
  EXPECT_EQ(error(Open), at(Open, "(N") +
                             "unbalanced parenthesis: this '(' is never "
                             "closed; expected ')'");
  const char *Stray = "kernel grid(1)) block(1)";
  EXPECT_EQ(error(Stray).rfind(at(Stray, ") block") +
                                   "unbalanced parenthesis: ')' without a "
                                   "matching opening one",
                               0),
            0u);
  const char *Crossed = "kernel in(x[N)]";
  EXPECT_EQ(error(Crossed).rfind(at(Crossed, ")]") +
                                     "unbalanced parenthesis: ')' closes the "
                                     "'['",
                                 0),
            0u);
}

TEST(PragmaSpecParserTest, TwoRolesForOneName) {
  const char *C = "kernel in(x[N]) out(x[M])";
  EXPECT_EQ(error(C), at(C, "x[M]") +
                          "'x' is given two roles, 'in' and 'out'; expected "
                          "one role per parameter (inout(...) for a buffer "
                          "that is read and written)");
}

TEST(PragmaSpecParserTest, BufferWithoutLength) {
  const char *C = "kernel in(x, y[N])";
  EXPECT_EQ(error(C), at(C, "x,") +
                          "buffer 'x' has no length; expected x[LENGTH], "
                          "e.g. x[N]");
  EXPECT_NE(error("kernel in(x[])").find("empty length for 'x'"),
            std::string::npos);
}

TEST(PragmaSpecParserTest, MalformedItems) {
  EXPECT_NE(error("kernel sizes(N 4)")
                .find("'N 4' is not an assignment; "
                      "expected NAME = VALUE"),
            std::string::npos);
  EXPECT_NE(error("kernel sizes(N = )").find("no value after '='"),
            std::string::npos);
  EXPECT_NE(error("kernel sizes(1N = 4)").find("'1N' is not a valid"),
            std::string::npos);
  EXPECT_NE(error("kernel sizes(N = 4,, M = 2)")
                .find("empty item in "
                      "'sizes(...)'"),
            std::string::npos);
  EXPECT_NE(error("kernel sizes(N = 4, N = 5)")
                .find("size 'N' is defined "
                      "twice"),
            std::string::npos);
  EXPECT_NE(error("kernel sizes(min = 4)").find("'min' is a function name"),
            std::string::npos);
  EXPECT_NE(error("kernel grid").find("clause 'grid' has no '('"),
            std::string::npos);
}

TEST(PragmaSpecParserTest, LaunchClauses) {
  EXPECT_NE(error("kernel grid(1, 2, 3, 4)")
                .find("'grid' has 4 dimensions; "
                      "expected 1 to 3"),
            std::string::npos);
  EXPECT_NE(error("kernel block(1) block(2)")
                .find("clause 'block' is given "
                      "twice"),
            std::string::npos);
  EXPECT_NE(error("kernel shmem(1, 2)").find("'shmem' has 2 values"),
            std::string::npos);
}

TEST(PragmaSpecParserTest, BadDistributions) {
  const char *Unknown = "kernel dist(x = gauss(0, 1))";
  EXPECT_EQ(error(Unknown), at(Unknown, "gauss") +
                                "'gauss(0, 1)' is not a distribution; "
                                "expected uniform, normal, int, index, "
                                "constant, offsets, permutation, sorted "
                                "with their arguments, e.g. "
                                "uniform(-1, 1)");
  EXPECT_NE(error("kernel dist(x = uniform(0))")
                .find("distribution 'uniform' has 1 arguments; expected "
                      "uniform(lo, hi)"),
            std::string::npos);
  EXPECT_NE(error("kernel dist(x = index(1, 2, 3, 4))")
                .find("index(scale, "
                      "offset[, mod])"),
            std::string::npos);
  EXPECT_NE(error("kernel dist(x = uniform(0, 1) + 1)")
                .find("unexpected "
                      "text after"),
            std::string::npos);
  EXPECT_NE(error("kernel dist(x = constant(1), x = constant(2))")
                .find("'x' is given two distributions"),
            std::string::npos);
}

TEST(PragmaSpecParserTest, BadToleranceAndInstances) {
  EXPECT_NE(error("kernel tolerance(rel = 1)")
                .find("unknown tolerance "
                      "'rel'; expected rtol, "
                      "atol or norm"),
            std::string::npos);
  EXPECT_NE(error("kernel tolerance(rtol = 1, rtol = 2)").find("given twice"),
            std::string::npos);
  EXPECT_NE(error("kernel instance(N = 4)").find("instance has no name"),
            std::string::npos);
  EXPECT_NE(error("kernel instance(default: N = 4)")
                .find("'default' is "
                      "taken"),
            std::string::npos);
  EXPECT_NE(error("kernel instance(a: N = 4) instance(a: N = 5)")
                .find("'a' is taken"),
            std::string::npos);
  EXPECT_NE(error("kernel instance(a:)").find("empty item"), std::string::npos);
  EXPECT_NE(error("kernel instance(a: N = 1, N = 2)")
                .find("size 'N' is set "
                      "twice"),
            std::string::npos);
}

TEST(PragmaSpecParserTest, DistributionStringForm) {
  auto D =
      PragmaSpecParser::parseDistribution(" int(0, N - 1)", [](size_t Offset) {
        return SourcePos{"s.json", 7, unsigned(20 + Offset)};
      });
  ASSERT_TRUE(bool(D));
  EXPECT_EQ(D->Kind, "int");
  EXPECT_EQ(D->Pos.Column, 21u);
  EXPECT_EQ(D->Params[1].Text, "N - 1");
  EXPECT_EQ(D->Params[1].Pos.Column, 28u);
}

TEST(MarkLocatorTest, ExactPositionsAcrossContinuationLines) {
  const char *Source = "// header\n"
                       "  #pragma  optiml   kernel sizes(N = 4) \\\n"
                       "\tin(x[Q])   out(y[N])\n"
                       "__global__ void k(float *x, float *y);\n";
  KernelMark M{SourcePos{"k.cu", 2, 3},
               "kernel sizes(N = 4) in(x[Q]) out(y[N])"};
  MarkLocator Loc(M, Source);
  auto Pos = [&](llvm::StringRef Needle) {
    SourcePos P = Loc.at(llvm::StringRef(M.Clauses).find(Needle));
    return std::to_string(P.Line) + ":" + std::to_string(P.Column);
  };
  EXPECT_EQ(Pos("kernel"), "2:21");
  EXPECT_EQ(Pos("sizes"), "2:28");
  EXPECT_EQ(Pos("Q"), "3:7");
  EXPECT_EQ(Pos("out"), "3:13");
  // Without the source (or with one that says something else), columns are
  // counted from the mark on its own line.
  MarkLocator Stale(M, "int x;\n#pragma optiml kernel other\n");
  EXPECT_EQ(Stale.at(7).Line, 2u);
  EXPECT_EQ(Stale.at(7).Column, 3u + 15 + 7);
}

TEST(MarkLocatorTest, ParserErrorsUseExactPositions) {
  const char *Source = "#pragma optiml kernel sizes(N = 4) \\\n"
                       "    in(x[N]) oops(1)\n";
  KernelMark M{SourcePos{"k.cu", 1, 1}, "kernel sizes(N = 4) in(x[N]) oops(1)"};
  auto D = PragmaSpecParser::parse(M, MarkLocator(M, Source));
  ASSERT_FALSE(D);
  EXPECT_EQ(summarize(D.takeError())
                .Message.rfind("k.cu:2:14: error: unknown clause 'oops'", 0),
            0u);
}

} // namespace
