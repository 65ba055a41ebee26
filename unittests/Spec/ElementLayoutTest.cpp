//===- ElementLayoutTest.cpp - vector, struct and narrow float buffers ----===//
//
// Kernels parsed as the tool parses them, so the layouts are Clang's: each
// buffer's element becomes the lanes the runner fills and compares.
//
//===----------------------------------------------------------------------===//

#include "optiml/Spec/ElementLayout.h"
#include "../Support/CudaTestAST.h"
#include "optiml/Analysis/KernelFinder.h"
#include "optiml/Spec/KernelSpec.h"
#include "optiml/Support/Error.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace optiml;
using ::testing::HasSubstr;

namespace {

const char *Types = R"cu(
  #include <cuda_bf16.h>
  #include <cuda_fp16.h>
  #include <cuda_fp8.h>
  struct Hit { float t; int id; };
  struct Body { float3 pos; float mass; };
  struct Padded { double t; int id; };
  struct Tail { float a; char c; };
  union Bits { float f; int i; };
  struct Linked { float v; Linked *next; };
  struct Taps { float w[3]; };
  typedef float2 Complex;
  enum Mode : short { Add, Mul };
  enum class Kind { A, B };
)cu";

/// The inventory of one kernel written after Types; no mark.
KernelInfo kernel(llvm::StringRef Signature) {
  std::string Code =
      std::string(Types) + "__global__ void k(" + Signature.str() + ") {}\n";
  auto AST = test::parseCuda(Code);
  if (!AST)
    return {};
  KernelInventory Inv = KernelFinder::find(AST->getASTContext());
  EXPECT_EQ(Inv.Kernels.size(), 1u);
  return Inv.Kernels.empty() ? KernelInfo() : Inv.Kernels.front();
}

/// "name:type name:type ..." of the only parameter of `k(Signature)`.
std::string lanes(llvm::StringRef Signature) {
  KernelInfo K = kernel(Signature);
  if (K.Params.empty())
    return "no parameter";
  auto L = ElementLayout::of(K.Params.front(), K.Pos);
  if (!L)
    return "error: " + summarize(L.takeError()).Message;
  if (L->Fields.empty())
    return L->Lane.Name;
  std::string Out;
  for (const LaneField &F : L->Fields)
    Out += (Out.empty() ? "" : " ") + F.Name + ":" + F.Type.Name;
  return Out;
}

} // namespace

TEST(ElementLayoutTest, NumbersAreOneLane) {
  EXPECT_EQ(lanes("const float *p"), "f32");
  EXPECT_EQ(lanes("__half *p"), "f16");
  EXPECT_EQ(lanes("half *p"), "f16");
  EXPECT_EQ(lanes("const __nv_bfloat16 *p"), "bf16");
  EXPECT_EQ(lanes("__nv_fp8_e4m3 *p"), "f8e4m3");
  EXPECT_EQ(lanes("__nv_fp8_e5m2 *p"), "f8e5m2");
  EXPECT_EQ(lanes("__half h"), "f16");
  EXPECT_EQ(lanes("bool *flags"), "u8");
  EXPECT_EQ(lanes("Mode m"), "i16"); // An enum is its integer type.
  EXPECT_EQ(lanes("const Kind *k"), "i32");
}

TEST(ElementLayoutTest, VectorTypesAreTheirComponents) {
  EXPECT_EQ(lanes("const float2 *p"), "x:f32 y:f32");
  EXPECT_EQ(lanes("float4 *p"), "x:f32 y:f32 z:f32 w:f32");
  EXPECT_EQ(lanes("uchar4 *p"), "x:u8 y:u8 z:u8 w:u8");
  EXPECT_EQ(lanes("char2 *p"), "x:i8 y:i8");
  EXPECT_EQ(lanes("const double2 *p"), "x:f64 y:f64");
  EXPECT_EQ(lanes("int3 *p"), "x:i32 y:i32 z:i32");
  EXPECT_EQ(lanes("half2 *p"), "x:f16 y:f16");
  EXPECT_EQ(lanes("__nv_bfloat162 *p"), "x:bf16 y:bf16");
  EXPECT_EQ(lanes("Complex *p"), "x:f32 y:f32");
}

TEST(ElementLayoutTest, StructsAreTheirFieldsFlattened) {
  EXPECT_EQ(lanes("const Hit *p"), "t:f32 id:i32");
  EXPECT_EQ(lanes("Body *p"), "pos.x:f32 pos.y:f32 pos.z:f32 mass:f32");
  EXPECT_EQ(lanes("const Taps *p"), "w[0]:f32 w[1]:f32 w[2]:f32");
}

TEST(ElementLayoutTest, WhatTheRunnerCannotWalkIsNamed) {
  EXPECT_THAT(lanes("Padded *p"),
              HasSubstr("parameter 'p' has element type 'Padded', whose "
                        "fields differ in size ('t' is f64, 'id' is i32)"));
  EXPECT_THAT(lanes("Tail *p"), HasSubstr("whose fields differ in size"));
  EXPECT_THAT(lanes("Bits *p"),
              HasSubstr("element type 'Bits', a struct with a union"));
  EXPECT_THAT(lanes("Linked *p"),
              HasSubstr("a struct with a pointer field 'next'"));
  EXPECT_THAT(lanes("float2 v"),
              HasSubstr("element type 'float2' is not supported"));
}

/// A template argument the spec puts in is text: CUDA's vector types are
/// known by name.
TEST(ElementLayoutTest, VectorTypesByNameForTemplateArguments) {
  ParamInfo P;
  P.Name = "p";
  P.Type = "T *";
  P.IsPointer = true;
  P.PointeeType = P.CanonicalElement = "float2";
  auto L = ElementLayout::of(P, SourcePos{});
  ASSERT_TRUE(bool(L)) << summarize(L.takeError()).Message;
  ASSERT_EQ(L->Fields.size(), 2u);
  EXPECT_EQ(L->Fields[1].Name, "y");
  P.PointeeType = P.CanonicalElement = "uint4";
  L = ElementLayout::of(P, SourcePos{});
  ASSERT_TRUE(bool(L));
  EXPECT_EQ(L->Lane.Name, "u32");
  EXPECT_EQ(L->lanes(), 4u);
  P.PointeeType = P.CanonicalElement = "float5";
  EXPECT_FALSE(bool(ElementLayout::of(P, SourcePos{})));
  llvm::consumeError(ElementLayout::of(P, SourcePos{}).takeError());
}

/// A mark on a struct buffer: a distribution per field, the others from
/// the buffer's or their type's default; the runner gets every field.
TEST(ElementLayoutTest, FieldDistributionsReachTheInstances) {
  KernelInfo K = kernel("const Hit *in, float2 *out, const uchar4 *rgba");
  K.Mark = KernelMark{
      K.Pos, "kernel sizes(N = 64) in(in[N], rgba[N]) out(out[N]) grid(1) "
             "block(64) dist(in.t = uniform(0, 10), rgba = int(0, 255), "
             "rgba.w = constant(255))"};
  auto S = loadKernelSpec(K, "", "");
  ASSERT_TRUE(bool(S)) << summarize(S.takeError()).Message;
  auto I = S->instantiate(K);
  ASSERT_TRUE(bool(I)) << summarize(I.takeError()).Message;
  const ConcreteArg &In = (*I)[0].Args[0];
  ASSERT_EQ(In.Fields.size(), 2u);
  EXPECT_EQ(In.Count, 64);
  EXPECT_EQ(In.Fields[0].Dist->Kind, "uniform");
  EXPECT_EQ(In.Fields[0].Dist->B, 10);
  EXPECT_EQ(In.Fields[1].Type, protocol::ElemType::I32);
  EXPECT_EQ(In.Fields[1].Dist->Kind, "int"); // The type's default.
  const ConcreteArg &Out = (*I)[0].Args[1];
  ASSERT_EQ(Out.Fields.size(), 2u);
  EXPECT_FALSE(Out.Fields[0].Dist.has_value());
  const ConcreteArg &Rgba = (*I)[0].Args[2];
  ASSERT_EQ(Rgba.Fields.size(), 4u);
  EXPECT_EQ(Rgba.Fields[0].Dist->B, 255);
  EXPECT_EQ(Rgba.Fields[3].Dist->Kind, "constant");
}

TEST(ElementLayoutTest, FieldDistributionErrorsAreOneLine) {
  KernelInfo K = kernel("const Hit *in, float *out");
  auto ErrorFor = [&](llvm::StringRef Dist) {
    K.Mark = KernelMark{K.Pos, ("kernel sizes(N = 64) in(in[N]) out(out[N]) "
                                "grid(1) block(64) dist(" +
                                Dist + ")")
                                   .str()};
    auto S = loadKernelSpec(K, "", "");
    return S ? std::string("loaded") : summarize(S.takeError()).Message;
  };
  EXPECT_THAT(ErrorFor("in.z = uniform(0, 1)"),
              HasSubstr("no field 'z' in the elements of 'in'"));
  EXPECT_THAT(ErrorFor("in.id = uniform(0, 1)"),
              HasSubstr("bad distribution uniform(0, 1) for 'in.id' (i32): "
                        "it draws fractional values"));
  EXPECT_THAT(ErrorFor("in = uniform(0, 1)"),
              HasSubstr("for 'in.id' (i32): it draws fractional values"));
  EXPECT_THAT(ErrorFor("in.t = uniform(0, 1), in.t = uniform(1, 2)"),
              HasSubstr("'in.t' is given two distributions"));
  EXPECT_THAT(ErrorFor("in.-x = uniform(0, 1)"),
              HasSubstr("is not a buffer or a field of one"));
  EXPECT_THAT(ErrorFor("out.x = uniform(0, 1)"),
              HasSubstr("distribution for 'out'"));
}
