// The helpers dl-annotate generates go above the // comment lines that introduce a
// kernel, but never into a block comment: the "//" line below ends one.
struct foo { float bar; int baz; };
/* A block comment whose last line
// looks like a line comment */
//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) { f[get_global_id(0)].bar = 1.0f; }
