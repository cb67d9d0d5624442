// DA <-> ASTA(T) with a partial last tile (n % T != 0): the head compaction runs in a
// constant number of launches for any record (kernels/tail_shift.cl). Shapes stress many
// slots, mixed slot sizes, m in {1, T-1}, band hand-over in block and chain mode, and the
// paper's Table 1 sizes; results are compared with dl::convert and round-tripped.
#include "cl_env.hpp"

namespace {

using dl::Algorithm;
using dl::Layout;
using dl::Scalar;
using dltest::ClEnv;

// Mixed slot sizes: vectors, arrays, doubles and padding (the slot table path).
dl::Record mixed() {
  return dl::Record::make("mixed", {{"p", Scalar::Float, 4},
                                    {"c", Scalar::Char},
                                    {"d", Scalar::Double},
                                    {"s", Scalar::Short, 1, 3},
                                    {"v", Scalar::Int, 2, 5},
                                    {"f", Scalar::Float}});
}

TEST(MarshalTail, ManySlotsSmallAndLargeShifts) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 5000;
  const std::vector<dl::Record> recs = {dl::Record::uniform("f62", Scalar::Float, 62),
                                        dl::Record::uniform("c9", Scalar::Char, 9), mixed()};
  for (const auto& rec : recs)
    for (std::uint32_t T : {16u, 64u})
      for (std::size_t n : {std::size_t(T + 1), std::size_t(3 * T - 1), std::size_t(37 * T + 1),
                            std::size_t(50 * T + T - 1), std::size_t(211 * T + T / 2 + 1)}) {
        SCOPED_TRACE(rec.describe() + " T=" + std::to_string(T) + " n=" + std::to_string(n));
        dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), Algorithm::Segmented, seed++);
      }
}

TEST(MarshalTail, OddTilesAndTinyBuffers) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 5100;
  const auto rec = dl::Record::make("f3i", {{"f", Scalar::Float, 3}, {"i", Scalar::Int}});
  for (std::uint32_t T : {2u, 3u, 7u, 127u, 128u})
    for (std::size_t n : {std::size_t(T + 1), std::size_t(2 * T + T - 1), std::size_t(9 * T + 2)}) {
      if (n % T == 0) continue;
      SCOPED_TRACE("T=" + std::to_string(T) + " n=" + std::to_string(n));
      dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), Algorithm::Segmented, seed++);
    }
}

TEST(MarshalTail, OtherTranspositionsAndOffsets) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 5200;
  const auto rec = mixed();
  for (Algorithm a : {Algorithm::Pipt, Algorithm::Pttwac})
    dltest::check_pair(m, rec, 29 * 16 + 15, Layout::da(), Layout::asta(16), a, seed++);
  // An odd offset halves the unit down to bytes: a different program and slot table.
  for (std::size_t off : {std::size_t(4), std::size_t(3)})
    dltest::check_pair(m, rec, 19 * 32 + 1, Layout::da(), Layout::asta(32), Algorithm::Segmented,
                       seed++, off);
}

// Large shifts (m * slot offset >= 256 units): chain-mode bands, cut many times.
TEST(MarshalTail, ChainModeTable1Sizes) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 5300;
  struct Shape {
    unsigned S;
    std::size_t n;
    std::uint32_t T;
  };
  for (const Shape& s :
       {Shape{62, 17281, 16}, Shape{62, 64 * 60 + 63, 64}, Shape{215, 16 * 700 + 15, 16},
        Shape{215, 64 * 80 + 1, 64}, Shape{40, 11948, 64}}) {
    const auto rec = dl::Record::uniform("f" + std::to_string(s.S), Scalar::Float, s.S);
    SCOPED_TRACE("S=" + std::to_string(s.S) + " n=" + std::to_string(s.n) +
                 " T=" + std::to_string(s.T));
    dltest::check_pair(m, rec, s.n, Layout::da(), Layout::asta(s.T), Algorithm::Segmented, seed++);
  }
}

// The tail costs a constant number of launches, whatever the number of slots.
TEST(MarshalTail, ConstantKernelCount) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  for (unsigned S : {5u, 62u, 215u}) {
    const auto rec = dl::Record::uniform("f" + std::to_string(S), Scalar::Float, S);
    const std::size_t n = 16 * 100 + 1;
    const auto in = dltest::random_bytes(n * rec.size(), 5400 + S);
    for (int dir = 0; dir < 2; ++dir) {
      const Layout from = dir ? Layout::asta(16) : Layout::da();
      const Layout to = dir ? Layout::da() : Layout::asta(16);
      dl::MarshalResult r;
      const auto got = dltest::run_on_device(m, rec, n, from, to, in, Algorithm::Segmented, 0, &r);
      std::vector<unsigned char> want(in.size());
      dl::convert(rec, n, from, in.data(), to, want.data());
      ASSERT_TRUE(got == want) << "S=" << S << " dir " << dir;
      // tail gather, chunk save, chunk move, segment save, segment move (+ one copy).
      EXPECT_LE(r.kernels, 5u) << "S=" << S << " dir " << dir;
    }
  }
}

// Extra memory within max(2% of the buffer, 64 KiB) on the paper's Table 1 shapes, and
// no shape refused (planner only: nothing runs).
TEST(MarshalTail, Table1PlansFitTheBound) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const std::pair<unsigned, unsigned> shapes[] = {{11948, 40},  {17281, 62}, {35588, 197},
                                                  {44609, 215}, {90449, 59}, {49152, 39}};
  for (const auto& [n, S] : shapes) {
    const auto rec = dl::Record::uniform("f", Scalar::Float, S);
    const std::size_t bytes = std::size_t(n) * rec.size();
    for (std::uint32_t T : {16u, 32u, 64u})
      for (int dir = 0; dir < 2; ++dir) {
        const Layout from = dir ? Layout::asta(T) : Layout::da();
        const Layout to = dir ? Layout::da() : Layout::asta(T);
        const auto p = m.plan(rec, n, from, to, Algorithm::Segmented);
        ASSERT_TRUE(p.ok) << "n=" << n << " S=" << S << " T=" << T << ": " << p.reason;
        EXPECT_LE(p.extra_bytes, std::max<std::size_t>(bytes / 50, 64 * 1024))
            << "n=" << n << " S=" << S << " T=" << T;
      }
  }
}

}  // namespace
