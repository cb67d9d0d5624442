// Barrier-synchronised AoS <-> ASTA(T) (and AoS <-> DA when n records fit one group):
// G whole tiles per work-group through local memory (kernels/tile_local.cl).
#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {

cl_int add_tile_local(Job& job, const PlanStep& step, std::string* err) {
  const bool to_tiled = step.from.kind == LayoutKind::AoS;
  const Layout& tiled = to_tiled ? step.to : step.from;
  const std::size_t w = tiled.kind == LayoutKind::DA ? job.n : tiled.tile;
  const std::size_t tile_bytes = w * job.rec.size();
  const std::size_t budget = tile_local_budget(job.m.lim, job.m.opt);
  if (tile_bytes > tile_local_limit(job.m.lim)) {
    *err = "tile of " + std::to_string(tile_bytes) + " bytes does not fit local memory";
    return CL_INVALID_OPERATION;
  }
  const std::size_t ntiles = (job.n + w - 1) / w;
  std::size_t G = tile_bytes <= budget ? budget / tile_bytes : 1;
  // Enough groups to keep every compute unit busy (tile_groups_per_cu per unit) before
  // packing tiles.
  const std::size_t groups =
      std::max<std::size_t>(1, job.m.opt.tile_groups_per_cu) * job.m.lim.compute_units;
  G = std::min(G, std::max<std::size_t>(1, ntiles / groups));
  // Local memory is read with stride ru (AoS -> ASTA) or T (ASTA -> AoS) when gathering;
  // for strides of 32-byte multiples the kernel XOR-swizzles 16-byte vectors inside each
  // row (kernels/tile_local.cl) rather than padding: an odd pitch measured slower.
  const std::size_t lds = (G * tile_bytes + 15) / 16 * 16;

  cl_kernel k = nullptr;
  cl_int e = job.m.kernel(job.unit, "dl_tile_local", &k, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  Op op;
  op.kernel = "dl_tile_local";
  op.local = wg;
  op.global = job.groups((ntiles + G - 1) / G) * wg;
  op.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_ulong(job.n))
      .arg(cl_uint(w))
      .arg(cl_uint(job.ru))
      .arg(cl_uint(G))
      .arg(cl_uint(to_tiled ? 0 : 1))
      .arg(job.uni)
      .arg(job.table)
      .local_arg(lds);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
