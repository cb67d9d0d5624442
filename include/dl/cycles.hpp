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

/// The transposition of a row-major m x n matrix (element (i, j) at i*n + j moves to
/// j*m + i) as three passes, each of which permutes inside every column or inside every
/// row only, so each pass runs in parallel over short, independent lines:
///   1. columns: row r of column j receives row col_rotate(r, j) (a rotation by j / b,
///      b = n / gcd(m, n); the identity when gcd(m, n) = 1);
///   2. rows: column j of row r moves to column row_shuffle(r, j);
///   3. columns: row y of column d receives row col_shuffle(y, d).
/// Why it is a transposition: the element that ends at q = y*n + d is (i, j) = (q mod m,
/// q / m); pass 1 puts it in row r = (i - j / b) mod m, pass 2 in column (j*m + i) mod n
/// = d, pass 3 reads it from there. Pass 2 is a permutation of each row because, in row
/// r, (j*m + (r + j / b) mod m) mod n is distinct for all j: its residue mod gcd(m, n)
/// tells j / b, and then j*m mod n tells j mod b. DL runs it on the m x n unit matrix of
/// DA (m = units per record, n = records) to reach AoS, and backwards.
struct ThreePass {
  std::uint64_t m = 0, n = 0, b = 0;
  ThreePass(std::uint64_t m_, std::uint64_t n_) : m(m_), n(n_) {
    std::uint64_t x = m, y = n;
    while (y) {
      const std::uint64_t t = x % y;
      x = y;
      y = t;
    }
    b = x ? n / x : 0;
  }
  /// Pass 1 is the identity (gcd(m, n) = 1).
  bool rotates() const { return b != n; }
  std::uint64_t col_rotate(std::uint64_t r, std::uint64_t j) const { return (r + j / b) % m; }
  std::uint64_t row_shuffle(std::uint64_t r, std::uint64_t j) const {
    return (j * m + col_rotate(r, j)) % n;
  }
  std::uint64_t col_shuffle(std::uint64_t y, std::uint64_t d) const {
    const std::uint64_t q = y * n + d;
    return (q % m + m - (q / m / b) % m) % m;
  }
};

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
