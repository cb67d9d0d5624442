// Bad input to the core parsers: every case ends in a clear error, never a crash, an
// uncaught exception or a wrapped value. One test per way the input broke them.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "dl/annotation.hpp"

namespace {

dl::Expr::Env env_with(std::int64_t x, std::int64_t y) {
  dl::Expr::Env e;
  e.scalar = [x, y](const std::string& n) -> std::optional<std::int64_t> {
    if (n == "x") return x;
    if (n == "y") return y;
    return std::nullopt;
  };
  return e;
}

std::string parse_error(const std::string& text, std::size_t* pos = nullptr) {
  std::string err;
  std::size_t p = 0;
  EXPECT_FALSE(dl::Expr::parse(text, &err, &p)) << text.substr(0, 80);
  if (pos) *pos = p;
  return err;
}

std::string eval_error(const std::string& text, const dl::Expr::Env& env) {
  auto e = dl::Expr::parse(text);
  EXPECT_TRUE(e) << text;
  if (!e) return {};
  std::string err;
  EXPECT_FALSE(e->eval(env, &err)) << text;
  return err;
}

/// Diagnostics of a one-kernel source whose annotation line is `line`.
std::string scan_errors(const std::string& line, std::size_t* kernels = nullptr) {
  const std::string src = line + "\n__kernel void k(__global float* f, int x, int y) {}\n";
  const auto s = dl::scan_annotations(src);
  if (kernels) *kernels = s.kernels.size();
  std::string all;
  for (const auto& d : s.diagnostics) all += d.message + "\n";
  return all;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

// Item: 20,000 nested parentheses overflowed the parser's stack (SIGSEGV).
TEST(Robustness, DeepParenthesesAreAnErrorNotAStackOverflow) {
  const std::string deep = std::string(20000, '(') + "1" + std::string(20000, ')');
  EXPECT_TRUE(has(parse_error(deep), "characters long"));  // the length limit comes first
  const std::string nested = std::string(1000, '(') + "1" + std::string(1000, ')');
  std::size_t pos = 0;
  EXPECT_TRUE(has(parse_error(nested, &pos), "nested more than 256 levels"));
  EXPECT_EQ(pos, 256u);  // the column of the parenthesis past the limit
  const std::string ok = std::string(200, '(') + "7" + std::string(200, ')');
  auto e = dl::Expr::parse(ok);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->eval({}).value_or(0), 7);
}

// Item: 300,000 unary minus signs overflowed the parser's stack.
TEST(Robustness, UnaryMinusChainsAreAnErrorNotAStackOverflow) {
  EXPECT_TRUE(has(parse_error(std::string(300000, '-') + "1"), "the limit is 4096"));
  EXPECT_TRUE(has(parse_error(std::string(2000, '-') + "1"), "nested more than 256 levels"));
  EXPECT_TRUE(has(parse_error(std::string(2000, '+') + "1"), "nested more than 256 levels"));
  auto e = dl::Expr::parse(std::string(100, '-') + "5");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->eval({}).value_or(0), 5);
}

// Long operator chains make deep trees too: bounded like nesting.
TEST(Robustness, LongOperatorChainsAreBounded) {
  std::string sum = "x";
  for (int i = 0; i < 100; ++i) sum += "+x";
  auto e = dl::Expr::parse(sum);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->eval(env_with(2, 0)).value_or(0), 202);
  std::string longer = "x";
  for (int i = 0; i < 1000; ++i) longer += "+x";
  EXPECT_TRUE(has(parse_error(longer), "nested more than 256 levels"));
  EXPECT_TRUE(has(parse_error(std::string(5000, '1')), "characters long"));
}

// Item: s[x*y] with x = 2^33, y = 2^31 was a signed overflow (undefined behaviour).
TEST(Robustness, EvaluationOverflowIsAnError) {
  const std::int64_t big = std::int64_t{1} << 33, max = std::numeric_limits<std::int64_t>::max(),
                     min = std::numeric_limits<std::int64_t>::min();
  std::string err = eval_error("x*y", env_with(big, std::int64_t{1} << 31));
  EXPECT_TRUE(has(err, "overflow")) << err;
  EXPECT_TRUE(has(err, "8589934592 * 2147483648")) << err;
  EXPECT_TRUE(has(err, "'x*y'")) << err;
  EXPECT_TRUE(has(eval_error("x + y", env_with(max, 1)), "overflow"));
  EXPECT_TRUE(has(eval_error("x - y", env_with(min, 1)), "overflow"));
  EXPECT_TRUE(has(eval_error("-x", env_with(min, 0)), "overflow"));
  EXPECT_TRUE(has(eval_error("x / y", env_with(min, -1)), "overflow"));
  EXPECT_TRUE(has(eval_error("x % y", env_with(min, -1)), "overflow"));
  dl::Expr::Env huge;
  huge.global_size[0] = std::uint64_t{1} << 63;
  EXPECT_TRUE(has(eval_error("global_size(0)", huge), "overflow"));
  // In range, the same expressions evaluate.
  auto e = dl::Expr::parse("x*y");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->eval(env_with(big, 4)).value_or(0), big * 4);
}

// Item: dl-annotate accepted f[9223372036854775807*9223372036854775807].
TEST(Robustness, ConstantOverflowIsAParseError) {
  std::size_t pos = 99;
  const std::string err = parse_error("9223372036854775807*9223372036854775807", &pos);
  EXPECT_TRUE(has(err, "overflow")) << err;
  EXPECT_EQ(pos, 0u);
  EXPECT_TRUE(has(parse_error("x + (9223372036854775807 + 1)", &pos), "overflow"));
  EXPECT_EQ(pos, 5u);  // the constant part, not the whole expression
  EXPECT_TRUE(has(parse_error("-(-9223372036854775807 - 1)"), "overflow"));
  EXPECT_TRUE(has(parse_error("x / (2 - 2)"), "division by zero"));
  EXPECT_TRUE(has(parse_error("x % 0"), "division by zero"));
  EXPECT_TRUE(has(parse_error("92233720368547758070"), "too large"));
  auto e = dl::Expr::parse("9223372036854775807 - 1 + x");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->is_constant());
  EXPECT_TRUE(dl::Expr::parse("4 * 1024")->is_constant());
  EXPECT_FALSE(dl::Expr::parse("global_size(0)")->is_constant());
}

// Item: r[x][y] with x = 2^33, y = 2^31 wrapped the record count to 0.
TEST(Robustness, RecordCountOverflowIsReported) {
  std::string err;
  EXPECT_FALSE(dl::record_count({std::int64_t{1} << 33, std::int64_t{1} << 31}, nullptr, &err));
  EXPECT_TRUE(has(err, "exceeds 64 bits")) << err;
  auto rec = dl::Record::make("foo", {{"a", dl::Scalar::Float, 4, 1}});  // 16 bytes
  EXPECT_FALSE(dl::record_count({std::int64_t{1} << 61}, &rec, &err));   // 2^65 bytes
  EXPECT_TRUE(has(err, "buffer size")) << err;
  EXPECT_FALSE(dl::record_count({4, -1}, &rec, &err));
  EXPECT_TRUE(has(err, "negative")) << err;
  EXPECT_EQ(dl::record_count({std::int64_t{1} << 59}, &rec).value_or(0), std::uint64_t{1} << 59);
  EXPECT_EQ(dl::record_count({}, &rec).value_or(0), 1u);
}

TEST(Robustness, ConstantDimensionsOfAClauseMustFit) {
  std::size_t kernels = 9;
  std::string d = scan_errors("//DL: AoS: f[9223372036854775807*9223372036854775807]", &kernels);
  EXPECT_TRUE(has(d, "overflow")) << d;
  EXPECT_EQ(kernels, 0u);
  d = scan_errors("//DL: AoS: f[4294967296][4294967296][x]", &kernels);
  EXPECT_TRUE(has(d, "multiply past 64 bits")) << d;
  EXPECT_EQ(kernels, 0u);
  d = scan_errors("//DL: AoS: f[x][-3]", &kernels);
  EXPECT_TRUE(has(d, "negative")) << d;
  EXPECT_TRUE(scan_errors("//DL: AoS: f[4294967296][x*y]", &kernels).empty());
  EXPECT_EQ(kernels, 1u);
}

TEST(Robustness, DeepDimensionInAnAnnotationIsDiagnosed) {
  std::size_t kernels = 9;
  const std::string d = scan_errors(
      "//DL: AoS: f[" + std::string(20000, '(') + "x" + std::string(20000, ')') + "]", &kernels);
  EXPECT_TRUE(has(d, "bad dimension expression")) << d.substr(0, 200);
  EXPECT_EQ(kernels, 0u);
}

TEST(Robustness, OverlongAnnotationLineIsDiagnosed) {
  std::size_t kernels = 9;
  const std::string d =
      scan_errors("//DL: AoS: f[x]" + std::string(dl::kMaxAnnotationLine, ' '), &kernels);
  EXPECT_TRUE(has(d, "the limit is 65536")) << d;
  EXPECT_EQ(kernels, 0u);
}

// Item: UTF-8 in an annotation printed "unexpected ''" (one byte of the character).
TEST(Robustness, NonAsciiCharactersAreQuotedWhole) {
  std::string err = parse_error("x \xC3\xA9");  // x é
  EXPECT_TRUE(has(err, "'\xC3\xA9' (U+00E9)")) << err;
  err = parse_error("x \xE2\x82\xAC");  // euro sign
  EXPECT_TRUE(has(err, "'\xE2\x82\xAC' (U+20AC)")) << err;
  err = parse_error("x \xFF");
  EXPECT_TRUE(has(err, "byte 0xFF (not UTF-8)")) << err;
  err = parse_error("x \xC3");  // truncated sequence
  EXPECT_TRUE(has(err, "byte 0xC3 (not UTF-8)")) << err;
  err = parse_error("x \x01");
  EXPECT_TRUE(has(err, "control character 0x01")) << err;
  const std::string d = scan_errors("//DL: AoS: f[x] \xC3\xA9");
  EXPECT_TRUE(has(d, "'\xC3\xA9' (U+00E9)")) << d;
}

// Item: ASTA(-3) was quoted as 'ASTA('.
TEST(Robustness, BadTileWidthIsQuoted) {
  std::string d = scan_errors("//DL: AoS: f[x] -> ASTA(-3)");
  EXPECT_TRUE(has(d, "bad tile width '-3' in 'ASTA(-3)'")) << d;
  d = scan_errors("//DL: AoS: f[x] -> ASTA(0)");
  EXPECT_TRUE(has(d, "bad tile width '0'")) << d;
  d = scan_errors("//DL: AoS: f[x] -> ASTA(16");
  EXPECT_TRUE(has(d, "missing ')'")) << d;
  d = scan_errors("//DL: AoS: f[x] -> Diagonal");
  EXPECT_TRUE(has(d, "unknown target layout 'Diagonal'")) << d;
  d = scan_errors("//DL: AoS: f[x] -> ");
  EXPECT_TRUE(has(d, "expected a target layout")) << d;
  EXPECT_TRUE(scan_errors("//DL: AoS: f[x] -> ASTA(16)").empty());
}

TEST(Robustness, LayoutParseTakesDigitsOnly) {
  EXPECT_EQ(dl::Layout::parse("ASTA(16)"), dl::Layout::asta(16));
  EXPECT_EQ(dl::Layout::parse("ASTA(1048576)"), dl::Layout::asta(1u << 20));
  for (const char* bad : {"ASTA(-3)", "ASTA( 4)", "ASTA(+4)", "ASTA(4 )", "ASTA(1048577)",
                          "ASTA(18446744073709551617)", "ASTA(0x10)", "ASTA()"})
    EXPECT_THROW(dl::Layout::parse(bad), dl::LayoutError) << bad;
}

// Item: `float99999999999999999999:bar@0` aborted dl-annotate (std::out_of_range).
TEST(Robustness, RecordNumbersNeverThrowAnythingButLayoutError) {
  for (const char* bad : {
           "foo 4 4 float99999999999999999999:bar@0",   // vector width out of range
           "foo 4 4 float*99999999999999999999:bar@0",  // count out of range
           "foo 4 4 float*4294967297:bar@0",            // count that wrapped to 1
           "foo 4 4 float:bar@99999999999999999999",    // offset out of range
           "foo 16 4 float:bar@18446744073709551612",   // offset + size wraps
           "foo 99999999999999999999 4 float:bar@0",    // size out of range
           "foo -4 4 float:bar@0",                      // negative size
           "foo 4 -4 float:bar@0",                      // negative alignment
           "foo 4 4 float:bar@-0",                      // signed offset
           "foo 4 4 float5:bar@0",                      // not a vector width
           "foo 2097152 4 float:bar@0",                 // larger than kMaxRecordSize
           "foo 4 4 float*0:bar@0",                     // zero elements
           "foo 4 3 float:bar@0",                       // alignment not a power of two
           "foo 4 4 float:b-r@0",                       // field name not an identifier
           "f;o 4 4 float:bar@0",                       // record name not an identifier
           "foo 4 4",                                   // no fields
           "foo 4",                                     // no alignment
       }) {
    EXPECT_THROW(dl::Record::parse(bad), dl::LayoutError) << bad;
    const auto s = dl::scan_annotations(std::string("//DL: record ") + bad + "\n");
    EXPECT_TRUE(s.has_errors()) << bad;
  }
  const auto r = dl::Record::parse("foo 8 4 int8_t:a@0 float:b@4");
  EXPECT_EQ(r.fields()[0].type, dl::Scalar::Char);
  EXPECT_EQ(r.fields()[0].vector_width, 1u);
  const auto v = dl::Record::parse("bar 32 16 float4:pos@0 int*3:id@16");
  EXPECT_EQ(dl::Record::parse(v.describe()), v);
}

TEST(Robustness, RecordsLargerThanTheLimitAreRefused) {
  EXPECT_THROW(dl::Record::make("big", {{"a", dl::Scalar::Double, 16, 1u << 14}}), dl::LayoutError);
  EXPECT_THROW(dl::Record::make("big", {{"a", dl::Scalar::Char, 1, 0xFFFFFFFFu}}), dl::LayoutError);
  EXPECT_NO_THROW(dl::Record::make("ok", {{"a", dl::Scalar::Char, 1, 1u << 16}}));
}

// Found by dl_fuzz_annotate: a //DL: line inside a block comment was read as an
// annotation, so dl-annotate rewrote a kernel Clang saw no annotation for and put its
// helpers inside the comment; the output's annotations no longer scanned.
TEST(Robustness, CommentedOutAnnotationsAreNotRead) {
  const char* fuzz_input =
      "typedef struct{int k}kv;\n#ifdef A/*\n//DL:AoS:a[(0)]\nkernel*/(\n#else\n"
      "kernel void k(global kv*a){}\n#endif";
  auto s = dl::scan_annotations(fuzz_input);
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_TRUE(s.diagnostics.empty());
  s = dl::scan_annotations(
      "/*\n//DL: AoS: f[n]\n*/\n// a comment \\\n//DL: AoS: f[n]\n"
      "__kernel void k(__global float* f, int n) {}\n");
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_TRUE(s.diagnostics.empty());
  // After the comment, and with comment markers inside strings, annotations count.
  s = dl::scan_annotations(
      "/* x */ const char* t = \"/*\";\n//DL: AoS: f[n]\n"
      "__kernel void k(__global float* f, int n) {}\n");
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].buffers.size(), 1u);
}
