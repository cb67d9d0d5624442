// Tail handling of DA <-> ASTA(T) when n % T != 0 (see kernels/tail_shift.cl): the band
// table of the head compaction (one save and one move launch for all slots) and the extra
// memory it takes.
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

constexpr std::uint64_t kChainMin = 256;  // D at or above which a band runs in chain mode
constexpr std::uint64_t kTaskChains = 256;
constexpr std::uint64_t kFlagChain = 1, kFlagSaved = 2, kFlagLast = 4;

struct Band {
  std::uint64_t t, width, D;
};

cl_ulong4 entry(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  cl_ulong4 e;
  e.s[0] = a;
  e.s[1] = b;
  e.s[2] = c;
  e.s[3] = d;
  return e;
}

}  // namespace

ShiftChunks shift_chunks(const std::vector<std::uint32_t>& st, std::uint64_t n, std::uint32_t T,
                         bool /*left: the table serves both directions*/) {
  ShiftChunks out;
  const std::uint64_t head = n / T * T;
  const std::uint64_t m = n - head;
  const std::uint64_t ru = st.size();
  if (m == 0 || head == 0 || ru == 0) return out;
  const std::uint64_t z0 = st[0] & 0xffff;
  const std::uint64_t t0 = head * z0, end = head * ru;  // the moving image positions
  if (t0 >= end) return out;
  bool uni = true;
  for (auto e : st) uni = uni && (e & 0xffff) == 1;
  auto row_start = [&](std::uint64_t q) -> std::uint64_t { return st[q] >> 16; };
  auto shift_at = [&](std::uint64_t y) { return m * row_start(y / head); };

  // Bands: a chain walks about L steps per band; the windows (one saved unit per chain
  // crossing a band edge) stay within about 1% of the buffer (at least 2048 units).
  const std::uint64_t image = end - t0;
  const std::uint64_t budget = std::max<std::uint64_t>(n * ru / 100, 2048);
  const std::uint64_t cmin = std::clamp<std::uint64_t>(image / 512, 2048, 8192);
  std::vector<Band> bands;
  std::uint64_t L = std::max<std::uint64_t>(16, (image + budget - 1) / budget);
  for (;;) {
    bands.clear();
    std::uint64_t saves = 0;
    for (std::uint64_t t = t0; t < end;) {
      const std::uint64_t D = shift_at(t);
      std::uint64_t width = std::max(L * D, cmin);
      if (end - t < width + width / 4) width = end - t;  // no sliver at the end
      if (!bands.empty()) saves += D;
      bands.push_back({t, width, D});
      t += width;
    }
    if (saves <= budget || bands.size() == 1) break;
    L += L / 4 + 1;
  }

  // Table: header, row offsets, bands, chain tasks.
  out.chunks.push_back(entry(head, 0, n, ru | (std::uint64_t(uni) << 32)));
  out.chunks.push_back(entry(end, 0, 0, 0));
  if (!uni) {
    for (std::uint64_t q0 = 0; q0 < ru; q0 += 12) {
      std::uint64_t lanes[3] = {0, 0, 0};
      for (std::uint64_t r = 0; r < 12 && q0 + r < ru; ++r)
        lanes[r / 4] |= row_start(q0 + r) << ((r % 4) * 16);
      out.chunks.push_back(entry(lanes[0], 0, lanes[1], lanes[2]));
    }
  }
  const auto first_band = static_cast<std::uint64_t>(out.chunks.size());
  out.chunks[1].s[2] = bands.size() | (first_band << 32);
  std::uint64_t saved = 0;
  for (std::size_t j = 0; j < bands.size(); ++j) {
    const Band& b = bands[j];
    std::uint64_t flags = 0;
    if (b.D >= kChainMin) flags |= kFlagChain;
    if (j > 0) flags |= kFlagSaved;
    if (j + 1 == bands.size()) flags |= kFlagLast;
    out.chunks.push_back(entry(b.t, b.width, b.D | (flags << 48), j > 0 ? saved : 0));
    if (j > 0) saved += b.D;
  }
  // Chain tasks: the window's chains, then those starting at tail units inside the band.
  auto add_starts = [&](std::uint64_t band_entry, std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t y = from; y < to; y += kTaskChains)
      out.chunks.push_back(entry(y, 0, band_entry, std::min(kTaskChains, to - y)));
  };
  for (std::size_t j = 0; j < bands.size(); ++j) {
    const Band& b = bands[j];
    if (b.D < kChainMin) continue;
    const std::uint64_t be = first_band + j, tend = b.t + b.width;
    const std::uint64_t wend = std::min(tend, b.t + b.D);
    add_starts(be, b.t, wend);
    // DA(n) tail units of slot s: [n*(o + z) - m*z, n*(o + z)).
    for (std::uint64_t q = 0; q < ru;) {
      const std::uint64_t z = st[q] & 0xffff;
      const std::uint64_t te = n * (q + z), ts = te - m * z;
      add_starts(be, std::max(ts, wend), std::min(te, tend));
      q += z;
    }
  }
  out.save_units = std::max<std::uint64_t>(saved, 1);
  out.slots.emplace_back(static_cast<std::uint32_t>(first_band),
                         static_cast<std::uint32_t>(out.chunks.size()));
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
