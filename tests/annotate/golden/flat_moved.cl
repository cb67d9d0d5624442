// A flat array whose base pointer moves. By whole records (a constant multiple of S,
// through a macro too): record (g - base) / S + e, scalar c, as if it had not moved. By
// anything else (2 scalars, ++): dl_flat, and the report says why.
#define Q 20
#define MARGIN (2 * Q * 100)

//DL: AoS: const src[n][Q], dst[n][Q]
__kernel void by_records(__global const float *src, __global float *dst, int n) {
  src += MARGIN;
  dst = dst + Q;
  const int c = get_global_id(0);
  float s = 0.0f;
  for (int q = 0; q < 19; ++q) s += src[c * Q + q];
  dst[c * Q + 19] = s + src[Q * c + 19];
}

//DL: AoS: g[n][Q], h[n][Q]
__kernel void by_scalars(__global float *g, __global float *h, int n) {
  g += 2;
  h++;
  const int c = get_global_id(0);
  g[c * Q + 1] = h[c * Q];
}
