//===- PluginOptions.cpp - what -fplugin-arg-optiml-* says ---------------===//

#include "PluginOptions.h"

#include "llvm/ADT/STLExtras.h"

using namespace optiml;

PluginOptions PluginOptions::parse(const std::vector<std::string> &Args) {
  PluginOptions O;
  for (llvm::StringRef Arg : Args) {
    auto [Name, Value] = Arg.split('=');
    bool HasValue = Arg.contains('=');
    if (Name == "pass" && Value == "device")
      O.ReportIn = Pass::Device;
    else if (Name == "pass" && Value == "host")
      O.ReportIn = Pass::Host;
    else if (Name == "pass" && Value == "all")
      O.ReportIn = Pass::All;
    else if (Name == "pass")
      O.Problems.push_back("unknown value '" + Value.str() +
                           "' of -fplugin-arg-optiml-pass; expected device, "
                           "host or all");
    else if (Name == "cache" && !Value.empty())
      O.CacheFiles.push_back(Value.str());
    else if (Name == "db" && !Value.empty())
      O.DbPath = Value.str();
    else if (Name == "spec" && !Value.empty())
      O.SpecPath = Value.str();
    else if (Name == "arch" && Value.starts_with("sm_"))
      O.Arch = Value.str();
    else if (Name == "refused" && !HasValue)
      O.ShowRefused = true;
    else if (llvm::is_contained({"cache", "db", "spec", "arch"}, Name))
      O.Problems.push_back("-fplugin-arg-optiml-" + Name.str() +
                           " needs a value" +
                           (Name == "arch" ? " of the form sm_XX" : ""));
    else
      O.Problems.push_back(
          "unknown option -fplugin-arg-optiml-" + Arg.str() +
          "; expected pass=, cache=, db=, spec=, arch= or refused");
  }
  return O;
}
