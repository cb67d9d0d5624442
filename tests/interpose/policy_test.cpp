// The profitability controller under the runtime (DL_POLICY=auto): calibration and its
// cache, decisions from measured times, and host accesses that need no conversion back.
// Bytes are compared with the native run every time.
#include <cstdio>
#include <cstring>
#include <regex>

#include "run_app.hpp"

namespace {

/// A calibration cache directory of this test process.
std::string cache_dir(const std::string& name) {
  const std::string d = kTmp + "/cache_" + name + "_" + std::to_string(getpid());
  const int rc = std::system(("rm -rf '" + d + "' && mkdir -p '" + d + "'").c_str());
  EXPECT_EQ(rc, 0) << d;
  return d;
}

/// Calibrates into `dir`, then rewrites the device's entry with `edit`.
void calibrate(const std::string& dir, const std::function<void(nlohmann::json&)>& edit = nullptr) {
  Result r = run("basic", "preload", "DL_POLICY=always DL_CALIBRATE=1 DL_CACHE_DIR='" + dir + "'");
  ASSERT_EQ(r.status, 0) << r.log;
  auto j = nlohmann::json::parse(slurp(dir + "/calibration.json"), nullptr, false);
  ASSERT_TRUE(j.is_object() && j["devices"].size() == 1u) << slurp(dir + "/calibration.json");
  if (!edit) return;
  for (auto& [key, d] : j["devices"].items()) edit(d);
  std::ofstream(dir + "/calibration.json") << j.dump(2);
}

std::string auto_env(const std::string& dir) {
  return "DL_POLICY=auto DL_CACHE_DIR='" + dir + "'";
}

/// The controller builds the transformed program only once the AoS kernel time reaches
/// the application's own build time: on a fast device the scenario may never get there.
bool built(const Result& r) {
  const auto* k = kernel(r, "advance");
  return !(k && (*k)["policy"].get<std::string>().find("preparing the transformed kernel") !=
                    std::string::npos);
}
#define SKIP_UNLESS_BUILT(r)                                                                     \
  if (!built(r))                                                                                 \
  GTEST_SKIP() << "the device ran the AoS launches faster than DL's build of the program took: " \
                  "nothing to decide after it"

TEST(Policy, CalibrationIsMeasuredOnceThenCached) {
  const std::string dir = cache_dir("once");
  Result first = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", first);
  SKIP_UNLESS_BUILT(first);
  const auto& d1 = first.report["policy"]["devices"][0];
  EXPECT_EQ(d1["calibrated"], true) << first.report["policy"].dump(2);
  EXPECT_EQ(d1["cached"], false);
  EXPECT_GT(d1["to_layout_GBps"].get<double>(), 0);
  // The later runs consult the calibration only where they build too (under load a
  // run may finish its AoS launches first: then there is nothing to check in it), and
  // start from no experience (a recalled "never" builds nothing).
  std::remove((dir + "/experience.json").c_str());
  Result second = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", second);
  if (built(second)) {
    EXPECT_EQ(second.report["policy"]["devices"][0]["cached"], true);
  }
  // DL_CALIBRATE measures again.
  std::remove((dir + "/experience.json").c_str());
  Result again = run("heavy_run", "preload", auto_env(dir) + " DL_CALIBRATE=1");
  expect_same("heavy_run", again);
  if (built(again)) {
    EXPECT_EQ(again.report["policy"]["devices"][0]["cached"], false);
  }
}

TEST(Policy, DeviceWhereConvertingNeverPaysBuildsNothing) {
  const std::string dir = cache_dir("never_pays");
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = false; });
  Result r = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", r);
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  // Settled when the application built the program, from the cached calibration: no
  // launch is decided, measured or remembered.
  EXPECT_NE((*k)["policy"].get<std::string>().find("converting never pays"), std::string::npos)
      << r.report.dump(2);
  EXPECT_EQ((*k)["kept_aos"], 0) << r.report.dump(2);
  EXPECT_TRUE(r.report["policy"]["kernels"].empty()) << r.report["policy"].dump(2);
  EXPECT_FALSE(std::ifstream(dir + "/experience.json").good()) << "nothing to remember";
}

TEST(Policy, ShortRunsNeverBuildTheTransformedProgram) {
  // 40 launches of a few microseconds: the shadow's build would cost more than they do.
  const std::string dir = cache_dir("short");
  Result r = run("long_run", "preload", auto_env(dir));
  expect_same("long_run", r);
  EXPECT_EQ(total(r, "marshals"), 0u);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  // The run is short where its AoS kernel time stays below the application's build time
  // (about a second on PoCL); a driver that caches builds (NVIDIA's) may build faster.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.log, m, std::regex("build: ([0-9.]+) ms"))) << r.log;
  const double build_ms = std::stod(m[1]);
  const double aos_ms = 40 * r.report["policy"]["kernels"][0]["aos_ms"].get<double>();
  if (aos_ms >= build_ms)
    GTEST_SKIP() << "not a short run here: 40 AoS launches took " << aos_ms
                 << " ms, the application's build " << build_ms << " ms";
  EXPECT_EQ((*k)["kept_aos"], 40);
  EXPECT_NE((*k)["policy"].get<std::string>().find("preparing the transformed kernel"),
            std::string::npos)
      << r.report.dump(2);
  EXPECT_TRUE(r.report["policy"]["devices"].empty()) << "not even calibrated";
}

TEST(Policy, BackgroundBuildCostsTheLaunchesNothing) {
  // DL_SHADOW_BUILD=background (the default on GPUs): the same short run has the
  // transformed program built in a thread of its own, its launches never wait for it or
  // pay for it, and the exit waits for the build (the device is calibrated by then).
  const std::string dir = cache_dir("background");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e9;  // free: the rule converts as soon as it may
    d["to_aos_bytes_per_ns"] = 1e9;
  });
  Result r =
      run("long_run", "preload", auto_env(dir) + " DL_SHADOW_BUILD=background DL_LOG_LEVEL=info");
  expect_same("long_run", r);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ((*k)["kept_aos"].get<int>() + (*k)["transformed_launches"].get<int>(), 40)
      << r.report.dump(2);
  EXPECT_EQ((*k)["policy"].get<std::string>().find("preparing the transformed kernel"),
            std::string::npos)
      << r.report.dump(2);
  EXPECT_NE(r.log.find("ready after"), std::string::npos) << r.log;
  ASSERT_EQ(r.report["policy"]["devices"].size(), 1u) << r.report["policy"].dump(2);
  EXPECT_EQ(r.report["policy"]["devices"][0]["cached"], true);
  // Launches while it builds run the application's kernel and say so.
  if ((*k)["kept_aos"].get<int>() == 40) {
    EXPECT_NE(r.log.find("its DL build is under way"), std::string::npos) << r.log;
  }
}

TEST(Policy, BackgroundBuildOnAnAnnotationThatDoesNotBuild) {
  // A shadow that fails to build in the background leaves every launch on the
  // application's kernel, with the reason in the report.
  const std::string dir = cache_dir("background_fault");
  // A device where converting may pay (a busy machine may measure otherwise): DL builds.
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = true; });
  Result r =
      run("long_run", "preload", auto_env(dir) + " DL_SHADOW_BUILD=background DL_FAULT=program");
  expect_same("long_run", r);
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  EXPECT_NE(r.log.find("forced by DL_FAULT=program"), std::string::npos) << r.log;
}

TEST(Policy, ExpensiveConversionsAreNeverTried) {
  const std::string dir = cache_dir("expensive");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e-6;  // a round trip of days
    d["to_aos_bytes_per_ns"] = 1e-6;
  });
  Result r = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", r);
  SKIP_UNLESS_BUILT(r);
  EXPECT_EQ(total(r, "marshals"), 0u) << r.report.dump(2);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ((*k)["kept_aos"], 60);
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_EQ(rule["verdict"], "unknown");
  EXPECT_GT(rule["aos_ms"].get<double>(), 0);  // measured
  EXPECT_NE(rule["decision"].get<std::string>().find("exploring once"), std::string::npos);
}

TEST(Policy, CheapConversionsAreTriedAndJudgedByMeasurement) {
  const std::string dir = cache_dir("cheap");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e9;  // free
    d["to_aos_bytes_per_ns"] = 1e9;
  });
  Result r = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", r);
  SKIP_UNLESS_BUILT(r);
  EXPECT_GE(total(r, "marshals"), 1u);
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_NE(rule["verdict"], "unknown") << r.report["policy"].dump(2);
  EXPECT_GT(rule["aos_ms"].get<double>(), 0);
  EXPECT_GT(rule["transformed_ms"].get<double>(), 0);
  // Transformed launches whenever the rule said it pays; AoS otherwise.
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ((*k)["transformed_launches"].get<int>() + (*k)["kept_aos"].get<int>(), 60);
}

TEST(Policy, HostCopiesCountInTheTransformedLaunch) {
  // Host-visible memory read through a copy made at every launch: the controller times the
  // transformed launch with its copy, whatever the conversions cost.
  const std::string dir = cache_dir("host_copies");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e9;  // free
    d["to_aos_bytes_per_ns"] = 1e9;
  });
  Result r = run("heavy_host_run", "preload", auto_env(dir));
  expect_same("heavy_host_run", r);
  const auto* k = kernel(r, "weigh");
  ASSERT_NE(k, nullptr) << r.log;
  if ((*k)["policy"].get<std::string>().find("preparing the transformed kernel") !=
      std::string::npos)
    GTEST_SKIP() << "the AoS launches ran faster than DL's build of the program took";
  ASSERT_GE((*k)["host_copies"].get<int>(), 1) << r.report.dump(2);
  EXPECT_EQ((*k)["host_copies"], (*k)["transformed_launches"]);
  EXPECT_EQ((*k)["transformed_launches"].get<int>() + (*k)["kept_aos"].get<int>(), 60);
  const double copy_ms =
      (*k)["host_copy_ns"].get<double>() / 1e6 / (*k)["host_copies"].get<double>();
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_NE(rule["verdict"], "unknown") << r.report["policy"].dump(2);
  EXPECT_GE(rule["transformed_ms"].get<double>(), copy_ms) << r.report.dump(2);
}

TEST(Policy, AWayThereWithoutConversionIsNotCharged) {
  // A device where converting to ASTA takes days and back is free. Epochs that begin
  // with a zero fill change the layout without a conversion on the way there: the
  // controller charges only the way back and converts. The same epochs with the host's
  // bytes would pay the days: it never converts them.
  const std::string dir = cache_dir("fill_epochs");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e-6;
    d["to_aos_bytes_per_ns"] = 1e9;
  });
  const std::string env = auto_env(dir) + " DL_SHADOW_BUILD=background";
  Result w = run("write_epochs", "preload", env);
  expect_same("write_epochs", w);
  EXPECT_EQ(total(w, "transformed_launches"), 0u) << w.report.dump(2);
  EXPECT_EQ(total(w, "marshals"), 0u);
  Result f = run("fill_epochs", "preload", env);
  expect_same("fill_epochs", f);
  const auto* k = kernel(f, "advance_cap");
  ASSERT_NE(k, nullptr) << f.report.dump(2);
  if ((*k)["transformed_launches"] == 0 &&
      (*k)["policy"].get<std::string>().find("under way") != std::string::npos)
    GTEST_SKIP() << "the run ended before DL's build of the program did";
  EXPECT_GE((*k)["transformed_launches"].get<int>(), 1) << f.report.dump(2);
  ASSERT_TRUE(f.report["buffers"].is_array() && !f.report["buffers"].empty());
  EXPECT_GE(f.report["buffers"][0]["state_only"].get<int>(), 1) << f.report.dump(2);
  EXPECT_EQ(f.report["buffers"][0]["to_target"], 0);
}

TEST(Policy, NeverIsPassThroughWithTracking) {
  Result r = run("partial", "preload", "DL_POLICY=never");
  expect_same("partial", r);
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  EXPECT_EQ(total(r, "kernel_launches"), 7u);
}

TEST(Policy, EveryLaunchReadBackStaysAoSWithRealCosts) {
  // Epochs of one launch: a round trip of conversions of the whole buffer per launch is
  // not paid back by one launch on this device (its real calibration).
  const std::string dir = cache_dir("read_every");
  Result r = run("read_every_launch", "preload", auto_env(dir));
  expect_same("read_every_launch", r);
  EXPECT_LE(total(r, "marshals"), 2u) << r.report["policy"].dump(2);  // at most one trial
}

// Experience: what a run learned, recalled by the next (the cache's experience.json).

/// Rewrites every kernel's entry of the experience file in `dir` with `edit`; false when
/// there is none.
bool edit_experience(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
  auto j = nlohmann::json::parse(slurp(dir + "/experience.json"), nullptr, false);
  if (!j.is_object() || !j["devices"].is_object()) return false;
  int n = 0;
  for (auto& [device, kernels] : j["devices"].items())
    for (auto& [key, e] : kernels.items()) edit(e), ++n;
  std::ofstream(dir + "/experience.json") << j.dump(2);
  return n > 0;
}

/// A run of heavy_run that leaves its experience in `dir` (every run measures AoS).
void learn(const std::string& dir) {
  Result r = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", r);
  auto j = nlohmann::json::parse(slurp(dir + "/experience.json"), nullptr, false);
  ASSERT_TRUE(j.is_object() && j["devices"].size() == 1u) << slurp(dir + "/experience.json");
  const nlohmann::json kernels = j["devices"].begin().value();
  ASSERT_EQ(kernels.size(), 1u) << j.dump(2);
  const auto entry = kernels.begin();
  EXPECT_NE(entry.key().find("/advance"), std::string::npos) << entry.key();
  EXPECT_GT(entry.value()["aos_ns"].get<double>(), 0) << j.dump(2);
}

TEST(Experience, LongEpochsRecalledConvertFromTheFirstLaunch) {
  const std::string dir = cache_dir("experience_pays");
  // A device where converting may pay (a loaded machine may measure otherwise, and then
  // DL builds nothing at all, whatever the experience).
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = true; });
  learn(dir);
  if (HasFatalFailure()) return;
  // An experience no measurement of this run can overturn: AoS a second per launch.
  ASSERT_TRUE(edit_experience(dir, [](nlohmann::json& e) {
    e = {{"aos_ns", 1e9},
         {"transformed_ns", 1},
         {"round_trip_ns", 1},
         {"epoch_launches", 100},
         {"never", false}};
  }));
  Result r = run("heavy_run", "preload", auto_env(dir) + " DL_LOG_LEVEL=info");
  expect_same("heavy_run", r);
  const auto* k = kernel(r, "advance");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ((*k)["transformed_launches"], 60) << r.report.dump(2);
  EXPECT_EQ((*k)["kept_aos"], 0);
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_EQ(rule["recalled"], true);
  EXPECT_EQ(rule["verdict"], "pays");
  EXPECT_NE(rule["decision"].get<std::string>().find("earlier run"), std::string::npos)
      << rule.dump(2);
  EXPECT_NE(r.log.find("recalled an earlier run's experience"), std::string::npos) << r.log;
  // The run's own experience replaced the edited one: t measured here.
  auto j = nlohmann::json::parse(slurp(dir + "/experience.json"), nullptr, false);
  const nlohmann::json e = j["devices"].begin().value().begin().value();
  EXPECT_NE(e["transformed_ns"].get<double>(), 1.0) << j.dump(2);
}

TEST(Experience, NeverRecalledBuildsAndConvertsNothing) {
  const std::string dir = cache_dir("experience_never");
  calibrate(dir, [](nlohmann::json& d) {
    d["may_pay"] = true;
    d["to_layout_bytes_per_ns"] = 1e9;  // free conversions: a cold run would try them
    d["to_aos_bytes_per_ns"] = 1e9;
  });
  learn(dir);
  if (HasFatalFailure()) return;
  ASSERT_TRUE(edit_experience(dir, [](nlohmann::json& e) { e["never"] = true; }));
  Result r = run("heavy_run", "preload", auto_env(dir));
  expect_same("heavy_run", r);
  EXPECT_EQ(total(r, "marshals"), 0u);
  EXPECT_EQ(total(r, "transformed_launches"), 0u);
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_EQ(rule["verdict"], "never");
  EXPECT_NE(rule["decision"].get<std::string>().find("earlier run"), std::string::npos)
      << rule.dump(2);
  EXPECT_TRUE(r.report["policy"]["devices"].empty()) << "nothing built, nothing calibrated";
}

TEST(Experience, CalibrateStartsFromNothing) {
  const std::string dir = cache_dir("experience_calibrate");
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = true; });
  learn(dir);
  if (HasFatalFailure()) return;
  ASSERT_TRUE(edit_experience(dir, [](nlohmann::json& e) {
    e["never"] = true;
    e["aos_ns"] = 12345;  // a value no run measures
  }));
  // Built in the background, so that the calibration happens whatever the machine's load:
  // deferred, the build (and the calibration with it) waits for the AoS kernel time to
  // reach the application's build time, which a loaded machine may never see.
  Result r =
      run("heavy_run", "preload", auto_env(dir) + " DL_CALIBRATE=1 DL_SHADOW_BUILD=background");
  expect_same("heavy_run", r);
  ASSERT_EQ(r.report["policy"]["devices"].size(), 1u) << r.report.dump(2);
  EXPECT_EQ(r.report["policy"]["devices"][0]["cached"], false) << "measured again";
  // The new calibration is measured: on a loaded machine it may find that converting
  // never pays, and then no kernel is judged and nothing is remembered.
  if (!r.report["policy"]["devices"][0]["may_pay"].get<bool>())
    GTEST_SKIP() << "this run's calibration found that converting never pays here";
  const auto& rule = r.report["policy"]["kernels"][0];
  EXPECT_EQ(rule["recalled"], false) << rule.dump(2);
  auto j = nlohmann::json::parse(slurp(dir + "/experience.json"), nullptr, false);
  EXPECT_NE(j["devices"].begin().value().begin().value()["aos_ns"], 12345) << j.dump(2);
}

TEST(Experience, MalformedFileIsIgnoredAndReplaced) {
  const std::string dir = cache_dir("experience_malformed");
  // A device where converting may pay: otherwise no kernel is judged and nothing is
  // remembered (a calibration measured on a loaded machine may say so).
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = true; });
  for (const char* text :
       {"{\"format\": 1, \"devices\": {\"x\": [1, {\"aos_ns\": -3}]}}", "not json at all",
        "{\"format\": 1, \"devices\": {\"d\": {\"p/k\": "
        "{\"aos_ns\": \"fast\", \"never\": 7}}}}"}) {
    std::ofstream(dir + "/experience.json") << text;
    Result r = run("heavy_run", "preload", auto_env(dir));
    expect_same("heavy_run", r);
    EXPECT_EQ(r.report["policy"]["kernels"][0]["recalled"], false) << text << "\n"
                                                                   << r.report.dump(2) << "\n"
                                                                   << r.log;
    auto j = nlohmann::json::parse(slurp(dir + "/experience.json"), nullptr, false);
    EXPECT_TRUE(j.is_object() && j["format"] == 1)
        << text << ": " << slurp(dir + "/experience.json");
  }
}

// Host accesses that need no conversion back (DL_POLICY=always: mechanics).

TEST(HostAccess, WritesOutsideTheConvertedRecordsKeepTheLayout) {
  Result r = run("host_writes_outside", "preload");
  expect_same("host_writes_outside", r);
  EXPECT_EQ(total(r, "transformed_launches"), 20u);
  EXPECT_EQ(total(r, "marshals"), 2u) << r.report.dump(2);  // there, and back for the read
}

TEST(HostAccess, WriteOfExactlyTheConvertedRecordsNeedsNoConversionBack) {
  Result r = run("host_rewrites_converted", "preload");
  expect_same("host_rewrites_converted", r);
  ASSERT_TRUE(r.report["buffers"].is_array() && !r.report["buffers"].empty());
  EXPECT_EQ(r.report["buffers"][0]["to_target"], 10);
  EXPECT_EQ(r.report["buffers"][0]["to_aos"], 1) << r.report.dump(2);
}

}  // namespace

// The offset width (docs/runtime.md, "Offset width"): the probe's launches say which build
// ran each of them, its records must equal the native run's.
struct Probe {
  std::vector<int> ran;  // per launch: 0 the application's kernel, 32 or 64 DL's builds
  std::string records;
  std::string offsets;  // the report's word on the kernel's width
};

Probe probe(const std::string& env) {
  // A cache of its own unless the test gives one: an earlier run's widths are recalled.
  const std::string cache = env.find("DL_CACHE_DIR") == std::string::npos
                                ? " DL_CACHE_DIR='" + cache_dir("widths") + "'"
                                : "";
  Result r = run("width_probe", "preload", env + cache);
  EXPECT_EQ(r.status, 0) << r.log;
  const Result n = native("width_probe");
  Probe p;
  p.ran.resize(8);
  if (r.output.size() < sizeof(int) * 8 || n.output.size() != r.output.size()) {
    ADD_FAILURE() << "output of " << r.output.size() << " bytes, native " << n.output.size();
    return p;
  }
  std::memcpy(p.ran.data(), r.output.data(), sizeof(int) * 8);
  EXPECT_TRUE(r.output.substr(sizeof(int) * 8) == n.output.substr(sizeof(int) * 8))
      << "the records differ from the native run's; " << env << "\n"
      << r.log;
  EXPECT_EQ(n.output.substr(0, sizeof(int) * 8), std::string(sizeof(int) * 8, '\0'));
  if (const auto* k = kernel(r, "width_probe")) p.offsets = (*k)["offsets"];
  return p;
}

TEST(Widths, MeasuredTrialTriesBothThenKeepsOne) {
  const Probe p = probe("");
  EXPECT_EQ(std::vector<int>(p.ran.begin(), p.ran.begin() + 4), (std::vector<int>{32, 64, 64, 32}));
  const int kept = p.ran[4];
  EXPECT_TRUE(kept == 32 || kept == 64) << kept;
  EXPECT_EQ(std::vector<int>(p.ran.begin() + 4, p.ran.end()), std::vector<int>(4, kept));
  EXPECT_EQ(p.offsets.rfind(std::to_string(kept) + "-bit offsets: ", 0), 0u) << p.offsets;
  EXPECT_NE(p.offsets.find("the best of 2 launches each"), std::string::npos) << p.offsets;
}

TEST(Widths, ForcedWidths) {
  EXPECT_EQ(probe("DL_OFFSET_WIDTH=32").ran, std::vector<int>(8, 32));
  const Probe wide = probe("DL_OFFSET_WIDTH=64");
  EXPECT_EQ(wide.ran, std::vector<int>(8, 64));
  EXPECT_EQ(wide.offsets, "64-bit offsets: DL_OFFSET_WIDTH=64");
}

TEST(Widths, BufferTooLargeFor32BitOffsetsRunsThe64BitBuild) {
  // DL_FAULT=offset32: every buffer counts as more than 32-bit offsets reach.
  const Probe p = probe("DL_FAULT=offset32");
  EXPECT_EQ(p.ran, std::vector<int>(8, 64));
  EXPECT_EQ(p.offsets, "64-bit offsets: a buffer of more than 4 GiB");
  // Without a 64-bit build such a launch runs the application's kernel.
  EXPECT_EQ(probe("DL_FAULT=offset32 DL_OFFSET_WIDTH=32").ran, std::vector<int>(8, 0));
  EXPECT_EQ(probe("DL_FAULT=offset32,offset64").ran, std::vector<int>(8, 0));
}

TEST(Widths, Failed64BitBuildKeeps32) {
  Result r = run("width_probe", "preload", "DL_FAULT=offset64");
  EXPECT_NE(r.log.find("forced by DL_FAULT=offset64"), std::string::npos) << r.log;
  EXPECT_EQ(probe("DL_FAULT=offset64").ran, std::vector<int>(8, 32));
}

TEST(Widths, RememberedByTheNextRun) {
  const std::string env = "DL_CACHE_DIR='" + cache_dir("widths_kept") + "'";
  const Probe first = probe(env);
  EXPECT_EQ(std::vector<int>(first.ran.begin(), first.ran.begin() + 4),
            (std::vector<int>{32, 64, 64, 32}));
  // The next run of the same program on the same device: no trial, the kept width.
  const Probe next = probe(env);
  EXPECT_EQ(next.ran, std::vector<int>(8, first.ran[4]));
  EXPECT_NE(next.offsets.find("measured by an earlier run"), std::string::npos) << next.offsets;
  // DL_CALIBRATE measures again.
  const Probe again = probe(env + " DL_CALIBRATE=1");
  EXPECT_EQ(std::vector<int>(again.ran.begin(), again.ran.begin() + 4),
            (std::vector<int>{32, 64, 64, 32}));
}

TEST(Widths, EachProgramHasItsOwn) {
  // The probe kernel of two programs (one source, two builds) in one process: the second
  // program's kernel of the same name runs its own trial.
  Result r =
      run("width_probe_two_programs", "preload", "DL_CACHE_DIR='" + cache_dir("widths_two") + "'");
  ASSERT_EQ(r.status, 0) << r.log;
  const Result n = native("width_probe_two_programs");
  ASSERT_EQ(r.output.size(), n.output.size()) << r.log;
  const std::size_t part = r.output.size() / 2, ints = sizeof(int) * 8;
  for (std::size_t at : {std::size_t{0}, part}) {
    std::vector<int> ran(8);
    std::memcpy(ran.data(), r.output.data() + at, ints);
    EXPECT_EQ(std::vector<int>(ran.begin(), ran.begin() + 4), (std::vector<int>{32, 64, 64, 32}))
        << "program at byte " << at;
    EXPECT_TRUE(r.output.substr(at + ints, part - ints) == n.output.substr(at + ints, part - ints))
        << "records of the program at byte " << at;
  }
}

TEST(Policy, EachProgramHasItsOwnRule) {
  // Two programs (one source, two builds) with a kernel of the same name: two rules.
  const std::string dir = cache_dir("two_rules");
  calibrate(dir, [](nlohmann::json& d) { d["may_pay"] = true; });
  Result r = run("width_probe_two_programs", "preload", auto_env(dir));
  ASSERT_EQ(r.status, 0) << r.log;
  // (Its outputs say which build ran each launch; Widths.EachProgramHasItsOwn checks them.)
  int rules = 0;
  for (const auto& k : r.report["policy"]["kernels"]) rules += k["kernel"] == "width_probe";
  EXPECT_EQ(rules, 2) << r.report["policy"].dump(2);
}
