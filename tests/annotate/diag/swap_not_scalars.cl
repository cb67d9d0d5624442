// EXIT: 1
// EXPECT: swap_not_scalars.cl:9:12: error: 'p' points to 'struct pair': a swap of dimensions applies to arrays of scalars
// A swap of two dimensions moves rows of scalars; a pointer to structs is refused.

struct pair {
  float a, b;
};

//DL: AoS: p[n][m] -> [m][n]
__kernel void k(__global struct pair *p, int n, int m) { p[get_global_id(0)].a = 1.0f; }
