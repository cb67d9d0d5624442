// Scenarios of the test application, one per way DL once changed the bytes an
// application sees (or its behaviour). Each is named after what broke; the tests run it
// natively and under DL and compare every byte it keeps.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <functional>
#include <thread>

#include "hook_app.hpp"

namespace hookapp {
namespace {

std::size_t rss_kib() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoul(line.substr(6));
  return 0;
}

// ---- issue: annotations bound by text; n; overflow -------------------------------

/// Parameters under #ifdef before and after the annotated one, built with and without
/// the macros: the runtime must bind the annotation to the argument the compiler sees
/// (by the text, `p` would be argument 1, which is `src` without EXTRA).
void conditional_parameters(Ctx& c) {
  const std::string src = read_file(std::getenv("DL_TEST_KERNELS"));
  auto v = make_particles(N, 31), w = make_particles(N, 32);
  cl_mem a = buffer(c, v), b = buffer(c, w), flags = plain(c, 64);
  for (bool defined : {false, true}) {
    cl_program p = build(c, src, defined ? "-DEXTRA -DFLAGS" : "");
    cl_int err = CL_SUCCESS;
    cl_kernel k = cl.clCreateKernel(p, "advance_cond", &err);
    CHECK(err);
    const int extra = 7, n = N;
    const float dt = 0.25f;
    for (auto [dst, from] : {std::pair{a, b}, std::pair{b, a}, std::pair{a, b}}) {
      cl_uint i = 0;
      if (defined) CHECK(cl.clSetKernelArg(k, i++, sizeof extra, &extra));
      CHECK(cl.clSetKernelArg(k, i++, sizeof dst, &dst));
      CHECK(cl.clSetKernelArg(k, i++, sizeof from, &from));
      CHECK(cl.clSetKernelArg(k, i++, sizeof n, &n));
      CHECK(cl.clSetKernelArg(k, i++, sizeof dt, &dt));
      if (defined) CHECK(cl.clSetKernelArg(k, i++, sizeof flags, &flags));
      launch(c, k, N);
    }
    read_all(c, a, N);
    read_all(c, b, N);
    cl.clReleaseKernel(k);
    cl.clReleaseProgram(p);
  }
  for (cl_mem m : {a, b, flags}) cl.clReleaseMemObject(m);
}

/// `//DL: AoS: p[n]` over a kernel guarded by cap > n: records from n on keep their AoS
/// address; nothing past the buffer changes (a sub-buffer inside a larger parent).
void n_smaller_than_range(Ctx& c) {
  constexpr int cap = 1000;
  auto v = make_particles(cap + 16, 33);
  cl_mem parent = buffer(c, v);
  cl_mem s = sub(parent, 0, cap * sizeof(Particle));
  cl_mem whole = buffer(c, make_particles(cap, 34));
  cl_kernel k = kernel(c, "advance_cap");
  const float dt = 0.5f;
  for (int n : {500, 513, 999, 0, 1000}) {
    for (cl_mem m : {whole, s}) {
      set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof cap, &cap}, {sizeof dt, &dt}});
      launch(c, k, cap);
    }
    read_all(c, whole, cap);
    read_all(c, parent, cap + 16);
  }
  cl.clReleaseKernel(k);
  for (cl_mem m : {s, parent, whole}) cl.clReleaseMemObject(m);
}

/// `p[x][y]` whose product overflows 64 bits (and one that overflows to 0).
void dimension_overflow(Ctx& c) {
  auto v = make_particles(N, 35);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance_xy");
  const int n = N;
  const float dt = 0.125f;
  const std::pair<cl_long, cl_long> shapes[] = {
      {cl_long(1) << 33, cl_long(1) << 31}, {cl_long(1) << 62, 8}, {N, 1}, {-1, -N}};
  for (auto [x, y] : shapes) {
    set_args(k, {{sizeof m, &m}, {sizeof x, &x}, {sizeof y, &y}, {sizeof n, &n}, {sizeof dt, &dt}});
    launch(c, k, N);
  }
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

// ---- issue: failed events; races across queues ---------------------------------

/// A transformed launch waits on a user event that fails, with the buffer first in AoS,
/// then already converted; reads follow.
void failed_user_event(Ctx& c) {
  auto v = make_particles(N, 36);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  for (bool converted_first : {false, true}) {
    if (converted_first) step(c, k, m, N, 0.01f);
    // Nothing in flight when the event fails: some implementations (PoCL 3) cancel or
    // abort the commands still queued before it.
    CHECK(cl.clFinish(c.queue));
    cl_int err = CL_SUCCESS;
    cl_event u = cl.clCreateUserEvent(c.context, &err);
    CHECK(err);
    cl_event e = nullptr;
    step(c, k, m, N, 0.02f, c.queue, 1, &u, &e);
    CHECK(cl.clSetUserEventStatus(u, -1));
    cl_int st = 0;
    cl.clWaitForEvents(1, &e);
    CHECK(cl.clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr));
    c.keep(&st, sizeof st);
    read_all(c, m, N);
    step(c, k, m, N, 0.03f);  // and the buffer goes on being used
    read_all(c, m, N);
    cl.clReleaseEvent(e);
    cl.clReleaseEvent(u);
  }
  // A user event set to CL_COMPLETE after a non-blocking read was enqueued behind it.
  cl_int err = CL_SUCCESS;
  cl_event u = cl.clCreateUserEvent(c.context, &err);
  CHECK(err);
  step(c, k, m, N, 0.04f, c.queue, 1, &u, nullptr);
  std::vector<Particle> r(N);
  cl_event re = nullptr;
  CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_FALSE, 0, N * sizeof(Particle), r.data(), 0, nullptr,
                               &re));
  CHECK(cl.clSetUserEventStatus(u, CL_COMPLETE));
  CHECK(cl.clWaitForEvents(1, &re));
  c.keep(r.data(), N * sizeof(Particle));
  cl.clReleaseEvent(re);
  cl.clReleaseEvent(u);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Six threads with their own in-order queues read one const-annotated buffer through
/// kernel `name` while a seventh reads it back from the host (and, second round, all share
/// one out-of-order queue, ordered by events).
void const_threads(Ctx& c, cl_mem shared, const char* name = "weigh") {
  constexpr int kThreads = 6, kIters = 12;
  for (bool one_ooo_queue : {false, true}) {
    cl_command_queue ooo = nullptr;
    cl_int err = CL_SUCCESS;
    if (one_ooo_queue) {
      cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                     0};
      ooo = cl.clCreateCommandQueueWithProperties(c.context, c.device, props, &err);
      CHECK(err);
    }
    std::vector<std::vector<float>> res(kThreads, std::vector<float>(N * kIters));
    std::vector<std::vector<Particle>> host(kIters / 3, std::vector<Particle>(N));
    std::vector<std::thread> ts;
    for (int t = 0; t <= kThreads; ++t)
      ts.emplace_back([&, t] {
        cl_int e2 = CL_SUCCESS;
        cl_command_queue q =
            ooo ? ooo : cl.clCreateCommandQueueWithProperties(c.context, c.device, nullptr, &e2);
        CHECK(e2);
        if (t == kThreads) {  // the reader
          for (auto& h : host) {
            cl_event e = nullptr;
            CHECK(cl.clEnqueueReadBuffer(q, shared, CL_FALSE, 0, N * sizeof(Particle), h.data(), 0,
                                         nullptr, &e));
            CHECK(cl.clWaitForEvents(1, &e));
            cl.clReleaseEvent(e);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        } else {
          cl_kernel k = kernel(c, name);
          cl_mem out = plain(c, N * sizeof(float));
          const int n = N;
          for (int it = 0; it < kIters; ++it) {
            cl_event e = nullptr;
            set_args(k, {{sizeof shared, &shared}, {sizeof n, &n}, {sizeof out, &out}});
            launch(c, k, N, q, 0, nullptr, &e);
            CHECK(cl.clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(float),
                                         res[t].data() + it * N, 1, &e, nullptr));
            cl.clReleaseEvent(e);
          }
          cl.clReleaseKernel(k);
          cl.clReleaseMemObject(out);
        }
        if (!ooo) cl.clReleaseCommandQueue(q);
      });
    for (auto& t : ts) t.join();
    for (auto& r : res) c.keep(r.data(), r.size() * sizeof(float));
    for (auto& h : host) c.keep(h.data(), h.size() * sizeof(Particle));
    if (ooo) cl.clReleaseCommandQueue(ooo);
  }
}

void shared_const_threads(Ctx& c) {
  auto v = make_particles(N, 37);
  cl_mem shared = buffer(c, v);
  const_threads(c, shared);
  cl.clReleaseMemObject(shared);
}

/// The same into DA, two steps in place on a CPU device: the launches read one layout
/// copy of the ordinary buffer, made on one thread's queue and read on the others.
void shared_readonly_threads(Ctx& c) {
  auto v = make_particles(N, 49);
  cl_mem shared = buffer(c, v);
  const_threads(c, shared, "weigh_da");
  cl.clReleaseMemObject(shared);
}

/// The same over host-visible memory: each launch reads a copy of it (made for it, or
/// kept under DL_HOST_PTR=keep), made on one thread's queue and read on others.
void shared_host_threads(Ctx& c) {
  auto v = make_particles(N, 45);
  cl_mem shared = host_buffer(c, v);
  const_threads(c, shared);
  cl.clReleaseMemObject(shared);
}

// ---- issue: host-visible memory, overlaps, binaries, rebuilds, maps, images ------

/// A USE_HOST_PTR buffer released while its kernel is in flight; a sub-buffer of such a
/// parent; the host array read and written directly between launches.
void host_visible_memory(Ctx& c) {
  auto v = make_particles(N, 38);
  cl_kernel k = kernel(c, "advance");
  {
    cl_int err = CL_SUCCESS;
    cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                 N * sizeof(Particle), v.data(), &err);
    CHECK(err);
    step(c, k, m, N, 0.01f);
    CHECK(cl.clFinish(c.queue));
    c.keep(v.data(), N * sizeof(Particle));  // read directly (common on CPUs)
    for (auto& p : v) p.mass += 1.0f;        // and written directly
    step(c, k, m, N, 0.02f);
    CHECK(cl.clFlush(c.queue));
    cl.clReleaseMemObject(m);  // the kernel may still be in flight
    CHECK(cl.clFinish(c.queue));
    c.keep(v.data(), N * sizeof(Particle));
  }
  {
    cl_int err = CL_SUCCESS;
    cl_mem m = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                 N * sizeof(Particle), v.data(), &err);
    CHECK(err);
    cl_mem s = sub(m, 8 * sizeof(Particle), 512 * sizeof(Particle));
    step(c, k, s, 512, 0.03f);
    CHECK(cl.clFinish(c.queue));
    c.keep(v.data(), N * sizeof(Particle));
    cl.clReleaseMemObject(s);
    cl.clReleaseMemObject(m);
    CHECK(cl.clFinish(c.queue));
    c.keep(v.data(), N * sizeof(Particle));
  }
  cl.clReleaseKernel(k);
}

/// Host-visible memory bound to `const` arguments: the launches read copies in their
/// layouts, made again at each launch, so the host's direct writes between launches
/// reach the kernel; a sub-buffer of such a buffer; one host-visible and one ordinary
/// argument of a launch (a copy and a conversion); a flat array read with two record
/// lengths; a kernel that writes it (runs untransformed).
void host_visible_const(Ctx& c) {
  auto v = make_particles(N, 40);
  cl_mem m = host_buffer(c, v);
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel weigh = kernel(c, "weigh");
  for (int n : {N, 513, N}) {
    set_args(weigh, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}});
    launch(c, weigh, N);
    read_floats(c, out, N);
    for (auto& p : v) p.mass += 1.0f;  // written directly (common on CPUs)
  }
  cl_mem s = sub(m, 8 * sizeof(Particle), 512 * sizeof(Particle));
  const int n512 = 512;
  set_args(weigh, {{sizeof s, &s}, {sizeof n512, &n512}, {sizeof out, &out}});
  launch(c, weigh, 512);
  read_floats(c, out, 512);
  cl_kernel weigh_da = kernel(c, "weigh_da");  // into DA: the tiled transpose
  for (int n : {N, 100}) {
    set_args(weigh_da, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}});
    launch(c, weigh_da, N);
    read_floats(c, out, N);
    v[n - 1].mass *= 3.0f;
  }
  cl.clReleaseKernel(weigh_da);
  auto w = make_particles(N, 41);
  cl_mem plainbuf = buffer(c, w);
  cl_kernel weigh2 = kernel(c, "weigh2");
  const int n = N;
  for (auto [a, b] : {std::pair{m, plainbuf}, std::pair{plainbuf, m}, std::pair{m, m}}) {
    set_args(weigh2, {{sizeof a, &a}, {sizeof b, &b}, {sizeof n, &n}, {sizeof out, &out}});
    launch(c, weigh2, N);
    read_floats(c, out, N);
    v[7].mass = -v[7].mass;
  }
  read_all(c, plainbuf, N);
  // Floats of the particles read as records of K floats.
  cl_kernel sums = kernel(c, "row_sums");
  for (int K : {3, 5}) {
    const int rows = N * int(sizeof(Particle) / sizeof(float)) / K;
    set_args(sums, {{sizeof m, &m}, {sizeof rows, &rows}, {sizeof K, &K}, {sizeof out, &out}});
    launch(c, sums, N);
    read_floats(c, out, N);
  }
  cl_kernel advance = kernel(c, "advance");
  step(c, advance, m, N, 0.5f);
  CHECK(cl.clFinish(c.queue));
  c.keep(v.data(), N * sizeof(Particle));
  cl.clReleaseKernel(advance);
  cl.clReleaseMemObject(s);
  cl.clReleaseMemObject(m);
  for (cl_mem x : {out, plainbuf}) cl.clReleaseMemObject(x);
  cl.clReleaseKernel(weigh);
  cl.clReleaseKernel(weigh2);
  cl.clReleaseKernel(sums);
}

/// One launch of a weighing kernel `k` (m, n, out) over N work-items, and the read of its
/// N results.
void weigh_once(Ctx& c, cl_kernel k, cl_mem m, int n, cl_mem out) {
  set_args(k, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}});
  launch(c, k, N);
  read_floats(c, out, N);
}

/// The commands that may write `m` without a kernel, each followed by `then()`: a map for
/// writing, a write of one record (seeded `seed`), a fill, a copy of a record from `other`.
void writing_commands(Ctx& c, cl_mem m, cl_mem other, unsigned seed,
                      const std::function<void()>& then) {
  cl_int err = CL_SUCCESS;
  auto* p = static_cast<Particle*>(cl.clEnqueueMapBuffer(
      c.queue, m, CL_TRUE, CL_MAP_WRITE, 0, N * sizeof(Particle), 0, nullptr, nullptr, &err));
  CHECK(err);
  p[3].mass = 9.0f;
  p[N - 1].id = 1234;
  CHECK(cl.clEnqueueUnmapMemObject(c.queue, m, p, 0, nullptr, nullptr));
  then();
  const Particle q = make_particles(1, seed)[0];
  CHECK(cl.clEnqueueWriteBuffer(c.queue, m, CL_TRUE, 5 * sizeof(Particle), sizeof q, &q, 0, nullptr,
                                nullptr));
  then();
  const float two = 2.0f;
  CHECK(cl.clEnqueueFillBuffer(c.queue, m, &two, sizeof two, 32 * sizeof(Particle),
                               4 * sizeof(Particle), 0, nullptr, nullptr));
  then();
  CHECK(cl.clEnqueueCopyBuffer(c.queue, other, m, 0, 100 * sizeof(Particle), sizeof(Particle), 0,
                               nullptr, nullptr));
  then();
}

/// Host-visible memory changed only through commands (DL_HOST_PTR=keep keeps its copy
/// from launch to launch): launches with nothing in between, a map for writing, a write,
/// a fill, a copy into it, a kernel that writes it, a write through a sub-buffer, each
/// followed by a launch that must see it.
void host_visible_commands(Ctx& c) {
  auto v = make_particles(N, 42);
  cl_mem m = host_buffer(c, v);
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel weigh = kernel(c, "weigh"), advance = kernel(c, "advance");
  const int n = N;
  auto weigh_it = [&] { weigh_once(c, weigh, m, n, out); };
  weigh_it();
  weigh_it();  // nothing changed: the copy is read again
  cl_mem other = buffer(c, make_particles(N, 44));
  writing_commands(c, m, other, 43, weigh_it);
  step(c, advance, m, N, 0.25f);  // writes it (runs untransformed: host-visible)
  weigh_it();
  cl_mem s = sub(m, 64 * sizeof(Particle), 64 * sizeof(Particle));
  step(c, advance, s, 64, 0.5f);  // writes through a sub-buffer
  weigh_it();
  weigh_it();
  CHECK(cl.clFinish(c.queue));
  c.keep(v.data(), N * sizeof(Particle));
  cl.clReleaseMemObject(s);
  for (cl_mem x : {m, out, other}) cl.clReleaseMemObject(x);
  cl.clReleaseKernel(weigh);
  cl.clReleaseKernel(advance);
}

/// An ordinary buffer bound to a `const` argument whose conversion in place takes more
/// than one pass (AoS -> DA of 1000 records of 48 bytes: beyond one barrier-sync tile,
/// through ASTA tiles on a CPU device): the launches read a layout copy made in one pass
/// and kept until a command may write the buffer, which stays in AoS: launches with
/// nothing in between, a host read, a map for writing, a write, a fill, a copy into it, a
/// write through a sub-buffer; then a kernel that writes it, after which it is in that
/// kernel's layout and converts in place for the next launch.
void read_only_commands(Ctx& c) {
  auto v = make_particles(N, 46);
  cl_mem m = buffer(c, v);
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel weigh = kernel(c, "weigh_da"), advance = kernel(c, "advance");
  const int n = N;
  auto weigh_it = [&] { weigh_once(c, weigh, m, n, out); };
  weigh_it();
  weigh_it();  // nothing changed: the copy is read again
  read_all(c, m, N);
  weigh_it();  // a read changes nothing either
  cl_mem other = buffer(c, make_particles(N, 48));
  writing_commands(c, m, other, 47, weigh_it);
  cl_mem s = sub(m, 64 * sizeof(Particle), 64 * sizeof(Particle));
  step(c, advance, s, 64, 0.5f);  // writes through a sub-buffer
  weigh_it();
  step(c, advance, m, N, 0.25f);  // writes it (converted to its layout)
  weigh_it();
  weigh_it();
  read_all(c, m, N);
  CHECK(cl.clFinish(c.queue));
  c.keep(v.data(), N * sizeof(Particle));
  cl.clReleaseMemObject(s);
  for (cl_mem x : {m, out, other}) cl.clReleaseMemObject(x);
  cl.clReleaseKernel(weigh);
  cl.clReleaseKernel(advance);
}

/// Three ordinary buffers of 48,000 bytes read by a `const` argument into DA (a layout
/// copy each, by default): a, b, a again, a write of one record into a, then x and a.
/// Under DL_COPY_BUDGET=60000 only one copy fits: b converts in place beside a's copy, x's
/// copy takes the room of a's once the write made it stale, and a then converts in place.
void read_only_budget(Ctx& c) {
  auto va = make_particles(N, 50), vb = make_particles(N, 51), vx = make_particles(N, 52);
  cl_mem a = buffer(c, va), b = buffer(c, vb), x = buffer(c, vx);
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel weigh = kernel(c, "weigh_da");
  const int n = N;
  auto weigh_it = [&](cl_mem m) { weigh_once(c, weigh, m, n, out); };
  weigh_it(a);
  weigh_it(b);
  weigh_it(a);
  const Particle q = make_particles(1, 53)[0];
  CHECK(cl.clEnqueueWriteBuffer(c.queue, a, CL_TRUE, 7 * sizeof(Particle), sizeof q, &q, 0, nullptr,
                                nullptr));
  weigh_it(x);
  weigh_it(a);
  for (cl_mem m : {a, b, x}) read_all(c, m, N);
  CHECK(cl.clFinish(c.queue));
  for (cl_mem m : {a, b, x, out}) cl.clReleaseMemObject(m);
  cl.clReleaseKernel(weigh);
}

/// Two ordinary buffers read by one launch into DA (weigh2_da), twice: under
/// DL_COPY_BUDGET=60000 the first argument's copy fits, the second's not beside it.
void read_only_budget_pair(Ctx& c) {
  auto va = make_particles(N, 54), vb = make_particles(N, 55);
  cl_mem a = buffer(c, va), b = buffer(c, vb);
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel weigh = kernel(c, "weigh2_da");
  const int n = N;
  for (int i = 0; i < 2; ++i) {
    set_args(weigh, {{sizeof a, &a}, {sizeof b, &b}, {sizeof n, &n}, {sizeof out, &out}});
    launch(c, weigh, N);
    read_floats(c, out, N);
  }
  for (cl_mem m : {a, b}) read_all(c, m, N);
  CHECK(cl.clFinish(c.queue));
  for (cl_mem m : {a, b, out}) cl.clReleaseMemObject(m);
  cl.clReleaseKernel(weigh);
}

/// Two const-annotated arguments of one launch over overlapping bytes: the parent and a
/// sub-buffer at record 8, then two overlapping sub-buffers.
void overlapping_const_arguments(Ctx& c) {
  auto v = make_particles(N, 39);
  cl_mem m = buffer(c, v);
  cl_mem s8 = sub(m, 8 * sizeof(Particle), 512 * sizeof(Particle));
  cl_mem s16 = sub(m, 16 * sizeof(Particle), 512 * sizeof(Particle));
  cl_mem out = plain(c, N * sizeof(float));
  cl_kernel k = kernel(c, "weigh2");
  const int n = 512;
  for (auto [a, b] : {std::pair{m, s8}, std::pair{s8, s16}, std::pair{s16, m}}) {
    set_args(k, {{sizeof a, &a}, {sizeof b, &b}, {sizeof n, &n}, {sizeof out, &out}});
    launch(c, k, n);
    read_floats(c, out, n);
    read_all(c, m, N);
  }
  cl.clReleaseKernel(k);
  for (cl_mem x : {s8, s16, m, out}) cl.clReleaseMemObject(x);
}

/// The parent bound to the annotated argument and a sub-buffer over the same bytes to a
/// plain one, and the reverse.
void aliases_through_subbuffers(Ctx& c) {
  auto v = make_particles(N, 40);
  cl_mem m = buffer(c, v);
  cl_mem s = sub(m, 0, 512 * sizeof(Particle));
  cl_kernel k = kernel(c, "pull");
  const int n = 512;
  for (auto [a, b] : {std::pair{m, s}, std::pair{s, m}}) {
    set_args(k, {{sizeof a, &a}, {sizeof b, &b}, {sizeof n, &n}});
    launch(c, k, n);
    read_all(c, m, N);
  }
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(s);
  cl.clReleaseMemObject(m);
}

/// A kernel staged in local memory (a local: clause) with its staged buffer apart from the
/// one it writes, then bound to both: staged, then the original (its copy taken at the
/// start would miss the kernel's own writes).
void staged_alias(Ctx& c) {
  const int n = 200;
  std::vector<float> v(n), w(n);
  for (int i = 0; i < n; ++i) v[i] = float(i % 13) - 4.0f, w[i] = float(i % 7);
  cl_int err = CL_SUCCESS;
  cl_mem x = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               n * sizeof(float), v.data(), &err);
  CHECK(err);
  cl_mem y = cl.clCreateBuffer(c.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               n * sizeof(float), w.data(), &err);
  CHECK(err);
  cl_kernel k = kernel(c, "twice");
  for (auto [in, out] : {std::pair{x, y}, std::pair{y, y}}) {
    set_args(k, {{sizeof in, &in}, {sizeof out, &out}, {sizeof n, &n}});
    launch(c, k, n);
    read_floats(c, out, n);
  }
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(x);
  cl.clReleaseMemObject(y);
}

/// The program's binaries and build options, as the application sees them after
/// transformed launches.
void program_binaries(Ctx& c) {
  auto v = make_particles(N, 41);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  read_all(c, m, N);
  std::size_t size = 0;
  CHECK(cl.clGetProgramInfo(c.program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
  std::vector<unsigned char> bin(size);
  unsigned char* bins[] = {bin.data()};
  CHECK(cl.clGetProgramInfo(c.program, CL_PROGRAM_BINARIES, sizeof bins, bins, nullptr));
  // A program built from these binaries (as an application caching them would) must
  // compute the application's results, not DL's transformed ones.
  const unsigned char* cbins[] = {bin.data()};
  cl_int st = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = cl.clCreateProgramWithBinary(c.context, 1, &c.device, &size, cbins, &st, &err);
  CHECK(err);
  CHECK(cl.clBuildProgram(p, 1, &c.device, "", nullptr, nullptr));
  cl_int kerr = CL_SUCCESS;
  cl_kernel kb = cl.clCreateKernel(p, "advance", &kerr);
  CHECK(kerr);
  step(c, kb, m, N, 0.02f);
  read_all(c, m, N);
  char opts[4096] = {0};
  CHECK(cl.clGetProgramBuildInfo(c.program, c.device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts - 1,
                                 opts, nullptr));
  c.keep(opts, std::strlen(opts));
  cl.clReleaseKernel(kb);
  cl.clReleaseProgram(p);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Rebuilding a program with kernels attached fails; the kernels go on running.
void failed_rebuild(Ctx& c) {
  auto v = make_particles(N, 42);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  cl_int st = cl.clBuildProgram(c.program, 1, &c.device, "", nullptr, nullptr);
  c.keep(&st, sizeof st);
  step(c, k, m, N, 0.02f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// A READ map stays open while a const-annotated kernel reads the buffer: the bytes
/// behind the mapped pointer must not change.
void read_map_open(Ctx& c) {
  auto v = make_particles(N, 43);
  cl_mem m = buffer(c, v), out = plain(c, N * sizeof(float));
  cl_kernel w = kernel(c, "weigh"), a = kernel(c, "advance");
  step(c, a, m, N, 0.01f);
  cl_int err = CL_SUCCESS;
  auto* p = static_cast<Particle*>(cl.clEnqueueMapBuffer(
      c.queue, m, CL_TRUE, CL_MAP_READ, 0, N * sizeof(Particle), 0, nullptr, nullptr, &err));
  CHECK(err);
  const int n = N;
  set_args(w, {{sizeof m, &m}, {sizeof n, &n}, {sizeof out, &out}});
  launch(c, w, N);
  CHECK(cl.clFinish(c.queue));
  c.keep(p, N * sizeof(Particle));
  read_floats(c, out, N);
  CHECK(cl.clEnqueueUnmapMemObject(c.queue, m, p, 0, nullptr, nullptr));
  step(c, a, m, N, 0.02f);
  read_all(c, m, N);
  for (cl_kernel k : {w, a}) cl.clReleaseKernel(k);
  for (cl_mem x : {m, out}) cl.clReleaseMemObject(x);
}

/// A READ map opened beside the records a flat array is converted for, then a kernel
/// reading the array with a longer record (K = 5 after K = 3): its records reach into the
/// mapped bytes, so the conversion must wait for the unmap like any other.
void read_map_record_change(Ctx& c) {
  const int floats = 120;
  std::vector<float> v(floats);
  for (int i = 0; i < floats; ++i) v[i] = static_cast<float>(i % 13) - 4.0f;
  cl_mem g = plain(c, floats * sizeof(float)), out = plain(c, 8 * sizeof(float));
  CHECK(cl.clEnqueueWriteBuffer(c.queue, g, CL_TRUE, 0, floats * sizeof(float), v.data(), 0,
                                nullptr, nullptr));
  cl_kernel k = kernel(c, "row_sums");
  const int n = 3, three = 3, five = 5;
  set_args(k, {{sizeof g, &g}, {sizeof n, &n}, {sizeof three, &three}, {sizeof out, &out}});
  launch(c, k, n);
  read_floats(c, out, n);
  // Records 0-2 of 3 floats are bytes [0, 36): the map starts past them.
  cl_int err = CL_SUCCESS;
  auto* p = static_cast<unsigned char*>(
      cl.clEnqueueMapBuffer(c.queue, g, CL_TRUE, CL_MAP_READ, 40, 400, 0, nullptr, nullptr, &err));
  CHECK(err);
  c.keep(p, 400);
  CHECK(cl.clSetKernelArg(k, 2, sizeof five, &five));  // records 0-2 are bytes [0, 60)
  launch(c, k, n);
  CHECK(cl.clFinish(c.queue));
  c.keep(p, 400);
  CHECK(cl.clEnqueueUnmapMemObject(c.queue, g, p, 0, nullptr, nullptr));
  read_floats(c, out, n);
  read_floats(c, g, floats);
  cl.clReleaseKernel(k);
  for (cl_mem x : {g, out}) cl.clReleaseMemObject(x);
}

/// An image1d_buffer created over a converted buffer, read with clEnqueueReadImage.
void image_over_buffer(Ctx& c) {
  cl_bool images = CL_FALSE;
  cl.clGetDeviceInfo(c.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr);
  auto v = make_particles(N, 44);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  if (images) {
    cl_image_format f{CL_RGBA, CL_FLOAT};
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = N * sizeof(Particle) / 16;
    d.mem_object = m;
    cl_int err = CL_SUCCESS;
    cl_mem img = cl.clCreateImage(c.context, CL_MEM_READ_ONLY, &f, &d, nullptr, &err);
    CHECK(err);
    std::vector<float> px(d.image_width * 4);
    const size_t origin[3] = {0, 0, 0}, region[3] = {d.image_width, 1, 1};
    CHECK(cl.clEnqueueReadImage(c.queue, img, CL_TRUE, origin, region, 0, 0, px.data(), 0, nullptr,
                                nullptr));
    c.keep(px.data(), px.size() * sizeof(float));
    step(c, k, m, N, 0.02f);  // the image still lives
    CHECK(cl.clEnqueueReadImage(c.queue, img, CL_TRUE, origin, region, 0, 0, px.data(), 0, nullptr,
                                nullptr));
    c.keep(px.data(), px.size() * sizeof(float));
    cl.clReleaseMemObject(img);
  }
  step(c, k, m, N, 0.03f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

/// Create, launch, read, release, many times: DL's state must not grow. Prints the
/// resident memory growth (KiB) between the first and the last fifth of the cycles.
void churn(Ctx& c) {
  const int cycles =
      std::getenv("DL_TEST_CYCLES") ? std::atoi(std::getenv("DL_TEST_CYCLES")) : 5000;
  auto v = make_particles(64, 45);
  cl_kernel k = kernel(c, "advance");
  std::size_t early = 0;
  std::uint64_t sum = 0;
  for (int i = 0; i < cycles; ++i) {
    if (i == cycles / 5) early = rss_kib();
    cl_mem m = buffer(c, v);
    step(c, k, m, 64, 0.01f);
    Particle p{};
    CHECK(cl.clEnqueueReadBuffer(c.queue, m, CL_TRUE, 5 * sizeof(Particle), sizeof p, &p, 0,
                                 nullptr, nullptr));
    sum += static_cast<std::uint64_t>(p.id);
    cl.clReleaseMemObject(m);
  }
  c.keep(&sum, sizeof sum);
  std::printf("churn: rss growth %zd KiB over %d cycles\n",
              static_cast<std::ptrdiff_t>(rss_kib()) - static_cast<std::ptrdiff_t>(early),
              cycles - cycles / 5);
  cl.clReleaseKernel(k);
}

/// The application forks a child that exits: DL's report, summary and trace are the
/// parent's (the child inherits DL's exit handler).
void forked_child(Ctx& c) {
  auto v = make_particles(N, 46);
  cl_mem m = buffer(c, v);
  cl_kernel k = kernel(c, "advance");
  step(c, k, m, N, 0.01f);
  CHECK(cl.clFinish(c.queue));
  const pid_t pid = fork();
  if (pid == 0) std::exit(0);  // runs the exit handlers it inherited
  int status = 0;
  waitpid(pid, &status, 0);
  step(c, k, m, N, 0.02f);
  read_all(c, m, N);
  cl.clReleaseKernel(k);
  cl.clReleaseMemObject(m);
}

}  // namespace

void add_trust_scenarios(Scenarios& s) {
  s["forked_child"] = forked_child;
  s["conditional_parameters"] = conditional_parameters;
  s["n_smaller_than_range"] = n_smaller_than_range;
  s["dimension_overflow"] = dimension_overflow;
  s["failed_user_event"] = failed_user_event;
  s["shared_const_threads"] = shared_const_threads;
  s["shared_host_threads"] = shared_host_threads;
  s["host_visible_memory"] = host_visible_memory;
  s["host_visible_const"] = host_visible_const;
  s["host_visible_commands"] = host_visible_commands;
  s["read_only_commands"] = read_only_commands;
  s["read_only_budget"] = read_only_budget;
  s["read_only_budget_pair"] = read_only_budget_pair;
  s["shared_readonly_threads"] = shared_readonly_threads;
  s["overlapping_const_arguments"] = overlapping_const_arguments;
  s["aliases_through_subbuffers"] = aliases_through_subbuffers;
  s["staged_alias"] = staged_alias;
  s["program_binaries"] = program_binaries;
  s["failed_rebuild"] = failed_rebuild;
  s["read_map_open"] = read_map_open;
  s["read_map_record_change"] = read_map_record_change;
  s["image_over_buffer"] = image_over_buffer;
  s["churn"] = churn;
}

}  // namespace hookapp
