// Result checks of dl-bench-marshal against DL's CPU converter (the oracle).
#pragma once

#include <dl/layout.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "clbench.hpp"

namespace dlbm {

/// Checks that `got` is `orig` (n records in layout `from`) converted to layout `to`.
/// Full: against dl::convert of the whole buffer. Sampled: every slot of the records of
/// the first and last tiles and of 65536 random records (fewer records of many slots),
/// through the layout map.
inline bool verify_conversion(const dl::Record& rec, std::size_t n, const dl::Layout& from,
                              const dl::Layout& to, const std::vector<unsigned char>& orig,
                              const std::vector<unsigned char>& got, bool full, std::string* why) {
  if (full) {
    std::vector<unsigned char> expect(orig.size());
    dl::convert(rec, n, from, orig.data(), to, expect.data());
    if (std::memcmp(expect.data(), got.data(), expect.size()) == 0) return true;
    std::size_t b = 0;
    while (b < expect.size() && expect[b] == got[b]) ++b;
    *why = "first differing byte " + std::to_string(b) + " of " + std::to_string(expect.size());
    return false;
  }
  // At most about 2^22 slots checked: records of many slots (a swap's rows) are sampled
  // in fewer records.
  const auto& slots = rec.slots();
  const std::size_t budget = std::max<std::size_t>(1, (std::size_t{1} << 20) / slots.size());
  std::vector<std::size_t> idx;
  const std::size_t edge = std::min<std::size_t>({n, 4096, budget});
  for (std::size_t i = 0; i < edge; ++i) idx.push_back(i);
  for (std::size_t i = n - edge; i < n; ++i) idx.push_back(i);
  dlb::Rng rng(n * 31 + rec.size());
  for (std::size_t s = 0; s < std::min<std::size_t>(65536, 2 * budget); ++s)
    idx.push_back(std::size_t(rng.next() % n));
  for (std::size_t i : idx) {
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const std::size_t a = dl::slot_offset(rec, n, from, i, s);
      const std::size_t b = dl::slot_offset(rec, n, to, i, s);
      if (std::memcmp(orig.data() + a, got.data() + b, slots[s].size) != 0) {
        *why = "record " + std::to_string(i) + " slot " + std::to_string(s) + " differs";
        return false;
      }
    }
  }
  return true;
}

}  // namespace dlbm
