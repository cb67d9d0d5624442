// EXIT: 0
// EXPECT: skipped_region.cl:10:1: remark: 'f' is used in a conditional region the preprocessor skipped: it becomes #error in the transformed 'k', so a build that enables it runs untransformed
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void k(__global struct foo *f) {
  size_t i = get_global_id(0);
  f[i].bar = 1.0f;
#ifdef TWICE
  f[i].baz *= 2;
#endif
}
