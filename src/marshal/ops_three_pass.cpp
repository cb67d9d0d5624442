// ThreePass: AoS <-> DA in place as the column, row, column passes of dl::ThreePass over
// the m x n unit matrix of DA (kernels/transpose3.cl). This file picks the band width of
// the column passes and the work-group that holds a row.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "marshal_impl.hpp"

namespace dl::detail {

namespace {

// Local memory for a row: the device's, or MarshalOptions::tile_local_bytes where set.
std::size_t three_pass_row_local(const DeviceLimits& lim, const MarshalOptions& opt) {
  return opt.tile_local_bytes ? tile_local_budget(lim, opt) : tile_local_limit(lim);
}

}  // namespace

std::size_t three_pass_row_capacity(const DeviceLimits& lim, const MarshalOptions& opt,
                                    std::size_t unit) {
  // 256 work-items: what NVIDIA's compiler gives the rows kernel on an H100 (whose groups
  // may have 1024); a kernel that gets fewer makes Auto plan again at enqueue.
  return three_pass_row_local(lim, opt) / unit +
         std::min<std::size_t>(lim.max_work_group_size, 256) * three_pass_row_units(unit);
}

std::size_t three_pass_passes(const Record& rec, std::size_t unit, std::size_t n) {
  const ThreePass tp(rec.size() / unit, n);
  return tp.rotates() ? 3 : 2;
}

cl_int add_three_pass(Job& job, const PlanStep& step, std::string* err) {
  if (!job.uni) {
    *err = "three-pass needs every slot of the record to be one unit (" + std::to_string(job.unit) +
           "-byte units here)";
    return CL_INVALID_OPERATION;
  }
  const std::uint32_t m = job.ru;
  const std::uint32_t n = static_cast<std::uint32_t>(job.n);
  if (m <= 1 || n <= 1) return CL_SUCCESS;  // a row or a column: nothing moves
  const ThreePass tp(m, n);
  const cl_uint b = static_cast<cl_uint>(tp.b);

  cl_kernel rows = nullptr, cols = nullptr;
  cl_int e = job.m.kernel(job.unit, "dl_tp_rows", &rows, err);
  if (e == CL_SUCCESS) e = job.m.kernel(job.unit, "dl_tp_cols", &cols, err);
  if (e != CL_SUCCESS) return e;

  // Rows: one work-group holds a row of n units, its first `lunits` in local memory (all
  // the kernel leaves of it, or MarshalOptions::tile_local_bytes where set) and
  // three_pass_row_units() per work-item in registers.
  std::size_t kmax = 0;
  cl_ulong used = 0;
  job.m.api->clGetKernelWorkGroupInfo(rows, job.m.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kmax),
                                      &kmax, nullptr);
  job.m.api->clGetKernelWorkGroupInfo(rows, job.m.dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(used),
                                      &used, nullptr);
  kmax = std::min(kmax, job.m.lim.max_work_group_size);
  if (job.m.opt.work_group_size) kmax = std::min(kmax, job.m.opt.work_group_size);
  const std::size_t local =
      std::min(three_pass_row_local(job.m.lim, job.m.opt),
               tile_local_limit(job.m.lim) - std::min<std::size_t>(used, 1024));
  const std::size_t lunits = std::min<std::size_t>(n, local / job.unit);
  const std::size_t per = three_pass_row_units(job.unit);
  const std::size_t rest = n - lunits;
  std::size_t row_wg = std::max<std::size_t>(32, ((rest + per - 1) / per + 31) / 32 * 32);
  if (row_wg > kmax) {
    *err = "three-pass: a row of " + std::to_string(n) + " units needs work-groups of " +
           std::to_string(row_wg) + " work-items; the kernel allows " + std::to_string(kmax);
    return CL_INVALID_OPERATION;
  }
  row_wg = std::max(row_wg, std::min<std::size_t>(kmax, 1024));  // enough to stream the row
  dl::logger().debug(
      "three-pass {} x {} units: rows by {} work-items (kernel allows {}), {} in "
      "local memory",
      m, n, row_wg, kmax, lunits);

  // Columns: bands of W columns (m x W units) in local memory; W a multiple of 32 units
  // when the budget allows (coalesced rows, conflict-free local scatter), narrowed so
  // there are about four bands per compute unit.
  const std::size_t budget = tile_local_budget(job.m.lim, job.m.opt) / job.unit;
  std::size_t W = budget / m;
  const std::size_t want = std::max<std::size_t>(
      32, (n / (4 * std::max<cl_uint>(1, job.m.lim.compute_units)) + 31) / 32 * 32);
  W = std::min(W, want);
  if (W >= 32) W = W / 32 * 32;
  if (W == 0) {
    *err = "three-pass: a column of " + std::to_string(m) + " units does not fit " +
           std::to_string(budget) + " units of local memory";
    return CL_INVALID_OPERATION;
  }
  const std::size_t col_wg = job.m.work_group(cols);
  auto col = [&](cl_uint mode) {
    Op op;
    op.kernel = "dl_tp_cols";
    op.local = col_wg;
    op.global = job.groups((n + W - 1) / W) * col_wg;
    op.arg(job.buffer)
        .arg(cl_ulong(job.base))
        .arg(cl_uint(m))
        .arg(cl_uint(n))
        .arg(b)
        .arg(cl_uint(W))
        .arg(mode)
        .local_arg(m * W * job.unit);
    job.ops.push_back(std::move(op));
  };
  // Modes of dl_tp_cols.
  constexpr cl_uint kRotate = 0, kUnrotate = 1, kShuffle = 2, kUnshuffle = 3;
  auto add_row = [&](cl_uint inv) {
    Op op;
    op.kernel = "dl_tp_rows";
    op.local = row_wg;
    op.global = job.groups(m) * row_wg;
    op.arg(job.buffer)
        .arg(cl_ulong(job.base))
        .arg(cl_uint(m))
        .arg(cl_uint(n))
        .arg(b)
        .arg(inv)
        .local_arg(std::max<std::size_t>(lunits, 1) * job.unit)
        .arg(cl_uint(lunits));
    job.ops.push_back(std::move(op));
  };
  if (step.from.kind == LayoutKind::DA) {  // DA (m x n) -> AoS (n x m)
    if (tp.rotates()) col(kRotate);
    add_row(0);
    col(kShuffle);
  } else {
    col(kUnshuffle);
    add_row(1);
    if (tp.rotates()) col(kUnrotate);
  }
  return CL_SUCCESS;
}

}  // namespace dl::detail
