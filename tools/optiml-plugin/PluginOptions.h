//===- PluginOptions.h - what -fplugin-arg-optiml-* says ---------*- C++
//-*-===//
//
// The plugin's options come one at a time as `-fplugin-arg-optiml-NAME=V`
// (clang hands over "NAME=V"). A bad one is a warning, never an error: the
// plugin must not fail the compile it rides on.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PLUGIN_PLUGINOPTIONS_H
#define OPTIML_PLUGIN_PLUGINOPTIONS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace optiml {

struct PluginOptions {
  /// Which of a CUDA compile's front-end runs reports. Clang parses a .cu
  /// file once for each GPU architecture and once for the host; reporting
  /// in one of them says everything once. The device run is the default:
  /// it is the parse clang-optiml itself analyzes, and it knows the
  /// architecture a cached result must match.
  enum class Pass { Device, Host, All };
  Pass ReportIn = Pass::Device;
  /// Results-cache files (the --export-cache format) to look results up in.
  std::vector<std::string> CacheFiles;
  /// The search database to look results up in; empty: the default one,
  /// when it exists (it is never created).
  std::string DbPath;
  /// A JSON sidecar spec, as clang-optiml's --spec=.
  std::string SpecPath;
  /// The architecture cached results are ranked for, where the compile
  /// does not tell (the host run).
  std::string Arch;
  /// Also report the transforms that do not apply, and why.
  bool ShowRefused = false;
  /// Problems with the options, one line each, for warnings.
  std::vector<std::string> Problems;

  /// The options in \p Args ("NAME=VALUE" each).
  static PluginOptions parse(const std::vector<std::string> &Args);
};

} // namespace optiml

#endif // OPTIML_PLUGIN_PLUGINOPTIONS_H
