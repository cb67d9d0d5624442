// Images created over a buffer (image1d_buffer, image2d from a buffer) read its bytes
// through commands DL does not translate: the buffer is brought back to AoS when the
// image is created, and stays AoS while the image lives (Runtime::pinned).
#include <spdlog/spdlog.h>

#include <memory>

#include "runtime.hpp"

namespace dl::rt {
namespace {

struct Pinned {
  cl_mem buffer;
  std::uint64_t id;  // the handle may name another buffer by the time the callback runs
};

void CL_CALLBACK on_image_destroyed(cl_mem, void* data) {
  std::unique_ptr<Pinned> p(static_cast<Pinned*>(data));
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  if (BufferState* b = rt.buffer(p->buffer); b && b->id == p->id && b->images) b->images--;
}

/// Restores the buffer under an image to AoS (waiting for it) and pins it.
void pin(cl_mem image, const cl_image_desc* desc) {
  if (!desc || !desc->mem_object) return;
  cl_mem m = desc->mem_object;
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  rt.enter(lock);
  BufferState* b = rt.buffer(m);
  if (!b) return;
  auto* pin = new Pinned{m, b->id};
  if (real().clSetMemObjectDestructorCallback(image, &on_image_destroyed, pin) != CL_SUCCESS) {
    delete pin;
    log().warn("buffer #{}: no destructor callback for the image over it", b->id);
    return;
  }
  b->images++;
  rt.touched(m, true);  // image commands may write the bytes (Runtime::filled marks no
                        // buffer uniform while an image lives over it)
  if (!rt.watched(m)) return;
  cl_command_queue q = rt.own_queue(b->context);
  if (!q) {
    log().error("buffer #{}: no queue to restore AoS before an image reads it", b->id);
    return;
  }
  WaitList w(0, nullptr, false);
  rt.ensure_aos(m, q, w, "an image over the buffer");
  rt.order_after_conversions(m, q, w);
  cl_event done = nullptr;
  if (real().clEnqueueMarkerWithWaitList(q, w.size(), w.data(), &done) != CL_SUCCESS) return;
  rt.add_user(m, done, q, false);
  lock.unlock();
  finish_blocking(done, false);
}

}  // namespace

namespace hook {

cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                     const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
  cl_mem m = real().clCreateImage(context, flags, image_format, image_desc, host_ptr, errcode_ret);
  if (m) guarded([&] { return pin(m, image_desc), 0; }, 0);
  return m;
}

cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                   cl_mem_flags flags, const cl_image_format* image_format,
                                   const cl_image_desc* image_desc, void* host_ptr,
                                   cl_int* errcode_ret) {
  cl_mem m = real().clCreateImageWithProperties(context, properties, flags, image_format,
                                                image_desc, host_ptr, errcode_ret);
  if (m) guarded([&] { return pin(m, image_desc), 0; }, 0);
  return m;
}

}  // namespace hook
}  // namespace dl::rt
