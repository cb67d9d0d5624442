// EXIT: 0
// UNTRANSFORMED
// EXPECT: atomic_field.cl:8:3: warning: atomic operation 'atomic_add' on a field of buffer 'h'
struct hist { int count; float sum; };

//DL: AoS: h[global_size(0)]
__kernel void k(__global struct hist *h) {
  atomic_add(&h[get_global_id(0) / 2].count, 1);
}
