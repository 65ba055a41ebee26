//===- Result.cpp - The result file, written at every step ----------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "Result.h"

#include <cstdio>
#include <fstream>

namespace optiml {

ResultWriter::ResultWriter(std::string Path) : Path(std::move(Path)) {
  // Fixed key order, so the file reads the same way whatever happened.
  Root["status"] = statusName(Status::Incomplete);
  Root["error"] = nullptr;
  Root["phase"] = "start";
  Root["libraries"] = nullptr;
  Root["device"] = nullptr;
  Root["verify"] = nullptr;
  Root["timing"] = nullptr;
  Root["metrics"] = nullptr;
  Root["energy"] = nullptr;
  Root["log"] = Json::array();
}

void ResultWriter::phase(const std::string &Phase) {
  std::fprintf(stderr, "optiml-runner: %s\n", Phase.c_str());
  Root["phase"] = Phase;
  write();
}

void ResultWriter::log(const std::string &Line) {
  std::fprintf(stderr, "optiml-runner: %s\n", Line.c_str());
  Root["log"].push_back(Line);
}

void ResultWriter::finish(Status S, const std::string &Message) {
  Root["status"] = statusName(S);
  Root["error"] = Message.empty() ? Json() : Json(Message);
  Root["phase"] = "done";
  write();
}

bool ResultWriter::write() {
  if (Path.empty())
    return true;
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp, std::ios::trunc);
    // dump's error handler "replace" keeps invalid UTF-8 in kernel names or
    // dlerror() text from aborting the write.
    Out << Root.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
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
