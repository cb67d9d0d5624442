// Gathered copies (`gather: x[col]`, docs/remappings.md "Indirect copies"): the DL build
// of a kernel reads x[col[e]] as element e of a copy of x gathered through col on the
// device. A copy is kept while neither array changes: every command that may write the
// bytes of either (host writes, fills, copies, maps, kernels that take them as an
// argument, commands DL cannot see into) marks it to be gathered again at the next
// launch that reads it. The application's buffers are only read. A map's copy (`map:
// x[fn]`, "User-defined maps") is the same with no index array, made by the map kernel
// of the DL build from the launch's values of the arguments the map reads: it is made
// again also when those values change.
#include "gathers.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace dl::rt {
namespace {

bool shares_bytes(Runtime& rt, cl_mem a, const BufferState& b) {
  const BufferState* x = rt.buffer(a);
  return x ? rt.range(*x).overlaps(rt.range(b)) : a == b.mem;
}

std::string name_of(const KernelState& ks, std::size_t i) {
  return i < ks.arg_names.size() ? ks.arg_names[i] : std::to_string(i);
}

/// The device time of the copy's last gather once it completed on a queue with profiling
/// (the controller prices the next one with it: a gather at random runs far below the
/// copy's rate that prices a conversion).
void measure(GatheredCopy& g) {
  if (!g.built || g.gather_ns > 0) return;
  cl_int st = CL_QUEUED;
  cl_ulong start = 0, end = 0;
  if (real().clGetEventInfo(g.built, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr) ==
          CL_SUCCESS &&
      st == CL_COMPLETE &&
      real().clGetEventProfilingInfo(g.built, CL_PROFILING_COMMAND_START, sizeof start, &start,
                                     nullptr) == CL_SUCCESS &&
      real().clGetEventProfilingInfo(g.built, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                     nullptr) == CL_SUCCESS &&
      end > start)
    g.gather_ns = static_cast<double>(end - start);
}

/// Enqueues the map kernel of `u` (copy[i] = x[fn(i, ...)] for every element i of x) on
/// `q` after `w`; why it failed, or empty.
std::string enqueue_map(const KernelState& ks, const GatherUse& u, cl_mem copy, cl_command_queue q,
                        const WaitList& w, cl_event* done) {
  const GatherAnnotation& ga = ks.ann().gathers[u.clause];
  cl_kernel k = u.map;
  const cl_ulong n = u.shape.count;
  cl_int st = real().clSetKernelArg(k, 0, sizeof(cl_mem), &u.x);
  if (st == CL_SUCCESS) st = real().clSetKernelArg(k, 1, sizeof(cl_mem), &copy);
  if (st == CL_SUCCESS) st = real().clSetKernelArg(k, 2, sizeof n, &n);
  for (std::size_t i = 0; st == CL_SUCCESS && i < ks.map_params[u.clause].size(); ++i) {
    const ArgValue& v = ks.args[static_cast<std::size_t>(ks.map_params[u.clause][i])];
    st = real().clSetKernelArg(k, static_cast<cl_uint>(3 + i), v.size,
                               v.bytes.empty() ? nullptr : v.bytes.data());
  }
  if (st != CL_SUCCESS)
    return fmt::format("setting the arguments of its map kernel failed ({})", st);
  const std::size_t global = u.shape.count;
  st = real().clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, w.size(), w.data(), done);
  if (st != CL_SUCCESS)
    return fmt::format("its map kernel {} failed ({})", map_kernel_name(ks.name, ga.name), st);
  return {};
}

void drop(GatheredCopy& g) {
  if (g.copy) real().clReleaseMemObject(g.copy);
  release(g.built);
  g.copy = nullptr;
  g.built = nullptr;
  g.valid = false;  // nothing left to read again
}

/// Room for a new copy of `bytes` on `d` for entry `c` (Runtime::make_room, counted in
/// `ks`'s stats); why not, or empty.
std::string room(Runtime& rt, KernelState& ks, cl_device_id d, std::size_t bytes,
                 const GatheredCopy& c) {
  const int freed = rt.make_room(d, bytes, &c);
  if (freed < 0)
    return fmt::format(
        "its copy of {} bytes would take DL's copies on this device past DL_COPY_BUDGET ({} "
        "bytes)",
        bytes, rt.copy_budget(d));
  if (freed > 0)
    log().debug(
        "kernel {}: freed {} kept copies no launch could read again, for a copy of {} "
        "bytes",
        ks.name, freed, bytes);
  ks.stats->copies_freed += static_cast<std::uint64_t>(freed);
  return {};
}

}  // namespace

bool gathered_arg(const KernelState& ks, std::size_t i) {
  for (const auto& [x, c] : ks.gather_params)
    if (static_cast<std::size_t>(x) == i || static_cast<std::size_t>(c) == i) return true;
  return false;
}

void Runtime::gathered_written(cl_mem m) {
  if (gathered.empty()) return;
  const BufferState* b = m ? buffer(m) : nullptr;
  std::vector<std::shared_ptr<KernelPolicy>> ended;
  for (GatheredCopy& g : gathered)
    if (g.valid &&
        (!m || (b ? shares_bytes(*this, g.x, *b) || (g.index && shares_bytes(*this, g.index, *b))
                  : m == g.x || (g.index && m == g.index)))) {
      g.valid = false;
      ended.insert(ended.end(), g.policies.begin(), g.policies.end());
    }
  if (ended.empty()) return;
  std::lock_guard<std::mutex> lock(policy_mutex);
  for (const auto& kp : ended) kp->rule.epoch_end();
}

void Runtime::gathered_gone(cl_mem m) {
  auto gone = [&](GatheredCopy& g) {
    if (g.x != m && (!g.index || g.index != m)) return false;
    drop(g);
    return true;
  };
  gathered.erase(std::remove_if(gathered.begin(), gathered.end(), gone), gathered.end());
}

void Runtime::maps_gone(cl_program p) {
  auto gone = [&](GatheredCopy& g) {
    if (g.map.empty() || g.program != p) return false;
    drop(g);
    return true;
  };
  gathered.erase(std::remove_if(gathered.begin(), gathered.end(), gone), gathered.end());
}

std::size_t Runtime::copy_budget(cl_device_id d) {
  if (auto it = copy_budgets.find(d); it != copy_budgets.end()) return it->second;
  std::size_t budget = static_cast<std::size_t>(controls.DL_COPY_BUDGET);
  if (budget == 0) {
    cl_ulong global = 0;
    budget = real().clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global,
                                    nullptr) == CL_SUCCESS &&
                     global > 0
                 ? static_cast<std::size_t>(global / 4)
                 : SIZE_MAX;  // unknown: no bound
  }
  copy_budgets[d] = budget;
  return budget;
}

namespace {

/// The bytes of the copies on `d` that stay (valid ones, `self` aside), and of those that
/// may be freed.
std::pair<std::size_t, std::size_t> copies_held(const Runtime& rt, cl_device_id d,
                                                const GatheredCopy* self) {
  std::size_t kept = 0, stale = 0;
  for (const GatheredCopy& g : rt.gathered)
    if (g.copy && g.device == d && &g != self) (g.valid ? kept : stale) += g.bytes;
  return {kept, stale};
}

}  // namespace

bool Runtime::copy_fits(cl_device_id d, std::size_t bytes, const GatheredCopy* self) {
  const std::size_t budget = copy_budget(d);
  return bytes <= budget && copies_held(*this, d, self).first <= budget - bytes;
}

int Runtime::make_room(cl_device_id d, std::size_t bytes, const GatheredCopy* self) {
  const std::size_t budget = copy_budget(d);
  auto [kept, stale] = copies_held(*this, d, self);
  if (bytes > budget || kept > budget - bytes) return -1;  // as copy_fits
  int freed = 0;
  for (GatheredCopy& g : gathered) {
    if (kept + stale <= budget - bytes) break;
    if (!g.copy || g.device != d || &g == self || g.valid) continue;
    stale -= g.bytes;
    drop(g);
    ++freed;
  }
  return freed;
}

std::vector<GatherUse> gather_needs(Runtime& rt, const KernelState& ks, std::string& why) {
  const KernelAnnotation& ka = ks.ann();
  std::vector<GatherUse> out;
  for (std::size_t g = 0; g < ka.gathers.size() && g < ks.gather_params.size(); ++g) {
    const GatherAnnotation& ga = ka.gathers[g];
    const auto [xi, ci] = ks.gather_params[g];
    GatherUse u;
    u.clause = g;
    u.x = ks.args[static_cast<std::size_t>(xi)].mem;
    u.index = ga.map ? nullptr : ks.args[static_cast<std::size_t>(ci)].mem;
    const std::string what = describe_gather(ga);
    BufferState* bx = u.x ? rt.buffer(u.x) : nullptr;
    BufferState* bc = u.index ? rt.buffer(u.index) : nullptr;
    if (!bx || (!ga.map && !bc)) {
      why =
          fmt::format("{}: argument {} is not a buffer DL tracks", what, !bx ? ga.name : ga.index);
      return {};
    }
    // Bytes that change without a command DL sees (the host's own memory, an image over
    // them, an open map) would leave a copy stale.
    std::vector<cl_mem> arrays = {u.x};
    if (u.index) arrays.push_back(u.index);
    for (cl_mem m : arrays)
      for (BufferState* f : rt.family(m))
        if (f->host_visible || f->images || f->maps) {
          why = fmt::format("{}: argument {} is {}", what, m == u.x ? ga.name : ga.index,
                            f->host_visible ? "host-visible memory (CL_MEM_USE_HOST_PTR)"
                            : f->images     ? "under an image"
                                            : "mapped");
          return {};
        }
    // The kernel may write its other buffers: none may share bytes with x or col (the
    // copy holds what they held when the launch began).
    for (std::size_t j = 0; j < ks.args.size(); ++j) {
      const cl_mem m = ks.args[j].mem;
      const BufferState* o = m ? rt.buffer(m) : nullptr;
      if (!m || gathered_arg(ks, j)) continue;
      const bool on_x = o ? shares_bytes(rt, u.x, *o) : m == u.x;
      if (on_x || (u.index && (o ? shares_bytes(rt, u.index, *o) : m == u.index))) {
        why = fmt::format("{}: argument {} shares bytes with {}", what, name_of(ks, j),
                          on_x ? ga.name : ga.index);
        return {};
      }
    }
    const auto [ib, is_signed] = ga.index_kind();
    u.shape.elem = ga.elem_size();
    u.shape.index_bytes = ib;
    u.shape.index_signed = is_signed;
    u.shape.src_elems = bx->size / u.shape.elem;
    u.shape.count = ga.map ? u.shape.src_elems : bc->size / ib;
    if (ga.map && !u.shape.count) {
      why =
          fmt::format("{}: argument {} holds no element of {} bytes", what, ga.name, u.shape.elem);
      return {};
    }
    u.bytes = std::max<std::size_t>(u.shape.count, 1) * u.shape.elem;
    if (ga.map) {
      // The values of the arguments the map reads: a copy made from others is stale.
      u.map = ks.map_kernels[g];
      for (int a : ks.map_params[g]) {
        const ArgValue& v = ks.args[static_cast<std::size_t>(a)];
        u.key.insert(u.key.end(), v.bytes.begin(), v.bytes.end());
      }
    }
    const std::string map = ga.map ? map_kernel_name(ks.name, ga.name) : std::string();
    for (std::size_t s = 0; s < rt.gathered.size(); ++s) {
      const GatheredCopy& c = rt.gathered[s];
      if (!c.host && c.x == u.x && c.index == u.index && c.elem == u.shape.elem &&
          (ga.map ? c.program == ks.program->shadow && c.map == map
                  : c.index_bytes == ib && c.index_signed == is_signed))
        u.slot = static_cast<int>(s);
    }
    u.build = u.slot < 0 || !rt.gathered[static_cast<std::size_t>(u.slot)].valid ||
              rt.gathered[static_cast<std::size_t>(u.slot)].bytes != u.bytes ||
              rt.gathered[static_cast<std::size_t>(u.slot)].key != u.key;
    if (u.build && u.slot >= 0) {
      GatheredCopy& c = rt.gathered[static_cast<std::size_t>(u.slot)];
      measure(c);
      u.cost_ns = c.gather_ns;
    }
    out.push_back(u);
  }
  return out;
}

std::string gather_copies(Runtime& rt, KernelState& ks, cl_command_queue q,
                          const std::vector<GatherUse>& uses, WaitList& w,
                          const std::shared_ptr<KernelPolicy>& kp) {
  const QueueInfo qi = rt.queue(q);
  for (const GatherUse& u : uses) {
    const GatherAnnotation& ga = ks.ann().gathers[u.clause];
    std::size_t slot = static_cast<std::size_t>(u.slot);
    if (u.slot < 0) {
      GatheredCopy c;
      c.x = u.x;
      c.index = u.index;
      c.elem = u.shape.elem;
      c.index_bytes = u.shape.index_bytes;
      c.index_signed = u.shape.index_signed;
      if (ga.map) {
        c.program = ks.program->shadow;
        c.map = map_kernel_name(ks.name, ga.name);
      }
      rt.gathered.push_back(c);
      slot = rt.gathered.size() - 1;
    }
    GatheredCopy& c = rt.gathered[slot];
    if (kp && std::find(c.policies.begin(), c.policies.end(), kp) == c.policies.end())
      c.policies.push_back(kp);
    if (u.build) {
      measure(c);  // the last gather's device time, before its event goes
      // The earlier copy may still be read by launches this gather does not follow by
      // queue order: a new buffer then (OpenCL keeps the old one until they are done).
      if (!c.copy || c.bytes != u.bytes || c.queue != q || !qi.in_order) {
        if (c.bytes != u.bytes) c.gather_ns = 0;  // another size: measured again
        drop(c);
        if (std::string e = room(rt, ks, qi.device, u.bytes, c); !e.empty())
          return fmt::format("the gather {}: {}", format_gather(ga), e);
        cl_int err = CL_SUCCESS;
        if (!rt.controls.fault("alloc"))
          c.copy = real().clCreateBuffer(qi.context, CL_MEM_READ_WRITE, u.bytes, nullptr, &err);
        if (!c.copy)
          return fmt::format(
              "the gather {}: allocating its copy of {} bytes failed ({})", format_gather(ga),
              u.bytes,
              rt.controls.fault("alloc") ? "forced by DL_FAULT=alloc" : std::to_string(err));
        c.bytes = u.bytes;
        c.device = qi.device;
      }
      c.valid = false;
      rt.order_after_conversions(u.x, q, w);
      if (u.index) rt.order_after_conversions(u.index, q, w);
      cl_event done = nullptr;
      if (ga.map) {
        if (std::string e = enqueue_map(ks, u, c.copy, q, w, &done); !e.empty())
          return fmt::format("{}: {}", describe_gather(ga), e);
        c.key = u.key;
      } else {
        Marshaler* m = rt.marshaler(qi.context, qi.device);
        if (!m)
          return fmt::format("the gather {}: no marshaler for this device", format_gather(ga));
        const MarshalResult r =
            m->enqueue_gather(q, u.x, 0, u.index, 0, c.copy, 0, u.shape, w.size(), w.data(), &done);
        if (r.status != CL_SUCCESS)
          return fmt::format("the gather {} failed ({}): {}", format_gather(ga), r.status, r.error);
      }
      release(c.built);
      retain(done);
      c.built = done;
      c.queue = qi.in_order ? q : nullptr;
      c.valid = true;
      w.converted(done);
      ks.stats->gathers++;
      if (rt.controls.profiling())
        rt.profile(done, "gather " + format_gather(ga), "gather", q, ks.stats, nullptr);
      log().debug("kernel {}: gathered {} ({} elements of {} bytes)", ks.name, format_gather(ga),
                  u.shape.count, u.shape.elem);
    } else {
      if (c.queue != q || !qi.in_order) {
        w.add(c.built);  // gathered for another queue: this launch follows it by its event
        c.queue = nullptr;
      }
      ks.stats->gathers_reused++;
    }
    const auto at = static_cast<cl_uint>(ks.gather_args[u.clause]);
    cl_int st = ks.set_builds_arg(at, sizeof(cl_mem), &c.copy);
    if (st != CL_SUCCESS)
      return fmt::format("{}: setting its copy as argument {} failed ({})", describe_gather(ga), at,
                         st);
    if (ga.map) {  // and the copy's elements
      const auto n_at = static_cast<cl_uint>(ks.map_count_args[u.clause]);
      const cl_ulong n = u.shape.count;
      st = ks.set_builds_arg(n_at, sizeof n, &n);
      if (st != CL_SUCCESS)
        return fmt::format("{}: setting its count as argument {} failed ({})", describe_gather(ga),
                           n_at, st);
    }
  }
  return {};
}

namespace {

/// The DL builds of `ks` read `m` as the arguments `at`; why not, or empty.
std::string set_copy_args(const KernelState& ks, const std::vector<cl_uint>& at, cl_mem m) {
  for (cl_uint a : at)
    if (const cl_int st = ks.set_builds_arg(a, sizeof m, &m); st != CL_SUCCESS)
      return fmt::format("setting argument {} failed ({})", a, st);
  return {};
}

}  // namespace

bool is_layout_copy(const GatheredCopy& c, cl_mem x, const Layout& to, std::size_t n,
                    const Record& rec) {
  return c.host && c.x == x && c.layout == to && c.n == n && c.record == rec;
}

std::string host_copies(Runtime& rt, KernelState& ks, cl_command_queue q,
                        const std::vector<HostCopyUse>& uses, WaitList& w, Spans& spans) {
  if (uses.empty()) return {};
  const QueueInfo qi = rt.queue(q);
  Marshaler* m = rt.marshaler(qi.context, qi.device);
  if (!m) return "no marshaler for this device";
  for (const HostCopyUse& u : uses) {
    const std::size_t bytes = rt.buffer(u.x)->size, body = u.n * u.rec->size();
    // An ordinary buffer changes only through commands, which end the copy's validity
    // (Runtime::gathered_written); host-visible memory may change without one.
    const bool host = rt.host_visible(u.x);
    const std::string what = fmt::format("argument {} ({}): its copy in {}", u.arg,
                                         host ? "host-visible memory" : "read only", u.to.str());
    auto it = std::find_if(rt.gathered.begin(), rt.gathered.end(), [&](const GatheredCopy& c) {
      return is_layout_copy(c, u.x, u.to, u.n, *u.rec);
    });
    if (it == rt.gathered.end()) {
      GatheredCopy c;
      c.host = true;
      c.x = u.x;
      c.layout = u.to;
      c.n = u.n;
      c.record = *u.rec;
      it = rt.gathered.insert(rt.gathered.end(), c);
    }
    GatheredCopy& c = *it;
    if ((!host || rt.controls.DL_HOST_PTR == "keep") && c.valid && c.copy && c.bytes == bytes) {
      // No command may have written x since the copy was made: read it again.
      if (c.queue != q || !qi.in_order) {
        w.add(c.built);  // made for another queue: this launch follows it by its event
        c.queue = nullptr;
      }
      ks.stats->host_copies_reused++;
      if (std::string e = set_copy_args(ks, u.at, c.copy); !e.empty())
        return fmt::format("{}: {}", what, e);
      continue;
    }
    // As for a gather: a copy launches on other queues may still read gets a new buffer.
    if (!c.copy || c.bytes != bytes || c.queue != q || !qi.in_order) {
      drop(c);
      if (std::string e = room(rt, ks, qi.device, bytes, c); !e.empty())
        return fmt::format("{}: {}", what, e);
      cl_int err = CL_SUCCESS;
      if (!rt.controls.fault("alloc"))
        c.copy = real().clCreateBuffer(qi.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
      if (!c.copy)
        return fmt::format(
            "{}: allocating {} bytes failed ({})", what, bytes,
            rt.controls.fault("alloc") ? "forced by DL_FAULT=alloc" : std::to_string(err));
      c.bytes = bytes;
      c.device = qi.device;
    }
    c.valid = false;
    // An ordinary buffer may have been converted back to AoS on another queue (a host
    // access, another launch): the copy reads its bytes after that.
    rt.order_after_conversions(u.x, q, w);
    if (!host) rt.buffer(u.x)->layout_copied = true;
    // Into DA the tiled transpose reads the records once and writes them in their places
    // (the bytes after them copied as they are). Into any other layout the whole buffer is
    // copied, then converted in the copy as a buffer of the application would be: into
    // ASTA(T) by the in-place tile transposes, which on the H200 took with the copy 0.6 of
    // the time of the one-pass map copy (bench/README.md, "Host-visible memory"). Tiles
    // beyond barrier-sync's local memory, which the marshaler transposes in blocks
    // (copies_tiled), go in one pass instead of the copy and a conversion of one or more.
    bool in_copy = u.to.kind != LayoutKind::DA;
    if (in_copy && m->copies_tiled(*u.rec, u.n, Layout::aos(), u.to)) {
      const Plan p = m->plan(*u.rec, u.n, Layout::aos(), u.to, rt.algorithm);
      in_copy = p.ok && p.steps.size() == 1 && p.steps[0].algorithm == Algorithm::BarrierSync;
    }
    const std::size_t plain = in_copy ? 0 : body;  // copied as they are from here
    cl_event first = nullptr;                      // its first command (one reference ours)
    if (plain < bytes) {
      const cl_int st = real().clEnqueueCopyBuffer(q, u.x, c.copy, plain, plain, bytes - plain,
                                                   w.size(), w.data(), &first);
      if (st != CL_SUCCESS)
        return fmt::format("{}: copying {} bytes failed ({})", what, bytes - plain, st);
      retain(first);
      w.converted(first);  // (takes the other)
    }
    cl_event done = nullptr;
    MarshalResult r = in_copy ? m->enqueue(q, c.copy, 0, *u.rec, u.n, Layout::aos(), u.to,
                                           rt.algorithm, w.size(), w.data(), &done)
                              : m->enqueue_copy(q, u.x, 0, c.copy, 0, *u.rec, u.n, Layout::aos(),
                                                u.to, w.size(), w.data(), &done);
    if (r.status != CL_SUCCESS) {
      release(first);
      release(r.first);
      return fmt::format("{} failed ({}): {}", what, r.status, r.error);
    }
    if (!first) std::swap(first, r.first);
    release(r.first);
    if (!first) {
      first = done;
      retain(first);
    }
    release(c.built);
    retain(done);
    c.built = done;
    retain(done);
    spans.emplace_back(first, done);  // (the references ours and the span's)
    c.queue = qi.in_order ? q : nullptr;
    c.valid = true;
    w.converted(done);
    ks.stats->host_copies++;
    if (rt.controls.profiling())
      rt.profile(done, fmt::format("host copy {} {}", u.arg, u.to.str()), "host copy", q, ks.stats,
                 nullptr, first);
    log().debug("kernel {}: argument {} read from a copy of {} in {} ({} bytes)", ks.name, u.arg,
                host ? "host-visible memory" : "a read-only buffer", u.to.str(), bytes);
    if (std::string e = set_copy_args(ks, u.at, c.copy); !e.empty())
      return fmt::format("{}: {}", what, e);
  }
  return {};
}

void host_copies_done(const KernelState& ks, const std::vector<HostCopyUse>& uses) {
  for (const HostCopyUse& u : uses) set_copy_args(ks, u.at, u.x);
}

}  // namespace dl::rt
