// EXIT: 1
// EXPECT: utf8_in_annotation.cl:5:30: error: expected ',' or ';' between buffers, found 'é' (U+00E9)
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)] é
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
