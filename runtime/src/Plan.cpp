//===- Plan.cpp - The run plan: reading the plan file ---------------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Plan.h"

#include "optiml/Protocol/Document.h"

#include <fstream>
#include <sstream>

namespace optiml {

Error parsePlan(const std::string &Text, Plan &Out) {
  if (auto Failed = protocol::decodeText(Text, Out))
    return Error(Status::BadPlan, Failed->what());
  return Error::success();
}

Error loadPlan(const std::string &Path, Plan &Out) {
  std::ifstream In(Path);
  if (!In)
    return Error(Status::BadPlan, "cannot read plan file '" + Path + "'");
  std::stringstream Text;
  Text << In.rdbuf();
  if (Error E = parsePlan(Text.str(), Out))
    return E.withContext(Path);
  return Error::success();
}

} // namespace optiml
