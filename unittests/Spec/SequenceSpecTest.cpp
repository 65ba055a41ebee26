//===- SequenceSpecTest.cpp - a mark's sequence of launches ---------------===//
//
// repeat, swap, then/before and cooperative: what one run of an instance
// becomes (every launch, its kernel, geometry and arguments), and the
// one-line errors of sequences that cannot be run.
//
//===----------------------------------------------------------------------===//

#include "TestParams.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

const char *File = "/no/seq.cu";

/// As the finder gives them, with the canonical element the launch checks
/// compare.
ParamInfo pointerTo(llvm::StringRef Name, llvm::StringRef Elem, bool Const) {
  ParamInfo P = test::pointerParam(Name, Elem, Const);
  P.CanonicalElement = Elem.str();
  return P;
}

ParamInfo value(llvm::StringRef Name, llvm::StringRef Type) {
  ParamInfo P = test::valueParam(Name, Type);
  P.CanonicalElement = Type.str();
  return P;
}

/// step(const float *in, float *out, int n, int t), marked with \p Clauses,
/// in a file that also defines total(const float *x, float *sum, int n),
/// widen(const float *x, double *y) and a template kernel pick<T>.
KernelInfo stepKernel(llvm::StringRef Clauses) {
  KernelInfo K;
  K.Name = K.QualifiedName = "step";
  K.Pos = SourcePos{File, 6, 17};
  K.Params = {pointerTo("in", "float", false), pointerTo("out", "float", false),
              value("n", "int"), value("t", "int")};
  K.Mark = KernelMark{SourcePos{File, 5, 1}, Clauses.str()};
  auto All = std::make_shared<std::vector<SiblingKernel>>();
  All->push_back({"step", "step", false, K.Params});
  All->push_back({"total",
                  "ops::total",
                  false,
                  {pointerTo("x", "float", true),
                   pointerTo("sum", "float", false), value("n", "int")}});
  All->push_back(
      {"widen",
       "widen",
       false,
       {pointerTo("x", "float", true), pointerTo("y", "double", false)}});
  All->push_back({"pick", "pick", true, {pointerTo("x", "float", false)}});
  K.FileKernels = All;
  return K;
}

/// Every mark's common part; each test adds t's value and, where it is
/// not the plain one, the grid.
const char *Base = "kernel sizes(N = 1000) inout(in[N], out[N]) scalar(n = N) "
                   "block(256) ";
const char *Plain = "scalar(t = 0) grid(ceil_div(N, 256)) ";

std::string errorOf(llvm::StringRef Extra) {
  auto S = loadKernelSpec(stepKernel((Base + (Plain + Extra)).str()), File, "");
  if (S) {
    ADD_FAILURE() << "loaded: " << Extra.str();
    return "";
  }
  ErrorSummary E = summarize(S.takeError());
  EXPECT_EQ(E.Kind, ErrorKind::BadInput);
  return E.Message;
}

std::vector<ConcreteInstance> instancesOf(llvm::StringRef Extra,
                                          KernelSpec *Out = nullptr) {
  KernelInfo K = stepKernel((Base + Extra).str());
  auto S = loadKernelSpec(K, File, "");
  if (!S) {
    ADD_FAILURE() << summarize(S.takeError()).Message;
    return {};
  }
  auto I = S->instantiate(K);
  if (!I) {
    ADD_FAILURE() << summarize(I.takeError()).Message;
    return {};
  }
  if (Out)
    *Out = *S;
  return *I;
}

int64_t intOf(const protocol::StepArg &A) { return std::get<int64_t>(A.Value); }

} // namespace

TEST(SequenceSpecTest, NoSequenceClauseMeansOneLaunch) {
  auto I = instancesOf(Plain);
  ASSERT_EQ(I.size(), 1u);
  EXPECT_TRUE(I[0].Sequence.empty());
}

TEST(SequenceSpecTest, RepeatWithSwapAndThenSpellsOutEveryLaunch) {
  KernelSpec Spec;
  auto I = instancesOf("scalar(t = it) grid(ceil_div(N, 256)) out(sum[1]) "
                       "repeat(it = 1 .. 3) "
                       "swap(in, out) then(total<<<1, 128>>>(out, sum, N))",
                       &Spec);
  ASSERT_EQ(I.size(), 1u);
  const ConcreteInstance &R = I[0];
  EXPECT_EQ(Spec.Companions, std::vector<std::string>{"ops::total"});
  // Parameters, then the buffer only total takes.
  ASSERT_EQ(R.Args.size(), 5u);
  EXPECT_TRUE(R.Args[4].Extra);
  EXPECT_EQ(R.Args[4].Name, "sum");
  EXPECT_EQ(R.Args[4].Count, 1);
  ASSERT_EQ(R.Sequence.size(), 6u);
  for (size_t K = 0; K < 6; K += 2) {
    const protocol::Step &Own = R.Sequence[K], &Total = R.Sequence[K + 1];
    EXPECT_EQ(Own.Kernel, 0u);
    EXPECT_EQ(Total.Kernel, 1u);
    EXPECT_EQ(Own.Geometry.Grid[0], 4u);
    EXPECT_EQ(Total.Geometry.Grid[0], 1u);
    EXPECT_EQ(Total.Geometry.Block[0], 128u);
    // The buffers trade places after each repetition: in, out, in.
    size_t In = K / 2 % 2 == 0 ? 0 : 1, Out = 1 - In;
    EXPECT_EQ(*Own.Args[0].Buffer, In);
    EXPECT_EQ(*Own.Args[1].Buffer, Out);
    EXPECT_EQ(intOf(Own.Args[2]), 1000);
    EXPECT_EQ(intOf(Own.Args[3]), int64_t(K / 2 + 1)); // t = it
    EXPECT_EQ(*Total.Args[0].Buffer, Out);
    EXPECT_EQ(*Total.Args[1].Buffer, 4u);
    EXPECT_EQ(intOf(Total.Args[2]), 1000);
  }
  // The instance's own scalars and geometry are the first launch's.
  EXPECT_EQ(R.Args[3].Value, 1);
}

TEST(SequenceSpecTest, RepeatVariableShapesTheGrid) {
  auto I = instancesOf("scalar(t = d) repeat(d = 1 .. 2 * N / 250 - 1) "
                       "grid(min(d, 4))");
  ASSERT_EQ(I.size(), 1u);
  ASSERT_EQ(I[0].Sequence.size(), 7u);
  std::vector<unsigned> Grids;
  for (const protocol::Step &S : I[0].Sequence)
    Grids.push_back(S.Geometry.Grid[0]);
  EXPECT_EQ(Grids, (std::vector<unsigned>{1, 2, 3, 4, 4, 4, 4}));
}

TEST(SequenceSpecTest, BeforeLaunchesComeFirstAndCountRepeats) {
  auto I = instancesOf(std::string(Plain) +
                       "out(sum[1]) repeat(2) before(total<<<dim3(1, 1), "
                       "dim3(64, 2), 512>>>(in, sum, N - 1))");
  ASSERT_EQ(I.size(), 1u);
  ASSERT_EQ(I[0].Sequence.size(), 4u);
  EXPECT_EQ(I[0].Sequence[0].Kernel, 1u);
  EXPECT_EQ(I[0].Sequence[0].Geometry.Block[1], 2u);
  EXPECT_EQ(I[0].Sequence[0].Geometry.Shmem, 512u);
  EXPECT_EQ(intOf(I[0].Sequence[0].Args[2]), 999);
  EXPECT_EQ(I[0].Sequence[1].Kernel, 0u);
}

TEST(SequenceSpecTest, OtherLaunchesMayNameTheKernelsIntegerScalars) {
  // n is the kernel's scalar (N), t its per-repetition one (it).
  auto I = instancesOf("scalar(t = 2 * it) grid(4) out(sum[1]) "
                       "repeat(it = 1 .. 2) then(total<<<1, 32>>>(out, sum, "
                       "n - t))");
  ASSERT_EQ(I.size(), 1u);
  ASSERT_EQ(I[0].Sequence.size(), 4u);
  EXPECT_EQ(intOf(I[0].Sequence[1].Args[2]), 998);
  EXPECT_EQ(intOf(I[0].Sequence[3].Args[2]), 996);
}

TEST(SequenceSpecTest, CooperativeAloneIsASequenceOfOne) {
  auto I = instancesOf(std::string(Plain) + "cooperative");
  ASSERT_EQ(I.size(), 1u);
  ASSERT_EQ(I[0].Sequence.size(), 1u);
  EXPECT_TRUE(I[0].Sequence[0].Cooperative);
}

TEST(SequenceSpecTest, NullptrForAPointerParameter) {
  auto I = instancesOf(std::string(Plain) +
                       "then(total<<<1, 32>>>(in, nullptr, N))");
  ASSERT_EQ(I.size(), 1u);
  ASSERT_EQ(I[0].Sequence.size(), 2u);
  EXPECT_TRUE(I[0].Sequence[1].Args[1].Null);
}

TEST(SequenceSpecTest, LaunchErrorsNameTheKernelAndParameter) {
  EXPECT_NE(errorOf("then(nosuch<<<1, 1>>>(in))")
                .find("'nosuch' is not a kernel of this file; expected one of "
                      "total, widen, pick"),
            std::string::npos);
  EXPECT_NE(errorOf("then(total<<<1, 1>>>(in, n))")
                .find("the launch of 'total' passes 2 argument(s); expected 3 "
                      "(its parameters: x, sum, n)"),
            std::string::npos);
  EXPECT_NE(errorOf("then(total<<<1, 1>>>(in, out, in))")
                .find("buffer 'in' is passed to parameter 'n' of 'total' "
                      "(type 'int'), which is not a pointer"),
            std::string::npos);
  EXPECT_NE(errorOf("then(widen<<<1, 1>>>(in, out))")
                .find("buffer 'out' holds 'float' but parameter 'y' of "
                      "'widen' points to 'double'"),
            std::string::npos);
  EXPECT_NE(errorOf("then(pick<<<1, 1>>>(out))").find("is a template"),
            std::string::npos);
  EXPECT_NE(errorOf("then(step<<<1, 1>>>(in, out, n, t))")
                .find("a launch of kernel 'step' itself; expected repeat"),
            std::string::npos);
  EXPECT_NE(errorOf("then(total<<<1, 1>>>(in, q, n))")
                .find("'q' is passed to pointer parameter 'sum' of 'total' but "
                      "is not a buffer of the spec"),
            std::string::npos);
  EXPECT_NE(
      errorOf("out(q[1])").find("'q' is not a parameter of kernel 'step'"),
      std::string::npos);
}

TEST(SequenceSpecTest, SyntaxErrorsPointAtTheClause) {
  // Columns count from the mark's column 1, the clauses from column 16.
  std::string Full = std::string(Base) + Plain;
  std::string E = errorOf("then(total(in, out, n))");
  EXPECT_NE(E.find(":5:" + std::to_string(16 + Full.size() + 5) +
                   ": error: 'then(...)' is not a kernel launch"),
            std::string::npos)
      << E;
  EXPECT_NE(errorOf("then(total<<<1>>>(in, out, n))")
                .find("a launch configuration of 1 item(s)"),
            std::string::npos);
  EXPECT_NE(errorOf("repeat(d = 1)").find("'1' is not a range"),
            std::string::npos);
  EXPECT_NE(errorOf("repeat(3) repeat(4)").find("'repeat' is given twice"),
            std::string::npos);
  EXPECT_NE(errorOf("swap(in)").find("'swap' names 1 buffers"),
            std::string::npos);
  EXPECT_NE(errorOf("cooperative(1)").find("takes no arguments"),
            std::string::npos);
}

TEST(SequenceSpecTest, RepeatAndSwapErrors) {
  EXPECT_NE(errorOf("repeat(N = 1 .. 3)")
                .find("the repeat variable 'N' is already a size"),
            std::string::npos);
  EXPECT_NE(errorOf("repeat(d = 1 .. 100000)")
                .find("the sequence repeats 100000 time(s), 1 launch(es) "
                      "each; expected 1 to 65536 launches in all"),
            std::string::npos);
  EXPECT_NE(errorOf("repeat(d = 3 .. 1)").find("repeats 0 time(s)"),
            std::string::npos);
  EXPECT_NE(errorOf("swap(in, in)").find("a swap of 'in' with itself"),
            std::string::npos);
  EXPECT_NE(errorOf("swap(in, out)")
                .find("swap(in, out) without repeat(...), after which it "
                      "would happen; expected repeat(COUNT) or repeat(VAR = "
                      "FIRST .. LAST) with it"),
            std::string::npos);
  EXPECT_NE(errorOf("swap(in, n)").find("swap of 'n', which is not a buffer"),
            std::string::npos);
  auto S = loadKernelSpec(
      stepKernel("kernel sizes(N = 8) in(in[N]) inout(out[N]) scalar(n = N, "
                 "t = 0) grid(1) block(8) swap(in, out)"),
      File, "");
  ASSERT_FALSE(S);
  EXPECT_NE(summarize(S.takeError())
                .Message.find(
                    "swap of 'in', an input: after the first swap the launches "
                    "write it; expected inout(in[...])"),
            std::string::npos);
  auto Unequal = loadKernelSpec(
      stepKernel("kernel sizes(N = 8) inout(in[N], out[N + 1]) scalar(n = N, "
                 "t = 0) grid(1) block(8) repeat(2) swap(in, out)"),
      File, "");
  ASSERT_FALSE(Unequal);
  EXPECT_NE(summarize(Unequal.takeError())
                .Message.find("swap of 'in' (8 elements) and 'out' (9 "
                              "elements)"),
            std::string::npos);
}
