// PttwacInstance (kernels/tile_instance.cl): chunks of b records transposed through local
// memory, then PTTWAC over minitiles of b units inside each instance. Big instances
// (T = 128 x 1 KiB, T = 64 x 2 KiB) with small local budgets (several chunk passes,
// narrow minitiles), mixed slot sizes, unaligned offsets (no 16-byte vectors), every T
// in 1..128, and partial last tiles (m = 1, T - 1, a prime m with no chunk width but
// itself), all against dl::convert and round trips, bit-exactly. Step 2 runs both ways:
// from the host's cycle table and in rounds with done bits.
#include "cl_env.hpp"

namespace {

using dl::Algorithm;
using dl::Layout;
using dl::Scalar;
using dltest::ClEnv;

dl::Record mixed() {
  return dl::Record::make("mixed", {{"c", Scalar::Char},
                                    {"s", Scalar::Short, 3},
                                    {"d", Scalar::Double},
                                    {"f", Scalar::Float, 4},
                                    {"i", Scalar::Int, 1, 3},
                                    {"h", Scalar::Half, 2}});
}

using Cycles = dl::MarshalOptions::Cycles;

std::unique_ptr<dl::Marshaler> with_budget(std::size_t local_bytes, Cycles cycles = Cycles::Table) {
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.tile_local_bytes = local_bytes;
  opt.instance_cycles = cycles;
  return std::make_unique<dl::Marshaler>(env.context, env.device, nullptr, opt);
}

void check_both(dl::Marshaler& m, const dl::Record& rec, std::size_t n, std::uint32_t T,
                std::uint32_t seed, std::size_t offset = 0) {
  const dl::Plan p = m.plan(rec, n, Layout::aos(), Layout::asta(T), Algorithm::PttwacInstance);
  ASSERT_TRUE(p.ok) << p.reason;
  ASSERT_EQ(p.steps.size(), T == 1 ? 0u : 1u);  // ASTA(1) is AoS: nothing to do
  if (T > 1) {
    EXPECT_EQ(p.steps[0].algorithm, Algorithm::PttwacInstance);
  }
  // Only the cycle table, within the in-place bound.
  EXPECT_LE(p.extra_bytes, std::max<std::size_t>(n * rec.size() / 50, 64 * 1024));
  if (m.options().instance_cycles == Cycles::Rounds) {
    EXPECT_EQ(p.extra_bytes, 0u);
  }
  // AoS -> ASTA(T) and back, then ASTA(T) -> AoS of a random ASTA buffer and back.
  dltest::check_pair(m, rec, n, Layout::aos(), Layout::asta(T), Algorithm::PttwacInstance, seed,
                     offset);
  dltest::check_pair(m, rec, n, Layout::asta(T), Layout::aos(), Algorithm::PttwacInstance, seed + 1,
                     offset);
}

TEST(MarshalInstance, BigInstancesSmallLocalMemory) {
  REQUIRE_CL();
  const auto kib1 = dl::Record::uniform("k1", Scalar::Float, 256);  // 1 KiB records
  const auto kib2 = dl::Record::uniform("k2", Scalar::Float, 512);  // 2 KiB records
  std::uint32_t seed = 100;
  // 32 KiB: 32-byte minitiles, 4 chunks per pass; 8 KiB: one chunk per pass; 2 KiB:
  // two-record chunks (8-byte minitiles moved unit by unit).
  for (std::size_t budget : {std::size_t(32) << 10, std::size_t(8) << 10, std::size_t(2) << 10})
    for (Cycles cycles : {Cycles::Table, Cycles::Rounds}) {
      auto m = with_budget(budget, cycles);
      for (std::size_t n : {std::size_t(3 * 128), std::size_t(2 * 128 + 1),
                            std::size_t(2 * 128 + 127), std::size_t(128 + 97)})
        check_both(*m, kib1, n, 128, seed += 2);
      for (std::size_t n : {std::size_t(2 * 64 + 63), std::size_t(64 + 48)})
        check_both(*m, kib2, n, 64, seed += 2);
    }
}

TEST(MarshalInstance, MixedSlotsEveryTileWidth) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const dl::Record rec = mixed();
  std::uint32_t seed = 1000;
  for (std::uint32_t T = 1; T <= 128; ++T) {
    const std::size_t n = 2 * T + (T * 5) / 7;
    check_both(m, rec, n, T, seed += 2);
  }
}

TEST(MarshalInstance, PartialTilesAndOffsets) {
  REQUIRE_CL();
  auto small = with_budget(std::size_t(1) << 10, Cycles::Rounds);
  auto& dflt = *ClEnv::get().marshaler;
  const dl::Record recs[] = {
      mixed(),
      dl::Record::uniform("f9", Scalar::Float, 9),
      dl::Record::make("bytes", {{"a", Scalar::Char}, {"b", Scalar::Char, 2}, {"c", Scalar::Char}}),
      dl::Record::make("packed", {{"c", Scalar::Char}, {"s", Scalar::Short}, {"x", Scalar::Char}},
                       true),
      dl::Record::make("wide", {{"v", Scalar::Double, 2}, {"l", Scalar::Long, 1, 3}}),
  };
  std::uint32_t seed = 5000;
  for (const auto& rec : recs)
    for (std::uint32_t T : {16u, 64u, 96u, 128u})
      for (std::size_t m : {std::size_t(0), std::size_t(1), std::size_t(T - 1), std::size_t(61)}) {
        if (m >= T) continue;
        const std::size_t n = 3 * T + m;
        for (std::size_t off : {std::size_t(0), std::size_t(rec.unit())}) {
          check_both(dflt, rec, n, T, seed += 2, off);
          if (HasFatalFailure()) return;
        }
        check_both(*small, rec, n, T, seed += 2);
        if (HasFatalFailure()) return;
      }
}

TEST(MarshalInstance, AosDaAndManyInstances) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const dl::Record rec = mixed();
  std::uint32_t seed = 9000;
  // One instance of n records (DA).
  for (std::size_t n : {std::size_t(200), std::size_t(257)}) {
    dltest::check_pair(m, rec, n, Layout::aos(), Layout::da(), Algorithm::PttwacInstance, seed++);
    dltest::check_pair(m, rec, n, Layout::da(), Layout::aos(), Algorithm::PttwacInstance, seed++);
  }
  // Many small instances: several per work-group, grid-stride over instance groups.
  const auto f2 = dl::Record::uniform("f2", Scalar::Float, 2);
  for (std::uint32_t T : {16u, 64u}) check_both(m, f2, std::size_t(40000) * T + 7, T, seed += 2);
}

// The planes of a 3-D array (records of 64 floats, T = 1024: a 256 KiB tile, past a GPU's
// local memory) take the cycle table: its bytes are the plan's extra memory; both ways
// are bit-exact.
TEST(MarshalInstance, CycleTableForLargeTiles) {
  REQUIRE_CL();
  const auto row = dl::Record::uniform("row64", Scalar::Float, 64);
  auto table = with_budget(0, Cycles::Auto);
  auto rounds = with_budget(0, Cycles::Rounds);
  const std::size_t n = 3 * 1024 + 100;
  const auto a = Algorithm::PttwacInstance;
  const dl::Plan p = table->plan(row, n, Layout::aos(), Layout::asta(1024), a);
  ASSERT_TRUE(p.ok) << p.reason;
  EXPECT_GT(p.extra_bytes, 0u);
  EXPECT_EQ(rounds->plan(row, n, Layout::aos(), Layout::asta(1024), a).extra_bytes, 0u);
  check_both(*table, row, n, 1024, 77);
  check_both(*rounds, row, n, 1024, 79);
  // Auto keeps rounds for short cycles: power-of-two records, small instances.
  const auto f2 = dl::Record::uniform("f2", Scalar::Float, 2);
  EXPECT_EQ(table->plan(f2, 4096, Layout::aos(), Layout::asta(16), a).extra_bytes, 0u);
  const auto f9 = dl::Record::uniform("f9", Scalar::Float, 9);
  EXPECT_GT(table->plan(f9, 4096, Layout::aos(), Layout::asta(16), a).extra_bytes, 0u);
}

}  // namespace
