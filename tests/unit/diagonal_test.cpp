// The diagonal map against its definition: every plane shape of DVMH's three cases per
// direction (square, wider, taller; one row, one column), the closed forms against an
// enumeration of the diagonals, inverse and CPU reference round trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "dl/diagonal.hpp"
#include "dl/layout.hpp"

namespace {

using dl::Diagonal;
using dl::DiagonalShape;

/// The positions by definition: diagonals in order, each in increasing y.
std::vector<std::uint64_t> enumerated(const DiagonalShape& s) {
  std::vector<std::uint64_t> pos(s.ny * s.nx, ~std::uint64_t{0});
  std::uint64_t next = 0;
  for (std::uint64_t d = 0; d + 1 < s.nx + s.ny; ++d)
    for (std::uint64_t y = 0; y < s.ny; ++y) {
      if (d < y || d - y >= s.nx) continue;
      std::uint64_t x = d - y;
      if (s.direction == Diagonal::Main) x = s.nx - 1 - x;
      pos[y * s.nx + x] = next++;
    }
  return pos;
}

TEST(Diagonal, ClosedFormsMatchTheDiagonalsOneByOne) {
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (std::uint64_t ny : {1u, 2u, 3u, 5u, 8u, 13u, 32u})
      for (std::uint64_t nx : {1u, 2u, 3u, 4u, 7u, 13u, 31u, 64u}) {
        const DiagonalShape s{ny, nx, 1, 4, dir};
        const auto want = enumerated(s);
        for (std::uint64_t y = 0; y < ny; ++y)
          for (std::uint64_t x = 0; x < nx; ++x) {
            const std::uint64_t p = dl::diagonal_position(s, y, x);
            ASSERT_EQ(p, want[y * nx + x]) << ny << "x" << nx << " (" << y << ", " << x << ")";
            std::uint64_t yy = 0, xx = 0;
            dl::diagonal_element(s, p, &yy, &xx);
            ASSERT_EQ(yy, y) << ny << "x" << nx << " p " << p;
            ASSERT_EQ(xx, x) << ny << "x" << nx << " p " << p;
          }
      }
}

// Planes of a GiB and more: the inverse stays exact where the square roots are large.
TEST(Diagonal, InverseHoldsOnLargePlanes) {
  std::mt19937_64 rng(7);
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (auto [ny, nx] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
             {16384, 16384}, {65536, 4099}, {3, 100000007}, {1u << 20, 1u << 12}}) {
      const DiagonalShape s{ny, nx, 1, 4, dir};
      const std::uint64_t n = ny * nx;
      for (int i = 0; i < 20000; ++i) {
        // Both ends and the plateau's edges, then anywhere.
        const std::uint64_t a = std::min(nx, ny);
        const std::uint64_t edges[] = {0,
                                       1,
                                       n - 1,
                                       n - 2,
                                       a * (a - 1) / 2,
                                       a * (a + 1) / 2,
                                       n - a * (a - 1) / 2,
                                       n - a * (a + 1) / 2};
        const std::uint64_t p = i < 8 ? std::min(edges[i], n - 1) : rng() % n;
        std::uint64_t y = 0, x = 0;
        dl::diagonal_element(s, p, &y, &x);
        ASSERT_LT(y, ny);
        ASSERT_LT(x, nx);
        ASSERT_EQ(dl::diagonal_position(s, y, x), p) << ny << "x" << nx << " p " << p;
      }
    }
}

TEST(Diagonal, ReferenceRoundTripsBitExact) {
  std::mt19937 rng(3);
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main})
    for (std::size_t elem : {1u, 3u, 4u, 16u})
      for (auto [ny, nx] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
               {1, 1}, {1, 9}, {9, 1}, {6, 6}, {5, 11}, {11, 5}}) {
        const DiagonalShape s{ny, nx, 3, elem, dir};
        std::vector<unsigned char> in(s.bytes()), mid(in.size()), back(in.size());
        for (auto& c : in) c = static_cast<unsigned char>(rng());
        dl::diagonalize(s, in.data(), mid.data(), true);
        dl::diagonalize(s, mid.data(), back.data(), false);
        ASSERT_EQ(back, in);
        // Element (y, x) of plane z is where the map says.
        for (std::uint64_t z = 0; z < s.planes; ++z)
          for (std::uint64_t y = 0; y < ny; ++y)
            for (std::uint64_t x = 0; x < nx; ++x) {
              const std::uint64_t from = (z * ny * nx + y * nx + x) * elem;
              const std::uint64_t to = (z * ny * nx + dl::diagonal_position(s, y, x)) * elem;
              ASSERT_TRUE(
                  std::equal(in.begin() + from, in.begin() + from + elem, mid.begin() + to));
            }
      }
}

// The clipping copy reads the rectangle the row-major planes hold, and writes it back
// where only that rectangle changes.
TEST(Diagonal, ClipReadsAndWritesTheRectangle) {
  std::mt19937 rng(9);
  for (Diagonal dir : {Diagonal::Secondary, Diagonal::Main}) {
    const DiagonalShape s{7, 12, 2, 3, dir};
    std::vector<unsigned char> rows(s.bytes()), diag(rows.size());
    for (auto& c : rows) c = static_cast<unsigned char>(rng());
    dl::diagonalize(s, rows.data(), diag.data(), true);
    for (dl::Rect r : {dl::Rect{0, 0, 7, 12}, dl::Rect{2, 3, 4, 5}, dl::Rect{6, 0, 1, 12},
                       dl::Rect{0, 11, 7, 1}, dl::Rect{3, 3, 0, 4}}) {
      ASSERT_TRUE(r.inside(s));
      std::vector<unsigned char> rect(s.planes * r.h * r.w * s.elem);
      dl::clip_diagonal(s, r, diag.data(), rect.data(), true);
      for (std::uint64_t z = 0; z < s.planes; ++z)
        for (std::uint64_t i = 0; i < r.h; ++i)
          for (std::uint64_t j = 0; j < r.w; ++j)
            ASSERT_TRUE(
                std::equal(rect.begin() + ((z * r.h + i) * r.w + j) * s.elem,
                           rect.begin() + ((z * r.h + i) * r.w + j + 1) * s.elem,
                           rows.begin() + ((z * s.ny + r.y0 + i) * s.nx + r.x0 + j) * s.elem));
      // Written back changed: the rectangle's elements of the planes, nothing else.
      for (auto& c : rect) c = static_cast<unsigned char>(c ^ 0xFF);
      auto d2 = diag;
      dl::clip_diagonal(s, r, d2.data(), rect.data(), false);
      std::vector<unsigned char> back(rows.size());
      dl::diagonalize(s, d2.data(), back.data(), false);
      for (std::uint64_t e = 0; e < s.planes * s.ny * s.nx; ++e) {
        const std::uint64_t q = e % (s.ny * s.nx), y = q / s.nx, x = q % s.nx;
        const bool in = y >= r.y0 && y < r.y0 + r.h && x >= r.x0 && x < r.x0 + r.w;
        for (std::size_t b = 0; b < s.elem; ++b)
          ASSERT_EQ(back[e * s.elem + b], in ? rows[e * s.elem + b] ^ 0xFF : rows[e * s.elem + b]);
      }
    }
  }
  EXPECT_FALSE((dl::Rect{5, 0, 3, 1}.inside(DiagonalShape{7, 12, 1, 4})));
  EXPECT_FALSE((dl::Rect{0, 12, 1, 1}.inside(DiagonalShape{7, 12, 1, 4})));
}

// The layouts DIAG(H) and DIAG_MAIN(H): rows of H-row planes as records, the slots a
// row's elements. The layout map (slot_offset, convert) is the reference's map plane by
// plane, for records of scalars, of blocks and of vectors.
TEST(Diagonal, LayoutMapIsTheReferencePlaneByPlane) {
  std::uint32_t seed = 7;
  for (bool main : {false, true})
    for (auto [h, planes, nx] : std::vector<std::array<std::uint32_t, 3>>{
             {1, 1, 1}, {1, 4, 9}, {5, 1, 7}, {7, 3, 5}, {4, 2, 4}, {12, 2, 31}})
      for (const dl::Record& rec : {dl::Record::uniform("f", dl::Scalar::Float, nx),
                                    dl::Record::blocks("b", dl::Scalar::UChar, nx, 3),
                                    dl::Record::make("v", {{"p", dl::Scalar::Double, 2, nx}})}) {
        const std::size_t n = std::size_t{h} * planes;
        for (std::uint32_t rows : {h, planes == 1 ? 0u : h}) {
          const dl::Layout l = dl::Layout::diag(rows, main);
          std::mt19937 rng(seed++);
          std::vector<unsigned char> in(n * rec.size()), got(in.size()), want(in.size()),
              back(in.size());
          for (auto& b : in) b = static_cast<unsigned char>(rng());
          dl::convert(rec, n, dl::Layout::aos(), in.data(), l, got.data());
          const DiagonalShape s{h, nx, planes, rec.slots()[0].size,
                                main ? Diagonal::Main : Diagonal::Secondary};
          dl::diagonalize(s, in.data(), want.data(), true);
          EXPECT_TRUE(got == want) << l.str() << " " << rec.describe() << " planes " << planes;
          dl::convert(rec, n, l, got.data(), dl::Layout::aos(), back.data());
          EXPECT_TRUE(back == in) << l.str();
        }
      }
}

TEST(Diagonal, LayoutNamesParseAndCompare) {
  using dl::Layout;
  for (const Layout& l :
       {Layout::diag(), Layout::diag(0, true), Layout::diag(64), Layout::diag(3, true)})
    EXPECT_EQ(Layout::parse(l.str()), l) << l.str();
  EXPECT_EQ(Layout::diag(64).str(), "DIAG(64)");
  EXPECT_EQ(Layout::diag(0, true).str(), "DIAG_MAIN");
  EXPECT_EQ(Layout::parse("diag_main(5)"), Layout::diag(5, true));
  EXPECT_THROW(Layout::parse("DIAG(0)"), dl::LayoutError);
  EXPECT_THROW(Layout::parse("DIAG_MAIN()"), dl::LayoutError);
  EXPECT_NE(Layout::diag(4), Layout::diag(4, true));
  EXPECT_NE(Layout::diag(4), Layout::diag(8));
  EXPECT_TRUE(Layout::diag(16).same_map(Layout::diag(), 16));
  EXPECT_FALSE(Layout::diag(8).same_map(Layout::diag(), 16));
  EXPECT_FALSE(Layout::diag().same_map(Layout::aos(), 16));
  EXPECT_FALSE(Layout::diag().same_map(Layout::diag(0, true), 16));
  // A record of slots of several sizes has no rows of elements.
  const auto mixed =
      dl::Record::make("m", {{"a", dl::Scalar::Float, 1, 1}, {"b", dl::Scalar::Double, 1, 1}});
  EXPECT_THROW(dl::slot_offset(mixed, 4, Layout::diag(), 0, 0), dl::LayoutError);
}

}  // namespace
