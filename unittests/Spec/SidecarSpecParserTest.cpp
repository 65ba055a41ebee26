//===- SidecarSpecParserTest.cpp - kernel specs from JSON sidecars --------===//

#include "optiml/Spec/SidecarSpecParser.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

KernelInfo kernel(llvm::StringRef Name, llvm::StringRef Qualified = "") {
  KernelInfo K;
  K.Name = Name.str();
  K.QualifiedName = Qualified.empty() ? Name.str() : Qualified.str();
  return K;
}

std::optional<SpecDraft> parse(llvm::StringRef Text,
                               const KernelInfo &K = kernel("saxpy")) {
  auto D = SidecarSpecParser::parse(Text, "s.json", K);
  if (!D) {
    ADD_FAILURE() << summarize(D.takeError()).Message;
    return std::nullopt;
  }
  return std::move(*D);
}

std::string error(llvm::StringRef Text) {
  auto D = SidecarSpecParser::parse(Text, "s.json", kernel("saxpy"));
  if (D) {
    ADD_FAILURE() << "parsed: " << Text.str();
    return "";
  }
  ErrorSummary S = summarize(D.takeError());
  EXPECT_EQ(S.Kind, ErrorKind::BadInput);
  return S.Message;
}

const char *Saxpy = R"json({
  "kernels": {
    "saxpy": {
      "sizes": {"N": "1 << 24", "M": 8},
      "args": {
        "n": {"role": "scalar", "value": "N"},
        "a": {"role": "scalar", "value": 2.5},
        "x": {"role": "in", "length": "N",
              "dist": {"kind": "uniform", "lo": -1, "hi": 1}},
        "y": {"role": "inout", "length": "N", "dist": "index(1, 0, M)"}
      },
      "grid": ["(N + 255) / 256"],
      "block": 256,
      "shmem": "4 * M",
      "tolerance": {"rtol": 1e-6, "atol": "1e-7"},
      "seeds": [3, 4, 5],
      "instances": {"odd": {"N": 100003}, "small": {"N": "1 << 10"}}
    },
    "other": {"comment": "not read"}
  }
})json";

TEST(SidecarSpecParserTest, ReadsEveryField) {
  auto D = parse(Saxpy);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->From, SpecDraft::Origin::Sidecar);
  EXPECT_EQ(D->Pos.str(), "s.json:3:5"); // The kernel's key.
  ASSERT_EQ(D->Sizes.size(), 2u);
  EXPECT_EQ(D->Sizes[0].first, "N"); // Order as written.
  EXPECT_EQ(D->Sizes[0].second.Text, "1 << 24");
  EXPECT_EQ(D->Sizes[1].second.Text, "8");
  ASSERT_EQ(D->Args.size(), 4u);
  EXPECT_EQ(D->Args[0].Role, ArgRole::Scalar);
  EXPECT_EQ(D->Args[1].Value->Text, "2.5");
  EXPECT_EQ(D->Args[2].Name, "x");
  EXPECT_EQ(D->Args[2].Length->Text, "N");
  EXPECT_EQ(D->Args[2].Dist->Kind, "uniform");
  EXPECT_EQ(D->Args[2].Dist->Params[1].Text, "1");
  EXPECT_EQ(D->Args[3].Role, ArgRole::InOut);
  EXPECT_EQ(D->Args[3].Dist->Kind, "index");
  EXPECT_EQ(D->Args[3].Dist->Params.size(), 3u);
  ASSERT_TRUE(D->Grid && D->Block && D->SharedMemory && D->Seeds);
  EXPECT_EQ(D->Grid->Dims[0].Text, "(N + 255) / 256");
  EXPECT_EQ(D->Block->Dims.size(), 1u); // A single value is a 1-D list.
  EXPECT_EQ(D->SharedMemory->Text, "4 * M");
  EXPECT_EQ(D->RTol->Text, "1e-06");
  EXPECT_EQ(D->ATol->Text, "1e-7");
  EXPECT_FALSE(D->NormTol);
  EXPECT_EQ(D->Seeds->Dims.size(), 3u);
  ASSERT_EQ(D->Instances.size(), 2u);
  EXPECT_EQ(D->Instances[0].Name, "odd");
  EXPECT_EQ(D->Instances[0].Sizes[0].second.Text, "100003");
  EXPECT_EQ(D->Instances[1].Sizes[0].second.Text, "1 << 10");
}

TEST(SidecarSpecParserTest, PositionsPointIntoTheFile) {
  auto D = parse(Saxpy);
  ASSERT_TRUE(D);
  // "(N + 255) / 256" starts after the quote at line 12, column 16.
  EXPECT_EQ(D->Grid->Dims[0].Pos.str(), "s.json:12:17");
  EXPECT_EQ(D->Args[2].Pos.str(), "s.json:8:23"); // The "in" of x's role.
  EXPECT_EQ(D->Instances[0].Sizes[0].second.Pos.str(), "s.json:17:34");
}

TEST(SidecarSpecParserTest, FindsKernelsByQualifiedName) {
  auto D = parse(R"js({"kernels": {"ops::k": {"block": [32, 4]}}})js",
                 kernel("k", "ops::k"));
  ASSERT_TRUE(D && D->Block);
  EXPECT_EQ(D->Block->Dims.size(), 2u);
}

TEST(SidecarSpecParserTest, NoEntryIsNotAnError) {
  auto D = SidecarSpecParser::parse(R"js({"kernels": {"other": {}}})js",
                                    "s.json", kernel("saxpy"));
  ASSERT_TRUE(bool(D));
  EXPECT_FALSE(D->has_value());
}

TEST(SidecarSpecParserTest, MalformedJsonHasLineAndColumn) {
  std::string E = error("{\n  \"kernels\": {\n    \"saxpy\": {,}\n  }\n}\n");
  EXPECT_EQ(E.rfind("s.json:3:15: error: malformed JSON: syntax error while "
                    "parsing object key - unexpected ','; expected string "
                    "literal",
                    0),
            0u)
      << E;
  std::string Truncated = error("{\"kernels\": {\"saxpy\": {");
  EXPECT_EQ(Truncated.rfind("s.json:1:", 0), 0u) << Truncated;
  EXPECT_NE(Truncated.find("malformed JSON"), std::string::npos);
}

TEST(SidecarSpecParserTest, UnknownKeysPointAtTheKey) {
  EXPECT_EQ(error("{\"kernels\": {\"saxpy\": {\n  \"tolerence\": {}}}}"),
            "s.json:2:3: error: unknown key \"tolerence\"; expected one of "
            "sizes, args, grid, block, shmem, tolerance, seeds, instances, "
            "template");
  EXPECT_NE(error(R"js({"kernel": {}})js").find("unknown key \"kernel\""),
            std::string::npos);
  EXPECT_NE(
      error(R"js({"kernels": {"saxpy": {"args": {"x": {"rol": "in"}}}}})js")
          .find("unknown key \"rol\"; expected one of role, length, "
                "value, dist"),
      std::string::npos);
}

TEST(SidecarSpecParserTest, BadValues) {
  EXPECT_NE(error("[]").find("s.json:1:1: error: the sidecar is an array"),
            std::string::npos);
  EXPECT_NE(error("{}").find("has no \"kernels\""), std::string::npos);
  EXPECT_EQ(
      error(
          R"js({"kernels": {"saxpy": {"args": {"x": {"role": "input"}}}}})js"),
      "s.json:1:47: error: bad role \"input\"; expected \"in\", "
      "\"out\", \"inout\", \"scalar\", \"null\" or \"symbol\"");
  EXPECT_NE(error(R"js({"kernels": {"saxpy": {"sizes": {"N": true}}}})js")
                .find("\"N\" is a boolean; expected a number or an "
                      "expression string"),
            std::string::npos);
  EXPECT_NE(error(R"js({"kernels": {"saxpy": {"grid": [1, 2, 3, 4]}}})js")
                .find("\"grid\" has 4 elements; expected 1 to 3"),
            std::string::npos);
  EXPECT_NE(
      error(
          R"js({"kernels": {"saxpy": {"args": {"n": {"role": "scalar", "length": "N"}}}}})js")
          .find("\"length\" for scalar 'n'; expected \"value\""),
      std::string::npos);
  EXPECT_NE(
      error(R"js({"kernels": {"saxpy": {"instances": {"default": {}}}}})js")
          .find("'default' is taken"),
      std::string::npos);
  EXPECT_NE(error(R"js({"kernels": {"saxpy": {"sizes": {"2N": 4}}}})js")
                .find("'2N' is not a valid size name"),
            std::string::npos);
}

TEST(SidecarSpecParserTest, BadDistributions) {
  EXPECT_NE(
      error(
          R"js({"kernels": {"saxpy": {"args": {"x": {"dist": {"kind": "gauss"}}}}}})js")
          .find("bad distribution kind"),
      std::string::npos);
  EXPECT_NE(
      error(
          R"js({"kernels": {"saxpy": {"args": {"x": {"dist": {"kind": "uniform", "lo": 0}}}}}})js")
          .find("distribution 'uniform' has no \"hi\""),
      std::string::npos);
  EXPECT_NE(
      error(
          R"js({"kernels": {"saxpy": {"args": {"x": {"dist": {"kind": "int", "lo": 0, "hi": 1, "mean": 0}}}}}})js")
          .find("unknown key \"mean\""),
      std::string::npos);
  // The string form is parsed as in a pragma, positions inside the string.
  EXPECT_EQ(
      error(
          R"js({"kernels": {"saxpy": {"args": {"x": {"dist": "unifrm(0, 1)"}}}}})js"),
      "s.json:1:48: error: 'unifrm(0, 1)' is not a distribution; "
      "expected uniform, normal, int, index, constant, offsets, "
      "permutation, sorted with their arguments, e.g. uniform(-1, 1)");
}

} // namespace
