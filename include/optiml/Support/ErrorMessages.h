//===- ErrorMessages.h - every message of joined errors -------*- C++ -*-===//
//
// Checks that go on after a first error (every clause of a spec mark) join
// what they find into one llvm::Error; summarize() keeps the first message
// with a count, and --check prints them all.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_ERRORMESSAGES_H
#define OPTIML_SUPPORT_ERRORMESSAGES_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// Each message of \p E, joined or not, in order.
std::vector<std::string> messagesOf(llvm::Error E);

} // namespace optiml

#endif // OPTIML_SUPPORT_ERRORMESSAGES_H
