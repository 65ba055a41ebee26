//===- ProposalSchema.h - the answer's shape at one state -------*- C++ -*-===//
//
// A model told "name one of these actions" still invents names, drops the
// site or puts a parameter outside its range. Endpoints that enforce a JSON
// schema (OpenAI's strict response_format, vLLM's and llama.cpp's guided
// decoding, Anthropic's tool input) cannot answer that way when the schema
// spells the state's legal actions out: each structured proposal is one of
// the legal transforms, at one of the sites where it is legal, with every
// parameter an enum of its domain; an edit is a kernel's code and the
// launch it needs (empty: the mark's).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_LLM_PROPOSALSCHEMA_H
#define OPTIML_LLM_PROPOSALSCHEMA_H

#include "optiml/Transform/ActionSpace.h"
#include "optiml/Transform/TransformRegistry.h"

#include <nlohmann/json.hpp>

namespace optiml {

class ProposalSchema {
public:
  /// The schema of a `{"proposals": [...]}` answer whose structured items
  /// may name only the legal ones of \p Actions (with the parameters
  /// \p Registry declares) and whose edits carry code, at most \p Count
  /// of them. Without a legal action, only edits.
  static nlohmann::json forActions(llvm::ArrayRef<Action> Actions,
                                   const TransformRegistry &Registry,
                                   unsigned Count);
};

} // namespace optiml

#endif // OPTIML_LLM_PROPOSALSCHEMA_H
