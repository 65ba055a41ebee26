//===- PromptLibrary.cpp - where the prompt templates live ---------------===//

#include "optiml/LLM/PromptLibrary.h"
#include "optiml/Support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace optiml;

static int Anchor;

PromptLibrary PromptLibrary::locate(llvm::StringRef Dir, const char *Argv0) {
  if (!Dir.empty())
    return PromptLibrary(Dir.str());
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Installed, "..", "share", "optiml", "prompts");
  if (llvm::sys::fs::is_directory(Installed))
    return PromptLibrary(std::string(Installed));
  return PromptLibrary(OPTIML_SOURCE_DIR "/prompts");
}

llvm::Expected<PromptTemplate> PromptLibrary::load(llvm::StringRef Name) const {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Name + ".prompt");
  if (!llvm::sys::fs::exists(Path))
    return makeError(ErrorKind::BadInput,
                     "no prompt '" + Name + "' in " + Dir +
                         " (--prompts-dir names the folder of *.prompt "
                         "files)");
  return PromptTemplate::load(Path);
}
