//===- EventMarkers.cpp - CUDA events as an energy window's markers -------===//

#include "EventMarkers.h"
#include "CudaCheck.h"
#include "KernelLibrary.h"

namespace optiml {

EventMarkers::~EventMarkers() {
  for (cudaEvent_t Event : Events)
    cudaEventDestroy(Event);
}

Error EventMarkers::create(cudaStream_t S, std::string Name) {
  Stream = S;
  What = std::move(Name);
  while (Events.size() < MarkerSlots) {
    cudaEvent_t Event = nullptr;
    if (Error E =
            checkCuda(cudaEventCreateWithFlags(&Event, cudaEventDisableTiming),
                      "creating the markers of " + What))
      return E;
    Events.push_back(Event);
  }
  return Error::success();
}

EnergyWindowOps EventMarkers::ops() const {
  EnergyWindowOps Ops;
  Ops.Mark = [this](unsigned Slot) {
    return checkCuda(cudaEventRecord(Events[Slot], Stream),
                     "recording a marker of " + What);
  };
  Ops.Passed = [this](unsigned Slot, bool &Passed) {
    cudaError_t Result = cudaEventQuery(Events[Slot]);
    Passed = Result == cudaSuccess;
    if (Result == cudaErrorNotReady)
      return Error::success();
    if (Passed)
      return Error::success();
    // A launch that faulted shows here first.
    return Error(Status::Fault, What + " failed: " + describeCudaError(Result));
  };
  Ops.Sync = [this] { return syncKernels(Stream, What); };
  return Ops;
}

} // namespace optiml
