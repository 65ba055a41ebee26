//===- RegisterTransforms.h - the transform library, registered -*- C++ -*-===//
//
// The one place that says which transforms exist: the tool, the tests and
// a search build their registry here, explicitly. Each line of
// Transforms.def names a folder whose factory, create<Folder>, gets the
// descriptor read from <Folder>/<Folder>.json.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H
#define OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H

#include "optiml/Transform/TransformRegistry.h"

namespace optiml {

/// Adds every transform of the library to \p Registry, in listing order.
/// A descriptor that does not read, or whose name is not its folder's
/// (`stage-shared` lives in StageShared/), is an Internal error.
llvm::Error registerTransforms(TransformRegistry &Registry);

/// A registry holding the whole library; a bad descriptor (a broken build)
/// stops the program with one line.
TransformRegistry makeTransformRegistry();

} // namespace optiml

#endif // OPTIML_TRANSFORMS_REGISTERTRANSFORMS_H
