//===- CuptiTimer.cpp - Kernel durations from the CUPTI Activity API ------===//
//
// Part of OptiML. CUPTI hands activity buffers to plain C callbacks with no
// user pointer, possibly from its own thread, so the collected records live
// in a mutex-protected global.
//
//===----------------------------------------------------------------------===//

#include "CuptiTimer.h"
#include "CudaCheck.h"
#include "CuptiCheck.h"

#include <algorithm>
#include <cstdlib>
#include <cupti.h>
#include <mutex>

namespace optiml {

namespace {

constexpr size_t ActivityBufferBytes = 8 << 20;
constexpr size_t ActivityBufferAlign = 8; // CUPTI's documented requirement.

std::mutex RecordsMutex;
std::vector<KernelRecord> PendingRecords;
size_t RecordsWithoutTimestamps = 0;
bool CallbacksRegistered = false;

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size,
                              size_t *MaxNumRecords) {
  *Buffer = static_cast<uint8_t *>(
      std::aligned_alloc(ActivityBufferAlign, ActivityBufferBytes));
  *Size = *Buffer ? ActivityBufferBytes : 0;
  *MaxNumRecords = 0; // As many as fit.
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t,
                              size_t ValidSize) {
  std::vector<KernelRecord> Got;
  size_t NoTime = 0;
  CUpti_Activity *Record = nullptr;
  while (Buffer && cuptiActivityGetNextRecord(Buffer, ValidSize, &Record) ==
                       CUPTI_SUCCESS) {
    if (Record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
        Record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    // CUDA 13's cupti_activity.h documents CUpti_ActivityKernel10 as the
    // record of both kernel kinds.
    const auto *K = reinterpret_cast<const CUpti_ActivityKernel10 *>(Record);
    // Zero timestamps mean CUPTI lacked device memory to time the kernel.
    if (K->start == 0 || K->end <= K->start) {
      ++NoTime;
      continue;
    }
    KernelRecord R;
    R.Name = K->name ? K->name : "";
    R.Start = K->start;
    R.End = K->end;
    R.CorrelationId = K->correlationId;
    Got.push_back(std::move(R));
  }
  std::free(Buffer);
  std::lock_guard<std::mutex> Lock(RecordsMutex);
  RecordsWithoutTimestamps += NoTime;
  for (KernelRecord &R : Got)
    PendingRecords.push_back(std::move(R));
}

} // namespace

Error CuptiTimer::start(std::unique_ptr<CuptiTimer> &Out) {
  if (!CallbacksRegistered) {
    if (Error E = checkCupti(
            cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted),
            "cuptiActivityRegisterCallbacks"))
      return E;
    CallbacksRegistered = true;
  }
  {
    std::lock_guard<std::mutex> Lock(RecordsMutex);
    PendingRecords.clear();
    RecordsWithoutTimestamps = 0;
  }
  if (Error E =
          checkCupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                     "cuptiActivityEnable(CONCURRENT_KERNEL)"))
    return E;
  Out.reset(new CuptiTimer());
  Out->Running = true;
  return Error::success();
}

CuptiTimer::~CuptiTimer() { (void)stop(); }

Error CuptiTimer::collect(std::vector<KernelRecord> &Out, size_t &Lost) {
  // FlushAll does not synchronize; records are complete only once the
  // kernels have finished.
  if (Error E = checkCuda(cudaDeviceSynchronize(),
                          "cudaDeviceSynchronize(before CUPTI flush)"))
    return E;
  if (Error E =
          checkCupti(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED),
                     "cuptiActivityFlushAll"))
    return E;
  size_t Dropped = 0;
  if (Error E =
          checkCupti(cuptiActivityGetNumDroppedRecords(nullptr, 0, &Dropped),
                     "cuptiActivityGetNumDroppedRecords"))
    return E;
  {
    std::lock_guard<std::mutex> Lock(RecordsMutex);
    Out = std::move(PendingRecords);
    PendingRecords.clear();
    Lost = Dropped + RecordsWithoutTimestamps;
    RecordsWithoutTimestamps = 0;
  }
  std::sort(Out.begin(), Out.end(),
            [](const KernelRecord &A, const KernelRecord &B) {
              if (A.CorrelationId != B.CorrelationId)
                return A.CorrelationId < B.CorrelationId;
              return A.Start < B.Start;
            });
  return Error::success();
}

Error CuptiTimer::stop() {
  if (!Running)
    return Error::success();
  Running = false;
  Error E =
      checkCupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                 "cuptiActivityDisable(CONCURRENT_KERNEL)");
  // Deliver and drop whatever is still buffered, so a later CuptiTimer starts
  // clean.
  (void)cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> Lock(RecordsMutex);
  PendingRecords.clear();
  RecordsWithoutTimestamps = 0;
  return E;
}

} // namespace optiml
