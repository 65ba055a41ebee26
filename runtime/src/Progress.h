//===- Progress.h - Progress reporting callback -----------------*- C++ -*-===//
//
// Part of OptiML. A hang is handled by the parent process, which kills the
// runner after a timeout; progress lines (stderr and the result file's
// "phase") tell it how far the run got.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_PROGRESS_H
#define OPTIML_RUNTIME_PROGRESS_H

#include <functional>
#include <string>

namespace optiml {

/// Called with a short description of the step about to start.
using ProgressFn = std::function<void(const std::string &Phase)>;

} // namespace optiml

#endif // OPTIML_RUNTIME_PROGRESS_H
