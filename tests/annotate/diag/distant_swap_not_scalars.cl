// EXIT: 1
// EXPECT: distant_swap_not_scalars.cl:10:12: error: 'p' points to 'struct pair': a swap of dimensions applies to arrays of scalars
// A swap of two dimensions that are not neighbours moves rows of scalars too; a pointer
// to structs is refused.

struct pair {
  float a, b;
};

//DL: AoS: p[n][k][m] -> [m][k][n]
__kernel void k(__global struct pair *p, int n, int k, int m) { p[get_global_id(0)].a = 1.0f; }
