//===- GpuLock.h - One plan at a time on a GPU ------------------*- C++ -*-===//
//
// Part of OptiML. Two searches on one machine may share a GPU (a parallel
// build optimizing several kernels, two users). A kernel timed, profiled or
// metered while another process's kernel runs on the same GPU gives a wrong
// number, so every runner holds an exclusive lock on a file named after the
// GPU's PCI address while it runs a plan. The kernel drops the lock when the
// process ends, also when it is killed.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_GPULOCK_H
#define OPTIML_RUNTIME_GPULOCK_H

#include <string>

namespace optiml {

class GpuLock {
public:
  GpuLock() = default;
  GpuLock(const GpuLock &) = delete;
  GpuLock &operator=(const GpuLock &) = delete;
  ~GpuLock() { release(); }

  /// Waits for the GPU that device 0 names (what CUDA_VISIBLE_DEVICES
  /// exposes). Without a GPU, or where the lock file cannot be made, it
  /// returns at once: the plan then reports the missing GPU, or runs
  /// unguarded (a warning on stderr says so). True when the wait was for
  /// another process.
  bool acquire();
  void release();

  /// The lock file for the GPU at PCI address \p BusId: in
  /// $OPTIML_GPU_LOCK_DIR, else $TMPDIR, else /tmp.
  static std::string pathFor(const std::string &BusId);

private:
  int Fd = -1;
};

} // namespace optiml

#endif // OPTIML_RUNTIME_GPULOCK_H
