// In-place algorithms beyond barrier-sync: PTTWAC inside an ASTA instance, the DA <-> ASTA
// tile transpositions (Segmented, Pttwac, Pipt) with and without a tail, and AoS <-> DA
// by composition.
#include "cl_env.hpp"

namespace {

using dl::Algorithm;
using dl::Layout;
using dl::Scalar;
using dltest::ClEnv;

std::vector<dl::Record> records() {
  return {
      dl::Record::uniform("f5", Scalar::Float, 5),
      dl::Record::make("mix", {{"a", Scalar::Char}, {"b", Scalar::Int}, {"c", Scalar::Double}}),
      dl::Record::make("vec", {{"p", Scalar::Float, 4}, {"m", Scalar::Float}, {"i", Scalar::Int}}),
      dl::Record::make("arr", {{"s", Scalar::Short, 1, 3}, {"l", Scalar::Long}}),
      dl::Record::make("packed", {{"c", Scalar::Char}, {"s", Scalar::Short}, {"x", Scalar::Char}},
                       true),
  };
}

TEST(MarshalInPlace, PttwacInstanceAosAsta) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 1000;
  for (const auto& rec : records())
    for (std::uint32_t T : {2u, 16u, 128u})
      for (std::size_t n : {std::size_t(T), std::size_t(5 * T + 1), std::size_t(7 * T + T - 1)})
        dltest::check_pair(m, rec, n, Layout::aos(), Layout::asta(T), Algorithm::PttwacInstance,
                           seed++);
}

// Tiles larger than local memory: slots of one size go through the temporary, whose
// block transposes move them faster than PttwacInstance (bench/results/h200/oop-blocks.json);
// where the scratch bound leaves no room for a tile, PttwacInstance converts in place.
TEST(MarshalInPlace, LargeTilesOutOfPlaceOrPttwacInstance) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto rec = dl::Record::uniform("big", Scalar::Float, 600);  // 2400-byte records
  const std::uint32_t T = 1024;                               // 2.4 MB tiles > 2 MiB local
  dl::MarshalOptions opt;
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  if (T * rec.size() <= m.limits().local_mem_bytes) GTEST_SKIP() << "device local memory too large";
  auto p = m.plan(rec, 2 * T + 3, Layout::aos(), Layout::asta(T));
  ASSERT_TRUE(p.ok) << p.reason;
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].algorithm, Algorithm::OutOfPlace);
  dltest::check_pair(m, rec, 2 * T + 3, Layout::aos(), Layout::asta(T), Algorithm::Auto, 77);
  if ((T * rec.size() / rec.unit() + 31) / 32 * 4 > m.limits().local_mem_bytes)
    GTEST_SKIP() << "device local memory too small for the done bits of a tile";
  opt.max_extra_bytes = 1 << 20;  // less than a tile
  dl::Marshaler bounded(env.context, env.device, nullptr, opt);
  p = bounded.plan(rec, 2 * T + 3, Layout::aos(), Layout::asta(T));
  ASSERT_TRUE(p.ok) << p.reason;
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].algorithm, Algorithm::PttwacInstance);
  dltest::check_pair(bounded, rec, 2 * T + 3, Layout::aos(), Layout::asta(T), Algorithm::Auto, 78);
}

TEST(MarshalInPlace, DaAstaEveryAlgorithmWithTails) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 2000;
  for (Algorithm a : {Algorithm::Segmented, Algorithm::Pttwac, Algorithm::Pipt})
    for (const auto& rec : records())
      for (std::uint32_t T : {2u, 4u, 32u})
        for (std::size_t n : {std::size_t(3 * T), std::size_t(40 * T), std::size_t(9 * T + 1),
                              std::size_t(21 * T + T - 1)}) {
          auto p = m.plan(rec, n, Layout::da(), Layout::asta(T), a);
          ASSERT_TRUE(p.ok) << p.reason;
          dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), a, seed++);
        }
}

// Pttwac runs work-group size / lanes workers per group in lock step. Few, small groups
// make every worker start many chains (rounds), odd lane counts leave groups that are not
// a power of two, and a buffer smaller than one round leaves workers idle.
TEST(MarshalInPlace, PttwacRoundsOddLanesAndIdleWorkers) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.work_group_size = 64;
  opt.groups_per_cu = 1;
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  std::uint32_t seed = 2500;
  for (const auto& rec : records())
    for (std::uint32_t T : {3u, 4u, 7u, 64u})
      for (std::size_t n : {std::size_t(2 * T), std::size_t(300 * T + 1)})
        for (std::size_t offset : {std::size_t(0), std::size_t(16)})
          dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), Algorithm::Pttwac, seed++,
                             offset);
}

TEST(MarshalInPlace, SegmentedShortSegmentsAndOffsets) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.segment_length = 3;  // many cut segments: exercises the scratch hand-over
  opt.segment_batch = 2;
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  std::uint32_t seed = 3000;
  for (const auto& rec : records())
    for (std::size_t off : {std::size_t(0), std::size_t(8), std::size_t(2)}) {
      if (off % rec.unit()) continue;
      dltest::check_pair(m, rec, 16 * 37 + 5, Layout::da(), Layout::asta(16), Algorithm::Segmented,
                         seed++, off);
    }
}

TEST(MarshalInPlace, AosDaComposed) {
  REQUIRE_CL();
  // The composed route (GPUs take ThreePass for these n by default).
  dl::MarshalOptions o;
  o.three_pass = dl::MarshalOptions::Prefer::Never;
  dl::Marshaler m(ClEnv::get().context, ClEnv::get().device, nullptr, o);
  std::uint32_t seed = 4000;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(9000), std::size_t(8193), std::size_t(9 * 32 * 32 - 1)}) {
      auto p = m.plan(rec, n, Layout::aos(), Layout::da());
      ASSERT_TRUE(p.ok) << p.reason;
      ASSERT_EQ(p.steps.size(), 2u);
      EXPECT_EQ(p.steps[0].algorithm, Algorithm::BarrierSync);
      EXPECT_EQ(p.steps[1].algorithm, Algorithm::Segmented);
      dltest::check_pair(m, rec, n, Layout::aos(), Layout::da(), Algorithm::Auto, seed++);
    }
}

TEST(MarshalInPlace, AstaToAstaThroughAos) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  auto rec = records()[2];
  auto p = m.plan(rec, 1000, Layout::asta(8), Layout::asta(32));
  ASSERT_TRUE(p.ok);
  ASSERT_EQ(p.steps.size(), 2u);
  dltest::check_pair(m, rec, 1000, Layout::asta(8), Layout::asta(32), Algorithm::Auto, 5);
}

TEST(MarshalInPlace, ExtraMemoryWithinBound) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(1) << 16, (std::size_t(1) << 16) + 7}) {
      auto p = m.plan(rec, n, Layout::da(), Layout::asta(32));
      ASSERT_TRUE(p.ok) << p.reason;
      const std::size_t bytes = n * rec.size();
      EXPECT_LE(p.extra_bytes, std::max<std::size_t>(bytes / 50, 64 * 1024))
          << rec.describe() << " n=" << n;
    }
}

}  // namespace
