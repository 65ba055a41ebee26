//===- Rewrite.h - a transform planned at one site ------------*- C++ -*-===//
//
// What Transform::plan returns once legality is decided: the plan (private
// to the transform's folder) bound to the code that writes its edits. The
// caller emits the edits when it wants them, without the analysis running
// again.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_REWRITE_H
#define OPTIML_TRANSFORM_REWRITE_H

#include "optiml/Rewrite/EditSet.h"

#include "llvm/ADT/FunctionExtras.h"

namespace optiml {

class Rewrite {
public:
  using Emitter = llvm::unique_function<llvm::Expected<EditSet>() const>;

  explicit Rewrite(Emitter E) : Emit(std::move(E)) {}

  /// The edits, with the notes on what they rest on.
  llvm::Expected<EditSet> edits() const { return Emit(); }

private:
  Emitter Emit;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_REWRITE_H
