// The unmodified test application of tests/interpose (see hook_app.cpp): the OpenCL
// entry points it uses, its context, and helpers shared by its scenario files.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#define API_LIST(X)                                                                                \
  X(clGetPlatformIDs)                                                                              \
  X(clGetDeviceIDs)                                                                                \
  X(clGetDeviceInfo)                                                                               \
  X(clCreateContext)                                                                               \
  X(clCreateCommandQueueWithProperties)                                                            \
  X(clCreateProgramWithSource) X(clBuildProgram) X(clGetProgramBuildInfo) X(clGetProgramInfo)      \
      X(clCreateProgramWithBinary) X(clCreateKernel) X(clSetKernelArg) X(clCreateBuffer)           \
          X(clCreateSubBuffer) X(clCreateImage) X(clEnqueueNDRangeKernel) X(clEnqueueReadBuffer)   \
              X(clEnqueueWriteBuffer) X(clEnqueueReadBufferRect) X(clEnqueueCopyBuffer)            \
                  X(clEnqueueFillBuffer) X(clEnqueueMapBuffer) X(clEnqueueUnmapMemObject)          \
                      X(clEnqueueReadImage) X(clFinish) X(clFlush) X(clWaitForEvents)              \
                          X(clGetEventInfo) X(clCreateUserEvent) X(clSetUserEventStatus)           \
                              X(clReleaseEvent) X(clReleaseMemObject) X(clReleaseKernel)           \
                                  X(clReleaseProgram) X(clReleaseCommandQueue) X(clReleaseContext) \
                                      X(clCompileProgram) X(clLinkProgram) X(clCloneKernel)

struct Api {
#define X(name) decltype(&::name) name = nullptr;
  API_LIST(X)
#undef X
};
extern Api cl;

#define CHECK(x)                                                                  \
  do {                                                                            \
    cl_int st_ = (x);                                                             \
    if (st_ != CL_SUCCESS) {                                                      \
      std::fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, (int)st_); \
      std::exit(1);                                                               \
    }                                                                             \
  } while (0)

namespace hookapp {

struct Particle {
  float pos[4];
  float vel[4];
  float mass;
  int id;
  float pad[2];
};
static_assert(sizeof(Particle) == 48, "OpenCL C layout");

struct Ctx {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
  cl_program program;
  std::vector<unsigned char> out;  // everything read back, in order
  void keep(const void* p, std::size_t n) {
    auto* b = static_cast<const unsigned char*>(p);
    out.insert(out.end(), b, b + n);
  }
};

constexpr int N = 1000;  // not a multiple of any tile: the last ASTA tile is partial

std::string read_file(const std::string& path);
std::vector<Particle> make_particles(std::size_t n, unsigned seed);
cl_program build(Ctx& c, const std::string& src, const char* options = "");
cl_kernel kernel(Ctx& c, const char* name);
cl_mem buffer(Ctx& c, const std::vector<Particle>& v, cl_mem_flags extra = 0);
/// A CL_MEM_USE_HOST_PTR buffer over `v` (host-visible memory: the host sees `v` itself).
cl_mem host_buffer(Ctx& c, std::vector<Particle>& v);
void step(Ctx& c, cl_kernel k, cl_mem m, int n, float dt, cl_command_queue q = nullptr,
          cl_uint nw = 0, const cl_event* w = nullptr, cl_event* e = nullptr);
void read_all(Ctx& c, cl_mem m, std::size_t n);
void set_args(cl_kernel k, std::initializer_list<std::pair<std::size_t, const void*>> args);
/// A 1-D launch of `global` work-items (rounded up to work-groups of 64).
void launch(Ctx& c, cl_kernel k, std::size_t global, cl_command_queue q = nullptr, cl_uint nw = 0,
            const cl_event* w = nullptr, cl_event* e = nullptr);
cl_mem plain(Ctx& c, std::size_t bytes);
cl_mem sub(cl_mem parent, std::size_t origin, std::size_t size);
void read_floats(Ctx& c, cl_mem m, std::size_t n, cl_command_queue q = nullptr);

using Scenarios = std::map<std::string, std::function<void(Ctx&)>>;
/// trust_scenarios.cpp: one scenario per way DL once changed the application's bytes.
void add_trust_scenarios(Scenarios& s);
/// policy_scenarios.cpp: scenarios of the profitability controller and of host accesses
/// that need no conversion.
void add_policy_scenarios(Scenarios& s);
/// content_scenarios.cpp: content that needs no conversion (write_only, uniform fills).
void add_content_scenarios(Scenarios& s);

}  // namespace hookapp
