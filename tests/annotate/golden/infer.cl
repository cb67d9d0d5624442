// ARGS: --infer
// dl-annotate --infer lists, per kernel without a //DL: line, what each pointer
// parameter holds and the annotation it would infer.
typedef struct {
  float lat, lng;
} latlong;

__kernel void nearest(__global const latlong *loc, __global float *d, float lat, float lng,
                      int n) {
  const int i = get_global_id(0);
  if (i >= n) return;
  d[i] = sqrt((lat - loc[i].lat) * (lat - loc[i].lat) + (lng - loc[i].lng) * (lng - loc[i].lng));
}

__kernel void ell(__global const float *val, __global const int *col, __global const float *x,
                  __global float *y, uint rows, uint K) {
  const uint i = get_global_id(0);
  if (i >= rows) return;
  float s = 0.0f;
  for (uint k = 0; k < K; ++k) s += val[i * K + k] * x[col[i * K + k]];
  y[i] = s;
}

__kernel void mixed_strides(__global float *g, __local float *tmp) {
  const int i = get_global_id(0);
  tmp[get_local_id(0)] = g[4 * i] + g[8 * i + 1];
}

//DL: AoS: p[n]
__kernel void already(__global latlong *p, int n) {
  p[get_global_id(0)].lat = 0.0f;
}
