//===- CuptiCheck.cpp - Turn CUPTI results into Error values --------------===//
//
// Part of OptiML.
//
//===----------------------------------------------------------------------===//

#include "CuptiCheck.h"

namespace optiml {

std::string describeCupti(CUptiResult R) {
  const char *Name = nullptr;
  if (cuptiGetResultString(R, &Name) != CUPTI_SUCCESS || !Name)
    Name = "unknown CUPTI error";
  std::string Text = std::string(Name) + " (" + std::to_string(R) + ")";
  const char *Message = nullptr;
  if (cuptiGetErrorMessage(R, &Message) == CUPTI_SUCCESS && Message && *Message)
    Text += ": " + std::string(Message);
  return Text;
}

Error checkCupti(CUptiResult R, const std::string &What) {
  if (R == CUPTI_SUCCESS)
    return Error::success();
  return Error(Status::Error, What + " failed: " + describeCupti(R));
}

} // namespace optiml
