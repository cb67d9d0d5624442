// ARGS: --marshal-out=no-such-dir/m.cl
// EXIT: 1
// EXPECT: dl-annotate: error: cannot write 'no-such-dir/m.cl'
// Outputs are written all or none: -o is not written when --marshal-out cannot be.
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
