//===- PromptLibrary.h - where the prompt templates live -------*- C++ -*-===//
//
// Prompts ship with the tool: installed under <prefix>/share/optiml/prompts,
// found beside the executable (<bin>/../share/optiml/prompts), else in the
// source tree it was built from; --prompts-dir (or OPTIML_PROMPTS_DIR)
// points elsewhere to try new wording without rebuilding.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROMPTLIBRARY_H
#define OPTIML_LLM_PROMPTLIBRARY_H

#include "optiml/LLM/PromptTemplate.h"

namespace optiml {

class PromptLibrary {
public:
  /// \p Dir when not empty, else the installed or source-tree folder found
  /// from \p Argv0.
  static PromptLibrary locate(llvm::StringRef Dir, const char *Argv0);

  /// The template `<dir>/<Name>.prompt`.
  llvm::Expected<PromptTemplate> load(llvm::StringRef Name) const;
  const std::string &directory() const { return Dir; }

private:
  explicit PromptLibrary(std::string Dir) : Dir(std::move(Dir)) {}
  std::string Dir;
};

} // namespace optiml

#endif // OPTIML_LLM_PROMPTLIBRARY_H
