// EXIT: 1
// EXPECT: distant_swap_between_sizeof.cl:6:52: error: a[nz][sizeof(float)][nx] -> [nx][sizeof(float)][nz]: the dimension 'sizeof(float)' between the swapped two takes kernel arguments and constants only (no sizeof or arg.field)
// The dimensions between two swapped ones that are not neighbours are evaluated at each
// launch from the kernel's arguments: sizeof (and arg.field) are refused there.

//DL: AoS: const a:float[nz][sizeof(float)][nx] -> [nx][sizeof(float)][nz]
__kernel void k(__global const float *a, __global float *o, int nx, int nz) {
  const int i = get_global_id(0);
  o[i] = a[i];
}
