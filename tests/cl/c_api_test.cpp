// The C API: handles, layout/algorithm text, errors through dlLastError(), no exception
// escaping, and a conversion driven from C (c_api_smoke.c).
#include "dl/dl.h"

#include "cl_env.hpp"

extern "C" cl_int dl_c_round_trip(cl_context ctx, cl_device_id dev, cl_command_queue q, cl_mem buf,
                                  const char* desc, size_t n);

namespace {

using dltest::ClEnv;
const char* kDesc = "pt 12 4 float:x@0 float:y@4 int:id@8";

TEST(CApi, RecordParsing) {
  dl_record r = dlRecordCreate(kDesc);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(dlRecordSize(r), 12u);
  dlRecordRelease(r);
  EXPECT_EQ(dlRecordCreate("pt 12 4 flot:x@0"), nullptr);
  EXPECT_NE(std::string(dlLastError()).find("flot"), std::string::npos) << dlLastError();
  EXPECT_EQ(dlRecordCreate(nullptr), nullptr);
}

TEST(CApi, MarshalMatchesOracle) {
  auto& env = ClEnv::get();
  if (!env.ok()) GTEST_SKIP();
  dl_record rec = dlRecordCreate(kDesc);
  dl_marshaler m = dlMarshalerCreate(env.context, env.device);
  ASSERT_NE(m, nullptr);
  EXPECT_GT(dlPreferredTile(m), 0u);
  const std::size_t n = 1001;
  auto in = dltest::random_bytes(n * 12, 11);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  cl_event done = nullptr;
  ASSERT_EQ(
      dlEnqueueMarshal(m, env.queue, buf.mem, 0, rec, n, "AoS", "DA", "auto", 0, nullptr, &done),
      CL_SUCCESS)
      << dlLastError();
  clWaitForEvents(1, &done);
  clReleaseEvent(done);
  std::vector<unsigned char> want(in.size());
  dl::convert(dl::Record::parse(kDesc), n, dl::Layout::aos(), in.data(), dl::Layout::da(),
              want.data());
  EXPECT_TRUE(buf.read() == want);

  size_t extra = 0, moved = 0;
  EXPECT_EQ(dlPlanMarshal(m, rec, n, "DA", "ASTA(32)", "segmented", &extra, &moved), CL_SUCCESS);
  EXPECT_GT(moved, 0u);
  EXPECT_EQ(dlPlanMarshal(m, rec, n, "AoS", "ASTA(32)", "pipt", &extra, &moved),
            CL_INVALID_OPERATION);
  EXPECT_NE(std::string(dlLastError()).find("pipt"), std::string::npos) << dlLastError();

  // Bad text: an error code and a reason, nothing enqueued, buffer untouched.
  EXPECT_EQ(dlEnqueueMarshal(m, env.queue, buf.mem, 0, rec, n, "DA", "ASTA(x)", nullptr, 0, nullptr,
                             nullptr),
            CL_INVALID_VALUE);
  EXPECT_NE(std::string(dlLastError()).find("ASTA(x)"), std::string::npos) << dlLastError();
  EXPECT_EQ(dlEnqueueMarshal(m, env.queue, buf.mem, 0, rec, n, "DA", "AoS", "fastest", 0, nullptr,
                             nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(dlEnqueueMarshal(m, env.queue, buf.mem, 0, rec, n * 2, "DA", "AoS", nullptr, 0, nullptr,
                             nullptr),
            CL_INVALID_VALUE);
  clFinish(env.queue);
  EXPECT_TRUE(buf.read() == want);
  dlMarshalerRelease(m);
  dlRecordRelease(rec);
}

TEST(CApi, UsableFromC) {
  auto& env = ClEnv::get();
  if (!env.ok()) GTEST_SKIP();
  const std::size_t n = 37;
  auto in = dltest::random_bytes(n * 12, 12);
  dltest::DeviceBuffer buf(in.size());
  buf.write(in);
  ASSERT_EQ(dl_c_round_trip(env.context, env.device, env.queue, buf.mem, kDesc, n), CL_SUCCESS)
      << dlLastError();
  EXPECT_TRUE(buf.read() == in);
}

}  // namespace
