//===- OutputPathTest.cpp - outputs written whole or not at all ----------===//

#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "gtest/gtest.h"

#include <csignal>
#include <sys/resource.h>

using namespace optiml;

namespace {

std::string messageOf(llvm::Error E) { return llvm::toString(std::move(E)); }

TEST(OutputPathTest, AFailedWriteIsAnErrorAndLeavesNoFile) {
  // A file-size limit makes writes fail the way a full disk does (EFBIG
  // instead of ENOSPC), without touching the system's disks.
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("optiml", Dir));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "out.json");
  struct rlimit Old;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &Old), 0);
  auto OldHandler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit Small = Old;
  Small.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &Small), 0);
  llvm::Error E = writeOutputFile(File, std::string(1 << 16, 'x'));
  setrlimit(RLIMIT_FSIZE, &Old);
  std::signal(SIGXFSZ, OldHandler);
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Message = messageOf(std::move(E));
  EXPECT_NE(Message.find("cannot write " + std::string(File) + ": "),
            std::string::npos)
      << Message;
  // Neither the file nor the temporary it was written through is left.
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  EXPECT_EQ(It, llvm::sys::fs::directory_iterator()) << It->path();
  llvm::sys::fs::remove_directories(Dir);
}

TEST(OutputPathTest, AFileWhereAFolderShouldBeIsAnError) {
  llvm::SmallString<128> File;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("optiml", "txt", File));
  llvm::FileRemover Remove(File);
  llvm::SmallString<128> Inside(File);
  llvm::sys::path::append(Inside, "out.cu");
  std::string Message = messageOf(writeOutputFile(Inside, "x"));
  EXPECT_NE(Message.find("cannot write " + std::string(Inside)),
            std::string::npos)
      << Message;
}

TEST(OutputPathTest, AWrittenFileHasTheWholeText) {
  llvm::SmallString<128> File;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("optiml", "txt", File));
  llvm::FileRemover Remove(File);
  ASSERT_FALSE(static_cast<bool>(writeOutputFile(File, "whole\n")));
  auto Back = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(static_cast<bool>(Back));
  EXPECT_EQ((*Back)->getBuffer(), "whole\n");
}

} // namespace
