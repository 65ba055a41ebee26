//===- KernelEditChecker.cpp - may this candidate be run? ----------------===//

#include "optiml/Rewrite/KernelEditChecker.h"
#include "optiml/Rewrite/HarnessEscapes.h"
#include "optiml/Rewrite/KernelDefinition.h"
#include "optiml/Rewrite/RawTokens.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <map>

using namespace optiml;
using namespace clang;

static llvm::Error refuse(const llvm::Twine &Why) {
  return makeError(ErrorKind::Illegal, Why);
}

//===----------------------------------------------------------------------===//
// The changed text: directives and names
//===----------------------------------------------------------------------===//

namespace {

/// The byte range in which two texts differ: [Prefix, size - Suffix).
struct ChangedRange {
  size_t Prefix = 0, Suffix = 0;

  ChangedRange(llvm::StringRef A, llvm::StringRef B) {
    size_t Max = std::min(A.size(), B.size());
    while (Prefix < Max && A[Prefix] == B[Prefix])
      ++Prefix;
    while (Suffix < Max - Prefix &&
           A[A.size() - 1 - Suffix] == B[B.size() - 1 - Suffix])
      ++Suffix;
  }

  /// The tokens of \p Toks (lexed from \p Size bytes) touching the range.
  std::vector<const RawToken *> tokensIn(const RawTokens &Toks,
                                         size_t Size) const {
    size_t End = Size - Suffix;
    std::vector<const RawToken *> Out;
    for (const RawToken &T : Toks.tokens())
      if (T.End >= Prefix && T.Offset <= End)
        Out.push_back(&T);
    return Out;
  }
};

std::string describe(const RawDirective &D) {
  if (D.Name == "define" || D.Name == "undef")
    return "a macro (`" + D.Text + "`)";
  if (D.Name == "pragma")
    return "the `#pragma optiml` mark";
  if (D.Name == "line")
    return "a `#line` directive (`" + D.Text + "`)";
  return "an include (`" + D.Text + "`)";
}

/// The macro of a new conditional directive that tells compilers apart
/// (`#ifdef __clang__`), if any: the checker parses with Clang, nvcc
/// compiles with its own front end and the host compiler, so such a
/// conditional could show the checker one file and build another.
std::string compilerProbe(const RawDirective &D) {
  static const llvm::StringSet<> Conditionals = {
      "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"};
  if (!Conditionals.contains(D.Name))
    return "";
  static const char *const Prefixes[] = {
      "__clang",    "__llvm__",   "__GNUC",   "__GNUG__",    "__NVCC__",
      "__NVCOMPILER", "__CUDACC", "__EDG",    "__INTEL",     "_MSC_VER",
      "__OPTIMIZE", "__VERSION__", "__has_",  "__is_identifier"};
  llvm::SmallVector<llvm::StringRef, 16> Words;
  llvm::StringRef(D.Text).split(Words, ' ', -1, false);
  for (llvm::StringRef W : Words)
    for (const char *P : Prefixes)
      if (W.starts_with(P))
        return W.str();
  return "";
}

/// True when \p Offset of the text lexed into \p Toks lies inside a
/// function body (a brace not opened by a namespace, an extern "C" block or
/// a class).
bool insideFunctionBody(const RawTokens &Toks, unsigned Offset) {
  std::vector<bool> Bodies;
  const RawToken *Prev = nullptr, *PrevPrev = nullptr;
  bool ClassHead = false;
  for (const RawToken &T : Toks.tokens()) {
    if (T.Offset >= Offset)
      break;
    if (T.InDirective)
      continue;
    if (T.Kind == tok::raw_identifier &&
        (T.Text == "struct" || T.Text == "class" || T.Text == "union" ||
         T.Text == "enum"))
      ClassHead = true;
    else if (T.Kind == tok::semi || T.Kind == tok::l_paren ||
             T.Kind == tok::r_paren || T.Kind == tok::equal)
      ClassHead = false;
    if (T.Kind == tok::l_brace) {
      bool Namespace =
          (Prev && Prev->Text == "namespace") ||
          (PrevPrev && PrevPrev->Text == "namespace") ||
          (Prev && Prev->Kind == tok::string_literal && PrevPrev &&
           PrevPrev->Text == "extern");
      Bodies.push_back(!Namespace && !ClassHead);
      ClassHead = false;
    } else if (T.Kind == tok::r_brace && !Bodies.empty()) {
      Bodies.pop_back();
    }
    PrevPrev = Prev;
    Prev = &T;
  }
  for (bool B : Bodies)
    if (B)
      return true;
  return false;
}

/// A new `#if`/`#ifdef` on __CUDA_ARCH__ outside any function body: the
/// checker parses the device side, so declarations only the host side sees
/// (`#ifndef __CUDA_ARCH__`) would escape its checks.
bool hidesHostCode(const RawTokens &Toks, const RawDirective &D) {
  static const llvm::StringSet<> Conditionals = {
      "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef"};
  return Conditionals.contains(D.Name) &&
         llvm::StringRef(D.Text).contains("__CUDA_ARCH__") &&
         !insideFunctionBody(Toks, D.Offset);
}

/// The directives of \p Toks that start inside \p Range and \p Counts.
template <typename Pred>
std::multiset<std::string>
directivesIn(const RawTokens &Toks, size_t Begin, size_t End,
             std::map<std::string, RawDirective> *All, Pred Counts) {
  std::multiset<std::string> Out;
  for (const RawDirective &D : Toks.directives()) {
    if (D.Offset + 1 < Begin || D.Offset > End || !Counts(D))
      continue;
    Out.insert(D.Text);
    if (All)
      (*All)[D.Text] = D;
  }
  return Out;
}

} // namespace

bool KernelEditChecker::isScopedDirective(const RawDirective &D) const {
  // Macros change what every later line means, the harness's included;
  // a whole candidate may include more and rewrite its mark.
  static const llvm::StringSet<> Macros = {"define", "undef", "line"};
  static const llvm::StringSet<> Includes = {"include", "include_next",
                                             "import"};
  if (Macros.contains(D.Name))
    return true;
  if (Scope == EditScope::File)
    return false;
  if (Includes.contains(D.Name))
    return true;
  return D.Name == "pragma" && llvm::StringRef(D.Text).contains(" optiml");
}

llvm::Error KernelEditChecker::checkChangedText(llvm::StringRef Cand) const {
  llvm::StringRef Old = Original.source().text();
  ChangedRange R(Old, Cand);
  RawTokens OldToks(Old), NewToks(Cand);

  // A directive's line may start before the first changed byte.
  auto lineStart = [](llvm::StringRef Text, size_t At) {
    size_t NL = Text.rfind('\n', At == 0 ? 0 : At - 1);
    return NL == llvm::StringRef::npos ? size_t(0) : NL + 1;
  };
  std::map<std::string, RawDirective> Added, Removed;
  auto Scoped = [this](const RawDirective &D) { return isScopedDirective(D); };
  auto OldDirs = directivesIn(OldToks, lineStart(Old, R.Prefix),
                              Old.size() - R.Suffix, &Removed, Scoped);
  auto NewDirs = directivesIn(NewToks, lineStart(Cand, R.Prefix),
                              Cand.size() - R.Suffix, &Added, Scoped);
  for (const std::string &D : NewDirs)
    if (OldDirs.count(D) < NewDirs.count(D))
      return refuse("it adds or changes " + describe(Added[D]));
  for (const std::string &D : OldDirs)
    if (NewDirs.count(D) < OldDirs.count(D))
      return refuse("it removes or changes " + describe(Removed[D]));
  std::map<std::string, RawDirective> Probes;
  auto Probe = [](const RawDirective &D) { return !compilerProbe(D).empty(); };
  auto OldProbes = directivesIn(OldToks, lineStart(Old, R.Prefix),
                                Old.size() - R.Suffix, nullptr, Probe);
  auto NewProbes = directivesIn(NewToks, lineStart(Cand, R.Prefix),
                                Cand.size() - R.Suffix, &Probes, Probe);
  for (const std::string &D : NewProbes)
    if (OldProbes.count(D) < NewProbes.count(D))
      return refuse("it adds a conditional on `" + compilerProbe(Probes[D]) +
                    "` (`" + D +
                    "`): the checker (Clang) and nvcc would see different "
                    "code");
  std::map<std::string, RawDirective> Hiding;
  auto OldHiding = directivesIn(
      OldToks, lineStart(Old, R.Prefix), Old.size() - R.Suffix, nullptr,
      [&](const RawDirective &D) { return hidesHostCode(OldToks, D); });
  auto NewHiding = directivesIn(
      NewToks, lineStart(Cand, R.Prefix), Cand.size() - R.Suffix, &Hiding,
      [&](const RawDirective &D) { return hidesHostCode(NewToks, D); });
  for (const std::string &D : NewHiding)
    if (OldHiding.count(D) < NewHiding.count(D))
      return refuse("it adds a conditional on `__CUDA_ARCH__` outside a "
                    "function body (`" +
                    D +
                    "`): the checker reads the device side, so code only "
                    "the host side compiles would go unchecked");

  llvm::StringSet<> OldNames, OldChanged;
  for (const RawToken &T : OldToks.tokens())
    if (T.Kind == tok::raw_identifier)
      OldNames.insert(T.Text);
  for (const RawToken *T : R.tokensIn(OldToks, Old.size()))
    if (T->Kind == tok::raw_identifier)
      OldChanged.insert(T->Text);
  for (const RawToken *T : R.tokensIn(NewToks, Cand.size()))
    if (T->Kind == tok::raw_identifier && !OldChanged.contains(T->Text))
      if (llvm::Error E = checkName(T->Text, OldNames))
        return E;
  return llvm::Error::success();
}

/// The functions named \p Name at file scope of \p Ctx, declared outside
/// the main file (in the toolkit's headers).
static std::vector<const FunctionDecl *> headerFunctions(ASTContext &Ctx,
                                                         llvm::StringRef Name) {
  std::vector<const FunctionDecl *> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const NamedDecl *D :
       Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name))) {
    const FunctionDecl *F = D->getAsFunction();
    if (F && !SM.isWrittenInMainFile(SM.getExpansionLoc(F->getLocation())))
      Out.push_back(F);
  }
  return Out;
}

llvm::Error
KernelEditChecker::checkName(llvm::StringRef Name,
                             const llvm::StringSet<> &OriginalNames) const {
  if (Name == "main" &&
      (Scope == EditScope::Kernel || !OriginalNames.contains(Name)))
    return refuse("it names `main`: only the kernel may change");
  // Names an earlier rewrite generated (optiml_cy) may be kept and moved;
  // a whole candidate may hold a rewrite's new names too.
  bool Harness = Name == "optiml_kernel_entry" || Name == "optiml_kernel_name";
  if (Name.starts_with("optiml_") && !OriginalNames.contains(Name) &&
      (Scope == EditScope::Kernel || Harness))
    return refuse("it names `" + Name +
                  "`: the optiml_ prefix is reserved for the harness "
                  "(optiml_kernel_entry, optiml_kernel_name) and OptiML's rewrites");
  // The device-side parse drops host-only attributes; an ifunc's resolver
  // runs while the library is loaded.
  if ((Name == "ifunc" || Name == "__ifunc__") && !OriginalNames.contains(Name))
    return refuse("it uses the `ifunc` attribute, whose resolver runs when "
                  "the library loads");
  static const llvm::Regex Runtime("^cuda[A-Z]"), Driver("^cu[A-Z]");
  if (!Runtime.match(Name) && !Driver.match(Name))
    return llvm::Error::success();
  ASTContext &Ctx = Original.context();
  std::vector<const FunctionDecl *> Found = headerFunctions(Ctx, Name);
  bool Declared =
      !Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(Name)).empty();
  // A runtime name that is not a function (cudaStream_t) is fine; an
  // unknown one is refused for what it looks like.
  if (Runtime.match(Name) && (!Found.empty() || !Declared))
    return refuse("it names `" + Name +
                  "`, a CUDA runtime API function: a candidate may not "
                  "launch, allocate or synchronize");
  for (const FunctionDecl *F : Found) {
    const SourceManager &SM = Ctx.getSourceManager();
    llvm::StringRef File = llvm::sys::path::filename(
        SM.getFilename(SM.getExpansionLoc(F->getLocation())));
    if (File == "cuda.h")
      return refuse("it names `" + Name +
                    "`, a CUDA driver API function: a candidate may not "
                    "launch, allocate or synchronize");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// The parse
//===----------------------------------------------------------------------===//

llvm::Expected<std::unique_ptr<ParsedSource>>
KernelEditChecker::parse(const KernelSource &Candidate) const {
  std::string DeviceLaunchAt;
  auto Parsed =
      Parser.parseQuietly(Candidate, ErrorKind::Illegal, &DeviceLaunchAt);
  if (Parsed)
    return Parsed;
  std::string Error = llvm::toString(Parsed.takeError());
  // The same refusal HarnessEscapes gives when the launch does parse.
  if (!DeviceLaunchAt.empty())
    return refuse("it launches a kernel from device code (" + DeviceLaunchAt +
                  "): dynamic parallelism runs work outside the timed window "
                  "of the kernel");
  return refuse("it does not parse: " + Error);
}

//===----------------------------------------------------------------------===//
// The signature
//===----------------------------------------------------------------------===//

/// What the harness depends on in a parameter's type: restrict and the
/// constness of what a pointer points to may change (what the restrict and
/// const rewrites do), nothing else.
static std::string harnessType(QualType T, const ASTContext &Ctx) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *P = T->getAs<PointerType>())
    return harnessType(P->getPointeeType(), Ctx) + " *";
  return T.getAsString(Ctx.getPrintingPolicy());
}

static std::string templateParams(const FunctionDecl &F) {
  const FunctionTemplateDecl *T = F.getDescribedFunctionTemplate();
  if (!T)
    return "";
  std::string Out;
  for (const NamedDecl *P : *T->getTemplateParameters())
    Out += std::string(P->getDeclKindName()) + " " + P->getNameAsString() + ",";
  return Out;
}

llvm::Error KernelEditChecker::checkSignature(ParsedSource &Candidate) const {
  auto Old = KernelDefinition::find(Original.context(), Kernel);
  auto New = KernelDefinition::find(Candidate.context(), Kernel);
  if (!Old)
    return makeError(ErrorKind::BadInput,
                     "the original does not define kernel '" + Kernel + "'");
  if (!New)
    return refuse("it does not define kernel '" + Kernel + "' any more");
  const FunctionDecl &A = *Old->Kernel, &B = *New->Kernel;
  if (templateParams(A) != templateParams(B))
    return refuse("it changes the kernel's signature: its template "
                  "parameters differ");
  if (A.getNumParams() != B.getNumParams())
    return refuse(
        "it changes the kernel's signature: " + llvm::Twine(B.getNumParams()) +
        " parameters instead of " + llvm::Twine(A.getNumParams()));
  for (unsigned I = 0; I < A.getNumParams(); ++I) {
    const ParmVarDecl &P = *A.getParamDecl(I), &Q = *B.getParamDecl(I);
    if (P.getName() != Q.getName())
      return refuse("it changes the kernel's signature: parameter " +
                    llvm::Twine(I + 1) + " is '" + Q.getName() +
                    "' instead of '" + P.getName() +
                    "' (the spec names parameters)");
    if (harnessType(P.getType(), Original.context()) !=
        harnessType(Q.getType(), Candidate.context()))
      return refuse("it changes the kernel's signature: parameter '" +
                    P.getName() + "' is '" + Q.getType().getAsString() +
                    "' instead of '" + P.getType().getAsString() + "'");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Everything but the kernel
//===----------------------------------------------------------------------===//

namespace {

struct Item {
  const Decl *D;
  std::string Key;  ///< Kind and qualified name.
  std::string Text; ///< As written.
};

/// The declarations written in the main file of \p P, through namespaces
/// and `extern "C"` blocks, except the kernel \p Kernel itself.
std::vector<Item> itemsOf(ParsedSource &P, const Decl *Kernel) {
  std::vector<Item> Out;
  const SourceManager &SM = P.sourceManager();
  const LangOptions &LO = P.context().getLangOpts();
  std::vector<const DeclContext *> Work = {
      P.context().getTranslationUnitDecl()};
  while (!Work.empty()) {
    const DeclContext *DC = Work.back();
    Work.pop_back();
    for (const Decl *D : DC->decls()) {
      if (D->isImplicit() || D == Kernel || D->getBeginLoc().isInvalid() ||
          !SM.isWrittenInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
        continue;
      if (isa<NamespaceDecl, LinkageSpecDecl>(D)) {
        Work.push_back(cast<DeclContext>(D));
        continue;
      }
      CharSourceRange R = SM.getExpansionRange(D->getSourceRange());
      std::string Name;
      if (const auto *N = dyn_cast<NamedDecl>(D))
        Name = N->getQualifiedNameAsString();
      Out.push_back({D, std::string(D->getDeclKindName()) + " " + Name,
                     Lexer::getSourceText(R, SM, LO).str()});
    }
  }
  return Out;
}

const FunctionDecl *functionOf(const Decl *D) {
  if (const auto *T = dyn_cast<FunctionTemplateDecl>(D))
    return T->getTemplatedDecl();
  return dyn_cast<FunctionDecl>(D);
}

/// Why \p D may not be added or changed; empty for a new __device__ helper.
std::string whyNot(const Decl *D, bool IsNew) {
  std::string Name;
  if (const auto *N = dyn_cast<NamedDecl>(D))
    Name = N->getQualifiedNameAsString();
  if (const FunctionDecl *F = functionOf(D)) {
    if (F->hasAttr<CUDAGlobalAttr>())
      return "it adds or changes another kernel, '" + Name + "'";
    if (!F->hasAttr<CUDADeviceAttr>() || F->hasAttr<CUDAHostAttr>())
      return "it adds or changes host code: function '" + Name + "'";
    if (IsNew)
      return "";
    return "it changes the __device__ function '" + Name +
           "' outside the kernel";
  }
  if (const auto *V = dyn_cast<VarDecl>(D)) {
    if (V->hasAttr<CUDAConstantAttr>())
      return "it adds or changes __constant__ data: '" + Name + "'";
    return "it adds or changes a global variable: '" + Name + "'";
  }
  return "it adds or changes code outside the kernel: " +
         std::string(D->getDeclKindName()) +
         (Name.empty() ? "" : " '" + Name + "'");
}

} // namespace

/// True when the host variable \p V runs code to initialize or destroy
/// itself (a constant initializer and a trivial destructor do not).
static bool hasLoadTimeInit(const VarDecl &V) {
  if (V.getDeclContext()->isDependentContext())
    return V.hasInit();
  return !V.hasConstantInitialization() ||
         V.needsDestruction(V.getASTContext()) != QualType::DK_none;
}

/// Code that runs when the library is loaded: a host global's dynamic
/// initializer or destructor (device globals are initialized by the module
/// load, from constants), a constructor or destructor function, an ifunc
/// (its resolver runs while the library is loaded), file-scope assembly (it
/// can add an .init_array entry); also inside classes, whose static members
/// are globals.
static std::string runsAtLoad(const Decl *D) {
  std::string Name;
  if (const auto *N = dyn_cast<NamedDecl>(D))
    Name = N->getQualifiedNameAsString();
  if (isa<FileScopeAsmDecl>(D))
    return "it adds or changes file-scope assembly, which can run code when "
           "the library loads (an .init_array entry)";
  if (const FunctionDecl *F = functionOf(D)) {
    if (F->hasAttr<ConstructorAttr>() || F->hasAttr<DestructorAttr>())
      return "it adds or changes '" + Name +
             "', a function that runs when the library loads or unloads";
    if (F->hasAttr<IFuncAttr>())
      return "it adds or changes the ifunc '" + Name +
             "', whose resolver runs when the library loads";
  }
  if (const auto *V = dyn_cast<VarDecl>(D))
    if (!V->hasAttr<CUDADeviceAttr>() && !V->hasAttr<CUDAConstantAttr>() &&
        !V->hasAttr<CUDASharedAttr>() && V->hasGlobalStorage() &&
        !V->isStaticLocal() && hasLoadTimeInit(*V))
      return "it adds or changes the host global '" + Name +
             "', whose initializer would run when the library loads";
  if (const auto *T = dyn_cast<ClassTemplateDecl>(D))
    D = T->getTemplatedDecl();
  if (const auto *R = dyn_cast<CXXRecordDecl>(D))
    for (const Decl *M : R->decls())
      if (!M->isImplicit())
        if (std::string Why = runsAtLoad(M); !Why.empty())
          return Why;
  return "";
}

llvm::Error KernelEditChecker::checkLoadTimeCode(ParsedSource &Cand) const {
  auto Old = KernelDefinition::find(Original.context(), Kernel);
  auto New = KernelDefinition::find(Cand.context(), Kernel);
  std::map<std::string, std::multiset<std::string>> Before;
  for (const Item &I : itemsOf(Original, Old->Outer))
    Before[I.Key].insert(I.Text);
  for (const Item &I : itemsOf(Cand, New->Outer)) {
    auto It = Before.find(I.Key);
    if (It != Before.end() && It->second.count(I.Text))
      continue;
    std::string Why = runsAtLoad(I.D);
    if (!Why.empty())
      return refuse(Why);
  }
  return llvm::Error::success();
}

llvm::Error KernelEditChecker::checkOutsideKernel(ParsedSource &Cand) const {
  if (Scope == EditScope::File)
    return checkLoadTimeCode(Cand);
  auto Old = KernelDefinition::find(Original.context(), Kernel);
  auto New = KernelDefinition::find(Cand.context(), Kernel);
  std::map<std::string, std::multiset<std::string>> Before;
  for (const Item &I : itemsOf(Original, Old->Outer))
    Before[I.Key].insert(I.Text);
  std::vector<Item> After = itemsOf(Cand, New->Outer);
  for (const Item &I : After) {
    auto It = Before.find(I.Key);
    if (It != Before.end() && It->second.count(I.Text)) {
      It->second.erase(It->second.find(I.Text));
      continue;
    }
    std::string Why = whyNot(I.D, It == Before.end());
    if (!Why.empty())
      return refuse(Why);
  }
  for (const auto &[Key, Texts] : Before)
    if (!Texts.empty())
      return refuse("it removes or changes " + Key.substr(0, Key.find(' ')) +
                    " '" + Key.substr(Key.find(' ') + 1) +
                    "' outside the kernel");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<ParsedSource>>
KernelEditChecker::check(const KernelSource &Candidate) const {
  if (llvm::Error E = checkChangedText(Candidate.text()))
    return E;
  auto Parsed = parse(Candidate);
  if (!Parsed)
    return Parsed.takeError();
  if (llvm::Error E =
          HarnessEscapes(Original).checkCandidate(HarnessEscapes(**Parsed)))
    return E;
  if (llvm::Error E = checkSignature(**Parsed))
    return E;
  if (llvm::Error E = checkOutsideKernel(**Parsed))
    return E;
  return Parsed;
}
