//===- RegisterTransforms.cpp - the transform library, registered --------===//

#include "transforms/RegisterTransforms.h"
#include "BlockSize/BlockSize.h"
#include "Coarsen/Coarsen.h"
#include "FastMath/FastMath.h"
#include "Hoist/Hoist.h"
#include "LaunchBounds/LaunchBounds.h"
#include "Restrict/Restrict.h"
#include "StageShared/StageShared.h"
#include "Tile/Tile.h"
#include "Unroll/Unroll.h"
#include "Vectorize/Vectorize.h"
#include "WarpReduce/WarpReduce.h"

using namespace optiml;

llvm::Error optiml::registerTransforms(TransformRegistry &Registry) {
  // Loop-level first, then kernel-level, then launch geometry.
  if (llvm::Error E = Registry.add(std::make_unique<Unroll>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Tile>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Hoist>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<StageShared>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<WarpReduce>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Restrict>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<LaunchBounds>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<FastMath>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Coarsen>()))
    return E;
  if (llvm::Error E = Registry.add(std::make_unique<Vectorize>()))
    return E;
  return Registry.add(std::make_unique<BlockSize>());
}

TransformRegistry optiml::makeTransformRegistry() {
  TransformRegistry Registry;
  llvm::cantFail(registerTransforms(Registry));
  return Registry;
}
