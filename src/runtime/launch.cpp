// Kernel launches (paper §5.2). A kernel with a shadow (DL's build of its annotated
// program) runs transformed: its annotated buffers are marshaled into the layouts the
// rewritten kernel reads, then the shadow kernel is enqueued with the application's wait
// list and event. Anything that stands in the way runs the application's own kernel on
// AoS bytes instead (the fallback); so do kernels DL does not transform.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "gathers.hpp"
#include "policy.hpp"
#include "programs.hpp"
#include "runtime.hpp"

namespace dl::rt {
namespace {

struct Launch {
  cl_command_queue queue;
  cl_kernel kernel;
  cl_uint work_dim;
  const size_t* offset;
  const size_t* global;
  const size_t* local;
  cl_uint num_wait;
  const cl_event* wait;
  cl_event* event;
  bool task;
  SyncMeasure* sync;  // a launch to time after DL's lock is released
};

struct Need {
  cl_mem mem = nullptr;
  const Record* rec = nullptr;
  std::size_t n = 0;
  Layout to;
  std::string arg;
  bool write_only = false;  // every annotation binding the buffer says the kernel never reads it
  bool read_only = false;   // every annotation binding the buffer says `const`
  bool copy = false;        // the launch reads a layout copy in `to` (HostCopyUse)
  bool wide = false;        // the buffer is too large for 32-bit offsets
  cl_uint at = 0;           // the parameter
};

cl_int forward(const Launch& l, cl_kernel k, cl_uint nw, const cl_event* w, cl_event* e) {
  if (l.task) return real().clEnqueueTask(l.queue, k, nw, w, e);
  return real().clEnqueueNDRangeKernel(l.queue, k, l.work_dim, l.offset, l.global, l.local, nw, w,
                                       e);
}

std::optional<std::int64_t> scalar_value(const KernelState& ks, const std::string& name) {
  for (std::size_t i = 0; i < ks.arg_names.size() && i < ks.args.size(); ++i) {
    if (ks.arg_names[i] != name) continue;
    const ArgValue& a = ks.args[i];
    if (!a.set || a.bytes.size() != a.size) return std::nullopt;
    switch (a.size) {
      case 1: {
        std::int8_t v;
        std::memcpy(&v, a.bytes.data(), 1);
        return v;
      }
      case 2: {
        std::int16_t v;
        std::memcpy(&v, a.bytes.data(), 2);
        return v;
      }
      case 4: {
        std::int32_t v;
        std::memcpy(&v, a.bytes.data(), 4);
        return v;
      }
      case 8: {
        std::int64_t v;
        std::memcpy(&v, a.bytes.data(), 8);
        return v;
      }
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}

/// Why two arguments of one launch cannot be converted as the annotation says: the same
/// buffer wanted in two ways, or overlapping bytes through different handles (a parent
/// and its sub-buffer, two overlapping sub-buffers). Empty when they can.
std::string aliasing(Runtime& rt, const KernelState& ks, const std::vector<Need>& out) {
  for (const Need& nd : out) {
    const BufferState* b = rt.buffer(nd.mem);
    for (std::size_t i = 0; i < ks.args.size(); ++i) {
      cl_mem m = ks.args[i].mem;
      if (!m || !rt.buffer(m)) continue;
      const std::string& pname = i < ks.arg_names.size() ? ks.arg_names[i] : std::string();
      const Need* other = nullptr;
      for (const Need& o : out)
        if (o.arg == pname) other = &o;
      if (m == nd.mem) {
        if (!other)
          return fmt::format("argument {} is also bound to the plain argument {}", nd.arg, pname);
        if (other->to != nd.to || other->n != nd.n || *other->rec != *nd.rec)
          return fmt::format("arguments {} and {} are one buffer wanted in two layouts", nd.arg,
                             pname);
        continue;
      }
      if (rt.range(*b).overlaps(rt.range(*rt.buffer(m))))
        return fmt::format("argument {} overlaps the bytes of argument {} (another handle)", nd.arg,
                           pname.empty() ? std::to_string(i) : pname);
    }
  }
  return {};
}

/// A buffer staged in local memory (a `local:` clause) is copied when the kernel starts:
/// the kernel's writes through another argument bound to its bytes would not reach the
/// copy. Why the launch runs the original kernel, or empty.
std::string staged_aliasing(Runtime& rt, const KernelState& ks) {
  for (const LocalAnnotation& l : ks.ann().locals)
    for (std::size_t i = 0; i < ks.args.size() && i < ks.arg_names.size(); ++i) {
      if (ks.arg_names[i] != l.name || !ks.args[i].mem) continue;
      const BufferState* b = rt.buffer(ks.args[i].mem);
      if (!b)
        return fmt::format("argument {} (staged in local memory): not a buffer DL tracks", l.name);
      for (std::size_t j = 0; j < ks.args.size(); ++j) {
        const BufferState* o = j == i || !ks.args[j].mem ? nullptr : rt.buffer(ks.args[j].mem);
        if (o && rt.range(*b).overlaps(rt.range(*o)))
          return fmt::format("argument {} (staged in local memory) shares bytes with argument {}",
                             l.name, j < ks.arg_names.size() ? ks.arg_names[j] : std::to_string(j));
      }
    }
  return {};
}

/// The record made at a launch for `b` with its dimensions' values `dims` (for a flat
/// array, {S}; for a swap of rows, all of them) and, for a swap, n: from ps.shapes, made
/// there once (flat_record, swap_rows). {nullptr, 0} and `err` when there is none.
std::pair<const Record*, std::uint64_t> shape_of(ProgramState& ps, const BufferAnnotation& b,
                                                 const std::vector<std::int64_t>& dims,
                                                 std::string* err) {
  // (Both swapped dimensions: [m][t][K][J] -> [m][K][t][J] and -> [m][J][K][t] of one
  // program have other records for the same values.)
  const int swap = b.rows() ? b.swap : -1, with = b.rows() ? b.swap_with : -1;
  if (auto it = ps.shapes.find(std::tie(b.record, swap, with, dims)); it != ps.shapes.end())
    return it->second;
  std::pair<const Record*, std::uint64_t> shape{nullptr, 0};
  auto keep = [&](const Record& r) {
    return &ps.flat_records.try_emplace(r.name(), r).first->second;
  };
  if (!b.rows()) {
    if (auto rec = flat_record(b.record, dims.at(0), 1, err)) shape.first = keep(*rec);
  } else if (auto sr = swap_rows(b, dims, err)) {
    shape = {keep(sr->first), sr->second};
  }
  if (shape.first) ps.shapes.emplace(std::make_tuple(b.record, swap, with, dims), shape);
  return shape;
}

/// Whether a kernel that only reads ordinary buffer `b` (AoS, pinned by nothing: the
/// caller asked) reads it from a layout copy in nd.to rather than converting it in place:
/// the copy is one pass (the tiled transpose or the block transposes,
/// Marshaler::copies_tiled) where the conversion in place takes more (a temporary, or
/// several steps) or is refused, it fits DL_COPY_BUDGET, and it stays valid until a
/// command may write the buffer (DL_LAYOUT_COPY=never: in place). A
/// buffer the host replaces whole between launches converts in place: its next whole
/// writes then land in the layout (uploads.cpp), where a copy would be made again after
/// each. `planned`: the buffers whose new copies the launch makes already, and their
/// bytes (a new one here adds its own; one already there is the same copy).
bool layout_copy_pays(Runtime& rt, cl_command_queue q, const BufferState& b, const Need& nd,
                      std::vector<std::pair<cl_mem, std::size_t>>& planned) {
  if (rt.controls.DL_LAYOUT_COPY == "never" || b.layout != Layout::aos() || b.host_replaced)
    return false;
  std::size_t bytes = 0;
  for (const auto& [m, size] : planned) {
    if (m == nd.mem) return true;
    bytes += size;
  }
  // One made before and still valid is read again without planning.
  for (const GatheredCopy& c : rt.gathered)
    if (c.valid && is_layout_copy(c, nd.mem, nd.to, nd.n, *nd.rec)) return true;
  // A new one must fit DL_COPY_BUDGET beside the copies that stay and the launch's others.
  const QueueInfo qi = rt.queue(q);
  if (!rt.copy_fits(qi.device, b.size + bytes)) return false;
  Marshaler* m = rt.marshaler(qi.context, qi.device);
  if (!m || !m->copies_tiled(*nd.rec, nd.n, Layout::aos(), nd.to)) return false;
  const Plan p = m->plan(*nd.rec, nd.n, Layout::aos(), nd.to, rt.algorithm);
  if (p.ok && p.bytes_moved <= 2 * nd.n * nd.rec->size()) return false;
  planned.emplace_back(nd.mem, b.size);
  return true;
}

/// What the transformed kernel needs; empty `why` on success.
std::vector<Need> needs(Runtime& rt, const KernelState& ks, const Launch& l, std::string& why) {
  const ProgramState& ps = *ks.program;
  const KernelAnnotation& ka = ks.ann();
  Expr::Env env;
  for (cl_uint d = 0; d < l.work_dim && d < 3; ++d) {
    env.global_size[d] = l.global[d];
    env.local_size[d] = l.local ? l.local[d] : 0;
    env.num_groups[d] = l.local && l.local[d] ? (l.global[d] + l.local[d] - 1) / l.local[d] : 0;
  }
  env.scalar = [&](const std::string& n) { return scalar_value(ks, n); };
  env.bytes = [&](const std::string& n) -> const std::vector<unsigned char>* {
    for (std::size_t i = 0; i < ks.arg_names.size() && i < ks.args.size(); ++i)
      if (ks.arg_names[i] == n)
        return ks.args[i].set && !ks.args[i].bytes.empty() ? &ks.args[i].bytes : nullptr;
    return nullptr;
  };
  std::vector<Need> out;
  for (std::size_t bi = 0; bi < ka.buffers.size(); ++bi) {
    const auto& b = ka.buffers[bi];
    const ArgValue& a = ks.args[static_cast<std::size_t>(ks.buffer_args[bi])];
    if (!a.mem || !rt.buffer(a.mem)) {
      why = fmt::format("argument {}: not a buffer DL tracks", b.name);
      return {};
    }
    Need nd;
    nd.mem = a.mem;
    nd.arg = b.name;
    if (auto it = ps.ann.records.find(b.record); it != ps.ann.records.end() && !b.rows()) {
      nd.rec = &it->second;
    } else if (!b.rows()) {
      // A flat array whose S is a kernel argument: the record of S scalars at this launch.
      std::string err;
      const auto s = b.dims.back().eval(env, &err);
      nd.rec = s ? shape_of(*ks.program, b, {*s}, &err).first : nullptr;
      if (!nd.rec) {
        why = fmt::format("argument {}: record length '{}': {}", b.name, b.dims.back().text(), err);
        return {};
      }
    }
    // `*`: the records of the bound buffer (of the sub-buffer's region for a sub-buffer).
    // (A swap of rows has no `*`: its record comes from the dimensions below.)
    if (nd.rec) env.whole = static_cast<std::int64_t>(rt.buffer(a.mem)->size / nd.rec->size());
    std::vector<std::int64_t> dims;
    for (const auto& e : b.dims) {
      std::string err;
      const bool forced = rt.controls.fault("eval");
      auto v = forced ? std::nullopt : e.eval(env, &err);
      if (forced) err = "forced by DL_FAULT=eval";
      if (!v || *v < 0) {
        why = fmt::format("argument {}: dimension '{}' does not evaluate: {}", b.name, e.text(),
                          v ? "negative" : err);
        return {};
      }
      dims.push_back(*v);
    }
    std::optional<std::uint64_t> rows_n;
    if (b.rows()) {
      // A swap of two dimensions above the fastest: its record from the dimensions.
      std::string err;
      const auto shape = shape_of(*ks.program, b, dims, &err);
      if (!shape.first) {
        why = fmt::format("argument {}: {}", b.name, err);
        return {};
      }
      nd.rec = shape.first;
      rows_n = shape.second;
    }
    std::string count_err;
    std::optional<std::uint64_t> n = rows_n;
    if (!b.rows()) n = record_count(dims, nd.rec, &count_err);
    if (!n) {
      why = fmt::format("argument {}: {}", b.name, count_err);
      return {};
    }
    nd.n = *n;
    if (nd.n == 0) {
      why = fmt::format("argument {}: the annotation gives n = 0 records", b.name);
      return {};
    }
    std::size_t bytes = 0;
    const BufferState* buf = rt.buffer(nd.mem);
    if (__builtin_mul_overflow(nd.n, nd.rec->size(), &bytes) || bytes > buf->size) {
      why = fmt::format("argument {}: {} records of {} bytes do not fit the buffer's {} bytes",
                        b.name, nd.n, nd.rec->size(), buf->size);
      return {};
    }
    // dl-annotate's rewrite addresses buffers with 32-bit offsets unless built with
    // DL_OFFSET64 (docs/annotation.md): a larger buffer needs the 64-bit build.
    const std::size_t limit = rt.controls.fault("offset32") ? 64 : std::size_t{1} << 32;
    nd.wide = buf->size > limit;
    if (nd.wide && !ks.wide) {
      why = fmt::format(
          "argument {}: a buffer of {} bytes; the rewritten kernel's 32-bit offsets reach {} "
          "and there is no 64-bit build{}",
          b.name, buf->size, limit,
          rt.controls.DL_OFFSET_WIDTH == "32" ? " (DL_OFFSET_WIDTH=32)" : "");
      return {};
    }
    nd.to = b.target;
    // A diagonal target reads the records as the rows of the planes.
    if (nd.to.diagonal() &&
        !(nd.rec->fields().size() == 1 && nd.rec->fields()[0].vector_width == 1 &&
          static_cast<std::int64_t>(nd.rec->fields()[0].count) == dims.back() &&
          nd.rec->size() == nd.rec->fields()[0].count * nd.rec->fields()[0].elem_size)) {
      why = fmt::format(
          "argument {}: {} needs a flat array of scalars whose records are its rows of {} "
          "scalars (record {})",
          b.name, nd.to.str(), dims.back(), nd.rec->describe());
      return {};
    }
    if (b.distant()) {
      // A swap of two dimensions that are not neighbours: SWAP(d1, B) of this launch.
      std::string err;
      const auto to = distant_swap(b, dims, &err);
      if (!to) {
        why = fmt::format("argument {}: {}", b.name, err);
        return {};
      }
      nd.to = *to;
    } else if (b.tile) {
      // `-> ASTA(E)`: the tile width of this launch.
      std::string err;
      const auto t = b.tile->eval(env, &err);
      if (!t || *t < 1 || *t > static_cast<std::int64_t>(kMaxTile)) {
        why = fmt::format(
            "argument {}: tile width '{}' {}", b.name, b.tile->text(),
            t ? fmt::format("is {}, outside [1, {}]", *t, kMaxTile) : "does not evaluate: " + err);
        return {};
      }
      nd.to = b.target.tiled() ? Layout::asta(static_cast<std::uint32_t>(*t))
                               : Layout::diag(static_cast<std::uint32_t>(*t),
                                              b.target.kind == LayoutKind::DiagMain);
    } else if (nd.to.kind == LayoutKind::ASTA && nd.to.tile == 0) {
      nd.to = Layout::asta(ps.tile);
    }
    nd.write_only = b.write_only;
    nd.read_only = b.read_only;
    nd.at = static_cast<cl_uint>(ks.buffer_args[bi]);
    out.push_back(std::move(nd));
  }
  // One buffer bound to two annotated arguments: the kernel reads it unless neither does,
  // and may write it unless neither does.
  for (Need& nd : out)
    for (const Need& o : out)
      if (o.mem == nd.mem) {
        nd.write_only = nd.write_only && o.write_only;
        nd.read_only = nd.read_only && o.read_only;
      }
  // Buffers annotated [*] that share one record count: the smallest of theirs.
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < out.size() && i < ks.whole_group.size(); ++i)
      if (const int g = ks.whole_group[i]; g >= 0 && g != static_cast<int>(i)) {
        std::size_t& lead = out[static_cast<std::size_t>(g)].n;
        if (pass == 0)
          lead = std::min(lead, out[i].n);
        else
          out[i].n = lead;
      }
  if (std::string a = aliasing(rt, ks, out); !a.empty()) {
    why = std::move(a);
    return {};
  }
  if (std::string a = staged_aliasing(rt, ks); !a.empty()) {
    why = std::move(a);
    return {};
  }
  std::vector<std::pair<cl_mem, std::size_t>> planned;  // the new layout copies so far
  for (Need& nd : out)
    // Any conversion (another layout, n or record: a flat array read with another length)
    // rewrites the buffer's bytes, which a pinned buffer must keep. Host-visible memory the
    // kernel only reads is read from a copy in the layout instead, and so is an ordinary
    // buffer the kernel only reads whose conversion in place takes more passes than a copy.
    if (BufferState* b = rt.buffer(nd.mem); b->layout != nd.to || b->n != nd.n ||
                                            (b->layout != Layout::aos() && b->record != *nd.rec)) {
      const bool host = rt.host_visible(nd.mem);
      if (std::string p = rt.pinned(nd.mem, host && nd.read_only); !p.empty()) {
        why = fmt::format(
            "argument {}: {}{}", nd.arg, p,
            host && !nd.read_only ? " that the kernel may write (not annotated const)" : "");
        return {};
      }
      nd.copy = nd.read_only && (host || layout_copy_pays(rt, l.queue, *b, nd, planned));
    }
  return out;
}

/// The layout copies `nds` asks for, one per buffer.
std::vector<HostCopyUse> host_copy_uses(const std::vector<Need>& nds) {
  std::vector<HostCopyUse> out;
  for (const Need& nd : nds) {
    if (!nd.copy) continue;
    auto it =
        std::find_if(out.begin(), out.end(), [&](const HostCopyUse& u) { return u.x == nd.mem; });
    if (it == out.end()) {
      HostCopyUse u;
      u.x = nd.mem;
      u.rec = nd.rec;
      u.n = nd.n;
      u.to = nd.to;
      u.arg = nd.arg;
      it = out.insert(out.end(), u);
    }
    it->at.push_back(nd.at);
  }
  return out;
}

/// Whether argument `i` of `ks` is bound to a parameter annotated `const`.
bool const_arg(const KernelState& ks, std::size_t i) {
  if (ks.annotation < 0 || !ks.program) return false;
  const KernelAnnotation& ka = ks.ann();
  for (std::size_t b = 0; b < ka.buffers.size() && b < ks.buffer_args.size(); ++b)
    if (ka.buffers[b].read_only && static_cast<std::size_t>(ks.buffer_args[b]) == i) return true;
  return false;
}

/// The launch may write every buffer it is given: their bytes are neither undefined nor
/// uniform any more (after the conversions it needed were decided).
void written_by(Runtime& rt, const KernelState& ks) {
  if (rt.content_marked == 0 && rt.gathered.empty()) return;
  for (std::size_t i = 0; i < ks.args.size(); ++i)
    if (const cl_mem m = ks.args[i].mem) {
      rt.touched(m, true);
      // The arrays its own gathers read, and its arguments annotated const, are const to
      // the kernel (dl-annotate checks); a write through another argument over the same
      // bytes marks them all the same.
      if (!gathered_arg(ks, i) && !const_arg(ks, i)) rt.gathered_written(m);
    }
}

/// Enqueues kernel `k` after `w`, records it as a user of its buffer arguments. A launch
/// of the offset width's `trial` (of the 64-bit build: `wide`) gives it its event.
cl_int enqueue(Runtime& rt, KernelState& ks, const Launch& l, cl_kernel k, WaitList& w,
               bool watched, const Decision& d, bool transformed,
               const std::shared_ptr<WidthTrial>* trial = nullptr, bool wide = false,
               const Spans& copies = {}) {
  written_by(rt, ks);
  const bool profiling = rt.controls.profiling();
  const bool trialled = trial && *trial;
  // In-order queues need no event to track the buffers' users (Runtime::add_user).
  const bool need_event = profiling || d.measure || trialled ||
                          (watched && (!rt.queue(l.queue).in_order || w.app_may_fail()));
  EventSlot ev{nullptr, l.event};
  cl_int st = forward(l, k, w.size(), w.data(), ev.ptr(need_event));
  if (st != CL_SUCCESS) return st;
  if (w.app_may_fail()) rt.taint(ev.get(), l.event != nullptr);
  for (const auto& a : ks.args)
    if (a.mem) rt.add_user(a.mem, ev.get(), l.queue, w.app_may_fail());
  if (profiling)
    rt.profile(ev.get(), ks.name, transformed ? "kernel (transformed)" : "kernel", l.queue,
               ks.stats, nullptr);
  count_launch(rt, d, ev.get(), transformed, l.sync, copies);
  if (trialled) width_launched(rt, *trial, wide, ev.get(), l.sync);
  return st;
}

/// The application's own kernel on AoS bytes.
cl_int launch_plain(Runtime& rt, KernelState& ks, const Launch& l, bool may_fail,
                    const Decision& d = {}) {
  bool watched = false;
  for (const auto& a : ks.args) watched = watched || (a.mem && rt.watched(a.mem));
  if (!watched && !may_fail && !rt.controls.profiling() && !d.kp) {
    written_by(rt, ks);
    return forward(l, l.kernel, l.num_wait, l.wait, l.event);  // under the lock (observe.hpp)
  }
  WaitList w(l.num_wait, l.wait, may_fail);
  for (const auto& a : ks.args)
    if (a.mem && rt.watched(a.mem)) {
      rt.ensure_aos(a.mem, l.queue, w, "a kernel launch");
      rt.order_after_conversions(a.mem, l.queue, w);
    }
  w.settle_before_failure();
  return enqueue(rt, ks, l, l.kernel, w, watched, d, false);
}

/// The shadow kernel on the layouts of `nds`; the fallback when a conversion fails.
cl_int launch_transformed(Runtime& rt, KernelState& ks, const Launch& l,
                          const std::vector<Need>& nds, const std::vector<GatherUse>& gathers,
                          const std::vector<HostCopyUse>& copies, const Decision& d,
                          std::string& why) {
  WaitList w(l.num_wait, l.wait, false);
  // Plain buffer arguments, and regions overlapping the annotated ones: AoS.
  for (const auto& a : ks.args) {
    if (!a.mem) continue;
    bool annotated = false;
    for (const auto& nd : nds) annotated = annotated || nd.mem == a.mem;
    if (!annotated && !rt.watched(a.mem)) continue;
    rt.ensure_aos(a.mem, l.queue, w, "a kernel launch", annotated);
  }
  // The gathered copies, from the AoS bytes, before any conversion (nothing to undo).
  why = gather_copies(rt, ks, l.queue, gathers, w, d.kp);
  if (!why.empty()) return CL_SUCCESS;
  // The copies of host-visible memory, likewise; the DL builds take the application's
  // buffers back once the launch is enqueued or given up.
  struct Restore {
    const KernelState& ks;
    const std::vector<HostCopyUse>& copies;
    Spans made;  // the copies' commands, for the controller
    ~Restore() {
      host_copies_done(ks, copies);
      release(made);
    }
  } restore{ks, copies, {}};
  why = host_copies(rt, ks, l.queue, copies, w, restore.made);
  if (!why.empty()) return CL_SUCCESS;
  std::uint64_t marshals = 0;
  std::vector<cl_mem> done;
  for (const auto& nd : nds) {
    if (nd.copy) continue;
    BufferState* b = rt.buffer(nd.mem);
    b->annotated = true;
    rt.list(*b);
    b->stats->kernels.insert(ks.name);
    if (d.kp && std::find(b->policies.begin(), b->policies.end(), d.kp) == b->policies.end())
      b->policies.push_back(d.kp);
    const std::uint64_t before = b->stats->marshals;
    std::string err = rt.marshal(*b, l.queue, *nd.rec, nd.n, nd.to, w, ks.name, nd.write_only);
    marshals += b->stats->marshals - before;
    if (!err.empty()) {
      why = fmt::format("argument {}: {}", nd.arg, err);
      break;
    }
    done.push_back(nd.mem);
  }
  ks.stats->marshals += marshals;
  if (!why.empty()) {  // restore what this launch already marshaled; the caller falls back
    for (cl_mem m : done) rt.ensure_aos(m, l.queue, w, "fallback");
    return CL_SUCCESS;
  }
  for (const auto& a : ks.args)
    if (a.mem) rt.order_after_conversions(a.mem, l.queue, w);
  bool must_wide = false;
  for (const Need& nd : nds) must_wide = must_wide || nd.wide;
  std::shared_ptr<WidthTrial> trial;
  const bool wide = pick_wide(rt, ks, l.queue, must_wide, &trial);
  // The record counts of buffers annotated [*] (arguments only the shadow has), where
  // they changed since the last launch: on both builds.
  for (std::size_t i = 0; i < nds.size() && i < ks.whole_args.size(); ++i)
    if (ks.whole_args[i] >= 0 && ks.whole_set[i] != nds[i].n) {
      const cl_ulong n = nds[i].n;
      const auto at = static_cast<cl_uint>(ks.whole_args[i]);
      const cl_int st = ks.set_builds_arg(at, sizeof n, &n);
      if (st != CL_SUCCESS) {
        why = fmt::format("argument {}: setting its record count failed ({})", nds[i].arg, st);
        for (cl_mem m : done) rt.ensure_aos(m, l.queue, w, "fallback");
        return CL_SUCCESS;
      }
      ks.whole_set[i] = n;
    }
  ks.stats->transformed_launches++;
  return enqueue(rt, ks, l, wide ? ks.wide : ks.shadow, w, true, d, true, &trial, wide,
                 restore.made);
}

/// A kernel with a shadow: transformed if the controller says so, else AoS.
cl_int launch_with_shadow(Runtime& rt, KernelState& ks, const Launch& l, bool may_fail) {
  const size_t one = 1;
  Launch ll = l;
  if (l.task) {
    ll.work_dim = 1;
    ll.global = &one;
    ll.local = &one;
  }
  std::string why;
  std::vector<Need> nds;
  std::vector<GatherUse> gathers;
  std::vector<HostCopyUse> copies;
  // A kernel the controller judged never to pay keeps AoS whatever it needs: its
  // launches skip the work of evaluating the annotation (a launch-bound application
  // pays it on every launch).
  std::shared_ptr<KernelPolicy> kp = auto_policy(rt, ks, l.queue);
  // A device DL_DEVICES leaves out keeps AoS like a kernel that never pays.
  const bool here = rt.converts_on(rt.queue(l.queue).device);
  if (may_fail)
    why = "the launch waits on an event that may fail (a user event)";
  else if (here && !never_pays(rt, kp)) {
    nds = needs(rt, ks, ll, why);
    if (why.empty()) gathers = gather_needs(rt, ks, why);
    if (why.empty()) copies = host_copy_uses(nds);
  }
  if (why.empty()) {
    // The profitability controller: convert now, or keep AoS (not a fallback). A
    // conversion that is only a state change (content_shortcut) costs nothing; the way
    // back is a real conversion all the same once the kernel wrote the bytes.
    std::vector<Converting> converting;
    for (const Need& nd : nds)
      if (const BufferState* b = rt.buffer(nd.mem);
          !nd.copy && (b->layout != nd.to || b->n != nd.n || b->record != *nd.rec)) {
        const bool free_there = !rt.content_shortcut(*b, nd.to, nd.write_only).empty();
        converting.push_back({nd.mem, nd.n * nd.rec->size(), free_there});
      }
    // A gather costs what the last one took, else about one way of a conversion of its copy.
    for (const GatherUse& g : gathers)
      if (g.build) converting.push_back({g.x, g.bytes, true, g.cost_ns});
    // A copy of host-visible memory is made at every launch: it counts as part of the
    // transformed launch, whose measured time includes it (count_launch), so it costs
    // nothing here but keeps the controller judging (as a gather kept from launch to
    // launch would), and the kernel is transformed only once that time beats AoS.
    for (const HostCopyUse& c : copies) converting.push_back({c.x, 0, true, 1});
    const Decision d = here ? decide(rt, ks, l.queue, converting, std::move(kp)) : left_aos(rt);
    if (!d.why.empty()) ks.stats->policy = d.why;
    if (!d.transform) {
      ks.stats->kept_aos++;
      return launch_plain(rt, ks, l, may_fail, d);
    }
    cl_int st = launch_transformed(rt, ks, l, nds, gathers, copies, d, why);
    if (why.empty()) return st;
  }
  // Once per kernel and reason as a warning (an application that launches it thousands of
  // times gets one line); the report and the summary count them all.
  const bool first = ks.stats->fallback_reasons.insert(why).second;
  log().log(first ? spdlog::level::warn : spdlog::level::debug,
            "kernel {}: {}; running the untransformed kernel", ks.name, why);
  ks.stats->fallbacks++;
  return launch_plain(rt, ks, l, may_fail);
}

cl_int run(const Launch& l) {
  Runtime& rt = Runtime::get();
  std::unique_lock<std::mutex> lock(rt.mutex);
  rt.enter(lock);
  bool counted = false;
  for (;;) {  // again after building a deferred shadow (without the lock)
    auto it = rt.kernels.find(l.kernel);
    if (it == rt.kernels.end()) {
      rt.forget_content();  // a kernel DL did not see created: its arguments are unknown
      lock.unlock();
      cl_int st = forward(l, l.kernel, l.num_wait, l.wait, l.event);
      if (st == CL_SUCCESS) propagate_taint(l.num_wait, l.wait, l.event);
      return st;
    }
    KernelState& ks = it->second;
    if (!counted) ks.stats->launches++;
    counted = true;
    bool all_set = true;
    for (const auto& a : ks.args) all_set = all_set && a.set;
    if (!all_set || (!l.task && (l.work_dim < 1 || l.work_dim > 3 || !l.global))) {
      // The application's error: the implementation reports it.
      written_by(rt, ks);
      cl_int st = forward(l, l.kernel, l.num_wait, l.wait, l.event);
      if (st == CL_SUCCESS && l.event && rt.any_tainted(l.num_wait, l.wait))
        rt.taint(*l.event, true);
      return st;
    }
    const bool may_fail = rt.any_tainted(l.num_wait, l.wait);
    if (!ks.shadow && ks.program && ks.annotation >= 0 && !ks.shadow_failed) {
      ProgramState& ps = *ks.program;
      if (ps.shadow) {
        attach_shadow(ks);
      } else if (ps.deferred && !may_fail) {
        // The shadow is built once the AoS kernel time pays for its build, unless a
        // launch or a background thread is building it already.
        const Decision d = decide_setup(rt, ks, l.queue, ps.build_ns, ps.building);
        if (!d.transform) {
          ks.stats->kept_aos++;
          if (!d.why.empty()) ks.stats->policy = d.why;
          return launch_plain(rt, ks, l, may_fail, d);
        }
        const std::shared_ptr<ProgramState> keep = ks.program;  // ks may go meanwhile
        if (ps.building) {  // an experience of long epochs: this launch waits for it
          lock.unlock();
          wait_for_build(*keep);
          lock.lock();
          continue;
        }
        ps.building = true;
        lock.unlock();
        build_deferred(*keep);
        lock.lock();
        continue;
      }
    }
    if (!ks.shadow) {
      if (ks.annotation >= 0 && ks.program && !ks.program->why.empty())
        ks.stats->policy = ks.program->why;  // why this annotated kernel runs untransformed
      return launch_plain(rt, ks, l, may_fail);
    }
    return launch_with_shadow(rt, ks, l, may_fail);
  }
}

/// run(), then the measurement the controller waits for (outside DL's lock).
cl_int timed_run(Launch l) {
  SyncMeasure sync;
  l.sync = &sync;
  const cl_int st = run(l);
  sync.finish();
  return st;
}

}  // namespace

namespace hook {

cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                             void* args, size_t cb_args, cl_uint num_mem_objects,
                             const cl_mem* mem_list, const void** args_mem_loc,
                             cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                             cl_event* event) {
  // Not translated (docs/runtime.md, "Limits"): the host function may write its memory
  // objects, whose content marks go.
  const cl_int st = real().clEnqueueNativeKernel(command_queue, user_func, args, cb_args,
                                                 num_mem_objects, mem_list, args_mem_loc,
                                                 num_events_in_wait_list, event_wait_list, event);
  guarded(
      [&] {
        propagate_taint(num_events_in_wait_list, event_wait_list, event);
        Runtime& rt = Runtime::get();
        std::lock_guard<std::mutex> lock(rt.mutex);
        for (cl_uint i = 0; mem_list && i < num_mem_objects; ++i) {
          rt.touched(mem_list[i], true);
          rt.gathered_written(mem_list[i]);
        }
        return 0;
      },
      0);
  return st;
}

cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event) {
  Launch l{command_queue,
           kernel,
           work_dim,
           global_work_offset,
           global_work_size,
           local_work_size,
           num_events_in_wait_list,
           event_wait_list,
           event,
           false,
           nullptr};
  return guarded([&] { return timed_run(l); }, CL_OUT_OF_HOST_MEMORY);
}

cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                     cl_event* event) {
  Launch l{command_queue,           kernel,          1,     nullptr, nullptr, nullptr,
           num_events_in_wait_list, event_wait_list, event, true,    nullptr};
  return guarded([&] { return timed_run(l); }, CL_OUT_OF_HOST_MEMORY);
}

}  // namespace hook
}  // namespace dl::rt
