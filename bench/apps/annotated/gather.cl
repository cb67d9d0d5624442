// Sparse matrix-vector product y = A x in ELL, as an application writes it (Dymaxion's
// indirect-gather case study): every row has K entries, stored column-major (entry k of
// row i at k * rows + i), so consecutive work-items read consecutive entries of val and
// col, while x is read through col wherever the columns lie. With x gathered through col
// (x[col[e]] for every entry e, a copy DL keeps until x or col changes), the kernel reads
// x at consecutive positions too.
//DL: gather: x:float[col:int]
#ifdef DL_ASTA_T
__kernel void spmv_ell_gather(__global const float* val, __global const int* col,
                              __global const float* x, __global float* y, uint rows, uint K, __global const float* dl_gather_x) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[k * rows + i] * dl_gather_x[k * rows + i];
  y[i] = s;
}
#else
__kernel void spmv_ell_gather(__global const float* val, __global const int* col,
                              __global const float* x, __global float* y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[k * rows + i] * x[col[k * rows + i]];
  y[i] = s;
}
#endif
