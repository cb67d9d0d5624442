// Copies between buffers (and images): both sides in AoS, since the bytes move as they are.
#include "observe.hpp"

namespace dl::rt {
namespace hook {

cl_int clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                           size_t dst_offset, size_t size, cl_uint nw, const cl_event* wl,
                           cl_event* ev) {
  return guarded(
      [&] {
        // The source first: a copy within one buffer restores what it reads.
        return observe(q,
                       {{src, src_offset, src_offset + size},
                        {dst, dst_offset, dst_offset + size, true, true}},
                       nw, wl, ev, false, [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueCopyBuffer(q, src, dst, src_offset, dst_offset,
                                                           size, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* src_origin,
                               const size_t* dst_origin, const size_t* region, size_t src_row_pitch,
                               size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                               cl_uint nw, const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q,
                       {rect_use(src, src_origin, region, src_row_pitch, src_slice_pitch),
                        rect_use(dst, dst_origin, region, dst_row_pitch, dst_slice_pitch, true)},
                       nw, wl, ev, false, [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueCopyBufferRect(
                             q, src, dst, src_origin, dst_origin, region, src_row_pitch,
                             src_slice_pitch, dst_row_pitch, dst_slice_pitch, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                  const size_t* dst_origin, const size_t* region, cl_uint nw,
                                  const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{src, src_offset}}, nw, wl, ev, false,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueCopyBufferToImage(q, src, dst, src_offset,
                                                                  dst_origin, region, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                  const size_t* src_origin, const size_t* region, size_t dst_offset,
                                  cl_uint nw, const cl_event* wl, cl_event* ev) {
  return guarded(
      [&] {
        return observe(q, {{dst, dst_offset, SIZE_MAX, false, true}}, nw, wl, ev, false,
                       [&](cl_uint n, const cl_event* w, cl_event* e, bool) {
                         return real().clEnqueueCopyImageToBuffer(q, src, dst, src_origin, region,
                                                                  dst_offset, n, w, e);
                       });
      },
      CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
