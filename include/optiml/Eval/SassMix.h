//===- SassMix.h - instruction mix of a kernel's SASS ---------*- C++ -*-===//
//
// What the GPU actually executes, read off `cuobjdump -sass`: how many
// global loads are scalar and how many are 128-bit, how much integer
// arithmetic surrounds each FFMA, whether local memory is touched. The
// source and ptxas' resource report cannot say this; the counts are static
// (each instruction in the code once, not weighted by how often it runs).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_EVAL_SASSMIX_H
#define OPTIML_EVAL_SASSMIX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace optiml {

/// Memory instructions by the width each thread moves. Widths below 32 bits
/// (.U8, .S16, ...) count as 32: they cost an instruction like a 32-bit one.
struct WidthCounts {
  unsigned Bits32 = 0; ///< 32 bits or fewer per thread (LDG.E, STS, LDL).
  unsigned Bits64 = 0;
  unsigned Bits128 = 0;

  unsigned total() const { return Bits32 + Bits64 + Bits128; }
  /// Bits128 over total(); 0 without any.
  double wideShare() const;
};

/// The mix of one function. Instructions excludes padding: NOPs and the
/// branch-to-self that ends every function. Predicated instructions count
/// like the others (and once more in Predicated).
struct SassMix {
  std::string Function; ///< Mangled name as cuobjdump prints it.
  unsigned Instructions = 0;
  unsigned Predicated = 0;
  WidthCounts GlobalLoads;  ///< LDG, LD (generic), LDGSTS.
  WidthCounts GlobalStores; ///< STG, ST (generic).
  WidthCounts SharedLoads;  ///< LDS, LDSM.
  WidthCounts SharedStores; ///< STS.
  WidthCounts LocalLoads;   ///< LDL: spills and local arrays.
  WidthCounts LocalStores;  ///< STL.
  unsigned Ffma = 0, Fadd = 0, Fmul = 0;
  unsigned OtherFp32 = 0; ///< FSETP, FMNMX, FSEL, FCHK, ...
  unsigned Fp64 = 0;      ///< DFMA, DADD, DMUL, DSETP, ...
  unsigned Integer = 0;   ///< IMAD, IADD3, LEA, LOP3, SHF, ISETP, uniform too.
  unsigned Control = 0;   ///< BRA, BSSY, BSYNC, EXIT, CALL, RET, ...
  unsigned Barriers = 0;  ///< BAR.
  unsigned Shuffles = 0;  ///< SHFL.
  unsigned Special = 0;   ///< MUFU (sin, exp, rcp, ...).
  unsigned Atomics = 0;   ///< ATOM, ATOMG, ATOMS, RED.
  unsigned Other = 0;     ///< Moves, constants, conversions, ...

  unsigned fp32() const { return Ffma + Fadd + Fmul + OtherFp32; }
};

/// The mix of every function in a `cuobjdump -sass` dump, in dump order.
std::vector<SassMix> parseSass(llvm::StringRef Dump);

/// The mix of the first function whose (mangled) name names \p Kernel, as
/// parseResourceUsage picks it; nothing when the dump has none.
std::optional<SassMix> parseSassMix(llvm::StringRef Dump,
                                    llvm::StringRef Kernel);

/// A hash (hex) of the code in a `cuobjdump -sass` dump: each function's
/// name and its instructions with their encodings, nothing of the headers
/// around them. Equal hashes: the same machine code.
std::string sassCodeHash(llvm::StringRef Dump);

/// One line for reports: "19 instructions: 1 FFMA, 0 non-FFMA FP32, 4
/// integer; global ld 2/0/0 st 1/0/0, shared ld 0/0/0 st 0/0/0
/// (32/64/128-bit); local ld/st 0/0".
std::string sassSummary(const SassMix &Mix);

nlohmann::json toJSON(const SassMix &Mix);
/// The inverse of toJSON, for mixes kept in build records and databases.
llvm::Expected<SassMix> sassMixFromJSON(const nlohmann::json &J);

} // namespace optiml

#endif // OPTIML_EVAL_SASSMIX_H
