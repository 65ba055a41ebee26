//===- OutputPath.cpp - never overwrite the user's input -----------------===//

#include "optiml/Support/OutputPath.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
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
                                    llvm::StringRef Output,
                                    llvm::StringRef Option) {
  if (Output.empty() || Output == "-")
    return llvm::Error::success();
  bool Same = realPathOf(Input) == realPathOf(Output);
  bool Equivalent = false;
  if (!Same && !llvm::sys::fs::equivalent(Input, Output, Equivalent))
    Same = Equivalent;
  if (Same)
    return makeError(ErrorKind::BadInput,
                     Option + " " + Output +
                         " names the input file; OptiML never overwrites its "
                         "input (choose another output)");
  return llvm::Error::success();
}

/// Whether a file can be created in \p Dir. Tried rather than read from
/// the permissions, which do not tell for root, read-only mounts or /proc.
static std::error_code probeFolder(llvm::StringRef Dir) {
  llvm::SmallString<256> Model(Dir);
  llvm::sys::path::append(Model, ".optiml-probe-%%%%%%");
  int FD = -1;
  llvm::SmallString<256> Probe;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, Probe))
    return EC;
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return llvm::sys::fs::remove(Probe);
}

/// BadInput unless files can be created in the existing path \p Dir.
static llvm::Error checkFolder(llvm::StringRef Dir, const llvm::Twine &Where) {
  if (!llvm::sys::fs::is_directory(Dir))
    return makeError(ErrorKind::BadInput,
                     Where + ": " + Dir + " is not a folder");
  if (std::error_code EC = probeFolder(Dir))
    return makeError(ErrorKind::BadInput,
                     Where + ": cannot write in " + Dir + ": " + EC.message());
  return llvm::Error::success();
}

llvm::Error optiml::checkOutputFile(llvm::StringRef Path,
                                    llvm::StringRef Option) {
  if (Path.empty() || Path == "-")
    return llvm::Error::success();
  std::string Where = (Option + " " + Path).str();
  if (llvm::sys::fs::is_directory(Path))
    return makeError(ErrorKind::BadInput,
                     Where + ": is a folder; give a file name");
  std::string Dir = llvm::sys::path::parent_path(Path).str();
  if (Dir.empty())
    Dir = ".";
  if (!llvm::sys::fs::exists(Dir))
    return makeError(ErrorKind::BadInput,
                     Where + ": the folder " + Dir + " does not exist");
  return checkFolder(Dir, Where);
}

llvm::Error optiml::checkOutputFolder(llvm::StringRef Path,
                                      llvm::StringRef Option) {
  std::string Where = (Option + " " + Path).str();
  if (llvm::sys::fs::exists(Path) && !llvm::sys::fs::is_directory(Path))
    return makeError(ErrorKind::BadInput, Where + ": is a file; give a folder");
  llvm::SmallString<256> Existing(Path);
  while (!Existing.empty() && !llvm::sys::fs::exists(Existing))
    llvm::sys::path::remove_filename(Existing);
  return checkFolder(Existing.empty() ? llvm::StringRef(".")
                                      : llvm::StringRef(Existing),
                     Where);
}

llvm::Error optiml::writeOutputFile(llvm::StringRef Path,
                                    llvm::StringRef Text) {
  auto Fail = [&](const llvm::Twine &Why) {
    return makeError(ErrorKind::BadInput, "cannot write " + Path + ": " + Why);
  };
  auto Temp = llvm::sys::fs::TempFile::create(Path + ".tmp-%%%%%%");
  if (!Temp)
    return Fail(llvm::toString(Temp.takeError()));
  // Write errors (a full disk, a file-size limit) are checked here: left in
  // the stream, they would end the process when it is destroyed.
  std::error_code EC;
  {
    llvm::raw_fd_ostream Out(Temp->FD, /*shouldClose=*/false);
    Out << Text;
    Out.flush();
    EC = Out.error();
    Out.clear_error();
  }
  if (EC) {
    llvm::consumeError(Temp->discard());
    return Fail(EC.message());
  }
  if (llvm::Error E = Temp->keep(Path))
    return Fail(llvm::toString(std::move(E)));
  return llvm::Error::success();
}
