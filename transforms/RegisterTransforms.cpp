//===- RegisterTransforms.cpp - the transform library, registered --------===//

#include "transforms/RegisterTransforms.h"
#include "optiml/Support/Error.h"
#include "transforms/TransformFactories.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"

using namespace optiml;

namespace {

/// The text of each folder's <Folder>.json, as `FolderDescriptor`.
#define OPTIML_DESCRIPTOR(Folder, Text) const char Folder##Descriptor[] = Text;
#include "TransformDescriptors.inc"
#undef OPTIML_DESCRIPTOR

/// One line of Transforms.def: the folder, its descriptor and its factory.
struct Entry {
  llvm::StringRef Folder;
  llvm::StringRef Descriptor;
  std::unique_ptr<Transform> (*Create)(TransformDescriptor);
};

const Entry Library[] = {
#define OPTIML_TRANSFORM(Folder) {#Folder, Folder##Descriptor, create##Folder},
#include "transforms/Transforms.def"
};

} // namespace

/// `stage-shared` -> `StageShared`: a transform's folder is its name.
static std::string folderOf(llvm::StringRef Name) {
  std::string Folder;
  bool Upper = true;
  for (char C : Name) {
    if (C == '-') {
      Upper = true;
      continue;
    }
    Folder += Upper ? llvm::toUpper(C) : C;
    Upper = false;
  }
  return Folder;
}

static llvm::Error add(TransformRegistry &Registry, const Entry &E) {
  std::string File =
      ("transforms/" + E.Folder + "/" + E.Folder + ".json").str();
  auto D = descriptorFromJSON(E.Descriptor, File);
  if (!D)
    return D.takeError();
  if (folderOf(D->Name) != E.Folder)
    return makeError(ErrorKind::Internal, File + ": transform '" + D->Name +
                                              "' belongs in transforms/" +
                                              folderOf(D->Name) + "/");
  return Registry.add(E.Create(std::move(*D)));
}

llvm::Error optiml::registerTransforms(TransformRegistry &Registry) {
  for (const Entry &E : Library)
    if (llvm::Error Err = add(Registry, E))
      return Err;
  return llvm::Error::success();
}

TransformRegistry optiml::makeTransformRegistry() {
  TransformRegistry Registry;
  // Descriptors are embedded at build time and checked by the unit tests,
  // so a bad one is a broken build: say which and stop, without a crash
  // report.
  if (llvm::Error E = registerTransforms(Registry))
    llvm::report_fatal_error(llvm::Twine(llvm::toString(std::move(E))),
                             /*gen_crash_diag=*/false);
  return Registry;
}
