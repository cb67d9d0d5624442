// Marshaling a tracked buffer through dl::Marshaler, on the application's queue.
#include <spdlog/spdlog.h>

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

Marshaler* Runtime::marshaler(cl_context c, cl_device_id d) {
  auto& m = marshalers[{c, d}];
  if (!m) {
    try {
      m = std::make_unique<Marshaler>(c, d, &real());
    } catch (const std::exception& e) {
      log().warn("no marshaler for the device: {}", e.what());
      return nullptr;
    }
  }
  return m.get();
}

std::uint32_t Runtime::tile_for(cl_context c, cl_device_id d) {
  if (controls.DL_TILE) return static_cast<std::uint32_t>(controls.DL_TILE);
  Marshaler* m = marshaler(c, d);
  return m ? m->preferred_tile() : 32;
}

std::string Runtime::marshal(BufferState& b, cl_command_queue q, const Record& rec, std::size_t n,
                             const Layout& to, WaitList& wait, const std::string& why) {
  const bool same_record = b.record_source == &rec || b.record == rec;
  if (b.layout != Layout::aos() && (b.n != n || !same_record)) {
    // Marshaled for another n or record: back to AoS with what it was marshaled for.
    if (to == Layout::aos() && b.n == 0) return "buffer state lost";
    Record old = b.record;
    std::string err = marshal(b, q, old, b.n, Layout::aos(), wait, why);
    if (!err.empty() || to == Layout::aos()) return err;
  }
  const Layout from = b.layout;
  if (from == to) return {};
  const std::size_t bytes = n * rec.size();
  if (bytes > b.size)
    return fmt::format("{} records of {} bytes do not fit the buffer's {} bytes", n, rec.size(),
                       b.size);
  if (controls.fault("alloc")) return "allocation failure forced by DL_FAULT=alloc";
  const QueueInfo& qi = queue(q);
  Marshaler* m = marshaler(qi.context, qi.device);
  if (!m) return "no marshaler for this device";
  Plan plan = m->plan(rec, n, from, to, algorithm);
  if (!plan.ok) return "no plan: " + plan.reason;
  if (controls.fault("build")) return "marshaling program build failure forced by DL_FAULT=build";
  std::string build_log;
  if (cl_int st = m->prepare(rec, plan, &build_log); st != CL_SUCCESS)
    return fmt::format("marshaling program failed to build ({}): {}", st, build_log);
  for (std::size_t i = 0; i < b.users.size(); ++i) wait.add(user_event(b, i, q));
  cl_event done = nullptr;
  MarshalResult r =
      m->enqueue(q, b.mem, 0, rec, n, from, to, algorithm, wait.size(), wait.data(), &done);
  if (r.status != CL_SUCCESS) return fmt::format("marshal failed ({}): {}", r.status, r.error);
  for (cl_event e : b.users) release(e);
  b.users.clear();
  b.user_queues.clear();
  b.last_queue = q;
  set_layout(b, to, n, &rec);
  b.record_source = to == Layout::aos() ? nullptr : &rec;
  std::string algos;
  for (const auto& s : r.plan.steps) {
    if (!algos.empty()) algos += "+";
    algos += algorithm_name(s.algorithm);
  }
  if (!b.stats->listed) {
    b.stats->listed = true;
    buffer_stats.push_back(b.stats);
  }
  b.stats->marshals++;
  b.stats->bytes += r.plan.bytes_moved;
  b.stats->algorithms.insert(algos);
  b.stats->layouts.insert(from.str() + "->" + to.str());
  (to == Layout::aos() ? b.stats->to_aos : b.stats->to_target)++;
  log().debug("marshal buffer #{} {} -> {} n={} record {} ({}, {} bytes) for {}", b.id, from.str(),
              to.str(), n, rec.name(), algos, r.plan.bytes_moved, why);
  if (controls.profiling() && done)
    profile(done, fmt::format("marshal #{} {}->{}", b.id, from.str(), to.str()), "marshal", q,
            nullptr, b.stats);
  wait.replace(done);
  return {};
}

}  // namespace dl::rt
