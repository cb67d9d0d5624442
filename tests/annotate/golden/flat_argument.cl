// Flat records whose length S is a kernel argument (ELL SpMV with K as an argument): one
// program for every K. The record is the scalar type (`val:float`); the runtime makes
// the record of K floats at each launch, and g[i * K + k] names record i, scalar k.
__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K);

//DL: AoS: const val[rows][K], const col[rows][K]
__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s + val[K * i];
}

// The whole buffer: n = its size over K floats at each launch.
//DL: AoS: g[*][K]
__kernel void whole(__global float *g, int K) {
  const int i = get_global_id(0);
  g[i * K + 1] = g[(i + 1) * K - 1];
}
