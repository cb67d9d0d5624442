// EXIT: 0
// UNTRANSFORMED
// EXPECT: alias_from_elsewhere.cl:10:9: warning: pointer 'p' is assigned a value not derived from buffer 'f'
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f, __global struct foo *other, int which) {
  __global struct foo *p = f + get_global_id(0);
  if (which)
    p = other + get_global_id(0);
  p->bar = 2.0f;
}
