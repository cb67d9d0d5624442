// Scenarios of content that needs no conversion (docs/runtime.md, "Content that needs no
// conversion"): buffers whose bytes are undefined (created without host data) first
// used by a kernel that never reads them (`write_only`), and buffers filled with one
// byte value. DL changes their layout state without a conversion kernel; the bytes the
// application sees stay those of the native run.
#include <cstring>

#include "hook_app.hpp"

namespace hookapp {
namespace {

constexpr std::size_t kPair = 32;  // sizeof(pair4) in hooks.cl: two float4, no padding

void read_bytes(Ctx& c, cl_mem m, std::size_t bytes, cl_command_queue q = nullptr) {
  std::vector<unsigned char> v(bytes, 0xA5);
  CHECK(
      cl.clEnqueueReadBuffer(q ? q : c.queue, m, CL_TRUE, 0, bytes, v.data(), 0, nullptr, nullptr));
  c.keep(v.data(), bytes);
}

/// emit(p, n, m, t): writes records [0, m) of the annotation's n.
void emit(Ctx& c, cl_kernel k, cl_mem p, int n, int m, float t, cl_command_queue q = nullptr) {
  set_args(k, {{sizeof p, &p}, {sizeof n, &n}, {sizeof m, &m}, {sizeof t, &t}});
  launch(c, k, static_cast<std::size_t>(m), q);
}

/// advance_cap with n = cap: every record, no division (zeros stay finite).
void advance_all(Ctx& c, cl_kernel k, cl_mem p, int n, float dt, cl_command_queue q = nullptr,
                 cl_uint nw = 0, const cl_event* w = nullptr, cl_event* e = nullptr) {
  set_args(k, {{sizeof p, &p}, {sizeof n, &n}, {sizeof n, &n}, {sizeof dt, &dt}});
  launch(c, k, static_cast<std::size_t>(n), q, nw, w, e);
}

/// Buffer #1: no host data, written whole by a write_only kernel three times, then read.
/// DL converts nothing on the way there (its bytes were undefined), only on the way back
/// for the read (the kernel wrote them in ASTA).
void write_only_fresh(Ctx& c) {
  cl_mem m = plain(c, N * kPair);
  cl_kernel k = kernel(c, "emit");
  for (int it = 0; it < 3; ++it) emit(c, k, m, N, N, 0.5f * static_cast<float>(it + 1));
  read_bytes(c, m, N * kPair);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Buffer #1: the host's bytes, then the write_only kernel writes only half the records
/// the annotation names (as a wrong qualifier would): DL converts as before, and the
/// records the kernel does not write keep the host's bytes.
void write_only_host_data(Ctx& c) {
  std::vector<float> v(N * kPair / sizeof(float));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 1000) * 0.5f - 7.0f;
  cl_int err = CL_SUCCESS;
  cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * kPair,
                               v.data(), &err);
  CHECK(err);
  cl_kernel k = kernel(c, "emit");
  emit(c, k, m, N, N / 2, 0.75f);
  read_bytes(c, m, N * kPair);
  // #2: no host data, but the host writes it before the kernel: converted too.
  cl_mem w = plain(c, N * kPair);
  CHECK(cl.clEnqueueWriteBuffer(c.queue, w, CL_TRUE, 0, N * kPair, v.data(), 0, nullptr, nullptr));
  emit(c, k, w, N, N / 3, 1.25f);
  read_bytes(c, w, N * kPair);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
  cl.clReleaseMemObject(w);
}

/// Buffer #1 without host data, #2 a sub-buffer of its first half: the write_only kernel
/// on the sub-buffer (no conversion: the parent's bytes are undefined), then on the whole
/// parent (converted: the first half is written now).
void write_only_subbuffer(Ctx& c) {
  cl_mem m = plain(c, N * kPair);
  cl_mem s = sub(m, 0, N / 2 * kPair);
  cl_kernel k = kernel(c, "emit");
  emit(c, k, s, N / 2, N / 2, 0.5f);
  read_bytes(c, s, N / 2 * kPair);
  emit(c, k, m, N, N, 1.5f);
  read_bytes(c, m, N * kPair);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(s);
  cl.clReleaseMemObject(m);
}

/// Fills, then a kernel that reads and writes its records (advance_cap), then a read. By
/// buffer number: #1 a zero fill (4-byte pattern), #2 a 16-byte pattern of one byte
/// value: no conversion there; #3 a pattern of unequal bytes (1.0f), #4 a zero fill then
/// a partial write, #5 a zero fill of part of the buffer: converted. #6: zero fill, two
/// launches, zero fill again (it replaces the converted records), a launch: two layout
/// changes without a conversion. #7 and its sub-buffer #8 (an aligned region): the
/// parent filled, the sub-buffer given to the kernel: no conversion.
void uniform_fill(Ctx& c) {
  cl_kernel k = kernel(c, "advance_cap");
  const float zero = 0.0f, one = 1.0f;
  unsigned char same[16];
  std::memset(same, 0x3f, sizeof same);
  const std::size_t bytes = N * sizeof(Particle);
  std::vector<cl_mem> all;
  auto fresh = [&](unsigned seed) {
    all.push_back(buffer(c, make_particles(N, seed)));
    return all.back();
  };
  auto fill = [&](cl_mem m, const void* p, std::size_t ps, std::size_t off, std::size_t size) {
    CHECK(cl.clEnqueueFillBuffer(c.queue, m, p, ps, off, size, 0, nullptr, nullptr));
  };
  cl_mem a = fresh(71), b = fresh(72), d = fresh(73), e = fresh(74), f = fresh(75), g = fresh(76);
  fill(a, &zero, sizeof zero, 0, bytes);
  fill(b, same, sizeof same, 0, bytes);
  fill(d, &one, sizeof one, 0, bytes);
  fill(e, &zero, sizeof zero, 0, bytes);
  auto w = make_particles(10, 77);
  CHECK(cl.clEnqueueWriteBuffer(c.queue, e, CL_TRUE, 300 * sizeof(Particle), 10 * sizeof(Particle),
                                w.data(), 0, nullptr, nullptr));
  fill(f, &zero, sizeof zero, 0, bytes - sizeof(Particle));
  for (cl_mem m : {a, b, d, e, f}) advance_all(c, k, m, N, 0.25f);
  for (cl_mem m : {a, b, d, e, f}) read_bytes(c, m, bytes);
  fill(g, &zero, sizeof zero, 0, bytes);
  advance_all(c, k, g, N, 0.25f);
  advance_all(c, k, g, N, 0.5f);
  fill(g, &zero, sizeof zero, 0, bytes);
  advance_all(c, k, g, N, 0.75f);
  read_bytes(c, g, bytes);
  cl_mem parent = fresh(78);
  cl_mem s = sub(parent, 64 * sizeof(Particle), 500 * sizeof(Particle));
  fill(parent, same, 4, 0, bytes);
  advance_all(c, k, s, 500, 0.25f);
  read_bytes(c, parent, bytes);
  cl.clReleaseMemObject(s);
  for (cl_mem m : all) cl.clReleaseMemObject(m);
  cl.clReleaseKernel(k);
}

/// Fills and launches across an out-of-order queue and a second in-order queue, chained
/// by the application's events only: a layout change without a conversion enqueues
/// nothing, and the conversions that follow still wait for every command before them.
void uniform_fill_queues(Ctx& c) {
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int err = CL_SUCCESS;
  cl_command_queue ooo = cl.clCreateCommandQueueWithProperties(c.context, c.device, props, &err);
  CHECK(err);
  cl_command_queue q2 = cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &err);
  CHECK(err);
  cl_kernel k = kernel(c, "advance_cap");
  const std::size_t bytes = N * sizeof(Particle);
  auto v = make_particles(N, 81);
  cl_mem m = buffer(c, v);
  const float zero = 0.0f;
  cl_event e1 = nullptr, e2 = nullptr, e3 = nullptr, e4 = nullptr, e5 = nullptr, e6 = nullptr;
  // Fill on the out-of-order queue, the kernel (no conversion) after it, a partial write
  // after the kernel (a real conversion back), the kernel again (a real conversion).
  CHECK(cl.clEnqueueFillBuffer(ooo, m, &zero, sizeof zero, 0, bytes, 0, nullptr, &e1));
  advance_all(c, k, m, N, 0.25f, ooo, 1, &e1, &e2);
  CHECK(cl.clEnqueueWriteBuffer(ooo, m, CL_FALSE, 100 * sizeof(Particle), 10 * sizeof(Particle),
                                v.data(), 1, &e2, &e3));
  advance_all(c, k, m, N, 0.5f, ooo, 1, &e3, &e4);
  // The host reads on another queue, after the kernel: the conversion back goes there.
  std::vector<unsigned char> r(bytes, 0xA5);
  CHECK(cl.clEnqueueReadBuffer(q2, m, CL_TRUE, 0, bytes, r.data(), 1, &e4, nullptr));
  c.keep(r.data(), bytes);
  // Fill on q2, the kernel on the application's queue after it (no conversion), another
  // fill on q2 after the kernel, the kernel again, a read on the out-of-order queue.
  CHECK(cl.clEnqueueFillBuffer(q2, m, &zero, sizeof zero, 0, bytes, 0, nullptr, &e5));
  advance_all(c, k, m, N, 0.75f, c.queue, 1, &e5, &e6);
  cl_event e7 = nullptr, e8 = nullptr;
  const int pattern = 0x3f3f3f3f;
  CHECK(cl.clEnqueueFillBuffer(q2, m, &pattern, sizeof pattern, 0, bytes, 1, &e6, &e7));
  advance_all(c, k, m, N, 1.0f, c.queue, 1, &e7, &e8);
  std::fill(r.begin(), r.end(), 0xA5);
  CHECK(cl.clEnqueueReadBuffer(ooo, m, CL_TRUE, 0, bytes, r.data(), 1, &e8, nullptr));
  c.keep(r.data(), bytes);
  for (cl_event e : {e1, e2, e3, e4, e5, e6, e7, e8}) cl.clReleaseEvent(e);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
  cl.clReleaseCommandQueue(ooo);
  cl.clReleaseCommandQueue(q2);
}

/// The controller's epochs: a zero fill, a launch, a read of one record; 40 times on a
/// buffer of a million records. `fill_epochs` fills (the way there is no conversion),
/// `write_epochs` writes the host's bytes (it is one).
void epochs(Ctx& c, bool fill) {
  constexpr int n = 1 << 20;
  auto v = make_particles(n, 82);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance_cap");
  const float zero = 0.0f;
  for (int it = 0; it < 40; ++it) {
    if (fill)
      CHECK(cl.clEnqueueFillBuffer(c.queue, m, &zero, sizeof zero, 0, n * sizeof(Particle), 0,
                                   nullptr, nullptr));
    else
      CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_FALSE, 0, n * sizeof(Particle), v.data(), 0,
                                    nullptr, nullptr));
    advance_all(c, k, m, n, 0.001f * static_cast<float>(it + 1));
    Particle p{};
    CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 7 * sizeof(Particle), sizeof p, &p, 0,
                                 nullptr, nullptr));
    c.keep(&p, sizeof p);
  }
  read_all(c, m, n);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

}  // namespace

void add_content_scenarios(Scenarios& s) {
  s["write_only_fresh"] = write_only_fresh;
  s["write_only_host_data"] = write_only_host_data;
  s["write_only_subbuffer"] = write_only_subbuffer;
  s["uniform_fill"] = uniform_fill;
  s["uniform_fill_queues"] = uniform_fill_queues;
  s["fill_epochs"] = [](Ctx& c) { epochs(c, true); };
  s["write_epochs"] = [](Ctx& c) { epochs(c, false); };
}

}  // namespace hookapp
