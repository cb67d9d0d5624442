// Plain OpenCL boilerplate shared by the examples (no DL here: the examples are the
// unmodified applications DL runs under dl-run).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <unistd.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#define CL_CHECK(x)                                                                     \
  do {                                                                                  \
    cl_int st_ = (x);                                                                   \
    if (st_ != CL_SUCCESS) {                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, (int)st_); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

namespace example {

struct OpenCL {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  OpenCL() {
    CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    CL_CHECK(err);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    CL_CHECK(err);
  }
  ~OpenCL() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }

  /// Builds `file`, loaded at run time from the directory of the executable (so that a
  /// rewritten kernel can be dropped in without rebuilding the application).
  cl_program program(const std::string& file, const char* options = "") const {
    char self[4096] = {0};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    std::string dir = n > 0 ? std::string(self, static_cast<std::size_t>(n)) : std::string(".");
    dir = dir.substr(0, dir.rfind('/'));
    std::ifstream in(dir + "/" + file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s/%s\n", dir.c_str(), file.c_str());
      std::exit(1);
    }
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    const char* src = text.c_str();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context, 1, &src, nullptr, &err);
    CL_CHECK(err);
    if (clBuildProgram(p, 1, &device, options, nullptr, nullptr) != CL_SUCCESS) {
      char log[16384] = {0};
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
      std::fprintf(stderr, "%s failed to build:\n%s\n", file.c_str(), log);
      std::exit(1);
    }
    return p;
  }
};

/// Prints the checksum of the output bytes and writes them to `path` (if given).
inline int finish(const char* name, const void* data, std::size_t size, const char* path) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < size; ++i)
    h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  std::printf("%s: %zu bytes, checksum %016llx\n", name, size, static_cast<unsigned long long>(h));
  if (!path) return 0;
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return out ? 0 : 1;
}

}  // namespace example
