// EXIT: 1
// EXPECT: dimension_not_integer.cl:6:12: error: dimension of 'f' names 'x', a parameter of type 'float'; dimensions read integer arguments
// The runtime reads a dimension's scalar argument as an integer.
struct foo { float bar; int baz; };

//DL: AoS: f[x]
__kernel void k(__global struct foo *f, float x) { f[get_global_id(0)].bar = x; }
