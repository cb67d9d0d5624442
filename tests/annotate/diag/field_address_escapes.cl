// EXIT: 0
// UNTRANSFORMED
// EXPECT: field_address_escapes.cl:8:23: warning: the address of a field of buffer 'v' escapes
typedef struct { float x, y, z; } vec;

//DL: AoS: v[global_size(0)]
__kernel void k(__global vec *v) {
  __global float *p = &v[get_global_id(0)].x;
  p[1] = p[0] + p[2];  /* index arithmetic across fields */
}
