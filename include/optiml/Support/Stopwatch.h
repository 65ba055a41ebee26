//===- Stopwatch.h - wall seconds since a point -----------------*- C++ -*-===//
//
// The stages a search reports (rewrite, build, run) are wall time on the
// steady clock, read the same way everywhere.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_STOPWATCH_H
#define OPTIML_SUPPORT_STOPWATCH_H

#include <chrono>

namespace optiml {

class Stopwatch {
public:
  /// Seconds since construction.
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  }

private:
  std::chrono::steady_clock::time_point Start =
      std::chrono::steady_clock::now();
};

} // namespace optiml

#endif // OPTIML_SUPPORT_STOPWATCH_H
