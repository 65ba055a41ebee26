//===- OutputPath.cpp - never overwrite the user's input -----------------===//

#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace optiml;

/// The real path \p Path has, or would have once created.
static std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (!llvm::sys::fs::real_path(Path, Real))
    return std::string(Real);
  llvm::SmallString<256> Parent(llvm::sys::path::parent_path(Path));
  if (Parent.empty())
    Parent = ".";
  if (llvm::sys::fs::real_path(Parent, Real))
    return Path.str();
  llvm::sys::path::append(Real, llvm::sys::path::filename(Path));
  return std::string(Real);
}

llvm::Error optiml::refuseOverwrite(llvm::StringRef Input,
                                    llvm::StringRef Output) {
  if (Output.empty() || Output == "-")
    return llvm::Error::success();
  bool Same = realPathOf(Input) == realPathOf(Output);
  bool Equivalent = false;
  if (!Same && !llvm::sys::fs::equivalent(Input, Output, Equivalent))
    Same = Equivalent;
  if (Same)
    return makeError(ErrorKind::BadInput,
                     "-o " + Output +
                         " names the input file; OptiML never overwrites its "
                         "input (choose another output)");
  return llvm::Error::success();
}

llvm::Error optiml::writeOutputFile(llvm::StringRef Path,
                                    llvm::StringRef Text) {
  llvm::Error E = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Text;
    return llvm::Error::success();
  });
  if (!E)
    return llvm::Error::success();
  return makeError(ErrorKind::BadInput,
                   "cannot write " + Path + ": " + llvm::toString(std::move(E)));
}
