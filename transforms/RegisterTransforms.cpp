//===- RegisterTransforms.cpp - the transform library, registered --------===//

#include "transforms/RegisterTransforms.h"

using namespace optiml;

namespace optiml {
#define OPTIML_TRANSFORM(Folder) std::unique_ptr<Transform> create##Folder();
#include "transforms/Transforms.def"
} // namespace optiml

llvm::Error optiml::registerTransforms(TransformRegistry &Registry) {
#define OPTIML_TRANSFORM(Folder)                                               \
  if (llvm::Error E = Registry.add(create##Folder()))                          \
    return E;
#include "transforms/Transforms.def"
  return llvm::Error::success();
}

TransformRegistry optiml::makeTransformRegistry() {
  TransformRegistry Registry;
  llvm::cantFail(registerTransforms(Registry));
  return Registry;
}
