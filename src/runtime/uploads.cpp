// Converting while the host uploads (docs/runtime.md, "Converting during upload"): a
// write that replaces a buffer its kernels keep in ASTA lands in chunks of whole tiles,
// each converted on a queue of DL's own while the next one is transferred. A buffer kept
// in DA cannot take its chunks in place (a chunk's records go all over the buffer): its
// chunks land in two staging buffers by turns, and each is scattered from there to its
// DA places. A buffer kept diagonalized (DIAG) takes chunks of whole planes the same way,
// each diagonalized from its staging buffer into its planes (a plane is not converted in
// place). Either way the buffer arrives in its kernels' layout and the next launch
// converts nothing.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <set>

#include "observe.hpp"

namespace dl::rt {
namespace {

/// The most chunks a write is split into (docs/runtime.md, "Converting during upload").
constexpr std::uint64_t kMaxChunks = 16;
/// Staging buffers of an upload into DA: chunk c lands in buffer c % kStaging once the
/// scatter of chunk c - kStaging is done.
constexpr std::size_t kStaging = 2;
/// Records of a chunk into DA are a multiple of this from there on: the scatter's 16-byte
/// paths.
constexpr std::size_t kStagedRecords = 16;

/// Whether the kernels that converted `b` will want it converted again: under
/// DL_POLICY=always they do; under auto, once the controller found that each of them pays.
bool kernels_want_it(Runtime& rt, const BufferState& b) {
  const std::string& mode = rt.controls.DL_POLICY;
  if (mode == "always") return true;
  if (mode != "auto" || b.policies.empty()) return false;
  std::lock_guard<std::mutex> lock(rt.policy_mutex);
  for (const auto& kp : b.policies)
    if (kp->rule.verdict() != ConversionPolicy::Verdict::Pays) return false;
  return true;
}

/// The events an upload made (DL's references), released at the end.
struct Events {
  std::vector<cl_event> list;
  ~Events() {
    for (cl_event e : list) release(e);
  }
  cl_event last() const { return list.empty() ? nullptr : list.back(); }
};

/// One upload: the buffer, its layout and the chunks' geometry; `staging` (into DA or a
/// diagonal layout: the kStaging buffers chunks land in, owned by the upload) or empty
/// (in place, ASTA).
class Upload {
 public:
  Upload(Runtime& rt, BufferState& b, cl_command_queue q, const QueueInfo& qi, Marshaler& m,
         cl_command_queue side, std::size_t chunk_records, std::size_t size, const void* ptr,
         std::vector<cl_mem> staging)
      : rt_(rt),
        b_(b),
        q_(q),
        qi_(qi),
        m_(m),
        side_(side),
        rec_(b.record),
        to_(b.layout),
        n_(b.n),
        cr_(chunk_records),
        size_(size),
        bytes_(static_cast<const unsigned char*>(ptr)),
        staging_(std::move(staging)) {}
  ~Upload() {
    // Released once the commands using them complete (OpenCL keeps them until then).
    for (cl_mem s : staging_) real().clReleaseMemObject(s);
  }
  Upload(const Upload&) = delete;
  Upload& operator=(const Upload&) = delete;

  /// Enqueues the writes and conversions after `first` (what the first write waits for).
  /// Returns the application's status: an error only when the first write failed (then
  /// nothing was enqueued) or, past a failure of DL's own, the remainder's write failed.
  cl_int run(cl_uint nw, const cl_event* first) {
    const std::size_t k = (n_ + cr_ - 1) / cr_;
    for (std::size_t c = 0; c < k; ++c) {
      const std::size_t lo = c * cr_, hi = std::min(n_, lo + cr_);
      const std::size_t end = c + 1 == k && staging_.empty() ? size_ : hi * rec_.size();
      if (cl_int st = write(c, lo * rec_.size(), end, c == 0 ? nw : 0, c == 0 ? first : nullptr);
          st != CL_SUCCESS) {
        if (c == 0) return st;
        log().warn(
            "buffer #{}: write of chunk {} of an upload failed ({}); writing the rest in one",
            b_.id, c, st);
        return finish(lo);
      }
      if (c > 0 && rt_.controls.fault("upload")) {
        why_ = "conversion failure forced by DL_FAULT=upload";
        return finish(lo);
      }
      if (!convert(c, lo, hi - lo, Layout::aos(), to_, writes_.last())) return finish(lo);
      converted_ = hi;
    }
    // Into DA, the bytes after the records go straight to the buffer.
    if (!staging_.empty() && size_ > n_ * rec_.size())
      if (cl_int st = write(k, n_ * rec_.size(), size_, 0, nullptr); st != CL_SUCCESS) {
        log().warn("buffer #{}: write of the bytes after the records of an upload failed ({})",
                   b_.id, st);
        return finish(n_);
      }
    return CL_SUCCESS;
  }

  /// The state of the buffer once the commands are enqueued.
  void settle() {
    for (const Access& a : b_.users) release(a.event);
    b_.users.clear();
    release(b_.conversion.event);
    // The side queue is released below: no command can follow it by queue order.
    b_.conversion = {convs_.last(), nullptr, false};
    retain(b_.conversion.event);
    // The writes precede the conversions; the last one stands for them where nothing
    // was converted.
    rt_.add_user(b_.mem, writes_.last(), q_, false);
    if (converted_ < n_)
      rt_.set_layout(b_, Layout::aos(), 0, nullptr);
    else
      rt_.set_layout(b_, to_, n_, &rec_);
    rt_.list(b_);
    BufferStats& s = *b_.stats;
    if (converted_ == n_) {
      s.marshals++;
      s.to_target++;
      s.uploads++;
      s.upload_chunks += chunks_;
      s.layouts.insert("AoS->" + to_.str());
    }
    s.bytes += moved_;
    s.algorithms.insert(algorithms_.begin(), algorithms_.end());
  }

  cl_event last_write() const { return writes_.last(); }
  std::size_t chunks() const { return chunks_; }

 private:
  /// Writes bytes [lo, hi) of the application's data, chunk `c`: in place to the
  /// buffer, or (into DA, the records) to staging buffer c % kStaging once the scatter of
  /// the chunk it held before is done. Writes after the first follow the one before (on an
  /// out-of-order queue through its event).
  cl_int write(std::size_t c, std::size_t lo, std::size_t hi, cl_uint nw, const cl_event* wl) {
    std::vector<cl_event> w(wl, wl + nw);
    if (cl_event prev = writes_.last(); prev && !qi_.in_order) w.push_back(prev);
    const bool staged = !staging_.empty() && hi <= n_ * rec_.size();
    if (staged && c >= kStaging) w.push_back(convs_.list[c - kStaging]);
    cl_mem to = staged ? staging_[c % kStaging] : b_.mem;
    const std::size_t at = staged ? 0 : lo;
    cl_event e = nullptr;
    const cl_int st = real().clEnqueueWriteBuffer(q_, to, CL_FALSE, at, hi - lo, bytes_ + lo,
                                                  static_cast<cl_uint>(w.size()),
                                                  w.empty() ? nullptr : w.data(), &e);
    if (st == CL_SUCCESS) {
      writes_.list.push_back(e);
      written_ = hi;
      if (rt_.controls.profiling())  // the trace shows how the conversions overlap them
        rt_.profile(e, fmt::format("upload #{} write", b_.id), "transfer", q_, nullptr, nullptr);
    }
    return st;
  }

  /// Converts records [lo, lo + n) on the side queue after `after`: in place, or (into
  /// DA) from the staging buffer of chunk `c` to their places, or (into a diagonal
  /// layout, whole planes) diagonalized from it into their planes.
  bool convert(std::size_t c, std::size_t lo, std::size_t n, const Layout& from, const Layout& to,
               cl_event after) {
    cl_event done = nullptr;
    const cl_uint nw = after ? 1 : 0;
    const cl_event* wl = after ? &after : nullptr;
    MarshalResult r;
    if (staging_.empty()) {
      r = m_.enqueue(side_, b_.mem, lo * rec_.size(), rec_, n, from, to, rt_.algorithm, nw, wl,
                     &done);
    } else if (to.tiled()) {
      r = m_.enqueue_copy_part(side_, staging_[c % kStaging], 0, b_.mem, 0, rec_, n_, lo, n, to, nw,
                               wl, &done);
    } else {
      const DiagonalPlanes p = diagonal_planes(rec_, n_, to);
      const DiagonalShape s{p.rows, p.nx, n / p.rows, p.elem,
                            to.kind == LayoutKind::DiagMain ? Diagonal::Main : Diagonal::Secondary};
      r = m_.enqueue_diagonal(side_, staging_[c % kStaging], 0, b_.mem, lo * rec_.size(), s, true,
                              true, nw, wl, &done);
    }
    if (r.status != CL_SUCCESS) {
      why_ = fmt::format("{} ({})", r.error, r.status);
      return false;
    }
    convs_.list.push_back(done);
    ++chunks_;
    moved_ += r.plan.bytes_moved;
    for (const auto& s : r.plan.steps) algorithms_.insert(algorithm_name(s.algorithm));
    if (rt_.controls.profiling())
      rt_.profile(done, fmt::format("upload #{} {}->{}", b_.id, from.str(), to.str()), "marshal",
                  side_, nullptr, b_.stats, r.first);
    release(r.first);
    return true;
  }

  /// After a failure at the chunk starting at record `lo`: writes what is not written
  /// yet in one command, converts the records not converted yet in one conversion, and
  /// where that fails too brings the converted ones back to AoS.
  cl_int finish(std::size_t lo) {
    log().warn("buffer #{}: converting an upload in chunks stopped at record {}: {}", b_.id, lo,
               why_.empty() ? "its write failed" : why_);
    if (!staging_.empty()) return rewrite();
    if (written_ < size_) {
      if (cl_int st = write(0, written_, size_, 0, nullptr); st != CL_SUCCESS) {
        // The application's bytes before `written_` are on the device, the others not:
        // what it asked for did not happen, and cannot be undone.
        log().critical(
            "buffer #{}: the rest of an upload failed to enqueue ({}) after its first {} bytes "
            "were written; the buffer holds part of the new data",
            b_.id, st, written_);
        return st;
      }
    }
    const bool forced = rt_.controls.fault("upload_rest");
    if (forced) why_ = "conversion failure forced by DL_FAULT=upload_rest";
    if (!forced && convert(0, converted_, n_ - converted_, Layout::aos(), to_, writes_.last())) {
      converted_ = n_;
      return CL_SUCCESS;
    }
    log().warn("buffer #{}: the rest of an upload could not be converted ({}); back to AoS", b_.id,
               why_);
    const std::size_t done = converted_;
    converted_ = 0;  // the state becomes AoS (settle)
    if (done && !convert(0, 0, done, to_, Layout::aos(), writes_.last()))
      log().critical(
          "buffer #{}: records [0, {}) of an upload stay in {} ({}); its bytes are in "
          "neither layout",
          b_.id, done, to_.str(), why_);
    return CL_SUCCESS;
  }

  /// After a failure of an upload into DA: the chunks scattered so far overlap the AoS
  /// places of the others, so the whole of the application's data is written again,
  /// plainly, after the last scatter, and the buffer becomes AoS.
  cl_int rewrite() {
    std::vector<cl_event> w;
    if (cl_event last = convs_.last()) w.push_back(last);
    if (cl_event prev = writes_.last(); prev && !qi_.in_order) w.push_back(prev);
    cl_event e = nullptr;
    const cl_int st = real().clEnqueueWriteBuffer(q_, b_.mem, CL_FALSE, 0, size_, bytes_,
                                                  static_cast<cl_uint>(w.size()),
                                                  w.empty() ? nullptr : w.data(), &e);
    if (st != CL_SUCCESS) {
      log().critical(
          "buffer #{}: an upload into DA failed to enqueue its plain write ({}) after {} of its "
          "records were scattered; the buffer holds part of the new data",
          b_.id, st, converted_);
      return st;
    }
    converted_ = 0;  // the state becomes AoS (settle)
    writes_.list.push_back(e);
    written_ = size_;
    return CL_SUCCESS;
  }

  Runtime& rt_;
  BufferState& b_;
  cl_command_queue q_;
  const QueueInfo& qi_;
  Marshaler& m_;
  cl_command_queue side_;
  const Record rec_;
  const Layout to_;
  const std::size_t n_, cr_, size_;
  const unsigned char* bytes_;
  Events writes_, convs_;
  std::size_t written_ = 0, converted_ = 0, chunks_ = 0;
  std::uint64_t moved_ = 0;
  std::set<std::string> algorithms_;
  std::string why_;
  std::vector<cl_mem> staging_;
};

/// Why a write of [0, size) of `b` on `q` is not split into converted chunks (empty when
/// it is); `chunk_records` receives the records of a chunk.
std::string unsplittable(Runtime& rt, BufferState& b, const QueueInfo& qi, std::size_t size,
                         cl_uint nw, const cl_event* wl, std::size_t& chunk_records) {
  if (qi.context != b.context) return "another context's queue";
  if (rt.family(b.mem).size() != 1) return "it has a parent or sub-buffers";
  if (std::string p = rt.pinned(b.mem); !p.empty()) return p;
  if (rt.any_tainted(nw, wl)) return "its wait list may fail";
  if (!kernels_want_it(rt, b)) return "its kernels are not known to want it converted again";
  const std::size_t r = b.record.size();
  if (size < b.n * r) return "it does not replace every converted byte";
  // At most kMaxChunks chunks: each costs a write and a launch, and the last conversion
  // (1/kMaxChunks of the whole) is the part left exposed. A chunk is whole tiles (ASTA),
  // or (DA) records of at least `bytes`, a multiple of kStagedRecords from there on.
  const std::uint64_t bytes =
      std::max<std::uint64_t>(rt.controls.DL_UPLOAD_CHUNK, (b.n * r + kMaxChunks - 1) / kMaxChunks);
  if (b.layout.kind == LayoutKind::DA) {
    chunk_records = (bytes + r - 1) / r;
    if (chunk_records > kStagedRecords)
      chunk_records = (chunk_records + kStagedRecords - 1) / kStagedRecords * kStagedRecords;
  } else {
    // Whole tiles (ASTA), whole planes (a diagonal layout; one plane of all n: one chunk).
    const std::size_t w = b.layout.width(b.n);
    chunk_records = std::max<std::uint64_t>(1, bytes / (w * r)) * w;
  }
  if (b.n <= chunk_records) return "it is not larger than one chunk (DL_UPLOAD_CHUNK)";
  return {};
}

/// The staging buffers of an upload into DA (or a diagonal layout) of chunks of
/// `chunk_records`, into `out`; returns why there are none (empty when there are). Into DA
/// the scatter is asked with no records first: it refuses a record it cannot stage before
/// anything is enqueued (the diagonalization's plan was made before).
std::string stage(Runtime& rt, Marshaler& mar, const BufferState& b, cl_context ctx,
                  cl_command_queue q, std::size_t chunk_records, std::vector<cl_mem>& out) {
  const std::size_t bytes = chunk_records * b.record.size();
  for (std::size_t i = 0; i < kStaging; ++i) {
    cl_int err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    cl_mem s = nullptr;
    if (!rt.controls.fault("staging"))
      s = real().clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (!s) {
      for (cl_mem o : out) real().clReleaseMemObject(o);
      out.clear();
      return fmt::format("no staging buffer of {} bytes ({})", bytes, err);
    }
    out.push_back(s);
  }
  if (b.layout.diagonal()) return {};
  MarshalResult r =
      mar.enqueue_copy_part(q, out[0], 0, b.mem, 0, b.record, b.n, 0, 0, b.layout, 0, nullptr);
  if (r.status != CL_SUCCESS) {
    for (cl_mem o : out) real().clReleaseMemObject(o);
    out.clear();
    return r.error;
  }
  return {};
}

}  // namespace

std::optional<cl_int> split_upload(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                   size_t size, const void* ptr, cl_uint nw, const cl_event* wl,
                                   cl_event* ev) {
  Runtime& rt = Runtime::get();
  if (!rt.controls.DL_UPLOAD_CHUNK || rt.transformed_buffers == 0 || offset != 0 || !ptr ||
      (nw == 0) != (wl == nullptr))
    return std::nullopt;  // nothing converted, or a write the implementation must judge
  std::unique_lock<std::mutex> lock(rt.mutex);
  rt.enter(lock);
  BufferState* b = rt.buffer(m);
  // (A SWAP layout is two conversions of two records: not converted chunk by chunk.)
  if (!b || b->layout.kind == LayoutKind::AoS || b->layout.kind == LayoutKind::Swap || !b->n ||
      size > b->size)
    return std::nullopt;
  // Into DA and the diagonal layouts through staging buffers; into ASTA in place.
  const bool staged = b->layout.kind == LayoutKind::DA || b->layout.diagonal();
  const QueueInfo qi = rt.queue(q);
  std::size_t chunk_records = 0;
  std::string why = unsplittable(rt, *b, qi, size, nw, wl, chunk_records);
  Marshaler* mar = why.empty() ? rt.marshaler(qi.context, qi.device) : nullptr;
  if (why.empty() && !mar) why = "no marshaler for the device";
  // Both chunk shapes (into DA: the scatter) must plan and build before anything is
  // enqueued.
  const std::size_t last =
      why.empty() ? b->n - (b->n - 1) / chunk_records * chunk_records : chunk_records;
  for (std::size_t n : {chunk_records, last}) {
    if (!why.empty() || (staged && n != chunk_records)) break;
    Plan p = b->layout.diagonal()
                 ? mar->plan(b->record, b->n, Layout::aos(), b->layout, Algorithm::Diagonal)
             : staged ? mar->plan(b->record, b->n, Layout::aos(), b->layout, Algorithm::OutOfPlace)
                      : mar->plan(b->record, n, Layout::aos(), b->layout, rt.algorithm);
    std::string build_log;
    if (!p.ok)
      why = "no plan: " + p.reason;
    else if (mar->prepare(b->record, p, &build_log) != CL_SUCCESS)
      why = "marshaling program failed to build: " + build_log;
  }
  std::vector<cl_mem> staging;
  if (staged && why.empty()) why = stage(rt, *mar, *b, qi.context, q, chunk_records, staging);
  cl_command_queue side = nullptr;
  if (why.empty()) {
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        rt.controls.profiling() ? cl_queue_properties{CL_QUEUE_PROFILING_ENABLE} : 0, 0};
    cl_int err = CL_SUCCESS;
    side = real().clCreateCommandQueueWithProperties(qi.context, qi.device, props, &err);
    if (!side) why = fmt::format("no queue of DL's own ({})", err);
  }
  if (!why.empty()) {
    for (cl_mem s : staging) real().clReleaseMemObject(s);
    log().debug("buffer #{}: whole write not converted as it lands: {}", b->id, why);
    return std::nullopt;
  }
  // The first write follows what the application's write waits for, DL's conversions of
  // the buffer on other queues, and the commands on it since (as a conversion would).
  WaitList w(nw, wl, false);
  rt.order_after_conversions(m, q, w);
  for (Access& a : b->users) w.add(rt.wait_event(a, q));
  Upload up(rt, *b, q, qi, *mar, side, chunk_records, size, ptr, std::move(staging));
  const cl_int st = up.run(w.size(), w.data());
  real().clReleaseCommandQueue(side);  // flushes it; it goes once its commands are done
  if (st != CL_SUCCESS && !up.last_write()) return st;  // nothing was enqueued
  up.settle();
  mark_content(rt, {{m, 0, size, true, true}}, true);
  real().clFlush(q);  // the side queue waits on these writes
  log().debug("buffer #{}: {} bytes written and converted to {} in {} chunks", b->id, size,
              b->layout.str(), up.chunks());
  // The application's event is the last write's: it completes after every chunk's
  // write (queue order, or each write following the one before).
  cl_event e = up.last_write();
  if (ev) {
    retain(e);
    *ev = e;
  }
  lock.unlock();
  if (blocking) {
    const cl_int done = finish_blocking(e, true);
    if (st == CL_SUCCESS) return done;
  }
  return st;
}

}  // namespace dl::rt
