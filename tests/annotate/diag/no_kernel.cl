// EXIT: 1
// EXPECT: no_kernel.cl:4:1: error: //DL: annotation is not followed by a kernel
struct foo { float bar; int baz; };
//DL: AoS: f[global_size(0)]
