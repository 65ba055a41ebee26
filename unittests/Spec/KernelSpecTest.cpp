//===- KernelSpecTest.cpp - loading, merging and instantiating specs ------===//

#include "optiml/Spec/KernelSpec.h"
#include "../Support/CudaTestAST.h"
#include "TestParams.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Frontend/CudaToolchain.h"
#include "optiml/Support/Error.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

/// Marks live in a file that does not exist: columns are then counted from
/// the mark (at column 1), clause offset O at column 16 + O.
const char *File = "/no/k.cu";

ParamInfo pointer(llvm::StringRef Name, llvm::StringRef Elem, bool Const) {
  return test::pointerParam(Name, Elem, Const);
}

ParamInfo scalar(llvm::StringRef Name, llvm::StringRef Type) {
  return test::valueParam(Name, Type);
}

/// __global__ void saxpy(int n, float a, const float *x, float *y), marked
/// at line 5 with \p Clauses (no mark when empty).
KernelInfo saxpy(llvm::StringRef Clauses) {
  KernelInfo K;
  K.Name = K.QualifiedName = "saxpy";
  K.Pos = SourcePos{File, 6, 17};
  K.Params = {scalar("n", "int"), scalar("a", "float"),
              pointer("x", "float", true), pointer("y", "float", false)};
  if (!Clauses.empty())
    K.Mark = KernelMark{SourcePos{File, 5, 1}, Clauses.str()};
  return K;
}

const char *SaxpyMark =
    "kernel sizes(N = 1 << 24) in(x[N]) inout(y[N]) scalar(n = N, a = 2.5) "
    "grid((N + 255) / 256) block(256) tolerance(rtol = 1e-6, atol = 1e-7) "
    "instance(odd: N = 100003)";

/// "/no/k.cu:5:<column of Needle in Clauses>: error: ".
std::string at(llvm::StringRef Clauses, llvm::StringRef Needle) {
  return std::string(File) + ":5:" + std::to_string(16 + Clauses.find(Needle)) +
         ": error: ";
}

class KernelSpecTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-spec", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<128> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return Path.str().str();
  }

  /// Loads the spec and instantiates it; failures are test failures.
  std::vector<ConcreteInstance> instances(const KernelInfo &K,
                                          llvm::StringRef Source = "",
                                          llvm::StringRef Spec = "") {
    auto S = loadKernelSpec(K, Source, Spec);
    if (!S) {
      ADD_FAILURE() << summarize(S.takeError()).Message;
      return {};
    }
    Loaded = *S;
    auto I = S->instantiate(K);
    if (!I) {
      ADD_FAILURE() << summarize(I.takeError()).Message;
      return {};
    }
    return *I;
  }

  std::string error(const KernelInfo &K, llvm::StringRef Source = "",
                    llvm::StringRef Spec = "") {
    auto S = loadKernelSpec(K, Source, Spec);
    if (S) {
      ADD_FAILURE() << "loaded a spec for " << K.Name;
      return "";
    }
    ErrorSummary E = summarize(S.takeError());
    EXPECT_EQ(E.Kind, ErrorKind::BadInput);
    return E.Message;
  }

  std::string errorFor(llvm::StringRef Clauses) {
    return error(saxpy(Clauses));
  }

  llvm::SmallString<128> Dir;
  KernelSpec Loaded;
};

TEST_F(KernelSpecTest, DefaultInstanceFirstAndTimed) {
  auto I = instances(saxpy(SaxpyMark));
  ASSERT_EQ(I.size(), 2u);
  const ConcreteInstance &D = I[0];
  EXPECT_EQ(D.Name, "default");
  EXPECT_TRUE(D.Time);
  EXPECT_EQ(D.Sizes.at("N"), 1 << 24);
  EXPECT_EQ(D.Grid, (std::array<int64_t, 3>{65536, 1, 1}));
  EXPECT_EQ(D.Block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(D.SharedMemory, 0);
  EXPECT_EQ(I[1].Name, "odd");
  EXPECT_FALSE(I[1].Time);
  EXPECT_EQ(I[1].Sizes.at("N"), 100003);
  EXPECT_EQ(I[1].Grid[0], 391);
  EXPECT_EQ(I[1].Args[2].Count, 100003);
}

TEST_F(KernelSpecTest, ArgumentsInParameterOrderWithTypes) {
  auto I = instances(saxpy(SaxpyMark));
  ASSERT_EQ(I.size(), 2u);
  const auto &A = I[0].Args;
  ASSERT_EQ(A.size(), 4u);
  EXPECT_EQ(A[0].Name, "n");
  EXPECT_EQ(A[0].Role, ArgRole::Scalar);
  EXPECT_EQ(A[0].Type, protocol::ElemType::I32);
  EXPECT_EQ(A[0].Value, double(1 << 24));
  EXPECT_FALSE(A[0].Dist);
  EXPECT_EQ(A[1].Type, protocol::ElemType::F32);
  EXPECT_EQ(A[1].Value, 2.5);
  EXPECT_EQ(A[2].Name, "x");
  EXPECT_EQ(A[2].Role, ArgRole::In);
  EXPECT_EQ(A[2].Count, 1 << 24);
  ASSERT_TRUE(A[2].Dist); // Default for floating inputs.
  EXPECT_EQ(A[2].Dist->Kind, "uniform");
  EXPECT_EQ(A[2].Dist->A, -1);
  EXPECT_EQ(A[2].Dist->B, 1);
  EXPECT_EQ(A[3].Role, ArgRole::InOut);
  EXPECT_TRUE(A[3].Dist);
}

TEST_F(KernelSpecTest, SpecDefaultsAndTolerances) {
  ASSERT_EQ(instances(saxpy(SaxpyMark)).size(), 2u);
  EXPECT_EQ(Loaded.Kernel, "saxpy");
  EXPECT_EQ(Loaded.RTol, 1e-6);
  EXPECT_EQ(Loaded.ATol, 1e-7);
  EXPECT_EQ(Loaded.NormTol, 1e-5);
  EXPECT_EQ(Loaded.Seeds, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(Loaded.Block[1].Text, "1");
  EXPECT_EQ(Loaded.SharedMemory.Text, "0");
  EXPECT_FALSE(Loaded.Args[2].Dist); // Not given: the default is applied
                                     // when instantiating.
  ASSERT_EQ(instances(saxpy("kernel sizes(N = 8) in(x[N]) out(y[N]) "
                            "scalar(n = N, a = 1) grid(1) block(8)"))
                .size(),
            1u);
  EXPECT_EQ(Loaded.RTol, 1e-5);
  EXPECT_EQ(Loaded.ATol, 1e-6);
}

TEST_F(KernelSpecTest, IntegerBuffersAndGivenDistributions) {
  KernelInfo K;
  K.Name = K.QualifiedName = "hist";
  K.Params = {pointer("idx", "int", true), pointer("w", "double", true),
              pointer("bins", "unsigned char", false), scalar("n", "size_t")};
  K.Mark = KernelMark{SourcePos{File, 5, 1},
                      "kernel sizes(N = 1000, B = 16, M = 4) in(idx[N], w[N]) "
                      "out(bins[B]) scalar(n = N) grid(ceil_div(N, 128), 2) "
                      "block(128) shmem(B * 4) dist(w = index(0.5, 1, M), "
                      "idx = int(0, B - 1)) seeds(3, 5, 7) "
                      "instance(small: N = 10)"};
  auto I = instances(K);
  ASSERT_EQ(I.size(), 2u);
  const auto &A = I[0].Args;
  EXPECT_EQ(A[0].Type, protocol::ElemType::I32);
  EXPECT_EQ(A[0].Dist->Kind, "int");
  EXPECT_EQ(A[0].Dist->B, 15);
  EXPECT_EQ(A[1].Type, protocol::ElemType::F64);
  EXPECT_EQ(A[1].Dist->Kind, "index");
  EXPECT_EQ(A[1].Dist->A, 0.5);
  EXPECT_EQ(A[1].Dist->Mod, 4.0);
  EXPECT_EQ(A[2].Type, protocol::ElemType::U8);
  EXPECT_EQ(A[2].Count, 16);
  EXPECT_FALSE(A[2].Dist); // Outputs are poisoned, not filled.
  EXPECT_EQ(A[3].Type, protocol::ElemType::U64);
  EXPECT_EQ(I[0].Grid, (std::array<int64_t, 3>{8, 2, 1}));
  EXPECT_EQ(I[0].SharedMemory, 64);
  EXPECT_EQ(I[1].Grid[0], 1);
  EXPECT_EQ(Loaded.Seeds, (std::vector<uint64_t>{3, 5, 7}));
}

TEST_F(KernelSpecTest, DefaultDistributionOfIntegerInputs) {
  KernelInfo K;
  K.Name = "k";
  K.Params = {pointer("in", "int64_t", true), pointer("out", "float", false)};
  K.Mark = KernelMark{SourcePos{File, 5, 1},
                      "kernel sizes(N = 4) in(in[N]) out(out[N]) grid(1) "
                      "block(4)"};
  auto I = instances(K);
  ASSERT_EQ(I.size(), 1u);
  EXPECT_EQ(I[0].Args[0].Type, protocol::ElemType::I64);
  EXPECT_EQ(I[0].Args[0].Dist->Kind, "int");
  EXPECT_EQ(I[0].Args[0].Dist->A, 0);
  EXPECT_EQ(I[0].Args[0].Dist->B, 100);
}

TEST_F(KernelSpecTest, SizesMayUseEarlierSizes) {
  auto I =
      instances(saxpy("kernel sizes(N = 1024, M = 2 * N) in(x[M]) "
                      "out(y[M]) scalar(n = M, a = 1) grid(ceil_div(M, 32)) "
                      "block(32) instance(odd: N = 10)"));
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Sizes.at("M"), 2048);
  EXPECT_EQ(I[1].Sizes.at("M"), 20);
  EXPECT_EQ(I[1].Args[2].Count, 20);
}

TEST_F(KernelSpecTest, ParameterWithoutRole) {
  EXPECT_EQ(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) scalar(n = N) "
                     "grid(1) block(4)"),
            "/no/k.cu:5:1: error: parameter 'a' of kernel 'saxpy' has no "
            "role; expected 'a' in one of in(...), out(...), inout(...) or "
            "scalar(...)");
}

TEST_F(KernelSpecTest, RoleForANameThatIsNotAParameter) {
  const char *C = "kernel sizes(N = 4) in(x[N], q[N]) out(y[N]) "
                  "scalar(n = N, a = 1) grid(1) block(4)";
  EXPECT_EQ(errorFor(C), at(C, "q[") +
                             "'q' is not a parameter of kernel 'saxpy'; "
                             "expected one of its parameters: n, a, x, y");
}

TEST_F(KernelSpecTest, PointerAndScalarRolesMustMatchTypes) {
  const char *PtrScalar = "kernel sizes(N = 4) scalar(x = 1, n = N, a = 1) "
                          "out(y[N]) grid(1) block(4)";
  EXPECT_EQ(errorFor(PtrScalar),
            at(PtrScalar, "x =") +
                "'x' (type 'const float *') is a pointer but is given the "
                "role 'scalar'; expected in, out or inout with a length, "
                "e.g. in(x[N])");
  const char *ScalarBuf = "kernel sizes(N = 4) in(x[N], n[N]) out(y[N]) "
                          "scalar(a = 1) grid(1) block(4)";
  EXPECT_EQ(errorFor(ScalarBuf),
            at(ScalarBuf, "n[N]") +
                "'n' (type 'int') is not a pointer but is given the role "
                "'in'; expected the role 'scalar' with a value, e.g. "
                "scalar(n = N)");
  const char *ConstOut = "kernel sizes(N = 4) out(x[N], y[N]) "
                         "scalar(n = N, a = 1) grid(1) block(4)";
  EXPECT_EQ(errorFor(ConstOut).rfind(at(ConstOut, "x[N]") +
                                         "'x' (type 'const float *') points "
                                         "to const data",
                                     0),
            0u);
}

TEST_F(KernelSpecTest, UnknownSizeInAnExpression) {
  const char *C = "kernel sizes(N = 4) in(x[N * Q]) out(y[N]) "
                  "scalar(n = N, a = 1) grid(1) block(4)";
  EXPECT_EQ(errorFor(C), at(C, "Q]") +
                             "unknown size 'Q' in 'N * Q'; expected one of "
                             "the sizes N");
}

TEST_F(KernelSpecTest, EmptyAndNegativeBuffersAtInstantiation) {
  const char *Empty = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                      "scalar(n = N, a = 1) grid(1) block(4) "
                      "instance(empty: N = 0)";
  EXPECT_EQ(errorFor(Empty),
            at(Empty, "N]") +
                "buffer 'x' has 0 elements in instance 'empty' (N = 0); "
                "expected a positive length whose size in bytes fits in 64 "
                "bits");
  const char *Negative = "kernel sizes(N = 4) in(x[N]) out(y[N - 5]) "
                         "scalar(n = N, a = 1) grid(1) block(4)";
  EXPECT_EQ(errorFor(Negative).rfind(
                at(Negative, "N - 5") + "buffer 'y' has -1 elements;", 0),
            0u);
  const char *Huge = "kernel sizes(N = 1 << 62) in(x[N]) out(y[N]) "
                     "scalar(n = 1, a = 1) grid(1) block(4)";
  EXPECT_NE(errorFor(Huge).find("buffer 'x' has 4611686018427387904 "
                                "elements"),
            std::string::npos);
}

TEST_F(KernelSpecTest, SeedsNeedAtLeastTwo) {
  const char *One = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                    "scalar(n = N, a = 1) grid(1) block(4) seeds(7)";
  EXPECT_EQ(errorFor(One),
            at(One, "seeds") +
                "only 1 seed for kernel 'saxpy'; expected at least two "
                "seeds, e.g. seeds(1, 2): a candidate must pass on two "
                "different inputs");
  const char *Repeated = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                         "scalar(n = N, a = 1) grid(1) block(4) seeds(7, 7)";
  EXPECT_NE(errorFor(Repeated).find("seed 7 is repeated"), std::string::npos);
}

TEST_F(KernelSpecTest, NoMarkAndNoSidecar) {
  EXPECT_EQ(errorFor(""),
            "/no/k.cu:6:17: error: kernel 'saxpy' has no spec; expected a "
            "'#pragma optiml kernel sizes(...) in(...) out(...) grid(...) "
            "block(...)' line before it, or --spec=FILE with an entry "
            "\"kernels\": {\"saxpy\": {...}}");
}

TEST_F(KernelSpecTest, MissingRequiredClauses) {
  EXPECT_EQ(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = N, a = 1) block(4)"),
            "/no/k.cu:5:1: error: missing required clause 'grid' for kernel "
            "'saxpy'; expected grid(X[, Y[, Z]]), e.g. grid((N + 255) / 256)");
  EXPECT_NE(errorFor("kernel in(x[4]) out(y[4]) scalar(n = 4, a = 1) "
                     "grid(1) block(4)")
                .find("missing required clause 'sizes'"),
            std::string::npos);
  EXPECT_NE(errorFor("kernel sizes(N = 4) grid(1) block(4)")
                .find("missing required clause 'in'"),
            std::string::npos);
  EXPECT_NE(errorFor("kernel sizes(N = 4) in(x[N], y[N]) scalar(n = N, a = 1) "
                     "grid(1) block(4)")
                .find("has no out or inout buffer"),
            std::string::npos);
}

TEST_F(KernelSpecTest, UnsupportedElementType) {
  KernelInfo K = saxpy("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                       "scalar(n = N, a = 1) grid(1) block(4)");
  K.Params[3] = pointer("y", "long double", false);
  EXPECT_NE(error(K).find("error: parameter 'y' has type 'long double *', "
                          "and element type 'long double' is not supported "
                          "by the runner yet"),
            std::string::npos);
}

TEST_F(KernelSpecTest, DistributionsFollowEachInstancesSizes) {
  KernelInfo K = saxpy("kernel sizes(N = 1000) in(x[N]) inout(y[N]) "
                       "scalar(n = N, a = 1) grid(1) block(4) "
                       "dist(x = uniform(0, N), y = index(1, 0, N / 10)) "
                       "instance(odd: N = 97)");
  auto I = instances(K);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Args[2].Dist->B, 1000);
  EXPECT_EQ(I[1].Args[2].Dist->B, 97);
  EXPECT_EQ(*I[0].Args[3].Dist->Mod, 100);
  EXPECT_EQ(*I[1].Args[3].Dist->Mod, 9);
}

TEST_F(KernelSpecTest, BadDistributions) {
  const char *OnOutput = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                         "scalar(n = N, a = 1) grid(1) block(4) "
                         "dist(y = uniform(0, 1))";
  EXPECT_EQ(errorFor(OnOutput),
            at(OnOutput, "uniform") +
                "distribution for 'y', which is an output; expected "
                "distributions for in and inout buffers only");
  const char *Reversed = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                         "scalar(n = N, a = 1) grid(1) block(4) "
                         "dist(x = uniform(1, -1))";
  EXPECT_EQ(errorFor(Reversed),
            at(Reversed, "uniform") +
                "bad distribution uniform(1, -1) for 'x' (f32): lo is not "
                "below hi; expected uniform(lo, hi) with lo < hi");
  // Per-instance values are checked in every instance, and the error
  // says which.
  KernelInfo Narrow = saxpy("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                            "scalar(n = N, a = 1) grid(1) block(4) "
                            "dist(x = int(0, N - 1)) instance(odd: N = 301)");
  Narrow.Params[2] = pointer("x", "uint8_t", true);
  std::string E = error(Narrow);
  EXPECT_NE(E.find("bad distribution int(0, 300) for 'x' (u8): its values do "
                   "not fit the element type in instance 'odd'; expected "
                   "values from 0 to 255"),
            std::string::npos)
      << E;
  KernelInfo Bytes = saxpy("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                           "scalar(n = N, a = 1) grid(1) block(4) "
                           "dist(x = int(0, 300))");
  Bytes.Params[2] = pointer("x", "uint8_t", true);
  EXPECT_NE(error(Bytes).find("bad distribution int(0, 300) for 'x' (u8): its "
                              "values do not fit the element type; expected "
                              "values from 0 to 255"),
            std::string::npos);
  Bytes.Mark->Clauses = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                        "scalar(n = N, a = 1) grid(1) block(4) "
                        "dist(x = normal(0, 1))";
  EXPECT_NE(error(Bytes).find("it draws fractional values"), std::string::npos);
}

TEST_F(KernelSpecTest, DistributionsMayUseSizesThatNoInstanceChanges) {
  auto I = instances(saxpy("kernel sizes(N = 4, R = 8) in(x[N]) out(y[N]) "
                           "scalar(n = N, a = 1) grid(1) block(4) "
                           "dist(x = uniform(-R, R)) instance(odd: N = 7)"));
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[1].Args[2].Dist->A, -8);
  EXPECT_EQ(I[1].Args[2].Dist->B, 8);
}

TEST_F(KernelSpecTest, LaunchLimits) {
  const char *Wide = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = N, a = 1) grid(1) block(2048)";
  EXPECT_EQ(errorFor(Wide), at(Wide, "2048") +
                                "block.x is 2048; expected a value from 1 "
                                "to 1024");
  EXPECT_NE(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = N, a = 1) grid(1) block(64, 32)")
                .find("a block of 2048 threads; expected at most 1024"),
            std::string::npos);
  const char *Empty = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                      "scalar(n = N, a = 1) grid(N / 8) block(4)";
  EXPECT_EQ(errorFor(Empty), at(Empty, "N / 8") +
                                 "grid.x is 0; expected a value from 1 to "
                                 "2147483647");
  EXPECT_NE(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = N, a = 1) grid(1) block(4) shmem(-4)")
                .find("negative shared memory size -4"),
            std::string::npos);
}

TEST_F(KernelSpecTest, ScalarsMustFitTheirType) {
  EXPECT_NE(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = 1 << 40, a = 1) grid(1) block(4)")
                .find("scalar 'n' = 1.099511628e+12 does not fit its type "
                      "'int'"),
            std::string::npos);
  EXPECT_NE(errorFor("kernel sizes(N = 4) in(x[N]) out(y[N]) "
                     "scalar(n = 2.5, a = 1) grid(1) block(4)")
                .find("scalar 'n' = 2.5 does not fit its type 'int'"),
            std::string::npos);
}

TEST_F(KernelSpecTest, InstanceSettingAnUnknownSize) {
  const char *C = "kernel sizes(N = 4) in(x[N]) out(y[N]) "
                  "scalar(n = N, a = 1) grid(1) block(4) "
                  "instance(odd: Q = 11)";
  EXPECT_EQ(errorFor(C), at(C, "11)") +
                             "unknown size 'Q' in instance 'odd'; expected "
                             "one of the sizes N");
}

const char *SaxpySidecar = R"({
  "kernels": {
    "saxpy": {
      "sizes": {"N": "1 << 24"},
      "args": {
        "n": {"role": "scalar", "value": "N"},
        "a": {"role": "scalar", "value": 2.5},
        "x": {"role": "in", "length": "N"},
        "y": {"role": "inout", "length": "N"}
      },
      "grid": ["(N + 255) / 256"],
      "block": [256],
      "tolerance": {"rtol": 1e-6, "atol": 1e-7},
      "instances": {"odd": {"N": 100003}}
    }
  }
})";

TEST_F(KernelSpecTest, SidecarAloneMatchesTheMark) {
  std::string Spec = write("s.json", SaxpySidecar);
  auto FromJson = instances(saxpy(""), "", Spec);
  KernelSpec Json = Loaded;
  auto FromMark = instances(saxpy(SaxpyMark));
  ASSERT_EQ(FromJson.size(), 2u);
  ASSERT_EQ(FromMark.size(), 2u);
  for (size_t I = 0; I < 2; ++I) {
    EXPECT_EQ(FromJson[I].Name, FromMark[I].Name);
    EXPECT_EQ(FromJson[I].Grid, FromMark[I].Grid);
    EXPECT_EQ(FromJson[I].Block, FromMark[I].Block);
    EXPECT_EQ(FromJson[I].Sizes, FromMark[I].Sizes);
    for (size_t A = 0; A < 4; ++A) {
      EXPECT_EQ(FromJson[I].Args[A].Count, FromMark[I].Args[A].Count);
      EXPECT_EQ(FromJson[I].Args[A].Value, FromMark[I].Args[A].Value);
    }
  }
  EXPECT_EQ(Json.RTol, Loaded.RTol);
  EXPECT_EQ(Json.ATol, Loaded.ATol);
}

/// null(x) in a mark, "role": "null" in a sidecar: the pointer is passed
/// as eight zero bytes, and only a pointer can be null.
TEST_F(KernelSpecTest, NullPointers) {
  auto I = instances(saxpy("kernel sizes(N = 64) null(x) inout(y[N]) "
                           "scalar(n = N, a = 2) grid(1) block(64)"));
  ASSERT_EQ(I.size(), 1u);
  const ConcreteArg &X = I[0].Args[2];
  EXPECT_EQ(X.Role, ArgRole::Scalar);
  EXPECT_EQ(X.Type, protocol::ElemType::U64);
  EXPECT_EQ(X.Value, 0);
  std::string Spec =
      write("null.json",
            R"({"kernels": {"saxpy": {"args": {"x": {"role": "null"}}}}})");
  I = instances(saxpy(SaxpyMark), "", Spec);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Args[2].Type, protocol::ElemType::U64);
  const char *OnScalar = "kernel sizes(N = 64) in(x[N]) inout(y[N]) "
                         "null(n) scalar(a = 2) grid(1) block(64)";
  EXPECT_NE(errorFor(OnScalar).find(at(OnScalar, "n)") +
                                    "'n' (type 'int') is not a pointer but is "
                                    "given null"),
            std::string::npos)
      << errorFor(OnScalar);
  const char *Twice = "kernel sizes(N = 64) in(x[N]) null(x) inout(y[N]) "
                      "scalar(n = N, a = 2) grid(1) block(64)";
  EXPECT_NE(errorFor(Twice).find("'x' is given two roles"), std::string::npos);
}

TEST_F(KernelSpecTest, IndexTableDistributions) {
  const char *Perm = "kernel sizes(N = 64) in(x[N]) inout(y[N]) "
                     "scalar(n = N, a = 2) grid(1) block(64) "
                     "dist(x = permutation())";
  EXPECT_NE(errorFor(Perm).find("bad distribution permutation() for 'x' "
                                "(f32): it draws indices"),
            std::string::npos)
      << errorFor(Perm);
  const char *Gaps = "kernel sizes(N = 64) in(x[N]) inout(y[N]) "
                     "scalar(n = N, a = 2) grid(1) block(64) "
                     "dist(x = offsets(3, 1))";
  EXPECT_NE(errorFor(Gaps).find("bad distribution"), std::string::npos);
  auto I = instances(saxpy("kernel sizes(N = 64) in(x[N]) inout(y[N]) "
                           "scalar(n = N, a = 2) grid(1) block(64) "
                           "dist(x = sorted(-3, 3), y = sorted(0, 1))"));
  ASSERT_EQ(I.size(), 1u);
  EXPECT_EQ(I[0].Args[2].Dist->Kind, "sorted");
  EXPECT_EQ(I[0].Args[2].Dist->A, -3);
}

TEST_F(KernelSpecTest, SidecarIsFoundNextToTheSource) {
  std::string Source = write("k.cu", "// no marks here\n");
  write("k.cu.optiml.json", SaxpySidecar);
  auto I = instances(saxpy(""), Source, "");
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Grid[0], 65536);
}

TEST_F(KernelSpecTest, SidecarOverridesTheMarkFieldByField) {
  std::string Spec = write("s.json", R"({"kernels": {"saxpy": {
    "sizes": {"N": 4096},
    "args": {"x": {"dist": {"kind": "normal", "mean": 0, "stddev": 2}},
             "y": {"role": "out"}},
    "block": [128],
    "tolerance": {"rtol": 1e-3},
    "instances": {"odd": {"N": 77}, "big": {"N": 65536}}}}})");
  auto I = instances(saxpy(std::string(SaxpyMark) + " dist(y = constant(1))"),
                     "", Spec);
  ASSERT_EQ(I.size(), 3u);
  EXPECT_EQ(I[0].Sizes.at("N"), 4096);          // Size replaced.
  EXPECT_EQ(I[0].Grid[0], 16);                  // Grid kept from the mark.
  EXPECT_EQ(I[0].Block[0], 128);                // Block replaced.
  EXPECT_EQ(I[0].Args[2].Count, 4096);          // x's length kept...
  EXPECT_EQ(I[0].Args[2].Dist->Kind, "normal"); // ...its dist replaced.
  EXPECT_EQ(I[0].Args[3].Role, ArgRole::Out);   // y's role replaced, and
  EXPECT_FALSE(I[0].Args[3].Dist);              // its dist dropped.
  EXPECT_EQ(I[1].Name, "odd");                  // Replaced in place.
  EXPECT_EQ(I[1].Sizes.at("N"), 77);
  EXPECT_EQ(I[2].Name, "big");  // Appended.
  EXPECT_EQ(Loaded.RTol, 1e-3); // Tolerances one by one.
  EXPECT_EQ(Loaded.ATol, 1e-7);
}

TEST_F(KernelSpecTest, SidecarErrorsPointIntoTheJson) {
  std::string Spec = write("s.json", "{\"kernels\": {\"saxpy\": {\n"
                                     "  \"grid\": [\"N + Q\"]}}}");
  EXPECT_EQ(error(saxpy(SaxpyMark), "", Spec),
            Spec + ":2:17: error: unknown size 'Q' in 'N + Q'; expected one "
                   "of the sizes N");
  std::string Bad = write("bad.json", "{\"kernels\": {\"saxpy\": {\n  3}}}");
  EXPECT_EQ(error(saxpy(SaxpyMark), "", Bad)
                .rfind(Bad + ":2:3: error: "
                             "malformed JSON",
                       0),
            0u);
  std::string NoGrid = write("nogrid.json", R"({"kernels": {"saxpy": {
    "sizes": {"N": 4}, "block": [4], "args": {"x": {"role": "in", "length": 4}}}}})");
  EXPECT_EQ(error(saxpy(""), "", NoGrid)
                .rfind(NoGrid + ":1:14: error: kernel "
                                "'saxpy' has no "
                                "\"grid\"",
                       0),
            0u);
}

TEST_F(KernelSpecTest, SidecarWithoutTheKernel) {
  std::string Spec = write("s.json", R"({"kernels": {"other": {}}})");
  EXPECT_NE(error(saxpy(""), "", Spec)
                .find("has no spec (no mark, and no "
                      "entry in '" +
                      Spec + "')"),
            std::string::npos);
  // With a mark, a sidecar for other kernels changes nothing.
  EXPECT_EQ(instances(saxpy(SaxpyMark), "", Spec).size(), 2u);
  EXPECT_NE(error(saxpy(SaxpyMark), "", "/no/such.json")
                .find("cannot read spec file '/no/such.json'"),
            std::string::npos);
}

TEST_F(KernelSpecTest, MarkErrorsUseTheLinesOfTheFile) {
  std::string Source =
      write("k.cu", "#include <cstdio>\n"
                    "#pragma optiml kernel sizes(N = 4) \\\n"
                    "    in(x[N]) out(y[N * Q]) \\\n"
                    "    scalar(n = N, a = 1) grid(1) block(4)\n"
                    "__global__ void saxpy(int n, float a, "
                    "const float *x, float *y) {}\n");
  KernelInfo K = saxpy("kernel sizes(N = 4) in(x[N]) out(y[N * Q]) "
                       "scalar(n = N, a = 1) grid(1) block(4)");
  K.Mark->Pos = SourcePos{Source, 2, 1};
  EXPECT_EQ(error(K, Source),
            Source + ":3:24: error: unknown size 'Q' in 'N * Q'; expected "
                     "one of the sizes N");
}

/// The parameter types as Clang spells them (typedefs, qualifiers) map to
/// runner types: parse a real kernel with KernelFinder.
TEST_F(KernelSpecTest, TypesAsTheFrontendSpellsThem) {
  const char *Code = R"cu(
    #include <cstddef>
    #include <cstdint>
    #pragma optiml kernel sizes(N = 64) in(a[N], b[N]) out(c[N]) \
        scalar(n = N, s = 3, u = 7) grid(1) block(64)
    __global__ void k(const int64_t *__restrict__ a, const unsigned *b,
                      uint8_t *c, const size_t n, short s, unsigned long u) {}
  )cu";
  auto AST = test::parseCuda(Code);
  ASSERT_TRUE(AST);
  KernelInventory Inv = KernelFinder::find(AST->getASTContext());
  ASSERT_EQ(Inv.Kernels.size(), 1u);
  auto I = instances(Inv.Kernels[0]);
  ASSERT_EQ(I.size(), 1u);
  std::vector<std::string> Types;
  for (const ConcreteArg &A : I[0].Args)
    Types.push_back(protocol::elemTypeName(A.Type));
  EXPECT_EQ(Types, (std::vector<std::string>{"i64", "u32", "u8", "u64", "i16",
                                             "u64"}));
}

} // namespace
