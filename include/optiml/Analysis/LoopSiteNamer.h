//===- LoopSiteNamer.h - stable names for a kernel's loops ----*- C++ -*-===//
//
// A loop is named by the path of loop kinds and sibling indices from the
// kernel down to it: "k/for#1" is the second for-loop directly in k's body
// (not inside another loop), "k/for#0/while#0" the first while-loop inside
// the first for-loop. Names depend only on the loop structure, so a trace of
// rewrites can refer to a loop after the file has been edited and reparsed.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LOOPSITENAMER_H
#define OPTIML_ANALYSIS_LOOPSITENAMER_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace optiml {

class LoopSiteNamer {
public:
  struct NamedLoop {
    const clang::Stmt *Loop;
    std::string Site;
    std::string Kind; ///< "for", "while" or "do"; a range-for is a "for".
  };

  /// Every loop of \p Kernel's body in source order, outer loops first.
  static std::vector<NamedLoop> name(const clang::FunctionDecl &Kernel);

private:
  static void walk(const clang::Stmt *S, const std::string &Prefix,
                   std::vector<NamedLoop> &Out);
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LOOPSITENAMER_H
