//===- KernelSource.cpp - an immutable CUDA translation unit -------------===//

#include "optiml/IR/KernelSource.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

using namespace optiml;

KernelSource::KernelSource(std::string Path, std::string Text)
    : Path(std::move(Path)), Text(std::move(Text)) {
  Hash =
      llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(this->Text)),
                  /*LowerCase=*/true);
}

llvm::Expected<KernelSource> KernelSource::fromFile(llvm::StringRef Path) {
  if (llvm::sys::fs::is_directory(Path))
    return makeError(ErrorKind::BadInput, Path + ": is a directory");
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return makeError(ErrorKind::BadInput,
                     Path + ": " + Buffer.getError().message());
  return KernelSource(Path.str(), (*Buffer)->getBuffer().str());
}
