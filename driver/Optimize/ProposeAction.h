//===- ProposeAction.h - --propose: the model's moves, checked -*- C++ -*-===//
//
// Asks the model for moves on one kernel and validates each statically;
// the accepted edits can be written to a folder that --optimize replays
// (--proposals-from).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_PROPOSEACTION_H
#define OPTIML_DRIVER_PROPOSEACTION_H

#include "driver/Session/Driver.h"
#include "optiml/LLM/LlmConfig.h"

#include <string>
#include <vector>

namespace optiml {

struct ProposeOptions {
  std::string Kernel;   ///< Empty: the file's only kernel.
  std::string SpecPath; ///< Empty: the mark and/or <file>.optiml.json.
  std::string Arch;     ///< For the nvcc build; empty: sm_90.
  std::vector<std::string> NvccFlags;
  unsigned Count = 3;    ///< Proposals asked for.
  std::string OutputDir; ///< Empty: nothing written.
  std::string DbPath;    ///< Empty: Database::defaultPath().
  LlmConfig Llm;
};

class ProposeAction : public Driver {
public:
  explicit ProposeAction(const Driver &Session) : Driver(Session) {}

  /// Asks the model for Options.Count proposals on one kernel, validates
  /// each statically (apply, re-parse, the edit checks, an nvcc build) and
  /// lists them; accepted edits go to Options.OutputDir. ExitOK when the
  /// model answered, whatever it proposed; no answer is an error.
  llvm::Expected<int> propose(llvm::StringRef File,
                              const ProposeOptions &Options,
                              OutputFormat Format);
};

} // namespace optiml

#endif // OPTIML_DRIVER_PROPOSEACTION_H
