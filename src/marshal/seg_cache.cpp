// Segment plans cached per permutation, and the plan refinement that needs them (exact
// extra memory of DA <-> ASTA, Segmented -> Pttwac when the segment table cannot fit).
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl {
namespace {

constexpr std::size_t kMaxSegPlans = 8;

bool da_asta_algorithm(Algorithm a) {
  return a == Algorithm::Segmented || a == Algorithm::Pipt || a == Algorithm::Pttwac;
}

}  // namespace

Marshaler::Impl::SegEntry* Marshaler::Impl::seg_plan(const Record& rec, std::size_t unit,
                                                     std::size_t n, std::uint32_t T, unsigned dir,
                                                     Algorithm a, bool device, cl_int* err,
                                                     std::size_t fixed_length) {
  *err = CL_SUCCESS;
  const auto st = detail::slot_table(rec, unit, nullptr);
  const std::uint64_t np = n / T;
  const bool whole = a == Algorithm::Pipt;
  const std::size_t minitile = T * unit;
  std::size_t budget = detail::in_place_budget(opt, n * rec.size());
  const std::size_t tail = detail::tail_extra_bytes(rec, unit, n, T);
  budget = budget > tail ? budget - tail : 0;
  const std::size_t length = fixed_length ? fixed_length : opt.segment_length;
  std::string key = "segments " + std::to_string(np) + ":" + std::to_string(T) + ":" +
                    std::to_string(unit) + ":" + std::to_string(dir) + ":" + (whole ? "w" : "s") +
                    ":" + std::to_string(budget) + ":" + std::to_string(length) + ":";
  for (auto e : st) key += std::to_string(e) + ",";
  auto it = seg_plans.find(key);
  if (it == seg_plans.end()) {
    if (seg_plans.size() >= kMaxSegPlans) {
      auto old = std::min_element(
          seg_plans.begin(), seg_plans.end(),
          [](const auto& x, const auto& y) { return x.second.used < y.second.used; });
      if (old->second.table) api->clReleaseMemObject(old->second.table);
      seg_plans.erase(old);
    }
    SegEntry e;
    const std::uint64_t count = np * st.size();
    detail::SegPlan loaded;
    if (opt.load_plan && opt.load_plan(key, [&](const std::string& bytes) {
          return detail::parse_seg_plan(bytes, count, &loaded);
        })) {
      e.plan = std::make_shared<const detail::SegPlan>(std::move(loaded));
    } else {
      e.plan = std::make_shared<const detail::SegPlan>(
          detail::make_seg_plan(np, SlotTable(rec, unit), dir, whole, minitile,
                                whole ? ~std::size_t(0) : budget, length));
      if (opt.save_plan) opt.save_plan(key, detail::serialize(*e.plan));
    }
    it = seg_plans.emplace(key, std::move(e)).first;
  }
  SegEntry& e = it->second;
  e.used = ++seg_clock;
  if (device && e.plan->ok && !e.table && !e.plan->table.empty()) {
    e.table = api->clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  e.plan->table.size() * sizeof(cl_ulong2),
                                  const_cast<cl_ulong2*>(e.plan->table.data()), err);
    if (*err != CL_SUCCESS) e.table = nullptr;
  }
  return &e;
}

void Marshaler::Impl::refine(Plan& p, const Record& rec, std::size_t n, Algorithm requested) {
  if (!p.ok) return;
  std::lock_guard<std::mutex> lock(mu);
  const std::size_t unit = rec.unit();
  const std::size_t bytes = n * rec.size();
  const std::size_t R = rec.size();
  p.extra_bytes = 0;
  p.bytes_moved = 0;
  for (PlanStep& s : p.steps) {
    std::size_t extra = 0, moved = 2 * bytes;
    if (s.algorithm == Algorithm::OutOfPlace || s.algorithm == Algorithm::Diagonal) {
      extra = detail::scratch_records(opt, n, s, R) * R;
      moved = 4 * bytes;
    } else if (s.algorithm == Algorithm::ThreePass) {
      moved = 2 * bytes * detail::three_pass_passes(rec, unit, n);
    } else if (s.algorithm == Algorithm::PttwacInstance) {
      const bool to_tiled = s.from.kind == LayoutKind::AoS;
      const Layout& tiled = to_tiled ? s.to : s.from;
      const std::size_t w = tiled.kind == LayoutKind::DA ? n : tiled.tile;
      extra = detail::instance_table_bytes(*this, rec, n, w, to_tiled);
    } else if (da_asta_algorithm(s.algorithm)) {
      const unsigned dir = s.from.kind == LayoutKind::DA ? 0 : 1;
      const std::uint32_t T = dir == 0 ? s.to.tile : s.from.tile;
      const std::size_t minitile = T * unit;
      const std::size_t np = n / T, m = n % T;
      if (s.algorithm != Algorithm::Pttwac) {
        cl_int err = CL_SUCCESS;
        SegEntry* e = seg_plan(rec, unit, n, T, dir, s.algorithm, false, &err);
        if (!e->plan->ok) {
          if (requested == Algorithm::Auto) {
            // Not Pttwac: an earlier kernel of its cross-group protocol gave wrong
            // results on an H100, and the current one is verified on one GPU only
            // (kernels/README.md); out of place is always right.
            s.algorithm = Algorithm::OutOfPlace;
            extra = detail::scratch_records(opt, n, s, R) * R;
            moved = 4 * bytes;
          } else {
            p.ok = false;
            p.reason = "segmented: the segment table of " + std::to_string(e->plan->cycles) +
                       " cycles does not fit the extra-memory bound of " +
                       std::to_string(detail::in_place_budget(opt, bytes)) + " bytes";
            p.steps.clear();
            return;
          }
        } else {
          extra = e->plan->extra(minitile);
          moved = 2 * np * T * R + 2 * e->plan->nsave * minitile;
        }
      }
      if (s.algorithm == Algorithm::Pttwac) {
        extra = (np * rec.size() / unit + 31) / 32 * 4;
        moved = 2 * np * T * R;
      }
      if (m && s.algorithm != Algorithm::OutOfPlace) {
        const auto st = detail::slot_table(rec, unit, nullptr);
        const auto sc = detail::shift_chunks(st, n, T, dir == 0);
        std::size_t shifted = 0;
        for (const auto& c : sc.chunks) shifted += c.s[1];
        extra += detail::tail_extra_bytes(rec, unit, n, T);
        moved += 4 * m * R + 2 * shifted * unit + 2 * sc.save_units * unit;
      }
    }
    p.extra_bytes = std::max(p.extra_bytes, extra);
    p.bytes_moved += moved;
  }
  if (opt.max_extra_bytes && p.extra_bytes > opt.max_extra_bytes) {
    p.ok = false;
    p.reason = "needs " + std::to_string(p.extra_bytes) + " bytes of device scratch, over the " +
               std::to_string(opt.max_extra_bytes) + "-byte limit";
    p.steps.clear();
  }
}

}  // namespace dl
