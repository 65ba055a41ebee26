//===- Flags.h - each action's options, as typed records -------*- C++ -*-===//
//
// The command line is parsed once, into the cl::opt globals that each
// *Flags.cpp file owns: the shared target part (TargetFlags.cpp), the
// choice of action (ActionFlags.cpp) and one file per action. Each file
// builds its action's options record from them, checks them, and gives
// the option table the rows of its options, so that --help, the check that
// refuses a misplaced option and the records read one set of declarations.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_TOOLS_CLANGOPTIML_FLAGS_H
#define OPTIML_TOOLS_CLANGOPTIML_FLAGS_H

#include "OptionTable.h"

#include "driver/Cache/CacheActions.h"
#include "driver/Evaluate/EvaluateAction.h"
#include "driver/FromPrompt/FromPromptAction.h"
#include "driver/Optimize/OptimizeOptions.h"
#include "driver/Optimize/ProposeAction.h"
#include "optiml/Support/Error.h"

#include <string>
#include <vector>

namespace optiml {

/// The one category the parser knows (CommonOptionsParser hides the rest,
/// and LLVM suggests no hidden option for a misspelt one); --help regroups
/// the options under each file's headings (OptionTable::groupForHelp).
llvm::cl::OptionCategory &optimlCategory();

//===--- The target: what every action that reads a kernel shares -------===//

/// The kernel, its spec, the GPU and toolkit, the flags and where the
/// result goes, as the command line gave them.
struct TargetFlags {
  std::string Kernel;   ///< --kernel; empty: the file's only kernel.
  std::string SpecPath; ///< --spec; empty: the marks and sidecars.
  std::string Arch;     ///< --arch; empty: the GPU's own, else sm_90.
  std::string CudaPath; ///< --cuda-path; empty: found.
  /// The project's flags for the source (its compile command), then the
  /// user's -Xnvcc flags, which may override them.
  std::vector<std::string> NvccFlags;
  std::string Output; ///< -o, or the -o folder's file for this source.
  std::string DbPath; ///< --db; empty: Database::defaultPath().
  OutputFormat Format = OutputFormat::Text;
  bool AllMarked = false; ///< --all.
  double NoiseTarget = 0.01;
  unsigned TimeoutSeconds = 300;
};

/// The target part of the command line, with \p ProjectNvccFlags (from
/// the source's compile command) before the user's -Xnvcc flags.
TargetFlags targetFlags(std::vector<std::string> ProjectNvccFlags = {});
/// BadInput for a --noise-target or --timeout no run could use.
llvm::Error checkTargetFlags();
/// The heading of the options several actions read, and of those without
/// a row.
llvm::cl::OptionCategory &commonHeading();
std::vector<OptionTable::Row> targetRows();

//===--- The action ------------------------------------------------------===//

/// The action the command line asks for (`optimize`; empty: none); several
/// at once is an error. --from-prompt and the cache files are not among
/// them: they are found before the parser runs (CommandLine.h).
llvm::Expected<std::string> chosenAction();
/// --apply's steps.
std::vector<std::string> applySteps();
/// Nothing the command line says is silently ignored: an option the action
/// does not read, JSON where there is none, or a number that would make
/// the action do nothing is an error. \p Also is an action that runs along
/// (--from-prompt under --optimize).
llvm::Error checkOptionsFit(llvm::StringRef Action, llvm::StringRef Also = "");
std::vector<OptionTable::Row> actionRows();
/// The heading of the actions' own flags (--optimize, --from-prompt, ...).
const OptionGroup &actionsGroup();
/// Every option's row, in the order the check reads them.
const OptionTable &optionTable();

//===--- --evaluate ------------------------------------------------------===//

EvaluateOptions evaluateOptions(const TargetFlags &T);
std::vector<OptionTable::Row> evaluateRows();

//===--- --optimize, --propose and --list-sites' transforms -------------===//

/// --optimize's options with the model \p Llm; \p Provenance: what the
/// reports say made them.
OptimizeOptions optimizeOptions(const TargetFlags &T, LlmConfig Llm,
                                const ReportProvenance &Provenance);
/// What only --optimize itself refuses (--from-prompt's continuation
/// takes its options as they are): settings for a model it will not ask,
/// --strategy with --compare.
llvm::Error checkOptimizeFlags(const LlmConfig &Llm);
ProposeOptions proposeOptions(const TargetFlags &T, LlmConfig Llm);
/// With several sources, --optimize's -o is a folder, made here: each
/// result goes there under its source's name.
llvm::Error checkOutputFolder(llvm::ArrayRef<std::string> Sources,
                              const TargetFlags &T);
/// --transforms and --exclude.
TransformChoice transformChoice();
/// --format-style (--apply and --optimize).
std::string formatStyle();
/// BadInput for a --format-style, --budget or --time-limit that cannot be.
llvm::Error checkSearchFlags();
std::vector<OptionTable::Row> optimizeRows();
std::vector<OptionTable::Row> proposeRows();

//===--- The model -------------------------------------------------------===//

/// The model's settings: the command line's, its OPTIML_* variables and
/// the --llm-config file.
llvm::Expected<LlmConfig> llmConfig();
/// The first setting of the model, less --llm itself, that the command
/// line gave; null: none.
const llvm::cl::Option *givenModelSetting();
std::vector<OptionTable::Row> modelRows();

//===--- --from-prompt ---------------------------------------------------===//

/// --from-prompt's options, its description read, with --optimize's when
/// \p AlsoOptimize.
llvm::Expected<FromPromptOptions>
fromPromptOptions(const TargetFlags &T, bool AlsoOptimize,
                  const ReportProvenance &Provenance);
std::vector<OptionTable::Row> fromPromptRows();

//===--- The results cache -----------------------------------------------===//

/// --import-cache and --export-cache; empty: not given.
struct CacheFileFlags {
  std::string Import;
  std::string Export;
};
CacheFileFlags cacheFileFlags();
UseCacheOptions useCacheOptions(const TargetFlags &T);
std::vector<OptionTable::Row> cacheRows();

} // namespace optiml

#endif // OPTIML_TOOLS_CLANGOPTIML_FLAGS_H
