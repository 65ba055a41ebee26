//===- BuilderTest.cpp - launchers compiled by the real nvcc -------------===//
//
// Runs nvcc (present wherever OptiML builds); no GPU is needed to compile.
//
//===----------------------------------------------------------------------===//

#include "optiml/Eval/Builder.h"
#include "optiml/Eval/LauncherGenerator.h"
#include "optiml/Support/Error.h"
#include "optiml/Support/Subprocess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"
#include <optional>
#include <thread>

using namespace optiml;

namespace {

KernelInfo saxpyInfo() {
  KernelInfo K;
  K.Name = K.QualifiedName = "saxpy";
  return K;
}

const char SaxpySource[] =
    "#include <cstdio>\n"
    "__global__ void saxpy(int n, float a, const float *x, float *y) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "int main() { std::printf(\"user main\\n\"); return 0; }\n";

class BuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-builds", Dir));
    CacheRoot = std::string(Dir);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(CacheRoot); }

  Builder makeBuilder(std::string Cuobjdump = "") {
    BuildOptions O;
    O.CacheRoot = CacheRoot;
    O.Cuobjdump = std::move(Cuobjdump);
    auto B = Builder::create(O);
    if (!B) {
      ADD_FAILURE() << summarize(B.takeError()).Message;
      std::abort();
    }
    return std::move(*B);
  }

  /// A stand-in for cuobjdump: a shell script that checks its arguments
  /// and prints \p Dump, or fails.
  std::string fakeCuobjdump(llvm::StringRef Dump, bool Fails = false) {
    std::string Path = CacheRoot + "/cuobjdump";
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    OS << "#!/bin/sh\n"
       << (Fails ? "echo 'cuobjdump fatal' >&2; exit 1\n" : "")
       << "[ \"$1\" = -sass ] && [ -f \"$2\" ] || exit 2\n"
       << "cat '" << Dump << "'\n";
    OS.close();
    llvm::sys::fs::setPermissions(Path, llvm::sys::fs::all_read |
                                            llvm::sys::fs::all_exe |
                                            llvm::sys::fs::owner_write);
    return Path;
  }

  std::string CacheRoot;
};

const char SaxpyDump[] = OPTIML_UNITTEST_INPUTS "/saxpy-so.sass";

TEST(LauncherGeneratorTest, AppendsTheABIAndRenamesMain) {
  auto L =
      generateLauncher(KernelSource("/src/saxpy.cu", SaxpySource), saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(L));
  EXPECT_EQ(
      L->find("#define main optiml_user_main_\n#line 1 \"/src/saxpy.cu\""), 0u);
  EXPECT_NE(L->find("extern \"C\" const void *optiml_kernel_entry("),
            std::string::npos);
  // The launch is the runner's: nothing of it is compiled with the candidate.
  EXPECT_EQ(L->find("cudaLaunchKernel"), std::string::npos);
  EXPECT_NE(L->find("reinterpret_cast<const void *>(&::saxpy)"),
            std::string::npos);
  EXPECT_NE(L->find("return \"saxpy\";"), std::string::npos);
}

TEST(LauncherGeneratorTest, TemplatesNeedTheirArguments) {
  KernelInfo K = saxpyInfo();
  K.TemplateParameters = {"typename T"};
  auto L = generateLauncher(KernelSource("k.cu", SaxpySource), K);
  ASSERT_FALSE(static_cast<bool>(L));
  EXPECT_EQ(summarize(L.takeError()).Kind, ErrorKind::BadInput);
}

TEST(LauncherGeneratorTest, TemplatesLaunchTheirSpecialization) {
  KernelInfo K = saxpyInfo();
  K.TemplateParameters = {"typename T"};
  K.Specialization = "<float>";
  auto L = generateLauncher(KernelSource("k.cu", SaxpySource), K);
  ASSERT_TRUE(static_cast<bool>(L)) << llvm::toString(L.takeError());
  EXPECT_NE(L->find("reinterpret_cast<const void *>(&::saxpy<float>)"),
            std::string::npos);
}

TEST_F(BuilderTest, NvccReleaseIsOneLineNamingTheRelease) {
  // Part of the search database's toolchain key: one line, the release.
  std::string R = makeBuilder().nvccRelease();
  EXPECT_NE(R.find("release"), std::string::npos) << R;
  EXPECT_EQ(R.find('\n'), std::string::npos) << R;
}

TEST_F(BuilderTest, BuildsSharedObjectWithTheABIAndCachesIt) {
  Builder B = makeBuilder();
  KernelSource Src(CacheRoot + "/saxpy.cu", SaxpySource);
  auto R = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  ASSERT_TRUE(R->Succeeded) << R->Log;
  EXPECT_FALSE(R->Cached);
  ASSERT_TRUE(R->Usage.has_value());
  EXPECT_GT(R->Usage->Registers, 0u);

  // The shared object exports the two C entry points and no `main`.
  std::string Nm = findProgram("nm");
  ASSERT_FALSE(Nm.empty());
  auto Syms = runSubprocess(Nm, {Nm, "-D", "--defined-only", R->Library}, 60);
  ASSERT_TRUE(static_cast<bool>(Syms));
  EXPECT_NE(Syms->Output.find(" T optiml_kernel_entry"), std::string::npos);
  EXPECT_NE(Syms->Output.find(" T optiml_kernel_name"), std::string::npos);
  EXPECT_EQ(Syms->Output.find(" T main\n"), std::string::npos);

  auto Again = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_EQ(Again->Key, R->Key);
  EXPECT_EQ(Again->Library, R->Library);
}

TEST_F(BuilderTest, WithoutCuobjdumpABuildHasNoMixAndNoError) {
  Builder B = makeBuilder(CacheRoot + "/no-such-cuobjdump");
  KernelSource Src(CacheRoot + "/saxpy.cu", SaxpySource);
  auto R = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  ASSERT_TRUE(R->Succeeded) << R->Log;
  EXPECT_TRUE(R->Usage.has_value());
  EXPECT_FALSE(R->Sass.has_value());
  auto Again = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_FALSE(Again->Sass.has_value());
}

TEST_F(BuilderTest, FailingCuobjdumpMeansNoMix) {
  Builder B = makeBuilder(fakeCuobjdump(SaxpyDump, /*Fails=*/true));
  auto R =
      B.build(KernelSource(CacheRoot + "/saxpy.cu", SaxpySource), saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  EXPECT_TRUE(R->Succeeded) << R->Log;
  EXPECT_FALSE(R->Sass.has_value());
}

TEST_F(BuilderTest, CuobjdumpMixIsAttachedAndKeptWithTheBuild) {
  std::string Fake = fakeCuobjdump(SaxpyDump);
  Builder B = makeBuilder(Fake);
  EXPECT_EQ(B.options().Cuobjdump, Fake);
  KernelSource Src(CacheRoot + "/saxpy.cu", SaxpySource);
  auto R = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  ASSERT_TRUE(R->Succeeded) << R->Log;
  ASSERT_TRUE(R->Sass.has_value());
  EXPECT_EQ(R->Sass->Function, "_Z5saxpyifPKfPf");
  EXPECT_EQ(R->Sass->Instructions, 19u);
  EXPECT_EQ(R->Sass->GlobalLoads.Bits32, 2u);

  // The dump is kept beside the library: a cached build runs no process,
  // so it has its mix even when cuobjdump has gone.
  llvm::sys::fs::remove(Fake);
  auto Again = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  ASSERT_TRUE(Again->Sass.has_value());
  EXPECT_EQ(Again->Sass->Instructions, 19u);
}

TEST_F(BuilderTest, CuobjdumpIsTakenFromBesideNvcc) {
  // A toolkit folder: nvcc (a link to the real one) and a cuobjdump.
  std::string Real = makeBuilder().options().Nvcc;
  std::string Bin = CacheRoot + "/toolkit-bin";
  ASSERT_FALSE(llvm::sys::fs::create_directories(Bin));
  ASSERT_FALSE(llvm::sys::fs::create_link(Real, Bin + "/nvcc"));
  std::string Fake = fakeCuobjdump(SaxpyDump);
  ASSERT_FALSE(llvm::sys::fs::rename(Fake, Bin + "/cuobjdump"));
  BuildOptions O;
  O.Nvcc = Bin + "/nvcc";
  O.CacheRoot = CacheRoot;
  auto B = Builder::create(O);
  ASSERT_TRUE(static_cast<bool>(B)) << summarize(B.takeError()).Message;
  EXPECT_EQ(B->options().Cuobjdump, Bin + "/cuobjdump");
}

TEST_F(BuilderTest, CompileErrorIsARecordedResult) {
  Builder B = makeBuilder();
  KernelSource Bad(CacheRoot + "/bad.cu",
                   "__global__ void saxpy(float *p) { p[0] = nope; }\n");
  auto R = B.build(Bad, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R));
  EXPECT_FALSE(R->Succeeded);
  EXPECT_NE(R->Log.find("nope"), std::string::npos);
  // Failures are remembered, never retried.
  auto Again = B.build(Bad, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(Again));
  EXPECT_TRUE(Again->Cached);
  EXPECT_FALSE(Again->Succeeded);
}

TEST_F(BuilderTest, ParallelBuildsKeepRequestOrder) {
  Builder B = makeBuilder();
  KernelSource A(CacheRoot + "/a.cu", SaxpySource);
  KernelSource C(CacheRoot + "/c.cu",
                 std::string(SaxpySource) + "// a different candidate\n");
  KernelInfo K = saxpyInfo();
  auto Results = B.buildAll({{&A, &K}, {&C, &K}}, 2);
  ASSERT_EQ(Results.size(), 2u);
  ASSERT_TRUE(Results[0] && Results[1]);
  EXPECT_TRUE(Results[0]->Succeeded && Results[1]->Succeeded);
  EXPECT_NE(Results[0]->Key, Results[1]->Key);
}

/// The files of the build directory of \p Library.
static std::vector<std::string> filesBeside(llvm::StringRef Library) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator
           It(llvm::sys::path::parent_path(Library), EC),
       End;
       It != End && !EC; It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  return Names;
}

TEST_F(BuilderTest, TwoSearchesBuildingOneCandidateShareAWholeLibrary) {
  // Two searches (two processes, two GPUs) may build the same candidate
  // into one cache at once: each nvcc writes its own file, renamed into
  // place whole, so neither loads the other's half-written library.
  Builder First = makeBuilder(), Second = makeBuilder();
  KernelSource Src(CacheRoot + "/saxpy.cu", SaxpySource);
  KernelInfo K = saxpyInfo();
  std::optional<llvm::Expected<BuildResult>> A, B;
  std::thread T1([&] { A.emplace(First.build(Src, K)); });
  std::thread T2([&] { B.emplace(Second.build(Src, K)); });
  T1.join();
  T2.join();
  ASSERT_TRUE(*A && *B);
  EXPECT_TRUE((*A)->Succeeded && (*B)->Succeeded);
  EXPECT_EQ((*A)->Library, (*B)->Library);
  EXPECT_TRUE(llvm::sys::fs::exists((*A)->Library));
  for (const std::string &Name : filesBeside((*A)->Library))
    EXPECT_EQ(Name.find(".tmp-"), std::string::npos) << Name;
}

TEST_F(BuilderTest, AFailedBuildLeavesNoPartialLibrary) {
  Builder B = makeBuilder();
  KernelSource Src(CacheRoot + "/bad.cu",
                   "__global__ void saxpy(int n) { undeclared(n); }\n");
  auto R = B.build(Src, saxpyInfo());
  ASSERT_TRUE(static_cast<bool>(R)) << summarize(R.takeError()).Message;
  EXPECT_FALSE(R->Succeeded);
  llvm::SmallString<256> Dir(CacheRoot);
  llvm::sys::path::append(Dir, R->Key, "candidate.so");
  EXPECT_FALSE(llvm::sys::fs::exists(Dir));
  for (const std::string &Name : filesBeside(Dir))
    EXPECT_EQ(Name.find(".tmp-"), std::string::npos) << Name;
}

} // namespace
