//===- ArgRole.h - What a kernel parameter is for ---------------*- C++ -*-===//
//
// Part of OptiML's runner protocol (docs/Runner.md). A kernel spec gives
// every parameter a role and the plan carries it to the runner: `in`
// buffers must stay unchanged, `out` buffers are poisoned and must be fully
// written, `inout` buffers start from generated inputs and are compared,
// and a scalar is passed by value (the plan's `"kind": "scalar"`).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROTOCOL_ARGROLE_H
#define OPTIML_PROTOCOL_ARGROLE_H

#include "optiml/Protocol/NamedEnum.h"

namespace optiml::protocol {

enum class ArgRole { In, Out, InOut, Scalar };

inline constexpr ArgRole AllArgRoles[] = {ArgRole::In, ArgRole::Out,
                                          ArgRole::InOut, ArgRole::Scalar};

/// "in", "out", "inout", "scalar".
inline const char *roleName(ArgRole R) {
  static constexpr const char *Names[] = {"in", "out", "inout", "scalar"};
  return Names[static_cast<int>(R)];
}

inline std::optional<ArgRole> parseRole(std::string_view Name) {
  return parseNamed(Name, AllArgRoles, roleName);
}

/// Buffers whose contents the runner generates: in and inout.
inline bool hasInputs(ArgRole R) {
  return R == ArgRole::In || R == ArgRole::InOut;
}

/// Buffers the kernel writes and the runner compares: out and inout.
inline bool isOutput(ArgRole R) {
  return R == ArgRole::Out || R == ArgRole::InOut;
}

} // namespace optiml::protocol

#endif // OPTIML_PROTOCOL_ARGROLE_H
