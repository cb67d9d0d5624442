// EXIT: 1
// EXPECT: malformed_annotation.cl:5:30: error: bad dimension expression
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0) +]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
