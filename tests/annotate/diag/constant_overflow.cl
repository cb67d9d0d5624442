// EXIT: 1
// EXPECT: constant_overflow.cl:6:14: error: bad dimension expression: overflow (9223372036854775807 * 9223372036854775807 exceeds 64 bits)
// EXPECT: constant_overflow.cl:9:26: error: the dimensions of 'g' multiply past 64 bits
struct foo { float bar; int baz; };

//DL: AoS: f[9223372036854775807*9223372036854775807]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }

//DL: AoS: g[4294967296][4294967296]
__kernel void q(__global struct foo *g) { g[get_global_id(0)].bar = 1.0f; }
