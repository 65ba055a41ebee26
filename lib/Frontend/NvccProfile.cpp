//===- NvccProfile.cpp - the header search nvcc adds by itself ------------===//

#include "optiml/Frontend/NvccProfile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace optiml;
using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

/// $(NAME) replaced by its value; unknown names by nothing, as make does.
std::string expand(StringRef Value, const llvm::StringMap<std::string> &Vars) {
  std::string Out;
  while (!Value.empty()) {
    size_t Open = Value.find("$(");
    size_t Close = Open == StringRef::npos ? Open : Value.find(')', Open);
    if (Close == StringRef::npos) {
      Out += Value.str();
      break;
    }
    Out += Value.take_front(Open).str();
    auto It = Vars.find(Value.slice(Open + 2, Close));
    if (It != Vars.end())
      Out += It->second;
    Value = Value.drop_front(Close + 1);
  }
  return Out;
}

/// Shell-like words: double-quoted strings keep their spaces.
std::vector<std::string> words(StringRef Text) {
  std::vector<std::string> Out;
  std::string Cur;
  bool Quoted = false, Any = false;
  for (char C : Text) {
    if (C == '"') {
      Quoted = !Quoted;
      Any = true;
    } else if (!Quoted && (C == ' ' || C == '\t')) {
      if (Any)
        Out.push_back(Cur);
      Cur.clear();
      Any = false;
    } else {
      Cur += C;
      Any = true;
    }
  }
  if (Any)
    Out.push_back(Cur);
  return Out;
}

/// The include folders named by the flags in \p Flags (-I, -isystem).
void addDirs(StringRef Flags, std::vector<NvccIncludeDir> &Out) {
  std::vector<std::string> W = words(Flags);
  for (size_t I = 0; I < W.size(); ++I) {
    StringRef F = W[I];
    bool System = F.consume_front("-isystem");
    if (!System && !F.consume_front("-I"))
      continue;
    std::string Dir = F.empty() && I + 1 < W.size() ? W[++I] : F.str();
    if (Dir.empty())
      continue;
    llvm::SmallString<256> Clean(Dir);
    path::remove_dots(Clean, /*remove_dot_dot=*/true);
    Out.push_back({std::string(Clean), System});
  }
}

/// nvcc's name for the host's target folder: targets/x86_64-linux,
/// targets/sbsa-linux on Arm servers. The tool runs on the host it was built
/// for, so the compiler's own target names the folder.
std::string targetDirOf(StringRef CudaPath) {
#if defined(__aarch64__)
  std::string Dir = "targets/sbsa-linux";
#elif defined(__powerpc64__)
  std::string Dir = "targets/ppc64le-linux";
#else
  std::string Dir = "targets/x86_64-linux";
#endif
  llvm::SmallString<256> Probe(CudaPath);
  path::append(Probe, Dir);
  return fs::is_directory(Probe) ? Dir : "";
}

} // namespace

std::vector<NvccIncludeDir> NvccProfile::parse(StringRef Text, StringRef BinDir,
                                               StringRef TargetDir) {
  llvm::StringMap<std::string> Vars;
  Vars["_HERE_"] = BinDir.str();
  Vars["_TARGET_DIR_"] = TargetDir.str();
  Vars["_SPACE_"] = " ";
  llvm::SmallVector<StringRef, 32> Lines;
  Text.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.split('#').first.trim();
    size_t Eq = Line.find('=');
    if (Eq == StringRef::npos || Eq == 0)
      continue;
    bool Append = Line[Eq - 1] == '+';
    bool Prepend = !Append && Line.substr(Eq + 1).starts_with("+");
    StringRef Name = Line.take_front(Append ? Eq - 1 : Eq).trim();
    StringRef Value = Line.drop_front(Eq + 1 + (Prepend ? 1 : 0)).trim();
    std::string V = expand(Value, Vars);
    std::string &Slot = Vars[Name];
    Slot = Append ? Slot + V : Prepend ? V + Slot : V;
  }
  std::vector<NvccIncludeDir> Out;
  addDirs(Vars.lookup("INCLUDES"), Out);
  addDirs(Vars.lookup("SYSTEM_INCLUDES"), Out);
  return Out;
}

std::vector<NvccIncludeDir> NvccProfile::includeDirs(StringRef CudaPath) {
  llvm::SmallString<256> Bin(CudaPath);
  path::append(Bin, "bin");
  llvm::SmallString<256> Profile(Bin);
  path::append(Profile, "nvcc.profile");
  if (auto Text = llvm::MemoryBuffer::getFile(Profile))
    return parse((*Text)->getBuffer(), Bin, targetDirOf(CudaPath));
  llvm::SmallString<256> Cccl(CudaPath);
  path::append(Cccl, "include", "cccl");
  if (fs::is_directory(Cccl))
    return {{std::string(Cccl), true}};
  return {};
}
