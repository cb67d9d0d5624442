// Runs dl_hook_app natively and under libdl_interpose.so (LD_PRELOAD and OpenCL layer
// modes) as child processes; the bytes the application reads must be identical and the
// run report must show the marshals each hook semantic implies.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <regex>
#include <set>
#include <string_view>

#include "run_app.hpp"

namespace {

class Hooks : public ::testing::TestWithParam<std::string> {};

TEST_P(Hooks, PartialReadsAndWrites) {
  Result r = run("partial", GetParam());
  expect_same("partial", r);
  EXPECT_EQ(total(r, "transformed_launches"), 7u);
  // 7 launches: back to AoS for the partial read, write, rect read, fill and final read,
  // but not for the whole-buffer write (it just resets the layout).
  EXPECT_EQ(total(r, "marshals"), 13u) << r.report.dump(2);
}

TEST_P(Hooks, MapsForReadAndWrite) {
  Result r = run("maps", GetParam());
  expect_same("maps", r);
  EXPECT_EQ(total(r, "marshals"), 6u);
}

TEST_P(Hooks, CopiesBetweenLayouts) {
  Result r = run("copies", GetParam());
  expect_same("copies", r);
  std::set<std::string> conv;
  for (const auto& b : r.report["buffers"])
    for (const auto& c : b["conversions"]) conv.insert(c.get<std::string>());
  EXPECT_TRUE(conv.count("AoS->DA")) << r.report.dump(2);
  EXPECT_TRUE(conv.count("DA->AoS"));
  EXPECT_GE(total(r, "marshals"), 5u);
}

TEST_P(Hooks, SubBuffers) {
  Result r = run("subbuffers", GetParam());
  expect_same("subbuffers", r);
  EXPECT_EQ(total(r, "transformed_launches"), 3u);
}

TEST_P(Hooks, TwoKernelsTwoLayouts) {
  Result r = run("two_layouts", GetParam());
  expect_same("two_layouts", r);
  // ASTA for advance, DA for scale, alternating three times, then AoS for the read.
  EXPECT_EQ(total(r, "marshals"), 7u) << r.report.dump(2);
}

TEST_P(Hooks, ReuseWithoutRemarshal) {
  Result r = run("basic", GetParam());
  expect_same("basic", r);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr) << r.log;
  EXPECT_EQ((*k)["launches"], 5);
  EXPECT_EQ((*k)["transformed_launches"], 5);
  EXPECT_EQ((*k)["marshals"], 1);       // only before the first launch
  EXPECT_EQ(total(r, "marshals"), 2u);  // and once back for the read
}

TEST_P(Hooks, OutOfOrderQueueNonBlockingReads) {
  Result r = run("out_of_order", GetParam());
  expect_same("out_of_order", r);
  EXPECT_EQ(total(r, "transformed_launches"), 3u);
}

// Converting during upload (docs/runtime.md): a whole write of a buffer advance keeps in
// ASTA(4) lands in chunks of 100 records, each converted as it arrives; the application's
// event is a write that completes, on in-order and out-of-order queues, and its bytes
// never change.
TEST_P(Hooks, UploadsConvertAsTheyLand) {
  Result r = run("uploads", GetParam(), "DL_TILE=4 DL_UPLOAD_CHUNK=4800");
  expect_same("uploads", r);
  // Three writes of the 1000 records in ASTA (not the one after the read), one of the
  // buffer with slack bytes.
  EXPECT_EQ(total(r, "uploads"), 4u) << r.report.dump(2);
  std::uint64_t chunks = 0;
  for (const auto& b : r.report["buffers"]) chunks += b.value("upload_chunks", 0u);
  EXPECT_EQ(chunks, 3u * 10 + 10) << r.report.dump(2);
  // Writes not split: the launch after each converts instead.
  Result plain = run("uploads", GetParam(), "DL_TILE=4 DL_UPLOAD_CHUNK=0");
  expect_same("uploads", plain);
  EXPECT_EQ(total(plain, "uploads"), 0u);
  // Each upload takes the place of the launch's conversion after it, except the last
  // one, read back at once: converted as it landed, then back to AoS for the read.
  EXPECT_EQ(total(r, "marshals"), total(plain, "marshals") + 2) << plain.report.dump(2);
}

// Into DA (scale's layout): the chunks, 112 records each (4800 bytes rounded up to a
// multiple of 16 records), land in two staging buffers by turns and are scattered to their DA
// places; the same writes, events and bytes as the ASTA scenario.
TEST_P(Hooks, UploadsIntoDaScatterAsTheyLand) {
  Result r = run("uploads_da", GetParam(), "DL_UPLOAD_CHUNK=4800");
  expect_same("uploads_da", r);
  EXPECT_EQ(total(r, "uploads"), 4u) << r.report.dump(2);
  std::uint64_t chunks = 0;
  for (const auto& b : r.report["buffers"]) chunks += b.value("upload_chunks", 0u);
  EXPECT_EQ(chunks, 3u * 9 + 9) << r.report.dump(2);
  Result plain = run("uploads_da", GetParam(), "DL_UPLOAD_CHUNK=0");
  expect_same("uploads_da", plain);
  EXPECT_EQ(total(plain, "uploads"), 0u);
  EXPECT_EQ(total(r, "marshals"), total(plain, "marshals") + 2) << plain.report.dump(2);
}

// An upload into DA whose scatter fails after its first chunk is written again whole,
// plainly (the scattered chunks overlap the others' AoS places); one whose staging
// buffers cannot be allocated is not split. The bytes never change.
TEST(Uploads, FailedScattersIntoDaFallBack) {
  Result r = run("uploads_da", "preload", "DL_UPLOAD_CHUNK=4800 DL_FAULT=upload");
  expect_same("uploads_da", r);
  EXPECT_EQ(total(r, "uploads"), 0u) << r.report.dump(2);
  EXPECT_NE(r.log.find("stopped at record 112"), std::string::npos) << r.log;
  r = run("uploads_da", "preload", "DL_UPLOAD_CHUNK=4800 DL_FAULT=staging");
  expect_same("uploads_da", r);
  EXPECT_EQ(total(r, "uploads"), 0u) << r.report.dump(2);
}

// A conversion of a split write that fails: the rest is converted in one, or, when that
// fails too, the chunks done go back to AoS; the bytes never change.
TEST(Uploads, FailedChunkConversionsFallBack) {
  Result r = run("uploads", "preload", "DL_TILE=4 DL_UPLOAD_CHUNK=4800 DL_FAULT=upload");
  expect_same("uploads", r);
  EXPECT_EQ(total(r, "uploads"), 4u) << r.report.dump(2);
  EXPECT_NE(r.log.find("stopped at record 100"), std::string::npos) << r.log;
  r = run("uploads", "preload", "DL_TILE=4 DL_UPLOAD_CHUNK=4800 DL_FAULT=upload,upload_rest");
  expect_same("uploads", r);
  EXPECT_EQ(total(r, "uploads"), 0u) << r.report.dump(2);
  EXPECT_NE(r.log.find("could not be converted"), std::string::npos) << r.log;
}

// In-order launches are tracked without events; another queue (and that queue's
// release) must still order the marshal back after them.
TEST_P(Hooks, TwoInOrderQueuesOrderedByEvents) {
  Result r = run("two_queues", GetParam());
  expect_same("two_queues", r);
  EXPECT_EQ(total(r, "transformed_launches"), 4u);
  EXPECT_EQ(total(r, "marshals"), 2u);
}

TEST_P(Hooks, SeveralHostThreads) {
  Result r = run("threads", GetParam());
  expect_same("threads", r);
  EXPECT_EQ(total(r, "transformed_launches"), 16u);
  EXPECT_EQ(total(r, "marshals"), 8u);
}

// The three modes of this test start together on a cold PoCL cache and compile the same
// source with clCompileProgram at once; PoCL's kernel cache is not safe across processes
// (pocl/pocl#1480): one of them failed to build in a fresh CI run, and DL rightly ran it
// untransformed. Each mode gets its own cache.
TEST_P(Hooks, CompileLinkAndCloneKernel) {
  Result r =
      run("linked", GetParam(), "POCL_CACHE_DIR='" + kTmp + "/pocl-linked-" + GetParam() + "'");
  expect_same("linked", r);
  EXPECT_EQ(total(r, "transformed_launches"), 2u) << r.log;
}

TEST_P(Hooks, ApplicationErrorsKeepTheirCodes) {
  Result r = run("errors", GetParam());
  expect_same("errors", r);
}

TEST_P(Hooks, OtherTile) {
  Result r = run("basic", GetParam(), "DL_TILE=16");
  expect_same("basic", r);
  EXPECT_EQ(r.report["buffers"][0]["conversions"][0], "ASTA(16)->AoS");
}

INSTANTIATE_TEST_SUITE_P(Modes, Hooks, ::testing::Values("preload", "layer", "both"));

TEST(Interpose, DlopenApplicationInLayerMode) {
  Result r = run("basic", "layer", "", "--dlopen");
  expect_same("basic", r);
  EXPECT_EQ(total(r, "transformed_launches"), 5u);
}

TEST(Interpose, DlopenApplicationInBothModes) {
  // dl-run's default: the layer sees the dlsym()'d calls, the exports stay out of the way.
  Result r = run("basic", "both", "", "--dlopen");
  expect_same("basic", r);
  EXPECT_EQ(total(r, "transformed_launches"), 5u);
}

TEST(Interpose, DlopenApplicationInPreloadModeIsPassThrough) {
  // Documented: dlsym()'d entry points bypass LD_PRELOAD; the program then runs
  // untransformed, and its results stay right.
  // No call reaches DL, which then writes no report (as in a program the application
  // runs that uses no OpenCL: ChildProcessesLeaveTheOutputsAlone).
  Result r = run("basic", "preload", "", "--dlopen");
  expect_same("basic", r);
  EXPECT_FALSE(r.report.is_object()) << r.report.dump(2);
}

// One context of two devices (PoCL: two pthread devices), one buffer used by kernels on
// both, each launch waiting for the last on the other device's queue: every conversion
// runs on the queue of the launch that needs it, after the other device's last user.
TEST(Interpose, TwoDevicesOneContext) {
  const std::string two = "POCL_DEVICES='pthread pthread'";
  Result native_two = run("two_devices", "native", two);
  if (WIFEXITED(native_two.status) && WEXITSTATUS(native_two.status) == 3)
    GTEST_SKIP() << "the platform shows fewer than two devices: " << native_two.log;
  ASSERT_EQ(native_two.status, 0) << native_two.log;
  for (const char* policy : {"always", "auto"}) {
    Result r = run("two_devices", "both", two + " DL_POLICY=" + policy);
    ASSERT_EQ(r.status, 0) << r.log;
    EXPECT_TRUE(r.output == native_two.output) << policy << ": bytes differ\n" << r.log;
    if (std::string(policy) == "always") {
      EXPECT_EQ(total(r, "transformed_launches"), 4u) << r.report.dump(2);
      EXPECT_GE(total(r, "marshals"), 4u);  // ASTA, DA, ASTA, AoS for the read
    }
  }
  // A layout per device (DL_DEVICES): only device 1's launches convert (advance twice, to
  // ASTA), device 0's keep AoS (advance, then scale), so the buffer goes to ASTA for
  // device 1 and back to AoS before each launch on device 0; every device, or none.
  struct Case {
    const char* devices;
    unsigned transformed, kept;
  };
  auto kept_aos = [](const Result& r) {
    std::uint64_t k = 0;
    if (r.report.is_object())
      for (const auto& x : r.report["kernels"]) k += x.value("kept_aos", std::uint64_t(0));
    return k;
  };
  for (const Case& c : {Case{"1", 2, 2}, Case{"0", 2, 2}, Case{"cpu", 4, 0}, Case{"gpu", 0, 4},
                        Case{"0,1", 4, 0}, Case{"7", 0, 4}}) {
    Result r = run("two_devices", "both", two + " DL_POLICY=always DL_DEVICES=" + c.devices);
    ASSERT_EQ(r.status, 0) << r.log;
    EXPECT_TRUE(r.output == native_two.output) << c.devices << ": bytes differ\n" << r.log;
    EXPECT_EQ(total(r, "transformed_launches"), c.transformed) << c.devices << r.report.dump(2);
    EXPECT_EQ(kept_aos(r), c.kept) << c.devices << r.report.dump(2);
    EXPECT_EQ(total(r, "fallbacks"), 0u) << c.devices << r.report.dump(2);
  }
  // A value DL cannot read converts everywhere, with a warning.
  Result bad = run("two_devices", "both", two + " DL_POLICY=always DL_DEVICES=gpu,1");
  ASSERT_EQ(bad.status, 0) << bad.log;
  EXPECT_TRUE(bad.output == native_two.output) << bad.log;
  EXPECT_EQ(total(bad, "transformed_launches"), 4u) << bad.report.dump(2);
  EXPECT_NE(bad.log.find("DL_DEVICES='gpu,1'"), std::string::npos) << bad.log;
}

TEST(Interpose, DisableIsPassThrough) {
  Result r = run("basic", "preload", "DL_DISABLE=1");
  expect_same("basic", r);
  EXPECT_EQ(r.report["controls"]["DL_DISABLE"], true) << r.report.dump(2);
  EXPECT_EQ(total(r, "kernel_launches"), 0u);  // no hook installed: DL saw nothing
  EXPECT_EQ(total(r, "marshals"), 0u);
}

class Trace : public ::testing::TestWithParam<std::string> {};

// Also with completion callbacks that run after the application's exit began (a loaded
// machine): the commands completed, so the trace holds them all the same.
TEST_P(Trace, IsChromeJson) {
  const std::string trace = kTmp + "/trace_" + std::to_string(getpid()) + ".json";
  Result r = run("two_layouts", "preload", "DL_TRACE='" + trace + "' " + GetParam());
  expect_same("two_layouts", r);
  auto t = nlohmann::json::parse(slurp(trace), nullptr, false);
  ASSERT_TRUE(t.is_object());
  int marshals = 0, kernels = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] != "X") continue;
    EXPECT_GE(e["dur"].get<double>(), 0.0);
    (e["cat"] == "marshal" ? marshals : kernels)++;
  }
  EXPECT_EQ(marshals, 7);
  EXPECT_EQ(kernels, 6);
}
INSTANTIATE_TEST_SUITE_P(Interpose, Trace, ::testing::Values("DL_FAULT=", "DL_FAULT=late_profile"));

// A program the application runs that calls no OpenCL (here a shell; PoCL runs the linker
// the same way) inherits LD_PRELOAD and so loads DL: it must write nothing, or its empty
// trace replaces the one the application is writing.
TEST(Interpose, ChildProcessesLeaveTheOutputsAlone) {
  const std::string trace = kTmp + "/trace_spawn_" + std::to_string(getpid()) + ".json";
  Result r = run("spawn", "preload", "DL_TRACE='" + trace + "'");
  expect_same("spawn", r);
  EXPECT_EQ(total(r, "kernel_launches"), 2u);
  auto t = nlohmann::json::parse(slurp(trace), nullptr, false);
  ASSERT_TRUE(t.is_object()) << slurp(trace).substr(0, 400);
  int kernels = 0;
  for (const auto& e : t["traceEvents"]) kernels += e["ph"] == "X" && e["cat"] != "marshal";
  EXPECT_EQ(kernels, 2);
  std::remove(trace.c_str());
}

// Blocking reads of a single-threaded application reach the implementation blocking,
// after DL's lock (docs/runtime.md, "Blocking transfers"); a second thread that starts
// enqueuing while such reads go on waits for the one in flight, and DL stops taking that
// way. The bytes are the same either way, and with the way off.
TEST(Interpose, SecondThreadAfterBlockingReads) {
  for (const char* env : {"", "DL_DIRECT_BLOCKING=0"}) {
    Result r = run("late_thread", "preload", env);
    expect_same("late_thread", r);
    EXPECT_EQ(total(r, "transformed_launches"), 25u) << env;
  }
  Result r = run("partial", "both", "DL_DIRECT_BLOCKING=0");
  expect_same("partial", r);
}

class Faults : public ::testing::TestWithParam<std::string> {};

TEST_P(Faults, ResultsStayRight) {
  Result r = run("basic", "preload", "DL_FAULT=" + GetParam());
  expect_same("basic", r);
  EXPECT_EQ(total(r, "marshals"), 0u) << r.report.dump(2);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  EXPECT_NE(r.log.find("[dl] [warn"), std::string::npos) << "no warning logged:\n" << r.log;
  // A kernel that falls back at every launch for one reason warns once (the report counts
  // every fallback).
  std::multiset<std::string> warned;
  std::istringstream lines(r.log);
  for (std::string line; std::getline(lines, line);)
    if (line.find("running the untransformed kernel") != std::string::npos) warned.insert(line);
  for (const std::string& w : warned) EXPECT_EQ(warned.count(w), 1u) << w;
  if (GetParam() == "eval") {
    EXPECT_LT(warned.size(), total(r, "fallbacks")) << r.log;
  }
}

INSTANTIATE_TEST_SUITE_P(Forced, Faults,
                         ::testing::Values("build", "alloc", "eval", "program",
                                           "offset32,offset64"));

TEST(Faults, CorruptedAnnotation) {
  std::string src = slurp(kKernels);
  const std::string good = "//DL: AoS: p[n] AOS2ASTA_particle";
  auto at = src.find(good);
  ASSERT_NE(at, std::string::npos);
  src.replace(at, good.size(), "//DL: AoS: p[n AOS2ASTA_particle");
  const std::string path = kTmp + "/corrupted_" + std::to_string(getpid()) + ".cl";
  std::ofstream(path) << src;
  Result n = run("basic", "native", "", "", path);
  Result r = run("basic", "preload", "", "", path);
  ASSERT_EQ(r.status, 0) << r.log;
  EXPECT_TRUE(r.output == n.output);
  EXPECT_TRUE(r.output == native("basic").output);
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_NE(r.log.find("runs untransformed"), std::string::npos) << r.log;
}

/// Runs "basic" natively and under the interposer with the first annotation of the test
/// kernels replaced by `clause`; the results must stay right.
Result run_with_clause(const std::string& tag, const std::string& clause) {
  std::string src = slurp(kKernels);
  const std::string good = "//DL: AoS: p[n] AOS2ASTA_particle";
  auto at = src.find(good);
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos) return {};
  src.replace(at, good.size(), clause);
  const std::string path = kTmp + "/" + tag + "_" + std::to_string(getpid()) + ".cl";
  std::ofstream(path) << src;
  Result n = run("basic", "native", "", "", path);
  Result r = run("basic", "preload", "", "", path);
  EXPECT_EQ(r.status, 0) << r.log;
  EXPECT_TRUE(r.output == n.output);
  EXPECT_TRUE(r.output == native("basic").output);
  return r;
}

// 20,000 nested parentheses in a dimension overflowed the parser's stack at program
// creation: now an annotation error, and the kernel runs untransformed.
TEST(Faults, DeeplyNestedDimension) {
  Result r = run_with_clause("deep", "//DL: AoS: p[" + std::string(20000, '(') + "n" +
                                         std::string(20000, ')') + "] AOS2ASTA_particle");
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_NE(r.log.find("runs untransformed"), std::string::npos) << r.log;
}

// n * 2^62 overflowed (undefined behaviour, in practice a wrapped record count): now the
// launch falls back with a warning that says so.
TEST(Faults, DimensionOverflow) {
  Result r = run_with_clause("overflow", "//DL: AoS: p[n*4611686018427387904] AOS2ASTA_particle");
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  EXPECT_NE(r.log.find("overflow"), std::string::npos) << r.log;
}

// p[n][2^62]: each dimension fits, their product does not; it used to wrap to 0 records.
TEST(Faults, RecordCountOverflow) {
  Result r = run_with_clause("count", "//DL: AoS: p[n][4611686018427387904] AOS2ASTA_particle");
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  EXPECT_NE(r.log.find("exceeds 64 bits"), std::string::npos) << r.log;
}

// Malformed controls are named in a warning and replaced by their defaults. A bogus log
// level used to silence every message, DL_TILE=-1 wrapped to 4294967295 and
// DL_TILE=4294967296 to 0, and unknown DL_FAULT names were ignored without a word.
TEST(Controls, MalformedValuesWarnAndKeepDefaults) {
  Result r = run("basic", "preload", "DL_LOG_LEVEL=bogus DL_TILE=-1 DL_FAULT=bogus");
  expect_same("basic", r);
  EXPECT_NE(r.log.find("DL_LOG_LEVEL='bogus' is not one of"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("DL_TILE='-1' is not a whole number"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("'bogus' is not one of build, alloc, program, eval"), std::string::npos);
  EXPECT_EQ(total(r, "transformed_launches"), 5u);  // no fault forced, the default tile
  r = run("basic", "preload", "DL_TILE=4294967296");
  expect_same("basic", r);
  EXPECT_NE(r.log.find("DL_TILE='4294967296'"), std::string::npos) << r.log;
  EXPECT_EQ(total(r, "transformed_launches"), 5u);
}

// DL's on-disk caches (docs/runtime.md, "On-disk caches"): a run loads the program
// binaries and conversion plans an earlier run made, a damaged entry is made again, and
// the application's bytes never change. two_layouts converts to ASTA (barrier-sync) and
// to DA (segmented, with a segment table planned on the host).
class DiskCaches : public ::testing::Test {
 protected:
  const std::string dir =
      kTmp + "/disk-cache-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  void SetUp() override { std::filesystem::remove_all(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }

  Result go(const std::string& env = "") {
    Result r = run("two_layouts", "preload", "DL_CACHE_DIR='" + dir + "' " + env);
    expect_same("two_layouts", r);
    EXPECT_EQ(total(r, "marshals"), 7u);
    return r;
  }
  static std::uint64_t stat(const Result& r, const char* kind, const char* key) {
    if (!r.report.contains("disk_cache") || !r.report["disk_cache"].contains(kind))
      return ~std::uint64_t(0);
    return r.report["disk_cache"][kind].value(key, ~std::uint64_t(0));
  }
  std::vector<std::filesystem::path> entries(const char* kind) const {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir + "/" + kind, ec))
      if (e.path().extension() == ".bin") out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(DiskCaches, SecondRunLoadsWhatTheFirstMade) {
  Result first = go();
  // The transformed program, its 64-bit build, the marshaling programs; the plans of the
  // segmented conversions to DA and back.
  for (const char* kind : {"programs", "plans"}) {
    EXPECT_EQ(stat(first, kind, "loaded"), 0u) << kind;
    EXPECT_GE(stat(first, kind, "stored"), 2u) << kind << first.report["disk_cache"].dump();
    EXPECT_EQ(entries(kind).size(), stat(first, kind, "stored")) << kind;
  }
  Result second = go();
  for (const char* kind : {"programs", "plans"}) {
    EXPECT_EQ(stat(second, kind, "loaded"), stat(first, kind, "stored")) << kind;
    EXPECT_EQ(stat(second, kind, "stored"), 0u) << kind;
    EXPECT_EQ(stat(second, kind, "rejected"), 0u) << kind;
  }
}

TEST_F(DiskCaches, DamagedEntriesAreMadeAgain) {
  go();
  const std::regex checksum("[0-9]+ [0-9a-f]{16}");
  std::size_t damaged = 0;
  for (const char* kind : {"programs", "plans"}) {
    const auto files = entries(kind);
    ASSERT_GE(files.size(), 2u) << kind;
    for (std::size_t i = 0; i < files.size(); ++i, ++damaged) {
      std::string bytes = slurp(files[i].string());
      // The header, the payload's length and hash, the payload. The first entry loses
      // half its bytes (a driver given them may abort: DL must not give them); the others
      // hold garbage under a checksum that vouches for it, which the driver refuses and
      // which does not parse as a plan.
      std::size_t line = 0;
      while (!std::regex_match(bytes.substr(line, bytes.find('\n', line) - line), checksum))
        line = bytes.find('\n', line) + 1;
      const std::size_t payload = bytes.find('\n', line) + 1;
      ASSERT_LT(payload, bytes.size());
      if (i == 0) {
        bytes.resize(bytes.size() / 2);
      } else {
        const std::string garbage(bytes.size() - payload, 'x');
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016llx",
                      static_cast<unsigned long long>(std::hash<std::string_view>{}(garbage)));
        bytes =
            bytes.substr(0, line) + std::to_string(garbage.size()) + " " + hash + "\n" + garbage;
      }
      std::ofstream(files[i], std::ios::binary) << bytes;
    }
  }
  Result r = go("DL_LOG_LEVEL=info");
  EXPECT_NE(r.log.find("do not match their header and checksum"), std::string::npos) << r.log;
  // PoCL refuses the garbage when the program is made from it, NVIDIA's OpenCL when it is
  // built.
  EXPECT_TRUE(r.log.find("the driver refused it") != std::string::npos ||
              r.log.find("its build failed") != std::string::npos)
      << r.log;
  const std::size_t programs = entries("programs").size(), plans = entries("plans").size();
  EXPECT_EQ(programs + plans, damaged);
  EXPECT_EQ(stat(r, "programs", "loaded"), 0u);
  EXPECT_EQ(stat(r, "programs", "rejected"), programs);
  EXPECT_EQ(stat(r, "programs", "stored"), programs);
  EXPECT_EQ(stat(r, "plans", "loaded"), 0u);
  EXPECT_EQ(stat(r, "plans", "rejected"), plans);
  EXPECT_EQ(stat(r, "plans", "stored"), plans);
  EXPECT_NE(r.log.find("not a plan of this conversion"), std::string::npos) << r.log;
  Result again = go();  // what was made again loads
  EXPECT_EQ(stat(again, "programs", "loaded"), programs);
  EXPECT_EQ(stat(again, "plans", "loaded"), plans);
  EXPECT_EQ(stat(again, "plans", "stored"), 0u);
}

TEST_F(DiskCaches, ZeroSizeKeepsNothing) {
  Result r = go("DL_CACHE_MIB=0");
  for (const char* kind : {"programs", "plans"}) {
    EXPECT_EQ(stat(r, kind, "stored"), 0u);
    EXPECT_EQ(stat(r, kind, "loaded"), 0u);
    EXPECT_TRUE(entries(kind).empty());
  }
}

TEST_F(DiskCaches, LeastRecentlyUsedGoPastTheSize) {
  // Three old entries of 400 KiB fill most of a 1 MiB cache of programs: storing this
  // run's binaries takes it past 1 MiB, and the old ones go first. (PoCL's marshaling
  // programs, 2 MB, are larger than the whole cache: not kept.)
  std::filesystem::create_directories(dir + "/programs");
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) {
    const std::string f = dir + "/programs/old" + std::to_string(i) + ".bin";
    std::ofstream(f, std::ios::binary) << std::string(400 << 10, 'o');
    std::filesystem::last_write_time(f, old);
  }
  Result r = go("DL_CACHE_MIB=1");
  EXPECT_GE(stat(r, "programs", "stored"), 1u);
  EXPECT_GE(stat(r, "programs", "evicted"), 2u);
  std::uintmax_t total = 0;
  std::size_t olds = 0;
  for (const auto& f : entries("programs")) {
    total += std::filesystem::file_size(f);
    olds += f.filename().string().rfind("old", 0) == 0;
  }
  EXPECT_LE(total, std::uintmax_t(1) << 20);
  EXPECT_LE(olds, 1u);
  EXPECT_EQ(entries("programs").size() + stat(r, "programs", "evicted"),
            3 + stat(r, "programs", "stored"));
}

}  // namespace
