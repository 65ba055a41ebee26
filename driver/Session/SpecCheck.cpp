//===- SpecCheck.cpp - one kernel's spec, checked ------------------------===//

#include "driver/Session/SpecCheck.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Support/ErrorMessages.h"

using namespace optiml;

KernelCheck optiml::checkKernelSpec(const KernelInfo &K, llvm::StringRef File,
                                    llvm::StringRef SpecPath) {
  KernelCheck C{&K, false, 0, {}};
  auto Spec = findKernelSpec(K, File, SpecPath);
  if (!Spec) {
    C.HasSpec = true;
    C.Errors = messagesOf(Spec.takeError());
  } else if (*Spec) {
    C.HasSpec = true;
    C.Instances = (*Spec)->Instances.size();
  }
  return C;
}
