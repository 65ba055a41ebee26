//===- Plan.h - The run plan: what to verify, time and profile --*- C++ -*-===//
//
// Part of OptiML. The plan's types are the runner protocol's
// (include/optiml/Protocol/RunPlan.h, shared with the tool); decoding them
// already rejects anything inconsistent, so later phases never second-guess
// the plan. This file names them for the runner and reads the plan file.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_PLAN_H
#define OPTIML_RUNTIME_PLAN_H

#include "Status.h"

#include "optiml/Protocol/RunPlan.h"

#include <string>

namespace optiml {

using Plan = protocol::RunPlan;
using protocol::Arg;
using protocol::ArgRole;
using protocol::Distribution;
using protocol::ElemType;
using protocol::Instance;
using protocol::Side;
using protocol::TimingOptions;
using protocol::Tolerance;

using protocol::elemSize;
using protocol::elemTypeName;
using protocol::isFloatType;
using protocol::profiledInstances;
using protocol::sideName;

/// Reads and decodes the plan at \p Path. Failures are Status::BadPlan with
/// a message naming the offending field ("instances[1].args[2].type: ...").
Error loadPlan(const std::string &Path, Plan &Out);

/// As loadPlan, from JSON text (comments allowed).
Error parsePlan(const std::string &Text, Plan &Out);

} // namespace optiml

#endif // OPTIML_RUNTIME_PLAN_H
