//===- Inputs.h - Deterministic input data for buffers ----------*- C++ -*-===//
//
// Part of OptiML. Inputs are generated once per (instance, seed) on the host
// and uploaded to whichever side runs, so the reference and the candidate see
// byte-identical data.
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_RUNTIME_INPUTS_H
#define OPTIML_RUNTIME_INPUTS_H

#include "Plan.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace optiml {

/// Host contents per argument index: the generated data of in and inout
/// buffers; empty for out buffers and scalars.
using HostInputs = std::vector<std::vector<unsigned char>>;

/// The contents of buffer argument \p ArgIndex under \p Seed. The generator is
/// std::mt19937_64 seeded from (Seed, ArgIndex), so every buffer gets its own
/// stream and adding an argument does not change the others.
std::vector<unsigned char> generateBuffer(const Arg &A, unsigned ArgIndex,
                                          uint64_t Seed);

/// generateBuffer's values with about half of the lanes replaced, at
/// random, by values at the edges of their distribution (its ends, zero,
/// plus and minus one and the smallest subnormals where it holds them): the
/// plan's edge seed, which rejects a candidate that assumes more of its
/// inputs than the spec says. Index, constant, offsets, permutation and
/// sorted buffers are left as drawn: their structure is their meaning.
std::vector<unsigned char> generateEdgeBuffer(const Arg &A, unsigned ArgIndex,
                                              uint64_t Seed);

/// The bytes of every buffer of \p In together.
uint64_t bytesOf(const HostInputs &In);

/// generateBuffer (generateEdgeBuffer with \p Edge) for every in/inout
/// buffer of \p I.
HostInputs generateInputs(const Instance &I, uint64_t Seed, bool Edge = false);

/// generateInputs, generated once per (arguments, seed) in this process:
/// verification, the timed-launch checks, energy and metrics all load the
/// same inputs, and generating large ones costs more than the launches.
/// Kept while the kept inputs stay under a few GiB; beyond that each call
/// generates afresh.
std::shared_ptr<const HostInputs> sharedInputs(const Instance &I, uint64_t Seed,
                                               bool Edge = false);

} // namespace optiml

#endif // OPTIML_RUNTIME_INPUTS_H
