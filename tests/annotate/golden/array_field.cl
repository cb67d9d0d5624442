// Array fields: f[e].m[k] with constant and variable k.
typedef struct {
  float v[4];
  int n;
} poly;

//DL: AoS: p[count]
__kernel void eval(__global poly *p, int count, float x, __global float *out) {
  int i = get_global_id(0);
  if (i >= count) return;
  float y = 0.0f;
  for (int k = p[i].n - 1; k >= 0; --k) y = y * x + p[i].v[k];
  out[i] = y + p[i].v[0];
}
