// Marshaler on a real OpenCL device: barrier-sync AoS <-> ASTA(T) (partial last tile
// included), the out-of-place reference for every pair, AoS <-> DA, buffer offsets,
// and the dispatch table.
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
      dl::Record::uniform("d1", Scalar::Double, 1),
      dl::Record::uniform("f32", Scalar::Float, 32),  // swizzled local memory (8 vectors)
      dl::Record::uniform("f8", Scalar::Float, 8),    // swizzled (2 vectors)
      dl::Record::uniform("d12", Scalar::Double, 12),
  };
}

TEST(MarshalBasic, LoaderDispatchIsFilled) {
  const cl_icd_dispatch& d = dl::loader_dispatch();
  EXPECT_EQ(d.clEnqueueNDRangeKernel, &clEnqueueNDRangeKernel);
  EXPECT_EQ(d.clCreateBuffer, &clCreateBuffer);
  EXPECT_EQ(d.clSetKernelArg, &clSetKernelArg);
}

TEST(MarshalBasic, BarrierSyncAosAsta) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 1;
  for (const auto& rec : records())
    for (std::uint32_t T : {1u, 2u, 4u, 16u, 32u, 128u})
      for (std::size_t n : {std::size_t(1), std::size_t(T - 1 ? T - 1 : 1), std::size_t(T),
                            std::size_t(3 * T + 1), std::size_t(40 * T + T - 1)}) {
        auto p = m.plan(rec, n, Layout::aos(), Layout::asta(T));
        ASSERT_TRUE(p.ok) << p.reason;
        if (!p.steps.empty() && n > T) {
          EXPECT_EQ(p.steps[0].algorithm, Algorithm::BarrierSync);
        }
        dltest::check_pair(m, rec, n, Layout::aos(), Layout::asta(T), Algorithm::Auto, seed++);
      }
}

TEST(MarshalBasic, ForcedBarrierSyncWithOffset) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  auto rec = records()[2];
  for (std::size_t off : {std::size_t(0), std::size_t(4), std::size_t(36)})
    dltest::check_pair(m, rec, 97, Layout::aos(), Layout::asta(16), Algorithm::BarrierSync, 7, off);
}

TEST(MarshalBasic, OutOfPlaceEveryPair) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const std::vector<Layout> ls = {Layout::aos(), Layout::da(), Layout::asta(4), Layout::asta(32)};
  std::uint32_t seed = 100;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(129)})
      for (const auto& a : ls)
        for (const auto& b : ls) {
          if (a == b) continue;
          dltest::check_pair(m, rec, n, a, b, Algorithm::OutOfPlace, seed++);
        }
}

// The out-of-place AoS <-> DA transpose moves 16-byte vectors on the DA side where every
// slot is one unit and the runs are vector-aligned (n, the block and the base multiples
// of the units per vector), one unit at a time elsewhere: both, with several blocks and
// a partial last block, units of 1, 2, 4 and 8 bytes, aligned and misaligned bases.
TEST(MarshalBasic, OutOfPlaceTransposeVectorRuns) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const std::vector<dl::Record> recs = {
      dl::Record::uniform("f2", Scalar::Float, 2),   dl::Record::uniform("f5", Scalar::Float, 5),
      dl::Record::uniform("f32", Scalar::Float, 32), dl::Record::uniform("d3", Scalar::Double, 3),
      dl::Record::uniform("c7", Scalar::Char, 7),    dl::Record::uniform("s4", Scalar::Short, 4)};
  std::uint32_t seed = 900;
  for (const auto& rec : recs)
    for (std::size_t n : {std::size_t(16), std::size_t(4144), std::size_t(4146)})
      for (std::size_t off : {std::size_t(0), rec.unit(), std::size_t(16)})
        dltest::check_pair(m, rec, n, Layout::aos(), Layout::da(), Algorithm::OutOfPlace, seed++,
                           off);
}

TEST(MarshalBasic, AosDaSmall) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 500;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(2), std::size_t(31), std::size_t(200)})
      dltest::check_pair(m, rec, n, Layout::aos(), Layout::da(), Algorithm::Auto, seed++);
}

TEST(MarshalBasic, SameMapEnqueuesNothing) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  auto rec = records()[0];
  auto p = m.plan(rec, 10, Layout::asta(16), Layout::da());
  EXPECT_TRUE(p.ok);
  EXPECT_TRUE(p.steps.empty());
  auto in = dltest::random_bytes(10 * rec.size(), 3);
  dl::MarshalResult r;
  auto got =
      dltest::run_on_device(m, rec, 10, Layout::asta(16), Layout::da(), in, Algorithm::Auto, 0, &r);
  EXPECT_EQ(r.kernels, 0u);
  EXPECT_TRUE(got == in);
}

TEST(MarshalBasic, RefusedShapeLeavesBufferUntouched) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  auto rec = records()[0];
  auto p = m.plan(rec, 100, Layout::aos(), Layout::asta(16), Algorithm::Pipt);
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.reason.empty());
  auto& env = ClEnv::get();
  auto in = dltest::random_bytes(100 * rec.size(), 4);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  auto r =
      m.enqueue(env.queue, buf.mem, 0, rec, 100, Layout::aos(), Layout::asta(16), Algorithm::Pipt);
  EXPECT_NE(r.status, CL_SUCCESS);
  EXPECT_FALSE(r.error.empty());
  clFinish(env.queue);
  EXPECT_TRUE(buf.read() == in);
}

TEST(MarshalBasic, AllocationFailureLeavesBufferUntouched) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions opt;
  opt.scratch_padding = std::size_t(1) << 62;
  dl::Marshaler m(env.context, env.device, nullptr, opt);
  auto rec = records()[1];
  auto in = dltest::random_bytes(64 * rec.size(), 5);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  auto r =
      m.enqueue(env.queue, buf.mem, 0, rec, 64, Layout::aos(), Layout::da(), Algorithm::OutOfPlace);
  EXPECT_NE(r.status, CL_SUCCESS);
  EXPECT_EQ(r.kernels, 0u);
  clFinish(env.queue);
  EXPECT_TRUE(buf.read() == in);
}

}  // namespace

namespace {

TEST(MarshalBasic, EnqueueCopyEveryPair) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  const std::vector<Layout> ls = {Layout::aos(), Layout::da(), Layout::asta(8)};
  std::uint32_t seed = 900;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(1), std::size_t(300), std::size_t(1000)})
      for (const auto& a : ls)
        for (const auto& b : ls) {
          const auto in = dltest::random_bytes(n * rec.size(), seed++);
          std::vector<unsigned char> want(in.size());
          dl::convert(rec, n, a, in.data(), b, want.data());
          const std::size_t soff = 16, doff = 32;
          dltest::DeviceBuffer src(soff + in.size()), dst(doff + in.size() + 16);
          auto sinit = dltest::random_bytes(src.size, 1);
          std::copy(in.begin(), in.end(), sinit.begin() + soff);
          src.write(sinit);
          auto dinit = dltest::random_bytes(dst.size, 2);
          dst.write(dinit);
          auto r = m.enqueue_copy(env.queue, src.mem, soff, dst.mem, doff, rec, n, a, b);
          ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
          clFinish(env.queue);
          auto got = dst.read();
          ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + doff))
              << rec.describe() << " n=" << n << " " << a.str() << " -> " << b.str();
          ASSERT_TRUE(std::equal(dinit.begin(), dinit.begin() + doff, got.begin()));
          ASSERT_TRUE(std::equal(dinit.begin() + doff + in.size(), dinit.end(),
                                 got.begin() + doff + in.size()));
          ASSERT_TRUE(src.read() == sinit);
        }
}

// A buffer written in parts, each scattered into its DA (or AoS) places, equals the
// whole array converted at once: parts of odd sizes, in a shuffled order, at offsets
// that keep or break the 16-byte vector paths; bytes outside the array stay.
TEST(MarshalBasic, EnqueueCopyPartBuildsTheWholeArray) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = *env.marshaler;
  std::uint32_t seed = 950;
  for (const auto& rec : records())
    for (std::size_t n : {std::size_t(1), std::size_t(333), std::size_t(4096)})
      for (const Layout& to : {Layout::da(), Layout::aos()})
        for (std::size_t soff : {std::size_t(0), std::size_t(8)}) {
          const auto in = dltest::random_bytes(n * rec.size(), seed++);
          std::vector<unsigned char> want(in.size());
          dl::convert(rec, n, Layout::aos(), in.data(), to, want.data());
          const std::size_t doff = 16;
          dltest::DeviceBuffer src(soff + in.size()), dst(doff + in.size() + 16);
          auto sinit = dltest::random_bytes(src.size, 3);
          std::copy(in.begin(), in.end(), sinit.begin() + soff);
          src.write(sinit);
          auto dinit = dltest::random_bytes(dst.size, 4);
          dst.write(dinit);
          // Parts of 1, 17, 64, 100, ... records, enqueued last part first.
          std::vector<std::pair<std::size_t, std::size_t>> parts;
          for (std::size_t lo = 0, k = 0; lo < n; ++k) {
            const std::size_t len =
                std::min(n - lo, std::vector<std::size_t>{1, 17, 64, 100}[k % 4]);
            parts.emplace_back(lo, len);
            lo += len;
          }
          for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
            // The part's records are where a chunk of an upload would stage them.
            auto r = m.enqueue_copy_part(env.queue, src.mem, soff + it->first * rec.size(), dst.mem,
                                         doff, rec, n, it->first, it->second, to);
            ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
            EXPECT_EQ(r.plan.bytes_moved, 2 * it->second * rec.size());
          }
          clFinish(env.queue);
          auto got = dst.read();
          ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin() + doff))
              << rec.describe() << " n=" << n << " -> " << to.str() << " soff=" << soff;
          ASSERT_TRUE(std::equal(dinit.begin(), dinit.begin() + doff, got.begin()));
          ASSERT_TRUE(std::equal(dinit.begin() + doff + in.size(), dinit.end(),
                                 got.begin() + doff + in.size()));
        }
}

TEST(MarshalBasic, EnqueueCopyPartRefusesWhatItCannotDo) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto rec = records()[0];
  dltest::DeviceBuffer a(100 * rec.size()), b(100 * rec.size());
  auto& m = *env.marshaler;
  // Outside the array, into ASTA, and a part overlapping its own destination.
  auto r = m.enqueue_copy_part(env.queue, a.mem, 0, b.mem, 0, rec, 100, 90, 20, Layout::da());
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  EXPECT_NE(r.error.find("not inside"), std::string::npos) << r.error;
  r = m.enqueue_copy_part(env.queue, a.mem, 0, b.mem, 0, rec, 100, 0, 10, Layout::asta(4));
  EXPECT_EQ(r.status, CL_INVALID_VALUE);
  EXPECT_NE(r.error.find("only from AoS to DA"), std::string::npos) << r.error;
  r = m.enqueue_copy_part(env.queue, a.mem, 0, a.mem, 0, rec, 50, 0, 10, Layout::da());
  EXPECT_EQ(r.status, CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(r.kernels, 0u);
}

// MarshalOptions::first_event: a conversion of several commands on an in-order profiling
// queue returns its first command's event too, which starts no later than the last one
// (the span the report and trace time); one command, or the option off, returns none.
TEST(MarshalBasic, FirstEventOpensTheSpanOfSeveralCommands) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const auto rec = records()[2];
  const std::size_t n = 5000;
  const auto in = dltest::random_bytes(n * rec.size(), 77);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  for (bool on : {true, false}) {
    dl::MarshalOptions o;
    o.first_event = on;
    dl::Marshaler m(env.context, env.device, nullptr, o);
    // AoS -> DA goes through ASTA (two steps); AoS -> ASTA(8) is one kernel.
    for (const Layout& to : {Layout::da(), Layout::asta(8)}) {
      cl_event done = nullptr;
      auto r =
          m.enqueue(q, buf.mem, 0, rec, n, Layout::aos(), to, Algorithm::Auto, 0, nullptr, &done);
      ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
      ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
      const bool several = r.plan.steps.size() > 1 || r.kernels > 1;
      EXPECT_EQ(r.first != nullptr, on && several) << to.str() << " kernels " << r.kernels;
      if (r.first) {
        cl_ulong s0 = 0, s1 = 0, e1 = 0;
        clGetEventProfilingInfo(r.first, CL_PROFILING_COMMAND_START, sizeof s0, &s0, nullptr);
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_START, sizeof s1, &s1, nullptr);
        clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof e1, &e1, nullptr);
        EXPECT_LT(s0, s1);
        EXPECT_LE(s1, e1);
        clReleaseEvent(r.first);
      }
      clReleaseEvent(done);
      r = m.enqueue(q, buf.mem, 0, rec, n, to, Layout::aos());
      ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
      EXPECT_EQ(r.first, nullptr);  // no `done` asked for
    }
  }
  clFinish(q);
  EXPECT_TRUE(buf.read() == in);
  clReleaseCommandQueue(q);
}

TEST(MarshalBasic, EnqueueCopyRefusesOverlap) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto rec = records()[0];
  dltest::DeviceBuffer buf(100 * rec.size());
  auto r = env.marshaler->enqueue_copy(env.queue, buf.mem, 0, buf.mem, 40, rec, 50, Layout::aos(),
                                       Layout::da());
  EXPECT_EQ(r.status, CL_MEM_COPY_OVERLAP);
}

}  // namespace
