// options: an unmodified OpenCL application pricing European options stored as an
// array of 5-float records (Black-Scholes), for a few interest rates.
//
//   options [output file] [n] [rates]
#include <random>
#include <vector>

#include "example.hpp"

struct Option {
  cl_float s, x, t, call, put;
};
static_assert(sizeof(Option) == 20, "matches the OpenCL C layout");

int main(int argc, char** argv) {
  const cl_int n = argc > 2 ? std::atoi(argv[2]) : 200009;
  const int rates = argc > 3 ? std::atoi(argv[3]) : 3;
  example::OpenCL cl;
  cl_program program = cl.program("options.cl");
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "black_scholes", &err);
  CL_CHECK(err);
  std::vector<Option> o(static_cast<std::size_t>(n));
  std::mt19937 g(3);
  std::uniform_real_distribution<float> s(5.0f, 30.0f), x(1.0f, 100.0f), t(0.25f, 10.0f);
  for (auto& v : o) v = {s(g), x(g), t(g), -1.0f, -1.0f};
  cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              o.size() * sizeof(Option), o.data(), &err);
  CL_CHECK(err);
  std::vector<Option> out(o.size() * static_cast<std::size_t>(rates));
  const size_t local = 128, global = (static_cast<size_t>(n) + local - 1) / local * local;
  for (int r = 0; r < rates; ++r) {
    const float rate = 0.01f + 0.02f * static_cast<float>(r), vol = 0.30f;
    CL_CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    CL_CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    CL_CHECK(clSetKernelArg(k, 2, sizeof rate, &rate));
    CL_CHECK(clSetKernelArg(k, 3, sizeof vol, &vol));
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, o.size() * sizeof(Option),
                                 out.data() + o.size() * static_cast<std::size_t>(r), 0, nullptr,
                                 nullptr));
  }
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(program);
  return example::finish("options", out.data(), out.size() * sizeof(Option),
                         argc > 1 ? argv[1] : nullptr);
}
