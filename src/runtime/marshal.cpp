// Marshaling a tracked buffer through dl::Marshaler, on the application's queue.
#include <spdlog/spdlog.h>

#include "calibration.hpp"
#include "disk_cache.hpp"
#include "runtime.hpp"

namespace dl::rt {

QueueInfo& Runtime::queue(cl_command_queue q) {
  auto it = queues.find(q);
  if (it != queues.end()) return it->second;
  QueueInfo qi;
  real().clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qi.context, &qi.context, nullptr);
  real().clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qi.device, &qi.device, nullptr);
  cl_command_queue_properties props = 0;
  real().clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr);
  qi.in_order = !(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  return queues[q] = qi;
}

cl_command_queue Runtime::own_queue(cl_context c) {
  auto it = own_queues.find(c);
  if (it != own_queues.end()) return it->second;
  std::size_t bytes = 0;
  real().clGetContextInfo(c, CL_CONTEXT_DEVICES, 0, nullptr, &bytes);
  std::vector<cl_device_id> devs(bytes / sizeof(cl_device_id));
  if (!devs.empty()) real().clGetContextInfo(c, CL_CONTEXT_DEVICES, bytes, devs.data(), nullptr);
  cl_device_id d = devs.empty() ? nullptr : devs[0];
  cl_int err = CL_SUCCESS;
  cl_command_queue q = d ? real().clCreateCommandQueueWithProperties(c, d, nullptr, &err) : nullptr;
  if (q) own_queues[c] = q;
  return q;
}

namespace {

/// A plan's identity in the cache: the marshaling library's sources (their hash,
/// src/runtime/CMakeLists.txt) and the Marshaler's key of the plan.
std::string plan_identity(const std::string& key) {
  return "marshal " DL_MARSHAL_ID "\n" + key;
}

}  // namespace

Marshaler* Runtime::marshaler(cl_context c, cl_device_id d) {
  auto& m = marshalers[{c, d}];
  if (!m) {
    try {
      MarshalOptions o;
      const std::string& tp = controls.DL_THREE_PASS;
      o.three_pass = tp == "on"    ? MarshalOptions::Prefer::Always
                     : tp == "off" ? MarshalOptions::Prefer::Never
                                   : MarshalOptions::Prefer::Device;
      o.build_program = build_program;
      o.scratch_chunk_bytes = static_cast<std::size_t>(controls.DL_SCRATCH_CHUNK);
      // The report and the trace time a conversion of several commands whole.
      o.first_event = controls.profiling();
      o.load_plan = [](const std::string& key, const std::function<bool(const std::string&)>& use) {
        return plan_cache().load(plan_identity(key),
                                 [&](const std::string& bytes, std::string* why) {
                                   *why = "its bytes are not a plan of this conversion";
                                   return use(bytes);
                                 });
      };
      o.save_plan = [](const std::string& key, const std::string& bytes) {
        plan_cache().store(plan_identity(key), bytes);
      };
      m = std::make_unique<Marshaler>(c, d, &real(), o);
    } catch (const std::exception& e) {
      log().warn("no marshaler for the device: {}", e.what());
      return nullptr;
    }
  }
  return m.get();
}

std::uint32_t Runtime::tile_for(cl_context c, cl_device_id d) {
  if (controls.DL_TILE) return static_cast<std::uint32_t>(controls.DL_TILE);
  if (auto p = profile(d); p && p->valid) return p->tile;  // calibrated
  Marshaler* m = marshaler(c, d);
  return m ? m->preferred_tile() : 32;
}

namespace {

void CL_CALLBACK on_conversion_done(cl_event, cl_int status, void* data) {
  if (status >= 0) return;
  log().critical(
      "buffer #{}: a conversion failed on the device ({}); its bytes may be in neither layout",
      reinterpret_cast<std::uintptr_t>(data), status);
}

}  // namespace

std::string Runtime::marshal(BufferState& b, cl_command_queue q, const Record& rec, std::size_t n,
                             const Layout& to, WaitList& wait, const std::string& why,
                             bool write_only) {
  if (b.layout != Layout::aos() && (b.n != n || b.record != rec)) {
    // Marshaled for another n or record: back to AoS with what it was marshaled for.
    Record old = b.record;
    std::string err = marshal(b, q, old, b.n, Layout::aos(), wait, why, write_only);
    if (!err.empty() || to == Layout::aos()) return err;
  }
  const Layout from = b.layout;
  if (from == to) return {};
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(n, rec.size(), &bytes) || bytes > b.size)
    return fmt::format("{} records of {} bytes do not fit the buffer's {} bytes", n, rec.size(),
                       b.size);
  if (controls.fault("alloc")) return "allocation failure forced by DL_FAULT=alloc";
  const QueueInfo& qi = queue(q);
  Marshaler* m = marshaler(qi.context, qi.device);
  if (!m) return "no marshaler for this device";
  if (std::string content = content_shortcut(b, to, write_only); !content.empty()) {
    // A state change only: nothing is enqueued, so nothing later has to wait for it, and
    // the users and the last conversion stay what a later conversion must follow. The
    // way back must be possible, as after a conversion (it will be a real one once a
    // kernel wrote the bytes).
    if (to != Layout::aos()) {
      Plan back = m->plan(rec, n, to, Layout::aos(), algorithm);
      if (!back.ok) return "no plan: " + back.reason;
      if (controls.fault("build"))
        return "marshaling program build failure forced by DL_FAULT=build";
      std::string build_log;
      if (cl_int st = m->prepare(rec, back, &build_log); st != CL_SUCCESS)
        return fmt::format("marshaling program failed to build ({}): {}", st, build_log);
    }
    set_layout(b, to, n, &rec);
    list(b);
    b.stats->state_only++;
    log().debug("buffer #{}: no conversion to {}: {} (for {})", b.id, to.str(), content, why);
    return {};
  }
  Plan plan = m->plan(rec, n, from, to, algorithm);
  if (!plan.ok) return "no plan: " + plan.reason;
  if (controls.fault("build")) return "marshaling program build failure forced by DL_FAULT=build";
  std::string build_log;
  if (cl_int st = m->prepare(rec, plan, &build_log); st != CL_SUCCESS)
    return fmt::format("marshaling program failed to build ({}): {}", st, build_log);
  // After every earlier command on these bytes, whatever its queue.
  WaitList deps(0, nullptr, false);
  for (cl_event e : wait.for_conversion()) deps.add(e);
  const std::vector<BufferState*> fam = family(b.mem);
  bool history_known = true;
  for (BufferState* x : fam) history_known = history_known && x->users_known;
  if (!history_known) {
    // Commands enqueued before DL watched these bytes were not recorded: follow every
    // queue of the context (a marker completes after all commands before it).
    // (Only queues the application holds: a released handle may be gone.)
    for (auto& [queue_handle, info] : queues)
      if (info.app_refs && info.context == b.context && (queue_handle != q || !qi.in_order)) {
        cl_event marker = nullptr;
        if (real().clEnqueueMarkerWithWaitList(queue_handle, 0, nullptr, &marker) == CL_SUCCESS) {
          deps.add(marker);
          release(marker);
        }
      }
    for (BufferState* x : fam) x->users_known = true;
  }
  for (BufferState* x : fam) {
    for (Access& a : x->users) deps.add(wait_event(a, q));
    if (x->conversion.event && (x->conversion.queue != q || !qi.in_order))
      deps.add(x->conversion.event);
  }
  cl_event done = nullptr;
  MarshalResult r =
      m->enqueue(q, b.mem, 0, rec, n, from, to, algorithm, deps.size(), deps.data(), &done);
  if (r.status != CL_SUCCESS) {
    if (r.partial)
      log().critical("buffer #{}: a conversion {} -> {} failed half way: {}", b.id, from.str(),
                     to.str(), r.error);
    return fmt::format("marshal failed ({}): {}", r.status, r.error);
  }
  for (const Access& a : b.users) release(a.event);
  b.users.clear();
  release(b.conversion.event);
  retain(done);
  b.conversion = {done, q, false};
  real().clSetEventCallback(done, CL_COMPLETE, &on_conversion_done,
                            reinterpret_cast<void*>(static_cast<std::uintptr_t>(b.id)));
  set_layout(b, to, n, &rec);
  std::string algos;
  for (const auto& s : r.plan.steps) {
    if (!algos.empty()) algos += "+";
    algos += algorithm_name(s.algorithm);
  }
  list(b);
  b.stats->marshals++;
  b.stats->bytes += r.plan.bytes_moved;
  b.stats->algorithms.insert(algos);
  b.stats->layouts.insert(from.str() + "->" + to.str());
  (to == Layout::aos() ? b.stats->to_aos : b.stats->to_target)++;
  log().debug("marshal buffer #{} {} -> {} n={} record {} ({}, {} bytes) for {}", b.id, from.str(),
              to.str(), n, rec.name(), algos, r.plan.bytes_moved, why);
  if (controls.profiling() && done)
    profile(done, fmt::format("marshal #{} {}->{}", b.id, from.str(), to.str()), "marshal", q,
            nullptr, b.stats, r.first);
  release(r.first);
  wait.converted(done);
  return {};
}

}  // namespace dl::rt
