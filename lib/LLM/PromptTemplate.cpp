//===- PromptTemplate.cpp - a versioned prompt with named variables ------===//

#include "optiml/LLM/PromptTemplate.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <set>

using namespace optiml;

/// The names between `{{` and `}}` in \p Text, in order.
static std::vector<std::string> placeholders(llvm::StringRef Text) {
  std::vector<std::string> Out;
  while (true) {
    size_t Open = Text.find("{{");
    if (Open == llvm::StringRef::npos)
      return Out;
    size_t Close = Text.find("}}", Open);
    if (Close == llvm::StringRef::npos)
      return Out;
    Out.push_back(Text.slice(Open + 2, Close).trim().str());
    Text = Text.drop_front(Close + 2);
  }
}

llvm::Expected<PromptTemplate> PromptTemplate::parse(llvm::StringRef Text,
                                                     llvm::StringRef Origin) {
  PromptTemplate T;
  T.Origin = Origin.str();
  std::string *Section = nullptr;
  llvm::SmallVector<llvm::StringRef> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.starts_with("@@ ")) {
      llvm::StringRef Which = Line.drop_front(3).trim();
      if (Which == "system")
        Section = &T.System;
      else if (Which == "user")
        Section = &T.User;
      else
        return makeError(ErrorKind::BadInput, Origin +
                                                  ": unknown section '@@ " +
                                                  Which + "' (system or user)");
      continue;
    }
    if (Section) {
      *Section += Line.str() + "\n";
      continue;
    }
    if (!Line.consume_front("#"))
      continue;
    auto [Key, Value] = Line.split(':');
    Key = Key.trim();
    Value = Value.trim();
    if (Key == "name")
      T.Name = Value.str();
    else if (Key == "version")
      T.Version = Value.str();
    else if (Key == "variables") {
      llvm::SmallVector<llvm::StringRef> Names;
      Value.split(Names, ',', -1, false);
      for (llvm::StringRef N : Names)
        T.Variables.push_back(N.trim().str());
    }
  }
  if (T.Name.empty() || T.Version.empty() || T.User.empty())
    return makeError(ErrorKind::BadInput,
                     Origin + ": a prompt needs '# name:', '# version:' and "
                              "a '@@ user' section");
  T.System = llvm::StringRef(T.System).trim().str();
  T.User = llvm::StringRef(T.User).trim().str();
  for (llvm::StringRef Used : placeholders(T.System + T.User))
    if (!llvm::is_contained(T.Variables, Used))
      return makeError(ErrorKind::BadInput,
                       Origin + ": {{" + Used +
                           "}} is used but not declared in '# variables:'");
  return T;
}

llvm::Expected<PromptTemplate> PromptTemplate::load(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return makeError(ErrorKind::BadInput, "cannot read prompt " + Path + ": " +
                                              Buffer.getError().message());
  return parse((*Buffer)->getBuffer(), Path);
}

static std::string substitute(llvm::StringRef Text,
                              const std::map<std::string, std::string> &V) {
  std::string Out;
  while (true) {
    size_t Open = Text.find("{{");
    size_t Close = Open == llvm::StringRef::npos ? Open : Text.find("}}", Open);
    if (Close == llvm::StringRef::npos) {
      Out += Text.str();
      return Out;
    }
    Out += Text.take_front(Open).str();
    Out += V.at(Text.slice(Open + 2, Close).trim().str());
    Text = Text.drop_front(Close + 2);
  }
}

llvm::Expected<RenderedPrompt>
PromptTemplate::render(const std::map<std::string, std::string> &Values) const {
  for (const std::string &Name : Variables)
    if (!Values.count(Name))
      return makeError(ErrorKind::BadInput,
                       Origin + ": variable '" + Name +
                           "' has no value (this OptiML does not provide it)");
  return RenderedPrompt{substitute(System, Values), substitute(User, Values),
                        Name + "/" + Version};
}
