//===- CommandMeasurer.h - a program in the GPU's place --------*- C++ -*-===//
//
// --measure-with (hidden, for tests): each candidate's source goes to a
// program that says how fast it is, so that the search, the database, the
// reports and an interrupt can be tested end to end on a machine without a
// GPU. Nothing is built and no runner starts.
//
// The program runs as `PROGRAM FILE.cu STEPS` (the candidate's source in a
// temporary file, its steps as the reports spell them, "" for the
// original), one candidate at a time. Exit 0 with a speedup over the
// original on its last line is a verified, timed candidate; a speedup
// within the noise target of 1 is none. Any other exit is a wrong result
// (its output is the log), a signal a crash, a run past the time-out a
// hang.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_DRIVER_COMMANDMEASURER_H
#define OPTIML_DRIVER_COMMANDMEASURER_H

#include "optiml/Search/Expander.h"
#include "optiml/Search/Measurer.h"

#include <string>

namespace optiml {

class CommandMeasurer : public Measurer {
public:
  /// \p E has the candidates' sources; \p NoiseTarget is the relative
  /// change below which a speedup is noise, as the runner's.
  CommandMeasurer(Expander &E, std::string Program, double NoiseTarget,
                  unsigned TimeoutSeconds)
      : E(E), Program(std::move(Program)), NoiseTarget(NoiseTarget),
        TimeoutSeconds(TimeoutSeconds) {}

  Measurement measure(const Candidate &C) override;

private:
  Expander &E;
  std::string Program;
  double NoiseTarget;
  unsigned TimeoutSeconds;
};

} // namespace optiml

#endif // OPTIML_DRIVER_COMMANDMEASURER_H
