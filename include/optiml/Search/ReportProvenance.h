//===- ReportProvenance.h - what made a report ----------------*- C++ -*-===//
//
// A report read months later, or on another machine, must say by itself
// when it was made, by which OptiML and nvcc, and from which command line:
// ratios alone do not say whether they still hold.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_REPORTPROVENANCE_H
#define OPTIML_SEARCH_REPORTPROVENANCE_H

#include <string>

namespace optiml {

struct ReportProvenance {
  std::string Date;        ///< UTC, ISO 8601 ("2026-11-25T22:30:00Z").
  std::string Tool;        ///< "OptiML 0.1.0 (git abc1234)".
  std::string Nvcc;        ///< nvcc's release ("13.0, V13.0.88").
  std::string CommandLine; ///< As typed, each argument shell-quoted.

  bool empty() const {
    return Date.empty() && Tool.empty() && Nvcc.empty() && CommandLine.empty();
  }
  /// The current UTC time as Date spells it.
  static std::string now();
};

} // namespace optiml

#endif // OPTIML_SEARCH_REPORTPROVENANCE_H
