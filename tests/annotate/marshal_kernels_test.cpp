// The marshaling program dl-annotate writes with --marshal-out (dl::marshal_program_source:
// AOS2ASTA_<rec>, ASTA2AOS_<rec>, AOS2DA_<rec>, DA2AOS_<rec>) for every record of the
// run-equivalence kernels, checked on the OpenCL device against the CPU oracle
// dl::convert: n = 1003 (partial last tile), built with -DDL_ASTA_T=32.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dl/annotation.hpp"
#include "dl/layout.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class MarshalFile : public ::testing::TestWithParam<std::string> {};

TEST_P(MarshalFile, MatchesCpuConvert) {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_uint np = 0;
  if (clGetPlatformIDs(1, &platform, &np) != CL_SUCCESS || !np ||
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS)
    GTEST_SKIP() << "no OpenCL device";
  cl_int err = 0;
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  ASSERT_EQ(err, CL_SUCCESS);

  const std::string stem = GetParam();
  const std::string src = slurp(std::string(DL_RUN_OUT_DIR) + "/" + stem + ".marshal.cl");
  const auto ann = dl::scan_annotations(slurp(std::string(DL_RUN_OUT_DIR) + "/" + stem + ".cl"));
  ASSERT_FALSE(src.empty());
  ASSERT_FALSE(ann.records.empty());
  const std::uint32_t T = 32;
  const std::size_t n = 1003;
  for (const auto& [name, rec] : ann.records) {
    SCOPED_TRACE("record " + rec.describe());
    // With several records, each record's program is selected by -DDL_MARSHAL_<record>.
    const char* s = src.c_str();
    size_t len = src.size();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const std::string opts = "-DDL_ASTA_T=32 -DDL_MARSHAL_" + name;
    ASSERT_EQ(clBuildProgram(prog, 1, &device, opts.c_str(), nullptr, nullptr), CL_SUCCESS);
    std::vector<unsigned char> aos(n * rec.size());
    std::mt19937 g(7);
    for (auto& b : aos) b = static_cast<unsigned char>(g() | 1);
    {
      std::vector<unsigned char> want(aos.size()), got(aos.size());
      dl::convert(rec, n, dl::Layout::aos(), aos.data(), dl::Layout::asta(T), want.data());
      cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, aos.size(),
                                  aos.data(), &err);
      ASSERT_EQ(err, CL_SUCCESS);
      for (int dir = 0; dir < 2; ++dir) {
        cl_kernel k =
            clCreateKernel(prog, ((dir ? "ASTA2AOS_" : "AOS2ASTA_") + name).c_str(), &err);
        ASSERT_EQ(err, CL_SUCCESS);
        cl_ulong nn = n;
        clSetKernelArg(k, 0, sizeof buf, &buf);
        clSetKernelArg(k, 1, sizeof nn, &nn);
        const size_t local = 64, global = 64 * 64;
        ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
                  CL_SUCCESS);
        ASSERT_EQ(
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, got.size(), got.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
        EXPECT_TRUE(got == (dir ? aos : want)) << (dir ? "ASTA2AOS" : "AOS2ASTA") << " T=" << T;
        clReleaseKernel(k);
      }
      clReleaseMemObject(buf);
    }
    // Out of place AoS <-> DA.
    std::vector<unsigned char> da(aos.size()), got(aos.size());
    dl::convert(rec, n, dl::Layout::aos(), aos.data(), dl::Layout::da(), da.data());
    cl_mem a =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, aos.size(), aos.data(), &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, aos.size(), nullptr, &err);
    for (int dir = 0; dir < 2; ++dir) {
      cl_kernel k = clCreateKernel(prog, ((dir ? "DA2AOS_" : "AOS2DA_") + name).c_str(), &err);
      ASSERT_EQ(err, CL_SUCCESS);
      cl_ulong nn = n;
      cl_mem from = dir ? b : a, to = dir ? a : b;
      if (dir) {
        std::vector<unsigned char> zero(aos.size(), 0);
        clEnqueueWriteBuffer(q, a, CL_TRUE, 0, zero.size(), zero.data(), 0, nullptr, nullptr);
      }
      clSetKernelArg(k, 0, sizeof from, &from);
      clSetKernelArg(k, 1, sizeof to, &to);
      clSetKernelArg(k, 2, sizeof nn, &nn);
      const size_t local = 64, global = 64 * 64;
      ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
                CL_SUCCESS);
      ASSERT_EQ(clEnqueueReadBuffer(q, to, CL_TRUE, 0, got.size(), got.data(), 0, nullptr, nullptr),
                CL_SUCCESS);
      EXPECT_TRUE(got == (dir ? aos : da)) << (dir ? "DA2AOS" : "AOS2DA");
      clReleaseKernel(k);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseProgram(prog);
  }
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

INSTANTIATE_TEST_SUITE_P(Records, MarshalFile,
                         ::testing::Values("basic", "helpers", "whole", "vector_packed", "flat",
                                           "layouts"));

}  // namespace
