// EXIT: 1
// EXPECT: bad_tile.cl:5:33: error: bad tile width '-3' in 'ASTA(-3)': T is a whole number from 1 to 1048576
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)] -> ASTA(-3)
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
