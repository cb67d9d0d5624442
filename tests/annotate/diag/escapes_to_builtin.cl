// EXIT: 0
// UNTRANSFORMED
// EXPECT: escapes_to_builtin.cl:7:12: warning: pointer to buffer 'g' passed to 'vload4'
//DL: AoS: g[global_size(0)][4]
__kernel void k(__global float *g, __global float4 *out) {
  size_t e = get_global_id(0);
  out[e] = vload4(e, g);
}
