// ThreePass: AoS <-> DA as column, row, column passes (kernels/transpose3.cl), forced
// and as the planner's choice, and DA <-> ASTA(T) through AoS. Shapes: every gcd case
// (pass 1 skipped or not), prime and odd n, 1- to 16-byte units, the paper's Table 1
// records, offsets; results equal dl::convert and round-trip bit-exactly.
#include "cl_env.hpp"

namespace {

using dl::Algorithm;
using dl::Layout;
using dl::Scalar;
using dltest::ClEnv;

// A marshaler whose planner takes ThreePass where it can, as it does on GPUs (on CPU
// devices such as PoCL's it keeps Segmented by default).
dl::Marshaler& preferring() {
  static std::unique_ptr<dl::Marshaler> m;
  if (!m) {
    dl::MarshalOptions o;
    o.three_pass = dl::MarshalOptions::Prefer::Always;
    m = std::make_unique<dl::Marshaler>(ClEnv::get().context, ClEnv::get().device, nullptr, o);
  }
  return *m;
}

bool uses(const dl::Plan& p, Algorithm a) {
  for (const auto& s : p.steps)
    if (s.algorithm == a) return true;
  return false;
}

TEST(MarshalThreePass, EveryGcdAndUnit) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  std::uint32_t seed = 7000;
  const std::vector<dl::Record> recs = {
      dl::Record::uniform("f6", Scalar::Float, 6),   dl::Record::uniform("f7", Scalar::Float, 7),
      dl::Record::uniform("c9", Scalar::Char, 9),    dl::Record::uniform("s4", Scalar::Short, 4),
      dl::Record::uniform("d3", Scalar::Double, 3),  dl::Record::uniform("v4", Scalar::Float, 8),
      dl::Record::uniform("f40", Scalar::Float, 40), dl::Record::uniform("u2", Scalar::UInt, 2)};
  for (const auto& rec : recs)
    for (std::size_t n : {std::size_t(2), std::size_t(3), std::size_t(12), std::size_t(97),
                          std::size_t(360), std::size_t(1001), std::size_t(4099)}) {
      SCOPED_TRACE(rec.describe() + " n=" + std::to_string(n));
      ASSERT_TRUE(uses(m.plan(rec, n, Layout::da(), Layout::aos(), Algorithm::ThreePass),
                       Algorithm::ThreePass));
      dltest::check_pair(m, rec, n, Layout::da(), Layout::aos(), Algorithm::ThreePass, seed++);
    }
}

// A record of 16-byte units (float4 fields) and one whose unit is a whole 8-byte field.
TEST(MarshalThreePass, WideUnits) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const auto f4 = dl::Record::make("f4", {{"p", Scalar::Float, 4}, {"v", Scalar::Float, 4}});
  const auto l3 =
      dl::Record::make("l3", {{"a", Scalar::Long}, {"b", Scalar::Double}, {"c", Scalar::ULong}});
  std::uint32_t seed = 7100;
  for (std::size_t n : {std::size_t(5), std::size_t(64), std::size_t(777)}) {
    dltest::check_pair(m, f4, n, Layout::aos(), Layout::da(), Algorithm::ThreePass, seed++);
    dltest::check_pair(m, l3, n, Layout::aos(), Layout::da(), Algorithm::ThreePass, seed++);
  }
}

// DA <-> ASTA(T) through AoS, tails included; Auto takes this route for such n.
TEST(MarshalThreePass, DaAstaThroughAos) {
  REQUIRE_CL();
  auto& m = preferring();
  std::uint32_t seed = 7200;
  for (const auto& rec : {dl::Record::uniform("f40", Scalar::Float, 40),
                          dl::Record::uniform("f62", Scalar::Float, 62)})
    for (std::uint32_t T : {16u, 64u})
      for (std::size_t n : {std::size_t(11948), std::size_t(T * 37), std::size_t(T * 5 + 3)}) {
        SCOPED_TRACE(rec.describe() + " T=" + std::to_string(T) + " n=" + std::to_string(n));
        const dl::Plan p = m.plan(rec, n, Layout::da(), Layout::asta(T));
        ASSERT_TRUE(p.ok) << p.reason;
        EXPECT_TRUE(uses(p, Algorithm::ThreePass) || uses(p, Algorithm::BarrierSync));
        EXPECT_EQ(p.extra_bytes, 0u);
        dltest::check_pair(m, rec, n, Layout::da(), Layout::asta(T), Algorithm::Auto, seed++);
        dltest::check_pair(m, rec, n, Layout::asta(T), Layout::da(), Algorithm::ThreePass, seed++);
      }
}

// A buffer offset less aligned than the record's unit: slots become several units, which
// three-pass cannot transpose; Auto plans another route and stays exact.
TEST(MarshalThreePass, OffsetsAndRefusals) {
  REQUIRE_CL();
  auto& m = preferring();
  const auto f7 = dl::Record::uniform("f7", Scalar::Float, 7);
  std::uint32_t seed = 7300;
  dltest::check_pair(m, f7, 1001, Layout::da(), Layout::aos(), Algorithm::ThreePass, seed++, 8);
  dltest::check_pair(m, f7, 1001, Layout::da(), Layout::aos(), Algorithm::Auto, seed++, 2);
  dltest::check_pair(m, f7, 1001, Layout::da(), Layout::asta(16), Algorithm::Auto, seed++, 2);

  // Refused with a reason: mixed slot sizes, AoS <-> ASTA, a row too long for a group.
  const auto mixed = dl::Record::make("mx", {{"a", Scalar::Float}, {"b", Scalar::Double}});
  dl::Plan p = m.plan(mixed, 100, Layout::da(), Layout::aos(), Algorithm::ThreePass);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("one unit"), std::string::npos) << p.reason;
  p = m.plan(f7, 100, Layout::aos(), Layout::asta(16), Algorithm::ThreePass);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("AoS and DA only"), std::string::npos) << p.reason;
  const std::size_t huge = std::size_t(1) << 24;
  p = m.plan(f7, huge, Layout::da(), Layout::asta(16), Algorithm::ThreePass);
  EXPECT_FALSE(p.ok);
  EXPECT_NE(p.reason.find("row of at most"), std::string::npos) << p.reason;
  p = m.plan(f7, huge, Layout::da(), Layout::asta(16));
  ASSERT_TRUE(p.ok);
  EXPECT_FALSE(uses(p, Algorithm::ThreePass));
  // A forced enqueue the plan refuses writes nothing and says why.
  const auto in = dltest::random_bytes(100 * mixed.size(), seed);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  const dl::MarshalResult r = m.enqueue(ClEnv::get().queue, buf.mem, 0, mixed, 100, Layout::da(),
                                        Layout::aos(), Algorithm::ThreePass);
  EXPECT_NE(r.status, CL_SUCCESS);
  EXPECT_FALSE(r.error.empty());
  EXPECT_TRUE(buf.read() == in);
}

// Auto's default: ThreePass on GPUs only; Never keeps it out of Auto, not of a forced plan.
TEST(MarshalThreePass, WhenAutoTakesIt) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const auto f40 = dl::Record::uniform("f40", Scalar::Float, 40);
  const bool gpu = m.limits().gpu;
  EXPECT_EQ(uses(m.plan(f40, 11948, Layout::da(), Layout::asta(16)), Algorithm::ThreePass), gpu);
  EXPECT_EQ(uses(m.plan(f40, 11948, Layout::aos(), Layout::da()), Algorithm::ThreePass), gpu);
  EXPECT_TRUE(
      uses(preferring().plan(f40, 11948, Layout::aos(), Layout::da()), Algorithm::ThreePass));
  dl::MarshalOptions o;
  o.three_pass = dl::MarshalOptions::Prefer::Never;
  dl::Marshaler never(ClEnv::get().context, ClEnv::get().device, nullptr, o);
  EXPECT_FALSE(uses(never.plan(f40, 11948, Layout::da(), Layout::asta(16)), Algorithm::ThreePass));
  EXPECT_TRUE(uses(never.plan(f40, 11948, Layout::da(), Layout::asta(16), Algorithm::ThreePass),
                   Algorithm::ThreePass));
}

// Rows longer than local memory go partly to registers; where the kernel's work-group is
// smaller than the planner assumed (here: work_group_size = 64), Auto plans again
// without three passes and a forced three-pass says why, the buffer untouched.
TEST(MarshalThreePass, RowsInRegistersAndTooLongRows) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  dl::MarshalOptions o;
  o.three_pass = dl::MarshalOptions::Prefer::Always;
  o.tile_local_bytes = 4096;  // 1024 units of a row in local memory, the rest in registers
  dl::Marshaler wide(env.context, env.device, nullptr, o);
  const auto f5 = dl::Record::uniform("f5", Scalar::Float, 5);
  const auto d3 = dl::Record::uniform("d3", Scalar::Double, 3);
  std::uint32_t seed = 7500;
  // Rows a group of 256 work-items holds (any GPU's kernel gets that many).
  for (std::size_t n : {std::size_t(1025), std::size_t(2000), std::size_t(3000)})
    dltest::check_pair(wide, f5, n, Layout::da(), Layout::aos(), Algorithm::ThreePass, seed++);
  for (std::size_t n : {std::size_t(513), std::size_t(1000), std::size_t(1500)})
    dltest::check_pair(wide, d3, n, Layout::da(), Layout::aos(), Algorithm::ThreePass, seed++);
  o.work_group_size = 64;
  dl::Marshaler narrow(env.context, env.device, nullptr, o);
  const std::size_t n = 4000;
  ASSERT_TRUE(uses(narrow.plan(f5, n, Layout::da(), Layout::asta(16)), Algorithm::ThreePass));
  dltest::check_pair(narrow, f5, n, Layout::da(), Layout::asta(16), Algorithm::Auto, seed++);
  const auto in = dltest::random_bytes(n * f5.size(), seed);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  const dl::MarshalResult r = narrow.enqueue(env.queue, buf.mem, 0, f5, n, Layout::da(),
                                             Layout::aos(), Algorithm::ThreePass);
  EXPECT_NE(r.status, CL_SUCCESS);
  EXPECT_NE(r.error.find("work-groups of"), std::string::npos) << r.error;
  EXPECT_TRUE(buf.read() == in);
}

// Bytes moved: two passes when gcd(units, n) = 1, three otherwise.
TEST(MarshalThreePass, PassesCounted) {
  REQUIRE_CL();
  auto& m = *ClEnv::get().marshaler;
  const auto f6 = dl::Record::uniform("f6", Scalar::Float, 6);
  EXPECT_EQ(m.plan(f6, 1001, Layout::da(), Layout::aos(), Algorithm::ThreePass).bytes_moved,
            2 * 2 * 1001 * f6.size());
  EXPECT_EQ(m.plan(f6, 1002, Layout::da(), Layout::aos(), Algorithm::ThreePass).bytes_moved,
            3 * 2 * 1002 * f6.size());
}

}  // namespace

namespace {

// A conversion in which nothing moves (one record; a record of one unit) still orders
// what follows after the caller's wait list: its event completes only after them.
TEST(MarshalThreePass, NothingMovesStillWaits) {
  REQUIRE_CL();
  auto& env = ClEnv::get();
  auto& m = preferring();
  const auto f5 = dl::Record::uniform("f5", Scalar::Float, 5);
  const auto f1 = dl::Record::uniform("f1", Scalar::Float, 1);
  const struct {
    const dl::Record& rec;
    std::size_t n;
  } cases[] = {{f5, 1}, {f1, 100}};
  for (const auto& c : cases) {
    const auto in = dltest::random_bytes(c.n * c.rec.size(), 7400);
    dltest::DeviceBuffer buf(in.size());
    buf.write(in);
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_event done = nullptr;
    const dl::MarshalResult r = m.enqueue(env.queue, buf.mem, 0, c.rec, c.n, Layout::da(),
                                          Layout::aos(), Algorithm::ThreePass, 1, &gate, &done);
    ASSERT_EQ(r.status, CL_SUCCESS) << r.error;
    ASSERT_NE(done, nullptr) << "no event to wait for";
    cl_int st = CL_COMPLETE;
    clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    EXPECT_NE(st, CL_COMPLETE) << "completed before its wait list";
    clSetUserEventStatus(gate, CL_COMPLETE);
    EXPECT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    EXPECT_TRUE(buf.read() == in);
  }
}

}  // namespace
