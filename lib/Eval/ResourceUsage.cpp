//===- ResourceUsage.cpp - registers, shared memory, spills --------------===//

#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Protocol/KernelAttributes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

#include <nlohmann/json.hpp>

using namespace optiml;

bool optiml::namesKernel(llvm::StringRef Mangled, llvm::StringRef Kernel) {
  if (Mangled == Kernel)
    return true;
  return Mangled.starts_with("_Z") &&
         Mangled.contains(std::to_string(Kernel.size()) + Kernel.str());
}

static unsigned number(llvm::StringRef Line, const char *Pattern) {
  llvm::SmallVector<llvm::StringRef, 2> M;
  unsigned Value = 0;
  if (llvm::Regex(Pattern).match(Line, &M))
    M[1].getAsInteger(10, Value);
  return Value;
}

std::optional<ResourceUsage>
optiml::parseResourceUsage(llvm::StringRef Log, llvm::StringRef Kernel) {
  llvm::Regex Entry("Compiling entry function '([^']+)'");
  std::optional<ResourceUsage> Found;
  bool InKernel = false;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::SmallVector<llvm::StringRef, 2> M;
    if (Entry.match(Line, &M)) {
      InKernel = namesKernel(M[1], Kernel);
      if (InKernel) {
        Found.emplace();
        Found->Function = M[1].str();
      }
      continue;
    }
    if (!InKernel)
      continue;
    if (Line.contains("bytes stack frame")) {
      Found->StackFrameBytes = number(Line, "([0-9]+) bytes stack frame");
      Found->SpillStoreBytes = number(Line, "([0-9]+) bytes spill stores");
      Found->SpillLoadBytes = number(Line, "([0-9]+) bytes spill loads");
    } else if (Line.contains("Used ") && Line.contains(" registers")) {
      Found->Registers = number(Line, "Used ([0-9]+) registers");
      Found->Barriers = number(Line, "used ([0-9]+) barriers");
      Found->SharedBytes = number(Line, "([0-9]+) bytes smem");
    }
  }
  return Found;
}

ResourceUsage
optiml::withLoadedAttributes(const std::optional<ResourceUsage> &Built,
                             const protocol::KernelAttributes &Loaded,
                             llvm::StringRef Kernel) {
  ResourceUsage U = Built.value_or(ResourceUsage());
  if (U.Function.empty())
    U.Function = Kernel.str();
  U.Source = "driver";
  U.Registers = static_cast<unsigned>(Loaded.Registers);
  U.SharedBytes = static_cast<unsigned>(Loaded.SharedBytes);
  U.StackFrameBytes = static_cast<unsigned>(Loaded.LocalBytes);
  return U;
}

nlohmann::json optiml::toJSON(const ResourceUsage &U) {
  return {{"function", U.Function},
          {"source", U.Source},
          {"registers", U.Registers},
          {"shared_bytes", U.SharedBytes},
          {"stack_frame_bytes", U.StackFrameBytes},
          {"spill_store_bytes", U.SpillStoreBytes},
          {"spill_load_bytes", U.SpillLoadBytes},
          {"barriers", U.Barriers}};
}
