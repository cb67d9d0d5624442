// Marshaler: device limits, plan(), prepare(), and enqueue(), which turns a plan into a
// list of ops (ops_*.cpp), checks everything that can fail, and only then enqueues the
// ops chained with events.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <thread>

#include "marshal_impl.hpp"

namespace dl {
namespace {

DeviceLimits query_limits(const cl_icd_dispatch* api, cl_device_id dev) {
  DeviceLimits l;
  std::size_t wg = 0;
  cl_ulong local = 0, alloc = 0;
  cl_uint cu = 0;
  cl_device_type type = 0;
  if (api->clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr) ==
      CL_SUCCESS)
    l.max_work_group_size = wg;
  if (api->clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(local), &local, nullptr) ==
      CL_SUCCESS)
    l.local_mem_bytes = static_cast<std::size_t>(local);
  if (api->clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(alloc), &alloc, nullptr) ==
      CL_SUCCESS)
    l.max_alloc_bytes = static_cast<std::size_t>(alloc);
  if (api->clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cu), &cu, nullptr) ==
      CL_SUCCESS)
    l.compute_units = std::max<cl_uint>(cu, 1);
  if (api->clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof(type), &type, nullptr) == CL_SUCCESS)
    l.gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  return l;
}

}  // namespace

Marshaler::Marshaler(cl_context context, cl_device_id device, const cl_icd_dispatch* api)
    : Marshaler(context, device, api, MarshalOptions{}) {}

Marshaler::Marshaler(cl_context context, cl_device_id device, const cl_icd_dispatch* api,
                     const MarshalOptions& options)
    : impl_(std::make_unique<Impl>()) {
  impl_->ctx = context;
  impl_->dev = device;
  impl_->api = api ? api : &loader_dispatch();
  impl_->opt = options;
  impl_->lim = query_limits(impl_->api, device);
  impl_->api->clRetainContext(context);
}

Marshaler::~Marshaler() {
  if (!impl_) return;
  cl_context ctx = impl_->ctx;
  const cl_icd_dispatch* api = impl_->api;
  impl_.reset();
  api->clReleaseContext(ctx);
}

const DeviceLimits& Marshaler::limits() const {
  return impl_->lim;
}
const MarshalOptions& Marshaler::options() const {
  return impl_->opt;
}

std::uint32_t Marshaler::preferred_tile() const {
  return 32;
}

bool Marshaler::copies_tiled(const Record& rec, std::size_t n, const Layout& from,
                             const Layout& to) const {
  if (from.kind == LayoutKind::Swap || to.kind == LayoutKind::Swap)
    return detail::block_copy_takes(rec, n, from, to);
  if (!from.tiled() || !to.tiled()) return false;
  const Layout f = detail::canonical(from, n), t = detail::canonical(to, n);
  return detail::tiled_transpose_takes(rec, impl_->lim, impl_->opt, f, t) ||
         detail::block_copy_takes(rec, n, f, t);
}

namespace {

bool is_swap(const Layout& l) {
  return l.kind == LayoutKind::Swap;
}

}  // namespace

Plan Marshaler::plan(const Record& rec, std::size_t n, const Layout& from, const Layout& to,
                     Algorithm algorithm) const {
  if (is_swap(from) || is_swap(to)) return swap_plan(rec, n, from, to, algorithm, 0);
  Plan p = detail::make_plan(impl_->lim, impl_->opt, rec, n, from, to, algorithm);
  impl_->refine(p, rec, n, algorithm);
  return p;
}

Plan Marshaler::swap_plan(const Record& rec, std::size_t n, const Layout& from, const Layout& to,
                          Algorithm algorithm, std::size_t unit,
                          std::vector<detail::SwapLeg>* legs_out) const {
  using Order = MarshalOptions::SwapOrder;
  auto in_order = [&](Order order) {
    Plan p;
    std::string why;
    std::vector<detail::SwapLeg> legs = detail::swap_legs(rec, n, from, to, order, why);
    if (!why.empty()) {
      p.reason = why;
      return p;
    }
    p.ok = true;
    for (const detail::SwapLeg& l : legs) {
      Plan q =
          detail::make_plan(impl_->lim, impl_->opt, *l.rec, l.n, l.from, l.to, algorithm, unit);
      impl_->refine(q, *l.rec, l.n, algorithm);
      if (!q.ok) {
        p = q;
        p.reason = from.str() + " -> " + to.str() + ": " + l.from.str() + " -> " + l.to.str() +
                   " of " + std::to_string(l.n) + " records of " + std::to_string(l.rec->size()) +
                   " bytes: " + q.reason;
        p.steps.clear();
        return p;
      }
      p.steps.insert(p.steps.end(), q.steps.begin(), q.steps.end());
      if (*l.rec != rec && !q.steps.empty()) p.records.push_back(l.rec);
      p.extra_bytes = std::max(p.extra_bytes, q.extra_bytes);
      p.bytes_moved += q.bytes_moved;
    }
    if (legs_out) *legs_out = std::move(legs);
    return p;
  };
  const Order want = impl_->opt.swap_order;
  if (want != Order::Auto) return in_order(want);
  // AoS <-> SWAP in one step out of place where the block transposes take it (a copy into
  // a temporary, then the blocks: two passes, where the views take two conversions of one
  // or two passes each), within max_extra_bytes as any conversion out of place.
  if (Plan one = detail::make_plan(impl_->lim, impl_->opt, rec, n, from, to, algorithm, unit);
      one.ok) {
    if (legs_out) legs_out->clear();
    return one;
  }
  // RowsFirst's view is never larger than a record; RecordsFirst's holds T records' rows.
  Plan p = in_order(Order::RowsFirst);
  if (p.ok) return p;
  Plan q = in_order(Order::RecordsFirst);
  return q.ok ? q : p;
}

cl_int Marshaler::prepare(const Record& rec, const Plan& plan, std::string* log) {
  if (!plan.ok || plan.steps.empty()) return CL_SUCCESS;
  for (const auto& r : plan.records)
    if (cl_int err = prepare(*r, log); err != CL_SUCCESS) return err;
  return prepare(rec, log);
}

cl_int Marshaler::prepare(const Record& rec, std::string* log) {
  const std::string options = impl_->program_options(static_cast<unsigned>(rec.unit()));
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    if (impl_->programs.count(options)) return CL_SUCCESS;
    if (auto it = impl_->failed.find(options); it != impl_->failed.end()) {
      if (log) *log = it->second;
      return CL_BUILD_PROGRAM_FAILURE;
    }
  }
  // Compiled without the lock: conversions of other records go on meanwhile.
  cl_program prog = nullptr;
  std::string text;
  cl_int err = impl_->build(options, &prog, &text);
  std::lock_guard<std::mutex> lock(impl_->mu);
  if (err != CL_SUCCESS) {
    impl_->failed.emplace(options, text);
    if (log) *log = text;
    return err;
  }
  if (!impl_->programs.emplace(options, prog).second) impl_->api->clReleaseProgram(prog);
  return CL_SUCCESS;
}

namespace detail {

Job::~Job() {
  for (cl_mem s : scratch) m.api->clReleaseMemObject(s);
}

cl_int Job::alloc(std::size_t bytes, cl_mem* out, const void* init) {
  cl_int err = CL_SUCCESS;
  const std::size_t total = bytes + m.opt.scratch_padding;
  if (total < bytes) return CL_INVALID_BUFFER_SIZE;
  if (init && total != bytes) return CL_INVALID_BUFFER_SIZE;
  cl_mem mem =
      m.api->clCreateBuffer(m.ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
                            std::max<std::size_t>(total, 16), const_cast<void*>(init), &err);
  if (err != CL_SUCCESS) return err;
  scratch.push_back(mem);
  *out = mem;
  return CL_SUCCESS;
}

std::size_t Job::groups(std::size_t wanted) const {
  const std::size_t cap = std::max<std::size_t>(1, m.lim.compute_units * m.opt.groups_per_cu);
  return std::max<std::size_t>(1, std::min(wanted, cap));
}

}  // namespace detail

namespace detail {

std::size_t offset_unit(const Record& rec, std::size_t offset, std::size_t other_offset) {
  std::size_t unit = rec.unit();
  while (offset % unit || other_offset % unit) unit /= 2;
  return unit;
}

cl_int setup(Job& job, std::size_t n, cl_mem buffer, std::size_t offset, std::size_t other_offset) {
  job.n = n;
  job.buffer = buffer;
  job.offset = offset;
  job.unit = static_cast<unsigned>(offset_unit(job.rec, offset, other_offset));
  job.ru = static_cast<std::uint32_t>(job.rec.size() / job.unit);
  job.base = offset / job.unit;
  bool uni = false;
  cl_int err = job.m.slot_table_buffer(job.rec, job.unit, &job.table, &uni);
  job.uni = uni ? 1 : 0;
  return err;
}

/// How many times a command after a conversion's first is enqueued again when the driver
/// is out of resources (1, 2, 4, ... 64 ms apart: about half a second in all).
constexpr int kEnqueueRetries = 12;

void execute(Job& job, cl_command_queue queue, cl_uint num_wait, const cl_event* wait,
             cl_event* done, MarshalResult& r) {
  const cl_icd_dispatch* api = job.m.api;
  std::string why;
  cl_int err = CL_SUCCESS;
  // Resolve every kernel before the first command reaches the queue.
  std::vector<cl_kernel> ks(job.ops.size(), nullptr);
  for (std::size_t i = 0; err == CL_SUCCESS && i < job.ops.size(); ++i)
    if (job.ops[i].kind == detail::Op::Kind::Kernel)
      err = job.m.kernel(job.unit, job.ops[i].kernel, &ks[i], &why);
  if (err != CL_SUCCESS) {
    r.status = err;
    r.error = why.empty()
                  ? "preparing the conversion failed (OpenCL error " + std::to_string(err) + ")"
                  : why;
    return;
  }

  cl_event prev = nullptr;
  if (job.ops.empty() && (done || num_wait)) {
    // Nothing moves (e.g. a record of one unit, or one record): the caller's wait list
    // still orders what follows.
    err = api->clEnqueueMarkerWithWaitList(queue, num_wait, wait, &prev);
    if (err != CL_SUCCESS) {
      r.status = err;
      r.error = "enqueueing a marker failed with OpenCL error " + std::to_string(err);
      return;
    }
  }
  // An in-order queue orders the commands itself: only the first waits (on the caller's
  // list) and only the last makes an event. Event chains between back-to-back kernels cost
  // the NVIDIA driver several microseconds each.
  cl_command_queue_properties props = 0;
  api->clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr);
  const bool in_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) == 0;
  for (std::size_t i = 0; i < job.ops.size(); ++i) {
    const detail::Op& op = job.ops[i];
    const bool last = i + 1 == job.ops.size();
    const cl_uint nw = i == 0 ? num_wait : (in_order ? 0 : 1);
    const cl_event* wl = i == 0 ? wait : (in_order ? nullptr : &prev);
    cl_event ev = nullptr;
    const bool first = i == 0 && !last && done && job.m.opt.first_event;
    cl_event* evp = (in_order && !last && !first) || (last && !done) ? nullptr : &ev;
    auto enqueue_op = [&]() -> cl_int {
      if (op.kind == detail::Op::Kind::Fill) {
        const cl_uint zero = 0;
        return api->clEnqueueFillBuffer(queue, op.dst, &zero, sizeof(zero), op.dst_off, op.bytes,
                                        nw, wl, evp);
      }
      if (op.kind == detail::Op::Kind::Copy)
        return api->clEnqueueCopyBuffer(queue, op.src, op.dst, op.src_off, op.dst_off, op.bytes, nw,
                                        wl, evp);
      cl_int st = CL_SUCCESS;
      for (cl_uint a = 0; st == CL_SUCCESS && a < op.args.size(); ++a) {
        const detail::KArg& ka = op.args[a];
        st = ka.local ? api->clSetKernelArg(ks[i], a, ka.local, nullptr)
                      : api->clSetKernelArg(ks[i], a, ka.bytes.size(), ka.bytes.data());
      }
      return st == CL_SUCCESS ? api->clEnqueueNDRangeKernel(queue, ks[i], 1, nullptr, &op.global,
                                                            &op.local, nw, wl, evp)
                              : st;
    };
    err = enqueue_op();
    // After the first command the buffer is partly converted: a driver out of resources
    // for a moment (the commands before draining) gets the command again, a few times,
    // rather than leaving the bytes in neither layout. (The first failing refuses cleanly.)
    for (int again = 0; i > 0 && again < kEnqueueRetries &&
                        (err == CL_OUT_OF_RESOURCES || err == CL_OUT_OF_HOST_MEMORY ||
                         err == CL_MEM_OBJECT_ALLOCATION_FAILURE);
         ++again) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1 << std::min(again, 6)));
      err = enqueue_op();
    }
    if (err == CL_SUCCESS && op.kind == detail::Op::Kind::Kernel) ++r.kernels;
    if (first && ev) {
      api->clRetainEvent(ev);
      r.first = ev;
    }
    if (prev) api->clReleaseEvent(prev);
    prev = ev;
    if (err != CL_SUCCESS) {
      if (r.first) api->clReleaseEvent(r.first);
      r.first = nullptr;
      r.status = err;
      r.partial = i > 0;
      r.error = "enqueueing command " + std::to_string(i) + " (" +
                (op.kind == detail::Op::Kind::Copy ? std::string("copy") : op.kernel) +
                ") failed with OpenCL error " + std::to_string(err) +
                (i ? "; the buffer may be partly converted" : "");
      return;
    }
  }
  if (done)
    *done = prev;
  else if (prev)
    api->clReleaseEvent(prev);
}

}  // namespace detail

namespace {

bool uses(const Plan& p, Algorithm a) {
  for (const PlanStep& s : p.steps)
    if (s.algorithm == a) return true;
  return false;
}

// Turns each step of `p` into the job's ops.
cl_int add_steps(detail::Job& job, const Plan& p, std::string* why) {
  cl_int err = CL_SUCCESS;
  for (const PlanStep& s : p.steps) {
    if (err != CL_SUCCESS) break;
    switch (s.algorithm) {
      case Algorithm::BarrierSync:
        err = detail::add_tile_local(job, s, why);
        break;
      case Algorithm::OutOfPlace:
        err = detail::add_out_of_place(job, s, why);
        break;
      case Algorithm::PttwacInstance:
        err = detail::add_tile_instance(job, s, why);
        break;
      case Algorithm::ThreePass:
        err = detail::add_three_pass(job, s, why);
        break;
      case Algorithm::Square:
        err = detail::add_square(job, s, why);
        break;
      case Algorithm::Diagonal:
        err = detail::add_diagonal_layout(job, s, why);
        break;
      case Algorithm::Segmented:
      case Algorithm::Pttwac:
      case Algorithm::Pipt:
        err = detail::add_da_asta(job, s, why);
        break;
      default:
        err = CL_INVALID_OPERATION;
        *why = std::string(algorithm_name(s.algorithm)) + " cannot run as a plan step";
    }
  }
  return err;
}

}  // namespace

MarshalResult Marshaler::enqueue(cl_command_queue queue, cl_mem buffer, std::size_t offset,
                                 const Record& rec, std::size_t n, const Layout& from,
                                 const Layout& to, Algorithm algorithm, cl_uint num_wait,
                                 const cl_event* wait, cl_event* done) {
  MarshalResult r;
  // A buffer offset less aligned than the record's unit moves smaller units: plan for them.
  const std::size_t unit = detail::offset_unit(rec, offset, offset);
  if (is_swap(from) || is_swap(to)) {
    std::vector<detail::SwapLeg> legs;
    r.plan = swap_plan(rec, n, from, to, algorithm, unit, &legs);
    if (!r.plan.ok || !legs.empty())
      return enqueue_swap(queue, buffer, offset, rec, std::move(r.plan), legs, algorithm, num_wait,
                          wait, done);
    // else one step (or nothing to move): as any other plan
  } else {
    r.plan = detail::make_plan(impl_->lim, impl_->opt, rec, n, from, to, algorithm, unit);
    impl_->refine(r.plan, rec, n, algorithm);
  }
  if (!r.plan.ok) {
    r.status = CL_INVALID_VALUE;
    r.error = r.plan.reason;
    return r;
  }
  const cl_icd_dispatch* api = impl_->api;
  std::size_t size = 0;
  cl_int err = api->clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof(size), &size, nullptr);
  if (err != CL_SUCCESS || offset > size || n * rec.size() > size - offset) {
    r.status = err != CL_SUCCESS ? err : CL_INVALID_VALUE;
    r.error = "buffer of " + std::to_string(size) + " bytes cannot hold " + std::to_string(n) +
              " records of " + std::to_string(rec.size()) + " bytes at offset " +
              std::to_string(offset);
    return r;
  }
  if (r.plan.steps.empty()) {
    if (done || num_wait) {
      cl_event ev = nullptr;
      r.status = api->clEnqueueMarkerWithWaitList(queue, num_wait, wait, &ev);
      if (r.status == CL_SUCCESS) {
        if (done)
          *done = ev;
        else
          api->clReleaseEvent(ev);
      }
    }
    return r;
  }

  std::unique_lock<std::mutex> lock(impl_->mu);
  std::unique_ptr<detail::Job> job;
  std::string why;
  for (bool again = true;;) {
    job = std::make_unique<detail::Job>(*impl_, rec);
    why.clear();
    err = detail::setup(*job, n, buffer, offset, offset);
    if (err == CL_SUCCESS) err = add_steps(*job, r.plan, &why);
    if (err == CL_SUCCESS || !again || algorithm != Algorithm::Auto ||
        !uses(r.plan, Algorithm::ThreePass))
      break;
    // The device's kernel cannot hold a row the planner expected it to (fewer work-items
    // than the device's limit suggests): plan once more without three passes.
    dl::logger().debug("marshal {} -> {}: {}; planning without three-pass", from.str(), to.str(),
                       why);
    again = false;
    lock.unlock();
    MarshalOptions o = impl_->opt;
    o.three_pass = MarshalOptions::Prefer::Never;
    r.plan = detail::make_plan(impl_->lim, o, rec, n, from, to, algorithm, unit);
    impl_->refine(r.plan, rec, n, algorithm);
    lock.lock();
    if (!r.plan.ok) {
      err = CL_INVALID_VALUE;
      why = r.plan.reason;
      break;
    }
  }
  if (err != CL_SUCCESS) {
    r.status = err;
    r.error = why.empty()
                  ? "preparing the conversion failed (OpenCL error " + std::to_string(err) + ")"
                  : why;
    dl::logger().debug("marshal {} -> {} refused: {}", from.str(), to.str(), r.error);
    return r;
  }
  detail::execute(*job, queue, num_wait, wait, done, r);
  if (r.status != CL_SUCCESS) return r;
  if (dl::logger().should_log(spdlog::level::debug)) {
    std::string algos;
    for (const PlanStep& s : r.plan.steps)
      algos += std::string(algos.empty() ? "" : " + ") + algorithm_name(s.algorithm);
    dl::logger().debug("marshal {} records of {} bytes {} -> {}: {}, {} commands", n, rec.size(),
                       from.str(), to.str(), algos, job->ops.size());
  }
  return r;
}

MarshalResult Marshaler::enqueue_swap(cl_command_queue queue, cl_mem buffer, std::size_t offset,
                                      const Record& rec, Plan plan,
                                      const std::vector<detail::SwapLeg>& legs, Algorithm algorithm,
                                      cl_uint num_wait, const cl_event* wait, cl_event* done) {
  MarshalResult r;
  // Every leg planned and its programs built before the first is enqueued: a conversion
  // refused half way would leave the bytes in neither layout.
  r.plan = std::move(plan);
  std::string log;
  if (r.plan.ok && (r.status = prepare(rec, r.plan, &log)) != CL_SUCCESS)
    r.error = "marshaling program failed to build: " + log;
  else if (!r.plan.ok) {
    r.status = CL_INVALID_VALUE;
    r.error = r.plan.reason;
  }
  if (r.status != CL_SUCCESS) return r;
  // Each leg after the previous one; the caller's wait list before the first.
  cl_event last = nullptr;
  std::size_t ran = 0;
  for (; ran < legs.size(); ++ran) {
    const detail::SwapLeg& l = legs[ran];
    cl_event ev = nullptr;
    MarshalResult q = enqueue(queue, buffer, offset, *l.rec, l.n, l.from, l.to, algorithm,
                              last ? 1 : num_wait, last ? &last : wait, &ev);
    if (q.status != CL_SUCCESS) {
      r.status = q.status;
      r.partial = q.partial;
      r.error = l.from.str() + " -> " + l.to.str() + " of " + std::to_string(l.n) +
                " records: " + q.error;
      break;
    }
    if (last) impl_->api->clReleaseEvent(last);
    last = ev;
    r.kernels += q.kernels;
    if (!r.first)
      r.first = q.first;
    else if (q.first)
      impl_->api->clReleaseEvent(q.first);
  }
  if (r.status != CL_SUCCESS && ran > 0 && !r.partial) {
    // Undo the legs that ran, last first, so the bytes are back in `from`. (Not after a
    // leg left half done: undoing the others would not bring the bytes back.)
    for (std::size_t k = ran; k-- > 0;) {
      const detail::SwapLeg& l = legs[k];
      cl_event ev = nullptr;
      MarshalResult q = enqueue(queue, buffer, offset, *l.rec, l.n, l.to, l.from, algorithm,
                                last ? 1 : 0, last ? &last : nullptr, &ev);
      if (q.status != CL_SUCCESS) {
        r.error += "; undoing it failed too (" + q.error + "): the bytes are in neither layout";
        r.partial = true;
        break;
      }
      if (last) impl_->api->clReleaseEvent(last);
      last = ev;
    }
    if (r.first) impl_->api->clReleaseEvent(r.first);
    r.first = nullptr;
  }
  if (r.status != CL_SUCCESS) {
    if (last) {
      impl_->api->clWaitForEvents(1, &last);
      impl_->api->clReleaseEvent(last);
    }
    return r;
  }
  if (!last && (done || num_wait)) {
    // Nothing to move (from == to): the caller's events still order what follows.
    r.status = impl_->api->clEnqueueMarkerWithWaitList(queue, num_wait, wait, &last);
    if (r.status != CL_SUCCESS) return r;
  }
  if (done)
    *done = last;
  else if (last)
    impl_->api->clReleaseEvent(last);
  return r;
}

namespace {

cl_int region_ok(const cl_icd_dispatch* api, cl_mem mem, std::size_t offset, std::size_t bytes,
                 std::string* why) {
  std::size_t size = 0;
  cl_int err = api->clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(size), &size, nullptr);
  if (err != CL_SUCCESS) return *why = "not a buffer", err;
  if (offset > size || bytes > size - offset) {
    *why = "buffer of " + std::to_string(size) + " bytes cannot hold " + std::to_string(bytes) +
           " bytes at offset " + std::to_string(offset);
    return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

}  // namespace

namespace {

/// enqueue_copy and enqueue_copy_part: records [first, first + count) of n; `part`: the
/// source holds only those, in AoS.
MarshalResult copy_records(Marshaler::Impl& m, cl_command_queue queue, cl_mem src,
                           std::size_t src_offset, cl_mem dst, std::size_t dst_offset,
                           const Record& rec, std::size_t n, std::size_t first, std::size_t count,
                           bool part, const Layout& from, const Layout& to, cl_uint num_wait,
                           const cl_event* wait, cl_event* done) {
  MarshalResult r;
  r.plan = detail::make_plan(m.lim, m.opt, rec, n, from, to, Algorithm::OutOfPlace);
  auto fail = [&](cl_int err, std::string why) {
    r.status = err;
    r.error = why.empty() ? "OpenCL error " + std::to_string(err) : std::move(why);
    return r;
  };
  if (!r.plan.ok) return fail(CL_INVALID_VALUE, r.plan.reason);
  if (first > n || count > n - first)
    return fail(CL_INVALID_VALUE, "records [" + std::to_string(first) + ", +" +
                                      std::to_string(count) + ") are not inside the " +
                                      std::to_string(n) + " of the array");
  const std::size_t bytes = n * rec.size(), src_bytes = part ? count * rec.size() : bytes;
  r.plan.extra_bytes = 0;
  r.plan.bytes_moved = 2 * src_bytes;
  std::string why;
  cl_int err = region_ok(m.api, src, src_offset, src_bytes, &why);
  if (err == CL_SUCCESS) err = region_ok(m.api, dst, dst_offset, bytes, &why);
  if (err == CL_SUCCESS && src == dst &&
      !(src_offset + src_bytes <= dst_offset || dst_offset + bytes <= src_offset))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  if (err != CL_SUCCESS) return fail(err, why);
  std::lock_guard<std::mutex> lock(m.mu);
  detail::Job job(m, rec);
  err = detail::setup(job, n, dst, dst_offset, src_offset);
  const Layout f = detail::canonical(from, n), t = detail::canonical(to, n);
  if (err == CL_SUCCESS && part && f != t && !detail::tiled_transpose_takes(job, f, t)) {
    err = CL_INVALID_VALUE;
    why = "a part of an array is converted only from AoS to DA, with a record of at most " +
          std::to_string(detail::tile_local_budget(m.lim, m.opt) - 16) + " bytes";
  }
  if (err == CL_SUCCESS) {
    if (count == 0) {
      // nothing to move
    } else if (f == t) {
      detail::Op copy;
      copy.kind = detail::Op::Kind::Copy;
      copy.src = src;
      copy.src_off = src_offset;
      copy.dst = dst;
      copy.dst_off = dst_offset + (part ? first * rec.size() : 0);
      copy.bytes = src_bytes;
      job.ops.push_back(copy);
    } else {
      err = detail::add_copy_kernel(job, src, src_offset / job.unit, f, t, &why, first, count);
    }
  }
  if (err != CL_SUCCESS) return fail(err, why);
  if (job.ops.empty()) {
    if (done) r.status = m.api->clEnqueueMarkerWithWaitList(queue, num_wait, wait, done);
    return r;
  }
  detail::execute(job, queue, num_wait, wait, done, r);
  return r;
}

}  // namespace

namespace {

/// Why `shape` cannot be diagonalized (empty when it can).
std::string diagonal_shape_error(const DiagonalShape& shape) {
  if (shape.elem == 0 || shape.elem > kMaxRecordSize)
    return "an element of " + std::to_string(shape.elem) + " bytes (1 to " +
           std::to_string(kMaxRecordSize) + ")";
  const std::uint64_t count = shape.planes * shape.ny * shape.nx;
  if (shape.ny && shape.nx &&
      (count / shape.ny / shape.nx != shape.planes || count > ~std::uint64_t{0} / 16 / shape.elem))
    return "the array's size overflows";
  return {};
}

/// enqueue_diagonal and enqueue_diagonal_clip: checks the regions, makes a job of
/// elements of shape.elem bytes (the widest unit dividing the element and both offsets),
/// and enqueues what `add` puts in it.
MarshalResult diagonal_job(Marshaler::Impl& m, cl_command_queue queue, cl_mem src,
                           std::size_t src_offset, std::size_t src_bytes, cl_mem dst,
                           std::size_t dst_offset, std::size_t dst_bytes,
                           const DiagonalShape& shape, std::uint64_t elements,
                           const std::function<cl_int(detail::Job&, std::string*)>& add,
                           cl_uint num_wait, const cl_event* wait, cl_event* done) {
  MarshalResult r;
  auto fail = [&](cl_int err, std::string why) {
    r.status = err;
    r.error = why.empty() ? "OpenCL error " + std::to_string(err) : std::move(why);
    return r;
  };
  if (std::string why = diagonal_shape_error(shape); !why.empty())
    return fail(CL_INVALID_VALUE, why);
  r.plan.ok = true;
  r.plan.bytes_moved = 2 * std::min(src_bytes, dst_bytes);
  std::string why;
  cl_int err = region_ok(m.api, src, src_offset, src_bytes, &why);
  if (err == CL_SUCCESS) err = region_ok(m.api, dst, dst_offset, dst_bytes, &why);
  if (err != CL_SUCCESS) return fail(err, why);
  if (src == dst && !(src_offset + src_bytes <= dst_offset || dst_offset + dst_bytes <= src_offset))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  std::lock_guard<std::mutex> lock(m.mu);
  const Record rec =
      Record::blocks("dl_diagonal", Scalar::UChar, 1, static_cast<unsigned>(shape.elem));
  detail::Job job(m, rec);
  err = detail::setup(job, elements, dst, dst_offset, src_offset);
  if (err == CL_SUCCESS && elements) err = add(job, &why);
  if (err != CL_SUCCESS) return fail(err, why);
  if (job.ops.empty()) {
    if (done) r.status = m.api->clEnqueueMarkerWithWaitList(queue, num_wait, wait, done);
    return r;
  }
  detail::execute(job, queue, num_wait, wait, done, r);
  return r;
}

}  // namespace

MarshalResult Marshaler::enqueue_diagonal(cl_command_queue queue, cl_mem src,
                                          std::size_t src_offset, cl_mem dst,
                                          std::size_t dst_offset, const DiagonalShape& shape,
                                          bool to_diagonal, bool tiled, cl_uint num_wait,
                                          const cl_event* wait, cl_event* done) {
  const std::size_t bytes = shape.bytes();
  return diagonal_job(
      *impl_, queue, src, src_offset, bytes, dst, dst_offset, bytes, shape,
      shape.planes * shape.ny * shape.nx,
      [&](detail::Job& job, std::string* why) {
        return detail::add_diagonal(job, src, src_offset / job.unit, job.base, shape, to_diagonal,
                                    tiled, why);
      },
      num_wait, wait, done);
}

MarshalResult Marshaler::enqueue_diagonal_clip(cl_command_queue queue, cl_mem diag,
                                               std::size_t diag_offset, cl_mem rect_data,
                                               std::size_t rect_offset, const DiagonalShape& shape,
                                               const Rect& rect, bool out, cl_uint num_wait,
                                               const cl_event* wait, cl_event* done) {
  if (!rect.inside(shape)) {
    MarshalResult r;
    r.status = CL_INVALID_VALUE;
    r.error = "the rectangle of " + std::to_string(rect.h) + " x " + std::to_string(rect.w) +
              " at (" + std::to_string(rect.y0) + ", " + std::to_string(rect.x0) +
              ") is not inside the " + std::to_string(shape.ny) + " x " + std::to_string(shape.nx) +
              " planes";
    return r;
  }
  const std::size_t rect_bytes = shape.planes * rect.h * rect.w * shape.elem;
  cl_mem src = out ? diag : rect_data, dst = out ? rect_data : diag;
  const std::size_t soff = out ? diag_offset : rect_offset, doff = out ? rect_offset : diag_offset;
  return diagonal_job(
      *impl_, queue, src, soff, out ? shape.bytes() : rect_bytes, dst, doff,
      out ? rect_bytes : shape.bytes(), shape, shape.planes * rect.h * rect.w,
      [&](detail::Job& job, std::string* why) {
        return detail::add_diagonal_clip(job, src, soff / job.unit, shape, rect, out, why);
      },
      num_wait, wait, done);
}

namespace {

/// Why `shape` cannot be gathered with the index at `index_offset` (empty when it can).
std::string gather_shape_error(const GatherShape& shape, std::size_t index_offset) {
  if (shape.elem == 0 || shape.elem > kMaxRecordSize)
    return "an element of " + std::to_string(shape.elem) + " bytes (1 to " +
           std::to_string(kMaxRecordSize) + ")";
  const unsigned ib = shape.index_bytes;
  if (ib != 1 && ib != 2 && ib != 4 && ib != 8)
    return "an index of " + std::to_string(ib) + " bytes (1, 2, 4 or 8)";
  if (index_offset % ib)
    return "an index offset of " + std::to_string(index_offset) +
           " bytes, not a multiple of the index's " + std::to_string(ib) + " bytes";
  const std::uint64_t most = ~std::uint64_t{0} / 16 / shape.elem;
  if (shape.count > most || shape.src_elems > most) return "the gather's size overflows";
  return {};
}

/// Whether byte ranges [a, a + an) and [b, b + bn) share a byte.
bool overlap(std::size_t a, std::size_t an, std::size_t b, std::size_t bn) {
  return an && bn && a < b + bn && b < a + an;
}

}  // namespace

MarshalResult Marshaler::enqueue_gather(cl_command_queue queue, cl_mem src, std::size_t src_offset,
                                        cl_mem index, std::size_t index_offset, cl_mem dst,
                                        std::size_t dst_offset, const GatherShape& shape,
                                        cl_uint num_wait, const cl_event* wait, cl_event* done) {
  Impl& m = *impl_;
  MarshalResult r;
  auto fail = [&](cl_int err, std::string why) {
    r.status = err;
    r.error = why.empty() ? "OpenCL error " + std::to_string(err) : std::move(why);
    return r;
  };
  if (std::string why = gather_shape_error(shape, index_offset); !why.empty())
    return fail(CL_INVALID_VALUE, why);
  const std::size_t src_bytes = shape.src_elems * shape.elem, dst_bytes = shape.count * shape.elem,
                    index_bytes = shape.count * shape.index_bytes;
  r.plan.ok = true;
  r.plan.bytes_moved = 2 * dst_bytes + index_bytes;
  std::string why;
  cl_int err = region_ok(m.api, src, src_offset, src_bytes, &why);
  if (err != CL_SUCCESS) return fail(err, "the source: " + why);
  err = region_ok(m.api, index, index_offset, index_bytes, &why);
  if (err != CL_SUCCESS) return fail(err, "the index: " + why);
  err = region_ok(m.api, dst, dst_offset, dst_bytes, &why);
  if (err != CL_SUCCESS) return fail(err, "the destination: " + why);
  if (dst == src && overlap(dst_offset, dst_bytes, src_offset, src_bytes))
    return fail(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  if (dst == index && overlap(dst_offset, dst_bytes, index_offset, index_bytes))
    return fail(CL_MEM_COPY_OVERLAP, "index and destination overlap");
  std::lock_guard<std::mutex> lock(m.mu);
  // Elements of shape.elem bytes in the widest unit dividing the element and both offsets
  // (the job's geometry without a slot table: the kernel does not read one).
  const Record rec =
      Record::blocks("dl_gather", Scalar::UChar, 1, static_cast<unsigned>(shape.elem));
  detail::Job job(m, rec);
  job.n = shape.count;
  job.buffer = dst;
  job.offset = dst_offset;
  job.unit = static_cast<unsigned>(detail::offset_unit(rec, dst_offset, src_offset));
  job.ru = static_cast<std::uint32_t>(shape.elem / job.unit);
  job.base = dst_offset / job.unit;
  if (shape.count) {
    err = detail::add_gather(job, src, src_offset / job.unit, index,
                             index_offset / shape.index_bytes, shape, &why);
    if (err != CL_SUCCESS) return fail(err, why);
  }
  // No ops (count 0): execute() enqueues only the marker the wait list or `done` asks for.
  detail::execute(job, queue, num_wait, wait, done, r);
  return r;
}

MarshalResult Marshaler::enqueue_copy(cl_command_queue queue, cl_mem src, std::size_t src_offset,
                                      cl_mem dst, std::size_t dst_offset, const Record& rec,
                                      std::size_t n, const Layout& from, const Layout& to,
                                      cl_uint num_wait, const cl_event* wait, cl_event* done) {
  return copy_records(*impl_, queue, src, src_offset, dst, dst_offset, rec, n, 0, n, false, from,
                      to, num_wait, wait, done);
}

MarshalResult Marshaler::enqueue_copy_part(cl_command_queue queue, cl_mem src,
                                           std::size_t src_offset, cl_mem dst,
                                           std::size_t dst_offset, const Record& rec, std::size_t n,
                                           std::size_t first, std::size_t count, const Layout& to,
                                           cl_uint num_wait, const cl_event* wait, cl_event* done) {
  return copy_records(*impl_, queue, src, src_offset, dst, dst_offset, rec, n, first, count, true,
                      Layout::aos(), to, num_wait, wait, done);
}

}  // namespace dl
