// Command queues: profiling is switched on when a report or trace is asked for (and
// hidden from the application's queries).
#include "runtime.hpp"

namespace dl::rt {
namespace {

void remember(cl_command_queue q, bool added) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  rt.queues.erase(q);  // a recycled handle: query it afresh
  QueueInfo& qi = rt.queue(q);
  qi.profiling_added = added;
  qi.app_refs = 1;
}

}  // namespace

namespace hook {

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties, cl_int* errcode_ret) {
  const bool add =
      Runtime::get().controls.queue_profiling() && !(properties & CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue q = real().clCreateCommandQueue(
      context, device, properties | (add ? CL_QUEUE_PROFILING_ENABLE : 0), errcode_ret);
  if (q) guarded([&] { return remember(q, add), 0; }, 0);
  return q;
}

cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                    const cl_queue_properties* properties,
                                                    cl_int* errcode_ret) {
  if (!Runtime::get().controls.queue_profiling()) {
    cl_command_queue q =
        real().clCreateCommandQueueWithProperties(context, device, properties, errcode_ret);
    if (q) guarded([&] { return remember(q, false), 0; }, 0);
    return q;
  }
  std::vector<cl_queue_properties> props;
  bool found = false, add = false;
  for (const cl_queue_properties* p = properties; p && *p; p += 2) {
    props.push_back(p[0]);
    props.push_back(p[1]);
    if (p[0] == CL_QUEUE_PROPERTIES) {
      found = true;
      add = !(p[1] & CL_QUEUE_PROFILING_ENABLE);
      props.back() |= CL_QUEUE_PROFILING_ENABLE;
    }
  }
  if (!found) {
    props.push_back(CL_QUEUE_PROPERTIES);
    props.push_back(CL_QUEUE_PROFILING_ENABLE);
    add = true;
  }
  props.push_back(0);
  cl_command_queue q =
      real().clCreateCommandQueueWithProperties(context, device, props.data(), errcode_ret);
  if (q) guarded([&] { return remember(q, add), 0; }, 0);
  return q;
}

cl_int clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t size,
                             void* value, size_t* size_ret) {
  cl_int st = real().clGetCommandQueueInfo(q, name, size, value, size_ret);
  if (st != CL_SUCCESS || !value ||
      (name != CL_QUEUE_PROPERTIES && name != CL_QUEUE_PROPERTIES_ARRAY))
    return st;
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto it = rt.queues.find(q);
  if (it == rt.queues.end() || !it->second.profiling_added) return st;
  if (name == CL_QUEUE_PROPERTIES) {
    *static_cast<cl_command_queue_properties*>(value) &=
        ~cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE);
  } else {
    auto* p = static_cast<cl_queue_properties*>(value);
    for (std::size_t i = 0; i + 1 < size / sizeof *p && p[i]; i += 2)
      if (p[i] == CL_QUEUE_PROPERTIES) p[i + 1] &= ~cl_queue_properties(CL_QUEUE_PROFILING_ENABLE);
  }
  return st;
}

cl_int clRetainCommandQueue(cl_command_queue q) {
  cl_int st = real().clRetainCommandQueue(q);
  if (st == CL_SUCCESS) {
    Runtime& rt = Runtime::get();
    std::lock_guard<std::mutex> lock(rt.mutex);
    if (auto it = rt.queues.find(q); it != rt.queues.end() && it->second.app_refs)
      it->second.app_refs++;
  }
  return st;
}

cl_int clReleaseCommandQueue(cl_command_queue q) {
  guarded(
      [&] {
        // The application's last reference (the implementation may hold the queue longer):
        // buffers whose last user was recorded as "the last command of this in-order
        // queue" get a marker event instead, and the queue is forgotten (its handle may be
        // recycled).
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        auto it = rt.queues.find(q);
        if (it == rt.queues.end() || (it->second.app_refs && --it->second.app_refs)) return 0;
        for (auto& [mem, b] : rt.buffers) {
          for (Access& a : b.users)
            if (a.queue == q) {
              rt.wait_event(a, nullptr);
              a.queue = nullptr;
            }
          if (b.conversion.queue == q) b.conversion.queue = nullptr;  // its event stays
        }
        rt.queues.erase(q);
        return 0;
      },
      0);
  return real().clReleaseCommandQueue(q);
}

}  // namespace hook
}  // namespace dl::rt
