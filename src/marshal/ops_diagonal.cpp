// Diagonalization (kernels/diagonal.cl): the tiled kernel moves parallelograms of H rows
// by W diagonals through local memory, the gather one element per work-item.
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {
namespace {

/// The arguments every kernel of kernels/diagonal.cl starts with.
Op diagonal_op(const Job& job, const char* name, std::size_t wg, cl_mem src, std::uint64_t src_base,
               std::uint64_t dst_base, const DiagonalShape& s, cl_uint dir) {
  Op op;
  op.kernel = name;
  op.local = wg;
  op.arg(src)
      .arg(cl_ulong(src_base))
      .arg(job.buffer)
      .arg(cl_ulong(dst_base))
      .arg(cl_ulong(s.ny))
      .arg(cl_ulong(s.nx))
      .arg(cl_ulong(s.planes))
      .arg(cl_uint(s.elem / job.unit))
      .arg(dir)
      .arg(cl_uint(s.direction == Diagonal::Main ? 1 : 0));
  return op;
}

}  // namespace

cl_int add_diagonal(Job& job, cl_mem src, std::uint64_t src_base, std::uint64_t dst_base,
                    const DiagonalShape& s, bool to_diagonal, bool tiled, std::string* err) {
  const std::size_t unit = job.unit, ru = s.elem / job.unit;
  const std::size_t budget = tile_local_budget(job.m.lim, job.m.opt);
  auto local = [&](std::size_t sd) { return sd * (sd * ru + 1) * unit + 8 * sd; };
  // The tiled kernels' 32-bit positions hold planes of up to 2^31 elements and a tile's
  // rows and diagonal runs of up to 2^31 units: H rows of nx elements, W diagonal runs of
  // at most min(nx, ny) elements each.
  const std::uint64_t limit = std::uint64_t{1} << 31;
  // Parallelograms of side rows by side diagonals: bands of rows, each of the diagonals
  // that cross it (nx + side - 1 of them).
  auto tiles = [&](std::uint64_t side) {
    return s.planes * ((s.ny + side - 1) / side) * ((s.nx + 2 * side - 2) / side);
  };
  auto fits = [&](std::uint64_t side) {
    const std::uint64_t span = (s.nx + std::min(s.nx, s.ny) + 2) * ru * side;
    return local(side) <= budget && s.ny * s.nx < limit && span < limit && s.ny + side < limit;
  };
  // Elements of one unit whose 64 x 64 tile fits: dl_diag_tiled64 (batched loads, 128
  // work-items), where the device runs groups of 128.
  if (tiled && ru == 1 && fits(64)) {
    cl_kernel k = nullptr;
    if (cl_int e = job.m.kernel(job.unit, "dl_diag_tiled64", &k, err); e != CL_SUCCESS) return e;
    if (job.m.work_group(k) >= 128) {
      Op op =
          diagonal_op(job, "dl_diag_tiled64", 128, src, src_base, dst_base, s, to_diagonal ? 0 : 1);
      // One group per tile, up to 64 times the groups per compute unit of the options
      // (1,024 per unit by default, more than any 1 GiB plane needs), which then loop over
      // the rest: on the H200, 16 resident groups per unit looping over the tiles ran at
      // two thirds of the speed of one group per tile.
      const std::uint64_t cap = std::max<std::uint64_t>(
          64, std::uint64_t{64} * job.m.lim.compute_units * job.m.opt.groups_per_cu);
      op.global = std::clamp<std::uint64_t>(tiles(64), 1, cap) * 128;
      op.local_arg(64 * 65 * unit).local_arg(4 * 64);
      job.ops.push_back(std::move(op));
      return CL_SUCCESS;
    }
  }
  // Otherwise dl_diag_tiled with the largest square tile of at most 64 x 64 elements
  // whose rows (and the tile's row and diagonal starts) fit the local budget.
  std::uint32_t side = 64;
  while (side > 4 && local(side) > budget) side /= 2;
  if (!fits(side)) tiled = false;
  const char* name = tiled ? "dl_diag_tiled" : "dl_diag_gather";
  cl_kernel k = nullptr;
  if (cl_int e = job.m.kernel(job.unit, name, &k, err); e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  Op op = diagonal_op(job, name, wg, src, src_base, dst_base, s, to_diagonal ? 0 : 1);
  if (tiled) {
    op.global = job.groups(tiles(side)) * wg;
    op.arg(cl_uint(side))
        .arg(cl_uint(side))
        .local_arg(side * (side * ru + 1) * unit)
        .local_arg(4 * side)
        .local_arg(4 * side);
  } else {
    const std::uint64_t units = s.planes * s.ny * s.nx * ru;
    op.global = job.groups((units + wg - 1) / wg) * wg;
  }
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

cl_int add_diagonal_clip(Job& job, cl_mem src, std::uint64_t src_base, const DiagonalShape& s,
                         const Rect& rect, bool out, std::string* err) {
  cl_kernel k = nullptr;
  if (cl_int e = job.m.kernel(job.unit, "dl_diag_clip", &k, err); e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  Op op = diagonal_op(job, "dl_diag_clip", wg, src, src_base, job.base, s, out ? 0 : 1);
  const std::uint64_t units = s.planes * rect.h * rect.w * (s.elem / job.unit);
  op.global = job.groups((units + wg - 1) / wg) * wg;
  op.arg(cl_ulong(rect.y0)).arg(cl_ulong(rect.x0)).arg(cl_ulong(rect.h)).arg(cl_ulong(rect.w));
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

cl_int add_diagonal_layout(Job& job, const PlanStep& step, std::string* err) {
  const bool to_diagonal = step.from.kind == LayoutKind::AoS;
  const Layout& d = to_diagonal ? step.to : step.from;
  const DiagonalPlanes p = diagonal_planes(job.rec, job.n, d);
  // Chunks of whole planes through a temporary of one chunk (scratch_records).
  const std::size_t chunk = scratch_records(job.m.opt, job.n, step, job.rec.size());
  cl_mem tmp = nullptr;
  if (cl_int e = add_temporary(job, chunk, &tmp, err); e != CL_SUCCESS) return e;
  DiagonalShape s;
  s.ny = p.rows;
  s.nx = p.nx;
  s.elem = p.elem;
  s.direction = d.kind == LayoutKind::DiagMain ? Diagonal::Main : Diagonal::Secondary;
  for (std::size_t lo = 0; lo < job.n; lo += chunk) {
    const std::size_t count = std::min(chunk, job.n - lo);
    add_copy_in(job, tmp, lo, count);
    s.planes = count / p.rows;
    if (cl_int e = add_diagonal(job, tmp, 0, job.base + lo * job.ru, s, to_diagonal, true, err);
        e != CL_SUCCESS)
      return e;
  }
  return CL_SUCCESS;
}

}  // namespace dl::detail
