// EXIT: 1
// EXPECT: tile_not_integer.cl:6:12: error: tile width of 'a' names 'w', a parameter of type 'float'; tile widths read integer arguments
// A tile width given by the kernel's arguments (`-> ASTA(E)`) reads integers, as
// dimensions do.

//DL: AoS: a:float[n][4] -> ASTA(w)
__kernel void k(__global float *a, int n, float w) { a[get_global_id(0) * 4] = w; }
