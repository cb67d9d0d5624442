// EXIT: 1
// EXPECT: error: record of 'f': field 'u' is a union (not supported)
union bits { float f; int i; };
struct foo { union bits u; int k; };
//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].k = 1; }
