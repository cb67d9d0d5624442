// mixed: an unmodified OpenCL application over records with 1-, 2-, 4- and 8-byte
// fields (and padding). Updates them a few times with an annotated kernel.
//
//   mixed [output file] [n] [passes]
#include <cstring>
#include <random>
#include <vector>

#include "example.hpp"

struct Mixed {  // OpenCL C layout: 24 bytes, 8-byte aligned, one padding byte at 1 and 17
  cl_char flag;
  cl_short kind;
  cl_int count;
  cl_double weight;
  cl_uchar tag;
  cl_ushort level;
  cl_float value;
};
static_assert(sizeof(Mixed) == 24, "matches the OpenCL C layout");

int main(int argc, char** argv) {
  const cl_uint n = argc > 2 ? static_cast<cl_uint>(std::atoi(argv[2])) : 50021;
  const int passes = argc > 3 ? std::atoi(argv[3]) : 4;
  example::OpenCL cl;
  cl_program program = cl.program("mixed.cl");
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "update", &err);
  CL_CHECK(err);
  std::vector<Mixed> r(n);
  std::memset(r.data(), 0x11, r.size() * sizeof(Mixed));  // padding bytes are data too
  std::mt19937 g(7);
  for (cl_uint i = 0; i < n; ++i) {
    r[i].flag = static_cast<cl_char>(g() % 2);
    r[i].kind = static_cast<cl_short>(g() % 1000 - 500);
    r[i].count = static_cast<cl_int>(g() % 100000);
    r[i].weight = 1.0 + (g() % 1000) / 7.0;
    r[i].tag = static_cast<cl_uchar>(g());
    r[i].level = static_cast<cl_ushort>(g());
    r[i].value = static_cast<float>(g() % 1000) / 3.0f;
  }
  cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              r.size() * sizeof(Mixed), r.data(), &err);
  CL_CHECK(err);
  CL_CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
  const size_t global = n;
  for (int s = 0; s < passes; ++s) {
    const cl_int round = s;
    CL_CHECK(clSetKernelArg(k, 1, sizeof round, &round));
    CL_CHECK(
        clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  }
  CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, r.size() * sizeof(Mixed), r.data(), 0,
                               nullptr, nullptr));
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(program);
  return example::finish("mixed", r.data(), r.size() * sizeof(Mixed), argc > 1 ? argv[1] : nullptr);
}
