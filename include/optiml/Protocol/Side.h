//===- Side.h - Which of the two compared kernels ---------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). The runner always runs
// two libraries, the reference (A) and the candidate (B); results name the
// side of every count, timing and failure.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_SIDE_H
#define OPTIML_PROTOCOL_SIDE_H

#include "optiml/Protocol/NamedEnum.h"

namespace optiml::protocol {

enum class Side { Reference, Candidate };

inline constexpr Side BothSides[] = {Side::Reference, Side::Candidate};

/// "reference", "candidate": also the result's keys.
inline const char *sideName(Side S) {
  return S == Side::Reference ? "reference" : "candidate";
}

inline std::optional<Side> parseSide(std::string_view Name) {
  return parseNamed(Name, BothSides, sideName);
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_SIDE_H
