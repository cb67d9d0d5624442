// EXIT: 1
// EXPECT: diagonal_not_scalars.cl:9:12: error: 'p' points to 'struct pair': a diagonal layout applies to arrays of scalars (p:float[ny][nx] -> DIAG)
// A diagonal layout moves the scalars of a plane; a pointer to structs is refused.

struct pair {
  float a, b;
};

//DL: AoS: p[n][m] -> DIAG
__kernel void k(__global struct pair *p, int n, int m) { p[get_global_id(0)].a = 1.0f; }
