// EXIT: 1
// EXPECT: conditional_dimension.cl:7:12: error: dimension of 'p' names 'm', which is not a parameter of kernel 'k'
// The parameter list holds a conditional, so the names are checked on Clang's view of
// the kernel: without -DHAVE_M it has no parameter m.
struct foo { float bar; int baz; };

//DL: AoS: p[m]
//DL: AoS: q[global_size(0)]
__kernel void k(__global struct foo *q, __global struct foo *p
#ifdef HAVE_M
                , int m
#endif
) {
  p[get_global_id(0)].bar = q[get_global_id(0)].bar;
}
