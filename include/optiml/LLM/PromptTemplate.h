//===- PromptTemplate.h - a versioned prompt template ----------*- C++ -*-===//
//
// Prompts are files, not string literals in the code: a header naming the
// prompt, its version (bumped whenever the wording changes, recorded with
// every call and part of the cache key through the rendered text) and its
// variables, then a `@@ system` and a `@@ user` section in which
// `{{variable}}` is replaced. A template that uses a variable it does not
// declare, or a render that lacks one, is an error rather than a prompt
// with a hole in it.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROMPTTEMPLATE_H
#define OPTIML_LLM_PROMPTTEMPLATE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace optiml {

struct RenderedPrompt {
  std::string System, User;
  std::string Version; ///< "propose/1".
};

class PromptTemplate {
public:
  /// Parses a template's text; \p Origin names it in errors.
  static llvm::Expected<PromptTemplate> parse(llvm::StringRef Text,
                                              llvm::StringRef Origin);
  static llvm::Expected<PromptTemplate> load(llvm::StringRef Path);

  const std::string &name() const { return Name; }
  const std::string &version() const { return Version; }
  const std::vector<std::string> &variables() const { return Variables; }

  /// Both sections with every `{{name}}` replaced by \p Values[name].
  llvm::Expected<RenderedPrompt>
  render(const std::map<std::string, std::string> &Values) const;

private:
  std::string Name, Version, Origin;
  std::vector<std::string> Variables;
  std::string System, User;
};

} // namespace optiml

#endif // OPTIML_LLM_PROMPTTEMPLATE_H
