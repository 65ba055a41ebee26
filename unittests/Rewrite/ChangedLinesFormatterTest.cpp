//===- ChangedLinesFormatterTest.cpp --------------------------------------===//

#include "optiml/Rewrite/ChangedLinesFormatter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

// The user's own odd spacing outside the change must survive.
const char *Original = "int  keep( int x ) { return x; }\n"
                       "__global__ void k(float *p) {\n"
                       "  p[threadIdx.x] = 1.0f;\n"
                       "}\n"
                       "int  tail( int y ) { return y; }\n";

const char *Rewritten = "int  keep( int x ) { return x; }\n"
                        "__global__ void k(float *p) {\n"
                        "  #pragma unroll\n"
                        "  for (int j=0;j<4;++j) p[threadIdx.x*4+j] = 1.0f;\n"
                        "}\n"
                        "int  tail( int y ) { return y; }\n";

TEST(ChangedLinesFormatterTest, FormatsOnlyTheChangedLines) {
  std::string Out =
      formatChangedLines(Original, Rewritten, "/nonexistent/k.cu");
  EXPECT_NE(Out.find("int  keep( int x ) { return x; }\n"), std::string::npos);
  EXPECT_NE(Out.find("int  tail( int y ) { return y; }\n"), std::string::npos);
  EXPECT_NE(Out.find("for (int j = 0; j < 4; ++j)"), std::string::npos) << Out;
  EXPECT_EQ(Out.find("j=0"), std::string::npos) << Out;
}

TEST(ChangedLinesFormatterTest, AnUnchangedLineBetweenTwoChangesStays) {
  const char *Before = "__global__ void k(float *p) {\n"
                       "  int i = threadIdx.x;\n"
                       "  p[i]  =  0.0f;   // the user's spacing\n"
                       "  p[i+1] = 1.0f;\n"
                       "}\n";
  const char *After = "__global__ void k(float *p) {\n"
                      "  int i = threadIdx.x*2;\n"
                      "  p[i]  =  0.0f;   // the user's spacing\n"
                      "      p[i+1] = 1.0f;\n"
                      "}\n";
  std::string Out = formatChangedLines(Before, After, "/nonexistent/k.cu");
  EXPECT_EQ(Out, "__global__ void k(float *p) {\n"
                 "  int i = threadIdx.x * 2;\n"
                 "  p[i]  =  0.0f;   // the user's spacing\n"
                 "  p[i + 1] = 1.0f;\n"
                 "}\n");
}

TEST(ChangedLinesFormatterTest, UnchangedTextStaysAsItIs) {
  EXPECT_EQ(formatChangedLines(Original, Original, "/nonexistent/k.cu"),
            Original);
}

TEST(ChangedLinesFormatterTest, UsesTheStyleOfTheUsersFile) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml-style", Dir));
  llvm::SmallString<128> Style(Dir);
  llvm::sys::path::append(Style, ".clang-format");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Style, EC);
    ASSERT_FALSE(EC);
    OS << "BasedOnStyle: LLVM\nIndentWidth: 4\n";
  }
  llvm::SmallString<128> Source(Dir);
  llvm::sys::path::append(Source, "k.cu");
  std::string Out = formatChangedLines(Original, Rewritten, Source);
  EXPECT_NE(Out.find("\n    for (int j = 0; j < 4; ++j)"), std::string::npos)
      << Out;
  llvm::sys::fs::remove(Style);
  llvm::sys::fs::remove(Dir);
}

} // namespace
