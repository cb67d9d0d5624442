// Host planning of the Segmented (and P-IPT) DA <-> ASTA transposition: walk every
// cycle of the minitile permutation once, then cut the cycles into segments of at most
// L moves so every worker of the kernel gets a bounded, race-free piece of work.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

// The permutation the kernels follow (dl_tile_perm64 on the device).
struct Next {
  std::uint64_t np;
  const SlotTable& t;
  unsigned dir;
  std::uint64_t operator()(std::uint64_t p) const {
    return dir == 0 ? da_to_asta_tile(p, np, t) : asta_to_da_tile(p, np, t);
  }
};

}  // namespace

SegPlan make_seg_plan(std::uint64_t np, const SlotTable& st, unsigned dir, bool whole,
                      std::size_t minitile_bytes, std::size_t budget, std::size_t fixed_length) {
  const Next next{np, st, dir};
  const std::uint64_t count = np * st.units();

  // The one walk of every position: each cycle's smallest position and its length
  // (fixed points skipped), in increasing order of the start; their histogram.
  std::vector<bool> seen(count, false);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cycles;
  std::map<std::uint64_t, std::uint64_t> lengths;
  SegPlan plan;
  for (std::uint64_t s = 0; s < count; ++s) {
    if (seen[s]) continue;
    std::uint64_t c = 0;
    for (std::uint64_t p = s; !seen[p]; p = next(p)) {
      seen[p] = true;
      ++c;
    }
    if (c > 1) {
      cycles.emplace_back(s, c);
      ++lengths[c];
      ++plan.cycles;
    }
  }
  seen = std::vector<bool>();
  auto cost = [&](std::size_t L, std::size_t* nseg, std::size_t* nsave) {
    std::size_t segs = 0, saves = 0;
    for (const auto& [c, k] : lengths) {
      if (L == 0 || c <= L) {
        segs += k;
      } else {
        const std::size_t per = (c + L - 1) / L;
        segs += k * per;
        saves += k * per;
      }
    }
    if (nseg) *nseg = segs;
    if (nsave) *nsave = saves;
    return segs * sizeof(cl_ulong2) + saves * minitile_bytes;
  };
  std::size_t L = 0;
  if (!whole) {
    if (fixed_length) {
      L = fixed_length;
    } else {
      bool found = false;
      for (L = 32; L <= (std::size_t(1) << 30); L *= 2) {
        if (cost(L, nullptr, nullptr) <= budget) {
          found = true;
          break;
        }
        if (L >= count) break;
      }
      if (!found) return plan;  // not even whole cycles fit
    }
  }
  plan.length = L;
  std::size_t nseg = 0, nsave = 0;
  cost(L, &nseg, &nsave);
  plan.table.reserve(nseg);
  plan.nsave = nsave;

  // Cut segments first (they own scratch slots), whole cycles after; only the cut cycles
  // are walked again.
  std::vector<cl_ulong2> whole_cycles;
  for (const auto& [s, c] : cycles) {
    if (L == 0 || c <= L) {
      cl_ulong2 e;
      e.s[0] = s;
      e.s[1] = c | SegPlan::kOwnStart;
      whole_cycles.push_back(e);
      continue;
    }
    // Cut into `per` segments of near-equal length.
    const std::uint64_t per = (c + L - 1) / L;
    std::uint64_t p = s;
    for (std::uint64_t k = 0; k < per; ++k) {
      const std::uint64_t len = c / per + (k < c % per ? 1 : 0);
      cl_ulong2 e;
      e.s[0] = p;
      e.s[1] = len;
      plan.table.push_back(e);
      for (std::uint64_t j = 0; j < len; ++j) p = next(p);
    }
  }
  plan.table.insert(plan.table.end(), whole_cycles.begin(), whole_cycles.end());
  plan.ok = true;
  return plan;
}

std::string serialize(const SegPlan& plan) {
  std::string out = std::to_string(plan.ok) + " " + std::to_string(plan.nsave) + " " +
                    std::to_string(plan.length) + " " + std::to_string(plan.cycles) + " " +
                    std::to_string(plan.table.size()) + "\n";
  if (!plan.table.empty())
    out.append(reinterpret_cast<const char*>(plan.table.data()),
               plan.table.size() * sizeof(cl_ulong2));
  return out;
}

bool parse_seg_plan(const std::string& bytes, std::uint64_t count, SegPlan* plan) {
  const std::size_t eol = bytes.find('\n');
  if (eol == std::string::npos) return false;
  unsigned long long ok = 0, nsave = 0, length = 0, cycles = 0, size = 0;
  char extra = 0;
  if (std::sscanf(bytes.substr(0, eol).c_str(), "%llu %llu %llu %llu %llu%c", &ok, &nsave, &length,
                  &cycles, &size, &extra) != 5 ||
      ok > 1 || nsave > size || bytes.size() - eol - 1 != size * sizeof(cl_ulong2))
    return false;
  SegPlan p;
  p.ok = ok == 1;
  p.nsave = nsave;
  p.length = length;
  p.cycles = cycles;
  p.table.resize(size);
  if (size) std::memcpy(p.table.data(), bytes.data() + eol + 1, size * sizeof(cl_ulong2));
  // Every segment inside the permutation, the moves no more than its positions: a plan
  // that passes cannot make a kernel touch memory outside the buffer.
  std::uint64_t moves = 0;
  for (const cl_ulong2& e : p.table) {
    const std::uint64_t len = e.s[1] & ~SegPlan::kOwnStart;
    if (e.s[0] >= count || len == 0 || len > count || (length && len > length)) return false;
    moves += len;
    if (moves > count) return false;
  }
  *plan = std::move(p);
  return true;
}

}  // namespace dl::detail
