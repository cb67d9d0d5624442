// Square: AoS <-> ASTA(T) (or DA with T = n) in place where a record is T slots of one
// size, so that every tile is a T x T matrix of slots (kernels/tile_square.cl). This file
// picks the block side and the launch.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "marshal_impl.hpp"

namespace dl::detail {

std::size_t square_block_units(std::size_t B, std::size_t z) {
  const std::size_t row = B * z;
  return B * (z < 32 ? row + ((z + 32 - row % 32) % 32) : row);
}

namespace {
/// dl_square_batched's blocks (kernels/tile_square.cl): B x B elements of z = 2^lz units,
/// B·B·z the kernel's DL_SQ_UNITS or half of it, rows of B·z = 2^lbu units. B = 0 where
/// it does not apply: z = 1 (dl_square1) or not a power of two, tiles smaller than a
/// block, blocks beyond the budget (unpadded) or the device's limit (padded).
struct SquareBatch {
  std::size_t B = 0, lz = 0, lbu = 0;
};

SquareBatch square_batch(const DeviceLimits& lim, const MarshalOptions& opt, std::size_t unit,
                         std::size_t z, std::size_t T) {
  SquareBatch sb;
  const std::size_t units = unit >= 8 ? 1024 : 4096;  // DL_SQ_UNITS
  if (z < 2 || (z & (z - 1)) != 0 || z > units) return sb;
  while ((std::size_t(1) << sb.lz) < z) ++sb.lz;
  const std::size_t elems = units / z;  // B·B, or 2·B·B
  std::size_t B = 1;
  while ((2 * B) * (2 * B) <= elems) B *= 2;
  if (B > T || 2 * B * B * z * unit > tile_local_budget(lim, opt) ||
      2 * square_block_units(B, z) * unit > tile_local_limit(lim))
    return sb;
  sb.B = B;
  while ((std::size_t(1) << sb.lbu) < B * z) ++sb.lbu;
  return sb;
}
}  // namespace

std::size_t square_block(std::size_t budget_units, std::size_t limit_units, std::size_t z,
                         std::size_t T) {
  // Two blocks of B x B elements as large as the budget allows; a multiple of
  // 32 / gcd(z, 32) elements where that is possible, so that block rows start on 32-unit
  // boundaries; their padded rows within the device's limit.
  auto b = static_cast<std::size_t>(std::sqrt(double(budget_units) / double(2 * z)));
  while (b > 0 && 2 * b * b * z > budget_units) --b;
  if (b >= T) {
    b = T;
  } else {
    const std::size_t m = 32 / std::gcd(z, std::size_t(32));
    if (b >= m) b -= b % m;
  }
  while (b > 0 && 2 * square_block_units(b, z) > limit_units) --b;
  return b;
}

std::size_t square_block(const DeviceLimits& lim, const MarshalOptions& opt, std::size_t unit,
                         std::size_t z, std::size_t T) {
  return square_block(tile_local_budget(lim, opt) / unit, tile_local_limit(lim) / unit, z, T);
}

cl_int add_square(Job& job, const PlanStep& step, std::string* err) {
  const Layout& tiled = step.from.kind == LayoutKind::AoS ? step.to : step.from;
  const std::size_t T = tiled.kind == LayoutKind::DA ? job.n : tiled.tile;
  if (T == 0 || job.ru % T != 0 || job.n % T != 0) {
    *err = "square needs records of T slots of one size and whole tiles";
    return CL_INVALID_OPERATION;
  }
  const std::size_t z = job.ru / T;
  const std::size_t B = square_block(job.m.lim, job.m.opt, job.unit, z, T);
  if (B == 0) {
    *err = "square: two slots of " + std::to_string(z * job.unit) +
           " bytes do not fit the local memory budget";
    return CL_INVALID_OPERATION;
  }
  // One-unit elements in tiles of at least one block of dl_square1, where the budget
  // gives dl_square blocks at least as large; elements of 2, 4, 8, ... units through
  // dl_square_batched where its blocks fit the budget and the tile.
  const std::size_t b1 = job.unit >= 8 ? 32 : 64;
  const SquareBatch sb = square_batch(job.m.lim, job.m.opt, job.unit, z, T);
  const char* batched = z == 1 && T >= b1 && B >= b1 ? "dl_square1"
                        : sb.B                       ? "dl_square_batched"
                                                     : nullptr;
  if (batched) {
    cl_kernel k = nullptr;
    if (cl_int e = job.m.kernel(job.unit, batched, &k, err); e != CL_SUCCESS) return e;
    if (job.m.work_group(k) >= 128) {  // where the device runs groups of 128
      const std::size_t side = z == 1 ? b1 : sb.B;
      const std::size_t nb = (T + side - 1) / side, pairs = nb * (nb + 1) / 2;
      const std::size_t items = job.n / T * pairs;
      // One group per item up to 64 times the groups per compute unit of the options, as
      // dl_diag_tiled64 (ops_diagonal.cpp).
      const std::size_t cap =
          std::max<std::size_t>(64, 64 * job.m.lim.compute_units * job.m.opt.groups_per_cu);
      Op op;
      op.kernel = batched;
      op.local = 128;
      op.global = std::clamp<std::size_t>(items, 1, cap) * 128;
      op.arg(job.buffer)
          .arg(cl_ulong(job.base))
          .arg(cl_uint(T))
          .arg(cl_uint(nb))
          .arg(cl_uint(pairs))
          .arg(cl_ulong(items));
      if (z > 1) op.arg(cl_uint(sb.lz)).arg(cl_uint(sb.B)).arg(cl_uint(sb.lbu));
      op.local_arg(square_block_units(side, z) * job.unit)
          .local_arg(square_block_units(side, z) * job.unit);
      job.ops.push_back(std::move(op));
      return CL_SUCCESS;
    }
  }
  cl_kernel k = nullptr;
  if (cl_int e = job.m.kernel(job.unit, "dl_square", &k, err); e != CL_SUCCESS) return e;
  const std::size_t nb = (T + B - 1) / B, pairs = nb * (nb + 1) / 2;
  const std::size_t items = job.n / T * pairs;
  const std::size_t wg = job.m.work_group(k);           // within the kernel's own limit
  const std::size_t X = std::min<std::size_t>(wg, 32);  // lanes along a block row (wg: 2^k)
  Op op;
  op.kernel = "dl_square";
  op.local = wg;
  op.global = job.groups(items) * wg;
  op.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_uint(T))
      .arg(cl_uint(z))
      .arg(cl_uint(B))
      .arg(cl_uint(nb))
      .arg(cl_uint(pairs))
      .arg(cl_ulong(items))
      .arg(cl_uint(X))
      .local_arg(square_block_units(B, z) * job.unit)
      .local_arg(square_block_units(B, z) * job.unit);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
