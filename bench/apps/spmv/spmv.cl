// Sparse matrix-vector multiplication in ELL format, as an application writes it: every
// row keeps its K entries together (val[rows][K] and col[rows][K], AoS by row).
//DL: AoS: const val[rows][K], const col[rows][K]
__kernel void spmv_ell(__global const float* val, __global const int* col,
                       __global const float* x, __global float* y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s;
}
