//===- Server.h - A runner that serves one plan after another ---*- C++ -*-===//
//
// Part of OptiML. `optiml-runner --serve <requests>` keeps one process, one
// CUDA context and one Session for a whole search. The tool appends a line
// per plan to the requests file:
//
//   <plan.json> TAB <result.json>
//
// and the runner answers on stderr, around the plan's usual phase lines:
//
//   optiml-runner: serving <n>
//   optiml-runner: served <n> exit <code>
//
// where <n> counts the requests from 1 and <code> is the one-shot runner's
// exit code for that plan. A line "quit" ends the runner. It also ends
//  - after a fault (the context is dead; the result is written first),
//  - when the process that started it is gone,
//  - after MaxPlans plans (candidate libraries are never unloaded, so a
//    worker does not live forever),
// and the tool starts a new one for the next plan.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_SERVER_H
#define OPTIML_RUNTIME_SERVER_H

#include <string>

namespace optiml {

class Session;

/// Serves the requests appended to \p RequestsPath; returns the process's
/// exit code (0 after "quit" or MaxPlans, 3 when the file cannot be read).
int serve(const std::string &RequestsPath);

/// Runs the plan at \p PlanPath, writing \p OutPath, in \p S; returns the
/// exit code. The one-shot runner and the server share it.
int runPlanFile(const std::string &PlanPath, const std::string &OutPath,
                Session &S);

} // namespace optiml

#endif // OPTIML_RUNTIME_SERVER_H
