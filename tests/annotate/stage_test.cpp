// Staging in local memory (dl-annotate --stage-local) on the OpenCL device (PoCL in CI):
// every kernel of tests/annotate/stage/kernels.cl, rewritten, gives the original's output
// bit for bit, built without DL_ASTA_T (the original text), with it at the work-group it
// was staged for (reads from local memory), at another work-group and at one the
// implementation picks (the unstaged reads). A probe build whose copies into local
// memory add 1 shows the staged reads are the ones taken. docs/annotation.md, "Staging
// in local memory".
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../cl/cl_env.hpp"
#include "dl/layout.hpp"

namespace {

using dltest::ClEnv;
using dltest::DeviceBuffer;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// One kernel argument: a buffer of floats read (random values) or written (a fixed
/// pattern first, so elements the kernel leaves compare too), or an int. A buffer read
/// as records of `s` floats that DL converts (an AoS: clause -> ASTA) holds them in
/// ASTA(32) for the DL build, as the runtime would leave it.
struct Arg {
  enum Kind { In, Out, Int } kind;
  std::size_t n = 0;  // floats
  int value = 0;
  unsigned s = 0;  // records of s floats converted to ASTA(32) for the DL build; 0: none
};
Arg in(std::size_t n) {
  return {Arg::In, n, 0, 0};
}
Arg in_asta(std::size_t n, unsigned s) {
  return {Arg::In, n, 0, s};
}
Arg out(std::size_t n) {
  return {Arg::Out, n, 0, 0};
}
Arg i32(int v) {
  return {Arg::Int, 0, v, 0};
}

struct Case {
  std::string kernel;
  cl_uint dims;
  std::array<std::size_t, 3> global;
  std::array<std::size_t, 3> staged;  // the work-group dl-annotate staged for
  std::array<std::size_t, 3> other;   // another one: the unstaged reads
  std::vector<Arg> args;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      // 40 rows of A are the matrix (rows * MM_K elements, the clause's count); the
      // launch covers 48, and A holds 48 so the original reads stay inside it.
      {"matmul_k",
       2,
       {48, 48, 1},
       {16, 16, 1},
       {8, 8, 1},
       {in(48 * 64), in(64 * 48), out(40 * 48), i32(40), i32(48)}},
      {"matmul_wide",
       2,
       {48, 48, 1},
       {16, 16, 1},
       {8, 8, 1},
       {in(48 * 256), in(256 * 48), out(40 * 48), i32(40), i32(48)}},
      {"stencil5",
       2,
       {64, 48, 1},
       {16, 16, 1},
       {8, 4, 1},
       {in(50 * 37), out(50 * 37), i32(50), i32(37)}},
      {"stencil7",
       3,
       {24, 16, 12},
       {8, 8, 4},
       {4, 4, 4},
       {in(20 * 13 * 9), out(20 * 13 * 9), i32(20), i32(13), i32(9)}},
      {"conv5x5",
       2,
       {48, 32, 1},
       {16, 16, 1},
       {8, 8, 1},
       {in(52 * 36), in(25), out(52 * 36), i32(52)}},
      // 1000 records: the last ASTA tile is partial; the launch covers 1024.
      {"smooth4",
       1,
       {1024, 1, 1},
       {256, 1, 1},
       {64, 1, 1},
       {in_asta(1000 * 4, 4), out(1000 * 4), i32(1000)}},
  };
  return c;
}

cl_program build(const std::string& src, const std::string& options) {
  auto& env = ClEnv::get();
  const char* s = src.c_str();
  const std::size_t len = src.size();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(env.context, 1, &s, &len, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (clBuildProgram(p, 1, &env.device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    std::size_t n = 0;
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    ADD_FAILURE() << "build failed (" << options << "):\n" << log;
    clReleaseProgram(p);
    return nullptr;
  }
  return p;
}

/// The programs of one test binary, built once: the original, the rewrite without
/// DL_ASTA_T, with it, and the probe.
struct Programs {
  cl_program original = nullptr, plain = nullptr, staged = nullptr, probe = nullptr;
  static Programs& get() {
    static Programs p;
    return p;
  }

 private:
  Programs() {
    if (!ClEnv::get().ok()) return;
    original = build(slurp(DL_STAGE_SRC), "");
    const std::string rewritten = slurp(DL_STAGE_OUT);
    plain = build(rewritten, "");
    staged = build(rewritten, "-DDL_ASTA_T=32");
    // Every copy into local memory adds 1: a staged read then differs from the original.
    const std::string probe_src = std::regex_replace(
        rewritten, std::regex(R"((dl_local_\w+\[dl_t\] = [^;]+);)"), "$1 + 1.0f;");
    EXPECT_NE(probe_src, rewritten) << "no copy into local memory in " << DL_STAGE_OUT;
    probe = build(probe_src, "-DDL_ASTA_T=32");
  }
};

/// Runs `c` from program `p` with work-group `local` (nullptr: the implementation's);
/// returns the bytes of every output buffer, one after the other. `dl`: `p` is a DL build
/// (buffers DL converts are given in their layout).
std::vector<unsigned char> run(cl_program p, const Case& c, const std::size_t* local,
                               bool dl = false, const std::size_t* offset = nullptr) {
  auto& env = ClEnv::get();
  if (!p) return {};
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, c.kernel.c_str(), &err);
  EXPECT_EQ(err, CL_SUCCESS) << c.kernel;
  if (err != CL_SUCCESS) return {};
  std::vector<std::unique_ptr<DeviceBuffer>> bufs;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (cl_uint i = 0; i < c.args.size(); ++i) {
    const Arg& a = c.args[i];
    if (a.kind == Arg::Int) {
      EXPECT_EQ(clSetKernelArg(k, i, sizeof a.value, &a.value), CL_SUCCESS);
      continue;
    }
    auto& b = bufs.emplace_back(std::make_unique<DeviceBuffer>(a.n * sizeof(float)));
    std::vector<float> v(a.n);
    for (std::size_t j = 0; j < a.n; ++j) v[j] = a.kind == Arg::In ? u(rng) : 1000.0f + j;
    std::vector<unsigned char> bytes(v.size() * sizeof(float));
    std::memcpy(bytes.data(), v.data(), bytes.size());
    if (dl && a.s) {
      const dl::Record rec =
          dl::Record::parse("flat_float_" + std::to_string(a.s) + " " + std::to_string(4 * a.s) +
                            " 4 float*" + std::to_string(a.s) + ":v@0");
      const std::size_t n = a.n / a.s;
      std::vector<unsigned char> asta(bytes.size());
      dl::convert(rec, n, dl::Layout::aos(), bytes.data(), dl::Layout::asta(32), asta.data());
      EXPECT_FALSE(asta == bytes) << "a conversion that moves nothing tests nothing";
      bytes = std::move(asta);
    }
    b->write(bytes);
    EXPECT_EQ(clSetKernelArg(k, i, sizeof(cl_mem), &b->mem), CL_SUCCESS);
  }
  EXPECT_EQ(clEnqueueNDRangeKernel(env.queue, k, c.dims, offset, c.global.data(), local, 0, nullptr,
                                   nullptr),
            CL_SUCCESS)
      << c.kernel;
  EXPECT_EQ(clFinish(env.queue), CL_SUCCESS);
  std::vector<unsigned char> outs;
  std::size_t b = 0;
  for (const Arg& a : c.args) {
    if (a.kind == Arg::Int) continue;
    const auto bytes = bufs[b++]->read();
    if (a.kind == Arg::Out) outs.insert(outs.end(), bytes.begin(), bytes.end());
  }
  clReleaseKernel(k);
  return outs;
}

class Stage : public ::testing::TestWithParam<std::size_t> {
 protected:
  void SetUp() override {
    if (!ClEnv::get().ok()) GTEST_SKIP() << "no OpenCL device";
  }
};

TEST_P(Stage, SameOutputAsTheOriginal) {
  const Case& c = cases()[GetParam()];
  const Programs& p = Programs::get();
  const auto want = run(p.original, c, c.staged.data());
  ASSERT_FALSE(want.empty());
  EXPECT_TRUE(run(p.plain, c, c.staged.data()) == want) << "without DL_ASTA_T";
  EXPECT_TRUE(run(p.staged, c, c.staged.data(), true) == want) << "staged work-group";
  EXPECT_TRUE(run(p.staged, c, c.other.data(), true) == want) << "another work-group (unstaged)";
  EXPECT_TRUE(run(p.staged, c, nullptr, true) == want) << "the implementation's work-group";
}

// The probe's copies add 1: at the work-group staged for, the output differs from the
// original's; at another, the reads are the original's.
TEST_P(Stage, StagedReadsAreTaken) {
  const Case& c = cases()[GetParam()];
  const Programs& p = Programs::get();
  const auto want = run(p.original, c, c.staged.data());
  const auto probe = run(p.probe, c, c.staged.data(), true);
  ASSERT_EQ(probe.size(), want.size());
  EXPECT_TRUE(probe != want) << c.kernel << ": the staged reads are not taken";
  EXPECT_TRUE(run(p.probe, c, c.other.data(), true) == want)
      << "another work-group reads global memory";
}

// A global offset moves every group's box (the origin reads get_global_offset).
TEST(StageOffset, StencilWithAGlobalOffset) {
  if (!ClEnv::get().ok()) GTEST_SKIP() << "no OpenCL device";
  const Programs& p = Programs::get();
  Case c = cases()[2];
  ASSERT_EQ(c.kernel, "stencil5");
  c.global = {32, 16, 1};
  const std::size_t offset[3] = {16, 16, 0};
  const auto want = run(p.original, c, c.staged.data(), false, offset);
  ASSERT_FALSE(want.empty());
  EXPECT_TRUE(run(p.staged, c, c.staged.data(), true, offset) == want);
  EXPECT_TRUE(run(p.probe, c, c.staged.data(), true, offset) != want) << "not staged";
}

INSTANTIATE_TEST_SUITE_P(Kernels, Stage, ::testing::Range<std::size_t>(0, cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& i) {
                           return cases()[i.param].kernel;
                         });

}  // namespace
