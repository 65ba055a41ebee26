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

  /// \p Plan's refusal, or the rewrite whose edits are \p Emit(plan), the
  /// plan moved into it: a transform's legality plans, its writer emits.
  template <typename PlanT, typename EmitFn>
  static llvm::Expected<Rewrite> of(llvm::Expected<PlanT> Plan, EmitFn Emit) {
    if (!Plan)
      return Plan.takeError();
    return Rewrite(
        [P = std::move(*Plan), Emit = std::move(Emit)] { return Emit(P); });
  }

  /// The edits, with the notes on what they rest on.
  llvm::Expected<EditSet> edits() const { return Emit(); }

private:
  Emitter Emit;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_REWRITE_H
