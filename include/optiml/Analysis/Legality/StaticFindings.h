//===- StaticFindings.h - what a kernel's source says about speed -*- C++
//-*-===//
//
// Before anything runs, the source already tells how a kernel's global
// accesses move with the thread index: neighbouring threads (consecutive
// threadIdx.x, one warp) reading addresses far apart, one thread walking
// consecutive scalars that a wide load would move at once, pointers that
// the compiler must assume alias, IEEE-exact math where fast intrinsics
// exist. Each fact is found from the index
// polynomials and the buffer analysis, never from how a name is spelled,
// and points at the expression it is about: the Clang plugin shows them as
// remarks, and their kinds are the static hints the profile analyzers know.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_ANALYSIS_LEGALITY_STATICFINDINGS_H
#define OPTIML_ANALYSIS_LEGALITY_STATICFINDINGS_H

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace optiml {

struct StaticFinding {
  /// "strided-access", "contiguous-scalar-access", "missing-restrict",
  /// "transcendental" or "stride-loop".
  std::string Kind;
  /// The access ("transpose/load:in#0", the n-th load of `in` in source
  /// order) or the buffer ("saxpy/x").
  std::string Site;
  /// One sentence: the fact, then what it costs.
  std::string Message;
  clang::SourceLocation Loc;
};

class StaticFindings {
public:
  /// Every finding of \p Kernel, in source order.
  static std::vector<StaticFinding> of(const clang::FunctionDecl &Kernel,
                                       clang::ASTContext &Ctx);
};

} // namespace optiml

#endif // OPTIML_ANALYSIS_LEGALITY_STATICFINDINGS_H
