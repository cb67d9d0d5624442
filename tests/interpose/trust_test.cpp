// Regression tests of DL's one promise (the application sees exactly the bytes it would
// see without DL): one scenario per way DL once broke it, in the three load modes.
#include <regex>

#include "run_app.hpp"

namespace {

class Trust : public ::testing::TestWithParam<std::string> {
 protected:
  /// Runs `scenario` under `env`: the native bytes, and kernel `name`'s counters `want`
  /// in DL's report.
  void expect_kernel(const std::string& scenario, const std::string& env, const char* name,
                     std::initializer_list<std::pair<const char*, int>> want) {
    Result r = run(scenario, GetParam(), env);
    expect_same(scenario, r);
    const auto* k = kernel(r, name);
    ASSERT_NE(k, nullptr) << r.log;
    for (const auto& [key, value] : want) EXPECT_EQ((*k)[key], value) << key << "\n" << r.log;
  }
  /// Runs `scenario` under `env` where DL makes no layout copy: the native bytes, no
  /// copies, and `reason` in the log.
  void expect_no_copies(const std::string& scenario, const std::string& env,
                        const std::string& reason) {
    Result r = run(scenario, GetParam(), env);
    expect_same(scenario, r);
    EXPECT_EQ(total(r, "host_copies"), 0u) << r.log;
    EXPECT_NE(r.log.find(reason), std::string::npos) << r.log;
  }
};

TEST_P(Trust, ConditionalParametersBindByTheCompilersView) {
  Result r = run("conditional_parameters", GetParam());
  expect_same("conditional_parameters", r);
  EXPECT_EQ(total(r, "transformed_launches"), 6u) << r.log;
}

TEST_P(Trust, NSmallerThanTheRangeTheKernelTouches) {
  Result r = run("n_smaller_than_range", GetParam());
  expect_same("n_smaller_than_range", r);
  EXPECT_EQ(total(r, "transformed_launches"), 8u) << r.log;  // n = 0 runs untransformed
  EXPECT_EQ(total(r, "fallbacks"), 2u);
}

TEST_P(Trust, DimensionOverflowFallsBack) {
  Result r = run("dimension_overflow", GetParam());
  expect_same("dimension_overflow", r);
  EXPECT_EQ(total(r, "transformed_launches"), 1u) << r.log;
  EXPECT_EQ(total(r, "fallbacks"), 3u);
}

TEST_P(Trust, FailedUserEvent) {
  Result r = run("failed_user_event", GetParam());
  expect_same("failed_user_event", r);
  EXPECT_GE(total(r, "transformed_launches"), 3u) << r.log;
}

TEST_P(Trust, SharedConstBufferAcrossThreadsAndQueues) {
  Result r = run("shared_const_threads", GetParam());
  expect_same("shared_const_threads", r);
  EXPECT_GT(total(r, "transformed_launches"), 0u) << r.log;
}

TEST_P(Trust, SharedHostVisibleBufferAcrossThreadsAndQueues) {
  Result r = run("shared_host_threads", GetParam());
  expect_same("shared_host_threads", r);
  const auto* k = kernel(r, "weigh");
  ASSERT_NE(k, nullptr) << r.log;
  EXPECT_EQ((*k)["host_copies"], 144) << r.log;  // 6 threads x 12 launches x 2 rounds
  Result kept = run("shared_host_threads", GetParam(), "DL_HOST_PTR=keep");
  expect_same("shared_host_threads", kept);
  k = kernel(kept, "weigh");
  ASSERT_NE(k, nullptr) << kept.log;
  EXPECT_EQ((*k)["transformed_launches"], 144) << kept.log;
  EXPECT_GT((*k)["host_copies_reused"], 0) << kept.log;
}

TEST_P(Trust, SharedReadOnlyCopyAcrossThreadsAndQueues) {
  Result r = run("shared_readonly_threads", GetParam());
  expect_same("shared_readonly_threads", r);
  const auto* k = kernel(r, "weigh_da");
  ASSERT_NE(k, nullptr) << r.log;
  EXPECT_EQ((*k)["transformed_launches"], 144) << r.log;  // 6 threads x 12 launches x 2 rounds
  EXPECT_GE((*k)["host_copies"], 1) << r.log;
  EXPECT_GT((*k)["host_copies_reused"], 0) << r.log;
}

TEST_P(Trust, HostVisibleMemoryStaysAoS) {
  Result r = run("host_visible_memory", GetParam());
  expect_same("host_visible_memory", r);
}

TEST_P(Trust, HostVisibleConstArgumentsReadCopies) {
  Result r = run("host_visible_const", GetParam());
  expect_same("host_visible_const", r);
  // weigh 4, weigh_da 2, weigh2 3 (one copy for both arguments in the last), row_sums 2.
  EXPECT_EQ(total(r, "host_copies"), 11u) << r.log;
  EXPECT_EQ(total(r, "transformed_launches"), 11u) << r.log;
  EXPECT_EQ(total(r, "fallbacks"), 1u) << r.log;  // advance writes it
  EXPECT_NE(r.log.find("not annotated const"), std::string::npos) << r.log;
  // A copy that cannot be allocated: the original kernels, the same bytes.
  expect_no_copies("host_visible_const", "DL_FAULT=alloc", "its copy in ASTA");
  // A copy past DL_COPY_BUDGET is not made either.
  expect_no_copies("host_visible_const", "DL_COPY_BUDGET=1000", "past DL_COPY_BUDGET (1000 bytes)");
}

TEST_P(Trust, HostVisibleCopiesKeptUntilACommandWrites) {
  // 9 launches of weigh: a copy made at every launch by default; under DL_HOST_PTR=keep
  // made at the first, read again right after a launch (twice), made again after each of
  // the map, write, fill, copy, kernel and sub-buffer kernel.
  expect_kernel("host_visible_commands", "", "weigh",
                {{"host_copies", 9}, {"host_copies_reused", 0}});
  expect_kernel("host_visible_commands", "DL_HOST_PTR=keep", "weigh",
                {{"host_copies", 7}, {"host_copies_reused", 2}, {"transformed_launches", 9}});
}

TEST_P(Trust, ReadOnlyBufferCopiesKeptUntilACommandWrites) {
  // 10 launches of weigh_da on an ordinary buffer whose conversion in place to DA takes
  // two steps: a layout copy made at the first launch, read again after the launch and
  // the host read (twice), made again after each of the map, write, fill, copy and
  // sub-buffer kernel (6 in all); after the kernel that writes the buffer (converting it
  // in place), the last two launches read it in place.
  expect_kernel("read_only_commands", "", "weigh_da",
                {{"transformed_launches", 10}, {"host_copies", 6}, {"host_copies_reused", 2}});
  // In place (DL_LAYOUT_COPY=never): the same bytes, no copies.
  expect_kernel("read_only_commands", "DL_LAYOUT_COPY=never", "weigh_da",
                {{"host_copies", 0}, {"transformed_launches", 10}});
  // A copy that cannot be allocated: the application's kernel, the same bytes.
  expect_no_copies("read_only_commands", "DL_FAULT=alloc", "(read only): its copy in DA");
}

TEST_P(Trust, LayoutCopiesKeepToTheirBudget) {
  // By default a copy for each of the 5 launches but the third (a's, read again).
  expect_kernel("read_only_budget", "", "weigh_da",
                {{"transformed_launches", 5}, {"host_copies", 4}, {"copies_freed", 0}});
  // Room for one copy: a's, read again; b in place; x's in the room of a's stale copy;
  // then a in place.
  expect_kernel("read_only_budget", "DL_COPY_BUDGET=60000", "weigh_da",
                {{"transformed_launches", 5},
                 {"host_copies", 2},
                 {"host_copies_reused", 1},
                 {"copies_freed", 1}});
  // Room for none: every launch converts in place.
  expect_kernel("read_only_budget", "DL_COPY_BUDGET=1000", "weigh_da",
                {{"transformed_launches", 5}, {"host_copies", 0}});
  // One launch, two read-only arguments: both copied by default; with room for one, the
  // first argument's copy is made (and read again), the second converts in place.
  expect_kernel("read_only_budget_pair", "", "weigh2_da",
                {{"transformed_launches", 2}, {"host_copies", 2}, {"host_copies_reused", 2}});
  expect_kernel("read_only_budget_pair", "DL_COPY_BUDGET=60000", "weigh2_da",
                {{"transformed_launches", 2},
                 {"fallbacks", 0},
                 {"host_copies", 1},
                 {"host_copies_reused", 1}});
}

TEST_P(Trust, OverlappingConstArguments) {
  Result r = run("overlapping_const_arguments", GetParam());
  expect_same("overlapping_const_arguments", r);
  EXPECT_EQ(total(r, "fallbacks"), 3u) << r.log;
}

TEST_P(Trust, AliasesThroughSubBuffers) {
  Result r = run("aliases_through_subbuffers", GetParam());
  expect_same("aliases_through_subbuffers", r);
  EXPECT_EQ(total(r, "fallbacks"), 2u) << r.log;
}

TEST_P(Trust, StagedBufferBoundToTheWrittenOne) {
  Result r = run("staged_alias", GetParam());
  expect_same("staged_alias", r);
  EXPECT_EQ(total(r, "transformed_launches"), 1u) << r.log;
  EXPECT_EQ(total(r, "fallbacks"), 1u) << r.log;
}

TEST_P(Trust, ProgramBinariesAreTheApplications) {
  Result r = run("program_binaries", GetParam());
  expect_same("program_binaries", r);
  EXPECT_EQ(total(r, "transformed_launches"), 1u) << r.log;
}

TEST_P(Trust, FailedRebuildKeepsTracking) {
  Result r = run("failed_rebuild", GetParam());
  expect_same("failed_rebuild", r);
  EXPECT_EQ(total(r, "transformed_launches"), 2u) << r.log;
}

TEST_P(Trust, OpenReadMapIsNotConverted) {
  Result r = run("read_map_open", GetParam());
  expect_same("read_map_open", r);
}

TEST_P(Trust, OpenReadMapIsNotConvertedForAnotherRecordLength) {
  Result r = run("read_map_record_change", GetParam());
  expect_same("read_map_record_change", r);
}

TEST_P(Trust, ImageOverAConvertedBuffer) {
  Result r = run("image_over_buffer", GetParam());
  expect_same("image_over_buffer", r);
}

INSTANTIATE_TEST_SUITE_P(Modes, Trust, ::testing::Values("preload", "layer", "both"));

/// Resident memory growth (KiB) the churn scenario printed.
long growth(const Result& r) {
  std::smatch m;
  if (!std::regex_search(r.log, m, std::regex("rss growth (-?[0-9]+) KiB"))) return 1L << 40;
  return std::stol(m[1]);
}

#if defined(__SANITIZE_ADDRESS__)  // GCC
#define DL_TEST_ASAN 1
#elif defined(__has_feature)  // Clang
#if __has_feature(address_sanitizer)
#define DL_TEST_ASAN 1
#endif
#endif

/// Under AddressSanitizer freed memory waits in a quarantine (256 MB) before reuse, which
/// resident memory would count as growth: the churn runs without it there.
std::string churn_env() {
#if defined(DL_TEST_ASAN)
  return "ASAN_OPTIONS=\"$ASAN_OPTIONS:quarantine_size_mb=0:thread_local_quarantine_size_kb=0\"";
#else
  return "";
#endif
}

TEST(Trust, StateOfReleasedObjectsIsFreed) {
  const Result n = native("churn");
  Result r = run("churn", "preload", churn_env());
  expect_same("churn", r);
  EXPECT_EQ(total(r, "transformed_launches"), 5000u);
  // 4000 cycles: 25 MB grew under DL at 640 bytes per buffer before.
  EXPECT_LT(growth(r), growth(n) + 512) << r.log << n.log;
}

TEST(Trust, TraceIsStreamedNotHeld) {
  const std::string trace = kTmp + "/churn_trace_" + std::to_string(getpid()) + ".json";
  const Result n = native("churn");
  Result r = run("churn", "preload", churn_env() + " DL_TRACE='" + trace + "'");
  expect_same("churn", r);
  EXPECT_LT(growth(r), growth(n) + 512) << r.log << n.log;
  auto t = nlohmann::json::parse(slurp(trace), nullptr, false);
  ASSERT_TRUE(t.is_object());
  EXPECT_GE(t["traceEvents"].size(), 10000u);  // a kernel and two marshals per cycle
}

TEST(Trust, DlRunWritesItsReport) {
  const std::string out = kTmp + "/dl_run_" + std::to_string(getpid());
  const std::string cmd = "env DL_POLICY=always DL_TEST_KERNELS='" + kKernels +
                          "' '" DL_RUN "' --report '" + out + ".json' -- '" + kApp + "' basic '" +
                          out + ".bin' > '" + out + ".log' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(out + ".log");
  Result r;
  r.log = slurp(out + ".log");
  r.output = slurp(out + ".bin");
  r.report = nlohmann::json::parse(slurp(out + ".json"), nullptr, false);
  EXPECT_TRUE(r.output == native("basic").output);
  EXPECT_EQ(total(r, "transformed_launches"), 5u) << r.log;
  EXPECT_EQ(total(r, "marshals"), 2u);
}

TEST(Trust, DlRunKeepsHostCopiesWhenAsked) {
  // dl-run --host-ptr keep sets DL_HOST_PTR (HostVisibleCopiesKeptUntilACommandWrites).
  const std::string out = kTmp + "/dl_run_host_" + std::to_string(getpid());
  const std::string cmd = "env DL_POLICY=always DL_TEST_KERNELS='" + kKernels +
                          "' '" DL_RUN "' --host-ptr keep --report '" + out + ".json' -- '" + kApp +
                          "' host_visible_commands '" + out + ".bin' > '" + out + ".log' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(out + ".log");
  Result r;
  r.log = slurp(out + ".log");
  r.output = slurp(out + ".bin");
  r.report = nlohmann::json::parse(slurp(out + ".json"), nullptr, false);
  EXPECT_TRUE(r.output == native("host_visible_commands").output);
  const auto* k = kernel(r, "weigh");
  ASSERT_NE(k, nullptr) << r.log;
  EXPECT_EQ((*k)["host_copies_reused"], 2) << r.log;
  for (const char* ext : {".json", ".bin", ".log"}) std::remove((out + ext).c_str());
}

TEST(Trust, ForkedChildLeavesTheOutputsToTheParent) {
  const std::string trace = kTmp + "/fork_trace_" + std::to_string(getpid()) + ".json";
  Result r = run("forked_child", "preload", "DL_SUMMARY=1 DL_TRACE='" + trace + "'");
  expect_same("forked_child", r);
  EXPECT_EQ(total(r, "transformed_launches"), 2u);
  std::size_t summaries = 0;
  for (std::size_t at = r.log.find("[dl] summary:"); at != std::string::npos;
       at = r.log.find("[dl] summary:", at + 1))
    ++summaries;
  EXPECT_EQ(summaries, 1u) << r.log;
  EXPECT_TRUE(nlohmann::json::parse(slurp(trace), nullptr, false).is_object()) << slurp(trace);
}

TEST(Trust, SummaryAloneIsPrinted) {
  const std::string out = kTmp + "/summary_" + std::to_string(getpid());
  const std::string cmd = "env DL_POLICY=always DL_TEST_KERNELS='" + kKernels +
                          "' DL_SUMMARY=1 LD_PRELOAD='" + kLib + "' '" + kApp + "' basic '" + out +
                          ".bin' > '" + out + ".log' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string log = slurp(out + ".log");
  EXPECT_NE(log.find("[dl] summary: 5 kernel launches (5 transformed"), std::string::npos) << log;
  // The same through dl-run.
  const std::string cmd2 = "env DL_POLICY=always DL_TEST_KERNELS='" + kKernels +
                           "' '" DL_RUN "' --summary -- '" + kApp + "' basic '" + out +
                           ".bin' > '" + out + ".log2' 2>&1";
  ASSERT_EQ(std::system(cmd2.c_str()), 0);
  const std::string log2 = slurp(out + ".log2");
  EXPECT_NE(log2.find("[dl] summary: 5 kernel launches (5 transformed"), std::string::npos) << log2;
}

}  // namespace
