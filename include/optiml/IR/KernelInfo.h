//===- KernelInfo.h - what OptiML knows about a kernel --------*- C++ -*-===//
//
// Plain facts about each __global__ function of a translation unit, detached
// from the AST so that they can be printed, stored and sent to a proposer.
// Positions are spelled as the user wrote them (file, line, column).
//
//===----------------------------------------------------------------------===//

#ifndef OPTIML_IR_KERNELINFO_H
#define OPTIML_IR_KERNELINFO_H

#include "llvm/ADT/StringRef.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace optiml {

struct SourcePos {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;

  /// "file:line:col", the form clang's diagnostics use.
  std::string str() const;
};

/// One number of an element that is a vector type or a struct (`float2`'s
/// `y`, a struct's `pos.x`), where the compiler lays it out.
struct ElementField {
  std::string Name; ///< As C names it from the element: "y", "pos.x", "v[2]".
  std::string Type; ///< Its canonical type: "float", "__half", "int".
  uint64_t Offset = 0, Bytes = 0;
};

struct ParamInfo {
  std::string Name;
  std::string Type; ///< As written, e.g. "const float *__restrict".
  bool IsPointer = false;
  std::string PointeeType; ///< Unqualified element type of a pointer.
  bool IsConst = false;    ///< Pointee const for pointers, else top level.
  bool IsRestrict = false;
  /// The element type (the pointee for pointers) with typedefs and aliases
  /// resolved: "float" for `DATA_TYPE *` after `typedef float DATA_TYPE`.
  std::string CanonicalElement;
  /// An element that is a struct (CUDA's vector types are structs too): its
  /// numbers in memory order, nested structs and arrays flattened. Empty
  /// for a number type, and for a dependent or incomplete one.
  std::vector<ElementField> Fields;
  uint64_t ElementBytes = 0; ///< sizeof the element, when Fields is set.
  /// Why a struct element has no Fields: "a union", "a pointer field 'p'".
  std::string LayoutProblem;
};

/// A `__constant__` or `__device__` variable of the file that a kernel
/// reads, itself or through the functions it calls: a table the host fills
/// (cudaMemcpyToSymbol) before the launch. Element describes it as a
/// buffer's pointee: IsPointer set, its element type and fields, so that a
/// spec checks it as it checks a buffer.
struct DeviceGlobal {
  std::string QualifiedName; ///< "coef", "tables::coef".
  bool Constant = false;     ///< __constant__; else __device__.
  bool Initialized = false;  ///< Has an initializer: the file fills it.
  uint64_t Count = 0;        ///< Elements; 0 for an array of unknown size.
  ParamInfo Element;         ///< Its Name is the variable's.
  SourcePos Pos;
};

/// A loop, named by its place in the kernel's loop nest
/// (e.g. "sgemm/for#0/for#1"): the name survives reparsing and rewrites
/// elsewhere in the file, a SourceLocation does not.
struct LoopSite {
  std::string Site;
  std::string Kind; ///< "for", "while" or "do".
  SourcePos Pos;
  std::string Header; ///< E.g. "for (int k = 0; k < K; ++k)".
};

struct LaunchSite {
  SourcePos Pos;
  std::string Caller;       ///< The function holding the <<<...>>>.
  std::string Callee;       ///< As written, with template arguments.
  std::string Grid, Block;  ///< Configuration expressions as written.
  std::string SharedMemory; ///< Empty when left to its default.
  std::string Stream;       ///< Empty when left to its default.
};

struct Instantiation {
  std::string Arguments; ///< E.g. "<float, 16>".
  std::string Kind;      ///< "explicit", "explicit-declaration", "implicit".
};

/// A `#pragma optiml ...` line placed before the kernel; its clauses are
/// the kernel spec's source.
struct KernelMark {
  SourcePos Pos;
  std::string Clauses; ///< Text after "optiml", continuation lines joined.
};

struct LaunchBounds {
  std::string MaxThreads;
  std::string MinBlocks; ///< Empty when not given.
};

/// A kernel of the same file as another launches it in a sequence
/// (`then(...)` in a spec): what a launch of it needs to know.
struct SiblingKernel {
  std::string Name;
  std::string QualifiedName;
  bool IsTemplate = false;
  std::vector<ParamInfo> Params;
};

struct KernelInfo {
  std::string Name;
  std::string QualifiedName; ///< With namespaces, e.g. "ops::saxpy".
  SourcePos Pos;
  std::vector<std::string> TemplateParameters; ///< Empty for non-templates.
  /// The parameters' names (`T`, `BS`), in order.
  std::vector<std::string> TemplateParameterNames;
  /// For a template, the arguments it is evaluated with (`<float, 256>`),
  /// from its spec; empty until a spec chooses them.
  std::string Specialization;
  std::vector<Instantiation> Instantiations;
  std::optional<LaunchBounds> Bounds;
  std::vector<ParamInfo> Params;
  std::optional<KernelMark> Mark;
  std::vector<LoopSite> Loops;
  std::vector<LaunchSite> Launches;
  /// The kernel's address is used other than as a <<<>>> callee (e.g. passed
  /// to cudaLaunchKernel): launch geometry cannot be rewritten safely.
  bool AddressTaken = false;
  /// The device variables the kernel reads, in the order first met.
  std::vector<DeviceGlobal> Globals;
  /// Every kernel of the main file, itself included, shared by all of
  /// them; null when the kernel was described alone.
  std::shared_ptr<const std::vector<SiblingKernel>> FileKernels;
  /// The other kernels its spec's sequence launches, qualified, in the
  /// order the spec first names them; set with the spec, like
  /// Specialization, so that a build exports them.
  std::vector<std::string> Companions;

  /// The kernel of the file named \p Name (as written or qualified), or
  /// null.
  const SiblingKernel *sibling(llvm::StringRef Name) const;

  bool isTemplate() const { return !TemplateParameters.empty(); }
};

/// All kernels defined in one main file, plus what did not fit (a pragma
/// that precedes no kernel).
struct KernelInventory {
  std::string File;
  std::vector<KernelInfo> Kernels;
  std::vector<std::string> Warnings; ///< "file:line:col: warning: ..." lines.

  const KernelInfo *find(const std::string &Name) const;
};

nlohmann::json toJSON(const KernelInfo &Kernel);

} // namespace optiml

#endif // OPTIML_IR_KERNELINFO_H
