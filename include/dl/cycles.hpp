// Index permutations behind DL's in-place marshaling, and the cycle math that lets
// a kernel follow them without a second buffer.
//
// All functions map the *source* position of an element to its *destination*
// position (the element stored at p moves to next(p)); prev() is the inverse.
// Positions are counted in the unit each algorithm moves:
//   * units (Record::unit() bytes) inside one ASTA tile, for AoS <-> ASTA;
//   * minitiles of T units, for DA <-> ASTA over n = N' * T records.
// The same code is compiled into the OpenCL kernels (kernels/dl_index.h mirrors it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dl/layout.hpp"

namespace dl {

/// Row-major M x N matrix transposed in place: element k = i*N + j moves to j*M + i.
inline std::uint64_t transpose_next(std::uint64_t k, std::uint64_t M, std::uint64_t N) {
  const std::uint64_t last = M * N - 1;
  return k == last ? last : (k * M) % last;
}
inline std::uint64_t transpose_prev(std::uint64_t k, std::uint64_t M, std::uint64_t N) {
  return transpose_next(k, N, M);
}

/// Per-unit view of a record's slots: for unit q of the record (q < units()),
/// the unit offset of the slot holding it and that slot's size in units.
class SlotTable {
 public:
  /// `unit`: bytes per unit, a power of two dividing Record::unit() (0: Record::unit()).
  explicit SlotTable(const Record& r, std::size_t unit = 0);
  std::uint32_t units() const { return static_cast<std::uint32_t>(start_.size()); }
  std::uint32_t start(std::uint32_t q) const { return start_[q]; }
  std::uint32_t size(std::uint32_t q) const { return size_[q]; }
  bool uniform() const { return uniform_; }
  /// Packed as (start << 16) | size per unit, the form kernels read.
  std::vector<std::uint32_t> packed() const;

 private:
  std::vector<std::uint32_t> start_;
  std::vector<std::uint32_t> size_;
  bool uniform_ = true;
};

/// Inside one tile of w records: AoS unit position -> ASTA(w) unit position.
inline std::uint64_t aos_to_asta_unit(std::uint64_t p, std::uint64_t w, const SlotTable& t) {
  const std::uint32_t ru = t.units();
  const std::uint64_t k = p / ru;
  const std::uint32_t q = static_cast<std::uint32_t>(p - k * ru);
  const std::uint32_t o = t.start(q);
  return w * o + k * t.size(q) + (q - o);
}
/// Inverse of aos_to_asta_unit.
inline std::uint64_t asta_to_aos_unit(std::uint64_t p, std::uint64_t w, const SlotTable& t) {
  const std::uint32_t q = static_cast<std::uint32_t>(p / w);
  const std::uint32_t o = t.start(q);
  const std::uint32_t z = t.size(q);
  const std::uint64_t r = p - w * o;
  const std::uint64_t k = r / z;
  return k * t.units() + o + (r - k * z);
}

/// Over N' full tiles: DA minitile position -> ASTA(T) minitile position.
/// A minitile is T units; slot s of z units holds z minitiles per tile.
inline std::uint64_t da_to_asta_tile(std::uint64_t p, std::uint64_t np, const SlotTable& t) {
  const std::uint32_t q = static_cast<std::uint32_t>(p / np);
  const std::uint32_t o = t.start(q);
  const std::uint32_t z = t.size(q);
  const std::uint64_t r = p - np * o;
  const std::uint64_t j = r / z;
  return j * t.units() + o + (r - j * z);
}
/// Inverse of da_to_asta_tile.
inline std::uint64_t asta_to_da_tile(std::uint64_t p, std::uint64_t np, const SlotTable& t) {
  const std::uint32_t ru = t.units();
  const std::uint64_t j = p / ru;
  const std::uint32_t q = static_cast<std::uint32_t>(p - j * ru);
  const std::uint32_t o = t.start(q);
  return np * o + j * t.size(q) + (q - o);
}

/// One cycle of a permutation, as its positions in order (first = smallest).
using Cycle = std::vector<std::uint64_t>;

/// All cycles of a permutation of [0, count) given by next(); fixed points included.
/// Host-side planning only (O(count) time, count/8 bytes of marks).
template <class Next>
std::vector<Cycle> cycles_of(std::uint64_t count, Next next) {
  std::vector<bool> seen(count, false);
  std::vector<Cycle> out;
  for (std::uint64_t s = 0; s < count; ++s) {
    if (seen[s]) continue;
    Cycle c;
    for (std::uint64_t p = s; !seen[p]; p = next(p)) {
      seen[p] = true;
      c.push_back(p);
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace dl
