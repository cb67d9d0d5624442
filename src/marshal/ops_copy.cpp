// OutOfPlace: copy the buffer to a temporary, then one generic kernel writes every unit
// back at its place in the target map (kernels/copy_map.cl). Any layout pair.
#include "marshal_impl.hpp"

namespace dl::detail {

cl_int add_out_of_place(Job& job, const PlanStep& step, std::string* err) {
  const std::size_t bytes = job.n * job.rec.size();
  cl_mem tmp = nullptr;
  cl_int e = job.alloc(bytes, &tmp);
  if (e != CL_SUCCESS) {
    *err = "allocating a temporary of " + std::to_string(bytes) + " bytes failed (OpenCL error " +
           std::to_string(e) + ")";
    return e;
  }
  Op copy;
  copy.kind = Op::Kind::Copy;
  copy.src = job.buffer;
  copy.src_off = job.offset;
  copy.dst = tmp;
  copy.bytes = bytes;
  job.ops.push_back(copy);

  cl_kernel k = nullptr;
  e = job.m.kernel(job.unit, "dl_copy_map", &k, err);
  if (e != CL_SUCCESS) return e;
  const std::size_t wg = job.m.work_group(k);
  const std::size_t units = job.n * job.ru;
  Op op;
  op.kernel = "dl_copy_map";
  op.local = wg;
  op.global = job.groups((units + wg - 1) / wg) * wg;
  op.arg(tmp)
      .arg(cl_ulong(0))
      .arg(job.buffer)
      .arg(cl_ulong(job.base))
      .arg(cl_ulong(job.n))
      .arg(cl_uint(job.ru))
      .arg(cl_ulong(step.from.width(job.n)))
      .arg(cl_ulong(step.to.width(job.n)))
      .arg(job.uni)
      .arg(job.table);
  job.ops.push_back(std::move(op));
  return CL_SUCCESS;
}

}  // namespace dl::detail
