// Reads, writes and fills of buffers: the host sees and writes AoS bytes.
#include "observe.hpp"

namespace dl::rt {

Use rect_use(cl_mem m, const size_t* origin, const size_t* region, size_t row_pitch,
             size_t slice_pitch, bool writes) {
  if (!origin || !region || !region[0] || !region[1] || !region[2])
    return {m, 0, SIZE_MAX, false, writes};
  const std::size_t row = row_pitch ? row_pitch : region[0];
  const std::size_t slice = slice_pitch ? slice_pitch : region[1] * row;
  const std::size_t first = origin[2] * slice + origin[1] * row + origin[0];
  const std::size_t last = first + (region[2] - 1) * slice + (region[1] - 1) * row + region[0];
  return {m, first, last, false, writes};
}

namespace {

/// The value of every byte of a fill pattern whose bytes are all equal; -1 otherwise.
int uniform_byte(const void* pattern, size_t size) {
  if (!pattern || !size) return -1;
  auto* p = static_cast<const unsigned char*>(pattern);
  for (size_t i = 1; i < size; ++i)
    if (p[i] != p[0]) return -1;
  return p[0];
}

}  // namespace

namespace hook {

cl_int clEnqueueReadBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                           size_t size, void* ptr, cl_uint nw, const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{buffer, offset, offset + size}}, nw, wl, ev, blocking,
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
        return observe(
            q, {rect_use(buffer, buffer_origin, region, buffer_row_pitch, buffer_slice_pitch)}, nw,
            wl, ev, blocking, [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
              return real().clEnqueueReadBufferRect(q, buffer, b, buffer_origin, host_origin,
                                                    region, buffer_row_pitch, buffer_slice_pitch,
                                                    host_row_pitch, host_slice_pitch, ptr, n, w, e);
            });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueWriteBuffer(cl_command_queue q, cl_mem buffer, cl_bool blocking, size_t offset,
                            size_t size, const void* ptr, cl_uint nw, const cl_event* wl,
                            cl_event* ev) {
  return guarded(
      [&] {
        if (auto st = split_upload(q, buffer, blocking, offset, size, ptr, nw, wl, ev)) return *st;
        return observe(q, {{buffer, offset, offset + size, true, true}}, nw, wl, ev, blocking,
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
        return observe(
            q,
            {rect_use(buffer, buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, true)},
            nw, wl, ev, blocking, [&](cl_uint n, const cl_event* w, cl_event* e, bool b) {
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
        const Use use{buffer, offset, offset + size,
                      true,   true,   uniform_byte(pattern, pattern_size)};
        return observe(q, {use}, nw, wl, ev, false,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueFillBuffer(q, buffer, pattern, pattern_size, offset,
                                                           size, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
