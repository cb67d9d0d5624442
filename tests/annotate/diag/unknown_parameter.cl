// EXIT: 1
// EXPECT: unknown_parameter.cl:5:12: error: 'h' is not a parameter of kernel 'k'
struct foo { float bar; int baz; };

//DL: AoS: h[global_size(0)]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
