// A //DL: line inside a block comment is commented out: Clang and the runtime see no
// annotation, so dl-annotate leaves the kernel as it is.
struct foo { float bar; int baz; };

/* The old annotation, kept for reference:
//DL: AoS: f[global_size(0)]
*/
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
