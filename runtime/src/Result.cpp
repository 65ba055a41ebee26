//===- Result.cpp - The result file, written at every step ----------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Result.h"

#include "optiml/Protocol/Document.h"

#include <cstdio>
#include <fstream>

namespace optiml {

ResultWriter::ResultWriter(std::string Path) : Path(std::move(Path)) {}

void ResultWriter::phase(const std::string &Phase) {
  std::fprintf(stderr, "optiml-runner: %s\n", Phase.c_str());
  Result.Phase = Phase;
  write();
}

void ResultWriter::log(const std::string &Line) {
  std::fprintf(stderr, "optiml-runner: %s\n", Line.c_str());
  Result.Log.push_back(Line);
}

void ResultWriter::finish(Status S, const std::string &Message) {
  Result.Status = S;
  Result.Error.reset();
  if (!Message.empty())
    Result.Error = Message;
  Result.Phase = "done";
  write();
}

bool ResultWriter::write() {
  if (Path.empty())
    return true;
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp, std::ios::trunc);
    Out << protocol::encode(Result) << '\n';
    if (!Out) {
      std::fprintf(stderr, "optiml-runner: cannot write '%s'\n", Tmp.c_str());
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::fprintf(stderr, "optiml-runner: cannot rename '%s' to '%s'\n",
                 Tmp.c_str(), Path.c_str());
    return false;
  }
  return true;
}

} // namespace optiml
