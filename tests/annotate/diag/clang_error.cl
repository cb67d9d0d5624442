// EXIT: 1
// EXPECT: clang_error.cl:6:43: error: use of undeclared identifier 'nope'
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) { nope = f[get_global_id(0)].bar; }
