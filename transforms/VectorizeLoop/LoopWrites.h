//===- LoopWrites.h - what memory a loop body may write ---------*- C++ -*-===//
//
// vectorize-loop reads W iterations' elements of a buffer before running
// those iterations; that is sound only when nothing in between may write
// them. This collects every write a loop body makes to memory, by the
// buffer it lands in, so that a buffer can be cleared against all of them:
//   * stores (and escaping addresses) through a pointer based on a kernel
//     parameter (BufferRoot) land in that parameter's buffer;
//   * stores to local or __shared__ variables land in no kernel buffer;
//   * stores to variables of static storage may land in any buffer whose
//     parameter is not __restrict__ (a host may pass their address);
//   * stores through any other pointer, through a reference variable, a
//     call that may write memory (anything but pure math and calls to
//     functions that only change the caller's locals), and asm may land
//     anywhere.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPWRITES_H
#define OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPWRITES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace optiml {

class LoopWrites {
public:
  /// The writes of \p Body, a loop body of \p Kernel.
  LoopWrites(const clang::Stmt &Body, const clang::FunctionDecl &Kernel,
             clang::ASTContext &Ctx);

  /// Success when no write of the body may overlap \p Buffer's elements;
  /// else an Illegal LegalityError at the first one that may (or where two
  /// buffers may be the same one: DistinctBuffers).
  llvm::Error checkUntouched(const clang::ParmVarDecl &Buffer);

private:
  enum class Target {
    Buffer,   ///< The buffer of Root.
    Static,   ///< A variable of static storage.
    Anywhere, ///< Unknown memory.
  };
  struct Write {
    const clang::Stmt *Where;
    Target Kind;
    const clang::ParmVarDecl *Root; ///< For Target::Buffer.
    std::string What;               ///< "this call", "this store", ...
  };

  void visit(const clang::Stmt *S);
  void noteElementWrite(const clang::Expr &Element);
  void noteCall(const clang::CallExpr &Call);
  std::optional<Write> classify(const clang::Expr &Pointer,
                                const clang::Stmt &Where) const;
  std::optional<Write> classifyLvalue(const clang::Expr &Lvalue,
                                      const clang::Stmt &Where) const;
  std::optional<Write> classifyVar(const clang::VarDecl &V,
                                   const clang::Stmt &Where) const;
  llvm::Error overlap(const Write &W, const clang::ParmVarDecl &Buffer);

  const clang::FunctionDecl &Kernel;
  clang::ASTContext &Ctx;
  std::vector<Write> Writes;
};

} // namespace optiml

#endif // OPTIML_TRANSFORMS_VECTORIZELOOP_LOOPWRITES_H
