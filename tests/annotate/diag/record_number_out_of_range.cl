// EXIT: 1
// EXPECT: record_number_out_of_range.cl:5:7: error: record field 'float99999999999999999999:bar@0': bad vector width
struct foo { float bar; int baz; };

//DL: record foo 8 4 float99999999999999999999:bar@0 int:baz@4
//DL: AoS: f[global_size(0)] AOS2ASTA_foo
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
