// Kernel launches (paper §5.2): evaluate the annotations' dimensions, marshal the bound
// buffers into the layouts the transformed kernel reads, then launch with the
// application's wait list and event; or run the untransformed fallback kernel.
#include <spdlog/spdlog.h>

#include <cstring>

#include "programs.hpp"
#include "runtime.hpp"

namespace dl::rt {
namespace {

struct Need {
  cl_mem mem = nullptr;
  const Record* rec = nullptr;
  std::size_t n = 0;
  Layout to;
  std::string arg;
};

struct Launch {
  cl_command_queue queue;
  cl_kernel kernel;
  cl_uint work_dim;
  const size_t* offset;
  const size_t* global;
  const size_t* local;
  cl_uint num_wait;
  const cl_event* wait;
  cl_event* event;
  bool task;
};

cl_int forward(const Launch& l, cl_kernel k, cl_uint nw, const cl_event* w, cl_event* e) {
  if (l.task) return real().clEnqueueTask(l.queue, k, nw, w, e);
  return real().clEnqueueNDRangeKernel(l.queue, k, l.work_dim, l.offset, l.global, l.local, nw, w,
                                       e);
}

std::optional<std::int64_t> scalar_value(const KernelState& ks, const KernelAnnotation& ka,
                                         const std::string& name) {
  int i = ka.param_index(name);
  if (i < 0 || static_cast<std::size_t>(i) >= ks.args.size()) return std::nullopt;
  const ArgValue& a = ks.args[static_cast<std::size_t>(i)];
  if (!a.set || a.bytes.size() != a.size) return std::nullopt;
  switch (a.size) {
    case 1: {
      std::int8_t v;
      std::memcpy(&v, a.bytes.data(), 1);
      return v;
    }
    case 2: {
      std::int16_t v;
      std::memcpy(&v, a.bytes.data(), 2);
      return v;
    }
    case 4: {
      std::int32_t v;
      std::memcpy(&v, a.bytes.data(), 4);
      return v;
    }
    case 8: {
      std::int64_t v;
      std::memcpy(&v, a.bytes.data(), 8);
      return v;
    }
    default:
      return std::nullopt;
  }
}

/// What the transformed kernel needs; empty `why` on success.
std::vector<Need> needs(Runtime& rt, const KernelState& ks, const Launch& l, std::string& why) {
  const ProgramState& ps = *ks.program;
  const KernelAnnotation& ka = ps.ann.kernels[static_cast<std::size_t>(ks.annotation)];
  Expr::Env env;
  for (cl_uint d = 0; d < l.work_dim && d < 3; ++d) {
    env.global_size[d] = l.global[d];
    env.local_size[d] = l.local ? l.local[d] : 0;
    env.num_groups[d] = l.local && l.local[d] ? (l.global[d] + l.local[d] - 1) / l.local[d] : 0;
  }
  env.scalar = [&](const std::string& n) { return scalar_value(ks, ka, n); };
  std::vector<Need> out;
  for (const auto& b : ka.buffers) {
    int i = ka.param_index(b.name);
    const ArgValue* a = i >= 0 && static_cast<std::size_t>(i) < ks.args.size()
                            ? &ks.args[static_cast<std::size_t>(i)]
                            : nullptr;
    if (!a || !a->mem) {
      why = fmt::format("argument {}: not a buffer DL tracks", b.name);
      return {};
    }
    Need nd;
    nd.mem = a->mem;
    nd.arg = b.name;
    nd.rec = &ps.ann.records.at(b.record);
    std::vector<std::int64_t> dims;
    for (const auto& e : b.dims) {
      std::string err;
      const bool forced = rt.controls.fault("eval");
      auto v = forced ? std::nullopt : e.eval(env, &err);
      if (forced) err = "forced by DL_FAULT=eval";
      if (!v || *v < 0) {
        why = fmt::format("argument {}: dimension '{}' does not evaluate: {}", b.name, e.text(),
                          v ? "negative" : err);
        return {};
      }
      dims.push_back(*v);
    }
    std::string count_err;
    const auto n = record_count(dims, nd.rec, &count_err);
    if (!n) {
      why = fmt::format("argument {}: {}", b.name, count_err);
      return {};
    }
    nd.n = *n;
    nd.to = b.target;
    if (nd.to.kind == LayoutKind::ASTA && nd.to.tile == 0) nd.to = Layout::asta(ps.tile);
    for (const auto& o : out)
      if (o.mem == nd.mem && (o.to != nd.to || o.n != nd.n || *o.rec != *nd.rec)) {
        why =
            fmt::format("arguments {} and {} are one buffer wanted in two layouts", o.arg, b.name);
        return {};
      }
    out.push_back(std::move(nd));
  }
  for (std::size_t i = 0; i < ks.args.size(); ++i) {
    if (!ks.args[i].mem) continue;
    const std::string& pname = i < ka.params.size() ? ka.params[i] : std::string();
    bool annotated = false;
    for (const auto& b : ka.buffers) annotated = annotated || b.name == pname;
    if (annotated) continue;
    for (const auto& o : out)
      if (o.mem == ks.args[i].mem) {
        why = fmt::format("argument {} is also bound to the plain argument {}", o.arg, pname);
        return {};
      }
  }
  return out;
}

/// The launch's event: the application's when it asked for one, else DL's own when it
/// needs one (to track users, to profile); released by the caller.
struct EventSlot {
  cl_event e = nullptr;
  cl_event* app;
  cl_event* ptr(bool need) { return app ? app : (need ? &e : nullptr); }
  cl_event get() const { return app ? *app : e; }
  ~EventSlot() { release(e); }
};

cl_int run(const Launch& l) {
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  auto it = rt.kernels.find(l.kernel);
  if (it == rt.kernels.end()) {
    lock.unlock();
    return forward(l, l.kernel, l.num_wait, l.wait, l.event);
  }
  KernelState& ks = it->second;
  ks.stats->launches++;
  const bool profiling = rt.controls.profiling();
  bool all_set = true;
  for (const auto& a : ks.args) all_set = all_set && a.set;
  const bool transformed = ks.program && ks.program->transformed && ks.annotation >= 0;
  if (!all_set || (!l.task && (l.work_dim < 1 || l.work_dim > 3 || !l.global))) {
    lock.unlock();  // the application's error: the implementation reports it
    return forward(l, l.kernel, l.num_wait, l.wait, l.event);
  }
  if (!transformed) {
    bool watched = false;
    for (const auto& a : ks.args) watched = watched || (a.mem && rt.watched(a.mem));
    if (!watched && !profiling) {
      lock.unlock();
      return forward(l, l.kernel, l.num_wait, l.wait, l.event);
    }
    WaitList w(l.num_wait, l.wait);
    for (const auto& a : ks.args)
      if (a.mem && rt.watched(a.mem)) rt.ensure_aos(a.mem, l.queue, w, "a kernel launch");
    // In-order queues need no event to track the buffers' users (Runtime::add_user).
    const bool in_order = rt.queue(l.queue).in_order;
    EventSlot ev{nullptr, l.event};
    cl_int st =
        forward(l, l.kernel, w.size(), w.data(), ev.ptr((watched && !in_order) || profiling));
    if (st == CL_SUCCESS) {
      for (const auto& a : ks.args)
        if (a.mem) rt.add_user(a.mem, ev.get(), l.queue);
      if (profiling) rt.profile(ev.get(), ks.name, "kernel", l.queue, ks.stats, nullptr);
    }
    return st;
  }

  // A transformed kernel.
  const size_t one = 1;
  Launch ll = l;
  if (l.task) {
    ll.work_dim = 1;
    ll.global = &one;
    ll.local = &one;
  }
  std::string why;
  if (ks.program->always_fallback) why = "its program links transformed and untransformed parts";
  std::vector<Need> nds;
  if (why.empty()) nds = needs(rt, ks, ll, why);
  WaitList w(l.num_wait, l.wait);
  std::uint64_t marshals = 0;
  if (why.empty()) {
    // Plain buffer arguments and regions overlapping the annotated ones: AoS.
    for (std::size_t i = 0; i < ks.args.size(); ++i) {
      cl_mem m = ks.args[i].mem;
      if (!m) continue;
      bool annotated = false;
      for (const auto& nd : nds) annotated = annotated || nd.mem == m;
      rt.ensure_aos(m, l.queue, w, "a kernel launch", annotated);
    }
    std::vector<cl_mem> done;
    for (const auto& nd : nds) {
      BufferState* b = rt.buffer(nd.mem);
      b->annotated = true;
      if (!b->stats->listed) {
        b->stats->listed = true;
        rt.buffer_stats.push_back(b->stats);
      }
      b->stats->kernels.insert(ks.name);
      const std::uint64_t before = b->stats->marshals;
      std::string err = rt.marshal(*b, l.queue, *nd.rec, nd.n, nd.to, w, ks.name);
      marshals += b->stats->marshals - before;
      if (!err.empty()) {
        why = fmt::format("argument {}: {}", nd.arg, err);
        break;
      }
      done.push_back(nd.mem);
    }
    if (!why.empty())  // restore what this launch already marshaled
      for (cl_mem m : done) rt.ensure_aos(m, l.queue, w, "fallback");
  }
  ks.stats->marshals += marshals;
  cl_kernel k = l.kernel;
  if (!why.empty()) {
    log().warn("kernel {}: {}; running the untransformed kernel", ks.name, why);
    ks.stats->fallbacks++;
    ks.stats->fallback_reasons.insert(why);
    for (const auto& a : ks.args)
      if (a.mem) rt.ensure_aos(a.mem, l.queue, w, "fallback");
    std::string err;
    if (!ks.fallback) {
      cl_program fp = build_fallback(*ks.program, &err);
      cl_int st = CL_SUCCESS;
      if (fp) ks.fallback = real().clCreateKernel(fp, ks.name.c_str(), &st);
      if (!ks.fallback) {
        log().error("kernel {}: no untransformed kernel ({}); the launch fails", ks.name,
                    err.empty() ? std::to_string(st) : err);
        return CL_OUT_OF_RESOURCES;
      }
    }
    k = ks.fallback;
    for (std::size_t i = 0; i < ks.args.size(); ++i) {
      const ArgValue& a = ks.args[i];
      real().clSetKernelArg(k, static_cast<cl_uint>(i), a.size,
                            a.bytes.empty() ? nullptr : a.bytes.data());
    }
  } else {
    ks.stats->transformed_launches++;
  }
  EventSlot ev{nullptr, l.event};
  cl_int st = forward(l, k, w.size(), w.data(), ev.ptr(!rt.queue(l.queue).in_order || profiling));
  if (st == CL_SUCCESS) {
    for (const auto& a : ks.args)
      if (a.mem) {
        if (BufferState* b = rt.buffer(a.mem); b && !b->annotated) b->annotated = why.empty();
        rt.add_user(a.mem, ev.get(), l.queue);
      }
    if (profiling) rt.profile(ev.get(), ks.name, "kernel", l.queue, ks.stats, nullptr);
  }
  return st;
}

}  // namespace

namespace hook {

cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  Launch l{command_queue,
           kernel,
           work_dim,
           global_work_offset,
           global_work_size,
           local_work_size,
           num_events_in_wait_list,
           event_wait_list,
           event,
           false};
  return guarded([&] { return run(l); }, CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                     cl_event* event) {
  Launch l{command_queue,           kernel,          1,     nullptr, nullptr, nullptr,
           num_events_in_wait_list, event_wait_list, event, true};
  return guarded([&] { return run(l); }, CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
