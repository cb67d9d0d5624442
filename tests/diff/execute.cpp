// A case's flow: queues, the three phases (threads in the middle one), the end of the
// case (every live buffer read, everything released, host arrays and event statuses
// observed), and the ordering rules that keep any subset of ops race-free.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "executor.hpp"
#include "generate.hpp"

namespace dl_diff {

std::vector<unsigned char> random_bytes(std::size_t n, std::uint32_t seed) {
  Rng r(0xD1B54A32D192ED03ull * (seed + 1));
  std::vector<unsigned char> v(n);
  for (std::size_t i = 0; i < n; i += 8) {
    const std::uint64_t x = r.next();
    std::memcpy(v.data() + i, &x, std::min<std::size_t>(8, n - i));
  }
  return v;
}

std::vector<unsigned char> initial_bytes(Shape s, std::size_t records, std::size_t slack,
                                         std::uint32_t seed) {
  const std::size_t R = info(s).size;
  std::vector<unsigned char> v = random_bytes(records * R + slack, seed);
  Rng r(seed);
  auto put_float = [&](std::size_t at) {
    const float f = static_cast<float>(r.in(-100, 100));
    std::memcpy(v.data() + at, &f, sizeof f);
  };
  for (std::size_t i = 0; i < records; ++i) {
    const std::size_t base = i * R;
    switch (s) {
      case Shape::FD: {
        put_float(base);
        const double d = static_cast<double>(r.in(-1000, 1000));
        std::memcpy(v.data() + base + 8, &d, sizeof d);
        break;
      }
      case Shape::F4I:
        for (int c = 0; c < 4; ++c) put_float(base + 4 * static_cast<std::size_t>(c));
        break;
      case Shape::F3:
      case Shape::F5:
        for (std::size_t c = 0; c < R / 4; ++c) put_float(base + 4 * c);
        break;
      default:
        break;  // integers: any bits
    }
  }
  // Whole records in the slack bytes stay random, but finite where a kernel reads them as
  // floating point (a launch may count them in its n): arithmetic on a NaN keeps its
  // payload only as far as the compiler's code does, and native and DL's builds are
  // different code (case 10848 read a double 0xfffe45d313e9e52c and got back its low word
  // zeroed under the 64-bit build, with this session's runtime and the one before).
  auto finite = [&](std::size_t at, std::size_t bytes) {  // the exponent's top bit cleared
    unsigned char& top = v[at + bytes - 1];
    const bool inf_nan = bytes == 4 ? (top & 0x7F) == 0x7F && (v[at + 2] & 0x80)
                                    : (top & 0x7F) == 0x7F && (v[at + 6] & 0xF0) == 0xF0;
    if (inf_nan) top &= 0xBF;
  };
  for (std::size_t i = records; (i + 1) * R <= v.size(); ++i) {
    const std::size_t base = i * R;
    switch (s) {
      case Shape::FD:
        finite(base, 4);
        finite(base + 8, 8);
        break;
      case Shape::F4I:
        for (std::size_t c = 0; c < 4; ++c) finite(base + 4 * c, 4);
        break;
      case Shape::F3:
      case Shape::F5:
        for (std::size_t c = 0; c < R / 4; ++c) finite(base + 4 * c, 4);
        break;
      default:
        break;
    }
  }
  return v;
}

Executor::Executor(Session& s, const Case& c, bool trace) : s_(s), c_(c), trace_(trace) {
  for (int t = 0; t < std::max(c.threads, 1); ++t)
    threads_.push_back(std::make_unique<Thread>(trace));
  bufs_.resize(static_cast<std::size_t>(c.buffers));
  maps_.resize(static_cast<std::size_t>(c.maps));
  map_thread_.assign(maps_.size(), -1);
  for (const Op& op : c.ops)
    if (op.kind == OpKind::Map && op.map >= 0 && op.map < c.maps)
      map_thread_[static_cast<std::size_t>(op.map)] = op.thread;
}

Executor::~Executor() {
  for (auto& b : bufs_) std::free(b.host);
}

bool Executor::in_order(cl_command_queue q) const {
  for (std::size_t i = 0; i < queues_.size(); ++i)
    if (queues_[i] == q) return c_.queues[i].in_order;
  return true;
}

bool Executor::live(int b) const {
  return b >= 0 && b < static_cast<int>(bufs_.size()) && bufs_[static_cast<std::size_t>(b)].alive;
}

unsigned char* Executor::memory(Thread& t, std::size_t n, unsigned char fill) {
  t.memory.emplace_back(std::max<std::size_t>(n, 1), fill);
  return t.memory.back().data();
}

cl_kernel Executor::kernel(Thread& t, int op, Prog prog, const std::string& name) {
  const auto key = std::make_pair(static_cast<int>(prog), name);
  auto it = t.kernels.find(key);
  if (it != t.kernels.end()) return it->second;
  cl_program p = name == "bump"         ? s_.plain
                 : prog == Prog::Main   ? s_.main
                 : prog == Prog::Family ? s_.family()
                                        : binary_;
  if (!p) return nullptr;
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(p, name.c_str(), &err);
  rc(t, op, "clCreateKernel", err);
  if (k) t.kernels[key] = k;
  return k;
}

std::vector<cl_event> Executor::waits(Thread& t, cl_command_queue q,
                                      const std::vector<Access>& acc) {
  std::vector<cl_event> w;
  auto need = [&](const Dep& d) {
    if (d.q == q && in_order(q)) return;
    if (d.e) {
      if (std::find(w.begin(), w.end(), d.e) == w.end()) w.push_back(d.e);
    } else {
      clFinish(d.q);
    }
  };
  for (const Access& a : acc) {
    auto it = t.track.find(a.root);
    if (it == t.track.end()) continue;
    for (const Dep& d : it->second.writer) need(d);
    if (a.write)
      for (const Dep& d : it->second.readers) need(d);
  }
  return w;
}

void Executor::record(Thread& t, cl_command_queue q, cl_event e, const std::vector<Access>& acc) {
  for (const Access& a : acc) {
    Track& tr = t.track[a.root];
    if (a.write) {
      tr.writer = {{q, e}};
      tr.readers.clear();
    } else {
      tr.readers.push_back({q, e});
    }
  }
  // Pair(a, a): the same root read and written: the write rule wins.
  for (const Access& a : acc)
    if (a.write) t.track[a.root].readers.clear();
}

void Executor::drain(Thread& t, int op, int root) {
  auto it = t.track.find(root);
  if (it == t.track.end()) return;
  std::vector<Dep> all = it->second.writer;
  all.insert(all.end(), it->second.readers.begin(), it->second.readers.end());
  for (const Dep& d : all) {
    if (d.e)
      rc(t, op, "clWaitForEvents", clWaitForEvents(1, &d.e));
    else
      clFinish(d.q);
  }
  t.track.erase(it);
}

void Executor::flush(Thread& t) {
  for (const Pending& p : t.pending) {
    if (p.e)
      rc(t, p.op, "clWaitForEvents", clWaitForEvents(1, &p.e));
    else
      clFinish(p.q);
    t.stream.bytes(p.op, p.what, p.data, p.size);
  }
  t.pending.clear();
}

void Executor::close_maps(const Op& op, const std::vector<Access>& acc) {
  for (std::size_t m = 0; m < maps_.size(); ++m) {
    // Only this thread's slots are read: other threads change theirs concurrently.
    if (map_thread_[m] != op.thread) continue;
    const Map& mp = maps_[m];
    if (!mp.open) continue;
    const int root = bufs_[static_cast<std::size_t>(mp.buf)].root;
    for (const Access& a : acc)
      if (a.root == root && (a.write || mp.kind != MapKind::Read)) {
        close_map(static_cast<int>(m), "auto-unmap: observed bytes");
        break;
      }
  }
}

void Executor::close_map(int m, const char* why) {
  Map& mp = maps_[static_cast<std::size_t>(m)];
  if (!mp.open) return;
  Thread& t = *threads_[static_cast<std::size_t>(mp.thread)];
  const Buffer& b = bufs_[static_cast<std::size_t>(mp.buf)];
  // The bytes behind the pointer once every command on the buffer is done.
  drain(t, mp.op, b.root);
  t.stream.bytes(mp.op, why, mp.ptr, mp.size);
  cl_event e = nullptr;
  rc(t, mp.op, "clEnqueueUnmapMemObject",
     clEnqueueUnmapMemObject(mp.q, b.mem, mp.ptr, 0, nullptr, in_order(mp.q) ? nullptr : &e));
  if (e) t.events.push_back(e);
  record(t, mp.q, e, {{b.root, mp.kind != MapKind::Read}});
  mp.open = false;
}

void Executor::exec(const Op& op) {
  switch (op.kind) {
    case OpKind::Create:
      create(op);
      break;
    case OpKind::Sub:
      sub(op);
      break;
    case OpKind::Release:
      release(op);
      break;
    case OpKind::Launch:
    case OpKind::UserEvent:
      launch(op);
      break;
    case OpKind::Read:
    case OpKind::ReadRect:
      read(op);
      break;
    case OpKind::Write:
      write(op);
      break;
    case OpKind::Fill:
      fill(op);
      break;
    case OpKind::Copy:
      copy(op);
      break;
    case OpKind::Map:
      map(op);
      break;
    case OpKind::Unmap:
      if (op.map >= 0 && op.map < static_cast<int>(maps_.size()) &&
          map_thread_[static_cast<std::size_t>(op.map)] == op.thread)
        close_map(op.map, "unmap: observed bytes");
      break;
    case OpKind::Finish:
      finish(op);
      break;
    case OpKind::ObserveHost:
      observe_host(op);
      break;
    case OpKind::Image:
      image(op);
      break;
    case OpKind::Binary:
      binary(op);
      break;
    case OpKind::Rebuild:
      rebuild(op);
      break;
  }
}

void Executor::phase(int p) {
  if (p != 1) {
    for (const Op& op : c_.ops)
      if (op.phase == p) exec(op);
    return;
  }
  std::vector<std::thread> workers;
  for (int t = 0; t < static_cast<int>(threads_.size()); ++t)
    workers.emplace_back([this, t] {
      for (const Op& op : c_.ops)
        if (op.phase == 1 && op.thread == t) exec(op);
    });
  for (auto& w : workers) w.join();
}

void Executor::boundary() {
  Thread& t0 = *threads_[0];
  for (cl_command_queue q : queues_) rc(t0, -1, "clFinish", clFinish(q));
  for (auto& t : threads_) flush(*t);
  for (std::size_t m = 0; m < maps_.size(); ++m)
    close_map(static_cast<int>(m), "phase end: mapped bytes");
  for (cl_command_queue q : queues_) clFinish(q);
  for (auto& t : threads_) t->track.clear();
}

void Executor::finish_case() {
  boundary();
  Thread& t0 = *threads_[0];
  // Every live buffer as the host reads it at the end.
  for (std::size_t b = 0; b < bufs_.size(); ++b) {
    if (!bufs_[b].alive || queues_.empty()) continue;
    unsigned char* host = memory(t0, bufs_[b].size, 0xA5);
    rc(t0, -1, "clEnqueueReadBuffer",
       clEnqueueReadBuffer(queues_[0], bufs_[b].mem, CL_TRUE, 0, bufs_[b].size, host, 0, nullptr,
                           nullptr));
    t0.stream.bytes(-1, ("end: b" + std::to_string(b)).c_str(), host, bufs_[b].size);
  }
  for (auto& b : bufs_)
    if (b.alive) {
      clReleaseMemObject(b.mem);
      b.alive = false;
    }
  for (cl_command_queue q : queues_) clFinish(q);
  // Host arrays of USE_HOST_PTR buffers after their release.
  for (std::size_t b = 0; b < bufs_.size(); ++b)
    if (bufs_[b].host)
      threads_[static_cast<std::size_t>(bufs_[b].thread)]->stream.bytes(
          -1, ("end: host array of b" + std::to_string(b)).c_str(), bufs_[b].host, bufs_[b].size);
  for (auto& t : threads_) {
    for (cl_event e : t->events) {
      cl_int status = 1, type = 0;
      clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
      clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr);
      t->stream.value(-1, "end: event status", status);
      t->stream.value(-1, "end: event command type", type);
      clReleaseEvent(e);
    }
    t->events.clear();
    for (auto& k : t->kernels) clReleaseKernel(k.second);
    t->kernels.clear();
  }
  if (binary_) clReleaseProgram(binary_);
  binary_ = nullptr;
  for (cl_command_queue q : queues_) clReleaseCommandQueue(q);
  queues_.clear();
}

Digest Executor::run() {
  for (const QueueDesc& qd : c_.queues) {
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        qd.in_order ? cl_queue_properties{0}
                    : cl_queue_properties{CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE},
        0};
    cl_int err = CL_SUCCESS;
    queues_.push_back(
        clCreateCommandQueueWithProperties(s_.context, s_.device_of(qd.device), props, &err));
    rc(*threads_[0], -1, "clCreateCommandQueueWithProperties", err);
  }
  phase(0);
  boundary();
  phase(1);
  boundary();
  phase(2);
  finish_case();
  Digest d;
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (auto& t : threads_) {
    for (std::uint64_t v : {t->stream.hash(), t->stream.size()})
      for (int i = 0; i < 8; ++i) {
        h ^= (v >> (8 * i)) & 0xFF;
        h *= 0x100000001B3ull;
      }
    d.size += t->stream.size();
    if (trace_) {
      if (threads_.size() > 1) d.trace += "thread " + std::to_string(&t - &threads_[0]) + "\n";
      d.trace += t->stream.trace();
    }
  }
  d.hash = h;
  return d;
}

}  // namespace dl_diff
