// dl-annotate --infer infer_gather.cl: put each //DL: line above its kernel (docs/annotation.md)
// kernel spmv_ell (line 6)
//   val: not inferred: a stride, but the global id is a term of its index (consecutive work-items read consecutive elements): not records
//   col: the index of the gather x[col]: kept as the host lays it out
//   x: read as x[col[e]], e stepping with the work-item: a copy gathered through col (gather: x[col])
//   y: not inferred: a vector per element is already one slot
//DL: gather: x[col]
// kernel permute (line 17)
//   x: read as x[perm[e]], e stepping with the work-item: a copy gathered through perm (gather: x[perm])
//   perm: the index of the gather x[perm]: kept as the host lays it out
//   out: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//DL: gather: x[perm]
// kernel spmv_rows (line 25)
//   val: records of K float (the argument that strides its index), n = the whole buffer
//   col: records of K int (the argument that strides its index), n = the whole buffer
//   x: not inferred: read as x[col[e]], not gathered: e does not step with the work-item (the global id is no term of its sums)
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//DL: AoS: const val[*][K], const col[*][K]
// kernel scatter_add (line 35): nothing inferred (no record buffers)
//   x: not inferred: read as x[col[e]], not gathered: x is written (not a pointer to const)
//   col: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
// kernel self_init (line 42): nothing inferred (no record buffers)
//   x: not inferred: read as x[col[e]], not gathered: e does not step with the work-item (the global id is no term of its sums)
//   col: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
