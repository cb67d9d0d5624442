// Buffers: creation, sub-buffers, release, and the per-buffer layout state.
#include <spdlog/spdlog.h>

#include "runtime.hpp"

namespace dl::rt {
namespace {

void CL_CALLBACK on_destroyed(cl_mem m, void*) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto it = rt.buffers.find(m);
  if (it == rt.buffers.end()) return;
  BufferState& b = it->second;
  if (b.layout != Layout::aos()) rt.transformed_buffers--;
  for (cl_event e : b.users) release(e);
  if (b.parent) {
    if (BufferState* p = rt.buffer(b.parent)) {
      auto& c = p->children;
      for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i] == m) {
          c.erase(c.begin() + static_cast<std::ptrdiff_t>(i));
          break;
        }
    }
  }
  rt.buffers.erase(it);
}

void track(cl_mem m, cl_context ctx, cl_mem_flags flags, std::size_t size, void* host_ptr,
           cl_mem parent, std::size_t origin) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto old = rt.buffers.find(m);
  if (old != rt.buffers.end()) {  // a recycled handle whose destructor callback was missed
    if (old->second.layout != Layout::aos()) rt.transformed_buffers--;
    rt.buffers.erase(old);
  }
  BufferState& b = rt.buffers[m];
  b.mem = m;
  b.id = rt.next_buffer_id++;
  b.stats = std::make_shared<BufferStats>();
  b.stats->id = b.id;
  b.stats->size = size;
  b.context = ctx;
  b.flags = flags;
  b.size = size;
  b.host_ptr = host_ptr;
  b.parent = parent;
  b.origin = origin;
  if (parent) {
    if (BufferState* p = rt.buffer(parent)) {
      p->children.push_back(m);
      b.annotated = p->annotated;
    }
  }
  if (real().clSetMemObjectDestructorCallback(m, &on_destroyed, nullptr) != CL_SUCCESS)
    log().warn("buffer #{}: no destructor callback, its state may outlive it", b.id);
}

}  // namespace

BufferState* Runtime::buffer(cl_mem m) {
  if (!m) return nullptr;
  auto it = buffers.find(m);
  return it == buffers.end() ? nullptr : &it->second;
}

void Runtime::set_layout(BufferState& b, const Layout& l, std::size_t n, const Record* rec) {
  const bool was = b.layout != Layout::aos();
  const bool now = l != Layout::aos();
  b.layout = l;
  b.n = now ? n : 0;
  b.record = now && rec ? *rec : Record();
  if (was && !now) transformed_buffers--;
  if (!was && now) transformed_buffers++;
}

std::vector<BufferState*> Runtime::family(cl_mem m) {
  std::vector<BufferState*> out;
  BufferState* b = buffer(m);
  if (!b) return out;
  BufferState* root = b;
  std::size_t lo = b->origin, hi = b->origin + b->size;
  if (b->parent) {
    if (BufferState* p = buffer(b->parent)) {
      root = p;
    } else {
      lo = 0;
      hi = b->size;
    }
  } else {
    lo = 0;
    hi = b->size;
  }
  auto overlaps = [&](const BufferState& x, bool is_root) {
    std::size_t xl = is_root ? 0 : x.origin, xh = xl + x.size;
    return xl < hi && lo < xh;
  };
  out.push_back(b);
  if (root != b && overlaps(*root, true)) out.push_back(root);
  for (cl_mem c : root->children) {
    if (c == m) continue;
    if (BufferState* x = buffer(c); x && overlaps(*x, false)) out.push_back(x);
  }
  return out;
}

bool Runtime::watched(cl_mem m) {
  BufferState* b = buffer(m);
  if (!b) return false;
  if (b->annotated) return true;
  if (transformed_buffers == 0) return false;
  for (BufferState* x : family(m))
    if (x->annotated || x->layout != Layout::aos()) return true;
  return false;
}

void Runtime::wait_users(cl_mem m, cl_command_queue q, WaitList& wait) {
  for (BufferState* x : family(m))
    for (std::size_t i = 0; i < x->users.size(); ++i) wait.add(user_event(*x, i, q));
}

cl_event Runtime::user_event(BufferState& b, std::size_t i, cl_command_queue q) {
  if (b.users[i] || b.user_queues[i] == q) return b.users[i];
  // The last command on an in-order queue, recorded without an event: a marker on that
  // queue completes after it (and everything before it).
  cl_event marker = nullptr;
  if (real().clEnqueueMarkerWithWaitList(b.user_queues[i], 0, nullptr, &marker) == CL_SUCCESS)
    b.users[i] = marker;
  return b.users[i];
}

void Runtime::add_user(cl_mem m, cl_event e, cl_command_queue q) {
  BufferState* b = buffer(m);
  if (!b || !b->annotated) return;
  // On an in-order queue the last command stands for all earlier ones, and needs no event
  // of its own until another queue must wait for it (user_event()).
  if (queue(q).in_order) {
    for (std::size_t i = 0; i < b->users.size(); ++i)
      if (b->user_queues[i] == q) {
        retain(e);
        release(b->users[i]);
        b->users[i] = e;
        return;
      }
  } else if (!e) {
    return;
  }
  if (b->users.size() >= 32) {  // drop completed commands
    std::size_t k = 0;
    for (std::size_t i = 0; i < b->users.size(); ++i) {
      cl_int st = CL_QUEUED;
      if (b->users[i])
        real().clGetEventInfo(b->users[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st,
                              nullptr);
      if (st == CL_COMPLETE || st < 0) {
        release(b->users[i]);
      } else {
        b->users[k] = b->users[i];
        b->user_queues[k++] = b->user_queues[i];
      }
    }
    b->users.resize(k);
    b->user_queues.resize(k);
  }
  retain(e);
  b->users.push_back(e);
  b->user_queues.push_back(q);
}

void Runtime::reset_to_aos(cl_mem m) {
  if (BufferState* b = buffer(m)) set_layout(*b, Layout::aos(), 0, nullptr);
}

bool Runtime::ensure_aos(cl_mem m, cl_command_queue q, WaitList& wait, const char* why,
                         bool skip_self) {
  bool ok = true;
  for (BufferState* x : family(m)) {
    if (skip_self && x == buffer(m)) continue;
    if (x->layout == Layout::aos()) continue;
    Record rec = x->record;
    std::string err = marshal(*x, q, rec, x->n, Layout::aos(), wait, why);
    if (!err.empty()) {
      log().error("buffer #{}: cannot restore AoS before {}: {}", x->id, why, err);
      ok = false;
    }
  }
  return ok;
}

namespace hook {

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                      cl_int* errcode_ret) {
  cl_mem m = real().clCreateBuffer(context, flags, size, host_ptr, errcode_ret);
  if (m) guarded([&] { return track(m, context, flags, size, host_ptr, nullptr, 0), 0; }, 0);
  return m;
}

cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                    cl_mem_flags flags, size_t size, void* host_ptr,
                                    cl_int* errcode_ret) {
  cl_mem m =
      real().clCreateBufferWithProperties(context, properties, flags, size, host_ptr, errcode_ret);
  if (m) guarded([&] { return track(m, context, flags, size, host_ptr, nullptr, 0), 0; }, 0);
  return m;
}

cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type,
                         const void* info, cl_int* errcode_ret) {
  // The sub-buffer sees the parent's bytes: every later use of either restores the
  // overlapping region to AoS first (Runtime::family), so nothing is marshaled here.
  cl_mem m = real().clCreateSubBuffer(buffer, flags, type, info, errcode_ret);
  if (m && type == CL_BUFFER_CREATE_TYPE_REGION && info) {
    auto* r = static_cast<const cl_buffer_region*>(info);
    cl_context ctx = nullptr;
    real().clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof ctx, &ctx, nullptr);
    guarded([&] { return track(m, ctx, flags, r->size, nullptr, buffer, r->origin), 0; }, 0);
  }
  return m;
}

cl_int clReleaseMemObject(cl_mem memobj) {
  // A buffer created with CL_MEM_USE_HOST_PTR hands its bytes back to the host when its
  // last reference goes: restore AoS first.
  Runtime& rt = Runtime::get();
  if (rt.transformed_buffers > 0) {
    guarded(
        [&] {
          std::unique_lock<std::mutex> lock(rt.mutex);
          BufferState* b = rt.buffer(memobj);
          if (!b || !(b->flags & CL_MEM_USE_HOST_PTR) || b->layout == Layout::aos() ||
              !b->last_queue)
            return 0;
          cl_uint refs = 0;
          real().clGetMemObjectInfo(memobj, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, nullptr);
          if (refs != 1) return 0;
          cl_command_queue q = b->last_queue;
          WaitList wait(0, nullptr);
          rt.wait_users(memobj, q, wait);
          rt.ensure_aos(memobj, q, wait, "release of a USE_HOST_PTR buffer");
          // Map and unmap: the implementation copies the bytes back to the host pointer.
          cl_event mapped = nullptr, e = nullptr;
          void* p = real().clEnqueueMapBuffer(q, memobj, CL_FALSE, CL_MAP_READ, 0, b->size,
                                              wait.size(), wait.data(), &mapped, nullptr);
          if (p) real().clEnqueueUnmapMemObject(q, memobj, p, 1, &mapped, &e);
          release(mapped);
          lock.unlock();
          if (e) finish_blocking(e, false);
          return 0;
        },
        0);
  }
  return real().clReleaseMemObject(memobj);
}

}  // namespace hook
}  // namespace dl::rt
