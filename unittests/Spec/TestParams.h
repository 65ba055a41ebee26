//===- TestParams.h - parameters of hand-made kernels for spec tests -----===//
//
// The ParamInfo a kernel finder would give a pointer or a value parameter,
// for spec tests that describe kernels by hand instead of parsing them.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_UNITTESTS_SPEC_TESTPARAMS_H
#define OPTIML_UNITTESTS_SPEC_TESTPARAMS_H

#include "optiml/IR/KernelInfo.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace optiml::test {

/// `[const] Elem *Name`.
inline ParamInfo pointerParam(llvm::StringRef Name, llvm::StringRef Elem,
                              bool Const) {
  ParamInfo P;
  P.Name = Name.str();
  P.Type = (Const ? "const " : "") + Elem.str() + " *";
  P.IsPointer = true;
  P.PointeeType = Elem.str();
  P.IsConst = Const;
  return P;
}

/// `Type Name`.
inline ParamInfo valueParam(llvm::StringRef Name, llvm::StringRef Type) {
  ParamInfo P;
  P.Name = Name.str();
  P.Type = Type.str();
  return P;
}

} // namespace optiml::test

#endif // OPTIML_UNITTESTS_SPEC_TESTPARAMS_H
