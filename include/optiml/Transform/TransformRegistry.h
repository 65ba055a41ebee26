//===- TransformRegistry.h - the transforms a run may use -----*- C++ -*-===//
//
// Filled explicitly (transforms/RegisterTransforms.cpp), never by static
// initializers: what is registered, and in which order, is visible in one
// place and the same in the tool, the tests and a library user.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORM_TRANSFORMREGISTRY_H
#define OPTIML_TRANSFORM_TRANSFORMREGISTRY_H

#include "optiml/Transform/Transform.h"

#include <memory>
#include <vector>

namespace optiml {

class TransformRegistry {
public:
  /// Adds \p T; a second transform of the same name is an Internal error.
  llvm::Error add(std::unique_ptr<Transform> T);

  /// The transform called \p Name, or null.
  const Transform *find(llvm::StringRef Name) const;

  /// In registration order, which is the listing order.
  std::vector<const Transform *> all() const;
  std::vector<std::string> names() const;

private:
  std::vector<std::unique_ptr<Transform>> Transforms;
};

} // namespace optiml

#endif // OPTIML_TRANSFORM_TRANSFORMREGISTRY_H
