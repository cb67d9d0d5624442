// Buffers: creation, sub-buffers, and the per-buffer layout state.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "runtime.hpp"

namespace dl::rt {
namespace {

void release_accesses(BufferState& b) {
  for (const Access& a : b.users) release(a.event);
  b.users.clear();
  release(b.conversion.event);
  b.conversion = {};
}

/// The destructor callback of the buffer DL numbered `data`. Implementations call it
/// late, on their own threads: by then the handle may name a new buffer, whose state
/// stays.
void CL_CALLBACK on_destroyed(cl_mem m, void* data) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto it = rt.buffers.find(m);
  if (it == rt.buffers.end() || it->second.id != reinterpret_cast<std::uintptr_t>(data)) return;
  BufferState& b = it->second;
  if (b.layout != Layout::aos()) rt.transformed_buffers--;
  rt.set_content(b, false, false);
  release_accesses(b);
  rt.gathered_gone(m);
  rt.retire(b);
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

/// `no_data`: created without host data (no COPY_HOST_PTR, USE_HOST_PTR or properties):
/// its bytes are undefined until a command touches them.
void track(cl_mem m, cl_context ctx, cl_mem_flags flags, std::size_t size, cl_mem parent,
           std::size_t origin, bool no_data = false) {
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.mutex);
  auto old = rt.buffers.find(m);
  if (old != rt.buffers.end()) {  // a recycled handle whose destructor callback is late
    if (BufferState* p = rt.buffer(old->second.parent))
      p->children.erase(std::remove(p->children.begin(), p->children.end(), m), p->children.end());
    if (old->second.layout != Layout::aos()) rt.transformed_buffers--;
    rt.set_content(old->second, false, false);
    release_accesses(old->second);
    rt.gathered_gone(m);
    rt.retire(old->second);
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
  b.parent = parent;
  b.origin = origin;
  b.host_visible = (flags & CL_MEM_USE_HOST_PTR) != 0;
  if (!parent && no_data && !(flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))
    rt.set_content(b, true, false);
  if (parent) {
    if (BufferState* p = rt.buffer(parent)) {
      p->children.push_back(m);
      b.annotated = p->annotated;
      b.host_visible = b.host_visible || p->host_visible;
    } else {  // a parent DL did not see created: ask for its flags
      cl_mem_flags pf = 0;
      real().clGetMemObjectInfo(parent, CL_MEM_FLAGS, sizeof pf, &pf, nullptr);
      b.host_visible = b.host_visible || (pf & CL_MEM_USE_HOST_PTR);
    }
  }
  if (real().clSetMemObjectDestructorCallback(
          m, &on_destroyed, reinterpret_cast<void*>(static_cast<std::uintptr_t>(b.id))) !=
      CL_SUCCESS)
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

void Runtime::set_content(BufferState& r, bool undefined, bool uniform, unsigned char byte) {
  const bool was = r.undefined || r.uniform;
  r.undefined = undefined;
  r.uniform = uniform;
  r.uniform_byte = uniform ? byte : 0;
  const bool now = undefined || uniform;
  if (was && !now) content_marked--;
  if (!was && now) content_marked++;
}

BufferState* Runtime::content_root(const BufferState& b) {
  if (!b.parent) return const_cast<BufferState*>(&b);
  return buffer(b.parent);  // sub-buffers are regions of a buffer, never of a sub-buffer
}

std::string Runtime::content_shortcut(const BufferState& b, const Layout& to, bool write_only) {
  const BufferState* r = content_root(b);
  if (!r) return {};
  if (r->uniform) return fmt::format("content uniform (every byte 0x{:02x})", r->uniform_byte);
  if (r->undefined && write_only) return "content undefined (write_only)";
  if (r->undefined && to == Layout::aos()) return "content undefined (never touched)";
  return {};
}

void Runtime::touched(cl_mem m, bool writes) {
  if (content_marked == 0) return;
  BufferState* b = buffer(m);
  BufferState* r = b ? content_root(*b) : nullptr;
  if (!r || !(r->undefined || r->uniform)) return;
  const bool uniform = r->uniform && !writes;
  set_content(*r, false, uniform, r->uniform_byte);
}

void Runtime::filled(cl_mem m, std::size_t offset, std::size_t size, int byte, bool may_fail) {
  BufferState* b = buffer(m);
  BufferState* r = b ? content_root(*b) : nullptr;
  if (!r) return;
  const Range g = range(*b);
  bool whole = byte >= 0 && !may_fail && g.lo + offset == 0 && size == r->size && !r->host_visible;
  // Bytes written through something DL does not see while the fill's mark stands: an
  // image over the buffer (image writes), an open map (the unmap writes the host's bytes).
  for (BufferState* x : family(r->mem)) whole = whole && !x->images && !x->maps && !x->host_visible;
  if (whole)
    set_content(*r, false, true, static_cast<unsigned char>(byte));
  else
    touched(m, true);
}

void Runtime::forget_content() {
  gathered_written(nullptr);
  if (content_marked == 0) return;
  for (auto& [m, b] : buffers) set_content(b, false, false);
}

Runtime::Range Runtime::range(const BufferState& b) {
  if (b.parent && buffer(b.parent)) return {b.parent, b.origin, b.origin + b.size};
  if (b.parent) return {b.parent, b.origin, b.origin + b.size};  // parent unknown to DL
  return {b.mem, 0, b.size};
}

std::vector<BufferState*> Runtime::family(cl_mem m) {
  std::vector<BufferState*> out;
  BufferState* b = buffer(m);
  if (!b) return out;
  out.push_back(b);
  const Range r = range(*b);
  auto overlaps = [&](const BufferState& x) { return range(x).overlaps(r); };
  BufferState* root = buffer(r.root);
  if (!root) return out;
  if (root != b && overlaps(*root)) out.push_back(root);
  for (cl_mem c : root->children)
    if (BufferState* x = buffer(c); x && x != b && overlaps(*x)) out.push_back(x);
  return out;
}

bool Runtime::watched(cl_mem m) {
  BufferState* b = buffer(m);
  if (!b) return false;
  if (b->annotated) return true;
  if (transformed_buffers == 0 && !b->parent && b->children.empty()) return false;
  for (BufferState* x : family(m))
    if (x->annotated || x->layout != Layout::aos()) return true;
  return false;
}

bool Runtime::host_visible(cl_mem m) {
  for (BufferState* x : family(m))
    if (x->host_visible) return true;
  return false;
}

std::string Runtime::pinned(cl_mem m, bool host_visible_ok) {
  for (BufferState* x : family(m)) {
    if (x->host_visible && !host_visible_ok)
      return fmt::format("buffer #{} is host-visible memory (CL_MEM_USE_HOST_PTR)", x->id);
    if (x->maps) return fmt::format("buffer #{} is mapped", x->id);
    if (x->images) return fmt::format("an image was created over buffer #{}", x->id);
    for (const Access& a : x->users)
      if (a.tainted && (!a.event || tainted(a.event)))
        return fmt::format("a command on buffer #{} waits on an event that may fail", x->id);
  }
  return {};
}

void Runtime::enter(std::unique_lock<std::mutex>& lock) {
  const std::thread::id me = std::this_thread::get_id();
  if (enqueue_thread == std::thread::id()) enqueue_thread = me;
  if (me == enqueue_thread) return;
  if (!threaded)
    log().debug(
        "a second thread enqueues through DL: blocking transfers are enqueued non-blocking "
        "under DL's lock from now on ({} in flight outside it)",
        direct_calls);
  threaded = true;
  // The first thread's blocking command may still be on its way to its queue: what this
  // thread enqueues (a conversion) must come after it.
  direct_done.wait(lock, [&] { return direct_calls == 0; });
}

cl_event Runtime::wait_event(Access& a, cl_command_queue q) {
  if (a.event || !a.queue) return a.event;
  if (q && a.queue == q && queue(q).in_order) return nullptr;  // queue order suffices
  // The last command of an in-order queue, recorded without an event: a marker on that
  // queue completes after it (and everything before it).
  cl_event marker = nullptr;
  if (real().clEnqueueMarkerWithWaitList(a.queue, 0, nullptr, &marker) == CL_SUCCESS)
    a.event = marker;
  return a.event;
}

void Runtime::order_after_conversions(cl_mem m, cl_command_queue q, WaitList& wait) {
  for (BufferState* x : family(m))
    if (x->conversion.event && (x->conversion.queue != q || !queue(q).in_order))
      wait.add(x->conversion.event);
}

void Runtime::add_user(cl_mem m, cl_event e, cl_command_queue q, bool tainted) {
  BufferState* b = buffer(m);
  if (!b || !watched(m)) return;
  // On an in-order queue the last command stands for all earlier ones, and needs no event
  // of its own until another queue must wait for it (wait_event()).
  if (queue(q).in_order) {
    for (Access& a : b->users)
      if (a.queue == q) {
        retain(e);
        release(a.event);
        a.event = e;
        a.tainted = tainted;
        return;
      }
  } else if (!e) {
    return;
  }
  if (b->users.size() >= 32) {  // drop completed commands
    std::size_t k = 0;
    for (std::size_t i = 0; i < b->users.size(); ++i) {
      Access& a = b->users[i];
      cl_int st = CL_QUEUED;
      if (a.event)
        real().clGetEventInfo(a.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
      if (st == CL_COMPLETE || st < 0)
        release(a.event);
      else
        b->users[k++] = a;
    }
    b->users.resize(k);
  }
  retain(e);
  b->users.push_back({e, q, tainted});
}

bool Runtime::ensure_aos(cl_mem m, cl_command_queue q, WaitList& wait, const char* why,
                         bool skip_self) {
  bool ok = true;
  for (BufferState* x : family(m)) {
    if (skip_self && x->mem == m) continue;
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

bool Runtime::ensure_aos_range(cl_mem m, std::size_t lo, std::size_t hi, bool replaced,
                               cl_command_queue q, WaitList& wait, const char* why) {
  BufferState* b = buffer(m);
  if (!b) return true;
  // [lo, hi) in the root's bytes.
  const Range r = range(*b);
  lo = r.lo + std::min(lo, b->size);
  hi = r.lo + std::min(hi, b->size);
  bool ok = true;
  for (BufferState* x : family(m)) {
    if (x->layout == Layout::aos()) continue;
    const std::size_t xlo = range(*x).lo, xhi = xlo + x->n * x->record.size();
    if (xhi <= lo || hi <= xlo) continue;  // the command does not touch converted bytes
    if (replaced && lo <= xlo && xhi <= hi) {
      set_layout(*x, Layout::aos(), 0, nullptr);  // overwritten: AoS without a conversion
      continue;
    }
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
  if (m) guarded([&] { return track(m, context, flags, size, nullptr, 0, true), 0; }, 0);
  return m;
}

cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                    cl_mem_flags flags, size_t size, void* host_ptr,
                                    cl_int* errcode_ret) {
  cl_mem m =
      real().clCreateBufferWithProperties(context, properties, flags, size, host_ptr, errcode_ret);
  // Properties (an extension's) may give the buffer bytes DL does not know of.
  const bool no_data = !properties || !properties[0];
  if (m) guarded([&] { return track(m, context, flags, size, nullptr, 0, no_data), 0; }, 0);
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
    guarded([&] { return track(m, ctx, flags, r->size, buffer, r->origin), 0; }, 0);
  }
  return m;
}

}  // namespace hook
}  // namespace dl::rt
