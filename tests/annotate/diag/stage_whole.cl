// A local: clause needs the number of elements as an expression the kernel can evaluate.
// EXIT: 1
// EXPECT: 'in' of a local: clause needs its number of elements as an expression of the kernel's arguments ('*', the whole buffer, is not known inside the kernel)
//DL: local: in[*]
__kernel void k(__global const float* in, __global float* out) {
  const int i = get_global_id(0);
  out[i] = in[i] + in[i + 1];
}
