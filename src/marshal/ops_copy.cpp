// OutOfPlace: copy the buffer to a temporary, then one kernel writes every unit back at
// its place in the target map: the tiled transpose for AoS <-> DA (kernels/copy_map.cl,
// dl_oop_transpose) where a record fits the local budget, the block transposes of
// kernels/tile_oop.cl for AoS <-> ASTA(T) or DA where the slots have one size, the generic
// map copy (dl_copy_map) for any other pair.
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {

bool tiled_transpose_takes(const Record& rec, const DeviceLimits& lim, const MarshalOptions& opt,
                           const Layout& from, const Layout& to) {
  // The tiled transpose stages whole records in local memory: a record larger than the
  // budget (a swap's plane of rows, hundreds of KiB) takes the map copy.
  return ((from.kind == LayoutKind::AoS && to.kind == LayoutKind::DA) ||
          (from.kind == LayoutKind::DA && to.kind == LayoutKind::AoS)) &&
         rec.size() + 16 <= tile_local_budget(lim, opt);
}

bool tiled_transpose_takes(const Job& job, const Layout& from, const Layout& to) {
  return tiled_transpose_takes(job.rec, job.m.lim, job.m.opt, from, to);
}

namespace {

/// dl_copy_map (kernel `k`) of n records from `src` (base in units) to the job's buffer at
/// `dst_base` (units): every unit read at its place in `from`, written at its place in `to`.
cl_int add_map_copy(Job& job, cl_kernel k, cl_mem src, std::uint64_t src_base,
                    std::uint64_t dst_base, std::size_t n, const Layout& from, const Layout& to,
                    std::string* err) {
  if (!from.tiled() || !to.tiled()) {
    // (The planner sends SWAP only where the block transposes take it.)
    *err = from.str() + " -> " + to.str() + " of " + std::to_string(n) +
           " records: out of place only through the block transposes, which do not take it";
    return CL_INVALID_OPERATION;
  }
  const std::size_t wg = job.m.work_group(k);
  Op op;
  op.kernel = "dl_copy_map";
  op.local = wg;
  const std::size_t units = n * job.ru;
  op.global = job.groups((units + wg - 1) / wg) * wg;
  op.arg(src)
      .arg(cl_ulong(src_base))
      .arg(job.buffer)
      .arg(cl_ulong(dst_base))
      .arg(cl_ulong(n))
      .arg(cl_uint(job.ru))
      .arg(cl_ulong(from.width(n)))
      .arg(cl_ulong(to.width(n)))
      .arg(job.uni)
      .arg(job.table);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

/// dl_oop_block1 or dl_oop_block (kernels/tile_oop.cl) of n records from `src` (base in
/// units) to the job's buffer at `dst_base` (units), where block_copy_shape takes the pair:
/// each tile's matrices of slots transposed through local memory in blocks. Returns false,
/// adding nothing, where it does not, or where a block of two slots by two does not fit
/// the local memory budget.
bool add_block_copy(Job& job, cl_mem src, std::uint64_t src_base, std::uint64_t dst_base,
                    std::size_t n, const Layout& from, const Layout& to, cl_int* status,
                    std::string* err) {
  // SWAP has no other way out of place: its blocks take a chunk's short last tile too.
  const std::optional<BlockShape> sh = block_copy_shape(job.rec, n, from, to);
  if (!sh || (!sh->swap && !block_copy_takes(*sh, n))) return false;
  const bool forward = sh->forward;
  const std::size_t z = job.rec.slots()[0].size / job.unit, T = sh->T, M = sh->M, D = sh->D;
  const std::size_t w = std::min(T, n);
  const std::size_t b1 = job.unit >= 8 ? 32 : 64;  // DL_SQ_B
  const bool one = z == 1;
  const std::size_t B =
      one ? b1
          : square_block(2 * tile_local_budget(job.m.lim, job.m.opt) / job.unit,
                         2 * tile_local_limit(job.m.lim) / job.unit, z, std::max(w, D));
  if (B < 2) return false;
  const char* name = one ? "dl_oop_block1" : "dl_oop_block";
  cl_kernel k = nullptr;
  if (cl_int e = job.m.kernel(job.unit, name, &k, err); e != CL_SUCCESS) {
    *status = e;
    return true;
  }
  const std::size_t wg = job.m.work_group(k);
  if (one && wg < 128) return false;  // launched with groups of 128
  // dl_oop_block1 takes a tile's M matrices as one matrix of M·D columns (rows), so that
  // its blocks run across matrices narrower than a block; dl_oop_block one at a time.
  const std::size_t wide = one ? M * D : D, per = one ? 1 : M;
  const std::size_t rows = forward ? w : wide, cols = forward ? wide : w;
  const std::size_t nbr = (rows + B - 1) / B, nbc = (cols + B - 1) / B;
  const std::size_t items = (n + T - 1) / T * per * nbr * nbc;
  Op op;
  op.kernel = name;
  op.arg(src)
      .arg(cl_ulong(src_base))
      .arg(job.buffer)
      .arg(cl_ulong(dst_base))
      .arg(cl_ulong(n))
      .arg(cl_uint(T))
      .arg(cl_uint(D))
      .arg(cl_uint(M));
  if (one) {
    // One group per item up to 64 times the groups per compute unit, as dl_square1.
    const std::size_t cap =
        std::max<std::size_t>(64, 64 * job.m.lim.compute_units * job.m.opt.groups_per_cu);
    op.local = 128;
    op.global = std::clamp<std::size_t>(items, 1, cap) * 128;
    op.arg(cl_uint(forward ? 0 : 1))
        .arg(cl_uint(nbr))
        .arg(cl_uint(nbc))
        .arg(cl_ulong(items))
        .local_arg(B * (B + 1) * job.unit);
  } else {
    op.local = wg;
    op.global = job.groups(items) * wg;
    op.arg(cl_uint(z))
        .arg(cl_uint(forward ? 0 : 1))
        .arg(cl_uint(B))
        .arg(cl_uint(nbr))
        .arg(cl_uint(nbc))
        .arg(cl_ulong(items))
        .arg(cl_uint(std::min<std::size_t>(wg, 32)))
        .local_arg(square_block_units(B, z) * job.unit);
  }
  job.ops.push_back(std::move(op));
  *status = CL_SUCCESS;
  return true;
}

}  // namespace

std::optional<BlockShape> block_copy_shape(const Record& rec, std::size_t n, const Layout& from,
                                           const Layout& to) {
  if (!rec.uniform_slots() || rec.slots().empty()) return std::nullopt;
  const Layout f = canonical(from, n), t = canonical(to, n);
  BlockShape s;
  s.forward = f.kind == LayoutKind::AoS;
  const Layout& tiled = s.forward ? t : f;
  s.swap = tiled.kind == LayoutKind::Swap;
  if (s.forward == (t.kind == LayoutKind::AoS) ||
      (tiled.kind != LayoutKind::ASTA && tiled.kind != LayoutKind::DA && !s.swap))
    return std::nullopt;
  s.T = tiled.kind == LayoutKind::DA ? n : s.swap ? tiled.width(n) : tiled.tile;
  if (s.swap) {
    if (tiled.split == 0 || rec.slots().size() % tiled.split) return std::nullopt;
    s.M = tiled.split;
  }
  s.D = rec.slots().size() / s.M;
  if (s.T * rec.size() >= (std::size_t(1) << 32)) return std::nullopt;
  return s;
}

bool block_copy_takes(const BlockShape& s, std::size_t n) {
  // Smaller matrices take the map copy: on the H200, 1 GiB of tiles of 16-64 records of
  // 2-32 floats, the blocks ran 0.15-0.91 times its speed below these bounds, 1.07-1.66
  // times above (bench/results/h200/oop-blocks.json). (SWAP: its two views instead.)
  const std::size_t w = std::min(s.T, n);
  return std::min(w, s.D) >= 16 && w * s.D >= 512;
}

bool block_copy_takes(const Record& rec, std::size_t n, const Layout& from, const Layout& to) {
  const std::optional<BlockShape> s = block_copy_shape(rec, n, from, to);
  return s && block_copy_takes(*s, n);
}

cl_int add_copy_kernel(Job& job, cl_mem src, std::uint64_t src_base, const Layout& from,
                       const Layout& to, std::string* err, std::size_t lo, std::size_t count) {
  const bool aos_da = tiled_transpose_takes(job, from, to);
  if (count == kAllRecords) count = job.n;
  if (!aos_da && (lo != 0 || count != job.n)) {
    *err = "a part of an array is converted only between AoS and DA";
    return CL_INVALID_VALUE;
  }
  if (cl_int st = CL_SUCCESS;
      !aos_da && add_block_copy(job, src, src_base, job.base, job.n, from, to, &st, err))
    return st;
  const char* name = aos_da ? "dl_oop_transpose" : "dl_copy_map";
  cl_kernel k = nullptr;
  cl_int e = job.m.kernel(job.unit, name, &k, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  Op op;
  op.kernel = name;
  op.local = wg;
  if (aos_da) {
    // Blocks as large as the local budget allows (many loads in flight per barrier), at
    // most 4096 records, and at least two blocks per compute unit when n allows; an odd
    // local pitch (one unit per record) when ru is even (kernels/copy_map.cl).
    const std::size_t R = job.rec.size();
    const bool pad = job.unit >= 4 && job.ru % 2 == 0 && job.ru >= 4;
    const std::size_t per = R + (pad ? job.unit : 0);
    const std::size_t budget = tile_local_budget(job.m.lim, job.m.opt);
    std::size_t TB = std::max<std::size_t>(1, std::min<std::size_t>(4096, budget / per));
    const std::size_t want = 2 * job.m.lim.compute_units;
    while (TB > 64 && (count + TB - 1) / TB < want) TB /= 2;
    // A multiple of 16 records keeps each block's DA runs vector-aligned (the kernel's
    // 16-byte DA path needs TB to be a multiple of its units per vector, at most 16).
    if (TB >= 16) TB -= TB % 16;
    const std::size_t nblocks = (count + TB - 1) / TB;
    op.global = job.groups(nblocks) * wg;
    op.arg(src)
        .arg(cl_ulong(src_base))
        .arg(job.buffer)
        .arg(cl_ulong(job.base))
        .arg(cl_ulong(job.n))
        .arg(cl_ulong(lo))
        .arg(cl_ulong(count))
        .arg(cl_uint(TB))
        .arg(cl_uint(job.ru))
        .arg(cl_uint(from.kind == LayoutKind::AoS ? 0 : 1))
        .arg(job.uni)
        .arg(job.table)
        .local_arg((TB * per + 15) / 16 * 16)
        .arg(cl_uint(pad ? 1 : 0));
  } else {
    return add_map_copy(job, k, src, src_base, job.base, job.n, from, to, err);
  }
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

cl_int add_temporary(Job& job, std::size_t records, cl_mem* tmp, std::string* err) {
  const std::size_t bytes = records * job.rec.size();
  if (cl_int e = job.alloc(bytes, tmp); e != CL_SUCCESS) {
    *err = "allocating a temporary of " + std::to_string(bytes) + " bytes failed (OpenCL error " +
           std::to_string(e) + ")";
    return e;
  }
  return CL_SUCCESS;
}

void add_copy_in(Job& job, cl_mem tmp, std::size_t first, std::size_t count) {
  Op copy;
  copy.kind = Op::Kind::Copy;
  copy.src = job.buffer;
  copy.src_off = job.offset + first * job.rec.size();
  copy.dst = tmp;
  copy.bytes = count * job.rec.size();
  job.ops.push_back(copy);
}

cl_int add_out_of_place(Job& job, const PlanStep& step, std::string* err) {
  const std::size_t chunk = scratch_records(job.m.opt, job.n, step, job.rec.size());
  cl_mem tmp = nullptr;
  if (cl_int e = add_temporary(job, chunk, &tmp, err); e != CL_SUCCESS) return e;
  if (chunk >= job.n) {  // one chunk: the tiled transpose may take it (AoS <-> DA)
    add_copy_in(job, tmp, 0, job.n);
    return add_copy_kernel(job, tmp, 0, step.from, step.to, err);
  }
  // Chunks of whole tiles of both layouts: each is the same map over its own records.
  cl_kernel k = nullptr;
  for (std::size_t lo = 0; lo < job.n; lo += chunk) {
    const std::size_t count = std::min(chunk, job.n - lo);
    add_copy_in(job, tmp, lo, count);
    cl_int st = CL_SUCCESS;
    if (add_block_copy(job, tmp, 0, job.base + lo * job.ru, count, step.from, step.to, &st, err)) {
      if (st != CL_SUCCESS) return st;
      continue;
    }
    if (!k)
      if (cl_int e = job.m.kernel(job.unit, "dl_copy_map", &k, err); e != CL_SUCCESS) return e;
    if (cl_int e =
            add_map_copy(job, k, tmp, 0, job.base + lo * job.ru, count, step.from, step.to, err);
        e != CL_SUCCESS)
      return e;
  }
  return CL_SUCCESS;
}

}  // namespace dl::detail
