//===- NvccFlags.cpp - nvcc command lines to clang command lines ---------===//

#include "optiml/Frontend/NvccFlags.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

using namespace optiml;
using llvm::StringRef;

namespace {

/// nvcc flags without a value that mean nothing to a clang parse.
const llvm::StringSet<> DroppedFlags = {"-forward-unknown-to-host-compiler",
                                        "--forward-unknown-to-host-compiler",
                                        "--expt-relaxed-constexpr",
                                        "-expt-relaxed-constexpr",
                                        "--expt-extended-lambda",
                                        "-expt-extended-lambda",
                                        "--extended-lambda",
                                        "-extended-lambda",
                                        "-lineinfo",
                                        "--generate-line-info",
                                        "--keep",
                                        "-keep",
                                        "-G",
                                        "--device-debug",
                                        "--use_fast_math",
                                        "-use_fast_math",
                                        "--resource-usage",
                                        "-res-usage",
                                        "-Wno-deprecated-gpu-targets",
                                        "--dlink-time-opt",
                                        "-dlto",
                                        "--display-error-number",
                                        "--allow-unsupported-compiler",
                                        "-allow-unsupported-compiler",
                                        "--use-local-env",
                                        "-Werror=all-warnings",
                                        "--disable-warnings",
                                        "-w-nvcc",
                                        "--restrict",
                                        "-restrict",
                                        "--no-host-device-move-forward",
                                        "--no-host-device-initializer-list",
                                        "-rdc=false",
                                        "--relocatable-device-code=false",
                                        "--expt-relaxed-constexpr=true"};

/// nvcc options that take a value (as the next argument or after '=') and
/// only steer nvcc's own tools.
const llvm::StringSet<> DroppedWithValue = {"-ccbin",
                                            "--compiler-bindir",
                                            "-Xptxas",
                                            "--ptxas-options",
                                            "-Xnvlink",
                                            "--nvlink-options",
                                            "-Xcudafe",
                                            "-Xfatbin",
                                            "--fatbin-options",
                                            "-Xarchive",
                                            "--archive-options",
                                            "--options-file",
                                            "-optf",
                                            "-maxrregcount",
                                            "--maxrregcount",
                                            "--default-stream",
                                            "-default-stream",
                                            "-t",
                                            "--threads",
                                            "--diag-suppress",
                                            "-diag-suppress",
                                            "--keep-dir",
                                            "-keep-dir",
                                            "-odir",
                                            "--output-directory",
                                            "-cudart",
                                            "--cudart",
                                            "-code",
                                            "--gpu-code",
                                            "--static-global-template-stub",
                                            "-static-global-template-stub",
                                            "-split-compile",
                                            "--split-compile",
                                            "--run-args",
                                            "-run-args",
                                            "--diag-error",
                                            "--diag-warn",
                                            "-diag-error",
                                            "-diag-warn"};

/// nvcc options with a value whose clang spelling is a prefix.
StringRef clangPrefixFor(StringRef Option) {
  return llvm::StringSwitch<StringRef>(Option)
      .Case("--define-macro", "-D")
      .Case("--include-path", "-I")
      .Case("--system-include", "-isystem")
      .Case("--pre-include", "-include")
      .Case("--undefine-macro", "-U")
      .Case("--optimize", "-O")
      .Case("--std", "-std=")
      .Case("-std", "-std=")
      .Default("");
}

/// Splits "--opt=value" into its option and value; no '=' gives no value.
std::pair<StringRef, std::optional<StringRef>> splitAssign(StringRef Arg) {
  if (!Arg.starts_with("-"))
    return {Arg, std::nullopt};
  size_t Eq = Arg.find('=');
  if (Eq == StringRef::npos)
    return {Arg, std::nullopt};
  return {Arg.substr(0, Eq), Arg.substr(Eq + 1)};
}

class Translator {
public:
  explicit Translator(llvm::ArrayRef<std::string> Args) : Args(Args) {}

  std::vector<std::string> run() {
    if (Args.empty())
      return {};
    Out.push_back(Args[0]);
    for (I = 1; I < Args.size(); ++I)
      translate(Args[I]);
    return std::move(Out);
  }

private:
  /// The value of the option at I: after '=' or, consuming it, the next arg.
  std::optional<StringRef> valueOf(std::optional<StringRef> Inline) {
    if (Inline)
      return Inline;
    if (I + 1 < Args.size())
      return StringRef(Args[++I]);
    return std::nullopt;
  }

  void addArch(StringRef Spelling) {
    if (HaveArch)
      return;
    if (auto Sm = nvccArchToSm(Spelling)) {
      Out.push_back("--cuda-gpu-arch=" + *Sm);
      HaveArch = true;
    }
  }

  void translate(StringRef Arg) {
    auto [Option, Inline] = splitAssign(Arg);
    if (DroppedFlags.contains(Arg))
      return;
    if (DroppedWithValue.contains(Option)) {
      (void)valueOf(Inline);
      return;
    }
    if (Option == "-Xcompiler" || Option == "--compiler-options") {
      if (auto V = valueOf(Inline)) {
        llvm::SmallVector<StringRef, 4> Parts;
        V->split(Parts, ',', -1, /*KeepEmpty=*/false);
        for (StringRef P : Parts)
          Out.push_back(P.str());
      }
      return;
    }
    if (Option == "-arch" || Option == "--gpu-architecture" ||
        Option == "-gencode" || Option == "--generate-code") {
      if (auto V = valueOf(Inline))
        addArch(*V);
      return;
    }
    if (Arg.starts_with("--cuda-gpu-arch=")) {
      if (!HaveArch)
        Out.push_back(Arg.str());
      HaveArch = true;
      return;
    }
    if (Arg == "-rdc=true" || Arg == "--relocatable-device-code=true" ||
        Arg == "-rdc" || Arg == "--relocatable-device-code") {
      Out.push_back("-fgpu-rdc");
      return;
    }
    if (Arg == "-dc" || Arg == "--device-c") {
      Out.push_back("-fgpu-rdc");
      Out.push_back("-c");
      return;
    }
    if (Option == "-x" || Option == "--x") {
      auto V = valueOf(Inline);
      Out.push_back("-x");
      Out.push_back(V && *V == "cu" ? "cuda" : (V ? V->str() : "cuda"));
      return;
    }
    StringRef Prefix = clangPrefixFor(Option);
    if (!Prefix.empty()) {
      if (auto V = valueOf(Inline))
        Out.push_back((llvm::Twine(Prefix) + *V).str());
      return;
    }
    Out.push_back(Arg.str());
  }

  llvm::ArrayRef<std::string> Args;
  std::vector<std::string> Out;
  size_t I = 0;
  bool HaveArch = false;
};

} // namespace

std::optional<std::string> optiml::nvccArchToSm(StringRef Spelling) {
  // "arch=compute_90,code=[sm_90,compute_90]": the real code wins.
  StringRef Code = Spelling;
  size_t CodePos = Spelling.find("code=");
  if (CodePos != StringRef::npos && Spelling.find("arch=") != StringRef::npos &&
      Spelling.substr(0, CodePos).ends_with(","))
    Code = Spelling.substr(CodePos + 5);
  else if (Spelling.consume_front("arch="))
    Code = Spelling;
  Code = Code.trim("[]\"' ");
  llvm::SmallVector<StringRef, 4> Parts;
  Code.split(Parts, ',');
  for (StringRef P : Parts) {
    P = P.trim("[]\"' ");
    for (StringRef Family : {"sm_", "compute_", "lto_"}) {
      if (P.consume_front(Family) && !P.empty() && isdigit(P.front()))
        return ("sm_" + llvm::Twine(P)).str();
    }
  }
  return std::nullopt;
}

std::vector<std::string>
optiml::translateNvccArgs(llvm::ArrayRef<std::string> Args) {
  return Translator(Args).run();
}

/// nvcc's spelling of a C++ standard of C++17 or newer, or nothing: older
/// ones are left to OptiML's default, which the harness needs.
static std::optional<std::string> nvccStandard(StringRef Std) {
  if (!Std.consume_front("gnu++"))
    Std.consume_front("c++");
  return llvm::StringSwitch<std::optional<std::string>>(Std)
      .Cases({"17", "1z"}, "-std=c++17")
      .Cases({"20", "2a"}, "-std=c++20")
      .Default(std::nullopt);
}

std::vector<std::string>
optiml::buildFlagsOf(llvm::ArrayRef<std::string> CommandLine,
                     StringRef Directory) {
  std::vector<std::string> Clang = translateNvccArgs(CommandLine);
  std::vector<std::string> Out;
  auto Absolute = [&](StringRef Path) {
    llvm::SmallString<256> P(Path);
    if (!Path.empty() && llvm::sys::path::is_relative(P))
      llvm::sys::path::make_absolute(Directory, P);
    return std::string(P);
  };
  for (size_t I = 1; I < Clang.size(); ++I) {
    StringRef Arg = Clang[I];
    bool HasNext = I + 1 < Clang.size();
    if (Arg.consume_front("-std=")) {
      if (auto Std = nvccStandard(Arg))
        Out.push_back(*Std);
      continue;
    }
    if (Arg.starts_with("-D") || Arg.starts_with("-U")) {
      StringRef Value = Arg.drop_front(2);
      if (Value.empty() && HasNext)
        Value = Clang[++I];
      Out.push_back((Arg.take_front(2) + Value).str());
      continue;
    }
    for (StringRef Path : {"-isystem", "-iquote", "-include", "-I"}) {
      if (!Arg.starts_with(Path))
        continue;
      StringRef Value = Arg.drop_front(Path.size());
      Value.consume_front("=");
      if (Value.empty() && HasNext)
        Value = Clang[++I];
      Out.push_back(Path.str());
      Out.push_back(Absolute(Value));
      break;
    }
  }
  return Out;
}
