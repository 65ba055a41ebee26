//===- TransformFactories.h - each folder's factory, declared --*- C++ -*-===//
//
// Every line of Transforms.def names a folder whose <Folder>.cpp defines
// `create<Folder>`: the transform's class stays private to that file, and
// this is all the rest of the library sees of it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_TRANSFORMFACTORIES_H
#define OPTIML_TRANSFORMS_TRANSFORMFACTORIES_H

#include "optiml/Transform/Transform.h"

#include <memory>

namespace optiml {
#define OPTIML_TRANSFORM(Folder)                                               \
  std::unique_ptr<Transform> create##Folder(TransformDescriptor D);
#include "transforms/Transforms.def"
} // namespace optiml

#endif // OPTIML_TRANSFORMS_TRANSFORMFACTORIES_H
