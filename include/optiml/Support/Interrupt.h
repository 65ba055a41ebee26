//===- Interrupt.h - Ctrl-C as a request to stop ---------------*- C++ -*-===//
//
// A long action (--optimize's search) asks SIGINT and SIGTERM to stop it at
// its next safe point rather than kill it, so that what it verified so far
// is still written. The first signal only sets a flag; LLVM removes its
// handlers when one runs, so a second signal ends the process at once.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_INTERRUPT_H
#define OPTIML_SUPPORT_INTERRUPT_H

namespace optiml {

/// The exit code of a search stopped by SIGINT or SIGTERM, its outputs
/// written: 128 + SIGINT, as shells report an interrupted command.
inline constexpr int ExitInterrupted = 130;

/// Of two exit codes of runs in turn (kernels, files), the one that says
/// the most: an interrupt, else the higher (a rejection over success).
inline int worseExitCode(int A, int B) {
  if (A == ExitInterrupted || B == ExitInterrupted)
    return ExitInterrupted;
  return A > B ? A : B;
}

/// From now on SIGINT and SIGTERM request a stop (once) instead of ending
/// the process; the request is announced on stderr.
void stopOnInterrupt();

/// Whether a stop was requested. A child process running when the signal
/// came was killed with it (by the terminal, which signals its whole process
/// group, or else by runSubprocess and the runner worker, which kill a
/// child once a stop is requested): its result says nothing about its
/// input, and is neither recorded nor cached.
bool stopRequested();

/// What the handler does; async-signal-safe.
void requestStop();

/// Forgets a request (for tests).
void clearStopRequest();

} // namespace optiml

#endif // OPTIML_SUPPORT_INTERRUPT_H
