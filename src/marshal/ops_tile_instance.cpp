// PttwacInstance: AoS <-> ASTA(T) by cycle following inside one tile, done bits in local
// memory (kernels/tile_instance.cl), for tiles larger than local memory. Each instance
// is cut into chunks of b records (transposed through local memory), then the minitiles
// of b units are permuted by cycle following (from a host table of the cycles where it
// fits, else PTTWAC rounds with done bits); this file picks b, the instances per
// work-group, the local memory sizes and the cycle table.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

// Must match DL_TI_MAXV / DL_TI_MAXU in kernels/tile_instance.cl.
constexpr std::size_t kMaxVecBytes = 64;
std::size_t max_units(std::size_t unit) {
  return unit >= 4 ? 64 / unit : 16;
}

struct Chunking {
  std::size_t b = 1;  // records per chunk (minitile of b units); 1: unit-level
  bool vec = false;   // minitiles are 16-byte vectors at 16-byte aligned addresses
};

// Chunk width for an instance of w records starting at byte `start` (relative to the
// 16-byte aligned buffer): a divisor b of w whose chunk (b*R bytes) fits `cap` bytes
// of local memory and whose minitile (b units) one work-item can carry. Preference:
// b < w (b == w is the local transpose alone), 16-byte vectors, 32-byte minitiles (one
// sector; `pref` bytes), then 64, 48, 16 bytes, then the widest.
Chunking pick_chunk(std::size_t w, std::size_t unit, std::size_t R, std::size_t cap,
                    std::size_t start, std::size_t pref) {
  Chunking best;
  long best_score = -1;
  for (std::size_t d = 2; d <= w; ++d) {
    if (w % d || d * R > cap) continue;
    const std::size_t bytes = d * unit;
    const bool vec = bytes % 16 == 0 && start % 16 == 0;
    if (vec ? bytes > kMaxVecBytes : d > max_units(unit)) continue;
    long score = d < w ? 100000 : 0;
    if (vec) score += 10000;
    score += bytes == pref ? 5000
             : bytes == 32 ? 4000
             : bytes == 64 ? 3000
             : bytes == 48 ? 2000
             : bytes == 16 ? 1000
                           : 0;
    score += static_cast<long>(bytes);
    if (score > best_score) {
      best_score = score;
      best.b = d;
      best.vec = vec;
    }
  }
  return best;
}

}  // namespace

InstanceTable instance_cycles(Marshaler::Impl& m, const Record& rec, std::size_t unit,
                              std::size_t n, std::size_t w, std::size_t b, std::size_t G,
                              std::size_t lanes, bool to_tiled, bool device) {
  const std::size_t ru = rec.size() / unit;
  const std::size_t minitiles = (w / std::max<std::size_t>(b, 1)) * ru;
  using Cycles = MarshalOptions::Cycles;
  const Cycles how = m.opt.instance_cycles;
  // Short cycles (power-of-two records, one round of a work-group): the rounds, except
  // AoS -> ASTA with 128 or more minitiles (the choices that were faster on the H100).
  const bool short_cycles =
      (ru & (ru - 1)) == 0 && minitiles <= 256 && !(to_tiled && minitiles >= 128);
  // The host walks every minitile of an instance once per shape: bounded here.
  if (how == Cycles::Rounds || (how == Cycles::Auto && short_cycles) || b >= w || w % b ||
      minitiles > (std::size_t(1) << 22))
    return {};
  // The instance permutation is DA <-> ASTA(b) of w records: its whole-cycle plan (the
  // one P-IPT uses) and its segment plans are cached with the segment plans.
  cl_int e = CL_SUCCESS;
  const auto T = static_cast<std::uint32_t>(b);
  const unsigned dir = to_tiled ? 1 : 0;
  const std::size_t bound = in_place_budget(m.opt, n * rec.size());
  auto fits = [&](const Marshaler::Impl::SegEntry* x) {
    return x->plan->ok && !x->plan->table.empty() &&
           x->plan->table.size() * sizeof(cl_ulong2) <= bound;
  };
  InstanceTable r;
  r.entry = m.seg_plan(rec, unit, w, T, dir, Algorithm::Pipt, false, &e);
  if (!fits(r.entry)) return {};
  // Few long cycles leave work-items idle: the shortest segments whose G-fold count
  // still fits the group (one pass, starts loaded before a barrier).
  const auto& whole = r.entry->plan->table;
  if (G * whole.size() < lanes) {
    std::size_t longest = 0;
    for (const auto& c : whole)
      longest = std::max<std::size_t>(longest, c.s[1] & ~SegPlan::kOwnStart);
    std::size_t L = 1;
    for (; L < longest; ++L) {
      std::size_t segs = 0;
      for (const auto& c : whole) segs += ((c.s[1] & ~SegPlan::kOwnStart) + L - 1) / L;
      if (G * segs <= lanes) break;
    }
    if (L < longest) {
      auto* cut = m.seg_plan(rec, unit, w, T, dir, Algorithm::Segmented, false, &e, L);
      if (fits(cut) && G * cut->plan->table.size() <= lanes) {
        r.entry = cut;
        r.cut = true;
      }
    }
  }
  if (!device) return r;
  const Algorithm a = r.cut ? Algorithm::Segmented : Algorithm::Pipt;
  r.entry = m.seg_plan(rec, unit, w, T, dir, a, true, &e, r.cut ? r.entry->plan->length : 0);
  if (e != CL_SUCCESS || !r.entry->table) return {};
  return r;
}

std::size_t instance_group(const DeviceLimits& lim, const MarshalOptions& opt, std::size_t full,
                           std::size_t instance_bytes) {
  const std::size_t budget = tile_local_budget(lim, opt);
  if (!full || instance_bytes > budget) return 1;
  const std::size_t G = budget / instance_bytes;
  return std::min(G, std::max<std::size_t>(1, full / (2 * lim.compute_units)));
}

std::size_t instance_table_bytes(Marshaler::Impl& m, const Record& rec, std::size_t n,
                                 std::size_t w, bool to_tiled) {
  const std::size_t unit = rec.unit(), R = rec.size();
  if (n < w) return 0;  // no full instance
  const std::size_t pref = m.opt.instance_minitile_bytes ? m.opt.instance_minitile_bytes : 32;
  const Chunking c = pick_chunk(w, unit, R, tile_local_budget(m.lim, m.opt), 0, pref);
  const std::size_t lanes = m.work_group();  // without the kernel's own limit
  const std::size_t G = instance_group(m.lim, m.opt, n / w, w * R);
  const auto t = instance_cycles(m, rec, unit, n, w, c.b, G, lanes, to_tiled, false);
  return t.entry ? t.entry->plan->table.size() * sizeof(cl_ulong2) : 0;
}

cl_int add_tile_instance(Job& job, const PlanStep& step, std::string* err) {
  const bool to_tiled = step.from.kind == LayoutKind::AoS;
  const Layout& tiled = to_tiled ? step.to : step.from;
  const std::size_t w = tiled.kind == LayoutKind::DA ? job.n : tiled.tile;
  const std::size_t unit = job.unit, ru = job.ru, R = ru * unit;
  const std::size_t full = job.n / w, m = job.n % w;
  const std::size_t local = job.m.lim.local_mem_bytes;
  const std::size_t budget = tile_local_budget(job.m.lim, job.m.opt);
  const std::size_t start = job.base * unit;  // byte offset of the region

  const std::size_t pref =
      job.m.opt.instance_minitile_bytes ? job.m.opt.instance_minitile_bytes : 32;
  Chunking cf = full ? pick_chunk(w, unit, R, budget, start, pref) : Chunking{};
  Chunking cm = m ? pick_chunk(m, unit, R, budget, start + full * w * R, pref) : Chunking{};
  std::size_t G = instance_group(job.m.lim, job.m.opt, full, w * R);
  auto bits_words = [&](std::size_t cnt, std::size_t width, std::size_t b) {
    return (cnt * (width / b) * ru + 31) / 32;
  };
  // Both kernels (rounds, table) run at the smaller of their work-group limits.
  cl_kernel k = nullptr, kt = nullptr;
  cl_int e = job.m.kernel(job.unit, "dl_tile_instance", &k, err);
  if (e == CL_SUCCESS) e = job.m.kernel(job.unit, "dl_tile_instance_table", &kt, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t wg = std::min(job.m.work_group(k), job.m.work_group(kt));
  // Local memory: the chunk staging buffer (also one start minitile per work-item
  // during step 2) and the done bits.
  std::size_t words = 0, stage = 16;
  auto size_local = [&] {
    words = std::max(full ? bits_words(G, w, cf.b) : 0, m ? bits_words(1, m, cm.b) : 0);
    stage = wg * std::max(cf.b, cm.b) * unit;
    if (cf.b > 1) stage = std::max(stage, std::min(budget, G * w * R));
    stage = std::max({stage, cf.b * R, cm.b * R});
    stage = (stage + 15) / 16 * 16;
  };
  size_local();
  if (words * 4 + stage > local) {  // chunks and bits do not fit together: unit level
    G = 1;
    cf = Chunking{};
    cm = Chunking{};
    size_local();
  }
  if (words * 4 + stage > local) {
    *err = "done bits of a " + std::to_string(w) + "-record tile do not fit local memory";
    return CL_INVALID_OPERATION;
  }
  // Step 2 of the full instances from the host's cycle table where there is one;
  // otherwise rounds with done bits.
  InstanceTable tab;
  if (full) tab = instance_cycles(job.m, job.rec, unit, job.n, w, cf.b, G, wg, to_tiled, true);
  const std::size_t ncyc = tab.entry ? tab.entry->plan->table.size() : 0;
  const std::size_t items = (full + G - 1) / G + (m != 0);
  Op op;
  op.kernel = ncyc ? "dl_tile_instance_table" : "dl_tile_instance";
  op.local = wg;
  op.global = job.groups(items) * wg;
  op.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_ulong(job.n))
      .arg(cl_uint(w))
      .arg(cl_uint(ru))
      .arg(cl_uint(to_tiled ? 0 : 1))
      .arg(job.uni)
      .arg(job.table)
      .arg(cl_uint(G))
      .arg(cl_uint(cf.b))
      .arg(cl_uint(cf.vec))
      .arg(cl_uint(cm.b))
      .arg(cl_uint(cm.vec))
      .arg(cl_uint(stage / unit))
      .local_arg(stage)
      .local_arg(std::max<std::size_t>(words, 1) * 4);
  if (ncyc) op.arg(tab.entry->table).arg(cl_uint(ncyc)).arg(cl_uint(tab.cut));
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
