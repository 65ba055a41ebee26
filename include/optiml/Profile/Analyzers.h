//===- Analyzers.h - OptiML's stage-two analyzers ---------------*- C++ -*-===//
//
// One function per analyzer, each defined in its own lib/Profile file, in
// the order MicroProfiler::standard() runs them. The file's comment says
// which cause it looks for and on what evidence.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_PROFILE_ANALYZERS_H
#define OPTIML_PROFILE_ANALYZERS_H

#include "optiml/Profile/Analyzer.h"

namespace optiml {

/// Achieved vs theoretical occupancy and what limits it.
Analyzer occupancyAnalyzer();
/// Local-memory spills reported by ptxas.
Analyzer spillAnalyzer();
/// L1/L2 hit rates of a memory-bound kernel.
Analyzer cacheAnalyzer();
/// Sectors per global request.
Analyzer coalescingAnalyzer();
/// Shared-memory bank conflicts per instruction.
Analyzer bankConflictAnalyzer();
/// Active threads per warp instruction.
Analyzer divergenceAnalyzer();
/// The SASS instruction mix.
Analyzer instructionMixAnalyzer();
/// Source-level hints that need no counters.
Analyzer staticHintAnalyzer();

} // namespace optiml

#endif // OPTIML_PROFILE_ANALYZERS_H
