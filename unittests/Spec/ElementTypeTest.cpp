//===- ElementTypeTest.cpp - C types to runner types ----------------------===//

#include "optiml/Spec/ElementType.h"

#include "gtest/gtest.h"

using namespace optiml;

static std::string runnerType(llvm::StringRef CType) {
  auto T = ElementType::fromC(CType);
  return T ? T->Name : "none";
}

TEST(ElementTypeTest, BuiltinSpellings) {
  EXPECT_EQ(runnerType("float"), "f32");
  EXPECT_EQ(runnerType("double"), "f64");
  EXPECT_EQ(runnerType("int"), "i32");
  EXPECT_EQ(runnerType("signed"), "i32");
  EXPECT_EQ(runnerType("const int"), "i32");
  EXPECT_EQ(runnerType("unsigned"), "u32");
  EXPECT_EQ(runnerType("unsigned int"), "u32");
  EXPECT_EQ(runnerType("long"), "i64");
  EXPECT_EQ(runnerType("long long"), "i64");
  EXPECT_EQ(runnerType("long long int"), "i64");
  EXPECT_EQ(runnerType("unsigned long long"), "u64");
  EXPECT_EQ(runnerType("long unsigned int"), "u64");
  EXPECT_EQ(runnerType("char"), "i8");
  EXPECT_EQ(runnerType("signed char"), "i8");
  EXPECT_EQ(runnerType("unsigned char"), "u8");
  EXPECT_EQ(runnerType("short"), "i16");
  EXPECT_EQ(runnerType("unsigned short"), "u16");
  EXPECT_EQ(runnerType("volatile float"), "f32");
}

TEST(ElementTypeTest, FixedWidthTypedefs) {
  EXPECT_EQ(runnerType("int32_t"), "i32");
  EXPECT_EQ(runnerType("uint32_t"), "u32");
  EXPECT_EQ(runnerType("int64_t"), "i64");
  EXPECT_EQ(runnerType("std::int64_t"), "i64");
  EXPECT_EQ(runnerType("size_t"), "u64");
  EXPECT_EQ(runnerType("std::size_t"), "u64");
  EXPECT_EQ(runnerType("const size_t"), "u64");
  EXPECT_EQ(runnerType("int8_t"), "i8");
  EXPECT_EQ(runnerType("uint8_t"), "u8");
  EXPECT_EQ(runnerType("int16_t"), "i16");
  EXPECT_EQ(runnerType("uint16_t"), "u16");
}

TEST(ElementTypeTest, NarrowFloats) {
  EXPECT_EQ(runnerType("half"), "f16");
  EXPECT_EQ(runnerType("const __half"), "f16");
  EXPECT_EQ(runnerType("__nv_bfloat16"), "bf16");
  EXPECT_EQ(runnerType("nv_bfloat16"), "bf16");
  EXPECT_EQ(runnerType("__nv_fp8_e4m3"), "f8e4m3");
  EXPECT_EQ(runnerType("__nv_fp8_e5m2"), "f8e5m2");
  ElementType H = *ElementType::fromC("__half");
  EXPECT_EQ(H.Bytes, 2u);
  EXPECT_FALSE(H.IsInteger);
  EXPECT_TRUE(H.holds(65504));
  EXPECT_FALSE(H.holds(70000));
  EXPECT_TRUE(ElementType::fromC("__nv_fp8_e4m3")->holds(448));
  EXPECT_FALSE(ElementType::fromC("__nv_fp8_e4m3")->holds(449));
}

TEST(ElementTypeTest, BoolIsAByteOfZeroOrOne) {
  ElementType B = *ElementType::fromC("const bool");
  EXPECT_EQ(B.Name, "u8");
  EXPECT_TRUE(B.IsBool);
  EXPECT_TRUE(B.holds(1));
  EXPECT_FALSE(B.holds(2));
}

TEST(ElementTypeTest, UnsupportedTypes) {
  EXPECT_EQ(runnerType("T"), "none");
  EXPECT_EQ(runnerType("float2"), "none");
  EXPECT_EQ(runnerType("struct Params"), "none");
  EXPECT_EQ(runnerType("long double"), "none");
  EXPECT_EQ(runnerType("float *"), "none");
}

TEST(ElementTypeTest, RangesAndSizes) {
  auto U8 = ElementType::fromC("unsigned char");
  ASSERT_TRUE(U8);
  EXPECT_EQ(U8->Bytes, 1u);
  EXPECT_TRUE(U8->holds(255));
  EXPECT_FALSE(U8->holds(256));
  EXPECT_FALSE(U8->holds(-1));
  EXPECT_FALSE(U8->holds(1.5));
  auto I32 = ElementType::fromC("int");
  ASSERT_TRUE(I32);
  EXPECT_TRUE(I32->holds(-2147483648.0));
  EXPECT_FALSE(I32->holds(2147483648.0));
  auto F32 = ElementType::fromC("float");
  ASSERT_TRUE(F32);
  EXPECT_EQ(F32->Bytes, 4u);
  EXPECT_FALSE(F32->IsInteger);
  EXPECT_TRUE(F32->holds(-2.5));
  EXPECT_FALSE(F32->holds(1e39));
}
