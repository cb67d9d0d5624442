// particles: an unmodified OpenCL application in AoS. Integrates N particles for a
// number of steps with an annotated kernel and reads them back.
//
//   particles [output file] [n] [steps]
#include <cstring>
#include <random>
#include <vector>

#include "example.hpp"

struct Particle {  // the OpenCL C struct {float4 pos; float4 vel; float mass; int id;}
  cl_float4 pos;
  cl_float4 vel;
  cl_float mass;
  cl_int id;
  cl_float pad[2];
};
static_assert(sizeof(Particle) == 48, "matches the OpenCL C layout");

int main(int argc, char** argv) {
  const int n = argc > 2 ? std::atoi(argv[2]) : 100003;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 10;
  example::OpenCL cl;
  cl_program program = cl.program("particles.cl");
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "integrate", &err);
  CL_CHECK(err);

  std::vector<Particle> p(static_cast<std::size_t>(n));
  std::mt19937 g(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c) p[i].pos.s[c] = u(g), p[i].vel.s[c] = u(g);
    p[i].mass = 1.5f + u(g);
    p[i].id = i;
    p[i].pad[0] = p[i].pad[1] = 0.0f;
  }
  cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              p.size() * sizeof(Particle), p.data(), &err);
  CL_CHECK(err);
  const float dt = 0.01f;
  CL_CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
  CL_CHECK(clSetKernelArg(k, 1, sizeof n, &n));
  CL_CHECK(clSetKernelArg(k, 2, sizeof dt, &dt));
  const size_t local = 64, global = (static_cast<size_t>(n) + local - 1) / local * local;
  for (int s = 0; s < steps; ++s)
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::memset(p.data(), 0, p.size() * sizeof(Particle));
  CL_CHECK(clEnqueueReadBuffer(cl.queue, buf, CL_TRUE, 0, p.size() * sizeof(Particle), p.data(), 0,
                               nullptr, nullptr));
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(program);
  return example::finish("particles", p.data(), p.size() * sizeof(Particle),
                         argc > 1 ? argv[1] : nullptr);
}
