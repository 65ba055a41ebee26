//===- Interrupt.cpp - Ctrl-C as a request to stop -----------------------===//

#include "optiml/Support/Interrupt.h"

#include "llvm/Support/Signals.h"

#include <csignal>
#include <unistd.h>

using namespace optiml;

static volatile std::sig_atomic_t Requested = 0;

/// Runs in the signal handler: only async-signal-safe calls.
static void onInterrupt() {
  static const char Message[] =
      "\nclang-optiml: interrupted: stopping the search; the best verified "
      "kernel so far and the reports will be written (interrupt again to "
      "quit at once)\n";
  requestStop();
  ssize_t Ignored = ::write(STDERR_FILENO, Message, sizeof(Message) - 1);
  (void)Ignored;
}

void optiml::stopOnInterrupt() { llvm::sys::SetInterruptFunction(onInterrupt); }

bool optiml::stopRequested() { return Requested != 0; }

void optiml::requestStop() { Requested = 1; }

void optiml::clearStopRequest() { Requested = 0; }
