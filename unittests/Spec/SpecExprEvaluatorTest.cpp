//===- SpecExprEvaluatorTest.cpp - spec expressions -----------------------===//

#include "optiml/Spec/SpecExprEvaluator.h"
#include "optiml/Support/Error.h"

#include "gtest/gtest.h"

using namespace optiml;

namespace {

class SpecExprEvaluatorTest : public ::testing::Test {
protected:
  /// Expressions are placed at k.cu:3:10, so an error at offset O of the
  /// text is reported at column 10 + O.
  static SpecExpr expr(llvm::StringRef Text) {
    return SpecExpr{Text.str(), SourcePos{"k.cu", 3, 10}};
  }

  SpecValue value(llvm::StringRef Text) {
    auto V = SpecExprEvaluator(Sizes).evaluate(expr(Text));
    if (!V) {
      ADD_FAILURE() << Text.str() << ": " << summarize(V.takeError()).Message;
      return {};
    }
    return *V;
  }

  int64_t integer(llvm::StringRef Text) {
    SpecValue V = value(Text);
    EXPECT_TRUE(V.IsInteger) << Text.str();
    return V.Int;
  }

  std::string error(llvm::StringRef Text) {
    auto V = SpecExprEvaluator(Sizes).evaluate(expr(Text));
    if (V) {
      ADD_FAILURE() << Text.str() << " evaluated to " << V->toDouble();
      return "";
    }
    ErrorSummary S = summarize(V.takeError());
    EXPECT_EQ(S.Kind, ErrorKind::BadInput);
    return S.Message;
  }

  std::map<std::string, int64_t> Sizes{{"M", 133}, {"N", 97}, {"K", 71}};
};

TEST_F(SpecExprEvaluatorTest, Literals) {
  EXPECT_EQ(integer("42"), 42);
  EXPECT_EQ(integer("0x10"), 16);
  EXPECT_EQ(integer("0"), 0);
  EXPECT_EQ(integer("16u"), 16);
  EXPECT_EQ(integer("9223372036854775807"), INT64_MAX);
  EXPECT_FALSE(value("2.5").IsInteger);
  EXPECT_DOUBLE_EQ(value("2.5").Real, 2.5);
  EXPECT_DOUBLE_EQ(value("1e-4").Real, 1e-4);
  EXPECT_DOUBLE_EQ(value("1E3").Real, 1000);
  EXPECT_DOUBLE_EQ(value(".5").Real, 0.5);
  EXPECT_DOUBLE_EQ(value("2.5f").Real, 2.5);
}

TEST_F(SpecExprEvaluatorTest, PrecedenceAndAssociativity) {
  EXPECT_EQ(integer("2 + 3 * 4"), 14);
  EXPECT_EQ(integer("(2 + 3) * 4"), 20);
  EXPECT_EQ(integer("1 << 2 + 1"), 8); // Shifts bind looser than +.
  EXPECT_EQ(integer("1 << 24"), 16777216);
  EXPECT_EQ(integer("256 >> 2 >> 1"), 32);
  EXPECT_EQ(integer("10 - 4 - 3"), 3);
  EXPECT_EQ(integer("100 / 10 / 5"), 2);
  EXPECT_EQ(integer("2 * 7 % 4"), 2);
  EXPECT_EQ(integer("-3 * -2"), 6);
  EXPECT_EQ(integer("- -3"), 3);
  EXPECT_EQ(integer("+N"), 97);
  EXPECT_EQ(integer("-7 / 2"), -3); // C truncation.
  EXPECT_EQ(integer("-7 % 2"), -1);
}

TEST_F(SpecExprEvaluatorTest, SizesAndFunctions) {
  EXPECT_EQ(integer("(N + 15) / 16"), 7);
  EXPECT_EQ(integer("M * K"), 133 * 71);
  EXPECT_EQ(integer("ceil_div(N, 16)"), 7);
  EXPECT_EQ(integer("ceil_div(96, 16)"), 6);
  EXPECT_EQ(integer("ceil_div(-7, 2)"), -3);
  EXPECT_EQ(integer("ceil_div(-7, -2)"), 4);
  EXPECT_EQ(integer("min(M, N)"), 97);
  EXPECT_EQ(integer("max(M, N)"), 133);
  EXPECT_EQ(integer("min(max(1, 2), 3) * 2"), 4);
  EXPECT_EQ(integer("ceil_div(M * N, 256)"), (133 * 97 + 255) / 256);
}

TEST_F(SpecExprEvaluatorTest, FloatingArithmetic) {
  EXPECT_EQ(integer("N / 2"), 48);
  SpecValue Half = value("N / 2.0");
  EXPECT_FALSE(Half.IsInteger);
  EXPECT_DOUBLE_EQ(Half.Real, 48.5);
  SpecValue Max = value("max(1, 2.5)");
  EXPECT_FALSE(Max.IsInteger);
  EXPECT_DOUBLE_EQ(Max.Real, 2.5);
  EXPECT_DOUBLE_EQ(value("-1e-4 * 2").Real, -2e-4);
}

TEST_F(SpecExprEvaluatorTest, UnknownSizeIsReportedAtItsColumn) {
  EXPECT_EQ(error("M * Q"), "k.cu:3:14: error: unknown size 'Q' in 'M * Q'; "
                            "expected one of the sizes K, M, N");
}

TEST_F(SpecExprEvaluatorTest, DivisionByZeroAtTheOperator) {
  EXPECT_EQ(error("N / (M - 133)"),
            "k.cu:3:12: error: division by zero in 'N / (M - 133)'; expected "
            "a non-zero divisor");
  EXPECT_NE(error("N % 0").find("k.cu:3:12: error: division by zero"),
            std::string::npos);
  EXPECT_NE(error("ceil_div(N, 0)").find("division by zero"),
            std::string::npos);
  EXPECT_NE(error("1.5 / 0").find("division by zero"), std::string::npos);
}

TEST_F(SpecExprEvaluatorTest, OverflowIsDetected) {
  EXPECT_NE(error("(1 << 62) * 4")
                .find("k.cu:3:20: error: integer overflow "
                      "in '*'"),
            std::string::npos);
  EXPECT_NE(error("9223372036854775807 + 1").find("integer overflow in '+'"),
            std::string::npos);
  EXPECT_NE(error("-9223372036854775807 - 2").find("integer overflow in '-'"),
            std::string::npos);
  EXPECT_NE(error("1 << 63").find("integer overflow in '<<'"),
            std::string::npos);
  EXPECT_NE(error("3 << 62").find("integer overflow"), std::string::npos);
  EXPECT_NE(error("99999999999999999999").find("does not fit in 64 bits"),
            std::string::npos);
  EXPECT_NE(error("1 << 64").find("shift by 64"), std::string::npos);
  EXPECT_NE(error("1 << -1").find("shift by -1"), std::string::npos);
  EXPECT_NE(error("-1 << 2").find("left shift of a negative value"),
            std::string::npos);
  EXPECT_EQ(integer("1 << 62"), int64_t(1) << 62);
}

TEST_F(SpecExprEvaluatorTest, SyntaxErrors) {
  EXPECT_EQ(error("(N + 1"),
            "k.cu:3:16: error: unexpected end of expression in '(N + 1'; "
            "expected ')' closing the '(' at column 10");
  EXPECT_NE(error("N +").find("k.cu:3:13: error: unexpected end of expression"),
            std::string::npos);
  EXPECT_NE(error("N N").find("k.cu:3:12: error: unexpected 'N'"),
            std::string::npos);
  EXPECT_NE(error("").find("empty expression"), std::string::npos);
  EXPECT_NE(error("N $ 2").find("k.cu:3:12: error: unexpected character '$'"),
            std::string::npos);
  EXPECT_NE(error("foo(1, 2)").find("unknown function 'foo'"),
            std::string::npos);
  EXPECT_NE(error("min(1)").find("expected two arguments: min(a, b)"),
            std::string::npos);
  EXPECT_NE(error("min(1, 2, 3)").find("two arguments"), std::string::npos);
  EXPECT_NE(error("010").find("octal literal"), std::string::npos);
  EXPECT_NE(error("3x").find("malformed number '3x'"), std::string::npos);
  EXPECT_NE(error("0x").find("malformed number"), std::string::npos);
  EXPECT_NE(error("1.5 % 2").find("'%' of a floating value"),
            std::string::npos);
  EXPECT_NE(error("1 << 2.0").find("'<<' of a floating value"),
            std::string::npos);
  EXPECT_NE(error("ceil_div(1.5, 2)").find("ceil_div of a floating value"),
            std::string::npos);
}

// Found by the spec fuzzer: the quoted expression carried a carriage return
// and NUL bytes into the message, which then was not one line.
TEST_F(SpecExprEvaluatorTest, ControlCharactersAreQuotedAsEscapes) {
  EXPECT_EQ(error(llvm::StringRef("0\r\0\n.125", 8)),
            "k.cu:3:12: error: unexpected character '\\x00' in "
            "'0\\r\\x00\\n.125'; expected numbers, sizes, + - * / % << >>, "
            "parentheses, ceil_div, min or max");
}

TEST_F(SpecExprEvaluatorTest, IntegerQuantitiesRejectFloatingValues) {
  auto V = SpecExprEvaluator(Sizes).evaluateInteger(expr("N / 2.0"),
                                                    "length of 'x'");
  ASSERT_FALSE(V);
  EXPECT_EQ(summarize(V.takeError()).Message,
            "k.cu:3:10: error: length of 'x' 'N / 2.0' is the floating value "
            "48.5; expected an integer expression");
}

TEST_F(SpecExprEvaluatorTest, NoSizesAvailable) {
  std::map<std::string, int64_t> None;
  auto V = SpecExprEvaluator(None).evaluate(expr("N"));
  ASSERT_FALSE(V);
  EXPECT_NE(summarize(V.takeError()).Message.find("sizes cannot be used here"),
            std::string::npos);
}

} // namespace

// The parser recurses: nesting beyond any real spec is a one-line error,
// never a stack overflow (the spec fuzzer found ten thousand '(').
TEST_F(SpecExprEvaluatorTest, DeepNestingIsAnErrorNotACrash) {
  std::string Fifty = std::string(50, '(') + "N" + std::string(50, ')');
  EXPECT_EQ(integer(Fifty), 97);
  EXPECT_EQ(integer(std::string(50, '-') + "N"), 97);
  EXPECT_EQ(integer("min(max(min(N, M), K), " + Fifty + ")"), 97);
  for (std::string Deep :
       {std::string(100000, '('), std::string(20000, '-') + "1",
        std::string(500, '(') + "1" + std::string(500, ')'),
        "min(" + std::string(5000, '(') + "1, 2)"}) {
    std::string E = error(Deep);
    EXPECT_NE(E.find("error: the expression nests more than 100 levels deep "
                     "in '"),
              std::string::npos)
        << E;
    EXPECT_NE(E.find("...'; expected an expression with fewer nested "
                     "parentheses, calls and signs"),
              std::string::npos)
        << E;
    EXPECT_LT(E.size(), 300u); // The expression is quoted by its start.
  }
}
