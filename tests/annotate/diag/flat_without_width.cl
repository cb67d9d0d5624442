// EXIT: 1
// EXPECT: error: flat array 'g' needs its fastest dimension, the number of scalars per record, a constant or integer arguments
//DL: AoS: g[global_size(0)]
__kernel void k(__global float *g) { g[get_global_id(0)] = 1.0f; }
