// Cycle math: every permutation the in-place algorithms follow is a bijection, and the
// inverse functions invert it. Exhaustive over small shapes.
#include <gtest/gtest.h>

#include <vector>

#include "dl/cycles.hpp"

namespace {

template <class F>
void expect_bijection(std::uint64_t count, F f, const char* what) {
  std::vector<int> hit(count, 0);
  for (std::uint64_t p = 0; p < count; ++p) {
    std::uint64_t q = f(p);
    ASSERT_LT(q, count) << what;
    hit[q]++;
  }
  for (std::uint64_t p = 0; p < count; ++p) ASSERT_EQ(hit[p], 1) << what << " at " << p;
}

std::vector<dl::Record> shapes() {
  using dl::Scalar;
  return {
      dl::Record::uniform("u1", Scalar::Float, 1), dl::Record::uniform("u5", Scalar::Float, 5),
      dl::Record::make("mix", {{"a", Scalar::Char}, {"b", Scalar::Int}, {"c", Scalar::Double}}),
      dl::Record::make("vec", {{"p", Scalar::Float, 4}, {"m", Scalar::Float}, {"i", Scalar::Int}}),
      dl::Record::make("arr", {{"s", Scalar::Short, 1, 3}, {"l", Scalar::Long}})};
}

}  // namespace

TEST(Cycles, TransposeIsBijectionAndInverse) {
  for (std::uint64_t M = 1; M <= 9; ++M)
    for (std::uint64_t N = 1; N <= 17; ++N) {
      expect_bijection(
          M * N, [&](std::uint64_t k) { return dl::transpose_next(k, M, N); }, "transpose");
      for (std::uint64_t k = 0; k < M * N; ++k) {
        ASSERT_EQ(dl::transpose_prev(dl::transpose_next(k, M, N), M, N), k);
        // Element (i, j) of row-major M x N lands at (j, i) of N x M.
        ASSERT_EQ(dl::transpose_next(k, M, N), (k % N) * M + k / N);
      }
    }
}

TEST(Cycles, PaperExamples) {
  // 2 x 5 row-major: cycles (0) (1 2 4 8 7 5) (3 6) (9).
  auto cs = dl::cycles_of(10, [](std::uint64_t k) { return dl::transpose_next(k, 2, 5); });
  ASSERT_EQ(cs.size(), 4u);
  EXPECT_EQ(cs[1], (dl::Cycle{1, 2, 4, 8, 7, 5}));
  EXPECT_EQ(cs[2], (dl::Cycle{3, 6}));
}

TEST(Cycles, InTileUnitPermutations) {
  for (const auto& r : shapes()) {
    dl::SlotTable t(r);
    for (std::uint64_t w = 1; w <= 33; ++w) {
      const std::uint64_t count = w * t.units();
      expect_bijection(
          count, [&](std::uint64_t p) { return dl::aos_to_asta_unit(p, w, t); }, r.name().c_str());
      for (std::uint64_t p = 0; p < count; ++p)
        ASSERT_EQ(dl::asta_to_aos_unit(dl::aos_to_asta_unit(p, w, t), w, t), p);
    }
  }
}

TEST(Cycles, TileLevelPermutations) {
  for (const auto& r : shapes()) {
    dl::SlotTable t(r);
    for (std::uint64_t np = 1; np <= 40; ++np) {
      const std::uint64_t count = np * t.units();
      expect_bijection(
          count, [&](std::uint64_t p) { return dl::da_to_asta_tile(p, np, t); }, r.name().c_str());
      for (std::uint64_t p = 0; p < count; ++p)
        ASSERT_EQ(dl::asta_to_da_tile(dl::da_to_asta_tile(p, np, t), np, t), p);
    }
  }
}

// The unit permutations agree with the byte-level layout maps.
TEST(Cycles, AgreeWithLayoutMaps) {
  for (const auto& r : shapes()) {
    dl::SlotTable t(r);
    const std::size_t u = r.unit();
    const std::uint64_t T = 4, np = 3, n = T * np;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t s = 0; s < r.slots().size(); ++s) {
        std::size_t aos = dl::slot_offset(r, n, dl::Layout::aos(), i, s) / u;
        std::size_t asta = dl::slot_offset(r, n, dl::Layout::asta(T), i, s) / u;
        std::size_t da = dl::slot_offset(r, n, dl::Layout::da(), i, s) / u;
        const std::uint64_t tile_units = T * t.units();
        ASSERT_EQ(dl::aos_to_asta_unit(aos % tile_units, T, t) + (aos / tile_units) * tile_units,
                  asta);
        // DA -> ASTA moves whole minitiles of T units.
        ASSERT_EQ(dl::da_to_asta_tile(da / T, np, t) * T + da % T, asta);
      }
  }
}

// ThreePass: each pass permutes inside every column (passes 1, 3) or row (pass 2), and
// the three applied in order to the m x n row-major matrix give its transpose; exhaustive
// over m, n <= 40 (every gcd from 1 to 40) and a few large, skewed shapes.
TEST(Cycles, ThreePassIsTheTransposition) {
  auto check = [](std::uint64_t m, std::uint64_t n) {
    const dl::ThreePass tp(m, n);
    std::vector<std::uint64_t> a(m * n), b(m * n);
    for (std::uint64_t k = 0; k < m * n; ++k) a[k] = k;
    std::vector<int> hit;
    // Passes 1 and 3: every column gathers its rows from `from(row, column)`.
    auto columns = [&](const std::vector<std::uint64_t>& src, std::vector<std::uint64_t>& dst,
                       auto from, int pass) {
      for (std::uint64_t j = 0; j < n; ++j) {
        hit.assign(m, 0);
        for (std::uint64_t r = 0; r < m; ++r) {
          const std::uint64_t s = from(r, j);
          ASSERT_LT(s, m);
          ASSERT_EQ(hit[s]++, 0) << "pass " << pass << " not a permutation, m=" << m << " n=" << n;
          dst[r * n + j] = src[s * n + j];
        }
      }
    };
    columns(
        a, b, [&](std::uint64_t r, std::uint64_t j) { return tp.col_rotate(r, j); }, 1);
    if (!tp.rotates()) {
      ASSERT_EQ(a, b) << "pass 1 should be the identity, m=" << m << " n=" << n;
    }
    for (std::uint64_t r = 0; r < m; ++r) {  // pass 2: scatter inside row r
      hit.assign(n, 0);
      for (std::uint64_t j = 0; j < n; ++j) {
        const std::uint64_t d = tp.row_shuffle(r, j);
        ASSERT_LT(d, n);
        ASSERT_EQ(hit[d]++, 0) << "pass 2 not a permutation, m=" << m << " n=" << n;
        a[r * n + d] = b[r * n + j];
      }
    }
    columns(
        a, b, [&](std::uint64_t y, std::uint64_t d) { return tp.col_shuffle(y, d); }, 3);
    for (std::uint64_t k = 0; k < m * n; ++k)
      ASSERT_EQ(b[dl::transpose_next(k, m, n)], k) << "m=" << m << " n=" << n << " k=" << k;
  };
  for (std::uint64_t m = 1; m <= 40; ++m)
    for (std::uint64_t n = 1; n <= 40; ++n) check(m, n);
  check(62, 17281);
  check(40, 11948);
  check(197, 360);
  check(1, 1000);
  check(1000, 1);
}
