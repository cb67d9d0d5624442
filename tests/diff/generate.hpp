// The program builder the family generators share (generate.cpp, families.cpp): a
// portable random source and emitters that only make valid, race-free ops (sizes in
// bounds, regions of maps respected, shared buffers only read inside threads).
#pragma once

#include <cstdint>
#include <vector>

#include "case.hpp"

namespace dl_diff {

/// splitmix64: the same sequence on every platform and standard library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [lo, hi] (hi >= lo).
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return in(0, 99) < percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(in(0, static_cast<std::int64_t>(v.size()) - 1))];
  }

 private:
  std::uint64_t s_;
};

/// K of the kernels whose flat records have K floats, K an argument (UpdK, SumK): the
/// buffers' own S (3, 5) and others, so that one buffer is converted with one K and wanted
/// with another. The application's warm-up launches each.
inline const std::vector<int> kFlatLens = {1, 2, 3, 5, 7};

/// Alignment of sub-buffer origins (CL_DEVICE_MEM_BASE_ADDR_ALIGN of PoCL, in bytes;
/// other devices with a larger one answer CL_MISALIGNED_SUB_BUFFER_OFFSET both ways).
constexpr std::size_t kAlign = 128;

struct GenBuffer {
  Shape shape = Shape::FD;
  std::size_t size = 0;
  Mem mem = Mem::Copy;
  int root = -1;           // itself for buffers, the parent for sub-buffers
  std::size_t origin = 0;  // in the root
  bool alive = true;
  bool shared = false;  // read by several threads: only read in phase 1
  int owner = 0;        // thread that may write it (phase 1)
  int map = -1;         // open map slot
  MapKind map_kind = MapKind::Read;
  std::size_t records() const;
};

class Builder {
 public:
  Builder(Case& c, Rng& r) : c_(c), r_(r) {}
  Rng& rng() { return r_; }
  Case& kase() { return c_; }

  int phase = 0, thread = 0;  // where emitted ops go

  int queue(bool in_order, int thread_id = 0, int device = 0);
  int create(Shape s, int records, Mem mem, bool read_only = false);
  int sub(int parent, std::size_t origin, std::size_t size);
  void release(int b);
  /// Marks `b` as shared by the threads: only read in phase 1.
  void share(int b) { bufs_[static_cast<std::size_t>(b)].shared = true; }

  /// A launch of `f` on `a` (and `b`: Pair/Half partner or Sum output) with n records.
  void launch(int q, Form f, int a, int b, int n, Prog prog = Prog::Main);
  /// A launch of UpdK (SumK when `sum`) on the flat array `a` with K drawn from a few
  /// lengths (other than `not_len`) whose records fit it; none when no K fits.
  void launch_k(int q, int a, bool sum, int not_len = 0);
  /// A launch of Dims on `a` touching `cap` records; `vary`: d.count 0, smaller, equal,
  /// the buffer's records or more (DL falls back), else d.count = cap.
  void launch_dims(int q, int a, int cap, bool vary);
  /// A launch of Gather, x = `a` or another buffer of `pool`; false when none fits.
  bool launch_gather(int q, int a, const std::vector<int>& pool);
  bool launch_map(int q, int a, const std::vector<int>& pool);
  /// A launch of a random form valid for a's shape; partners/outputs from `pool`.
  void random_launch(int q, int a, const std::vector<int>& pool, bool read_only = false);
  void read(int q, int b);                       // whole, partial or rect; blocking or not
  void write(int q, int b, bool whole = false);  // whole or partial; blocking or not
  void fill(int q, int b);
  void copy(int q, int src, int dst);
  int map(int q, int b, MapKind kind);
  void unmap(int m);
  void finish(int q);
  /// `write`: then the host writes random bytes over a part of the array directly.
  void observe_host(int b, bool write = false);
  void user_event(int q, int b, const std::vector<int>& pool);
  void image(int q, int b);
  void binary();
  void rebuild(Shape s);

  /// One random op on buffers of `pool` (creation, release and the families' special
  /// ops excluded). `read_only`: buffers only read (shared in phase 1).
  void random_op(int q, const std::vector<int>& pool, bool read_only = false);

  /// Buffers alive, optionally of one shape, with at least `min_records`.
  std::vector<int> alive(int shape = -1, std::size_t min_records = 0) const;
  const GenBuffer& buf(int b) const { return bufs_[static_cast<std::size_t>(b)]; }
  int n_upto(std::size_t records);  // 0 < n <= records from the interesting set (0 if none)
  int records();                    // a record count for a new buffer (>= 1)
  Shape record_shape();             // one of the shapes with annotated kernels
  int out_for(int n);               // a live U32 buffer with >= n elements (created if none)
  int k();

 private:
  Op& emit(OpKind kind, int q = 0);
  void sizes(Op& op, std::size_t g_min);
  bool writable(int b) const;

  Case& c_;
  Rng& r_;
  std::vector<GenBuffer> bufs_;
  std::uint32_t seeds_ = 1;
};

/// The generator of one family.
void generate_family(const std::string& family, Builder& b);

}  // namespace dl_diff
