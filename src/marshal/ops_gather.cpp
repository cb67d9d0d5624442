// The indirect copy (kernels/gather.cl): one work-item per destination unit, grid-stride;
// four elements per work-item where they are single units of at most 4 bytes and the
// indices 4 bytes.
#include "marshal_impl.hpp"

namespace dl::detail {

cl_int add_gather(Job& job, cl_mem src, std::uint64_t src_base, cl_mem index,
                  std::uint64_t index_base, const GatherShape& shape, std::string* err) {
  // Elements of one unit of at most 4 bytes through 4-byte indices: dl_gather4, four
  // elements per work-item.
  const bool four = job.unit <= 4 && shape.elem == job.unit && shape.index_bytes == 4;
  const char* name = four ? "dl_gather4" : "dl_gather";
  cl_kernel k = nullptr;
  if (cl_int e = job.m.kernel(job.unit, name, &k, err); e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  const std::uint64_t ru = shape.elem / job.unit;
  const std::uint64_t items = four ? shape.count / 4 + 1 : shape.count * ru;
  Op op;
  op.kernel = name;
  op.local = wg;
  op.global = job.groups((items + wg - 1) / wg) * wg;
  op.arg(src)
      .arg(cl_ulong(src_base))
      .arg(index)
      .arg(cl_ulong(index_base))
      .arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_ulong(shape.count))
      .arg(cl_ulong(shape.src_elems));
  if (!four) op.arg(cl_uint(ru)).arg(cl_uint(shape.index_bytes));
  op.arg(cl_uint(shape.index_signed ? 1 : 0));
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
