// Writes the device binary an OpenCL implementation builds from a kernel source (on
// NVIDIA's OpenCL: PTX text), to read what the compiler made of a rewrite:
//
//   g++ -O1 -o cl_binary bench/tools/cl_binary.cpp -lOpenCL
//   cl_binary <source.cl> <out> [build options...]
//
// Uses the first device of the first platform (select one with OCL_ICD_FILENAMES or
// OCL_ICD_VENDORS). Exit 1 with the build log on a failed build.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <source.cl> <out> [build options...]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string src = ss.str();
  std::string opts;
  for (int i = 3; i < argc; ++i) opts += std::string(argv[i]) + " ";
  cl_platform_id p = nullptr;
  cl_device_id d = nullptr;
  cl_int e = clGetPlatformIDs(1, &p, nullptr);
  if (e == CL_SUCCESS) e = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr);
  if (e != CL_SUCCESS) {
    std::fprintf(stderr, "no OpenCL device (%d)\n", e);
    return 2;
  }
  cl_context ctx = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &e);
  const char* s = src.c_str();
  cl_program prog = clCreateProgramWithSource(ctx, 1, &s, nullptr, &e);
  if (clBuildProgram(prog, 1, &d, opts.c_str(), nullptr, nullptr) != CL_SUCCESS) {
    std::size_t n = 0;
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
    std::string log(n, '\0');
    clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log.c_str());
    return 1;
  }
  std::size_t size = 0;
  clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
  std::vector<unsigned char> bin(size);
  unsigned char* ptr = bin.data();
  clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
  std::ofstream(argv[2], std::ios::binary)
      .write(reinterpret_cast<const char*>(bin.data()), static_cast<std::streamsize>(bin.size()));
  clReleaseProgram(prog);
  clReleaseContext(ctx);
  return 0;
}
