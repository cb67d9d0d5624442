// The reuse analysis of dl-annotate --report against counts made by hand
// (tests/annotate/reuse/kernels.cl; docs/annotation.md, "Reuse").
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Annotated {
  int status = -1;
  std::string err;
  nlohmann::json report;
};

/// dl-annotate --report=json on the test kernels with `options`.
Annotated annotate(const std::string& options, const std::string& input = "") {
  static int n = 0;
  const fs::path dir = fs::temp_directory_path() / ("dl-reuse-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string tag = std::to_string(n++);
  const fs::path json = dir / (tag + ".json"), err = dir / (tag + ".err");
  const std::string in = input.empty() ? std::string(DL_REUSE_KERNELS) : input;
  const std::string cmd = "'" + std::string(DL_ANNOTATE_TOOL) + "' --report=json --report-out='" +
                          json.string() + "' -o /dev/null " + options + " '" + in + "' 2>'" +
                          err.string() + "'";
  Annotated r;
  const int st = std::system(cmd.c_str());
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ostringstream e;
  e << std::ifstream(err).rdbuf();
  r.err = e.str();
  if (r.status == 0) r.report = nlohmann::json::parse(std::ifstream(json));
  return r;
}

/// The reuse entry of `kernel`'s argument `arg`.
nlohmann::json arg(const Annotated& r, const std::string& kernel, const std::string& name) {
  for (const auto& k : r.report.at("reuse"))
    if (k.at("kernel") == kernel)
      for (const auto& a : k.at("args"))
        if (a.at("name") == name) return a;
  ADD_FAILURE() << "no reuse entry for " << kernel << "." << name;
  return {};
}

void expect_counts(const nlohmann::json& a, std::uint64_t reads, std::uint64_t elements,
                   std::uint64_t bytes) {
  ASSERT_TRUE(a.at("analysed").get<bool>()) << a.dump();
  EXPECT_EQ(a.at("reads").get<std::uint64_t>(), reads) << a.dump();
  EXPECT_EQ(a.at("elements").get<std::uint64_t>(), elements) << a.dump();
  EXPECT_EQ(a.at("footprint_bytes").get<std::uint64_t>(), bytes) << a.dump();
  EXPECT_DOUBLE_EQ(a.at("reuse_factor").get<double>(), double(reads) / double(elements));
}

TEST(Reuse, DefaultWorkGroups) {
  const Annotated r = annotate("");
  ASSERT_EQ(r.status, 0) << r.err;
  // matmul, 16x16, the k loop (bound n) counted as 16 trips: a row of A is read by the 16
  // work-items of a row, a column of B by the 16 of a column.
  expect_counts(arg(r, "matmul", "A"), 16 * 16 * 16, 16 * 16, 16 * 16 * 4);
  expect_counts(arg(r, "matmul", "B"), 16 * 16 * 16, 16 * 16, 16 * 16 * 4);
  EXPECT_FALSE(arg(r, "matmul", "A").at("assumptions").empty());
  EXPECT_FALSE(arg(r, "matmul", "C").at("read").get<bool>());
  EXPECT_TRUE(arg(r, "matmul", "C").at("written").get<bool>());
  // 5-point stencil, 16x16: 5 reads each; the tile and a one-wide border without corners.
  expect_counts(arg(r, "stencil5", "in"), 5 * 256, 256 + 4 * 16, (256 + 4 * 16) * 4);
  // Its reads are under a condition (an interior work-group assumed); vadd's are not.
  EXPECT_EQ(arg(r, "stencil5", "in").at("assumptions").size(), 1u);
  EXPECT_TRUE(arg(r, "vadd", "a").at("assumptions").empty());
  // 7-point stencil, 8x8x4: the block and its six faces (8x4, 8x4, 8x4, 8x4, 8x8, 8x8).
  expect_counts(arg(r, "stencil7", "in"), 7 * 256, 256 + 4 * 32 + 2 * 64,
                (256 + 4 * 32 + 2 * 64) * 4);
  // 5x5 convolution, 16x16: a 20x20 window of the image; the mask is read by everyone.
  expect_counts(arg(r, "conv5x5", "img"), 25 * 256, 20 * 20, 20 * 20 * 4);
  expect_counts(arg(r, "conv5x5", "mask"), 25 * 256, 25, 25 * 4);
  // No reuse: the analysis must say 1.
  expect_counts(arg(r, "vadd", "a"), 256, 256, 1024);
  EXPECT_DOUBLE_EQ(arg(r, "vadd", "b").at("reuse_factor").get<double>(), 1.0);
  // Fields are elements: x of 257 records and y of 256, 4 bytes each.
  expect_counts(arg(r, "records", "p"), 3 * 256, 257 + 256, (257 + 256) * 4);
}

TEST(Reuse, TheWorkGroupAndTheLimitsAreTheUsers) {
  const Annotated r = annotate("--local-size=32,8 --local-mem=1000 --trip-count=8");
  ASSERT_EQ(r.status, 0) << r.err;
  expect_counts(arg(r, "stencil5", "in"), 5 * 256, 256 + 2 * 32 + 2 * 8, (256 + 80) * 4);
  EXPECT_FALSE(arg(r, "stencil5", "in").at("fits_local").get<bool>());  // 1344 > 1000
  // 8 trips of k: A's rows 8 x 8 elements, each read by 32 work-items.
  expect_counts(arg(r, "matmul", "A"), 256 * 8, 8 * 8, 8 * 8 * 4);
  EXPECT_TRUE(arg(r, "matmul", "A").at("fits_local").get<bool>());  // 256 <= 1000
  for (const auto& k : r.report.at("reuse"))
    EXPECT_EQ(k.at("local_size"), nlohmann::json({32, 8, 1})) << k.at("kernel");
}

TEST(Reuse, WhatItCannotCountItSaysWhy) {
  const Annotated r = annotate("");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto gather = arg(r, "gather", "v");
  EXPECT_FALSE(gather.at("analysed").get<bool>());
  EXPECT_NE(gather.at("why").get<std::string>().find("loaded from memory"), std::string::npos);
  expect_counts(arg(r, "gather", "col"), 256, 256, 1024);
  const auto helper = arg(r, "helper", "in");
  EXPECT_FALSE(helper.at("analysed").get<bool>());
  EXPECT_NE(helper.at("why").get<std::string>().find("twice()"), std::string::npos);
  const auto walk = arg(r, "walk", "in");
  EXPECT_FALSE(walk.at("analysed").get<bool>());
  EXPECT_NE(walk.at("why").get<std::string>().find("while"), std::string::npos);
}

TEST(Reuse, NoReuseLeavesItOut) {  // what the runtime's --auto rewrites ask for
  const Annotated r = annotate("--no-reuse");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(r.report.at("reuse").empty());
}

TEST(Reuse, BadOptionsAreUsageErrors) {
  for (const char* bad : {"--local-size=0", "--local-size=16,16,16,1", "--local-size=64,64",
                          "--local-size=a", "--local-mem=-1", "--trip-count=0"}) {
    const Annotated r = annotate(bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_NE(r.err.find(std::string(bad).substr(0, std::string(bad).find('='))), std::string::npos)
        << bad << ": " << r.err;
  }
}

}  // namespace
