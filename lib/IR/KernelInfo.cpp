//===- KernelInfo.cpp - what OptiML knows about a kernel -----------------===//

#include "optiml/IR/KernelInfo.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

std::string SourcePos::str() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

const KernelInfo *KernelInventory::find(const std::string &Name) const {
  for (const KernelInfo &K : Kernels)
    if (K.Name == Name || K.QualifiedName == Name)
      return &K;
  return nullptr;
}

const SiblingKernel *KernelInfo::sibling(llvm::StringRef Wanted) const {
  if (!FileKernels)
    return nullptr;
  for (const SiblingKernel &K : *FileKernels)
    if (K.Name == Wanted || K.QualifiedName == Wanted)
      return &K;
  return nullptr;
}

static json toJSON(const SourcePos &P) {
  return {{"file", P.File}, {"line", P.Line}, {"column", P.Column}};
}

static json optionalString(const std::string &S) {
  return S.empty() ? json(nullptr) : json(S);
}

static json toJSON(const ParamInfo &P) {
  json J = {{"name", P.Name},
            {"type", P.Type},
            {"pointer", P.IsPointer},
            {"const", P.IsConst},
            {"restrict", P.IsRestrict}};
  if (P.IsPointer)
    J["element_type"] = P.PointeeType;
  if (!P.Fields.empty()) {
    json &Fields = J["element_fields"] = json::array();
    for (const ElementField &F : P.Fields)
      Fields.push_back({{"name", F.Name},
                        {"type", F.Type},
                        {"offset", F.Offset},
                        {"bytes", F.Bytes}});
    J["element_bytes"] = P.ElementBytes;
  }
  return J;
}

static json toJSON(const DeviceGlobal &G) {
  json J = toJSON(G.Element);
  J.erase("pointer");
  J["qualified_name"] = G.QualifiedName;
  J["space"] = G.Constant ? "constant" : "device";
  J["count"] = G.Count;
  J["initialized"] = G.Initialized;
  J["location"] = toJSON(G.Pos);
  return J;
}

static json toJSON(const LaunchSite &L) {
  return {{"location", toJSON(L.Pos)},
          {"caller", L.Caller},
          {"callee", L.Callee},
          {"grid", L.Grid},
          {"block", L.Block},
          {"shared_memory", optionalString(L.SharedMemory)},
          {"stream", optionalString(L.Stream)}};
}

json optiml::toJSON(const KernelInfo &K) {
  json Params = json::array(), Loops = json::array(), Launches = json::array(),
       Insts = json::array();
  for (const ParamInfo &P : K.Params)
    Params.push_back(::toJSON(P));
  for (const LoopSite &L : K.Loops)
    Loops.push_back({{"site", L.Site},
                     {"kind", L.Kind},
                     {"location", ::toJSON(L.Pos)},
                     {"header", L.Header}});
  for (const LaunchSite &L : K.Launches)
    Launches.push_back(::toJSON(L));
  for (const Instantiation &I : K.Instantiations)
    Insts.push_back({{"arguments", I.Arguments}, {"kind", I.Kind}});
  json Globals = json::array();
  for (const DeviceGlobal &G : K.Globals)
    Globals.push_back(::toJSON(G));

  json J = {{"name", K.Name},
            {"qualified_name", K.QualifiedName},
            {"location", ::toJSON(K.Pos)},
            {"template_parameters", K.TemplateParameters},
            {"instantiations", Insts},
            {"launch_bounds", nullptr},
            {"params", Params},
            {"mark", nullptr},
            {"loops", Loops},
            {"launches", Launches},
            {"address_taken", K.AddressTaken},
            {"globals", Globals}};
  if (K.Bounds)
    J["launch_bounds"] = {{"max_threads", K.Bounds->MaxThreads},
                          {"min_blocks", optionalString(K.Bounds->MinBlocks)}};
  if (K.Mark)
    J["mark"] = {{"location", ::toJSON(K.Mark->Pos)},
                 {"clauses", K.Mark->Clauses}};
  return J;
}
