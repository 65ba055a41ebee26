//===- GpuLock.cpp - One plan at a time on a GPU, across processes --------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "GpuLock.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace optiml {

std::string GpuLock::pathFor(const std::string &BusId) {
  const char *Dir = std::getenv("OPTIML_GPU_LOCK_DIR");
  if (!Dir || !*Dir)
    Dir = std::getenv("TMPDIR");
  if (!Dir || !*Dir)
    Dir = "/tmp";
  std::string Name;
  for (char C : BusId)
    Name += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return std::string(Dir) + "/optiml-gpu-" + Name + ".lock";
}

bool GpuLock::acquire() {
  release();
  int Count = 0;
  if (cudaGetDeviceCount(&Count) != cudaSuccess || Count == 0)
    return false;
  char BusId[64] = {0};
  if (cudaDeviceGetPCIBusId(BusId, sizeof(BusId), 0) != cudaSuccess)
    return false;
  std::string Path = pathFor(BusId);
  // Every user's runner must be able to open it: 0666, whatever the umask.
  Fd = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (Fd < 0) {
    std::fprintf(stderr,
                 "optiml-runner: warning: cannot open the GPU lock '%s' (%s); "
                 "another process's kernels may overlap this plan's\n",
                 Path.c_str(), std::strerror(errno));
    return false;
  }
  (void)fchmod(Fd, 0666); // Fails harmlessly on another user's file.
  if (::flock(Fd, LOCK_EX | LOCK_NB) == 0)
    return false;
  std::fprintf(stderr,
               "optiml-runner: waiting for GPU %s (another runner "
               "is measuring on it)\n",
               BusId);
  std::fflush(stderr);
  while (::flock(Fd, LOCK_EX) != 0 && errno == EINTR) {
  }
  return true;
}

void GpuLock::release() {
  if (Fd >= 0)
    ::close(Fd); // Closing the last descriptor drops the flock.
  Fd = -1;
}

} // namespace optiml
