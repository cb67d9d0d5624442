// Layout core: OpenCL C struct rules, slots, layout maps, the CPU oracle.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <set>

#include "dl/layout.hpp"

using dl::FieldSpec;
using dl::Layout;
using dl::Record;
using dl::Scalar;

TEST(Record, OpenClStructRules) {
  Record r =
      Record::make("foo", {{"a", Scalar::Char}, {"d", Scalar::Double}, {"s", Scalar::Short}});
  EXPECT_EQ(r.fields()[1].offset, 8u);
  EXPECT_EQ(r.fields()[2].offset, 16u);
  EXPECT_EQ(r.size(), 24u);
  EXPECT_EQ(r.align(), 8u);
  // Slots cover every byte exactly once, in order.
  std::size_t at = 0;
  for (const auto& s : r.slots()) {
    EXPECT_EQ(s.offset, at);
    EXPECT_EQ(s.offset % s.size, 0u);
    at += s.size;
  }
  EXPECT_EQ(at, r.size());
  EXPECT_EQ(r.unit(), 1u);
}

TEST(Record, VectorsArraysAndPacking) {
  Record r = Record::make("p", {{"pos", Scalar::Float, 4},
                                {"vel", Scalar::Float, 3},
                                {"mass", Scalar::Float},
                                {"id", Scalar::Int}});
  EXPECT_EQ(r.fields()[1].offset, 16u);  // float3 takes 16 bytes
  EXPECT_EQ(r.size(), 48u);
  EXPECT_EQ(r.align(), 16u);
  Record packed = Record::make("q", {{"c", Scalar::Char}, {"f", Scalar::Float}}, true);
  EXPECT_EQ(packed.size(), 5u);
  EXPECT_EQ(packed.fields()[1].offset, 1u);
  Record arr = Record::make("a", {{"v", Scalar::Float, 1, 3}, {"i", Scalar::Int}});
  EXPECT_EQ(arr.slots().size(), 4u);
  EXPECT_EQ(arr.unit(), 4u);
  EXPECT_TRUE(arr.uniform_slots());
  EXPECT_THROW(Record::make("bad", {}), dl::LayoutError);
  EXPECT_THROW(Record::make("bad", {{"x", Scalar::Float, 5}}), dl::LayoutError);
}

TEST(Record, DescribeParsesBack) {
  Record r = Record::make("mix", {{"a", Scalar::UChar},
                                  {"b", Scalar::Short, 1, 3},
                                  {"c", Scalar::Double},
                                  {"d", Scalar::Float, 2}});
  Record back = Record::parse(r.describe());
  EXPECT_EQ(back.describe(), r.describe());
  EXPECT_EQ(back.size(), r.size());
  EXPECT_EQ(back.slots().size(), r.slots().size());
  EXPECT_THROW(Record::parse("x 4"), dl::LayoutError);
  EXPECT_THROW(Record::parse("x 4 4 floot:a@0"), dl::LayoutError);
  EXPECT_THROW(Record::parse("x 4 4 float:a@2"), dl::LayoutError);
}

// Equality compares what describe() prints, field by field: records that differ in any
// one of name, size, alignment, a field's type, width, count, block, name or offset are
// unequal, and equal ones describe alike.
TEST(Record, EqualityIsTheDescription) {
  const std::vector<Record> rs = {
      Record::make("p", {{"a", Scalar::Float}, {"b", Scalar::Int}}),
      Record::make("q", {{"a", Scalar::Float}, {"b", Scalar::Int}}),
      Record::make("p", {{"a", Scalar::Float}, {"b", Scalar::Int}}, false, 16),
      Record::make("p", {{"a", Scalar::Float}, {"b", Scalar::UInt}}),
      Record::make("p", {{"a", Scalar::Float}, {"c", Scalar::Int}}),
      Record::make("p", {{"a", Scalar::Float, 2}, {"b", Scalar::Int}}),
      Record::make("p", {{"a", Scalar::Float, 1, 2}, {"b", Scalar::Int}}),
      Record::make("p", {{"a", Scalar::Char}, {"b", Scalar::Int}}, true),
      Record::make("p", {{"a", Scalar::Char}, {"b", Scalar::Int}}),
      Record::make("p", {{"a", Scalar::Float}}),
      Record::uniform("p", Scalar::Float, 6),
      Record::blocks("p", Scalar::Float, 2, 3),
      Record::blocks("p", Scalar::Float, 3, 2),
  };
  for (const auto& a : rs)
    for (const auto& b : rs) {
      EXPECT_EQ(a == b, a.describe() == b.describe()) << a.describe() << " | " << b.describe();
      EXPECT_EQ(a != b, !(a == b));
    }
  for (std::size_t i = 0; i < rs.size(); ++i) {
    EXPECT_EQ(Record::parse(rs[i].describe()), rs[i]);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(rs[i], rs[j]) << rs[i].describe();
  }
}

// SWAP(T, B): for records of S = B * D rows, the array [A][T][B][D][C] (C scalars a row)
// with its dimensions T and D exchanged when T is a whole tile; every tile's slot arrays
// transposed as a B x D matrix. Element (a, i, b, j, c) goes to (((a*D + j)*B + b)*T + i)*C + c.
TEST(Layout, SwapIsTheArrayWithTwoDimensionsExchanged) {
  struct Shape {
    std::size_t a, t, b, d, c;
  };
  const Shape shapes[] = {{1, 5, 7, 3, 1}, {2, 3, 4, 5, 2}, {3, 1, 2, 2, 3},
                          {1, 4, 1, 6, 1}, {2, 6, 5, 1, 4}, {1, 9, 2, 9, 1}};
  for (const Shape& sh : shapes) {
    const Record r = Record::blocks("rows", Scalar::UInt, static_cast<unsigned>(sh.b * sh.d),
                                    static_cast<unsigned>(sh.c));
    const std::size_t n = sh.a * sh.t;
    const Layout l =
        Layout::swap(static_cast<std::uint32_t>(sh.t), static_cast<std::uint32_t>(sh.b));
    std::vector<std::uint32_t> src(n * r.size() / 4), dst(src.size()), back(src.size());
    std::iota(src.begin(), src.end(), 0u);
    dl::convert(r, n, Layout::aos(), src.data(), l, dst.data());
    for (std::size_t a = 0; a < sh.a; ++a)
      for (std::size_t i = 0; i < sh.t; ++i)
        for (std::size_t b = 0; b < sh.b; ++b)
          for (std::size_t j = 0; j < sh.d; ++j)
            for (std::size_t c = 0; c < sh.c; ++c)
              ASSERT_EQ(dst[(((a * sh.d + j) * sh.b + b) * sh.t + i) * sh.c + c],
                        (((a * sh.t + i) * sh.b + b) * sh.d + j) * sh.c + c)
                  << l.str() << " a=" << a << " i=" << i << " b=" << b << " j=" << j;
    dl::convert(r, n, l, dst.data(), Layout::aos(), back.data());
    EXPECT_EQ(back, src);
    // Through the other maps: SWAP to ASTA and back.
    std::vector<std::uint32_t> asta(src.size());
    dl::convert(r, n, l, dst.data(), Layout::asta(2), asta.data());
    dl::convert(r, n, Layout::asta(2), asta.data(), Layout::aos(), back.data());
    EXPECT_EQ(back, src);
  }
  EXPECT_EQ(Layout::swap(8, 3).str(), "SWAP(8,3)");
  EXPECT_EQ(Layout::parse("SWAP(8,3)"), Layout::swap(8, 3));
  EXPECT_EQ(Layout::parse("swap(1,1048576)"), Layout::swap(1, 1u << 20));
  EXPECT_NE(Layout::swap(8, 3), Layout::swap(8, 4));
  EXPECT_NE(Layout::swap(8, 3), Layout::asta(8));
  EXPECT_FALSE(Layout::swap(8, 3).tiled());
  EXPECT_TRUE(Layout::swap(8, 3).same_map(Layout::swap(9, 3), 8));  // one tile of all 8
  EXPECT_FALSE(Layout::swap(8, 3).same_map(Layout::swap(8, 1), 8));
  for (const char* bad : {"SWAP(8)", "SWAP(0,3)", "SWAP(8,0)", "SWAP(8,3", "SWAP(,3)"})
    EXPECT_THROW(Layout::parse(bad), dl::LayoutError) << bad;
  // B must divide the rows; rows of one size.
  const Record r = Record::blocks("rows", Scalar::Float, 6, 2);
  EXPECT_THROW(dl::swap_shape(r, Layout::swap(4, 4)), dl::LayoutError);
  EXPECT_THROW(dl::swap_shape(r, Layout::swap(4, 0)), dl::LayoutError);
  EXPECT_EQ(dl::swap_shape(r, Layout::swap(4, 3)).d, 2u);
  const Record mixed = Record::make("m", {{"a", Scalar::Int}, {"b", Scalar::Double}});
  EXPECT_THROW(dl::swap_shape(mixed, Layout::swap(4, 1)), dl::LayoutError);
}

// A record of rows (Record::blocks): each row of B scalars is one slot, so DA and ASTA
// of such records are the array with two dimensions swapped and every row whole.
TEST(Record, RowsAreSlots) {
  const Record r = Record::blocks("rows", Scalar::Float, 7, 3);  // 7 rows of 3 floats
  EXPECT_EQ(r.size(), 84u);
  EXPECT_EQ(r.align(), 4u);
  ASSERT_EQ(r.slots().size(), 7u);
  EXPECT_EQ(r.slots()[2].offset, 24u);
  EXPECT_EQ(r.slots()[2].size, 12u);
  EXPECT_EQ(r.unit(), 4u);
  EXPECT_EQ(r.describe(), "rows 84 4 float{3}*7:v@0");
  EXPECT_EQ(Record::parse(r.describe()), r);
  EXPECT_NE(r.to_cl().find("float v[7][3];"), std::string::npos) << r.to_cl();
  EXPECT_EQ(Record::blocks("r", Scalar::Short, 2, 4).unit(), 8u);
  EXPECT_THROW(Record::blocks("r", Scalar::Float, 2, 0), dl::LayoutError);
  EXPECT_THROW(Record::blocks("r", Scalar::Float, 1024, 1024), dl::LayoutError);  // > 1 MiB
  EXPECT_THROW(Record::parse("x 8 4 float{0}*2:v@0"), dl::LayoutError);
  EXPECT_THROW(Record::parse("x 8 4 float{2*2:v@0"), dl::LayoutError);
  EXPECT_THROW(Record::parse("x 32 16 float4{2}:v@0"), dl::LayoutError);
  EXPECT_THROW(Record::parse("x 8 4 float{3}*2:v@0"), dl::LayoutError);  // past the size

  // a[z][y][x], nz = 5 records of ny = 7 rows of nx = 3: DA is a'[y][z][x]; ASTA(2) swaps
  // z and y inside tiles of two planes (the last tile holds one).
  const std::size_t nz = 5, ny = 7, nx = 3;
  std::vector<float> a(nz * ny * nx), da(a.size()), asta(a.size());
  std::iota(a.begin(), a.end(), 0.0f);
  dl::convert(r, nz, Layout::aos(), a.data(), Layout::da(), da.data());
  dl::convert(r, nz, Layout::aos(), a.data(), Layout::asta(2), asta.data());
  for (std::size_t z = 0; z < nz; ++z)
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        const float v = a[(z * ny + y) * nx + x];
        EXPECT_EQ(da[(y * nz + z) * nx + x], v);
        const std::size_t t = z / 2 * 2, w = std::min<std::size_t>(2, nz - t);
        EXPECT_EQ(asta[t * ny * nx + (y * w + (z - t)) * nx + x], v);
      }
}

TEST(Layout, ParseAndPrint) {
  EXPECT_EQ(Layout::parse("ASTA(32)"), Layout::asta(32));
  EXPECT_EQ(Layout::parse("DA"), Layout::da());
  EXPECT_EQ(Layout::aos().str(), "AoS");
  EXPECT_THROW(Layout::parse("ASTA(x)"), dl::LayoutError);
  EXPECT_TRUE(Layout::asta(1).same_map(Layout::aos(), 10));
  EXPECT_TRUE(Layout::asta(64).same_map(Layout::da(), 64));
  EXPECT_TRUE(Layout::asta(128).same_map(Layout::da(), 64));  // one partial tile is a DA
  EXPECT_FALSE(Layout::asta(32).same_map(Layout::da(), 64));
  EXPECT_FALSE(Layout::asta(2).same_map(Layout::aos(), 64));
}

// Every layout map is a bijection of the buffer's bytes.
TEST(Layout, MapsAreBijections) {
  Record r = Record::make(
      "m",
      {{"a", Scalar::Char}, {"b", Scalar::Int}, {"c", Scalar::Short, 1, 2}, {"d", Scalar::Double}});
  for (std::size_t n : {1u, 2u, 7u, 16u, 33u}) {
    for (Layout l :
         {Layout::aos(), Layout::da(), Layout::asta(2), Layout::asta(4), Layout::asta(16)}) {
      std::vector<int> hit(n * r.size(), 0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t s = 0; s < r.slots().size(); ++s) {
          std::size_t o = dl::slot_offset(r, n, l, i, s);
          EXPECT_EQ(o % r.slots()[s].size, 0u) << l.str();
          for (std::size_t b = 0; b < r.slots()[s].size; ++b) hit.at(o + b)++;
        }
      for (int h : hit) ASSERT_EQ(h, 1) << l.str() << " n=" << n;
    }
  }
}

TEST(Layout, AstaMatchesPaperExample) {
  // struct foo {float bar; int baz;} in ASTA(4): bar[4] then baz[4] per tile.
  Record r = Record::make("foo", {{"bar", Scalar::Float}, {"baz", Scalar::Int}});
  EXPECT_EQ(dl::slot_offset(r, 8, Layout::asta(4), 5, 0), 32u + 4u);
  EXPECT_EQ(dl::slot_offset(r, 8, Layout::asta(4), 5, 1), 32u + 16u + 4u);
  // DA: bar[n] then baz[n]; partial last tile of ASTA(4) with n = 6 is a mini-DA of 2.
  EXPECT_EQ(dl::slot_offset(r, 6, Layout::da(), 5, 1), 24u + 20u);
  EXPECT_EQ(dl::slot_offset(r, 6, Layout::asta(4), 5, 1), 32u + 8u + 4u);
}

TEST(Convert, RoundTripsAreExact) {
  std::mt19937 rng(7);
  Record r = Record::make("m", {{"a", Scalar::Char}, {"b", Scalar::Float, 2}, {"c", Scalar::Long}});
  for (std::size_t n : {1u, 5u, 31u, 64u, 65u}) {
    std::vector<unsigned char> src(n * r.size()), mid(src.size()), back(src.size());
    for (auto& b : src) b = static_cast<unsigned char>(rng());
    for (Layout to : {Layout::da(), Layout::asta(4), Layout::asta(32)}) {
      dl::convert(r, n, Layout::aos(), src.data(), to, mid.data());
      dl::convert(r, n, to, mid.data(), Layout::aos(), back.data());
      EXPECT_EQ(back, src) << to.str() << " n=" << n;
      std::vector<unsigned char> inplace = src;
      dl::convert_in_place(r, n, Layout::aos(), to, inplace.data());
      EXPECT_EQ(inplace, mid);
    }
  }
}
