//===- EventMarkers.h - CUDA events as an energy window's markers -*- C++
//-*-===//
//
// Part of OptiML. measureEnergyWindow counts the launches the GPU finished
// by markers recorded behind them; here they are CUDA events (without
// timing, the cheapest kind) on the runner's stream.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_EVENTMARKERS_H
#define OPTIML_RUNTIME_EVENTMARKERS_H

#include "EnergyWindow.h"
#include "Status.h"

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace optiml {

class EventMarkers {
public:
  EventMarkers(const EventMarkers &) = delete;
  EventMarkers &operator=(const EventMarkers &) = delete;
  EventMarkers() = default;
  ~EventMarkers();

  /// Creates MarkerSlots events for \p Stream; \p What names the work in
  /// error messages.
  Error create(cudaStream_t Stream, std::string What);

  /// Ops with Mark, Passed and Sync on this stream (Launch, Read and Now
  /// are the caller's).
  EnergyWindowOps ops() const;

private:
  cudaStream_t Stream = nullptr;
  std::string What;
  std::vector<cudaEvent_t> Events;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_EVENTMARKERS_H
