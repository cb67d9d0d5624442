// Maps: the host sees the buffer's bytes (read) or writes them (write): AoS first.
#include "observe.hpp"

namespace dl::rt {
namespace hook {

void* clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_map,
                         cl_map_flags map_flags, size_t offset, size_t size, cl_uint nw,
                         const cl_event* wl, cl_event* ev, cl_int* errcode_ret) {
  void* result = nullptr;
  cl_int st = guarded(
      [&] {
        std::unique_lock<std::mutex> lock(Runtime::get().mutex);
        const bool all =
            (map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && covers(buffer, offset, size);
        lock.unlock();
        return observe(q, {{buffer, all}}, nw, wl, ev, blocking_map,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
                         cl_int err = CL_SUCCESS;
                         result = real().clEnqueueMapBuffer(q, buffer, b, map_flags, offset, size,
                                                            n, w, e, &err);
                         return err;
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
  if (errcode_ret) *errcode_ret = st;
  return st == CL_SUCCESS ? result : nullptr;
}

}  // namespace hook
}  // namespace dl::rt
