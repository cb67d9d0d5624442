// EXIT: 1
// EXPECT: not two dimensions exchanged (DL swaps two dimensions; other permutations are not offered)
// Any two dimensions may be exchanged, the others left in place; a cycle of three is
// another permutation and refused.

//DL: AoS: const a:float[nz][ny][nx] -> [nx][nz][ny]
__kernel void k(__global const float *a, __global float *o, int nx, int ny, int nz) {
  const int i = get_global_id(0);
  o[i] = a[i];
}
