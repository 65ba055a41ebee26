//===- ExamplesSpecTest.cpp - every example's mark instantiates -----------===//
//
// The marks in examples/*.cu are the specs users copy; each must parse,
// validate against its kernel and instantiate to the numbers the kernel's
// own host code uses. The kernels' parameters are written here by hand (the
// frontend is tested elsewhere); the marks are found with PragmaScanner.
//
//===----------------------------------------------------------------------===//

#include "optiml/Analysis/PragmaScanner.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <map>

using namespace optiml;

namespace {

// From CMake, not __FILE__: ccache's base_dir and -fmacro-prefix-map make
// __FILE__ relative to wherever the compiler ran.
std::string examplesDir() { return OPTIML_EXAMPLES_DIR; }

ParamInfo in(llvm::StringRef Name) {
  return ParamInfo{Name.str(), "const float *", true, "float", true, false};
}
ParamInfo out(llvm::StringRef Name) {
  return ParamInfo{Name.str(), "float *", true, "float", false, false};
}
ParamInfo integer(llvm::StringRef Name) {
  return ParamInfo{Name.str(), "int", false, "", false, false};
}
ParamInfo real(llvm::StringRef Name) {
  return ParamInfo{Name.str(), "float", false, "", false, false};
}

/// Each example kernel's parameters, as declared in its file.
const std::map<std::string, std::vector<ParamInfo>> &exampleParams() {
  static const std::map<std::string, std::vector<ParamInfo>> Params = {
      {"block_sum", {in("in"), out("partial"), integer("n")}},
      {"jacobi2d", {in("in"), out("out"), integer("nx"), integer("ny")}},
      {"saxpy", {integer("n"), real("a"), in("x"), out("y")}},
      {"sgemm",
       {in("A"), in("B"), out("C"), integer("m"), integer("n"), integer("k")}},
      {"softmax", {in("in"), out("out"), integer("rows"), integer("cols")}},
      {"transpose", {in("in"), out("out"), integer("rows"), integer("cols")}},
  };
  return Params;
}

/// The kernel of examples/<Name>.cu with its mark, as KernelFinder would
/// describe it.
KernelInfo exampleKernel(llvm::StringRef Name) {
  std::string Path = examplesDir() + "/" + Name.str() + ".cu";
  KernelInfo K;
  K.Name = K.QualifiedName = Name.str();
  K.Pos = SourcePos{Path, 1, 1};
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer) {
    ADD_FAILURE() << "cannot read " << Path;
    return K;
  }
  clang::LangOptions Opts;
  Opts.CPlusPlus = true;
  Opts.CUDA = true;
  auto Marks = PragmaScanner::scan((*Buffer)->getBuffer(), Opts);
  EXPECT_EQ(Marks.size(), 1u) << Path;
  if (!Marks.empty())
    K.Mark = KernelMark{SourcePos{Path, Marks[0].Line, Marks[0].Column},
                        Marks[0].Clauses};
  auto It = exampleParams().find(Name.str());
  if (It == exampleParams().end())
    ADD_FAILURE() << "add the parameters of " << Path << " to this test";
  else
    K.Params = It->second;
  return K;
}

std::vector<ConcreteInstance> instantiate(llvm::StringRef Name,
                                          KernelSpec *Spec = nullptr) {
  KernelInfo K = exampleKernel(Name);
  auto S = loadKernelSpec(K, K.Pos.File, "");
  if (!S) {
    ADD_FAILURE() << summarize(S.takeError()).Message;
    return {};
  }
  if (Spec)
    *Spec = *S;
  auto I = S->instantiate(K);
  if (!I) {
    ADD_FAILURE() << summarize(I.takeError()).Message;
    return {};
  }
  return *I;
}

using Dims = std::array<int64_t, 3>;

TEST(ExamplesSpecTest, EveryExampleMarkInstantiates) {
  std::error_code EC;
  unsigned Count = 0;
  for (llvm::sys::fs::directory_iterator It(examplesDir(), EC), End;
       It != End && !EC; It.increment(EC)) {
    if (llvm::sys::path::extension(It->path()) != ".cu")
      continue;
    std::string Name = llvm::sys::path::stem(It->path()).str();
    SCOPED_TRACE(Name);
    auto I = instantiate(Name);
    ASSERT_GE(I.size(), 2u); // The default and "odd" instances.
    EXPECT_EQ(I[0].Name, "default");
    EXPECT_TRUE(I[0].Time);
    EXPECT_EQ(I[1].Name, "odd");
    ++Count;
  }
  EXPECT_FALSE(EC);
  EXPECT_EQ(Count, exampleParams().size());
}

TEST(ExamplesSpecTest, Sgemm) {
  KernelSpec Spec;
  auto I = instantiate("sgemm", &Spec);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Grid, (Dims{256, 256, 1}));
  EXPECT_EQ(I[0].Block, (Dims{16, 16, 1}));
  EXPECT_EQ(I[0].Args[0].Count, 4096 * 4096);
  EXPECT_EQ(I[0].Args[3].Value, 4096);
  EXPECT_EQ(I[1].Grid, (Dims{7, 9, 1}));
  EXPECT_EQ(I[1].Args[0].Count, 133 * 71); // A[M * K]
  EXPECT_EQ(I[1].Args[1].Count, 71 * 97);  // B[K * N]
  EXPECT_EQ(I[1].Args[2].Count, 133 * 97); // C[M * N]
  EXPECT_EQ(I[1].Args[2].Role, ArgRole::Out);
  EXPECT_EQ(Spec.RTol, 1e-4);
  EXPECT_EQ(Spec.ATol, 1e-4);
}

TEST(ExamplesSpecTest, Saxpy) {
  auto I = instantiate("saxpy");
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Grid, (Dims{65536, 1, 1}));
  EXPECT_EQ(I[0].Args[1].Value, 2.5);
  EXPECT_EQ(I[0].Args[3].Role, ArgRole::InOut);
  EXPECT_EQ(I[1].Grid[0], 391);
  EXPECT_EQ(I[1].Args[0].Value, 100003);
}

TEST(ExamplesSpecTest, BlockSum) {
  auto I = instantiate("block_sum");
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Args[1].Count, 65536); // partial[(N + 255) / 256]
  EXPECT_EQ(I[1].Args[1].Count, 274);
  EXPECT_EQ(I[1].Grid[0], 274);
}

TEST(ExamplesSpecTest, Jacobi2d) {
  auto I = instantiate("jacobi2d");
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Grid, (Dims{256, 1024, 1}));
  EXPECT_EQ(I[0].Block, (Dims{32, 8, 1}));
  EXPECT_EQ(I[1].Grid, (Dims{17, 38, 1}));
}

TEST(ExamplesSpecTest, SoftmaxAndTranspose) {
  auto S = instantiate("softmax");
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Grid[0], 32);
  ASSERT_TRUE(S[0].Args[0].Dist);
  EXPECT_EQ(S[0].Args[0].Dist->Kind, "uniform");
  EXPECT_EQ(S[0].Args[0].Dist->A, -8);
  EXPECT_EQ(S[1].Args[0].Count, 77 * 1001);
  KernelSpec Spec;
  auto T = instantiate("transpose", &Spec);
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0].Grid, (Dims{256, 256, 1}));
  EXPECT_EQ(T[1].Grid, (Dims{25, 32, 1}));
  EXPECT_EQ(Spec.RTol, 0);
  EXPECT_EQ(Spec.ATol, 0);
}

} // namespace
