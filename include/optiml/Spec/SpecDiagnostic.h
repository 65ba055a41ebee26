//===- SpecDiagnostic.h - one-line errors about a kernel spec -*- C++ -*-===//
//
// Every spec error is one line a user can act on without reading the code:
// where (file:line:col, clang's form, so editors jump there), what is wrong,
// and what was expected instead.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SPEC_SPECDIAGNOSTIC_H
#define OPTIML_SPEC_SPECDIAGNOSTIC_H

#include "optiml/IR/KernelInfo.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace optiml {

/// A BadInput error "file:line:col: error: <What>; expected <Expected>".
/// Control characters of quoted spec text are escaped (oneLine()).
llvm::Error specError(const SourcePos &Pos, const llvm::Twine &What,
                      const llvm::Twine &Expected);

/// \p Text with its line breaks and other control characters written as
/// escapes (`\n`, `\x00`): an error quotes what the user wrote, and must
/// stay one line however that was written.
std::string oneLine(llvm::StringRef Text);

/// \p Err (a spec error) with \p Context added to what is wrong, before
/// its "; expected": e.g. " in instance 'odd' (N = 0)".
llvm::Error withContext(llvm::Error Err, const llvm::Twine &Context);

/// \p Pos moved \p Columns to the right: a place inside an expression or a
/// clause that is written on one line.
SourcePos shifted(SourcePos Pos, size_t Columns);

/// The line and column of byte \p Offset of \p Text (both 1-based).
SourcePos positionOf(llvm::StringRef Text, size_t Offset, llvm::StringRef File);

/// \p V as a user would write it in a spec ("2.5", "1e-05", "4096").
std::string numberText(double V);

} // namespace optiml

#endif // OPTIML_SPEC_SPECDIAGNOSTIC_H
