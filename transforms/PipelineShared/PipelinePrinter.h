//===- PipelinePrinter.h - the text of a pipelined tile loop ----*- C++ -*-===//
//
// Prints the pieces that turn
//
//   for (int t = lo; t < n; t += s) {
//     COPY(t)                    // As[..] = A[..]; ...
//     __syncthreads();
//     WORK(As)
//     __syncthreads();
//   }
//
// into, for N stages (the arrays declared `As[N][..]` elsewhere):
//
//   int optiml_stage = 0;
//   {                            // N > 2: a loop over the first N-1 tiles
//     const int t = lo;
//     if (t < n) {
//       COPY(t) into As[0], with cp.async
//     }
//   }
//   __pipeline_commit();
//   for (int t = lo; t < n; t += s) {
//     __pipeline_wait_prior(N - 2);  // this thread's copies of tile t
//     __syncthreads();               // everyone's; tile t-1 is done with
//     {
//       const int optiml_next = t + (N - 1) * s;
//       const int t = optiml_next;
//       if (t < n) {
//         COPY(t) into As[(optiml_stage + N - 1) % N], with cp.async
//       }
//     }
//     __pipeline_commit();
//     WORK(As[optiml_stage])
//     optiml_stage = (optiml_stage + 1) % N;
//   }
//
// The copies keep their text, comments and layout; each element copy
// becomes `__pipeline_memcpy_async(&As[..][..], &A[..], sizeof(T))`, under
// its guard, with cp.async's zero fill (or the original store) where the
// guard fails.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINEPRINTER_H
#define OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINEPRINTER_H

#include "transforms/PipelineShared/PipelineSharedLegality.h"

#include <string>
#include <vector>

namespace optiml {

/// The names the rewrite introduces, new to the kernel.
struct PipelineNames {
  std::string Stage; ///< The buffer the work reads: "optiml_stage".
  std::string Next;  ///< The tile the copy fills: "optiml_next".
  std::string First; ///< The prologue's counter (N > 2): "optiml_p".
};

class PipelinePrinter {
public:
  PipelinePrinter(const PipelineSharedPlan &Plan, PipelineNames Names,
                  clang::ASTContext &Ctx);

  /// The text before the loop's `for`: the counter and the copies of the
  /// first N-1 tiles. It ends with the loop line's indentation.
  llvm::Expected<std::string> prologue();
  /// The text that replaces the copies and the first barrier.
  llvm::Expected<std::string> issue();
  /// The text that replaces the last barrier.
  std::string advance() const;
  /// `[optiml_stage]`: what follows each array in the work.
  std::string current() const { return "[" + Names.Stage + "]"; }

private:
  /// The copy phase, its copies issued into buffer \p Slot, one element a
  /// line, relative to the first statement's indentation.
  llvm::Expected<std::vector<std::string>> copies(llvm::StringRef Slot);
  /// One element copy, each line after the first starting with \p Indent.
  llvm::Expected<std::string> elementCopy(const ElementCopy &C,
                                          llvm::StringRef Slot,
                                          llvm::StringRef Indent);
  /// `if (test) { copies }` for the tile in \p IV's redeclaration.
  llvm::Error guardedCopies(unsigned Depth, llvm::StringRef Slot);
  std::string lower() const;

  void line(unsigned Depth, llvm::StringRef Text);
  void lines(unsigned Depth, llvm::ArrayRef<std::string> Texts);
  /// The lines written since the last take(), joined: lines after the
  /// first get the loop line's indentation.
  std::string take();

  const PipelineSharedPlan &Plan;
  PipelineNames Names;
  clang::ASTContext &Ctx;
  std::string Type; ///< The loop variable's type.
  std::string Base; ///< The indentation of the loop's line.
  std::string Step; ///< One level of nesting, as the loop's body uses.
  std::vector<std::string> Out;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_PIPELINESHARED_PIPELINEPRINTER_H
