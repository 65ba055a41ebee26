//===- LaunchClauses.h - one spec, several launch geometries ---*- C++ -*-===//
//
// Kernels written from one description share their problem (sizes, roles,
// lengths, tolerance, instances) but not their launch: a thread per row
// needs other grids than a block per row. Each kernel's mark is the shared
// clauses with its own grid(...), block(...) and shmem(...) put in.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_LAUNCHCLAUSES_H
#define OPTIML_SPEC_LAUNCHCLAUSES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

/// \p Clauses (a mark's text after `optiml`, e.g. `kernel sizes(N = 4)
/// in(x[N]) grid(N) block(1)`) with its grid, block and shmem clauses
/// replaced by those of \p Launch (`grid(ceil_div(N, 256)) block(256)`).
/// BadInput, saying why, when \p Launch has no grid or block, names another
/// clause, or either text has an unbalanced parenthesis. The expressions
/// themselves are the spec checker's to judge.
llvm::Expected<std::string> withLaunch(llvm::StringRef Clauses,
                                       llvm::StringRef Launch);

/// \p Text with the mark starting on line \p Line (1-based, continued over
/// backslash-newlines) replaced by `#pragma optiml CLAUSES`, one line.
std::string withMarkClauses(llvm::StringRef Text, unsigned Line,
                            llvm::StringRef Clauses);

/// The grid, block and shmem clauses of \p Clauses, as written and in
/// order (`grid(N) block(256)`); empty when it has none or cannot be read.
std::string launchOf(llvm::StringRef Clauses);

} // namespace optiml

#endif // OPTIML_SPEC_LAUNCHCLAUSES_H
