// marshal_program_source(): the per-record program builds (with and without DL_ASTA_T)
// and its four kernels agree with dl::convert.
#include "cl_env.hpp"

namespace {

using dl::Layout;
using dltest::ClEnv;

cl_program build(const std::string& src, const char* options) {
  auto& env = ClEnv::get();
  const char* s = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = clCreateProgramWithSource(env.context, 1, &s, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  err = clBuildProgram(p, 1, &env.device, options, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::size_t len = 0;
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
    std::string log(len, '\0');
    clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
    ADD_FAILURE() << "build failed: " << log;
    clReleaseProgram(p);
    return nullptr;
  }
  return p;
}

void run(cl_program p, const std::string& name, std::vector<cl_mem> bufs, cl_ulong n) {
  auto& env = ClEnv::get();
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name.c_str(), &err);
  ASSERT_EQ(err, CL_SUCCESS) << name;
  cl_uint a = 0;
  for (cl_mem b : bufs) clSetKernelArg(k, a++, sizeof(cl_mem), &b);
  clSetKernelArg(k, a, sizeof(n), &n);
  const std::size_t local = 64, global = 64 * 8;
  ASSERT_EQ(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  clFinish(env.queue);
  clReleaseKernel(k);
}

TEST(ProgramSource, PerRecordKernelsMatchOracle) {
  auto& env = ClEnv::get();
  if (!env.ok()) GTEST_SKIP();
  const auto rec = dl::Record::make(
      "prt",
      {{"p", dl::Scalar::Float, 3}, {"id", dl::Scalar::Short}, {"m", dl::Scalar::Double, 1, 2}});
  const std::string src = dl::marshal_program_source(rec);
  EXPECT_NE(src.find("AOS2ASTA_prt"), std::string::npos);
  cl_program plain = build(src, "");
  ASSERT_NE(plain, nullptr);
  cl_int err = CL_SUCCESS;
  clReleaseKernel(clCreateKernel(plain, "AOS2DA_prt", &err));
  EXPECT_EQ(err, CL_SUCCESS);
  clCreateKernel(plain, "AOS2ASTA_prt", &err);
  EXPECT_NE(err, CL_SUCCESS);  // only with DL_ASTA_T
  clReleaseProgram(plain);

  const std::uint32_t T = 16;
  cl_program p = build(src, "-DDL_ASTA_T=16");
  ASSERT_NE(p, nullptr);
  for (std::size_t n : {std::size_t(1000), std::size_t(16 * 9), std::size_t(16 * 9 + 15)}) {
    const auto in = dltest::random_bytes(n * rec.size(), static_cast<std::uint32_t>(n));
    std::vector<unsigned char> asta(in.size()), da(in.size());
    dl::convert(rec, n, Layout::aos(), in.data(), Layout::asta(T), asta.data());
    dl::convert(rec, n, Layout::aos(), in.data(), Layout::da(), da.data());
    dltest::DeviceBuffer a(in.size()), b(in.size());
    a.write(in);
    run(p, "AOS2ASTA_prt", {a.mem}, n);
    EXPECT_TRUE(a.read() == asta) << n;
    run(p, "ASTA2AOS_prt", {a.mem}, n);
    EXPECT_TRUE(a.read() == in) << n;
    run(p, "AOS2DA_prt", {a.mem, b.mem}, n);
    EXPECT_TRUE(b.read() == da) << n;
    run(p, "DA2AOS_prt", {b.mem, a.mem}, n);
    EXPECT_TRUE(a.read() == in) << n;
  }
  clReleaseProgram(p);
}

}  // namespace
