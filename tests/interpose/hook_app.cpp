// An unmodified OpenCL application (no DL calls) that exercises one hook semantic per
// scenario and writes every byte it reads back to a file. The tests run it natively
// and under libdl_interpose.so and compare the files byte for byte.
//
//   dl_hook_app <scenario> <output file> [--dlopen]
//
// --dlopen: load libOpenCL.so.1 with dlopen() and take every entry point from dlsym().
#include "hook_app.hpp"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

Api cl;

namespace hookapp {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<Particle> make_particles(std::size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(0.5f, 2.0f);
  std::vector<Particle> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 4; ++k) v[i].pos[k] = u(g), v[i].vel[k] = u(g);
    v[i].mass = u(g);
    v[i].id = static_cast<int>(i * 7 + seed);
    v[i].pad[0] = v[i].pad[1] = u(g);  // padding bytes must survive marshaling too
  }
  return v;
}

cl_program build(Ctx& c, const std::string& src, const char* options) {
  const char* s = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = cl.clCreateProgramWithSource(c.context, 1, &s, nullptr, &err);
  CHECK(err);
  const auto t0 = std::chrono::steady_clock::now();
  if (cl.clBuildProgram(p, 1, &c.device, options, nullptr, nullptr) != CL_SUCCESS) {
    char log[16384] = {0};
    cl.clGetProgramBuildInfo(p, c.device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    std::fprintf(stderr, "build failed:\n%s\n", log);
    std::exit(1);
  }
  // The controller's tests compare it with the AoS kernel time (it decides by both).
  std::fprintf(
      stderr, "build: %.3f ms\n",
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return p;
}

cl_kernel kernel(Ctx& c, const char* name) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = cl.clCreateKernel(c.program, name, &err);
  CHECK(err);
  return k;
}

cl_mem buffer(Ctx& c, const std::vector<Particle>& v, cl_mem_flags extra) {
  cl_int err = CL_SUCCESS;
  cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR | extra,
                               v.size() * sizeof(Particle), const_cast<Particle*>(v.data()), &err);
  CHECK(err);
  return m;
}

cl_mem host_buffer(Ctx& c, std::vector<Particle>& v) {
  cl_int err = CL_SUCCESS;
  cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                               v.size() * sizeof(Particle), v.data(), &err);
  CHECK(err);
  return m;
}

void step(Ctx& c, cl_kernel k, cl_mem m, int n, float dt, cl_command_queue q, cl_uint nw,
          const cl_event* w, cl_event* e) {
  CHECK(cl.clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(cl.clSetKernelArg(k, 1, sizeof n, &n));
  CHECK(cl.clSetKernelArg(k, 2, sizeof dt, &dt));
  const size_t g = static_cast<size_t>((n + 63) / 64 * 64), l = 64;
  CHECK(cl.clEnqueueNDRangeKernel(q ? q : c.queue, k, 1, nullptr, &g, &l, nw, w, e));
}

void scale(Ctx& c, cl_kernel k, cl_mem m, std::size_t n, float f) {
  CHECK(cl.clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(cl.clSetKernelArg(k, 1, sizeof f, &f));
  CHECK(cl.clEnqueueNDRangeKernel(c.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
}

void read_all(Ctx& c, cl_mem m, std::size_t n) {
  std::vector<Particle> v(n);
  std::memset(v.data(), 0xA5, n * sizeof(Particle));  // poison
  CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 0, n * sizeof(Particle), v.data(), 0, nullptr,
                               nullptr));
  c.keep(v.data(), n * sizeof(Particle));
}

float total(Ctx& c, cl_mem m, int n) {
  cl_kernel k = kernel(c, "total_mass");
  cl_int err = CL_SUCCESS;
  cl_mem out = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE, sizeof(float), nullptr, &err);
  CHECK(err);
  CHECK(cl.clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(cl.clSetKernelArg(k, 1, sizeof n, &n));
  CHECK(cl.clSetKernelArg(k, 2, sizeof out, &out));
  const size_t g = 1;
  CHECK(cl.clEnqueueNDRangeKernel(c.queue, k, 1, nullptr, &g, nullptr, 0, nullptr, nullptr));
  float r = -1;
  CHECK(cl.clEnqueueReadBuffer(c.queue, out, CL_TRUE, 0, sizeof r, &r, 0, nullptr, nullptr));
  c.keep(&r, sizeof r);
  cl.clReleaseMemObject(out);
  cl.clReleaseKernel(k);
  return r;
}

void set_args(cl_kernel k, std::initializer_list<std::pair<std::size_t, const void*>> args) {
  cl_uint i = 0;
  for (const auto& [size, value] : args) CHECK(cl.clSetKernelArg(k, i++, size, value));
}

void launch(Ctx& c, cl_kernel k, std::size_t global, cl_command_queue q, cl_uint nw,
            const cl_event* w, cl_event* e) {
  const std::size_t g = (global + 63) / 64 * 64, l = 64;
  CHECK(cl.clEnqueueNDRangeKernel(q ? q : c.queue, k, 1, nullptr, &g, &l, nw, w, e));
}

cl_mem plain(Ctx& c, std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  CHECK(err);
  return m;
}

cl_mem sub(cl_mem parent, std::size_t origin, std::size_t size) {
  cl_buffer_region r{origin, size};
  cl_int err = CL_SUCCESS;
  cl_mem m =
      cl.clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(err);
  return m;
}

void read_floats(Ctx& c, cl_mem m, std::size_t n, cl_command_queue q) {
  std::vector<float> v(n, -7.0f);
  CHECK(cl.clEnqueueReadBuffer(q ? q : c.queue, m, CL_TRUE, 0, n * sizeof(float), v.data(), 0,
                               nullptr, nullptr));
  c.keep(v.data(), n * sizeof(float));
}

namespace {

// ---- scenarios -------------------------------------------------------------------

void basic(Ctx& c) {  // several launches, one read (reuse without re-marshaling)
  auto v = make_particles(N, 1);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  for (int it = 0; it < 5; ++it) step(c, k, m, N, 0.01f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void partial(Ctx& c) {  // partial reads and writes between launches
  auto v = make_particles(N, 2);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  std::vector<unsigned char> part(4000, 0x5A);
  CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 1234, part.size(), part.data(), 0, nullptr,
                               nullptr));
  c.keep(part.data(), part.size());
  step(c, k, m, N, 0.02f);
  auto w = make_particles(10, 99);  // overwrite records 500..509, plus a few odd bytes
  CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_FALSE, 500 * sizeof(Particle), 10 * sizeof(Particle),
                                w.data(), 0, nullptr, nullptr));
  const unsigned char odd[5] = {1, 2, 3, 4, 5};
  CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_TRUE, 77, sizeof odd, odd, 0, nullptr, nullptr));
  step(c, k, m, N, 0.03f);
  size_t bo[3] = {96, 3, 0}, ho[3] = {0, 0, 0}, reg[3] = {200, 5, 1};
  std::vector<unsigned char> rect(1000, 0x33);
  CHECK(cl.clEnqueueReadBufferRect(c.queue, m, CL_TRUE, bo, ho, reg, 4800, 0, 200, 0, rect.data(),
                                   0, nullptr, nullptr));
  c.keep(rect.data(), rect.size());
  step(c, k, m, N, 0.04f);
  const float pattern = 3.5f;  // partial fill
  CHECK(cl.clEnqueueFillBuffer(c.queue, m, &pattern, sizeof pattern, 480, 96, 0, nullptr, nullptr));
  step(c, k, m, N, 0.05f);
  read_all(c, m, N);
  // A whole-buffer write replaces the contents: no marshal back is needed.
  step(c, k, m, N, 0.05f);
  CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_TRUE, 0, N * sizeof(Particle), v.data(), 0, nullptr,
                                nullptr));
  step(c, k, m, N, 0.06f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void maps(Ctx& c) {  // maps for read and for write
  auto v = make_particles(N, 3);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  cl_int err = CL_SUCCESS;
  auto* p = static_cast<Particle*>(cl.clEnqueueMapBuffer(
      c.queue, m, CL_TRUE, CL_MAP_READ, 0, N * sizeof(Particle), 0, nullptr, nullptr, &err));
  CHECK(err);
  c.keep(p, N * sizeof(Particle));
  CHECK(cl.clEnqueueUnmapMemObject(c.queue, m, p, 0, nullptr, nullptr));
  step(c, k, m, N, 0.02f);
  cl_event mapped = nullptr;
  p = static_cast<Particle*>(cl.clEnqueueMapBuffer(c.queue, m, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE,
                                                   100 * sizeof(Particle), 50 * sizeof(Particle), 0,
                                                   nullptr, &mapped, &err));
  CHECK(err);
  CHECK(cl.clWaitForEvents(1, &mapped));
  cl.clReleaseEvent(mapped);
  for (int i = 0; i < 50; ++i) p[i].mass *= 2.0f, p[i].id ^= 0x55;
  CHECK(cl.clEnqueueUnmapMemObject(c.queue, m, p, 0, nullptr, nullptr));
  step(c, k, m, N, 0.03f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void copies(Ctx& c) {  // copies between buffers in different layouts (ASTA and DA)
  auto v = make_particles(N, 4), w = make_particles(N, 5);
  cl_mem a = buffer(c, v), b = buffer(c, w), d = buffer(c, w);
  cl_kernel k = kernel(c, "advance"), s = kernel(c, "scale");
  step(c, k, a, N, 0.01f);  // a: ASTA
  scale(c, s, b, N, 1.5f);  // b: DA
  CHECK(cl.clEnqueueCopyBuffer(c.queue, a, b, 48 * 10, 48 * 20 + 8, 48 * 100, 0, nullptr, nullptr));
  step(c, k, b, N, 0.02f);
  CHECK(cl.clEnqueueCopyBuffer(c.queue, b, d, 0, 0, N * sizeof(Particle), 0, nullptr,
                               nullptr));  // whole
  read_all(c, a, N);
  read_all(c, b, N);
  read_all(c, d, N);
  total(c, b, N);  // an unannotated kernel on a transformed buffer
  cl.clReleaseKernel(k);
  cl.clReleaseKernel(s);
  for (cl_mem m : {a, b, d}) cl.clReleaseMemObject(m);
}

void subbuffers(Ctx& c) {  // sub-buffers see and change the parent's AoS bytes
  auto v = make_particles(N, 6);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  cl_buffer_region r{64 * sizeof(Particle), 300 * sizeof(Particle)};  // aligned origin
  cl_int err = CL_SUCCESS;
  cl_mem sub = cl.clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(err);
  read_all(c, sub, 300);
  step(c, k, sub, 300, 0.5f);  // the sub-buffer itself as an annotated argument
  read_all(c, m, N);
  step(c, k, m, N, 0.02f);
  read_all(c, sub, 300);
  cl.clReleaseMemObject(sub);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void two_layouts(Ctx& c) {  // two kernels that want one buffer in ASTA and in DA
  auto v = make_particles(N, 7);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance"), s = kernel(c, "scale");
  for (int it = 0; it < 3; ++it) {
    step(c, k, m, N, 0.01f);
    scale(c, s, m, N, 1.01f);
  }
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseKernel(s);
  cl.clReleaseMemObject(m);
}

/// Whole writes of buffers a kernel keeps in ASTA (advance) or DA (scale), between
/// launches: scenarios uploads and uploads_da.
void uploads_into(Ctx& c, bool da) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue ooo = cl.clCreateCommandQueueWithProperties(c.context, c.device, props, &err);
  CHECK(err);
  auto v = make_particles(N, 21);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, da ? "scale" : "advance");
  // scale's n is its global size: no rounding up to work-groups.
  auto run = [&](cl_mem b, int n, float x, cl_command_queue q = nullptr, cl_uint nw = 0,
                 const cl_event* w = nullptr, cl_event* e = nullptr) {
    if (!da) return step(c, k, b, n, x, q, nw, w, e);
    const float f = 1.0f + x;
    const std::size_t g = static_cast<std::size_t>(n);
    CHECK(cl.clSetKernelArg(k, 0, sizeof b, &b));
    CHECK(cl.clSetKernelArg(k, 1, sizeof f, &f));
    CHECK(cl.clEnqueueNDRangeKernel(q ? q : c.queue, k, 1, nullptr, &g, nullptr, nw, w, e));
  };
  cl_event ran = nullptr;  // the last launch (a write on the other queue follows it)
  run(m, N, 0.01f, c.queue, 0, nullptr, &ran);
  for (int it = 0; it < 4; ++it) {
    const auto w = make_particles(N, 30 + it);
    const bool blocking = it % 2 == 0;
    cl_command_queue q = it == 3 ? ooo : c.queue;
    cl_event e = nullptr;
    CHECK(cl.clEnqueueWriteBuffer(q, m, blocking ? CL_TRUE : CL_FALSE, 0, N * sizeof(Particle),
                                  w.data(), 1, &ran, &e));
    cl.clReleaseEvent(ran);
    cl_command_type type = 0;
    CHECK(cl.clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
    c.keep(&type, sizeof type);
    run(m, N, 0.01f * static_cast<float>(it + 2), c.queue, 1, &e, &ran);
    CHECK(cl.clWaitForEvents(1, &e));
    cl_int status = 1;
    CHECK(cl.clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    c.keep(&status, sizeof status);
    cl.clReleaseEvent(e);
    if (it == 1) read_all(c, m, N);  // back to AoS: the next write is not converted
  }
  cl.clReleaseEvent(ran);
  read_all(c, m, N);
  // Slack bytes after the records the kernel converts, and a write read back at once.
  const std::size_t bytes = (N - 37) * sizeof(Particle) + 100;
  cl_mem s = plain(c, bytes);
  std::vector<unsigned char> raw(bytes);
  for (std::size_t i = 0; i < bytes; ++i) raw[i] = static_cast<unsigned char>(i * 13 + 5);
  const auto fresh = make_particles(N - 37, 40);
  std::memcpy(raw.data(), fresh.data(), fresh.size() * sizeof(Particle));
  CHECK(cl.clEnqueueWriteBuffer(c.queue, s, CL_TRUE, 0, bytes, raw.data(), 0, nullptr, nullptr));
  run(s, N - 37, 0.5f);
  for (auto& x : raw) x = static_cast<unsigned char>(x ^ 0x5C);
  CHECK(cl.clEnqueueWriteBuffer(c.queue, s, CL_FALSE, 0, bytes, raw.data(), 0, nullptr, nullptr));
  std::vector<unsigned char> back(bytes, 0xA5);
  CHECK(cl.clEnqueueReadBuffer(c.queue, s, CL_TRUE, 0, bytes, back.data(), 0, nullptr, nullptr));
  c.keep(back.data(), bytes);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
  cl.clReleaseMemObject(s);
  cl.clReleaseCommandQueue(ooo);
}

void uploads(Ctx& c) {
  uploads_into(c, false);
}
void uploads_da(Ctx& c) {
  uploads_into(c, true);
}

void spawn(Ctx& c) {  // a program without OpenCL run between launches (it inherits LD_PRELOAD)
  auto v = make_particles(N, 3);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  CHECK(cl.clFinish(c.queue));
  // Long enough for the completion callbacks to start DL's trace file.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (std::system("exec true") != 0) {
    std::fprintf(stderr, "cannot run a shell\n");
    std::exit(1);
  }
  step(c, k, m, N, 0.02f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void out_of_order(Ctx& c) {  // out-of-order queue, events, non-blocking reads
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue q = cl.clCreateCommandQueueWithProperties(c.context, c.device, props, &err);
  CHECK(err);
  auto v = make_particles(N, 8), w = make_particles(N, 9);
  cl_mem a = buffer(c, v), b = buffer(c, w);
  cl_kernel k1 = kernel(c, "advance"), k2 = kernel(c, "advance");
  cl_event e1 = nullptr, e2 = nullptr, e3 = nullptr, r1 = nullptr, r2 = nullptr;
  step(c, k1, a, N, 0.01f, q, 0, nullptr, &e1);
  step(c, k2, b, N, 0.02f, q, 0, nullptr, &e2);
  step(c, k1, a, N, 0.03f, q, 1, &e1, &e3);
  std::vector<Particle> ra(N), rb(N);
  std::memset(ra.data(), 0xA5, sizeof(Particle) * N);
  std::memset(rb.data(), 0xA5, sizeof(Particle) * N);
  CHECK(cl.clEnqueueReadBuffer(q, a, CL_FALSE, 0, N * sizeof(Particle), ra.data(), 1, &e3, &r1));
  CHECK(cl.clEnqueueReadBuffer(q, b, CL_FALSE, 0, N * sizeof(Particle), rb.data(), 1, &e2, &r2));
  cl_event both[2] = {r1, r2};
  CHECK(cl.clWaitForEvents(2, both));
  c.keep(ra.data(), N * sizeof(Particle));
  c.keep(rb.data(), N * sizeof(Particle));
  for (cl_event e : {e1, e2, e3, r1, r2}) cl.clReleaseEvent(e);
  cl.clReleaseKernel(k1);
  cl.clReleaseKernel(k2);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
  cl.clReleaseCommandQueue(q);
}

void two_queues(Ctx& c) {  // one buffer used from two in-order queues, ordered by events
  cl_int err = CL_SUCCESS;
  cl_command_queue q2 = cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &err);
  CHECK(err);
  auto v = make_particles(N, 12);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  cl_event e1 = nullptr, e2 = nullptr;
  step(c, k, m, N, 0.01f);  // DL asks no event of these in-order launches
  step(c, k, m, N, 0.02f, c.queue, 0, nullptr, &e1);
  step(c, k, m, N, 0.03f, q2, 1, &e1, nullptr);  // same layout, other queue
  step(c, k, m, N, 0.04f, q2, 0, nullptr, &e2);
  cl.clReleaseCommandQueue(q2);  // its last user is still pending on the device
  std::vector<Particle> r(N);
  std::memset(r.data(), 0xA5, sizeof(Particle) * N);
  CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 0, N * sizeof(Particle), r.data(), 1, &e2,
                               nullptr));
  c.keep(r.data(), N * sizeof(Particle));
  for (cl_event e : {e1, e2}) cl.clReleaseEvent(e);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

void two_devices(Ctx& c) {  // one context of two devices; one buffer used on both
  cl_device_id devs[2] = {};
  cl_uint nd = 0;
  CHECK(cl.clGetDeviceIDs(c.platform, CL_DEVICE_TYPE_ALL, 2, devs, &nd));
  if (nd < 2) {
    std::fprintf(stderr, "two_devices needs two devices (PoCL: POCL_DEVICES='pthread basic')\n");
    std::exit(3);
  }
  cl_int err = CL_SUCCESS;
  cl_context ctx = cl.clCreateContext(nullptr, 2, devs, nullptr, nullptr, &err);
  CHECK(err);
  const std::string src = read_file(std::getenv("DL_TEST_KERNELS"));
  const char* s = src.c_str();
  cl_program prog = cl.clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
  CHECK(err);
  CHECK(cl.clBuildProgram(prog, 2, devs, nullptr, nullptr, nullptr));
  cl_command_queue q[2];
  for (int d = 0; d < 2; ++d) {
    q[d] = cl.clCreateCommandQueueWithProperties(ctx, devs[d], nullptr, &err);
    CHECK(err);
  }
  Ctx two = c;  // the helpers, on the two-device context
  two.context = ctx;
  two.program = prog;
  auto v = make_particles(N, 13);
  cl_mem m = buffer(two, v);
  cl_kernel adv = kernel(two, "advance"), sc = kernel(two, "scale");
  // ASTA on device 0, ASTA on device 1, DA on device 0, ASTA on device 1: each launch
  // waits for the last, on the other device's queue.
  cl_event e[4] = {};
  step(two, adv, m, N, 0.01f, q[0], 0, nullptr, &e[0]);
  step(two, adv, m, N, 0.02f, q[1], 1, &e[0], &e[1]);
  const float f = 1.5f;
  CHECK(cl.clSetKernelArg(sc, 0, sizeof m, &m));
  CHECK(cl.clSetKernelArg(sc, 1, sizeof f, &f));
  const std::size_t g = N;
  CHECK(cl.clEnqueueNDRangeKernel(q[0], sc, 1, nullptr, &g, nullptr, 1, &e[1], &e[2]));
  step(two, adv, m, N, 0.03f, q[1], 1, &e[2], &e[3]);
  std::vector<Particle> r(N);
  std::memset(r.data(), 0xA5, sizeof(Particle) * N);
  CHECK(cl.clEnqueueReadBuffer(q[0], m, CL_TRUE, 0, N * sizeof(Particle), r.data(), 1, &e[3],
                               nullptr));
  c.keep(r.data(), N * sizeof(Particle));
  for (cl_event x : e) cl.clReleaseEvent(x);
  cl.clReleaseKernel(adv);
  cl.clReleaseKernel(sc);
  cl.clReleaseMemObject(m);
  for (cl_command_queue x : q) cl.clReleaseCommandQueue(x);
  cl.clReleaseProgram(prog);
  cl.clReleaseContext(ctx);
}

void threads(Ctx& c) {  // several host threads, each with its kernel, buffer and queue
  constexpr int kThreads = 4;
  std::vector<std::vector<Particle>> res(kThreads, std::vector<Particle>(N));
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back([&, t] {
      cl_int err = CL_SUCCESS;
      cl_command_queue q =
          cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &err);
      CHECK(err);
      auto v = make_particles(N, 20 + t);
      cl_mem m = buffer(c, v);
      cl_kernel k = kernel(c, "advance");
      for (int it = 0; it < 4; ++it) step(c, k, m, N, 0.01f * (it + 1), q);
      CHECK(cl.clEnqueueReadBuffer(q, m, CL_TRUE, 0, N * sizeof(Particle), res[t].data(), 0,
                                   nullptr, nullptr));
      cl.clReleaseKernel(k);
      cl.clReleaseMemObject(m);
      cl.clReleaseCommandQueue(q);
    });
  for (auto& t : ts) t.join();
  for (auto& r : res) c.keep(r.data(), N * sizeof(Particle));
}

void late_thread(Ctx& c) {  // blocking reads on one thread while a second starts enqueuing
  auto v = make_particles(N, 41), w = make_particles(N, 42);
  cl_mem a = buffer(c, v), b = buffer(c, w);
  cl_kernel k = kernel(c, "advance");
  step(c, k, a, N, 0.01f);  // the first read converts it back, the others find it AoS
  std::atomic<bool> go{false};
  std::vector<Particle> rb(N);
  std::vector<float> weights(N);
  std::thread t([&] {
    while (!go.load()) std::this_thread::yield();
    cl_int err = CL_SUCCESS;
    cl_command_queue q = cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &err);
    CHECK(err);
    cl_kernel k2 = kernel(c, "advance");
    for (int it = 0; it < 4; ++it) step(c, k2, b, N, 0.02f * (it + 1), q);
    CHECK(cl.clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * sizeof(Particle), rb.data(), 0, nullptr,
                                 nullptr));
    // A kernel that only reads `a` (DL converts it in place) while the first thread reads it.
    cl_kernel wk = kernel(c, "weigh");
    cl_mem out = plain(c, N * sizeof(float));
    const int n = N;
    set_args(wk, {{sizeof a, &a}, {sizeof n, &n}, {sizeof out, &out}});
    for (int it = 0; it < 20; ++it) launch(c, wk, N, q, 0, nullptr, nullptr);
    CHECK(cl.clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(float), weights.data(), 0, nullptr,
                                 nullptr));
    cl.clReleaseMemObject(out);
    cl.clReleaseKernel(wk);
    cl.clReleaseKernel(k2);
    cl.clReleaseCommandQueue(q);
  });
  std::vector<Particle> ra(N);
  std::uint64_t sum = 0;
  for (int i = 0; i < 200; ++i) {
    if (i == 3) go = true;
    CHECK(cl.clEnqueueReadBuffer(c.queue, a, CL_TRUE, 0, N * sizeof(Particle), ra.data(), 0,
                                 nullptr, nullptr));
    for (const auto& p : ra) sum += static_cast<std::uint32_t>(p.id);
  }
  t.join();
  c.keep(&sum, sizeof sum);
  c.keep(ra.data(), N * sizeof(Particle));
  c.keep(rb.data(), N * sizeof(Particle));
  c.keep(weights.data(), N * sizeof(float));
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(a);
  cl.clReleaseMemObject(b);
}

void errors(Ctx& c) {  // the application's own errors keep their codes
  cl_kernel k = kernel(c, "advance");
  int n = N;
  cl_int codes[4];
  codes[0] = cl.clSetKernelArg(k, 7, sizeof n, &n);
  codes[1] = cl.clSetKernelArg(k, 1, 2, &n);
  const size_t g = 64;
  codes[2] = cl.clEnqueueNDRangeKernel(c.queue, k, 1, nullptr, &g, nullptr, 0, nullptr,
                                       nullptr);  // args unset
  codes[3] = cl.clEnqueueNDRangeKernel(c.queue, k, 0, nullptr, &g, nullptr, 0, nullptr, nullptr);
  std::printf("error codes: %d %d %d %d\n", codes[0], codes[1], codes[2], codes[3]);
  c.keep(codes, sizeof codes);
  cl.clReleaseKernel(k);
}

void linked(Ctx& c) {  // clCompileProgram + clLinkProgram, clCloneKernel
  const std::string src = read_file(std::getenv("DL_TEST_KERNELS"));
  const char* s = src.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = cl.clCreateProgramWithSource(c.context, 1, &s, nullptr, &err);
  CHECK(err);
  CHECK(cl.clCompileProgram(p, 1, &c.device, "", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program l = cl.clLinkProgram(c.context, 1, &c.device, "", 1, &p, nullptr, nullptr, &err);
  CHECK(err);
  std::swap(c.program, l);
  auto v = make_particles(N, 11);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  cl_kernel k2 = cl.clCloneKernel(k, &err);
  CHECK(err);
  CHECK(cl.clEnqueueNDRangeKernel(c.queue, k2, 1, nullptr, std::array<size_t, 1>{1024}.data(),
                                  nullptr, 0, nullptr, nullptr));
  read_all(c, m, N);
  std::swap(c.program, l);
  cl.clReleaseKernel(k);
  cl.clReleaseKernel(k2);
  cl.clReleaseMemObject(m);
  cl.clReleaseProgram(l);
  cl.clReleaseProgram(p);
}

}  // namespace

Scenarios all_scenarios() {
  Scenarios s = {
      {"basic", basic},
      {"partial", partial},
      {"maps", maps},
      {"copies", copies},
      {"subbuffers", subbuffers},
      {"two_layouts", two_layouts},
      {"out_of_order", out_of_order},
      {"uploads", uploads},
      {"uploads_da", uploads_da},
      {"spawn", spawn},
      {"late_thread", late_thread},
      {"threads", threads},
      {"two_queues", two_queues},
      {"two_devices", two_devices},
      {"errors", errors},
      {"linked", linked},
  };
  add_trust_scenarios(s);
  add_policy_scenarios(s);
  add_content_scenarios(s);
  return s;
}

}  // namespace hookapp

using namespace hookapp;

int main(int argc, char** argv) {
  const Scenarios scenarios = all_scenarios();
  if (argc < 3 || !scenarios.count(argv[1])) {
    std::fprintf(stderr, "usage: %s <scenario> <output> [--dlopen]\n", argv[0]);
    return 2;
  }
  if (argc > 3 && std::string(argv[3]) == "--dlopen") {
    void* lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return std::fprintf(stderr, "dlopen: %s\n", dlerror()), 1;
#define X(name) cl.name = reinterpret_cast<decltype(cl.name)>(dlsym(lib, #name));
    API_LIST(X)
#undef X
  } else {
#define X(name) cl.name = &::name;
    API_LIST(X)
#undef X
  }
  Ctx c{};
  cl_uint np = 0;
  CHECK(cl.clGetPlatformIDs(1, &c.platform, &np));
  CHECK(cl.clGetDeviceIDs(c.platform, CL_DEVICE_TYPE_ALL, 1, &c.device, nullptr));
  cl_int err = CL_SUCCESS;
  c.context = cl.clCreateContext(nullptr, 1, &c.device, nullptr, nullptr, &err);
  CHECK(err);
  c.queue = cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &err);
  CHECK(err);
  const char* path = std::getenv("DL_TEST_KERNELS");
  if (!path) return std::fprintf(stderr, "DL_TEST_KERNELS not set\n"), 2;
  c.program = build(c, read_file(path));
  scenarios.at(argv[1])(c);
  CHECK(cl.clFinish(c.queue));
  std::ofstream out(argv[2], std::ios::binary);
  out.write(reinterpret_cast<const char*>(c.out.data()),
            static_cast<std::streamsize>(c.out.size()));
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char b : c.out) h = (h ^ b) * 1099511628211ull;
  std::printf("%s: %zu bytes, checksum %016llx\n", argv[1], c.out.size(), (unsigned long long)h);
  cl.clReleaseProgram(c.program);
  cl.clReleaseCommandQueue(c.queue);
  cl.clReleaseContext(c.context);
  return out ? 0 : 1;
}
