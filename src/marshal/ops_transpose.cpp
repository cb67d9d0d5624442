// DA <-> ASTA(T) in place: the tile-level transposition of the N' full tiles
// (Segmented, Pttwac or Pipt, kernels/tile_transpose.cl), with the tail of n % T records
// handled around it (kernels/tail_shift.cl).
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

struct Geometry {
  unsigned dir = 0;  // 0: DA -> ASTA, 1: ASTA -> DA
  std::uint32_t T = 0;
  std::uint64_t np = 0;    // full tiles
  std::uint64_t head = 0;  // records in full tiles
  std::uint32_t m = 0;     // tail records
};

cl_int kernel_wg(Job& job, const char* name, std::size_t* wg, std::string* err) {
  cl_kernel k = nullptr;
  cl_int e = job.m.kernel(job.unit, name, &k, err);
  if (e == CL_SUCCESS) *wg = job.m.work_group(k);
  return e;
}

cl_int add_transposition(Job& job, const PlanStep& step, const Geometry& g, std::string* err) {
  if (g.np == 0 || job.ru <= 1) return CL_SUCCESS;
  const std::size_t minitile = std::size_t(g.T) * job.unit;
  const bool wide = minitile % 16 == 0 && job.offset % 16 == 0;
  const std::uint32_t lanes = static_cast<std::uint32_t>(wide ? minitile / 16 : g.T);
  const std::uint64_t lbase = job.offset / (wide ? 16 : job.unit);
  const std::string sfx = wide ? "_v" : "_u";
  const std::uint64_t count = g.np * job.ru;

  if (step.algorithm == Algorithm::Pttwac) {
    cl_mem flags = nullptr;
    const std::size_t fbytes = (count + 31) / 32 * 4;
    cl_int e = job.alloc(fbytes, &flags);
    if (e != CL_SUCCESS) return *err = "allocating done flags failed", e;
    Op fill;
    fill.kind = Op::Kind::Fill;
    fill.dst = flags;
    fill.bytes = fbytes;
    job.ops.push_back(fill);
    std::size_t wg = 0;
    const std::string name = "dl_pttwac" + sfx;
    if ((e = kernel_wg(job, name.c_str(), &wg, err)) != CL_SUCCESS) return e;
    if (wg < lanes) return *err = "work-group too small for a minitile", CL_INVALID_OPERATION;
    // Several workers per group (the paper runs one): more chains in flight per compute
    // unit, in lock step with one barrier per step.
    const std::size_t wpg = wg / lanes;
    Op op;
    op.kernel = name;
    op.local = wpg * lanes;
    op.global = job.groups((count + wpg - 1) / wpg) * op.local;
    op.arg(job.buffer)
        .arg(cl_ulong(lbase))
        .arg(flags)
        .arg(cl_ulong(count))
        .arg(cl_ulong(g.np))
        .arg(cl_uint(job.ru))
        .arg(cl_uint(g.dir))
        .arg(job.uni)
        .arg(job.table)
        .arg(cl_uint(lanes))
        .local_arg((3 * wpg + 3) * sizeof(cl_uint));
    job.ops.push_back(std::move(op));
    return CL_SUCCESS;
  }

  cl_int e = CL_SUCCESS;
  auto* entry = job.m.seg_plan(job.rec, job.unit, job.n, g.T, g.dir, step.algorithm, true, &e);
  if (e != CL_SUCCESS) return *err = "uploading the segment table failed", e;
  const SegPlan& sp = *entry->plan;
  if (!sp.ok)
    return *err = "segment table does not fit the extra-memory bound", CL_INVALID_OPERATION;
  if (sp.table.empty()) return CL_SUCCESS;  // identity permutation
  cl_mem scratch = job.table;               // any valid buffer when nothing is saved
  if (sp.nsave) {
    e = job.alloc(sp.nsave * minitile, &scratch);
    if (e != CL_SUCCESS) return *err = "allocating segment scratch failed", e;
  }
  std::size_t wg = 0;
  const std::string save = "dl_seg_save" + sfx, move = "dl_seg_move" + sfx;
  if ((e = kernel_wg(job, save.c_str(), &wg, err)) != CL_SUCCESS) return e;
  std::size_t wg2 = 0;
  if ((e = kernel_wg(job, move.c_str(), &wg2, err)) != CL_SUCCESS) return e;
  wg = std::min(wg, wg2);
  if (wg < lanes) return *err = "work-group too small for a minitile", CL_INVALID_OPERATION;
  // Segmented packs several workers per group; Pipt runs one cycle per group.
  const std::size_t wpg = step.algorithm == Algorithm::Pipt ? 1 : wg / lanes;
  const std::size_t local = wpg * lanes;
  if (sp.nsave) {
    Op op;
    op.kernel = save;
    op.local = local;
    op.global = job.groups((sp.nsave + wpg - 1) / wpg) * local;
    op.arg(job.buffer)
        .arg(cl_ulong(lbase))
        .arg(scratch)
        .arg(entry->table)
        .arg(cl_ulong(sp.nsave))
        .arg(lanes);
    job.ops.push_back(std::move(op));
  }
  Op op;
  op.kernel = move;
  op.local = local;
  op.global = job.groups((sp.table.size() + wpg - 1) / wpg) * local;
  op.arg(job.buffer)
      .arg(cl_ulong(lbase))
      .arg(scratch)
      .arg(entry->table)
      .arg(cl_ulong(sp.table.size()))
      .arg(cl_ulong(sp.nsave))
      .arg(lanes)
      .arg(cl_ulong(g.np))
      .arg(cl_uint(job.ru))
      .arg(cl_uint(g.dir))
      .arg(job.uni)
      .arg(job.table);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

struct Tail {
  cl_mem scratch = nullptr;  // the tail tile, DA(m)
  cl_mem chunks = nullptr;
  cl_mem saves = nullptr;
  ShiftChunks sc;
};

cl_int prepare_tail(Job& job, const Geometry& g, Tail& t, std::string* err) {
  const auto st = slot_table(job.rec, job.unit, nullptr);
  t.sc = shift_chunks(st, job.n, g.T, g.dir == 0);
  cl_int e = job.alloc(std::size_t(g.m) * job.rec.size(), &t.scratch);
  if (e == CL_SUCCESS && !t.sc.chunks.empty())
    e = job.alloc(t.sc.chunks.size() * sizeof(cl_ulong4), &t.chunks, t.sc.chunks.data());
  if (e == CL_SUCCESS && t.sc.save_units) e = job.alloc(t.sc.save_units * job.unit, &t.saves);
  if (e != CL_SUCCESS) *err = "allocating tail scratch failed";
  return e;
}

cl_int add_tail_gather(Job& job, const Geometry& g, const Tail& t, bool to_scratch,
                       std::string* err) {
  std::size_t wg = 0;
  cl_int e = kernel_wg(job, "dl_tail_gather", &wg, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t units = std::size_t(g.m) * job.ru;
  Op op;
  op.kernel = "dl_tail_gather";
  op.local = wg;
  op.global = job.groups((units + wg - 1) / wg) * wg;
  op.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(t.scratch)
      .arg(cl_ulong(job.n))
      .arg(cl_ulong(g.head))
      .arg(cl_uint(g.m))
      .arg(cl_uint(job.ru))
      .arg(cl_uint(to_scratch ? 1 : 0))
      .arg(job.uni)
      .arg(job.table);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

void add_tile_copy(Job& job, const Geometry& g, const Tail& t, bool to_scratch) {
  Op op;
  op.kind = Op::Kind::Copy;
  const std::size_t at = job.offset + g.head * job.rec.size();
  op.src = to_scratch ? job.buffer : t.scratch;
  op.src_off = to_scratch ? at : 0;
  op.dst = to_scratch ? t.scratch : job.buffer;
  op.dst_off = to_scratch ? 0 : at;
  op.bytes = std::size_t(g.m) * job.rec.size();
  job.ops.push_back(op);
}

cl_int add_shifts(Job& job, const Tail& t, bool left, std::string* err) {
  if (t.sc.chunks.empty()) return CL_SUCCESS;
  std::size_t wg = 0, wg2 = 0;
  cl_int e = kernel_wg(job, "dl_chunk_save", &wg, err);
  if (e == CL_SUCCESS) e = kernel_wg(job, "dl_chunk_move", &wg2, err);
  if (e != CL_SUCCESS) return e;
  const auto nch = static_cast<cl_uint>(t.sc.chunks.size());
  Op save;
  save.kernel = "dl_chunk_save";
  save.local = wg;
  save.global = job.groups(nch) * wg;
  save.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(t.saves)
      .arg(t.chunks)
      .arg(nch)
      .arg(cl_uint(left));
  job.ops.push_back(std::move(save));
  const std::size_t ns = t.sc.slots.size();
  for (std::size_t i = 0; i < ns; ++i) {
    const auto& r = t.sc.slots[left ? i : ns - 1 - i];
    Op op;
    op.kernel = "dl_chunk_move";
    op.local = wg2;
    op.global = job.groups(r.second - r.first) * wg2;
    op.arg(job.buffer)
        .arg(cl_ulong(job.base))
        .arg(t.saves)
        .arg(t.chunks)
        .arg(cl_uint(r.first))
        .arg(cl_uint(r.second))
        .arg(cl_uint(left));
    job.ops.push_back(std::move(op));
  }
  return CL_SUCCESS;
}

}  // namespace

cl_int add_da_asta(Job& job, const PlanStep& step, std::string* err) {
  Geometry g;
  g.dir = step.from.kind == LayoutKind::DA ? 0 : 1;
  g.T = g.dir == 0 ? step.to.tile : step.from.tile;
  g.np = job.n / g.T;
  g.head = g.np * g.T;
  g.m = static_cast<std::uint32_t>(job.n - g.head);
  Tail t;
  cl_int e = CL_SUCCESS;
  if (g.m && (e = prepare_tail(job, g, t, err)) != CL_SUCCESS) return e;
  if (g.dir == 0) {
    if (g.m) {
      if ((e = add_tail_gather(job, g, t, true, err)) != CL_SUCCESS) return e;
      if ((e = add_shifts(job, t, true, err)) != CL_SUCCESS) return e;
    }
    if ((e = add_transposition(job, step, g, err)) != CL_SUCCESS) return e;
    if (g.m) add_tile_copy(job, g, t, false);
  } else {
    if (g.m) add_tile_copy(job, g, t, true);
    if ((e = add_transposition(job, step, g, err)) != CL_SUCCESS) return e;
    if (g.m) {
      if ((e = add_shifts(job, t, false, err)) != CL_SUCCESS) return e;
      if ((e = add_tail_gather(job, g, t, false, err)) != CL_SUCCESS) return e;
    }
  }
  return CL_SUCCESS;
}

}  // namespace dl::detail
