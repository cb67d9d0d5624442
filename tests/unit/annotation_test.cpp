// The //DL: annotation grammar and dimension expressions.
#include <gtest/gtest.h>

#include "dl/annotation.hpp"

namespace {

dl::Expr::Env env() {
  dl::Expr::Env e;
  e.global_size = {1024, 8, 1};
  e.local_size = {64, 0, 1};
  e.num_groups = {16, 1, 1};
  e.scalar = [](const std::string& n) -> std::optional<std::int64_t> {
    if (n == "nx") return 100;
    if (n == "ny") return 3;
    return std::nullopt;
  };
  return e;
}

std::int64_t eval(const char* text) {
  auto e = dl::Expr::parse(text);
  EXPECT_TRUE(e.has_value()) << text;
  auto v = e->eval(env());
  EXPECT_TRUE(v.has_value()) << text;
  return v.value_or(-1);
}

/// Each annotation line(s) `bad`, above `kernel` (by default one of arrays x and col and
/// an int n), is an error whose first diagnostic says `says`, and the kernel is dropped.
void expect_rejected(const std::vector<std::pair<std::string, std::string>>& cases,
                     const std::string& kernel =
                         "__kernel void k(__global const float* x, "
                         "__global const int* col, int n) {}\n") {
  for (const auto& [bad, says] : cases) {
    auto d = dl::scan_annotations(bad + kernel);
    EXPECT_TRUE(d.kernels.empty()) << bad;
    ASSERT_FALSE(d.diagnostics.empty()) << bad;
    EXPECT_NE(d.diagnostics[0].message.find(says), std::string::npos)
        << bad << ": " << d.diagnostics[0].message;
  }
}

}  // namespace

/// expect_rejected for clauses of one `//DL: AoS:` line each, above `kernel` (by default
/// one of an array a and ints n, m and k).
template <std::size_t N>
void expect_clauses_rejected(
    const std::pair<const char*, const char*> (&bad)[N],
    const std::string& kernel = "__kernel void k(__global float *a, int n, int m, int k) {}\n") {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& [clause, want] : bad)
    lines.push_back({std::string("//DL: AoS: ") + clause + "\n", want});
  expect_rejected(lines, kernel);
}

TEST(Expr, Evaluates) {
  EXPECT_EQ(eval("global_size(0)"), 1024);
  EXPECT_EQ(eval("global_size(0) * global_size(1)"), 8192);
  EXPECT_EQ(eval("nx*ny + 2*(nx - 1) % 7"), 300 + (2 * 99) % 7);
  EXPECT_EQ(eval("num_groups(0)*local_size(0)"), 1024);
  EXPECT_EQ(eval("-4 + 10 / 3"), -1);
  EXPECT_EQ(eval("get_global_size(1)"), 8);
}

TEST(Expr, ReportsErrors) {
  std::string err;
  std::size_t pos = 0;
  EXPECT_FALSE(dl::Expr::parse("global_size(3)", &err, &pos));
  EXPECT_NE(err.find("dimension"), std::string::npos);
  EXPECT_FALSE(dl::Expr::parse("nx +", &err, &pos));
  EXPECT_FALSE(dl::Expr::parse("(nx", &err, &pos));
  EXPECT_FALSE(dl::Expr::parse("nx $ 2", &err, &pos));
  EXPECT_EQ(pos, 3u);
  auto e = dl::Expr::parse("nz * 2");
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->eval(env(), &err));
  EXPECT_NE(err.find("'nz'"), std::string::npos);
  EXPECT_FALSE(dl::Expr::parse("nx / (ny - 3)")->eval(env(), &err));
  EXPECT_NE(err.find("division by zero"), std::string::npos);
  EXPECT_FALSE(dl::Expr::parse("local_size(1)")->eval(env(), &err));
}

TEST(Annotation, PaperForms) {
  const char* src = R"(struct foo { float bar; int baz; };
//DL: AoS: f[global_size(0)]
__kernel void AoS(__global struct foo* f) { f[get_global_id(0)].bar *= 2.0f; }
//DL: AoS: g[global_size(0)] AOS2ASTA_foo
//DL: record foo 8 4 float:bar@0 int:baz@4
__kernel void Other(__global struct foo* g, int n) {}
)";
  auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors());
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].kernel, "AoS");
  ASSERT_EQ(s.kernels[0].buffers.size(), 1u);
  EXPECT_EQ(s.kernels[0].buffers[0].name, "f");
  EXPECT_EQ(s.kernels[0].buffers[0].marshaler, "");
  const auto* k = s.find("Other");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->params, (std::vector<std::string>{"g", "n"}));
  EXPECT_EQ(k->buffers[0].record, "foo");
  EXPECT_EQ(k->buffers[0].target.kind, dl::LayoutKind::ASTA);
  ASSERT_EQ(s.records.count("foo"), 1u);
  EXPECT_EQ(s.records.at("foo").size(), 8u);
}

TEST(Annotation, Extensions) {
  const char* src = R"(
//DL: AoS: a[nx*ny][19] -> DA, const b:rec[global_size(0)] -> ASTA(16); AoS: c[nx]
__kernel __attribute__((reqd_work_group_size(64,1,1))) void k(__global float *a, __global const rec *b,
                  __global rec* c, const int nx, int ny) {}
)";
  auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  ASSERT_EQ(s.kernels.size(), 1u);
  const auto& k = s.kernels[0];
  EXPECT_EQ(k.params.size(), 5u);
  ASSERT_EQ(k.buffers.size(), 3u);
  EXPECT_EQ(k.buffers[0].dims.size(), 2u);
  EXPECT_EQ(k.buffers[0].target, dl::Layout::da());
  EXPECT_TRUE(k.buffers[1].read_only);
  EXPECT_EQ(k.buffers[1].record, "rec");
  EXPECT_EQ(k.buffers[1].target, dl::Layout::asta(16));
  EXPECT_EQ(k.buffers[2].name, "c");
  EXPECT_FALSE(k.buffers[2].target_given);
  EXPECT_TRUE(k.buffers[1].target_given);
  auto flat = dl::Record::make("g19", {{"v", dl::Scalar::Float, 1, 19}});
  EXPECT_EQ(dl::record_count({300, 19}, &flat), 300u);
  EXPECT_EQ(dl::record_count({300, 4}, &flat), 1200u);
}

// `-> ASTA(E)`: a tile width given by the kernel's integer arguments (the two fastest
// dimensions of a 3-D array swapped per plane); constant expressions fold to ASTA(T).
TEST(Annotation, TileWidthExpression) {
  auto s = dl::scan_annotations(
      "//DL: AoS: const a:float[nz * ny][nx] -> ASTA(ny), b:float[n][4] -> ASTA(4 * (2 + 2)), "
      "c:float[n][4] -> ASTA((ny + 1) / 2) AOS2ASTA_flat_float\n"
      "__kernel void k(__global const float *a, __global float *b, __global float *c, int nx,\n"
      "                int ny, int nz, int n) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& b = s.kernels.at(0).buffers;
  ASSERT_EQ(b.size(), 3u);
  ASSERT_TRUE(b[0].tile.has_value());
  EXPECT_EQ(b[0].tile->text(), "ny");
  EXPECT_EQ(b[0].target, dl::Layout::asta(0));
  EXPECT_TRUE(b[0].target_given);
  EXPECT_FALSE(b[1].tile.has_value());
  EXPECT_EQ(b[1].target, dl::Layout::asta(16));
  ASSERT_TRUE(b[2].tile.has_value());
  EXPECT_EQ(b[2].marshaler, "AOS2ASTA_flat_float");
  EXPECT_EQ(dl::format_clause(b[0]), "const a:float[nz * ny][nx] -> ASTA(ny)");
  EXPECT_EQ(dl::format_clause(b[1]), "b:float[n][4] -> ASTA(16)");
  EXPECT_EQ(dl::format_clause(b[2]), "c:float[n][4] -> ASTA((ny + 1) / 2) AOS2ASTA_flat_float");
  // Round trip: the formatted clause scans to the same tile.
  auto again = dl::scan_annotations("//DL: AoS: " + dl::format_clause(b[2]) +
                                    "\n__kernel void k(__global float *c, int ny, int n) {}\n");
  ASSERT_FALSE(again.has_errors()) << again.diagnostics[0].message;
  dl::Expr::Env env;
  env.scalar = [](const std::string& n) -> std::optional<std::int64_t> {
    if (n == "ny") return 9;
    return std::nullopt;
  };
  EXPECT_EQ(again.kernels.at(0).buffers.at(0).tile->eval(env), 5);
  // Errors: names that are not parameters, the whole buffer, bad syntax, constant out of range.
  const std::pair<const char*, const char*> bad[] = {
      {"a[n] -> ASTA(m)", "tile width of 'a' names 'm'"},
      {"a[n] -> ASTA(*)", "the tile width takes kernel arguments and constants only"},
      {"a[n] -> ASTA(sizeof(int))", "the tile width takes kernel arguments and constants only"},
      {"a[n] -> ASTA(n +)", "bad tile width expression 'n +'"},
      {"a[n] -> ASTA(2 - 3)", "bad tile width '2 - 3' in 'ASTA(2 - 3)'"},
      {"a[n] -> ASTA(1048576 * 2)", "T is a whole number from 1 to 1048576"},
      {"a[n] -> ASTA((n)", "missing ')'"},
  };
  expect_clauses_rejected(bad, "__kernel void k(__global float *a, int n) {}\n");
}

// `-> [..]`: two adjacent dimensions of a flat array exchanged. The first of the pair is
// the tile width; below the fastest two, the records are rows (swap_rows).
TEST(Annotation, DimensionSwap) {
  auto s = dl::scan_annotations(
      "//DL: AoS: const a:float[nz][ny][nx] -> [ny][nz][nx], b:int[nw][nz][ny][nx*2] -> "
      "[nw][ny][nz][ nx * 2 ], c:float[nz][ny][nx] -> [nz][nx][ny], d:float[8][nx] -> [nx][8]\n"
      "__kernel void k(__global const float *a, __global int *b, __global float *c,\n"
      "                __global float *d, int nx, int ny, int nz, int nw) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& b = s.kernels.at(0).buffers;
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0].swap, 0);
  EXPECT_TRUE(b[0].rows());
  ASSERT_TRUE(b[0].tile.has_value());
  EXPECT_EQ(b[0].tile->text(), "nz");
  EXPECT_TRUE(b[0].target_given);
  EXPECT_EQ(b[1].swap, 1);
  EXPECT_TRUE(b[1].rows());
  EXPECT_EQ(b[1].tile->text(), "nz");
  EXPECT_EQ(b[2].swap, 1);
  EXPECT_FALSE(b[2].rows());  // the fastest two: records of nx scalars, ASTA(ny)
  EXPECT_EQ(b[2].tile->text(), "ny");
  EXPECT_EQ(b[3].swap, 0);
  EXPECT_FALSE(b[3].tile.has_value());  // a constant first dimension folds
  EXPECT_EQ(b[3].target, dl::Layout::asta(8));
  EXPECT_EQ(dl::format_clause(b[0]), "const a:float[nz][ny][nx] -> [ny][nz][nx]");
  EXPECT_EQ(dl::format_clause(b[1]), "b:int[nw][nz][ny][nx*2] -> [nw][ny][nz][nx*2]");
  EXPECT_EQ(dl::format_clause(b[3]), "d:float[8][nx] -> [nx][8]");
  // Round trip.
  auto again = dl::scan_annotations("//DL: AoS: " + dl::format_clause(b[1]) +
                                    "\n__kernel void k(__global int *b, int nx, int ny, int nz, "
                                    "int nw) {}\n");
  ASSERT_FALSE(again.has_errors()) << again.diagnostics[0].message;
  EXPECT_EQ(again.kernels.at(0).buffers.at(0).swap, 1);
  // The record and count at a launch: nw = 6, nz = 7, ny = 5, nx * 2 = 6.
  auto rows = dl::swap_rows(b[1], {6, 7, 5, 6});
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->second, 42u);
  EXPECT_EQ(rows->first.describe(), "flat_int_5x6 120 4 int{6}*5:v@0");
  EXPECT_EQ(rows->first.slots().size(), 5u);
  EXPECT_EQ(rows->first.unit(), 8u);
  // Rows of one scalar, the outer dimension equal to the rows per record: n is still the
  // product of the outer dimensions (the last one is no record length).
  auto ones = dl::swap_rows(b[1], {17, 2, 2, 1});
  ASSERT_TRUE(ones.has_value());
  EXPECT_EQ(ones->second, 34u);
  EXPECT_EQ(ones->first.describe(), "flat_int_2 8 4 int*2:v@0");
  std::string why;
  EXPECT_FALSE(dl::swap_rows(b[1], {6, 7, 5, 0}, &why));
  EXPECT_NE(why.find("is not positive"), std::string::npos) << why;
  EXPECT_FALSE(dl::swap_rows(b[1], {6, 7, 0, 6}, &why));
  EXPECT_NE(why.find("S = 0 is outside [1, 43690]"), std::string::npos) << why;
  EXPECT_FALSE(dl::swap_rows(b[1], {6, 7, 1024, 1024}, &why));
  EXPECT_NE(why.find("exceeds 1 MiB"), std::string::npos) << why;
  EXPECT_FALSE(dl::swap_rows(b[2], {6, 7, 5}, &why));  // not rows
  const std::pair<const char*, const char*> bad[] = {
      {"a[n][m] -> [n][m]", "the same order"},
      {"a[n][m] -> [m]", "the target has 1 dimensions, the array 2"},
      {"a[n][m][k] -> [m][k][n]", "not two dimensions exchanged"},
      {"a[n][m][k] -> [k][n][m]", "not two dimensions exchanged"},
      {"a[*][m] -> [m][*]", "not '*'"},
      {"a[0][m] -> [m][0]", "outside [1, 1048576]"},
      {"a[n][m] -> [m][n", "missing ']'"},
      {"a[x][m] -> [m][x]", "names 'x'"},
  };
  expect_clauses_rejected(bad);
}

// `-> [..]` with two dimensions exchanged that are not neighbours: SWAP(d1, B), B the
// product of the dimensions between (evaluated at each launch, distant_swap); the records
// are the rows between and including the second, of the scalars after it.
TEST(Annotation, DistantDimensionSwap) {
  auto s = dl::scan_annotations(
      "//DL: AoS: const a:float[nz][ny][nx] -> [nx][ny][nz], b:int[nw][nz][ny][3][nx] -> "
      "[nw][3][ny][nz][nx], c:float[4][ny][2][nx] -> [nx][ny][2][4]\n"
      "__kernel void k(__global const float *a, __global int *b, __global float *c, int nx,\n"
      "                int ny, int nz, int nw) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& b = s.kernels.at(0).buffers;
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0].swap, 0);
  EXPECT_EQ(b[0].swap_with, 2);
  EXPECT_TRUE(b[0].distant());
  EXPECT_TRUE(b[0].rows());
  EXPECT_EQ(b[0].target.kind, dl::LayoutKind::Swap);
  ASSERT_TRUE(b[0].tile.has_value());
  EXPECT_EQ(b[0].tile->text(), "nz");
  EXPECT_EQ(b[1].swap, 1);
  EXPECT_EQ(b[1].swap_with, 3);
  EXPECT_EQ(b[2].target, dl::Layout::swap(4, 0));  // a constant first dimension folds
  EXPECT_FALSE(b[2].tile.has_value());
  EXPECT_EQ(dl::format_clause(b[0]), "const a:float[nz][ny][nx] -> [nx][ny][nz]");
  EXPECT_EQ(dl::format_clause(b[1]), "b:int[nw][nz][ny][3][nx] -> [nw][3][ny][nz][nx]");
  // The completed clause, marshaler included, parses back.
  dl::BufferAnnotation done = b[1];
  done.marshaler = "AOS2SWAP_int";
  auto again = dl::scan_annotations("//DL: AoS: " + dl::format_clause(done) +
                                    "\n__kernel void k(__global int *b, int nx, int ny, int nz, "
                                    "int nw) {}\n");
  ASSERT_FALSE(again.has_errors()) << again.diagnostics[0].message;
  EXPECT_EQ(again.kernels.at(0).buffers.at(0).swap_with, 3);
  EXPECT_EQ(again.kernels.at(0).buffers.at(0).marshaler, "AOS2SWAP_int");
  // nw = 2, nz = 5, ny = 7, 3, nx = 4: records nw * nz = 10 of 7 * 3 rows of 4 scalars,
  // SWAP(5, 7).
  auto rows = dl::swap_rows(b[1], {2, 5, 7, 3, 4});
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->second, 10u);
  EXPECT_EQ(rows->first.slots().size(), 21u);
  EXPECT_EQ(rows->first.size(), 21u * 16u);
  EXPECT_EQ(dl::distant_swap(b[1], {2, 5, 7, 3, 4}), dl::Layout::swap(5, 7));
  EXPECT_EQ(dl::distant_swap(b[0], {5, 7, 3}), dl::Layout::swap(5, 7));
  EXPECT_EQ(dl::distant_swap(b[2], {4, 6, 2, 3}), dl::Layout::swap(4, 12));
  std::string why;
  EXPECT_FALSE(dl::distant_swap(b[0], {0, 7, 3}, &why));
  EXPECT_NE(why.find("the swapped dimension 'nz' = 0"), std::string::npos) << why;
  EXPECT_FALSE(dl::distant_swap(b[0], {5, 2000000, 3}, &why));
  EXPECT_NE(why.find("between the two = 2000000"), std::string::npos) << why;
  const dl::BufferAnnotation adjacent = s.kernels.at(0).buffers.at(0);
  dl::BufferAnnotation near = adjacent;
  near.swap_with = 1;
  EXPECT_FALSE(dl::distant_swap(near, {5, 7, 3}, &why));
  const std::pair<const char*, const char*> bad[] = {
      {"a[n][m][k] -> [k][m][n] AOS2ASTA_float", "is not a SWAP marshaler"},
      {"a[n][m] -> [m][n] AOS2SWAP_float", "converts to SWAP"},
      {"a[n][sizeof(float)][k] -> [k][sizeof(float)][n]", "between the swapped two"},
      {"a[n][m][k] -> SWAP(4,2)", "SWAP is not written as a target"},
  };
  expect_clauses_rejected(bad);
}

// `-> DIAG` / `-> DIAG_MAIN`: planes diagonalized, the rows of a plane the dimension
// before the fastest (an expression of arguments in `tile`, a constant in the target).
TEST(Annotation, DiagonalTargets) {
  auto s = dl::scan_annotations(
      "//DL: AoS: const a:float[nz][ny][nx] -> DIAG, b:int[9][nx] -> DIAG_MAIN AOS2DIAG_flat_int\n"
      "__kernel void k(__global const float *a, __global int *b, int nx, int ny, int nz) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& b = s.kernels.at(0).buffers;
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0].target, dl::Layout::diag());
  ASSERT_TRUE(b[0].tile.has_value());
  EXPECT_EQ(b[0].tile->text(), "ny");
  EXPECT_EQ(b[1].target, dl::Layout::diag(9, true));
  EXPECT_FALSE(b[1].tile.has_value());
  EXPECT_EQ(b[1].marshaler, "AOS2DIAG_flat_int");
  EXPECT_EQ(dl::format_clause(b[0]), "const a:float[nz][ny][nx] -> DIAG");
  EXPECT_EQ(dl::format_clause(b[1]), "b:int[9][nx] -> DIAG_MAIN AOS2DIAG_flat_int");
  auto again = dl::scan_annotations("//DL: AoS: " + dl::format_clause(b[1]) +
                                    "\n__kernel void k(__global int *b, int nx) {}\n");
  ASSERT_FALSE(again.has_errors()) << again.diagnostics[0].message;
  EXPECT_EQ(again.kernels.at(0).buffers.at(0).target, dl::Layout::diag(9, true));
  const std::pair<const char*, const char*> bad[] = {
      {"a[n][m] -> DIAG(4)", "not in parentheses"},
      {"a[n] -> DIAG", "two fastest dimensions"},
      {"a[*][m] -> DIAG", "two fastest dimensions"},
      {"a[0][m] -> DIAG_MAIN", "outside [1, 1048576]"},
      {"a[n][m] -> DIAG AOS2ASTA_flat_float", "is not a DIAG marshaler"},
      {"a[n][m] -> DA AOS2DIAG_flat_float", "converts to DIAG"},
      {"a[n][m] -> DIAGONAL", "unknown target layout 'DIAGONAL'"},
  };
  expect_clauses_rejected(bad, "__kernel void k(__global float *a, int n, int m) {}\n");
}

// `write_only`: the kernel never reads the buffer; it excludes `const`, and it is
// written back by format_clause.
TEST(Annotation, WriteOnly) {
  auto s = dl::scan_annotations(
      "//DL: AoS: write_only out[n] -> ASTA AOS2ASTA_r, const in[n]\n"
      "__kernel void k(__global r *out, __global const r *in, int n) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& b = s.kernels.at(0).buffers;
  EXPECT_TRUE(b.at(0).write_only);
  EXPECT_FALSE(b.at(0).read_only);
  EXPECT_FALSE(b.at(1).write_only);
  EXPECT_EQ(dl::format_clause(b.at(0)), "write_only out[n] -> ASTA AOS2ASTA_r");
  for (const char* bad :
       {"//DL: AoS: const write_only out[n]\n", "//DL: AoS: write_only const out[n]\n"}) {
    auto e =
        dl::scan_annotations(std::string(bad) + "__kernel void k(__global r *out, int n) {}\n");
    ASSERT_TRUE(e.has_errors()) << bad;
    EXPECT_NE(e.diagnostics[0].message.find("either const or write_only"), std::string::npos)
        << e.diagnostics[0].message;
  }
}

// The marshaler names the record; an explicit target stays what `->` says (AoS included),
// and a marshaler converting to another layout than the target is an error.
TEST(Annotation, ExplicitTargetWinsOverTheMarshalerName) {
  const char* src = R"(
//DL: AoS: a[n] -> AoS AOS2ASTA_foo, b[n] AOS2DA_foo, c[n] -> ASTA(8) AOS2ASTA_foo
__kernel void k(__global struct foo *a, __global struct foo *b, __global struct foo *c, int n) {}
)";
  auto s = dl::scan_annotations(src);
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  const auto& k = s.kernels.at(0);
  EXPECT_EQ(k.buffers.at(0).target, dl::Layout::aos());
  EXPECT_EQ(k.buffers[0].record, "foo");
  EXPECT_EQ(k.buffers.at(1).target, dl::Layout::da());
  EXPECT_EQ(k.buffers.at(2).target, dl::Layout::asta(8));
  EXPECT_EQ(dl::format_clause(k.buffers[0]), "a[n] -> AoS AOS2ASTA_foo");
  auto bad = dl::scan_annotations(R"(
//DL: AoS: a[n] -> DA AOS2ASTA_foo
__kernel void k(__global struct foo *a, int n) {}
)");
  ASSERT_TRUE(bad.has_errors());
  EXPECT_NE(bad.diagnostics[0].message.find("converts to ASTA but the target of 'a' is DA"),
            std::string::npos)
      << bad.diagnostics[0].message;
}

TEST(Annotation, MalformedIsDiagnosedAndDropped) {
  const char* src =
      "//DL: AoS: f[global_size(0]\n__kernel void a(__global float* f) {}\n"
      "//DL: AoS: q[4]\n__kernel void b(__global float* f) {}\n"
      "//DL: SoA: f[4]\n__kernel void c(__global float* f) {}\n"
      "//DL: AoS: f[n]\n__kernel void d(__global float* f) {}\n"
      "//DL: AoS: f[4] WHATEVER\n__kernel void e(__global float* f) {}\n"
      "//DL: record r 3 4 float:x@0\n"
      "//DL: AoS: f[8]\n";
  auto s = dl::scan_annotations(src);
  EXPECT_TRUE(s.kernels.empty());
  ASSERT_GE(s.diagnostics.size(), 7u);
  EXPECT_EQ(s.diagnostics[0].line, 1);
  for (const auto& d : s.diagnostics) EXPECT_FALSE(d.message.empty());
}

TEST(Annotation, WholeBufferCount) {
  // `*`: the records of the bound buffer, given at each launch (Env::whole).
  auto s = dl::scan_annotations(
      "//DL: AoS: const f[*], g[ * ][20]\n"
      "__kernel void k(__global const float4* f, __global float* g) {}\n");
  ASSERT_EQ(s.kernels.size(), 1u) << (s.diagnostics.empty() ? "" : s.diagnostics[0].message);
  const auto& b = s.kernels[0].buffers;
  ASSERT_EQ(b.size(), 2u);
  ASSERT_EQ(b[0].dims.size(), 1u);
  EXPECT_TRUE(b[0].dims[0].is_whole());
  EXPECT_FALSE(b[0].dims[0].is_constant());
  EXPECT_TRUE(b[0].dims[0].names().empty());
  EXPECT_TRUE(b[1].dims[0].is_whole());
  EXPECT_FALSE(b[1].dims[1].is_whole());
  EXPECT_EQ(dl::format_clause(b[1]), "g[*][20] -> ASTA");
  EXPECT_EQ(b[0].dims[0].to_cl("dl_whole_f"), "(long)(dl_whole_f)");
  dl::Expr::Env e;
  std::string err;
  EXPECT_FALSE(b[0].dims[0].eval(e, &err));  // no buffer: no value
  EXPECT_NE(err.find("whole buffer"), std::string::npos) << err;
  e.whole = 12345;
  EXPECT_EQ(b[0].dims[0].eval(e).value_or(-1), 12345);
  // `*` is the first dimension, followed at most by S (a constant, or arguments for a
  // flat array whose record length is an argument), and takes no operators.
  EXPECT_FALSE(
      dl::scan_annotations("//DL: AoS: f[*][n]\n__kernel void k(__global float* f, int n) {}")
          .has_errors());
  for (const char* bad : {"//DL: AoS: f[n][*]\n", "//DL: AoS: f[*][*]\n", "//DL: AoS: f[*][2][3]\n",
                          "//DL: AoS: f[* 2]\n", "//DL: AoS: f[2*]\n"}) {
    auto d =
        dl::scan_annotations(std::string(bad) + "__kernel void k(__global float* f, int n) {}\n");
    EXPECT_TRUE(d.kernels.empty()) << bad;
    ASSERT_FALSE(d.diagnostics.empty()) << bad;
  }
}

// Fields of by-value struct arguments: dl-annotate completes them with an offset and an
// integer type; the runtime reads the argument's bytes there.
TEST(Expr, FieldsOfByValueArguments) {
  std::vector<unsigned char> d(24, 0);
  d[20] = 0xfa;  // uint at 20: 250
  d[8] = 0xfe;   // short at 8: -2 (0xfffe)
  d[9] = 0xff;
  dl::Expr::Env e;
  e.bytes = [&](const std::string& n) { return n == "d" ? &d : nullptr; };
  auto f = dl::Expr::parse("d.grid.number_boxes@20:uint * 4");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->eval(e), 1000);
  EXPECT_FALSE(f->is_constant());
  EXPECT_TRUE(f->names().empty());
  ASSERT_EQ(f->fields().size(), 1u);
  EXPECT_EQ(f->fields()[0].arg, "d");
  EXPECT_EQ(f->fields()[0].path, "grid.number_boxes");
  EXPECT_EQ(f->fields()[0].offset, 20);
  EXPECT_EQ(f->to_cl(), "((long)(d.grid.number_boxes) * (long)4)");
  EXPECT_EQ(dl::Expr::parse("d.s@8:short")->eval(e), -2);
  EXPECT_EQ(dl::Expr::parse("d.s@8:ushort")->eval(e), 65534);
  std::string err;
  EXPECT_FALSE(dl::Expr::parse("d.x@22:int")->eval(e, &err));
  EXPECT_NE(err.find("past the argument's 24 bytes"), std::string::npos) << err;
  EXPECT_FALSE(dl::Expr::parse("d.boxes")->eval(e, &err));
  EXPECT_NE(err.find("has no offset"), std::string::npos) << err;
  EXPECT_FALSE(dl::Expr::parse("q.boxes@0:int")->eval(e, &err));
  EXPECT_NE(err.find("'q' is unknown or not set"), std::string::npos) << err;
  std::fill(d.begin(), d.end(), 0xff);
  EXPECT_FALSE(dl::Expr::parse("d.big@0:ulong")->eval(e, &err));
  EXPECT_NE(err.find("overflow"), std::string::npos) << err;
  for (const char* bad : {"d.", "d.x@", "d.x@4", "d.x@4:float", "d.x@99999999:int"})
    EXPECT_FALSE(dl::Expr::parse(bad).has_value()) << bad;
}

// sizeof(type) parses; only dl-annotate, which knows the type, gives it a value.
TEST(Expr, SizeofIsResolvedByTheAnnotator) {
  auto s = dl::Expr::parse("nx * sizeof(struct particle) / sizeof ( unsigned int )");
  ASSERT_TRUE(s.has_value());
  ASSERT_EQ(s->fields().size(), 2u);
  EXPECT_EQ(s->fields()[0].path, "struct particle");
  EXPECT_EQ(s->fields()[1].path, "unsigned int");
  std::string err;
  EXPECT_FALSE(s->eval(env(), &err));
  EXPECT_NE(err.find("resolved by dl-annotate"), std::string::npos) << err;
  for (const char* bad : {"sizeof", "sizeof()", "sizeof(float", "sizeof(float*)"})
    EXPECT_FALSE(dl::Expr::parse(bad).has_value()) << bad;
}

// [*] buffers with records of one size share a record count (not those kept in AoS, and
// flat arrays whose S is an argument only with the same S and scalar size).
TEST(Annotation, WholeGroups) {
  auto s = dl::scan_annotations(
      "//DL: AoS: a[*] -> ASTA AOS2ASTA_r, b[*] -> ASTA AOS2ASTA_q, c[n] -> ASTA AOS2ASTA_r, "
      "d[*] -> AoS AOS2ASTA_r, e[*] -> DA AOS2DA_r, f:float[*][K] -> ASTA AOS2ASTA_flat_float, "
      "g:int[*][K] -> ASTA AOS2ASTA_flat_int, h:float[*][M] -> ASTA AOS2ASTA_flat_float, "
      "i[*] -> ASTA AOS2ASTA_s\n"
      "__kernel void k(__global r *a, __global q *b, __global r *c, __global r *d, __global r *e, "
      "__global float *f, __global int *g, __global float *h, __global s *i, int n, int K, "
      "int M) {}\n");
  ASSERT_FALSE(s.has_errors()) << s.diagnostics[0].message;
  std::map<std::string, dl::Record> recs;
  recs.emplace("r", dl::Record::make("r", {{"x", dl::Scalar::Float}}));
  recs.emplace("q", dl::Record::make("q", {{"y", dl::Scalar::Int}}));
  recs.emplace("s", dl::Record::make("s", {{"z", dl::Scalar::Double}}));
  EXPECT_EQ(dl::whole_groups(s.kernels.at(0), recs),
            (std::vector<int>{0, 0, -1, 3, 0, 5, 5, 7, 8}));
}

TEST(Annotation, GatherClauses) {
  // `gather: x[col]`, alone or next to other clauses; dl-annotate completes both types.
  auto s = dl::scan_annotations(
      "//DL: gather: x[col]; AoS: const v[*]\n"
      "//DL: gather: w:float4[idx:ushort]\n"
      "__kernel void k(__global const float* x, __global const int* col, __global const V* v,"
      " __global const float4* w, __global const ushort* idx) {}\n");
  ASSERT_EQ(s.kernels.size(), 1u) << (s.diagnostics.empty() ? "" : s.diagnostics[0].message);
  const auto& k = s.kernels[0];
  ASSERT_EQ(k.gathers.size(), 2u);
  EXPECT_EQ(k.buffers.size(), 1u);
  EXPECT_EQ(dl::format_gather(k.gathers[0]), "x[col]");
  EXPECT_EQ(k.gathers[0].elem_size(), 0u);  // not completed
  EXPECT_EQ(dl::format_gather(k.gathers[1]), "w:float4[idx:ushort]");
  EXPECT_EQ(k.gathers[1].elem_size(), 16u);
  EXPECT_EQ(k.gathers[1].index_kind(), (std::pair<unsigned, bool>{2, false}));
  EXPECT_EQ(k.gathers[1].line, 2);
  for (const auto& [t, size] : std::vector<std::pair<std::string, std::size_t>>{
           {"char", 1}, {"half", 2}, {"double3", 32}, {"uchar16", 16}, {"long8", 64}}) {
    dl::GatherAnnotation g;
    g.type = t;
    EXPECT_EQ(g.elem_size(), size) << t;
  }
  dl::GatherAnnotation g;
  g.index_type = "long";
  EXPECT_EQ(g.index_kind(), (std::pair<unsigned, bool>{8, true}));
  // Each is an error naming what is wrong, and the kernel is dropped (it runs untransformed).
  expect_rejected({{"//DL: gather: x\n", "expected '['"},
                   {"//DL: gather: x[]\n", "expected an index array"},
                   {"//DL: gather: x[col\n", "expected ']'"},
                   {"//DL: gather: x[x]\n", "its own index"},
                   {"//DL: gather: x:float[col]\n", "give both"},
                   {"//DL: gather: x:struct[col:int]\n", "element type of 'x'"},
                   {"//DL: gather: x:float[col:float]\n", "integer element type"},
                   {"//DL: gather: x[nope]\n", "'nope' is not a parameter"},
                   {"//DL: gather: x[col], x[n]\n", "already gathered"},
                   {"//DL: gather: x[col]; AoS: const col[*]\n", "also in an AoS: clause"},
                   {"//DL: AoS: const x[4][2]\n//DL: gather: x[col]\n", "also in an AoS: clause"},
                   {"//DL: gather: x[col]\n//DL: local: col[4]\n", "read by the gather"},
                   {"//DL: gather x[col]\n", "expected ':' after 'gather'"}});
}

TEST(Annotation, MapClauses) {
  // `map: x[fn]`: a gather through a function of the program; dl-annotate completes it
  // with x's element type and the parameters fn's other arguments read.
  auto s = dl::scan_annotations(
      "//DL: map: x[rev]; gather: y[col]\n"
      "//DL: map: w:float4[perm(n, s)], v:int[ident()]\n"
      "__kernel void k(__global const float* x, __global const float* y, __global const int* "
      "col, __global const float4* w, __global const int* v, uint n, uint s) {}\n");
  ASSERT_EQ(s.kernels.size(), 1u) << (s.diagnostics.empty() ? "" : s.diagnostics[0].message);
  const auto& k = s.kernels[0];
  ASSERT_EQ(k.gathers.size(), 4u);
  EXPECT_TRUE(k.gathers[0].map);
  EXPECT_FALSE(k.gathers[1].map);
  EXPECT_EQ(dl::format_gather(k.gathers[0]), "x[rev]");
  EXPECT_EQ(dl::describe_gather(k.gathers[0]), "the map x[rev]");
  EXPECT_EQ(dl::describe_gather(k.gathers[1]), "the gather y[col]");
  EXPECT_EQ(dl::format_gather(k.gathers[2]), "w:float4[perm(n, s)]");
  EXPECT_EQ(k.gathers[2].args, (std::vector<std::string>{"n", "s"}));
  EXPECT_EQ(k.gathers[2].elem_size(), 16u);
  EXPECT_EQ(dl::format_gather(k.gathers[3]), "v:int[ident()]");
  EXPECT_TRUE(k.gathers[3].args.empty());
  expect_rejected({{"//DL: map: x\n", "expected '[' with the function"},
                   {"//DL: map: x[]\n", "expected a function name"},
                   {"//DL: map: x[f\n", "expected ']' after the function 'f'"},
                   {"//DL: map: x[x]\n", "its own map"},
                   {"//DL: map: x[f(n)]\n", "without the element type"},
                   {"//DL: map: x:float[f]\n", "expected '(' with the parameters"},
                   {"//DL: map: x:float[f(n m)]\n", "expected ',' or ')'"},
                   {"//DL: map: x:float[f(nope)]\n", "'nope' is not a parameter"},
                   {"//DL: map: nope[f]\n", "'nope' is not a parameter"},
                   {"//DL: map: x[f], x[g]\n", "already gathered or mapped"},
                   {"//DL: gather: x[col]; map: x[f]\n", "already gathered or mapped"},
                   {"//DL: map: x[f]; AoS: const x[*]\n", "also in an AoS: clause"},
                   {"//DL: map: x[f]\n//DL: local: x[4]\n", "read by the map x[f]"},
                   {"//DL: map x[f]\n", "expected ':' after 'map'"}});
  // A map's function need not be a parameter: the kernel keeps its clause.
  auto f =
      dl::scan_annotations("//DL: map: x[f]\n__kernel void k(__global const float* x, int n) {}\n");
  EXPECT_EQ(f.kernels.size(), 1u);
}

TEST(Annotation, LocalClauses) {
  // `local:` names buffers to stage in local memory with their element counts; it mixes
  // with `AoS:` clauses on one line or on lines of their own.
  auto s = dl::scan_annotations(
      "//DL: local: in[w * h], mask[25]\n"
      "//DL: AoS: const p[*]; local: q[get_global_size(0) + 2]\n"
      "__kernel void k(__global const float* in, __constant float* mask, __global const P* p,"
      " __global const float* q, int w, int h) {}\n");
  ASSERT_EQ(s.kernels.size(), 1u) << (s.diagnostics.empty() ? "" : s.diagnostics[0].message);
  const auto& k = s.kernels[0];
  ASSERT_EQ(k.locals.size(), 3u);
  ASSERT_EQ(k.buffers.size(), 1u);
  EXPECT_EQ(k.locals[0].name, "in");
  EXPECT_EQ(dl::format_local(k.locals[0]), "in[w * h]");
  EXPECT_EQ(k.locals[0].line, 1);
  EXPECT_EQ(k.locals[1].extent.eval({}).value_or(-1), 25);
  EXPECT_EQ(k.locals[2].name, "q");
  EXPECT_EQ(k.locals[2].line, 2);
  EXPECT_EQ(k.line, 1);
  // Each is an error, and the kernel is dropped (it runs untransformed).
  for (const char* bad :
       {"//DL: local: in[*]\n", "//DL: local: in\n", "//DL: local in[4]\n",
        "//DL: local: in[4], in[8]\n", "//DL: local: nope[4]\n", "//DL: local: in[m]\n",
        "//DL: local: in[sizeof(float)]\n", "//DL: local: in[4]\n//DL: local: in[8]\n"}) {
    auto d = dl::scan_annotations(std::string(bad) +
                                  "__kernel void k(__global const float* in, int n) {}\n");
    EXPECT_TRUE(d.kernels.empty()) << bad;
    ASSERT_FALSE(d.diagnostics.empty()) << bad;
  }
  // A buffer DL converts may be staged too (the copy reads its layout).
  auto both = dl::scan_annotations(
      "//DL: AoS: const in[4][2]; local: in[8]\n__kernel void k(__global const float* in) {}\n");
  ASSERT_EQ(both.kernels.size(), 1u)
      << (both.diagnostics.empty() ? "" : both.diagnostics[0].message);
  EXPECT_EQ(both.kernels[0].buffers.size(), 1u);
  EXPECT_EQ(both.kernels[0].locals.size(), 1u);
}
