//===- LineFollower.h - the lines a child appends to a file ---*- C++ -*-===//
//
// Children write their output to a file, not a pipe, so that a chatty one
// cannot block on a full pipe while the tool waits. A follower hands the
// complete lines appended since its last poll to a callback, which is how
// the tool hears a long child while it runs.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SUPPORT_LINEFOLLOWER_H
#define OPTIML_SUPPORT_LINEFOLLOWER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <functional>
#include <string>

namespace optiml {

/// Called with each complete line the child writes, while it runs.
using OutputLineFn = std::function<void(llvm::StringRef Line)>;

class LineFollower {
public:
  /// Follows \p Path from its current start; a null \p OnLine follows
  /// nothing.
  LineFollower(llvm::StringRef Path, OutputLineFn OnLine);
  LineFollower(const LineFollower &) = delete;
  LineFollower &operator=(const LineFollower &) = delete;
  ~LineFollower();

  /// Hands on the complete lines written since the last poll; the last line
  /// without a break waits for the next poll.
  void poll();

  /// poll(), then the unfinished last line too, once the child has exited.
  void finish();

private:
  OutputLineFn OnLine;
  llvm::sys::fs::file_t File = llvm::sys::fs::kInvalidFile;
  std::string Pending;
};

} // namespace optiml

#endif // OPTIML_SUPPORT_LINEFOLLOWER_H
