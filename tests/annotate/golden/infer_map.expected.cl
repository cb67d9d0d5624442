// dl-annotate --infer infer_map.cl: put each //DL: line above its kernel (docs/annotation.md)
// kernel reorder (line 13)
//   x: read as x[bitrev(e, ...)], e stepping with the work-item: a copy made through bitrev (map: x[bitrev])
//   z: read as z[wrap(e, ...)], e stepping with the work-item: a copy made through wrap (map: z[wrap])
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//DL: map: x[bitrev], z[wrap]
// kernel none (line 20): nothing inferred (no record buffers)
//   x: not inferred: read as x[bitrev(e, ...)], not mapped: e does not step with the work-item (the global id is no term of its sums)
//   w: not inferred: read as w[wrap(e, ...)], not mapped: w is written (not a pointer to const)
//   v: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
// kernel moving (line 30): nothing inferred
//   x: not inferred: read as x[wrap(e, ...)], not mapped: argument 2 of 'wrap': the kernel assigns parameter 'n'
//   y: not inferred: scalars indexed without a record stride (g[S*e + c]): not records
