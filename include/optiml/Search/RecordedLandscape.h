//===- RecordedLandscape.h - a search's states, for replaying ----*- C++
//-*-===//
//
// Every state a search measured, with the moves the expander gave it and
// what each came to, in SimulatedEnvironment's table format: a search on
// the GPU leaves behind the landscape a later strategy can be replayed on
// without one (scripts/landscape.py merges the reports of one kernel and
// fills the moves nobody tried; optiml-replay runs the strategies on it).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_SEARCH_RECORDEDLANDSCAPE_H
#define OPTIML_SEARCH_RECORDEDLANDSCAPE_H

#include <nlohmann/json.hpp>

namespace optiml {

class Expander;
class SearchGraph;

/// {"root": HASH, "noise": N, "states": {HASH: {"status", "time_ns",
/// "roofline", "actions": [{"step", "prior", "motivation", and "to" (a
/// state measured), "error" (refused, or a cycle) or "untried": true}]}},
/// "retunes": {STEP: [STEP...]}}, the last from \p E for every step of
/// the table that has parameters, so that a replay retunes as the search
/// did.
/// A state's time is the original's (its reference median) over the
/// state's measured speedup, so that ratios are the measured ones; states
/// still in flight are left out and moves to them count as untried.
/// Retune moves are not among a state's actions: the replay adds them
/// from "retunes" as the search added them.
/// Null when the original has no time.
nlohmann::json recordLandscape(const SearchGraph &G, Expander &E);

} // namespace optiml

#endif // OPTIML_SEARCH_RECORDEDLANDSCAPE_H
