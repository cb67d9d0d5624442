// ARGS: --infer
// dl-annotate --infer lists the gathers it would infer, with why each array is or is not
// gathered (the kernels of auto_gather.cl).

// Column-major ELL: consecutive work-items read consecutive entries of col.
__kernel void spmv_ell(__global const float *val, __global const int *col,
                       __global const float4 *x, __global float4 *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float4 s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[k * rows + i] * x[col[k * rows + i]];
  y[i] = s;
}

// A permutation read backwards, with the id called directly; a second read of the same
// array through the same index array is taken from the same copy.
__kernel void permute(__constant uchar *x, __global const ushort *perm, __global uint *out,
                      uint m) {
  if (get_global_id(0) >= m) return;
  out[get_global_id(0)] = x[perm[m - 1u - get_global_id(0)]] + perm[0][x];
}

// Row-major ELL: each work-item walks its own row of col (i * K + k): col's entries do not
// step with the work-item, so no gather; val and col are records of K.
__kernel void spmv_rows(__global const float *val, __global const int *col,
                        __global const float *x, __global float *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s;
}

// x is written: a copy could not hold what the kernel writes; no gather.
__kernel void scatter_add(__global float *x, __global const int *col, uint m) {
  const uint i = get_global_id(0);
  if (i < m) x[col[i]] += 1.0f;
}

// A variable initialised from itself (C allows it) is no global id, and the walk from a
// variable to its initialiser stops (it once never ended here).
__kernel void self_init(__global const float *x, __global const int *col, __global float *y) {
  int i = i;
  y[get_global_id(0)] = x[col[i]];
}
