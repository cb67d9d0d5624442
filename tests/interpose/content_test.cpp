// Content that needs no conversion (docs/runtime.md): a buffer whose bytes are undefined
// given to a kernel that never reads it (`write_only`), and a buffer filled with one byte
// value, change layout without a conversion kernel; everything else converts as before.
// The bytes are compared with the native run every time, in the three load modes.
#include "run_app.hpp"

namespace {

class Content : public ::testing::TestWithParam<std::string> {};

/// A counter of DL's report row of buffer `id` (the buffers a scenario creates are
/// numbered from 1); 0 when the report does not list the buffer.
std::uint64_t row(const Result& r, std::uint64_t id, const char* key) {
  if (!r.report.is_object()) {
    ADD_FAILURE() << "no report:\n" << r.log;
    return ~std::uint64_t(0);
  }
  for (const auto& b : r.report["buffers"])
    if (b["id"] == id) return b.value(key, std::uint64_t(0));
  return 0;
}

TEST_P(Content, WriteOnlyKernelOnUndefinedBytesConvertsNothingThere) {
  Result r = run("write_only_fresh", GetParam(), "DL_LOG_LEVEL=debug");
  expect_same("write_only_fresh", r);
  EXPECT_EQ(total(r, "transformed_launches"), 3u) << r.log;
  EXPECT_EQ(row(r, 1, "state_only"), 1u) << r.report.dump(2);
  EXPECT_EQ(row(r, 1, "to_target"), 0u);
  EXPECT_EQ(row(r, 1, "to_aos"), 1u);  // the read: the kernel wrote ASTA
  EXPECT_EQ(total(r, "state_only"), 1u);
  EXPECT_NE(r.log.find("buffer #1: no conversion to ASTA("), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("content undefined (write_only)"), std::string::npos) << r.log;
}

TEST_P(Content, WriteOnlyKernelOnTheHostsBytesConverts) {
  // The kernel writes fewer records than the annotation names: without the conversion
  // the records it leaves would come back permuted.
  Result r = run("write_only_host_data", GetParam());
  expect_same("write_only_host_data", r);
  EXPECT_EQ(total(r, "transformed_launches"), 2u) << r.log;
  EXPECT_EQ(total(r, "state_only"), 0u) << r.report.dump(2);
  for (std::uint64_t id : {1u, 2u}) {
    EXPECT_EQ(row(r, id, "to_target"), 1u) << id << r.report.dump(2);
    EXPECT_EQ(row(r, id, "to_aos"), 1u) << id;
  }
}

TEST_P(Content, WriteOnlyKernelOnASubBufferOfUndefinedBytes) {
  Result r = run("write_only_subbuffer", GetParam());
  expect_same("write_only_subbuffer", r);
  EXPECT_EQ(total(r, "transformed_launches"), 2u) << r.log;
  EXPECT_EQ(row(r, 2, "state_only"), 1u) << r.report.dump(2);  // the sub-buffer
  EXPECT_EQ(row(r, 2, "to_target"), 0u);
  EXPECT_EQ(row(r, 1, "state_only"), 0u);  // the parent, once its first half was written
  EXPECT_EQ(row(r, 1, "to_target"), 1u);
}

TEST_P(Content, FillsOfOneByteValueNeedNoConversion) {
  Result r = run("uniform_fill", GetParam(), "DL_LOG_LEVEL=debug");
  expect_same("uniform_fill", r);
  // #1 zeros, #2 a 16-byte pattern of one value: no conversion before the kernel.
  for (std::uint64_t id : {1u, 2u}) {
    EXPECT_EQ(row(r, id, "state_only"), 1u) << id << r.report.dump(2);
    EXPECT_EQ(row(r, id, "to_target"), 0u) << id;
    EXPECT_EQ(row(r, id, "to_aos"), 1u) << id;
  }
  // #3 unequal pattern bytes, #4 a write after the fill, #5 a fill of part: converted.
  for (std::uint64_t id : {3u, 4u, 5u}) {
    EXPECT_EQ(row(r, id, "state_only"), 0u) << id << r.report.dump(2);
    EXPECT_EQ(row(r, id, "to_target"), 1u) << id;
  }
  // #6: filled again after the kernel, in ASTA: replaced, then no conversion again.
  EXPECT_EQ(row(r, 6, "state_only"), 2u) << r.report.dump(2);
  EXPECT_EQ(row(r, 6, "to_target"), 0u);
  EXPECT_EQ(row(r, 6, "to_aos"), 1u);
  // #8, a sub-buffer of the filled #7.
  EXPECT_EQ(row(r, 8, "state_only"), 1u) << r.report.dump(2);
  EXPECT_EQ(row(r, 8, "to_target"), 0u);
  EXPECT_NE(r.log.find("content uniform (every byte 0x00)"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("content uniform (every byte 0x3f)"), std::string::npos) << r.log;
}

TEST_P(Content, FillsAcrossQueuesKeepTheOrder) {
  Result r = run("uniform_fill_queues", GetParam());
  expect_same("uniform_fill_queues", r);
  EXPECT_EQ(total(r, "transformed_launches"), 4u) << r.log;
  EXPECT_EQ(row(r, 1, "state_only"), 3u) << r.report.dump(2);
  EXPECT_EQ(row(r, 1, "to_target"), 1u);  // after the partial write
}

INSTANTIATE_TEST_SUITE_P(Modes, Content, ::testing::Values("preload", "layer", "both"));

}  // namespace
