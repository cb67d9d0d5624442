// multidev: an unmodified OpenCL application that spreads the particles example over
// every device of the first platform (PoCL shows two with POCL_DEVICES="pthread pthread"):
// one context, one in-order queue per device, the steps taking turns between the queues,
// each waiting on the event of the step before it. Midway the host reads the buffer
// through another queue than the one that launched last, writes part of it back, and the
// steps go on; the output is the midway read followed by the final one.
//
//   multidev <output file> <particles.cl> [n] [steps]
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "example.hpp"
#include "particle.hpp"

namespace {

using example::Particle;

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path);
    std::exit(1);
  }
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: multidev <output file> <particles.cl> [n] [steps]\n");
    return 2;
  }
  const int n = argc > 3 ? std::atoi(argv[3]) : 50021;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 12;
  cl_platform_id platform = nullptr;
  CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
  cl_uint nd = 0;
  CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd));
  std::vector<cl_device_id> devs(nd);
  CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, nd, devs.data(), nullptr));
  std::printf("multidev: %u device(s)\n", nd);
  cl_int err = CL_SUCCESS;
  cl_context ctx = clCreateContext(nullptr, nd, devs.data(), nullptr, nullptr, &err);
  CL_CHECK(err);
  std::vector<cl_command_queue> qs;
  for (cl_device_id d : devs) {
    qs.push_back(clCreateCommandQueueWithProperties(ctx, d, nullptr, &err));
    CL_CHECK(err);
  }
  const std::string text = read_file(argv[2]);
  const char* src = text.c_str();
  cl_program program = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  CL_CHECK(err);
  CL_CHECK(clBuildProgram(program, nd, devs.data(), "", nullptr, nullptr));
  cl_kernel k = clCreateKernel(program, "integrate", &err);
  CL_CHECK(err);

  std::vector<Particle> p = example::make_particles(n, 7);
  const std::size_t bytes = p.size() * sizeof(Particle);
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, p.data(), &err);
  CL_CHECK(err);
  const size_t local = 64, global = example::bind_integrate(k, buf, n, 0.01f, local);
  std::vector<Particle> mid(p.size());
  cl_event last = nullptr;
  std::size_t q = 0;
  for (int s = 0; s < steps; ++s) {
    q = static_cast<std::size_t>(s) % qs.size();
    cl_event ev = nullptr;
    CL_CHECK(clEnqueueNDRangeKernel(qs[q], k, 1, nullptr, &global, &local, last ? 1 : 0,
                                    last ? &last : nullptr, &ev));
    if (last) clReleaseEvent(last);
    last = ev;
    if (s == steps / 2) {
      // Read through the next queue, then write the first third back changed.
      q = (q + 1) % qs.size();
      CL_CHECK(clEnqueueReadBuffer(qs[q], buf, CL_TRUE, 0, bytes, mid.data(), 1, &last, nullptr));
      std::vector<Particle> part(mid.begin(), mid.begin() + n / 3);
      for (auto& x : part) x.mass *= 2.0f;
      clReleaseEvent(last);
      CL_CHECK(clEnqueueWriteBuffer(qs[q], buf, CL_FALSE, 0, part.size() * sizeof(Particle),
                                    part.data(), 0, nullptr, &last));
      CL_CHECK(clFinish(qs[q]));
    }
  }
  std::vector<Particle> out(p.size());
  q = (q + 1) % qs.size();
  CL_CHECK(clEnqueueReadBuffer(qs[q], buf, CL_TRUE, 0, bytes, out.data(), last ? 1 : 0,
                               last ? &last : nullptr, nullptr));
  if (last) clReleaseEvent(last);
  out.insert(out.begin(), mid.begin(), mid.end());
  clReleaseMemObject(buf);
  clReleaseKernel(k);
  clReleaseProgram(program);
  for (cl_command_queue x : qs) clReleaseCommandQueue(x);
  clReleaseContext(ctx);
  return example::finish("multidev", out.data(), out.size() * sizeof(Particle), argv[1]);
}
