// Maps: the host sees the buffer's bytes (read) or writes them (write): AoS first. While
// a map is open DL does not convert the buffer in place (Runtime::pinned): the bytes
// behind the mapped pointer must not change under the host, even for a READ map.
#include "observe.hpp"

namespace dl::rt {
namespace hook {

void* clEnqueueMapBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking_map,
                         cl_map_flags map_flags, size_t offset, size_t size, cl_uint nw,
                         const cl_event* wl, cl_event* ev, cl_int* errcode_ret) {
  void* result = nullptr;
  cl_int st = guarded(
      [&] {
        const bool replaces = (map_flags & CL_MAP_WRITE_INVALIDATE_REGION) != 0;
        // Any map counts as a write: the host may change the bytes behind the pointer.
        return observe(
            q, {{buffer, offset, offset + size, replaces, true}}, nw, wl, ev, blocking_map,
            [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
              cl_int err = CL_SUCCESS;
              result =
                  real().clEnqueueMapBuffer(q, buffer, b, map_flags, offset, size, n, w, e, &err);
              return err;
            },
            [&] {
              if (BufferState* b = Runtime::get().buffer(buffer)) b->maps++;
            });
      },
      CL_OUT_OF_HOST_MEMORY);
  if (errcode_ret) *errcode_ret = st;
  return st == CL_SUCCESS ? result : nullptr;
}

cl_int clEnqueueUnmapMemObject(cl_command_queue q, cl_mem memobj, void* mapped_ptr, cl_uint nw,
                               const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        Runtime& rt = Runtime::get();
        std::unique_lock<std::mutex> lock(rt.mutex);
        BufferState* b = rt.buffer(memobj);
        const bool may_fail = rt.any_tainted(nw, wl);
        rt.touched(memobj, true);  // the host's bytes come back
        rt.gathered_written(memobj);
        if (!b || !rt.watched(memobj)) {
          cl_int st = real().clEnqueueUnmapMemObject(q, memobj, mapped_ptr, nw, wl, ev);
          if (st == CL_SUCCESS) {
            if (b && b->maps) b->maps--;
            if (may_fail && ev) rt.taint(*ev, true);
          }
          return st;
        }
        // Mapped buffers stay AoS: the unmap only joins the buffer's users, so that a
        // later conversion follows it.
        WaitList w(nw, wl, may_fail);
        rt.order_after_conversions(memobj, q, w);
        EventSlot own{nullptr, ev};
        cl_int st = real().clEnqueueUnmapMemObject(q, memobj, mapped_ptr, w.size(), w.data(),
                                                   own.ptr(!rt.queue(q).in_order || may_fail));
        if (st != CL_SUCCESS) return st;
        if (b->maps) b->maps--;
        if (may_fail) rt.taint(own.get(), ev != nullptr);
        rt.add_user(memobj, own.get(), q, may_fail);
        return st;
      },
      CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
