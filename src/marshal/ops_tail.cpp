// Tail handling of DA <-> ASTA(T) when n % T != 0 (see kernels/tail_shift.cl): the chunk
// layout of the head shifts and the extra memory they take.
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {

ShiftChunks shift_chunks(const std::vector<std::uint32_t>& st, std::uint64_t n, std::uint32_t T,
                         bool left) {
  ShiftChunks out;
  const std::uint64_t head = n / T * T;
  const std::uint64_t m = n - head;
  if (m == 0) return out;
  for (std::uint32_t q = 0; q < st.size(); ++q) {
    const std::uint32_t o = st[q] >> 16, z = st[q] & 0xffff;
    if (o != q || o == 0) continue;  // one entry per slot; slot 0 does not move
    const std::uint64_t d = m * o, len = head * z;
    if (len == 0) continue;
    const std::uint64_t src = left ? n * o : head * o;
    const std::uint64_t dst = left ? head * o : n * o;
    // Chunks of at least C >= 64 d units (scratch <= 1/64 of the moved bytes); the last
    // chunk takes the remainder, so every chunk but a lone one is >= d long.
    const std::uint64_t C = std::max<std::uint64_t>(64 * d, 4096);
    const std::uint64_t nch = std::max<std::uint64_t>(1, len / C);
    const auto first = static_cast<std::uint32_t>(out.chunks.size());
    for (std::uint64_t c = 0; c < nch; ++c) {
      const std::uint64_t off = c * C;
      const std::uint64_t l = c + 1 == nch ? len - off : C;
      cl_ulong4 e;
      e.s[0] = src + off;
      e.s[1] = l;
      e.s[2] = dst + off;
      e.s[3] = out.save_units;
      out.save_units += std::min(d, l);
      out.chunks.push_back(e);
    }
    out.slots.emplace_back(first, static_cast<std::uint32_t>(out.chunks.size()));
  }
  return out;
}

std::size_t tail_extra_bytes(const Record& rec, std::size_t unit, std::size_t n, std::uint32_t T) {
  const std::size_t m = n % T;
  if (m == 0) return 0;
  const auto st = slot_table(rec, unit, nullptr);
  const ShiftChunks sc = shift_chunks(st, n, T, true);
  return m * rec.size() + sc.save_units * unit + sc.chunks.size() * sizeof(cl_ulong4);
}

std::size_t in_place_budget(const MarshalOptions& opt, std::size_t buffer_bytes) {
  if (opt.max_extra_bytes) return opt.max_extra_bytes;
  return std::max<std::size_t>(buffer_bytes / 50, 64 * 1024);
}

}  // namespace dl::detail
