// The planner: which algorithm converts `from` to `to` for n records of a record type on
// a device with given limits. Pure C++ (no OpenCL calls), so it is tested without a
// device and the enqueue path can refuse a shape before anything is written.
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

bool is_aos(const Layout& l) {
  return l.kind == LayoutKind::AoS;
}
bool is_da(const Layout& l) {
  return l.kind == LayoutKind::DA;
}
bool is_asta(const Layout& l) {
  return l.kind == LayoutKind::ASTA;
}
// Tile width of an AoS <-> tiled step's tiled side (DA: one tile of n records).
std::size_t tiled_width(const Layout& l, std::size_t n) {
  return is_da(l) ? n : l.tile;
}

struct Ctx {
  const DeviceLimits& lim;
  const MarshalOptions& opt;
  const Record& rec;
  std::size_t n;
  std::size_t unit;  // bytes per unit the buffer's offset allows
};

// Whether Auto may take ThreePass (MarshalOptions::three_pass; Device: on GPUs).
bool three_pass_auto(const Ctx& c) {
  using P = MarshalOptions::Prefer;
  return c.opt.three_pass == P::Always || (c.opt.three_pass == P::Device && c.lim.gpu);
}

// Empty when ThreePass can transpose DA (m x n units) <-> AoS for this record and n.
std::string three_pass_refuses(const Ctx& c) {
  const std::size_t m = c.rec.size() / c.unit;
  if (!SlotTable(c.rec, c.unit).uniform())
    return "three-pass needs every slot of the record to be one unit (" + std::to_string(c.unit) +
           "-byte units)";
  const std::size_t cap = three_pass_row_capacity(c.lim, c.opt, c.unit);
  if (c.n > cap)
    return "three-pass holds a row of at most " + std::to_string(cap) + " records in one " +
           "work-group (n = " + std::to_string(c.n) + ")";
  if ((c.n + 1) * m >= (std::size_t(1) << 31))
    return "three-pass indexes units with 32 bits (" + std::to_string(m) + " x " +
           std::to_string(c.n) + " units)";
  if (m * c.unit > tile_local_budget(c.lim, c.opt))
    return "three-pass needs a column (one record, " + std::to_string(m * c.unit) +
           " bytes) to fit local memory";
  return {};
}

// Empty when `a` can run the single step from -> to (canonical layouts), else why not.
std::string refuses(const Ctx& c, Algorithm a, const Layout& from, const Layout& to) {
  const std::size_t R = c.rec.size();
  const bool aos_tiled = (is_aos(from) && !is_aos(to)) || (is_aos(to) && !is_aos(from));
  const bool da_asta = (is_da(from) && is_asta(to)) || (is_asta(from) && is_da(to));
  switch (a) {
    case Algorithm::OutOfPlace:
      return {};
    case Algorithm::Diagonal:
      return "diagonal converts between AoS and DIAG or DIAG_MAIN only";
    case Algorithm::BarrierSync: {
      if (!aos_tiled) return "barrier-sync converts between AoS and ASTA(T) or DA only";
      const std::size_t w = tiled_width(is_aos(from) ? to : from, c.n);
      if (w * R > tile_local_limit(c.lim))
        return "barrier-sync needs a tile (" + std::to_string(w) + " records of " +
               std::to_string(R) + " bytes) to fit local memory (" +
               std::to_string(tile_local_limit(c.lim)) + " bytes)";
      return {};
    }
    case Algorithm::PttwacInstance: {
      if (!aos_tiled) return "pttwac-instance converts between AoS and ASTA(T) or DA only";
      const std::size_t w = tiled_width(is_aos(from) ? to : from, c.n);
      const std::size_t units = w * (R / c.rec.unit());
      if ((units + 31) / 32 * 4 > c.lim.local_mem_bytes)
        return "pttwac-instance needs one done bit per unit of a tile (" + std::to_string(units) +
               " units) in local memory";
      // At the least (unit level), a record's staging and a unit per work-item besides the
      // bits (ops_tile_instance.cpp sizes it exactly and refuses the same way).
      const std::size_t stage = (std::max(R, c.lim.max_work_group_size * c.unit) + 15) / 16 * 16;
      if ((units + 31) / 32 * 4 + stage > c.lim.local_mem_bytes)
        return "pttwac-instance needs a record (" + std::to_string(R) +
               " bytes) and the done bits of a tile in local memory (" +
               std::to_string(c.lim.local_mem_bytes) + " bytes)";
      return {};
    }
    case Algorithm::Square: {
      if (!aos_tiled) return "square converts between AoS and ASTA(T) or DA only";
      const std::size_t w = tiled_width(is_aos(from) ? to : from, c.n);
      const auto& slots = c.rec.slots();
      if (slots.size() != w || !c.rec.uniform_slots())
        return "square needs records of T = " + std::to_string(w) +
               " slots of one size (this record has " + std::to_string(slots.size()) + " slots" +
               (c.rec.uniform_slots() ? ")" : " of several sizes)");
      if (c.n % w != 0)
        return "square needs whole tiles (n = " + std::to_string(c.n) +
               ", T = " + std::to_string(w) + ")";
      const std::size_t z = R / w / c.unit;
      if (w * w * z >= (std::size_t(1) << 31))
        return "square indexes the units of a tile with 32 bits (" + std::to_string(w) + " x " +
               std::to_string(w) + " slots of " + std::to_string(z) + " units)";
      if (square_block(c.lim, c.opt, c.unit, z, w) == 0)
        return "square needs two slots (" + std::to_string(z * c.unit) +
               " bytes each) in the local memory budget";
      return {};
    }
    case Algorithm::ThreePass: {
      const bool aos_da = (is_aos(from) && is_da(to)) || (is_da(from) && is_aos(to));
      if (!aos_da) return "three-pass converts between AoS and DA only";
      return three_pass_refuses(c);
    }
    case Algorithm::Pttwac:
    case Algorithm::Pipt:
    case Algorithm::Segmented: {
      if (!da_asta) return std::string(algorithm_name(a)) + " converts between DA and ASTA(T) only";
      // A minitile (T units) moves with one work-item per unit, or per 16 bytes where the
      // minitile is a multiple of 16 bytes (ops_transpose.cpp): one work-group holds it.
      const std::size_t T = tiled_width(is_asta(from) ? from : to, c.n);
      const std::size_t lanes = std::max(T, T * c.unit / 16);
      if (lanes > c.lim.max_work_group_size)
        return std::string(algorithm_name(a)) + " moves a minitile of " + std::to_string(T) +
               " units with up to " + std::to_string(lanes) +
               " work-items, more than the device's work-group (" +
               std::to_string(c.lim.max_work_group_size) + ")";
      return {};
    }
    case Algorithm::Auto:
      break;
  }
  return "no algorithm";
}

// The in-place algorithm Auto picks for a single step, or Auto when there is none. Square
// after BarrierSync: one pass whatever the tile's size, but on the H200 a 32 x 32 tile of
// one-unit slots ran at 0.36 of copy through Square and 0.91 through BarrierSync.
// (Segmented is replaced by OutOfPlace later when its segment table cannot fit.)
Algorithm choose(const Ctx& c, const Layout& from, const Layout& to) {
  // Prefer::Always puts the whole-buffer transposes first, before BarrierSync too:
  // ThreePass, then Square (so that tests on small tiles run them).
  if (c.opt.three_pass == MarshalOptions::Prefer::Always)
    for (Algorithm a : {Algorithm::ThreePass, Algorithm::Square})
      if (refuses(c, a, from, to).empty()) return a;
  for (Algorithm a : {Algorithm::BarrierSync, Algorithm::Square, Algorithm::ThreePass})
    if ((a != Algorithm::ThreePass || three_pass_auto(c)) && refuses(c, a, from, to).empty())
      return a;
  // Tiles the block transposes take go through the temporary (two passes at 0.38-0.42 of
  // the copy on the H200, where PttwacInstance ran 0.14-0.16), within the scratch bound.
  if (block_copy_takes(c.rec, c.n, from, to) &&
      (!c.opt.max_extra_bytes ||
       scratch_records(c.opt, c.n, {Algorithm::OutOfPlace, from, to}, c.rec.size()) *
               c.rec.size() <=
           c.opt.max_extra_bytes))
    return Algorithm::OutOfPlace;
  for (Algorithm a : {Algorithm::PttwacInstance, Algorithm::Segmented})
    if (refuses(c, a, from, to).empty()) return a;
  return Algorithm::Auto;
}

// The tile width AoS <-> DA goes through: the preferred T, halved until a tile fits the
// barrier-sync budget (and below n).
std::uint32_t compose_tile(const Ctx& c) {
  std::uint32_t t = 32;
  while (t > 2 && (t * c.rec.size() > tile_local_budget(c.lim, c.opt) || t >= c.n)) t /= 2;
  return t;
}

std::size_t step_bytes_moved(Algorithm a, std::size_t bytes) {
  switch (a) {
    case Algorithm::OutOfPlace:
    case Algorithm::Diagonal:
      return 4 * bytes;  // copy to the temporary, then the kernel
    default:
      return 2 * bytes;
  }
}

std::size_t step_extra_bytes(const MarshalOptions& opt, const Record& rec, std::size_t n,
                             const PlanStep& s) {
  switch (s.algorithm) {
    case Algorithm::OutOfPlace:
    case Algorithm::Diagonal:
      return scratch_records(opt, n, s, rec.size()) * rec.size();
    default:
      return 0;
  }
}

}  // namespace

std::size_t scratch_records(const MarshalOptions& opt, std::size_t n, const PlanStep& s,
                            std::size_t record_bytes) {
  // The records a chunk holds whole: a plane of a diagonal layout; tiles of both sides of
  // a tiled pair (their least common multiple; AoS is tiles of one record). DA is one tile
  // of all n records, and so is a diagonal layout of one plane: not cut.
  std::size_t whole = n;
  if (s.algorithm == Algorithm::Diagonal) {
    whole = (s.from.tiled() ? s.to : s.from).width(n);
  } else if (s.algorithm == Algorithm::OutOfPlace && s.from.tiled() && s.to.tiled()) {
    const std::size_t a = s.from.width(n), b = s.to.width(n);
    if (a < n && b < n) whole = std::lcm(a, b);
  } else if (s.algorithm == Algorithm::OutOfPlace &&
             (s.from.kind == LayoutKind::Swap) != (s.to.kind == LayoutKind::Swap)) {
    whole = (s.from.kind == LayoutKind::Swap ? s.from : s.to).width(n);  // and AoS
  }
  if (n == 0 || whole >= n) return n;
  std::size_t limit = opt.scratch_chunk_bytes ? opt.scratch_chunk_bytes : SIZE_MAX;
  if (opt.max_extra_bytes) limit = std::min(limit, opt.max_extra_bytes);
  const std::size_t per = whole * record_bytes;
  const std::size_t chunks = std::max<std::size_t>(1, limit / per);
  return chunks >= (n + whole - 1) / whole ? n : chunks * whole;
}

Layout canonical(const Layout& l, std::size_t n) {
  const std::size_t w = l.width(n);
  if (l.kind == LayoutKind::Swap) return l;
  if (!l.tiled())
    return Layout::diag(w >= n ? 0 : static_cast<std::uint32_t>(w), l.kind == LayoutKind::DiagMain);
  if (w <= 1) return Layout::aos();
  if (w >= n) return Layout::da();
  return Layout::asta(static_cast<std::uint32_t>(w));
}

std::size_t tile_local_limit(const DeviceLimits& lim) {
  return lim.local_mem_bytes;
}

std::size_t tile_local_budget(const DeviceLimits& lim, const MarshalOptions& opt) {
  std::size_t b = opt.tile_local_bytes ? opt.tile_local_bytes : std::size_t(32) * 1024;
  return std::min(b, tile_local_limit(lim));
}

namespace {

// AoS <-> SWAP(T, B) in one step out of place (a temporary of whole tiles, then the block
// transposes write every unit at its place), where the block transposes take the
// matrices. Any other conversion from or to SWAP goes over two views of the bytes, which
// Marshaler::plan and enqueue compose (swap_legs).
Plan swap_step_plan(const MarshalOptions& opt, const Record& rec, std::size_t n,
                    const Layout& from_in, const Layout& to_in, Algorithm algorithm) {
  Plan p;
  const Layout from = canonical(from_in, n), to = canonical(to_in, n);
  if (n == 0 || from.same_map(to, n)) {
    p.ok = true;
    return p;
  }
  if (algorithm != Algorithm::Auto && algorithm != Algorithm::OutOfPlace) {
    p.reason = std::string(algorithm_name(algorithm)) + " cannot convert " + from.str() + " to " +
               to.str() + " in one step: a SWAP layout converts in one step only out of place";
    return p;
  }
  if (!block_copy_takes(rec, n, from, to)) {
    p.reason = from.str() + " -> " + to.str() + " for n = " + std::to_string(n) +
               " is not one step: out of place only between AoS and SWAP(T, B), with records "
               "of B rows of D slots of one size, T and D at least 16 and T x D at least 512";
    return p;
  }
  const PlanStep step{Algorithm::OutOfPlace, from, to};
  p.bytes_moved = step_bytes_moved(step.algorithm, n * rec.size());
  p.extra_bytes = step_extra_bytes(opt, rec, n, step);
  if (opt.max_extra_bytes && p.extra_bytes > opt.max_extra_bytes) {
    p.reason = "needs " + std::to_string(p.extra_bytes) + " bytes of device scratch, over the " +
               std::to_string(opt.max_extra_bytes) + "-byte limit";
    return p;
  }
  p.ok = true;
  p.steps = {step};
  return p;
}

// A conversion from or to a diagonal layout: Algorithm::Diagonal between it and AoS, the
// rest of the way (AoS <-> ASTA/DA, or to another diagonal layout) planned as usual.
Plan diagonal_plan(const DeviceLimits& lim, const MarshalOptions& opt, const Record& rec,
                   std::size_t n, const Layout& from, const Layout& to, Algorithm algorithm,
                   std::size_t unit) {
  Plan p;
  if (!rec.uniform_slots()) {
    p.reason = "a diagonal layout needs records whose slots (a row's elements) have one size; '" +
               rec.name() + "' has slots of several sizes";
    return p;
  }
  if (algorithm != Algorithm::Auto && algorithm != Algorithm::Diagonal) {
    p.reason = std::string(algorithm_name(algorithm)) + " cannot convert " + from.str() + " to " +
               to.str() + ": a diagonal layout converts through the diagonal algorithm";
    return p;
  }
  for (const Layout& l : {from, to})
    if (!l.tiled() && n % l.width(n) != 0) {
      p.reason = l.str() + " diagonalizes whole planes: n = " + std::to_string(n) +
                 " records (rows) is not a multiple of " + std::to_string(l.width(n));
      return p;
    }
  p.ok = true;
  if (n == 0 || from == to) return p;
  const std::size_t bytes = n * rec.size();
  auto leg = [&](const Layout& a, const Layout& b) {
    if (a.tiled() && b.tiled()) {
      Plan q = make_plan(lim, opt, rec, n, a, b, Algorithm::Auto, unit);
      if (!q.ok) p = q;
      for (const PlanStep& s : q.steps) p.steps.push_back(s);
      p.extra_bytes = std::max(p.extra_bytes, q.extra_bytes);
      p.bytes_moved += q.bytes_moved;
      return;
    }
    p.steps.push_back({Algorithm::Diagonal, a, b});
    p.extra_bytes = std::max(p.extra_bytes, step_extra_bytes(opt, rec, n, p.steps.back()));
    p.bytes_moved += step_bytes_moved(Algorithm::Diagonal, bytes);
  };
  if (from != Layout::aos()) leg(from, Layout::aos());
  if (p.ok && to != Layout::aos()) leg(Layout::aos(), to);
  if (p.ok && opt.max_extra_bytes && p.extra_bytes > opt.max_extra_bytes) {
    p.ok = false;
    p.reason = "needs " + std::to_string(p.extra_bytes) + " bytes of device scratch, over the " +
               std::to_string(opt.max_extra_bytes) + "-byte limit";
  }
  if (!p.ok) p.steps.clear();
  return p;
}

}  // namespace

std::vector<SwapLeg> swap_legs(const Record& rec, std::size_t n, const Layout& from,
                               const Layout& to, MarshalOptions::SwapOrder order,
                               std::string& why) {
  std::vector<SwapLeg> legs;
  if (from == to) return legs;
  const auto self = std::make_shared<const Record>(rec);
  const bool rows_first = order == MarshalOptions::SwapOrder::RowsFirst;
  // The view whose ASTA(B) exchanges the B x D matrix: RecordsFirst, the tiles of
  // SWAP(T,B) as records of D slots of T * z bytes; RowsFirst, the records as B records of
  // D slots of z bytes each. Or why there is none.
  auto view = [&](const Layout& l, std::shared_ptr<const Record>& r2, std::size_t& n2) {
    try {
      const SwapShape sh = swap_shape(rec, l);
      const std::size_t t = l.width(n);
      if (n % t) {
        why = l.str() + " needs whole tiles: n = " + std::to_string(n) +
              " records is not a multiple of " + std::to_string(t);
        return false;
      }
      // The rows' scalars where the record is one field of them, else bytes.
      Scalar sc = Scalar::UChar;
      if (rec.fields().size() == 1 && rec.fields()[0].vector_width == 1 &&
          sh.z % scalar_size(rec.fields()[0].type) == 0)
        sc = rec.fields()[0].type;
      const std::size_t rows = rows_first ? 1 : t;
      const std::size_t block = rows * sh.z / scalar_size(sc);
      if (block > 0xffffffffu || sh.d > 0xffffffffu) {
        why = l.str() + ": rows of " + std::to_string(rows * sh.z) + " bytes";
        return false;
      }
      r2 = std::make_shared<const Record>(
          Record::blocks(rec.name() + (rows_first ? "_rows" : "_swap") + std::to_string(sh.b), sc,
                         static_cast<unsigned>(sh.d), static_cast<unsigned>(block)));
      n2 = n / rows * sh.b;
      return true;
    } catch (const LayoutError& e) {
      why = e.what();
      return false;
    }
  };
  // The legs from AoS into `l` (AoS itself: none; SWAP: its two views in `order`; a
  // record's rows in D x B order have the slot table of B x D, the rows being of one size,
  // so ASTA(T) of `rec` moves them as they are). Out of `l`: the same reversed.
  bool ok = true;
  auto into = [&](const Layout& l) {
    std::vector<SwapLeg> in;
    if (l.kind != LayoutKind::Swap) {
      if (l != Layout::aos()) in.push_back({self, n, Layout::aos(), l});
      return in;
    }
    std::shared_ptr<const Record> r2;
    std::size_t n2 = 0;
    if (!view(l, r2, n2)) {
      ok = false;
      return in;
    }
    in.push_back({self, n, Layout::aos(), Layout::asta(static_cast<std::uint32_t>(l.width(n)))});
    // (A B x 1 or 1 x D matrix is its own transpose: SWAP is then ASTA(T), one leg.)
    if (l.split > 1 && rec.slots().size() > l.split)
      in.insert(rows_first ? in.begin() : in.end(), {r2, n2, Layout::aos(), Layout::asta(l.split)});
    return in;
  };
  legs = into(from);
  std::reverse(legs.begin(), legs.end());
  for (SwapLeg& l : legs) std::swap(l.from, l.to);
  const std::vector<SwapLeg> in = into(to);
  if (!ok) return {};
  legs.insert(legs.end(), in.begin(), in.end());
  return legs;
}

Plan make_plan(const DeviceLimits& lim, const MarshalOptions& opt, const Record& rec, std::size_t n,
               const Layout& from_in, const Layout& to_in, Algorithm algorithm, std::size_t unit) {
  Plan p;
  if (rec.size() == 0 || rec.slots().empty()) {
    p.reason = "empty record";
    return p;
  }
  if ((from_in.kind == LayoutKind::ASTA && from_in.tile == 0) ||
      (to_in.kind == LayoutKind::ASTA && to_in.tile == 0)) {
    p.reason = "ASTA tile width 0";
    return p;
  }
  if (from_in.kind == LayoutKind::Swap || to_in.kind == LayoutKind::Swap)
    return swap_step_plan(opt, rec, n, from_in, to_in, algorithm);
  if (rec.size() / rec.unit() >= 65536) {
    p.reason = "record of " + std::to_string(rec.size() / rec.unit()) +
               " units is larger than the slot table can describe (65535)";
    return p;
  }
  if (n != 0 && n * rec.size() / n != rec.size()) {
    p.reason = "buffer size overflows";
    return p;
  }
  if (!from_in.tiled() || !to_in.tiled())
    return diagonal_plan(lim, opt, rec, n, canonical(from_in, n), canonical(to_in, n), algorithm,
                         unit);
  const Layout from = canonical(from_in, n), to = canonical(to_in, n);
  const std::size_t bytes = n * rec.size();
  p.ok = true;
  if (n == 0 || from == to) return p;  // same map: nothing moves

  const Ctx c{lim, opt, rec, n, unit ? unit : rec.unit()};
  std::vector<PlanStep> single{{algorithm, from, to}};
  std::vector<PlanStep> steps;
  // Three passes over the whole buffer take AoS <-> DA (and DA <-> ASTA through AoS) for
  // the n a work-group's row holds; longer DA rows go through ASTA tiles.
  const bool three_pass =
      ((algorithm == Algorithm::Auto && three_pass_auto(c)) || algorithm == Algorithm::ThreePass) &&
      three_pass_refuses(c).empty();
  // Composite routes: ASTA(a) <-> ASTA(b) and DA <-> ASTA/DA through AoS... (see below).
  auto route = [&]() -> std::vector<PlanStep> {
    if (is_asta(from) && is_asta(to))
      return {{Algorithm::Auto, from, Layout::aos()}, {Algorithm::Auto, Layout::aos(), to}};
    if (three_pass && ((is_da(from) && is_asta(to)) || (is_asta(from) && is_da(to))))
      return {{Algorithm::Auto, from, Layout::aos()}, {Algorithm::Auto, Layout::aos(), to}};
    // AoS <-> DA: one group may take all n records only when they are few; otherwise
    // AoS <-> ASTA(t) (barrier-sync) composed with ASTA(t) <-> DA (in-place transposition).
    const bool aos_da = (is_aos(from) && is_da(to)) || (is_da(from) && is_aos(to));
    // A square buffer (n records of n slots of one size) transposes in one pass.
    if (aos_da && (algorithm == Algorithm::Auto || algorithm == Algorithm::Square) &&
        refuses(c, Algorithm::Square, from, to).empty())
      return single;
    if (aos_da && !three_pass &&
        (n * rec.size() > tile_local_budget(lim, opt) ||
         !refuses(c, Algorithm::BarrierSync, from, to).empty())) {
      const std::uint32_t t = compose_tile(c);
      if (t < n) {
        const Layout mid = Layout::asta(t);
        return {{Algorithm::Auto, from, mid}, {Algorithm::Auto, mid, to}};
      }
    }
    return single;
  };

  if (algorithm == Algorithm::Auto) {
    steps = route();
    for (auto& s : steps) {
      s.algorithm = choose(c, s.from, s.to);
      if (s.algorithm == Algorithm::Auto) {
        // Nothing in place takes this step (yet): fall back to the reference.
        s.algorithm = Algorithm::OutOfPlace;
      }
    }
    // A route with a step out of place costs more than one out-of-place conversion.
    for (const auto& s : steps)
      if (s.algorithm == Algorithm::OutOfPlace && steps.size() > 1) {
        steps = {{Algorithm::OutOfPlace, from, to}};
        break;
      }
  } else {
    std::string why = refuses(c, algorithm, from, to);
    if (algorithm == Algorithm::ThreePass && !three_pass) why = three_pass_refuses(c);
    if (why.empty()) {
      steps = single;
    } else {
      steps = route();
      bool used = false;
      for (auto& s : steps) {
        if (refuses(c, algorithm, s.from, s.to).empty()) {
          s.algorithm = algorithm;
          used = true;
        } else {
          s.algorithm = choose(c, s.from, s.to);
          if (s.algorithm == Algorithm::Auto) s.algorithm = Algorithm::OutOfPlace;
        }
      }
      if (!used || steps.size() == 1) {
        p.ok = false;
        p.reason = std::string(algorithm_name(algorithm)) + " cannot convert " + from.str() +
                   " to " + to.str() + " for n = " + std::to_string(n) + ": " + why;
        return p;
      }
    }
  }
  for (const auto& s : steps) {
    p.bytes_moved += step_bytes_moved(s.algorithm, bytes);
    p.extra_bytes = std::max(p.extra_bytes, step_extra_bytes(opt, rec, n, s));
  }
  if (opt.max_extra_bytes && p.extra_bytes > opt.max_extra_bytes) {
    p.ok = false;
    p.reason = "needs " + std::to_string(p.extra_bytes) + " bytes of device scratch, over the " +
               std::to_string(opt.max_extra_bytes) + "-byte limit";
    return p;
  }
  p.steps = std::move(steps);
  return p;
}

}  // namespace dl::detail
