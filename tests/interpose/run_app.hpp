// Runs the test application (dl_hook_app) natively and under libdl_interpose.so as a
// child process, and reads back what it kept and DL's report.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

const std::string kApp = DL_HOOK_APP;
const std::string kLib = DL_INTERPOSE_LIB;
const std::string kKernels = DL_TEST_KERNEL_SOURCE;
const std::string kTmp = DL_TEST_TMP;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Result {
  int status = -1;
  std::string output;  // the bytes the application read back
  nlohmann::json report;
  std::string log;
};

/// Runs a scenario. `mode`: native, preload, layer, both. `env`: extra VAR=value words.
Result run(const std::string& scenario, const std::string& mode, const std::string& env = "",
           const std::string& extra = "", const std::string& kernels = kKernels) {
  static int counter = 0;
  // Each test runs in its own process, in parallel with others: the pid keeps names apart.
  const std::string tag = kTmp + "/" + scenario + "_" + mode + "_" + std::to_string(getpid()) +
                          "_" + std::to_string(++counter);
  // The hook tests check the mechanics of every launch: DL_POLICY=always unless a test
  // sets the policy; calibrations go to a cache of the test tree.
  std::string cmd = "env DL_TEST_KERNELS='" + kernels + "' DL_REPORT='" + tag +
                    ".json' DL_CACHE_DIR='" + kTmp + "/cache' " +
                    (env.find("DL_POLICY") == std::string::npos ? "DL_POLICY=always " : "") + env;
  if (mode == "preload" || mode == "both") cmd += " LD_PRELOAD='" + kLib + "'";
  if (mode == "layer" || mode == "both") cmd += " OPENCL_LAYERS='" + kLib + "'";
  cmd +=
      " '" + kApp + "' " + scenario + " '" + tag + ".bin' " + extra + " > '" + tag + ".log' 2>&1";
  Result r;
  r.status = std::system(cmd.c_str());
  r.output = slurp(tag + ".bin");
  r.log = slurp(tag + ".log");
  {
    std::ifstream rep(tag + ".json");
    if (rep) r.report = nlohmann::json::parse(rep, nullptr, false);
  }
  // Everything is in memory now (and in a failure's message): the files go, or repeated
  // runs of the suite fill the disk (a scenario's bytes are up to 50 MB a run).
  for (const char* ext : {".bin", ".log", ".json"}) std::remove((tag + ext).c_str());
  return r;
}

const Result& native(const std::string& scenario) {
  static std::map<std::string, Result> cache;
  auto it = cache.find(scenario);
  if (it == cache.end()) it = cache.emplace(scenario, run(scenario, "native")).first;
  return it->second;
}

/// A total of DL's report; a missing or malformed report is a test failure.
std::uint64_t total(const Result& r, const char* key) {
  if (!r.report.is_object() || !r.report.contains("totals")) {
    ADD_FAILURE() << "no report (or no totals in it):\n" << r.log;
    return ~std::uint64_t(0);
  }
  return r.report["totals"].value(key, std::uint64_t(0));
}

[[maybe_unused]] const nlohmann::json* kernel(const Result& r, const std::string& name) {
  if (!r.report.is_object()) return nullptr;
  for (const auto& k : r.report["kernels"])
    if (k["name"] == name) return &k;
  return nullptr;
}

/// Same bytes as the native run, and the run transformed its kernels.
void expect_same(const std::string& scenario, const Result& r) {
  const Result& n = native(scenario);
  ASSERT_EQ(n.status, 0) << n.log;
  ASSERT_EQ(r.status, 0) << r.log;
  ASSERT_FALSE(n.output.empty());
  EXPECT_EQ(r.output.size(), n.output.size());
  EXPECT_TRUE(r.output == n.output) << scenario << ": bytes differ from the native run\n" << r.log;
}

}  // namespace
