//===- TransformRegistry.cpp - the transforms a run may use --------------===//

#include "optiml/Transform/TransformRegistry.h"
#include "optiml/Support/Error.h"

using namespace optiml;

llvm::Error TransformRegistry::add(std::unique_ptr<Transform> T) {
  if (find(T->name()))
    return makeError(ErrorKind::Internal,
                     "transform '" + T->name() + "' is registered twice");
  Transforms.push_back(std::move(T));
  return llvm::Error::success();
}

const Transform *TransformRegistry::find(llvm::StringRef Name) const {
  for (const auto &T : Transforms)
    if (T->name() == Name)
      return T.get();
  return nullptr;
}

std::vector<const Transform *> TransformRegistry::all() const {
  std::vector<const Transform *> Out;
  for (const auto &T : Transforms)
    Out.push_back(T.get());
  return Out;
}

std::vector<std::string> TransformRegistry::names() const {
  std::vector<std::string> Out;
  for (const auto &T : Transforms)
    Out.push_back(T->name().str());
  return Out;
}
