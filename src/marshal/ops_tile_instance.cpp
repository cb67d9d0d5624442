// PttwacInstance: AoS <-> ASTA(T) by cycle following inside one tile, done bits in local
// memory (kernels/tile_instance.cl), for tiles larger than local memory.
#include "marshal_impl.hpp"

namespace dl::detail {

cl_int add_tile_instance(Job& job, const PlanStep& step, std::string* err) {
  const bool to_tiled = step.from.kind == LayoutKind::AoS;
  const Layout& tiled = to_tiled ? step.to : step.from;
  const std::size_t w = tiled.kind == LayoutKind::DA ? job.n : tiled.tile;
  const std::size_t words = (w * job.ru + 31) / 32;
  if (words * 4 > job.m.lim.local_mem_bytes) {
    *err = "done bits of a " + std::to_string(w) + "-record tile do not fit local memory";
    return CL_INVALID_OPERATION;
  }
  cl_kernel k = nullptr;
  cl_int e = job.m.kernel(job.unit, "dl_tile_instance", &k, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  const std::size_t ntiles = (job.n + w - 1) / w;
  Op op;
  op.kernel = "dl_tile_instance";
  op.local = wg;
  op.global = job.groups(ntiles) * wg;
  op.arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_ulong(job.n))
      .arg(cl_uint(w))
      .arg(cl_uint(job.ru))
      .arg(cl_uint(to_tiled ? 0 : 1))
      .arg(job.uni)
      .arg(job.table)
      .local_arg(words * 4);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
