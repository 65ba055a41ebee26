//===- LoopSiteNamer.cpp - stable names for a kernel's loops -------------===//

#include "optiml/Analysis/LoopSiteNamer.h"

#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringMap.h"

using namespace optiml;
using namespace clang;

static const char *loopKind(const Stmt *S) {
  if (isa<ForStmt, CXXForRangeStmt>(S))
    return "for";
  if (isa<WhileStmt>(S))
    return "while";
  if (isa<DoStmt>(S))
    return "do";
  return nullptr;
}

/// Appends the loops directly under \p S (not nested in another loop of S)
/// to \p Out and recurses into their bodies with their own prefix.
void LoopSiteNamer::walk(const Stmt *S, const std::string &Prefix,
                         std::vector<NamedLoop> &Out) {
  // Sibling counters live per nest level; a worklist in source order keeps
  // the numbering the order in which loops appear in the text.
  llvm::StringMap<unsigned> Counters;
  std::vector<const Stmt *> Work(S->child_begin(), S->child_end());
  std::reverse(Work.begin(), Work.end());
  while (!Work.empty()) {
    const Stmt *Child = Work.back();
    Work.pop_back();
    if (!Child)
      continue;
    if (const char *Kind = loopKind(Child)) {
      std::string Site =
          Prefix + "/" + Kind + "#" + std::to_string(Counters[Kind]++);
      Out.push_back({Child, Site, Kind});
      walk(Child, Site, Out);
      continue;
    }
    std::vector<const Stmt *> Kids(Child->child_begin(), Child->child_end());
    Work.insert(Work.end(), Kids.rbegin(), Kids.rend());
  }
}

std::vector<LoopSiteNamer::NamedLoop>
LoopSiteNamer::name(const FunctionDecl &Kernel) {
  std::vector<NamedLoop> Out;
  if (const Stmt *Body = Kernel.getBody())
    walk(Body, Kernel.getQualifiedNameAsString(), Out);
  return Out;
}
