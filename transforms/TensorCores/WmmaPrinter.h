//===- WmmaPrinter.h - the tiled tensor-core kernel body --------*- C++ -*-===//
//
// Prints the body tensor-cores gives a kernel: shared tiles and fragments,
// the staged k loop (each operand loaded by the whole block in the layout
// its global memory is contiguous in, so that loads coalesce and fragments
// load row- or column-major to match), the fragment products, and the
// epilogue that hands each sum to the kernel's own statements, element by
// element, with the coordinates set to the element's.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TENSORCORES_WMMAPRINTER_H
#define OPTIML_TRANSFORMS_TENSORCORES_WMMAPRINTER_H

#include "transforms/TensorCores/TensorCoresLegality.h"

#include "optiml/Rewrite/BodyWriter.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace optiml {

class WmmaPrinter {
public:
  WmmaPrinter(const TensorCoresPlan &Plan, clang::ASTContext &Ctx)
      : Plan(Plan), Nest(Plan.Nest), P(*Plan.Precision), Ctx(Ctx) {}

  /// The new body, braces included.
  llvm::Expected<std::string> print();

private:
  /// How one operand sits in shared memory.
  struct Layout {
    const MatmulOperand *Op;
    std::string Array; ///< "optiml_ta".
    bool Left;         ///< The operand whose rows are the output's.
    /// [Tile][KTile] (k contiguous) or [KTile][Tile].
    unsigned Rows, Cols;
    std::string WmmaLayout; ///< "wmma::row_major" or "wmma::col_major".
  };

  Layout layoutOf(const MatmulOperand &O, bool Left) const;
  void declarations(const Layout &A, const Layout &B);
  void fragmentLoops(unsigned Depth, llvm::StringRef Open);
  void stage(const Layout &L);
  void stageElement(const Layout &L, llvm::StringRef Row, llvm::StringRef Col);
  void multiply(const Layout &A, const Layout &B);
  llvm::Error epilogue();
  llvm::Expected<std::vector<std::string>> elementBody() const;
  std::string loadCondition(const MatmulOperand &O) const;
  std::string fragmentPtr(const Layout &L, llvm::StringRef Lane,
                          llvm::StringRef Suffix) const;
  std::string typeOf(const clang::VarDecl &V) const;
  std::string dims(unsigned Rows, unsigned Cols) const;

  const TensorCoresPlan &Plan;
  const MatmulNest &Nest;
  const WmmaPrecision &P;
  clang::ASTContext &Ctx;
  std::optional<BodyWriter> W;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_TENSORCORES_WMMAPRINTER_H
