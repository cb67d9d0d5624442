// EXIT: 1
// EXPECT: not_a_record.cl:4:12: error: annotated parameter 'n' is not a pointer to a record or a flat array
struct foo { float bar; int baz; };
//DL: AoS: n[global_size(0)]
__kernel void k(__global struct foo *f, int n) { f[get_global_id(0)].bar = (float)n; }
