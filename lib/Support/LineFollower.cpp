//===- LineFollower.cpp - the lines a child appends to a file ------------===//

#include "optiml/Support/LineFollower.h"

using namespace optiml;
namespace fs = llvm::sys::fs;

LineFollower::LineFollower(llvm::StringRef Path, OutputLineFn OnLine)
    : OnLine(std::move(OnLine)) {
  if (!this->OnLine)
    return;
  auto FD = fs::openNativeFileForRead(Path);
  if (FD)
    File = *FD;
  else
    llvm::consumeError(FD.takeError());
}

LineFollower::~LineFollower() {
  if (File != fs::kInvalidFile)
    fs::closeFile(File);
}

void LineFollower::poll() {
  if (File == fs::kInvalidFile)
    return;
  char Chunk[4096];
  for (;;) {
    auto Read = fs::readNativeFile(File, Chunk);
    if (!Read) {
      llvm::consumeError(Read.takeError());
      return;
    }
    if (*Read == 0)
      break;
    Pending.append(Chunk, *Read);
  }
  size_t Start = 0;
  for (size_t End; (End = Pending.find('\n', Start)) != std::string::npos;
       Start = End + 1)
    OnLine(llvm::StringRef(Pending).slice(Start, End));
  Pending.erase(0, Start);
}

void LineFollower::finish() {
  poll();
  if (File != fs::kInvalidFile && !Pending.empty())
    OnLine(Pending);
  Pending.clear();
}
