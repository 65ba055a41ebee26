//===- RegisterTransforms.h - the transform library, registered -*- C++ -*-===//
//
// The one place that says which transforms exist: the tool, the tests and
// a search build their registry here, explicitly.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H
#define OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H

#include "optiml/Transform/TransformRegistry.h"

namespace optiml {

/// Adds every transform of the library to \p Registry, in listing order.
llvm::Error registerTransforms(TransformRegistry &Registry);

/// A registry holding the whole library.
TransformRegistry makeTransformRegistry();

} // namespace optiml

#endif // OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H
