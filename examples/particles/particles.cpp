// particles: an unmodified OpenCL application in AoS. Integrates N particles for a
// number of steps with an annotated kernel and reads them back.
//
//   particles [output file] [n] [steps]
#include <cstring>
#include <vector>

#include "example.hpp"
#include "particle.hpp"

using example::Particle;

int main(int argc, char** argv) {
  const int n = argc > 2 ? std::atoi(argv[2]) : 100003;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 10;
  example::OpenCL cl;
  cl_program program = cl.program("particles.cl");
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(program, "integrate", &err);
  CL_CHECK(err);

  std::vector<Particle> p = example::make_particles(n, 42);
  cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              p.size() * sizeof(Particle), p.data(), &err);
  CL_CHECK(err);
  const size_t local = 64, global = example::bind_integrate(k, buf, n, 0.01f, local);
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
