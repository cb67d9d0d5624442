// Reads, writes and fills of buffers: the host sees and writes AoS bytes.
#include "observe.hpp"

namespace dl::rt {

bool covers(cl_mem m, std::size_t offset, std::size_t size) {
  BufferState* b = Runtime::get().buffer(m);
  return b && offset == 0 && size == b->size;
}

namespace hook {

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                           size_t size, void* ptr, cl_uint nw, const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{buffer}}, nw, wl, ev, blocking,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
                         return real().clEnqueueReadBuffer(q, buffer, b, offset, size, ptr, n, w,
                                                           e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueReadBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                               const size_t* buffer_origin, const size_t* host_origin,
                               const size_t* region, size_t buffer_row_pitch,
                               size_t buffer_slice_pitch, size_t host_row_pitch,
                               size_t host_slice_pitch, void* ptr, cl_uint nw, const cl_event* wl,
                               cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{buffer}}, nw, wl, ev, blocking,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
                         return real().clEnqueueReadBufferRect(
                             q, buffer, b, buffer_origin, host_origin, region, buffer_row_pitch,
                             buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                            size_t size, const void* ptr, cl_uint nw, const cl_event* wl,
                            cl_event* ev) {
  return guarded(
      [&] {
        std::unique_lock<std::mutex> lock(Runtime::get().mutex);
        const bool all = covers(buffer, offset, size);
        lock.unlock();
        return observe(q, {{buffer, all}}, nw, wl, ev, blocking,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
                         return real().clEnqueueWriteBuffer(q, buffer, b, offset, size, ptr, n, w,
                                                            e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buffer, cl_bool blocking,
                                const size_t* buffer_origin, const size_t* host_origin,
                                const size_t* region, size_t buffer_row_pitch,
                                size_t buffer_slice_pitch, size_t host_row_pitch,
                                size_t host_slice_pitch, const void* ptr, cl_uint nw,
                                const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{buffer}}, nw, wl, ev, blocking,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
                         return real().clEnqueueWriteBufferRect(
                             q, buffer, b, buffer_origin, host_origin, region, buffer_row_pitch,
                             buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueFillBuffer(cl_command_queue q, cl_mem buffer, const void* pattern,
                           size_t pattern_size, size_t offset, size_t size, cl_uint nw,
                           const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        std::unique_lock<std::mutex> lock(Runtime::get().mutex);
        const bool all = covers(buffer, offset, size);
        lock.unlock();
        return observe(q, {{buffer, all}}, nw, wl, ev, false,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueFillBuffer(q, buffer, pattern, pattern_size, offset,
                                                           size, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
