//===- SassMix.cpp - instruction mix of a kernel's SASS ------------------===//

#include "optiml/Eval/SassMix.h"
#include "optiml/Eval/ResourceUsage.h"
#include "optiml/Support/Error.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <nlohmann/json.hpp>

using namespace optiml;
using nlohmann::json;

double WidthCounts::wideShare() const {
  return total() ? double(Bits128) / total() : 0;
}

namespace {

enum class OpClass {
  GlobalLoad,
  GlobalStore,
  SharedLoad,
  SharedStore,
  LocalLoad,
  LocalStore,
  Ffma,
  Fadd,
  Fmul,
  OtherFp32,
  Fp64,
  Integer,
  Control,
  Barrier,
  Shuffle,
  Special,
  Atomic,
  Padding,
  Other,
};

/// One instruction line: "/*0260*/  @!P0 LDG.E R11, desc[UR6][R8.64] ;".
struct Instruction {
  uint64_t Address = 0;
  bool Predicated = false;
  llvm::StringRef Opcode;   ///< With its modifiers: "LDG.E.128.CONSTANT".
  llvm::StringRef Operands; ///< Up to the ';'.
};

} // namespace

/// Opcodes by what they do, for the Hopper/Ampere/Volta ISA that
/// cuobjdump prints. Uniform-datapath integer ops (UIADD3, ULEA...) are
/// integer work too: they are the address arithmetic hoisted out of lanes.
static OpClass classify(llvm::StringRef Base) {
  return llvm::StringSwitch<OpClass>(Base)
      .Cases({"LDG", "LD", "LDGSTS"}, OpClass::GlobalLoad)
      .Cases({"STG", "ST"}, OpClass::GlobalStore)
      .Cases({"LDS", "LDSM"}, OpClass::SharedLoad)
      .Case("STS", OpClass::SharedStore)
      .Case("LDL", OpClass::LocalLoad)
      .Case("STL", OpClass::LocalStore)
      .Cases({"FFMA", "FFMA32I"}, OpClass::Ffma)
      .Cases({"FADD", "FADD32I"}, OpClass::Fadd)
      .Cases({"FMUL", "FMUL32I"}, OpClass::Fmul)
      .Cases({"FMNMX", "FSETP", "FSET", "FSEL", "FCHK", "FRND", "FSWZADD"},
             OpClass::OtherFp32)
      .Cases({"DFMA", "DADD", "DMUL", "DSETP", "DMNMX", "DSET"}, OpClass::Fp64)
      .Cases({"IMAD",   "IMUL", "IADD3",  "IADD",   "IADD32I", "LEA",
              "LOP3",   "LOP",  "LOP32I", "SHF",    "SHL",     "SHR",
              "ISETP",  "ISET", "IMNMX",  "IABS",   "POPC",    "FLO",
              "BREV",   "PRMT", "SGXT",   "BMSK",   "BFE",     "BFI",
              "ISCADD", "XMAD", "VIADD",  "VIMNMX", "IDP"},
             OpClass::Integer)
      .Cases({"UIADD3", "UIMAD", "ULEA", "ULOP3", "ULOP", "USHF", "UISETP",
              "UPRMT", "UFLO", "UPOPC", "UBMSK", "USGXT", "UBREV", "UIMNMX"},
             OpClass::Integer)
      .Cases({"BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "BSSY",
              "BSYNC", "BREAK", "BPT", "WARPSYNC", "YIELD", "KILL"},
             OpClass::Control)
      .Case("BAR", OpClass::Barrier)
      .Case("SHFL", OpClass::Shuffle)
      .Case("MUFU", OpClass::Special)
      .Cases({"ATOM", "ATOMG", "ATOMS", "RED"}, OpClass::Atomic)
      .Case("NOP", OpClass::Padding)
      .Default(OpClass::Other);
}

/// Bits per thread from the modifiers: ".64", ".128"; LDSM counts its
/// matrices (".4" is four 8x8 b16 matrices, 128 bits a thread).
static unsigned widthOf(llvm::StringRef Base,
                        llvm::ArrayRef<llvm::StringRef> Mods) {
  for (llvm::StringRef M : Mods) {
    if (M == "128")
      return 128;
    if (M == "64")
      return 64;
  }
  if (Base == "LDSM" && !Mods.empty())
    return Mods.back() == "4" ? 128 : Mods.back() == "2" ? 64 : 32;
  return 32;
}

static void add(WidthCounts &W, unsigned Bits) {
  (Bits == 128 ? W.Bits128 : Bits == 64 ? W.Bits64 : W.Bits32) += 1;
}

/// Reads an instruction line; the encoding lines ("/* 0x000fe2... */")
/// and everything else are not instructions.
static std::optional<Instruction> readInstruction(llvm::StringRef Line) {
  Line = Line.ltrim();
  if (!Line.consume_front("/*"))
    return std::nullopt;
  auto [Address, Rest] = Line.split("*/");
  Instruction I;
  if (Address.getAsInteger(16, I.Address))
    return std::nullopt;
  Rest = Rest.take_until([](char C) { return C == ';'; }).trim();
  if (Rest.empty())
    return std::nullopt;
  if (Rest.starts_with("@")) {
    I.Predicated = true;
    Rest = Rest.drop_until([](char C) { return C == ' '; }).ltrim();
  }
  std::tie(I.Opcode, I.Operands) = Rest.split(' ');
  I.Operands = I.Operands.trim();
  return I.Opcode.empty() ? std::nullopt : std::optional<Instruction>(I);
}

/// Every function ends with a branch to itself after its last EXIT, never
/// executed: padding, like the NOPs that align the end.
static bool isSelfBranch(const Instruction &I, llvm::StringRef Base) {
  uint64_t Target = 0;
  return Base == "BRA" && !I.Predicated &&
         !I.Operands.getAsInteger(0, Target) && Target == I.Address;
}

static void count(SassMix &Mix, const Instruction &I) {
  llvm::SmallVector<llvm::StringRef, 4> Mods;
  I.Opcode.split(Mods, '.');
  llvm::StringRef Base = Mods.front();
  llvm::ArrayRef<llvm::StringRef> Modifiers = llvm::ArrayRef(Mods).drop_front();
  OpClass C = classify(Base);
  if (C == OpClass::Padding || isSelfBranch(I, Base))
    return;
  ++Mix.Instructions;
  Mix.Predicated += I.Predicated;
  unsigned Bits = widthOf(Base, Modifiers);
  switch (C) {
  case OpClass::GlobalLoad:
    return add(Mix.GlobalLoads, Bits);
  case OpClass::GlobalStore:
    return add(Mix.GlobalStores, Bits);
  case OpClass::SharedLoad:
    return add(Mix.SharedLoads, Bits);
  case OpClass::SharedStore:
    return add(Mix.SharedStores, Bits);
  case OpClass::LocalLoad:
    return add(Mix.LocalLoads, Bits);
  case OpClass::LocalStore:
    return add(Mix.LocalStores, Bits);
  case OpClass::Ffma:
    ++Mix.Ffma;
    return;
  case OpClass::Fadd:
    ++Mix.Fadd;
    return;
  case OpClass::Fmul:
    ++Mix.Fmul;
    return;
  case OpClass::OtherFp32:
    ++Mix.OtherFp32;
    return;
  case OpClass::Fp64:
    ++Mix.Fp64;
    return;
  case OpClass::Integer:
    ++Mix.Integer;
    return;
  case OpClass::Control:
    ++Mix.Control;
    return;
  case OpClass::Barrier:
    ++Mix.Barriers;
    return;
  case OpClass::Shuffle:
    ++Mix.Shuffles;
    return;
  case OpClass::Special:
    ++Mix.Special;
    return;
  case OpClass::Atomic:
    ++Mix.Atomics;
    return;
  case OpClass::Padding:
  case OpClass::Other:
    ++Mix.Other;
    return;
  }
}

std::vector<SassMix> optiml::parseSass(llvm::StringRef Dump) {
  std::vector<SassMix> Mixes;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Dump.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    if (T.consume_front("Function :")) {
      Mixes.emplace_back().Function = T.trim().str();
      continue;
    }
    if (Mixes.empty())
      continue;
    if (auto I = readInstruction(Line))
      count(Mixes.back(), *I);
  }
  return Mixes;
}

std::optional<SassMix> optiml::parseSassMix(llvm::StringRef Dump,
                                            llvm::StringRef Kernel) {
  for (SassMix &M : parseSass(Dump))
    if (namesKernel(M.Function, Kernel))
      return std::move(M);
  return std::nullopt;
}

std::string optiml::sassCodeHash(llvm::StringRef Dump) {
  llvm::SHA256 Hash;
  llvm::SmallVector<llvm::StringRef, 256> Lines;
  Dump.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    llvm::StringRef T = Line.trim();
    if (T.starts_with("Function :") || T.starts_with(".headerflags") ||
        T.starts_with("/*")) {
      Hash.update(T);
      Hash.update("\n");
    }
  }
  return llvm::toHex(Hash.final(), /*LowerCase=*/true);
}

static std::string widths(const WidthCounts &W) {
  return llvm::formatv("{0}/{1}/{2}", W.Bits32, W.Bits64, W.Bits128).str();
}

std::string optiml::sassSummary(const SassMix &M) {
  return llvm::formatv("{0} instructions: {1} FFMA, {2} non-FFMA FP32, {3} "
                       "integer; global ld {4} st {5}, shared ld {6} st {7} "
                       "(32/64/128-bit); local ld/st {8}/{9}",
                       M.Instructions, M.Ffma, M.fp32() - M.Ffma, M.Integer,
                       widths(M.GlobalLoads), widths(M.GlobalStores),
                       widths(M.SharedLoads), widths(M.SharedStores),
                       M.LocalLoads.total(), M.LocalStores.total())
      .str();
}

/// The JSON keys, once for both directions.
static const std::pair<const char *, unsigned SassMix::*> CountFields[] = {
    {"instructions", &SassMix::Instructions},
    {"predicated", &SassMix::Predicated},
    {"ffma", &SassMix::Ffma},
    {"fadd", &SassMix::Fadd},
    {"fmul", &SassMix::Fmul},
    {"fp32_other", &SassMix::OtherFp32},
    {"fp64", &SassMix::Fp64},
    {"integer", &SassMix::Integer},
    {"control", &SassMix::Control},
    {"barriers", &SassMix::Barriers},
    {"shuffles", &SassMix::Shuffles},
    {"special", &SassMix::Special},
    {"atomics", &SassMix::Atomics},
    {"other", &SassMix::Other},
};

static const std::pair<const char *, WidthCounts SassMix::*> WidthFields[] = {
    {"global_loads", &SassMix::GlobalLoads},
    {"global_stores", &SassMix::GlobalStores},
    {"shared_loads", &SassMix::SharedLoads},
    {"shared_stores", &SassMix::SharedStores},
    {"local_loads", &SassMix::LocalLoads},
    {"local_stores", &SassMix::LocalStores},
};

static const std::pair<const char *, unsigned WidthCounts::*> Widths[] = {
    {"32", &WidthCounts::Bits32},
    {"64", &WidthCounts::Bits64},
    {"128", &WidthCounts::Bits128},
};

json optiml::toJSON(const SassMix &Mix) {
  json J = {{"function", Mix.Function}};
  for (const auto &[Key, Field] : CountFields)
    J[Key] = Mix.*Field;
  for (const auto &[Key, Field] : WidthFields)
    for (const auto &[Bits, Count] : Widths)
      J[Key][Bits] = (Mix.*Field).*Count;
  return J;
}

static llvm::Error readCount(const json &J, const char *Key, unsigned &Out) {
  if (!J.is_object() || !J.contains(Key) || !J[Key].is_number_unsigned())
    return makeError(ErrorKind::BadInput,
                     std::string("SASS mix: '") + Key + "' is not a count");
  Out = J[Key].get<unsigned>();
  return llvm::Error::success();
}

llvm::Expected<SassMix> optiml::sassMixFromJSON(const json &J) {
  if (!J.is_object() || !J.contains("function") || !J["function"].is_string())
    return makeError(ErrorKind::BadInput, "SASS mix: no function name");
  SassMix Mix;
  Mix.Function = J["function"].get<std::string>();
  for (const auto &[Key, Field] : CountFields)
    if (llvm::Error E = readCount(J, Key, Mix.*Field))
      return E;
  for (const auto &[Key, Field] : WidthFields) {
    if (!J.contains(Key))
      return makeError(ErrorKind::BadInput,
                       std::string("SASS mix: no '") + Key + "'");
    for (const auto &[Bits, Count] : Widths)
      if (llvm::Error E = readCount(J[Key], Bits, (Mix.*Field).*Count))
        return E;
  }
  return Mix;
}
