//===- LoopVectorPrinter.h - the text of a vectorized loop -----*- C++ -*-===//
//
// Prints the statements that replace `for (int j = lo; j < n; ++j) BODY`
// for a VectorizeLoopPlan of width W:
//
//   int optiml_j_v = lo;
//   if (optiml_j_v + (W-1) < n &&
//       reinterpret_cast<size_t>(&A[base + optiml_j_v]) % sizeof(float4) == 0)
//       {
//     for (; optiml_j_v + (W-1) < n; optiml_j_v += W) {
//       const float4 optiml_A = *reinterpret_cast<const float4 *>(
//           &A[base + optiml_j_v]);
//       BODY, A[base + j] read as optiml_A.x
//       ... W copies, lane l reading optiml_A.<l>; a copy that still needs
//       j (or declares variables) sits in braces with const int j = ...
//     }
//   }
//   for (int j = optiml_j_v; j < n; ++j) BODY
//
// Every chunk starts W elements after the previous one, so the alignment
// of the first decides all of them: it is tested once, and an unaligned
// walk runs the original loop entirely. The copies and the scalar loop
// keep the body's text, comments and layout; they are only re-indented.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPVECTORPRINTER_H
#define OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPVECTORPRINTER_H

#include "optiml/Rewrite/LoopLines.h"
#include "transforms/VectorizeLoop/VectorizeLoopLegality.h"

#include <string>
#include <vector>

namespace optiml {

class LoopVectorPrinter {
public:
  /// \p Counter names the vector loop's counter and \p Vectors the vector
  /// of each walk of the plan; all must be new to the kernel.
  LoopVectorPrinter(const VectorizeLoopPlan &Plan, std::string Counter,
                    std::vector<std::string> Vectors, clang::ASTContext &Ctx);

  /// The text replacing the loop, from its `for` through its last
  /// character; lines after the first carry the loop line's indentation.
  llvm::Expected<std::string> print();

private:
  /// The loop's condition with the IV replaced by \p Value.
  llvm::Expected<std::string> conditionAt(llvm::StringRef Value) const;
  /// `&p[index]` of walk \p W at the counter's iteration.
  llvm::Expected<std::string> addressOf(const WalkedRead &W) const;
  llvm::Error printGuard();
  llvm::Error printLoads(unsigned Depth);
  /// The body for lane \p Lane, at \p Depth.
  llvm::Error printCopy(unsigned Lane, unsigned Depth);
  /// The original loop starting from the counter.
  llvm::Error printScalarLoop();
  /// Whether the statements must be wrapped in braces: the loop is not
  /// directly in a block, or a jump (case label, goto) could cross the
  /// counter's declaration.
  bool needsBlock() const;

  void line(unsigned Depth, llvm::StringRef Text) { Written.line(Depth, Text); }
  void lines(unsigned Depth, llvm::ArrayRef<std::string> Texts) {
    Written.lines(Depth, Texts);
  }

  const VectorizeLoopPlan &Plan;
  const CanonicalLoop &L;
  std::string Counter;
  std::vector<std::string> Vectors;
  std::string Type; ///< The IV's type, as written in declarations.
  clang::ASTContext &Ctx;
  LoopLines Written; ///< What replaces the loop.
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPVECTORPRINTER_H
