//===- KernelEditTest.cpp - free-form kernel edits and their checks ------===//

#include "optiml/Rewrite/KernelEdit.h"
#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/RawTokens.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "gtest/gtest.h"

using namespace optiml;

namespace {

const char *const Original = R"cu(#include <cuda_runtime.h>
#define SCALE 2.0f

__device__ float twice(float v) { return SCALE * v; }

#pragma optiml kernel sizes(N = 1024) in(x[N]) out(y[N]) scalar(n = N) \
    grid(N / 256) block(256)
__global__ void scale(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = twice(x[i]);
}

int main() { return 0; }
)cu";

const char *const NewKernel =
    R"cu(__global__ void scale(int n, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = thrice(x[i]) - x[i];
})cu";

class KernelEditTest : public ::testing::Test {
protected:
  KernelEditTest()
      : DB(".", {"-std=c++17"}),
        Parser(DB, CudaToolchain::detect("optiml-unittests", "", "")) {
    auto P = Parser.parse(KernelSource("/optiml-unittest/scale.cu", Original));
    EXPECT_TRUE(bool(P));
    if (P)
      Parsed = std::move(*P);
  }

  /// The verdict on \p Code as the new kernel: "ok" or the reason.
  std::string verdict(const std::string &Code) {
    auto E = KernelEdit::fromCode(Code, "scale");
    if (!E)
      return llvm::toString(E.takeError());
    auto Candidate = E->applyTo(*Parsed, "scale");
    if (!Candidate)
      return llvm::toString(Candidate.takeError());
    auto Checked =
        KernelEditChecker(Parser, *Parsed, "scale").check(*Candidate);
    if (!Checked)
      return llvm::toString(Checked.takeError());
    return "ok";
  }

  std::string helper() {
    return "__device__ __forceinline__ float thrice(float v) { return 3 * v; "
           "}\n\n";
  }

  clang::tooling::FixedCompilationDatabase DB;
  SourceParser Parser;
  std::unique_ptr<ParsedSource> Parsed;
};

TEST_F(KernelEditTest, SplitsHelpersKernelAndTrailingCode) {
  auto E = KernelEdit::fromCode("// helper\n" + helper() + NewKernel +
                                    "\n\nint other() { return 1; }\n",
                                "scale");
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(E->before(),
            "// helper\n" + llvm::StringRef(helper()).trim().str());
  EXPECT_TRUE(E->definition().starts_with("__global__ void scale("));
  EXPECT_TRUE(E->definition().ends_with("}"));
  EXPECT_EQ(E->after(), "int other() { return 1; }");

  auto None = KernelEdit::fromCode("__global__ void other(int n) {}", "scale");
  ASSERT_FALSE(bool(None));
  EXPECT_EQ(llvm::toString(None.takeError()),
            "the code does not define kernel 'scale'");
}

TEST_F(KernelEditTest, HelpersGoBeforeTheMarkAndTheRestStays) {
  auto E = KernelEdit::fromCode(helper() + NewKernel, "scale");
  ASSERT_TRUE(bool(E));
  auto C = E->applyTo(*Parsed, "scale");
  ASSERT_TRUE(bool(C));
  llvm::StringRef T = C->text();
  size_t Helper = T.find("thrice(float v)");
  size_t Mark = T.find("#pragma optiml");
  size_t Kernel = T.find("__global__ void scale");
  ASSERT_NE(Helper, llvm::StringRef::npos);
  EXPECT_LT(Helper, Mark);
  EXPECT_LT(Mark, Kernel);
  EXPECT_TRUE(T.starts_with("#include <cuda_runtime.h>\n#define SCALE 2.0f\n"));
  EXPECT_TRUE(T.ends_with("int main() { return 0; }\n"));
  EXPECT_EQ(C->path(), "/optiml-unittest/scale.cu");
  EXPECT_EQ(verdict(helper() + NewKernel), "ok");
}

TEST_F(KernelEditTest, RefusesWhatTheHarnessDependsOn) {
  std::string K = NewKernel;
  auto withBody = [&](const std::string &Line) {
    std::string Code = helper() + K;
    return Code.insert(Code.rfind('}'), Line + "\n");
  };
  EXPECT_EQ(verdict(helper() + "#define TILE 16\n" + K),
            "it adds or changes a macro (`#define TILE 16`)");
  EXPECT_EQ(verdict("#include <cstdio>\n" + helper() + K),
            "it adds or changes an include (`#include <cstdio>`)");
  EXPECT_EQ(verdict(withBody("#undef SCALE")),
            "it adds or changes a macro (`#undef SCALE`)");
  EXPECT_EQ(
      verdict(withBody(
          "  cudaLaunchKernel((const void *)scale, 1, 1, nullptr, 0, 0);")),
      "it names `cudaLaunchKernel`, a CUDA runtime API function: a "
      "candidate may not launch, allocate or synchronize");
  EXPECT_EQ(verdict(withBody("  cudaDeviceSynchronize();")),
            "it names `cudaDeviceSynchronize`, a CUDA runtime API function: "
            "a candidate may not launch, allocate or synchronize");
  EXPECT_EQ(verdict(withBody("  optiml_launch(0, 0, 0, 0);")),
            "it names `optiml_launch`: the optiml_ prefix is reserved for the "
            "harness (optiml_kernel_entry, optiml_kernel_name) and OptiML's "
            "rewrites");
  EXPECT_EQ(verdict(helper() + K + "\nint main2() { return main(); }"),
            "it names `main`: only the kernel may change");
  EXPECT_EQ(verdict("__constant__ float coeff[4];\n" + helper() + K),
            "it adds or changes __constant__ data: 'coeff'");
  EXPECT_EQ(verdict("__device__ int counter;\n" + helper() + K),
            "it adds or changes a global variable: 'counter'");
  EXPECT_EQ(verdict("float host_side(float v) { return v; }\n" + helper() + K),
            "it adds or changes host code: function 'host_side'");
  EXPECT_EQ(verdict("__device__ float twice(float v) { return v + v; }\n" +
                    helper() + K),
            "it does not parse: scale.cu:6:18: error: redefinition of "
            "'twice'");
  // A cuda-prefixed type is not the runtime API.
  EXPECT_EQ(verdict(withBody("  cudaStream_t unused_stream = 0;")), "ok");
  // Nothing the kernel had is new.
  EXPECT_EQ(verdict(helper() + K), "ok");
}

TEST_F(KernelEditTest, RefusesSignatureChanges) {
  std::string K = NewKernel;
  auto replaced = [&](const std::string &From, const std::string &To) {
    std::string Code = helper() + K;
    return Code.replace(Code.find(From), From.size(), To);
  };
  EXPECT_EQ(verdict(replaced("int n,", "long n,")),
            "it changes the kernel's signature: parameter 'n' is 'long' "
            "instead of 'int'");
  std::string Renamed =
      replaced("const float *__restrict__ x", "const float *__restrict__ in");
  Renamed.replace(Renamed.find("thrice(x[i]) - x[i]"), 19,
                  "thrice(in[i]) - in[i]");
  EXPECT_EQ(verdict(Renamed),
            "it changes the kernel's signature: parameter 2 is 'in' instead "
            "of 'x' (the spec names parameters)");
  EXPECT_EQ(verdict(replaced("float *__restrict__ y)",
                             "float *__restrict__ y, int extra)")),
            "it changes the kernel's signature: 4 parameters instead of 3");
  EXPECT_EQ(verdict(replaced("void scale(", "void scale2(")),
            "the code does not define kernel 'scale'");
}

TEST_F(KernelEditTest, ParseErrorsAreTheReason) {
  std::string Code = helper() + NewKernel;
  Code.insert(Code.rfind('}'), "  undeclared_thing();\n");
  std::string V = verdict(Code);
  EXPECT_EQ(V.rfind("it does not parse: scale.cu:", 0), 0u) << V;
  EXPECT_NE(V.find("use of undeclared identifier 'undeclared_thing'"),
            std::string::npos)
      << V;
}

TEST(RawTokensTest, DirectivesAndNormalizedTokens) {
  RawTokens T("#define A \\\n  1\nint x; // c\n#pragma unroll\nfor(;;){}");
  auto D = T.directives();
  ASSERT_EQ(D.size(), 2u);
  EXPECT_EQ(D[0].Name, "define");
  EXPECT_EQ(D[0].Text, "#define A 1");
  EXPECT_EQ(D[1].Text, "#pragma unroll");
  EXPECT_EQ(RawTokens("int   x ;/* y */").normalized(),
            RawTokens("int x;").normalized());
  EXPECT_NE(RawTokens("int x;").normalized(), RawTokens("int y;").normalized());
}

} // namespace
