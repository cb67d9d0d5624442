// Records in __constant memory (read-only).
typedef struct {
  float scale;
  float offset;
} coeff;

//DL: AoS: const c[global_size(0)]
__kernel void affine(__constant coeff *c, __global float *x) {
  size_t i = get_global_id(0);
  x[i] = x[i] * c[i].scale + c[i].offset;
}
