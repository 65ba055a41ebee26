//===- HarnessEscapes.h - code that would act outside the kernel -*- C++ -*-===//
//
// The runner loads a candidate into its own process and times one launch of
// its kernel. Code that would act outside that launch is refused before the
// candidate is built, when the original did not have it already:
//  - a call that ends or forks the process or starts a thread (exit, abort,
//    std::terminate, fork, system, std::thread, pthread_create, ...): the
//    process is the runner's;
//  - a function of the CUDA driver API (declared in cuda.h) named, or any
//    function named like a CUDA runtime or driver function declared in the
//    file itself: a candidate does not launch, allocate or synchronize;
//  - a kernel launched from device code (dynamic parallelism): its work
//    would run outside the parent kernel's timed window.
// Each escape is counted by what it names, in the original and in the
// candidate; a name the candidate uses more often than the original is
// refused, with a message that names it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_REWRITE_HARNESSESCAPES_H
#define OPTIML_REWRITE_HARNESSESCAPES_H

#include "optiml/Rewrite/ParsedSource.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace optiml {

class HarnessEscapes {
public:
  /// Collects the escapes written in the main file of \p P.
  explicit HarnessEscapes(ParsedSource &P);

  /// An Illegal error naming the first escape \p Candidate has more often
  /// than \p this (the original's), or success.
  llvm::Error checkCandidate(const HarnessEscapes &Candidate) const;

private:
  /// Why an escape is refused, by what it names ("call:exit", ...).
  std::map<std::string, std::string> Reasons;
  std::map<std::string, unsigned> Counts;

  friend class EscapeCollector;
};

} // namespace optiml

#endif // OPTIML_REWRITE_HARNESSESCAPES_H
