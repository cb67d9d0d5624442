// Scenarios of the profitability controller, and of host accesses that touch no
// converted byte (no conversion back is needed for them).
#include <cstdlib>

#include "hook_app.hpp"

namespace hookapp {
namespace {

/// `//DL: AoS: p[n]` with n = 500 of 1000 records: the host rewrites records 600..699
/// between launches, bytes DL never converted.
void host_writes_outside(Ctx& c) {
  constexpr int cap = N, n = 500;
  auto v = make_particles(cap, 51), w = make_particles(100, 52);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance_cap");
  const float dt = 0.25f;
  for (int it = 0; it < 20; ++it) {
    CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_FALSE, 600 * sizeof(Particle),
                                  w.size() * sizeof(Particle), w.data(), 0, nullptr, nullptr));
    set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof cap, &cap}, {sizeof dt, &dt}});
    launch(c, k, cap);
  }
  read_all(c, m, cap);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// The host rewrites exactly the converted records [0, n) before every launch: they are
/// replaced, so they become AoS without a conversion back.
void host_rewrites_converted(Ctx& c) {
  constexpr int cap = N, n = 500;
  auto v = make_particles(cap, 53);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance_cap");
  const float dt = 0.25f;
  for (int it = 0; it < 10; ++it) {
    auto w = make_particles(n, 60 + it);
    CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_FALSE, 0, n * sizeof(Particle), w.data(), 0,
                                  nullptr, nullptr));
    set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof cap, &cap}, {sizeof dt, &dt}});
    launch(c, k, cap);
    CHECK(cl.clFinish(c.queue));  // w goes out of scope
  }
  read_all(c, m, cap);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Many launches of one kernel, then a read: the controller's long epoch.
void long_run(Ctx& c) {
  auto v = make_particles(N, 54);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  for (int it = 0; it < 40; ++it) step(c, k, m, N, 0.001f * static_cast<float>(it + 1));
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Many launches over a million records: AoS kernel time enough to pay for building the
/// transformed program (the controller builds it only then).
void heavy_run(Ctx& c) {
  constexpr int n = 1 << 20;
  auto v = make_particles(n, 56);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  for (int it = 0; it < 60; ++it) step(c, k, m, n, 0.001f * static_cast<float>(it + 1));
  read_all(c, m, n);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// A kernel that only reads host-visible memory, 60 times: each transformed launch reads
/// a copy made for it.
void heavy_host_run(Ctx& c) {
  constexpr int n = 1 << 18;
  auto v = make_particles(n, 57);
  cl_mem m = host_buffer(c, v);
  cl_mem out = plain(c, n * sizeof(float));
  cl_kernel k = kernel(c, "weigh");
  set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}});
  for (int it = 0; it < 60; ++it) launch(c, k, n);
  read_floats(c, out, n);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(out);
  cl.clReleaseMemObject(m);
}

/// One launch between host reads, many times: epochs of one launch.
void read_every_launch(Ctx& c) {
  auto v = make_particles(N, 55);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  for (int it = 0; it < 30; ++it) {
    step(c, k, m, N, 0.001f * static_cast<float>(it + 1));
    Particle p{};
    CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 7 * sizeof(Particle), sizeof p, &p, 0,
                                 nullptr, nullptr));
    c.keep(&p, sizeof p);
  }
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Eight launches of the offset width's probe (hooks.cl) of program `p`: it keeps which
/// build ran each, then the records.
void probe_program(Ctx& c, cl_program p, unsigned seed) {
  auto v = make_particles(N, seed);
  cl_mem m = buffer(c, v);
  cl_int err = CL_SUCCESS;
  constexpr int launches = 8;
  cl_mem out =
      cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE, launches * sizeof(int), nullptr, &err);
  CHECK(err);
  cl_kernel k = cl.clCreateKernel(p, "width_probe", &err);
  CHECK(err);
  const int n = N;
  for (int it = 0; it < launches; ++it) {
    set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}, {sizeof it, &it}});
    launch(c, k, N);
  }
  int ran[launches] = {};
  CHECK(cl.clEnqueueReadBuffer(c.queue, out, CL_TRUE, 0, sizeof ran, ran, 0, nullptr, nullptr));
  c.keep(ran, sizeof ran);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(out);
  cl.clReleaseMemObject(m);
}

void width_probe(Ctx& c) {
  probe_program(c, c.program, 57);
}

/// The probe of the test program, then of a second build of its source (another option):
/// a kernel of the same name in another program, whose width is its own.
void width_probe_two_programs(Ctx& c) {
  probe_program(c, c.program, 57);
  cl_program second = build(c, read_file(std::getenv("DL_TEST_KERNELS")), "-DDL_PROBE_SECOND");
  probe_program(c, second, 58);
  cl.clReleaseProgram(second);
}

}  // namespace

void add_policy_scenarios(Scenarios& s) {
  s["width_probe"] = width_probe;
  s["width_probe_two_programs"] = width_probe_two_programs;
  s["host_writes_outside"] = host_writes_outside;
  s["host_rewrites_converted"] = host_rewrites_converted;
  s["long_run"] = long_run;
  s["read_every_launch"] = read_every_launch;
  s["heavy_run"] = heavy_run;
  s["heavy_host_run"] = heavy_host_run;
}

}  // namespace hookapp
