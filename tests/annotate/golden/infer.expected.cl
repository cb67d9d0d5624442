// dl-annotate --infer infer.cl: put each //DL: line above its kernel (docs/annotation.md)
// kernel nearest (line 8)
//   loc: records of struct latlong, n = the whole buffer
//   d: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//DL: AoS: const loc[*]
// kernel ell (line 15)
//   val: records of K float (the argument that strides its index), n = the whole buffer
//   col: records of K int (the argument that strides its index), n = the whole buffer
//   x: not inferred: read as x[col[e]], not gathered: e does not step with the work-item (the global id is no term of its sums)
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//DL: AoS: const val[*][K], const col[*][K]
// kernel mixed_strides (line 24): nothing inferred (no record buffers)
//   g: not inferred: indexed with different strides (4, 8): no one record length S
//   tmp: not inferred: points to neither __global nor __constant memory
