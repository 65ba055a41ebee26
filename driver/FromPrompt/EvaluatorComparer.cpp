//===- EvaluatorComparer.cpp - two generated kernels on the GPU ----------===//

#include "driver/FromPrompt/EvaluatorComparer.h"
#include "optiml/Support/JsonText.h"

using namespace optiml;

/// Why an evaluation did not agree, one line.
static std::string detailOf(const Evaluation &E) {
  if (const BuildResult *B = E.failedBuild())
    return "build failed: " +
           llvm::StringRef(B->Log).trim().take_front(200).str();
  if (!E.Run.Error.empty())
    return E.Run.Error;
  if (E.Run.Result && E.Run.Result->Verify &&
      !E.Run.Result->Verify->Failures.empty())
    return jsonText(protocol::Json(E.Run.Result->Verify->Failures.front()), -1);
  return "";
}

llvm::Expected<Comparison>
EvaluatorComparer::compare(const CheckedKernel &First,
                           const CheckedKernel &Second) const {
  auto E = Eval.evaluate(First.Source, &Second.Source, First.Kernel, First.Spec,
                         &R, &Second.Spec);
  if (!E)
    return E.takeError();
  Comparison C;
  C.Status = E->status();
  if (E->accepted())
    C.Verdict = Agreement::Agree;
  else if (C.Status == "verify_failed")
    C.Verdict = Agreement::Disagree;
  else
    C.Verdict = Agreement::Failed;
  C.Detail = detailOf(*E);
  if (E->Run.Result)
    if (const protocol::InstanceTiming *T = E->Run.Result->firstTiming()) {
      C.FirstNs = T->Reference.MedianNs;
      C.SecondNs = T->Candidate.MedianNs;
    }
  return C;
}
