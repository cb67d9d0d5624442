// The common path of the commands through which the host observes or replaces buffer
// bytes (reads, writes, fills, copies, maps): restore AoS first, or, when the command
// replaces a whole buffer, just forget its layout.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>

#include "runtime.hpp"

namespace dl::rt {

struct Use {
  cl_mem mem = nullptr;
  std::size_t lo = 0, hi = SIZE_MAX;  // the bytes of `mem` the command reads or writes
  bool replaces = false;              // it overwrites every byte of [lo, hi)
  bool writes = false;                // it may change bytes of [lo, hi) (content marks)
  int fill = -1;  // a fill whose pattern bytes all equal this value (Runtime::filled)
};

/// The bytes a rectangular command touches in a buffer: [first, last + 1) of the
/// rectangle (pitches 0 take their defaults).
Use rect_use(cl_mem m, const size_t* origin, const size_t* region, size_t row_pitch,
             size_t slice_pitch, bool writes = false);

/// clEnqueueWriteBuffer of a whole buffer its kernels keep in ASTA: written in chunks,
/// each converted as it lands (uploads.cpp). The call's status, or nothing when the write
/// is not split (the caller then enqueues it as usual).
std::optional<cl_int> split_upload(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                   size_t size, const void* ptr, cl_uint nw, const cl_event* wl,
                                   cl_event* ev);

/// What the command did to the content marks of its buffers. `sure`: it was enqueued
/// and waits on no event that may fail (so it runs).
inline void mark_content(Runtime& rt, std::initializer_list<Use> uses, bool sure) {
  for (const Use& u : uses) {
    if (!u.mem) continue;
    if (u.fill >= 0)
      rt.filled(u.mem, u.lo, u.hi - u.lo, u.fill, !sure);
    else
      rt.touched(u.mem, u.writes);
    if (u.writes || u.fill >= 0) rt.gathered_written(u.mem);
    if (u.replaces && u.writes && u.fill < 0 && u.lo == 0)
      if (BufferState* b = rt.buffer(u.mem);
          b && (b->annotated || b->layout_copied) && u.hi >= b->size)
        b->host_replaced = true;
  }
}

/// A blocking command enqueued blocking after DL's lock is released (Runtime::enter):
/// its users and content marks are recorded before, under the lock.
template <typename Enqueue>
cl_int enqueue_direct(Runtime& rt, std::unique_lock<std::mutex>& lock, Enqueue&& enqueue,
                      cl_uint num_wait, const cl_event* wait, cl_event* event) {
  rt.direct_calls++;
  lock.unlock();
  const cl_int st = enqueue(num_wait, wait, event, true);
  lock.lock();
  rt.direct_calls--;
  lock.unlock();
  rt.direct_done.notify_all();
  return st;
}

/// `enqueue(num_wait, wait, event, blocking)` enqueues the real command non-blocking.
/// Blocking semantics come back by waiting for its event after DL's lock is released;
/// or, in a single-threaded application, a blocking read or write on an in-order queue
/// (or of bytes DL does not watch) is enqueued blocking after the lock is released
/// (enqueue_direct). `after` runs under the lock once the command is enqueued (maps count
/// themselves there; they are never enqueued after the lock).
template <typename Enqueue, typename After = void (*)()>
cl_int observe(
    cl_command_queue q, std::initializer_list<Use> uses, cl_uint num_wait, const cl_event* wait,
    cl_event* event, bool blocking, Enqueue&& enqueue, After&& after = [] {}) {
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  rt.enter(lock);
  bool watched = false;
  for (const Use& u : uses) watched = watched || (u.mem && rt.watched(u.mem));
  const bool may_fail = rt.any_tainted(num_wait, wait);
  const bool direct = blocking && !may_fail && !rt.threaded &&
                      std::is_same_v<std::decay_t<After>, void (*)()> &&
                      rt.controls.DL_DIRECT_BLOCKING;
  if (!watched && direct) {
    mark_content(rt, uses, true);
    return enqueue_direct(rt, lock, enqueue, num_wait, wait, event);
  }
  if (!watched) {
    // Enqueued under the lock all the same: a conversion decided on another thread right
    // after must find this command in its queue (it waits for every earlier command).
    cl_event own = nullptr;
    cl_event* ev = blocking && !event ? &own : event;
    cl_int st = enqueue(num_wait, wait, ev, false);
    if (st == CL_SUCCESS && may_fail && ev) rt.taint(*ev, event != nullptr);
    mark_content(rt, uses, st == CL_SUCCESS && !may_fail);
    after();
    lock.unlock();
    if (st == CL_SUCCESS && blocking) st = finish_blocking(*ev, event != nullptr);
    return st;
  }
  WaitList w(num_wait, wait, may_fail);
  for (const Use& u : uses)
    if (u.mem) {
      rt.epoch_end(u.mem);
      rt.ensure_aos_range(u.mem, u.lo, u.hi, u.replaces, q, w, "a host access");
      rt.order_after_conversions(u.mem, q, w);
    }
  w.settle_before_failure();
  if (direct && rt.queue(q).in_order) {
    // The command is the last on its in-order queue: queue order stands for its event
    // (Runtime::wait_event makes a marker behind it where another queue must wait).
    mark_content(rt, uses, true);
    for (const Use& u : uses)
      if (u.mem) rt.add_user(u.mem, nullptr, q, false);
    return enqueue_direct(rt, lock, enqueue, w.size(), w.data(), event);
  }
  cl_event own = nullptr;
  cl_event* ev = event ? event : &own;
  cl_int st = enqueue(w.size(), w.data(), ev, false);
  mark_content(rt, uses, st == CL_SUCCESS && !may_fail);
  if (st != CL_SUCCESS) return st;
  if (may_fail) rt.taint(*ev, event != nullptr);
  for (const Use& u : uses)
    if (u.mem) rt.add_user(u.mem, *ev, q, may_fail);
  after();
  cl_event e = *ev;
  lock.unlock();
  if (blocking) st = finish_blocking(e, true);
  if (!event) release(own);
  return st;
}

}  // namespace dl::rt
