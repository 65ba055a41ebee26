//===- RegisterTransforms.cpp - the transform library, registered --------===//

#include "transforms/RegisterTransforms.h"
#include "BlockSize/BlockSize.h"
#include "LaunchBounds/LaunchBounds.h"
#include "Restrict/Restrict.h"
#include "Unroll/Unroll.h"

using namespace optiml;

llvm::Error optiml::registerTransforms(TransformRegistry &Registry) {
  // Loop-level first, then kernel-level, then launch geometry.
  if (llvm::Error E = Registry.add(std::make_unique<Unroll>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Restrict>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<LaunchBounds>()))
    return E;
  return Registry.add(std::make_unique<BlockSize>());
}

TransformRegistry optiml::makeTransformRegistry() {
  TransformRegistry Registry;
  llvm::cantFail(registerTransforms(Registry));
  return Registry;
}
